"""Game records: save and load losslessly; malformed records get a clear error."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from interboard.games.diplomacy.game import Game
from interboard.games.diplomacy.record import RecordError, game_from_json, game_to_json, load_game, save_game


def _played_game(phases: int, seed: int) -> Game:
    from interboard.games.diplomacy.legal import random_orders

    rng = random.Random(seed)
    game = Game.new()
    for _ in range(phases):
        if game.over:
            break
        game.process(random_orders(game.board, game.position, rng))
    return game


def test_round_trip_is_lossless(tmp_path: Path) -> None:
    # The first seeded random game that has movement, retreat and adjustment phases.
    game = next(
        g
        for g in (_played_game(40, seed) for seed in range(1, 100))
        if {r.position.phase.kind.value for r in g.history} == {"M", "R", "A"}
    )
    path = tmp_path / "game.json"
    save_game(game, path)
    loaded = load_game(path)
    assert game_to_json(loaded) == game_to_json(game)
    assert loaded.position == game.position
    assert [r.position for r in loaded.history] == [r.position for r in game.history]
    assert [r.orders for r in loaded.history] == [r.orders for r in game.history]
    assert [r.results for r in loaded.history] == [r.results for r in game.history]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(format="x"), "not an interboard game record"),
        (lambda d: d.update(variant="chess"), "unknown variant 'chess'"),
        (
            lambda d: d["phases"][0]["position"]["units"]["FRANCE"].append("A XYZ"),
            "phases[0].position.units.FRANCE",
        ),
        (lambda d: d["position"].update(phase="Summer"), "not a phase: 'Summer'"),
    ],
)
def test_bad_records_say_where(mutate: object, message: str) -> None:
    data = json.loads(json.dumps(game_to_json(_played_game(3, seed=1))))
    mutate(data)  # type: ignore[operator]
    with pytest.raises(RecordError, match=None) as info:
        game_from_json(data)
    assert message in str(info.value)


def _linked_game() -> Game:
    """Twin Earths III's opening Winter: Germany-Y links Munich to Holland on board Z, France-Z
    Brest to North Africa on board Y; every other power only builds."""
    from interboard.games.diplomacy.parse import parse_order

    game = Game.new("twin_earths_3")
    orders = [("GERMANY-Y", "LINK MUN-Y HOL-Z"), ("FRANCE-Z", "LINK BRE-Z NAF-Y")]
    game.process([(power, parse_order(game.board, text, game.position.phase.kind)) for power, text in orders])
    return game


def test_a_link_remembers_who_made_it_through_a_record() -> None:
    game = _linked_game()
    board = game.board
    made = {
        (board.locations[a].id, board.locations[b].id): maker
        for (a, b), maker in zip(game.position.links, game.position.link_makers, strict=True)
    }
    assert made == {("MUN-Y", "HOL-Z"): "GERMANY-Y", ("NAF-Y", "BRE-Z"): "FRANCE-Z"}
    loaded = game_from_json(json.loads(json.dumps(game_to_json(game))))
    assert loaded.position.link_makers == game.position.link_makers
    # A record from before makers were kept still loads: its links have no maker.
    data = json.loads(json.dumps(game_to_json(game)))
    del data["position"]["link_makers"]
    old = game_from_json(data)
    assert old.position.links == game.position.links and old.position.link_makers == ()
    assert old.position.link_maker(0) == ""
    data["position"]["link_makers"] = ["GERMANY-Y"]
    with pytest.raises(RecordError, match=r"position\.link_makers: one maker for each link"):
        game_from_json(data)
