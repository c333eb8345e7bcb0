"""Conformance over every registered variant (after OpenSpiel's ``games_sim_test``).

Seeded random games are played through ``Game.process`` with the orders of
:func:`~interboard.games.diplomacy.random_play.random_phase_choices` (one legal order per unit, and in the
link variants a few link orders, some deliberately illegal). Every phase is checked against the
invariants of the rules; every ``SAVE_EVERY`` phases the game is saved as a JSON string and loaded
again, the loaded game must equal the original, and play goes on with the loaded game while the
original is played alongside on the same orders until the next save: the two must not drift apart.
"""

from __future__ import annotations

import json
import random
import weakref
from collections import Counter
from dataclasses import dataclass, field

import pytest

from interboard.board import Board, SpaceKind, UnitKind
from interboard.games.diplomacy import (
    Build,
    DestroyLink,
    Link,
    Order,
    Phase,
    PhaseKind,
    Position,
    Reason,
    Remove,
    Rulebook,
    Season,
    Unit,
)
from interboard.games.diplomacy.engine import PhaseOutcome
from interboard.games.diplomacy.game import Game
from interboard.games.diplomacy.links import LINK_ORDERS, link_pair
from interboard.games.diplomacy.random_play import LinkChoice, random_phase_choices, random_phase_orders
from interboard.games.diplomacy.record import game_from_json, game_to_json
from interboard.games.diplomacy.variants import VARIANTS, twin_earths_3_rules

MAX_PHASES = 200
SAVE_EVERY = 20
SEEDS = (1, 2)
CIVIL_DISORDER = 0.5
"""Chance, in an adjustment phase, that one power with removals due orders none (civil disorder)."""
TE3_OPTIONS = twin_earths_3_rules(link_limit=5, cut_printed=True, cross_board_only=True)

CASES = [pytest.param(vid, None, seed, id=f"{vid}-{seed}") for vid in VARIANTS for seed in SEEDS] + [
    pytest.param("twin_earths_3", TE3_OPTIONS, seed, id=f"twin_earths_3-options-{seed}") for seed in SEEDS
]


_REFUSALS = (
    "homeland",
    "which coast",
    "already adjacent",
    "already linked",
    "already cut",
    "different boards",
    "two different spaces",
    "there is no link",
    "may give only",
    "may give no",
    "not given in this phase",
    "opening Winter",
    "no REINFORCE",
)
"""Kinds of refusal of a link order, by a phrase of the message."""


@dataclass
class Seen:
    """What a game went through."""

    kinds: set[PhaseKind] = field(default_factory=set)
    links_made: int = 0
    links_destroyed: int = 0
    """By DESTROY orders (not dropped by Optional 1's limit)."""
    cuts_made: int = 0
    destroys_bounced: int = 0
    """DESTROY orders that failed against as many REINFORCE orders."""
    refused_links: Counter[str] = field(default_factory=Counter)
    shores: set[int] = field(default_factory=set)
    """Inland spaces that a link to a sea made a shore at some time."""
    fleets_inland: int = 0
    civil_disorder: int = 0
    """Units removed by the civil-disorder rule."""


@pytest.mark.parametrize(("variant_id", "rulebook", "seed"), CASES)
def test_random_games(variant_id: str, rulebook: Rulebook | None, seed: int) -> None:
    variant = VARIANTS[variant_id]
    game = Game.new(variant, rulebook)
    twin: Game | None = None  # the game before the last save, played alongside the loaded one
    rng = random.Random(seed)
    seen = Seen()
    for k in range(MAX_PHASES):
        if game.over:
            break
        if k and k % SAVE_EVERY == 0:
            twin, game = game, _reloaded(game)
        before = game.position
        orders, choices = random_phase_choices(variant, before, rng, game.rulebook)
        if before.phase.kind is PhaseKind.ADJUSTMENTS and rng.random() < CIVIL_DISORDER:
            orders = _without_removals(orders, rng)
        outcome = game.process(orders)
        if twin is not None:
            _assert_same_outcome(twin.process(orders), outcome, f"phase {k} after reloading")
        seen.kinds.add(before.phase.kind)
        _check_results(outcome, choices, seen)
        _check_position(variant.board, game.rulebook, before, outcome, seen)
    _reloaded(game, resave=True)

    assert seen.kinds == set(PhaseKind), seen.kinds
    assert seen.civil_disorder > 0
    links = game.rulebook.links
    if links is None:
        assert seen.links_made == seen.links_destroyed == sum(seen.refused_links.values()) == 0
        return
    assert seen.links_made > 0 and seen.links_destroyed > 0, seen
    assert len(seen.refused_links) >= 5, seen.refused_links  # kinds of deliberately illegal orders
    if links.cut_printed:
        assert seen.cuts_made > 0
    if links.reinforce:
        assert seen.destroys_bounced > 0


def test_random_phase_orders_is_seeded_and_gives_link_orders() -> None:
    variant = VARIANTS["twin_earths_3"]
    position = variant.start()  # Winter 1900: every power builds and may order one LINK
    first = random_phase_orders(variant, position, random.Random(5))
    assert first == random_phase_orders(variant, position, random.Random(5))
    assert any(isinstance(o, Link) for _, o in first)
    assert not [o for _, o in first if isinstance(o, LINK_ORDERS) and not isinstance(o, Link)]
    order = [p.id for p in variant.board.powers]
    assert [p for p, _ in first] == sorted((p for p, _ in first), key=order.index)


def _without_removals(orders: list[tuple[str, Order]], rng: random.Random) -> list[tuple[str, Order]]:
    """``orders`` without the removals of one power (its units go by the civil-disorder rule)."""
    removing = sorted({p for p, o in orders if isinstance(o, Remove)})
    if not removing:
        return orders
    power = rng.choice(removing)
    return [(p, o) for p, o in orders if p != power or not isinstance(o, Remove)]


def test_civil_disorder_does_not_depend_on_the_order_of_units() -> None:
    variant = VARIANTS["twin_earths_1"]
    board = variant.board
    centres = {board.space_by_id["BER-I"]: "GERMANY", board.space_by_id["BER-II"]: "GERMANY"}
    removed = set()
    for order in (("MUN-I", "MUN-II", "BER-I"), ("MUN-II", "MUN-I", "BER-I")):
        units = {}
        for loc_id in order:
            loc = board.location_by_id[loc_id]
            units[board.locations[loc].space] = Unit("GERMANY", UnitKind.ARMY, loc)
        game = Game(variant, variant.rulebook, Position(Phase.parse("W1905A"), units, dict(centres)))
        [result] = game.process([]).results  # one removal due, none ordered
        assert isinstance(result.order, Remove)
        removed.add(board.locations[result.order.loc].id)
    assert len(removed) == 1, removed


# ---------------------------------------------------------------------- save, load, compare
def _reloaded(game: Game, resave: bool = False) -> Game:
    """``game`` saved as a JSON string and loaded again; it must equal ``game`` (and, with
    ``resave``, save to the same record)."""
    data = game_to_json(game)
    loaded = game_from_json(json.loads(json.dumps(data)))
    _assert_same_game(loaded, game)
    if resave:
        assert game_to_json(loaded) == data
    return loaded


def _assert_same_game(loaded: Game, original: Game) -> None:
    assert loaded.variant is original.variant
    assert loaded.rulebook == original.rulebook
    assert len(loaded.history) == len(original.history)
    for k, (a, b) in enumerate(zip(loaded.history, original.history, strict=True)):
        where = f"history[{k}] ({b.position.phase})"
        assert a.position == b.position, where
        assert a.position.links == b.position.links, where
        assert a.position.cuts == b.position.cuts, where
        assert a.orders == b.orders, where
        assert a.results == b.results, where
    assert loaded.position == original.position
    assert loaded.winners == original.winners


def _assert_same_outcome(a: PhaseOutcome, b: PhaseOutcome, where: str) -> None:
    assert a.phase == b.phase, where
    assert a.results == b.results, where
    assert a.position == b.position, where
    assert a.winners == b.winners, where


# ---------------------------------------------------------------------- invariants
def _check_results(outcome: PhaseOutcome, choices: list[LinkChoice], seen: Seen) -> None:
    unit_results = [r for r in outcome.results if not isinstance(r.order, LINK_ORDERS)]
    assert not [r for r in unit_results if r.reason is Reason.ILLEGAL], outcome.phase
    seen.civil_disorder += sum(
        1 for r in unit_results if isinstance(r.order, Remove) and r.reason is Reason.NOT_ORDERED
    )
    link_results: dict[tuple[str, Order], list[tuple[bool, str]]] = {}
    for r in outcome.results:
        if isinstance(r.order, LINK_ORDERS):
            link_results.setdefault((r.power, r.order), []).append((r.reason is Reason.ILLEGAL, r.message))
    for c in choices:
        refused, message = link_results[(c.power, c.order)].pop()
        assert refused is not c.meant_legal, (outcome.phase, c, message)
        if refused:
            assert message, (outcome.phase, c)
            seen.refused_links[next((k for k in _REFUSALS if k in message), message)] += 1
    assert not [v for v in link_results.values() if v], "a result for a link order nobody gave"


def _check_position(
    printed: Board, rulebook: Rulebook, before: Position, outcome: PhaseOutcome, seen: Seen
) -> None:
    after = outcome.position
    where = f"after {before.phase}"
    spaces, locations = printed.spaces, printed.locations

    # Links and cuts.
    rules = rulebook.links
    if rules is None:
        assert not after.links and not after.cuts, where
    else:
        assert len(set(after.links)) == len(after.links), where
        if rules.limit is not None:
            assert len(after.links) <= rules.limit, where
        for a, b in after.links:
            sa, sb = spaces[locations[a].space], spaces[locations[b].space]
            assert a < b and link_pair(printed, a, b) == (a, b), (where, a, b)
            assert sa.index != sb.index and not _printed_adjacent(printed, sa.index, sb.index), where
            for s, t, loc in ((sa, sb, a), (sb, sa, b)):
                if t.kind is SpaceKind.SEA and s.coasts:
                    assert locations[loc].coast is not None, (where, "a split coast without its coast")
            if rules.cross_board_only:
                assert sa.board != sb.board, where
            if rules.homeland_restriction:
                owners = {_homeland_owner(printed, s.index) for s in (sa, sb)} - {None}
                assert len(owners) <= 1, (where, "a link between two other powers' homelands", owners)
        for x, y in after.cuts:
            assert rules.cut_printed and x < y and _printed_adjacent(printed, x, y), where
        new = set(after.links) - set(before.links)
        seen.links_made += len(new)
        seen.cuts_made += len(after.cuts - before.cuts)
        destroyed = {
            link_pair(printed, r.order.a, r.order.b)
            for r in outcome.results
            if isinstance(r.order, DestroyLink) and r.succeeded
        }
        seen.links_destroyed += len(destroyed & (set(before.links) - set(after.links)))
        seen.destroys_bounced += sum(
            1 for r in outcome.results if isinstance(r.order, DestroyLink) and r.reason is Reason.BOUNCED
        )
        for links in (before.links, after.links):
            for a, b in links:
                sa, sb = spaces[locations[a].space], spaces[locations[b].space]
                if SpaceKind.SEA in (sa.kind, sb.kind):
                    seen.shores.update(s.index for s in (sa, sb) if s.kind is SpaceKind.LAND)

    # Units: one per space, each where its kind may stand.
    units = after.units
    for space, unit in units.items():
        _check_unit(printed, space, unit.kind, unit.loc, seen, where)
    for d in after.dislodged:
        _check_unit(printed, locations[d.unit.loc].space, d.unit.kind, d.unit.loc, seen, where)
        assert all(locations[x].space not in units for x in d.retreats), where
    kind = before.phase.kind
    if kind is PhaseKind.MOVEMENT:
        assert len(units) + len(after.dislodged) == len(before.units), where
    elif kind is PhaseKind.RETREATS:
        assert len(before.units) <= len(units) <= len(before.units) + len(before.dislodged), where
    else:
        built = sum(1 for r in outcome.results if isinstance(r.order, Build) and r.succeeded)
        removed = sum(1 for r in outcome.results if isinstance(r.order, Remove) and r.succeeded)
        assert len(units) == len(before.units) + built - removed, where
        for p in printed.powers:
            # A Winter's removals are always possible (there are more units than centres to remove
            # from), so after it no power keeps more units than centres.
            assert len(after.units_of(p.id)) <= len(after.centres_of(p.id)), (where, p.id)
    if after.phase.season is Season.SPRING and before.phase.season is not Season.WINTER:
        # The Winter was skipped: nobody had to adjust.
        for p in printed.powers:
            assert len(after.units_of(p.id)) <= len(after.centres_of(p.id)), (where, p.id)

    # Victory.
    for w in outcome.winners:
        count = len(after.units_of(w)) if rulebook.victory_by_units else len(after.centres_of(w))
        assert count >= printed.victory_centres, (where, w, count)


def _check_unit(printed: Board, space: int, kind: UnitKind, loc: int, seen: Seen, where: str) -> None:
    location = printed.locations[loc]
    sp = printed.spaces[space]
    assert location.space == space, where
    if kind is UnitKind.ARMY:
        assert sp.kind in (SpaceKind.LAND, SpaceKind.COAST) and location.coast is None, (where, sp.id)
        return
    if sp.kind is SpaceKind.LAND:
        # A fleet stands inland only where a link to a sea made a shore at some time.
        assert space in seen.shores, (where, "a fleet inland", sp.id)
        seen.fleets_inland += 1
    else:
        assert sp.kind in (SpaceKind.SEA, SpaceKind.COAST), (where, sp.id)
    assert location.coast is not None or not sp.coasts, (where, "a fleet on a split-coast province", sp.id)


def _homeland_owner(printed: Board, space: int) -> str | None:
    for p in printed.powers:
        if space in p.homeland:
            return p.id
    return None


_ADJACENT: weakref.WeakKeyDictionary[Board, frozenset[tuple[int, int]]] = weakref.WeakKeyDictionary()


def _printed_adjacent(printed: Board, x: int, y: int) -> bool:
    pairs = _ADJACENT.get(printed)
    if pairs is None:
        found: set[tuple[int, int]] = set()
        locs = printed.locations
        for adj in (printed.army_adj, printed.fleet_adj):
            for a, near in enumerate(adj):
                found.update((locs[a].space, locs[b].space) for b in near)
        pairs = _ADJACENT[printed] = frozenset(found)
    return (x, y) in pairs or (y, x) in pairs


def test_a_refusal_on_two_boards_names_the_board_of_each_place() -> None:
    from interboard.games import find_variant

    family, info = find_variant("twin_earths_3")
    state = family.new_state("twin_earths_3", info.check_options({}), 1)
    assert family.check(state, "FRANCE-Y", ["A PAR-Z B"]) == [
        "'A PAR-Z B': Paris Z is not a home centre of FRANCE-Y"
    ]
    spring = family.process(state, {"FRANCE-Y": ["A PAR-Y B"]}).state
    assert family.check(spring, "FRANCE-Y", ["A PAR-Y - BUR-Z"]) == [
        "'A PAR-Y - BUR-Z': Burgundy Z cannot be reached from Paris Y"
    ]
