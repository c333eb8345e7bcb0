"""The registry of rule families: the one place the generic parts of interboard reach a family.

Each family is a package of its own under ``interboard.games`` (its engine, variants and data,
record formats, map drawing, bots, CLI commands) exposing one :class:`~.protocol.Family` object.
Built-in families are listed in :data:`BUILTIN`, one line each; a package installed beside
interboard adds one through the entry point group ``interboard.families``, naming its object::

    [project.entry-points."interboard.families"]
    chess = "mypackage.family:FAMILY"

Families load lazily: importing this module imports no family.
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib.metadata import entry_points

from .protocol import Family, FamilyError, VariantInfo

__all__ = [
    "BUILTIN",
    "Family",
    "FamilyError",
    "VariantInfo",
    "families",
    "family",
    "find_variant",
    "variants",
]

BUILTIN: dict[str, str] = {
    "diplomacy": "interboard.games.diplomacy.family:FAMILY",
    "globalwar": "interboard.games.globalwar.family:FAMILY",
    "axis_allies": "interboard.games.axis_allies.family:FAMILY",
    "hexwar": "interboard.games.hexwar.family:FAMILY",
}
"""Family name -> ``module:attribute`` of its protocol object."""

ENTRY_POINT_GROUP = "interboard.families"


def _load(target: str) -> Family:
    module_name, _, attribute = target.partition(":")
    obj = getattr(importlib.import_module(module_name), attribute)
    if not isinstance(obj, Family):
        raise FamilyError(f"{target} is not a rule family (it lacks part of the family protocol)")
    return obj


@cache
def families() -> dict[str, Family]:
    """Every family, built-in first, then those installed through entry points, by name."""
    found = {name: _load(target) for name, target in BUILTIN.items()}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name not in found:
            found[ep.name] = _load(ep.value)
    for name, fam in found.items():
        if fam.name != name:
            raise FamilyError(f"family registered as {name!r} calls itself {fam.name!r}")
    return found


def family(name: str) -> Family:
    """The family called ``name``; an unknown name is a :class:`FamilyError` listing the known ones."""
    try:
        return families()[name]
    except KeyError:
        raise FamilyError(f"unknown family {name!r} (families: {', '.join(families())})") from None


@cache
def _variant_index() -> dict[str, tuple[Family, VariantInfo]]:
    index: dict[str, tuple[Family, VariantInfo]] = {}
    for fam in families().values():
        for info in fam.variants():
            if info.id in index:
                other = index[info.id][0].name
                raise FamilyError(f"variant {info.id!r} is offered by both {other} and {fam.name}")
            index[info.id] = (fam, info)
    return index


def variants(family_name: str | None = None) -> list[VariantInfo]:
    """Every variant of every family (or of one family), grouped by family."""
    if family_name is not None:
        return family(family_name).variants()
    return [info for _, info in _variant_index().values()]


def find_variant(variant_id: str) -> tuple[Family, VariantInfo]:
    """The family and description of a variant by its id (``Twin-Earths-3`` reads as ``twin_earths_3``).
    An unknown id is a :class:`FamilyError` that lists the variants of every family."""
    key = variant_id.strip().lower().replace("-", "_")
    try:
        return _variant_index()[key]
    except KeyError:
        pass
    by_family: dict[str, list[str]] = {}
    for fam, info in _variant_index().values():
        by_family.setdefault(fam.name, []).append(info.id)
    listed = "; ".join(f"{name}: {', '.join(ids)}" for name, ids in by_family.items())
    hint = ""
    if key in families():
        hint = f" ({key!r} is a family; name one of its variants)"
    raise FamilyError(f"unknown variant {variant_id!r}{hint} (variants: {listed})")
