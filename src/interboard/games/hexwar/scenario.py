"""Hex wargame positions as scenario fields (``docs/scenarios.md``): read, checked and written.

The fields, each replacing that part of the variant's start when given:

* ``stage`` (``setup``, ``play``, ``over``; left out: ``play``), ``turn`` (``A2``: the strategic
  turn's letter and the operational turn), ``side`` (the phasing side), ``phase`` (its phase:
  ``movement``, ``combat``...; left out: the side's first);
* ``units``: counter -> hex (``{"GE-C01": "W4607"}``): the counters on the map, every other one
  off it (in the pool, to arrive later); ``available`` (arrived, to be placed in a New Units
  phase), ``eliminated`` and ``setup`` (still to be placed by a set-up rule): lists of counters;
* ``lost`` (counter -> steps lost), ``crack`` and ``improved`` (lists of counters);
* ``control`` (hex -> side, ``null``: no one), ``fortress`` (hex -> inherent steps left);
* ``tunnel``: ``open``, ``stacks`` (the stacks still to come through, the next first),
  ``returning`` (strategic turn index -> the stack coming back in Germany), ``closed_at``;
* ``moved``, ``attacked``, ``cleared``, ``decision`` (what the current phase has done and left open),
  ``setup_done``, ``winner``, ``result`` and ``markers`` (the inventions' own state).

Counters are checked where they stand: ground units on a hex of the map that units may enter, within the
stacking limits (ground units by size, HQs and tanks; Zeppelins and flyers by count).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..positions import a_list, an_object, fail, unknown_fields, whole
from . import movement
from .state import AVAILABLE, GONE, MAP, POOL, SETUP, World, new_world
from .supply import NOT_GROUND

FIELDS = (
    "stage",
    "turn",
    "side",
    "phase",
    "units",
    "available",
    "eliminated",
    "setup",
    "lost",
    "crack",
    "improved",
    "control",
    "fortress",
    "tunnel",
    "moved",
    "attacked",
    "cleared",
    "decision",
    "setup_done",
    "winner",
    "result",
    "markers",
)
STAGES = ("setup", "play", "over")
OFF_MAP = {"available": AVAILABLE, "eliminated": GONE, "setup": SETUP}


def _hex(world: World, text: Any, where: str) -> int:
    geo = world.data.geography
    if isinstance(text, str) and text.upper() in geo.by_id:
        return geo.hex(text).index
    raise fail(where, f"no hex {text!r} on the maps of {world.data.id} (hexes are named like W4607, E0214)")


def _unit(world: World, uid: Any, where: str) -> str:
    if isinstance(uid, str) and uid in world.units:
        return uid
    raise fail(where, f"no counter {uid!r} in {world.data.id} (counters are named like GE-C01, BE-C01)")


def _side(world: World, text: Any, where: str) -> str:
    if text in world.data.side_ids:
        return str(text)
    raise fail(where, f"no side {text!r} (sides: {', '.join(world.data.side_ids)})")


def build(variant: str, seed: int, position: Mapping[str, Any]) -> World:
    """The world of a game of ``variant`` starting from ``position``."""
    unknown_fields(position, FIELDS, "a hex wargame")
    world = new_world(variant, seed)
    world.stage = position.get("stage", "play")
    if world.stage not in STAGES:
        raise fail("stage", f"one of {', '.join(STAGES)}, not {world.stage!r}")
    _turn(world, position)
    if "units" in position:
        for u in world.units.values():
            if u.where == MAP or world.stage == "play":
                u.where, u.hex = POOL, None
        for uid, hid in an_object(position["units"], "units").items():
            unit = world.units[_unit(world, uid, f"units.{uid}")]
            unit.where, unit.hex = MAP, _hex(world, hid, f"units.{uid}")
    for key, where in OFF_MAP.items():
        for k, uid in enumerate(a_list(position.get(key, []), key)):
            unit = world.units[_unit(world, uid, f"{key}[{k}]")]
            unit.where, unit.hex = where, None
    for uid, lost in an_object(position.get("lost", {}), "lost").items():
        unit = world.units[_unit(world, uid, f"lost.{uid}")]
        unit.lost = whole(lost, f"lost.{uid}")
        if unit.lost >= unit.spec.type.steps and unit.where == MAP:
            raise fail(
                f"lost.{uid}", f"{uid} has {unit.spec.type.steps} step(s): it is eliminated, not on the map"
            )
    for key in ("crack", "improved"):
        if key in position:
            chosen = {_unit(world, uid, f"{key}[{k}]") for k, uid in enumerate(a_list(position[key], key))}
            for uid, unit in world.units.items():
                setattr(unit, key, uid in chosen)
    if "control" in position:
        for hid, side in an_object(position["control"], "control").items():
            cell = _hex(world, hid, f"control.{hid}")
            if side is None:
                world.control.pop(cell, None)
            else:
                world.control[cell] = _side(world, side, f"control.{hid}")
    for hid, steps in an_object(position.get("fortress", {}), "fortress").items():
        world.fortress[_hex(world, hid, f"fortress.{hid}")] = whole(steps, f"fortress.{hid}")
    _tunnel(world, an_object(position.get("tunnel", {}), "tunnel"))
    if "moved" in position:
        world.moved = [
            _unit(world, u, f"moved[{k}]") for k, u in enumerate(a_list(position["moved"], "moved"))
        ]
    for key in ("attacked", "cleared"):
        if key in position:
            setattr(
                world, key, [_hex(world, h, f"{key}[{k}]") for k, h in enumerate(a_list(position[key], key))]
            )
    if "decision" in position:
        world.decision = (
            None if position["decision"] is None else dict(an_object(position["decision"], "decision"))
        )
    if "setup_done" in position:
        world.setup_done = [
            _side(world, s, f"setup_done[{k}]")
            for k, s in enumerate(a_list(position["setup_done"], "setup_done"))
        ]
    if "winner" in position:
        world.winner = None if position["winner"] is None else _side(world, position["winner"], "winner")
    if "result" in position:
        if not isinstance(position["result"], str):
            raise fail("result", "how the game ended, in words")
        world.result = position["result"]
    world.extra.update(an_object(position.get("markers", {}), "markers"))
    _check_places(world)
    return world


def _turn(world: World, position: Mapping[str, Any]) -> None:
    data = world.data
    turn = position.get("turn")
    if turn is not None:
        letter, number = (turn[:1], turn[1:]) if isinstance(turn, str) else ("", "")
        if letter not in data.strategic_turns or not number.isdigit():
            raise fail(
                "turn",
                f"a strategic turn's letter ({''.join(data.strategic_turns)}) and an operational turn"
                f" (A2), not {turn!r}",
            )
        if not 1 <= int(number) <= data.operational_turns:
            raise fail("turn", f"operational turns are 1 to {data.operational_turns}, not {number}")
        world.strategic, world.operational = data.strategic_turns.index(letter), int(number)
    if "side" in position:
        world.player = data.side_ids.index(_side(world, position["side"], "side"))
    sequence = data.sequence[world.side]
    phase = position.get("phase", sequence[0])
    if phase not in sequence:
        raise fail("phase", f"{world.side} has no phase {phase!r} (its phases: {', '.join(sequence)})")
    world.phase = sequence.index(phase)


def _tunnel(world: World, tunnel: dict[str, Any]) -> None:
    unknown = sorted(set(tunnel) - {"open", "stacks", "returning", "closed_at"})
    if unknown:
        raise fail(f"tunnel.{unknown[0]}", "not a field of the tunnel (open, stacks, returning, closed_at)")
    if "open" in tunnel:
        if not isinstance(tunnel["open"], bool):
            raise fail("tunnel.open", "true or false")
        world.tunnel_open = tunnel["open"]
    if "stacks" in tunnel:
        world.tunnel_stacks = [
            [
                _unit(world, u, f"tunnel.stacks[{k}][{j}]")
                for j, u in enumerate(a_list(stack, f"tunnel.stacks[{k}]"))
            ]
            for k, stack in enumerate(a_list(tunnel["stacks"], "tunnel.stacks"))
        ]
    if "returning" in tunnel:
        world.returning = {}
        for key, stack in an_object(tunnel["returning"], "tunnel.returning").items():
            if not str(key).isdigit():
                raise fail(f"tunnel.returning.{key}", "keyed by a strategic turn's index (0 is A)")
            world.returning[int(key)] = [
                _unit(world, u, f"tunnel.returning.{key}[{j}]")
                for j, u in enumerate(a_list(stack, f"tunnel.returning.{key}"))
            ]
    if "closed_at" in tunnel:
        world.tunnel_closed_at = (
            None if tunnel["closed_at"] is None else whole(tunnel["closed_at"], "tunnel.closed_at")
        )
    for stack in world.tunnel_stacks + list(world.returning.values()):
        for uid in stack:  # a stack on the way is off the map, whatever else was said of it
            world.units[uid].where, world.units[uid].hex = POOL, None


def _check_places(world: World) -> None:
    """Every counter on a hex units may enter, within the stacking limits."""
    data = world.data
    geo = data.geography
    cost = data.move_cost
    air = data.air
    for cell, units in sorted(world.occupancy().items()):
        hid = geo.hexes[cell].id
        ground_here = [u for u in units if u.kind not in NOT_GROUND]  # aircraft fly over anything
        if cost.get(cell) is None and ground_here:
            terrain = geo.hexes[cell].terrain
            raise fail(f"units.{ground_here[0].id}", f"{hid} is {terrain}: no ground unit stands there")
        for side in data.side_ids:
            mine = [u for u in units if world.side_of(u) == side]
            ground = [u for u in mine if u.kind not in NOT_GROUND]
            problem = movement.stack_fits(world, side, cell, ground) if ground else None
            if problem is not None:
                raise fail("units", f"an illegal stack: {problem}")
            for kind, key in (("zeppelin", "zeppelin_stacking"), ("flyer", "flyer_stacking")):
                limit = int(air.get(key, 5))
                count = sum(1 for u in mine if u.kind == kind)
                if count > limit:
                    raise fail("units", f"an illegal stack: {hid} would hold {count} {kind}s (limit {limit})")


def written(world: World) -> dict[str, Any]:
    """The position of ``world`` as scenario fields, every field written."""
    geo = world.data.geography
    name = geo.hexes
    by_place: dict[str, list[str]] = {key: [] for key in OFF_MAP}
    for uid, u in world.units.items():
        for key, where in OFF_MAP.items():
            if u.where == where:
                by_place[key].append(uid)
    start = new_world(world.data.id, world.seed)
    control: dict[str, str | None] = {name[c].id: None for c in start.control if c not in world.control}
    control.update({name[c].id: s for c, s in world.control.items()})
    return {
        "stage": world.stage,
        "turn": world.turn_name(),
        "side": world.side,
        "phase": world.phase_name,
        "units": {
            uid: name[u.hex].id for uid, u in world.units.items() if u.where == MAP and u.hex is not None
        },
        **by_place,
        "lost": {uid: u.lost for uid, u in world.units.items() if u.lost},
        "crack": [uid for uid, u in world.units.items() if u.crack],
        "improved": [uid for uid, u in world.units.items() if u.improved],
        "control": dict(sorted(control.items())),
        "fortress": {name[c].id: n for c, n in sorted(world.fortress.items())},
        "tunnel": {
            "open": world.tunnel_open,
            "stacks": [list(s) for s in world.tunnel_stacks],
            "returning": {str(k): list(v) for k, v in sorted(world.returning.items())},
            "closed_at": world.tunnel_closed_at,
        },
        "moved": list(world.moved),
        "attacked": [name[c].id for c in world.attacked],
        "cleared": [name[c].id for c in world.cleared],
        "decision": world.decision,
        "setup_done": list(world.setup_done),
        "winner": world.winner,
        "result": world.result,
        "markers": world.extra,
    }
