"""The registry of rule families: the one place the generic parts of interboard reach a family.

Each family is a package of its own under ``interboard.games`` (its engine, variants and data,
record formats, map drawing, bots, CLI commands) exposing one :class:`~.protocol.Family` object.
Built-in families are listed in :data:`BUILTIN`, one line each; a package installed beside
interboard adds one through the entry point group ``interboard.families``, naming its object::

    [project.entry-points."interboard.families"]
    chess = "mypackage.family:FAMILY"

Families load lazily: importing this module imports no family, and a family is loaded when it is
first asked for (:func:`family`, :func:`find_variant`), alone. What is listed of a family before
that (its title, its variants' names, its commands) is its :class:`~.protocol.Catalog`: a built-in
family's is a light module of its own (:data:`CATALOGS`), so that ``interboard variants`` and
``interboard --help`` load no engine; an installed family is loaded to be listed.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .protocol import Catalog, Family, FamilyError, ListedVariant, VariantFiles, VariantInfo

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = [
    "BUILTIN",
    "CATALOGS",
    "Catalog",
    "Family",
    "FamilyError",
    "VariantInfo",
    "catalog",
    "catalogs",
    "families",
    "family",
    "find_variant",
    "listed_variant",
    "variants",
]

BUILTIN: dict[str, str] = {
    "diplomacy": "interboard.games.diplomacy.family:FAMILY",
    "globalwar": "interboard.games.globalwar.family:FAMILY",
    "axis_allies": "interboard.games.axis_allies.family:FAMILY",
    "hexwar": "interboard.games.hexwar.family:FAMILY",
}
"""Family name -> ``module:attribute`` of its protocol object."""

CATALOGS: dict[str, str] = {
    "diplomacy": "interboard.games.diplomacy.catalog:CATALOG",
    "globalwar": "interboard.games.globalwar.catalog:CATALOG",
    "axis_allies": "interboard.games.axis_allies.catalog:CATALOG",
    "hexwar": "interboard.games.hexwar.catalog:CATALOG",
}
"""Family name -> ``module:attribute`` of a built-in family's :class:`~.protocol.Catalog`."""

ENTRY_POINT_GROUP = "interboard.families"


def entry_points(group: str) -> Sequence[EntryPoint]:
    """The installed packages' entry points of ``group`` (``importlib.metadata`` is imported only
    when they are first looked for: it costs more than this whole module)."""
    from importlib.metadata import entry_points as installed

    return installed(group=group)


def _import(target: str) -> object:
    module_name, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def _load(target: str) -> Family:
    obj = _import(target)
    if not isinstance(obj, Family):
        raise FamilyError(f"{target} is not a rule family (it lacks part of the family protocol)")
    return obj


@cache
def _targets() -> dict[str, str]:
    """Every family's name and its object's ``module:attribute``, built-in first, then those
    installed through entry points (a name taken already is skipped)."""
    found = dict(BUILTIN)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, ep.value)
    return found


@cache
def _family(name: str) -> Family:
    fam = _load(_targets()[name])
    if fam.name != name:
        raise FamilyError(f"family registered as {name!r} calls itself {fam.name!r}")
    return fam


@cache
def families() -> dict[str, Family]:
    """Every family, built-in first, then those installed through entry points, by name (every one
    is loaded)."""
    return {name: _family(name) for name in _targets()}


def family(name: str) -> Family:
    """The family called ``name`` (loaded, alone, when first asked for); an unknown name is a
    :class:`FamilyError` listing the known ones."""
    if name not in _targets():
        raise FamilyError(f"unknown family {name!r} (families: {', '.join(_targets())})")
    return _family(name)


@cache
def catalogs() -> dict[str, Catalog]:
    """What is listed of every family, in the order of :func:`families`: a built-in family's
    catalog is read without loading the family; an installed family is loaded to be listed."""
    found: dict[str, Catalog] = {}
    for name in _targets():
        if name in CATALOGS:
            listed = _import(CATALOGS[name])
            if not isinstance(listed, Catalog):
                raise FamilyError(f"{CATALOGS[name]} is not a family's catalog")
        else:
            listed = Catalog.of(_family(name))
        if listed.name != name:
            raise FamilyError(f"family registered as {name!r} lists itself as {listed.name!r}")
        found[name] = listed
    return found


def catalog(name: str) -> Catalog:
    """What is listed of the family called ``name``; an unknown name is the :class:`FamilyError` of
    :func:`family`."""
    if name not in _targets():
        family(name)  # raises
    return catalogs()[name]


@cache
def _listed_index() -> dict[str, tuple[Catalog, ListedVariant]]:
    index: dict[str, tuple[Catalog, ListedVariant]] = {}
    for listed in catalogs().values():
        for variant in listed.variants:
            if variant.id in index:
                other = index[variant.id][0].name
                raise FamilyError(f"variant {variant.id!r} is offered by both {other} and {listed.name}")
            index[variant.id] = (listed, variant)
    return index


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
    """Every variant of every family (or of one family), grouped by family (every family it names
    is loaded: :func:`catalogs` lists them without)."""
    if family_name is not None:
        return family(family_name).variants()
    return [info for _, info in _variant_index().values()]


def _key(variant_id: str) -> str:
    return variant_id.strip().lower().replace("-", "_")


_FROM_FILES: dict[str, tuple[Family, VariantInfo]] = {}
"""The variants added from files in this process (:func:`add_variant`), by id."""


def add_variant(
    definition: Any, source: str = "variant", base: Path | None = None
) -> tuple[Family, VariantInfo]:
    """Offer the variant a parsed variant file defines (``docs/variants.md``), from now on in this
    process; its ``family`` is loaded. The same definition again is the same variant. Raises
    :class:`FamilyError` naming every error of the file."""
    if not isinstance(definition, Mapping):
        raise FamilyError(f"{source}: a variant file is a JSON object")
    name = definition.get("family")
    if not isinstance(name, str):
        raise FamilyError(f"{source}: family: missing (the rule family, such as 'diplomacy')")
    fam = family(name)
    if not isinstance(fam, VariantFiles):
        raise FamilyError(f"{source}: family: the {name} family's variants are not defined by files")
    info = fam.add_variant(definition, source, base)
    _FROM_FILES[info.id] = (fam, info)
    _variant_index.cache_clear()
    return fam, info


def add_variant_file(path: str | Path) -> tuple[Family, VariantInfo]:
    """:func:`add_variant` for a variant file; its map files are read beside it."""
    p = Path(path)
    try:
        definition = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise FamilyError(f"{p}: cannot be read: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FamilyError(f"{p.name}: not JSON: {exc}") from None
    return add_variant(definition, p.name, p.parent)


def listed_variant(variant_id: str) -> tuple[Catalog, ListedVariant]:
    """The catalog of a variant's family and the variant's names, by its id (``Twin-Earths-3`` reads
    as ``twin_earths_3``), with no family loaded. An unknown id is a :class:`FamilyError` that lists
    the variants of every family."""
    key = _key(variant_id)
    if key in _FROM_FILES:
        fam, info = _FROM_FILES[key]
        return catalog(fam.name), ListedVariant(info.id, info.title, info.description)
    found = _listed_index().get(key)
    if found is None:
        raise _unknown(variant_id)
    return found


def find_variant(variant_id: str) -> tuple[Family, VariantInfo]:
    """The family and description of a variant by its id (``Twin-Earths-3`` reads as ``twin_earths_3``);
    the family is loaded, alone. An unknown id is a :class:`FamilyError` that lists the variants of
    every family."""
    key = _key(variant_id)
    if key in _FROM_FILES:
        return _FROM_FILES[key]
    try:
        return _found(key)
    except KeyError:
        raise _unknown(variant_id) from None


@cache
def _found(key: str) -> tuple[Family, VariantInfo]:
    """A listed variant's family (loaded) and description, kept (a request's variant is looked up
    again and again); a :class:`KeyError` for an id that is not listed (not kept)."""
    listed, variant = _listed_index()[key]
    fam = family(listed.name)
    for info in fam.variants():
        if info.id == variant.id:
            return fam, info
    raise FamilyError(f"the {fam.name} family's catalog lists a variant {variant.id!r} it does not offer")


def _unknown(variant_id: str) -> FamilyError:
    listed = "; ".join(
        f"{name}: {', '.join(v.id for v in found.variants)}"
        for name, found in catalogs().items()
        if found.variants
    )
    key = _key(variant_id)
    hint = f" ({key!r} is a family; name one of its variants)" if key in _targets() else ""
    return FamilyError(f"unknown variant {variant_id!r}{hint} (variants: {listed})")
