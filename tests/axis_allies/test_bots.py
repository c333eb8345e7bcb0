"""The Axis & Allies bots through the family protocol: every text they send is accepted, and the
calculator weighs its attacks."""

from __future__ import annotations

from typing import Any

import pytest

from interboard.games.axis_allies.bots import calculator, turtle
from interboard.games.axis_allies.family import FAMILY

from .harness import build, state_of


@pytest.mark.parametrize("variant", ["aa_europe_1999", "aa_pacific_2001", "aa_linked_world"])
def test_every_text_the_bots_send_is_accepted(variant: str) -> None:
    state = FAMILY.new_state(variant, {}, 11)
    for step in range(40):
        pending = FAMILY.pending(state)
        if pending.over:
            break
        subs: dict[str, list[str]] = {}
        for k, seat in enumerate(pending.seats):
            bot = calculator if (step + k) % 3 else turtle
            subs[seat] = bot(state, seat, f"test/{seat}")
            assert FAMILY.check(state, seat, subs[seat]) == [None] * len(subs[seat]), (
                pending.phase,
                subs[seat],
            )
        state = FAMILY.process(state, subs).state


def _moves(case: dict[str, Any]) -> list[str]:
    state = state_of(build(case))
    return calculator(state, case["power"], "test")


def test_the_calculator_takes_an_undefended_neighbour() -> None:
    texts = _moves(
        {
            "game": "aa_europe_1999",
            "power": "GERMANY",
            "phase": "combat_move",
            "units": ["GERMANY 1 armour Poland", "USSR 1 infantry Moscow"],
        }
    )
    assert any(t.startswith("move 1 armour from Poland to ") for t in texts), texts


def test_the_calculator_attacks_when_the_odds_are_good() -> None:
    texts = _moves(
        {
            "game": "aa_europe_1999",
            "power": "GERMANY",
            "phase": "combat_move",
            "units": ["GERMANY 6 armour Poland", "USSR 2 infantry East Poland", "USSR 1 infantry Moscow"],
        }
    )
    assert sum(t.endswith(" to East Poland") for t in texts) >= 2, texts


def test_the_calculator_declines_a_hopeless_attack() -> None:
    texts = _moves(
        {
            "game": "aa_europe_1999",
            "power": "GERMANY",
            "phase": "combat_move",
            "units": [
                "GERMANY 1 infantry Poland",
                "USSR 6 infantry Belorussia",
                "USSR 6 infantry East Poland",
                "USSR 6 infantry Ukraine S.S.R.",
                "USSR 1 infantry Moscow",
            ],
            "owner": {"EAST_POLAND": "USSR", "BALTIC_STATES": "GERMANY"},
        }
    )
    assert not any(" to Belorussia" in t or " to East Poland" in t or " to Ukraine" in t for t in texts), (
        texts
    )


def test_the_calculator_buys_infantry_when_its_capital_is_threatened() -> None:
    texts = _moves(
        {
            "game": "aa_europe_1999",
            "power": "USSR",
            "phase": "purchase",
            "units": ["USSR 1 infantry Moscow", "GERMANY 8 armour Russia", "GERMANY 1 infantry Germany"],
            "owner": {"RUSSIA": "GERMANY"},
            "ipcs": {"USSR": 24},
        }
    )
    assert texts == ["buy 8 infantry"], texts


def test_the_turtle_never_moves() -> None:
    state = state_of(build({"game": "aa_europe_1999", "power": "GERMANY", "phase": "combat_move"}))
    assert turtle(state, "GERMANY", "test") == []
