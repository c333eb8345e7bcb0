"""Every adjudication case file in tests/diplomacy/cases, one test per case and edition.

Each case checks every order's result and the complete position after each phase (units,
dislodged units and, where given, centre owners).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interboard.board import load_shipped_board
from interboard.diplomacy import (
    OrderError,
    Phase,
    PhaseKind,
    Position,
    Rulebook,
    Unit,
    format_order,
    parse_place,
    parse_power_order,
    parse_unit,
    resolve_power,
    step,
)
from interboard.diplomacy.state import Dislodged, starting_position
from interboard.formats.testsuite import Case, read_cases

CASES_DIR = Path(__file__).parent / "cases"
BOARD = load_shipped_board("standard")
EDITIONS = ("2023", "2000")


def _all_cases() -> list[tuple[Case, str]]:
    out = []
    for path in sorted(CASES_DIR.glob("*.txt")):
        for case in read_cases(path):
            for edition in EDITIONS:
                if not case.editions or edition in case.editions:
                    out.append((case, edition))
    return out


ALL = _all_cases()


def _unit(line: str) -> tuple[str, Unit]:
    power_name, _, text = line.partition(":")
    power = resolve_power(BOARD, power_name)
    kind, loc = parse_unit(BOARD, text.strip())
    return power, Unit(power, kind, loc)


def _space(place: str) -> int:
    return BOARD.locations[parse_place(BOARD, place.strip())].space


def _unit_key(u: Unit) -> str:
    return f"{u.power} {u.kind.value} {BOARD.locations[u.loc].id}"


def _initial(case: Case) -> Position:
    phase = Phase.parse(case.blocks[0].phase)
    units = {}
    for line in case.prestate:
        _, unit = _unit(line)
        units[BOARD.locations[unit.loc].space] = unit
    if case.prestate_centres is None:
        centres = dict(starting_position(BOARD).centres)
    else:
        centres = {}
        for line in case.prestate_centres:
            power_name, _, place = line.partition(":")
            centres[_space(place)] = resolve_power(BOARD, power_name)
    return Position(phase, units, centres)


@pytest.mark.parametrize(("case", "edition"), ALL, ids=[f"{c.id}[{e}]" for c, e in ALL])
def test_case(case: Case, edition: str) -> None:
    rulebook = Rulebook.of(edition)
    position = _initial(case)
    for block in case.blocks:
        assert position.phase == Phase.parse(block.phase), f"{case.id}: the case expects phase {block.phase}"
        parsed = []
        unparsable = set()
        for line in block.orders:
            try:
                po = parse_power_order(BOARD, line, position.phase.kind)
            except OrderError:
                unparsable.add(line)
                continue
            assert po.power is not None, f"{line!r} names no power"
            parsed.append((line, po.power, po.order))
        outcome = step(BOARD, position, [(p, o) for _, p, o in parsed], rulebook)

        expected_results = block.expected(block.results, edition)
        if expected_results is not None:
            assert isinstance(expected_results, dict)
            assert set(expected_results) == set(block.orders), "RESULTS must list every order"
            got = {}
            unclaimed = list(outcome.results)  # the same order given twice has two results
            for line, power, order in parsed:
                match = [r for r in unclaimed if r.power == power and r.order == order]
                assert match, f"no result for {line!r}"
                unclaimed.remove(match[0])
                got[line] = "SUCCEEDS" if match[0].succeeded and match[0].reason is None else "FAILS"
            for line in unparsable:
                got[line] = "FAILS"
            wrong = {k: (v, got[k]) for k, v in expected_results.items() if got[k] != v}
            detail = {
                format_order(BOARD, r.order): (r.succeeded, r.reason and r.reason.value, r.message)
                for r in outcome.results
            }
            assert not wrong, f"(expected, got) {wrong}; all results: {detail}"

        expected_post = block.expected(block.poststate, edition)
        if expected_post is not None:
            assert isinstance(expected_post, list)
            want = sorted(_unit_key(_unit(x)[1]) for x in expected_post)
            have = sorted(_unit_key(u) for u in outcome.position.units.values())
            assert have == want
        expected_dis = block.expected(block.dislodged, edition)
        dislodged: tuple[Dislodged, ...] = outcome.position.dislodged
        want_d = sorted(_unit_key(_unit(x)[1]) for x in (expected_dis or []))
        assert sorted(_unit_key(d.unit) for d in dislodged) == want_d
        expected_centres = block.expected(block.centres, edition)
        if expected_centres is not None:
            assert isinstance(expected_centres, list)
            want_c = sorted(
                f"{resolve_power(BOARD, x.partition(':')[0])} {BOARD.spaces[_space(x.partition(':')[2])].id}"
                for x in expected_centres
            )
            have_c = sorted(f"{p} {BOARD.spaces[s].id}" for s, p in outcome.position.centres.items())
            assert have_c == want_c
        position = outcome.position
        if position.phase.kind is PhaseKind.RETREATS and block is case.blocks[-1]:
            break
