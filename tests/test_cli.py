"""The interboard command, run as a user would run it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from interboard.cli.main import app

runner = CliRunner()


def test_variants_lists_standard() -> None:
    out = runner.invoke(app, ["variants"])
    assert out.exit_code == 0
    assert "standard" in out.output


def test_adjudicate_text_and_json(tmp_path: Path) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text("France: A Par - Bur\nGermany: A Mun - Bur\nEngland: F Lon - Eng\n")
    out = runner.invoke(app, ["adjudicate", str(orders)])
    assert out.exit_code == 0, out.output
    assert "France: A PAR - BUR: bounced (with MUN)" in out.output
    out = runner.invoke(app, ["adjudicate", str(orders), "--json"])
    data = json.loads(out.output)
    assert data["position"]["phase"] == "F1901M"
    assert "F ENG" in data["position"]["units"]["ENGLAND"]
    # The next position can be fed back in.
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(data["position"]))
    orders.write_text("England: F Eng - Bel\n")
    out = runner.invoke(app, ["adjudicate", str(orders), "--position", str(pos), "--json"])
    assert json.loads(out.output)["position"]["centres"]["ENGLAND"] == ["BEL", "EDI", "LON", "LVP"]


def test_adjudicate_reports_bad_orders_by_line(tmp_path: Path) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text("France: A Par - Bur\nFrance: A Par - Xyz\nA Mun - Ruh\n")
    out = runner.invoke(app, ["adjudicate", str(orders)])
    assert out.exit_code == 2
    assert "line 2: 'A Par - Xyz': unknown place 'xyz'" in out.output
    assert "line 3" in out.output and "say which power" in out.output


def test_play_at_one_keyboard(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    # Powers order in alphabetical order. Austria tries to order a French unit and is refused;
    # France moves; the others enter nothing; then quit at the Fall prompt.
    keys = "A Par - Bur\n\n" + "\n" + "A Par - Bur\n\n" + "\n" * 4 + ":quit\n"
    proc = subprocess.run(
        [sys.executable, "-m", "interboard.cli.main", "play", "--save", str(save)],
        input=keys,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "the unit in Paris belongs to FRANCE" in proc.stdout
    assert "France: A PAR - BUR: succeeds" in proc.stdout
    assert "Fall 1901 Movement" in proc.stdout
    assert json.loads(save.read_text())["position"]["phase"] == "F1901M"


def test_replay_of_own_record(tmp_path: Path) -> None:
    from interboard.diplomacy.game import Game
    from interboard.formats.record import save_game

    game = Game.new()
    game.process_text(["France: A Par - Bur", "Germany: A Mun - Ruh"])
    game.process_text(["France: A Bur - Bel"])
    path = tmp_path / "g.json"
    save_game(game, path)
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 0
    assert "2 phases replayed, 0 with differences" in out.output
    data = json.loads(path.read_text())
    data["phases"][1]["orders"]["FRANCE"] = ["A BUR - PIC"]
    path.write_text(json.dumps(data))
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 1
    assert "F1901M: next position differs" in out.output


def test_play_twin_earths_three_with_a_link(tmp_path: Path) -> None:
    save = tmp_path / "te3.json"
    # Austria-Y builds and links; the other thirteen powers enter nothing; quit in Spring 1901.
    keys = "Build A Vienna-Y\nLINK Vie-Y Vie-Z\nLINK Tri-Y Adr-Z\n\n" + "\n" * 13 + ":quit\n"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "interboard.cli.main",
            "play",
            "twin_earths_3",
            "--link-limit",
            "5",
            "--save",
            str(save),
        ],
        input=keys,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Vienna Z is in the homeland of AUSTRIA-Z" in proc.stdout
    assert "Austria-Y: LINK TRI-Y ADR-Z: succeeds" in proc.stdout
    assert "links (oldest first): TRI-Y=ADR-Z" in proc.stdout
    record = json.loads(save.read_text())
    assert record["position"]["links"] == [["TRI-Y", "ADR-Z"]]
    assert record["rules"]["links"]["limit"] == 5


DATA = Path(__file__).parent / "formats" / "data"


def test_replay_of_mila_games_exits_non_zero_on_a_difference() -> None:
    out = runner.invoke(app, ["replay", "--format", "mila", str(DATA / "mila_seed1.json")])
    assert out.exit_code == 0, out.output
    assert "with differences" in out.output and ", 0 with differences" in out.output
    out = runner.invoke(
        app, ["replay", "--format", "mila", str(DATA / "known_difference_convoy_own_support.json")]
    )
    assert out.exit_code == 1
    assert ", 1 with differences" in out.output


def test_replay_reports_a_missing_or_broken_file(tmp_path: Path) -> None:
    out = runner.invoke(app, ["replay", "--format", "mila", str(tmp_path / "nothing.json")])
    assert out.exit_code == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    out = runner.invoke(app, ["replay", str(bad)])
    assert out.exit_code == 2
    assert "error:" in out.output


def test_bench_and_export(tmp_path: Path) -> None:
    out = runner.invoke(app, ["bench", "--games", "1", "--phases", "5"])
    assert out.exit_code == 0, out.output
    assert "5 phases in" in out.output
    from interboard.diplomacy.game import Game
    from interboard.formats.record import save_game

    game = Game.new()
    game.process_text(["France: A Par - Bur"])
    path = tmp_path / "g.json"
    save_game(game, path)
    out = runner.invoke(app, ["export", str(path)])
    assert out.exit_code == 0
    assert json.loads(out.output)["phases"][0]["orders"] == {"FRANCE": ["A PAR - BUR"]}
