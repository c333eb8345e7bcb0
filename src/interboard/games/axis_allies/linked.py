"""The rules of the linked world game (``aa_linked_world``) beyond the two base games, as a rule layer
(:mod:`.layers`, :data:`LAYER`): surrender dice and what surrender does, capitals in exile, the
initial placement, combat air patrol, and the special powers (the UK's pooled convoy money and free
Mediterranean infantry, Germany's free submarine).

Rob Daviau's text is the rule; where it is silent the decision is in docs/rules/axis-allies.md.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from .actions import Place, Transfer
from .gamedata import Economy
from .layers import FreeUnits, InitialPlacement, Layer
from .moves import neighbours
from .rules import income_of
from .state import SEAT_OF, IllegalAction, Phase, Unit, World
from .units import UnitType

SURRENDER_AT = 22
"""A power surrenders when its surrender dice total this or more."""
FREE_SUBMARINE_INCOME = 40
"""Germany gets a free submarine each turn it starts with this income or more."""
OIL_MONEY = 5
"""The surrender tables' "oil money of 5+"."""
ALLIES = ("USSR", "UK", "USA")
AXIS = ("GERMANY", "JAPAN")
SETUP_ORDER = ("USSR", "UK", "USA", "GERMANY")
"""The initial placement on the Europe board: the Allies first, then Germany."""
SETUP_IPCS = {"USSR": 18, "UK": 18, "USA": 18, "GERMANY": 12}
SETUP_BOARDS = ("Europe",)
RUSSIAN_CARDS = ("NOVOSIBIRSK", "EVENKI_NATL_OKRUG", "YAKUT_SSR", "SOVIET_FAR_EAST")
"""Interboard cards that count as Europe board."""


# ---------------------------------------------------------------------- who holds what
def surrendered(world: World) -> list[str]:
    return list(world.extra.get("surrendered", []))


def has_surrendered(world: World, power: str) -> bool:
    return power in world.extra.get("surrendered", ())


def home_of(world: World, space: str) -> str | None:
    """The power a territory belongs to by origin (its original owner, else its owner at the start)."""
    t = world.data.territories[space]
    return t.original_owner or t.owner


def _held_by_side(world: World, space: str, side: str) -> bool:
    holder = world.owner.get(space)
    return holder is not None and world.side(holder) == side


def _lost_to_axis(world: World, power: str) -> tuple[int, int]:
    """(how many, IPCs worth) of ``power``'s territories and convoy centres the Axis holds."""
    count = value = 0
    for space, t in world.data.territories.items():
        if home_of(world, space) != power:
            continue
        if t.convoy:
            if world.convoys.get(space) == "axis":
                count, value = count + 1, value + t.convoy
        elif not world.is_sea(space) and _held_by_side(world, space, "axis"):
            count, value = count + 1, value + t.ipc
    return count, value


def axis_oil_money(world: World, power: str | None = None) -> int:
    """IPCs of the oil lands the Axis (or ``power`` alone) holds: the Middle East of the Europe board
    and the oil islands of the Pacific board."""
    total = 0
    for space, t in world.data.territories.items():
        if not (t.middle_east or t.oil):
            continue
        holder = world.owner.get(space)
        if holder is None or world.side(holder) != "axis" or (power is not None and holder != power):
            continue
        total += t.ipc
    return total


def _enemy_origin_ipcs(world: World, power: str) -> int:
    """IPCs of territories by origin of the other side that ``power`` holds."""
    return sum(
        world.data.territories[space].ipc
        for space, holder in world.owner.items()
        if holder == power
        and not world.is_sea(space)
        and (origin := home_of(world, space)) is not None
        and origin in world.data.power_by_id
        and world.enemies(origin, power)
    )


def _enemy_factories(world: World, power: str) -> int:
    """Factories built by the other side (starting ones) that ``power`` holds."""
    return sum(
        1
        for space, t in world.data.territories.items()
        if t.factory
        and world.owner.get(space) == power
        and (origin := home_of(world, space)) is not None
        and world.enemies(origin, power)
    )


def _income_band(income: int, bands: list[tuple[int, int, int]]) -> int:
    for low, high, dice in bands:
        if low <= income <= high:
            return dice
    return 0


# ---------------------------------------------------------------------- surrender dice
def surrender_dice(world: World, power: str) -> list[tuple[str, int]]:
    """The text's table for ``power``: (why, dice) for every modifier that applies now."""
    out: list[tuple[str, int]] = []
    gone = set(surrendered(world))
    income = world.extra.get("last_income", {}).get(power, 0)
    # "This round" for the power rolling: the round of turns since its own last turn (the bombing
    # of Germany, first to move, happens in the Allies' turns after its own).
    bombed = world.extra.get("bombed_since_turn", {}).get(power, 0)

    def add(why: str, dice: int) -> None:
        if dice:
            out.append((why, dice))

    def axis_holds(space: str) -> bool:
        return _held_by_side(world, space, "axis")

    def allies_hold(space: str) -> bool:
        return _held_by_side(world, space, "allies")

    axis_oil = axis_oil_money(world) >= OIL_MONEY
    if power == "UK":
        count, value = _lost_to_axis(world, "UK")
        if world.options.uk_ipc_loss_modifier:
            add("every 10 IPCs of British territories and convoys lost to the Axis", value // 10)
        add("every 3 British territories and convoys held by the Axis", count // 3)
        add("the United Kingdom in Axis hands", 6 if axis_holds("UNITED_KINGDOM") else 0)
        add("India in Axis hands", 3 if axis_holds("INDIA") else 0)
        add("Australia in Axis hands", 3 if axis_holds("NEW_SOUTH_WALES") else 0)
        add("Eastern Canada in Axis hands", 3 if axis_holds("EASTERN_CANADA") else 0)
        add("the Axis gets 5 or more IPCs of oil", 1 if axis_oil else 0)
        add("the USA has surrendered", 4 if "USA" in gone else 0)
        add("the USSR has surrendered", 2 if "USSR" in gone else 0)
        add("every 10 IPCs lost to bombing this round", bombed // 10)
        add("Germany has surrendered", -2 if "GERMANY" in gone else 0)
        add("Japan has surrendered", -2 if "JAPAN" in gone else 0)
    elif power == "USA":
        add("turns taken (the round less 2)", world.round - 2)
        add("the Eastern United States in Axis hands", 8 if axis_holds("EASTERN_UNITED_STATES") else 0)
        add("Hawaii in Axis hands", 2 if axis_holds("HAWAIIAN") else 0)
        add("the Axis gets 5 or more IPCs of oil", 1 if axis_oil else 0)
        add("the UK has surrendered", 3 if "UK" in gone else 0)
        add("the USSR has surrendered", 2 if "USSR" in gone else 0)
        convoys = sum(t.convoy for s, t in world.data.territories.items() if world.convoys.get(s) == "axis")
        add("every 7 IPCs of convoys in Axis hands", convoys // 7)
        add("each Axis power surrendered", -3 * sum(1 for p in AXIS if p in gone))
        add("attacked by the Axis in round 1", -2 if world.extra.get("usa_attacked_round_1") else 0)
        add("every 5 IPCs of Axis territory held", -(_enemy_origin_ipcs(world, power) // 5))
    elif power == "USSR":
        factories = sum(
            1
            for s, t in world.data.territories.items()
            if t.factory and home_of(world, s) == "USSR" and axis_holds(s)
        )
        add("each Soviet factory in Axis hands", factories)
        add("lost its capital this turn", 3 if "USSR" in world.extra.get("capital_lost", ()) else 0)
        add("collected fewer than 10 IPCs", 1 if income < 10 else 0)
        add("the Soviet convoy in Axis hands", 1 if world.convoys.get("SOVIET_CONVOY") == "axis" else 0)
        add("the Axis gets 5 or more IPCs of oil", 1 if axis_oil else 0)
        add("each other Ally surrendered", 2 * sum(1 for p in ALLIES if p != "USSR" and p in gone))
        add("Germany has surrendered", -3 if "GERMANY" in gone else 0)
        add("Japan has surrendered", -1 if "JAPAN" in gone else 0)
        add("every 5 IPCs of Axis territory held", -(_enemy_origin_ipcs(world, power) // 5))
    elif power == "GERMANY":
        add("Northern Italy in Allied hands", 1 if allies_hold("NORTHERN_ITALY") else 0)
        add("Germany in Allied hands", 6 if allies_hold("GERMANY") else 0)
        add("income", _income_band(income, [(30, 39, 1), (20, 29, 2), (-(10**6), 19, 3)]))
        add("Japan has surrendered", 1 if "JAPAN" in gone else 0)
        add("every 10 IPCs lost to bombing this round", bombed // 10)
        add("each Allied power surrendered", -2 * sum(1 for p in ALLIES if p in gone))
        add("each Allied factory held", -_enemy_factories(world, power))
        add("gets 5 or more IPCs of oil", -1 if axis_oil_money(world, "GERMANY") >= OIL_MONEY else 0)
    elif power == "JAPAN":
        add("Japan in Allied hands", 10 if allies_hold("JAPAN") else 0)
        add("income", _income_band(income, [(-(10**6), 9, 8), (10, 19, 5), (30, 39, -1), (40, 10**6, -2)]))
        add("Germany has surrendered", 2 if "GERMANY" in gone else 0)
        add("every 10 IPCs lost to bombing this round", bombed // 10)
        add("the USSR has surrendered", -1 if "USSR" in gone else 0)
        add("the UK has surrendered", -2 if "UK" in gone else 0)
        add("the USA has surrendered", -3 if "USA" in gone else 0)
        add("each Allied factory held", -_enemy_factories(world, power))
    return out


def roll_for_surrender(world: World, power: str) -> None:
    """The end of ``power``'s turn: count its surrender dice, roll them all, surrender on 22 or more.
    With three dice or fewer no roll can reach 22: none is rolled."""
    if power not in ALLIES + AXIS or has_surrendered(world, power):
        return
    table = surrender_dice(world, power)
    count = max(0, sum(n for _, n in table))
    reasons = ", ".join(f"{why} {n:+d}" for why, n in table) or "no modifier"
    name = world.data.power(power).name
    world.extra.get("capital_lost", {}).pop(power, None)
    world.extra.get("bombed_since_turn", {}).pop(power, None)
    if count * 6 < SURRENDER_AT:
        world.log.append(f"{name}: {count} surrender dice ({reasons}); no roll can reach {SURRENDER_AT}")
        return
    dice = world.roll(count)
    world.extra.setdefault("dice_log", []).append({"surrender": name, "dice": dice})
    total = sum(dice)
    world.log.append(f"{name}: {count} surrender dice ({reasons}) roll {total}")
    if total >= SURRENDER_AT:
        surrender(world, power)


def surrender(world: World, power: str) -> None:
    """``power`` sues for peace: its pieces leave the board; it keeps the home territories it holds;
    its conquests of powers still at war go back to them, those of surrendered powers stay its own;
    enemy-held territories of its own stay as they are. The game ends when a side has wholly
    surrendered."""
    name = world.data.power(power).name
    world.extra.setdefault("surrendered", []).append(power)
    world.log.append(f"{name} surrenders")
    followers = [p for p, seat in SEAT_OF.items() if seat == power]  # China goes with the USA
    for u in list(world.units.values()):
        if u.owner == power or u.owner in followers:
            world.remove(u)
    gone = set(surrendered(world))
    for space, holder in list(world.owner.items()):
        if holder != power or world.is_sea(space):
            continue
        origin = home_of(world, space)
        if origin is not None and origin != power and origin not in gone and world.enemies(origin, power):
            world.owner[space] = origin
            world.log.append(f"{world.space_name(space)} goes back to {world.data.power(origin).name}")
    for side in ("axis", "allies"):
        if all(p in gone for p in (AXIS if side == "axis" else ALLIES)):
            world.winner = "allies" if side == "axis" else "axis"
            world.phase = Phase.OVER
            world.log.append(f"the {side} have wholly surrendered: the {world.winner} win")


def out_of_the_war(world: World, power: str) -> bool:
    """``power`` takes no more turns: it has surrendered, or the power whose seat plays it has."""
    return has_surrendered(world, power) or has_surrendered(world, SEAT_OF.get(power, power))


def closed_by_surrender(world: World, space: str) -> bool:
    """A territory of a surrendered power: no one enters it any more (aircraft may fly over it)."""
    holder = world.owner.get(space)
    return holder is not None and has_surrendered(world, holder) and not world.is_sea(space)


def _closed_reason(world: World, space: str) -> str:
    return f"{world.space_name(space)} belongs to a power that has surrendered: no one enters it"


def _capital_lost(world: World, capital: str, power: str) -> None:
    """A surrender modifier: "lost its capital this turn"."""
    world.extra.setdefault("capital_lost", {})[power] = True


def _surrender_decides(world: World) -> bool:
    """No capital held a round ends the game: a side wins when the other has wholly surrendered
    (:func:`surrender`)."""
    return False


# ---------------------------------------------------------------------- initial placement
def begin_setup(world: World) -> None:
    """Before round 1 each power of the Europe board places units worth its IPCs: 18 for each Ally, 12
    for Germany, the Allies first."""
    world.phase = Phase.SETUP
    world.extra["setup"] = dict(SETUP_IPCS)
    world.turn = world.order.index(SETUP_ORDER[0])


def setup_ipcs(world: World) -> int:
    return int(world.extra.get("setup", {}).get(world.power, 0))


def _on_europe(world: World, space: str) -> bool:
    return world.data.board.space(space).board in SETUP_BOARDS or space in RUSSIAN_CARDS


def setup_spaces(world: World, unit: str) -> list[str]:
    """Where the mover may place ``unit`` in the initial placement: a Europe territory it owns
    (convoy centres included), or a Europe sea zone holding units of its own; a fighter at sea only
    where its own carriers have room."""
    ut = world.data.units[unit]
    power = world.power
    out = []
    for space in world.data.territories:
        if not _on_europe(world, space):
            continue
        sea = world.is_sea(space)
        if ut.is_land or ut.domain.value == "building":
            ok = not sea and world.owner.get(space) == power
        elif ut.is_sea:
            ok = sea and (world.owner.get(space) == power or any(u.owner == power for u in world.at(space)))
        else:  # aircraft: on its land, aboard its own carrier, or (fighters) on patrol over its ships
            own_ships = any(u.owner == power and world.unit_type(u).is_sea for u in world.at(space))
            ok = (not sea and world.owner.get(space) == power) or (
                sea
                and bool(ut.carrier_cost)
                and (
                    (own_ships and patrols(world))
                    or _own_carrier_room(world, space, power) >= ut.carrier_cost
                )
            )
        if ok:
            out.append(space)
    return out


def _own_carrier_room(world: World, space: str, power: str) -> int:
    here = [u for u in world.at(space) if u.owner == power]
    return sum(world.unit_type(u).carrier_capacity for u in here) - sum(
        world.unit_type(u).carrier_cost for u in here if world.unit_type(u).is_air
    )


def setup_place(world: World, action: Place) -> None:
    power = world.power
    budget = setup_ipcs(world)
    buys = world.data.power(power).buys
    cost = 0
    for unit, n in action.units:
        ut = world.data.units[unit]
        if unit not in buys or ut.has("factory"):
            raise IllegalAction(
                f"{world.data.power(power).name} does not place {ut.name} in the initial placement"
            )
        if action.at not in setup_spaces(world, unit):
            raise IllegalAction(
                f"{world.space_name(action.at)} is not a place for {power}'s {ut.name}: the initial "
                "placement goes in its own Europe territories, or Europe sea zones with its units"
            )
        cost += (ut.cost or 0) * n
    if cost > budget:
        raise IllegalAction(f"these cost {cost} IPCs; {power} has {budget} left to place")
    world.extra["setup"][power] = budget - cost
    for unit, n in action.units:
        for _ in range(n):
            u = world.add_unit(unit, power, action.at)
            if world.is_sea(action.at) and world.unit_type(u).is_air:
                carrier = next(
                    (
                        c
                        for c in world.at(action.at)
                        if c.owner == power and world.unit_type(c).carrier_capacity
                    ),
                    None,
                )
                if carrier is not None and _own_carrier_room(world, action.at, power) >= 0:
                    u.aboard = carrier.id
                else:
                    u.cap = True  # over its own ships with no carrier room: on combat air patrol
    world.log.append(
        f"{power} places {', '.join(f'{n} {world.data.units[t].name}' for t, n in action.units)} "
        f"at {world.space_name(action.at)} (initial placement)"
    )


def finish_setup_step(world: World) -> bool:
    """The mover's placement is done: the next power places, or round 1 begins (returns True then).
    IPCs not placed are lost."""
    left = world.extra["setup"].pop(world.power, 0)
    if left:
        world.log.append(f"{world.power} leaves {left} IPCs of its initial placement unspent")
    k = SETUP_ORDER.index(world.power)
    if k + 1 < len(SETUP_ORDER):
        world.turn = world.order.index(SETUP_ORDER[k + 1])
        return False
    world.extra.pop("setup", None)
    world.turn = 0
    return True


# ---------------------------------------------------------------------- combat air patrol
def patrols(world: World) -> bool:
    return world.options.combat_air_patrol


def may_patrol(world: World, unit: Unit) -> bool:
    """A fighter that did not fly in this turn's combat move and did not fight may end the non-combat
    move on patrol."""
    ut = world.unit_type(unit)
    return (
        patrols(world)
        and ut.is_air
        and bool(ut.carrier_cost)
        and not unit.fought
        and unit.id not in world.extra.get("flew_in_combat_move", ())
    )


def patrol_space(world: World, space: str, power: str) -> bool:
    """Over a sea zone without enemy units, or a territory its side holds."""
    if world.enemy_units(space, power) or closed_by_surrender(world, space):
        return False
    return world.is_sea(space) or world.friendly(space, power)


def on_patrol_against(world: World, space: str, power: str) -> bool:
    """Enemy fighters patrol over ``space``: ``power``'s surface ships may not pass through it."""
    return any(u.cap and world.enemies(u.owner, power) for u in world.at(space))


# ---------------------------------------------------------------------- capitals in exile
def exile_capital(world: World, power: str, capital: str) -> str | None:
    """Where an economy whose capital is in enemy hands rules from: another factory it started the game
    with, on the same board, that it holds (the one worth most)."""
    board = world.data.board
    theatre = board.space(capital).board
    homes = [
        s
        for s, t in world.data.territories.items()
        if t.factory
        and t.owner == power
        and s != capital
        and world.owner.get(s) == power
        and board.space(s).board == theatre
    ]
    return max(homes, key=lambda s: (world.data.territories[s].ipc, s), default=None)


def _rules_from_exile(world: World, power: str, economy: Economy) -> bool:
    """An economy whose capital the enemy holds goes on from another of its starting factories."""
    exile = exile_capital(world, power, economy.capital)
    where = f"from exile in {world.space_name(exile)}" if exile else "with no capital"
    world.log.append(f"{economy.id} rules {where}")
    return True


# ---------------------------------------------------------------------- special powers
def on_turn_start(world: World) -> None:
    power = world.power
    if power == "GERMANY" and income_at_turn_start(world, power) >= FREE_SUBMARINE_INCOME:
        _grant(world, "GERMANY", "submarine", 1, "free_submarine")
        world.log.append("Germany starts its turn with 40 or more IPCs of income: a free submarine")
    if power == "UK":
        world.extra["british_mediterranean"] = sorted(
            s for s, t in world.data.territories.items() if t.mediterranean and world.owner.get(s) == "UK"
        )
        held = [
            s
            for s, t in world.data.territories.items()
            if t.mediterranean_home and world.owner.get(s) == "UK"
        ]
        if held:
            _grant(world, "ENGLAND", "infantry", len(held), "free_infantry")
            world.log.append(
                f"the UK raises {len(held)} free infantry for " + ", ".join(world.space_name(s) for s in held)
            )


def income_at_turn_start(world: World, power: str) -> int:
    """The income a power starts its turn with: its last collection; before its first one (its first
    turn) what its territories pay now, its starting income (Germany's 40 in round 1)."""
    last = world.extra.get("last_income", {}).get(power)
    if last is not None:
        return int(last)
    return sum(income_of(world, power).values())


def _grant(world: World, economy: str, unit: str, n: int, key: str) -> None:
    world.bought.setdefault(economy, {})[unit] = world.bought.get(economy, {}).get(unit, 0) + n
    world.extra[key] = world.extra.get(key, 0) + n


def free_infantry_owed(world: World, economy: str, unit: str) -> int:
    """How many of ``economy``'s ``unit`` to place are the UK's free infantry (0 for anything else)."""
    if world.power != "UK" or economy != "ENGLAND" or unit != "infantry":
        return 0
    return int(world.extra.get("free_infantry", 0))


def free_infantry_at(world: World, at: str) -> bool:
    """Whether the UK's free infantry may go to ``at``: a territory within or next to the
    Mediterranean that was British at the start of its turn (the text allows no factory elsewhere)."""
    return at in world.extra.get("british_mediterranean", ())


def free_infantry_used(world: World, economy: str, at: str, unit: str, n: int, have: int) -> int:
    """How many of ``n`` infantry placed at ``at`` are free ones (taken first where they may go).
    Elsewhere only bought infantry may be placed: refused if ``n`` would take free ones."""
    owed = free_infantry_owed(world, economy, unit)
    if not owed:
        return 0
    if free_infantry_at(world, at):
        return min(n, owed)
    bought = have - owed
    if n > bought:
        name = world.space_name(at)
        t = world.data.territories.get(at)
        reason = (
            f"{name} was not British at the start of the UK's turn"
            if t is not None and t.mediterranean
            else f"{name} is not within or next to the Mediterranean"
        )
        raise IllegalAction(
            f"{reason}: the UK's free infantry go only to territories within or next to the Mediterranean "
            f"that were British at the start of its turn (England has {bought} bought infantry left to "
            f"place besides its {owed} free ones)"
        )
    return 0


def _free_infantry_short(world: World, free: int, n: int) -> str:
    return f"the UK has {free} free infantry left to place, not {n}"


def _spend_free_infantry(world: World, economy: str, unit: str, n: int) -> None:
    world.extra["free_infantry"] -= n


def _free_infantry_spaces(world: World, economy: str, unit: str) -> Collection[str] | None:
    """Where the UK's free infantry may go besides its factories (the legal actions)."""
    if not free_infantry_owed(world, economy, unit):
        return None
    spaces: Collection[str] = world.extra.get("british_mediterranean", ())
    return spaces


def _german_submarines(world: World, power: str, unit: UnitType, sea: str) -> bool:
    """Germany places new submarines next to any territory with an IPC value it holds."""
    return (
        power == "GERMANY"
        and unit.has("submarine")
        and any(
            world.owner.get(land) == "GERMANY" and world.data.territories[land].ipc > 0
            for land in neighbours(world, sea)
        )
    )


def on_turn_end(world: World, power: str) -> None:
    """Free units not placed are lost; then the surrender roll."""
    for key, economy, unit in (
        ("free_submarine", "GERMANY", "submarine"),
        ("free_infantry", "ENGLAND", "infantry"),
    ):
        have = world.bought.get(economy, {}).get(unit, 0)
        lost = min(world.extra.pop(key, 0), have)  # free units cannot be kept for a later turn
        if lost:
            world.bought[economy][unit] = have - lost
            world.log.append(f"{lost} free {unit} not placed: lost")
    roll_for_surrender(world, power)


def pool_uk_convoys(world: World, income: dict[str, int]) -> dict[str, int]:
    """The UK's convoy money goes into one pool, split evenly among England, India and Australia (the
    odd IPCs to them in that order). In the first round only the Pacific convoys are pooled, between
    India and Australia: England keeps its own (it starts with 25)."""
    economies = [e.id for e in world.data.power("UK").economies]
    europe = world.data.board.space(world.data.power("UK").capital).board
    pooled = dict.fromkeys(economies, 0)
    for space, holder in world.owner.items():
        t = world.data.territories[space]
        if holder != "UK" or not t.convoy or space in world.convoys:
            continue
        if world.round == 1 and world.data.board.space(space).board == europe:
            continue
        economy = world.economy_of(space) or economies[0]
        pooled[economy] += t.convoy
    total = sum(pooled.values())
    sharing = economies if world.round > 1 else [e for e in economies if e != economies[0]]
    out = {e: income.get(e, 0) - pooled[e] for e in economies}
    share, odd = divmod(total, len(sharing))
    for k, economy in enumerate(sharing):
        out[economy] += share + (1 if k < odd else 0)
    return out


def _pooled_income(world: World, power: str, income: dict[str, int]) -> dict[str, int]:
    return pool_uk_convoys(world, income) if power == "UK" else income


def _transfers(world: World) -> Iterator[Transfer]:
    """The UK's money between theatres: five IPCs at a time, or the whole purse (any sum may be
    typed)."""
    economies = world.data.power(world.power).economies
    if len(economies) < 2 or world.power != "UK":
        return
    for frm in economies:
        have = world.ipcs.get(frm.id, 0)
        for to in economies:
            if to.id != frm.id:
                for amount in sorted({min(5, have), have} - {0}):
                    yield Transfer(amount, frm.id, to.id)


def transfer(world: World, action: Transfer) -> None:
    """The UK moves money between its purses (between the theatres), in its purchase step."""
    economies = [e.id for e in world.data.power(world.power).economies]
    if world.power != "UK":
        raise IllegalAction("only the UK moves money between purses, in the linked world game")
    for purse in (action.frm, action.to):
        if purse not in economies:
            raise IllegalAction(
                f"the UK has no purse {purse.title()} (its purses: {', '.join(e.title() for e in economies)})"
            )
    if action.frm == action.to or action.ipcs <= 0:
        raise IllegalAction("a transfer moves some IPCs from one purse to another")
    have = world.ipcs.get(action.frm, 0)
    if action.ipcs > have:
        raise IllegalAction(f"{action.frm.title()} has {have} IPCs, not {action.ipcs}")
    world.ipcs[action.frm] = have - action.ipcs
    world.ipcs[action.to] = world.ipcs.get(action.to, 0) + action.ipcs
    world.log.append(f"the UK moves {action.ipcs} IPCs from {action.frm.title()} to {action.to.title()}")


LAYER = Layer(
    "linked",
    turn_start=on_turn_start,
    turn_end=on_turn_end,
    out_of_the_war=out_of_the_war,
    victory=_surrender_decides,
    initial_placement=InitialPlacement(
        SETUP_ORDER, begin_setup, setup_ipcs, setup_spaces, setup_place, finish_setup_step
    ),
    transfer=transfer,
    transfers=_transfers,
    closed=closed_by_surrender,
    closed_reason=_closed_reason,
    stops_ships=on_patrol_against,
    may_patrol=may_patrol,
    patrol_space=patrol_space,
    capital_taken=_capital_lost,
    income=_pooled_income,
    in_exile=_rules_from_exile,
    ship_spaces=_german_submarines,
    free_units=FreeUnits(
        free_infantry_used, _free_infantry_short, _spend_free_infantry, _free_infantry_spaces
    ),
)
"""The linked world game's rules on the base engine's hooks."""
