"""The actions of an Axis & Allies turn as typed values, read from text and written back.

Every action is one line a player may type::

    buy 3 infantry, 1 armour                      buy 2 infantry for Australia
    convert 2 infantry at Moscow                  (the USSR, before buying)
    move 2 infantry, 1 armour from Germany to Poland
    move 1 fighter from Germany to Baltic Sea via Denmark
    raid 2 bombers, 1 fighter from Germany to United Kingdom   (a strategic bombing raid)
    place 2 infantry at Germany                   place 1 destroyer at Baltic Sea
    lose 2 infantry, 1 battleship                 (casualties, when hits are to be taken)
    kamikaze 1 battleship at Sea Zone 36          (Japan, Pacific: a token spent on an Allied ship)
    press on / retreat to Poland / submerge
    transfer 5 IPCs from India to England         (the UK, linked game: money between theatres)

Names of places are the board's names, ids or aliases, in any case; unit names the variant's unit
ids or names, singular or plural (``armor`` reads as ``armour``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from .gamedata import GameData
from .units import UnitType


class ActionSyntaxError(ValueError):
    """Text that is not an action; the message quotes it and says what was expected."""


Counts = tuple[tuple[str, int], ...]
"""(unit type, count) pairs, in the order written."""


@dataclass(frozen=True)
class Buy:
    units: Counts
    economy: str | None = None


@dataclass(frozen=True)
class Convert:
    units: Counts
    at: str


@dataclass(frozen=True)
class Move:
    units: Counts
    frm: str
    to: str
    via: tuple[str, ...] = ()
    raid: bool = False
    """A strategic bombing raid: bombers (and escorting fighters) bomb the factory, not fight for the
    territory."""


@dataclass(frozen=True)
class Place:
    units: Counts
    at: str


@dataclass(frozen=True)
class Lose:
    units: Counts
    """Casualties by type; a battleship listed first takes its first (free) hit."""


@dataclass(frozen=True)
class Kamikaze:
    """Pacific: kamikaze tokens of Japan spent on Allied ships of a type in a kamikaze zone (one token
    a ship)."""

    units: Counts
    at: str


@dataclass(frozen=True)
class PressOn:
    pass


@dataclass(frozen=True)
class Retreat:
    to: str


@dataclass(frozen=True)
class Submerge:
    pass


@dataclass(frozen=True)
class Transfer:
    """The UK in the linked game: IPCs moved from one of its purses to another (between theatres)."""

    ipcs: int
    frm: str
    to: str


Action = Buy | Convert | Move | Place | Lose | Kamikaze | PressOn | Retreat | Submerge | Transfer

ALIASES = {"armor": "armour", "tank": "armour", "tanks": "armour", "aa": "aa_gun", "aa gun": "aa_gun"}


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower().replace("_", " "))


def unit_type_of(units: Mapping[str, UnitType], word: str, where: str) -> str:
    key = _norm(word)
    key = ALIASES.get(key, key)
    candidates = [key]
    if key.endswith("ies"):
        candidates.append(key[:-3] + "y")
    if key.endswith("s"):
        candidates.append(key[:-1])
    for cand in candidates:
        cand = _norm(ALIASES.get(cand, cand))
        for uid, ut in units.items():
            if cand in (_norm(uid), _norm(ut.name)):
                return uid
    raise ActionSyntaxError(f"{where}: unknown unit {word.strip()!r} (units: {', '.join(sorted(units))})")


@cache
def _space_names(data: GameData) -> dict[str, str]:
    names: dict[str, str] = {}
    for space in data.board.spaces:
        for name in (space.name, space.id, *space.aliases):
            names.setdefault(_norm(name), space.id)
    return names


def space_of(data: GameData, text: str, where: str) -> str:
    """The id of the space named ``text`` (its name, id or an alias, any case)."""
    key = _norm(text)
    found = _space_names(data).get(key)
    if found is not None:
        return found
    board = data.board
    close = [s.name for s in board.spaces if _norm(s.name).startswith(key[:4])][:5]
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise ActionSyntaxError(f"{where}: unknown place {text.strip()!r}{hint}")


def parse_counts(units: Mapping[str, UnitType], text: str, where: str) -> Counts:
    out: list[tuple[str, int]] = []
    for part in re.split(r",|\band\b", text):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(\d+)\s+(.+)", part)
        count, name = (int(m.group(1)), m.group(2)) if m else (1, part)
        if count <= 0 or count > 999:
            raise ActionSyntaxError(f"{where}: {part!r}: a count is 1 to 999")
        out.append((unit_type_of(units, name, where), count))
    if not out:
        raise ActionSyntaxError(f"{where}: name the units ('2 infantry, 1 armour')")
    return tuple(out)


def parse_action(data: GameData, text: str) -> Action:
    where = repr(text.strip())
    line = text.strip()
    low = line.lower()
    if low in ("press on", "press", "continue", "fight on"):
        return PressOn()
    if low == "submerge":
        return Submerge()
    m = re.fullmatch(r"retreat\s+to\s+(.+)", line, re.IGNORECASE)
    if m:
        return Retreat(space_of(data, m.group(1), where))
    m = re.fullmatch(r"buy\s+(.+?)(?:\s+for\s+(\w+))?", line, re.IGNORECASE)
    if m:
        economy = m.group(2).upper() if m.group(2) else None
        return Buy(parse_counts(data.units, m.group(1), where), economy)
    m = re.fullmatch(r"(convert|place|kamikaze)\s+(.+?)\s+at\s+(.+)", line, re.IGNORECASE)
    if m:
        counts = parse_counts(data.units, m.group(2), where)
        at = space_of(data, m.group(3), where)
        kind = m.group(1).lower()
        if kind == "convert":
            return Convert(counts, at)
        return Place(counts, at) if kind == "place" else Kamikaze(counts, at)
    m = re.fullmatch(
        r"(move|raid)\s+(.+?)\s+from\s+(.+?)\s+to\s+(.+?)(?:\s+via\s+(.+))?", line, re.IGNORECASE
    )
    if m:
        via = tuple(space_of(data, v, where) for v in m.group(5).split(",")) if m.group(5) else ()
        return Move(
            parse_counts(data.units, m.group(2), where),
            space_of(data, m.group(3), where),
            space_of(data, m.group(4), where),
            via,
            raid=m.group(1).lower() == "raid",
        )
    m = re.fullmatch(r"transfer\s+(\d+)\s+ipcs?\s+from\s+(\w+)\s+to\s+(\w+)", line, re.IGNORECASE)
    if m:
        return Transfer(int(m.group(1)), m.group(2).upper(), m.group(3).upper())
    m = re.fullmatch(r"lose\s+(.+)", line, re.IGNORECASE)
    if m:
        return Lose(parse_counts(data.units, m.group(1), where))
    raise ActionSyntaxError(
        f"{where}: not an action (buy, convert, transfer, move, raid, place, lose, press on, retreat to, "
        "submerge)"
    )


def counts_text(data: GameData, counts: Counts) -> str:
    return ", ".join(f"{n} {data.units[t].name}" for t, n in counts)


def action_text(data: GameData, action: Action) -> str:
    """The action as a line :func:`parse_action` reads back."""

    def name(sid: str) -> str:
        b = data.board
        return b.spaces[b.space_by_id[sid]].name

    match action:
        case Buy(units, economy):
            return f"buy {counts_text(data, units)}" + (f" for {economy.title()}" if economy else "")
        case Convert(units, at):
            return f"convert {counts_text(data, units)} at {name(at)}"
        case Move(units, frm, to, via, raid):
            text = f"{'raid' if raid else 'move'} {counts_text(data, units)} from {name(frm)} to {name(to)}"
            return text + (f" via {', '.join(name(v) for v in via)}" if via else "")
        case Place(units, at):
            return f"place {counts_text(data, units)} at {name(at)}"
        case Lose(units):
            return f"lose {counts_text(data, units)}"
        case Kamikaze(units, at):
            return f"kamikaze {counts_text(data, units)} at {name(at)}"
        case PressOn():
            return "press on"
        case Retreat(to):
            return f"retreat to {name(to)}"
        case Submerge():
            return "submerge"
        case Transfer(ipcs, frm, to):
            return f"transfer {ipcs} IPCs from {frm.title()} to {to.title()}"
    raise TypeError(f"not an action: {action!r}")
