"""Legal orders of a position: typed lists per unit, a JSON-ready option tree, and random legal play.

:func:`legal_orders` gives, for every power that must act in the position's phase, the legal orders
of each of its units (or build sites) and the number of builds or removals due. :func:`option_tree`
gives the same as plain dicts of strings for a UI or a bot to walk (location -> order kind ->
destination -> order text), like godip's ``Options``. :func:`random_orders` picks one legal order per
unit, and the right number of builds or removals.

Legality is the adjudicator's (``step``): no listed order is refused as illegal, and every order it
accepts is listed, in one canonical spelling, unless it can never have an effect. Canonical spelling:
the unit's own location and kinds named (``unit``, ``target_unit``); a fleet's destination by coast
(``F CON - BUL/EC``); an army's destination, and the destination of supports and convoys, by province
(a support naming the province supports a move to either coast). Army moves that go by convoy are
listed with ``via_convoy=True``: every move that needs a convoy, and an adjacent move when a chain of
fleets at sea could carry it (it is then listed both plain and via convoy).

Left out, although the adjudicator accepts them, because they are void or do nothing:

- supports of an empty province, or of a move the unit named cannot legally make;
- supports naming a coast the supported unit cannot reach (void; one naming a reachable coast does
  what the province-level support does, restricted to that coast);
- convoys naming an empty province or a fleet (a convoy by a fleet on no chordless route of the
  fleets at sea is refused by the adjudicator, DATC 6.G.19, so it is not legal at all);
- an adjacent army move ``via convoy`` that no chain of fleets at sea could carry (it fails under the
  2023 rules and is the plain move under 2000). A fleet's move ``via convoy`` is illegal.

Tables that depend only on the board are built once per board and cached weakly, like
:func:`interboard.diplomacy.tables.tables`.
"""

from __future__ import annotations

import random
import weakref
from dataclasses import dataclass
from typing import TypeAlias, TypedDict

from ...board import Board, SpaceKind, UnitKind
from .adjustments import adjustment_counts, build_sites
from .convoys import convoy_routes
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
    format_order,
)
from .state import PhaseKind, Position, Unit
from .tables import Tables, tables

ARMY = UnitKind.ARMY
FLEET = UnitKind.FLEET

OptionTree: TypeAlias = "dict[str, str | OptionTree]"
"""Location id -> order kind -> (destination / supported unit ...) -> order text."""


_Leaf: TypeAlias = "tuple[str, str | None, str | None, str]"
"""Where an order goes under its location in a tree: its kind's key, up to two more keys, its text."""


class PowerTree(TypedDict):
    due: int
    """Builds (positive) or removals (negative) due in an adjustment phase; 0 otherwise."""
    waive: str | None
    """``"WAIVE"`` when the power may decline a build, else None."""
    orders: dict[str, OptionTree]
    """By unit location (or build site) id."""


@dataclass(frozen=True, slots=True)
class PowerOptions:
    """What one power may order in a phase."""

    power: str
    orders: dict[int, tuple[Order, ...]]
    """Legal orders by location index: a unit's location (movement, retreats, removals) or a build
    site's province location (builds). Each location takes at most one order."""
    due: int = 0
    """Adjustments: builds (positive) or removals (negative) to order; 0 in other phases. A power
    that builds may waive any of its builds (:class:`Waive`)."""

    @property
    def can_waive(self) -> bool:
        return self.due > 0


# ---------------------------------------------------------------------- per-board tables
class _Static:
    """Orders and reach that depend only on the board."""

    __slots__ = (
        "army_moves",
        "convoys",
        "fleet_moves",
        "holds",
        "ids",
        "leaves",
        "move_spaces",
        "near",
        "pairs",
        "reach",
        "supports",
        "t",
        "via_moves",
    )

    def __init__(self, board: Board) -> None:
        t = tables(board)
        self.t = t
        n = t.n_locs
        self.ids = [loc.id for loc in board.locations]
        self.leaves: dict[Order, _Leaf] = {}
        """Each order's place in an option tree, worked out when first put in one (see power_tree)."""
        loc_space, main_loc = t.loc_space, t.main_loc
        self.holds: dict[UnitKind, list[Hold]] = {k: [Hold(loc, k) for loc in range(n)] for k in UnitKind}
        self.fleet_moves: list[tuple[Move, ...]] = []
        self.army_moves: list[tuple[Move, ...]] = []
        self.via_moves: list[dict[int, Move]] = []
        """Per army location: convoy destination space -> the ``via_convoy`` move there."""
        self.move_spaces: dict[UnitKind, list[frozenset[int]]] = {ARMY: [], FLEET: []}
        """Spaces a unit of that kind at a location can move to without a convoy."""
        self.reach: dict[UnitKind, list[tuple[int, ...]]] = {ARMY: [], FLEET: []}
        """Spaces a unit of that kind at a location can support into, sorted."""
        for loc in range(n):
            here = loc_space[loc]
            fleet = tuple(Move(loc, d, FLEET) for d in sorted(board.fleet_adj[loc]) if loc_space[d] != here)
            army_dests = sorted(
                s for s in t.army_spaces[loc] if s != here and not t.sea[s] and main_loc[s] >= 0
            )
            army = tuple(Move(loc, main_loc[s], ARMY) for s in army_dests)
            self.fleet_moves.append(fleet)
            self.army_moves.append(army)
            self.move_spaces[FLEET].append(frozenset(loc_space[m.dest] for m in fleet))
            self.move_spaces[ARMY].append(frozenset(army_dests))
            self.via_moves.append(
                {s: Move(loc, main_loc[s], ARMY, True) for s in sorted(t.convoy_reach[here])}
                if board.locations[loc].coast is None
                else {}
            )
            self.reach[ARMY].append(tuple(sorted(s for s in t.army_spaces[loc] if s != here)))
            self.reach[FLEET].append(tuple(sorted(s for s in t.fleet_spaces[loc] if s != here)))
        # Support and convoy orders are made once and reused: building thousands of frozen
        # dataclasses per phase was most of the generator's time. Keys pack the fields in one int.
        self.supports: dict[int, SupportHold | SupportMove] = {}
        self.convoys: dict[int, Convoy] = {}
        self.pairs: dict[int, dict[int, tuple[SupportMove, ...]]] = {}
        # Spaces from which a unit could move (without convoy) into a space a unit of this kind
        # at this location can support into: where the units it might support stand.
        self.near: dict[UnitKind, list[tuple[int, ...]]] = {ARMY: [], FLEET: []}
        into: list[set[int]] = [set() for _ in range(t.n_spaces)]
        for kind in (ARMY, FLEET):
            for loc in range(n):
                for d in self.move_spaces[kind][loc]:
                    into[d].add(loc_space[loc])
        for kind in (ARMY, FLEET):
            for loc in range(n):
                here = loc_space[loc]
                near = (
                    set().union(*(into[d] for d in self.reach[kind][loc])) if self.reach[kind][loc] else set()
                )
                near.discard(here)
                self.near[kind].append(tuple(sorted(near)))

    def pair_table(self, loc: int, kind: UnitKind) -> dict[int, tuple[SupportMove, ...]]:
        """For a unit at ``loc``: supported unit's ``loc * 2 + is_fleet`` -> its supports (lazily filled)."""
        key = loc * 2 + (kind is FLEET)
        table = self.pairs.get(key)
        if table is None:
            table = self.pairs[key] = {}
        return table

    def pair_supports(
        self, loc: int, kind: UnitKind, mover: int, mover_kind: UnitKind
    ) -> tuple[SupportMove, ...]:
        """The supports a unit at ``loc`` can give to the moves (without convoy) of a unit at ``mover``."""
        targets = self.move_spaces[mover_kind][mover]
        main_loc = self.t.main_loc
        found = tuple(
            self.support_move(loc, kind, mover, mover_kind, main_loc[d])
            for d in self.reach[kind][loc]
            if d in targets
        )
        self.pair_table(loc, kind)[mover * 2 + (mover_kind is FLEET)] = found
        return found

    def support_hold(self, loc: int, kind: UnitKind, target: int, target_kind: UnitKind) -> SupportHold:
        key = ((loc * self.t.n_locs + target) * 2 + (kind is FLEET)) * 2 + (target_kind is FLEET)
        order = self.supports.get(key)
        if order is None:
            order = self.supports[key] = SupportHold(loc, target, kind, target_kind)
        assert type(order) is SupportHold
        return order

    def support_move(
        self, loc: int, kind: UnitKind, origin: int, origin_kind: UnitKind, dest: int
    ) -> SupportMove:
        n = self.t.n_locs
        key = -(((((loc * n + origin) * n + dest) * 2 + (kind is FLEET)) * 2 + (origin_kind is FLEET)) + 1)
        order = self.supports.get(key)
        if order is None:
            order = self.supports[key] = SupportMove(loc, origin, dest, kind, origin_kind)
        assert type(order) is SupportMove
        return order

    def convoy(self, loc: int, origin: int, dest: int) -> Convoy:
        n = self.t.n_locs
        key = (loc * n + origin) * n + dest
        order = self.convoys.get(key)
        if order is None:
            order = self.convoys[key] = Convoy(loc, origin, dest, FLEET)
        return order


_CACHE: weakref.WeakKeyDictionary[Board, _Static] = weakref.WeakKeyDictionary()


def _static(board: Board) -> _Static:
    st = _CACHE.get(board)
    if st is None:
        st = _CACHE[board] = _Static(board)
    return st


# ---------------------------------------------------------------------- public API
def legal_orders(board: Board, position: Position, power: str | None = None) -> dict[str, PowerOptions]:
    """The legal orders of every power that must act in ``position``'s phase (or of ``power`` only).

    Movement: every power with units; retreats: every power with a dislodged unit; adjustments:
    every power with builds or removals due. Keys are power ids, in the board's order.
    """
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        by_loc = _movement(board, _static(board), position, power)
        due: dict[str, int] = {}
    elif kind is PhaseKind.RETREATS:
        by_loc = _retreats(position, power)
        due = {}
    else:
        due = adjustment_counts(board, position)
        if power is not None:
            due = {p: n for p, n in due.items() if p == power}
        by_loc = _adjustments(board, position, due)
    out: dict[str, PowerOptions] = {}
    for p in board.powers:
        orders = by_loc.get(p.id)
        if orders is not None or p.id in due:
            out[p.id] = PowerOptions(p.id, orders or {}, due.get(p.id, 0))
    return out


def option_tree(board: Board, position: Position, power: str | None = None) -> dict[str, PowerTree]:
    """:func:`legal_orders` as plain, JSON-ready dicts keyed by power id, then location id.

    Under each location, by order kind (leaves are order texts as :func:`format_order` writes them,
    which :func:`~interboard.diplomacy.parse_order` reads back)::

        "hold": text                      "retreat": {destination: text}
        "move": {destination: text}       "disband": text
        "move_via": {destination: text}   "build": {"A" | "F": {location: text}}
        "support_hold": {unit location: text}
        "support_move": {unit location: {destination: text}}
        "convoy": {army location: {destination: text}}
        "remove": text
    """
    return {p: power_tree(board, opts) for p, opts in legal_orders(board, position, power).items()}


def power_tree(board: Board, options: PowerOptions) -> PowerTree:
    """One power's :class:`PowerOptions` as the tree :func:`option_tree` gives for it."""
    st = _static(board)
    ids, leaves = st.ids, st.leaves
    locs: dict[str, OptionTree] = {}
    for loc, orders in options.orders.items():
        node: OptionTree = {}
        for order in orders:
            leaf = leaves.get(order)
            if leaf is None:
                leaf = leaves[order] = _leaf(board, ids, order)
            key, sub, sub2, text = leaf
            if sub is None:
                node[key] = text
            elif sub2 is None:
                _put(node, key, sub, text)
            else:
                _put2(node, key, sub, sub2, text)
        locs[ids[loc]] = node
    waive = "WAIVE" if options.can_waive else None
    return {"due": options.due, "waive": waive, "orders": locs}


def _leaf(board: Board, ids: list[str], order: Order) -> _Leaf:
    text = format_order(board, order)
    match order:
        case Hold():
            return "hold", None, None, text
        case Move(_, dest, _, via):
            return "move_via" if via else "move", ids[dest], None, text
        case SupportHold(_, target):
            return "support_hold", ids[target], None, text
        case SupportMove(_, origin, dest):
            return "support_move", ids[origin], ids[dest], text
        case Convoy(_, origin, dest):
            return "convoy", ids[origin], ids[dest], text
        case Retreat(_, dest):
            return "retreat", ids[dest], None, text
        case Disband():
            return "disband", None, None, text
        case Remove():
            return "remove", None, None, text
        case Build(site, unit):
            return "build", unit.value, ids[site], text
    raise TypeError(f"no place in an option tree for {order!r}")


def _put(node: OptionTree, key: str, sub: str, text: str) -> None:
    child = node.setdefault(key, {})
    assert isinstance(child, dict)
    child[sub] = text


def _put2(node: OptionTree, key: str, sub: str, sub2: str, text: str) -> None:
    child = node.setdefault(key, {})
    assert isinstance(child, dict)
    _put(child, sub, sub2, text)


def random_orders(
    board: Board, position: Position, rng: random.Random, power: str | None = None
) -> list[tuple[str, Order]]:
    """One legal order for every unit of every power that must act (or of ``power`` only).

    Movement: an order kind (hold, move, support, convoy) is drawn uniformly among those the unit
    has, then an order of that kind, so that random play moves rather than mostly supporting.
    Retreats: uniformly among the retreats and the disband. Adjustments: each build due goes to a
    random free site (or is waived, with the same chance as any one site), with a random unit kind
    and coast; removals pick random units.
    """
    out: list[tuple[str, Order]] = []
    movement = position.phase.kind is PhaseKind.MOVEMENT
    for p, opts in legal_orders(board, position, power).items():
        if opts.due > 0:
            sites = list(opts.orders.values())
            for _ in range(opts.due):
                k = rng.randrange(len(sites) + 1)
                if k == len(sites):
                    out.append((p, Waive()))
                else:
                    out.append((p, rng.choice(sites.pop(k))))
        elif opts.due < 0:
            for loc in rng.sample(sorted(opts.orders), -opts.due):
                out.append((p, opts.orders[loc][0]))
        elif movement:
            for orders in opts.orders.values():
                groups: dict[type, list[Order]] = {}
                for order in orders:
                    groups.setdefault(type(order), []).append(order)
                out.append((p, rng.choice(rng.choice(list(groups.values())))))
        else:
            for orders in opts.orders.values():
                out.append((p, rng.choice(orders)))
    return out


# ---------------------------------------------------------------------- movement
_ByPower: TypeAlias = "dict[str, dict[int, tuple[Order, ...]]]"


def _movement(board: Board, st: _Static, position: Position, only: str | None) -> _ByPower:
    t: Tables = st.t
    units = position.units
    sea, fsa, loc_space, main_loc, coastal = t.sea, t.fleet_space_adj, t.loc_space, t.main_loc, t.coastal

    # Fleets at sea and the groups they form (each group is one possible convoy chain).
    comp_of: dict[int, int] = {}
    comp_seas: list[list[int]] = []
    for s, u in units.items():
        if u.kind is FLEET and sea[s] and s not in comp_of:
            c = len(comp_seas)
            comp_of[s] = c
            members = [s]
            todo = [s]
            while todo:
                x = todo.pop()
                for y in fsa[x]:
                    if y not in comp_of and sea[y]:
                        v = units.get(y)
                        if v is not None and v.kind is FLEET:
                            comp_of[y] = c
                            members.append(y)
                            todo.append(y)
            comp_seas.append(members)
    comp_coasts: list[list[int]] = []
    for members in comp_seas:
        shores: set[int] = set()
        for x in members:
            shores.update(y for y in fsa[x] if coastal[y])
        comp_coasts.append(sorted(shores))

    # Where each unit can move, and who can move into each space.
    moves_of: dict[int, tuple[Move, ...]] = {}
    movers: dict[int, list[Unit]] = {}
    army_comps: dict[int, set[int]] = {}
    for s, u in units.items():
        loc = u.loc
        if u.kind is FLEET:
            moves_of[s] = st.fleet_moves[loc]
            continue
        land = st.army_moves[loc]
        comps = {comp_of[x] for x in fsa[s] if x in comp_of}
        army_comps[s] = comps
        if not comps:
            moves_of[s] = land
            continue
        dests: set[int] = set()
        for c in comps:
            dests.update(comp_coasts[c])
        dests.discard(s)
        via = st.via_moves[loc]
        adjacent = st.move_spaces[ARMY][loc]
        moves_of[s] = land + tuple(via[d] for d in sorted(dests))
        for d in dests:
            if d not in adjacent:
                movers.setdefault(d, []).append(u)

    # DATC 6.D.31: a fleet may not support a convoyed move whose only route runs through itself.
    shores_without: dict[tuple[int, int], set[int]] = {}

    def convoyable_without(origin: int, dest: int, fleet_sea: int) -> bool:
        key = (origin, fleet_sea)
        found = shores_without.get(key)
        if found is None:
            found = set()
            seen = {fleet_sea}
            todo = [x for x in fsa[origin] if x in comp_of and x not in seen]
            seen.update(todo)
            while todo:
                x = todo.pop()
                for y in fsa[x]:
                    if y in comp_of:
                        if y not in seen:
                            seen.add(y)
                            todo.append(y)
                    else:
                        found.add(y)
            shores_without[key] = found
        return dest in found

    routes_from: dict[int, dict[int, set[int]]] = {}
    out: _ByPower = {}
    for here in sorted(units):
        u = units[here]
        if only is not None and u.power != only:
            continue
        loc, kind = u.loc, u.kind
        orders: list[Order] = [st.holds[kind][loc]]
        orders.extend(moves_of[here])
        reach = st.reach[kind][loc]
        for d in reach:
            v = units.get(d)
            if v is not None:
                orders.append(st.support_hold(loc, kind, v.loc, v.kind))
        at_sea = kind is FLEET and sea[here]
        pairs = st.pair_table(loc, kind)
        for s in st.near[kind][loc]:
            v = units.get(s)
            if v is not None:
                found = pairs.get(v.loc * 2 + (v.kind is FLEET))
                orders.extend(found if found is not None else st.pair_supports(loc, kind, v.loc, v.kind))
        if movers:
            # Supports of armies' convoyed moves to places they cannot walk to.
            for d in reach:
                for m in movers.get(d, ()):
                    origin = loc_space[m.loc]
                    if origin == here:
                        continue
                    if (
                        at_sea
                        and comp_of[here] in army_comps[origin]
                        and not convoyable_without(origin, d, here)
                    ):
                        continue
                    orders.append(st.support_move(loc, kind, m.loc, m.kind, main_loc[d]))
        if at_sea:
            ends = comp_coasts[comp_of[here]]
            for o in ends:
                a = units.get(o)
                if a is None or a.kind is not ARMY:
                    continue
                routes = routes_from.get(o)
                if routes is None:
                    routes = routes_from[o] = convoy_routes(fsa, coastal, comp_of, o)
                for d in ends:
                    on = routes.get(d)
                    if on is not None and here in on:
                        orders.append(st.convoy(loc, a.loc, main_loc[d]))
        out.setdefault(u.power, {})[loc] = tuple(orders)
    return out


# ---------------------------------------------------------------------- retreats and adjustments
def _retreats(position: Position, only: str | None) -> _ByPower:
    out: _ByPower = {}
    for d in position.dislodged:
        u = d.unit
        if only is not None and u.power != only:
            continue
        orders: list[Order] = [Retreat(u.loc, r, u.kind) for r in d.retreats]
        orders.append(Disband(u.loc, u.kind))
        out.setdefault(u.power, {})[u.loc] = tuple(orders)
    return out


def _adjustments(board: Board, position: Position, due: dict[str, int]) -> _ByPower:
    t = tables(board)
    out: _ByPower = {}
    for power, n in due.items():
        mine: dict[int, tuple[Order, ...]] = {}
        if n > 0:
            for s in sorted(build_sites(board, position, power)):
                space = board.spaces[s]
                main = t.main_loc[s]
                builds: list[Order] = [Build(main, ARMY)]
                if space.kind is SpaceKind.COAST:
                    builds.extend(Build(c, FLEET) for c in (space.coasts or (main,)))
                mine[main] = tuple(builds)
        else:
            for u in sorted(position.units_of(power), key=lambda u: u.loc):
                mine[u.loc] = (Remove(u.loc, u.kind),)
        out[power] = mine
    return out
