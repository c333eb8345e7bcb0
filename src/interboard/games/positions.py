"""Reading a scenario position's fields (``docs/scenarios.md``): the checks every family's position
reader shares, each failing with :class:`PositionError` naming the field (``position.units[3]``)."""

from __future__ import annotations

from typing import Any

from .protocol import FamilyError


class PositionError(FamilyError):
    """A position field that cannot be read or breaks a rule."""


def fail(where: str, problem: str) -> PositionError:
    """The error for field ``where`` of the position (raise what this returns)."""
    return PositionError(f"position.{where}: {problem}")


def unknown_fields(position: Any, fields: tuple[str, ...], family: str) -> None:
    """Refuse a position that is no object, or names a field the family does not have."""
    if not isinstance(position, dict):
        raise PositionError(f"position: an object of the family's fields, not {type(position).__name__}")
    unknown = sorted(set(position) - set(fields))
    if unknown:
        raise fail(unknown[0], f"not a field of {family} position (fields: {', '.join(fields)})")


def an_object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise fail(where, f"an object, not {type(value).__name__}")
    return value


def a_list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise fail(where, f"a list, not {type(value).__name__}")
    return value


def whole(value: Any, where: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise fail(where, f"a whole number from {low}, not {value!r}")
    return value


def flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise fail(where, f"true or false, not {value!r}")
    return value
