"""The MILA saved-game JSON (``diplomacy`` package, ``to_saved_game_format``): import, export, replay.

This is the format of the large public game datasets: one JSON object per game, with ``id``, ``map``,
``rules`` and ``phases``. Each phase has a ``name`` (``S1901M``), the ``state`` at its start, the
``orders`` given (power to list of order texts) and MILA's ``results`` (unit to result codes).

Facts about the format that the reader relies on:

* ``state["units"]`` lists each power's units as ``"A PAR"`` / ``"F STP/SC"``; in a retreat phase
  the dislodged units are in the same list with a leading ``*`` (``"*F RUM"``), and
  ``state["retreats"]`` maps each of them to the locations it may retreat to.
* A dislodged unit with nowhere to go is destroyed at once and never appears in the record, and
  MILA skips retreat and adjustment phases in which nobody has anything to order.
* Recorded orders omit ``WAIVE``; the last phase of a record has no orders yet (``null``).
* A finished game ends with a phase named ``COMPLETED``.

Where MILA 1.1.2 and interboard adjudicate differently, :func:`replay_mila` reports it. Known cases,
all involving convoys, where interboard follows the DATC: against an army attacking by convoy, MILA
lets support from the defender's own power dislodge the defender (DATC 6.D.12 forbids it); it
counts such support when deciding that a convoying fleet is dislodged, cancelling the convoy
although the fleet stays; and after an attack by convoy it offers the dislodged unit retreats into
occupied or contested provinces.

Standard library only: this module is part of the engine core and must not import MILA.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ...board import Board, UnitKind, can_stand
from .adjustments import adjustment_counts, build_sites
from .engine import step
from .errors import OrderError
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
    format_order,
    order_loc,
)
from .parse import parse_order, parse_power_order
from .results import OrderResult, Reason
from .rules import Edition, Rulebook
from .state import Dislodged, Phase, PhaseKind, Position, Season, Unit
from .variants import Variant, get_variant

COMPLETED = "COMPLETED"
"""MILA's name for the phase after a game has been won."""

_PHASE_CODES = {"S": Season.SPRING, "F": Season.FALL, "W": Season.WINTER}
_KIND_CODES = {"M": PhaseKind.MOVEMENT, "R": PhaseKind.RETREATS, "A": PhaseKind.ADJUSTMENTS}


class MilaFormatError(ValueError):
    """A MILA saved game that cannot be read; the message names the phase and the entry."""


@dataclass(frozen=True)
class MilaPhase:
    """One phase of a MILA record, in interboard terms."""

    name: str
    """MILA's phase name: ``S1901M``, or ``COMPLETED`` for the final state of a won game."""
    position: Position
    """The state at the start of the phase. For ``COMPLETED`` its phase is the winter adjustments of
    the last year played, when MILA decided the game."""
    orders: tuple[tuple[str, str], ...] = ()
    """(power, order text) pairs as recorded, in record order; empty for a phase not yet played."""
    results: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """MILA's result codes per unit (``("A PAR", ("bounce",))``), kept as recorded."""

    @property
    def phase(self) -> Phase:
        return self.position.phase

    @property
    def completed(self) -> bool:
        return self.name == COMPLETED


@dataclass(frozen=True)
class MilaGame:
    """A MILA saved game. Press messages and MILA's bookkeeping fields are not kept."""

    id: str
    map_name: str
    """MILA's map name, which is also the interboard variant id (``standard``)."""
    rules: tuple[str, ...]
    phases: tuple[MilaPhase, ...]

    @property
    def variant(self) -> Variant:
        return get_variant(self.map_name)

    @property
    def board(self) -> Board:
        return self.variant.board


@dataclass(frozen=True)
class PhaseDiff:
    """Where interboard's adjudication of a recorded phase differs from the record's next phase."""

    index: int
    """Index of the adjudicated phase in the record."""
    phase: str
    next_phase: str
    """Name of the record's next phase, the one compared with interboard's result."""
    problems: tuple[str, ...]

    def __str__(self) -> str:
        head = f"phase {self.index} ({self.phase} -> {self.next_phase})"
        return head + "".join(f"\n  {p}" for p in self.problems)


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------


def read_mila_game(data: Mapping[str, Any] | str | Path) -> MilaGame:
    """Read one MILA saved game: a parsed dict, JSON text (a string starting with ``{``) or a file.

    Raises :class:`MilaFormatError` naming the phase and entry at fault.
    """
    if isinstance(data, Path) or (isinstance(data, str) and not data.lstrip().startswith("{")):
        path = Path(data)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise MilaFormatError(f"{path}: cannot read: {exc.strerror or exc}") from exc
        return _game_from_dict(_loads(text, str(path)))
    if isinstance(data, str):
        return _game_from_dict(_loads(data, "MILA game"))
    return _game_from_dict(data)


def iter_mila_games(path: str | Path) -> Iterator[MilaGame]:
    """Read a ``.jsonl`` file of MILA games (one game per line, as the public datasets are)."""
    p = Path(path)
    with p.open(encoding="utf-8") as lines:
        for n, line in enumerate(lines, 1):
            if line.strip():
                try:
                    yield _game_from_dict(_loads(line, f"{p}:{n}"))
                except MilaFormatError as exc:
                    raise MilaFormatError(f"{p}:{n}: {exc}") from exc


def _loads(text: str, where: str) -> Mapping[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MilaFormatError(f"{where}: not JSON (line {exc.lineno}: {exc.msg})") from exc
    if not isinstance(data, dict):
        raise MilaFormatError(f"{where}: expected a JSON object, found {type(data).__name__}")
    return data


def _game_from_dict(data: Mapping[str, Any]) -> MilaGame:
    if not isinstance(data, Mapping):
        raise MilaFormatError(f"MILA game: expected a JSON object, found {type(data).__name__}")
    if "phases" not in data:
        raise MilaFormatError("MILA game: missing 'phases' (not a MILA saved game?)")
    map_name = data.get("map", "standard")
    if not isinstance(map_name, str):
        raise MilaFormatError(f"MILA game: 'map' must be a string, not {map_name!r}")
    try:
        board = get_variant(map_name).board
    except KeyError as exc:
        raise MilaFormatError(f"MILA game: map {map_name!r} is not supported ({exc.args[0]})") from None
    rules = data.get("rules", [])
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise MilaFormatError(f"MILA game: 'rules' must be a list of strings, not {rules!r}")
    raw_phases = data["phases"]
    if not isinstance(raw_phases, list):
        raise MilaFormatError(f"MILA game: 'phases' must be a list, not {type(raw_phases).__name__}")
    phases: list[MilaPhase] = []
    for k, raw in enumerate(raw_phases):
        phases.append(_read_phase(board, k, raw, phases[-1] if phases else None))
    return MilaGame(str(data.get("id") or ""), map_name, tuple(rules), tuple(phases))


def _read_phase(board: Board, k: int, raw: object, previous: MilaPhase | None) -> MilaPhase:
    if not isinstance(raw, Mapping):
        raise MilaFormatError(f"phases[{k}]: expected an object, found {type(raw).__name__}")
    name = raw.get("name")
    where = f"phases[{k}] ({name})" if isinstance(name, str) else f"phases[{k}]"
    if not isinstance(name, str):
        raise MilaFormatError(f"{where}: missing phase 'name'")
    state = raw.get("state")
    if not isinstance(state, Mapping):
        raise MilaFormatError(f"{where}: missing 'state'")
    state_name = state.get("name")
    if state_name not in (None, name):
        raise MilaFormatError(f"{where}: state name {state_name!r} does not match the phase name")
    if name == COMPLETED:
        if previous is None:
            raise MilaFormatError(f"{where}: a record cannot start with the COMPLETED phase")
        phase = Phase(previous.phase.year, Season.WINTER, PhaseKind.ADJUSTMENTS)
    else:
        phase = _phase(name, where)
    orders = _read_orders(board, raw.get("orders"), where)
    position = _read_position(board, state, phase, where)
    if position.dislodged and previous is not None:
        position = replace(position, dislodged=_infer_attackers(board, position, previous))
    return MilaPhase(name, position, orders, _read_results(raw.get("results"), where))


def _phase(name: str, where: str) -> Phase:
    """MILA's five-character names only (``S1901M``): season, year, kind."""
    if (
        len(name) >= 6
        and name[0] in _PHASE_CODES
        and name[-1] in _KIND_CODES
        and name[1:-1].isdigit()
        and (name[-1] == "A") == (name[0] == "W")
    ):
        return Phase(int(name[1:-1]), _PHASE_CODES[name[0]], _KIND_CODES[name[-1]])
    raise MilaFormatError(f"{where}: bad phase name {name!r} (expected e.g. 'S1901M', 'F1901R', 'W1901A')")


def _power(board: Board, name: object, where: str) -> str:
    if not isinstance(name, str) or name.upper() not in board.power_by_id:
        known = ", ".join(p.id for p in board.powers)
        raise MilaFormatError(f"{where}: unknown power {name!r} (this map has {known})")
    return name.upper()


def _str_list(value: object, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise MilaFormatError(f"{where}: expected a list of strings, found {value!r}")
    return value


def _location(board: Board, text: str, where: str, entry: str) -> int:
    loc = board.location_by_id.get(text.upper())
    if loc is None:
        raise MilaFormatError(f"{where}: unknown location '{text}' in {entry!r}")
    return loc


def _unit(board: Board, power: str, text: str, where: str) -> Unit:
    parts = text.split()
    if len(parts) != 2 or parts[0].upper() not in ("A", "F"):
        raise MilaFormatError(f"{where}: {text!r} is not a unit (expected e.g. 'A PAR', 'F STP/SC')")
    kind = UnitKind(parts[0].upper())
    loc = _location(board, parts[1], where, text)
    if not can_stand(board, kind, loc):
        raise MilaFormatError(f"{where}: {text!r}: {kind.noun} cannot stand at {board.locations[loc].id}")
    return Unit(power, kind, loc)


def _read_position(board: Board, state: Mapping[str, Any], phase: Phase, where: str) -> Position:
    raw_units = state.get("units")
    if not isinstance(raw_units, Mapping):
        raise MilaFormatError(f"{where}: state has no 'units'")
    raw_retreats = state.get("retreats") or {}
    if not isinstance(raw_retreats, Mapping):
        raise MilaFormatError(f"{where}: state 'retreats' must be an object")
    units: dict[int, Unit] = {}
    dislodged: list[Dislodged] = []
    for power_name, texts in raw_units.items():
        power = _power(board, power_name, f"{where}: state.units")
        at = f"{where}: state.units.{power}"
        options = raw_retreats.get(power_name) or {}
        if not isinstance(options, Mapping):
            raise MilaFormatError(f"{where}: state.retreats.{power}: expected an object")
        for text in _str_list(texts, at):
            if text.startswith("*"):
                if phase.kind is not PhaseKind.RETREATS:
                    raise MilaFormatError(f"{at}: dislodged unit {text!r} outside a retreat phase")
                unit = _unit(board, power, text[1:], at)
                dests = _str_list(options.get(text[1:], []), f"{where}: state.retreats.{power}.{text[1:]}")
                locs = tuple(_location(board, d, f"{where}: state.retreats.{power}", text[1:]) for d in dests)
                # The attacker is filled in from the previous phase's orders when the record has them.
                dislodged.append(Dislodged(unit, board.locations[unit.loc].space, locs))
                continue
            unit = _unit(board, power, text, at)
            space = board.locations[unit.loc].space
            if space in units:
                other = units[space]
                raise MilaFormatError(
                    f"{at}: {text!r} stands where {other.power} already has "
                    f"{other.kind.value} {board.locations[other.loc].id}"
                )
            units[space] = unit
    centres: dict[int, str] = {}
    raw_centres = state.get("centers") or {}
    if not isinstance(raw_centres, Mapping):
        raise MilaFormatError(f"{where}: state 'centers' must be an object")
    for power_name, names in raw_centres.items():
        power = _power(board, power_name, f"{where}: state.centers")
        at = f"{where}: state.centers.{power}"
        for name in _str_list(names, at):
            sc = board.space_by_id.get(name.upper())
            if sc is None or not board.spaces[sc].centre:
                raise MilaFormatError(f"{at}: {name!r} is not a supply centre of this map")
            if sc in centres:
                raise MilaFormatError(f"{at}: {name!r} is also owned by {centres[sc]}")
            centres[sc] = power
    alive = {u.power for u in units.values()} | {d.unit.power for d in dislodged} | set(centres.values())
    eliminated = frozenset(p.id for p in board.powers if p.id not in alive)
    return Position(phase, units, centres, tuple(dislodged), eliminated)


def _infer_attackers(board: Board, position: Position, previous: MilaPhase) -> tuple[Dislodged, ...]:
    """MILA does not record who dislodged a unit: find the move into its space among the previous
    phase's orders by the unit now standing there. Left as the unit's own space when not found."""
    out = []
    for d in position.dislodged:
        space = board.locations[d.unit.loc].space
        winner = position.units.get(space)
        attacker = d.attacker_from
        if winner is not None:
            for power, text in previous.orders:
                if power != winner.power:
                    continue
                try:
                    order = parse_order(board, text, PhaseKind.MOVEMENT)
                except OrderError:
                    continue
                if isinstance(order, Move) and board.locations[order.dest].space == space:
                    attacker = board.locations[order.loc].space
                    break
        out.append(replace(d, attacker_from=attacker))
    return tuple(out)


def _read_orders(board: Board, raw: object, where: str) -> tuple[tuple[str, str], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, Mapping):
        raise MilaFormatError(f"{where}: 'orders' must be an object (power to list of orders)")
    out: list[tuple[str, str]] = []
    for power_name, texts in raw.items():
        power = _power(board, power_name, f"{where}: orders")
        if texts is not None:
            out.extend((power, text) for text in _str_list(texts, f"{where}: orders.{power}"))
    return tuple(out)


def _read_results(raw: object, where: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, Mapping):
        raise MilaFormatError(f"{where}: 'results' must be an object (unit to result codes)")
    return tuple(
        (str(unit), tuple(_str_list(codes, f"{where}: results.{unit}"))) for unit, codes in raw.items()
    )


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------

PhaseEntry = tuple[Position, Iterable[tuple[str, Order]], Iterable[OrderResult]]
"""One played interboard phase: its starting position, the orders given and their results."""


def to_mila_game(
    phases: Iterable[PhaseEntry],
    final: Position | None = None,
    *,
    variant: str = "standard",
    game_id: str = "",
    rules: Sequence[str] = ("NO_PRESS", "POWER_CHOICE"),
    winners: Sequence[str] = (),
) -> MilaGame:
    """An interboard game as a :class:`MilaGame`. ``final`` is the position still to be played (the
    record's last phase, without orders); with ``winners`` it becomes MILA's ``COMPLETED`` phase.

    For a :class:`~interboard.diplomacy.game.Game`: ``to_mila_game([(r.position, r.orders,
    r.results) for r in game.history], game.position, winners=game.winners)``.
    """
    board = get_variant(variant).board
    out: list[MilaPhase] = []
    for position, orders, results in phases:
        # MILA leaves waives out of its records.
        texts = tuple(
            (power, _order_text(board, position, order))
            for power, order in orders
            if not isinstance(order, Waive)
        )
        out.append(MilaPhase(position.phase.name, position, texts, _results_codes(board, position, results)))
    if final is not None:
        if winners:
            final = replace(
                final,
                phase=Phase(
                    final.phase.year - (final.phase.season is Season.SPRING),
                    Season.WINTER,
                    PhaseKind.ADJUSTMENTS,
                ),
                dislodged=(),
            )
            out.append(MilaPhase(COMPLETED, final))
        else:
            out.append(MilaPhase(final.phase.name, final))
    return MilaGame(game_id, variant, tuple(rules), tuple(out))


def write_mila_game(
    game: MilaGame | Iterable[PhaseEntry],
    final: Position | None = None,
    *,
    variant: str = "standard",
    game_id: str = "",
) -> dict[str, Any]:
    """The MILA saved-game dict (``json.dumps`` it) of a :class:`MilaGame` or of played interboard
    phases (see :func:`to_mila_game`); MILA's ``from_saved_game_format`` loads it."""
    if not isinstance(game, MilaGame):
        game = to_mila_game(game, final, variant=variant, game_id=game_id)
    board = game.board
    rules = list(game.rules)
    phases = []
    for ph in game.phases:
        state = _state_dict(board, ph)
        state.update(game_id=game.id, map=game.map_name, rules=rules)
        orders: dict[str, list[str]] = {p.id: [] for p in board.powers}
        for power, text in ph.orders:
            orders.setdefault(power, []).append(text)
        phases.append(
            {
                "name": ph.name,
                "state": state,
                "orders": orders,
                "results": {unit: list(codes) for unit, codes in ph.results},
                "messages": [],
            }
        )
    return {"id": game.id, "map": game.map_name, "rules": rules, "phases": phases}


def _unit_text(board: Board, unit: Unit) -> str:
    return f"{unit.kind.value} {board.locations[unit.loc].id}"


def _state_dict(board: Board, ph: MilaPhase) -> dict[str, Any]:
    pos = ph.position
    units: dict[str, list[str]] = {p.id: [] for p in board.powers}
    retreats: dict[str, dict[str, list[str]]] = {p.id: {} for p in board.powers}
    centres: dict[str, list[str]] = {p.id: [] for p in board.powers}
    for space in sorted(pos.units):
        units[pos.units[space].power].append(_unit_text(board, pos.units[space]))
    for d in pos.dislodged:
        text = _unit_text(board, d.unit)
        units[d.unit.power].append("*" + text)
        retreats[d.unit.power][text] = [board.locations[loc].id for loc in d.retreats]
    for space in sorted(pos.centres):
        centres[pos.centres[space]].append(board.spaces[space].id)
    adjusting = pos.phase.kind is PhaseKind.ADJUSTMENTS and not ph.completed
    counts = adjustment_counts(board, pos) if adjusting else {}
    builds: dict[str, dict[str, Any]] = {}
    for p in board.powers:
        n = counts.get(p.id, 0)
        sites = [board.spaces[s].id for s in build_sites(board, pos, p.id)] if n > 0 else []
        builds[p.id] = {"count": n, "homes": sites}
    return {
        "name": ph.name,
        "note": "",
        "units": units,
        "retreats": retreats,
        "centers": centres,
        "homes": {p.id: [board.spaces[s].id for s in p.home_centres] for p in board.powers},
        "civil_disorder": dict.fromkeys(units, 0),
        "builds": builds,
    }


def _order_text(board: Board, position: Position, order: Order) -> str:
    """MILA's form of an order, with the unit kinds that interboard orders may leave out filled in."""

    def kind(loc: int) -> UnitKind | None:
        unit = position.units.get(board.locations[loc].space)
        if position.phase.kind is PhaseKind.RETREATS:
            unit = next((d.unit for d in position.dislodged if d.unit.loc == loc), unit)
        return unit.kind if unit is not None else None

    match order:
        case Hold() | Move() | Retreat() | Disband() | Remove() if order.unit is None:
            order = replace(order, unit=kind(order.loc))
        case SupportHold() | SupportMove() | Convoy():
            order = replace(order, unit=order.unit or kind(order.loc))
    match order:
        case SupportHold(target=t) | SupportMove(origin=t) if order.target_unit is None:
            order = replace(order, target_unit=kind(t))
    return format_order(board, order)


_REASON_CODES = {
    Reason.ILLEGAL: "void",
    Reason.VOID: "void",
    Reason.NO_CONVOY: "no convoy",
    Reason.BOUNCED: "bounce",
    Reason.CUT: "cut",
}


def _results_codes(
    board: Board, position: Position, results: Iterable[OrderResult]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """interboard's verdicts in MILA's result codes, per unit: ``''`` for a successful build or
    removal, ``disband`` for a retreating unit that does not survive, nothing for other successes.
    MILA's own labels differ in a few places (it calls a support for an attack on the supporter's
    own unit ``void``, and adds ``WAIVE`` entries); positions are what :func:`replay_mila` compares."""
    kind = position.phase.kind
    out: dict[str, list[str]] = {}
    for r in results:
        loc = order_loc(r.order)
        if loc is None:
            continue  # waives (and link orders, which MILA has not)
        unit = position.units.get(board.locations[loc].space)
        if kind is PhaseKind.RETREATS:
            unit = next((d.unit for d in position.dislodged if d.unit.loc == loc), unit)
        if isinstance(r.order, Build):
            unit = Unit(r.power, r.order.unit, loc)
        if unit is None:
            continue  # an order for no unit at all: MILA would have refused it
        codes = out.setdefault(_unit_text(board, unit), [])
        if kind is PhaseKind.ADJUSTMENTS:
            codes.append("" if r.succeeded else "void")
        elif kind is PhaseKind.RETREATS:
            if r.reason is Reason.BOUNCED:
                codes.append("bounce")
            if not r.succeeded or isinstance(r.order, Disband):
                codes.append("disband")
        else:
            if not r.succeeded and r.reason in _REASON_CODES:
                codes.append(_REASON_CODES[r.reason])
            if r.dislodged_by is not None or r.reason is Reason.DISLODGED:
                codes.append("dislodged")
    return tuple((unit, tuple(codes)) for unit, codes in out.items())


# ---------------------------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------------------------


def replay_mila(game: MilaGame, rulebook: Rulebook = Rulebook(Edition.E2000)) -> list[PhaseDiff]:
    """Adjudicate every recorded phase with interboard, from MILA's own state of that phase, and
    compare the result with the record's next phase. Returns the phases that differ.

    Orders interboard cannot read are dropped. MILA refuses invalid orders when they are given, so
    they never reach a record; under its ``NO_CHECK`` rule it records them and, at adjudication,
    makes the unit hold, which is also what interboard does with an order it refuses or drops.
    Retreat phases in which no dislodged unit can go anywhere are played through with no orders,
    because MILA destroys such units at once and skips the phase.
    """
    board = game.board
    diffs: list[PhaseDiff] = []
    for i, (ph, nxt) in enumerate(zip(game.phases, game.phases[1:], strict=False)):
        if ph.completed:
            continue
        problems = _replay_phase(board, ph, nxt, rulebook)
        if problems:
            diffs.append(PhaseDiff(i, ph.name, nxt.name, tuple(problems)))
    return diffs


def _replay_phase(board: Board, ph: MilaPhase, nxt: MilaPhase, rulebook: Rulebook) -> list[str]:
    orders: list[tuple[str, Order]] = []
    for power, text in ph.orders:
        try:
            orders.append((power, parse_power_order(board, text, ph.phase.kind).order))
        except OrderError:
            continue
    outcome = step(board, ph.position, orders, rulebook)
    pos = outcome.position
    winners = outcome.winners
    while pos.phase.kind is PhaseKind.RETREATS and not any(d.retreats for d in pos.dislodged) and not winners:
        outcome = step(board, pos, (), rulebook)
        pos, winners = outcome.position, outcome.winners
    problems: list[str] = []
    if nxt.completed:
        if not winners:
            problems.append("MILA ended the game with a victory; interboard found no winner")
    elif winners:
        problems.append(f"interboard found winners {', '.join(winners)}; MILA plays on to {nxt.name}")
    elif pos.phase.name != nxt.name:
        problems.append(f"next phase: MILA {nxt.name}, interboard {pos.phase.name}")
    problems += _compare_sets(
        "units",
        {f"{u.power} {_unit_text(board, u)}" for u in nxt.position.units.values()},
        {f"{u.power} {_unit_text(board, u)}" for u in pos.units.values()},
    )
    if not nxt.completed:
        problems += _compare_sets(
            "dislodged", _dislodged_set(board, nxt.position), _dislodged_set(board, pos)
        )
    problems += _compare_sets(
        "centres",
        {f"{board.spaces[s].id} {p}" for s, p in nxt.position.centres.items()},
        {f"{board.spaces[s].id} {p}" for s, p in pos.centres.items()},
    )
    return problems


def _dislodged_set(board: Board, pos: Position) -> set[str]:
    """Dislodged units that can retreat somewhere (MILA never records the others), with options."""
    out = set()
    for d in pos.dislodged:
        if d.retreats:
            options = " ".join(sorted(board.locations[x].id for x in d.retreats))
            out.add(f"{d.unit.power} {_unit_text(board, d.unit)} -> {options}")
    return out


def _compare_sets(what: str, mila: set[str], ours: set[str]) -> list[str]:
    out = []
    if mila - ours:
        out.append(f"{what} only in MILA: {', '.join(sorted(mila - ours))}")
    if ours - mila:
        out.append(f"{what} only in interboard: {', '.join(sorted(ours - mila))}")
    return out
