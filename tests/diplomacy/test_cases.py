"""Every adjudication case file in tests/diplomacy/cases, one test per case and edition.

Each case checks every order's result and the complete position after each phase (units,
dislodged units and, where given, centre owners). A case that starts in a retreat phase gives its
dislodged units and the movement results before it (PRESTATE_DISLODGED, PRESTATE_RESULTS); each
dislodged unit gets the retreats those results leave it, found by the engine's own rule.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from interboard.board import Board
from interboard.games.diplomacy import (
    Link,
    Move,
    OrderError,
    Phase,
    PhaseKind,
    Position,
    Rulebook,
    Unit,
    format_order,
    parse_order,
    parse_place,
    parse_power_order,
    parse_unit,
    resolve_power,
    step,
)
from interboard.games.diplomacy.links import link_pair
from interboard.games.diplomacy.retreats import retreat_options
from interboard.games.diplomacy.state import Dislodged
from interboard.games.diplomacy.testsuite import Case, CaseFileError, read_cases
from interboard.games.diplomacy.variants import Variant

CASES_DIR = Path(__file__).parent / "cases"
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


def _unit(board: Board, line: str) -> tuple[str, Unit]:
    power_name, _, text = line.partition(":")
    power = resolve_power(board, power_name)
    kind, loc = parse_unit(board, text.strip())
    return power, Unit(power, kind, loc)


def _space(board: Board, place: str) -> int:
    return board.locations[parse_place(board, place.strip())].space


def _unit_key(board: Board, u: Unit) -> str:
    return f"{u.power} {u.kind.value} {board.locations[u.loc].id}"


def _pair(board: Board, line: str) -> tuple[int, int]:
    """A link written as two places, ``Mun-Y Aeg-Z`` (an optional ``-`` between them)."""
    order = parse_order(board, f"LINK {line}")
    assert isinstance(order, Link)
    return link_pair(board, order.a, order.b)


def _rulebook(case: Case, edition: str) -> Rulebook:
    rulebook = case.played_on().rulebook.with_edition(edition)
    settings: dict[str, object] = {}
    for option in case.options:
        key, _, value = option.partition("=")
        # The option names of twin_earths_3_rules(), for LinkRules' fields.
        settings[{"link_limit": "limit"}.get(key, key)] = int(value) if value else True
    if settings:
        assert rulebook.links is not None, f"{case.id}: options need a variant with link orders"
        rulebook = replace(rulebook, links=replace(rulebook.links, **settings))  # type: ignore[arg-type]
    return rulebook


def _initial(case: Case) -> Position:
    variant = case.played_on()
    board = variant.board
    phase = Phase.parse(case.blocks[0].phase)
    units = {}
    for line in case.prestate:
        _, unit = _unit(board, line)
        units[board.locations[unit.loc].space] = unit
    if case.prestate_centres is None:
        centres = dict(variant.start().centres)
    else:
        centres = {}
        for line in case.prestate_centres:
            power_name, _, place = line.partition(":")
            centres[_space(board, place)] = resolve_power(board, power_name)
    links = tuple(_pair(board, x) for x in case.prestate_links)
    cuts = frozenset(tuple(sorted(_space(board, p) for p in x.split())) for x in case.prestate_cuts)
    position = Position(phase, units, centres, links=links, cuts=cuts)  # type: ignore[arg-type]
    if case.prestate_dislodged:
        position = replace(position, dislodged=_dislodged(case, variant, position))
    return position


def _dislodged(case: Case, variant: Variant, position: Position) -> tuple[Dislodged, ...]:
    """PRESTATE_DISLODGED's units, each with the retreats that PRESTATE_RESULTS leaves it.

    A SUCCESS move into a dislodged unit's space tells where its attacker came from (and, written
    ``via convoy``, that it came by sea). A FAILURE move is a standoff in its destination, except a
    move ``via convoy`` (it may have failed for want of its convoy, which stands nobody off; jDip and
    godip read their files so too) and a move that lost a head-to-head battle (DATC 6.H.9). Where
    no SUCCESS move says where the attacker came from (jDip's results are optional, and those of its
    real-game cases list no moves), the attacker is left as the unit's own space, as for a MILA game,
    so no neighbour is closed for that reason.
    """
    board = variant.board_for(position)
    moves: list[tuple[bool, int, int, bool]] = []  # (succeeded, from space, to space, via convoy)
    for result in case.prestate_results:
        try:
            order = parse_power_order(board, result.order, PhaseKind.MOVEMENT).order
        except OrderError as e:
            raise CaseFileError(case.source, result.line, f"PRESTATE_RESULTS: {e}") from None
        if isinstance(order, Move):
            origin, dest = board.locations[order.loc].space, board.locations[order.dest].space
            if result.succeeded and any(m[0] and m[2] == dest for m in moves):
                where = board.place_name(dest)
                raise CaseFileError(
                    case.source, result.line, f"PRESTATE_RESULTS: a second SUCCESS move into {where}"
                )
            moves.append((result.succeeded, origin, dest, order.via_convoy))
    attackers = {dest: (origin, via) for ok, origin, dest, via in moves if ok}
    # A move that failed because a unit coming the other way by land dislodged it prevents nothing.
    standoffs = frozenset(
        dest
        for ok, origin, dest, via in moves
        if not ok and not via and attackers.get(origin) != (dest, False)
    )
    out: dict[int, Dislodged] = {}
    for entry in case.prestate_dislodged:
        try:
            _, unit = _unit(board, entry.text)
        except OrderError as e:
            raise CaseFileError(case.source, entry.line, f"PRESTATE_DISLODGED: {e}") from None
        space = board.locations[unit.loc].space
        where = board.place_name(space)
        problem = None
        if space in out:
            problem = f"a second dislodged unit in {where}"
        elif space not in position.units:
            problem = f"no PRESTATE unit in {where}, where the unit that dislodged it should stand"
        if problem:
            raise CaseFileError(case.source, entry.line, f"PRESTATE_DISLODGED: {problem}")
        origin, by_convoy = attackers.get(space, (space, False))
        options = retreat_options(board, unit, origin, by_convoy, position.units, standoffs)
        out[space] = Dislodged(unit, origin, options)
    return tuple(out.values())


@pytest.mark.parametrize(("case", "edition"), ALL, ids=[f"{c.id}[{e}]" for c, e in ALL])
def test_case(case: Case, edition: str) -> None:
    rulebook = _rulebook(case, edition)
    variant = case.played_on()
    printed = variant.board
    position = _initial(case)
    for block in case.blocks:
        BOARD = variant.board_for(position)
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
            want = sorted(_unit_key(BOARD, _unit(printed, x)[1]) for x in expected_post)
            have = sorted(_unit_key(BOARD, u) for u in outcome.position.units.values())
            assert have == want
        expected_dis = block.expected(block.dislodged, edition)
        dislodged: tuple[Dislodged, ...] = outcome.position.dislodged
        want_d = sorted(_unit_key(BOARD, _unit(printed, x)[1]) for x in (expected_dis or []))
        assert sorted(_unit_key(BOARD, d.unit) for d in dislodged) == want_d
        expected_centres = block.expected(block.centres, edition)
        if expected_centres is not None:
            assert isinstance(expected_centres, list)
            owners = [x.partition(":") for x in expected_centres]
            want_c = sorted(
                f"{resolve_power(BOARD, p)} {BOARD.spaces[_space(BOARD, c)].id}" for p, _, c in owners
            )
            have_c = sorted(f"{p} {BOARD.spaces[s].id}" for s, p in outcome.position.centres.items())
            assert have_c == want_c
        expected_links = block.expected(block.links, edition)
        if expected_links is not None:
            assert isinstance(expected_links, list)
            ids = printed.locations
            want_l = [tuple(ids[x].id for x in _pair(printed, line)) for line in expected_links]
            have_l = [(ids[a].id, ids[b].id) for a, b in outcome.position.links]
            assert have_l == want_l, "links, oldest first"
        expected_cuts = block.expected(block.cuts, edition)
        if expected_cuts is not None:
            assert isinstance(expected_cuts, list)
            want_cut = sorted(
                sorted(printed.spaces[_space(printed, p)].id for p in x.split()) for x in expected_cuts
            )
            have_cut = sorted(sorted(printed.spaces[s].id for s in pair) for pair in outcome.position.cuts)
            assert have_cut == want_cut
        expected_winners = block.winners.get("")
        if expected_winners is not None:
            assert sorted(outcome.winners) == sorted(resolve_power(printed, w) for w in expected_winners)
        position = outcome.position
        if position.phase.kind is PhaseKind.RETREATS and block is case.blocks[-1]:
            break
