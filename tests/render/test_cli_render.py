"""``interboard render``: a variant's start or a phase of a record to an SVG file; bad input refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from interboard.cli.main import app
from interboard.games.diplomacy.game import Game
from interboard.games.diplomacy.record import save_game

from .helpers import Drawing, classes

runner = CliRunner()


def test_render_a_variant_start(tmp_path: Path) -> None:
    out = tmp_path / "start.svg"
    result = runner.invoke(app, ["render", "twin_earths_1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    drawing = Drawing.parse(out.read_text(encoding="utf-8"))
    assert len(drawing.all("board-frame", "rect")) == 2
    assert not drawing.all("unit")  # Twin Earths I opens with builds on an empty board


@pytest.fixture
def record(tmp_path: Path) -> Path:
    game = Game.new("standard")
    game.process_text(["France: A Par - Bur", "Germany: A Mun - Bur", "England: F Lon - Nth"])
    game.process_text(["England: F Nth - Bel"])
    path = tmp_path / "game.json"
    save_game(game, path)
    return path


def test_render_a_phase_of_a_record_with_its_results(tmp_path: Path, record: Path) -> None:
    out = tmp_path / "phase.svg"
    result = runner.invoke(app, ["render", str(record), "-o", str(out), "--phase", "1"])
    assert result.exit_code == 0, result.output
    drawing = Drawing.parse(out.read_text(encoding="utf-8"))
    moves = {e.get("data-loc"): e for e in drawing.orders("move")}
    assert "bounced" in classes(moves["PAR"]) and "bounced" not in classes(moves["LON"])
    # By name, the second phase: England's fleet is then in the North Sea.
    result = runner.invoke(app, ["render", str(record), "-o", str(out), "--phase", "F1901M"])
    assert result.exit_code == 0, result.output
    units = Drawing.parse(out.read_text(encoding="utf-8")).units()
    assert units["NTH"].get("data-power") == "ENGLAND"
    # Without --phase: the current position, after the two phases.
    result = runner.invoke(app, ["render", str(record), "-o", str(out)])
    assert result.exit_code == 0, result.output
    units = Drawing.parse(out.read_text(encoding="utf-8")).units()
    assert units["BEL"].get("data-power") == "ENGLAND"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no_such_variant"], "no such file, and unknown variant"),
        (["RECORD", "--phase", "3"], "phase 3 is out of range"),
        (["RECORD", "--phase", "0"], "out of range"),
        (["RECORD", "--phase", "S1950M"], "not a played phase"),
        (["standard", "--phase", "1"], "applies to a game record"),
        (["BADJSON"], "not JSON"),
        (["NOTRECORD"], "format is 'something-else', not 'interboard-record/1'"),
    ],
    ids=[
        "unknown-variant",
        "phase-too-high",
        "phase-zero",
        "phase-unknown",
        "phase-of-variant",
        "bad-json",
        "other-json",
    ],
)
def test_bad_input_is_refused_clearly(tmp_path: Path, record: Path, args: list[str], message: str) -> None:
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{ not json")
    other = tmp_path / "other.json"
    other.write_text('{"format": "something-else"}')
    names = {"RECORD": str(record), "BADJSON": str(bad_json), "NOTRECORD": str(other)}
    out = tmp_path / "out.svg"
    result = runner.invoke(app, ["render", *[names.get(a, a) for a in args], "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert not out.exists()
