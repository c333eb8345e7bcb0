"""``interboard play global_war``: bots play whole games; people type actions; errors are clear."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from interboard.cli.main import app
from interboard.games.globalwar.record import load_match

runner = CliRunner()


def test_bots_play_a_team_game_to_the_end_and_save_it(tmp_path: Path) -> None:
    save = tmp_path / "gw.json"
    out = runner.invoke(
        app,
        [
            "play",
            "global_war",
            "--teams",
            "--bots",
            "all",
            "--quiet",
            "--seed",
            "4",
            "--fortify",
            "unlimited",
            "--auto",
            "--save",
            str(save),
        ],
    )
    assert out.exit_code == 0, out.output
    assert "Game over after" in out.output
    match = load_match(save)
    assert match.over and match.rules.teams
    assert f"{', '.join(f'P{p + 1}' for p in match.state.winners)} won." in out.output


def test_a_person_types_actions_and_gets_clear_refusals(tmp_path: Path) -> None:
    typed = "\n".join(["deploy 3 Atlantis", "attack Alaska Kamchatka", ":cards", "place Alaska", ":quit"])
    out = runner.invoke(
        app,
        ["play", "classic_world", "--players", "3", "--bots", "P2,P3", "--seed", "2"],
        input=typed + "\n",
    )
    assert out.exit_code == 0, out.output
    assert "unknown country 'atlantis'" in out.output
    assert "refused: wrong phase: cannot attack in the placement phase" in out.output
    assert "no cards" in out.output


def test_bad_options_are_reported() -> None:
    out = runner.invoke(app, ["play", "global_war", "--teams", "--players", "4"])
    assert out.exit_code == 2
    assert "a team game has 6 players" in out.output
    out = runner.invoke(app, ["play", "standard", "--teams"])
    assert out.exit_code == 2
    assert "No such option: --teams" in out.output
    out = runner.invoke(app, ["play", "globalwar"])  # a family, not a variant: the error names the variants
    assert out.exit_code == 2
    assert "'globalwar' is a family" in out.output and "global_war, classic_world" in out.output
