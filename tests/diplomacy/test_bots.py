"""The Diplomacy bots: legal orders only, seeded, and the heuristic bot's choices and strength.

Scenario cases (``bot_cases/heuristic.json``) check one choice each of the heuristic bot, named after what
it should do. Games over every variant check that no bot ever gives an order the rules refuse.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from interboard.games.diplomacy import (
    Build,
    DestroyLink,
    Disband,
    Hold,
    Link,
    Move,
    Order,
    PhaseKind,
    Reason,
    ReinforceLink,
    Rulebook,
    format_order,
)
from interboard.games.diplomacy.bots import (
    BOTS,
    HeuristicBot,
    HoldBot,
    RandomBot,
    Turn,
    make_bot,
    phase_orders,
)
from interboard.games.diplomacy.game import Game
from interboard.games.diplomacy.legal import legal_orders
from interboard.games.diplomacy.links import LINK_ORDERS
from interboard.games.diplomacy.orders import order_loc
from interboard.games.diplomacy.record import position_from_json
from interboard.games.diplomacy.validate import check_order
from interboard.games.diplomacy.variants import VARIANTS, get_variant, twin_earths_3_rules

CASES_FILE = Path(__file__).parent / "bot_cases" / "heuristic.json"
CASES: list[dict[str, Any]] = json.loads(CASES_FILE.read_text(encoding="utf-8"))["cases"]
TE3_OPTIONS = twin_earths_3_rules(link_limit=5, cut_printed=True, cross_board_only=True)


# ---------------------------------------------------------------------- scenarios
def _count(board: Any, orders: list[Order], key: str) -> int:
    if key.startswith("moves into "):
        space = board.space_by_id[key.removeprefix("moves into ")]
        return sum(1 for o in orders if isinstance(o, Move) and board.locations[o.dest].space == space)
    return sum(1 for o in orders if type(o).__name__ == key)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_heuristic_scenario(case: dict[str, Any]) -> None:
    variant = get_variant(case["variant"])
    position = position_from_json(variant.board, case["position"])
    board = variant.board_for(position)
    turn = Turn.of(board, position, case["power"], variant.rulebook)
    orders = HeuristicBot(seed=1).orders(turn)
    texts = {format_order(board, o) for o in orders}
    if "include_any" in case:
        assert any(set(alt) <= texts for alt in case["include_any"]), sorted(texts)
    assert not set(case.get("exclude", ())) & texts, sorted(texts)
    for key, n in case.get("count", {}).items():
        assert _count(board, orders, key) == n, (key, sorted(texts))
    _assert_legal(board, position, variant.rulebook, case["power"], orders)


# ---------------------------------------------------------------------- legality over whole games
def _assert_legal(board: Any, position: Any, rulebook: Rulebook, power: str, orders: list[Order]) -> None:
    """Every unit order is in the power's legal list (one per unit); link orders pass check_order."""
    legal = legal_orders(board, position, power).get(power)
    seen: set[int] = set()
    for order in orders:
        if isinstance(order, LINK_ORDERS):
            check_order(board, position, power, order, rulebook)
            continue
        assert legal is not None, f"{power} ordered {format_order(board, order)} with nothing to order"
        loc = order_loc(order)
        if loc is None:  # a waive
            assert legal.due > 0
            continue
        assert loc not in seen, f"two orders for {board.locations[loc].id}"
        seen.add(loc)
        if isinstance(order, Build):  # listed under the site's province, named by coast
            site = board.location_by_id[board.spaces[board.locations[loc].space].id]
            assert order in legal.orders.get(site, ()), format_order(board, order)
        else:
            assert order in legal.orders.get(loc, ()), format_order(board, order)
    if legal is not None and legal.due:
        assert sum(1 for o in orders if not isinstance(o, LINK_ORDERS)) <= abs(legal.due)


LEGALITY = [pytest.param(vid, None, id=vid) for vid in VARIANTS] + [
    pytest.param("twin_earths_3", TE3_OPTIONS, id="twin_earths_3-options")
]


@pytest.mark.parametrize(("variant_id", "rulebook"), LEGALITY)
def test_bots_give_only_legal_orders(variant_id: str, rulebook: Rulebook | None) -> None:
    game = Game.new(variant_id, rulebook)
    powers = [p.id for p in game.board.powers]
    names = ["heuristic", "random", "hold", "heuristic"]
    bots = {p: make_bot(names[i % len(names)], seed=7) for i, p in enumerate(powers)}
    links: Counter[type] = Counter()
    kinds: set[PhaseKind] = set()
    for _ in range(70):
        if game.over:
            break
        board, position = game.board, game.position
        kinds.add(position.phase.kind)
        given = phase_orders(board, position, game.rulebook, bots, game.acting)
        by_power: dict[str, list[Order]] = {}
        for p, o in given:
            by_power.setdefault(p, []).append(o)
        for p, orders in by_power.items():
            _assert_legal(board, position, game.rulebook, p, orders)
        outcome = game.process(given)
        refused = [r for r in outcome.results if r.reason is Reason.ILLEGAL]
        assert not refused, [(r.power, format_order(board, r.order), r.message) for r in refused]
        links.update(
            type(r.order)
            for r in outcome.results
            if isinstance(r.order, LINK_ORDERS) and bots[r.power].name == "heuristic"
        )
    assert kinds == set(PhaseKind)
    if game.rulebook.links is not None and game.rulebook.links.phase is PhaseKind.ADJUSTMENTS:
        # Twin Earths III Winters: the heuristic bot links, and destroys or reinforces links.
        assert links[Link] > 0, links
        assert links[DestroyLink] + links[ReinforceLink] > 0, links


# ---------------------------------------------------------------------- simple bots and seeding
def test_bots_are_seeded() -> None:
    game = Game.new("standard")
    for name in BOTS:
        turn = Turn.of(game.board, game.position, "FRANCE", game.rulebook)
        assert make_bot(name, 3).orders(turn) == make_bot(name, 3).orders(turn)
    first = Turn.of(game.board, game.position, "RUSSIA", game.rulebook)
    random_orders = {tuple(map(str, RandomBot(seed).orders(first))) for seed in range(8)}
    assert len(random_orders) > 1  # the seed matters


def test_hold_bot_holds_disbands_and_builds_armies() -> None:
    game = Game.new("twin_earths_1")  # opens with builds
    board = game.board
    builds = HoldBot().orders(Turn.of(board, game.position, "FRANCE", game.rulebook))
    assert builds and all(isinstance(o, Build) and o.unit.value == "A" for o in builds)
    game.process([("FRANCE", o) for o in builds])
    holds = HoldBot().orders(Turn.of(game.board, game.position, "FRANCE", game.rulebook))
    assert len(holds) == len(builds) and all(isinstance(o, Hold) for o in holds)


def test_hold_bot_disbands_dislodged_units() -> None:
    variant = get_variant("standard")
    case = next(c for c in CASES if c["name"] == "retreats_to_a_centre_rather_than_an_empty_province")
    position = position_from_json(variant.board, case["position"])
    orders = HoldBot().orders(Turn.of(variant.board, position, "FRANCE", variant.rulebook))
    assert orders and all(isinstance(o, Disband) for o in orders)


def test_unknown_bot_is_refused_with_the_known_names() -> None:
    with pytest.raises(ValueError, match="heuristic"):
        make_bot("clever")


# ---------------------------------------------------------------------- strength
def test_heuristic_bot_outgrows_random_bots() -> None:
    """Seven short games (to 1904), the heuristic bot in each seat once against six random bots:
    it ends with several times the centres of a random bot, and ahead of all of them every game."""
    hero_centres, random_centres = [], []
    for k, hero in enumerate(p.id for p in get_variant("standard").board.powers):
        game = Game.new("standard")
        bots = {p.id: make_bot("heuristic" if p.id == hero else "random", k) for p in game.board.powers}
        while not game.over and game.position.phase.year <= 1904:
            game.process(phase_orders(game.board, game.position, game.rulebook, bots, game.acting))
        counts = Counter(game.position.centres.values())
        hero_centres.append(counts[hero])
        others = [counts[p] for p in bots if p != hero]
        random_centres.extend(others)
        assert counts[hero] > max(others), (hero, counts)
    hero_mean = sum(hero_centres) / len(hero_centres)
    random_mean = sum(random_centres) / len(random_centres)
    assert hero_mean > 2.5 * random_mean, (hero_centres, random_centres)


def test_random_seed_strings_are_stable() -> None:
    # Bots seed from strings: Python's string seeding does not depend on PYTHONHASHSEED.
    assert random.Random("1/FRANCE/S1901M/22").random() == random.Random("1/FRANCE/S1901M/22").random()
