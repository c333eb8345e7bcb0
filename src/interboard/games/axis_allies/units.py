"""Unit types of the Axis & Allies family, read from a game's data file (values, costs, abilities).

The values are the rulebooks' as TripleA's game files record them (see ``tools/convert_axis_allies.py``);
an ability is a named rule a unit takes part in, so the rules ask ``unit.has("submarine")`` rather
than naming unit types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Domain(StrEnum):
    LAND = "land"
    AIR = "air"
    SEA = "sea"
    BUILDING = "building"


ABILITIES = frozenset(
    {
        "artillery",  # raises the attack of one supportable unit beside it to 2
        "supportable",  # infantry and marines: supported by artillery
        "blitz",  # may move through an empty enemy territory and on
        "submarine",  # first strike, submerging, hits only ships
        "destroyer",  # cancels the enemy submarines' first strike
        "bombard",  # supports an amphibious assault from the sea
        "anti_aircraft",  # fires at each attacking aircraft
        "factory",  # industrial complex: where new units are placed
        "strategic_bomber",  # may bomb an enemy factory
        "marine",  # Pacific: attacks at +1 in an amphibious assault
        "air_base",  # Pacific airfields and harbours
        "infrastructure",  # cannot be destroyed in combat; changes owner
    }
)


@dataclass(frozen=True, slots=True)
class UnitType:
    id: str
    name: str
    symbol: str
    """Its letter in a map's badges ("i" for infantry, "B" for a battleship)."""
    domain: Domain
    cost: int | None
    """IPCs to buy one; None for a unit no one may buy."""
    attack: int
    defence: int
    movement: int
    hits: int = 1
    """Hits it takes to destroy it (2 for a battleship)."""
    transport_capacity: int = 0
    transport_cost: int = 0
    carrier_capacity: int = 0
    carrier_cost: int = 0
    abilities: frozenset[str] = field(default_factory=frozenset)

    def has(self, ability: str) -> bool:
        return ability in self.abilities

    @property
    def is_land(self) -> bool:
        return self.domain is Domain.LAND

    @property
    def is_air(self) -> bool:
        return self.domain is Domain.AIR

    @property
    def is_sea(self) -> bool:
        return self.domain is Domain.SEA

    @property
    def fights(self) -> bool:
        """Takes part in a battle as a unit that may be hit (buildings and AA guns do not)."""
        return self.domain is not Domain.BUILDING and not self.has("anti_aircraft")


class UnitDataError(ValueError):
    """A unit table that does not follow the format; the message names the unit and field."""


def unit_types(raw: Mapping[str, Any], source: str) -> dict[str, UnitType]:
    """The unit table of a game's data file, checked."""
    out: dict[str, UnitType] = {}
    for uid, u in raw.items():
        where = f"{source}: units.{uid}"
        try:
            abilities = frozenset(u.get("abilities", []))
            unknown = abilities - ABILITIES
            if unknown:
                raise UnitDataError(f"{where}: unknown abilities {sorted(unknown)}")
            out[uid] = UnitType(
                id=uid,
                name=str(u["name"]),
                symbol=str(u["symbol"]),
                domain=Domain(u["domain"]),
                cost=None if u.get("cost") is None else int(u["cost"]),
                attack=int(u["attack"]),
                defence=int(u["defence"]),
                movement=int(u["movement"]),
                hits=int(u.get("hits", 1)),
                transport_capacity=int(u.get("transport_capacity", 0)),
                transport_cost=int(u.get("transport_cost", 0)),
                carrier_capacity=int(u.get("carrier_capacity", 0)),
                carrier_cost=int(u.get("carrier_cost", 0)),
                abilities=abilities,
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, UnitDataError):
                raise
            raise UnitDataError(f"{where}: {exc.__class__.__name__}: {exc}") from None
    return out
