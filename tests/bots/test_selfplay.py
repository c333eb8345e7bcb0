"""Self-play: seats and bots, the process pool, Ray, the records written and the CLI table."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from interboard.cli.main import app
from interboard.games.record import load
from interboard.selfplay import (
    SelfPlayError,
    assign_seats,
    make_specs,
    play_game,
    run,
    summarise,
)

SEVEN = ["A", "B", "C", "D", "E", "F", "G"]


@pytest.mark.parametrize(
    ("bots", "rotate", "expected"),
    [
        pytest.param(["hold"], 0, ["hold"] * 7, id="one_bot_takes_every_seat"),
        pytest.param(["h", "r"], 0, ["h", "r", "h", "r", "h", "r", "h"], id="a_shorter_list_repeats"),
        pytest.param(
            ["h", "r", "r", "r", "r", "r", "r"], 2, ["r", "r", "h", "r", "r", "r", "r"], id="rotation"
        ),
    ],
)
def test_bots_are_assigned_to_seats(bots: list[str], rotate: int, expected: list[str]) -> None:
    assert [b for _, b in assign_seats(SEVEN, bots, rotate)] == expected


@pytest.mark.parametrize(
    ("variant", "bots", "games", "message"),
    [
        pytest.param("atlantis", ["random"], 1, "unknown variant", id="unknown_variant"),
        pytest.param("standard", ["clever"], 1, "unknown bot 'clever'", id="unknown_bot"),
        pytest.param("standard", ["random"] * 8, 1, "8 bots for 7 seats", id="too_many_bots"),
        pytest.param("standard", ["random"], 0, "at least one game", id="no_games"),
    ],
)
def test_bad_settings_are_refused(variant: str, bots: list[str], games: int, message: str) -> None:
    with pytest.raises(SelfPlayError, match=message):
        make_specs(variant, games, bots)


def test_a_game_is_played_to_its_cap_and_recorded(tmp_path: Path) -> None:
    (spec,) = make_specs("standard", 1, ["heuristic", "random"], max_year=1902, out=tmp_path, seed=4)
    result = play_game(spec)
    assert result.record is not None
    match = load(result.record)  # replays the record from its start
    assert match.family.pending(match.state).phase == "S1903M"  # stopped once 1902 was over
    assert len(match.steps) == result.phases
    assert json.loads(Path(result.record).read_text())["players"]["AUSTRIA"] == "bot:heuristic"
    assert match.family.scores(match.state) == result.scores
    assert 22 <= sum(result.scores.values()) <= 34  # owned centres: 22 at the start, 34 on the map
    assert not result.winners and {result.outcome(s) for s in result.seats} <= {"draw", "loss"}


def test_games_are_seeded_and_the_pool_gives_the_same_results() -> None:
    specs = make_specs("standard", 3, ["heuristic", "random"], max_year=1903, seed=10)
    inline = run(specs, workers=1)
    pooled = run(specs, workers=2)
    key = [(r.index, r.scores, r.phases, r.winners) for r in inline]
    assert key == [(r.index, r.scores, r.phases, r.winners) for r in pooled]
    summary = summarise(pooled, 1.0)
    assert summary.games == 3 and summary.phases == sum(r.phases for r in inline)
    assert summary.bots["heuristic"].seats + summary.bots["random"].seats == 21


def test_a_solo_counts_as_the_winners_win() -> None:
    (spec,) = make_specs("standard", 1, ["heuristic", "hold", "hold", "hold", "hold", "hold", "hold"], seed=2)
    result = play_game(spec)
    assert result.winners == ("AUSTRIA",)
    summary = summarise([result], 1.0)
    assert (summary.bots["heuristic"].wins, summary.bots["hold"].losses) == (1, 6)


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="the ray extra is not installed")
def test_ray_backend_plays_the_same_games() -> None:
    import ray

    specs = make_specs("standard", 2, ["heuristic", "random"], max_year=1902, seed=3)
    # Ray 2.60 has no local_mode: a one-CPU cluster on this machine, started in this process.
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        remote = run(specs, backend="ray")
    finally:
        ray.shutdown()
    assert [(r.scores, r.phases) for r in remote] == [(r.scores, r.phases) for r in run(specs)]


def test_cli_selfplay_prints_the_table_and_writes_records(tmp_path: Path) -> None:
    out = tmp_path / "games"
    args = ["selfplay", "--variant", "standard", "--games", "2", "--bots", "heuristic,random"]
    args += ["--workers", "2", "--max-year", "1902", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "heuristic" in result.output and "random" in result.output and "per second" in result.output
    assert len(list(out.glob("*.json"))) == 2


def test_cli_selfplay_refuses_an_unknown_bot() -> None:
    result = CliRunner().invoke(app, ["selfplay", "--bots", "heuristic,clever"])
    assert result.exit_code == 2
    assert "unknown bot 'clever'" in result.output


def test_global_war_games_are_played_by_its_bots_and_their_records_replay(tmp_path: Path) -> None:
    specs = make_specs(
        "global_war", 2, ["greedy", "random"], seed=5, options={"teams": True}, max_year=6, out=tmp_path
    )
    results = run(specs)
    for r in results:
        assert set(r.seats.values()) == {"greedy", "random"} and r.phases > 0
        assert sum(r.scores.values()) == 42  # every country is someone's
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 2
    for path, r in zip(records, results, strict=True):
        data = json.loads(path.read_text(encoding="utf-8"))
        match = load(path)  # replays from the seed; refuses a step the replay does not reach
        assert data["players"] == {seat: f"bot:{bot}" for seat, bot in r.seats.items()}
        assert data["options"]["teams"] is True
        assert match.family.scores(match.state) == r.scores
