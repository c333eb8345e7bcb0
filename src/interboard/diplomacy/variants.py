"""Registered variants of the Diplomacy family: one value each (map, rules, description)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ..board import Board, load_shipped_board
from .rules import Rulebook
from .state import Position, starting_position


@dataclass(frozen=True, eq=False)
class Variant:
    id: str
    """Registry key, used on the command line and in game records (``standard``)."""
    title: str
    description: str
    map_name: str
    """Stem of the shipped map file the variant is played on."""
    rulebook: Rulebook = field(default_factory=Rulebook)
    """Default rule options; a game may choose another edition."""

    @cached_property
    def board(self) -> Board:
        return load_shipped_board(self.map_name)

    def start(self) -> Position:
        return starting_position(self.board)


VARIANTS: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    if variant.id in VARIANTS:
        raise ValueError(f"variant {variant.id!r} is already registered")
    VARIANTS[variant.id] = variant
    return variant


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name.lower()]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise KeyError(f"unknown variant {name!r} (known: {known})") from None


register(
    Variant(
        id="standard",
        title="Standard Diplomacy",
        description="Seven powers on the 1901 map of Europe; 18 of 34 supply centres win.",
        map_name="standard",
    )
)
