"""The case-file reader (``testsuite.py``): the jDip / godip forms it accepts and the errors it gives,
and the errors found when test_cases turns a case's text into its first position."""

from __future__ import annotations

import re

import pytest

from interboard.games.diplomacy.testsuite import CaseFileError, CaseLine, PriorResult, parse_cases
from interboard.games.diplomacy.variants import get_variant

from .test_cases import _initial

BUILD = """\
CASE b1 Builds
PRESTATE_SETPHASE Fall 1901, Adjustment
PRESTATE_SUPPLYCENTER_OWNERS
  France: A bre
  France: F par
  Russia: f stp/nc
  Russia: Finland
ORDERS
  France: Build A par
POSTSTATE_SUPPLYCENTER_OWNERS
  France: A Brest
  France: Paris
END
"""


def test_centre_owners_with_a_unit_letter_name_the_centre() -> None:
    (case,) = parse_cases(BUILD, "b.txt")
    assert case.prestate_centres == ["France: bre", "France: par", "Russia: stp/nc", "Russia: Finland"]
    assert case.blocks[0].centres[""] == ["France: Brest", "France: Paris"]


def test_errors_name_the_file_and_line() -> None:
    with pytest.raises(CaseFileError, match=r"^b\.txt:3: 'Germany: A kie' outside a section$"):
        parse_cases("CASE b1 x\nPRESTATE_SETPHASE Fall 1901, Adjustment\nGermany: A kie\nEND\n", "b.txt")


def test_a_comment_may_follow_a_line() -> None:
    text = """\
CASE c1 Comments  # after the title
PRESTATE_SETPHASE Fall 1901, Adjustment\t\t# jDip's Fall adjustment
PRESTATE_SUPPLYCENTER_OWNERS
\tGermany: A kie\t# one centre
  # a comment line
ORDERS
\tGermany: Build A kie\t\t# succeeds
END
"""
    (case,) = parse_cases(text, "c.txt")
    assert case.title == "Comments"
    assert case.blocks[0].phase == "Fall 1901, Adjustment"
    assert case.prestate_centres == ["Germany: kie"]
    assert case.blocks[0].orders == ["Germany: Build A kie"]


RETREAT = """\
CASE r1 Retreat
PRESTATE_SETPHASE Spring 1902, Retreat
PRESTATE
  Austria: A mun
PRESTATE_DISLODGED
  Germany: A mun
PRESTATE_RESULTS
  SUCCESS: Austria: A tyr - mun
  FAILURE: Germany: A mun H
ORDERS
  Germany: A mun - boh
END
"""


def test_dislodged_units_and_prior_results_keep_their_line_numbers() -> None:
    (case,) = parse_cases(RETREAT, "r.txt")
    assert case.prestate_dislodged == [CaseLine(6, "Germany: A mun")]
    assert case.prestate_results == [
        PriorResult(8, True, "Austria: A tyr - mun"),
        PriorResult(9, False, "Germany: A mun H"),
    ]
    (dislodged,) = _initial(case).dislodged
    board = get_variant("standard").board
    assert (dislodged.unit.power, board.locations[dislodged.unit.loc].id) == ("GERMANY", "MUN")
    assert board.spaces[dislodged.attacker_from].id == "TYR"
    # Every empty neighbour but Tyrolia, where the attacker came from.
    assert sorted(board.locations[x].id for x in dislodged.retreats) == [
        "BER",
        "BOH",
        "BUR",
        "KIE",
        "RUH",
        "SIL",
    ]


@pytest.mark.parametrize(
    "results",
    ["", "PRESTATE_RESULTS\n  SUCCESS: Austria: A boh\n  FAILURE: Germany: A mun H\n"],
    ids=["no-results", "no-move-into-its-space"],
)
def test_a_dislodged_unit_whose_attacker_is_not_given_may_retreat_to_any_empty_neighbour(
    results: str,
) -> None:
    """jDip's PRESTATE_RESULTS are optional, and its real-game cases list units, not moves."""
    old = "PRESTATE_RESULTS\n  SUCCESS: Austria: A tyr - mun\n  FAILURE: Germany: A mun H\n"
    (case,) = parse_cases(_edit(old, results), "r.txt")
    (dislodged,) = _initial(case).dislodged
    board = get_variant("standard").board
    assert dislodged.attacker_from == board.locations[dislodged.unit.loc].space
    assert "TYR" in {board.locations[x].id for x in dislodged.retreats}


def _edit(old: str, new: str) -> str:
    assert RETREAT.count(old) == 1
    return RETREAT.replace(old, new)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (
            _edit("Germany: A mun\n", "Germany: mun\n"),
            "r.txt:6: a dislodged unit is written 'Power: A place'",
        ),
        (
            _edit("Germany: A mun\n", "Germany A mun\n"),
            "r.txt:6: a dislodged unit is written 'Power: A place'",
        ),
        (_edit("SUCCESS: Austria", "Austria"), "r.txt:8: a prior result is written 'SUCCESS: Power: order'"),
        (_edit("SUCCESS: Austria", "SUCCESS Austria"), "r.txt:8: a prior result is written"),
        (
            _edit("1902, Retreat", "1902, Movement"),
            "r.txt:5: PRESTATE_DISLODGED is for a case that starts in a retreat phase",
        ),
        (
            "CASE r2 x\nPRESTATE_DISLODGED\n  Germany: A mun\nEND\n",
            "r.txt:2: PRESTATE_DISLODGED is for a case that starts in a retreat phase",
        ),
    ],
)
def test_a_malformed_retreat_setup_names_its_line(text: str, error: str) -> None:
    with pytest.raises(CaseFileError, match="^" + re.escape(error)):
        parse_cases(text, "r.txt")


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (
            _edit("Germany: A mun\n", "Germany: A xyz\n"),
            "r.txt:6: PRESTATE_DISLODGED: 'A xyz': unknown place 'xyz'",
        ),
        (
            _edit("Germany: A mun\n", "Germny: A mun\n"),
            "r.txt:6: PRESTATE_DISLODGED: 'Germny': unknown power",
        ),
        (
            _edit("Germany: A mun\n", "Germany: A boh\n"),
            "r.txt:6: PRESTATE_DISLODGED: no PRESTATE unit in Bohemia, where",
        ),
        (
            _edit("Germany: A mun\n", "Germany: A mun\n  Italy: A mun\n"),
            "r.txt:7: PRESTATE_DISLODGED: a second dislodged unit in Munich",
        ),
        (
            _edit("FAILURE: Germany: A mun H", "SUCCESS: Italy: A boh - mun"),
            "r.txt:9: PRESTATE_RESULTS: a second SUCCESS move into Munich",
        ),
        (
            _edit("A tyr - mun", "A tyr - xyz"),
            "r.txt:8: PRESTATE_RESULTS: 'A tyr - xyz': unknown place 'xyz'",
        ),
    ],
)
def test_a_retreat_setup_that_does_not_fit_the_board_names_its_line(text: str, error: str) -> None:
    (case,) = parse_cases(text, "r.txt")
    with pytest.raises(CaseFileError, match="^" + re.escape(error)):
        _initial(case)
