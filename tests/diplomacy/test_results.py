"""Results explain themselves: who bounced whom, who cut a support, who dislodged a unit, and why an
order was void, illegal or without a convoy."""

from __future__ import annotations

from interboard.board import load_packaged_board
from interboard.games.diplomacy import (
    OrderResult,
    Phase,
    Position,
    Reason,
    Unit,
    parse_power_order,
    parse_unit,
    step,
)

B = load_packaged_board("interboard.games.diplomacy.data.maps", "standard")


def _run(units: list[str], orders: list[str]) -> dict[str, OrderResult]:
    placed = {}
    for text in units:
        power, _, unit = text.partition(":")
        kind, loc = parse_unit(B, unit.strip())
        placed[B.locations[loc].space] = Unit(power.strip().upper(), kind, loc)
    parsed = [parse_power_order(B, o) for o in orders]
    outcome = step(B, Position(Phase.parse("S1901M"), placed, {}), [(p.power or "", p.order) for p in parsed])
    by_text = {}
    for text, po in zip(orders, parsed, strict=True):
        [r] = [r for r in outcome.results if r.order == po.order and r.power == po.power]
        by_text[text] = r
    return by_text


def _ids(spaces: tuple[int, ...]) -> list[str]:
    return sorted(B.spaces[s].id for s in spaces)


def test_bounce_names_the_other_units() -> None:
    r = _run(
        ["France: A Par", "Germany: A Mun", "Italy: A Mar"],
        ["France: A Par - Bur", "Germany: A Mun - Bur", "Italy: A Mar - Bur"],
    )
    assert r["France: A Par - Bur"].reason is Reason.BOUNCED
    assert _ids(r["France: A Par - Bur"].by) == ["MAR", "MUN"]


def test_bounce_against_a_holding_unit_names_it() -> None:
    r = _run(["France: A Par", "Germany: A Bur"], ["France: A Par - Bur", "Germany: A Bur H"])
    assert _ids(r["France: A Par - Bur"].by) == ["BUR"]
    assert r["Germany: A Bur H"].succeeded


def test_cut_support_names_the_attacker_and_dislodgement_names_the_origin() -> None:
    r = _run(
        ["France: A Par", "France: A Pic", "Germany: A Bur", "Germany: A Bel", "England: F Eng"],
        [
            "France: A Par - Bur",
            "France: A Pic S A Par - Bur",
            "Germany: A Bel - Pic",
            "England: F Eng S A Bel - Pic",
            "Germany: A Bur H",
        ],
    )
    support = r["France: A Pic S A Par - Bur"]
    assert support.reason is Reason.CUT
    assert _ids(support.by) == ["BEL"]
    assert support.dislodged_by == B.space("BEL").index
    assert r["Germany: A Bel - Pic"].succeeded


def test_void_support_and_convoy_without_path() -> None:
    r = _run(
        ["England: A Lon", "England: F Eng", "France: A Bre", "England: F Nth"],
        ["England: A Lon - Bel", "England: F Eng S A Lon", "France: A Bre - Pic"],
    )
    assert r["England: A Lon - Bel"].reason is Reason.NO_CONVOY
    assert r["England: F Eng S A Lon"].reason is Reason.VOID  # the army moves: no hold to support


def test_illegal_orders_carry_a_message_and_the_unit_holds() -> None:
    r = _run(["France: A Par", "Germany: A Bur"], ["France: A Par - Mun", "Germany: A Bur - Par"])
    illegal = r["France: A Par - Mun"]
    assert illegal.reason is Reason.ILLEGAL
    assert illegal.message == "Munich cannot be reached from Paris"
    # The unit held, so the German attack (strength 1) bounced off it.
    assert r["Germany: A Bur - Par"].reason is Reason.BOUNCED
