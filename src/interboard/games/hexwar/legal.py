"""The legal next actions of the seat to act, as texts.

A submission of many orders (a set-up, the new units, the movement phase) is offered as a form filled
in counter order: the next counter's legal orders, or to leave it be; any other order of the same
orders is accepted by the check too. A combat decision point offers each attack with every unit
that may join it (a smaller attacking force is legal as well).
"""

from __future__ import annotations

from . import air, artillery, combat, inventions, movement, rules, supply
from .engine import default_retreat, seat_of
from .state import AVAILABLE, MAP, SETUP, Unit, World


def arrival_hexes(world: World, unit: Unit, maps: dict[str, supply.SupplyMap]) -> list[int]:
    """Where a unit waiting in the available box may be placed now (a generator: a German city)."""
    if unit.kind == "generator":
        return inventions.generator_hexes(world, world.side_of(unit))
    return rules.placement_hexes(world, unit, maps)


def legal_actions(world: World, seat: str, chosen: int) -> tuple[list[str], bool]:
    """(the next actions, may the submission end here)."""
    geo = world.data.geography
    if world.stage == "over":
        return [], True
    if world.stage == "setup":
        units = rules.setup_units(world, seat)
        for unit in units:
            options = rules.setup_hexes(world, unit)
            if options:
                return [f"setup {unit.id} {geo.hexes[c].id}" for c in options], True
        return [], True
    if world.decision is not None:
        d = world.decision
        if d["seat"] != seat:
            return [], True
        if d["kind"] == "storms":
            if len(world.extra.get("storms", [])) >= int(d["count"]):
                return [], True
            return [f"storm {geo.hexes[c].id}" for c in inventions.storm_hexes(world)], True
        if d["kind"] == "retreat":
            return [f"retreat {h}" for h in d["options"]], False
        singles = [f"advance {u}" for u in d["units"]]
        every = [f"advance {','.join(d['units'])}"] if len(d["units"]) > 1 else []
        onward = [f"{every[0]} then {h}" for h in d.get("onward", [])] if every else []
        return [*every, *onward, *singles, "stay"], False
    if seat != seat_of(world):
        return [], True
    phase = world.phase_name
    if phase in ("zeppelin_base_change", "flyer_base_change"):
        for unit, options in air.base_changers(world):
            return [f"base {unit.id} {geo.hexes[c].id}" for c in options], True
        return [], True
    if phase == "airmobile_embarkation":
        return [f"embark {t.id} {z.id}" for t, z in air.boardings(world)], True
    if phase == "zeppelin_sortie":
        for z in air.sortie_ready(world):
            return [f"sortie {z.id} {geo.hexes[c].id}" for c in air.sortie_hexes(world, z)], True
        return [], True
    if phase == "mission_allocation":
        for f in air.mission_ready(world):
            out = []
            for mission in ("sweep", "light", "heavy"):
                if air.role(f) in air.MISSION_ROLES[mission]:
                    out += [
                        f"mission {f.id} {mission} {geo.hexes[c].id}"
                        for c in air.mission_targets(world, f, mission)
                    ]
            if air.role(f) == "F":
                out += [f"mission {f.id} escort {uid}" for uid in air.escorts_for(world, f)]
            if out:
                return out, True
        return [], True
    if phase == "interception":
        by_hex: dict[int, list[str]] = {}
        for f in air.interceptors(world):
            for c in air.interception_targets(world, f):
                by_hex.setdefault(c, []).append(f.id)
        return [
            f"intercept {geo.hexes[c].id} with {','.join(ids)}" for c, ids in sorted(by_hex.items())
        ], True
    if phase == "new_units":
        out = []
        maps = supply.supply_maps(world)
        for unit in sorted(world.units.values(), key=lambda u: u.id):
            if unit.where == AVAILABLE and world.side_of(unit) == seat:
                options = arrival_hexes(world, unit, maps)
                if options:
                    out = [f"place {unit.id} {geo.hexes[c].id}" for c in options]
                    break
        if world.operational == 1:
            out += [
                f"withdraw {u.id}"
                for u in world.on_map()
                if world.side_of(u) == seat and rules.may_withdraw(world, u) is None
            ]
        return out, True
    if phase == "movement":
        maps = supply.supply_maps(world)
        for unit in sorted(world.on_map(), key=lambda u: u.id):
            if world.side_of(unit) != seat or unit.id in world.moved or movement.allowance(world, unit) <= 0:
                continue
            options = movement.destinations(world, unit, maps)
            if options:
                return [f"move {unit.id} {geo.hexes[c].id}" for c in options] + [f"hold {unit.id}"], True
        return [], True
    if phase == "bombard":
        for hq in artillery.gunners(world):
            return [f"bombard {geo.hexes[c].id} with {hq.id}" for c in artillery.targets_of(world, hq)], True
        return [], True
    if phase == "combat":
        if chosen or world.extra.get("attacked_now"):
            return [], True
        return [
            f"attack {geo.hexes[c].id} with {','.join(u.id for u in combat.attackers_for(world, c))}"
            for c in combat.targets(world)
        ], True
    return [], True


def defaults(world: World, seat: str) -> list[str]:
    """What a seat that does not answer a decision asked of it does."""
    if world.decision is not None and world.decision["seat"] == seat:
        return [default_retreat(world)] if world.decision["kind"] == "retreat" else ["stay"]
    return []


def owes_answer(world: World, seat: str) -> bool:
    """Is a decision asked of ``seat`` still open that may not be left empty (a retreat, an
    advance)? Then the default answers it, so that play always moves on."""
    if world.decision is None or world.decision["seat"] != seat:
        return False
    return not legal_actions(world, seat, 0)[1]


def setup_left(world: World, seat: str) -> bool:
    return any(u.where == SETUP and world.side_of(u) == seat for u in world.units.values())


__all__ = ["MAP", "defaults", "legal_actions", "owes_answer", "setup_left"]
