"""The case-file reader (``testsuite.py``): the jDip / godip forms it accepts and the errors it gives."""

from __future__ import annotations

import pytest

from interboard.games.diplomacy.testsuite import CaseFileError, parse_cases

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
