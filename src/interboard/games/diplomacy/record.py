"""Game records: a game as versioned JSON (``interboard-game/1``), saved and loaded losslessly.

Places are written by location id (``STP/SC``), orders in the short form that
:func:`~interboard.diplomacy.parse_order` reads back, so a record is readable by people and by
other tools. Never pickle.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ...board import Board, UnitKind
from .game import Game, PhaseRecord
from .orders import format_order
from .parse import parse_order
from .results import OrderResult, Reason
from .rules import LinkRules, Rulebook
from .state import Dislodged, Phase, PhaseKind, Position, Unit
from .variants import get_variant

FORMAT = "interboard-game/1"


class RecordError(ValueError):
    """A game record that cannot be read; the message says where."""


def position_to_json(board: Board, position: Position) -> dict[str, Any]:
    units: dict[str, list[str]] = {}
    for space in sorted(position.units):
        u = position.units[space]
        units.setdefault(u.power, []).append(f"{u.kind.value} {board.locations[u.loc].id}")
    centres: dict[str, list[str]] = {}
    for space in sorted(position.centres):
        centres.setdefault(position.centres[space], []).append(board.spaces[space].id)
    return {
        "phase": position.phase.name,
        "units": units,
        "centres": centres,
        "dislodged": [
            {
                "power": d.unit.power,
                "unit": f"{d.unit.kind.value} {board.locations[d.unit.loc].id}",
                "attacker_from": board.spaces[d.attacker_from].id,
                "retreats": [board.locations[x].id for x in d.retreats],
            }
            for d in position.dislodged
        ],
        "eliminated": sorted(position.eliminated),
        "links": [[board.locations[a].id, board.locations[b].id] for a, b in position.links],
        "cuts": sorted([board.spaces[a].id, board.spaces[b].id] for a, b in position.cuts),
        **({"link_makers": list(position.link_makers)} if position.link_makers else {}),
    }


def _unit(board: Board, power: str, text: str, where: str) -> Unit:
    parts = text.split()
    if len(parts) != 2 or parts[0] not in ("A", "F") or parts[1] not in board.location_by_id:
        raise RecordError(f"{where}: '{text}' is not a unit ('A PAR', 'F STP/SC')")
    return Unit(power, UnitKind(parts[0]), board.location_by_id[parts[1]])


def position_from_json(board: Board, data: dict[str, Any], where: str = "position") -> Position:
    try:
        phase = Phase.parse(data["phase"])
        units: dict[int, Unit] = {}
        for power, texts in data["units"].items():
            for text in texts:
                u = _unit(board, power, text, f"{where}.units.{power}")
                units[board.locations[u.loc].space] = u
        centres = {}
        for power, names in data["centres"].items():
            for name in names:
                if name not in board.space_by_id:
                    raise RecordError(f"{where}.centres.{power}: unknown space '{name}'")
                centres[board.space_by_id[name]] = power
        dislodged = tuple(
            Dislodged(
                _unit(board, d["power"], d["unit"], f"{where}.dislodged"),
                board.space_by_id[d["attacker_from"]],
                tuple(board.location_by_id[x] for x in d["retreats"]),
            )
            for d in data.get("dislodged", [])
        )
        links = tuple((board.location_by_id[a], board.location_by_id[b]) for a, b in data.get("links", []))
        cuts = frozenset((board.space_by_id[a], board.space_by_id[b]) for a, b in data.get("cuts", []))
        makers = tuple(str(m) for m in data.get("link_makers", []))
        if makers and len(makers) != len(links):
            raise RecordError(
                f"{where}.link_makers: one maker for each link ({len(links)}), not {len(makers)}"
            )
        eliminated = frozenset(data.get("eliminated", []))
        return Position(phase, units, centres, dislodged, eliminated, links, cuts, makers)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"{where}: {exc.__class__.__name__}: {exc}") from exc


def result_to_json(board: Board, r: OrderResult) -> dict[str, Any]:
    out: dict[str, Any] = {"power": r.power, "order": format_order(board, r.order), "succeeded": r.succeeded}
    if r.reason is not None:
        out["reason"] = r.reason.value
    if r.by:
        out["by"] = [board.spaces[s].id for s in r.by]
    if r.dislodged_by is not None:
        out["dislodged_by"] = board.spaces[r.dislodged_by].id
    if r.message:
        out["message"] = r.message
    return out


def result_from_json(board: Board, data: dict[str, Any], phase: Phase) -> OrderResult:
    return OrderResult(
        power=data["power"],
        order=parse_order(board, data["order"], phase.kind),
        succeeded=bool(data["succeeded"]),
        reason=Reason(data["reason"]) if "reason" in data else None,
        by=tuple(board.space_by_id[s] for s in data.get("by", [])),
        dislodged_by=board.space_by_id[data["dislodged_by"]] if "dislodged_by" in data else None,
        message=data.get("message", ""),
    )


def rulebook_to_json(rulebook: Rulebook) -> dict[str, Any]:
    out: dict[str, Any] = {"edition": rulebook.edition.value}
    if rulebook.victory_by_units:
        out["victory_by_units"] = True
    if rulebook.winter_every_year:
        out["winter_every_year"] = True
    if rulebook.links is not None:
        links = asdict(rulebook.links)
        links["phase"] = rulebook.links.phase.value
        links["allowance"] = [list(x) for x in rulebook.links.allowance]
        out["links"] = links
    return out


def rulebook_from_json(data: dict[str, Any], default: Rulebook) -> Rulebook:
    """Rules as a record states them; what it does not state comes from the variant's defaults."""
    if not isinstance(data, dict):
        raise RecordError("rules: expected an object")
    links = default.links
    if "links" in data:
        raw = dict(data["links"])
        raw["phase"] = PhaseKind(raw.get("phase", PhaseKind.ADJUSTMENTS.value))
        raw["allowance"] = tuple(tuple(x) for x in raw.get("allowance", ()))
        links = LinkRules(**raw)
    return Rulebook(
        edition=Rulebook.of(data.get("edition", default.edition.value)).edition,
        links=links,
        victory_by_units=bool(data.get("victory_by_units", default.victory_by_units)),
        winter_every_year=bool(data.get("winter_every_year", default.winter_every_year)),
    )


def game_to_json(game: Game) -> dict[str, Any]:
    board = game.variant.board
    phases = []
    for rec in game.history:
        orders: dict[str, list[str]] = {}
        for power, order in rec.orders:
            orders.setdefault(power, []).append(format_order(board, order))
        phases.append(
            {
                "position": position_to_json(board, rec.position),
                "orders": orders,
                "results": [result_to_json(board, r) for r in rec.results],
            }
        )
    return {
        "format": FORMAT,
        "family": "diplomacy",
        "variant": game.variant.id,
        "rules": rulebook_to_json(game.rulebook),
        "phases": phases,
        "position": position_to_json(board, game.position),
        "winners": list(game.winners),
    }


def game_from_json(data: dict[str, Any]) -> Game:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise RecordError(f"not an interboard game record (format {found!r}, expected {FORMAT!r})")
    try:
        variant = get_variant(data["variant"])
    except KeyError as exc:
        raise RecordError(str(exc.args[0]) if exc.args else "missing 'variant'") from exc
    board = variant.board  # ids of spaces and locations do not depend on links
    try:
        rulebook = rulebook_from_json(data.get("rules", {}), variant.rulebook)
        history = []
        for k, ph in enumerate(data["phases"]):
            where = f"phases[{k}]"
            position = position_from_json(board, ph["position"], f"{where}.position")
            orders = tuple(
                (power, parse_order(board, text, position.phase.kind))
                for power, texts in ph["orders"].items()
                for text in texts
            )
            results = tuple(result_from_json(board, r, position.phase) for r in ph["results"])
            history.append(PhaseRecord(position, orders, results))
        current = position_from_json(board, data["position"])
    except RecordError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"game record: {exc.__class__.__name__}: {exc}") from exc
    return Game(variant, rulebook, current, history, tuple(data.get("winners", [])))


def save_game(game: Game, path: str | Path) -> None:
    Path(path).write_text(json.dumps(game_to_json(game), indent=1) + "\n", encoding="utf-8")


def load_game(path: str | Path) -> Game:
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RecordError(f"{p}: not JSON (line {exc.lineno}: {exc.msg})") from exc
    return game_from_json(data)
