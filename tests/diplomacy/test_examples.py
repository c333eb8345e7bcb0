"""The example variants of ``docs/examples`` (its README says what they are): new games made only
from a file. Every file there follows the JSON Schema and uses only what the repository ships,
passes ``interboard variant check``, and is played to its end by the family's heuristic bots in
every seat, a game whose record replays to the same end; Channel Earths is played at one keyboard.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from interboard.board import packaged_board_names
from interboard.cli.main import app
from interboard.games import add_variant_file
from interboard.games.diplomacy.variants import MAPS_PACKAGE, get_variant
from interboard.games.record import replay
from interboard.selfplay import MAX_STEPS

# The variants a test adds from files are forgotten after it.
pytestmark = pytest.mark.usefixtures("isolated_variants")

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "docs" / "examples"
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.json"))
SCHEMA = json.loads(
    resources.files("interboard.games.diplomacy.data").joinpath("variant.schema.json").read_text("utf-8")
)
runner = CliRunner()


def example(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_there_are_examples_and_the_readme_tells_of_each() -> None:
    assert EXAMPLES_DIR / "channel_earths.json" in EXAMPLES
    readme = (EXAMPLES_DIR / "README.md").read_text(encoding="utf-8")
    for path in EXAMPLES:
        assert f"docs/examples/{path.name}" in readme, path.name
        assert f"interboard play docs/examples/{path.name}" in readme, path.name
        assert f"interboard variant check docs/examples/{path.name}" in readme, path.name


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_an_example_follows_the_schema_and_uses_only_the_repositorys_maps(path: Path) -> None:
    data = example(path)
    jsonschema.validate(data, SCHEMA)
    assert data["id"] == path.stem  # its records are written as <id>-00001.json, beside nothing else
    shipped = packaged_board_names(MAPS_PACKAGE)
    for board in data["boards"]:
        assert "map_data" not in board  # that is how a record keeps a map, not how a designer names one
        if "file" in board:
            target = (path.parent / board["file"]).resolve()
            assert target.is_relative_to(EXAMPLES_DIR) and target.is_file(), board["file"]
        else:
            assert board["map"] in shipped
    # A victory no game can reach would leave the bots' game below running to self-play's step cap.
    _, info = add_variant_file(path)
    board = get_variant(info.id).board
    count = board.victory_centres
    assert 0 < count <= len(board.centres), f"victory at {count} of {len(board.centres)} centres"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_an_example_passes_variant_check(path: Path) -> None:
    out = runner.invoke(app, ["variant", "check", str(path)])
    assert out.exit_code == 0, out.output
    assert f"{path}: {example(path)['id']}, " in out.output
    assert "conformance: passed" in out.output


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_heuristic_bots_play_an_example_to_its_end_and_the_record_replays_to_that_end(
    path: Path, tmp_path: Path
) -> None:
    """No year cap: the game goes on until a power wins (or, failing that, to self-play's step cap,
    a draw); a victory count no bot game reaches would fail here by taking far too long."""
    data = example(path)
    games = tmp_path / "games"
    played = runner.invoke(
        app,
        ["selfplay", "--variant", str(path), "--games", "1", "--bots", "heuristic", "--out", str(games)],
    )
    assert played.exit_code == 0, played.output
    (record_path,) = games.glob(f"{data['id']}-*.json")
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert set(record["players"].values()) == {"bot:heuristic"}
    steps, winners = len(record["steps"]), record["winners"]
    assert winners or steps == MAX_STEPS, f"stopped after {steps} steps with no winner and no cap"

    replayed = runner.invoke(app, ["replay", str(record_path)])
    assert replayed.exit_code == 0, replayed.output
    assert f"{steps} steps replayed, 0 with differences" in replayed.output
    match = replay(record, record_path.name)
    fam = match.family
    assert match.steps[-1].phase == record["steps"][-1]["phase"]
    if winners:
        assert fam.pending(match.state).over and fam.winners(match.state) == winners
        needed = data.get("victory", {}).get("centres")
        if needed is not None:
            assert all(fam.scores(match.state)[w] >= needed for w in winners)
    else:
        assert not fam.pending(match.state).over and fam.alive(match.state)


def test_channel_earths_is_played_at_one_keyboard_through_its_tunnel(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # Winter 1900: Austria-N builds nothing, England-N an army in London N, the twelve others
    # nothing. Spring 1901: England-N, alone with a unit, goes through the tunnel to Paris S. Then
    # quit at the Fall prompt.
    keys = "\n" + "Build A Lon-N\n\n" + "\n" * 12 + "A Lon-N - Par-S\n\n" + ":quit\n"
    out = runner.invoke(
        app, ["play", str(EXAMPLES_DIR / "channel_earths.json"), "--save", str(save)], input=keys
    )
    assert out.exit_code == 0, out.output
    assert "Winter 1900 Adjustment" in out.output
    assert "England-N: A LON-N B: succeeds" in out.output
    assert "England-N: A LON-N - PAR-S: succeeds" in out.output
    assert "Fall 1901 Movement" in out.output
    position = json.loads(save.read_text(encoding="utf-8"))["position"]
    assert position["phase"] == "F1901M"
    assert position["units"] == {"ENGLAND-N": ["A PAR-S"]}
