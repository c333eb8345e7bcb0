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
