"""Diplomacy-family variants defined by a file (``interboard-variant/1``), not by code.

A variant file names its boards (a shipped map by id, or a map file beside it; the same map may be
used more than once), how they are joined (every space to its twin, and any fixed links), its powers,
its start, its victory and its link orders. ``docs/variants.md`` is the format's reference; the JSON
Schema shipped beside the maps (``data/variant.schema.json``) says the same for editors.

Every error of a file is reported at once, each naming where it is
(``links[3]: no place 'MUN-Q' on any board; boards are Y, Z``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from ...board import Board, MapDataError, board_from_data, load_packaged_board, packaged_board_names
from ...board.geography import PowerSpec, join_boards, with_links
from .rules import LinkRules, Rulebook
from .state import PhaseKind
from .variant import MAPS_PACKAGE, Variant

FORMAT = "interboard-variant/1"
FAMILY = "diplomacy"
ID = re.compile(r"[a-z][a-z0-9_]*")
"""A variant's id: lower case, digits and underscores, as the built-in ids are."""
BOARD_NAME = re.compile(r"[A-Za-z0-9]+")
"""A board's name is the suffix of its places (``MUN-Y``): letters and digits only."""

POWERS_ON_EVERY_BOARD = "on every board"
"""Each power of the printed map, with its homes on every board (Twin Earths I)."""
POWERS_ONE_PER_BOARD = "one per board"
"""A power per printed power and board, named ``GERMANY-Y`` (Twin Earths III)."""

PHASES = {"movement": PhaseKind.MOVEMENT, "adjustments": PhaseKind.ADJUSTMENTS}
"""The phases a file may name: a game's opening, the phase of its link orders."""
TOP_FIELDS = {
    "format",
    "family",
    "id",
    "title",
    "map_title",
    "description",
    "boards",
    "twins",
    "links",
    "powers",
    "start",
    "victory",
    "link_orders",
    "winter_every_year",
}
LINK_ORDER_FIELDS = {f.name for f in fields(LinkRules)}


class VariantFileError(ValueError):
    """A variant file with errors; ``problems`` holds each one, the message all of them."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        if len(problems) == 1:
            super().__init__(f"{source}: {problems[0]}")
        else:
            listed = "\n".join(f"  {p}" for p in problems)
            super().__init__(f"{source}: {len(problems)} errors:\n{listed}")


@dataclass
class _Reader:
    """Reads a variant file's fields, noting every problem rather than stopping at the first."""

    source: str
    problems: list[str] = field(default_factory=list)

    def fail(self, where: str, what: str) -> None:
        self.problems.append(f"{where}: {what}" if where else what)

    def text(self, raw: Mapping[str, Any], key: str, where: str = "", required: bool = True) -> str | None:
        value = raw.get(key)
        at = f"{where}.{key}" if where else key
        if value is None:
            if required:
                self.fail(at, "missing")
            return None
        if not isinstance(value, str) or not value.strip():
            self.fail(at, f"a non-empty text, not {value!r}")
            return None
        return value

    def whole(self, raw: Mapping[str, Any], key: str, where: str, low: int, high: int) -> int | None:
        value = raw.get(key)
        at = f"{where}.{key}" if where else key
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.fail(at, f"a whole number from {low} to {high}, not {value!r}")
            return None
        return value

    def flag(self, raw: Mapping[str, Any], key: str, where: str = "") -> bool:
        value = raw.get(key, False)
        if not isinstance(value, bool):
            self.fail(f"{where}.{key}" if where else key, f"true or false, not {value!r}")
            return False
        return value

    def unknown(self, raw: Mapping[str, Any], known: set[str], where: str) -> None:
        for key in sorted(set(raw) - known):
            names = ", ".join(sorted(known))
            self.fail(f"{where}.{key}" if where else key, f"unknown field (fields: {names})")


def read_variant_file(path: str | Path) -> Variant:
    """The variant a file defines; a map named by ``file`` is read relative to the variant file."""
    p = Path(path)
    try:
        raw = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise VariantFileError(str(p), [f"cannot be read: {exc.strerror or exc}"]) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise VariantFileError(str(p), [f"not JSON: {exc}"]) from None
    return variant_from_data(raw, source=p.name, base=p.parent)


def variant_from_data(
    raw: Any,
    source: str = "variant",
    base: Path | None = None,
    maps: Callable[[str], Board] | None = None,
    board_now: bool = True,
) -> Variant:
    """The variant ``raw`` (a parsed variant file) defines. ``base`` is where map files are looked
    for; ``maps`` gives a shipped map by id (the family's own, by default). With ``board_now`` the
    boards are read and joined at once, so that their errors are reported with the others; without
    it (the shipped files, checked by the tests) when the variant's board is first asked for."""
    read = _Reader(source)
    if not isinstance(raw, dict):
        raise VariantFileError(source, [f"a JSON object, not {type(raw).__name__}"])
    if raw.get("format") != FORMAT:
        read.fail("format", f"{raw.get('format')!r}, not {FORMAT!r}")
    if raw.get("family", FAMILY) != FAMILY:
        read.fail("family", f"{raw.get('family')!r}: only {FAMILY!r} variants are defined by files")
    read.unknown(raw, TOP_FIELDS, "")
    vid = read.text(raw, "id")
    if vid is not None and not ID.fullmatch(vid):
        read.fail("id", f"{vid!r}: lower-case letters, digits and underscores, starting with a letter")
    title = read.text(raw, "title") or ""
    description = read.text(raw, "description", required=False) or ""
    map_title = read.text(raw, "map_title", required=False) or title
    rulebook = _rulebook(read, raw)
    boards = raw.get("boards")
    count = len(boards) if isinstance(boards, list) else 1
    opening = _opening(read, raw.get("start", {}), count)
    year, victory = _start_and_victory(read, raw, count)

    def build(into: _Reader) -> Board | None:
        parts = _boards(into, boards, base, maps or _shipped_map)
        names = (vid or "variant", map_title)
        return _geography(into, raw, parts, names, year, victory) if parts else None

    def make_board() -> Board:
        again = _Reader(source)
        board = build(again)
        if again.problems or board is None:
            raise VariantFileError(source, again.problems or ["its boards could not be joined"])
        return board

    if board_now:
        made = build(read)
        if read.problems or made is None:
            raise VariantFileError(source, read.problems or ["its boards could not be joined"])
        return Variant(vid or "", title, description, lambda: made, rulebook, opening)
    if read.problems:
        raise VariantFileError(source, read.problems)
    return Variant(vid or "", title, description, make_board, rulebook, opening)


def _shipped_map(name: str) -> Board:
    return load_packaged_board(MAPS_PACKAGE, name)


def _boards(
    read: _Reader, raw: Any, base: Path | None, shipped: Callable[[str], Board]
) -> list[tuple[str, Board]]:
    if not isinstance(raw, list) or not raw:
        read.fail("boards", "a list of one board or more ({'name': 'Y', 'map': 'standard'})")
        return []
    parts: list[tuple[str, Board]] = []
    for k, entry in enumerate(raw):
        where = f"boards[{k}]"
        if not isinstance(entry, dict):
            read.fail(where, f"an object with 'map' or 'file', not {entry!r}")
            continue
        read.unknown(entry, {"name", "map", "file", "map_data"}, where)
        name = read.text(entry, "name", where, required=len(raw) > 1) or ""
        if name and not BOARD_NAME.fullmatch(name):
            read.fail(f"{where}.name", f"{name!r}: letters and digits only (it ends each place's id: MUN-Y)")
        if name and name in (n for n, _ in parts):
            read.fail(f"{where}.name", f"{name!r} names two boards")
        board = _one_board(read, entry, where, base, shipped)
        if board is not None:
            parts.append((name, board))
    return parts if len(parts) == len(raw) else []


def _one_board(
    read: _Reader, entry: Mapping[str, Any], where: str, base: Path | None, shipped: Callable[[str], Board]
) -> Board | None:
    given = [key for key in ("map", "file", "map_data") if key in entry]
    if len(given) != 1:
        read.fail(where, "one of 'map' (a shipped map's id) or 'file' (a map file), not both or neither")
        return None
    if "map" in entry:
        name = read.text(entry, "map", where)
        if name is None:
            return None
        try:
            return shipped(name)
        except MapDataError:
            read.fail(
                f"{where}.map",
                f"no shipped map {name!r} (maps: {', '.join(packaged_board_names(MAPS_PACKAGE))})",
            )
            return None
    if "map_data" in entry:  # a map file written into the definition, as a record keeps it
        try:
            return board_from_data(entry["map_data"], source=f"{where}.map_data")
        except MapDataError as exc:
            read.fail(f"{where}.map_data", str(exc))
            return None
    file = read.text(entry, "file", where)
    if file is None:
        return None
    path = (base or Path.cwd()) / file
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return board_from_data(data, source=path.name)
    except OSError as exc:
        read.fail(f"{where}.file", f"{file!r} cannot be read: {exc.strerror or exc}")
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        read.fail(f"{where}.file", f"{file!r} is not JSON: {exc}")
    except MapDataError as exc:
        read.fail(f"{where}.file", f"{file!r}: {exc}")
    return None


def with_maps_written_in(raw: Mapping[str, Any], base: Path | None) -> dict[str, Any]:
    """The definition with each board's map file read into it (``map_data``): what a record keeps,
    so that a game replays though the files change. Call it on a definition that was read without
    errors."""
    out = dict(raw)
    boards = []
    for entry in raw.get("boards", []):
        if isinstance(entry, dict) and "file" in entry:
            path = (base or Path.cwd()) / entry["file"]
            entry = {k: v for k, v in entry.items() if k != "file"}
            entry["map_data"] = json.loads(path.read_text(encoding="utf-8"))
        boards.append(entry)
    out["boards"] = boards
    return out


def _start_and_victory(read: _Reader, raw: Mapping[str, Any], boards: int) -> tuple[int | None, int | None]:
    """The start year and the victory's count, each ``None`` where the file leaves it to the map."""
    start = raw.get("start", {})
    if not isinstance(start, dict):
        read.fail("start", f"an object ({{'year': 1901, 'opening': 'movement'}}), not {start!r}")
        start = {}
    read.unknown(start, {"year", "opening"}, "start")
    year = read.whole(start, "year", "start", 1, 9999) if "year" in start else None
    victory = _victory(read, raw.get("victory"))
    if boards > 1 and "year" not in start:
        read.fail("start.year", "missing: joined boards start with their home centres owned and no units")
    if boards > 1 and "victory" not in raw:
        read.fail("victory", "missing: say how many centres (or units) win on the joined boards")
    return year, victory


def _geography(
    read: _Reader,
    raw: Mapping[str, Any],
    parts: list[tuple[str, Board]],
    names: tuple[str, str],
    year: int | None,
    victory: int | None,
) -> Board | None:
    """The boards joined (or the one board), with the file's fixed links; ``names`` are the
    geography's id and title."""
    twins = read.flag(raw, "twins")
    if len(parts) == 1:
        if twins:
            read.fail("twins", "needs two boards or more")
        if "powers" in raw:
            read.fail("powers", "a single board's powers are its map's")
        board = parts[0][1]
        if year is not None or victory is not None:
            board = _restarted(board, year, victory)
    else:
        if twins and len({b.id for _, b in parts}) > 1:
            read.fail("twins", "joins each space to its twin: every board must be the same map")
            twins = False
        before = len(read.problems)
        powers = _powers(read, raw.get("powers"), parts)
        if len(read.problems) > before or year is None or victory is None:
            return None  # not joined: the links' places are not known
        board = join_boards(
            parts,
            powers,
            id=names[0],
            title=names[1],
            victory=victory or 0,
            start_year=year or 0,
            corresponding=twins,
        )
    return _linked(read, board, raw.get("links", []))


def _restarted(board: Board, year: int | None, victory: int | None) -> Board:
    start = board.start if year is None else replace(board.start, year=year)
    return replace(board, start=start, victory_centres=board.victory_centres if victory is None else victory)


def _victory(read: _Reader, raw: Any) -> int | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or len(raw) != 1 or not ({"centres", "units"} & raw.keys()):
        read.fail("victory", f"{{'centres': 18}} or {{'units': 35}}, not {raw!r}")
        return None
    key = next(iter(raw))
    return read.whole(raw, key, "victory", 1, 10_000)


def _powers(read: _Reader, raw: Any, parts: list[tuple[str, Board]]) -> list[PowerSpec]:
    names = [n for n, _ in parts]
    printed = parts[0][1]
    if raw == POWERS_ON_EVERY_BOARD:
        return [PowerSpec(p.id, p.name, p.adjective, p.colour, p.id, tuple(names)) for p in printed.powers]
    if raw == POWERS_ONE_PER_BOARD:
        return [
            PowerSpec(f"{p.id}-{n}", f"{p.name}-{n}", p.adjective, p.colour, p.id, (n,))
            for n, board in parts
            for p in board.powers
        ]
    if not isinstance(raw, list) or not raw:
        read.fail(
            "powers",
            f"{POWERS_ON_EVERY_BOARD!r}, {POWERS_ONE_PER_BOARD!r} or a list of powers "
            "({'id': 'GERMANY-Y', 'from': 'GERMANY', 'boards': ['Y']})",
        )
        return []
    specs: list[PowerSpec] = []
    for k, entry in enumerate(raw):
        where = f"powers[{k}]"
        if not isinstance(entry, dict):
            read.fail(where, f"an object, not {entry!r}")
            continue
        read.unknown(entry, {"id", "name", "from", "boards", "colour"}, where)
        pid = read.text(entry, "id", where)
        source = read.text(entry, "from", where)
        boards = entry.get("boards")
        if not isinstance(boards, list) or not boards or not all(isinstance(b, str) for b in boards):
            read.fail(f"{where}.boards", f"a list of board names ({', '.join(names)}), not {boards!r}")
            continue
        for b in boards:
            if b not in names:
                read.fail(f"{where}.boards", f"no board {b!r}; boards are {', '.join(names)}")
        if pid is None or source is None or any(b not in names for b in boards):
            continue
        if any(source not in dict(parts)[b].power_by_id for b in boards):
            known = ", ".join(p.id for p in printed.powers)
            read.fail(f"{where}.from", f"no power {source!r} on the printed map (powers: {known})")
            continue
        base = dict(parts)[boards[0]].power_by_id[source]
        name = read.text(entry, "name", where, required=False) or pid
        colour = read.text(entry, "colour", where, required=False) or base.colour
        specs.append(PowerSpec(pid, name, base.adjective, colour, source, tuple(boards)))
    seen: set[str] = set()
    for spec in specs:
        if spec.id in seen:
            read.fail("powers", f"{spec.id!r} is named twice")
        seen.add(spec.id)
    return specs


def _linked(read: _Reader, board: Board, raw: Any) -> Board | None:
    """The board with the file's fixed links: each a pair of places (``["MUN-I", "BOH-II"]``)."""
    if not isinstance(raw, list):
        read.fail("links", f"a list of pairs of places ([['MUN-I', 'MUN-II']]), not {raw!r}")
        return None
    pairs: list[tuple[int, int]] = []
    places = {lid.upper(): index for lid, index in board.location_by_id.items()}  # any case
    for k, pair in enumerate(raw):
        where = f"links[{k}]"
        if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(p, str) for p in pair):
            read.fail(where, f"a pair of places (['MUN-I', 'MUN-II']), not {pair!r}")
            continue
        ends = [_place(read, board, places, text, f"{where}[{j}]") for j, text in enumerate(pair)]
        if ends[0] is not None and ends[1] is not None:
            if board.locations[ends[0]].space == board.locations[ends[1]].space:
                read.fail(where, "joins a place to itself")
            else:
                pairs.append((ends[0], ends[1]))
    if len(pairs) < len(raw):
        return None
    if not pairs:
        return board
    # Fixed links are printed adjacencies: drawn with the map, and kept when link orders are laid
    # over it (a geography with links keeps the one without them as ``printed``).
    return replace(with_links(board, pairs), printed=None)


def _place(read: _Reader, board: Board, places: Mapping[str, int], text: str, where: str) -> int | None:
    found = places.get(text.upper())
    if found is None:
        boards = f"; boards are {', '.join(board.boards)}" if board.boards else ""
        read.fail(where, f"no place {text!r} on any board{boards}")
    return found


def _rulebook(read: _Reader, raw: Mapping[str, Any]) -> Rulebook:
    every_winter = read.flag(raw, "winter_every_year")
    victory = raw.get("victory")
    by_units = isinstance(victory, dict) and "units" in victory
    links = None
    orders = raw.get("link_orders")
    if orders is not None:
        links = _link_rules(read, orders)
    return Rulebook(links=links, victory_by_units=by_units, winter_every_year=every_winter)


def _link_rules(read: _Reader, raw: Any) -> LinkRules | None:
    if not isinstance(raw, dict):
        read.fail("link_orders", f"an object of link rules ({{'phase': 'adjustments'}}), not {raw!r}")
        return None
    read.unknown(raw, LINK_ORDER_FIELDS, "link_orders")
    rules = LinkRules()
    values: dict[str, Any] = {}
    if "phase" in raw:
        phase = PHASES.get(raw["phase"])
        if phase is None:
            read.fail("link_orders.phase", f"{raw['phase']!r}: movement or adjustments")
        else:
            values["phase"] = phase
    if "allowance" in raw:
        allowance = raw["allowance"]
        if not isinstance(allowance, list) or not all(
            isinstance(step, list)
            and len(step) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in step)
            for step in allowance
        ):
            read.fail(
                "link_orders.allowance",
                f"a list of [centres at least, orders] ([[20, 3], [10, 2]]), not {allowance!r}",
            )
        else:
            values["allowance"] = tuple(sorted(((a, b) for a, b in allowance), reverse=True))
    for key in ("per_kind", "homeland_restriction", "reinforce", "cut_printed", "cross_board_only"):
        if key in raw:
            values[key] = read.flag(raw, key, "link_orders")
    if "opening_links" in raw:
        values["opening_links"] = read.whole(raw, "opening_links", "link_orders", 0, 100) or 0
    if "limit" in raw and raw["limit"] is not None:
        values["limit"] = read.whole(raw, "limit", "link_orders", 1, 10_000)
    return replace(rules, **values)


def _opening(read: _Reader, start: Any, boards: int) -> PhaseKind:
    if not isinstance(start, dict):
        return PhaseKind.MOVEMENT
    value = start.get("opening", "movement" if boards == 1 else "adjustments")
    opening = PHASES.get(value) if isinstance(value, str) else None
    if opening is None:
        read.fail("start.opening", f"{value!r}: movement (Spring) or adjustments (the Winter before it)")
        return PhaseKind.MOVEMENT
    if boards > 1 and opening is PhaseKind.MOVEMENT:
        read.fail("start.opening", "joined boards start with no units: open with adjustments, to build")
    return opening
