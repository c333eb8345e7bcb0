"""Bots of the Diplomacy family: a random bot, a hold bot and a heuristic bot after David Norman's DumbBot.

A bot sees what a person sees: the geography of the phase (with the links made so far), the position,
its power, the rulebook and its legal orders (:func:`~interboard.diplomacy.legal.legal_orders`). It
answers with typed orders. Unit orders are always taken from the legal lists; link orders (Twin Earths
III) are made by the bot and kept only when :func:`~interboard.diplomacy.validate.check_order`, the
check the server applies to a person's orders, accepts them. Every choice is seeded by the bot's seed,
its power and the phase, so a bot gives the same orders for the same position whenever it is asked.

The heuristic bot (:class:`HeuristicBot`) works as DumbBot does, on the joined graph of the phase:

1. a value for every space: a centre another power owns is worth that power's size (it grows with the
   square of its centres), an unowned centre the size of a small power, an own centre the size of the
   strongest enemy next to it (the need to defend it);
2. the values are spread over the adjacency of each unit kind a few steps, with decay, so that a unit
   sees the centres two and three moves away, across links between boards too;
3. each space's value for a move gains with the own units that can reach it and loses with the most
   units one enemy can bring there;
4. each unit takes the best move among its legal ones (now and then the next best, seeded), never two
   units to one space; units left holding support the moves into contested spaces, or the holds of
   threatened neighbours; an army may go by a one-fleet convoy of its own;
5. retreats go to the best space; builds to the best home centres, army or fleet by which is worth
   more there; removals take the least useful units;
6. Twin Earths III Winters: LINK from its units (or empty home centres) to valuable centres it cannot
   reach, DESTROY of links that let enemy units at its centres, REINFORCE of the links its units use;
   within the allowance its centres give.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from ...board import Board, SpaceKind, UnitKind
from .errors import OrderError
from .legal import PowerOptions, legal_orders, random_orders
from .links import allowance, link_pair
from .orders import (
    Build,
    Convoy,
    DestroyLink,
    Disband,
    Hold,
    Link,
    Move,
    Order,
    ReinforceLink,
    Retreat,
    SupportHold,
    SupportMove,
)
from .random_play import random_link_choices
from .rules import Rulebook
from .state import PhaseKind, Position, Season, Unit
from .validate import check_order

ARMY = UnitKind.ARMY
FLEET = UnitKind.FLEET


@dataclass(frozen=True)
class Turn:
    """What a bot is given to order one power in one phase: what a person playing it sees."""

    board: Board
    """The geography of the phase (the variant's board with the position's links laid over it)."""
    position: Position
    power: str
    rulebook: Rulebook
    options: PowerOptions | None
    """The power's legal unit orders (None when it has only link orders to give, or nothing)."""

    @classmethod
    def of(cls, board: Board, position: Position, power: str, rulebook: Rulebook) -> Turn:
        return cls(board, position, power, rulebook, legal_orders(board, position, power).get(power))


class Bot(Protocol):
    """A player of the Diplomacy family."""

    name: str

    def orders(self, turn: Turn) -> list[Order]:
        """The orders of ``turn.power`` for the phase (units without orders hold, are disbanded, or
        adjust by civil disorder)."""
        ...


def turn_rng(seed: int | str, turn: Turn) -> random.Random:
    """The bot's generator for one power and phase: the same orders whenever the bot is asked again."""
    return random.Random(f"{seed}/{turn.power}/{turn.position.phase.name}/{len(turn.position.units)}")


# ---------------------------------------------------------------------- simple bots
class HoldBot:
    """Holds every unit; disbands dislodged units; builds armies at its first free home centres and
    leaves removals to civil disorder."""

    name = "hold"

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed

    def orders(self, turn: Turn) -> list[Order]:
        opts = turn.options
        if opts is None:
            return []
        kind = turn.position.phase.kind
        if kind is PhaseKind.MOVEMENT:
            return [next(o for o in orders if isinstance(o, Hold)) for orders in opts.orders.values()]
        if kind is PhaseKind.RETREATS:
            return [next(o for o in orders if isinstance(o, Disband)) for orders in opts.orders.values()]
        if opts.due > 0:
            # It builds (armies, at the first sites): in the variants that open with builds a bot
            # that never built would have no units at all.
            return [builds[0] for builds in list(opts.orders.values())[: opts.due]]
        return []


class RandomBot:
    """A legal order drawn at random for every unit (:func:`~interboard.diplomacy.legal.random_orders`),
    and, where links are game state, a few random legal link orders."""

    name = "random"

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed

    def orders(self, turn: Turn) -> list[Order]:
        rng = turn_rng(self.seed, turn)
        out = [o for _, o in random_orders(turn.board, turn.position, rng, turn.power)]
        if turn.rulebook.links is not None:
            choices = random_link_choices(turn.board, turn.position, turn.rulebook, rng, illegal_share=0.0)
            out.extend(c.order for c in choices if c.power == turn.power and c.meant_legal)
        return out


# ---------------------------------------------------------------------- the joined graph
class _Graph:
    """Space-level adjacency of a geography for each unit kind, built once per geography."""

    __slots__ = ("adj", "coastal", "homeland_of", "kind", "loc_space", "main_loc", "reach")

    def __init__(self, board: Board) -> None:
        n = len(board.spaces)
        self.loc_space = [loc.space for loc in board.locations]
        self.main_loc = [board.location_by_id.get(s.id, -1) for s in board.spaces]
        self.kind = [s.kind for s in board.spaces]
        army: list[set[int]] = [set() for _ in range(n)]
        fleet: list[set[int]] = [set() for _ in range(n)]
        for loc, targets in enumerate(board.army_adj):
            army[self.loc_space[loc]].update(self.loc_space[t] for t in targets)
        for loc, targets in enumerate(board.fleet_adj):
            fleet[self.loc_space[loc]].update(self.loc_space[t] for t in targets)
        self.adj: dict[UnitKind, list[tuple[int, ...]]] = {
            ARMY: [tuple(sorted(x - {i})) for i, x in enumerate(army)],
            FLEET: [tuple(sorted(x - {i})) for i, x in enumerate(fleet)],
        }
        self.coastal = [bool(fleet[s]) and self.kind[s] is not SpaceKind.SEA for s in range(n)]
        # Spaces a unit of the kind at the location can move into (for strength and competition).
        self.reach: dict[UnitKind, list[frozenset[int]]] = {
            ARMY: [frozenset(self.loc_space[t] for t in ts) for ts in board.army_adj],
            FLEET: [frozenset(self.loc_space[t] for t in ts) for ts in board.fleet_adj],
        }
        self.homeland_of: dict[int, str] = {s: p.id for p in board.powers for s in p.homeland}


_GRAPHS: weakref.WeakKeyDictionary[Board, _Graph] = weakref.WeakKeyDictionary()


def _graph(board: Board) -> _Graph:
    g = _GRAPHS.get(board)
    if g is None:
        g = _GRAPHS[board] = _Graph(board)
    return g


# ---------------------------------------------------------------------- the heuristic bot
@dataclass(frozen=True)
class Weights:
    """The heuristic bot's tuning (DumbBot's parameters, rescaled)."""

    size: tuple[float, float, float] = (1.0, 4.0, 16.0)
    """A power's size from its centres n: a*n*n + b*n + c."""
    neutral_centres: int = 3
    """An unowned centre is worth the size of a power with this many centres."""
    spring: tuple[float, ...] = (100, 1000, 30, 10, 6, 5, 4, 3, 2, 1)
    """Weight of each spreading step in Spring (a step back from the centres, to take them in Fall)."""
    fall: tuple[float, ...] = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
    build: tuple[float, ...] = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
    attack_defence_spring: tuple[float, float] = (700, 300)
    attack_defence_fall: tuple[float, float] = (600, 400)
    attack_defence_build: tuple[float, float] = (700, 300)
    strength: float = 0.02
    competition: float = 0.02
    """Value of each own unit that can reach a space, and cost of each unit the strongest enemy can
    bring there, as shares of an unowned centre's value at the first spreading step."""
    fall_capture: float = 1.0
    """In Fall, the extra value (as a share of its attack value) of staying on a centre one does not
    own: it changes hands only if the unit is still there when the year ends."""
    occupied: float = 0.25
    """Cost of moving into a space an enemy unit stands in (a lone attack on it bounces), as a share of
    the unit of value above; supports are added afterwards where they can be."""
    noise: float = 0.1
    """Chance scale of taking the next best destination instead of the best."""


class _Values:
    """Space values for one power in one phase."""

    def __init__(self, turn: Turn, w: Weights, weights: tuple[float, ...], ad: tuple[float, float]) -> None:
        board, pos, me = turn.board, turn.position, turn.power
        g = _graph(board)
        self.g = g
        n = len(board.spaces)
        centres: dict[str, int] = {}
        for owner in pos.centres.values():
            centres[owner] = centres.get(owner, 0) + 1
        a, b, c = w.size

        def size(k: int) -> float:
            return a * k * k + b * k + c

        self.size = {p.id: size(centres.get(p.id, 0)) for p in board.powers}
        neutral = size(w.neutral_centres)
        # Who can move where: own strength and the largest enemy force per space.
        self.strength = [0] * n
        force: dict[str, list[int]] = {}
        for s, u in pos.units.items():
            reach = g.reach[u.kind][u.loc]
            if u.power == me:
                self.strength[s] += 1
                for t in reach:
                    self.strength[t] += 1
            else:
                f = force.setdefault(u.power, [0] * n)
                f[s] += 1
                for t in reach:
                    f[t] += 1
        self.competition = [max((f[s] for f in force.values()), default=0) for s in range(n)]
        threat = [0.0] * n
        for s, u in pos.units.items():
            if u.power != me:
                for t in (s, *g.reach[u.kind][u.loc]):
                    threat[t] = max(threat[t], self.size[u.power])
        self.threat = threat
        attack = [0.0] * n
        defence = [0.0] * n
        for sp in board.spaces:
            if not sp.centre:
                continue
            holder = pos.centres.get(sp.index)
            if holder == me:
                defence[sp.index] = threat[sp.index]
            else:
                attack[sp.index] = self.size[holder] if holder is not None else neutral
        self.attack = attack
        base = [ad[0] * attack[s] + ad[1] * defence[s] for s in range(n)]
        unit = max(weights) * ad[0] * neutral
        self.contest_cost = [unit * w.competition * c for c in self.competition]
        for s, u in pos.units.items():
            if u.power != me:
                self.contest_cost[s] += unit * w.occupied
        """What enemy competition takes off a space's value: a unit staying there does not pay it."""
        self.value: dict[UnitKind, list[float]] = {}
        for kind in (ARMY, FLEET):
            adj = g.adj[kind]
            layer = list(base)
            total = [weights[0] * x for x in layer]
            for wk in weights[1:]:
                layer = [(layer[s] + sum(layer[t] for t in adj[s])) / 5 for s in range(n)]
                for s in range(n):
                    total[s] += wk * layer[s]
            for s in range(n):
                total[s] += unit * w.strength * self.strength[s] - self.contest_cost[s]
            self.value[kind] = total

    def of(self, kind: UnitKind, space: int) -> float:
        return self.value[kind][space]


class HeuristicBot:
    """DumbBot's method on the joined graph (see the module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int | str = 0, weights: Weights | None = None) -> None:
        self.seed = seed
        self.w = weights or Weights()

    def orders(self, turn: Turn) -> list[Order]:
        rng = turn_rng(self.seed, turn)
        phase = turn.position.phase
        out: list[Order] = []
        if phase.kind is PhaseKind.MOVEMENT:
            if turn.options is not None:
                fall = phase.season is Season.FALL
                ad = self.w.attack_defence_fall if fall else self.w.attack_defence_spring
                values = _Values(turn, self.w, self.w.fall if fall else self.w.spring, ad)
                if fall:
                    for s, u in turn.position.units.items():
                        if u.power == turn.power and values.attack[s] > 0:
                            gain = self.w.fall_capture * self.w.fall[0] * ad[0] * values.attack[s]
                            values.value[u.kind][s] += gain
                    _make_room_to_build(turn, values)
                out = _movement(turn, turn.options, values, self.w.noise, rng)
        elif phase.kind is PhaseKind.RETREATS:
            if turn.options is not None:
                values = _Values(turn, self.w, self.w.fall, self.w.attack_defence_fall)
                out = _retreats(turn, turn.options, values)
        else:
            values = _Values(turn, self.w, self.w.build, self.w.attack_defence_build)
            if turn.options is not None:
                out = _adjustments(turn, turn.options, values)
            links = turn.rulebook.links
            if links is not None and links.phase is PhaseKind.ADJUSTMENTS:
                out.extend(_link_orders(turn, values, out))
        return out


def _make_room_to_build(turn: Turn, values: _Values) -> None:
    """In Fall, a power with more centres than units leaves as many of its home centres empty as it
    can build on, where no enemy can reach them: builds go only on empty home centres, so a unit that
    sits on one for ever (a fleet with nowhere better to go) would stop all growth."""
    pos, me = turn.position, turn.power
    mine = [(s, u) for s, u in pos.units.items() if u.power == me]
    room = sum(1 for owner in pos.centres.values() if owner == me) - len(mine)
    homes = set(turn.board.power_by_id[me].home_centres)
    sitting = sorted(s for s, _ in mine if s in homes and values.competition[s] == 0)
    empty = [h for h in homes if h not in pos.units and pos.centres.get(h) == me]
    for s in sitting[: max(0, room - len(empty))]:
        for kind in (ARMY, FLEET):
            values.value[kind][s] = VACATE  # below every move, for this unit and any other


VACATE = -1e12
"""The value given to a home centre that must be left empty for a build."""


# ---------------------------------------------------------------------- movement
@dataclass
class _Plan:
    unit: Unit
    space: int
    dest: int
    """The space the unit moves to, or its own space when it stays."""
    order: Order


def _movement(
    turn: Turn, opts: PowerOptions, values: _Values, noise: float, rng: random.Random
) -> list[Order]:
    board, pos = turn.board, turn.position
    g = values.g
    space_of = g.loc_space
    units = {space_of[loc]: pos.units[space_of[loc]] for loc in opts.orders}
    moves: dict[int, dict[int, Move]] = {}
    via: dict[int, dict[int, Move]] = {}
    holds: dict[int, Hold] = {}
    support_move: dict[int, dict[tuple[int, int], SupportMove]] = {}
    support_hold: dict[int, dict[int, SupportHold]] = {}
    convoys: dict[int, dict[tuple[int, int], Convoy]] = {}
    for loc, orders in opts.orders.items():
        s = space_of[loc]
        moves[s], via[s], support_move[s], support_hold[s], convoys[s] = {}, {}, {}, {}, {}
        for o in orders:
            if isinstance(o, Hold):
                holds[s] = o
            elif isinstance(o, Move):
                d = space_of[o.dest]
                table = via[s] if o.via_convoy else moves[s]
                if d not in table or _better_coast(board, g, values, o.dest, table[d].dest):
                    table[d] = o
            elif isinstance(o, SupportMove):
                support_move[s][(space_of[o.origin], space_of[o.dest])] = o
            elif isinstance(o, SupportHold):
                support_hold[s][space_of[o.target]] = o
            elif isinstance(o, Convoy):
                convoys[s][(space_of[o.origin], space_of[o.dest])] = o

    plans: dict[int, _Plan] = {}
    claimed: dict[int, int] = {}  # destination space -> space of the own unit going there
    order = sorted(units)
    rng.shuffle(order)

    def candidates(s: int) -> list[tuple[float, int]]:
        kind = units[s].kind
        stay = values.of(kind, s) + values.contest_cost[s]
        cands = [(stay, s)] + [(values.of(kind, d), d) for d in moves[s]]
        cands.sort(key=lambda c: (-c[0], c[1]))
        return cands

    me = turn.power

    def contested(d: int) -> bool:
        return values.competition[d] > 0 or _enemy_at(pos, d, me)

    def choose(s: int, ranked: list[tuple[float, int]]) -> None:
        """Plan the unit's move: the best free destination, now and then the next one; where the
        best is taken by an own unit moving into a contested space, support that move."""
        i = 0
        while i + 1 < len(ranked) and ranked[i][0] > 0 and ranked[i + 1][0] > 0:
            if rng.random() >= noise * ranked[i + 1][0] / ranked[i][0]:
                break
            i += 1
        for _, d in ranked[i:] + ranked[:i]:
            mover = claimed.get(d)
            if mover is None:
                plans[s] = _Plan(units[s], s, d, holds[s] if d == s else moves[s][d])
                claimed[d] = s
                return
            support = support_move[s].get((mover, d))
            if mover != d and support is not None and contested(d) and s not in claimed:
                plans[s] = _Plan(units[s], s, s, support)
                claimed[s] = s
                return
        plans[s] = _Plan(units[s], s, s, holds[s])
        claimed.setdefault(s, s)

    for s in order:
        choose(s, candidates(s))

    # Repair: a move into the space of an own unit that stays (or swaps with the mover) would bounce;
    # the mover stays instead, which may in turn stop a unit moving into its space. A support of a
    # move no longer made is dropped.
    changed = True
    while changed:
        changed = False
        for s in sorted(plans):
            p = plans[s]
            other = plans.get(p.dest)
            if p.dest != s and other is not None and other.dest in (other.space, s):
                plans[s] = _Plan(p.unit, s, s, holds[s])
                changed = True
            elif isinstance(p.order, SupportMove):
                origin, dest = space_of[p.order.origin], space_of[p.order.dest]
                if plans[origin].dest != dest:
                    plans[s] = _Plan(p.unit, s, s, holds[s])
                    changed = True

    _add_convoys(plans, units, via, convoys, values, g)
    _add_supports(plans, support_move, support_hold, values, pos)
    return [p.order for _, p in sorted(plans.items())]


def _better_coast(board: Board, g: _Graph, values: _Values, new: int, old: int) -> bool:
    """Of two coasts of one space, the one from which a fleet reaches more value next."""

    def onward(loc: int) -> float:
        return sum(max(values.of(FLEET, t), 0.0) for t in g.reach[FLEET][loc])

    return (onward(new), -new) > (onward(old), -old)


def _add_convoys(
    plans: dict[int, _Plan],
    units: dict[int, Unit],
    via: dict[int, dict[int, Move]],
    convoys: dict[int, dict[tuple[int, int], Convoy]],
    values: _Values,
    g: _Graph,
) -> None:
    """An army goes by the convoy of one own fleet when the army gains more than the fleet gives up."""
    taken = {p.dest for p in plans.values()}
    fleets = [f for f in sorted(plans) if units[f].kind is FLEET and convoys[f]]
    for a in sorted(plans):
        army = plans[a]
        if units[a].kind is not ARMY or not via[a] or isinstance(army.order, SupportMove):
            continue
        best: tuple[float, int, int] | None = None
        for f in fleets:
            fleet = plans[f]
            if isinstance(fleet.order, Convoy | SupportMove):
                continue
            lost = values.of(FLEET, fleet.dest) - values.of(FLEET, f)
            for (origin, dest), _convoy in convoys[f].items():
                if origin != a or dest in taken or dest not in via[a]:
                    continue
                gain = values.of(ARMY, dest) - values.of(ARMY, army.dest) - max(lost, 0.0)
                if gain > 0 and (best is None or gain > best[0]):
                    best = (gain, f, dest)
        if best is not None:
            _, f, dest = best
            taken.discard(army.dest)
            taken.discard(plans[f].dest)
            plans[a] = _Plan(army.unit, a, dest, via[a][dest])
            plans[f] = _Plan(plans[f].unit, f, f, convoys[f][(a, dest)])
            taken.update((dest, f))


def _add_supports(
    plans: dict[int, _Plan],
    support_move: dict[int, dict[tuple[int, int], SupportMove]],
    support_hold: dict[int, dict[int, SupportHold]],
    values: _Values,
    pos: Position,
) -> None:
    """Units that stay support own moves into contested spaces, else threatened own neighbours."""
    me = next(iter(plans.values())).unit.power if plans else ""
    contested = sorted(
        (
            (values.competition[p.dest] + (1 if _enemy_at(pos, p.dest, me) else 0), p.space, p.dest)
            for p in plans.values()
            if p.dest != p.space and isinstance(p.order, Move) and not p.order.via_convoy
        ),
        key=lambda c: (-c[0], c[1]),
    )
    contested = [c for c in contested if c[0] > 0]
    supporters = [s for s, p in sorted(plans.items()) if p.dest == s and isinstance(p.order, Hold)]
    given: dict[int, int] = {}
    # First one support for each contested move, the most contested first, then a second where it helps.
    for round_ in (1, 2):
        for need, origin, dest in contested:
            if round_ == 2 and need < 2:
                continue
            for s in supporters:
                if s in given:
                    continue
                order = support_move[s].get((origin, dest))
                if order is not None:
                    plans[s] = _Plan(plans[s].unit, s, s, order)
                    given[s] = origin
                    break
    for s in supporters:
        if s in given:
            continue
        threatened = [
            (values.threat[t], t)
            for t, p in plans.items()
            if t != s and p.dest == t and t in support_hold[s] and values.threat[t] > 0
        ]
        if threatened:
            _, t = max(threatened)
            plans[s] = _Plan(plans[s].unit, s, s, support_hold[s][t])


def _enemy_at(pos: Position, space: int, me: str) -> bool:
    u = pos.units.get(space)
    return u is not None and u.power != me


# ---------------------------------------------------------------------- retreats and adjustments
def _retreats(turn: Turn, opts: PowerOptions, values: _Values) -> list[Order]:
    space_of = values.g.loc_space
    taken: set[int] = set()
    out: list[Order] = []
    for _loc, orders in sorted(opts.orders.items()):
        ranked = sorted(
            (
                (values.of(o.unit or ARMY, space_of[o.dest]), o.dest, o)
                for o in orders
                if isinstance(o, Retreat) and space_of[o.dest] not in taken
            ),
            key=lambda r: (-r[0], r[1]),
        )
        if ranked:
            order = ranked[0][2]
            assert isinstance(order, Retreat)
            taken.add(space_of[order.dest])
            out.append(order)
        else:
            out.append(next(o for o in orders if isinstance(o, Disband)))
    return out


def _adjustments(turn: Turn, opts: PowerOptions, values: _Values) -> list[Order]:
    space_of = values.g.loc_space
    if opts.due > 0:
        ranked: list[tuple[float, int, Build]] = []
        for site, builds in opts.orders.items():
            best = max(
                (b for b in builds if isinstance(b, Build)),
                key=lambda b: (values.of(b.unit, space_of[b.loc]) + _onward(values, b), -b.loc),
            )
            ranked.append((values.of(best.unit, space_of[site]), site, best))
        ranked.sort(key=lambda r: (-r[0], r[1]))
        return [b for _, _, b in ranked[: opts.due]]
    if opts.due < 0:
        units = turn.position.units
        worst = sorted(
            opts.orders,
            key=lambda loc: (values.of(units[space_of[loc]].kind, space_of[loc]), loc),
        )
        return [opts.orders[loc][0] for loc in worst[: -opts.due]]
    return []


def _onward(values: _Values, build: Build) -> float:
    """Average value of the spaces a unit built here reaches: army or fleet by local need."""
    reach = values.g.reach[build.unit][build.loc]
    if not reach:
        return float("-inf")
    return sum(values.of(build.unit, t) for t in reach) / len(reach)


# ---------------------------------------------------------------------- link orders (Twin Earths III)
_LinkOrder = Link | DestroyLink | ReinforceLink


def _link_orders(turn: Turn, values: _Values, unit_orders: list[Order]) -> list[Order]:
    rules = turn.rulebook.links
    assert rules is not None
    board, pos, me = turn.board, turn.position, turn.power
    printed = board.base
    opening = pos.phase.year == printed.start.year
    budget = allowance(rules, pos, me, opening)
    if budget <= 0:
        return []
    g = _graph(printed)
    space_of = g.loc_space
    existing = set(pos.links)
    ranked: list[tuple[float, int, _LinkOrder]] = []

    def free(s: int) -> bool:
        return not rules.homeland_restriction or g.homeland_of.get(s, me) == me

    # Sources: own units and the home centres where units are built this Winter.
    sources: dict[int, tuple[UnitKind, int]] = {
        s: (u.kind, u.loc) for s, u in pos.units.items() if u.power == me
    }
    for o in unit_orders:
        if isinstance(o, Build):
            sources.setdefault(space_of[o.loc], (o.unit, o.loc))
    for s in (h for h in board.power_by_id[me].home_centres if pos.centres.get(h) == me):
        sources.setdefault(s, (ARMY, g.main_loc[s]))
    distance = _distances(values.g, sources)
    targets = [t for t in range(len(printed.spaces)) if values.attack[t] > 0 and free(t) and distance[t] > 1]
    for s, (kind, loc) in sorted(sources.items()):
        if not free(s):
            continue
        for t in targets:
            if t == s or (rules.cross_board_only and printed.spaces[s].board == printed.spaces[t].board):
                continue
            ends = _link_ends(printed, g, loc, t, kind)
            if ends is None or link_pair(printed, *ends) in existing:
                continue
            risk = values.threat[t] if pos.centres.get(s) == me else 0.0
            # A link matters most to centres far from its units: a shortcut of one move is worth little.
            far = min(distance[t] - 1, _FAR) / _FAR
            gain = far * values.attack[t] - 0.5 * risk - 0.25 * values.competition[t] * values.attack[t]
            if gain > 0:
                ranked.append((gain, s * 10000 + t, Link(*ends)))
    if not opening:
        for a, b in pos.links:
            x, y = space_of[a], space_of[b]
            mine = {x, y} & {s for s, u in pos.units.items() if u.power == me}
            for here, there in ((x, y), (y, x)):
                if here in mine and there not in mine and values.attack[there] > 0:
                    # A link in use is worth a little more than a new one: losing it strands the unit.
                    ranked.append((1.1 * values.attack[there], a * 10000 + b, ReinforceLink(a, b)))
                    break
            else:
                danger = 0.0
                for here, there in ((x, y), (y, x)):
                    if pos.centres.get(here) == me or here in mine:
                        u = pos.units.get(there)
                        if u is not None and u.power != me:
                            danger = max(danger, values.size[u.power])
                if danger > 0:
                    ranked.append((1.5 * danger, a * 10000 + b, DestroyLink(a, b)))
    ranked.sort(key=lambda r: (-r[0], r[1]))
    out: list[Order] = []
    used_spaces: set[int] = set()
    for _, _, order in ranked:
        if len(out) >= budget:
            break
        spaces = {space_of[order.a], space_of[order.b]}
        if isinstance(order, Link) and spaces & used_spaces:
            continue  # one new link per space: spread the reach
        if _accepted(turn, order):
            out.append(order)
            used_spaces |= spaces
    return out


_FAR = 4
"""Moves from the nearest own unit beyond which a target is as far as any."""


def _distances(g: _Graph, sources: Iterable[int]) -> list[int]:
    """Moves (of either kind) from the nearest source to each space, at most ``_FAR + 1``."""
    far = _FAR + 1
    dist = [far] * len(g.kind)
    frontier = sorted(sources)
    for s in frontier:
        dist[s] = 0
    step = 0
    while frontier and step < far:
        step += 1
        nxt = []
        for s in frontier:
            for t in (*g.adj[ARMY][s], *g.adj[FLEET][s]):
                if dist[t] > step:
                    dist[t] = step
                    nxt.append(t)
        frontier = nxt
    return dist


def _link_ends(printed: Board, g: _Graph, loc: int, t: int, kind: UnitKind) -> tuple[int, int] | None:
    """Locations of a link from a unit of ``kind`` at ``loc`` towards the centre ``t``: to ``t`` itself
    for an army (two land ends carry armies) or a fleet at sea (an end at sea carries fleets); for a
    fleet on a coast, to a sea next to ``t`` (two land ends would not carry it)."""
    s = g.loc_space[loc]
    ts = printed.spaces[t]
    if ts.kind is SpaceKind.SEA:
        return None
    if kind is ARMY:
        return None if g.kind[s] is SpaceKind.SEA else (g.main_loc[s], g.main_loc[t])
    if not g.coastal[t]:
        return None
    if g.kind[s] is SpaceKind.SEA:
        return loc, ts.coasts[0] if ts.coasts else g.main_loc[t]
    seas = [x for x in g.adj[FLEET][t] if g.kind[x] is SpaceKind.SEA and x not in g.adj[FLEET][s]]
    return (loc, g.main_loc[seas[0]]) if seas else None


def _accepted(turn: Turn, order: Order) -> bool:
    try:
        check_order(turn.board, turn.position, turn.power, order, turn.rulebook)
    except OrderError:
        return False
    return True


# ---------------------------------------------------------------------- registry
BOTS: dict[str, Callable[[int | str], Bot]] = {
    "random": RandomBot,
    "hold": HoldBot,
    "heuristic": HeuristicBot,
}
"""The Diplomacy bots by name: each made from a seed."""


def make_bot(name: str, seed: int | str = 0) -> Bot:
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOTS)})") from None


def phase_orders(
    board: Board, position: Position, rulebook: Rulebook, bots: dict[str, Bot], acting: Iterable[str]
) -> list[tuple[str, Order]]:
    """The orders of every acting power that has a bot, in the order given."""
    options = legal_orders(board, position)
    out: list[tuple[str, Order]] = []
    for power in acting:
        bot = bots.get(power)
        if bot is not None:
            turn = Turn(board, position, power, rulebook, options.get(power))
            out.extend((power, o) for o in bot.orders(turn))
    return out
