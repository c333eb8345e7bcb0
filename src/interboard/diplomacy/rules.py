"""Rule options of the Diplomacy family, as typed values (not free strings)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


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
class Rulebook:
    edition: Edition = Edition.E2023

    @property
    def land_route_fallback(self) -> bool:
        """An adjacent move ordered ``via convoy`` with no ordered convoy route goes by land (6.G.8)."""
        return self.edition is Edition.E2000

    @classmethod
    def of(cls, edition: str | Edition) -> Rulebook:
        try:
            return cls(Edition(str(edition.value if isinstance(edition, Edition) else edition)))
        except ValueError:
            raise ValueError(f"unknown rulebook edition {edition!r} (choose 2023 or 2000)") from None
