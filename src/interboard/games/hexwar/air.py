"""Über-Zeppelins and ether flyers (the ``air`` section of the data).

Air units pay one point a hex whatever the terrain, pass over the sea but never end a move on it,
cross the Channel only by the link that carries air (Calais ``W7005`` to Dover), stack five of a kind
a hex apart from ground units, and are never touched by ground combat or bombardment.

Zeppelins (Germany's player-turn):
* Base change: up to twice the middle number of hexes, to a hex with no enemy unit that could trace
  attack supply over land (Zeppelins ignored); a Zeppelin with no such hex in reach stays put.
* Embarkation: a Zeppelin takes one crack troop of its hex aboard (tanks never fly).
* Sortie: up to twice the third number (improved side: one more), anywhere but the sea; onto enemy
  ground units only without passengers. It stays where it sortied. Its passenger lands there: the
  troop is in the hex and has spent its movement (disembarking costs all of it). No troop is flown
  out of England while both sides have ground units there (the England front's rule).
* A Zeppelin supplies its own and the adjacent hexes (attack supply without a trace), unless it
  shares its hex with an enemy ground unit.
* Flipped to its improved side on the schedule, the weakest first (a stand-in for the choice).

Ether flyers: F (fighters), CS (close support: light interdiction of hexes without enemy ground
units), B (bombers: heavy interdiction of any hex, whose units are then out of supply). The Allies
change base (six hexes, to a hex in attack supply, or the flyer is lost), then fly missions of range
six from base: sweep (F, at Zeppelins), escort (F, with a CS or B), light and heavy interdiction.
Interdicted hexes carry no enemy supply line until the flyers return to base after combat. Fighters
of the other side intercept within three hexes of their base: Allied F against Zeppelins in
Germany's turn, German F against Allied mission flyers in the Allies' (German flyers only ever
intercept). Air combat rolls on the data's three tables until one side is gone, with no voluntary
abort; an aborting flyer goes home and its mission ends. An Allied flyer whose base an enemy ground
unit enters displaces to a base within six hexes, or is lost; one flying its mission over enemy
units is in the air, not on a base, and is not overrun. Storms keep air units out; one caught in a
storm rolls to escape (1-2) in its base change phase, and one that fails neither sorties nor flies
a mission that turn. Generators bar Allied flyers from their hex.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

from . import combat, inventions, supply
from .front import why_not_leave
from .layers import Layer
from .state import GONE, MAP, Unit, World

AIR = ("zeppelin", "flyer")
MISSIONS = ("sweep", "escort", "light", "heavy")


class AirError(ValueError):
    """An air order the rules refuse; the message says why."""


def _cfg(world: World, key: str, default: Any) -> Any:
    return world.data.air.get(key, default)


def book(world: World) -> dict[str, Any]:
    """The air units' orders of the current player-turn: missions, passengers, who is grounded."""
    found: dict[str, Any] = world.extra.setdefault("air", {})
    return found


def air_units(world: World, side: str, kind: str | None = None) -> list[Unit]:
    return sorted(
        (
            u
            for u in world.on_map()
            if u.kind in AIR and world.side_of(u) == side and (kind is None or u.kind == kind)
        ),
        key=lambda u: u.id,
    )


def role(unit: Unit) -> str:
    return unit.spec.type.role


# ---------------------------------------------------------------------- flying
def air_links(world: World) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    geo = world.data.geography
    for link in geo.links:
        if "air" in link.carries and link.a in geo.by_id and link.b in geo.by_id:
            a, b = geo.by_id[link.a].index, geo.by_id[link.b].index
            out.setdefault(a, []).append(b)
            out.setdefault(b, []).append(a)
    return out


def reach(world: World, unit: Unit, start: int, limit: int) -> dict[int, int]:
    """Hexes an air unit reaches from ``start`` in ``limit`` hexes (not into a storm; an Allied flyer
    not into a generator's hex)."""
    geo = world.data.geography
    barred = inventions.storm_cells(world)
    if unit.kind == "flyer":
        barred |= {
            g.hex
            for g in inventions.generators(world)
            if g.hex is not None and world.side_of(g) != world.side_of(unit)
        }
    links = air_links(world)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if dist[cell] >= limit:
            continue
        for nxt in (*geo.neighbours[cell], *links.get(cell, ())):
            if nxt not in dist and nxt not in barred:
                dist[nxt] = dist[cell] + 1
                queue.append(nxt)
    return dist


def _stack_room(world: World, unit: Unit, cell: int, occupancy: dict[int, list[Unit]] | None = None) -> bool:
    side = world.side_of(unit)
    present = occupancy.get(cell, []) if occupancy is not None else world.at(cell)
    here = [
        u.spec.type for u in present if u.kind == unit.kind and world.side_of(u) == side and u.id != unit.id
    ]
    return world.data.stack_problem([*here, unit.spec.type], world.data.geography.hexes[cell].id) is None


class _Bases:
    """What deciding many bases at once needs, computed once: attack supply over land, occupancy,
    the hexes enemy ground units hold."""

    def __init__(self, world: World, side: str) -> None:
        self.attack = land_supply(world, side)
        self.occupancy = world.occupancy()
        enemy = world.data.enemy(side)
        self.enemy = 0
        for cell, units in self.occupancy.items():
            if any(world.side_of(u) == enemy and u.kind not in supply.NOT_GROUND for u in units):
                self.enemy |= 1 << cell


def _enemy_ground(world: World, cell: int, side: str) -> bool:
    return bool(combat.defenders(world, cell, world.data.enemy(side)))


def land_supply(world: World, side: str) -> int:
    """Attack supply over land alone, Zeppelins ignored (for bases)."""
    was = world.extra.get("no_air_supply")
    world.extra["no_air_supply"] = True
    try:
        return supply.supply_map(world, side).attack
    finally:
        if was is None:
            world.extra.pop("no_air_supply", None)


def passenger_barred(world: World, unit: Unit, cell: int) -> str | None:
    """Why the troop ``unit`` carries may not be flown to ``cell`` (the England front), or None."""
    passenger = book(world).get("carrying", {}).get(unit.id)
    return why_not_leave(world, world.units[passenger], cell) if passenger else None


def good_base(world: World, unit: Unit, cell: int, known: _Bases | None = None) -> bool:
    """May ``unit`` be based in ``cell``: land, no enemy there, in attack supply over land, room."""
    if cell not in world.data.move_cost:
        return False  # the sea, neutral ground: no base there
    known = known or _Bases(world, world.side_of(unit))
    if (known.enemy >> cell) & 1 or not _stack_room(world, unit, cell, known.occupancy):
        return False
    return bool((known.attack >> cell) & 1)


def bases(world: World, unit: Unit, start: int | None = None, known: _Bases | None = None) -> list[int]:
    """The bases ``unit`` may change to from ``start`` (its hex)."""
    start = unit.hex if start is None else start
    assert start is not None
    limit = int(_cfg(world, "base_range", 6))
    if unit.kind == "zeppelin":
        limit = 2 * unit.factors()[1]
    known = known or _Bases(world, world.side_of(unit))
    geo = world.data.geography
    return sorted(
        (
            c
            for c in reach(world, unit, start, limit)
            if c != unit.hex and good_base(world, unit, c, known) and not passenger_barred(world, unit, c)
        ),
        key=lambda c: geo.hexes[c].id,
    )


def grounded(world: World, unit: Unit) -> bool:
    return unit.id in book(world).get("grounded", [])


def escape_storms(world: World) -> None:
    """At the start of a base change phase, each air unit of the phasing side in a storm rolls to get
    out: on 1 or 2 it may fly this turn; otherwise it is grounded until the next."""
    storms = inventions.storm_cells(world)
    notes = book(world)
    notes["grounded"] = []
    geo = world.data.geography
    for unit in air_units(world, world.side):
        if unit.hex in storms:
            over = geo.hexes[unit.hex].id
            die = world.roll(f"{unit.id} escapes the storm over {over}", over)
            if die <= int(_cfg(world, "storm_escape", 2)):
                world.say(f"{unit.id} escapes the storm (die {die})")
            else:
                notes["grounded"].append(unit.id)
                world.say(f"{unit.id} is caught in the storm (die {die}): no flying this turn")


def change_base(world: World, unit: Unit, cell: int) -> None:
    geo = world.data.geography
    if unit.kind not in AIR or world.side_of(unit) != world.side:
        raise AirError(f"{unit.id} is not an air unit of the phasing side")
    if unit.kind == "zeppelin" and world.phase_name != "zeppelin_base_change":
        raise AirError("Zeppelins change base in their own phase")
    if unit.id in book(world).get("based", []):
        raise AirError(f"{unit.id} has already changed base this phase")
    if grounded(world, unit):
        raise AirError(f"{unit.id} is caught in a storm this turn")
    barred = passenger_barred(world, unit, cell)
    if barred:
        raise AirError(barred)
    if cell not in bases(world, unit):
        raise AirError(
            f"{unit.id} cannot base in {geo.hexes[cell].id}: a base is within range, on land, with no "
            "enemy unit, in attack supply over land, with room"
        )
    unit.hex = cell
    book(world).setdefault("based", []).append(unit.id)


def settle_flyers(world: World, side: str) -> None:
    """After a base change: a flyer of ``side`` on a base it may not keep moves to the nearest legal
    one within range, or is lost."""
    known = _Bases(world, side)
    for unit in air_units(world, side, "flyer"):
        if unit.hex is None or good_base(world, unit, unit.hex, known):
            continue
        rehome(world, unit, unit.hex)
        known = _Bases(world, side)


def rehome(world: World, unit: Unit, start: int) -> None:
    """Send a flyer home to the nearest legal base within range of ``start``, or lose it."""
    geo = world.data.geography
    limit = int(_cfg(world, "base_range", 6))
    known = _Bases(world, world.side_of(unit))
    options = sorted(
        (d, geo.hexes[c].id, c)
        for c, d in reach(world, unit, start, limit).items()
        if good_base(world, unit, c, known)
    )
    if options:
        unit.hex = options[0][2]
        world.say(f"{unit.id} flies to a base at {geo.hexes[unit.hex].id}")
    else:
        unit.where, unit.hex = GONE, None
        world.say(f"{unit.id} finds no base within {limit} hexes and is lost")


def displace_flyers(world: World) -> None:
    """A flyer whose base an enemy ground unit has entered displaces, or is lost. A flyer on its
    mission is in the air over its target, not on a base there: enemy units under it do not
    overrun it (a heavy interdiction holds over them until the flyers return after combat)."""
    missions = book(world).get("missions", {})
    for unit in [u for u in world.on_map() if u.kind == "flyer" and u.id not in missions]:
        if unit.hex is not None and _enemy_ground(world, unit.hex, world.side_of(unit)):
            world.say(f"{unit.id} is overrun at {world.data.geography.hexes[unit.hex].id}")
            rehome(world, unit, unit.hex)


# ---------------------------------------------------------------------- Zeppelins
def embark(world: World, troop: Unit, zeppelin: Unit) -> None:
    notes = book(world)
    carrying = notes.setdefault("carrying", {})
    if zeppelin.kind != "zeppelin" or world.side_of(zeppelin) != world.side:
        raise AirError(f"{zeppelin.id} is not a Zeppelin of the phasing side")
    if not troop.crack:
        raise AirError(f"only crack troops fly: {troop.id} is not one")
    if troop.hex != zeppelin.hex:
        raise AirError(f"{troop.id} must be in {zeppelin.id}'s hex to board it")
    if zeppelin.id in carrying:
        raise AirError(f"{zeppelin.id} already carries {carrying[zeppelin.id]}: one crack troop a Zeppelin")
    if troop.id in carrying.values():
        raise AirError(f"{troop.id} is already aboard")
    carrying[zeppelin.id] = troop.id


def sortie_range(unit: Unit) -> int:
    return 2 * unit.factors()[2]


def sortie_hexes(world: World, zeppelin: Unit) -> list[int]:
    assert zeppelin.hex is not None
    geo = world.data.geography
    passenger = book(world).get("carrying", {}).get(zeppelin.id)
    out = []
    for cell in reach(world, zeppelin, zeppelin.hex, sortie_range(zeppelin)):
        if cell == zeppelin.hex or geo.hexes[cell].terrain == "sea" or not _stack_room(world, zeppelin, cell):
            continue
        if passenger:
            if cell not in world.data.move_cost or _enemy_ground(world, cell, world.side):
                continue
            if passenger_barred(world, zeppelin, cell):
                continue
            from .movement import stack_fits

            if stack_fits(world, world.side, cell, [world.units[passenger]]) is not None:
                continue
        out.append(cell)
    return sorted(out, key=lambda c: geo.hexes[c].id)


def sortie(world: World, zeppelin: Unit, cell: int) -> None:
    geo = world.data.geography
    notes = book(world)
    if zeppelin.kind != "zeppelin" or world.side_of(zeppelin) != world.side:
        raise AirError(f"{zeppelin.id} is not a Zeppelin of the phasing side")
    if zeppelin.id in notes.get("sortied", []):
        raise AirError(f"{zeppelin.id} has already sortied this turn")
    if grounded(world, zeppelin):
        raise AirError(f"{zeppelin.id} is caught in a storm this turn")
    barred = passenger_barred(world, zeppelin, cell)
    if barred:
        raise AirError(barred)
    if cell not in sortie_hexes(world, zeppelin):
        raise AirError(
            f"{zeppelin.id} cannot sortie to {geo.hexes[cell].id}: within "
            f"{sortie_range(zeppelin)} hexes, not over "
            "the sea, and with a crack troop aboard not onto enemy ground units"
        )
    zeppelin.hex = cell
    notes.setdefault("sortied", []).append(zeppelin.id)
    passenger = notes.get("carrying", {}).pop(zeppelin.id, None)
    if passenger:
        world.units[passenger].hex = cell
        notes.setdefault("landed", []).append(passenger)
        world.say(f"{zeppelin.id} lands {passenger} at {geo.hexes[cell].id}")


def land_passengers(world: World) -> None:
    """Entering the movement phase: troops flown in have landed and spent their movement; troops
    still aboard a Zeppelin that did not sortie step off where they are."""
    notes = book(world)
    for troop in notes.pop("landed", []):
        world.moved.append(troop)
    notes.pop("carrying", None)


def zeppelin_sources(world: World, side: str) -> int:
    """Hexes a Zeppelin supplies (its own and the adjacent ones), unless an enemy shares its hex."""
    if world.extra.get("no_air_supply"):
        return 0
    mask = 0
    for z in air_units(world, side, "zeppelin"):
        if z.hex is not None and not _enemy_ground(world, z.hex, side):
            mask |= 1 << z.hex
    return mask


def flip_zeppelins(world: World) -> None:
    """The strategic turn's improvements: the weakest Zeppelins on the map first."""
    count = int(_cfg(world, "flips", {}).get(world.turn_letter, 0))
    if not count:
        return
    side = world.data.side_of("GE")
    plain = [z for z in air_units(world, side, "zeppelin") if not z.improved and z.spec.type.improved]
    plain.sort(key=lambda z: (z.factors()[2], z.id))
    flipped = plain[:count]
    for z in flipped:
        z.improved = True
    if flipped:
        world.say(f"improved Zeppelins: {', '.join(z.id for z in flipped)}")


# ---------------------------------------------------------------------- missions
def mission_targets(world: World, flyer: Unit, mission: str) -> list[int]:
    assert flyer.hex is not None
    geo = world.data.geography
    enemy = world.data.enemy(world.side_of(flyer))
    out = []
    for cell in reach(world, flyer, flyer.hex, int(_cfg(world, "mission_range", 6))):
        if mission == "sweep" and not air_units_at(world, cell, enemy, "zeppelin"):
            continue
        if mission == "light" and (
            _enemy_ground(world, cell, world.side_of(flyer)) or cell not in world.data.move_cost
        ):
            continue
        if mission == "heavy" and cell not in world.data.move_cost:
            continue
        out.append(cell)
    return sorted(out, key=lambda c: geo.hexes[c].id)


def air_units_at(world: World, cell: int, side: str, kind: str) -> list[Unit]:
    return sorted(
        (u for u in world.at(cell) if u.kind == kind and world.side_of(u) == side), key=lambda u: u.id
    )


def escorts_for(world: World, fighter: Unit) -> list[str]:
    """CS and B flyers on their missions that ``fighter`` can reach to escort."""
    geo = world.data.geography
    missions = book(world).get("missions", {})
    reachable = reach(
        world, fighter, fighter.hex if fighter.hex is not None else -1, int(_cfg(world, "mission_range", 6))
    )
    return [
        uid
        for uid, m in sorted(missions.items())
        if m["mission"] in ("light", "heavy") and geo.hex(m["at"]).index in reachable
    ]


MISSION_ROLES = {"sweep": ("F",), "escort": ("F",), "light": ("CS",), "heavy": ("B",)}


def fly_mission(world: World, flyer: Unit, mission: str, target: str) -> None:
    geo = world.data.geography
    notes = book(world)
    missions = notes.setdefault("missions", {})
    if flyer.kind != "flyer" or world.side_of(flyer) != world.side:
        raise AirError(f"{flyer.id} is not a flyer of the phasing side")
    if world.data.side_of("GE") == world.side:
        raise AirError("German flyers fly interception only, by order of the Kaiser")
    if flyer.id in missions:
        raise AirError(f"{flyer.id} already flies a mission")
    if grounded(world, flyer):
        raise AirError(f"{flyer.id} is caught in a storm this turn")
    if role(flyer) not in MISSION_ROLES[mission]:
        raise AirError(
            f"a {mission} mission is flown by {'/'.join(MISSION_ROLES[mission])} types, not {role(flyer)}"
        )
    if mission == "escort":
        escorted = world.units.get(target)
        if (
            escorted is None
            or escorted.id not in missions
            or missions[escorted.id]["mission"] not in ("light", "heavy")
        ):
            raise AirError(f"{flyer.id} escorts a CS or B type already on its mission, not {target}")
        cell = geo.hex(missions[escorted.id]["at"]).index
        if cell not in reach(world, flyer, flyer.hex or -1, int(_cfg(world, "mission_range", 6))):
            raise AirError(f"{escorted.id}'s target is beyond {flyer.id}'s range")
    else:
        cell = geo.hex(target).index
        if cell not in mission_targets(world, flyer, mission):
            raise AirError(
                f"{flyer.id} cannot fly {mission} to {target}: within six hexes of its base; a "
                "sweep at Zeppelins, "
                "light interdiction on a hex without enemy ground units"
            )
    missions[flyer.id] = {
        "mission": mission,
        "at": geo.hexes[cell].id,
        "base": geo.hexes[flyer.hex or cell].id,
    }
    if mission == "escort":
        missions[flyer.id]["escorts"] = target
    flyer.hex = cell


def end_mission(world: World, flyer: Unit, why: str = "") -> None:
    """The flyer goes home: to its base if it may still base there, else the nearest base in range."""
    geo = world.data.geography
    mission = book(world).get("missions", {}).pop(flyer.id, None)
    if mission is None or flyer.where != MAP:
        return
    base = geo.hex(mission["base"]).index
    start = flyer.hex if flyer.hex is not None else base
    if good_base(world, flyer, base) and base in reach(
        world, flyer, start, int(_cfg(world, "mission_range", 6))
    ):
        flyer.hex = base
    else:
        rehome(world, flyer, start)
    if why:
        world.say(f"{flyer.id} {why} and returns to base")


def return_to_base(world: World) -> None:
    """After combat, every flyer on a mission returns to base (and its interdiction ends)."""
    for uid in sorted(book(world).get("missions", {})):
        end_mission(world, world.units[uid])


def interdicted(world: World, side: str) -> int:
    """Hexes the enemy's flyers interdict for ``side``'s supply lines."""
    mask = 0
    geo = world.data.geography
    for uid, m in book(world).get("missions", {}).items():
        if (
            m["mission"] in ("light", "heavy")
            and world.side_of(world.units[uid]) != side
            and world.units[uid].where == MAP
        ):
            mask |= 1 << geo.hex(m["at"]).index
    return mask


# ---------------------------------------------------------------------- air combat
def _roll(world: World, table: str, modifier: int, why: str) -> tuple[int, str]:
    die = world.roll(why)
    score = max(1, min(6, die + modifier))
    return die, str(_cfg(world, table, {})[str(score)])


def shoot(world: World, unit: Unit, how: str) -> None:
    if how == "shot down":
        unit.where, unit.hex = GONE, None
        book(world).get("missions", {}).pop(unit.id, None)
        world.say(f"{unit.id} is shot down")
    else:
        end_mission(world, unit, "aborts")


def fighter_duel(world: World, interceptors: list[Unit], escorts: list[Unit]) -> None:
    """Interceptors against escorts, until one side has no fighter left."""
    while interceptors and escorts:
        modifier = 1 if len(interceptors) > len(escorts) else -1 if len(escorts) > len(interceptors) else 0
        die, result = _roll(world, "fighter_duel", modifier, "fighters against fighters")
        world.say(f"dogfight: die {die}{modifier:+d}: {result}")
        loser = escorts if result.startswith("escort") else interceptors
        shoot(world, loser.pop(0), "shot down" if "shot" in result else "aborts")


def fighters_against(
    world: World, fighters: list[Unit], targets: list[Unit], table: str, passengers: bool
) -> None:
    """Fighters attack one target at a time, until one side has no unit left in the hex."""
    while fighters and targets:
        modifier = 1 if len(fighters) > 1 else 0
        target = targets[0]
        die, result = _roll(world, table, modifier, f"fighters against {target.id}")
        world.say(f"air combat with {target.id}: die {die}{modifier:+d}: {result}")
        if result in ("zeppelin shot down", "target shot down"):
            targets.pop(0)
            if passengers:
                _lose_passenger(world, target)
            shoot(world, target, "shot down")
        elif result == "passengers lost":
            _lose_passenger(world, target)
        elif result == "target aborts":
            targets.pop(0)
            shoot(world, target, "aborts")
        else:
            shoot(world, fighters.pop(0), "shot down" if "shot" in result else "aborts")


def _lose_passenger(world: World, zeppelin: Unit) -> None:
    notes = book(world)
    troop = notes.get("carrying", {}).pop(zeppelin.id, None)
    if troop is None and zeppelin.hex is not None:
        landed = [t for t in notes.get("landed", []) if world.units[t].hex == zeppelin.hex]
        troop = landed[0] if landed else None
        if troop:
            notes["landed"].remove(troop)
    if troop:
        world.units[troop].where, world.units[troop].hex = GONE, None
        world.say(f"{troop} is lost with its Zeppelin's passengers")


def interceptors(world: World) -> list[Unit]:
    """Fighters of the side not moving that may intercept now (not grounded, not used)."""
    side = world.data.enemy(world.side)
    used = set(book(world).get("intercepted", []))
    return [u for u in air_units(world, side, "flyer") if role(u) == "F" and u.id not in used]


def interception_targets(world: World, fighter: Unit) -> list[int]:
    """Hexes within interception range of ``fighter``'s base holding the moving side's air units in
    the air (Zeppelins; flyers on missions)."""
    assert fighter.hex is not None
    geo = world.data.geography
    missions = book(world).get("missions", {})
    out = []
    for cell in reach(world, fighter, fighter.hex, int(_cfg(world, "interception_range", 3))):
        zeppelins = air_units_at(world, cell, world.side, "zeppelin")
        flyers = [u for u in air_units_at(world, cell, world.side, "flyer") if u.id in missions]
        if zeppelins or flyers:
            out.append(cell)
    return sorted(out, key=lambda c: geo.hexes[c].id)


def intercept(world: World, fighters: list[Unit], cell: int) -> None:
    """Record an interception; it is fought when the phase is processed."""
    geo = world.data.geography
    allowed = {u.id for u in interceptors(world)}
    for f in fighters:
        if f.id not in allowed:
            raise AirError(
                f"{f.id} cannot intercept: a fighter of the side not moving, not yet used this phase"
            )
        if cell not in interception_targets(world, f):
            raise AirError(
                f"{f.id} cannot reach enemy air units at {geo.hexes[cell].id} (three hexes from base)"
            )
    book(world).setdefault("intercepted", []).extend(f.id for f in fighters)
    book(world).setdefault("interceptions", []).append([geo.hexes[cell].id, [f.id for f in fighters]])


def fight_interceptions(world: World) -> None:
    geo = world.data.geography
    missions = book(world).get("missions", {})
    for hid, ids in book(world).pop("interceptions", []):
        cell = geo.hex(hid).index
        fighters = [world.units[i] for i in ids if world.units[i].where == MAP]
        world.say(f"{', '.join(ids)} intercept over {hid}")
        flying = [u for u in air_units_at(world, cell, world.side, "flyer") if u.id in missions]
        escorts = [u for u in flying if missions[u.id]["mission"] == "escort"]
        fighter_duel(world, fighters, escorts)
        if not fighters:
            continue
        zeppelins = air_units_at(world, cell, world.side, "zeppelin")
        if zeppelins:
            fighters_against(world, fighters, zeppelins, "fighter_zeppelin", True)
        bombers = [
            u
            for u in flying
            if u.where == MAP and missions.get(u.id, {}).get("mission") in ("light", "heavy")
        ]
        if fighters and bombers:
            fighters_against(world, fighters, bombers, "fighter_bomber", False)
    book(world).pop("intercepted", None)


def sweeps(world: World) -> None:
    """Allied fighters on sweeps attack the Zeppelins in their hex (after any interception)."""
    missions = book(world).get("missions", {})
    geo = world.data.geography
    by_hex: dict[str, list[Unit]] = {}
    for uid, m in sorted(missions.items()):
        if m["mission"] == "sweep" and world.units[uid].where == MAP:
            by_hex.setdefault(m["at"], []).append(world.units[uid])
    for hid, fighters in sorted(by_hex.items()):
        cell = geo.hex(hid).index
        enemy = world.data.enemy(world.side)
        zeppelins = air_units_at(world, cell, enemy, "zeppelin")
        if zeppelins:
            world.say(f"{', '.join(f.id for f in fighters)} sweep over {hid}")
            fighters_against(world, list(fighters), zeppelins, "fighter_zeppelin", True)


def base_changers(world: World) -> Iterator[tuple[Unit, list[int]]]:
    """Air units that may change base in this phase, with their bases (Zeppelins and German flyers in
    Germany's phase, the Allies' flyers in theirs), lazily: the first is often all that is asked."""
    based = set(book(world).get("based", []))
    kinds = ("zeppelin", "flyer") if world.phase_name == "zeppelin_base_change" else ("flyer",)
    known = _Bases(world, world.side)
    for u in air_units(world, world.side):
        if u.kind in kinds and u.id not in based and not grounded(world, u):
            options = bases(world, u, known=known)
            if options:
                yield u, options


def boardings(world: World) -> list[tuple[Unit, Unit]]:
    """(crack troop, Zeppelin) pairs that may embark now."""
    carrying = book(world).get("carrying", {})
    aboard = set(carrying.values())
    out = []
    for z in air_units(world, world.side, "zeppelin"):
        if z.id in carrying or grounded(world, z):
            continue
        for t in world.at(z.hex if z.hex is not None else -1):
            if t.crack and t.id not in aboard and world.side_of(t) == world.side:
                out.append((t, z))
    return out


def sortie_ready(world: World) -> list[Unit]:
    done = set(book(world).get("sortied", []))
    return [
        z for z in air_units(world, world.side, "zeppelin") if z.id not in done and not grounded(world, z)
    ]


def mission_ready(world: World) -> list[Unit]:
    if world.data.side_of("GE") == world.side:
        return []
    flying = book(world).get("missions", {})
    return [f for f in air_units(world, world.side, "flyer") if f.id not in flying and not grounded(world, f)]


def reset_turn(world: World) -> None:
    """A new player-turn: last turn's notes go (missions have returned)."""
    world.extra.pop("air", None)


def _settle(world: World) -> None:
    """A base change phase with no base to change: flyers on a lost base still go."""
    settle_flyers(world, world.side)


LAYER = Layer(
    "air",
    phases=(
        "zeppelin_base_change",
        "flyer_base_change",
        "airmobile_embarkation",
        "zeppelin_sortie",
        "mission_allocation",
        "interception",
        "flyer_return",
    ),
    strategic=flip_zeppelins,
    player_turn=reset_turn,
    on_entry={
        "zeppelin_base_change": (escape_storms,),
        "flyer_base_change": (escape_storms,),
        "movement": (land_passengers, sweeps),
    },
    automatic={"flyer_return": return_to_base, "zeppelin_base_change": _settle, "flyer_base_change": _settle},
    on_change=displace_flyers,
    interdicted=interdicted,
    adjacent_sources=zeppelin_sources,
)
"""The Zeppelins' and the ether flyers' rules on the engine's hooks (their phases' decisions are the
engine's, by phase name)."""
