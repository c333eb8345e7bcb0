"""The order parser: every accepted notation, and a distinct error type for each fault."""

from __future__ import annotations

import pytest

from interboard.board import UnitKind, load_shipped_board
from interboard.diplomacy import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    OrderSyntaxError,
    PhaseKind,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnknownPlaceError,
    Waive,
    format_order,
    parse_order,
    parse_power_order,
)

B = load_shipped_board("standard")
L = B.location_by_id
A, F = UnitKind.ARMY, UnitKind.FLEET


@pytest.mark.parametrize(
    ("text", "phase", "expected"),
    [
        # DATC long form
        (
            "F Yorkshire Supports A Liverpool - Edinburgh",
            None,
            SupportMove(L["YOR"], L["LVP"], L["EDI"], F, A),
        ),
        ("A Norway - Sweden via Convoy", None, Move(L["NWY"], L["SWE"], A, True)),
        ("F North Sea Convoys A London - Belgium", None, Convoy(L["NTH"], L["LON"], L["BEL"], F)),
        ("F Mid-Atlantic Ocean - Spain(north coast)", None, Move(L["MAO"], L["SPA/NC"], F)),
        ("F St Petersburg(south coast) - Gulf of Bothnia", None, Move(L["STP/SC"], L["BOT"], F)),
        ("A Budapest Supports A Serbia", None, SupportHold(L["BUD"], L["SER"], A, A)),
        ("Build A Berlin", PhaseKind.ADJUSTMENTS, Build(L["BER"], A)),
        ("Remove F Gulf of Lyon", PhaseKind.ADJUSTMENTS, Remove(L["LYO"], F)),
        # short form
        ("A Lvp-Edi", None, Move(L["LVP"], L["EDI"], A)),
        ("F Spa(nc)", None, Hold(L["SPA/NC"], F)),
        ("F spa/nc", None, Hold(L["SPA/NC"], F)),
        ("a vie h", None, Hold(L["VIE"], A)),
        ("A Lvp -> Edi", None, Move(L["LVP"], L["EDI"], A)),
        ("F stp/sc - bot", None, Move(L["STP/SC"], L["BOT"], F)),
        # MILA form
        ("A WAL S F MAO - IRI", None, SupportMove(L["WAL"], L["MAO"], L["IRI"], A, F)),
        ("A IRO R MAO", PhaseKind.RETREATS, Retreat(L["IRI"], L["MAO"], A)),
        ("F LIV D", PhaseKind.RETREATS, Disband(L["LVP"], F)),
        ("F LIV D", PhaseKind.ADJUSTMENTS, Remove(L["LVP"], F)),
        ("A BER B", PhaseKind.ADJUSTMENTS, Build(L["BER"], A)),
        ("F STP/NC B", PhaseKind.ADJUSTMENTS, Build(L["STP/NC"], F)),
        ("WAIVE", PhaseKind.ADJUSTMENTS, Waive()),
        ("A LON - BEL VIA", None, Move(L["LON"], L["BEL"], A, True)),
        ("F NTH C A LON - BEL", None, Convoy(L["NTH"], L["LON"], L["BEL"], F)),
        # a move written in a retreat phase is a retreat
        ("A Hol - Bel", PhaseKind.RETREATS, Retreat(L["HOL"], L["BEL"], A)),
    ],
)
def test_notations(text: str, phase: PhaseKind | None, expected: object) -> None:
    assert parse_order(B, text, phase) == expected
    assert parse_order(B, text.upper(), phase) == expected
    assert parse_order(B, text.lower(), phase) == expected


@pytest.mark.parametrize(
    "text",
    [
        "A LVP - EDI",
        "F NTH C A LON - BEL",
        "A WAL S F MAO - IRI",
        "F MAO - SPA/NC",
        "A VIE H",
        "A BUD S A SER",
        "A LON - BEL VIA",
    ],
)
def test_format_round_trips(text: str) -> None:
    order = parse_order(B, text)
    assert parse_order(B, format_order(B, order)) == order


def test_power_prefix() -> None:
    po = parse_power_order(B, "England: F North Sea - Picardy")
    assert po.power == "ENGLAND"
    assert po.order == Move(L["NTH"], L["PIC"], F)
    assert parse_power_order(B, "A Par - Bur").power is None
    assert parse_power_order(B, "french: A Par - Bur").power == "FRANCE"


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        (
            "A Lvp Edi",
            OrderSyntaxError,
            "expected hold, move ('-'), support, convoy, retreat, disband or build, not 'edi'",
        ),
        ("", OrderSyntaxError, "empty order"),
        ("A Lvp - ", OrderSyntaxError, "destination is missing"),
        ("F North Sea Convoys A London", OrderSyntaxError, "a convoy names the army's move"),
        ("Build Berlin", OrderSyntaxError, "a build names the unit"),
        ("A Lvp - Xyz", UnknownPlaceError, "unknown place 'xyz' for the destination"),
        ("A Atlantis H", UnknownPlaceError, "unknown place 'atlantis' for the unit"),
        ("F Spain(ec) - Mao", UnknownPlaceError, "Spain has no EC coast"),
        ("A Switzerland - Mun", UnknownPlaceError, "Switzerland is impassable"),
        ("Prussia: A Ber - Kie", UnknownPlaceError, "unknown power 'Prussia'"),
    ],
)
def test_errors_name_the_fault(text: str, error: type[Exception], fragment: str) -> None:
    with pytest.raises(error) as info:
        parse_power_order(B, text)
    assert fragment in str(info.value)
    if text:
        assert repr(text) in str(info.value)
