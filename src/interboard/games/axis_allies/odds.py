"""The battle calculator: the chances of a battle fought to the end, exactly or by sampling.

The battle follows the same rules as the game (:mod:`.volleys`): AA fire and shore bombardment in
the first round, submarine first strike, general fire, casualties taken in a fixed order of loss
(cheapest first, the battleship's free hit before anything, unless an order is given). Exactly: a
Markov chain over the units left on each side, each round's hits a distribution (a convolution of
the shots' chances, or low luck's certain hits and one die), memoised on the states reached; a round
in which no one is hit leaves the state as it was, which the chain resolves in closed form. By
sampling: the same rounds rolled with dice from a seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache

from .state import Unit
from .units import UnitType
from .volleys import Context, Volley, can_hit, eligible, volley_order, volleys

Side = tuple[tuple[int, int], ...]
"""The units left on a side: (unit index, damage) pairs, sorted."""


class OddsError(ValueError):
    """A battle the calculator cannot fight (no units, an unknown unit); the message says why."""


@dataclass(frozen=True)
class Battle:
    table: Mapping[str, UnitType]
    attacker: tuple[str, ...]
    """Unit type of each attacking unit."""
    defender: tuple[str, ...]
    kind: str = "land"
    """``land``, ``sea`` or ``amphibious`` (a land battle with the attackers landed from the sea)."""
    aa: bool = False
    """The defender has an AA gun (land battles)."""
    bombard: tuple[str, ...] = ()
    """Ships bombarding an amphibious assault."""
    low_luck: bool = False
    air_needs_destroyer: bool = True
    defending_subs_first_strike: bool = False
    attacker_order: tuple[str, ...] = ()
    """Unit types in the order the attacker loses them (empty: cheapest first)."""
    defender_order: tuple[str, ...] = ()


@dataclass(frozen=True)
class Odds:
    attacker_wins: float
    """The defender is destroyed and the attacker is not."""
    defender_wins: float
    """The attacker is destroyed and the defender is not."""
    draw: float
    """Both sides are destroyed."""
    stalemate: float
    """Both sides are left and neither can hit the other."""
    attacker_loss: float
    """Expected IPCs of units the attacker loses."""
    defender_loss: float
    method: str = "exact"
    trials: int = 0

    def to_json(self) -> dict[str, float | int | str]:
        return {
            "attacker_wins": self.attacker_wins,
            "defender_wins": self.defender_wins,
            "draw": self.draw,
            "stalemate": self.stalemate,
            "attacker_loss": self.attacker_loss,
            "defender_loss": self.defender_loss,
            "method": self.method,
            "trials": self.trials,
        }


@dataclass
class _Setup:
    battle: Battle
    att_units: list[Unit]
    def_units: list[Unit]
    bombard_units: list[Unit]
    ctx_first: Context
    ctx_later: Context
    cost: dict[int, int] = field(default_factory=dict)


def _setup(battle: Battle) -> _Setup:
    for name in (*battle.attacker, *battle.defender, *battle.bombard):
        if name not in battle.table:
            raise OddsError(f"unknown unit {name!r} (units: {', '.join(sorted(battle.table))})")
    # An AA gun among the defenders fires; it and the other buildings are not fought for.
    if any(battle.table[t].has("anti_aircraft") for t in battle.defender):
        battle = replace(battle, aa=True)
    battle = replace(
        battle,
        attacker=tuple(t for t in battle.attacker if battle.table[t].fights),
        defender=tuple(t for t in battle.defender if battle.table[t].fights),
    )
    if not battle.attacker or not battle.defender:
        raise OddsError("a battle needs fighting units on both sides")
    att = [Unit(k, t, "attacker", "X") for k, t in enumerate(battle.attacker)]
    base = len(att)
    dfn = [Unit(base + k, t, "defender", "X") for k, t in enumerate(battle.defender)]
    bomb = [Unit(1000 + k, t, "attacker", "Y") for k, t in enumerate(battle.bombard)]
    land = battle.kind != "sea"
    amphibious = {u.id for u in att} if battle.kind == "amphibious" else set()
    common = dict(
        land=land,
        amphibious=amphibious,
        aa=battle.aa,
        air_needs_destroyer=battle.air_needs_destroyer,
        defending_subs_first_strike=battle.defending_subs_first_strike,
        low_luck=battle.low_luck,
    )
    setup = _Setup(
        battle,
        att,
        dfn,
        bomb,
        Context(first_round=True, **common),  # type: ignore[arg-type]
        Context(first_round=False, **common),  # type: ignore[arg-type]
    )
    setup.cost = {u.id: battle.table[u.type].cost or 0 for u in att + dfn}
    return setup


# ---------------------------------------------------------------------- one side's hits
Dist = dict[tuple[tuple[str, int], ...], float]
"""Hits by class (sorted (class, count) pairs) -> probability."""


def _shots(volley: Volley, low_luck: bool) -> list[float]:
    """The distribution of a volley's hits, as a list indexed by the number of hits."""
    if low_luck:
        total = sum(volley.values)
        sure, rest = divmod(total, 6)
        out = [0.0] * (sure + 2)
        out[sure] += 1 - rest / 6
        out[sure + 1] += rest / 6
        return out
    dist = [1.0]
    for value in volley.values:
        p = min(max(value, 0), 6) / 6
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return dist


def _side_hits(vs: Sequence[Volley], side: str, low_luck: bool) -> Dist:
    """The joint distribution of a side's hits by class (classes independent)."""
    by_class: dict[str, list[float]] = {}
    for v in vs:
        if v.side != side:
            continue
        d = _shots(v, low_luck)
        old = by_class.get(v.targets, [1.0])
        conv = [0.0] * (len(old) + len(d) - 1)
        for i, a in enumerate(old):
            if a:
                for j, b in enumerate(d):
                    conv[i + j] += a * b
        by_class[v.targets] = conv
    joint: Dist = {(): 1.0}
    for cls, dist in sorted(by_class.items()):
        nxt: Dist = {}
        for key, p in joint.items():
            for n, q in enumerate(dist):
                if q:
                    k = tuple(sorted((*key, (cls, n)))) if n else key
                    nxt[k] = nxt.get(k, 0.0) + p * q
        joint = nxt
    return joint


# ---------------------------------------------------------------------- casualties in order
def _order_key(setup: _Setup, unit: Unit, k: int, attacking: bool) -> tuple[float, ...]:
    table = setup.battle.table
    ut = table[unit.type]
    free = ut.hits > 1 and unit.damage + k < ut.hits - 1
    order = setup.battle.attacker_order if attacking else setup.battle.defender_order
    if order:
        rank = order.index(unit.type) if unit.type in order else len(order)
        return (0.0 if free else 1.0, float(rank), float(unit.id))
    value = ut.attack if attacking else ut.defence
    return (0.0 if free else float(ut.cost or 0), float(value), float(unit.id))


def _apply(
    setup: _Setup, side: Side, units: Mapping[int, Unit], hits: tuple[tuple[str, int], ...], attacking: bool
) -> Side:
    """The side left after taking ``hits``: the most constrained hits first, each to the first unit
    in the order of loss it may go to."""
    if not hits:
        return side
    table = setup.battle.table
    state = dict(side)
    slots = []
    for uid, dmg in side:
        u = units[uid]
        for k in range(table[u.type].hits - dmg):
            slots.append((uid, k))
    probe = {uid: Unit(uid, units[uid].type, "", "", damage=dmg) for uid, dmg in side}
    slots.sort(key=lambda s: _order_key(setup, probe[s[0]], s[1], attacking))
    used: set[tuple[int, int]] = set()
    counts = dict(hits)
    for cls in ("air", "sea", "not_sub", "any"):
        for _ in range(counts.get(cls, 0)):
            pick = next((s for s in slots if s not in used and eligible(table, probe[s[0]], cls)), None)
            if pick is None:
                break
            used.add(pick)
    for uid, _ in used:
        state[uid] = state.get(uid, 0) + 1
    out = []
    for uid, dmg in sorted(state.items()):
        if dmg < table[units[uid].type].hits:
            out.append((uid, dmg))
    return tuple(out)


# ---------------------------------------------------------------------- the chain
def exact(battle: Battle) -> Odds:
    """The battle's chances computed exactly."""
    setup = _setup(battle)
    battle = setup.battle
    units = {u.id: u for u in setup.att_units + setup.def_units}
    table = battle.table

    def live(side: Side) -> list[Unit]:
        return [Unit(uid, units[uid].type, units[uid].owner, "X", damage=dmg) for uid, dmg in side]

    value = {uid: table[u.type].cost or 0 for uid, u in units.items()}

    def worth(side: Side) -> float:
        return float(sum(value[uid] for uid, _ in side))

    att0: Side = tuple((u.id, 0) for u in setup.att_units)
    def0: Side = tuple((u.id, 0) for u in setup.def_units)

    apply_cache: dict[tuple[Side, tuple[tuple[str, int], ...], bool], Side] = {}
    # Volleys depend only on the kinds of unit on each side (every attacker of an amphibious
    # assault is landed from the sea alike), so they are computed once per mix.
    volley_cache: dict[tuple[str, bool, tuple[str, ...], tuple[str, ...]], list[Volley]] = {}

    def kinds(side: Side) -> tuple[str, ...]:
        return tuple(sorted(units[uid].type for uid, _ in side))

    def stage_volleys(stage: str, a: Side, d: Side, ctx: Context) -> list[Volley]:
        key = (stage, ctx.first_round, kinds(a), kinds(d))
        found = volley_cache.get(key)
        if found is None:
            if stage == "bombard":
                found = _bombard_volleys(setup, live(d), ctx)
            else:
                found = volleys(stage, table, live(a), live(d), ctx)
            volley_cache[key] = found
        return found

    hit_cache: dict[tuple[bool, tuple[str, ...], tuple[str, ...]], bool] = {}

    def anyone_hits(a: Side, d: Side, ctx: Context) -> bool:
        key = (ctx.first_round, kinds(a), kinds(d))
        found = hit_cache.get(key)
        if found is None:
            found = any(can_hit(table, live(a), live(d), ctx))
            hit_cache[key] = found
        return found

    def take(side: Side, hits: tuple[tuple[str, int], ...], attacking: bool) -> Side:
        key = (side, hits, attacking)
        found = apply_cache.get(key)
        if found is None:
            found = _apply(setup, side, units, hits, attacking)
            apply_cache[key] = found
        return found

    def round_outcomes(a: Side, d: Side, first: bool) -> dict[tuple[Side, Side], float]:
        """Where one round leads: (attacker left, defender left) -> probability."""
        ctx = setup.ctx_first if first else setup.ctx_later
        states: dict[tuple[Side, Side, tuple[int, ...]], float] = {(a, d, ()): 1.0}
        for stage in volley_order(1 if first else 2, ctx.land):
            nxt: dict[tuple[Side, Side, tuple[int, ...]], float] = {}
            for (sa, sd, doomed), p in states.items():
                if not sa or not sd:
                    nxt[(sa, sd, doomed)] = nxt.get((sa, sd, doomed), 0.0) + p
                    continue
                vs = stage_volleys(stage, sa, sd, ctx)
                if not vs:
                    nxt[(sa, sd, doomed)] = nxt.get((sa, sd, doomed), 0.0) + p
                    continue
                # Each side's next state by the hits it takes, equal states merged (every hit past the
                # last unit leads to the same empty side).
                a_next: dict[Side, float] = {}
                for ha, pa in _side_hits(vs, "defender", battle.low_luck).items():
                    na = take(sa, ha, True)
                    a_next[na] = a_next.get(na, 0.0) + pa
                d_next: dict[tuple[Side, tuple[int, ...]], float] = {}
                for hd, pd in _side_hits(vs, "attacker", battle.low_luck).items():
                    after = take(sd, hd, False)
                    if stage == "bombard":
                        # Bombarded units fire back this round, then go.
                        gone = tuple(sorted({uid for uid, _ in sd} - {uid for uid, _ in after}))
                        dk = (sd, doomed + gone)
                    else:
                        dk = (after, doomed)
                    d_next[dk] = d_next.get(dk, 0.0) + pd
                for na, pa in a_next.items():
                    for (nd, dd), pd in d_next.items():
                        key = (na, nd, dd)
                        nxt[key] = nxt.get(key, 0.0) + p * pa * pd
            states = nxt
        out: dict[tuple[Side, Side], float] = {}
        for (sa, sd, doomed), p in states.items():
            if doomed:
                sd = tuple(x for x in sd if x[0] not in doomed)
            out[(sa, sd)] = out.get((sa, sd), 0.0) + p
        return out

    @cache
    def solve(a: Side, d: Side, first: bool) -> tuple[float, float, float, float, float, float]:
        """(attacker wins, defender wins, draw, stalemate, attacker value left, defender value left)."""
        if not a and not d:
            return (0.0, 0.0, 1.0, 0.0, 0.0, 0.0)
        if not d:
            return (1.0, 0.0, 0.0, 0.0, worth(a), 0.0)
        if not a:
            return (0.0, 1.0, 0.0, 0.0, 0.0, worth(d))
        ctx = setup.ctx_first if first else setup.ctx_later
        if not anyone_hits(a, d, ctx) and not (first and (battle.aa or battle.bombard)):
            return (0.0, 0.0, 0.0, 1.0, worth(a), worth(d))
        outcomes = round_outcomes(a, d, first)
        stay = 0.0 if first else outcomes.pop((a, d), 0.0)
        if stay >= 1.0 - 1e-12:
            return (0.0, 0.0, 0.0, 1.0, worth(a), worth(d))  # no one can be hit, ever
        total = [0.0] * 6
        for (na, nd), p in outcomes.items():
            sub = solve(na, nd, False)
            for k in range(6):
                total[k] += p * sub[k]
        scale = 1.0 / (1.0 - stay)
        return tuple(x * scale for x in total)  # type: ignore[return-value]

    aw, dw, dr, st, a_left, d_left = solve(att0, def0, True)
    return Odds(aw, dw, dr, st, worth(att0) - a_left, worth(def0) - d_left)


def _bombard_volleys(setup: _Setup, defenders: list[Unit], ctx: Context) -> list[Volley]:
    from .volleys import bombardment

    if setup.battle.kind != "amphibious":
        return []
    return bombardment(setup.battle.table, setup.bombard_units, defenders, ctx)


# ---------------------------------------------------------------------- sampling
def simulate(battle: Battle, trials: int, seed: int = 0) -> Odds:
    """The battle fought ``trials`` times with dice from a seeded generator."""
    setup = _setup(battle)
    battle = setup.battle
    units = {u.id: u for u in setup.att_units + setup.def_units}
    table = battle.table
    rng = random.Random(seed)
    d6: Callable[[], int] = lambda: rng.randint(1, 6)  # noqa: E731
    wins = [0, 0, 0, 0]
    lost_a = lost_d = 0.0
    value = {uid: table[u.type].cost or 0 for uid, u in units.items()}
    for _ in range(trials):
        a: Side = tuple((u.id, 0) for u in setup.att_units)
        d: Side = tuple((u.id, 0) for u in setup.def_units)
        first = True
        for _round in range(10_000):
            if not a or not d:
                break
            ctx = setup.ctx_first if first else setup.ctx_later
            if not any(can_hit(table, _live(units, a), _live(units, d), ctx)) and not (
                first and (battle.aa or battle.bombard)
            ):
                break
            doomed: set[int] = set()
            for stage in volley_order(1 if first else 2, ctx.land):
                if not a or not d:
                    break
                if stage == "bombard":
                    vs = _bombard_volleys(setup, _live(units, d), ctx)
                else:
                    vs = volleys(stage, table, _live(units, a), _live(units, d), ctx)
                hits: dict[str, dict[str, int]] = {"attacker": {}, "defender": {}}
                for v in vs:
                    if battle.low_luck:
                        total = sum(v.values)
                        n = total // 6 + (d6() <= total % 6 if total % 6 else 0)
                    else:
                        n = sum(1 for x in v.values if d6() <= x)
                    if n:
                        target = "defender" if v.side == "attacker" else "attacker"
                        hits[target][v.targets] = hits[target].get(v.targets, 0) + n
                na = _apply(setup, a, units, tuple(sorted(hits["attacker"].items())), True)
                nd = _apply(setup, d, units, tuple(sorted(hits["defender"].items())), False)
                if stage == "bombard":
                    doomed |= {uid for uid, _ in d} - {uid for uid, _ in nd}
                    nd = d
                a, d = na, nd
            if doomed:
                d = tuple(x for x in d if x[0] not in doomed)
            first = False
        if a and d:
            wins[3] += 1
        elif a:
            wins[0] += 1
        elif d:
            wins[1] += 1
        else:
            wins[2] += 1
        lost_a += sum(value[u.id] for u in setup.att_units) - sum(value[uid] for uid, _ in a)
        lost_d += sum(value[u.id] for u in setup.def_units) - sum(value[uid] for uid, _ in d)
    share = 1.0 / trials
    aw, dw, draw, stalemate = (w * share for w in wins)
    return Odds(aw, dw, draw, stalemate, lost_a * share, lost_d * share, "dice", trials)


def _live(units: Mapping[int, Unit], side: Side) -> list[Unit]:
    return [Unit(uid, units[uid].type, units[uid].owner, "X", damage=dmg) for uid, dmg in side]
