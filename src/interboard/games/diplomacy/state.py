"""Game state of the Diplomacy family: phases, units and positions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from ...board import Board, UnitKind


class Season(StrEnum):
    SPRING = "S"
    FALL = "F"
    WINTER = "W"


class PhaseKind(StrEnum):
    MOVEMENT = "M"
    RETREATS = "R"
    ADJUSTMENTS = "A"


_SEASON_NAMES = {Season.SPRING: "Spring", Season.FALL: "Fall", Season.WINTER: "Winter"}
_KIND_NAMES = {
    PhaseKind.MOVEMENT: "Movement",
    PhaseKind.RETREATS: "Retreat",
    PhaseKind.ADJUSTMENTS: "Adjustment",
}
_SHORT = re.compile(r"^([SFW])(\d{1,4})([MRA])$")


@dataclass(frozen=True, slots=True, order=True)
class Phase:
    """A phase such as Spring 1901 Movement, written ``S1901M`` (the MILA short name)."""

    year: int
    season: Season
    kind: PhaseKind

    @property
    def name(self) -> str:
        return f"{self.season.value}{self.year}{self.kind.value}"

    @property
    def long_name(self) -> str:
        return f"{_SEASON_NAMES[self.season]} {self.year} {_KIND_NAMES[self.kind]}"

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, text: str) -> Phase:
        """Read ``S1901M`` or ``Spring 1901, Movement`` / ``Fall 1901 Adjustment`` (jDip style)."""
        t = text.strip()
        m = _SHORT.match(t.upper())
        if m:
            return cls(int(m.group(2)), Season(m.group(1)), PhaseKind(m.group(3)))
        words = re.split(r"[\s,]+", t.lower())
        if len(words) == 3 and words[1].isdigit():
            season = {
                "spring": Season.SPRING,
                "fall": Season.FALL,
                "autumn": Season.FALL,
                "winter": Season.WINTER,
            }
            kinds = {
                "movement": PhaseKind.MOVEMENT,
                "retreat": PhaseKind.RETREATS,
                "retreats": PhaseKind.RETREATS,
                "adjustment": PhaseKind.ADJUSTMENTS,
                "adjustments": PhaseKind.ADJUSTMENTS,
                "build": PhaseKind.ADJUSTMENTS,
                "builds": PhaseKind.ADJUSTMENTS,
            }
            if words[0] in season and words[2] in kinds:
                kind = kinds[words[2]]
                s = Season.WINTER if kind is PhaseKind.ADJUSTMENTS else season[words[0]]
                return cls(int(words[1]), s, kind)
        raise ValueError(f"not a phase: {text!r} (expected e.g. 'S1901M' or 'Spring 1901, Movement')")


class Unit(NamedTuple):
    """A unit on the board (a named tuple: immutable and cheap to make on the hot path)."""

    power: str
    kind: UnitKind
    loc: int
    """Location index: the space, or a coast of a split-coast space for a fleet."""


@dataclass(frozen=True, slots=True)
class Dislodged:
    """A unit dislodged in a movement phase, waiting for its retreat order."""

    unit: Unit
    attacker_from: int
    """Space index the dislodging unit came from."""
    retreats: tuple[int, ...]
    """Location indices the unit may retreat to (empty: it can only disband)."""


@dataclass(frozen=True)
class Position:
    """Everything the rules need to play the next phase.

    ``units`` maps a space index to the unit standing in it (one unit per space). ``centres`` maps a
    supply-centre space index to its owner; unowned centres are absent. ``links`` and ``cuts`` are the
    link set of the variants whose links are game state; the geography to play on is the variant's
    printed geography with them laid over it.
    """

    phase: Phase
    units: dict[int, Unit]
    centres: dict[int, str]
    dislodged: tuple[Dislodged, ...] = ()
    eliminated: frozenset[str] = field(default_factory=frozenset)
    links: tuple[tuple[int, int], ...] = ()
    """Links made by the players (location pairs, each sorted), oldest first."""
    cuts: frozenset[tuple[int, int]] = field(default_factory=frozenset)
    """Printed adjacencies cut by the players (space pairs, each sorted)."""
    link_makers: tuple[str, ...] = ()
    """The power that made each link, in the order of ``links`` ('' where no record says; empty
    when none does). The map draws a link in its maker's colour."""

    def link_maker(self, k: int) -> str:
        return self.link_makers[k] if k < len(self.link_makers) else ""

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units.values() if u.power == power]

    def centres_of(self, power: str) -> list[int]:
        return [s for s, p in self.centres.items() if p == power]


def starting_position(board: Board) -> Position:
    """The map's start: Spring of its first year, its units and centre owners."""
    units = {board.locations[loc].space: Unit(power, kind, loc) for power, kind, loc in board.start.units}
    return Position(
        phase=Phase(board.start.year, Season.SPRING, PhaseKind.MOVEMENT),
        units=units,
        centres=dict(board.start.centres),
    )
