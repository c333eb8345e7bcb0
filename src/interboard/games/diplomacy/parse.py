"""One parser for every common way of writing a Diplomacy order.

Accepted, in any case:

* DATC long form: ``F Yorkshire Supports A Liverpool - Edinburgh``, ``A Norway - Sweden via Convoy``,
  ``F North Sea Convoys A London - Belgium``, ``Build A Berlin``, ``Remove F Gulf of Lyon``.
* Short form: ``A Lvp-Edi``, ``F Spa(nc)``, ``F spa/nc - mao``, ``A Bud S A Ser``.
* MILA form: ``A WAL S F MAO - IRI``, ``A IRO R MAO``, ``F LIV D``, ``A BER B``, ``WAIVE``.

An optional ``Power:`` prefix names the power giving the order. Errors raise
:class:`~interboard.diplomacy.errors.OrderSyntaxError` or
:class:`~interboard.diplomacy.errors.UnknownPlaceError`; legality in a position is checked elsewhere.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass

from ...board import Board, UnitKind
from .errors import AmbiguousPlaceError, OrderSyntaxError, UnknownPlaceError
from .orders import (
    Build,
    Convoy,
    DestroyLink,
    Disband,
    Hold,
    Link,
    Move,
    Order,
    ReinforceLink,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from .state import PhaseKind

_UNIT_WORDS = {"a": UnitKind.ARMY, "army": UnitKind.ARMY, "f": UnitKind.FLEET, "fleet": UnitKind.FLEET}
_HOLD = {"h", "hold", "holds", "stand", "stands"}
_MOVE = {"-", "m", "move", "moves", "to"}
_SUPPORT = {"s", "support", "supports"}
_CONVOY = {"c", "convoy", "convoys"}
_RETREAT = {"r", "retreat", "retreats"}
_DISBAND = {"d", "disband", "disbands"}
_REMOVE = {"remove", "removes"}
_BUILD = {"b", "build", "builds"}
_COASTS = {
    "nc": "NC",
    "north": "NC",
    "n": "NC",
    "sc": "SC",
    "south": "SC",
    "s": "SC",
    "ec": "EC",
    "east": "EC",
    "e": "EC",
    "wc": "WC",
    "west": "WC",
    "w": "WC",
}
_LINK_WORDS: dict[str, type[Link] | type[DestroyLink] | type[ReinforceLink]] = {
    "link": Link,
    "destroy": DestroyLink,
    "separate": DestroyLink,
    "cut": DestroyLink,
    "reinforce": ReinforceLink,
}
_CACHE_SIZE = 50_000
_POWER_PREFIX = re.compile(r"^\s*([A-Za-z][A-Za-z .'-]*?)\s*:\s*(.*)$", re.S)


class _Names:
    """Lookup tables from normalised names to spaces (per board) and power ids for one board."""

    def __init__(self, board: Board) -> None:
        self.spaces: dict[str, dict[str, int]] = {}
        """Normalised name -> board name ('' on a single printed map) -> space index."""
        self.hyphenated: list[tuple[str, str]] = []
        for space in board.spaces:
            base_id = space.id.rsplit("-", 1)[0] if board.boards else space.id
            for name in (base_id, space.name, *space.aliases):
                low = name.lower()
                if "-" in low:
                    self.hyphenated.append((low, low.replace("-", " ")))
                key = " ".join(_normalise(low.replace("-", " ")))
                self.spaces.setdefault(key, {}).setdefault(space.board if board.boards else "", space.index)
        self.hyphenated = sorted(set(self.hyphenated), key=lambda pair: -len(pair[0]))
        self.max_words = max(len(k.split()) for k in self.spaces)
        self.boards = {b.lower(): b for b in board.boards}
        self.parsed: dict[tuple[str, PhaseKind | None], Order] = {}
        self.powers: dict[str, str] = {}
        for power in board.powers:
            for name in (power.id, power.name, power.adjective):
                self.powers[name.lower()] = power.id


_NAMES: weakref.WeakKeyDictionary[Board, _Names] = weakref.WeakKeyDictionary()


def _names(board: Board) -> _Names:
    names = _NAMES.get(board)
    if names is None:
        names = _NAMES[board] = _Names(board)
    return names


def _normalise(text: str) -> list[str]:
    text = text.replace("->", " - ").replace("\u2013", " - ").replace("\u2192", " - ")
    text = text.replace("(", " / ").replace(")", " ").replace("/", " / ").replace("-", " - ")
    text = text.replace(".", " ").replace(",", " ")
    return text.split()


@dataclass(frozen=True, slots=True)
class PowerOrder:
    power: str | None
    order: Order


def resolve_power(board: Board, name: str, text: str = "") -> str:
    """The power id for a power's id, name or adjective (any case)."""
    power = _names(board).powers.get(name.strip().lower())
    if power is None:
        choices = ", ".join(p.name for p in board.powers)
        raise UnknownPlaceError(text or name, f"unknown power '{name.strip()}' (this map has {choices})")
    return power


def parse_power_order(board: Board, text: str, phase: PhaseKind | None = None) -> PowerOrder:
    """Parse ``Power: order`` (the prefix is optional)."""
    m = _POWER_PREFIX.match(text)
    if m and m.group(1).strip().lower() in _names(board).powers:
        return PowerOrder(resolve_power(board, m.group(1), text), parse_order(board, m.group(2), phase))
    if m and ":" in text:
        resolve_power(board, m.group(1), text)  # raises the unknown-power error
    return PowerOrder(None, parse_order(board, text, phase))


def parse_order(board: Board, text: str, phase: PhaseKind | None = None) -> Order:
    """Parse one order. ``phase`` tells a retreat (``A Hol - Bel``) from a move, and a removal
    (``F Lon D``) from a retreat-phase disband; without it a ``-`` order is a move."""
    # Orders are immutable values and the same texts recur in every game: remember them.
    cache = _names(board).parsed
    key = (text, phase)
    order = cache.get(key)
    if order is None:
        order = _Parser(board, text).order(phase)
        if len(cache) >= _CACHE_SIZE:
            cache.clear()
        cache[key] = order
    return order


class _Parser:
    def __init__(self, board: Board, text: str) -> None:
        self.board = board
        self.text = text
        self.names = _names(board)
        low = text.lower()
        for hyphen, spaced in self.names.hyphenated:
            if hyphen in low:
                low = low.replace(hyphen, spaced)
        self.tokens = _normalise(low)
        self.i = 0

    # ---- token helpers ----
    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, words: set[str] | dict[str, object]) -> str | None:
        tok = self.peek()
        if tok is not None and tok in words:
            self.i += 1
            return tok
        return None

    def syntax(self, problem: str) -> OrderSyntaxError:
        return OrderSyntaxError(self.text, problem)

    def unit_kind(self) -> UnitKind | None:
        tok = self.peek()
        if tok in _UNIT_WORDS:
            # "a" is also the start of no place name, so a unit word is always a unit word here.
            self.i += 1
            return _UNIT_WORDS[tok]
        return None

    def place(self, what: str) -> int:
        """Read a place name with optional coast and board; return its location index.

        Boards are named after the place (``Mun-Y``, ``Munich I``, ``Spa/nc-Y``, ``Spa-Y/nc``); on a
        geography of several boards a place without its board is an error naming the choices.
        """
        start = self.i
        if start >= len(self.tokens):
            raise self.syntax(f"{what} is missing")
        found: dict[str, int] | None = None
        for width in range(min(self.names.max_words, len(self.tokens) - start), 0, -1):
            key = " ".join(self.tokens[start : start + width])
            if key in self.names.spaces:
                found = self.names.spaces[key]
                self.i = start + width
                break
        if found is None:
            word = self.tokens[start]
            raise UnknownPlaceError(self.text, f"unknown place '{word}' for the {what}")
        written = " ".join(self.tokens[start : self.i])
        coast = self._coast(written)
        board = self._board()
        if board is not None and coast is None:
            coast = self._coast(written)
        if self.names.boards:
            if board is None:
                named = self.board.spaces[next(iter(found.values()))].name
                choices = " or ".join(f"{named}-{b}" for b in sorted(found))
                raise AmbiguousPlaceError(self.text, f"'{written}' needs its board: {choices}")
            if board not in found:
                raise UnknownPlaceError(self.text, f"there is no '{written}' on board {board}")
            space = found[board]
        else:
            space = found[""]
        sp = self.board.spaces[space]
        if sp.kind.value == "impassable":
            raise UnknownPlaceError(self.text, f"{self.board.place_name(space)} is impassable")
        if coast is None:
            return self.board.location_by_id[sp.id]
        for c in sp.coasts:
            if self.board.locations[c].coast == coast:
                return c
        if not sp.coasts:
            # A coast named on a province without split coasts says nothing more: ignore it.
            return self.board.location_by_id[sp.id]
        have = ", ".join(self.board.locations[c].coast or "" for c in sp.coasts)
        raise UnknownPlaceError(
            self.text, f"{self.board.place_name(space)} has no {coast} coast (it has {have})"
        )

    def _coast(self, written: str) -> str | None:
        if self.peek() == "/":
            self.i += 1
            tok = self.peek()
            if tok not in _COASTS:
                raise UnknownPlaceError(self.text, f"unknown coast '{tok or ''}' after '{written}'")
            self.i += 1
            self.take({"coast"})
            return _COASTS[tok]
        if self.peek() in ("nc", "sc", "ec", "wc"):
            self.i += 1
            return _COASTS[self.tokens[self.i - 1]]
        return None

    def _board(self) -> str | None:
        boards = self.names.boards
        if not boards:
            return None
        tok = self.peek()
        if tok in boards:
            self.i += 1
            return boards[tok]
        if tok == "-" and self.i + 1 < len(self.tokens) and self.tokens[self.i + 1] in boards:
            self.i += 2
            return boards[self.tokens[self.i - 1]]
        return None

    def end(self) -> None:
        if self.i != len(self.tokens):
            rest = " ".join(self.tokens[self.i :])
            raise self.syntax(f"unexpected '{rest}' at the end")

    def via(self) -> bool:
        if self.take({"via", "by"}):
            self.take({"convoy", "c"})
            return True
        return False

    # ---- grammar ----
    def order(self, phase: PhaseKind | None) -> Order:
        if not self.tokens:
            raise self.syntax("empty order")
        first = self.peek()
        if first in _LINK_WORDS:
            self.i += 1
            a = self.place("first end of the link")
            self.take({"-", "to", "and", "with"})
            b = self.place("second end of the link")
            self.end()
            return _LINK_WORDS[first](a, b)
        if first == "waive":
            self.i += 1
            self.take({"build"})
            self.end()
            return Waive()
        if first in ("build", "builds") or (
            first == "b" and len(self.tokens) > 1 and self.tokens[1] in _UNIT_WORDS
        ):
            self.i += 1
            if self.peek() == "waive":
                self.i += 1
                self.end()
                return Waive()
            kind = self.unit_kind()
            if kind is None:
                raise self.syntax("a build names the unit: 'Build A Berlin'")
            loc = self.place("build site")
            self.end()
            return Build(loc, kind)
        if first in _REMOVE or first in ("disband", "disbands"):
            self.i += 1
            kind = self.unit_kind()
            loc = self.place("unit")
            self.end()
            if first in _REMOVE or phase is PhaseKind.ADJUSTMENTS:
                return Remove(loc, kind)
            return Disband(loc, kind)
        if first in ("retreat", "retreats"):
            self.i += 1

        kind = self.unit_kind()
        loc = self.place("unit")
        tok = self.peek()
        if tok is None or tok in _HOLD:
            self.take(_HOLD)
            self.end()
            return Hold(loc, kind)
        if tok in _MOVE or tok in _RETREAT:
            self.i += 1
            dest = self.place("destination")
            via = self.via()
            self.end()
            if tok in _RETREAT or phase is PhaseKind.RETREATS:
                if via:
                    raise self.syntax("a retreat cannot go via convoy")
                return Retreat(loc, dest, kind)
            return Move(loc, dest, kind, via)
        if tok in _SUPPORT:
            self.i += 1
            target_kind = self.unit_kind()
            target = self.place("supported unit")
            if self.take(_MOVE):
                dest = self.place("destination of the supported move")
                self.via()  # "supports A x - y via convoy": the qualifier belongs to the other order
                self.end()
                return SupportMove(loc, target, dest, kind, target_kind)
            self.take(_HOLD)
            self.end()
            return SupportHold(loc, target, kind, target_kind)
        if tok in _CONVOY:
            self.i += 1
            self.unit_kind()
            origin = self.place("convoyed army")
            if not self.take(_MOVE):
                raise self.syntax("a convoy names the army's move: 'F North Sea Convoys A London - Belgium'")
            dest = self.place("destination of the convoyed army")
            self.end()
            return Convoy(loc, origin, dest, kind)
        if tok in _DISBAND:
            self.i += 1
            self.end()
            return Remove(loc, kind) if phase is PhaseKind.ADJUSTMENTS else Disband(loc, kind)
        if tok in _REMOVE:
            self.i += 1
            self.end()
            return Remove(loc, kind)
        if tok in _BUILD:
            self.i += 1
            self.end()
            if kind is None:
                raise self.syntax("a build names the unit: 'A Berlin Build'")
            return Build(loc, kind)
        raise self.syntax(
            f"expected hold, move ('-'), support, convoy, retreat, disband or build, not '{tok}'"
        )


def parse_unit(board: Board, text: str) -> tuple[UnitKind, int]:
    """Parse a unit written ``F North Sea``, ``A par`` or ``F stp/sc``: (kind, location index)."""
    p = _Parser(board, text)
    kind = p.unit_kind()
    if kind is None:
        raise OrderSyntaxError(text, "a unit is written 'A Paris' or 'F North Sea'")
    loc = p.place("unit")
    p.end()
    return kind, loc


def parse_place(board: Board, text: str) -> int:
    """Parse a place name (with optional coast): its location index."""
    p = _Parser(board, text)
    loc = p.place("place")
    p.end()
    return loc
