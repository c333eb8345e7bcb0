"""The rules of the Axis & Allies games beyond moving and fighting (capture is :mod:`.capture`):
capitals, placement, income and convoys, the Europe game's Soviet conversion and Middle East oil,
the Pacific game's convoy routes, Chinese infantry and Japanese victory points, and the end of the
game.

Where a rulebook is silent or the printings differ, the choice is a named option or a documented
decision (docs/rules/axis-allies.md).
"""

from __future__ import annotations

from collections import Counter

from .actions import Convert, Move, Place
from .layers import closed_reason, hooks
from .moves import carrier_room, neighbours
from .state import IllegalAction, Phase, World

VICTORY_POINTS = 22
"""Pacific: Japan wins with this many victory points."""
CHINA_INFANTRY_PER = 2
"""Pacific: China gets one infantry for every this many Chinese territories it holds."""


# ---------------------------------------------------------------------- turn hooks
def on_turn_start(world: World) -> None:
    if world.power == "CHINA":
        chinese_infantry(world)
    for hook in hooks(world).turn_start:
        hook(world)


def on_turn_end(world: World, power: str) -> None:
    if power == "JAPAN" and world.data.id == "aa_pacific_2001":
        income = world.extra.get("last_income", {}).get("JAPAN", 0)
        vp = world.extra.setdefault("victory_points", {}).get("JAPAN", 0) + income // 10
        world.extra["victory_points"]["JAPAN"] = vp
        world.log.append(f"Japan earns {income // 10} victory points ({vp} in all)")
        if vp >= VICTORY_POINTS:
            world.winner = "axis"
            world.log.append(f"Japan has {vp} victory points: the Axis wins")
    world.extra.pop("raids", None)
    world.extra.pop("amphibious", None)
    world.extra.pop("landings", None)
    world.extra.pop("unloaded", None)
    for hook in hooks(world).turn_end:
        hook(world, power)


def end_of_round(world: World) -> None:
    """Capitals held for a whole round decide the game (unless a layer decides otherwise);
    ``max_rounds`` ends it as a draw."""
    record_round(world)
    victory = hooks(world).victory or _capital_held_a_round
    if victory(world):
        return
    if world.options.max_rounds and world.round >= world.options.max_rounds:
        world.log.append(f"round {world.round} was the last: the game is drawn")
        world.phase = Phase.OVER


def _capital_held_a_round(world: World) -> bool:
    """The base games' victory: an enemy capital held since the end of the last round (True: over)."""
    for capital, taken in list(world.captured_capitals.items()):
        holder = world.owner.get(capital)
        original = world.data.territories[capital].owner
        if holder is None or original is None or not world.enemies(holder, original):
            world.captured_capitals.pop(capital)
            continue
        if taken < world.round:
            side = world.side(holder)
            if _victory(world, side, capital):
                world.winner = side
                world.log.append(f"{world.space_name(capital)} has been held a whole round: the {side} win")
                world.phase = Phase.OVER
                return True
    return False


def unit_value(world: World, power: str) -> int:
    """IPCs of a power's units on the board (buildings not counted)."""
    return sum(
        world.unit_type(u).cost or 0
        for u in world.units.values()
        if u.owner == power and world.unit_type(u).domain.value != "building"
    )


def record_round(world: World) -> None:
    """Each power's income and unit value at the end of a round, for the charts by round."""
    by_round = world.extra.setdefault("by_round", {"income": {}, "units": {}})
    for p in world.data.powers:
        by_round["income"].setdefault(p.id, []).append(world.extra.get("last_income", {}).get(p.id, 0))
        by_round["units"].setdefault(p.id, []).append(unit_value(world, p.id))


def _victory(world: World, side: str, capital: str) -> bool:
    """The Axis wins by holding an enemy capital while holding its own; the Allies by holding an
    Axis capital while every Allied capital is in Allied hands."""
    own = [
        sid
        for sid, t in world.data.territories.items()
        if t.capital and world.data.side_of(t.capital) == side
    ]
    return all(world.owner.get(c) is not None and world.side(world.owner[c]) == side for c in own)


# ---------------------------------------------------------------------- convoys
def convoy_lost(world: World, space: str) -> bool:
    """An island's income travels by its convoy route: lost while an enemy warship is there."""
    route = world.data.territories[space].convoy_route
    if route is None or not world.options.convoy_routes:
        return False
    holder = world.owner.get(space)
    return holder is not None and any(
        world.unit_type(u).is_sea and world.unit_type(u).attack > 0 and world.enemies(u.owner, holder)
        for u in world.at(route)
    )


# ---------------------------------------------------------------------- income
def income_of(world: World, power: str) -> dict[str, int]:
    """What each economy of ``power`` would collect now."""
    out: Counter[str] = Counter({e.id: 0 for e in world.data.power(power).economies})
    for space, holder in world.owner.items():
        if holder != power:
            continue
        t = world.data.territories[space]
        if t.middle_east and power != "GERMANY":
            continue  # Middle East oil pays Germany only
        if t.convoy:
            if space in world.convoys:
                continue
            out[world.economy_of(space) or ""] += t.convoy
            continue
        if convoy_lost(world, space):
            continue
        if power == "CHINA":
            continue  # China's strength is its free infantry
        economy = world.economy_of(space)
        if economy is not None:
            out[economy] += t.ipc
    income = dict(out)
    for hook in hooks(world).income:
        income = hook(world, power, income)
    return income


def collect_income(world: World, power: str) -> None:
    """The end of a turn: each economy collects, unless its capital is in enemy hands."""
    income = income_of(world, power)
    paid = {}
    in_exile = hooks(world).in_exile
    for economy in world.data.power(power).economies:
        holder = world.owner.get(economy.capital)
        lost = holder is None or world.enemies(holder, power)
        if lost and not any(hook(world, power, economy) for hook in in_exile):  # a layer's exile
            world.log.append(f"{economy.id} collects nothing: its capital is in enemy hands")
            paid[economy.id] = 0
            continue
        amount = income.get(economy.id, 0)
        if power == "GERMANY" and economy.id == "GERMANY":
            amount -= sum(
                world.data.territories[s].ipc
                for s, h in world.owner.items()
                if h == power and world.data.territories[s].middle_east
            )
            amount += middle_east_oil(world)
        world.ipcs[economy.id] = world.ipcs.get(economy.id, 0) + amount
        paid[economy.id] = amount
        world.log.append(f"{economy.id} collects {amount} IPCs ({world.ipcs[economy.id]} in hand)")
    world.extra.setdefault("last_income", {})[power] = sum(paid.values())
    history = world.extra.setdefault("income_history", {}).setdefault(power, [])
    history.append(sum(paid.values()))


def middle_east_oil(world: World) -> int:
    """Europe: for each Middle East territory Germany holds, the Allies pay Germany its value, the UK
    first, then the USA, then the USSR (docs/rules/axis-allies.md: who pays)."""
    due = sum(
        world.data.territories[s].ipc
        for s, h in world.owner.items()
        if h == "GERMANY" and world.data.territories[s].middle_east
    )
    got = 0
    for payer in ("UK", "USA", "USSR"):
        if due <= 0 or payer not in world.data.power_by_id:
            break
        economy = world.data.power(payer).economies[0].id
        take = min(due, world.ipcs.get(economy, 0))
        world.ipcs[economy] -= take
        due -= take
        got += take
        if take:
            world.log.append(f"{payer} pays Germany {take} IPCs of Middle East oil")
    return got


# ---------------------------------------------------------------------- Europe: Soviet conversion
def convert_units(world: World, action: Convert) -> None:
    """Europe: in its purchase step the USSR may take over British and American units standing in a
    territory with a Soviet factory, of types it could buy itself."""
    if world.power != "USSR" or not any(t.conversion for t in world.data.territories.values()):
        raise IllegalAction("only the Soviet Union converts Allied units, in the Europe game")
    t = world.data.territories[action.at]
    if not t.conversion or world.owner.get(action.at) != "USSR":
        raise IllegalAction(
            f"{world.space_name(action.at)} is not a Soviet factory territory held by the USSR"
        )
    buys = world.data.power("USSR").buys
    for type_, n in action.units:
        if type_ not in buys:
            raise IllegalAction(
                f"the USSR converts only units it could buy, not {world.data.units[type_].name}"
            )
        allied = [
            u
            for u in world.at(action.at)
            if u.type == type_ and u.owner in ("UK", "USA") and u.aboard is None
        ]
        if len(allied) < n:
            raise IllegalAction(
                f"{world.space_name(action.at)} has {len(allied)} Allied "
                f"{world.data.units[type_].name}, not {n}"
            )
        for u in allied[:n]:
            u.owner = "USSR"
        world.log.append(
            f"the USSR converts {n} {world.data.units[type_].name} at {world.space_name(action.at)}"
        )


# ---------------------------------------------------------------------- raids and landings
def check_raid(world: World, action: Move) -> None:
    for type_, _ in action.units:
        ut = world.data.units[type_]
        if not (ut.has("strategic_bomber") or (ut.is_air and ut.carrier_cost)):
            raise IllegalAction(f"a raid is flown by bombers and their escorting fighters, not {ut.name}")
    if not any(world.data.units[t].has("strategic_bomber") for t, _ in action.units):
        raise IllegalAction("a raid needs a bomber")
    target = action.to
    holder = world.owner.get(target)
    if (
        holder is None
        or not world.enemies(holder, world.power)
        or not any(world.unit_type(u).has("factory") for u in world.at(target))
    ):
        raise IllegalAction(f"{world.space_name(target)} has no enemy factory to bomb")


def check_landing(world: World, sea: str, land: str) -> None:
    """No one lands where a layer closes the land."""
    closed = closed_reason(world, land)
    if closed:
        raise IllegalAction(closed)


# ---------------------------------------------------------------------- placement
def placement_limit(world: World, space: str) -> int | None:
    """How many units a factory may place this turn: no limit at a factory its owner started the game
    with, the territory's IPC value at a captured one."""
    t = world.data.territories[space]
    if t.factory and t.owner == world.power:
        return None
    return t.ipc


def place_units(world: World, action: Place) -> None:
    power = world.power
    at = action.at
    factories = world.extra.get("factories_at_start", [])
    counts = dict(action.units)
    h = hooks(world)
    for type_, n in action.units:
        ut = world.data.units[type_]
        economy = _placing_economy(world, at)
        have = world.bought.get(economy, {}).get(type_, 0)
        if have < n:
            raise IllegalAction(f"{economy} has {have} {ut.name} to place, not {n}")
        free_here = 0  # a layer's free units among them: no factory needed, no factory limit
        if ut.has("factory"):
            _place_factory(world, at)
        elif ut.is_sea or (ut.is_air and world.is_sea(at)):
            if not world.is_sea(at):
                raise IllegalAction(f"{world.space_name(at)} is land: a {ut.name} is placed in a sea zone")
            coast = [f for f in factories if at in neighbours(world, f) and world.owner.get(f) == power]
            if not coast and not any(hook(world, power, ut, at) for hook in h.ship_spaces):
                raise IllegalAction(
                    f"{world.space_name(at)} is not a sea zone next to a factory {power} held at "
                    "the start of its turn"
                )
            if ut.is_sea and world.enemy_units(at, power):
                raise IllegalAction(f"enemy units in {world.space_name(at)}: no new ship is placed there")
            if ut.is_air:
                room = _new_carrier_room(world, at, counts)
                if not ut.carrier_cost or room < n * ut.carrier_cost:
                    raise IllegalAction(f"no carrier room for {n} {ut.name} in {world.space_name(at)}")
        else:
            if h.free_units:
                free_here = h.free_units.used(world, economy, at, type_, n, have)
            factory = china_places_anywhere(world, at) or (at in factories and world.owner.get(at) == power)
            if n > free_here and not factory:
                if h.free_units and free_here:
                    raise IllegalAction(h.free_units.short(world, free_here, n))
                raise IllegalAction(
                    f"{world.space_name(at)} has no factory {power} held at the start of its turn"
                )
        limit = None if world.is_sea(at) or china_places_anywhere(world, at) else placement_limit(world, at)
        if limit is not None and n > free_here:
            placed = world.extra.setdefault("placed", {}).get(at, 0)
            if placed + n - free_here > limit:
                raise IllegalAction(
                    f"the factory in {world.space_name(at)} places {limit} units a turn ({placed} placed)"
                )
            world.extra["placed"][at] = placed + n - free_here
        if h.free_units and free_here:
            h.free_units.spend(world, economy, type_, free_here)
        world.bought[economy][type_] = have - n
        for _ in range(n):
            u = world.add_unit(type_, power, at)
            if ut.is_air and world.is_sea(at):
                carrier = next(
                    (c for c in world.at(at) if world.unit_type(c).carrier_capacity and c.owner == power),
                    None,
                )
                u.aboard = carrier.id if carrier else None
        world.log.append(f"{power} places {n} {ut.name} at {world.space_name(at)}")


def _placing_economy(world: World, at: str) -> str:
    economies = world.data.power(world.power).economies
    if len(economies) == 1:
        return economies[0].id
    land = at
    if world.is_sea(at):
        land = next((f for f in world.extra.get("factories_at_start", []) if at in neighbours(world, f)), at)
    economy = world.economy_of(land)
    return economy if economy in {e.id for e in economies} else economies[0].id


def _new_carrier_room(world: World, at: str, counts: dict[str, int]) -> int:
    return carrier_room(world, at, world.power)


def _place_factory(world: World, at: str) -> None:
    t = world.data.territories[at]
    if (
        world.is_sea(at)
        or world.owner.get(at) != world.power
        or world.extra.get("held_at_start", {}).get(at) != world.side(world.power)
    ):
        raise IllegalAction(f"a factory goes in a territory {world.power} held at the start of its turn")
    if t.ipc < 1:
        raise IllegalAction(f"{world.space_name(at)} is worth no IPCs: no factory there")
    if any(world.unit_type(u).has("factory") for u in world.at(at)):
        raise IllegalAction(f"{world.space_name(at)} has a factory already")


# ---------------------------------------------------------------------- Pacific: China
def chinese_infantry(world: World) -> None:
    """Pacific: at the start of China's turn, one infantry for every two Chinese territories it holds,
    placed in its turn's placement step in any Chinese territory it holds."""
    held = [s for s, h in world.owner.items() if h == "CHINA"]
    n = len(held) // CHINA_INFANTRY_PER
    if n:
        world.bought.setdefault("CHINA", {})["infantry"] = (
            world.bought.get("CHINA", {}).get("infantry", 0) + n
        )
        world.log.append(f"China raises {n} infantry ({len(held)} territories held)")
        world.extra["china_free"] = True


def china_places_anywhere(world: World, at: str) -> bool:
    """China's free infantry go to any territory China holds (it has no economy to build with)."""
    return world.power == "CHINA" and world.owner.get(at) == "CHINA"
