"""Movement-phase adjudication: Kruijswijk's decision algorithm (DATC chapter 5).

Every ordered unit gets one decision: a move succeeds, a support is given, a convoying fleet keeps
its convoy. ``_adjudicate`` evaluates a decision from the strengths of DATC 5.B; ``_resolve`` is the
generic part: it caches final answers, detects cyclic dependencies by guessing (5.F, with the
"ancestor of the whole cycle" refinement), and applies the backup rule when a cycle has zero or two
consistent answers: circular movement succeeds; a cycle with a convoying fleet is a convoy paradox
and the Szykman rule makes those convoys fail.

The hot path works on integer unit indices and the board's precomputed tables.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ...board import Board, UnitKind
from .convoys import convoy_routes
from .orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from .results import OrderResult, Reason
from .rules import Rulebook
from .state import Unit
from .tables import Tables, tables

HOLD, MOVE, SUP_HOLD, SUP_MOVE, CONVOY = range(5)
_MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)
UNRESOLVED, GUESSING, RESOLVED = range(3)


@dataclass(frozen=True, slots=True)
class MovementResolution:
    """What a movement phase did: a result per order, where every unit ended, who was dislodged."""

    results: tuple[OrderResult, ...]
    units: dict[int, Unit]
    """Units that were not dislodged, keyed by the space they now stand in."""
    dislodged: tuple[tuple[Unit, int], ...]
    """(unit, space its attacker came from), for each dislodged unit."""
    attacker_by_convoy: frozenset[int]
    """Spaces of dislodged units whose attacker came by convoy (they may retreat where it came from)."""
    contested: frozenset[int]
    """Empty spaces where a standoff happened: no retreat may go there."""


@lru_cache(maxsize=4096)
def _default_hold(loc: int, kind: UnitKind) -> Hold:
    """The hold order reported for a unit without orders (cached: every phase has many)."""
    return Hold(loc, kind)


class _Illegal(Exception):
    def __init__(self, message: str) -> None:
        self.message = message


def adjudicate_movement(
    board: Board,
    units: dict[int, Unit],
    orders: Iterable[tuple[str, Order]],
    rulebook: Rulebook = Rulebook(),
) -> MovementResolution:
    """Adjudicate one movement phase. Units without an order hold; illegal orders hold."""
    return _Movement(board, tables(board), units, rulebook).run(orders)


class _Movement:
    def __init__(self, board: Board, t: Tables, units: dict[int, Unit], rulebook: Rulebook) -> None:
        self.board = board
        self.t = t
        self.rulebook = rulebook
        self.unit_list = [units[s] for s in sorted(units)]
        n = len(self.unit_list)
        self.n = n
        self.sp = [t.loc_space[u.loc] for u in self.unit_list]
        self.power = [u.power for u in self.unit_list]
        self.at = [-1] * t.n_spaces
        for i, s in enumerate(self.sp):
            self.at[s] = i
        self.order: list[Order | None] = [None] * n
        self.owner_of_order: list[str] = list(self.power)
        self.kind = [HOLD] * n
        self.dst = [-1] * n
        self.dst_loc = [-1] * n
        self.tgt = [-1] * n
        self.convoyed = [False] * n
        self.h2h = [-1] * n
        self.supports: list[list[int]] = [[] for _ in range(n)]
        self.fleets: list[list[int]] = [[] for _ in range(n)]
        self.attackers: dict[int, list[int]] = {}
        self.illegal: list[str | None] = [None] * n
        self.void = [False] * n
        self.no_path = [False] * n
        self.extra: list[OrderResult] = []
        # decision administration
        self.state = [UNRESOLVED] * n
        self.value = [False] * n
        self.cycle: list[int] = []
        self.in_cycle = [False] * n
        self.guess_based = False
        self.recursion_hits = 0
        self.paradox: set[int] = set()
        self._fleet_seas: list[int] | None = None
        self._routes: dict[int, dict[int, set[int]]] = {}
        self.moves: list[int] = []
        self.any_via = False

    # ------------------------------------------------------------------ set-up
    def run(self, orders: Iterable[tuple[str, Order]]) -> MovementResolution:
        at = self.at
        loc_space = self.t.loc_space
        for power, order in orders:
            if not isinstance(order, _MOVEMENT_ORDERS):
                self.extra.append(self._refused(power, order, "not an order for a movement phase"))
                continue
            i = at[loc_space[order.loc]]
            if i < 0:
                place = self.board.spaces[loc_space[order.loc]].name
                self.extra.append(self._refused(power, order, f"there is no unit in {place}"))
            elif self.power[i] != power:
                place = self.board.spaces[loc_space[order.loc]].name
                self.extra.append(
                    self._refused(power, order, f"the unit in {place} belongs to {self.power[i]}")
                )
            elif self.order[i] is not None:
                self.extra.append(self._refused(power, order, "the unit already has an order"))
            else:
                self.order[i] = order
        for i in range(self.n):
            given = self.order[i]
            if given is None or type(given) is Hold:
                if given is not None and given.unit not in (None, self.unit_list[i].kind):
                    self._mark_illegal(i, self._wrong_kind(i))
                continue
            try:
                self._check(i, given)
            except _Illegal as exc:
                self._mark_illegal(i, exc.message)
        self._match()
        for i in self.moves:
            if self.convoyed[i] and not self._route_exists(self.sp[i], self.dst[i], self.fleets[i]):
                self.no_path[i] = True
                self.state[i] = RESOLVED  # no ordered chain of fleets: the move fails at once
        resolve = self._resolve
        state = self.state
        for i, k in enumerate(self.kind):
            if k != HOLD and state[i] != RESOLVED:
                resolve(i)
        return self._outcome()

    def _refused(self, power: str, order: Order, message: str) -> OrderResult:
        return OrderResult(power, order, False, Reason.ILLEGAL, message=message)

    def _mark_illegal(self, i: int, message: str) -> None:
        self.illegal[i] = message
        self.kind[i] = HOLD
        self.dst[i] = -1

    def _wrong_kind(self, i: int) -> str:
        u = self.unit_list[i]
        return f"the unit in {self.board.spaces[self.sp[i]].name} is {u.kind.with_article}"

    def _name(self, space: int) -> str:
        return self.board.place_name(space)

    def _check(self, i: int, order: Order) -> None:
        """Static legality of one order; fills the per-unit arrays or raises _Illegal."""
        t = self.t
        unit = self.unit_list[i]
        if order.unit is not None and order.unit is not unit.kind:  # type: ignore[union-attr]
            raise _Illegal(self._wrong_kind(i))
        here = self.sp[i]
        reach = t.army_spaces[unit.loc] if unit.kind is UnitKind.ARMY else t.fleet_spaces[unit.loc]
        if type(order) is Move:
            dest_space = t.loc_space[order.dest]
            if dest_space == here:
                raise _Illegal("a unit cannot move to the province it is in")
            if unit.kind is UnitKind.FLEET:
                if order.via_convoy:
                    raise _Illegal("only armies are convoyed")
                self.dst_loc[i] = self._fleet_destination(unit.loc, order.dest)
            else:
                if order.via_convoy:
                    self.any_via = True
                if t.sea[dest_space]:
                    raise _Illegal(f"an army cannot move to the sea ({self._name(dest_space)})")
                self.dst_loc[i] = t.main_loc[dest_space]
                if dest_space not in reach:
                    if dest_space not in t.convoy_reach[here]:
                        raise _Illegal(f"{self._name(dest_space)} cannot be reached from {self._name(here)}")
                    if not self._chain(here, dest_space, self._seas_with_fleets(-1)):
                        # DATC 6.D.32: no fleets stand where a convoy could go (issue 4.E.1).
                        raise _Illegal(f"no fleets could convoy to {self._name(dest_space)}")
                    self.convoyed[i] = True
            self.kind[i] = MOVE
            self.dst[i] = dest_space
            self.attackers.setdefault(dest_space, []).append(i)
        elif isinstance(order, SupportHold):
            target = t.loc_space[order.target]
            if target == here:
                raise _Illegal("a unit cannot support itself")
            if target not in reach:
                raise _Illegal(f"{self._name(target)} cannot be reached from {self._name(here)}")
            self.kind[i] = SUP_HOLD
            self.dst[i] = target
            self.tgt[i] = self.at[target]
        elif isinstance(order, SupportMove):
            target = t.loc_space[order.dest]
            origin = t.loc_space[order.origin]
            if target == here:
                raise _Illegal("a unit cannot support a move into its own province")
            if origin == target:
                raise _Illegal("the supported move goes nowhere")
            if origin == here:
                raise _Illegal("a unit cannot support itself")
            if target not in reach:
                raise _Illegal(f"{self._name(target)} cannot be reached from {self._name(here)}")
            supported = self.at[origin]
            if (
                supported >= 0
                and self.unit_list[supported].kind is UnitKind.ARMY
                and target not in t.army_spaces[self.unit_list[supported].loc]
                and not self._chain(origin, target, self._seas_with_fleets(i))
            ):
                # DATC 6.D.31: the only convoy route would need the supporting fleet itself.
                raise _Illegal(f"no convoy route to {self._name(target)} without the supporting fleet")
            self.kind[i] = SUP_MOVE
            self.dst[i] = target
            self.tgt[i] = self.at[origin]
        elif isinstance(order, Convoy):
            if unit.kind is not UnitKind.FLEET or not t.sea[here]:
                raise _Illegal("only a fleet at sea can convoy")
            origin = t.loc_space[order.origin]
            dest = t.loc_space[order.dest]
            if origin == dest or dest not in t.convoy_reach[origin]:
                raise _Illegal(f"no army can be convoyed from {self._name(origin)} to {self._name(dest)}")
            if not self._on_minimal_route(here, origin, dest):
                # DATC 6.G.7 and 6.G.19: a fleet that no convoy route needs is not convoying.
                route = f"{self._name(origin)} to {self._name(dest)}"
                raise _Illegal(f"this fleet is on no convoy route from {route}")
            self.kind[i] = CONVOY
            self.dst[i] = dest
            self.tgt[i] = self.at[origin]

    def _seas_with_fleets(self, exclude: int) -> list[int]:
        """Spaces of the fleets at sea (but the one excluded): where convoys could be."""
        if self._fleet_seas is None:
            sea = self.t.sea
            self._fleet_seas = [
                f for f, u in enumerate(self.unit_list) if u.kind is UnitKind.FLEET and sea[self.sp[f]]
            ]
        return [self.sp[f] for f in self._fleet_seas if f != exclude]

    def _fleet_destination(self, loc: int, dest: int) -> int:
        t = self.t
        adj = self.board.fleet_adj[loc]
        dest_space = t.loc_space[dest]
        coasts = self.board.spaces[dest_space].coasts
        if coasts and self.board.locations[dest].coast is None:
            options = [c for c in coasts if c in adj]
            if len(options) == 1:
                return options[0]
            if options:
                raise _Illegal(f"say which coast of {self._name(dest_space)} the fleet moves to")
            raise _Illegal(f"a fleet cannot move to {self._name(dest_space)} from here")
        if dest not in adj:
            if self.board.spaces[dest_space].kind.value == "land":
                raise _Illegal(f"a fleet cannot move inland ({self._name(dest_space)})")
            raise _Illegal(f"a fleet cannot move to {self.board.locations[dest].id} from here")
        return dest

    def _match(self) -> None:
        """Match supports and convoys to what their units do; decide which moves go by convoy."""
        kind, tgt, dst, sp = self.kind, self.tgt, self.dst, self.sp
        moves, supports, convoys = [], [], []
        for i, k in enumerate(kind):
            if k == MOVE:
                moves.append(i)
            elif k == CONVOY:
                convoys.append(i)
            elif k != HOLD:
                supports.append(i)
        self.moves = moves
        if convoys or self.any_via:
            self._match_convoys(moves, convoys)
        for i in supports:
            s = tgt[i]
            if kind[i] == SUP_HOLD:
                ok = s >= 0 and kind[s] != MOVE
            else:
                ok = s >= 0 and kind[s] == MOVE and dst[s] == dst[i] and self._same_coast(i, s)
            if ok:
                self.supports[s].append(i)
            else:
                self.void[i] = True
                self.state[i] = RESOLVED  # a void support is never given
        at, convoyed, h2h = self.at, self.convoyed, self.h2h
        for i in moves:
            if not convoyed[i]:
                j = at[dst[i]]
                if j >= 0 and kind[j] == MOVE and dst[j] == sp[i] and not convoyed[j]:
                    h2h[i] = j

    def _match_convoys(self, moves: list[int], convoys: list[int]) -> None:
        kind, tgt, dst, sp, power = self.kind, self.tgt, self.dst, self.sp, self.power
        # Convoy orders whose army really moves there (by convoy, decided just below).
        offered: dict[tuple[int, int], list[int]] = {}
        for c in convoys:
            if tgt[c] >= 0:
                offered.setdefault((sp[tgt[c]], dst[c]), []).append(c)
        for i in moves:
            fleets = [c for c in offered.get((sp[i], dst[i]), ()) if tgt[c] == i]
            if not self.convoyed[i]:
                order = self.order[i]
                assert isinstance(order, Move)
                # Adjacent: by convoy only when asked ('via convoy') or when one's own fleet convoys.
                intent = order.via_convoy or any(power[c] == power[i] for c in fleets)
                if not intent:
                    continue
                if self.rulebook.land_route_fallback and not self._route_exists(sp[i], dst[i], fleets):
                    continue
                self.convoyed[i] = True
            self.fleets[i] = fleets
        for c in convoys:
            a = tgt[c]
            carried = a >= 0 and kind[a] == MOVE and self.convoyed[a] and dst[a] == dst[c]
            if not carried or c not in self.fleets[a]:
                self.void[c] = True
                self.state[c] = RESOLVED  # a void convoy carries nothing

    def _same_coast(self, supporter: int, mover: int) -> bool:
        """A support that names a coast supports only the move to that coast (DATC 6.B.9)."""
        order = self.order[supporter]
        assert isinstance(order, SupportMove)
        named = order.dest
        return self.board.locations[named].coast is None or named == self.dst_loc[mover]

    def _route_exists(self, origin: int, dest: int, fleets: list[int]) -> bool:
        """Whether the fleets (all of them, dislodged or not) chain from origin to dest."""
        return self._chain(origin, dest, [self.sp[f] for f in fleets])

    def _on_minimal_route(self, fleet_space: int, origin: int, dest: int) -> bool:
        """Whether the fleet is necessary for some convoy route of the fleets at sea (DATC 6.G.19)."""
        routes = self._routes.get(origin)
        if routes is None:
            seas = set(self._seas_with_fleets(-1))
            routes = convoy_routes(self.t.fleet_space_adj, self.t.coastal, seas, origin)
            self._routes[origin] = routes
        return fleet_space in routes.get(dest, ())

    def _chain(self, origin: int, dest: int, seas: list[int]) -> bool:
        if not seas:
            return False
        adj = self.t.fleet_space_adj
        todo = [s for s in seas if s in adj[origin]]
        left = set(seas).difference(todo)
        while todo:
            s = todo.pop()
            if dest in adj[s]:
                return True
            near = [x for x in left if x in adj[s]]
            left.difference_update(near)
            todo.extend(near)
        return False

    # ------------------------------------------------------------------ decisions
    def _resolve(self, d: int) -> bool:
        state = self.state
        if state[d] == RESOLVED:
            return self.value[d]
        if self.in_cycle[d]:
            self.guess_based = True
            return self.value[d]
        if state[d] == GUESSING:
            self.cycle.append(d)
            self.in_cycle[d] = True
            self.guess_based = True
            self.recursion_hits += 1
            return self.value[d]
        state[d] = GUESSING
        old_cycle_len = len(self.cycle)
        old_guess_based = self.guess_based
        old_hits = self.recursion_hits
        self.guess_based = False
        self.value[d] = False
        first = self._adjudicate(d)
        if not self.guess_based:
            self.guess_based = old_guess_based
            self.value[d] = first
            state[d] = RESOLVED
            return first
        if self.in_cycle[d]:
            self.recursion_hits -= 1
        if self.recursion_hits == old_hits:
            # This decision is the ancestor of the whole cycle: try the other guess.
            self._clear_cycle(old_cycle_len)
            state[d] = GUESSING
            self.value[d] = True
            second = self._adjudicate(d)
            if first == second:
                self._clear_cycle(old_cycle_len)
                self.guess_based = old_guess_based
                self.value[d] = first
                state[d] = RESOLVED
                return first
            members = self.cycle[old_cycle_len:]
            self._clear_cycle(old_cycle_len)
            self.guess_based = old_guess_based
            state[d] = UNRESOLVED
            self._backup_rule([*members, d] if d not in members else members)
            return self._resolve(d)
        if not self.in_cycle[d]:
            self.cycle.append(d)
            self.in_cycle[d] = True
        self.value[d] = first
        state[d] = UNRESOLVED
        return first

    def _clear_cycle(self, length: int) -> None:
        for d in self.cycle[length:]:
            self.in_cycle[d] = False
            if self.state[d] != RESOLVED:
                self.state[d] = UNRESOLVED
        del self.cycle[length:]

    def _backup_rule(self, members: list[int]) -> None:
        convoys = [d for d in members if self.kind[d] == CONVOY]
        if convoys:
            # Convoy paradox, Szykman rule: the convoys in the paradox fail.
            for d in convoys:
                self.state[d] = RESOLVED
                self.value[d] = False
                self.paradox.add(d)
        else:
            # Circular movement: every move in the cycle succeeds.
            for d in members:
                if self.kind[d] == MOVE:
                    self.state[d] = RESOLVED
                    self.value[d] = True
        for d in members:
            if self.state[d] != RESOLVED:
                self.state[d] = UNRESOLVED

    def _adjudicate(self, d: int) -> bool:
        k = self.kind[d]
        if k == MOVE:
            return self._move(d)
        if k == CONVOY:
            return not self._dislodged(d)
        return self._support(d)

    # ---- strengths (DATC 5.B)
    def _path(self, i: int) -> bool:
        if not self.convoyed[i]:
            return True
        if self.no_path[i]:
            return False
        resolve = self._resolve
        seas = [self.sp[f] for f in self.fleets[i] if resolve(f)]
        return self._chain(self.sp[i], self.dst[i], seas)

    def _support_count(self, i: int, exclude_power: str | None = None) -> int:
        n = 0
        resolve = self._resolve
        power = self.power
        for s in self.supports[i]:
            if (exclude_power is None or power[s] != exclude_power) and resolve(s):
                n += 1
        return n

    def _attack(self, i: int) -> int:
        if self.convoyed[i] and not self._path(i):
            return 0
        j = self.at[self.dst[i]]
        if j < 0 or (self.kind[j] == MOVE and self.h2h[i] != j and self._resolve(j)):
            return 1 + self._support_count(i)
        if self.power[j] == self.power[i]:
            return 0
        return 1 + self._support_count(i, self.power[j])

    def _hold(self, space: int) -> int:
        j = self.at[space]
        if j < 0:
            return 0
        if self.kind[j] == MOVE:
            return 0 if self._resolve(j) else 1
        return 1 + self._support_count(j)

    def _prevent(self, i: int) -> int:
        if self.convoyed[i] and not self._path(i):
            return 0
        j = self.h2h[i]
        if j >= 0 and self._resolve(j):
            return 0
        return 1 + self._support_count(i)

    def _move(self, i: int) -> bool:
        attack = self._attack(i)
        if attack == 0:
            return False
        j = self.h2h[i]
        if j >= 0:
            if attack <= 1 + self._support_count(j):
                return False
        elif attack <= self._hold(self.dst[i]):
            return False
        for k in self.attackers[self.dst[i]]:
            if k != i and attack <= self._prevent(k):
                return False
        return True

    def _support(self, i: int) -> bool:
        here = self.sp[i]
        power = self.power
        for m in self.attackers.get(here, ()):
            if power[m] == power[i]:
                continue
            if self.convoyed[m] and not self._path(m):
                continue
            if self.sp[m] == self.dst[i]:
                # An attack from where the support goes cuts it only by dislodging.
                if self._resolve(m):
                    return False
                continue
            return False
        return True

    def _dislodged(self, i: int) -> bool:
        resolve = self._resolve
        return any(resolve(m) for m in self.attackers.get(self.sp[i], ()))

    # ------------------------------------------------------------------ outcome
    def _outcome(self) -> MovementResolution:
        n = self.n
        value, kind, sp, dst = self.value, self.kind, self.sp, self.dst
        moved = [kind[i] == MOVE and value[i] for i in range(n)]
        dislodger: dict[int, int] = {}
        for i in range(n):
            if moved[i]:
                dislodger[dst[i]] = i
        results: list[OrderResult] = []
        new_units: dict[int, Unit] = {}
        dislodged: list[tuple[Unit, int]] = []
        by_convoy: set[int] = set()
        for i in range(n):
            unit = self.unit_list[i]
            attacker = dislodger.get(sp[i]) if not moved[i] else None
            if attacker is not None:
                dislodged.append((unit, sp[attacker]))
                if self.convoyed[attacker]:
                    by_convoy.add(sp[i])
            elif moved[i]:
                new_units[dst[i]] = Unit(unit.power, unit.kind, self.dst_loc[i])
            else:
                new_units[sp[i]] = unit
            order = self.order[i]
            if order is None:
                order = _default_hold(unit.loc, unit.kind)
                if attacker is None:
                    results.append(OrderResult(unit.power, order, True, Reason.NOT_ORDERED))
                else:
                    results.append(OrderResult(unit.power, order, False, Reason.DISLODGED, (), sp[attacker]))
                continue
            results.append(self._result(i, order, attacker))
        contested = set()
        for space, movers in self.attackers.items():
            if space in new_units or space in dislodger:
                continue
            if any(not value[m] and self._prevent(m) > 0 for m in movers):
                contested.add(space)
        return MovementResolution(
            results=tuple(results) + tuple(self.extra),
            units=new_units,
            dislodged=tuple(dislodged),
            attacker_by_convoy=frozenset(by_convoy),
            contested=frozenset(contested),
        )

    def _result(self, i: int, order: Order, attacker: int | None) -> OrderResult:
        power = self.owner_of_order[i]
        dislodged_by = self.sp[attacker] if attacker is not None else None
        if self.illegal[i] is not None:
            return OrderResult(power, order, False, Reason.ILLEGAL, (), dislodged_by, self.illegal[i] or "")
        k = self.kind[i]
        if k == HOLD:
            if attacker is None:
                return OrderResult(power, order, True)
            return OrderResult(power, order, False, Reason.DISLODGED, (), dislodged_by)
        if k == MOVE:
            if self.value[i]:
                return OrderResult(power, order, True)
            if self.convoyed[i] and not self._path(i):
                return OrderResult(power, order, False, Reason.NO_CONVOY, (), dislodged_by)
            return OrderResult(power, order, False, Reason.BOUNCED, self._bounced_by(i), dislodged_by)
        if k == CONVOY:
            if self.void[i]:
                return OrderResult(power, order, False, Reason.VOID, (), dislodged_by)
            if attacker is not None:
                return OrderResult(power, order, False, Reason.DISLODGED, (), dislodged_by)
            if i in self.paradox:
                return OrderResult(
                    power, order, False, Reason.NO_CONVOY, (), None, "convoy paradox (Szykman rule)"
                )
            return OrderResult(power, order, True)
        # supports
        if self.void[i]:
            return OrderResult(power, order, False, Reason.VOID, (), dislodged_by)
        if self.value[i]:
            return OrderResult(power, order, True, None, (), dislodged_by)
        cutters = tuple(
            self.sp[m]
            for m in self.attackers.get(self.sp[i], ())
            if self.power[m] != self.power[i]
            and self._path(m)
            and (self.sp[m] != self.dst[i] or self.value[m])
        )
        return OrderResult(power, order, False, Reason.CUT, cutters, dislodged_by)

    def _bounced_by(self, i: int) -> tuple[int, ...]:
        d = self.dst[i]
        others = [self.sp[k] for k in self.attackers[d] if k != i and self._prevent(k) > 0]
        j = self.at[d]
        if j >= 0 and not (self.kind[j] == MOVE and self.value[j]):
            others.insert(0, d)
        return tuple(others)
