"""A package's names loaded with their modules when first asked for (PEP 562).

A family package that gathers its engine's names (``from interboard.games.diplomacy import Move``)
would otherwise import its whole engine with any module of it, its light catalog too
(``catalog.py``: what ``interboard variants`` and ``--help`` read). The package lists its names
twice: imported under ``TYPE_CHECKING`` for the type checker, and in the table given here for the
interpreter (``tests/test_registry.py`` checks that the two agree with ``__all__``)::

    if TYPE_CHECKING:
        from .engine import step
    else:
        __getattr__ = exports(__name__, {".engine": "step"})
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def exports(package: str, table: Mapping[str, str]) -> Callable[[str], object]:
    """The ``__getattr__`` of ``package``: each name of ``table`` (a relative module -> its names,
    separated by spaces) is imported from its module when first asked for, then kept in the package."""
    where = {name: module for module, names in table.items() for name in names.split()}

    def __getattr__(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
