"""Whole-game behaviour through the public interface: phases, centres, retreats, adjustments, victory."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from interboard.board import load_packaged_board
from interboard.games.diplomacy import (
    IllegalOrderError,
    Phase,
    PhaseKind,
    Position,
    Rulebook,
    Season,
    Unit,
    parse_order,
    parse_unit,
)
from interboard.games.diplomacy.game import Game
from interboard.games.diplomacy.validate import check_order

B = load_packaged_board("interboard.games.diplomacy.data.maps", "standard")


def test_phase_sequence_and_centre_capture() -> None:
    game = Game.new()
    game.process_text(["France: A Par - Bur", "England: F Lon - Nth"])
    assert game.position.phase.name == "F1901M"
    game.process_text(["France: A Bur - Bel", "England: F Nth - Hol"])
    # Fall: centres change hands, and the builds are due in Winter.
    assert game.position.phase.name == "W1901A"
    assert game.position.centres[B.space("BEL").index] == "FRANCE"
    assert game.position.centres[B.space("HOL").index] == "ENGLAND"
    game.process_text(["France: Build A Paris", "England: Build F London"])
    assert game.position.phase.name == "S1902M"
    assert len(game.position.units_of("FRANCE")) == 4
    assert len(game.position.units_of("ENGLAND")) == 4


@pytest.mark.parametrize("year", [1, 64, 901, 1901, 2000])
def test_a_phase_of_any_year_reads_back_from_its_names(year: int) -> None:
    """A map may begin in any year (MILA's ancmed in 1, known_world_901 in 901): a saved game's
    phase names read back whatever the year's digits."""
    for season, kind in ((Season.SPRING, PhaseKind.MOVEMENT), (Season.WINTER, PhaseKind.ADJUSTMENTS)):
        phase = Phase(year, season, kind)
        assert Phase.parse(phase.name) == phase
        assert Phase.parse(phase.long_name) == phase
    with pytest.raises(ValueError, match="not a phase"):
        Phase.parse("S19011M")


def test_adjustment_phase_skipped_when_nothing_changes() -> None:
    game = Game.new()
    game.process([])
    game.process([])
    assert game.position.phase == Phase.parse("S1902M")


def test_retreat_then_disband_by_default() -> None:
    start = Game.new().position
    units = ["GERMANY: A Boh", "GERMANY: A Tyr", "AUSTRIA: A Vie", "AUSTRIA: A Bud", "AUSTRIA: F Tri"]
    game = Game(Game.new().variant, Rulebook(), _position(units, {}, "F1901M"))
    game.position = Position(game.position.phase, game.position.units, dict(start.centres))
    game.process_text(["Germany: A Boh - Vie", "Germany: A Tyr S A Boh - Vie", "Austria: A Vie H"])
    assert game.position.phase.name == "F1901R"
    [d] = game.position.dislodged
    assert (d.unit.power, B.locations[d.unit.loc].id) == ("AUSTRIA", "VIE")
    # Not Bohemia (the attacker came from there), not Budapest or Trieste (occupied), not Tyrolia.
    assert sorted(B.locations[x].id for x in d.retreats) == ["GAL"]
    outcome = game.process([])  # no retreat order: the unit is disbanded
    assert len(game.position.units_of("AUSTRIA")) == 2
    [default] = [r for r in outcome.results if r.power == "AUSTRIA"]
    assert default.reason is not None and default.reason.value == "not ordered"
    # Vienna changed hands in the Fall; Germany (2 units, 4 centres) builds.
    assert game.position.phase.name == "W1901A"
    assert game.position.centres[B.space("VIE").index] == "GERMANY"


def _position(units: list[str], centres: dict[str, list[str]], phase: str = "F1905M") -> Position:
    out = {}
    for text in units:
        power, _, unit = text.partition(":")
        kind, loc = parse_unit(B, unit.strip())
        out[B.locations[loc].space] = Unit(power.strip(), kind, loc)
    owners = {B.space(c).index: p for p, cs in centres.items() for c in cs}
    return Position(Phase.parse(phase), out, owners)


def test_victory_at_eighteen_centres() -> None:
    france = [
        "BRE",
        "MAR",
        "PAR",
        "SPA",
        "POR",
        "BEL",
        "HOL",
        "LON",
        "LVP",
        "EDI",
        "NWY",
        "SWE",
        "DEN",
        "KIE",
        "BER",
        "MUN",
        "ROM",
    ]
    pos = _position(["FRANCE: A Ruh", "FRANCE: A Bur"], {"FRANCE": france, "ITALY": ["VEN", "NAP"]})
    game = Game(Game.new().variant, Rulebook(), pos)
    game.process_text(["France: A Ruh - Hol", "France: A Bur - Mun"])
    assert not game.over  # moving among own centres gains nothing
    pos = _position(["FRANCE: A Tyr"], {"FRANCE": france, "ITALY": ["VEN", "NAP"]})
    game = Game(Game.new().variant, Rulebook(), pos)
    outcome = game.process_text(["France: A Tyr - Ven"])
    assert outcome.winners == ("FRANCE",)
    assert game.over
    with pytest.raises(IllegalOrderError, match="the game is over"):
        game.process([])


def test_elimination() -> None:
    pos = _position(["FRANCE: A Ruh", "GERMANY: A Mun"], {"FRANCE": ["PAR"], "GERMANY": []})
    game = Game(Game.new().variant, Rulebook(), pos)
    game.process_text(
        ["France: A Ruh - Mun"],
    )  # bounce with the holding army: nothing happens
    assert "GERMANY" not in game.position.eliminated
    pos = _position(
        ["FRANCE: A Ruh", "FRANCE: A Bur", "GERMANY: A Mun"], {"FRANCE": ["PAR"], "GERMANY": ["MUN"]}
    )
    game = Game(Game.new().variant, Rulebook(), pos)
    game.process_text(["France: A Ruh - Mun", "France: A Bur S A Ruh - Mun"])
    game.process([])  # the German army has nowhere it must go: disbanded
    assert "GERMANY" in game.position.eliminated


@pytest.mark.parametrize(
    ("order", "power", "message"),
    [
        ("A Par - Mun", "FRANCE", "Munich cannot be reached from Paris"),
        ("A Par - Bur", "GERMANY", "the unit in Paris belongs to FRANCE"),
        ("A Pic - Bel", "FRANCE", "there is no unit in Picardy"),
        ("F Bre - Par", "FRANCE", "a fleet cannot move inland (Paris)"),
        ("A Par - Eng", "FRANCE", "an army cannot move to the sea"),
        ("F Bre - Bre", "FRANCE", "cannot move to the province it is in"),
        ("F Bre - Lyo", "FRANCE", "a fleet cannot move to LYO from here"),
        ("F Mar - Lyo", "FRANCE", "the unit in Marseilles is an army"),
    ],
)
def test_check_order_refuses_with_reason(order: str, power: str, message: str) -> None:
    start = Game.new().position
    with pytest.raises(IllegalOrderError) as info:
        check_order(B, start, power, parse_order(B, order))
    assert message in str(info.value)


def test_check_order_accepts_legal() -> None:
    start = Game.new().position
    check_order(B, start, "FRANCE", parse_order(B, "A Par - Bur"))
    check_order(B, start, "RUSSIA", parse_order(B, "F StP/sc - Bot"))


def test_acting_powers_of_each_phase() -> None:
    """Who orders: powers with units, dislodged units or adjustments due; and, in the phase where the
    rules let players make links, every power still in the game, with or without units."""
    game = Game.new("standard")
    assert len(game.acting) == 7
    game.process_text(["France: A Par - Bur", "Germany: A Mun - Ruh", "Germany: F Kie - Hol"])
    game.process_text(["France: A Bur - Mun", "Germany: A Ruh - Bel"])
    assert game.position.phase.name == "W1901A"
    assert game.acting == ["FRANCE", "GERMANY"]  # one build each; nobody else has anything to do
    assert len(Game.new("twin_earths_3").acting) == 14  # Winter 1900: builds, and links for everyone
    hyperspace = Game.new("hyperspace_2")
    pos = hyperspace.position
    hyperspace.position = replace(pos, units={s: u for s, u in pos.units.items() if u.power != "ITALY"})
    assert "ITALY" in hyperspace.acting  # links are ordered in Spring and Fall, with units or none


def test_the_family_shares_a_states_decoding_only_with_calls_that_read_it() -> None:
    """The family decodes a state once for the calls that read it (checks, trees, views); processing
    plays on a game of its own, so the state's answers are the same after it as before."""
    from interboard.games import family
    from interboard.games.diplomacy.record import game_to_json

    diplomacy = family("diplomacy")
    state = game_to_json(Game.new("standard"))
    orders = ["A Par - Bur", "A Mar - Spa", "F Bre - Mao"]

    def answers(state: dict[str, Any]) -> tuple[Any, ...]:
        return (
            diplomacy.view(state),
            diplomacy.options(state, "FRANCE"),
            diplomacy.check(state, "FRANCE", orders),
        )

    before = answers(state)
    processed = diplomacy.process(state, {"FRANCE": orders})
    assert processed.state["position"]["phase"] != state["position"]["phase"]
    assert answers(state) == before
    assert before[2] == [None, None, None] and diplomacy.view(processed.state) != before[0]
    # A state of equal value but another object is decoded anew: the answers are the same.
    copy = json.loads(json.dumps(state))
    far = ["A Par - Mun"]
    assert diplomacy.check(copy, "FRANCE", far) == diplomacy.check(state, "FRANCE", far) != [None]
