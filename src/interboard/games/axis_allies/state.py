"""The state of an Axis & Allies game: who owns what, every unit, the purses, and where the turn is.

:class:`World` is the working form, made from the JSON state, changed by the engine, and written
back (:meth:`World.to_json`); the protocol and records keep only the JSON. Units have ids so that a
move, a loaded transport or a damaged battleship can be followed through a turn.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from ... import rng
from ...board import SpaceKind
from .gamedata import GameData, game_data
from .options import Options
from .units import UnitType

SEAT_OF = {"CHINA": "USA"}
"""Powers played by another power's seat (the Pacific rulebook gives China to the US player)."""


class IllegalAction(ValueError):
    """An action the rules refuse now; the message says which rule."""


class Phase(StrEnum):
    SETUP = "setup"
    """An initial placement before round 1 (a rule layer's: :mod:`.layers`)."""
    PURCHASE = "purchase"
    COMBAT_MOVE = "combat_move"
    COMBAT = "combat"
    NONCOMBAT_MOVE = "noncombat_move"
    PLACE = "place"
    OVER = "over"


@dataclass
class Unit:
    id: int
    type: str
    owner: str
    at: str
    damage: int = 0
    moved: int = 0
    """Movement spent this turn."""
    aboard: int | None = None
    """The transport (or carrier) it rides, if any."""
    fought: bool = False
    """Took part in a battle this turn (an attacker may not move on in the non-combat move, except
    aircraft, which must land)."""
    origin: str | None = None
    """Where it began this turn's moves (for retreats and landing)."""
    submerged: bool = False
    cap: bool = False
    """Linked game: a fighter on combat air patrol over its space until its owner's next turn."""

    def copy(self) -> Unit:
        return Unit(
            self.id, self.type, self.owner, self.at, self.damage, self.moved, self.aboard, self.fought,
            self.origin, self.submerged, self.cap,
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "t": self.type, "p": self.owner, "at": self.at}
        for key, value, default in (
            ("dmg", self.damage, 0),
            ("moved", self.moved, 0),
            ("aboard", self.aboard, None),
            ("fought", self.fought, False),
            ("origin", self.origin, None),
            ("sub", self.submerged, False),
            ("cap", self.cap, False),
        ):
            if value != default:
                out[key] = value
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Unit:
        return cls(
            id=int(d["id"]),
            type=str(d["t"]),
            owner=str(d["p"]),
            at=str(d["at"]),
            damage=int(d.get("dmg", 0)),
            moved=int(d.get("moved", 0)),
            aboard=d.get("aboard"),
            fought=bool(d.get("fought", False)),
            origin=d.get("origin"),
            submerged=bool(d.get("sub", False)),
            cap=bool(d.get("cap", False)),
        )


@dataclass
class World:
    """A game in its working form."""

    data: GameData
    options: Options
    rng: int
    round: int
    turn: int
    """Index of the power to move in the turn order."""
    phase: Phase
    owner: dict[str, str]
    """Owner of every owned land territory and convoy centre."""
    ipcs: dict[str, int]
    """IPCs in hand by economy id."""
    units: dict[int, Unit]
    next_id: int
    bought: dict[str, dict[str, int]] = field(default_factory=dict)
    """Economy id -> unit type -> count bought this turn and not placed yet."""
    battles: list[str] = field(default_factory=list)
    """Spaces where a battle is due this combat phase, in the order they will be fought."""
    battle: dict[str, Any] | None = None
    """The battle being fought: see :mod:`.combat`."""
    convoys: dict[str, str] = field(default_factory=dict)
    """Convoy centre -> the side holding it, when an enemy warship has taken it."""
    captured_capitals: dict[str, int] = field(default_factory=dict)
    """Capital space -> the round it was taken (victory checks)."""
    winner: str | None = None
    """``axis`` or ``allies`` once the game is won."""
    steps: int = 0
    """Decision points processed: names each one uniquely."""
    log: list[str] = field(default_factory=list)
    """This decision point's events (not kept in the state)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Rule-specific counters (kamikaze tokens, victory points, conquered this turn...)."""

    # ------------------------------------------------------------------ queries
    @property
    def order(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.data.powers)

    @property
    def power(self) -> str:
        return self.order[self.turn]

    def side(self, power: str) -> str:
        return self.data.side_of(power)

    def enemies(self, a: str, b: str) -> bool:
        return self.side(a) != self.side(b)

    def unit_type(self, unit: Unit) -> UnitType:
        return self.data.units[unit.type]

    def at(self, space: str) -> list[Unit]:
        return [u for u in self.units.values() if u.at == space]

    def units_of(self, power: str) -> Iterator[Unit]:
        return (u for u in self.units.values() if u.owner == power)

    def is_sea(self, space: str) -> bool:
        b = self.data.board
        return b.spaces[b.space_by_id[space]].kind is SpaceKind.SEA

    def space_name(self, space: str) -> str:
        b = self.data.board
        return b.spaces[b.space_by_id[space]].name

    def controller(self, space: str) -> str | None:
        """The power holding a land territory; None for a neutral (or an unowned sea)."""
        return self.owner.get(space)

    def friendly(self, space: str, power: str) -> bool:
        """A land territory held by ``power``'s side."""
        holder = self.owner.get(space)
        return holder is not None and self.side(holder) == self.side(power)

    def enemy_units(self, space: str, power: str) -> list[Unit]:
        return [u for u in self.at(space) if self.enemies(u.owner, power) and not u.submerged]

    def combatants(self, units: Iterable[Unit]) -> list[Unit]:
        return [u for u in units if self.unit_type(u).fights]

    def economy_of(self, space: str) -> str | None:
        """The economy a held territory's income goes to."""
        holder = self.owner.get(space)
        if holder is None:
            return None
        economies = self.data.power(holder).economies
        if len(economies) == 1:
            return economies[0].id
        native = self.data.territories[space].economy
        if native is not None and self.data.territories[space].owner == holder:
            return native
        # A conquered territory pays the economy whose capital is nearest: the first, simply.
        return economies[0].id

    def add_unit(self, type_: str, owner: str, at: str) -> Unit:
        unit = Unit(self.next_id, type_, owner, at)
        self.units[unit.id] = unit
        self.next_id += 1
        return unit

    def remove(self, unit: Unit) -> None:
        self.units.pop(unit.id, None)
        for other in list(self.units.values()):
            if other.aboard == unit.id:
                self.units.pop(other.id, None)  # cargo and carried aircraft go down with it

    def roll(self, count: int) -> list[int]:
        self.rng, dice = rng.roll_dice(self.rng, count)
        return list(dice)

    def d6(self) -> int:
        return self.roll(1)[0]

    def clone(self) -> World:
        """An independent copy, for trying an action (cheaper than a JSON round trip)."""
        return replace(
            self,
            owner=dict(self.owner),
            ipcs=dict(self.ipcs),
            units={k: u.copy() for k, u in self.units.items()},
            bought={e: dict(b) for e, b in self.bought.items()},
            battles=list(self.battles),
            battle=_copied(self.battle),
            convoys=dict(self.convoys),
            captured_capitals=dict(self.captured_capitals),
            log=list(self.log),
            extra=_copied(self.extra),
        )

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.data.id,
            "options": self.options.to_json(),
            "rng": self.rng,
            "round": self.round,
            "turn": self.turn,
            "phase": self.phase.value,
            "owner": dict(sorted(self.owner.items())),
            "ipcs": dict(self.ipcs),
            "units": [u.to_json() for u in sorted(self.units.values(), key=lambda u: u.id)],
            "next_id": self.next_id,
            "bought": {e: dict(b) for e, b in self.bought.items() if b},
            "battles": list(self.battles),
            "battle": copy.deepcopy(self.battle),
            "convoys": dict(self.convoys),
            "captured_capitals": dict(self.captured_capitals),
            "winner": self.winner,
            "steps": self.steps,
            "extra": copy.deepcopy(self.extra),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> World:
        data = game_data(str(d["game"]))
        units = {int(u["id"]): Unit.from_json(u) for u in d["units"]}
        return cls(
            data=data,
            options=Options.from_json(d.get("options", {})),
            rng=int(d["rng"]),
            round=int(d["round"]),
            turn=int(d["turn"]),
            phase=Phase(d["phase"]),
            owner=dict(d["owner"]),
            ipcs={k: int(v) for k, v in d["ipcs"].items()},
            units=units,
            next_id=int(d["next_id"]),
            bought={e: {t: int(n) for t, n in b.items()} for e, b in d.get("bought", {}).items()},
            battles=list(d.get("battles", [])),
            battle=copy.deepcopy(d.get("battle")),  # the world changes them; the stored state must not
            convoys=dict(d.get("convoys", {})),
            captured_capitals={k: int(v) for k, v in d.get("captured_capitals", {}).items()},
            winner=d.get("winner"),
            steps=int(d.get("steps", 0)),
            extra=copy.deepcopy(d.get("extra", {})),
        )


def seat_of(world: World, power: str) -> str:
    """The seat that plays ``power`` (China is played by the USA's seat, as in the Pacific rulebook)."""
    return SEAT_OF.get(power, power)


def _copied(value: Any) -> Any:
    """A deep copy of JSON-like data (pickle is several times faster than ``copy.deepcopy`` on it)."""
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


def new_world(game: str, options: Options, seed: int) -> World:
    """The published setup of ``game``: every unit in place, every purse at its starting sum."""
    data = game_data(game)
    owner = {sid: t.owner for sid, t in data.territories.items() if t.owner is not None}
    # Seas other than convoy centres belong to no one.
    owner = {sid: p for sid, p in owner.items() if not _sea(data, sid) or data.territories[sid].convoy}
    ipcs = {e.id: e.ipcs for p in data.powers for e in p.economies}
    world = World(
        data=data,
        options=options,
        rng=rng.seed_state(seed),
        round=1,
        turn=0,
        phase=Phase.PURCHASE,
        owner=owner,
        ipcs=ipcs,
        units={},
        next_id=1,
    )
    for power, spaces in data.setup.items():
        for sid, counts in spaces.items():
            for type_, n in counts.items():
                for _ in range(n):
                    world.add_unit(type_, power, sid)
    world.extra["kamikaze"] = {p.id: p.kamikaze_tokens for p in data.powers if p.kamikaze_tokens}
    return world


def _sea(data: GameData, sid: str) -> bool:
    return data.board.spaces[data.board.space_by_id[sid]].kind is SpaceKind.SEA
