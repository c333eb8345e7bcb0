"""The interboard command, run as a user would run it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from interboard.cli.main import app
from interboard.games import BUILTIN

runner = CliRunner()


def test_variants_lists_every_family_and_variant() -> None:
    out = runner.invoke(app, ["variants"])
    assert out.exit_code == 0
    lines = out.output.splitlines()
    assert lines[0] == "Diplomacy (diplomacy):"
    assert [line.split()[0] for line in lines if line.startswith("  ")] == [
        "standard",
        "twin_earths_1",
        "twin_earths_3",
        "hyperspace_2",
        "global_war",
        "classic_world",
        "aa_europe_1999",
        "aa_pacific_2001",
        "aa_linked_world",
        "vernian_wwi",
    ]
    assert "Global War (globalwar):" in lines
    assert "Hex-and-counter wargames (hexwar):" in lines
    out = runner.invoke(app, ["variants", "--family", "globalwar", "--options"])
    assert "standard" not in out.output and "--option fortification=limited" in out.output
    out = runner.invoke(app, ["variants", "--family", "chess"])
    assert out.exit_code == 2 and "unknown family 'chess'" in out.output


def test_an_unknown_variant_is_an_error_that_lists_every_family(tmp_path: Path) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text("France: A Par - Bur\n")
    for args in (
        ["adjudicate", str(orders), "--variant", "nosuch"],
        ["play", "nosuch"],
        ["render", "nosuch", "-o", str(tmp_path / "x.svg")],
        ["selfplay", "--variant", "nosuch"],
        ["bench", "--variant", "nosuch"],
    ):
        out = runner.invoke(app, args)
        assert out.exit_code == 2, (args, out.output)
        assert "nosuch" in out.output and "global_war" in out.output and "standard" in out.output, args


def test_a_bad_position_file_is_named(tmp_path: Path) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text("France: A Par - Bur\n")
    position = tmp_path / "pos.json"
    position.write_text('{"phase": "S1901M"}')
    out = runner.invoke(app, ["adjudicate", str(orders), "--position", str(position)])
    assert out.exit_code == 2 and f"{position}: not a standard position" in out.output
    position.write_text("{")
    out = runner.invoke(app, ["adjudicate", str(orders), "--position", str(position)])
    assert out.exit_code == 2 and f"{position}: not JSON" in out.output
    out = runner.invoke(app, ["adjudicate", str(orders), "--position", str(tmp_path / "none.json")])
    assert out.exit_code == 2 and "none.json: cannot be read" in out.output


def test_every_command_works_for_global_war(tmp_path: Path) -> None:
    svg = tmp_path / "gw.svg"
    out = runner.invoke(app, ["render", "global_war", "-o", str(svg), "--option", "players=3"])
    assert out.exit_code == 0, out.output
    assert svg.read_text(encoding="utf-8").count('class="badge"') == 42
    games = tmp_path / "games"
    out = runner.invoke(
        app,
        ["selfplay", "--variant", "global_war", "--option", "players=3", "--games", "1", "--out", str(games)],
    )
    assert out.exit_code == 0, out.output
    (record,) = games.glob("*.json")
    out = runner.invoke(app, ["replay", str(record)])
    assert out.exit_code == 0 and "0 with differences" in out.output, out.output
    out = runner.invoke(app, ["render", str(record), "--phase", "3", "-o", str(svg)])
    assert out.exit_code == 0, out.output
    out = runner.invoke(app, ["render", "global_war", "-o", str(svg), "--option", "players=9"])
    assert out.exit_code == 2 and "option 'players' must be from 3 to 6" in out.output


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
    from interboard.games.diplomacy.game import Game
    from interboard.games.diplomacy.record import save_game

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


DATA = Path(__file__).parent / "diplomacy" / "mila_games"


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
    for variant in ("standard", "global_war"):
        out = runner.invoke(app, ["bench", "--variant", variant, "--games", "1", "--steps", "5"])
        assert out.exit_code == 0, out.output
        assert f"{variant}: 5 decision points in" in out.output
    from interboard.games.diplomacy.game import Game
    from interboard.games.diplomacy.record import save_game

    game = Game.new()
    game.process_text(["France: A Par - Bur"])
    path = tmp_path / "g.json"
    save_game(game, path)
    out = runner.invoke(app, ["export", str(path)])
    assert out.exit_code == 0, out.output
    exported = json.loads(out.output)
    assert exported["format"] == "interboard-record/1" and exported["variant"] == "standard"
    assert exported["steps"] == [{"phase": "S1901M", "submissions": {"FRANCE": ["A PAR - BUR"]}}]
    again = tmp_path / "again.json"
    again.write_text(out.output, encoding="utf-8")
    out = runner.invoke(app, ["replay", str(again)])
    assert out.exit_code == 0 and "1 steps replayed, 0 with differences" in out.output


def test_serve_refuses_a_malformed_rate_limit_before_starting() -> None:
    result = runner.invoke(app, ["serve", "--db", "sqlite://", "--rate-limit", "fast"])
    assert result.exit_code != 0
    assert "RATE or RATE:BURST" in result.output


def test_serve_refuses_a_database_that_is_not_a_url_before_starting(tmp_path: Path) -> None:
    """A file path where a URL belongs: a clear refusal, not a traceback."""
    result = runner.invoke(app, ["serve", "--db", str(tmp_path / "games.sqlite")])
    assert result.exit_code == 2, result.output
    assert "is not a database URL" in result.output and "sqlite:///" in result.output
    assert "Traceback" not in result.output and "serving on" not in result.output


def test_serve_refuses_an_unknown_sqlite_synchronous_setting_before_starting(tmp_path: Path) -> None:
    result = runner.invoke(app, ["serve", "--db", f"sqlite:///{tmp_path / 'g.sqlite'}?synchronous=off"])
    assert result.exit_code == 2, result.output
    assert "synchronous= is full or normal, not 'off'" in result.output
    assert "Traceback" not in result.output and "serving on" not in result.output


LOADED = """
import json, sys
import interboard.board.loader as loader
from interboard.cli.main import main
boards = []
read_board = loader.board_from_data
loader.board_from_data = lambda data, source, **kw: boards.append(source) or read_board(data, source, **kw)
sys.argv[0] = "interboard"
try:
    main()
except SystemExit as done:
    assert not done.code, done.code
print("LOADED", json.dumps(sorted(m for m in sys.modules if m.startswith("interboard.games."))))
print("BOARDS", json.dumps(boards))
"""


def run_interboard(*args: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", LOADED, *args], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def family_modules_loaded_by(*args: str) -> dict[str, list[str]]:
    """The modules of each family (its catalog and its package's ``__init__`` aside) that
    ``interboard ARGS`` imported, run as a new process: a family is loaded only where it is used."""
    line = next(line for line in run_interboard(*args).splitlines() if line.startswith("LOADED "))
    loaded: dict[str, list[str]] = {}
    for name in json.loads(line.removeprefix("LOADED ")):
        parts = name.split(".")
        if len(parts) > 3 and parts[2] in BUILTIN and parts[3] != "catalog":
            loaded.setdefault(parts[2], []).append(name)
    return loaded


def test_the_help_and_the_variants_list_load_no_family() -> None:
    """Not a timing test: ``interboard --help`` and ``interboard variants`` read the families'
    catalogs and import nothing of their engines, bots or commands (``bench/bench_startup.py`` times
    them)."""
    assert family_modules_loaded_by("--help") == {}
    assert family_modules_loaded_by("variants") == {}


def test_a_familys_command_loads_its_family_alone() -> None:
    battle = ("aa_europe_1999", "--attack", "3 infantry", "--defend", "infantry")
    loaded = family_modules_loaded_by("odds", *battle)
    assert list(loaded) == ["axis_allies"]
    # The calculator's modules only: not the family's adapter, engine, bots or drawing.
    names = {name.rpartition(".")[2] for name in loaded["axis_allies"]}
    assert {"cli", "odds"} <= names and not {"family", "engine", "bots", "drawing", "combat"} & names


def test_the_battle_calculator_reads_no_board() -> None:
    """``interboard odds`` needs a game's unit table alone; reading its board would double its start."""
    out = run_interboard("odds", "aa_pacific_2001", "--attack", "2 infantry", "--defend", "infantry")
    assert "attacker wins" in out
    assert "BOARDS []" in out, out
    # the script's counting reader does see a board read by a command that needs one
    rendered = run_interboard("render", "aa_pacific_2001", "-o", "/dev/null")
    assert '"aa_pacific_2001.json"' in rendered.partition("BOARDS ")[2]


EXAMPLE = str(Path(__file__).parents[1] / "docs" / "examples" / "channel_earths.json")


@pytest.mark.parametrize(
    ("variant", "option"),
    [("global_war", "--teams"), ("twin_earths_3", "--link-limit"), (EXAMPLE, "--save")],
)
def test_play_help_shows_the_variants_own_options(variant: str, option: str) -> None:
    """``interboard play VARIANT --help`` is the help of the variant's family's play, with its own
    options, not the dispatcher's."""
    shown = CliRunner().invoke(app, ["play", variant, "--help"], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    assert option in shown.output


def test_render_reads_a_json_game_record_as_a_record_and_a_variant_file_as_a_variant(tmp_path: Path) -> None:
    """A ``.json`` argument is a variant file only if it says so; any other is a game record."""
    played = CliRunner().invoke(
        app,
        ["selfplay", "--variant", "standard", "--games", "1", "--max-year", "1901", "--out", str(tmp_path)],
    )
    assert played.exit_code == 0, played.output
    record = next(tmp_path.glob("standard-*.json"))
    drawn = CliRunner().invoke(app, ["render", str(record), "-o", str(tmp_path / "game.svg")])
    assert drawn.exit_code == 0, drawn.output
    start = CliRunner().invoke(app, ["render", EXAMPLE, "-o", str(tmp_path / "example.svg")])
    assert start.exit_code == 0, start.output
    assert "Fixed link: London (board N) - Paris (board S)" in (tmp_path / "example.svg").read_text()
