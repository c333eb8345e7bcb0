"""Registered variants of the Diplomacy family: one value each (geography, rules, description).

A variant adds data and a few lines here; the adjudicator does not change. Variants whose links are
game state (Twin Earths III, Hyperspace II) play each position on ``board_for(position)``: the
printed geography with the position's links laid over it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property

from ...board import Board, load_packaged_board
from ...board.geography import PowerSpec, join_boards, with_links
from .rules import LinkRules, Rulebook
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


VARIANTS: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    if variant.id in VARIANTS:
        raise ValueError(f"variant {variant.id!r} is already registered")
    VARIANTS[variant.id] = variant
    return variant


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name.lower().replace("-", "_")]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise KeyError(f"unknown variant {name!r} (known: {known})") from None


def _standard() -> Board:
    return load_packaged_board(MAPS_PACKAGE, "standard")


def _twin_earths_1() -> Board:
    printed = _standard()
    powers = [PowerSpec(p.id, p.name, p.adjective, p.colour, p.id, ("I", "II")) for p in printed.powers]
    return join_boards(
        [("I", printed), ("II", printed)],
        powers,
        id="twin_earths_1",
        title="Twin Earths I",
        victory=35,
        start_year=1900,
        corresponding=True,
    )


def _twin_earths_3() -> Board:
    printed = _standard()
    powers = [
        PowerSpec(f"{p.id}-{b}", f"{p.name}-{b}", p.adjective, p.colour, p.id, (b,))
        for b in ("Y", "Z")
        for p in printed.powers
    ]
    return join_boards(
        [("Y", printed), ("Z", printed)],
        powers,
        id="twin_earths_3",
        title="Twin Earths III",
        victory=23,
        start_year=1900,
    )


def twin_earths_3_rules(
    link_limit: int | None = None, cut_printed: bool = False, cross_board_only: bool = False
) -> Rulebook:
    """Twin Earths III with its optional rules: 1 (``link_limit``, 30 in the text), 2 (``cut_printed``),
    3 (``cross_board_only``)."""
    links = LinkRules(limit=link_limit, cut_printed=cut_printed, cross_board_only=cross_board_only)
    return Rulebook(links=links, victory_by_units=True, winter_every_year=True)


HYPERSPACE_LINKS = LinkRules(
    phase=PhaseKind.MOVEMENT,
    per_kind=True,
    opening_links=1,
    homeland_restriction=False,
    reinforce=False,
    cut_printed=True,
)

register(
    Variant(
        id="standard",
        title="Standard Diplomacy",
        description="Seven powers on the 1901 map of Europe; 18 of 34 supply centres win.",
        make_board=_standard,
    )
)
register(
    Variant(
        id="twin_earths_1",
        title="Twin Earths I (rs16, Don Miller)",
        description=(
            "Two standard boards, I and II, each space joined to the same space on the other board. "
            "Seven powers, each with its homeland on both boards; the game opens with builds in "
            "Winter 1900 on empty centres. 35 units after a Winter win. Played without DIPLOMANIA "
            "house rule #9, whose content is not known: nothing is done for it."
        ),
        make_board=_twin_earths_1,
        rulebook=Rulebook(victory_by_units=True),
        opening=PhaseKind.ADJUSTMENTS,
    )
)
register(
    Variant(
        id="twin_earths_3",
        title="Twin Earths III (rm11, Lew Pulsipher)",
        description=(
            "Two standard boards, Y and Z, unconnected at the start; fourteen powers (Germany-Y ... "
            "Turkey-Z). Each Winter the powers LINK, DESTROY and REINFORCE links between spaces, as "
            "many as their centres allow. 23 units after a Winter win. Options: 1 link limit (oldest "
            "dropped), 2 cutting printed adjacencies, 3 links between boards only."
        ),
        make_board=_twin_earths_3,
        rulebook=twin_earths_3_rules(),
        opening=PhaseKind.ADJUSTMENTS,
    )
)
register(
    Variant(
        id="hyperspace_2",
        title="Hyperspace Diplomacy II (Don Miller, 1972)",
        description=(
            "The standard board; with its movement orders each power may order one LINK (two spaces "
            "become adjacent) and one SEPARATE (an adjacency or a link is cut) a season, in effect "
            "from the next movement phase. 18 centres win."
        ),
        make_board=_standard,
        rulebook=Rulebook(links=HYPERSPACE_LINKS),
    )
)
