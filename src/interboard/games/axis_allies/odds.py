"""The battle calculator: the chances of a battle fought to the end, exactly or by sampling.

The battle follows the same rules as the game (:mod:`.volleys`): AA fire and shore bombardment in
the first round, submarine first strike, general fire, casualties taken in a fixed order of loss
(cheapest first, the battleship's free hit before anything, unless an order is given). Exactly: a
Markov chain over the hit points left on each side (an int's bits, in the side's order of loss),
each side's hits a distribution (a convolution of the shots' chances, or low luck's certain hits and
one die) worked out once per mix of units, the value of each state memoised stage by stage so that
the states between the submarines' first strike and the general fire are shared; a round in which
no one is hit leads back to its start, which the chain resolves in closed form. By sampling: the
same rounds rolled with dice from a seeded generator.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from .state import Unit
from .units import UnitType
from .volleys import Context, Volley, can_hit, eligible, volley_order, volleys


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
    return _Setup(
        battle,
        att,
        dfn,
        bomb,
        Context(first_round=True, **common),  # type: ignore[arg-type]
        Context(first_round=False, **common),  # type: ignore[arg-type]
    )


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


# ---------------------------------------------------------------------- the chain
Value = tuple[float, float, float, float, float, float]
"""(attacker wins, defender wins, draw, stalemate, attacker value left, defender value left)."""

_HIT_CLASSES = ("air", "sea", "not_sub", "any")


class _Slots:
    """One side's hit points as the bits of an int, in the side's order of loss.

    Every hit a unit can take is a slot (a battleship has two); the slots are sorted once in the order
    the side loses them (the battleship's free hit first, then cheapest first, or the given order),
    and bit ``k`` is the ``k``-th slot. A side's state is then the mask of the slots left, and a hit
    of a class goes to the lowest bit among the slots that class may hit (the most constrained
    classes first: AA's hits on aircraft, submarines' on ships, aircraft's on anything but
    submarines, then the rest)."""

    def __init__(self, setup: _Setup, units: list[Unit], attacking: bool) -> None:
        table = setup.battle.table
        self.units = units
        slots = [(i, j) for i, u in enumerate(units) for j in range(table[u.type].hits)]
        order = setup.battle.attacker_order if attacking else setup.battle.defender_order

        def key(slot: tuple[int, int]) -> tuple[float, ...]:
            unit, j = units[slot[0]], slot[1]
            ut = table[unit.type]
            free = j < ut.hits - 1
            if order:
                rank = order.index(unit.type) if unit.type in order else len(order)
                return (0.0 if free else 1.0, float(rank), float(unit.id), float(j))
            value = ut.attack if attacking else ut.defence
            return (0.0 if free else float(ut.cost or 0), float(value), float(unit.id), float(j))

        slots.sort(key=key)
        self.full = (1 << len(slots)) - 1
        self.unit_bits = [0] * len(units)
        for bit, (i, _) in enumerate(slots):
            self.unit_bits[i] |= 1 << bit
        self.eligible = {
            cls: sum(1 << bit for bit, (i, _) in enumerate(slots) if eligible(table, units[i], cls))
            for cls in _HIT_CLASSES
        }
        kinds = sorted({u.type for u in units})
        self._kind_of = [kinds.index(u.type) for u in units]
        self._kinds = len(kinds)
        self._cost = [float(table[u.type].cost or 0) for u in units]
        self._take: dict[tuple[int, tuple[tuple[str, int], ...]], int] = {}
        self._mix: dict[int, tuple[int, ...]] = {}
        self._worth: dict[int, float] = {}
        self._destroyers = sum(
            bits for bits, u in zip(self.unit_bits, units, strict=True) if table[u.type].has("destroyer")
        )

    def has_destroyer(self, mask: int) -> bool:
        return bool(mask & self._destroyers)

    def alive(self, mask: int) -> list[int]:
        return [i for i, bits in enumerate(self.unit_bits) if mask & bits]

    def mix(self, mask: int) -> tuple[int, ...]:
        """How many units of each kind are left: all that the volleys depend on."""
        found = self._mix.get(mask)
        if found is None:
            counts = [0] * self._kinds
            for i in self.alive(mask):
                counts[self._kind_of[i]] += 1
            found = self._mix[mask] = tuple(counts)
        return found

    def live(self, mask: int) -> list[Unit]:
        return [self.units[i] for i in self.alive(mask)]

    def worth(self, mask: int) -> float:
        found = self._worth.get(mask)
        if found is None:
            found = self._worth[mask] = sum(self._cost[i] for i in self.alive(mask))
        return found

    def take(self, mask: int, hits: tuple[tuple[str, int], ...]) -> int:
        key = (mask, hits)
        found = self._take.get(key)
        if found is None:
            left = mask
            counts = dict(hits)
            for cls in _HIT_CLASSES:
                open_slots = left & self.eligible[cls]
                for _ in range(counts.get(cls, 0)):
                    if not open_slots:
                        break
                    low = open_slots & -open_slots
                    open_slots ^= low
                    left ^= low
            found = self._take[key] = left
        return found

    def killed(self, before: int, after: int) -> int:
        """The slots of the units alive in ``before`` and dead in ``after``."""
        out = 0
        for bits in self.unit_bits:
            if before & bits and not after & bits:
                out |= bits & before
        return out

    def moves(self, mask: int, hits: Sequence[tuple[tuple[tuple[str, int], ...], float]]) -> dict[int, float]:
        """The side's next states and their chances, given the distribution of hits it takes (every
        hit past the last slot leads to the same empty side, so the states merge)."""
        out: dict[int, float] = {}
        for h, p in hits:
            left = self.take(mask, h)
            out[left] = out.get(left, 0.0) + p
        return out


def exact(battle: Battle) -> Odds:
    """The battle's chances computed exactly.

    A state is the pair of masks of slots left. Later rounds are solved stage by stage: the value
    of a state at a stage is memoised, so the states reached after the submarines' first strike are
    shared instead of multiplied out with the general fire that follows. A round in which no one is
    hit leads back to the round's start, so each stage's value is kept as ``c + q * V(start)`` and
    the loop is closed in one division."""
    setup = _setup(battle)
    battle = setup.battle
    table = battle.table
    low_luck = battle.low_luck
    att = _Slots(setup, setup.att_units, True)
    dfn = _Slots(setup, setup.def_units, False)
    later = setup.ctx_later
    later_stages = volley_order(2, later.land)
    last = len(later_stages)

    Hits = tuple[tuple[tuple[tuple[str, int], ...], float], ...]
    # A side's fire depends only on its own mix of units and on whether the other side has a
    # destroyer (submarines' first strike, aircraft against submarines), so it is worked out once
    # per such key: the distribution of the hits it scores, and the classes of unit they may hit.
    # AA fire is the exception: a shot at each attacking aircraft, so the attacker's mix is in its key.
    FireKey = tuple[str, bool, str, tuple[int, ...], bool | tuple[int, ...]]
    fire_cache: dict[FireKey, tuple[Hits, frozenset[str]]] = {}
    no_fire: tuple[Hits, frozenset[str]] = (((), 1.0),), frozenset()

    def side_fire(stage: str, ctx: Context, side: str, a: int, d: int) -> tuple[Hits, frozenset[str]]:
        own, other = (att, dfn) if side == "attacker" else (dfn, att)
        own_mask, other_mask = (a, d) if side == "attacker" else (d, a)
        facing = other.mix(other_mask) if stage == "aa" else other.has_destroyer(other_mask)
        key: FireKey = (stage, ctx.first_round, side, own.mix(own_mask), facing)
        found = fire_cache.get(key)
        if found is None:
            if stage == "bombard":
                vs = _bombard_volleys(setup, dfn.live(d), ctx) if side == "attacker" else []
            else:
                vs = [v for v in volleys(stage, table, att.live(a), dfn.live(d), ctx) if v.side == side]
            found = (
                (tuple(_side_hits(vs, side, low_luck).items()), frozenset(v.targets for v in vs))
                if vs
                else no_fire
            )
            fire_cache[key] = found
        return found

    def fire(stage: str, ctx: Context, a: int, d: int) -> tuple[Hits, Hits] | None:
        """(Hits the attacker takes, hits the defender takes) in ``stage``; None if no one fires."""
        on_defender = side_fire(stage, ctx, "attacker", a, d)
        on_attacker = side_fire(stage, ctx, "defender", a, d)
        if on_defender is no_fire and on_attacker is no_fire:
            return None
        return on_attacker[0], on_defender[0]

    def anyone_hits(a: int, d: int, ctx: Context) -> bool:
        """Could either side's fire hit anything of the other's (as :func:`can_hit`)?"""
        for stage in ("first_strike", "general"):
            if any(d & dfn.eligible[cls] for cls in side_fire(stage, ctx, "attacker", a, d)[1]):
                return True
            if any(a & att.eligible[cls] for cls in side_fire(stage, ctx, "defender", a, d)[1]):
                return True
        return False

    def ended(a: int, d: int) -> Value:
        if not a and not d:
            return (0.0, 0.0, 1.0, 0.0, 0.0, 0.0)
        if not d:
            return (1.0, 0.0, 0.0, 0.0, att.worth(a), 0.0)
        return (0.0, 1.0, 0.0, 0.0, 0.0, dfn.worth(d))

    def stalemate(a: int, d: int) -> Value:
        return (0.0, 0.0, 0.0, 1.0, att.worth(a), dfn.worth(d))

    solved: dict[tuple[int, int], Value] = {}

    def solve(a: int, d: int) -> Value:
        """The value of (a, d) at the start of a round after the first."""
        found = solved.get((a, d))
        if found is None:
            if not a or not d:
                found = ended(a, d)
            elif not anyone_hits(a, d, later):
                found = stalemate(a, d)
            else:
                c, q = staged(0, a, d)
                if q >= 1.0 - 1e-12:
                    found = stalemate(a, d)  # no one can be hit, ever
                else:
                    scale = 1.0 / (1.0 - q)
                    found = (
                        c[0] * scale,
                        c[1] * scale,
                        c[2] * scale,
                        c[3] * scale,
                        c[4] * scale,
                        c[5] * scale,
                    )
            solved[(a, d)] = found
        return found

    stage_memo: dict[tuple[int, int, int], tuple[Value, float]] = {}

    def staged(k: int, a: int, d: int) -> tuple[Value, float]:
        """(c, q): the value of (a, d) before stage ``k`` of a later round is c + q * solve(a, d)."""
        if k == last:
            return ((0.0, 0.0, 0.0, 0.0, 0.0, 0.0), 1.0)
        key = (k, a, d)
        found = stage_memo.get(key)
        if found is not None:
            return found
        hits = fire(later_stages[k], later, a, d)
        if hits is None:
            found = staged(k + 1, a, d)
        else:
            a_moves = att.moves(a, hits[0])
            d_moves = dfn.moves(d, hits[1])
            t0 = t1 = t2 = t3 = t4 = t5 = q = 0.0
            for na, pa in a_moves.items():
                for nd, pd in d_moves.items():
                    p = pa * pd
                    if na == a and nd == d:
                        v, q_next = staged(k + 1, a, d)
                        q += p * q_next
                    elif not na or not nd:
                        v = ended(na, nd)
                    else:
                        v = value_at(k + 1, na, nd)
                    t0 += p * v[0]
                    t1 += p * v[1]
                    t2 += p * v[2]
                    t3 += p * v[3]
                    t4 += p * v[4]
                    t5 += p * v[5]
            found = ((t0, t1, t2, t3, t4, t5), q)
        stage_memo[key] = found
        return found

    values: dict[tuple[int, int, int], Value] = {}

    def value_at(k: int, a: int, d: int) -> Value:
        """The value of (a, d), both sides left, before stage ``k`` of a later round."""
        key = (k, a, d)
        found = values.get(key)
        if found is None:
            c, q = staged(k, a, d)
            if q:
                s = solve(a, d)
                c = (
                    c[0] + q * s[0],
                    c[1] + q * s[1],
                    c[2] + q * s[2],
                    c[3] + q * s[3],
                    c[4] + q * s[4],
                    c[5] + q * s[5],
                )
            found = values[key] = c
        return found

    def first_round(a: int, d: int) -> Value:
        """The first round (AA fire, bombardment, first strike, general fire) fired out in full:
        it is fought once, from the starting state."""
        ctx = setup.ctx_first
        if not anyone_hits(a, d, ctx) and not (battle.aa or battle.bombard):
            return stalemate(a, d)
        # (attacker, defender, defender's units hit by bombardment: they fire back this round, then go)
        states: dict[tuple[int, int, int], float] = {(a, d, 0): 1.0}
        for stage in volley_order(1, ctx.land):
            nxt: dict[tuple[int, int, int], float] = {}
            for (sa, sd, doomed), p in states.items():
                hits = fire(stage, ctx, sa, sd) if sa and sd else None
                if hits is None:
                    nxt[(sa, sd, doomed)] = nxt.get((sa, sd, doomed), 0.0) + p
                    continue
                d_moves: dict[tuple[int, int], float] = {}
                for nd, pd in dfn.moves(sd, hits[1]).items():
                    key = (sd, doomed | dfn.killed(sd, nd)) if stage == "bombard" else (nd, doomed)
                    d_moves[key] = d_moves.get(key, 0.0) + pd
                for na, pa in att.moves(sa, hits[0]).items():
                    for (nd, nd_doomed), pd in d_moves.items():
                        key3 = (na, nd, nd_doomed)
                        nxt[key3] = nxt.get(key3, 0.0) + p * pa * pd
            states = nxt
        total = [0.0] * 6
        for (sa, sd, doomed), p in states.items():
            v = solve(sa, sd & ~doomed)
            for i in range(6):
                total[i] += p * v[i]
        return tuple(total)  # type: ignore[return-value]

    # The chain is walked by recursion, one level (a few frames) per hit point lost at most; Python
    # calls between Python functions take no C stack, so the limit is raised (never lowered) to fit.
    depth = 4 * (att.full.bit_length() + dfn.full.bit_length()) + 200
    if sys.getrecursionlimit() < depth:
        sys.setrecursionlimit(depth)
    aw, dw, dr, st, a_left, d_left = first_round(att.full, dfn.full)
    return Odds(aw, dw, dr, st, att.worth(att.full) - a_left, dfn.worth(dfn.full) - d_left)


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
    table = battle.table
    att = _Slots(setup, setup.att_units, True)
    dfn = _Slots(setup, setup.def_units, False)
    rng = random.Random(seed)
    d6: Callable[[], int] = lambda: rng.randint(1, 6)  # noqa: E731
    wins = [0, 0, 0, 0]
    lost_a = lost_d = 0.0
    for _ in range(trials):
        a, d = att.full, dfn.full
        first = True
        for _round in range(10_000):
            if not a or not d:
                break
            ctx = setup.ctx_first if first else setup.ctx_later
            if not any(can_hit(table, att.live(a), dfn.live(d), ctx)) and not (
                first and (battle.aa or battle.bombard)
            ):
                break
            doomed = 0  # the slots of units hit by bombardment: they fire back this round, then go
            for stage in volley_order(1 if first else 2, ctx.land):
                if not a or not d:
                    break
                if stage == "bombard":
                    vs = _bombard_volleys(setup, dfn.live(d), ctx)
                else:
                    vs = volleys(stage, table, att.live(a), dfn.live(d), ctx)
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
                na = att.take(a, tuple(sorted(hits["attacker"].items())))
                nd = dfn.take(d, tuple(sorted(hits["defender"].items())))
                if stage == "bombard":
                    doomed |= dfn.killed(d, nd)
                    nd = d
                a, d = na, nd
            d &= ~doomed
            first = False
        if a and d:
            wins[3] += 1
        elif a:
            wins[0] += 1
        elif d:
            wins[1] += 1
        else:
            wins[2] += 1
        lost_a += att.worth(att.full) - att.worth(a)
        lost_d += dfn.worth(dfn.full) - dfn.worth(d)
    share = 1.0 / trials
    aw, dw, draw, stalemate = (w * share for w in wins)
    return Odds(aw, dw, draw, stalemate, lost_a * share, lost_d * share, "dice", trials)
