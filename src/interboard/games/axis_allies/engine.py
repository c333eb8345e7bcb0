"""The Axis & Allies turn: purchase, combat move, combat, non-combat move, placement, income.

Each power's turn is a few decision points of its seat (one per step: the whole purchase, the whole
combat move, ...), and the battles in between, whose casualty choices and retreats are decision
points of the side concerned (:mod:`.combat`). :func:`apply` plays one action of the mover on a
:class:`~.state.World`; :func:`finish_step` ends the mover's step and runs the game on to the next
decision point (income, the next power's turn, the end of the game). A refused action raises
:class:`IllegalAction` naming the rule.
"""

from __future__ import annotations

from collections import Counter

from . import capture, combat, rules
from .actions import Action, Buy, Convert, Move, Place, Transfer, counts_text
from .layers import InitialPlacement, hooks, out_of_the_war
from .moves import (
    MoveError,
    air_distance,
    can_carry,
    carrier_room,
    find_route,
    hostile_land,
    is_neutral,
    landing_spots,
    left,
    may_unload_from,
    movement_allowance,
    neighbours,
    transports_at,
)
from .state import IllegalAction, Phase, Unit, World

MOVER_PHASES = (Phase.PURCHASE, Phase.COMBAT_MOVE, Phase.NONCOMBAT_MOVE, Phase.PLACE)


# ---------------------------------------------------------------------- turn start and end
def begin_turn(world: World) -> None:
    """A power's turn starts: movement and origins reset, the territories its side holds noted (for
    landing and placement), its submarines surface."""
    power = world.power
    for u in world.units.values():
        u.moved, u.fought, u.origin = 0, False, u.at
        if u.owner == power:
            u.submerged = False
            u.cap = False  # patrols end: the fighters fly again and must land this turn
    side = world.side(power)
    world.extra["held_at_start"] = {
        sid: world.side(p) for sid, p in world.owner.items() if not world.is_sea(sid)
    }
    world.extra["factories_at_start"] = sorted(
        u.at for u in world.units.values() if u.owner == power and world.unit_type(u).has("factory")
    )
    world.extra["conquered"] = []
    world.extra.pop("flew_in_combat_move", None)
    world.extra["side"] = side
    world.phase = Phase.PURCHASE
    rules.on_turn_start(world)


def end_turn(world: World) -> None:
    """Income, repairs, and the next power (or the next round, and the victory check)."""
    power = world.power
    rules.collect_income(world, power)
    for u in world.units.values():
        if u.owner == power:
            u.damage = 0  # battleships are repaired at the end of their owner's turn
    rules.on_turn_end(world, power)
    if world.winner is not None:
        world.phase = Phase.OVER
        return
    while True:
        world.turn += 1
        if world.turn >= len(world.order):
            world.turn = 0
            rules.end_of_round(world)
            if world.phase is Phase.OVER:
                return
            world.round += 1
        if not out_of_the_war(world, world.power):
            break
    begin_turn(world)


def finish_step(world: World) -> None:
    """The mover's step is over: run on to the next decision point."""
    if world.phase is Phase.SETUP:
        if _initial_placement(world).finish_step(world):
            begin_turn(world)
    elif world.phase is Phase.PURCHASE:
        world.phase = Phase.COMBAT_MOVE
    elif world.phase is Phase.COMBAT_MOVE:
        world.extra["flew_in_combat_move"] = sorted(
            u.id
            for u in world.units.values()
            if u.owner == world.power and u.moved and world.unit_type(u).is_air
        )
        world.phase = Phase.COMBAT
        combat.begin_combat(world)
    elif world.phase is Phase.NONCOMBAT_MOVE:
        land_aircraft(world)
        world.phase = Phase.PLACE
    elif world.phase is Phase.PLACE:
        end_turn(world)
    run_on(world)


def run_on(world: World) -> None:
    """Advance through everything that needs no decision."""
    while world.phase is Phase.COMBAT and not combat.waiting(world):
        if not combat.advance(world):
            world.phase = Phase.NONCOMBAT_MOVE
    if world.phase is Phase.PLACE and not any(world.bought.values()):
        end_turn(world)
        run_on(world)


# ---------------------------------------------------------------------- actions of the mover
def apply(world: World, action: Action) -> None:
    """Play one action of the mover in its current step."""
    phase = world.phase
    if phase is Phase.SETUP:
        if not isinstance(action, Place):
            raise IllegalAction("the initial placement takes place actions only (place 2 infantry at Moscow)")
        _initial_placement(world).place(world, action)
    elif isinstance(action, Transfer):
        if phase is not Phase.PURCHASE:
            raise IllegalAction(f"money is moved in the purchase step, not the {phase.value} step")
        transfer = hooks(world).transfer
        if transfer is None:  # no base game moves money between purses (the words are unchanged)
            raise IllegalAction("only the UK moves money between purses, in the linked world game")
        transfer(world, action)
    elif isinstance(action, Buy | Convert):
        if phase is not Phase.PURCHASE:
            raise IllegalAction(
                f"buying and converting are for the purchase step, not the {phase.value} step"
            )
        _buy(world, action) if isinstance(action, Buy) else _convert(world, action)
    elif isinstance(action, Move):
        if phase not in (Phase.COMBAT_MOVE, Phase.NONCOMBAT_MOVE):
            raise IllegalAction(f"moves are for the combat and non-combat moves, not the {phase.value} step")
        _move(world, action)
    elif isinstance(action, Place):
        if phase is not Phase.PLACE:
            raise IllegalAction(f"placing is for the placement step, not the {phase.value} step")
        _place(world, action)
    else:
        raise IllegalAction(f"'{type(action).__name__.lower()}' answers a battle, not the {phase.value} step")


def _initial_placement(world: World) -> InitialPlacement:
    placement = hooks(world).initial_placement
    assert placement is not None, "the setup step of a game with no initial placement"
    return placement


def _economy(world: World, wanted: str | None) -> str:
    economies = world.data.power(world.power).economies
    if wanted is None:
        return economies[0].id
    for e in economies:
        if e.id == wanted.upper():
            return e.id
    raise IllegalAction(
        f"{world.power} has no economy {wanted!r} (economies: {', '.join(e.id for e in economies)})"
    )


def _buy(world: World, action: Buy) -> None:
    power = world.data.power(world.power)
    economy = _economy(world, action.economy)
    cost = 0
    for t, n in action.units:
        if t not in power.buys:
            raise IllegalAction(
                f"{power.name} may not buy {world.data.units[t].name} (it buys "
                f"{', '.join(power.buys) or 'nothing'})"
            )
        cost += (world.data.units[t].cost or 0) * n
    if cost > world.ipcs[economy]:
        raise IllegalAction(
            f"{counts_text(world.data, action.units)} cost {cost} IPCs; {economy} has {world.ipcs[economy]}"
        )
    world.ipcs[economy] -= cost
    bought = world.bought.setdefault(economy, {})
    for t, n in action.units:
        bought[t] = bought.get(t, 0) + n


def _convert(world: World, action: Convert) -> None:
    rules.convert_units(world, action)


def _pick(world: World, units: list[Unit], type_: str, n: int, where: str) -> list[Unit]:
    found = [u for u in units if u.type == type_]
    if len(found) < n:
        name = world.data.units[type_].name
        raise IllegalAction(
            f"{world.space_name(where)} has {len(found)} {name} of {world.power} that may move, not {n}"
        )
    # Those with the most movement left go first.
    found.sort(key=lambda u: (u.moved, u.id))
    return found[:n]


def _movable(world: World, at: str) -> list[Unit]:
    combat_move = world.phase is Phase.COMBAT_MOVE
    out = []
    for u in world.at(at):
        if u.owner != world.power or u.submerged:
            continue
        ut = world.unit_type(u)
        if ut.movement <= 0:
            continue
        if not combat_move and u.fought and not ut.is_air:
            continue  # attackers stay where they fought; aircraft must still land
        out.append(u)
    return out


def _move(world: World, action: Move) -> None:
    combat_move = world.phase is Phase.COMBAT_MOVE
    frm, to = action.frm, action.to
    if frm == to:
        raise IllegalAction("a move goes somewhere else")
    if action.raid:
        if not combat_move:
            raise IllegalAction("a strategic bombing raid is declared in the combat move")
        rules.check_raid(world, action)
    pool = _movable(world, frm)
    chosen: list[Unit] = []
    for t, n in action.units:
        chosen += _pick(world, [u for u in pool if u not in chosen], t, n, frm)
    from_sea = world.is_sea(frm)
    to_sea = world.is_sea(to)
    for u in chosen:
        ut = world.unit_type(u)
        if ut.is_land and (from_sea or to_sea):
            _board_or_land(world, u, frm, to, combat_move)
            continue
        if u.aboard is not None and ut.is_land:
            raise IllegalAction(f"{ut.name} aboard a ship moves with it, or lands from it")
        try:
            route = find_route(world, u, to, action.via, combat=combat_move)
        except MoveError as exc:
            raise IllegalAction(str(exc)) from None
        if ut.is_air and combat_move:
            _check_fuel(world, u, route.cost, to)
        _go(world, u, route.path, combat_move)
        if action.raid:
            world.extra.setdefault("raids", {}).setdefault(to, []).append(u.id)


def can_land_after(world: World, unit: Unit, cost: int, to: str, spots: set[str] | None = None) -> bool:
    """Could ``unit`` (an aircraft) still reach a landing place after flying ``cost`` moves to ``to``?
    ``spots``: its landing places, when the caller has them already."""
    ut = world.unit_type(unit)
    remaining = movement_allowance(world, unit) - unit.moved - cost
    if spots is None:
        spots = landing_spots(world, unit.owner, fighter=bool(ut.carrier_cost))
    return air_distance(world, to, spots, max(remaining, 0)) is not None


def _check_fuel(world: World, unit: Unit, cost: int, to: str) -> None:
    """An aircraft sent into combat must be able to reach a landing place afterwards."""
    if not can_land_after(world, unit, cost, to):
        ut = world.unit_type(unit)
        remaining = movement_allowance(world, unit) - unit.moved - cost
        raise IllegalAction(
            f"{ut.name} from {world.space_name(unit.at)} could not land after fighting in "
            f"{world.space_name(to)} "
            f"({remaining} movement left)"
        )


def _go(world: World, unit: Unit, path: tuple[str, ...], combat_move: bool) -> None:
    """Move ``unit`` along ``path``: blitzed territories change hands, carried units follow,
    convoy centres passed by warships change control."""
    ut = world.unit_type(unit)
    for space in path:
        if ut.is_sea:
            capture.pass_convoy(world, unit, space)
        if ut.is_land and combat_move and space != path[-1] and hostile_land(world, space, unit.owner):
            capture.take_territory(world, space, unit.owner, blitz=True)
        if ut.is_land:
            capture.claim_unowned(world, space, unit.owner)
    unit.moved += len(path)
    unit.at = path[-1]
    if ut.transport_capacity or ut.carrier_capacity:
        for cargo in world.units.values():
            if cargo.aboard == unit.id:
                cargo.at = unit.at
    if ut.is_air and unit.aboard is not None:
        unit.aboard = None  # took off from its carrier


def _board_or_land(world: World, unit: Unit, frm: str, to: str, combat_move: bool) -> None:
    ut = world.unit_type(unit)
    if to not in neighbours(world, frm):
        raise IllegalAction(
            f"{ut.name} boards or leaves a ship in the next space only ({world.space_name(to)} "
            f"is not next to {world.space_name(frm)})"
        )
    if world.is_sea(to):
        # Boarding: the land unit's whole move, onto its own ship with room.
        if world.is_sea(frm):
            raise IllegalAction(f"{ut.name} cannot move from ship to ship")
        if unit.moved:
            raise IllegalAction(
                f"{ut.name} in {world.space_name(frm)} has moved already: it boards before moving"
            )
        unloaded = world.extra.get("unloaded", {})
        ships = [
            t
            for t in transports_at(world, to, unit.owner)
            if can_carry(world, t, unit) and not unloaded.get(str(t.id))
        ]
        if not ships:
            raise IllegalAction(
                f"no transport of {unit.owner} in {world.space_name(to)} with room for {ut.name} "
                "(a transport that has unloaded this turn takes no more)"
            )
        ship = min(ships, key=lambda t: t.id)
        unit.aboard, unit.at, unit.moved = ship.id, to, movement_allowance(world, unit)
        return
    # Landing from a ship.
    if unit.aboard is None:
        raise IllegalAction(f"{ut.name} in {world.space_name(frm)} is not aboard a ship")
    if is_neutral(world, to):
        raise IllegalAction(f"{world.space_name(to)} is neutral: no one enters it")
    hostile = hostile_land(world, to, unit.owner)
    if not may_unload_from(world, frm, unit.owner):
        if not (combat_move and hostile):
            raise IllegalAction(
                f"enemy warships in {world.space_name(frm)}: land units leave the ships there only in an "
                "amphibious assault, after the sea battle"
            )
        # The landing waits on the sea battle: fought first, and won, it lands them.
        rules.check_landing(world, frm, to)
        world.extra.setdefault("landings", []).append([unit.id, frm, to])
        unit.moved = movement_allowance(world, unit)
        world.extra.setdefault("unloaded", {})[str(unit.aboard)] = True
        transport = world.units.get(unit.aboard) if unit.aboard is not None else None
        if transport is not None:
            transport.moved = movement_allowance(world, transport)
        return
    if hostile and not combat_move:
        raise IllegalAction(
            f"{world.space_name(to)} is the enemy's: landing there is an amphibious assault, in "
            "the combat move"
        )
    rules.check_landing(world, frm, to)
    carrier_id = unit.aboard
    unit.aboard, unit.at, unit.moved = None, to, movement_allowance(world, unit)
    world.extra.setdefault("unloaded", {})[str(carrier_id)] = True
    transport = world.units.get(carrier_id)
    if transport is not None:
        transport.moved = movement_allowance(world, transport)  # a transport that unloads moves no more
    if hostile:
        world.extra.setdefault("amphibious", {}).setdefault(to, []).append(unit.id)


def land_aircraft(world: World) -> None:
    """The end of the non-combat move: aircraft not on a landing place are lost; fighters at sea
    take their places on carriers."""
    power = world.power
    h = hooks(world)
    for u in list(world.units.values()):
        ut = world.unit_type(u)
        if u.owner != power or not ut.is_air:
            continue
        if (
            any(may(world, u) for may in h.may_patrol)
            and any(space_ok(world, u.at, power) for space_ok in h.patrol_space)
            and (
                (world.is_sea(u.at) and carrier_room(world, u.at, power) < 0)
                or (
                    not world.is_sea(u.at)
                    and world.extra.get("held_at_start", {}).get(u.at) != world.side(power)
                )
            )
        ):
            u.cap, u.aboard = True, None
            world.log.append(f"{ut.name} of {power} patrols over {world.space_name(u.at)}")
            continue
        if world.is_sea(u.at):
            if not ut.carrier_cost or carrier_room(world, u.at, power) < 0:
                world.log.append(
                    f"{ut.name} of {power} in {world.space_name(u.at)} found no carrier and is lost"
                )
                world.remove(u)
            elif u.aboard is None:
                carrier = next(
                    (
                        c
                        for c in world.at(u.at)
                        if world.unit_type(c).carrier_capacity and not world.enemies(c.owner, power)
                    ),
                    None,
                )
                u.aboard = carrier.id if carrier else None
        elif world.extra.get("held_at_start", {}).get(u.at) != world.side(power):
            world.log.append(f"{ut.name} of {power} could not land in {world.space_name(u.at)} and is lost")
            world.remove(u)


# ---------------------------------------------------------------------- placement
def _place(world: World, action: Place) -> None:
    rules.place_units(world, action)


def unplaced(world: World) -> Counter[str]:
    out: Counter[str] = Counter()
    for bought in world.bought.values():
        out.update(bought)
    return out


def aircraft_fuel_left(world: World, unit: Unit) -> int:
    return left(world, unit)
