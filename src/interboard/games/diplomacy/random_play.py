"""Seeded random play for every variant, link orders included: for conformance tests and benchmarks.

:func:`random_phase_orders` gives one random legal order per unit (:func:`legal.random_orders`, on the
geography the position is played on) and, in the variants whose links are game state, a few random
link orders from :func:`random_link_orders`:

- Twin Earths III: in Winter each power gives up to its allowance (:func:`links.allowance`) of LINK,
  DESTROY and REINFORCE orders; in the opening Winter one LINK;
- Hyperspace II: with its movement orders a power may give one LINK and one DESTROY (SEPARATE).

Most link orders are legal (ends outside other powers' homelands, on different boards under Optional
3, a coast named where a sea meets a split-coast province; DESTROY and REINFORCE of existing links or,
where the rules allow, of printed adjacencies). A small share (``illegal_share``) is deliberately
illegal, so that the refusals are exercised: :func:`random_link_choices` says which are meant to be
refused. Refused orders do not count against the allowance, so they are given next to the legal ones.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable
from typing import NamedTuple

from ...board import Board, SpaceKind
from .legal import random_orders
from .links import allowance, link_pair
from .orders import DestroyLink, Link, Order, ReinforceLink
from .rules import LinkRules, Rulebook
from .state import PhaseKind, Position
from .variants import Variant

ILLEGAL_SHARE = 0.08
"""Default chance, per power giving link orders, of one deliberately illegal link order."""

_LinkOrder = Link | DestroyLink | ReinforceLink
_HYPER_LINK = 0.3
"""Hyperspace II: chance that a power orders a LINK in a movement phase; a DESTROY is as likely once
the link set is crowded."""
_CROWDED = 60
"""Links at which DESTROY orders become as likely as LINK orders: random play keeps the link set near
this size, not growing without end (a crowded geography makes every phase slower)."""


class LinkChoice(NamedTuple):
    """A random link order and whether it was chosen to be legal."""

    power: str
    order: _LinkOrder
    meant_legal: bool
    """False for a deliberately illegal order, which the rules must refuse (``Reason.ILLEGAL``)."""


class _Geo:
    """What link choices need of a printed geography (without links), built once per geography."""

    __slots__ = (
        "adjacent",
        "adjacent_list",
        "board_of",
        "coasts",
        "free_for",
        "homeland_of",
        "linkable",
        "main_loc",
        "sea",
        "split",
    )

    def __init__(self, printed: Board) -> None:
        self.main_loc: list[int] = [printed.location_by_id.get(s.id, -1) for s in printed.spaces]
        self.linkable: tuple[int, ...] = tuple(s.index for s in printed.spaces if self.main_loc[s.index] >= 0)
        self.sea: list[bool] = [s.kind is SpaceKind.SEA for s in printed.spaces]
        self.coasts: list[tuple[int, ...]] = [s.coasts for s in printed.spaces]
        self.split: tuple[int, ...] = tuple(s for s in self.linkable if self.coasts[s])
        self.board_of: list[str] = [s.board for s in printed.spaces]
        self.homeland_of: dict[int, str] = {s: p.id for p in printed.powers for s in p.homeland}
        self.free_for: dict[str, tuple[int, ...]] = {
            p.id: tuple(s for s in self.linkable if self.homeland_of.get(s, p.id) == p.id)
            for p in printed.powers
        }
        pairs: set[tuple[int, int]] = set()
        for a, adj in enumerate((*printed.army_adj, *printed.fleet_adj)):
            x = printed.locations[a % len(printed.locations)].space
            for b in adj:
                y = printed.locations[b].space
                if x != y:
                    pairs.add((min(x, y), max(x, y)))
        self.adjacent: frozenset[tuple[int, int]] = frozenset(pairs)
        """Space pairs adjacent on the printed geography, each sorted."""
        self.adjacent_list: tuple[tuple[int, int], ...] = tuple(sorted(pairs))


_GEO: weakref.WeakKeyDictionary[Board, _Geo] = weakref.WeakKeyDictionary()


def _geo(printed: Board) -> _Geo:
    geo = _GEO.get(printed)
    if geo is None:
        geo = _GEO[printed] = _Geo(printed)
    return geo


class _Chooser:
    """Random link orders for one position and one power."""

    def __init__(
        self, printed: Board, position: Position, rules: LinkRules, power: str, rng: random.Random
    ) -> None:
        self.printed = printed
        self.geo = _geo(printed)
        self.position = position
        self.rules = rules
        self.power = power
        self.rng = rng
        self.existing = set(position.links)
        self.cuts = position.cuts

    # ------------------------------------------------------------------ helpers
    def _ends(self, x: int, y: int) -> tuple[int, int]:
        """Locations for a link between spaces x and y: a coast where a sea meets a split coast."""
        geo, rng = self.geo, self.rng
        a = rng.choice(geo.coasts[x]) if geo.coasts[x] and geo.sea[y] else geo.main_loc[x]
        b = rng.choice(geo.coasts[y]) if geo.coasts[y] and geo.sea[x] else geo.main_loc[y]
        return (a, b) if rng.random() < 0.5 else (b, a)

    def _linkable_pair(self, x: int, y: int) -> bool:
        """Whether a LINK between spaces x and y is legal (for this power, in this position)."""
        geo = self.geo
        if x == y or (self.rules.cross_board_only and geo.board_of[x] == geo.board_of[y]):
            return False
        sp = (x, y) if x < y else (y, x)
        return sp not in geo.adjacent or sp in self.cuts

    def _free(self) -> tuple[int, ...]:
        return self.geo.free_for[self.power] if self.rules.homeland_restriction else self.geo.linkable

    def _spaces_of(self, pair: tuple[int, int]) -> tuple[int, int]:
        locs = self.printed.locations
        return locs[pair[0]].space, locs[pair[1]].space

    def _oriented(self, pair: tuple[int, int]) -> tuple[int, int]:
        return pair if self.rng.random() < 0.5 else (pair[1], pair[0])

    # ------------------------------------------------------------------ legal orders
    def link(self) -> Link | None:
        free, rng = self._free(), self.rng
        if self.cuts and rng.random() < 0.2:
            # Restore a cut adjacency (the ends must still be free for this power).
            x, y = rng.choice(sorted(self.cuts))
            if x in free and y in free and self._linkable_pair(x, y):
                return Link(*self._ends(x, y))
        for _ in range(30):
            x, y = rng.choice(free), rng.choice(free)
            if not self._linkable_pair(x, y):
                continue
            a, b = self._ends(x, y)
            if link_pair(self.printed, a, b) in self.existing:
                continue
            return Link(a, b)
        return None

    def destroy(self) -> DestroyLink | None:
        rng = self.rng
        if self.rules.cut_printed and (not self.existing or rng.random() < 0.25):
            geo = self.geo
            for _ in range(10):
                x, y = rng.choice(geo.adjacent_list)
                if (x, y) not in self.cuts:
                    return DestroyLink(*self._oriented((geo.main_loc[x], geo.main_loc[y])))
        if self.existing:
            return DestroyLink(*self._oriented(rng.choice(self.position.links)))
        return None

    def reinforce(self) -> ReinforceLink | None:
        if not self.rules.reinforce or not self.existing:
            return None
        return ReinforceLink(*self._oriented(self.rng.choice(self.position.links)))

    # ------------------------------------------------------------------ illegal orders
    def illegal(
        self, opening: bool, past: list[Callable[[], _LinkOrder | None]]
    ) -> tuple[_LinkOrder | None, bool]:
        """A link order the rules refuse, and whether it is refused only for being past the
        allowance (``past``: makers of orders the power has used up its allowance for)."""
        rng, rules = self.rng, self.rules
        links = self.position.links
        kinds: list[tuple[Callable[[], _LinkOrder | None], bool]] = [
            (self._same_space, False),
            (self._adjacent, False),
            (self._not_linked, False),
        ]
        if rules.homeland_restriction:
            kinds.append((self._homeland, False))
        if self.geo.split:
            kinds.append((self._no_coast, False))
        if rules.cross_board_only:
            kinds.append((self._same_board, False))
        if links:
            kinds.append((lambda: Link(*self._oriented(rng.choice(links))), False))
            if not rules.reinforce:
                kinds.append((lambda: ReinforceLink(*self._oriented(rng.choice(links))), False))
            if opening:
                kinds.append((lambda: DestroyLink(*self._oriented(rng.choice(links))), False))
        if self.cuts and rules.cut_printed:
            kinds.append((self._cut_again, False))
        for _ in range(5):
            if past and rng.random() < 0.4:
                make, is_past = rng.choice(past), True
            else:
                make, is_past = rng.choice(kinds)
            order = make()
            if order is not None:
                return order, is_past
        return None, False

    def _same_space(self) -> Link:
        x = self.rng.choice(self._free())
        locs = (self.geo.main_loc[x], *self.geo.coasts[x])
        return Link(self.rng.choice(locs), self.rng.choice(locs))

    def _adjacent(self) -> Link | None:
        """A LINK of two spaces adjacent on the printed board (not cut)."""
        free = set(self._free())
        for _ in range(10):
            x, y = self.rng.choice(self.geo.adjacent_list)
            if x in free and y in free and (x, y) not in self.cuts:
                return Link(*self._ends(x, y))
        return None

    def _not_linked(self) -> DestroyLink | ReinforceLink | None:
        """A DESTROY or REINFORCE of two spaces neither linked nor adjacent."""
        geo = self.geo
        spaces = {self._spaces_of(p) for p in self.existing}
        for _ in range(10):
            x, y = self.rng.choice(geo.linkable), self.rng.choice(geo.linkable)
            sp = (min(x, y), max(x, y))
            if x != y and sp not in geo.adjacent and sp not in spaces and (y, x) not in spaces:
                cls = DestroyLink if self.rng.random() < 0.5 or not self.rules.reinforce else ReinforceLink
                return cls(geo.main_loc[x], geo.main_loc[y])
        return None

    def _homeland(self) -> Link | None:
        """A LINK with one end in another power's homeland."""
        geo = self.geo
        theirs = [s for s, p in geo.homeland_of.items() if p != self.power]
        if not theirs:
            return None
        for _ in range(10):
            x, y = self.rng.choice(theirs), self.rng.choice(self._free())
            if x != y:
                return Link(*self._ends(x, y))
        return None

    def _no_coast(self) -> Link | None:
        """A LINK from a sea to a split-coast province that names no coast."""
        geo = self.geo
        x = self.rng.choice(geo.split)
        seas = [s for s in self._free() if geo.sea[s]]
        if not seas:
            return None
        return Link(*self._oriented((geo.main_loc[x], geo.main_loc[self.rng.choice(seas)])))

    def _same_board(self) -> Link | None:
        """A LINK between two spaces of one board (Optional 3 refuses it)."""
        geo, free = self.geo, self._free()
        for _ in range(10):
            x, y = self.rng.choice(free), self.rng.choice(free)
            sp = (min(x, y), max(x, y))
            if x != y and geo.board_of[x] == geo.board_of[y] and sp not in geo.adjacent:
                return Link(*self._ends(x, y))
        return None

    def _cut_again(self) -> DestroyLink:
        x, y = self.rng.choice(sorted(self.cuts))
        return DestroyLink(self.geo.main_loc[x], self.geo.main_loc[y])


def random_link_choices(
    board: Board,
    position: Position,
    rulebook: Rulebook,
    rng: random.Random,
    illegal_share: float = ILLEGAL_SHARE,
) -> list[LinkChoice]:
    """Random link orders for ``position``'s phase, each marked legal or deliberately illegal.

    ``board`` is the geography the position is played on (``Variant.board_for``); the link orders
    name locations of it (the same as its printed geography's).
    """
    rules = rulebook.links
    if rules is None:
        return []
    printed = board.base
    kind = position.phase.kind
    alive = [p.id for p in printed.powers if p.id not in position.eliminated]
    if rules.phase is not kind:
        # Now and then a link order in a phase that takes none.
        if alive and rng.random() < illegal_share / 2:
            power = rng.choice(alive)
            order = _Chooser(printed, position, rules, power, rng).link()
            return [LinkChoice(power, order, False)] if order is not None else []
        return []
    opening = kind is PhaseKind.ADJUSTMENTS and position.phase.year == printed.start.year
    out: list[LinkChoice] = []
    for power in alive:
        chooser = _Chooser(printed, position, rules, power, rng)
        legal: list[_LinkOrder] = []

        def add(order: _LinkOrder | None, legal: list[_LinkOrder] = legal) -> bool:
            if order is None or order in legal:
                return False
            legal.append(order)
            return True

        past: list[Callable[[], _LinkOrder | None]] = []
        if rules.per_kind and not opening:
            # Hyperspace: maybe one LINK, maybe one DESTROY (SEPARATE); a second of a kind is refused.
            if rng.random() < _HYPER_LINK and add(chooser.link()):
                past.append(chooser.link)
            if rng.random() < _destroy_share(position) * _HYPER_LINK * 2 and add(chooser.destroy()):
                past.append(chooser.destroy)
        else:
            allowed = allowance(rules, position, power, opening)
            n = rng.randint(0, allowed) if rng.random() < 0.3 else allowed
            for _ in range(n):
                add(_one(chooser, opening))
            if len(legal) == allowed:
                past.append(chooser.link)
        mine = [LinkChoice(power, o, True) for o in legal]
        if rng.random() < illegal_share:
            bad, is_past = chooser.illegal(opening, past)
            if bad is not None and bad not in legal:
                at = len(mine) if is_past else rng.randrange(len(mine) + 1)
                mine.insert(at, LinkChoice(power, bad, False))
        out.extend(mine)
    return out


def _one(chooser: _Chooser, opening: bool) -> _LinkOrder | None:
    """One legal order of a power with an allowance shared by all kinds (Twin Earths III)."""
    if opening:
        return chooser.link()
    roll = chooser.rng.random()
    destroy = _destroy_share(chooser.position)
    if roll < destroy:
        order: _LinkOrder | None = chooser.destroy()
    elif roll < destroy + 0.15:
        order = chooser.reinforce()
    else:
        order = None
    return order or chooser.link()


def _destroy_share(position: Position) -> float:
    """Share of DESTROY orders among a power's link orders: grows with the number of links."""
    return 0.1 + 0.4 * min(1.0, len(position.links) / _CROWDED)


def random_link_orders(
    board: Board, position: Position, rulebook: Rulebook, rng: random.Random
) -> list[tuple[str, Order]]:
    """Random link orders for every power that may give them in ``position``'s phase (see the module
    docstring); mostly legal, a few deliberately illegal."""
    return [(c.power, c.order) for c in random_link_choices(board, position, rulebook, rng)]


def random_phase_orders(
    variant: Variant, position: Position, rng: random.Random, rulebook: Rulebook | None = None
) -> list[tuple[str, Order]]:
    """Random orders for a whole phase: one legal order per unit, build or retreat
    (:func:`legal.random_orders` on ``variant.board_for(position)``) and random link orders
    (:func:`random_link_orders`), grouped by power in the board's order: each power's unit orders,
    then its link orders. ``rulebook`` defaults to the variant's."""
    return random_phase_choices(variant, position, rng, rulebook)[0]


def random_phase_choices(
    variant: Variant, position: Position, rng: random.Random, rulebook: Rulebook | None = None
) -> tuple[list[tuple[str, Order]], list[LinkChoice]]:
    """:func:`random_phase_orders`, and its link orders marked legal or deliberately illegal."""
    board = variant.board_for(position)
    units = random_orders(board, position, rng)
    choices = random_link_choices(board, position, rulebook or variant.rulebook, rng)
    if not choices:
        return units, choices
    by_power: dict[str, list[tuple[str, Order]]] = {p.id: [] for p in board.powers}
    for power, order in units:
        by_power[power].append((power, order))
    for c in choices:
        by_power[c.power].append((c.power, c.order))
    return [po for orders in by_power.values() for po in orders], choices
