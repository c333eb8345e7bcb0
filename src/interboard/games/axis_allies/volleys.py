"""Who fires at what in a round of battle, how the dice become hits, and which casualties a side may
take: the combat rules as pure functions on unit types, for :mod:`.combat`.

A round is fired in stages: ``aa`` (first round of a land battle: one shot at each attacking
aircraft, hitting on 1), ``bombard`` (first round of an amphibious assault), ``first_strike``
(submarines, unless the other side has a destroyer), ``general`` (everyone else). Each stage is a
list of :class:`Volley`: a side's shots with their values, and the class of units its hits may go
to: ``air`` (AA fire), ``sea`` (submarine hits: ships only), ``not_sub`` (aircraft without a friendly
destroyer: anything but submarines), ``any``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from .state import Unit
from .units import UnitType

STAGES = ("aa", "bombard", "first_strike", "general")


@dataclass(frozen=True)
class Context:
    land: bool
    first_round: bool
    amphibious: set[int] = field(default_factory=set)
    """Ids of the units landed from the sea in this battle (marines attack at +1; no retreat)."""
    surprise: bool = False
    """Pacific: the defenders fire at 1 at most in this first round (Japan's surprise attack)."""
    aa: bool = False
    """The defender has an AA gun in the territory."""
    air_needs_destroyer: bool = True
    defending_subs_first_strike: bool = False
    low_luck: bool = False


@dataclass(frozen=True)
class Volley:
    side: str
    """``attacker`` or ``defender``: who fires."""
    values: tuple[int, ...]
    """One number a shot: a die at or under it hits."""
    targets: str
    """The class of units the hits may go to: ``air``, ``sea``, ``not_sub`` or ``any``."""


@dataclass(frozen=True)
class Rolled:
    dice: list[int]
    hits: int


def volley_order(round_no: int, land: bool) -> list[str]:
    if round_no == 1:
        return ["aa", "bombard", "first_strike", "general"] if land else ["first_strike", "general"]
    return ["first_strike", "general"]


def _types(table: Mapping[str, UnitType], units: Sequence[Unit]) -> list[UnitType]:
    return [table[u.type] for u in units]


def _has_destroyer(table: Mapping[str, UnitType], units: Sequence[Unit]) -> bool:
    return any(table[u.type].has("destroyer") for u in units)


def _value(table: Mapping[str, UnitType], unit: Unit, side: str, ctx: Context, supported: bool) -> int:
    ut = table[unit.type]
    if side == "attacker":
        value = ut.attack + (1 if supported else 0)
        if ut.has("marine") and unit.id in ctx.amphibious:
            value += 1
        return value
    value = ut.defence
    if ctx.surprise and ctx.first_round:
        value = min(value, 1)
    return value


def volleys(
    stage: str,
    table: Mapping[str, UnitType],
    attackers: Sequence[Unit],
    defenders: Sequence[Unit],
    ctx: Context,
    *,
    doomed_fire: bool = True,
    doomed: set[int] | None = None,
) -> list[Volley]:
    """The volleys of ``stage`` (bombardment has its own function, :func:`bombardment`)."""
    doomed = doomed or set()
    out: list[Volley] = []
    if stage == "aa":
        planes = [u for u in attackers if table[u.type].is_air]
        if ctx.land and ctx.first_round and ctx.aa and planes:
            out.append(anti_aircraft(len(planes)))
        return out
    if stage == "bombard":
        return out
    for side, shooters, others in (("attacker", attackers, defenders), ("defender", defenders, attackers)):
        shooters = [u for u in shooters if doomed_fire or u.id not in doomed]
        subs = [u for u in shooters if table[u.type].has("submarine")]
        first_strike = (
            bool(subs)
            and not _has_destroyer(table, others)
            and (side == "attacker" or ctx.defending_subs_first_strike)
        )
        if stage == "first_strike":
            if first_strike:
                strikes = tuple(_value(table, u, side, ctx, False) for u in subs)
                out.append(Volley(side, tuple(v for v in strikes if v > 0), "sea"))
            continue
        # General fire: everyone not already fired in the first strike.
        fired = subs if first_strike else []
        rest = [u for u in shooters if u not in fired]
        support = sum(1 for u in rest if table[u.type].has("artillery")) if side == "attacker" else 0
        any_values: list[int] = []
        sea_values: list[int] = []
        air_values: list[int] = []
        for u in sorted(rest, key=lambda u: u.id):
            ut = table[u.type]
            supported = side == "attacker" and ut.has("supportable") and support > 0
            if supported:
                support -= 1
            value = _value(table, u, side, ctx, supported)
            if value <= 0:
                continue
            if ut.has("submarine"):
                sea_values.append(value)
            elif (
                ut.is_air and not ctx.land and ctx.air_needs_destroyer and not _has_destroyer(table, shooters)
            ):
                air_values.append(value)
            else:
                any_values.append(value)
        for shots, targets in ((any_values, "any"), (sea_values, "sea"), (air_values, "not_sub")):
            if shots:
                out.append(Volley(side, tuple(shots), targets))
    return [v for v in out if v.values]


def anti_aircraft(planes: int) -> Volley:
    return Volley("defender", (1,) * planes, "air")


def bombardment(
    table: Mapping[str, UnitType], ships: Sequence[Unit], defenders: Sequence[Unit], ctx: Context
) -> list[Volley]:
    """Shore bombardment in the first round of an amphibious assault: battleships at their attack,
    destroyers at 2 (docs/rules/axis-allies.md)."""
    if not ctx.first_round or not ships or not defenders:
        return []
    values = tuple(2 if table[s.type].has("destroyer") else table[s.type].attack for s in ships)
    return [Volley("attacker", values, "any")]


def air_battle(table: Mapping[str, UnitType], units: Sequence[Unit], side: str) -> Volley:
    """Before a raid: interceptors hit on 2, escorting fighters on 1; bombers do not fire."""
    value = 2 if side == "defender" else 1
    shots = tuple(value for u in units if table[u.type].carrier_cost)
    return Volley(side, shots, "air")


def roll(volley: Volley, d6: Callable[[], int], low_luck: bool) -> Rolled:
    """Dice for a volley: a die a shot, or low luck (hits = total ÷ 6, the remainder rolled on one die)."""
    if low_luck:
        total = sum(volley.values)
        hits = total // 6
        dice: list[int] = []
        if total % 6:
            die = d6()
            dice.append(die)
            hits += die <= total % 6
        return Rolled(dice, hits)
    dice = [d6() for _ in volley.values]
    return Rolled(dice, sum(1 for d, v in zip(dice, volley.values, strict=True) if d <= v))


def eligible(table: Mapping[str, UnitType], unit: Unit, targets: str) -> bool:
    ut = table[unit.type]
    if targets == "air":
        return ut.is_air
    if targets == "sea":
        return ut.is_sea
    if targets == "not_sub":
        return not ut.has("submarine")
    return True


def can_hit(
    table: Mapping[str, UnitType], attackers: Sequence[Unit], defenders: Sequence[Unit], ctx: Context
) -> tuple[bool, bool]:
    """(Could the attacker's fire hit anything of the defender's, and the defender's the attacker's?)
    Neither: the battle is a stalemate (aircraft against lone submarines, transports alone...)."""
    fire = volleys("first_strike", table, attackers, defenders, ctx) + volleys(
        "general", table, attackers, defenders, ctx
    )
    att = any(v.side == "attacker" and any(eligible(table, t, v.targets) for t in defenders) for v in fire)
    dfn = any(v.side == "defender" and any(eligible(table, t, v.targets) for t in attackers) for v in fire)
    return att, dfn


# ---------------------------------------------------------------------- casualties
def _slots(table: Mapping[str, UnitType], units: Sequence[Unit]) -> list[tuple[Unit, int]]:
    """Every hit a side can take: (unit, k) for the k-th hit it can absorb."""
    out = []
    for u in units:
        ut = table[u.type]
        for k in range(ut.hits - u.damage):
            out.append((u, k))
    return out


def _cost(table: Mapping[str, UnitType], unit: Unit, k: int, attacking: bool) -> tuple[float, int, int]:
    """The order of loss: the battleship's free hit first, then the cheapest, ties by the lower value
    in its role, then by id (stable)."""
    ut = table[unit.type]
    free = ut.hits > 1 and unit.damage + k < ut.hits - 1
    cost = 0.0 if free else float(ut.cost or 0)
    value = ut.attack if attacking else ut.defence
    return (cost, value, unit.id)


def default_losses(
    table: Mapping[str, UnitType], units: Sequence[Unit], hits: Mapping[str, int], attacking: bool
) -> list[int]:
    """The casualties a side takes by default: the most constrained hits first, each to the cheapest
    unit it may go to (unit ids, a unit listed once per hit it takes)."""
    slots = sorted(_slots(table, units), key=lambda s: _cost(table, s[0], s[1], attacking))
    used: set[tuple[int, int]] = set()
    chosen: list[int] = []
    for targets in ("air", "sea", "not_sub", "any"):
        for _ in range(hits.get(targets, 0)):
            pick = next(
                (s for s in slots if (s[0].id, s[1]) not in used and eligible(table, s[0], targets)),
                None,
            )
            if pick is None:
                break  # more hits than units they may go to: the rest are lost
            used.add((pick[0].id, pick[1]))
            chosen.append(pick[0].id)
    return chosen


def only_choice(
    table: Mapping[str, UnitType], units: Sequence[Unit], hits: Mapping[str, int]
) -> list[int] | None:
    """The casualties when there is nothing to choose (one type of unit, or every unit lost)."""
    slots = _slots(table, units)
    kinds = {(table[u.type].id, u.damage) for u, _ in slots}
    total = sum(hits.values())
    if len(kinds) <= 1 or total >= len(slots):
        return default_losses(table, units, hits, attacking=True)
    return None


def assign(
    table: Mapping[str, UnitType],
    units: Sequence[Unit],
    hits: Mapping[str, int],
    wanted: Sequence[tuple[str, int]],
) -> list[int]:
    """The unit ids for casualties chosen by type (a battleship once per hit it takes), checked:
    exactly as many as the hits that can land, each hit on a unit it may go to."""
    slots = _slots(table, units)
    need = min(sum(hits.values()), len(slots))
    listed = sum(n for _, n in wanted)
    if listed != need:
        raise ValueError(f"take {need} casualt{'y' if need == 1 else 'ies'}, not {listed}")
    pool = sorted(slots, key=lambda s: (s[0].type, s[0].damage * -1, s[0].id, s[1]))
    chosen: list[tuple[Unit, int]] = []
    for type_, n in wanted:
        mine = [s for s in pool if s[0].type == type_ and s not in chosen]
        if len(mine) < n:
            name = table[type_].name if type_ in table else type_
            raise ValueError(f"only {len(mine)} hit(s) can go to {name} here, not {n}")
        # Damage the least damaged first, so that a second hit sinks the same battleship.
        chosen.extend(sorted(mine, key=lambda s: (-s[0].damage, s[0].id, s[1]))[:n])
    if not _matches(table, chosen, hits):
        raise ValueError(
            "those casualties cannot take these hits ("
            + ", ".join(f"{n} on {c}" for c, n in hits.items())
            + ")"
        )
    return [u.id for u, _ in chosen]


def _matches(table: Mapping[str, UnitType], chosen: list[tuple[Unit, int]], hits: Mapping[str, int]) -> bool:
    """Can each chosen casualty take one hit of a class it is open to? (a small bipartite matching)"""
    hit_list = [c for c in ("air", "sea", "not_sub", "any") for _ in range(hits.get(c, 0))]
    match: dict[int, int] = {}
    return all(_augment(table, chosen, hit_list, match, i, set()) for i in range(len(chosen)))


def _augment(
    table: Mapping[str, UnitType],
    chosen: list[tuple[Unit, int]],
    hit_list: list[str],
    match: dict[int, int],
    i: int,
    seen: set[int],
) -> bool:
    """Find casualty ``i`` a hit, moving the others' along an augmenting path (``match``: hit ->
    casualty). A function of its own rather than nested in :func:`_matches`: a nested function that
    calls itself holds itself in its closure, a reference cycle left for the garbage collector at
    every call."""
    unit = chosen[i][0]
    for j, cls in enumerate(hit_list):
        if j in seen or not eligible(table, unit, cls):
            continue
        seen.add(j)
        if j not in match or _augment(table, chosen, hit_list, match, match[j], seen):
            match[j] = i
            return True
    return False


def casualty_options(
    table: Mapping[str, UnitType],
    units: Sequence[Unit],
    hits: Mapping[str, int],
    attacking: bool,
    limit: int = 6,
) -> list[list[int]]:
    """A few legal casualty choices: the default one, then others putting each kind of unit first."""
    out = [default_losses(table, units, hits, attacking)]
    need = len(out[0])
    kinds = sorted({u.type for u in units})
    for first in kinds:
        front = [u for u in units if u.type == first]
        rest = [u for u in units if u.type != first]
        order = front + rest
        slots = _slots(table, order)
        for combo in combinations(range(len(slots)), need):
            picked = [(slots[i][0], slots[i][1]) for i in combo]
            if _matches(table, picked, hits):
                ids = [u.id for u, _ in picked]
                if sorted(ids) not in [sorted(o) for o in out]:
                    out.append(ids)
                break
        if len(out) >= limit:
            break
    return out
