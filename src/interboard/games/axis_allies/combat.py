"""The combat step: every battle of the mover's turn, fought round by round as decision points.

After the combat move, :func:`begin_combat` lists the battles: sea battles first (a landing waits on
the sea battle where its transports are), then the land battles and the strategic bombing raids. A
battle runs until it needs a decision: casualties to choose (each side chooses its own, at once, the
hits it takes split by what they may hit), or the attacker's choice to press on or retreat. The
dice are rolled here, from the game's generator, when the decision before them has been made; every
roll is recorded in ``extra["dice_log"]`` and so in the results of the decision point.

The order of a round (the rulebooks' step order): AA fire at attacking aircraft (first round of a
land battle), shore bombardment (first round of an amphibious assault), submarine first strike
(unless the other side has a destroyer), general fire of both sides, casualties, then the
attacker's choice. See :mod:`.battle` for who hits what.
"""

from __future__ import annotations

from typing import Any

from . import volleys as rules_of_battle
from .actions import Action, Kamikaze, Lose, PressOn, Retreat, Submerge, action_text, counts_text
from .capture import take_territory
from .moves import hostile_land, may_unload_from, neighbours
from .state import IllegalAction, Unit, World, seat_of


class CombatError(ValueError):
    """A decision the battle refuses; the message says why."""


# ---------------------------------------------------------------------- setting up
def begin_combat(world: World) -> None:
    """List the battles of the mover's turn."""
    power = world.power
    raids = world.extra.get("raids", {})
    sea, land = [], []
    for space in sorted({u.at for u in world.units.values() if u.owner == power}):
        if space in raids:
            continue
        mine = [u for u in world.at(space) if u.owner == power and u.aboard is None]
        if not mine:
            continue
        enemies = world.combatants(world.enemy_units(space, power))
        attacked_aa = any(
            world.unit_type(u).has("anti_aircraft") for u in world.enemy_units(space, power)
        ) and any(world.unit_type(u).is_air for u in mine)
        if world.is_sea(space):
            if enemies and any(_can_fight(world, u) for u in mine):
                sea.append(space)
        elif enemies or attacked_aa:
            land.append(space)
        elif hostile_land(world, space, power) and any(world.unit_type(u).is_land for u in mine):
            take_territory(world, space, power)  # an empty enemy territory falls without a fight
    for _, _, target in world.extra.get("landings", []):
        if target not in land and target not in raids:
            land.append(target)  # an assault waiting on its sea battle
    world.battles = sea + sorted(land) + sorted(raids)
    world.battle = None
    if (
        world.round == 1
        and world.side(power) == "axis"
        and any(
            world.owner.get(space) == "USA" or any(u.owner == "USA" for u in world.at(space))
            for space in world.battles
        )
    ):
        # The linked layer's surrender dice read it; every game notes it, as the stored states have it.
        world.extra["usa_attacked_round_1"] = True
    targets = kamikaze_targets(world)
    if targets:
        tokens = world.extra.get("kamikaze", {}).get("JAPAN", 0)
        world.battle = {
            "kind": "kamikaze",
            "at": None,
            "stage": "kamikaze",
            "attacker": "JAPAN",
            "asked": {"JAPAN": f"spend kamikaze tokens ({tokens} left) on {world.power}'s ships in "
                      + ", ".join(world.space_name(s) for s in sorted(targets))},
            "answers": {},
        }  # fmt: skip


# ---------------------------------------------------------------------- Pacific: kamikaze
def kamikaze_targets(world: World) -> dict[str, list[Unit]]:
    """Allied ships of the mover in the kamikaze zones, when Japan has tokens left."""
    if world.extra.get("kamikaze", {}).get("JAPAN", 0) <= 0 or world.side(world.power) == "axis":
        return {}
    out: dict[str, list[Unit]] = {}
    for u in world.units.values():
        if u.owner == world.power and world.unit_type(u).is_sea and world.data.territories[u.at].kamikaze:
            out.setdefault(u.at, []).append(u)
    return out


def _kamikaze(world: World, action: Kamikaze) -> None:
    b = world.battle
    assert b is not None
    targets = kamikaze_targets(world).get(action.at, [])
    if not targets:
        raise IllegalAction(f"no ship of {world.power} in a kamikaze zone at {world.space_name(action.at)}")
    spent = b["answers"].setdefault("JAPAN", {"kamikaze": []})["kamikaze"]
    tokens = world.extra["kamikaze"]["JAPAN"]
    for type_, n in action.units:
        chosen = [t for t in spent if t[0] == action.at and t[1] == type_]
        have = [u for u in targets if u.type == type_]
        if len(chosen) + n > len(have):
            raise IllegalAction(
                f"{world.space_name(action.at)} has {len(have)} {world.data.units[type_].name} "
                f"of {world.power}: one token a ship"
            )
        if len(spent) + n > tokens:
            raise IllegalAction(f"Japan has {tokens} kamikaze tokens")
        spent.extend([action.at, type_] for _ in range(n))


def _resolve_kamikaze(world: World) -> None:
    b = world.battle
    assert b is not None
    spent = b["answers"].get("JAPAN", {}).get("kamikaze", [])
    world.extra["kamikaze"]["JAPAN"] -= len(spent)
    taken: dict[tuple[str, str], int] = {}
    for at, type_ in spent:
        die = world.d6()
        hit = die <= world.options.kamikaze_hit
        world.extra.setdefault("dice_log", []).append(
            {
                "battle": at,
                "stage": "kamikaze",
                "side": "JAPAN",
                "values": [world.options.kamikaze_hit],
                "dice": [die],
                "hits": int(hit),
            }
        )
        ships = sorted(
            (u for u in world.at(at) if u.type == type_ and u.owner == world.power), key=lambda u: u.id
        )
        k = taken.get((at, type_), 0)
        taken[(at, type_)] = k + 1
        if hit and k < len(ships):
            ship = ships[k]
            ut = world.unit_type(ship)
            if ut.hits > 1 and ship.damage < ut.hits - 1:
                ship.damage += 1
                world.log.append(
                    f"a kamikaze strikes {world.power}'s {ut.name} in {world.space_name(at)}: damaged"
                )
            else:
                world.log.append(f"a kamikaze sinks {world.power}'s {ut.name} in {world.space_name(at)}")
                world.remove(ship)
        else:
            world.log.append(
                f"a kamikaze misses {world.power}'s {world.data.units[type_].name} in {world.space_name(at)}"
            )
    world.battle = None
    # Battles whose attackers were all sunk are over before they began.


def _can_fight(world: World, unit: Unit) -> bool:
    return world.unit_type(unit).fights


def waiting(world: World) -> bool:
    """A decision is asked of someone."""
    return world.battle is not None and bool(world.battle.get("asked"))


def asked(world: World) -> dict[str, str]:
    """Power -> what it is asked now."""
    return dict(world.battle.get("asked", {})) if world.battle else {}


def advance(world: World) -> bool:
    """Fight on until a decision is asked or every battle is over (then False)."""
    while True:
        if world.battle is None:
            if not world.battles:
                return False
            space = world.battles.pop(0)
            if _land_waiting(world, space):
                _open(world, space)
            continue
        if world.battle.get("asked"):
            return True
        _step(world)


def _land_waiting(world: World, space: str) -> bool:
    """Land the units whose assault on ``space`` waited on a sea battle, if their transports are
    still there and no enemy warship is; then say whether ``space`` is fought for (an enemy territory
    with no defender falls at once)."""
    waiting = [x for x in world.extra.get("landings", []) if x[2] == space]
    for uid, sea, _ in waiting:
        unit = world.units.get(uid)
        if unit is None or unit.aboard is None or unit.at != sea:
            continue  # lost with its transport, or carried away in a retreat
        if not may_unload_from(world, sea, unit.owner):
            world.log.append(
                f"{unit.owner}'s {world.unit_type(unit).name} cannot land in {world.space_name(space)}: "
                f"enemy warships remain in {world.space_name(sea)}"
            )
            continue
        unit.aboard, unit.at = None, space
        world.extra.setdefault("amphibious", {}).setdefault(space, []).append(uid)
        world.log.append(
            f"{unit.owner}'s {world.unit_type(unit).name} lands in {world.space_name(space)} "
            f"from {world.space_name(sea)}"
        )
    if space in world.extra.get("raids", {}) or world.is_sea(space):
        return True
    power = world.power
    mine = [u for u in world.at(space) if u.owner == power and u.aboard is None]
    if not mine:
        return False
    enemies = world.combatants(world.enemy_units(space, power))
    aa = any(world.unit_type(u).has("anti_aircraft") for u in world.enemy_units(space, power))
    if enemies or (aa and any(world.unit_type(u).is_air for u in mine)):
        return True
    if hostile_land(world, space, power) and any(world.unit_type(u).is_land for u in mine):
        take_territory(world, space, power)
    return False


def _open(world: World, space: str) -> None:
    raid = space in world.extra.get("raids", {})
    defenders = sorted({u.owner for u in world.enemy_units(space, world.power)})
    world.battle = {
        "at": space,
        "kind": "raid" if raid else ("sea" if world.is_sea(space) else "land"),
        "attacker": world.power,
        "defenders": defenders,
        "round": 0,
        "stage": "round",
        "asked": {},
        "answers": {},
        "hits": {},
    }
    world.log.append(
        f"battle in {world.space_name(space)}: {world.power} against {', '.join(defenders) or 'no one'}"
        + (" (strategic bombing raid)" if raid else "")
    )


# ---------------------------------------------------------------------- the units in a battle
def attackers(world: World) -> list[Unit]:
    b = world.battle
    assert b is not None
    units = [u for u in world.at(b["at"]) if u.owner == b["attacker"] and not u.submerged]
    if b["kind"] == "raid":
        ids = set(world.extra.get("raids", {}).get(b["at"], []))
        return [u for u in units if u.id in ids]
    raiding = {i for ids in world.extra.get("raids", {}).values() for i in ids}
    return [u for u in units if u.aboard is None and u.id not in raiding and world.unit_type(u).fights]


def defenders(world: World) -> list[Unit]:
    b = world.battle
    assert b is not None
    return [
        u
        for u in world.enemy_units(b["at"], b["attacker"])
        if world.unit_type(u).fights and (u.aboard is None or world.unit_type(u).is_air)
    ]


def _context(world: World) -> rules_of_battle.Context:
    b = world.battle
    assert b is not None
    amphibious = set(world.extra.get("amphibious", {}).get(b["at"], []))
    return rules_of_battle.Context(
        land=b["kind"] == "land",
        first_round=b["round"] == 1,
        amphibious=amphibious,
        surprise=world.options.surprise_attack
        and world.data.id != "aa_europe_1999"
        and world.round == 1
        and world.power == "JAPAN",
        aa=any(world.unit_type(u).has("anti_aircraft") for u in world.enemy_units(b["at"], b["attacker"])),
        air_needs_destroyer=world.options.air_needs_destroyer,
        defending_subs_first_strike=world.options.defending_subs_first_strike,
        low_luck=world.options.dice == "low_luck",
    )


# ---------------------------------------------------------------------- fighting
def _step(world: World) -> None:
    b = world.battle
    assert b is not None
    if b["kind"] == "raid":
        _raid(world)
        return
    if b["stage"] == "round":
        a, d = attackers(world), defenders(world)
        if _over(world, a, d):
            return
        b["round"] += 1
        b["queue"] = rules_of_battle.volley_order(b["round"], b["kind"] == "land")
        b["stage"] = "volleys"
        b["doomed"] = []
    if b["stage"] == "volleys":
        while b["queue"]:
            stage = b["queue"].pop(0)
            hits = _fire(world, stage)
            if any(hits.values()):
                _ask_casualties(world, hits, stage)
                if b["asked"]:
                    return
        b["stage"] = "end_of_round"
    if b["stage"] == "end_of_round":
        for uid in b.pop("doomed", []):
            unit = world.units.get(uid)
            if unit is not None:
                world.remove(unit)
        a, d = attackers(world), defenders(world)
        if _over(world, a, d):
            return
        options = retreats(world)
        asked: dict[str, str] = {}
        if options or _has_subs(world, a):
            choice = ["press on"]
            choice += [f"retreat to {' or '.join(world.space_name(s) for s in options)}"] if options else []
            choice += ["submerge your submarines"] if _has_subs(world, a) else []
            asked[b["attacker"]] = ", or ".join(choice)
        if _has_subs(world, d):
            chooser = _defender_power(world, d)
            b["defender_chooser"] = chooser
            asked[chooser] = "keep your submarines fighting (press on), or submerge them"
        b["stage"] = "choice" if asked else "round"
        b["asked"] = asked


def _fire(world: World, stage: str) -> dict[str, dict[str, int]]:
    """Roll one stage of the round: hits on each side, by the class of unit they may hit."""
    ctx = _context(world)
    a, d = attackers(world), defenders(world)
    b = world.battle
    assert b is not None
    doomed = set(b.get("doomed", []))
    if stage == "bombard":
        volleys = rules_of_battle.bombardment(world.data.units, _bombarding(world), d, ctx)
    else:
        volleys = rules_of_battle.volleys(
            stage, world.data.units, a, d, ctx, doomed_fire=world.options.bombard_return_fire, doomed=doomed
        )
    hits: dict[str, dict[str, int]] = {"attacker": {}, "defender": {}}
    for v in volleys:
        rolled = rules_of_battle.roll(v, world.d6, ctx.low_luck)
        world.extra.setdefault("dice_log", []).append(
            {
                "battle": b["at"],
                "round": b["round"],
                "stage": stage,
                "side": v.side,
                "values": list(v.values),
                "dice": rolled.dice,
                "hits": rolled.hits,
            }
        )
        if rolled.hits:
            target = "defender" if v.side == "attacker" else "attacker"
            hits[target][v.targets] = hits[target].get(v.targets, 0) + rolled.hits
            world.log.append(
                f"{stage}: {v.side} rolls {rolled.dice} against {v.values}: {rolled.hits} hit(s) "
                f"on {v.targets}"
            )
    b["stage_name"] = stage
    return hits


def _bombarding(world: World) -> list[Unit]:
    """Ships of the attacker in the sea zones the landing came from that fought no sea battle."""
    b = world.battle
    assert b is not None
    landed = set(world.extra.get("amphibious", {}).get(b["at"], []))
    if not landed:
        return []
    seas = {s for s in neighbours(world, b["at"]) if world.is_sea(s)}
    fought = set(world.extra.get("sea_battles", []))
    return [
        u
        for u in world.units.values()
        if u.owner == b["attacker"]
        and u.at in seas
        and u.at not in fought
        and world.unit_type(u).has("bombard")
    ]


def _ask_casualties(world: World, hits: dict[str, dict[str, int]], stage: str) -> None:
    b = world.battle
    assert b is not None
    b["hits"] = hits
    b["asked"] = {}
    for side, by_class in hits.items():
        if not by_class:
            continue
        units = attackers(world) if side == "attacker" else defenders(world)
        chooser = b["attacker"] if side == "attacker" else _defender_power(world, units)
        auto = rules_of_battle.only_choice(world.data.units, units, by_class)
        if auto is not None:
            _take(world, side, auto, stage)
            continue
        total = sum(by_class.values())
        b["asked"][chooser] = f"take {total} hit(s) in {world.space_name(b['at'])}: " + ", ".join(
            f"{n} on {cls}" for cls, n in by_class.items()
        )
        b.setdefault("sides", {})[chooser] = side
    if not b["asked"]:
        b["hits"] = {}


def _has_subs(world: World, units: list[Unit]) -> bool:
    return any(world.unit_type(u).has("submarine") for u in units)


def _defender_power(world: World, units: list[Unit]) -> str:
    """The defending power that chooses casualties: the holder of the territory if it defends, else
    the power with the most units there."""
    b = world.battle
    assert b is not None
    holder = world.controller(b["at"])
    owners = [u.owner for u in units]
    if holder in owners:
        return holder or owners[0]
    return max(sorted(set(owners)), key=owners.count) if owners else b["defenders"][0]


def _take(world: World, side: str, losses: list[int], stage: str) -> None:
    """Apply casualties (unit ids, a battleship listed per hit): damage, then loss; bombardment's and
    general fire's casualties fire back and leave at the end of the round."""
    b = world.battle
    assert b is not None
    for uid in losses:
        unit = world.units.get(uid)
        if unit is None:
            continue
        ut = world.unit_type(unit)
        if ut.hits > 1 and unit.damage < ut.hits - 1:
            unit.damage += 1
            world.log.append(f"{unit.owner}'s {ut.name} in {world.space_name(unit.at)} is damaged")
            continue
        if stage == "bombard" and world.options.bombard_return_fire:
            b.setdefault("doomed", []).append(uid)  # fires back this round, then goes
        else:
            world.remove(unit)
        world.log.append(f"{unit.owner} loses {ut.name} in {world.space_name(unit.at)}")


def _over(world: World, a: list[Unit], d: list[Unit]) -> bool:
    """The battle ends when a side is gone or neither can hurt the other; the winner takes a territory
    with a land unit."""
    b = world.battle
    assert b is not None
    if a and d and any(rules_of_battle.can_hit(world.data.units, a, d, _context(world))):
        return False
    space = b["at"]
    for u in a:
        u.fought = True
    if b["kind"] == "sea":
        world.extra.setdefault("sea_battles", []).append(space)
    if not d and any(world.unit_type(u).is_land for u in a) and b["kind"] == "land":
        take_territory(world, space, b["attacker"])
    outcome = (
        "the attacker wins"
        if a and not d
        else "the defender holds"
        if d and not a
        else "both sides are destroyed"
        if not a
        else "neither side can hit the other"
    )
    world.log.append(f"battle in {world.space_name(space)} ends after {b['round']} round(s): {outcome}")
    world.battle = None
    return True


def retreats(world: World) -> list[str]:
    """Where the attacker may retreat: a space next to the battle its attacking units came from,
    held by its side (land) or free of enemies (sea). Units landed from the sea do not retreat."""
    b = world.battle
    assert b is not None
    space = b["at"]
    out = set()
    amphibious = set(world.extra.get("amphibious", {}).get(space, []))
    for u in attackers(world):
        if u.id in amphibious or u.origin is None or u.origin == space:
            continue
        origin = u.origin
        if origin not in neighbours(world, space):
            # aircraft and ships may have come further: the last space before the battle is not kept,
            # so they retreat to where they started only when it is next to it.
            continue
        if world.is_sea(space) != world.is_sea(origin):
            continue
        if (world.is_sea(origin) and not world.enemy_units(origin, b["attacker"])) or (
            not world.is_sea(origin) and world.friendly(origin, b["attacker"])
        ):
            out.add(origin)
    return sorted(out)


# ---------------------------------------------------------------------- decisions
def decide(world: World, seat: str, action: Action) -> None:
    """Record a decision of ``seat`` (checked now, applied when the decision point is processed)."""
    b = world.battle
    if b is None or not b.get("asked"):
        raise IllegalAction("no battle asks anything now")
    if b["kind"] == "kamikaze":
        if not isinstance(action, Kamikaze) or seat not in ("JAPAN", seat_of(world, "JAPAN")):
            raise IllegalAction(
                "Japan answers kamikaze attacks ('kamikaze 1 battleship at Sea Zone 36'), or sends nothing"
            )
        _kamikaze(world, action)
        return
    powers = [p for p in b["asked"] if seat in (p, seat_of(world, p)) and p not in b.get("answers", {})]
    powers = powers or [p for p in b["asked"] if seat in (p, seat_of(world, p))]
    if not powers:
        raise IllegalAction(f"the battle in {world.space_name(b['at'])} asks nothing of {seat}")
    power = powers[0]
    if b["stage"] == "choice":
        if power != b["attacker"]:
            if isinstance(action, PressOn):
                b["answers"][power] = {"press": True}
            elif isinstance(action, Submerge):
                b["answers"][power] = {"submerge": True}
            else:
                raise IllegalAction("the defender keeps its submarines fighting (press on) or submerges them")
            return
        if isinstance(action, PressOn):
            b["answers"][power] = {"press": True}
        elif isinstance(action, Retreat):
            if action.to not in retreats(world):
                raise IllegalAction(
                    f"no retreat to {world.space_name(action.to)} (retreats: "
                    f"{', '.join(map(world.space_name, retreats(world))) or 'none'})"
                )
            b["answers"][power] = {"retreat": action.to}
        elif isinstance(action, Submerge):
            subs = [u for u in attackers(world) if world.unit_type(u).has("submarine")]
            if not subs:
                raise IllegalAction("no attacking submarine to submerge")
            b["answers"][power] = {"submerge": True}
        else:
            raise IllegalAction("the attacker presses on, retreats, or submerges its submarines")
        return
    if not isinstance(action, Lose):
        raise IllegalAction(f"{power} chooses casualties here ('lose 2 infantry')")
    side = b["sides"][power]
    units = attackers(world) if side == "attacker" else defenders(world)
    try:
        chosen = rules_of_battle.assign(world.data.units, units, b["hits"][side], action.units)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None
    b["answers"][power] = {"lose": chosen}


def resume(world: World) -> None:
    """Apply the decisions taken and fight on."""
    b = world.battle
    if b is None:
        return
    if b["kind"] == "kamikaze":
        _resolve_kamikaze(world)
        return
    answers = b.get("answers", {})
    for power in list(b.get("asked", {})):
        if power not in answers:
            for action in defaults(world, power):
                decide(world, power, action)
    if b["stage"] == "choice":
        answer = b["answers"].get(b["attacker"], {"press": True})
        defence = b["answers"].get(b.get("defender_chooser", ""), {"press": True})
        b["asked"], b["answers"] = {}, {}
        if "submerge" in defence:
            for u in defenders(world):
                if world.unit_type(u).has("submarine"):
                    u.submerged = True
            world.log.append(f"the defending submarines submerge in {world.space_name(b['at'])}")
        if "retreat" in answer:
            for u in attackers(world):
                if u.id not in set(world.extra.get("amphibious", {}).get(b["at"], [])):
                    _retreat_unit(world, u, answer["retreat"])
            world.log.append(
                f"{b['attacker']} retreats from {world.space_name(b['at'])} to "
                f"{world.space_name(answer['retreat'])}"
            )
            if not _over(world, attackers(world), defenders(world)):
                b["stage"] = "round"  # the units landed from the sea fight on alone
            return
        if "submerge" in answer:
            for u in attackers(world):
                if world.unit_type(u).has("submarine"):
                    u.submerged = True
            world.log.append(f"{b['attacker']}'s submarines submerge in {world.space_name(b['at'])}")
        b["stage"] = "round"
        return
    stage = b.get("stage_name", "general")
    for power, answer in b["answers"].items():
        side = b["sides"][power]
        _take(world, side, answer["lose"], stage)
    b["asked"], b["answers"], b["hits"] = {}, {}, {}


def _retreat_unit(world: World, unit: Unit, to: str) -> None:
    unit.at = to
    unit.fought = True
    for cargo in world.units.values():
        if cargo.aboard == unit.id:
            cargo.at = to


def defaults(world: World, seat_or_power: str) -> list[Action]:
    """What a side that gives no answer does: the cheapest casualties; press on."""
    b = world.battle
    if b is None:
        return []
    for power in b.get("asked", {}):
        if power != seat_or_power and seat_of(world, power) != seat_or_power:
            continue
        if b["kind"] == "kamikaze":
            return []  # no kamikaze
        if b["stage"] == "choice":
            return [PressOn()]
        side = b["sides"][power]
        units = attackers(world) if side == "attacker" else defenders(world)
        ids = rules_of_battle.default_losses(world.data.units, units, b["hits"][side], side == "attacker")
        return [Lose(_counts(world, ids))]
    return []


def _counts(world: World, ids: list[int]) -> tuple[tuple[str, int], ...]:
    order: dict[str, int] = {}
    for uid in ids:
        t = world.units[uid].type
        order[t] = order.get(t, 0) + 1
    return tuple(order.items())


def choices(world: World, seat: str) -> list[str]:
    """What ``seat`` may answer now (a few casualty choices, the retreats)."""
    b = world.battle
    if b is None:
        return []
    out: list[str] = []
    for power in b.get("asked", {}):
        if b["kind"] == "kamikaze":
            if seat_of(world, power) == seat:
                spent = b["answers"].get("JAPAN", {}).get("kamikaze", [])
                if len(spent) < world.extra["kamikaze"]["JAPAN"]:
                    for at, ships in sorted(kamikaze_targets(world).items()):
                        for type_ in sorted({u.type for u in ships}):
                            if sum(1 for s in spent if s == [at, type_]) < sum(
                                1 for u in ships if u.type == type_
                            ):
                                out.append(action_text(world.data, Kamikaze(((type_, 1),), at)))
            continue
        if seat_of(world, power) != seat or power in b.get("answers", {}):
            continue
        if b["stage"] == "choice":
            out.append("press on")
            if power == b["attacker"]:
                out.extend(f"retreat to {world.space_name(s)}" for s in retreats(world))
                if _has_subs(world, attackers(world)):
                    out.append("submerge")
            elif _has_subs(world, defenders(world)):
                out.append("submerge")
            continue
        side = b["sides"][power]
        units = attackers(world) if side == "attacker" else defenders(world)
        for ids in rules_of_battle.casualty_options(
            world.data.units, units, b["hits"][side], side == "attacker"
        ):
            out.append(action_text(world.data, Lose(_counts(world, ids))))
    return out


def may_end(world: World, seat: str) -> bool:
    """A seat's answer may be sent once it has answered every question asked of it (an unanswered
    one takes the default)."""
    return True


def summary(world: World) -> dict[str, Any] | None:
    b = world.battle
    if b is None:
        return None
    return {"at": b["at"], "round": b["round"], "asked": dict(b.get("asked", {}))}


def units_text(world: World, units: list[Unit]) -> str:
    counts: dict[str, int] = {}
    for u in units:
        counts[u.type] = counts.get(u.type, 0) + 1
    return counts_text(world.data, tuple(counts.items()))


# ---------------------------------------------------------------------- strategic bombing
def _raid(world: World) -> None:
    """A strategic bombing raid: defending fighters meet the raiders (one round: interceptors hit on
    2, escorts on 1), the AA gun fires at each raider left, then each bomber left rolls a die; the
    territory's owner loses that many IPCs, at most the territory's IPC value."""
    b = world.battle
    assert b is not None
    space = b["at"]
    raiders = attackers(world)
    holder = world.controller(space)
    interceptors = [
        u
        for u in world.enemy_units(space, b["attacker"])
        if world.unit_type(u).is_air and world.unit_type(u).carrier_cost
    ]
    ctx = _context(world)
    if interceptors and raiders:
        v_def = rules_of_battle.air_battle(world.data.units, interceptors, "defender")
        v_att = rules_of_battle.air_battle(world.data.units, raiders, "attacker")
        for v, victims in ((v_def, raiders), (v_att, interceptors)):
            rolled = rules_of_battle.roll(v, world.d6, ctx.low_luck)
            world.extra.setdefault("dice_log", []).append(
                {
                    "battle": space,
                    "stage": "air battle",
                    "side": v.side,
                    "values": list(v.values),
                    "dice": rolled.dice,
                    "hits": rolled.hits,
                }
            )
            for uid in rules_of_battle.default_losses(
                world.data.units, victims, {"air": rolled.hits}, v.side == "defender"
            )[: rolled.hits]:
                lost = world.units.get(uid)
                if lost is not None:
                    world.log.append(
                        f"{lost.owner} loses {world.unit_type(lost).name} in the air battle over "
                        f"{world.space_name(space)}"
                    )
                    world.remove(lost)
        raiders = [u for u in raiders if u.id in world.units]
    aa = any(world.unit_type(u).has("anti_aircraft") for u in world.enemy_units(space, b["attacker"]))
    if aa and raiders:
        v = rules_of_battle.anti_aircraft(len(raiders))
        rolled = rules_of_battle.roll(v, world.d6, ctx.low_luck)
        world.extra.setdefault("dice_log", []).append(
            {
                "battle": space,
                "stage": "AA fire",
                "side": "defender",
                "values": list(v.values),
                "dice": rolled.dice,
                "hits": rolled.hits,
            }
        )
        for uid in rules_of_battle.default_losses(world.data.units, raiders, {"air": rolled.hits}, True)[
            : rolled.hits
        ]:
            world.log.append(
                f"AA fire downs {world.unit_type(world.units[uid]).name} over {world.space_name(space)}"
            )
            world.remove(world.units[uid])
        raiders = [u for u in raiders if u.id in world.units]
    bombers = [u for u in raiders if world.unit_type(u).has("strategic_bomber")]
    if bombers and holder is not None:
        dice = world.roll(len(bombers))
        cap = world.data.territories[space].ipc
        damage = min(sum(dice), cap)
        economy = world.economy_of(space) or world.data.power(holder).economies[0].id
        paid = min(damage, world.ipcs.get(economy, 0))
        world.ipcs[economy] = world.ipcs.get(economy, 0) - paid
        world.extra.setdefault("dice_log", []).append(
            {"battle": space, "stage": "bombing", "side": "attacker", "dice": dice, "damage": damage}
        )
        sbr = world.extra.setdefault("bombed", {})
        sbr[holder] = sbr.get(holder, 0) + paid
        since_turn = world.extra.setdefault("bombed_since_turn", {})
        since_turn[holder] = since_turn.get(holder, 0) + paid
        world.log.append(
            f"bombers roll {dice} over {world.space_name(space)}: {holder} loses {paid} IPCs (at most {cap})"
        )
    for u in raiders:
        u.fought = True
    world.battle = None
