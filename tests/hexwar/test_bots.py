"""The hex wargame's heuristic bot: legal orders only, through the protocol, and better than chance."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from interboard.bots.seats import bot_names, default_bot, seat_actions
from interboard.cli.main import app
from interboard.games.hexwar.family import FAMILY


def _duel(seed: int, hero: str) -> tuple[dict[str, object], int]:
    """A game of the heuristic bot in ``hero``'s seat against a random player; every submission of
    the bot is checked as the service checks a player's. Returns the final state and the bot's orders."""
    state = FAMILY.new_state("vernian_wwi", {}, seed)
    orders = 0
    while not FAMILY.pending(state).over:
        pending = FAMILY.pending(state)
        subs = {}
        for seat in pending.seats:
            bot = "heuristic" if seat == hero else "random"
            subs[seat] = seat_actions("hexwar", state, seat, bot, f"{seed}/{seat}")
            if seat == hero:
                assert FAMILY.check(state, seat, subs[seat]) == [None] * len(subs[seat]), (
                    pending.phase,
                    subs[seat],
                )
                orders += len(subs[seat])
        state = FAMILY.process(state, subs).state
    return state, orders


@pytest.mark.parametrize("hero", ["Germany", "Allies"])
def test_the_heuristic_bot_beats_a_random_player_from_either_side(hero: str) -> None:
    for seed in (21, 22):
        state, orders = _duel(seed, hero)
        assert state["winner"] == hero, (seed, state["result"])
        assert orders > 20


def test_the_bot_is_offered_for_the_family_and_takes_empty_seats() -> None:
    assert bot_names("hexwar") == ["heuristic", "random"]
    assert default_bot("hexwar") == "heuristic"


def test_selfplay_runs_the_variant_to_its_end_and_prints_its_table() -> None:
    out = CliRunner().invoke(
        app, ["selfplay", "--variant", "vernian_wwi", "--games", "1", "--bots", "heuristic,random"]
    )
    assert out.exit_code == 0, out.output
    assert "vernian_wwi" in out.output and "heuristic" in out.output and "random" in out.output
