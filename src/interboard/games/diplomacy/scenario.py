"""Diplomacy positions as scenario fields (``docs/scenarios.md``): read, checked and written.

The fields, as a DATC position statement says them, each replacing that part of the variant's
start when given:

* ``phase``: ``S1901M`` (season, year, M, R or A), or in words (``Fall 1902 retreats``);
* ``units``: power -> units (``{"France": ["A Paris", "F Brest", "F Spa/sc"]}``; on joined boards
  every place names its board: ``A Munich-Y``);
* ``centres``: power -> supply centres it owns (a centre listed under no power is unowned);
* ``dislodged``: units dislodged before a retreat phase: ``power``, ``unit``, ``attacker_from``
  (the space the attack came from), and optionally ``retreats`` (else every legal retreat);
* ``eliminated``: powers out of the game; ``links`` and ``cuts``: the link set of the variants
  whose links are game state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...board import Board, UnitKind, can_stand
from ..positions import a_list, an_object, fail, unknown_fields
from .errors import OrderSyntaxError, UnknownPlaceError
from .parse import parse_place, parse_unit, resolve_power
from .record import position_to_json
from .retreats import retreat_options
from .state import Dislodged, Phase, PhaseKind, Position, Unit

FIELDS = ("phase", "units", "centres", "dislodged", "eliminated", "links", "cuts", "link_makers")


def _power(board: Board, name: Any, where: str) -> str:
    try:
        return resolve_power(board, str(name))
    except UnknownPlaceError as exc:
        raise fail(where, exc.problem) from None


def _unit(board: Board, power: str, text: Any, where: str) -> Unit:
    if not isinstance(text, str):
        raise fail(where, f"a unit ('A Paris', 'F North Sea'), not {text!r}")
    try:
        kind, loc = parse_unit(board, text)
    except (OrderSyntaxError, UnknownPlaceError) as exc:
        raise fail(where, str(exc)) from None
    space = board.spaces[board.locations[loc].space]
    if kind is UnitKind.ARMY and board.locations[loc].coast is not None:
        loc = board.location_by_id[space.id]  # an army stands in the space, not on a coast
    if not can_stand(board, kind, loc):
        if kind is UnitKind.FLEET and space.coasts:
            raise fail(where, f"a fleet in {space.name} stands on one of its coasts: name it ('F Spa/sc')")
        what = "an army" if kind is UnitKind.ARMY else "a fleet"
        raise fail(where, f"{what} cannot stand in {space.name} ({space.kind.value})")
    return Unit(power, kind, loc)


def _place(board: Board, text: Any, where: str) -> int:
    if not isinstance(text, str):
        raise fail(where, f"a place's name, not {text!r}")
    try:
        return parse_place(board, text)
    except (OrderSyntaxError, UnknownPlaceError) as exc:
        raise fail(where, str(exc)) from None


def build(board: Board, start: Position, position: Mapping[str, Any]) -> Position:
    """The position ``start`` with the given fields in place of its own."""
    unknown_fields(position, FIELDS, "a Diplomacy")
    phase = start.phase
    if "phase" in position:
        try:
            phase = Phase.parse(str(position["phase"]))
        except ValueError as exc:
            raise fail("phase", f"{exc} (write it S1901M, F1902R, W1902A)") from None
    units = dict(start.units)
    if "units" in position:
        units = {}
        for who, texts in an_object(position["units"], "units").items():
            power = _power(board, who, f"units.{who}")
            for k, text in enumerate(a_list(texts, f"units.{who}")):
                unit = _unit(board, power, text, f"units.{who}[{k}]")
                space = board.locations[unit.loc].space
                if space in units:
                    raise fail(f"units.{who}[{k}]", f"{board.spaces[space].name} already holds a unit")
                units[space] = unit
    centres = dict(start.centres)
    if "centres" in position:
        centres = {}
        for who, names in an_object(position["centres"], "centres").items():
            power = _power(board, who, f"centres.{who}")
            for k, name in enumerate(a_list(names, f"centres.{who}")):
                space = board.locations[_place(board, name, f"centres.{who}[{k}]")].space
                if not board.spaces[space].centre:
                    raise fail(f"centres.{who}[{k}]", f"{board.spaces[space].name} is no supply centre")
                centres[space] = power
    dislodged = start.dislodged
    if "dislodged" in position:
        found = []
        for k, raw in enumerate(a_list(position["dislodged"], "dislodged")):
            where = f"dislodged[{k}]"
            raw = an_object(raw, where)
            power = _power(board, raw.get("power"), f"{where}.power")
            unit = _unit(board, power, raw.get("unit"), f"{where}.unit")
            attacker = board.locations[
                _place(board, raw.get("attacker_from"), f"{where}.attacker_from")
            ].space
            if "retreats" in raw:
                retreats = tuple(
                    _place(board, r, f"{where}.retreats[{j}]")
                    for j, r in enumerate(a_list(raw["retreats"], f"{where}.retreats"))
                )
            else:  # every place it could go but the attacker's (list them where a standoff left one empty)
                retreats = retreat_options(board, unit, attacker, False, units.keys(), frozenset())
            if board.locations[unit.loc].space in units and units[board.locations[unit.loc].space] == unit:
                raise fail(f"{where}.unit", "a dislodged unit is not among the units standing on the board")
            found.append(Dislodged(unit, attacker, retreats))
        dislodged = tuple(found)
    if dislodged and phase.kind is not PhaseKind.RETREATS:
        raise fail("dislodged", f"units are dislodged only before a retreat phase, not in {phase.name}")
    eliminated = start.eliminated
    if "eliminated" in position:
        eliminated = frozenset(
            _power(board, p, f"eliminated[{k}]")
            for k, p in enumerate(a_list(position["eliminated"], "eliminated"))
        )
    for unit in units.values():
        if unit.power in eliminated:
            raise fail("units", f"{unit.power} is out of the game: it has no units")
    links = start.links
    if "links" in position:
        links = tuple(
            tuple(sorted(_place(board, end, f"links[{k}]") for end in a_list(pair, f"links[{k}]")))  # type: ignore[misc]
            for k, pair in enumerate(a_list(position["links"], "links"))
        )
        if any(len(pair) != 2 for pair in links):
            raise fail("links", "a link joins two places")
    cuts = start.cuts
    if "cuts" in position:
        cuts = frozenset(
            tuple(
                sorted(
                    board.locations[_place(board, end, f"cuts[{k}]")].space
                    for end in a_list(pair, f"cuts[{k}]")
                )
            )  # type: ignore[misc]
            for k, pair in enumerate(a_list(position["cuts"], "cuts"))
        )
    makers: tuple[str, ...] = start.link_makers if "links" not in position else ()
    if "link_makers" in position:
        makers = tuple(
            _power(board, name, f"link_makers[{k}]") if name else ""
            for k, name in enumerate(a_list(position["link_makers"], "link_makers"))
        )
        if len(makers) != len(links):
            raise fail("link_makers", f'one maker (a power, or "") for each of the {len(links)} links')
    return Position(phase, units, centres, dislodged, eliminated, links, cuts, makers)


def written(board: Board, position: Position) -> dict[str, Any]:
    """``position`` as scenario fields, every field written (places by their ids)."""
    return position_to_json(board, position)
