"""A hex wargame's data: maps, terrain effects, combat table, counters and order of battle, turn track,
sequence of play, supply sources, victory conditions. The engine reads only this, so that a real
game's data can replace a stand-in file by file.

A variant is a folder under ``data/`` holding ``game.json`` (``interboard-hexwar/1``), its hex maps
(``interboard-hexmap/1``) and ``counters.json`` (``interboard-hexwar-counters/1``). Every check
failure raises :class:`GameDataError` naming the file and the entry. ``game.json`` names the rule
layers the variant plays with beyond the base game (``layers``: the Vernian inventions, air and
armour, :mod:`.layers`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from typing import Any

from ...board.errors import MapDataError
from ...board.hexmap import Hex, HexGeography, geography_from_data, hexmap_from_data

PACKAGE = "interboard.games.hexwar.data"
VARIANTS = {"vernian_wwi": "vernian"}
"""Variant id -> its data folder."""


class GameDataError(ValueError):
    """Game data that does not follow the format; the message names the file and the entry."""


@dataclass(frozen=True, slots=True)
class UnitType:
    id: str
    kind: str
    """``infantry``, ``cavalry``, ``hq``, ``fortress`` (and the kinds of the Vernian inventions)."""
    size: int
    """Division-equivalents for stacking (an HQ counts against its own limit)."""
    sides: tuple[tuple[int, int, int], ...]
    """(attack, defence, movement) with each number of steps lost: ``sides[0]`` at full strength."""
    guns: tuple[int, int] = (0, 0)
    """An HQ's monstrous artillery: dice and kill number (range equals the kill number)."""
    yellow: bool = False
    crack_side: tuple[int, int, int] | None = None
    improved: tuple[int, int, int] | None = None
    """A Zeppelin's improved side."""
    role: str = ""
    """An ether flyer's type: F (fighter), CS (close support), B (bomber)."""

    @property
    def steps(self) -> int:
        return len(self.sides)


@dataclass(frozen=True, slots=True)
class CounterSpec:
    id: str
    type: UnitType
    nation: str
    code: str
    start: str | None = None
    army: str = ""


@dataclass(frozen=True, slots=True)
class Side:
    id: str
    nations: tuple[str, ...]
    colour: str
    name: str = ""
    """As players write it in a sentence (``the Allies``); the id when empty."""
    plural: bool = False
    """The name takes a plural verb (``the Allies decide``)."""

    @property
    def called(self) -> str:
        return self.name or self.id

    @property
    def possessive(self) -> str:
        return self.called + ("'" if self.called.endswith("s") else "'s")


@dataclass(frozen=True, slots=True)
class Result:
    """A combat result: steps lost by the attacker and the defender, and a defender's retreat."""

    attacker: int
    defender: int
    retreat: bool

    @classmethod
    def parse(cls, text: str, where: str) -> Result:
        parts = text.split()
        try:
            a = next(int(p[1:]) for p in parts if p.startswith("a"))
            d = next(int(p[1:]) for p in parts if p.startswith("d"))
        except (StopIteration, ValueError):
            raise GameDataError(f"{where}: {text!r} is not a result like 'a1 d2 r'") from None
        return cls(a, d, "r" in parts)

    def __str__(self) -> str:
        return f"a{self.attacker} d{self.defender}" + (" r" if self.retreat else "")

    def meaning(self) -> str:
        """What the result does, in words: "the attacker loses 1 step, the defender 2 and retreats"."""

        def steps(n: int) -> str:
            return "no step" if n == 0 else f"{n} step{'s' if n != 1 else ''}"

        defender = f"the defender {steps(self.defender)}".replace("the defender no step", "the defender none")
        return f"the attacker loses {steps(self.attacker)}, {defender}" + (
            " and retreats" if self.retreat else ""
        )


@dataclass(frozen=True, eq=False)
class GameData:
    id: str
    title: str
    description: str
    source: str
    geography: HexGeography
    sides: tuple[Side, ...]
    nation_names: dict[str, str]
    terrain: dict[str, dict[str, Any]]
    places: dict[str, dict[str, Any]]
    board_edges: dict[str, Any]
    """What a hex on a map's outer row or column is: ``places`` maps the place a map file gives it to
    the one the rules read (the seed's part II: a city there is no city), ``victory`` false takes
    away its victory value."""
    river: dict[str, int]
    fortress_step_defence: int
    stacking_size: int
    stacking_hq: int
    stacking_tanks: int
    columns: tuple[tuple[int, int], ...]
    """Each odds column as (attack, defence), lowest first."""
    column_names: tuple[str, ...]
    results: dict[int, tuple[Result, ...]]
    """Die -> the result in each column."""
    below_first: Result
    strategic_turns: tuple[str, ...]
    operational_turns: int
    end_turn: str
    first_week: str
    sequence: dict[str, tuple[str, ...]]
    layers: tuple[str, ...]
    """The rule layers it plays with beyond the base game, in order (:mod:`.layers`)."""
    phase_names: dict[str, str]
    """Each phase of the sequence as players say it (``bombardment step``)."""
    doubled: dict[str, Any]
    attack_trace: int
    ultimate: dict[str, dict[str, Any]]
    victory: dict[str, tuple[dict[str, Any], ...]]
    arrivals: tuple[dict[str, Any], ...]
    england: dict[str, Any]
    placement: dict[str, dict[str, Any]]
    inventions: dict[str, dict[str, Any]]
    storm: dict[str, Any]
    air: dict[str, Any]
    types: dict[str, UnitType]
    counters: tuple[CounterSpec, ...]
    stand_in: bool = True
    counter_by_id: dict[str, CounterSpec] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.counter_by_id.update({c.id: c for c in self.counters})

    # ------------------------------------------------------------------ sides and nations
    def side_of(self, nation: str) -> str:
        for side in self.sides:
            if nation in side.nations:
                return side.id
        return ""

    def side(self, side: str) -> Side:
        return next(s for s in self.sides if s.id == side)

    def phase_words(self, phase: str) -> str:
        return self.phase_names.get(phase, phase.replace("_", " ") + " phase")

    def enemy(self, side: str) -> str:
        return next(s.id for s in self.sides if s.id != side)

    @property
    def side_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.sides)

    # ------------------------------------------------------------------ hexes
    def hex(self, ident: str) -> Hex:
        return self.geography.hex(ident)

    @cached_property
    def passable(self) -> int:
        """Hexes ground units may stand in."""
        return self.geography.mask(
            h
            for h in self.geography.by_id.values()
            if self.terrain.get(h.terrain, {}).get("move") is not None
        )

    @cached_property
    def move_cost(self) -> dict[int, int]:
        """The cost to enter each passable hex (a place's cost stands for its hex's terrain)."""
        out = {}
        for h in self.geography.by_id.values():
            cost = self.terrain.get(h.terrain, {}).get("move")
            if cost is None:
                continue
            place = self.place(h.index)
            if place in self.places:
                cost = self.places[place]["move"]
            out[h.index] = int(cost)
        return out

    @cached_property
    def board_edge_hexes(self) -> int:
        """Every map's outer rows and columns."""
        mask = 0
        for m in self.geography.maps:
            for edge in ("north", "south", "east", "west"):
                mask |= self.edge_mask(m.id, edge)
        return mask

    @cached_property
    def _places(self) -> dict[int, str]:
        edges = self.board_edge_hexes
        renamed = self.board_edges.get("places", {})
        out = {}
        for h in self.geography.by_id.values():
            place = h.get("place")
            if place and (edges >> h.index) & 1:
                place = renamed.get(place, place)
            if place:
                out[h.index] = str(place)
        return out

    def place(self, cell: int) -> str | None:
        """The place in a hex as every rule reads it (``town``, ``city``, ``fortress`` or None): the
        map's, but for what the data says of board-edge hexes. Rules ask this, never the map file, so
        that none can forget that an edge hex's city is no city."""
        return self._places.get(cell)

    def _where_place(self, *places: str) -> int:
        return self.geography.mask(self.geography.hexes[c] for c, p in self._places.items() if p in places)

    @cached_property
    def towns(self) -> int:
        """Town, city and fortress hexes (each a secondary supply source for its controller)."""
        return self._where_place("town", "city", "fortress")

    @cached_property
    def cities(self) -> int:
        """City hexes (fortress cities included): the defence-supply goals, the cities new units and
        generators are placed in, the city hexes the inventions' triggers count."""
        return self._where_place("city", "fortress")

    @cached_property
    def victory_value(self) -> dict[int, int]:
        edges = 0 if self.board_edges.get("victory", True) else self.board_edge_hexes
        return {
            h.index: int(h.get("victory"))
            for h in self.geography.by_id.values()
            if h.get("victory") and not (edges >> h.index) & 1
        }

    @cached_property
    def fortress_steps(self) -> dict[int, int]:
        return {h.index: int(h.get("fortress")) for h in self.geography.by_id.values() if h.get("fortress")}

    def nation_mask(self, nations: tuple[str, ...] | list[str]) -> int:
        return self.geography.where(nation=tuple(nations))

    @cached_property
    def _mask_of_map(self) -> dict[str, int]:
        # Asked for at every move a ground unit considers (the England front): made once.
        masks: dict[str, int] = {}
        for h in self.geography.by_id.values():
            masks[h.map] = masks.get(h.map, 0) | 1 << h.index
        return masks

    def map_mask(self, maps: tuple[str, ...] | list[str]) -> int:
        out = 0
        for map_id in maps:
            out |= self._mask_of_map.get(map_id, 0)
        return out

    def edge_mask(self, map_id: str, edge: str) -> int:
        """The hexes of one map's edge row or column (``north``, ``south``, ``east``, ``west``)."""
        m = next(m for m in self.geography.maps if m.id == map_id)
        grid = m.grid
        east_col = grid.columns[1] if grid.east else grid.columns[0]
        west_col = grid.columns[0] if grid.east else grid.columns[1]
        if edge not in ("north", "south", "east", "west"):
            raise GameDataError(f"unknown map edge {edge!r} (north, south, east or west)")

        def on_edge(h: Hex) -> bool:
            if edge in ("north", "south"):
                return h.row == grid.rows[0 if edge == "north" else 1]
            return h.col == (east_col if edge == "east" else west_col)

        return self.geography.mask(h for h in self.geography.by_id.values() if h.map == map_id and on_edge(h))

    @cached_property
    def ultimate_masks(self) -> dict[str, int]:
        """Each side's ultimate supply hexes on the maps (links add theirs while open)."""
        out = {}
        for side, spec in self.ultimate.items():
            mask = 0
            for edge in spec.get("edges", ()):
                mask |= self.edge_mask(edge["map"], edge["edge"]) & self.nation_mask(edge["nations"])
            for hid in spec.get("hexes", ()):
                mask |= 1 << self.hex(hid).index
            out[side] = mask & self.passable
        return out

    def column_index(self, attack: int, defence: int) -> int:
        """The odds column of ``attack`` against ``defence`` rounded in the defender's favour: -1 below
        the first column, the last column at and above it."""
        if defence <= 0:
            return len(self.columns) - 1
        best = -1
        for k, (a, d) in enumerate(self.columns):
            if attack * d >= a * defence:
                best = k
        return best

    # ------------------------------------------------------------------ stacking
    @staticmethod
    def stacking_group(kind: str) -> str:
        """Which stack a counter kind counts in: ``ground``, ``zeppelin`` or ``flyer`` (each air kind
        stacks apart from the ground units), or ``""`` for none (a generator)."""
        if kind in ("zeppelin", "flyer"):
            return kind
        return "" if kind == "generator" else "ground"

    def stack_problem(self, types: Iterable[UnitType], where: str) -> str | None:
        """Why one side's counters of ``types`` may not stand together in hex ``where`` (None: they
        may): the ground stack, its HQs and tank, and each air kind, against the data's limits."""
        size = hqs = tanks = 0
        air = {"zeppelin": 0, "flyer": 0}
        for t in types:
            group = self.stacking_group(t.kind)
            if group in air:
                air[group] += 1
            elif t.kind == "hq":
                hqs += 1
            elif group == "ground":
                size += t.size
                if t.kind == "tank":
                    tanks += 1
        if size > self.stacking_size:
            return f"{where} would hold {size} division-equivalents (limit {self.stacking_size})"
        if hqs > self.stacking_hq:
            return f"{where} would hold {hqs} HQs (limit {self.stacking_hq})"
        if tanks > self.stacking_tanks:
            return f"{where} would hold {tanks} tanks (one a stack)"
        for kind, words in (("zeppelin", "Zeppelins"), ("flyer", "ether flyers")):
            limit = int(self.air.get(f"{kind}_stacking", 5))
            if air[kind] > limit:
                return f"{where} would hold {air[kind]} {words} (limit {limit})"
        return None

    def code_arrival(self, counter: CounterSpec) -> str:
        """Where a counter comes from: a strategic turn letter, ``start`` (the base set-up), or one of
        the set-up and tunnel rules named in ``arrivals`` (a rule naming ``kinds`` takes only
        those); ``never`` past the game's end."""
        for rule in self.arrivals:
            if "kinds" in rule and counter.type.kind not in rule["kinds"]:
                continue  # e.g. the turn-B Zeppelins are not the turn-B landing force
            if counter.nation in rule["nations"] and counter.code in rule["codes"]:
                return str(rule.get("on") or rule["to"])
        if counter.code == "S":
            return "start"
        if counter.code in self.strategic_turns and counter.code != self.end_turn:
            return counter.code
        return "never"


def _triple(values: Any) -> tuple[int, int, int]:
    a, d, m = values
    return int(a), int(d), int(m)


def _read(folder: str, name: str) -> Any:
    ref = resources.files(PACKAGE).joinpath(folder, name)
    try:
        return json.loads(ref.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise GameDataError(f"{folder}/{name}: missing") from None
    except json.JSONDecodeError as exc:
        raise GameDataError(f"{folder}/{name}: line {exc.lineno}: not JSON: {exc.msg}") from None


def _need(data: dict[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise GameDataError(f"{where}: {key!r} is missing")
    return data[key]


@cache
def game_data(variant: str) -> GameData:
    """The data of ``variant`` (cached: data is immutable)."""
    folder = VARIANTS.get(variant)
    if folder is None:
        raise GameDataError(f"unknown hex wargame {variant!r} (known: {', '.join(VARIANTS)})")
    return load_folder(folder)


def load_folder(folder: str) -> GameData:
    game = _read(folder, "game.json")
    where = f"{folder}/game.json"
    if game.get("format") != "interboard-hexwar/1":
        raise GameDataError(f"{where}: format must be 'interboard-hexwar/1'")
    try:
        maps = [
            hexmap_from_data(_read(folder, f"{m}.json"), f"{folder}/{m}.json")
            for m in _need(game, "maps", where)
        ]
        geography = geography_from_data(maps, game.get("boxes", []), game.get("links", []), where)
    except MapDataError as exc:
        raise GameDataError(str(exc)) from None
    counters_data = _read(folder, "counters.json")
    cwhere = f"{folder}/counters.json"
    types: dict[str, UnitType] = {}
    for tid, spec in _need(counters_data, "types", cwhere).items():
        try:
            types[tid] = UnitType(
                tid,
                str(spec["kind"]),
                int(spec["size"]),
                tuple((int(a), int(d), int(m)) for a, d, m in spec["sides"]),
                (int(spec.get("guns", (0, 0))[0]), int(spec.get("guns", (0, 0))[1])),
                bool(spec.get("yellow", False)),
                _triple(spec["crack_side"]) if spec.get("crack_side") else None,
                _triple(spec["improved"]) if spec.get("improved") else None,
                str(spec.get("role", "")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise GameDataError(f"{cwhere}: types.{tid}: {exc}") from None
    counters = []
    seen: set[str] = set()
    for k, u in enumerate(_need(counters_data, "units", cwhere)):
        uwhere = f"{cwhere}: units[{k}]"
        uid = str(_need(u, "id", uwhere))
        if uid in seen:
            raise GameDataError(f"{uwhere}: id {uid} is used twice")
        seen.add(uid)
        t = types.get(u.get("type"))
        if t is None:
            raise GameDataError(f"{uwhere} ({uid}): unknown type {u.get('type')!r}")
        start = u.get("start")
        if start is not None and start not in geography.by_id:
            raise GameDataError(f"{uwhere} ({uid}): start hex {start} is not on the maps")
        counters.append(
            CounterSpec(uid, t, uid.split("-")[0], str(_need(u, "code", uwhere)), start, u.get("army", ""))
        )
    combat = _need(game, "combat", where)
    columns = []
    for name in combat["columns"]:
        a, d = name.split(":")
        columns.append((int(a), int(d)))
    results: dict[int, tuple[Result, ...]] = {}
    for die, row in combat["results"].items():
        if len(row) != len(columns):
            raise GameDataError(
                f"{where}: combat.results.{die} has {len(row)} results for {len(columns)} columns"
            )
        results[int(die)] = tuple(Result.parse(r, f"{where}: combat.results.{die}") for r in row)
    if sorted(results) != [1, 2, 3, 4, 5, 6]:
        raise GameDataError(f"{where}: combat.results needs a row for each die 1 to 6")
    sides = tuple(
        Side(s["id"], tuple(s["nations"]), s.get("colour", "#888"), s.get("name", ""), bool(s.get("plural")))
        for s in _need(game, "sides", where)
    )
    turns = _need(game, "turns", where)
    data = GameData(
        id=game["id"],
        title=game["title"],
        description=game.get("description", ""),
        source=game.get("source", ""),
        geography=geography,
        sides=sides,
        nation_names=dict(game.get("nation_names", {})),
        terrain=_need(game, "terrain", where),
        places=game.get("places", {}),
        board_edges=game.get("board_edges", {}),
        river=game.get("river", {"move": 0, "shifts": 0}),
        fortress_step_defence=int(game.get("fortress_step_defence", 0)),
        stacking_size=int(game["stacking"]["size"]),
        stacking_hq=int(game["stacking"]["hq"]),
        stacking_tanks=int(game["stacking"].get("tanks", 1)),
        columns=tuple(columns),
        column_names=tuple(combat["columns"]),
        results=results,
        below_first=Result.parse(combat["below_first"], f"{where}: combat.below_first"),
        strategic_turns=tuple(turns["strategic"]),
        operational_turns=int(turns["operational"]),
        end_turn=str(turns["end"]),
        first_week=str(turns.get("first_week", "")),
        sequence={k: tuple(v) for k, v in _need(game, "sequence", where).items()},
        layers=tuple(game.get("layers", ())),
        phase_names=dict(game.get("phase_names", {})),
        doubled=game.get("doubled_movement", {}),
        attack_trace=int(game["supply"]["attack_trace"]),
        ultimate=game["supply"]["ultimate"],
        victory={k: tuple(v) for k, v in _need(game, "victory", where).items()},
        arrivals=tuple(game.get("arrivals", ())),
        england=game.get("england", {}),
        placement=game.get("placement", {}),
        inventions=game.get("inventions", {}),
        storm=game.get("storm", {}),
        air=game.get("air", {}),
        types=types,
        counters=tuple(counters),
        stand_in=bool(game.get("stand_in", False)),
    )
    for side in data.side_ids:
        if side not in data.sequence:
            raise GameDataError(f"{where}: sequence has no entry for side {side}")
    for terrain in {h.terrain for h in geography.by_id.values()}:
        if terrain not in data.terrain:
            raise GameDataError(f"{where}: terrain {terrain!r} of the maps has no entry in 'terrain'")
    _check_base_setup(data, cwhere)
    return data


def _check_base_setup(data: GameData, where: str) -> None:
    """The counters that start on their hexes obey the stacking limits, as any placement must."""
    stacks: dict[tuple[str, str], list[UnitType]] = {}
    for c in data.counters:
        if c.start is not None and data.code_arrival(c) == "start":
            stacks.setdefault((c.start, data.side_of(c.nation)), []).append(c.type)
    for (hid, _), types in sorted(stacks.items()):
        problem = data.stack_problem(types, hid)
        if problem:
            raise GameDataError(f"{where}: the base set-up: {problem}")
