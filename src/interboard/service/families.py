"""The rule families the game master knows, by name (the interface they offer is in :mod:`.family`)."""

from __future__ import annotations

from .diplomacy_family import DiplomacyFamily
from .family import FamilyError, GameFamily, Processed, VariantInfo
from .globalwar_family import GlobalWarFamily

__all__ = [
    "FAMILIES",
    "DiplomacyFamily",
    "FamilyError",
    "GameFamily",
    "GlobalWarFamily",
    "Processed",
    "VariantInfo",
    "get_family",
]

FAMILIES: dict[str, GameFamily] = {"diplomacy": DiplomacyFamily(), "globalwar": GlobalWarFamily()}


def get_family(name: str) -> GameFamily:
    try:
        return FAMILIES[name]
    except KeyError:
        raise FamilyError(f"unknown family {name!r} (known: {', '.join(FAMILIES)})") from None
