"""Scenario files (``interboard-scenario/1``, docs/scenarios.md): the documented scenario of every
family plays from the command line; broken scenarios get an error naming the field and the rule;
any decision point of a record is written out as a scenario that starts a game at that point."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interboard.cli.main import app
from interboard.games import find_variant
from interboard.games import scenario as scenarios
from interboard.games.record import replay

from .scenario_files import load_cases

DOCS = Path(__file__).parent.parent / "docs" / "scenarios"
DOCUMENTED = sorted(DOCS.glob("*.json"))
BROKEN = load_cases(Path(__file__).parent / "scenarios")
runner = CliRunner()


def test_every_family_has_a_documented_scenario() -> None:
    families = {find_variant(scenarios.load(path).variant)[0].name for path in DOCUMENTED}
    assert families == {"diplomacy", "globalwar", "axis_allies", "hexwar"}


@pytest.mark.parametrize("path", DOCUMENTED, ids=lambda p: p.stem)
def test_a_documented_scenario_starts_where_it_says(path: Path) -> None:
    chosen = scenarios.load(path)
    fam, _ = find_variant(chosen.variant)
    state = scenarios.start_state(chosen, 1)
    written = fam.position(state)
    for key, value in chosen.position.items():  # each given field stands as written (names aside)
        if key in ("round", "power", "phase", "turn", "side", "current", "stage"):
            assert written[key] == value, key
    again = fam.scenario(chosen.variant, chosen.options, 1, written)
    assert fam.position(again) == written


@pytest.mark.parametrize("path", DOCUMENTED, ids=lambda p: p.stem)
def test_a_documented_scenario_plays_from_the_command_line(path: Path, tmp_path: Path) -> None:
    variant = json.loads(path.read_text(encoding="utf-8"))["variant"]
    record = tmp_path / "game.json"
    play = ["play", variant, "--scenario", str(path), "--bots", "all", "--max-steps", "2", "--quiet"]
    out = runner.invoke(app, [*play, "--save", str(record)])
    assert out.exit_code == 0, out.output
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert saved["scenario"] == scenarios.load(path).position
    match = replay(saved, "record")  # the record starts from the scenario again
    assert len(match.steps) == 2


@pytest.mark.parametrize("case", BROKEN, ids=lambda c: c["name"])
def test_a_broken_scenario_gets_an_error_naming_the_field_and_the_rule(case: dict[str, Any]) -> None:
    with pytest.raises(scenarios.ScenarioError) as caught:
        chosen = scenarios.read(case["scenario"], "broken.json")
        scenarios.start_state(chosen, 1)
    assert case["error"] in str(caught.value)
    assert str(caught.value).startswith("broken.json: ")


def test_a_broken_scenario_file_is_refused_by_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(BROKEN[-1]["scenario"]), encoding="utf-8")
    variant = BROKEN[-1]["scenario"]["variant"]
    out = runner.invoke(app, ["play", variant, "--scenario", str(path)])
    assert out.exit_code == 2 and "the card of Alaska is held twice" in out.output
    out = runner.invoke(app, ["scenario", "check", str(path)])
    assert out.exit_code == 2 and "held twice" in out.output
    path.write_text("{not json", encoding="utf-8")
    out = runner.invoke(app, ["scenario", "check", str(path)])
    assert out.exit_code == 2 and "line 1 column 2: not JSON" in out.output


def test_a_scenario_of_another_variant_is_refused() -> None:
    out = runner.invoke(app, ["play", "standard", "--scenario", str(DOCUMENTED[0])])
    assert out.exit_code == 2 and "not standard" in out.output


@pytest.mark.parametrize("variant", ["aa_europe_1999", "vernian_wwi", "global_war", "standard"])
def test_any_decision_point_of_a_record_is_exported_as_a_scenario(variant: str, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    # Global War's and Diplomacy's own plays save their own record formats: their games are begun
    # from their documented scenarios, through the generic play (a record that keeps its scenario).
    own = variant in ("global_war", "standard")
    start = ["--scenario", str(DOCS / f"{variant}.json")] if own else []
    out = runner.invoke(
        app, ["play", variant, *start, "--bots", "all", "--max-steps", "6", "--quiet", "--save", str(record)]
    )
    assert out.exit_code == 0, out.output
    data = json.loads(record.read_text(encoding="utf-8"))
    at = replay(data, "record", until=4)
    for named in ("4", at.family.pending(at.state).phase):
        target = tmp_path / f"at-{named}.json"
        out = runner.invoke(app, ["scenario", "export", str(record), "--at", named, "--out", str(target)])
        assert out.exit_code == 0, out.output
        chosen = scenarios.load(target)
        started = scenarios.start_state(chosen, chosen.seed or 1)
        assert at.family.position(started) == at.family.position(at.state)
        assert at.family.pending(started).seats == at.family.pending(at.state).seats
    out = runner.invoke(app, ["scenario", "export", str(record), "--at", "99"])
    assert out.exit_code == 2 and "never reaches decision point 99" in out.output
