"""Axis & Allies positions as scenario fields (``docs/scenarios.md``): read, checked and written.

The fields, each replacing that part of the published start when given:

* ``round``, ``power`` (whose turn), ``phase`` (the step: ``setup``, ``purchase``, ``combat_move``,
  ``combat``, ``noncombat_move``, ``place``);
* ``units``: every unit on the board, as lines ``"GERMANY 3 infantry Poland"`` (power, count, unit,
  place; ``damaged``, ``submerged`` or ``on patrol`` may follow), or as objects with an ``id`` and
  what a unit carries in the middle of a turn (``moved``, ``aboard``, ``origin``...);
* ``owner`` (territory or convoy centre -> power, ``null``: neutral) as the turn began; ``taken``
  (territory -> power) what changed hands since, in this turn's combat; ``ipcs`` (economy -> IPCs),
  ``bought`` (economy -> unit -> count), ``convoys`` (convoy centre -> the side holding it),
  ``captured`` (capital -> round taken), ``battles``, ``battle``, ``winner`` and ``markers`` (the
  rules' counters: surrendered powers, kamikaze tokens, victory points...).

A land unit at sea is aboard a transport of its power (the first with room), a fighter at sea on a
carrier of its side with room, in the order the lines are given; what does not fit is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ..positions import PositionError, an_object, fail, unknown_fields, whole
from .actions import ActionSyntaxError, space_of, unit_type_of
from .engine import begin_turn
from .gamedata import GameData
from .layers import hooks
from .options import Options
from .state import SEAT_OF, Phase, Unit, World, new_world

FIELDS = (
    "round",
    "power",
    "phase",
    "units",
    "owner",
    "taken",
    "ipcs",
    "bought",
    "convoys",
    "captured",
    "battles",
    "battle",
    "winner",
    "markers",
)
UNIT_FIELDS = (
    "id",
    "power",
    "type",
    "at",
    "damage",
    "moved",
    "aboard",
    "fought",
    "origin",
    "submerged",
    "patrol",
)
_LINE = re.compile(r"(\S+)\s+(\d+)\s+(\S+)\s+(.+?)((?:\s+(?:damaged|submerged|on patrol))*)")


def _power(world: World, text: Any, where: str) -> str:
    if isinstance(text, str):
        for p in world.data.powers:
            if text.strip().casefold() in (p.id.casefold(), p.name.casefold()):
                return p.id
    known = ", ".join(p.id for p in world.data.powers)
    raise fail(where, f"no power {text!r} in {world.data.id} (powers: {known})")


def _space(world: World, text: Any, where: str) -> str:
    return _named(space_of, world, text, "place", where)


def _unit_type(world: World, text: Any, where: str) -> str:
    return _named(lambda data, word, at: unit_type_of(data.units, word, at), world, text, "unit", where)


def _named(
    lookup: Callable[[GameData, str, str], str], world: World, text: Any, what: str, where: str
) -> str:
    """The id of what ``text`` names, read as the actions read it (a name, id or alias, any case)."""
    if not isinstance(text, str):
        raise fail(where, f"a {what}'s name, not {text!r}")
    try:
        return lookup(world.data, text, f"position.{where}")
    except ActionSyntaxError as exc:
        raise PositionError(str(exc)) from None


def build(variant: str, options: Mapping[str, Any], seed: int, position: Mapping[str, Any]) -> World:
    """The world of a game of ``variant`` starting from ``position``."""
    unknown_fields(position, FIELDS, "an Axis & Allies")
    world = new_world(variant, Options.from_json(dict(options)), seed)
    markers = an_object(position.get("markers", {}), "markers")
    gone = markers.get("surrendered", world.extra.get("surrendered", []))
    if "owner" in position:
        for key, holder in an_object(position["owner"], "owner").items():
            sid = _space(world, key, f"owner.{key}")
            if world.is_sea(sid) and not world.data.territories[sid].convoy:
                raise fail(f"owner.{key}", "a sea zone that is no convoy centre belongs to no one")
            if holder is None:
                world.owner.pop(sid, None)
            else:
                world.owner[sid] = _power(world, holder, f"owner.{key}")
    if "ipcs" in position:
        economies = {e.id for p in world.data.powers for e in p.economies}
        for key, value in an_object(position["ipcs"], "ipcs").items():
            if key not in economies:
                raise fail(f"ipcs.{key}", f"no economy {key!r} (economies: {', '.join(sorted(economies))})")
            world.ipcs[key] = whole(value, f"ipcs.{key}")
    kept: dict[int, dict[str, Any]] = {}
    if "units" in position:
        lines = position["units"]
        if not isinstance(lines, list):
            raise fail("units", "a list of units ('GERMANY 3 infantry Poland', or objects)")
        world.units, world.next_id = {}, 1
        given = [(k, u) for k, u in enumerate(lines) if isinstance(u, dict)]
        ids = [whole(u.get("id"), f"units[{k}].id", 1) for k, u in given]
        if len(set(ids)) != len(ids):
            raise fail("units", "two units have the same id")
        world.next_id = max(ids, default=0) + 1
        for (k, raw), uid in zip(given, ids, strict=True):
            kept[uid] = _unit_object(world, raw, uid, f"units[{k}]")
        placed = [
            (unit, f"units[{k}]")
            for k, raw in enumerate(lines)
            if not isinstance(raw, dict)
            for unit in _unit_line(world, raw, f"units[{k}]")
        ]
        for unit, where in placed:  # once every ship is there, whatever line it came on
            if not unit.cap:
                _aboard(world, unit, "auto", where)
        for uid, raw in kept.items():
            _aboard(world, world.units[uid], raw.get("aboard"), f"units (id {uid}).aboard")
    gone = {p for p in world.order if p in gone or SEAT_OF.get(p) in gone}  # China goes with the USA
    for unit in list(world.units.values()):
        if unit.owner not in gone:
            continue
        if "units" not in position:  # the published start's: they left when their power surrendered
            world.remove(unit)
            continue
        where = f"units (a {unit.type} of {unit.owner} at {world.space_name(unit.at)})"
        raise fail(where, f"{unit.owner} has surrendered: its units have left the board")
    if "round" in position:
        world.round = whole(position["round"], "round", 1)
    if "power" in position:
        world.turn = world.order.index(_power(world, position["power"], "power"))
    phase = position.get("phase", "purchase")
    try:
        world.phase = Phase(phase)
    except ValueError:
        steps = ", ".join(p.value for p in Phase if p is not Phase.OVER)
        raise fail("phase", f"no step {phase!r} (steps: {steps})") from None
    if world.phase is Phase.SETUP:
        placement = hooks(world).initial_placement
        if placement is None:
            raise fail("phase", f"only the linked world game has an initial placement, not {world.data.id}")
        turn = world.turn
        placement.begin(world)  # the IPCs each power places with
        if "power" in position:
            world.turn = turn
    else:
        chosen = world.phase
        begin_turn(world)  # what the turn's start notes: the territories held, the factories
        world.phase = chosen
    for key, holder in an_object(position.get("taken", {}), "taken").items():
        sid = _space(world, key, f"taken.{key}")
        if world.is_sea(sid):
            raise fail(f"taken.{key}", "only land territories are taken")
        world.owner[sid] = _power(world, holder, f"taken.{key}")
        world.extra.setdefault("conquered", []).append(sid)
    for uid, raw in kept.items():  # what a unit did this turn, after the turn's start reset it
        unit = world.units[uid]
        unit.moved = whole(raw.get("moved", 0), f"units (id {uid}).moved")
        unit.fought = bool(raw.get("fought", False))
        unit.submerged = bool(raw.get("submerged", False))
        unit.cap = bool(raw.get("patrol", False))
        origin = raw.get("origin")
        unit.origin = _space(world, origin, f"units (id {uid}).origin") if origin is not None else unit.at
    if "bought" in position:
        world.bought = {}
        for key, counts in an_object(position["bought"], "bought").items():
            if key not in world.ipcs:
                raise fail(f"bought.{key}", f"no economy {key!r}")
            world.bought[key] = {
                _unit_type(world, t, f"bought.{key}"): whole(n, f"bought.{key}.{t}")
                for t, n in an_object(counts, f"bought.{key}").items()
            }
    if "convoys" in position:
        world.convoys = {}
        for key, side in an_object(position["convoys"], "convoys").items():
            sid = _space(world, key, f"convoys.{key}")
            if not world.data.territories[sid].convoy:
                raise fail(f"convoys.{key}", "not a convoy centre")
            if side not in ("axis", "allies"):
                raise fail(f"convoys.{key}", f"the side holding it: axis or allies, not {side!r}")
            world.convoys[sid] = side
    if "captured" in position:
        world.captured_capitals = {
            _space(world, key, f"captured.{key}"): whole(r, f"captured.{key}", 1)
            for key, r in an_object(position["captured"], "captured").items()
        }
    if "battles" in position:
        battles = position["battles"]
        if not isinstance(battles, list):
            raise fail("battles", "a list of the places where a battle is due")
        world.battles = [_space(world, b, f"battles[{k}]") for k, b in enumerate(battles)]
    if "battle" in position:
        world.battle = None if position["battle"] is None else an_object(position["battle"], "battle")
    if "winner" in position:
        if position["winner"] not in (None, "axis", "allies"):
            raise fail("winner", f"axis, allies or null, not {position['winner']!r}")
        world.winner = position["winner"]
    # The markers in the order given (some rules read them in order), then what the start noted.
    world.extra = {**markers, **{k: v for k, v in world.extra.items() if k not in markers}}
    return world


def _unit_line(world: World, raw: Any, where: str) -> list[Unit]:
    match = _LINE.fullmatch(raw.strip()) if isinstance(raw, str) else None
    if match is None:
        raise fail(where, f"write 'POWER COUNT UNIT PLACE' ('GERMANY 3 infantry Poland'), not {raw!r}")
    power = _power(world, match.group(1), where)
    count = int(match.group(2))
    if not 1 <= count <= 999:
        raise fail(where, "a count is 1 to 999")
    type_ = _unit_type(world, match.group(3), where)
    at = _space(world, match.group(4), where)
    marks = match.group(5)
    units = []
    for _ in range(count):
        unit = world.add_unit(type_, power, at)
        unit.damage = 1 if "damaged" in marks else 0
        unit.submerged = "submerged" in marks
        unit.cap = "on patrol" in marks
        _check_place(world, unit, where)
        units.append(unit)
    return units


def _unit_object(world: World, raw: dict[str, Any], uid: int, where: str) -> dict[str, Any]:
    unknown = sorted(set(raw) - set(UNIT_FIELDS))
    if unknown:
        raise fail(f"{where}.{unknown[0]}", f"not a field of a unit (fields: {', '.join(UNIT_FIELDS)})")
    unit = Unit(
        uid,
        _unit_type(world, raw.get("type"), f"{where}.type"),
        _power(world, raw.get("power"), f"{where}.power"),
        _space(world, raw.get("at"), f"{where}.at"),
    )
    unit.damage = whole(raw.get("damage", 0), f"{where}.damage")
    if unit.damage >= world.unit_type(unit).hits:
        raise fail(f"{where}.damage", f"a {unit.type} takes {world.unit_type(unit).hits} hit(s)")
    unit.submerged = bool(raw.get("submerged", False))
    unit.cap = bool(raw.get("patrol", False))
    world.units[uid] = unit
    _check_place(world, unit, where)
    return raw


def _check_place(world: World, unit: Unit, where: str) -> None:
    ut = world.unit_type(unit)
    place = world.space_name(unit.at)
    if ut.is_sea and not world.is_sea(unit.at):
        raise fail(where, f"a {ut.name} is a ship: it cannot be on land ({place})")
    if world.is_sea(unit.at) and not (ut.is_sea or ut.is_land or ut.is_air):
        raise fail(where, f"a {ut.name} cannot be at sea ({place})")
    neutral = not world.is_sea(unit.at) and world.data.territories[unit.at].neutral
    if neutral and world.owner.get(unit.at) is None:
        raise fail(where, f"{place} is neutral: no unit stands there")


def _aboard(world: World, unit: Unit, ref: Any, where: str) -> None:
    """Put ``unit`` aboard: ``"auto"`` the first transport or carrier with room, an id that one,
    ``None`` nothing (a unit at sea that must be carried is then refused)."""
    ut = world.unit_type(unit)
    at_sea = world.is_sea(unit.at)
    if ref is None or not at_sea:
        unit.aboard = None
        if at_sea and ut.is_land:
            raise fail(where, f"{ut.name} at sea ({world.space_name(unit.at)}) must be aboard a transport")
        return
    if ref == "auto":
        if not (ut.is_land or ut.is_air):
            return
        for ship in world.at(unit.at):
            if ship is not unit and _has_room(world, ship, unit):
                unit.aboard = ship.id
                return
        if ut.is_air:
            return  # a fighter over the sea in the middle of a move: it must land by the turn's end
        room = "a transport of its power with room"
        raise fail(where, f"{ut.name} at sea ({world.space_name(unit.at)}) needs {room}: none is there")
    found = world.units.get(ref) if isinstance(ref, int) else None
    if found is None or found.at != unit.at:
        raise fail(where, f"no ship {ref!r} at {world.space_name(unit.at)} to carry the {ut.name}")
    ship = found
    unit.aboard = None
    if not _has_room(world, ship, unit):
        raise fail(where, f"ship {ref} cannot carry the {ut.name}: it has no room for it")
    unit.aboard = ship.id


def _has_room(world: World, ship: Unit, unit: Unit) -> bool:
    ut, st = world.unit_type(unit), world.unit_type(ship)
    aboard = [u for u in world.units.values() if u.aboard == ship.id]
    if ut.is_land and st.transport_capacity and ship.owner == unit.owner:
        used = sum(world.unit_type(u).transport_cost for u in aboard)
        return ut.transport_cost > 0 and used + ut.transport_cost <= st.transport_capacity
    if ut.is_air and st.carrier_capacity and not world.enemies(ship.owner, unit.owner):
        used = sum(world.unit_type(u).carrier_cost for u in aboard)
        return ut.carrier_cost > 0 and used + ut.carrier_cost <= st.carrier_capacity
    return False


def written(world: World) -> dict[str, Any]:
    """The position of ``world`` as scenario fields, every field written. At a turn's start units
    are lines; in the middle of a turn objects, with their ids (a battle or a rule's counter may
    name a unit by its id) and what they did this turn."""
    at_start = world.phase in (Phase.SETUP, Phase.PURCHASE) and world.battle is None
    units: list[Any] = []
    if at_start:
        counts: dict[str, int] = {}
        # Ships first: a reader then meets each transport before its cargo.
        for u in sorted(world.units.values(), key=lambda u: (not world.unit_type(u).is_sea, u.id)):
            marks = "".join(
                word
                for word, on in ((" damaged", u.damage), (" submerged", u.submerged), (" on patrol", u.cap))
                if on
            )
            key = f"{u.owner}\t{u.type}\t{world.space_name(u.at)}{marks}"
            counts[key] = counts.get(key, 0) + 1
        for key, n in counts.items():
            power, type_, rest = key.split("\t")
            units.append(f"{power} {n} {type_} {rest}")
    else:
        for u in sorted(world.units.values(), key=lambda u: u.id):
            entry: dict[str, Any] = {
                "id": u.id,
                "power": u.owner,
                "type": u.type,
                "at": world.space_name(u.at),
            }
            for key, value, default in (
                ("damage", u.damage, 0),
                ("moved", u.moved, 0),
                ("aboard", u.aboard, None),
                ("fought", u.fought, False),
                ("origin", world.space_name(u.origin) if u.origin else None, entry["at"]),
                ("submerged", u.submerged, False),
                ("patrol", u.cap, False),
            ):
                if value != default:
                    entry[key] = value
            units.append(entry)
    name = world.space_name
    owner: dict[str, str | None] = {name(s): p for s, p in sorted(world.owner.items())}
    for sid, t in world.data.territories.items():  # a published owner now gone: neutral again
        if t.owner is not None and sid not in world.owner and (not world.is_sea(sid) or t.convoy):
            owner[name(sid)] = None
    return {
        "round": world.round,
        "power": world.power,
        "phase": world.phase.value,
        "units": units,
        "owner": owner,
        "ipcs": dict(world.ipcs),
        "bought": {e: dict(b) for e, b in world.bought.items()},
        "convoys": {name(s): side for s, side in world.convoys.items()},
        "captured": {name(s): r for s, r in world.captured_capitals.items()},
        "battles": [name(s) for s in world.battles],
        "battle": world.battle,
        "winner": world.winner,
        "markers": world.extra,
    }
