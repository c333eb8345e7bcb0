"""Variants defined by files (``interboard-variant/1``, docs/variants.md): the shipped linked variants
are files, a designer's file is played, drawn, checked and recorded like a built-in, and a file with
errors gets every one at once, each where it is."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from interboard.cli.main import app
from interboard.games import add_variant, find_variant
from interboard.games.diplomacy.variant_file import VariantFileError, variant_from_data
from interboard.games.diplomacy.variants import SHIPPED_FILES, VARIANTS_PACKAGE, get_variant
from interboard.games.protocol import FamilyError
from interboard.games.record import replay

pytestmark = pytest.mark.usefixtures("isolated_variants")

CASES = json.loads((Path(__file__).parent / "variant_files" / "errors.json").read_text(encoding="utf-8"))
SCHEMA = json.loads(
    resources.files("interboard.games.diplomacy.data").joinpath("variant.schema.json").read_text("utf-8")
)
STANDARD_MAP = resources.files("interboard.games.diplomacy.data.maps").joinpath("standard.json")


def shipped(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        resources.files(VARIANTS_PACKAGE).joinpath(f"{name}.json").read_text("utf-8")
    )
    return data


def case_file(changes: dict[str, Any]) -> dict[str, Any]:
    data = dict(CASES["base"])
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


@pytest.mark.parametrize("name", SHIPPED_FILES)
def test_a_shipped_variant_file_follows_the_schema_and_is_the_registered_variant(name: str) -> None:
    data = shipped(name)
    jsonschema.validate(data, SCHEMA)
    variant = get_variant(name)
    assert (variant.id, variant.title) == (data["id"], data["title"])
    assert find_variant(name)[1].definition is None  # shipped with the package: no record needs it


def test_the_schema_says_what_the_reader_refuses() -> None:
    """The schema is the editor's half of the check: what it refuses the reader refuses too."""
    refused = [case for case in CASES["cases"] if case.get("schema_refuses")]
    assert refused
    for case in refused:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(case_file(case["set"]), SCHEMA)
    jsonschema.validate(CASES["base"], SCHEMA)


@pytest.mark.parametrize("case", CASES["cases"], ids=[c["name"] for c in CASES["cases"]])
def test_a_variant_file_with_errors_gets_them_all_where_they_are(
    case: dict[str, Any], tmp_path: Path
) -> None:
    other = json.loads(STANDARD_MAP.read_text("utf-8"))
    other["id"] = "other"
    (tmp_path / "other_map.json").write_text(json.dumps(other), encoding="utf-8")
    with pytest.raises(VariantFileError) as refused:
        variant_from_data(case_file(case["set"]), "case.json", base=tmp_path)
    assert refused.value.problems == case["errors"]
    assert str(refused.value).startswith("case.json: ")


def test_the_base_of_the_error_cases_is_a_good_file() -> None:
    variant = variant_from_data(case_file({}), "case.json")
    assert len(variant.board.powers) == 14 and variant.board.boards == ("Y", "Z")


def designed(tmp_path: Path, links: list[list[str]], vid: str = "tunnel_earths") -> Path:
    """A designer's variant: the standard map from a file beside it, joined to the shipped one by
    fixed links, one power per board. (The tests share a process, whose variants are added for good:
    each test has an id of its own.)"""
    (tmp_path / "my_map.json").write_text(STANDARD_MAP.read_text("utf-8"), encoding="utf-8")
    path = tmp_path / "tunnel_earths.json"
    path.write_text(
        json.dumps(
            {
                "format": "interboard-variant/1",
                "family": "diplomacy",
                "id": vid,
                "title": "Tunnel Earths",
                "boards": [{"name": "N", "map": "standard"}, {"name": "S", "file": "my_map.json"}],
                "powers": "one per board",
                "links": links,
                "start": {"year": 1900, "opening": "adjustments"},
                "victory": {"centres": 35},
            }
        ),
        encoding="utf-8",
    )
    return path


def test_a_designers_file_is_played_recorded_and_replayed_after_the_file_changes(tmp_path: Path) -> None:
    path = designed(tmp_path, [["LON-N", "PAR-S"], ["NTH-N", "NTH-S"]])
    out = tmp_path / "games"
    runner = CliRunner()
    played = runner.invoke(
        app, ["selfplay", "--variant", str(path), "--games", "1", "--max-year", "1902", "--out", str(out)]
    )
    assert played.exit_code == 0, played.output
    record_path = next(out.glob("tunnel_earths-*.json"))
    record = json.loads(record_path.read_text(encoding="utf-8"))
    kept = record["variant_definition"]
    assert "map_data" in kept["boards"][1] and "file" not in kept["boards"][1]
    board = get_variant("tunnel_earths").board
    lon, par = board.location_by_id["LON-N"], board.location_by_id["PAR-S"]
    assert par in board.army_adj[lon] and par not in board.fleet_adj[lon]  # a fleet cannot land in Paris
    nth_n, nth_s = board.location_by_id["NTH-N"], board.location_by_id["NTH-S"]
    assert nth_s in board.fleet_adj[nth_n]
    # The file changes; the record replays from what it kept, in a process that never saw the file.
    designed(tmp_path, [["MUN-N", "MUN-S"]])
    (tmp_path / "my_map.json").unlink()
    again = subprocess.run(
        [sys.executable, "-m", "interboard.cli.main", "replay", str(record_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert again.returncode == 0, again.stderr
    assert "0 with differences" in again.stdout
    assert replay(record).to_json()["steps"] == record["steps"]


def test_a_variant_id_is_one_definition(tmp_path: Path) -> None:
    path = designed(tmp_path, [["LON-N", "PAR-S"]], "defined_earths")
    definition = json.loads(path.read_text(encoding="utf-8"))
    definition["id"] = "same_twice"
    _, first = add_variant(definition, "a.json", tmp_path)
    _, second = add_variant(definition, "b.json", tmp_path)
    assert first == second
    with pytest.raises(FamilyError, match=r"c\.json: id: 'same_twice' is taken by another variant file"):
        add_variant({**definition, "links": []}, "c.json", tmp_path)
    with pytest.raises(FamilyError, match=r"d\.json: id: 'standard' is taken by a built-in variant"):
        add_variant({**definition, "id": "standard"}, "d.json", tmp_path)


def test_variant_check_runs_the_conformance_suite_on_a_file_and_reports_every_error(tmp_path: Path) -> None:
    runner = CliRunner()
    good_file = designed(tmp_path, [["LON-N", "PAR-S"]], "checked_earths")
    good = runner.invoke(app, ["variant", "check", str(good_file), "--steps", "12"])
    assert good.exit_code == 0, good.output
    assert "checked_earths, Tunnel Earths: 14 powers" in good.output and "conformance: passed" in good.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(case_file({"id": "Bad", "links": [["MUN-Q", "LON-Y"]]})), encoding="utf-8")
    refused = runner.invoke(app, ["variant", "check", str(bad)])
    assert refused.exit_code == 1
    assert "bad.json: 2 errors:" in refused.output
    assert "links[0][0]: no place 'MUN-Q' on any board; boards are Y, Z" in refused.output
    assert "Traceback" not in refused.output


def test_a_variant_file_is_drawn_like_a_variant(tmp_path: Path) -> None:
    svg = tmp_path / "start.svg"
    drawn = CliRunner().invoke(
        app, ["render", str(designed(tmp_path, [["LON-N", "PAR-S"]], "drawn_earths")), "-o", str(svg)]
    )
    assert drawn.exit_code == 0, drawn.output
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<svg") and "Tunnel Earths" in text
    for place in ("LON-N", "LON-S", "STP-S"):
        assert place in text


def test_a_files_fixed_links_are_printed_adjacencies_drawn_on_the_map(tmp_path: Path) -> None:
    """A fixed link is part of the printed geography, as a map file's adjacency is: the drawing shows
    each one (the twin North Seas too: only a geography that joins every space to its twin says so
    in a note instead), and link orders are laid over a geography that has them."""
    path = designed(tmp_path, [["LON-N", "PAR-S"], ["NTH-N", "NTH-S"]], "fixed_drawn_earths")
    svg = tmp_path / "start.svg"
    drawn = CliRunner().invoke(app, ["render", str(path), "-o", str(svg)])
    assert drawn.exit_code == 0, drawn.output
    text = svg.read_text(encoding="utf-8")
    assert "Fixed link: London (board N) - Paris (board S)" in text
    assert "Fixed link: North Sea (board N) - North Sea (board S)" in text
    assert text.count("Fixed link:") == 2
    assert "Every space is also adjacent" not in text
    board = get_variant("fixed_drawn_earths").board
    assert board.base is board
    lon, par = board.location_by_id["LON-N"], board.location_by_id["PAR-S"]
    assert par in board.base.army_adj[lon]
    twin_earths = CliRunner().invoke(app, ["render", "twin_earths_1", "-o", str(svg)])
    assert twin_earths.exit_code == 0, twin_earths.output
    text = svg.read_text(encoding="utf-8")
    assert "Every space is also adjacent" in text and "Fixed link:" not in text
