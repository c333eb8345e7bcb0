"""Link orders: players make, destroy and reinforce links (Twin Earths III, Hyperspace II).

:func:`resolve_links` checks every LINK / DESTROY / REINFORCE order against the rules (allowance by
centres, homeland restriction, the optional rules), refuses the illegal ones with a reason (they do
not count against the allowance), and resolves the rest all at once: several LINK orders for one
pair make one link; a link with more DESTROY than REINFORCE orders is destroyed; with Optional 2 a
DESTROY may cut an adjacency of the printed board, until the two spaces are linked again; with
Optional 1 the oldest links are dropped past the limit, a reinforced link counting as newest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ...board import Board, SpaceKind
from ...board.geography import link_carries
from .orders import DestroyLink, Link, LinkOrder, Order, ReinforceLink, format_order
from .results import OrderResult, Reason
from .rules import LinkRules
from .state import PhaseKind, Position

LINK_ORDERS = (Link, DestroyLink, ReinforceLink)


@dataclass(frozen=True, slots=True)
class LinkOutcome:
    results: tuple[OrderResult, ...]
    links: tuple[tuple[int, int], ...]
    cuts: frozenset[tuple[int, int]]
    makers: tuple[str, ...] = ()
    """The power that made each link, in the order of ``links``."""


def allowance(rules: LinkRules, position: Position, power: str, opening: bool) -> int:
    """How many link orders ``power`` may give now."""
    if opening:
        return rules.opening_links
    centres = sum(1 for owner in position.centres.values() if owner == power)
    for at_least, orders in rules.allowance:
        if centres >= at_least:
            return orders
    return 0


def link_pair(board: Board, a: int, b: int) -> tuple[int, int]:
    """The stored form of a link between locations: land ends on the province, a coast kept only
    where a fleet arrives from the sea; sorted."""
    sa = board.spaces[board.locations[a].space]
    sb = board.spaces[board.locations[b].space]
    if sa.kind is not SpaceKind.SEA and sb.kind is not SpaceKind.SEA:
        a, b = board.location_by_id[sa.id], board.location_by_id[sb.id]
    return (a, b) if a <= b else (b, a)


def _space_pair(board: Board, a: int, b: int) -> tuple[int, int]:
    x, y = board.locations[a].space, board.locations[b].space
    return (x, y) if x <= y else (y, x)


def resolve_links(
    printed: Board,
    position: Position,
    orders: Iterable[tuple[str, Order]],
    rules: LinkRules,
    opening: bool = False,
) -> LinkOutcome:
    """Check and resolve the link orders of one phase against ``printed`` (the geography without
    links) and the position's link set."""
    homeland_of: dict[int, str] = {}
    for p in printed.powers:
        for s in p.homeland:
            homeland_of[s] = p.id
    links = list(position.links)
    existing = set(links)
    maker = {pair: position.link_maker(k) for k, pair in enumerate(links)}
    cuts = set(position.cuts)
    used: Counter[tuple[str, type]] = Counter()
    results: list[OrderResult] = []
    new_links: list[tuple[int, int]] = []
    restored: set[tuple[int, int]] = set()
    destroy: Counter[tuple[int, int]] = Counter()
    reinforce: Counter[tuple[int, int]] = Counter()
    cut_votes: Counter[tuple[int, int]] = Counter()
    accepted: list[tuple[str, Order, tuple[int, int]]] = []

    def name(loc: int) -> str:
        return printed.place_name(printed.locations[loc].space)

    for power, order in orders:
        assert isinstance(order, Link | DestroyLink | ReinforceLink)
        problem = _problem(printed, position, power, order, rules, opening, homeland_of, existing, cuts)
        if not problem:
            key = (power, type(order) if rules.per_kind else Link)
            limit = 1 if rules.per_kind and not opening else allowance(rules, position, power, opening)
            if used[key] >= limit:
                if limit == 0:
                    problem = f"{power} may give no link orders now"
                else:
                    problem = f"{power} may give only {limit} link order{'s' if limit > 1 else ''} now"
        if problem:
            results.append(OrderResult(power, order, False, Reason.ILLEGAL, message=problem))
            continue
        used[key] += 1
        pair = link_pair(printed, order.a, order.b)
        if not isinstance(order, Link) and pair not in existing:
            # A DESTROY or REINFORCE may name a province where the link names its coast.
            space_pair = _space_pair(printed, order.a, order.b)
            pair = next((p for p in existing if _space_pair(printed, *p) == space_pair), pair)
        accepted.append((power, order, pair))
        if isinstance(order, Link):
            space_pair = _space_pair(printed, order.a, order.b)
            if space_pair in cuts:
                restored.add(space_pair)
            elif pair not in new_links:
                new_links.append(pair)
                maker[pair] = power
        elif isinstance(order, DestroyLink):
            if pair in existing:
                destroy[pair] += 1
            else:
                cut_votes[_space_pair(printed, order.a, order.b)] += 1
        else:
            reinforce[pair] += 1

    destroyed = {p for p, n in destroy.items() if n > reinforce[p]}
    kept = [p for p in links if p not in destroyed]
    if rules.limit is not None:
        # Optional 1: a reinforced link is written again at the bottom of the list.
        kept = [p for p in kept if not reinforce[p]] + [p for p in kept if reinforce[p]]
    kept += new_links
    if rules.limit is not None and len(kept) > rules.limit:
        kept = kept[len(kept) - rules.limit :]
    cuts = (cuts - restored) | set(cut_votes)
    for power, order, pair in accepted:
        if isinstance(order, DestroyLink) and pair in existing and pair not in destroyed:
            who = f"reinforced {reinforce[pair]} time{'s' if reinforce[pair] > 1 else ''}"
            results.append(
                OrderResult(
                    power,
                    order,
                    False,
                    Reason.BOUNCED,
                    message=f"the link between {name(pair[0])} and {name(pair[1])} was {who}",
                )
            )
        else:
            results.append(OrderResult(power, order, True))
    makers = tuple(maker.get(pair, "") for pair in kept)
    return LinkOutcome(tuple(results), tuple(kept), frozenset(cuts), makers if any(makers) else ())


def _problem(
    printed: Board,
    position: Position,
    power: str,
    order: Link | DestroyLink | ReinforceLink,
    rules: LinkRules,
    opening: bool,
    homeland_of: dict[int, str],
    existing: set[tuple[int, int]],
    cuts: set[tuple[int, int]],
) -> str:
    """Why the order is refused, or ''."""
    la, lb = printed.locations[order.a], printed.locations[order.b]
    sa, sb = printed.spaces[la.space], printed.spaces[lb.space]
    na, nb = printed.place_name(sa.index), printed.place_name(sb.index)
    if sa.index == sb.index:
        return "a link joins two different spaces"
    if opening and not isinstance(order, Link):
        return "only LINK orders may be given in the opening Winter"
    if not rules.reinforce and isinstance(order, ReinforceLink):
        return "there are no REINFORCE orders in this variant"
    pair = link_pair(printed, order.a, order.b)
    space_pair = _space_pair(printed, order.a, order.b)
    if isinstance(order, Link):
        if rules.cross_board_only and sa.board == sb.board:
            return f"links must join spaces on different boards ({na} and {nb} are both on board {sa.board})"
        if rules.homeland_restriction:
            for s, n in ((sa, na), (sb, nb)):
                owner = homeland_of.get(s.index)
                if owner is not None and owner != power:
                    return f"{n} is in the homeland of {owner}"
        for s, other, loc in ((sa, sb, la), (sb, sa, lb)):
            if other.kind is SpaceKind.SEA and s.coasts and loc.coast is None:
                return f"say which coast of {printed.place_name(s.index)} the link reaches"
        if pair in existing:
            return f"{na} and {nb} are already linked"
        if space_pair not in cuts and _carries_nothing_new(printed, pair):
            return f"{na} and {nb} are already adjacent"
        return ""
    if pair in existing:
        return ""
    same_spaces = [p for p in existing if _space_pair(printed, *p) == space_pair]
    if len(same_spaces) > 1:
        return f"say which coast: {na} and {nb} are linked more than once"
    if same_spaces:
        return ""
    if isinstance(order, DestroyLink) and rules.cut_printed and _printed_adjacent(printed, space_pair):
        if space_pair in cuts:
            return f"the adjacency of {na} and {nb} is already cut"
        return ""
    return f"there is no link between {na} and {nb}"


def _carries_nothing_new(printed: Board, pair: tuple[int, int]) -> bool:
    """Whether the printed board already joins what a link of ``pair`` would carry (a link from the
    Gulf of Lyon to Spain's north coast is new; one from Munich to Bohemia is not)."""
    by_army, by_fleet = link_carries(printed, *pair)
    if by_army is not None and by_army[1] not in printed.army_adj[by_army[0]]:
        return False
    return by_fleet is None or by_fleet[1] in printed.fleet_adj[by_fleet[0]]


def _printed_adjacent(printed: Board, space_pair: tuple[int, int]) -> bool:
    x, y = space_pair
    for loc in printed.locations:
        if loc.space == x:
            for other in (*printed.army_adj[loc.index], *printed.fleet_adj[loc.index]):
                if printed.locations[other].space == y:
                    return True
    return False


def is_opening(board: Board, position: Position) -> bool:
    """Whether the position is the opening Winter, where only LINK orders are given."""
    return position.phase.year == board.start.year and position.phase.kind is PhaseKind.ADJUSTMENTS


def link_choices(printed: Board, position: Position, rules: LinkRules, power: str) -> dict[str, Any]:
    """The link orders ``power`` may give now, for a page to offer by clicking: how many it may
    give (``allowance``, of each kind when ``per_kind``), what each kind is called (``labels``), and
    by kind (``link``, ``destroy``, ``reinforce``) a map first end -> second end -> order text.

    Each pair of ends is listed once, under the end that comes first on the board, so the tree
    stays small (about 2,800 LINK pairs in an opening Winter of Twin Earths III); a page offers it
    from either end. Every listed order passes the checks a submitted one does.
    """
    opening = is_opening(printed, position)
    per_kind = rules.per_kind and not opening
    limit = 1 if per_kind else allowance(rules, position, power, opening)
    out: dict[str, Any] = {"allowance": limit, "per_kind": per_kind, "labels": _labels(rules)}
    if not limit:
        return out
    homeland_of = {s: p.id for p in printed.powers for s in p.homeland}
    existing, cuts = set(position.links), set(position.cuts)
    locs = printed.locations

    def offer(kind: str, order: LinkOrder) -> None:
        if _problem(printed, position, power, order, rules, opening, homeland_of, existing, cuts):
            return
        a, b = sorted((order.a, order.b))
        text = format_order(printed, type(order)(a, b))
        out.setdefault(kind, {}).setdefault(locs[a].id, {})[locs[b].id] = text

    free = [
        loc.index
        for loc in locs
        if not rules.homeland_restriction or homeland_of.get(loc.space, power) == power
    ]
    for i, a in enumerate(free):
        for b in free[i + 1 :]:
            if locs[a].space != locs[b].space:
                offer("link", Link(a, b))
    if opening:
        return out
    for pair in position.links:
        offer("destroy", DestroyLink(*pair))
        if rules.reinforce:
            offer("reinforce", ReinforceLink(*pair))
    if rules.cut_printed:
        main = {space.index: printed.location_by_id.get(space.id) for space in printed.spaces}
        for x, y in sorted(_printed_pairs(printed)):
            end_x, end_y = main[x], main[y]
            if end_x is not None and end_y is not None:  # an impassable space has no location
                offer("destroy", DestroyLink(end_x, end_y))
    return out


def _labels(rules: LinkRules) -> dict[str, str]:
    """What each kind of link order is called on a button, in the variant's terms."""
    destroy = "Separate two neighbours or destroy a link" if rules.cut_printed else "Destroy a link"
    return {"link": "Make a link", "destroy": destroy, "reinforce": "Reinforce a link"}


def _printed_pairs(printed: Board) -> set[tuple[int, int]]:
    """Every adjacency of the printed board, as a sorted pair of spaces."""
    out: set[tuple[int, int]] = set()
    for loc in printed.locations:
        for other in (*printed.army_adj[loc.index], *printed.fleet_adj[loc.index]):
            x, y = _space_pair(printed, loc.index, other)
            if x != y:
                out.add((x, y))
    return out
