"""Rule options of the Diplomacy family, as typed values (not free strings)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from .state import PhaseKind


class Edition(StrEnum):
    """Which rulebook edition settles the questions the editions answer differently."""

    E2023 = "2023"
    """DATC v3.0 preferences: ``via convoy`` means by convoy only; civil disorder removes the units
    farthest from the nearest owned centre, counting over land and sea for both kinds."""
    E2000 = "2000"
    """DATC v2.4 preferences, as MILA, godip and jDip implement them: an adjacent ``via convoy`` move
    falls back to the land route when no convoy route was ordered; civil disorder removes the units
    farthest from a home centre (armies over land and sea, fleets by sea), ties by location id."""


@dataclass(frozen=True, slots=True)
class LinkRules:
    """Links made and broken by the players' orders (Twin Earths III, Hyperspace II)."""

    phase: PhaseKind = PhaseKind.ADJUSTMENTS
    """The phase in which link orders are given (Winter for Twin Earths III, movement for Hyperspace)."""
    allowance: tuple[tuple[int, int], ...] = ((20, 3), (10, 2), (3, 1))
    """(centres at least, orders) from the top: how many LINK/DESTROY/REINFORCE orders a power may give."""
    per_kind: bool = False
    """Hyperspace: one LINK and one SEPARATE a season, instead of an allowance shared by all kinds."""
    opening_links: int = 1
    """Orders allowed in the opening Winter whatever the centres (Twin Earths III: one LINK)."""
    homeland_restriction: bool = True
    """Neither end of a link may lie in another power's homeland."""
    reinforce: bool = True
    """REINFORCE orders exist (Twin Earths III); without them a destroy always succeeds."""
    limit: int | None = None
    """Optional 1: at most this many links; the oldest are dropped after each resolution."""
    cut_printed: bool = False
    """Optional 2 (always on in Hyperspace): DESTROY may cut an adjacency of the printed board."""
    cross_board_only: bool = False
    """Optional 3: a link must join spaces on different boards."""


@dataclass(frozen=True, slots=True)
class Rulebook:
    edition: Edition = Edition.E2023
    links: LinkRules | None = None
    """Link orders, for the variants whose links are game state."""
    victory_by_units: bool = False
    """Victory counts units on the board after a Winter (Twin Earths) instead of centres after Fall."""
    winter_every_year: bool = False
    """Play the Winter phase even when nobody builds or removes (link orders are due then)."""

    @property
    def land_route_fallback(self) -> bool:
        """An adjacent move ordered ``via convoy`` with no ordered convoy route goes by land (6.G.8)."""
        return self.edition is Edition.E2000

    def with_edition(self, edition: str | Edition) -> Rulebook:
        """The same rules under another edition."""
        return replace(self, edition=Rulebook.of(edition).edition)

    @classmethod
    def of(cls, edition: str | Edition) -> Rulebook:
        try:
            return cls(Edition(str(edition.value if isinstance(edition, Edition) else edition)))
        except ValueError:
            raise ValueError(f"unknown rulebook edition {edition!r} (choose 2023 or 2000)") from None
