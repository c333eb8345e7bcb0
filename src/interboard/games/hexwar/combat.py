"""Ground combat: odds columns, shifts, the die, step losses, retreat and advance after combat.

The phasing side attacks one hex at a time with any of its units next to it that have not attacked
this phase; a hex is attacked at most once a phase. Attack strength is the attackers' attack factors
(halved, rounding up, for a unit not in attack supply); defence is the defenders' defence factors
(halved for a unit out of supply) plus the hex's inherent fortress steps. The ratio picks an odds
column, rounded in the defender's favour; the defender's terrain and a river in front of every
attacker shift it left. A result takes steps from both sides and may make the defender retreat one
hex: the defender picks the hex when there is a choice; a stack that cannot retreat loses one more
step instead, and a fortress with steps left ignores the retreat. If the hex is emptied the attacker
may advance into it with units that attacked.

Losses are taken by rule (a stand-in for the owner's choice): the step whose loss costs the least
strength first, HQs last, then the fortress's inherent steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import supply
from .layers import hooks
from .movement import stack_fits
from .rules import update_control
from .state import GONE, MAP, Unit, World

IMMUNE = frozenset({"tank", "afb"})
"""Counters that never give a step: a tank goes with the last infantry step of its hex, the armoured
front buster is immune to enemy action."""


class CombatError(ValueError):
    """An attack the rules refuse; the message says why."""


@dataclass(frozen=True)
class Odds:
    attack: int
    defence: int
    column: int
    """The column after shifts (-1: below the table's first column)."""
    shifts: int

    def name(self, names: tuple[str, ...]) -> str:
        return names[self.column] if self.column >= 0 else f"below {names[0]}"


def _halved(value: int) -> int:
    return (value + 1) // 2


def attack_factor(unit: Unit, state: str) -> int:
    a = unit.factors()[0]
    return a if state == supply.ATTACK else _halved(a)


def defence_factor(unit: Unit, state: str) -> int:
    d = unit.factors()[1]
    return d if state != supply.OUT else _halved(d)


def defenders(world: World, cell: int, side: str) -> list[Unit]:
    return [u for u in world.at(cell) if world.side_of(u) == side and u.kind not in supply.NOT_GROUND]


def adjacent_for_ground(world: World, a: int, b: int) -> bool:
    geo = world.data.geography
    return b in geo.neighbours[a] and not geo.all_sea(a, b)


def targets(world: World) -> list[int]:
    """Enemy-held hexes the phasing side may still attack this phase."""
    side = world.side
    enemy = world.data.enemy(side)
    held = supply.ground_masks(world)[enemy]
    out = []
    for cell in world.data.geography.bitboard.bits(held):
        if cell in world.attacked or cell in world.cleared or unattackable(world, cell):
            continue
        if attackers_for(world, cell):
            out.append(cell)
    return sorted(out, key=lambda c: world.data.geography.hexes[c].id)


def unattackable(world: World, cell: int) -> bool:
    """The armoured front buster's hex cannot be attacked in normal combat."""
    return any(u.kind == "afb" for u in world.at(cell))


def attackers_for(world: World, cell: int) -> list[Unit]:
    """Units of the phasing side that may join an attack on ``cell`` (a tank with attacking infantry
    in its hex, unless a tank defends there)."""
    side = world.side
    fighters = []
    tanks = []
    for u in world.on_map():
        if (
            u.hex is None
            or world.side_of(u) != side
            or u.id in world.moved
            or u.kind in supply.NOT_GROUND
            or not adjacent_for_ground(world, u.hex, cell)
        ):
            continue
        if u.kind == "tank":
            tanks.append(u)
        elif u.factors()[0] > 0:
            fighters.append(u)
    defending_tank = any(u.kind == "tank" for u in defenders(world, cell, world.data.enemy(side)))
    if not defending_tank:
        beside = {u.hex for u in fighters if u.kind == "infantry"}
        fighters += [t for t in tanks if t.hex in beside]
    return sorted(fighters, key=lambda u: u.id)


def doubled_by_tanks(world: World, attackers: list[Unit], states: dict[str, str]) -> list[Unit]:
    """For each tank in an attack, the unit of its stack whose attack it doubles: the strongest
    attacking infantry there (a stand-in for the attacker's choice)."""
    out: list[Unit] = []
    for tank in (u for u in attackers if u.kind == "tank"):
        stack = [u for u in attackers if u.hex == tank.hex and u.kind == "infantry" and u not in out]
        if stack:
            out.append(max(stack, key=lambda u: (attack_factor(u, states[u.id]), u.id)))
    return out


def odds(
    world: World, cell: int, attackers: list[Unit], maps: dict[str, supply.SupplyMap] | None = None
) -> Odds:
    data = world.data
    geo = data.geography
    maps = maps if maps is not None else supply.supply_maps(world)
    side = world.side
    enemy = data.enemy(side)
    states = {u.id: maps[side].state(u.hex) for u in attackers if u.hex is not None}
    attack = sum(attack_factor(u, states[u.id]) for u in attackers if u.hex is not None)
    attack += sum(attack_factor(u, states[u.id]) for u in doubled_by_tanks(world, attackers, states))
    defence = sum(defence_factor(u, maps[enemy].state(cell)) for u in defenders(world, cell, enemy))
    defence += world.fortress.get(cell, 0) * data.fortress_step_defence
    h = geo.hexes[cell]
    shifts = int(data.terrain.get(h.terrain, {}).get("shifts", 0))
    place = data.place(cell)
    if place in data.places:
        shifts = max(shifts, int(data.places[place].get("shifts", 0)))
    fighting = [u for u in attackers if u.kind != "tank"]
    if fighting and all(u.hex is not None and geo.river(u.hex, cell) for u in fighting):
        shifts += int(data.river.get("shifts", 0))
    for hook in hooks(world).shifts:  # the layers' (a storm)
        shifts += hook(world, cell, attackers)
    column = data.column_index(attack, defence)
    if column >= 0:
        column = max(column - shifts, -1)
    return Odds(attack, defence, column, shifts)


def check_attack(world: World, cell: int, attackers: list[Unit]) -> None:
    geo = world.data.geography
    name = geo.hexes[cell].id
    enemy = world.data.enemy(world.side)
    if cell in world.attacked:
        raise CombatError(f"{name} has already been attacked this phase")
    if cell in world.cleared:
        raise CombatError(f"{name} was cleared by bombardment: no one goes near it this phase")
    if unattackable(world, cell):
        raise CombatError(f"{name} holds the armoured front buster: it cannot be attacked")
    enemy_fortress = world.fortress.get(cell, 0) > 0 and world.control.get(cell) == enemy
    if not defenders(world, cell, enemy) and not enemy_fortress:
        raise CombatError(f"{name} holds no enemy ground unit")
    if not attackers:
        raise CombatError(f"an attack on {name} needs at least one attacking unit")
    allowed = {u.id for u in attackers_for(world, cell)}
    seen: set[str] = set()
    for u in attackers:
        if u.id in seen:
            raise CombatError(f"{u.id} is named twice")
        seen.add(u.id)
        if u.id not in allowed:
            raise CombatError(
                f"{u.id} cannot attack {name}: it must be the phasing side's, next to the hex, able to "
                "attack, and not have attacked this phase (a tank: with infantry, against no tank)"
            )
    for tank in (u for u in attackers if u.kind == "tank"):
        if not any(u.hex == tank.hex and u.kind == "infantry" for u in attackers):
            raise CombatError(
                f"{tank.id} only aids infantry attacking from its hex: tanks never attack alone"
            )


def _loss_order(units: list[Unit], factor: int) -> list[Unit]:
    """Which unit gives the next step: crack troops first when they attack, then the least strength
    lost, HQs last (the owner's choice, by rule)."""

    def cost(u: Unit) -> tuple[int, int, int, str]:
        now = u.factors()[factor]
        after = u.spec.type.sides[u.lost + 1][factor] if u.steps > 1 else 0
        popped = 0 if factor == 0 and u.crack else 1
        return (popped, 1 if u.kind == "hq" else 0, now - after, u.id)

    return sorted((u for u in units if u.where == MAP and u.kind not in IMMUNE), key=cost)


def take_losses(world: World, units: list[Unit], steps: int, factor: int, cell: int | None = None) -> int:
    """Take ``steps`` step losses from ``units`` (then the fortress steps of ``cell``); returns the
    steps that found nothing to take."""
    for _ in range(steps):
        order = _loss_order(units, factor)
        if order:
            eliminate_step(world, order[0])
        elif cell is not None and world.fortress.get(cell, 0) > 0:
            world.fortress[cell] -= 1
            world.say(f"the fortress of {world.data.geography.hexes[cell].name} loses a step")
        else:
            return steps
        steps -= 1
    return 0


def eliminate_step(world: World, unit: Unit) -> None:
    unit.lost += 1
    if unit.steps <= 0 or unit.crack:
        unit.where = GONE
        unit.hex = None
        world.say(f"{unit.id} is eliminated")
    else:
        world.say(f"{unit.id} is reduced")


def resolve(world: World, cell: int, attackers: list[Unit]) -> dict[str, Any]:
    """Resolve an attack (checked); returns what happened. Sets ``world.decision`` when the defender
    must pick a retreat hex or the attacker may advance."""
    data = world.data
    geo = data.geography
    side = world.side
    enemy = data.enemy(side)
    the_odds = odds(world, cell, attackers)
    world.attacked.append(cell)
    world.moved.extend(u.id for u in attackers)
    world.extra["last_attackers"] = [u.id for u in attackers]
    if the_odds.column < 0:
        result = data.below_first
        die = None
    else:
        target = geo.hexes[cell].id
        die = world.roll(f"attack on {target} at {the_odds.name(data.column_names)}", target)
        result = data.results[die][the_odds.column]
    world.say(
        f"{side} attacks {geo.hexes[cell].name} ({geo.hexes[cell].id}) "
        f"with {', '.join(u.id for u in attackers)}: "
        f"{the_odds.attack} to {the_odds.defence}, {the_odds.name(data.column_names)}"
        + (
            f" after {the_odds.shifts} shift{'s' if the_odds.shifts != 1 else ''} left"
            if the_odds.shifts
            else ""
        )
        + (f", die {die}" if die is not None else "")
        + f": {result} ({result.meaning()})"
    )
    attacker_loss = result.attacker
    defender_loss = result.defender
    held = defenders(world, cell, enemy)
    if attacker_loss and any(u.kind == "tank" for u in attackers):
        attacker_loss -= 1
        world.say("the attacking tank absorbs the first hit")
    take_losses(world, attackers, attacker_loss, 0)
    take_losses(world, held, defender_loss, 1, cell)
    promote_crack(world, attackers)
    drop_lone_tanks(world)
    survivors = defenders(world, cell, enemy)
    outcome = {
        "hex": geo.hexes[cell].id,
        "result": str(result),
        "die": die,
        "odds": the_odds.name(data.column_names),
    }
    if result.retreat and survivors:
        if world.fortress.get(cell, 0) > 0:
            world.say(f"the fortress of {geo.hexes[cell].name} holds: no retreat")
        else:
            start_retreat(world, cell, survivors, enemy)
            return outcome
    offer_advance(world, cell, attackers)
    return outcome


def promote_crack(world: World, attackers: list[Unit]) -> None:
    """After an attack with yellow-striped units in it, one survivor flips to its crack side (the
    first by id: a stand-in for the player's choice, which can only gain)."""
    for u in sorted(attackers, key=lambda u: u.id):
        if u.where == MAP and u.spec.type.yellow and u.spec.type.crack_side and not u.crack:
            u.crack = True
            world.say(f"{u.id} joins the Order of the Pickelhaube (crack troops)")
            return


def drop_lone_tanks(world: World) -> None:
    """A tank without an infantry unit of its side in its hex is destroyed."""
    for tank in [u for u in world.on_map() if u.kind == "tank"]:
        if not any(
            u.kind == "infantry" and world.side_of(u) == world.side_of(tank) for u in world.at(tank.hex or -1)
        ):
            tank.where, tank.hex = GONE, None
            world.say(f"{tank.id} is left without infantry and is destroyed")


def retreat_options(world: World, cell: int, units: list[Unit], side: str) -> list[int]:
    data = world.data
    geo = data.geography
    held = supply.ground_masks(world)
    enemy_held = held[data.enemy(side)]
    zone = supply.zones(world, enemy_held)
    out = []
    for nxt in geo.neighbours[cell]:
        if nxt not in data.move_cost or geo.all_sea(cell, nxt) or (enemy_held >> nxt) & 1:
            continue
        if (zone >> nxt) & 1 and not (held[side] >> nxt) & 1:
            continue
        if stack_fits(world, side, nxt, units) is not None:
            continue
        out.append(nxt)
    return sorted(out, key=lambda c: geo.hexes[c].id)


def start_retreat(world: World, cell: int, units: list[Unit], side: str) -> None:
    geo = world.data.geography
    movers = [u for u in units if u.factors()[2] > 0]
    for u in units:
        if u.factors()[2] <= 0:  # a fortress division cannot leave its fortress
            u.where, u.hex = GONE, None
            world.say(f"{u.id} cannot retreat and is eliminated")
    options = retreat_options(world, cell, movers, side) if movers else []
    if movers and not options:
        world.say(f"the defenders of {geo.hexes[cell].id} cannot retreat and lose a step instead")
        take_losses(world, movers, 1, 1)
    elif len(options) == 1:
        retreat(world, cell, options[0])
        return
    elif options:
        world.decision = {
            "kind": "retreat",
            "seat": side,
            "hex": geo.hexes[cell].id,
            "units": [u.id for u in movers],
            "options": [geo.hexes[c].id for c in options],
            "attackers": list(world.extra.get("last_attackers", [])),
        }
        return
    offer_advance(world, cell, [world.units[i] for i in world.extra.get("last_attackers", [])])


def retreat(world: World, cell: int, target: int) -> None:
    geo = world.data.geography
    movers = [u for u in world.at(cell) if world.side_of(u) != world.side and u.kind not in supply.NOT_GROUND]
    for u in movers:
        u.hex = target
    world.say(f"{', '.join(u.id for u in movers)} retreat to {geo.hexes[target].id}")
    world.decision = None
    offer_advance(world, cell, [world.units[i] for i in world.extra.get("last_attackers", [])])


def offer_advance(world: World, cell: int, attackers: list[Unit]) -> None:
    """If ``cell`` is empty of enemies, let the surviving attackers advance into it."""
    enemy = world.data.enemy(world.side)
    if defenders(world, cell, enemy) or world.fortress.get(cell, 0) > 0 or cell in world.cleared:
        return
    able = [u for u in attackers if u.where == MAP and u.factors()[2] > 0]
    if not able:
        return
    geo = world.data.geography
    world.decision = {
        "kind": "advance",
        "seat": world.side,
        "hex": geo.hexes[cell].id,
        "units": [u.id for u in able],
    }
    if any(u.kind == "tank" for u in able):
        # A stack with a tank may go on into any vacant hex next to the one it took.
        held = supply.ground_masks(world)[enemy]
        onward = [
            n
            for n in geo.neighbours[cell]
            if n in world.data.move_cost
            and not (held >> n) & 1
            and n not in world.cleared
            and not geo.all_sea(cell, n)
        ]
        world.decision["onward"] = sorted(geo.hexes[n].id for n in onward)


def advance(world: World, unit_ids: list[str], onward: str = "") -> None:
    assert world.decision is not None and world.decision["kind"] == "advance"
    geo = world.data.geography
    cell = geo.hex(world.decision["hex"]).index
    units = [world.units[i] for i in unit_ids]
    allowed = set(world.decision["units"])
    for u in units:
        if u.id not in allowed:
            raise CombatError(f"{u.id} did not attack {geo.hexes[cell].id}, so cannot advance into it")
    if len(set(unit_ids)) != len(unit_ids):
        raise CombatError("a unit is named twice")
    reason = stack_fits(world, world.side, cell, units)
    if reason:
        raise CombatError(reason)
    target = cell
    if onward:
        if not any(u.kind == "tank" for u in units):
            raise CombatError("only a stack advancing with its tank goes on a second hex")
        if onward not in world.decision.get("onward", []):
            raise CombatError(
                f"{onward} is not a vacant hex next to {geo.hexes[cell].id} "
                f"(the stack may go on to {', '.join(world.decision.get('onward', [])) or 'none'})"
            )
        target = geo.hex(onward).index
        reason = stack_fits(world, world.side, target, units)
        if reason:
            raise CombatError(reason)
    for u in units:
        u.hex = cell
    world.decision = None
    world.say(f"{', '.join(unit_ids)} advance into {geo.hexes[cell].id}")
    if target != cell:
        update_control(world)  # the hex taken on the way stays taken
        for u in units:
            u.hex = target
        world.say(f"{', '.join(unit_ids)} go on with their tank into {geo.hexes[target].id}")
