"""What the generic commands share: errors, rule options from the command line, the families' CLI
modules and their record hooks, and reading a record of any known format."""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import typer

from ..games import add_variant_file, families
from ..games.protocol import Family, FamilyError, OptionValue, VariantInfo

if TYPE_CHECKING:
    from ..games.record import Match


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: message`` on standard error; raise what this returns."""
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    return typer.Exit(code)


def parse_options(info: VariantInfo, pairs: Sequence[str]) -> dict[str, OptionValue]:
    """``NAME=VALUE`` texts read as the variant's rule options (typed and checked)."""
    out: dict[str, OptionValue] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise FamilyError(
                f"--option {pair!r}: write NAME=VALUE (options of {info.id}: "
                f"{', '.join(o.name for o in info.options) or 'none'})"
            )
        out[name.strip()] = info.option(name.strip()).parse(value, info.id)
    return out


def family_cli(fam: Family) -> ModuleType | None:
    """The family's CLI module, or ``None`` when it has none."""
    return importlib.import_module(fam.cli) if fam.cli else None


def hooks(name: str) -> dict[str, Any]:
    """A hook table (``REPLAYERS``: format -> replay command; ``CONVERTERS``: format -> function
    giving an ``interboard-record/1``) merged over every family's CLI module."""
    found: dict[str, Any] = {}
    for fam in families().values():
        module = family_cli(fam)
        if module is not None:
            found.update(getattr(module, name, {}))
    return found


def load_any_record(path: Path, until: str | int | None = None) -> Match:
    """A record of any known format, replayed (native formats are converted first); ``until`` stops
    at that decision point, named or numbered from 0."""
    from ..games.record import RecordError
    from ..games.record import replay as replay_record

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise fail(f"{path}: cannot be read ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise fail(f"{path}: not a text file ({exc.reason})") from exc
    except json.JSONDecodeError as exc:
        raise fail(f"{path}: not JSON (line {exc.lineno}: {exc.msg})") from exc
    name = data.get("format") if isinstance(data, dict) else None
    converters = hooks("CONVERTERS")
    try:
        if name in converters:
            data = converters[name](data)
        return replay_record(data, str(path), until)
    except (RecordError, FamilyError, ValueError) as exc:
        message = str(exc)
        raise fail(message if message.startswith(str(path)) else f"{path}: {message}") from exc


VARIANT_FORMAT = "interboard-variant/1"


def is_variant_file(text: str) -> bool:
    """Whether ``text`` names a readable JSON file that says it is a variant file."""
    path = Path(text)
    if not text.endswith(".json") or not path.is_file():
        return False
    try:
        head = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False
    return isinstance(head, dict) and head.get("format") == VARIANT_FORMAT


def variant_or_file(text: str) -> str:
    """A variant's id as given, or the id of the variant file ``text`` names (``my-game.json``),
    added to this process's variants first. Raises :class:`FamilyError` with the file's errors
    (a missing file, one that is not a variant file)."""
    if not text.endswith(".json"):
        return text
    _, info = add_variant_file(text)
    return info.id
