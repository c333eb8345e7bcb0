"""The link orders offered for clicking (``links.link_choices``) agree with the resolver.

For the first position of every case in the link variants' case files (named after the case, so
after the rule it checks), and each power giving orders in it: every offered order, given alone,
is accepted by :func:`resolve_links` (none refused as illegal), and every LINK the resolver accepts
alone is offered, as is a DESTROY or REINFORCE of every pair of spaces it accepts one for (those
name the spaces; which coast they are written with changes nothing). So a player clicking never
meets a refusal, and never misses an order the rules allow.
"""

from __future__ import annotations

import pytest

from interboard.board import Board
from interboard.games.diplomacy import Position, Rulebook, parse_power_order
from interboard.games.diplomacy.links import is_opening, link_choices, resolve_links
from interboard.games.diplomacy.orders import DestroyLink, Link, LinkOrder, ReinforceLink, format_order
from interboard.games.diplomacy.results import Reason
from interboard.games.diplomacy.testsuite import Case

from .test_cases import ALL, _initial, _rulebook

KINDS: dict[str, type[LinkOrder]] = {"link": Link, "destroy": DestroyLink, "reinforce": ReinforceLink}
LINK_CASES = [case for case, edition in ALL if edition == "2023" and case.played_on().rulebook.links]


def _powers(case: Case, board: Board) -> list[str]:
    """The powers that give orders in the case's first phase, each once."""
    out: list[str] = []
    for line in case.blocks[0].orders:
        power = parse_power_order(board, line, None).power
        if power and power not in out:
            out.append(power)
    return out


def _accepted_alone(
    printed: Board, position: Position, rulebook: Rulebook, power: str, order: LinkOrder
) -> bool:
    assert rulebook.links is not None
    outcome = resolve_links(
        printed, position, [(power, order)], rulebook.links, is_opening(printed, position)
    )
    (result,) = outcome.results
    return result.reason is not Reason.ILLEGAL


def _key(printed: Board, kind: str, a: int, b: int) -> tuple[int, int]:
    """What tells two orders of a kind apart: a LINK's two locations, the others' two spaces."""
    if kind == "link":
        return (a, b)
    x, y = printed.locations[a].space, printed.locations[b].space
    return (x, y) if x <= y else (y, x)


@pytest.mark.parametrize("case", LINK_CASES, ids=[c.id for c in LINK_CASES])
def test_offered_link_orders_are_exactly_the_legal_ones(case: Case) -> None:
    rulebook = _rulebook(case, "2023")
    rules = rulebook.links
    assert rules is not None
    position = _initial(case)
    if rules.phase is not position.phase.kind:
        pytest.skip(f"{case.id}: no link orders in {position.phase}")
    printed = case.played_on().board
    locs = printed.locations
    for n, power in enumerate(_powers(case, printed)):
        choices = link_choices(printed, position, rules, power)
        offered: dict[str, set[tuple[int, int]]] = {}
        for kind, order_type in KINDS.items():
            table = choices.get(kind, {})
            offered[kind] = set()
            for a, ends in table.items():
                for b, text in ends.items():
                    order = order_type(printed.location_by_id[a], printed.location_by_id[b])
                    assert text == format_order(printed, order)
                    assert _accepted_alone(printed, position, rulebook, power, order), (
                        f"{power}: {text} offered"
                    )
                    offered[kind].add(_key(printed, kind, order.a, order.b))
        if not choices["allowance"]:
            assert not any(offered.values()), f"{power} may give no link order, yet some are offered"
            continue
        if n:
            continue  # every pair for the first power only: the check is slow (all pairs, alone)
        for kind, order_type in KINDS.items():
            if kind != "link" and not position.links and not rules.cut_printed:
                continue  # nothing to destroy or reinforce
            for a in range(len(locs)):
                for b in range(a + 1, len(locs)):
                    if locs[a].space == locs[b].space:
                        continue
                    legal = _accepted_alone(printed, position, rulebook, power, order_type(a, b))
                    assert legal == (_key(printed, kind, a, b) in offered[kind]), (
                        f"{power}: {kind.upper()} {locs[a].id} {locs[b].id} is "
                        f"{'legal but not offered' if legal else 'offered but illegal'}"
                    )


def test_the_order_tree_offers_links_in_the_link_phase_of_a_link_variant_only() -> None:
    from interboard.games import find_variant

    family, info = find_variant("twin_earths_3")
    state = family.new_state("twin_earths_3", info.check_options({}), 7)
    tree = family.options(state, "GERMANY-Y")
    assert tree["links"]["allowance"] == 1  # the opening Winter: one LINK whatever the centres
    assert set(tree["links"]) == {"allowance", "per_kind", "labels", "link"}  # nothing to destroy yet
    standard, std_info = find_variant("standard")
    assert "links" not in standard.options(
        standard.new_state("standard", std_info.check_options({}), 7), "FRANCE"
    )
    # Twin Earths III after the opening: no link orders in a movement phase.
    spring = family.process(state, {})
    assert family.pending(spring.state).kind == "movement"
    assert "links" not in family.options(spring.state, "GERMANY-Y")
