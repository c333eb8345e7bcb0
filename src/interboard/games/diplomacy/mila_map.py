"""Maps in MILA's map format (the ``.map`` files of the ``diplomacy`` package) as ``interboard-map/1``.

:func:`convert_mila_map` reads a map file, with the files it includes, and gives the map in the
project's format (:mod:`interboard.board.loader`): its spaces, adjacency, split coasts, supply
centres, powers with their home centres, starting units and year, and a victory count. Drawing
positions come from the map's own SVG (jDip's ``<jdipNS:PROVINCE>`` unit places) where it has one,
else from a layout of the adjacency (:func:`interboard.board.layout.lay_out`).

What the reader relies on in the format, a directive a line (``#`` starts a comment line):

* ``WATER|LAND|COAST|PORT|SHUT NAME ABUTS NEIGHBOUR...`` gives a place's terrain and the places it
  touches. A split coast is a place of its own (``COAST BUL/EC ABUTS ...``) beside the province as
  armies know it, written in small letters (``COAST bul ABUTS ...``): a fleet may not stand there.
  A neighbour in small letters is for armies only (``ven``), one with a capital and then small
  letters for fleets only (``Tar``). ``AMEND NAME ABUTS ...`` changes a place's neighbours, and
  ``-NAME`` in a list removes a neighbour. Defining a place again replaces it.
* ``Full Name = ABBREVIATION alias...`` names a place; ``+`` in an alias stands for a space and a
  final ``?`` marks an ambiguous one.
* ``POWER (ADJECTIVE[:LETTER]) HOME...`` declares a power with its home centres (``-HOME`` takes
  one away); ``A PLACE`` and ``F PLACE`` lines under it are its starting units; ``UNOWNED`` (or
  ``NEUTRAL``) lists centres no power owns. ``OWNS``/``CENTERS``, ``HOME(S)``, ``INHABITS``,
  ``UNITS``, ``UNPLAYED`` and ``DUMMY`` change the powers; ``DROP`` removes places.
* ``MAP NAME`` and ``USE NAME...`` read another map file (``NAME.map`` beside this one) in place;
  ``BEGIN SPRING 1901 MOVEMENT`` sets the first phase, ``VICTORY N`` the centres that win.

Anything else on a line of its own is a power's name, as MILA reads it; a "power" whose home
centres are not provinces, or that has neither home centres, units nor centres, is reported as an
unknown directive. Every error names the file and line (``standard.map:123: ...``).

Not converted (the project's map format has no place for them): ``RULE`` lines (MILA's rules for
the game, such as ``BUILD_ANY``); a ``PORT``'s fleets convoying (a port is converted to a coast, and
only fleets at sea convoy); ``DUMMY`` (a dummy power is converted as an ordinary power); aliases
ending in ``?`` and the names of split coasts.

Standard library only: this module is part of the engine core and must not import MILA.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...board import Point, SpaceKind
from ...board.layout import lay_out, spread
from ...board.loader import FORMAT

TERRAINS = {
    "WATER": SpaceKind.SEA,
    "LAND": SpaceKind.LAND,
    "COAST": SpaceKind.COAST,
    "PORT": SpaceKind.COAST,
    "SHUT": SpaceKind.IMPASSABLE,
}
"""MILA's terrains as the project's kinds of space. A port is a coast whose fleets may also convoy,
which the project's rules do not know: it becomes a coast."""
_ARMY_GROUND = ("LAND", "COAST", "PORT")
_FLEET_WATER = ("WATER", "COAST", "PORT")

PALETTE = (
    "#d7263d",
    "#1f4e9c",
    "#2e9e44",
    "#f08a24",
    "#7b3fa0",
    "#1aa6b7",
    "#d63fa6",
    "#8c7a1e",
    "#7a1f1f",
    "#0b2e6b",
    "#9a5b2b",
    "#7fbf3f",
    "#e5c22b",
    "#e88aa7",
    "#5b7fd6",
    "#3f7a6e",
    "#c45f00",
    "#5a2a6e",
    "#b0b83a",
    "#3d5a80",
)
"""The powers' colours, given in the order of their ids (the palette repeats past 20 powers)."""

DRAWING_SIZE = 1000.0
"""A drawing taken from an SVG is scaled to this size on its longer side (the standard map's width)."""
STEP = 75.0
"""Drawing units between neighbours in a layout made from the adjacency: about the standard map's."""
LAYOUT_SEED = 1

_ABBREVIATION = re.compile(r"[A-Za-z0-9]+(/[A-Za-z0-9]+)?")
_PROVINCE = re.compile(r"[A-Za-z0-9]+")


class MilaMapError(ValueError):
    """A MILA map that cannot be converted; the message names the file and the line."""


@dataclass(frozen=True)
class _Line:
    file: str
    number: int

    def __str__(self) -> str:
        return f"{self.file}:{self.number}"


def _error(where: _Line | str, problem: str) -> MilaMapError:
    return MilaMapError(f"{where}: {problem}")


@dataclass
class _Place:
    """A place as its terrain line gives it: a province, or a split coast (``BUL/EC``)."""

    written: str
    """Its name as written: the case matters (``bul`` is Bulgaria as armies know it)."""
    terrain: str
    abuts: list[tuple[str, _Line]]
    """Its neighbours as written, each with the line that listed it."""
    line: _Line


@dataclass
class _Name:
    name: str
    aliases: list[str]
    line: _Line


@dataclass
class _Power:
    id: str
    written: str
    """The name as the map writes it (``NEAR-EAST``); the id drops what is not a letter or digit."""
    line: _Line
    adjective: str | None = None
    homes: dict[str, _Line] = field(default_factory=dict)
    centres: dict[str, _Line] | None = None
    """The centres it owns at the start when an OWNS or CENTERS line says (else its homes)."""
    units: list[tuple[str, str, _Line]] = field(default_factory=list)
    """(``A`` or ``F``, location, line) of each starting unit."""
    homes_replaced: bool = False
    """An INHABITS or HOME line gave the homes: the power's next line starts them afresh."""
    maybe_directive: bool = False
    """Declared by a bare ``NAME HOME...`` line: it may be a directive MILA does not know."""


@dataclass
class _MapFile:
    """What the lines of a map file and the files it includes say, in order."""

    places: dict[str, _Place] = field(default_factory=dict)
    names: dict[str, _Name] = field(default_factory=dict)
    """Abbreviation (capitals) -> its name and aliases."""
    full_names: dict[str, str] = field(default_factory=dict)
    """Full name (capitals) -> the abbreviation it names, to refuse a name given twice."""
    powers: dict[str, _Power] = field(default_factory=dict)
    unowned: dict[str, _Line] = field(default_factory=dict)
    """Every centre listed (on UNOWNED lines, or as some power's home): MILA's centres are these."""
    dummies: set[str] = field(default_factory=set)
    rules: list[str] = field(default_factory=list)
    year: int | None = None
    victory: int | None = None
    root: str | None = None
    """The map a MAP line names: the one whose SVG a variant shares."""
    files: list[Path] = field(default_factory=list)


@dataclass(frozen=True)
class MilaMapConversion:
    """A converted map: the ``interboard-map/1`` data, and what the conversion left out or chose."""

    data: dict[str, Any]
    notes: tuple[str, ...]
    positions: str
    """Where the drawing positions came from: an SVG file's name, or ``layout``."""


def convert_mila_map(path: str | Path, svg: str | Path | None = None) -> MilaMapConversion:
    """Convert the MILA map file ``path`` (and the files it includes) to ``interboard-map/1``.

    The drawing positions come from ``svg`` when given (every passable space must be in it); else
    from ``svg/NAME.svg`` or ``NAME.svg`` beside the map (NAME: the map's, then the one its MAP line
    names) when that SVG places every passable space; else from a layout of the adjacency.
    Raises :class:`MilaMapError` naming the file and line at fault.
    """
    top = Path(path)
    if not top.is_file():
        raise _error(top.name, "no such map file" if not top.exists() else "not a file")
    parsed = _MapFile()
    _read(parsed, top, None)
    return _convert(parsed, top, Path(svg) if svg is not None else None)


# ---------------------------------------------------------------------------------------------
# Reading the lines
# ---------------------------------------------------------------------------------------------


def _read(parsed: _MapFile, path: Path, used_at: _Line | None) -> None:
    """Apply the lines of one map file to ``parsed``; an included file's lines apply where its USE or
    MAP line stands. The power the lines speak of is the file's own: an included file's power
    lines do not change it."""
    where = str(used_at) if used_at else path.name
    try:
        text = path.read_text(encoding="utf-8-sig")  # a byte-order mark is no directive
    except OSError as exc:
        raise _error(where, f"{path.name} cannot be read ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise _error(where, f"{path.name} is not UTF-8 text ({exc.reason})") from exc
    parsed.files.append(path.resolve())
    power: _Power | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split()
        if not words or words[0].startswith("#"):
            continue
        line = _Line(path.name, number)
        head = words[0].upper()
        if head == "VICTORY":
            parsed.victory = _victory(words, line)
        elif head in ("USE", "USES", "MAP"):
            _include(parsed, path, words, line)
        elif head == "BEGIN":
            parsed.year = _begin(words, line)
        elif head in ("RULE", "RULES"):
            parsed.rules.extend(w.upper() for w in words[1:])
        elif "=" in raw:
            _name_line(parsed, raw, line)
        elif head in ("OWNS", "CENTERS"):
            owner = _needs_power(power, head, line)
            listed = _provinces(words[1:], line)
            if head == "CENTERS" or owner.centres is None:
                owner.centres = {}
            for name in listed:
                owner.centres.setdefault(name, line)
        elif head == "INHABITS":
            owner = _needs_power(power, head, line)
            _add_homes(parsed, owner, words[1:], line, afresh=not owner.homes_replaced)
            owner.homes_replaced = True
        elif head in ("HOME", "HOMES"):
            owner = _needs_power(power, head, line)
            _add_homes(parsed, owner, words[1:], line, afresh=True)
            owner.homes_replaced = True
        elif head == "UNITS":
            _needs_power(power, head, line).units.clear()
        elif head in ("A", "F"):
            owner = _needs_power(power, "a unit", line)
            if len(words) != 2:
                raise _error(line, f"a unit is written 'A PLACE' or 'F PLACE', not {raw.strip()!r}")
            where_unit = words[1].upper()
            if not _ABBREVIATION.fullmatch(where_unit):
                raise _error(line, f"{words[1]!r} is not a place name")
            # A unit placed where another stands replaces it, whoever owned it.
            for other in parsed.powers.values():
                other.units[:] = [u for u in other.units if _base(u[1]) != _base(where_unit)]
            owner.units.append((head, where_unit, line))
        elif head in ("DUMMY", "DUMMIES"):
            power = _dummy(parsed, power, words, line)
        elif head == "DROP":
            for name in words[1:]:
                _drop(parsed, name.upper())
        elif head == "AMEND" or head in TERRAINS:
            _terrain_line(parsed, words, line)
        elif head == "UNPLAYED":
            _unplayed(parsed, power, words, line)
            power = None
        else:
            power = _power_line(parsed, words, line)


def _victory(words: list[str], line: _Line) -> int:
    try:
        counts = [int(w) for w in words[1:]]
    except ValueError:
        raise _error(line, "VICTORY takes the number of centres that win") from None
    if not counts or counts[0] < 1:
        raise _error(line, "VICTORY takes the number of centres that win")
    # MILA may give a count for each year; the project's maps have one for the whole game.
    return counts[0]


def _include(parsed: _MapFile, path: Path, words: list[str], line: _Line) -> None:
    if words[0].upper() == "MAP":
        if len(words) != 2:
            raise _error(line, "MAP names one map: 'MAP standard'")
        if parsed.root is not None:
            raise _error(line, f"a second MAP line: this map already extends {parsed.root}")
        parsed.root = words[1].split(".")[0]
    if len(words) < 2:
        raise _error(line, f"{words[0]} names the map files to read")
    for name in words[1:]:
        target = path.parent / (name if "." in name else f"{name}.map")
        if target.resolve() in parsed.files:
            raise _error(line, f"{target.name} is read a second time")
        if not target.is_file():
            raise _error(line, f"{words[0]} {name}: there is no {target.name} beside {path.name}")
        _read(parsed, target, line)


def _begin(words: list[str], line: _Line) -> int:
    if len(words) != 4 or not words[2].lstrip("-").isdigit():
        raise _error(line, "BEGIN gives the first phase: 'BEGIN SPRING 1901 MOVEMENT'")
    season, phase = words[1].upper(), words[3].upper()
    if (season, phase) != ("SPRING", "MOVEMENT"):
        raise _error(
            line, f"the map begins in {season} {phase}: the project's games open with a Spring movement"
        )
    return int(words[2])


def _name_line(parsed: _MapFile, raw: str, line: _Line) -> None:
    left, _, right = raw.partition("=")
    name = " ".join(left.split())
    words = right.split()
    if "->" in name:
        raise _error(line, "renaming a place (OLD -> NEW) is not supported (nor is it by MILA)")
    if not name or not words:
        raise _error(line, "a name line reads 'Full Name = ABBREVIATION alias...'")
    abbreviation = words[0].upper()
    if not _ABBREVIATION.fullmatch(abbreviation):
        raise _error(line, f"{words[0]!r} is not an abbreviation (letters and digits, a coast after '/')")
    named = parsed.full_names.get(name.upper())
    if named is not None:
        raise _error(line, f"the name {name!r} is given twice (it is {named}'s)")
    parsed.full_names[name.upper()] = abbreviation
    aliases = words[1:]
    known = parsed.names.get(abbreviation)
    if known is None:
        parsed.names[abbreviation] = _Name(name, aliases, line)
    else:
        # A second name for the same place is one more way to write it.
        known.aliases.extend([name, *aliases])


def _needs_power(power: _Power | None, what: str, line: _Line) -> _Power:
    if power is None:
        raise _error(line, f"{what} line before any power line (the power it belongs to)")
    return power


def _provinces(words: list[str], line: _Line) -> list[str]:
    out = []
    for word in words:
        name = word.upper()
        if not _PROVINCE.fullmatch(name):
            raise _error(line, f"{word!r} is not a province's abbreviation")
        out.append(name)
    return out


def _add_homes(parsed: _MapFile, power: _Power | None, words: list[str], line: _Line, afresh: bool) -> None:
    """Home centres of ``power`` (None: the unowned centres), as a power, UNOWNED, HOME or INHABITS
    line gives them: ``-NAME`` takes one away. Every centre named is a centre of the map, even one
    taken away from a power's homes (as in MILA)."""
    if power is not None and afresh:
        power.homes.clear()
    for word in words:
        name = word.upper().lstrip("-")
        removing = word.startswith("-")
        if not _PROVINCE.fullmatch(name):
            if power is not None and power.maybe_directive:
                raise _error(
                    line,
                    f"unknown directive {power.written!r}: as a power line ('NAME (ADJECTIVE) HOME...'), "
                    f"{word!r} is not a province",
                )
            raise _error(line, f"{word!r} is not a province's abbreviation")
        if power is None:
            if removing:
                parsed.unowned.pop(name, None)
            else:
                parsed.unowned.setdefault(name, line)
            continue
        parsed.unowned.setdefault(name, line)
        power.homes.pop(name, None)
        if not removing:
            power.homes[name] = line


def _power_id(word: str) -> str:
    return re.sub(r"[^A-Z0-9_']", "", word.upper())


def _power_line(parsed: _MapFile, words: list[str], line: _Line) -> _Power | None:
    head = words[0].upper()
    if len(words) > 2 and words[1] == "->":
        raise _error(line, "renaming a power (OLD -> NEW) is not supported (nor is it by MILA)")
    if head in ("UNOWNED", "NEUTRAL"):
        _add_homes(parsed, None, words[1:], line, afresh=False)
        return None
    pid = _power_id(head)
    if not pid or not re.fullmatch(r"[A-Z][A-Z0-9_.'-]*", head):
        raise _error(line, f"unknown directive {words[0]!r}")
    power = parsed.powers.get(pid)
    rest = words[1:]
    adjective = None
    if rest and rest[0].startswith("("):
        if not rest[0].endswith(")"):
            raise _error(line, f"the adjective is one word in brackets: '(FRENCH)', not {rest[0]!r}")
        adjective = rest[0][1:-1].split(":")[0]
        rest = rest[1:]
    if power is None:
        power = parsed.powers[pid] = _Power(pid, head, line, maybe_directive=adjective is None)
    if adjective:
        power.adjective = adjective
        power.maybe_directive = False
    afresh = power.homes_replaced
    power.homes_replaced = False
    _add_homes(parsed, power, rest, line, afresh=afresh)
    return power


def _named_powers(parsed: _MapFile, current: _Power | None, words: list[str], line: _Line) -> list[str]:
    """The powers an UNPLAYED or DUMMY line names: the current one, ``ALL``, ``ALL EXCEPT ...`` or a
    list (commas allowed)."""
    names = [_power_id(w) for w in " ".join(words[1:]).replace(",", " ").split()]
    if not names:
        if current is None:
            raise _error(line, f"{words[0]} alone speaks of the power above it, and there is none")
        return [current.id]
    if names[0] == "ALL":
        if len(names) > 1 and names[1] != "EXCEPT":
            raise _error(line, f"{words[0]} ALL is followed by EXCEPT and the powers kept out")
        if len(names) == 2:
            raise _error(line, f"{words[0]} ALL EXCEPT names the powers kept out")
        kept = set(names[2:])
        return [pid for pid in parsed.powers if pid not in kept]
    for pid in names:
        if pid not in parsed.powers:
            raise _error(line, f"{words[0]}: no power {pid} has been declared")
    return names


def _unplayed(parsed: _MapFile, power: _Power | None, words: list[str], line: _Line) -> None:
    for pid in _named_powers(parsed, power, words, line):
        del parsed.powers[pid]
        parsed.dummies.discard(pid)


def _dummy(parsed: _MapFile, power: _Power | None, words: list[str], line: _Line) -> _Power | None:
    if len(words) == 1 and words[0].upper() == "DUMMIES":
        raise _error(line, "DUMMIES names the powers nobody plays")
    parsed.dummies.update(_named_powers(parsed, power, words, line))
    # A line that names its powers ends the current power's lines, as in MILA.
    return power if len(words) == 1 else None


def _terrain_line(parsed: _MapFile, words: list[str], line: _Line) -> None:
    kind = words[0].upper()
    if len(words) < 2:
        raise _error(line, f"{kind} names a place: '{kind} NAME ABUTS NEIGHBOUR...'")
    written = words[1]
    if not _ABBREVIATION.fullmatch(written):
        raise _error(line, f"{written!r} is not a place's abbreviation")
    if len(words) > 2 and words[2].upper() != "ABUTS":
        raise _error(line, f"ABUTS should follow the place's name, not {words[2]!r}")
    same = parsed.places.pop(written, None)
    # A place defined again in the other case replaces the first; Bulgaria made one place again
    # (capitals: fleets may stand there) loses its split coasts.
    other = parsed.places.pop(written.swapcase(), None)
    if other is not None and written.isupper():
        for coast in [k for k in parsed.places if k.upper().startswith(written.upper() + "/")]:
            _drop(parsed, coast.upper())
    if kind == "AMEND":
        base = same or other
        if base is None:
            raise _error(line, f"AMEND {written}: no place {written} has been defined")
        place = _Place(written, base.terrain, list(base.abuts), line)
    else:
        kept = same.abuts if same is not None and len(words) == 2 else []
        place = _Place(written, kind, list(kept), line)
    for entry in words[3:]:
        if entry.startswith("-"):
            place.abuts = [(e, at) for e, at in place.abuts if not _names_place(e, entry[1:].upper())]
            continue
        if not _ABBREVIATION.fullmatch(entry):
            raise _error(line, f"{entry!r} is not a place's abbreviation")
        place.abuts.append((entry, line))
    parsed.places[written] = place


def _drop(parsed: _MapFile, name: str) -> None:
    """Remove a place (``BUL``: the province and its coasts; ``BUL/EC``: one coast) and everything
    that speaks of it: names, neighbours, centres, homes and units."""

    def gone(text: str) -> bool:
        return _names_place(text, name)

    parsed.places = {k: p for k, p in parsed.places.items() if not gone(k)}
    for place in parsed.places.values():
        place.abuts = [(e, at) for e, at in place.abuts if not gone(e)]
    parsed.names = {k: n for k, n in parsed.names.items() if not gone(k)}
    parsed.full_names = {k: a for k, a in parsed.full_names.items() if not gone(a)}
    parsed.unowned = {k: at for k, at in parsed.unowned.items() if not gone(k)}
    for power in parsed.powers.values():
        power.homes = {k: at for k, at in power.homes.items() if not gone(k)}
        if power.centres is not None:
            power.centres = {k: at for k, at in power.centres.items() if not gone(k)}
        power.units[:] = [u for u in power.units if not gone(u[1])]


def _names_place(text: str, name: str) -> bool:
    """``text`` is the place ``name`` or, when ``name`` is a province, one of its coasts."""
    text = text.upper()
    return text == name or ("/" not in name and _base(text) == name)


def _base(location: str) -> str:
    """The province of a location: ``BUL`` for ``BUL/EC``."""
    return location.upper().split("/")[0]


# ---------------------------------------------------------------------------------------------
# The map in the project's terms
# ---------------------------------------------------------------------------------------------


@dataclass
class _Province:
    id: str
    place: _Place
    kind: SpaceKind
    coasts: list[str] = field(default_factory=list)


def _convert(parsed: _MapFile, top: Path, svg: Path | None) -> MilaMapConversion:
    provinces = _provinces_of(parsed)
    _check_neighbours(parsed, provinces)
    army_pairs, fleet_pairs = _adjacency(parsed)
    centres = _centres(parsed, provinces)
    powers = sorted(parsed.powers.values(), key=lambda p: p.id)
    if len(powers) < 2:
        raise _error(top.name, f"a map needs at least two powers; this one has {len(powers)}")
    homes = _homes(powers)
    standing = _standing(parsed)
    units = {p.id: [_unit(kind, loc, at, standing, provinces) for kind, loc, at in p.units] for p in powers}
    for power in powers:
        if not (power.homes or power.units or power.centres):
            hint = f" (or is {power.written!r} an unknown directive?)" if power.maybe_directive else ""
            raise _error(power.line, f"power {power.written} has no home centres, units or centres{hint}")
    owned = _start_centres(powers, centres)

    spaces = _spaces(parsed, provinces, centres)

    notes: list[str] = []
    positions, size = _place_spaces(parsed, top, svg, spaces, fleet_pairs, notes)
    if parsed.rules:
        notes.append(f"MILA rules not converted: {', '.join(dict.fromkeys(parsed.rules))}")
    if parsed.dummies:
        notes.append(f"dummy powers converted as ordinary powers: {', '.join(sorted(parsed.dummies))}")
    ports = sorted(p.id for p in provinces.values() if p.place.terrain == "PORT")
    if ports:
        notes.append(f"ports converted as coasts (their fleets do not convoy): {', '.join(ports)}")

    read = ", ".join(p.name for p in parsed.files)
    drawn = (
        f"drawing positions from {positions}'s unit places"
        if positions != LAID_OUT
        else "drawing positions laid out from the adjacency"
    )
    data: dict[str, Any] = {
        "format": FORMAT,
        "id": top.stem,
        "title": _title(top.stem),
        "source": f"Converted from MILA's map {read} by interboard map import --format mila; {drawn}.",
        "spaces": spaces,
        "adjacency": {"army": army_pairs, "fleet": fleet_pairs},
        "powers": [
            {
                "id": p.id,
                "name": _words(p.written),
                "adjective": _words(p.adjective, keep_hyphens=True) if p.adjective else _words(p.written),
                "colour": PALETTE[k % len(PALETTE)],
                "home_centres": homes[p.id],
                # MILA knows no home provinces but the centres (the 2000 rules' civil disorder uses them).
                "homeland": homes[p.id],
            }
            for k, p in enumerate(powers)
        ],
        "start": {
            "year": parsed.year if parsed.year is not None else 1901,
            "units": units,
            "centres": owned,
        },
        # MILA's default: more than half of the centres.
        "victory_centres": parsed.victory if parsed.victory is not None else len(centres) // 2 + 1,
        "drawing": {"width": size[0], "height": size[1]},
    }
    return MilaMapConversion(data, tuple(notes), positions)


def _spaces(
    parsed: _MapFile, provinces: dict[str, _Province], centres: dict[str, _Line]
) -> list[dict[str, Any]]:
    """The spaces, by id, as the map format writes them (without their drawing positions yet)."""
    names = _space_names(parsed, provinces)
    spaces: list[dict[str, Any]] = []
    for pid in sorted(provinces):
        province = provinces[pid]
        name, aliases = names[pid]
        space: dict[str, Any] = {"id": pid, "name": name, "kind": province.kind.value}
        if pid in centres:
            space["centre"] = True
        if province.coasts:
            space["coasts"] = province.coasts
        if aliases:
            space["aliases"] = aliases
        spaces.append(space)
    return spaces


def _provinces_of(parsed: _MapFile) -> dict[str, _Province]:
    """The provinces (the places that are no split coast) by id, each with its coasts."""
    provinces: dict[str, _Province] = {}
    for written, place in parsed.places.items():
        if "/" in written:
            continue
        pid = written.upper()
        if pid in provinces:
            raise _error(place.line, f"{pid} is defined twice ({provinces[pid].place.written} and {written})")
        provinces[pid] = _Province(pid, place, TERRAINS[place.terrain])
    for written, place in parsed.places.items():
        if "/" not in written:
            continue
        pid, code = written.upper().split("/")
        province = provinces.get(pid)
        if province is None:
            raise _error(
                place.line,
                f"the coast {written.upper()} belongs to no province: define {pid} too "
                f"('COAST {pid.lower()} ABUTS ...')",
            )
        if province.kind is not SpaceKind.COAST:
            raise _error(place.line, f"{pid} has split coasts but is {province.place.terrain}, not COAST")
        if not province.place.written.islower():
            raise _error(
                province.place.line,
                f"{pid} has split coasts, so it is written in small letters ({pid.lower()}): "
                "its fleets stand on its coasts",
            )
        province.coasts.append(code)
    defined = set(provinces) | _coast_ids(provinces)
    for abbreviation, name in parsed.names.items():
        if abbreviation not in defined:
            raise _error(name.line, f"{abbreviation} is named but no terrain line defines it")
    return provinces


def _coast_ids(provinces: dict[str, _Province]) -> set[str]:
    return {f"{p.id}/{code}" for p in provinces.values() for code in p.coasts}


def _check_neighbours(parsed: _MapFile, provinces: dict[str, _Province]) -> None:
    coasts = _coast_ids(provinces)
    for place in parsed.places.values():
        for entry, line in place.abuts:
            name = entry.upper()
            if _base(name) not in provinces:
                raise _error(
                    line,
                    f"{_base(name)} is not a province of the map: no LAND, WATER, COAST, PORT or SHUT "
                    "line defines it",
                )
            if "/" in name and name not in coasts:
                raise _error(line, f"{name} is not one of {_base(name)}'s coasts")


@dataclass(frozen=True)
class _Standing:
    """Where each kind of unit may stand: MILA's valid units."""

    army: frozenset[str]
    fleet: frozenset[str]


def _standing(parsed: _MapFile) -> _Standing:
    places = parsed.places
    army = {k.upper() for k, p in places.items() if "/" not in k and p.terrain in _ARMY_GROUND}
    # A province written in small letters has split coasts: fleets stand on the coasts alone.
    fleet = {k.upper() for k, p in places.items() if p.terrain in _FLEET_WATER and k.lower() not in places}
    return _Standing(frozenset(army), frozenset(fleet))


def _place_of(parsed: _MapFile, location: str) -> _Place | None:
    return parsed.places.get(location) or parsed.places.get(location.lower())


def _reach(parsed: _MapFile, kind: str, at: str) -> dict[str, _Line]:
    """Where a unit of ``kind`` (``A`` or ``F``) at ``at`` may move, each with the line that says so.

    The first entry of ``at``'s list that names a location (itself, or a coast of it) decides it, as
    in MILA: an army never moves to a coast or the sea, nor along an entry written for fleets only
    (``Tar``); a fleet never moves to land, along an entry in small letters (``ven``), nor to a
    province that has split coasts (it names the coast). Nothing moves to a SHUT place."""
    place = _place_of(parsed, at)
    found: dict[str, _Line] = {}
    decided: set[str] = set()
    for entry, line in place.abuts if place is not None else []:
        name = entry.upper()
        for target in (name, _base(name)):
            if target in decided or (kind == "A" and "/" in target):
                continue
            decided.add(target)
            other = _place_of(parsed, target)
            if other is None or other.terrain == "SHUT":
                continue
            if kind == "A":
                ok = other.terrain != "WATER" and entry != entry.title()
            else:
                ok = other.terrain != "LAND" and entry[0] == entry[0].upper() and target in parsed.places
            if ok:
                found[target] = line
    return found


def _adjacency(parsed: _MapFile) -> tuple[list[list[str]], list[list[str]]]:
    """The army pairs (provinces) and fleet pairs (provinces and coasts), each pair sorted. MILA's
    lists are one-way; a pair listed one way only is refused, as interboard's adjacency goes both."""
    standing = _standing(parsed)
    out: list[list[list[str]]] = []
    for kind, where in (("A", standing.army), ("F", standing.fleet)):
        moves = {at: _reach(parsed, kind, at) for at in sorted(where)}
        pairs: set[tuple[str, str]] = set()
        for at, targets in moves.items():
            for target, line in targets.items():
                if at not in moves.get(target, {}):
                    unit = "an army" if kind == "A" else "a fleet"
                    raise _error(
                        line,
                        f"{unit} may move from {at} to {target} but not back: interboard's adjacency goes "
                        f"both ways (list {at} among {target}'s neighbours)",
                    )
                first, second = sorted((at, target))
                pairs.add((first, second))
        out.append([list(pair) for pair in sorted(pairs)])
    return out[0], out[1]


def _centres(parsed: _MapFile, provinces: dict[str, _Province]) -> dict[str, _Line]:
    """The supply centres, each with the line that first lists it: those listed as unowned, every
    power's homes and the centres a power owns (MILA's own account)."""
    listed: dict[str, _Line] = dict(parsed.unowned)
    for power in parsed.powers.values():
        for name, line in [*power.homes.items(), *(power.centres or {}).items()]:
            listed.setdefault(name, line)
    suspects = {p.line: p for p in parsed.powers.values() if p.maybe_directive}
    for name, line in listed.items():
        province = provinces.get(name)
        if province is None and line in suspects:
            raise _error(
                line,
                f"unknown directive {suspects[line].written!r}? Read as a power line "
                f"('NAME (ADJECTIVE) HOME...'), its home centre {name} is not a province of the map",
            )
        if province is None:
            raise _error(line, f"the centre {name} is not a province of the map")
        if province.kind in (SpaceKind.SEA, SpaceKind.IMPASSABLE):
            raise _error(line, f"the centre {name} is {province.place.terrain}: a centre is land or coast")
    return listed


def _homes(powers: list[_Power]) -> dict[str, list[str]]:
    owner: dict[str, str] = {}
    for power in powers:
        for name, line in power.homes.items():
            if name in owner:
                raise _error(
                    line,
                    f"{name} is a home centre of both {owner[name]} and {power.id}: interboard gives a "
                    "centre one home power at most",
                )
            owner[name] = power.id
    return {p.id: list(p.homes) for p in powers}


def _unit(kind: str, location: str, line: _Line, standing: _Standing, provinces: dict[str, _Province]) -> str:
    if _base(location) not in provinces:
        raise _error(line, f"{location} is not a province of the map")
    province = provinces[_base(location)]
    if kind == "A" and location not in standing.army:
        raise _error(line, f"an army cannot stand at {location} ({province.place.terrain})")
    if kind == "F" and location not in standing.fleet:
        if province.coasts and "/" not in location:
            named = " or ".join(f"{province.id}/{code}" for code in province.coasts)
            raise _error(line, f"a fleet in {location} stands on one of its coasts: {named}")
        raise _error(line, f"a fleet cannot stand at {location} ({province.place.terrain})")
    return f"{kind} {location}"


def _start_centres(powers: list[_Power], centres: dict[str, _Line]) -> dict[str, list[str]]:
    """Each power's centres at the start: those its OWNS or CENTERS lines give, else its homes."""
    owner: dict[str, str] = {}
    out: dict[str, list[str]] = {}
    for power in powers:
        owned = power.centres if power.centres is not None else power.homes
        for name, line in owned.items():
            if name in owner:
                raise _error(line, f"{name} is owned by both {owner[name]} and {power.id} at the start")
            owner[name] = power.id
        out[power.id] = list(owned)
    return out


def _space_names(parsed: _MapFile, provinces: dict[str, _Province]) -> dict[str, tuple[str, list[str]]]:
    """Each province's name and aliases. An alias that is another space's id or name, or that two
    spaces share, is left out: it would make orders ambiguous."""
    names = {pid: parsed.names[pid].name if pid in parsed.names else pid for pid in provinces}
    wanted: dict[str, list[str]] = {}
    for pid in provinces:
        given = parsed.names[pid].aliases if pid in parsed.names else []
        # '+' stands for a space; 'bul(ec)' and 'bul/ec' name coasts; 'egypt?' is ambiguous.
        wanted[pid] = list(
            dict.fromkeys(
                " ".join(a.replace("+", " ").split()).lower()
                for a in given
                if not a.endswith("?") and "/" not in a and "(" not in a
            )
        )
    taken = {pid.lower() for pid in provinces} | {name.lower() for name in names.values()}
    claims: dict[str, int] = {}
    for aliases in wanted.values():
        for alias in aliases:
            claims[alias] = claims.get(alias, 0) + 1
    return {
        pid: (names[pid], [a for a in wanted[pid] if a and a not in taken and claims[a] == 1])
        for pid in provinces
    }


def _title(stem: str) -> str:
    small = {"of", "and", "the"}
    words = stem.replace("_", " ").replace("-", " ").split()
    return " ".join(w if k and w in small else w.capitalize() for k, w in enumerate(words))


def _words(text: str, keep_hyphens: bool = False) -> str:
    """A name written in capitals as words: ``NEAR-EAST`` is ``Near East``."""
    if not keep_hyphens:
        text = text.replace("-", " ")
    return " ".join(text.replace("_", " ").split()).title()


# ---------------------------------------------------------------------------------------------
# Drawing positions
# ---------------------------------------------------------------------------------------------

LAID_OUT = "layout"
"""The drawing positions' source when no SVG gave them."""


def _place_spaces(
    parsed: _MapFile,
    top: Path,
    svg: Path | None,
    spaces: list[dict[str, Any]],
    fleet_pairs: list[list[str]],
    notes: list[str],
) -> tuple[str, tuple[float, float]]:
    """Give each space its drawing position ``at`` (and each split coast its own, ``coast_at``);
    return where the positions came from (an SVG's name, or :data:`LAID_OUT`) and the drawing's size."""
    ids = [s["id"] for s in spaces]
    chosen = svg if svg is not None else _find_svg(top, parsed.root)
    placed = _svg_positions(chosen, spaces, explicit=svg is not None, notes=notes) if chosen else None
    if chosen is not None and placed is not None:
        label = chosen.name
        at, size = placed
    else:
        label = LAID_OUT
        edges = [
            (_base(place.written), _base(entry))
            for place in parsed.places.values()
            for entry, _ in place.abuts
        ]
        at, size = _fit(lay_out(ids, edges, seed=LAYOUT_SEED), margin=0.75, factor=STEP)
    notes.append(
        f"drawing positions from {label}"
        if label != LAID_OUT
        else "drawing positions laid out from the adjacency"
    )
    for space in spaces:
        sid = space["id"]
        if sid in at:
            space["at"] = _rounded(at[sid], size)
        coasts = space.get("coasts", [])
        if coasts:
            space["coast_at"] = {
                code: _rounded(
                    at.get(f"{sid}/{code}") or _coast_point(sid, code, k, len(coasts), at, fleet_pairs), size
                )
                for k, code in enumerate(coasts)
            }
    return label, size


def _svg_positions(
    svg: Path, spaces: list[dict[str, Any]], explicit: bool, notes: list[str]
) -> tuple[dict[str, Point], tuple[float, float]] | None:
    """The positions an SVG gives (the spaces', and the split coasts' it has), fitted to a drawing
    :data:`DRAWING_SIZE` on its longer side; None when the SVG was found beside the map but misses a
    passable space (one given on the command line must place them all)."""
    places = _svg_places(svg)
    ids = {s["id"] for s in spaces}
    missing = [s["id"] for s in spaces if s["kind"] != SpaceKind.IMPASSABLE.value and s["id"] not in places]
    shown = ", ".join(missing[:8]) + (", ..." if len(missing) > 8 else "")
    if missing and explicit:
        raise _error(svg.name, f"no unit place (<jdipNS:PROVINCE>) for {len(missing)} spaces: {shown}")
    if missing:
        notes.append(f"{svg.name} does not place {shown}: the spaces are laid out from the adjacency")
        return None
    found = {k: v for k, v in places.items() if _base(k) in ids}
    longer = max(_extent(found.values())) or 1.0
    at, size = _fit(found, margin=0.05 * longer, factor=DRAWING_SIZE / (1.1 * longer))
    # Two provinces on one spot would share one cell: part them (jDip's SVGs have none such).
    drawn = [sid for sid in at if "/" not in sid]
    at |= dict(zip(drawn, spread([at[sid] for sid in drawn], 2.0), strict=True))
    return at, size


def _fit(
    points: dict[str, Point], margin: float, factor: float
) -> tuple[dict[str, Point], tuple[float, float]]:
    """The points moved into a drawing ``margin`` from its edges (in the points' units) and scaled by
    ``factor``; and the drawing's size."""
    xs = [p[0] for p in points.values()]
    ys = [p[1] for p in points.values()]
    left, top = min(xs) - margin, min(ys) - margin
    size = (round((max(xs) + margin - left) * factor, 1), round((max(ys) + margin - top) * factor, 1))
    return {k: ((x - left) * factor, (y - top) * factor) for k, (x, y) in points.items()}, size


def _coast_point(
    sid: str, code: str, index: int, count: int, at: dict[str, Point], fleet_pairs: list[list[str]]
) -> Point:
    """Where a fleet on a split coast is drawn when the SVG does not say: off the province's point
    towards the places that coast's fleets reach (else spread around the point), near enough to stay
    in the province's cell."""
    origin = at[sid]
    coast = f"{sid}/{code}"
    reached = [at[_base(b if a == coast else a)] for a, b in fleet_pairs if coast in (a, b)]
    others = [math.dist(origin, p) for k, p in at.items() if k != sid and "/" not in k]
    reach = max(6.0, min(25.0, 0.4 * min(others, default=STEP)))
    dx = sum(p[0] for p in reached) / len(reached) - origin[0] if reached else 0.0
    dy = sum(p[1] for p in reached) / len(reached) - origin[1] if reached else 0.0
    if math.hypot(dx, dy) < 1e-6:
        angle = 2 * math.pi * index / count
        dx, dy = math.cos(angle), math.sin(angle)
    length = math.hypot(dx, dy)
    return (origin[0] + reach * dx / length, origin[1] + reach * dy / length)


def _rounded(point: Point, size: tuple[float, float]) -> list[float]:
    """A point to one decimal, inside the drawing."""
    return [round(min(max(point[0], 0.0), size[0]), 1), round(min(max(point[1], 0.0), size[1]), 1)]


def _find_svg(top: Path, root: str | None) -> Path | None:
    """The SVG of the map or of the map it extends, as MILA keeps them: in ``svg/`` beside the map."""
    for stem in dict.fromkeys(s for s in (top.stem, root) if s):
        for candidate in (top.parent / "svg" / f"{stem}.svg", top.parent / f"{stem}.svg"):
            if candidate.is_file():
                return candidate
    return None


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _number(value: str | None, where: str) -> float:
    try:
        return float((value or "").removesuffix("px"))
    except ValueError:
        raise _error(where, f"{value!r} is not a number") from None


def _svg_places(path: Path) -> dict[str, tuple[float, float]]:
    """The centre of the army symbol jDip's SVG puts in each province (``<jdipNS:PROVINCE
    name="spa-nc"><jdipNS:UNIT x= y=/>``; the place is the symbol's corner), by location id."""
    try:
        root = ElementTree.parse(path).getroot()
    except OSError as exc:
        raise _error(path.name, f"cannot be read ({exc.strerror})") from exc
    except ElementTree.ParseError as exc:
        raise _error(path.name, f"not an SVG file ({exc})") from exc
    half = (0.0, 0.0)
    for element in root.iter():
        if _local(element.tag) == "SYMBOLSIZE" and element.get("name") == "Army":
            where = f"{path.name}: the Army symbol size"
            half = (_number(element.get("width"), where) / 2, _number(element.get("height"), where) / 2)
    places: dict[str, tuple[float, float]] = {}
    for element in root.iter():
        if _local(element.tag) != "PROVINCE" or not element.get("name"):
            continue
        name = str(element.get("name")).upper().replace("-", "/")
        for child in element:
            if _local(child.tag) == "UNIT":
                where = f"{path.name}: province {name}"
                places[name] = (
                    _number(child.get("x"), where) + half[0],
                    _number(child.get("y"), where) + half[1],
                )
                break
    return places


def _extent(points: Iterable[Point]) -> tuple[float, float]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (max(xs) - min(xs), max(ys) - min(ys)) if xs else (0.0, 0.0)
