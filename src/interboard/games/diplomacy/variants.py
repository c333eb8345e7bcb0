"""The registered variants of the Diplomacy family.

The standard game is registered in code; the linked variants (Twin Earths I and III, Hyperspace II)
from their variant files, shipped in ``data/variants`` (:mod:`.variant_file`, ``docs/variants.md``):
a new linked game is a file, not code. The adjudicator does not change for any of them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from ...board import Board, load_packaged_board
from .rules import LinkRules, Rulebook
from .variant import MAPS_PACKAGE, Variant
from .variant_file import VariantFileError, variant_from_data, with_maps_written_in

__all__ = [
    "MAPS_PACKAGE",
    "VARIANTS",
    "Variant",
    "add_defined",
    "get_variant",
    "register",
    "twin_earths_3_rules",
]

VARIANTS_PACKAGE = "interboard.games.diplomacy.data.variants"
"""Where the family's variant files are shipped."""
SHIPPED_FILES = ("twin_earths_1", "twin_earths_3", "hyperspace_2")
"""The shipped variant files, in the order the variants are listed."""


VARIANTS: dict[str, Variant] = {}
DEFINITIONS: dict[str, str] = {}
"""The definitions (JSON text, map files written in) of the variants added from files in this
process, by id: a record keeps its variant's."""


def register(variant: Variant) -> Variant:
    if variant.id in VARIANTS:
        raise ValueError(f"variant {variant.id!r} is already registered")
    VARIANTS[variant.id] = variant
    return variant


def add_defined(
    definition: Mapping[str, Any], source: str = "variant", base: Path | None = None
) -> tuple[Variant, str]:
    """Register the variant a parsed variant file defines, with its definition as a record keeps it;
    the same definition again gives the variant registered. Raises :class:`VariantFileError`."""
    variant = variant_from_data(definition, source, base)
    kept = json.dumps(with_maps_written_in(definition, base), sort_keys=True, separators=(",", ":"))
    if variant.id in VARIANTS:
        if DEFINITIONS.get(variant.id) == kept:
            return VARIANTS[variant.id], kept
        taken = "a built-in variant" if variant.id not in DEFINITIONS else "another variant file"
        raise VariantFileError(source, [f"id: {variant.id!r} is taken by {taken}"])
    register(variant)
    DEFINITIONS[variant.id] = kept
    return variant, kept


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name.lower().replace("-", "_")]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise KeyError(f"unknown variant {name!r} (known: {known})") from None


def _standard() -> Board:
    return load_packaged_board(MAPS_PACKAGE, "standard")


def twin_earths_3_rules(
    link_limit: int | None = None, cut_printed: bool = False, cross_board_only: bool = False
) -> Rulebook:
    """Twin Earths III with its optional rules: 1 (``link_limit``, 30 in the text), 2 (``cut_printed``),
    3 (``cross_board_only``)."""
    links = LinkRules(limit=link_limit, cut_printed=cut_printed, cross_board_only=cross_board_only)
    return Rulebook(links=links, victory_by_units=True, winter_every_year=True)


register(
    Variant(
        id="standard",
        title="Standard Diplomacy",
        description="Seven powers on the 1901 map of Europe; 18 of 34 supply centres win.",
        make_board=_standard,
    )
)


def _shipped(name: str) -> Variant:
    text = resources.files(VARIANTS_PACKAGE).joinpath(f"{name}.json").read_text(encoding="utf-8")
    return variant_from_data(json.loads(text), source=f"{name}.json", board_now=False)


for _name in SHIPPED_FILES:
    register(_shipped(_name))
