"""The turn structure: set-up, strategic turns, operational turns, and each side's sequence of play.

A game is a series of decision points. The set-up asks both sides at once; then each player-turn
walks its side's sequence: New Units (a decision), the air phases (the air layer's), Movement (a
decision), Bombardment, Combat (one decision an attack, with the defender's retreat and the
attacker's advance as decisions of their own), Attrition (dice, no decision). A strategic turn
begins with its arrivals and the tunnel; the game ends at the start of the data's last strategic
turn, or the instant a side wins.

The rule layers the variant's data names (:mod:`.layers`: the Vernian inventions, air and armour)
fill the hooks at each of these points; the engine runs only those.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import air, artillery, combat, inventions, movement, rules, supply
from .actions import Action
from .gamedata import Side
from .layers import PhaseHook, hooks
from .state import AVAILABLE, GONE, MAP, POOL, Unit, World


class IllegalAction(ValueError):
    """An action the rules refuse now; the message says why."""


AUTOMATIC: dict[str, PhaseHook] = {}
"""The base game's phases that run without a decision, by name (attrition; the layers add theirs)."""
DECIDED = (
    "new_units",
    "zeppelin_base_change",
    "flyer_base_change",
    "airmobile_embarkation",
    "zeppelin_sortie",
    "mission_allocation",
    "interception",
    "movement",
    "bombard",
    "combat",
)
"""Phases that ask a side (the phasing side, but the other side intercepts)."""
DECIDED_BY_ENEMY = ("interception",)


def seat_of(world: World) -> str:
    """The seat that must act now."""
    if world.decision is not None:
        return str(world.decision["seat"])
    if world.stage == "play" and world.phase_name in DECIDED_BY_ENEMY:
        return world.data.enemy(world.side)
    return world.side


# ---------------------------------------------------------------------- whose turn, in words
def out_of_turn(world: World, seat: str) -> str:
    """Why ``seat`` may not act now, in players' words: whose step it is, and when ``seat`` decides
    next as the position stands (the turn's own course may ask it sooner, or later)."""
    if world.stage == "over":
        return f"the game is over: {world.result}"
    return f"{_step_now(world)}; {_next_step(world, seat)}"


def _its(side: Side) -> str:
    return "their" if side.plural else "its"


def _step_now(world: World) -> str:
    data = world.data
    d = world.decision
    if d is not None:
        who = data.side(str(d["seat"]))
        if d["kind"] == "retreat":
            return f"{who.called} must pick the retreat hex of {', '.join(d['units'])} from {d['hex']}"
        if d["kind"] == "advance":
            return f"{who.called} must decide {_its(who)} advance into {d['hex']}"
        return f"{who.called} must place {_its(who)} storm markers for turn {world.turn_name()}"
    phasing = data.side(world.side)
    words = data.phase_words(world.phase_name)
    decider = data.side(seat_of(world))
    if decider.id == phasing.id:
        return f"it is {phasing.possessive} {words}"
    verb = "decide" if decider.plural else "decides"
    return f"it is the {words} of {phasing.possessive} player-turn, in which {decider.called} {verb}"


def _next_step(world: World, seat: str) -> str:
    """When ``seat`` is next asked: the phases ahead are walked on a copy of the position, without
    playing them, to the first that would ask ``seat`` (as :func:`needs_decision` and the
    strategic turn's arrivals say)."""
    data = world.data
    side = data.side(seat)
    decides = "decide" if side.plural else "decides"
    subject = f"{side.called} {decides} next"
    d = world.decision
    if d is not None and d["kind"] in ("retreat", "advance") and seat == world.side:
        return f"{subject} in this {data.phase_words(world.phase_name)}"
    # The enemy's attacks still to come may ask this side for a retreat before its turn.
    risk = (
        world.phase_name == "combat" and world.side != seat and (d is not None or bool(combat.targets(world)))
    )
    storms_first = d is not None and d["kind"] == "storms"  # asked before the turn's first phase
    new_strategic = False
    for probe, started in _phases_ahead(world, storms_first):
        if started == "end":
            return f"the game ends at the start of turn {data.end_turn} before {side.called} {decides} again"
        if started:
            for asks in hooks(probe).operational_asks:
                what = asks(probe, seat, _its(side))
                if what:
                    return f"{subject} at the start of turn {probe.turn_name()}, {what}"
        new_strategic = new_strategic or started == "strategic"
        if probe.phase_name == "combat" and probe.side != seat and needs_decision(probe):
            risk = True
        if seat_of(probe) != seat:
            continue
        arriving = new_strategic and probe.phase_name == "new_units" and _arrivals(probe, seat)
        if arriving or needs_decision(probe):
            return subject + _where(world, probe, seat, risk)
    has = "have" if side.plural else "has"
    return f"{side.called} {has} nothing to decide this turn or the next, as things stand"


def _phases_ahead(world: World, include_current: bool) -> Iterator[tuple[World, str]]:
    """A copy of ``world`` set to each phase ahead in turn, through two operational turns, with what
    begins there: ``operational``, ``strategic`` (a new operational turn both), ``end`` (the game's
    end: the last), or ``""``. The phases are not played: only the turn track moves."""
    data = world.data
    new_player_turn = hooks(world).player_turn
    probe = world.clone()
    probe.decision = None
    for _ in range(2 * sum(len(s) for s in data.sequence.values())):
        started = ""
        if include_current:
            started, include_current = "operational", False
        else:
            probe.phase += 1
            if probe.phase >= len(data.sequence[probe.side]):
                probe.phase, probe.player = 0, probe.player + 1
                for hook in new_player_turn:  # what a new player-turn clears (last turn's air orders)
                    hook(probe)
            if probe.player >= len(data.sides):
                probe.player, probe.operational, started = 0, probe.operational + 1, "operational"
            if probe.operational > data.operational_turns:
                probe.operational, probe.strategic, started = 1, probe.strategic + 1, "strategic"
                if probe.turn_letter == data.end_turn:
                    yield probe, "end"
                    return
        probe.moved, probe.attacked, probe.cleared = [], [], []
        yield probe, started


def _where(world: World, probe: World, seat: str, risk: bool) -> str:
    """`` in its own movement phase of turn A2`` and the like: where ``probe`` stands, for ``seat``."""
    data = world.data
    side = data.side(seat)
    words = data.phase_words(probe.phase_name)
    phasing = data.side(probe.side)
    later = (probe.strategic, probe.operational) != (world.strategic, world.operational)
    if phasing.id != seat:
        return f" in the {words} of {phasing.possessive} player-turn" + (
            f" in turn {probe.turn_name()}" if later else ""
        )
    out = f" in {_its(side)} own {words}" + (f" of turn {probe.turn_name()}" if later else "")
    if risk:
        enemy, pronoun = data.side(data.enemy(seat)).called, "them" if side.plural else "it"
        out += f", unless an attack of {enemy} asks {pronoun} for a retreat hex first"
    return out


def _arrivals(world: World, seat: str) -> bool:
    """Will units of ``seat`` be waiting to be placed at the start of this strategic turn?"""
    letter = world.turn_letter
    returning = set(world.returning.get(world.strategic, []))
    return any(
        world.side_of(u) == seat
        and u.where == POOL
        and (world.data.code_arrival(u.spec) == letter or u.id in returning)
        for u in world.units.values()
    )


# ---------------------------------------------------------------------- start and flow
def begin_play(world: World) -> None:
    """After the set-up: the tunnel's stacks go on the track and strategic turn A begins."""
    world.stage = "play"
    world.tunnel_stacks = rules.tunnel_stacks(world)
    rules.check_tunnel(world)
    rules.check_victory(world)
    begin_strategic_turn(world)


def begin_strategic_turn(world: World) -> None:
    data = world.data
    if world.turn_letter == data.end_turn:
        world.stage = "over"
        world.result = f"a negotiated peace at the start of turn {data.end_turn}: a draw"
        world.say(world.result)
        return
    world.say(f"strategic turn {world.turn_letter}")
    rules.strategic_arrivals(world)
    for hook in hooks(world).strategic:
        hook(world)
    begin_operational_turn(world)


def begin_operational_turn(world: World) -> None:
    world.player = 0
    world.phase = 0
    for hook in hooks(world).operational:
        hook(world)
    enter_phase(world)


def enter_phase(world: World) -> None:
    world.moved = []
    world.attacked = []
    if world.stage != "play" or world.phase_name != "combat":
        world.cleared = []  # a bombardment's cleared hexes last through the combat phase after it
    world.extra.pop("last_attackers", None)
    world.extra.pop("bombards", None)
    if world.stage != "play":
        return
    h = hooks(world)
    if world.phase == 0:
        for hook in h.player_turn:
            hook(world)
    for hook in h.on_entry.get(world.phase_name, ()):
        hook(world)


def next_phase(world: World) -> None:
    """Move to the next phase of the sequence (next side, next operational or strategic turn)."""
    data = world.data
    world.phase += 1
    if world.phase >= len(data.sequence[world.side]):
        world.phase = 0
        world.player += 1
        if world.player >= len(data.sides):
            world.player = 0
            world.operational += 1
            if world.operational > data.operational_turns:
                world.operational = 1
                world.strategic += 1
                enter_phase(world)
                begin_strategic_turn(world)
                return
            begin_operational_turn(world)
            return
    enter_phase(world)


def needs_decision(world: World) -> bool:
    if world.stage != "play":
        return world.stage == "setup"
    if world.decision is not None:
        return True
    name = world.phase_name
    if name == "new_units":
        return any(u.where == AVAILABLE and world.side_of(u) == world.side for u in world.units.values()) or (
            world.operational == 1
            and any(
                rules.may_withdraw(world, u) is None for u in world.on_map() if world.side_of(u) == world.side
            )
        )
    if name == "movement":
        return any(
            world.side_of(u) == world.side and movement.allowance(world, u) > 0 for u in world.on_map()
        )
    if name == "bombard":
        return bool(artillery.gunners(world))
    if name in ("zeppelin_base_change", "flyer_base_change"):
        return next(air.base_changers(world), None) is not None
    if name == "airmobile_embarkation":
        return bool(air.boardings(world))
    if name == "zeppelin_sortie":
        return bool(air.sortie_ready(world))
    if name == "mission_allocation":
        return bool(air.mission_ready(world))
    if name == "interception":
        return any(air.interception_targets(world, f) for f in air.interceptors(world))
    if name == "combat":
        return bool(combat.targets(world))
    return False


def run_on(world: World) -> None:
    """Play every phase that needs no decision, until one does or the game ends."""
    guard = 0
    automatic = hooks(world).automatic
    while world.stage == "play" and not needs_decision(world):
        guard += 1
        if guard > 10_000:
            raise RuntimeError("the turn sequence does not advance")
        hook = AUTOMATIC.get(world.phase_name) or automatic.get(world.phase_name)
        if hook is not None:
            hook(world)
            if world.stage != "play":
                return
        next_phase(world)


def finish_step(world: World) -> None:
    """After a decision point of the phasing side: a New Units or Movement submission ends its phase;
    a combat submission with no attack ends the combat phase."""
    if world.stage != "play" or world.decision is not None:
        return
    attacked = world.extra.pop("attacked_now", False)
    if world.phase_name == "bombard":
        artillery.fire(world)
        combat.drop_lone_tanks(world)
        after_change(world)
    elif world.phase_name in ("zeppelin_base_change", "flyer_base_change"):
        air.settle_flyers(world, world.side)
    elif world.phase_name == "interception":
        air.fight_interceptions(world)
        after_change(world)
    elif world.phase_name in ("new_units", "movement"):
        combat.drop_lone_tanks(world)  # a tank must end the phase with infantry
        after_change(world)
    elif world.phase_name == "combat" and attacked:
        return
    if world.stage == "play":
        next_phase(world)


# ---------------------------------------------------------------------- attrition
def attrition(world: World) -> None:
    """Each stack of the phasing side out of supply rolls a die: at or under its number of units, it
    loses a step."""
    for hook in hooks(world).attrition:  # the layers' first (generators' lightning)
        hook(world)
    states = supply.unit_states(world)
    stacks: dict[int, list[str]] = {}
    for uid, state in states.items():
        unit = world.units[uid]
        if state == supply.OUT and world.side_of(unit) == world.side and unit.hex is not None:
            stacks.setdefault(unit.hex, []).append(uid)
    geo = world.data.geography
    for cell in sorted(stacks, key=lambda c: geo.hexes[c].id):
        units = [world.units[u] for u in stacks[cell]]
        die = world.roll(f"attrition in {geo.hexes[cell].id} ({len(units)} units)", geo.hexes[cell].id)
        if die <= len(units):
            world.say(f"attrition in {geo.hexes[cell].id}: die {die}, a step lost")
            combat.take_losses(world, units, 1, 1)
        else:
            world.say(f"attrition in {geo.hexes[cell].id}: die {die}, no loss")
    after_change(world)


AUTOMATIC["attrition"] = attrition


def after_change(world: World) -> None:
    h = hooks(world)
    for hook in h.on_change:  # flyers displaced from overrun bases
        hook(world)
    if world.stage == "play" and (
        world.decision is not None or world.phase_name not in ("new_units", "movement")
    ):
        combat.drop_lone_tanks(world)  # during a move or a placement a tank may wait for its infantry
    for hook in h.after_change:  # generators overrun
        hook(world)
    rules.check_tunnel(world)
    rules.check_victory(world)


# ---------------------------------------------------------------------- applying actions
def apply(world: World, seat: str, action: Action) -> None:
    """Play one action of ``seat`` on ``world``, or raise :class:`IllegalAction` saying why not."""
    try:
        _apply(world, seat, action)
    except (
        movement.MoveError,
        combat.CombatError,
        rules.PlacementError,
        artillery.BombardError,
        air.AirError,
    ) as exc:
        raise IllegalAction(str(exc)) from None


def _unit(world: World, uid: str, seat: str) -> Unit:
    unit = world.units[uid]
    if world.side_of(unit) != seat:
        raise IllegalAction(f"{uid} is not {seat}'s")
    return unit


def _apply(world: World, seat: str, action: Action) -> None:
    geo = world.data.geography
    if world.stage == "over":
        raise IllegalAction("the game is over")
    if world.stage == "setup":
        if action.verb != "setup":
            raise IllegalAction(f"the game is being set up: write {'setup UNIT HEX'!r}")
        rules.setup_place(world, _unit(world, action.units[0], seat), geo.hex(action.hex).index)
        return
    if world.decision is not None:
        kind = world.decision["kind"]
        if seat != world.decision["seat"]:
            raise IllegalAction(f"{world.decision['seat']} must decide a {kind} now, not {seat}")
        if kind == "storms":
            if action.verb != "storm":
                raise IllegalAction("place your storm markers: storm HEX (one a hex, in France or England)")
            inventions.place_storm(world, geo.hex(action.hex).index)
            return
        if kind == "retreat":
            if action.verb != "retreat":
                raise IllegalAction(
                    f"pick a retreat hex: retreat HEX (one of {', '.join(world.decision['options'])})"
                )
            if action.hex not in world.decision["options"]:
                raise IllegalAction(
                    f"the defenders of {world.decision['hex']} cannot retreat to {action.hex} "
                    f"(they may go to {', '.join(world.decision['options'])})"
                )
            combat.retreat(world, geo.hex(world.decision["hex"]).index, geo.hex(action.hex).index)
        else:
            if action.verb == "stay":
                world.decision = None
            elif action.verb == "advance":
                combat.advance(world, list(action.units), action.onward)
            else:
                raise IllegalAction("advance UNIT,... into the emptied hex, or stay")
        after_change(world)
        return
    if seat != seat_of(world):
        raise IllegalAction(out_of_turn(world, seat))
    phase = world.phase_name
    if phase == "new_units":
        if action.verb == "place":
            unit = _unit(world, action.units[0], seat)
            cell = geo.hex(action.hex).index
            if unit.kind == "generator":
                if unit.where != AVAILABLE or cell not in inventions.generator_hexes(world, seat):
                    raise IllegalAction(
                        f"{unit.id} goes in a city of its side's country that it holds, with no generator: "
                        f"not {action.hex}"
                    )
                unit.where, unit.hex = MAP, cell
            else:
                rules.place(world, unit, cell)
        elif action.verb == "withdraw":
            unit = _unit(world, action.units[0], seat)
            reason = rules.may_withdraw(world, unit)
            if reason:
                raise IllegalAction(reason)
            unit.where, unit.hex = AVAILABLE, None
            world.say(f"{unit.id} leaves England for the available box")
        else:
            raise IllegalAction("in the New Units phase: place UNIT HEX, or withdraw UNIT")
    elif phase == "movement":
        if action.verb == "hold":
            unit = _unit(world, action.units[0], seat)
            if unit.id in world.moved:
                raise IllegalAction(f"{unit.id} has already moved this phase")
            world.moved.append(unit.id)
            return
        if action.verb != "move":
            raise IllegalAction("in the Movement phase: move UNIT HEX, or hold UNIT")
        movement.move(world, _unit(world, action.units[0], seat), geo.hex(action.hex).index)
    elif phase in ("zeppelin_base_change", "flyer_base_change"):
        if action.verb != "base":
            raise IllegalAction("in a base change phase: base UNIT HEX")
        unit = _unit(world, action.units[0], seat)
        if phase == "flyer_base_change" and unit.kind != "flyer":
            raise IllegalAction("in the ether flyer base change phase only flyers move")
        air.change_base(world, unit, geo.hex(action.hex).index)
    elif phase == "airmobile_embarkation":
        if action.verb != "embark":
            raise IllegalAction("in the airmobile embarkation phase: embark TROOP ZEPPELIN")
        air.embark(world, _unit(world, action.units[0], seat), _unit(world, action.units[1], seat))
        return
    elif phase == "zeppelin_sortie":
        if action.verb != "sortie":
            raise IllegalAction("in the Zeppelin sortie phase: sortie ZEPPELIN HEX")
        air.sortie(world, _unit(world, action.units[0], seat), geo.hex(action.hex).index)
    elif phase == "mission_allocation":
        if action.verb != "mission":
            raise IllegalAction(
                "in the mission allocation phase: mission FLYER sweep|light|heavy HEX, or FLYER escort FLYER"
            )
        air.fly_mission(
            world, _unit(world, action.units[0], seat), action.mission, action.hex or action.units[-1]
        )
        return
    elif phase == "interception":
        if action.verb != "intercept":
            raise IllegalAction("in the interception phase: intercept HEX with FIGHTER,FIGHTER,...")
        air.intercept(world, [_unit(world, u, seat) for u in action.units], geo.hex(action.hex).index)
        return
    elif phase == "bombard":
        if action.verb != "bombard":
            raise IllegalAction("in the Bombard phase: bombard HEX with HQ (every target before any die)")
        for uid in action.units:
            artillery.designate(world, _unit(world, uid, seat), geo.hex(action.hex).index)
        return
    elif phase == "combat":
        if action.verb != "attack":
            raise IllegalAction("in the Combat phase: attack HEX with UNIT,UNIT,...")
        if world.extra.get("attacked_now"):
            raise IllegalAction("one attack a submission: its die is rolled before the next is chosen")
        cell = geo.hex(action.hex).index
        attackers = [_unit(world, u, seat) for u in action.units]
        combat.check_attack(world, cell, attackers)
        world.extra["attacked_now"] = True
        combat.resolve(world, cell, attackers)
    else:
        raise IllegalAction(f"nothing to do in the {phase.replace('_', ' ')} phase")
    after_change(world)


def finish_setup(world: World, side: str) -> None:
    """Place by rule whatever the side left unplaced (its deadline passed, or it stopped early)."""
    tunnel_hex = rules.dover(world)
    for unit in rules.setup_units(world, side):
        options = rules.setup_hexes(world, unit)
        if tunnel_hex in options and unit.kind == "infantry":
            options.remove(tunnel_hex)  # the tunnel's garrison first, so that it stays open
            options.insert(0, tunnel_hex)
        if options:
            rules.setup_place(world, unit, options[0])
        else:
            unit.where = GONE
            world.say(f"{unit.id} finds no set-up hex and is left out")


def default_retreat(world: World) -> str:
    """The defender's retreat when it does not choose: the first hex not next to an enemy, else the
    first."""
    assert world.decision is not None
    geo = world.data.geography
    side = world.decision["seat"]
    enemy = supply.ground_masks(world)[world.data.enemy(side)]
    zone = supply.zones(world, enemy)
    for hid in world.decision["options"]:
        if not (zone >> geo.hex(hid).index) & 1:
            return f"retreat {hid}"
    return f"retreat {world.decision['options'][0]}"


def units_on_map(world: World, side: str) -> list[Unit]:
    return sorted(
        (u for u in world.units.values() if u.where == MAP and world.side_of(u) == side), key=lambda u: u.id
    )
