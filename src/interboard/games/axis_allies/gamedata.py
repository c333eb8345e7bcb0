"""A game of the Axis & Allies family as data: its board, powers, territories, units and setup.

Each game is two files under ``data/``: the board (``maps/<game>.json``, the board layer's format)
and the game (``<game>.json``, ``interboard-axis-allies/1``), both written once by
``tools/convert_axis_allies.py`` from the facts of the published games.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ...board import Board, load_packaged_board
from .units import UnitDataError, UnitType, unit_types

DATA_PACKAGE = "interboard.games.axis_allies.data"
MAPS_PACKAGE = DATA_PACKAGE + ".maps"
FORMAT = "interboard-axis-allies/1"
GAMES = ("aa_europe_1999", "aa_pacific_2001", "aa_linked_world")
LAYERS: dict[str, tuple[str, ...]] = {"aa_linked_world": ("linked",)}
"""The rule layers (:mod:`.layers`) a game plays with beyond the base games' rules, by game."""


@dataclass(frozen=True, slots=True)
class Economy:
    """A purse of a power: its IPCs are spent at the factories of its own territories (the UK keeps
    one for India and one for Australia in the Pacific)."""

    id: str
    capital: str
    """Space id of its capital."""
    ipcs: int
    """IPCs in hand at the start."""


@dataclass(frozen=True, slots=True)
class Power:
    id: str
    name: str
    short: str
    """Its name in a map's badges ("Ger", "Sov")."""
    side: str
    """``axis`` or ``allies``."""
    colour: str
    economies: tuple[Economy, ...]
    buys: tuple[str, ...]
    """Unit types it may buy."""
    kamikaze_tokens: int = 0

    @property
    def capital(self) -> str:
        return self.economies[0].capital


@dataclass(frozen=True, slots=True)
class Territory:
    """What the rules know of a space besides its geography."""

    id: str
    ipc: int = 0
    owner: str | None = None
    """Owner at the start; None for a neutral land or an open sea."""
    economy: str | None = None
    """The owner's economy its income goes to, when the owner has several."""
    original_owner: str | None = None
    neutral: bool = False
    factory: bool = False
    """An industrial complex stood here at the start."""
    capital: str | None = None
    victory_city: bool = False
    convoy: int = 0
    """A convoy centre at sea: the IPCs its owner collects while no enemy warship is in it."""
    convoy_route: str | None = None
    """Pacific: the sea zone an island's income travels by."""
    middle_east: bool = False
    conversion: bool = False
    """A Soviet factory territory where Allied units may be converted to Soviet ones."""
    mediterranean_home: bool = False
    kamikaze: bool = False
    oil: bool = False
    ships_only: bool = False
    """Linked game: an interboard sea card, entered by ships only (aircraft go through it only aboard
    a carrier)."""
    ships_of: str | None = None
    """Linked game: only this side's ships enter (the Panama Canal: the Allies')."""
    mediterranean: bool = False
    """Linked game: land within or next to the Mediterranean (where the UK's free infantry go)."""
    closed_by_convoy: str | None = None
    """Linked game: closed while the other side holds this convoy centre (Panama: sea zone 3)."""


@dataclass(frozen=True, slots=True)
class Canal:
    name: str
    seas: tuple[str, ...]
    land: tuple[str, ...]
    """A ship passes between the seas only when its side controls every one of these."""


@dataclass(frozen=True, eq=False)
class GameData:
    id: str
    title: str
    board: Board
    powers: tuple[Power, ...]
    units: dict[str, UnitType]
    territories: dict[str, Territory]
    canals: tuple[Canal, ...]
    setup: dict[str, dict[str, dict[str, int]]]
    """Power -> space id -> unit type -> count."""
    power_by_id: dict[str, Power] = field(default_factory=dict)
    layers: tuple[str, ...] = ()
    """The rule layers it plays with, by name (:data:`LAYERS`)."""

    def power(self, pid: str) -> Power:
        return self.power_by_id[pid]

    def side_of(self, pid: str) -> str:
        return self.power_by_id[pid].side


class GameDataError(ValueError):
    """A game file that does not follow the format; the message names the file and the entry."""


def _territory(sid: str, raw: dict[str, Any], source: str) -> Territory:
    known = set(Territory.__dataclass_fields__) - {"id"}
    unknown = set(raw) - known
    if unknown:
        raise GameDataError(f"{source}: territories.{sid}: unknown fields {sorted(unknown)}")
    return Territory(id=sid, **raw)


def game_from_data(data: dict[str, Any], board: Board, source: str, layers: tuple[str, ...] = ()) -> GameData:
    if data.get("format") != FORMAT:
        raise GameDataError(f"{source}: format is {data.get('format')!r}, not {FORMAT!r}")
    try:
        units = unit_types(data["units"], source)
        powers = []
        for k, p in enumerate(data["powers"]):
            if "economies" in p:
                economies = tuple(Economy(e["id"], e["capital"], int(e["ipcs"])) for e in p["economies"])
            else:
                capital = next(
                    (sid for sid, t in data["territories"].items() if t.get("capital") == p["id"]), ""
                )
                economies = (Economy(p["id"], capital, int(p.get("ipcs", 0))),)
            for unit in p.get("buys", []):
                if unit not in units:
                    raise GameDataError(f"{source}: powers[{k}] buys an unknown unit {unit!r}")
            powers.append(
                Power(
                    id=p["id"],
                    name=p["name"],
                    short=p["short"],
                    side=p["side"],
                    colour=p["colour"],
                    economies=economies,
                    buys=tuple(p.get("buys", [])),
                    kamikaze_tokens=int(p.get("kamikaze_tokens", 0)),
                )
            )
        territories = {sid: _territory(sid, t, source) for sid, t in data["territories"].items()}
        canals = tuple(Canal(c["name"], tuple(c["seas"]), tuple(c["land"])) for c in data.get("canals", []))
        setup = {p: {t: dict(u) for t, u in s.items()} for p, s in data["setup"].items()}
    except (KeyError, TypeError) as exc:
        raise GameDataError(f"{source}: {exc.__class__.__name__}: {exc}") from None
    except UnitDataError as exc:
        raise GameDataError(str(exc)) from None
    ids = {s.id for s in board.spaces}
    for sid in territories:
        if sid not in ids:
            raise GameDataError(f"{source}: territories.{sid} is not a space of the board {board.id}")
    missing = ids - set(territories)
    if missing:
        raise GameDataError(f"{source}: no territory entry for {sorted(missing)[:5]}")
    power_ids = {p.id for p in powers}
    for pid, spaces in setup.items():
        if pid not in power_ids:
            raise GameDataError(f"{source}: setup of an unknown power {pid!r}")
        for sid, counts in spaces.items():
            if sid not in ids:
                raise GameDataError(f"{source}: setup.{pid}: unknown space {sid!r}")
            for unit in counts:
                if unit not in units:
                    raise GameDataError(f"{source}: setup.{pid}.{sid}: unknown unit {unit!r}")
    return GameData(
        id=data["id"],
        title=data["title"],
        board=board,
        powers=tuple(powers),
        units=units,
        territories=territories,
        canals=canals,
        setup=setup,
        power_by_id={p.id: p for p in powers},
        layers=layers,
    )


def _game_file(game: str) -> dict[str, Any]:
    if game not in GAMES:
        raise GameDataError(f"unknown Axis & Allies game {game!r} (games: {', '.join(GAMES)})")
    text = resources.files(DATA_PACKAGE).joinpath(f"{game}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def game_data(game: str) -> GameData:
    """A shipped game's data (``aa_europe_1999``, ``aa_pacific_2001``, ``aa_linked_world``), loaded once."""
    board = load_packaged_board(MAPS_PACKAGE, game)
    return game_from_data(_game_file(game), board, f"{game}.json", LAYERS.get(game, ()))


@cache
def game_units(game: str) -> dict[str, UnitType]:
    """A shipped game's unit table alone: the battle calculator needs no board."""
    try:
        return unit_types(_game_file(game)["units"], f"{game}.json")
    except KeyError as exc:
        raise GameDataError(f"{game}.json: KeyError: {exc}") from None
    except UnitDataError as exc:
        raise GameDataError(str(exc)) from None
