"""The order parser: every accepted notation, and a distinct error type for each fault."""

from __future__ import annotations

import pytest

from interboard.board import Board, UnitKind, load_packaged_board
from interboard.games.diplomacy import (
    AmbiguousPlaceError,
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

B = load_packaged_board("interboard.games.diplomacy.data.maps", "standard")
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


# ---- linked boards: every place names its board


def _te(variant: str) -> Board:
    from interboard.games.diplomacy.variants import get_variant

    return get_variant(variant).board


@pytest.mark.parametrize(
    ("variant", "text", "expected"),
    [
        ("twin_earths_1", "A Munich I-Munich II", "A MUN-I - MUN-II"),
        ("twin_earths_1", "A Munich I - Kiel I", "A MUN-I - KIE-I"),
        ("twin_earths_1", "a mun i-mun ii", "A MUN-I - MUN-II"),
        ("twin_earths_1", "F Mid-Atlantic Ocean II - Spain(nc) II", "F MAO-II - SPA/NC-II"),
        ("twin_earths_3", "A Mun-Y - Bur-Y", "A MUN-Y - BUR-Y"),
        ("twin_earths_3", "F Aeg-Z - Mun-Y", "F AEG-Z - MUN-Y"),
        ("twin_earths_3", "F Spa/nc-Y", "F SPA/NC-Y H"),
        ("twin_earths_3", "F Spa-Y/nc - Mao-Y", "F SPA/NC-Y - MAO-Y"),
        ("twin_earths_3", "F Aegean Sea-Z S A Greece-Z - Munich-Y", "F AEG-Z S A GRE-Z - MUN-Y"),
        ("twin_earths_3", "LINK Mun-Y Aeg-Z", "LINK MUN-Y AEG-Z"),
        ("twin_earths_3", "link Nth-Y - Nth-Z", "LINK NTH-Y NTH-Z"),
        ("twin_earths_3", "DESTROY Mun-Z Bur-Z", "DESTROY MUN-Z BUR-Z"),
        ("twin_earths_3", "Reinforce Spa/sc-Y Tys-Z", "REINFORCE SPA/SC-Y TYS-Z"),
        ("hyperspace_2", "SEPARATE Par Bur", "DESTROY PAR BUR"),
    ],
)
def test_board_qualified_notations(variant: str, text: str, expected: str) -> None:
    board = _te(variant)
    order = parse_order(board, text)
    assert format_order(board, order) == expected
    assert parse_order(board, format_order(board, order)) == order


@pytest.mark.parametrize(
    ("variant", "text", "fragment"),
    [
        ("twin_earths_1", "A Munich - Kiel I", "'munich' needs its board: Munich-I or Munich-II"),
        ("twin_earths_1", "A Munich I - Kiel", "'kiel' needs its board: Kiel-I or Kiel-II"),
        ("twin_earths_3", "F Aeg - Mun-Y", "'aeg' needs its board: Aegean Sea-Y or Aegean Sea-Z"),
        ("twin_earths_3", "LINK Mun-Y Hol", "'hol' needs its board: Holland-Y or Holland-Z"),
    ],
)
def test_a_place_without_its_board_names_the_choices(variant: str, text: str, fragment: str) -> None:
    with pytest.raises(AmbiguousPlaceError) as info:
        parse_order(_te(variant), text)
    assert fragment in str(info.value)
    assert isinstance(info.value, UnknownPlaceError)


def test_power_names_with_boards() -> None:
    po = parse_power_order(_te("twin_earths_3"), "Germany-Y: A Mun-Y - Bur-Y")
    assert po.power == "GERMANY-Y"
    with pytest.raises(UnknownPlaceError, match="unknown power 'Germany'"):
        parse_power_order(_te("twin_earths_3"), "Germany: A Mun-Y - Bur-Y")
