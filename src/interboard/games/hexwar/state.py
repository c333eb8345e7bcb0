"""The position of a hex wargame: counters and where they are, control of places, the turn track, the
tunnel, what is half-done in the current phase, and the seeded generator.

The engine works on a mutable :class:`World`; the family stores it as JSON (:meth:`World.to_json`).
Hexes are held by their bit in the geography; JSON names them by id.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ... import rng
from .gamedata import CounterSpec, GameData, game_data

# Where a counter is.
MAP = "map"
POOL = "pool"
"""Not yet arrived (a later strategic turn, or a tunnel stack)."""
AVAILABLE = "available"
"""Arrived, waiting to be placed in a New Units phase."""
SETUP = "setup"
"""Placed by a set-up rule before the first turn."""
GONE = "eliminated"


@dataclass
class Unit:
    spec: CounterSpec
    where: str
    hex: int | None = None
    lost: int = 0
    """Steps lost (a two-step corps with ``lost == 1`` is on its reduced side)."""
    crack: bool = False
    improved: bool = False
    """A Zeppelin flipped to its improved side."""

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def kind(self) -> str:
        return self.spec.type.kind

    @property
    def steps(self) -> int:
        return self.spec.type.steps - self.lost

    @property
    def size(self) -> int:
        return self.spec.type.size

    def factors(self) -> tuple[int, int, int]:
        if self.crack and self.spec.type.crack_side is not None:
            return self.spec.type.crack_side
        if self.improved and self.spec.type.improved is not None:
            return self.spec.type.improved
        return self.spec.type.sides[min(self.lost, self.spec.type.steps - 1)]


@dataclass
class World:
    data: GameData
    seed: int
    rng: int
    units: dict[str, Unit]
    control: dict[int, str]
    """Who controls each town, city and fortress hex (absent: no one, e.g. a neutral's)."""
    fortress: dict[int, int]
    """Inherent fortress steps left in each fortress hex."""
    stage: str = "setup"
    """``setup`` (the set-up rules' placements), ``play``, or ``over``."""
    setup_done: list[str] = field(default_factory=list)
    strategic: int = 0
    """Index of the strategic turn (0 is A)."""
    operational: int = 1
    """The operational turn within the strategic turn (1 ...)."""
    player: int = 0
    """Index of the phasing side in ``data.sides``."""
    phase: int = 0
    """Index of the phase in the phasing side's sequence."""
    steps: int = 0
    """Decision points processed (names each one)."""
    moved: list[str] = field(default_factory=list)
    """Units that have moved this movement phase (or attacked this combat phase)."""
    attacked: list[int] = field(default_factory=list)
    """Hexes attacked this combat phase."""
    cleared: list[int] = field(default_factory=list)
    """Hexes emptied by bombardment this combat phase: no attack, no advance."""
    decision: dict[str, Any] | None = None
    """A decision a combat left open: a defender's retreat or an attacker's advance."""
    tunnel_open: bool = True
    tunnel_stacks: list[list[str]] = field(default_factory=list)
    """The stacks on the turn track still to come through the tunnel, the next first."""
    returning: dict[int, list[str]] = field(default_factory=dict)
    """Strategic turn index -> the stack that comes back out in Germany on it (the tunnel closed)."""
    tunnel_closed_at: int | None = None
    winner: str | None = None
    result: str = ""
    """How the game ended, in words."""
    log: list[str] = field(default_factory=list)
    dice: list[dict[str, Any]] = field(default_factory=list)
    """The dice rolled by the step being processed (into its results, then cleared)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Hooks' own state (the Vernian inventions keep theirs here)."""

    # ------------------------------------------------------------------ turn
    @property
    def side(self) -> str:
        return self.data.sides[self.player].id

    @property
    def phase_name(self) -> str:
        return self.data.sequence[self.side][self.phase]

    @property
    def turn_letter(self) -> str:
        return self.data.strategic_turns[self.strategic]

    @property
    def game_turn(self) -> int:
        """Operational turns since the start, counting from 1 (``Operational Turn 1``)."""
        return self.strategic * self.data.operational_turns + self.operational

    def turn_name(self) -> str:
        return f"{self.turn_letter}{self.operational}"

    # ------------------------------------------------------------------ counters
    def side_of(self, unit: Unit) -> str:
        return self.data.side_of(unit.spec.nation)

    def on_map(self) -> list[Unit]:
        return [u for u in self.units.values() if u.where == MAP]

    def at(self, cell: int) -> list[Unit]:
        return [u for u in self.units.values() if u.where == MAP and u.hex == cell]

    def occupancy(self) -> dict[int, list[Unit]]:
        out: dict[int, list[Unit]] = {}
        for u in self.units.values():
            if u.where == MAP and u.hex is not None:
                out.setdefault(u.hex, []).append(u)
        return out

    def ground_mask(self, side: str) -> int:
        """Hexes holding a ground unit of ``side``."""
        mask = 0
        for u in self.units.values():
            if u.where == MAP and u.hex is not None and self.side_of(u) == side:
                mask |= 1 << u.hex
        return mask

    def roll(self, why: str, at: str | None = None) -> int:
        """One die from the game's generator, recorded with what it was for (and the hex it was
        rolled for, ``at``, where a page may show it)."""
        self.rng, (value,) = rng.roll_dice(self.rng, 1)
        self.dice.append({"for": why, "die": value} | ({"at": at} if at else {}))
        return value

    def say(self, line: str) -> None:
        self.log.append(line)

    def clone(self) -> World:
        out = copy.copy(self)
        out.units = {k: copy.copy(u) for k, u in self.units.items()}
        out.control = dict(self.control)
        out.fortress = dict(self.fortress)
        out.setup_done = list(self.setup_done)
        out.moved = list(self.moved)
        out.attacked = list(self.attacked)
        out.cleared = list(self.cleared)
        out.decision = copy.deepcopy(self.decision)
        out.tunnel_stacks = [list(s) for s in self.tunnel_stacks]
        out.returning = {k: list(v) for k, v in self.returning.items()}
        out.log = list(self.log)
        out.dice = list(self.dice)
        out.extra = copy.deepcopy(self.extra)
        return out

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        name = self.data.geography.hexes
        return {
            "game": self.data.id,
            "seed": self.seed,
            "rng": self.rng,
            "stage": self.stage,
            "setup_done": list(self.setup_done),
            "strategic": self.strategic,
            "operational": self.operational,
            "player": self.player,
            "phase": self.phase,
            "steps": self.steps,
            "turn": self.turn_name(),
            "phase_name": self.phase_name,
            "side": self.side,
            "units": {
                u.id: {
                    "where": u.where,
                    **({"hex": name[u.hex].id} if u.hex is not None else {}),
                    **({"lost": u.lost} if u.lost else {}),
                    **({"crack": True} if u.crack else {}),
                    **({"improved": True} if u.improved else {}),
                }
                for u in self.units.values()
            },
            "control": {name[k].id: v for k, v in sorted(self.control.items())},
            "fortress": {name[k].id: v for k, v in sorted(self.fortress.items())},
            "moved": list(self.moved),
            "attacked": [name[k].id for k in self.attacked],
            "cleared": [name[k].id for k in self.cleared],
            "decision": copy.deepcopy(self.decision),
            "tunnel": {
                "open": self.tunnel_open,
                "stacks": [list(s) for s in self.tunnel_stacks],
                "returning": {str(k): list(v) for k, v in sorted(self.returning.items())},
                "closed_at": self.tunnel_closed_at,
            },
            "winner": self.winner,
            "result": self.result,
            "extra": copy.deepcopy(self.extra),
        }

    @classmethod
    def from_json(cls, state: dict[str, Any]) -> World:
        data = game_data(state["game"])
        geo = data.geography
        units = {}
        for uid, u in state["units"].items():
            spec = data.counter_by_id[uid]
            units[uid] = Unit(
                spec,
                u["where"],
                geo.hex(u["hex"]).index if "hex" in u else None,
                int(u.get("lost", 0)),
                bool(u.get("crack", False)),
                bool(u.get("improved", False)),
            )
        tunnel = state["tunnel"]
        return cls(
            data=data,
            seed=int(state["seed"]),
            rng=int(state["rng"]),
            units=units,
            control={geo.hex(k).index: v for k, v in state["control"].items()},
            fortress={geo.hex(k).index: int(v) for k, v in state["fortress"].items()},
            stage=state["stage"],
            setup_done=list(state["setup_done"]),
            strategic=int(state["strategic"]),
            operational=int(state["operational"]),
            player=int(state["player"]),
            phase=int(state["phase"]),
            steps=int(state["steps"]),
            moved=list(state["moved"]),
            attacked=[geo.hex(k).index for k in state["attacked"]],
            cleared=[geo.hex(k).index for k in state["cleared"]],
            decision=copy.deepcopy(state["decision"]),
            tunnel_open=bool(tunnel["open"]),
            tunnel_stacks=[list(s) for s in tunnel["stacks"]],
            returning={int(k): list(v) for k, v in tunnel["returning"].items()},
            tunnel_closed_at=tunnel["closed_at"],
            winner=state["winner"],
            result=state["result"],
            extra=copy.deepcopy(state.get("extra", {})),
        )


def new_world(variant: str, seed: int) -> World:
    """A new game before its set-up: base set-up counters on their hexes, the rest in the pool."""
    data = game_data(variant)
    geo = data.geography
    units = {}
    for spec in data.counters:
        arrival = data.code_arrival(spec)
        if arrival == "start" and spec.start is not None:
            units[spec.id] = Unit(spec, MAP, geo.hex(spec.start).index)
        elif arrival.startswith("setup"):
            units[spec.id] = Unit(spec, SETUP)
        else:
            units[spec.id] = Unit(spec, POOL)
    control = {}
    for h in geo.by_id.values():
        if data.place(h.index) in ("town", "city", "fortress"):
            side = data.side_of(str(h.get("nation", "")))
            if side:
                control[h.index] = side
    return World(
        data=data,
        seed=seed,
        rng=rng.seed_state(seed),
        units=units,
        control=control,
        fortress=dict(data.fortress_steps),
    )
