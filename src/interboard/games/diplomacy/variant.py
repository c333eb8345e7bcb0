"""One variant of the Diplomacy family: its printed geography, its rules and its first phase.

Variants are registered in :mod:`.variants`: the standard game in code, the linked ones from their
variant files (:mod:`.variant_file`). Variants whose links are game state (Twin Earths III,
Hyperspace II) play each position on ``board_for(position)``: the printed geography with the
position's links laid over it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property

from ...board import Board
from ...board.geography import with_links
from .rules import Rulebook
from .state import Phase, PhaseKind, Position, Season, starting_position

MAPS_PACKAGE = "interboard.games.diplomacy.data.maps"
"""Where the family's map files are shipped."""


@dataclass(frozen=True, eq=False)
class Variant:
    id: str
    """Registry key, used on the command line and in game records (``standard``)."""
    title: str
    description: str
    make_board: Callable[[], Board] = field(repr=False)
    """Builds the printed geography (once; it is cached)."""
    rulebook: Rulebook = field(default_factory=Rulebook)
    """Default rule options; a game may choose others (edition, optional rules)."""
    opening: PhaseKind = PhaseKind.MOVEMENT
    """The first phase: Spring movement, or a Winter adjustment before it (Twin Earths)."""

    @cached_property
    def board(self) -> Board:
        """The printed geography, without any links made in play."""
        return self.make_board()

    def board_for(self, position: Position) -> Board:
        """The geography ``position`` is played on."""
        if not position.links and not position.cuts:
            return self.board
        return with_links(self.board, position.links, position.cuts)

    def start(self) -> Position:
        position = starting_position(self.board)
        if self.opening is PhaseKind.ADJUSTMENTS:
            year = self.board.start.year
            position = replace(position, phase=Phase(year, Season.WINTER, PhaseKind.ADJUSTMENTS))
        return position
