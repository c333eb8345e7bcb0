"""The family protocol's answer to a seat that acts out of turn: whose step it is, and when that seat
decides next."""

from __future__ import annotations

from typing import Any

from interboard.games.axis_allies.family import FAMILY

from .harness import build, east_poland_battles, state_of


def refusal(case: dict[str, Any], seat: str) -> str | None:
    return FAMILY.check(state_of(build(case)), seat, ["buy 1 infantry"])[0]


def test_a_seat_out_of_turn_is_told_whose_step_it_is_and_its_own_next_step() -> None:
    case = {"game": "aa_europe_1999", "power": "USSR", "phase": "combat_move"}
    assert refusal(case, "GERMANY") == (
        "'buy 1 infantry': it is the Soviet Union's combat move; "
        "Germany decides next in its own purchase step"
    )
    case = {"game": "aa_europe_1999", "power": "UK", "phase": "noncombat_move", "bought": {"ENGLAND": {}}}
    assert refusal(case, "USA") == (
        "'buy 1 infantry': it is the United Kingdom's non-combat move; "
        "the United States decides next in its own purchase step"
    )
    case = {"game": "aa_europe_1999", "power": "USA", "phase": "place", "bought": {"USA": {"infantry": 1}}}
    assert refusal(case, "USSR") == (
        "'buy 1 infantry': it is the United States' placement; "
        "the Soviet Union decides next in its own purchase step"
    )


def test_the_seat_that_plays_china_is_told_it_decides_next_in_chinas_turn() -> None:
    # Pacific order: Japan, the UK, China, the USA; the USA's seat plays China.
    case = {"game": "aa_pacific_2001", "power": "UK", "phase": "purchase"}
    assert refusal(case, "USA") == (
        "'buy 1 infantry': it is the United Kingdom's purchase; "
        "the United States decides next in China's purchase step"
    )


def test_in_the_initial_placement_a_seat_is_told_of_its_own_placement_or_its_first_turn() -> None:
    state = FAMILY.new_state("aa_linked_world", {}, 1)
    assert FAMILY.check(state, "GERMANY", ["place 1 infantry at Germany"]) == [
        "'place 1 infantry at Germany': it is the Soviet Union's initial placement; "
        "Germany decides next in its own initial placement"
    ]
    assert FAMILY.check(state, "JAPAN", ["buy 1 infantry"]) == [
        "'buy 1 infantry': it is the Soviet Union's initial placement; "
        "Japan decides next in its own purchase step"
    ]


def test_a_seat_a_battle_does_not_ask_is_told_what_the_battle_waits_on() -> None:
    for state in east_poland_battles():
        if FAMILY.pending(state).seats != ("USSR",):
            continue
        battle = "it is Germany's combat: the battle in East Poland waits on the Soviet Union"
        assert FAMILY.check(state, "GERMANY", ["press on"]) == [
            f"'press on': {battle}; Germany decides next when a battle asks it, or in its own non-combat move"
        ]
        assert FAMILY.check(state, "UK", ["buy 1 infantry"]) == [
            f"'buy 1 infantry': {battle}; the United Kingdom decides next in its own purchase step"
        ]
        return
    raise AssertionError("no seed asked the USSR alone for casualties")


def test_a_seat_of_no_power_and_a_game_that_is_over() -> None:
    case = {"game": "aa_europe_1999", "power": "GERMANY", "phase": "purchase"}
    assert refusal(case, "FRANCE") == (
        "'buy 1 infantry': FRANCE is no seat of this game (its seats: GERMANY, USSR, UK, USA)"
    )
    state = {**state_of(build(case)), "phase": "over", "winner": "allies"}
    assert refusal_of(state, "USSR") == "'buy 1 infantry': the game is over: the Allies won"


def refusal_of(state: dict[str, Any], seat: str) -> str | None:
    return FAMILY.check(state, seat, ["buy 1 infantry"])[0]
