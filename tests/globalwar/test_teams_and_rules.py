"""Team standings across games, rule options and action text."""

from __future__ import annotations

import pytest

from interboard.games.globalwar import (
    ActionSyntaxError,
    Attack,
    FinishedGame,
    OptionError,
    Rules,
    Standing,
    new_game,
    parse_action,
    partner_of,
    standings,
)
from interboard.games.globalwar.actions import GiveContinent


def test_standings_award_surviving_winners_only() -> None:
    games = [
        FinishedGame(("ann", "bob", "cy", "dee", "eve", "fay"), ("ann", "dee")),  # both partners survived
        FinishedGame(("ann", "bob", "cy", "dee", "eve", "fay"), ("bob",)),  # bob's partner eve was out
        FinishedGame(("ann", "bob", "cy"), ("cy",)),
    ]
    table = standings(games, points_per_win=10)
    assert table[:3] == [Standing("ann", 10, 3, 1), Standing("bob", 10, 3, 1), Standing("cy", 10, 3, 1)]
    assert Standing("eve", 0, 2, 0) in table and Standing("dee", 10, 2, 1) in table
    with pytest.raises(ValueError, match="did not play"):
        standings([FinishedGame(("ann",), ("zed",))])


def test_partners_are_three_seats_apart() -> None:
    rules = Rules(players=6, teams=True)
    assert [partner_of(rules, p) for p in range(6)] == [3, 4, 5, 0, 1, 2]
    assert partner_of(Rules(players=6), 0) is None


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 4, "teams": True}, "a team game has 6 players (3 teams of 2), not 4"),
        ({"players": 2}, "a game has 3 to 6 players, not 2"),
        ({"map": "mars"}, "unknown map 'mars'"),
    ],
)
def test_bad_rules_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Rules(**options)  # type: ignore[arg-type]


def test_rules_from_json() -> None:
    rules = Rules(players=6, teams=True, non_sequential=True)
    assert Rules.from_json(rules.to_json()) == rules
    with pytest.raises(OptionError, match="fortification must be one of"):
        Rules.from_json({"fortification": "total"})
    with pytest.raises(OptionError, match="unknown rule option"):
        Rules.from_json({"dice": 4})
    with pytest.raises(OptionError, match="'teams' must be bool"):
        Rules.from_json({"teams": "yes"})


def test_names_of_several_words_and_dots() -> None:
    state = new_game(Rules(players=3), 1)
    names = state.world.names
    assert parse_action(state, "attack W. U.S. E. U.S 2") == Attack(
        names.index("W. U.S."), names.index("E. U.S"), 2
    )
    assert parse_action(state, "ATTACK wus eus") == Attack(
        names.index("W. U.S."), names.index("E. U.S"), None
    )
    assert parse_action(state, "attack West US Mexico") == Attack(
        names.index("W. U.S."), names.index("Mexico")
    )
    assert parse_action(state, "give continent north america") == GiveContinent(0)
    with pytest.raises(ActionSyntaxError, match="unknown country 'alsaka'"):
        parse_action(state, "attack Alsaka Kamchatka 3")
    with pytest.raises(ActionSyntaxError, match="unexpected 'now' at the end"):
        parse_action(state, "end turn now")
    with pytest.raises(ActionSyntaxError, match="say 'end attack' or 'end turn'"):
        parse_action(state, "end game")
