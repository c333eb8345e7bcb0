"""The hex wargame's own bot, ``heuristic``: an aggressive general that knows supply and the odds.

It answers every decision point with the texts a player would submit, checking each on a copy of the
position as it goes (so every order it sends is legal):

* New units go to the legal hex nearest the enemy.
* Movement: each unit, nearest the front first, moves to the reachable hex closest to its objective
  (the nearest victory hex the enemy holds on its map, or the nearest enemy unit), keeping attack
  supply as the rules make it; HQs keep a hex behind the front.
* Bombardment: every gun fires at the enemy stack in range with the most steps.
* Combat: one attack at a time, the best odds it can make with every unit that can join, if they
  are at least 2:1 after shifts (3:2 against a victory hex); advance into every emptied hex.
* The air: Zeppelins carry crack troops to empty enemy cities and otherwise supply the front;
  fighters sweep and intercept whenever they can; close support interdicts the hex that cuts the
  most enemy lines, bombers the strongest enemy stack in range.
* Storms go over threatened friendly cities. Retreats take the family's default.
"""

from __future__ import annotations

import random
from typing import Any

from . import air, artillery, combat, inventions, movement, rules, supply
from .actions import ActionSyntaxError, parse_action
from .engine import IllegalAction, apply, seat_of
from .gamedata import GameData
from .legal import defaults
from .state import AVAILABLE, MAP, Unit, World

MIN_COLUMN = "2:1"
MIN_COLUMN_FOR_CITIES = "3:2"


def heuristic(state: dict[str, Any], seat: str, seed: str) -> list[str]:
    """The heuristic bot's submission for ``seat`` at the current decision point."""
    world = World.from_json(state)
    rng = random.Random(f"{seed}/{world.steps}")
    if world.stage == "setup":
        return []  # the set-up rules place by rule, Dover first
    if world.stage == "over":
        return []
    if world.decision is not None:
        if world.decision["seat"] != seat:
            return []
        if world.decision["kind"] == "storms":
            return _storms(world, seat)
        if world.decision["kind"] == "advance":
            return _advance(world)
        return defaults(world, seat)
    if seat != seat_of(world):
        return []
    plan = _Planner(world, seat, rng)
    phase = world.phase_name
    handler = {
        "new_units": plan.new_units,
        "zeppelin_base_change": plan.base_change,
        "flyer_base_change": plan.base_change,
        "airmobile_embarkation": plan.embark,
        "zeppelin_sortie": plan.sortie,
        "mission_allocation": plan.missions,
        "interception": plan.intercept,
        "movement": plan.movement,
        "bombard": plan.bombard,
        "combat": plan.combat,
    }.get(phase)
    return handler() if handler else []


class _Planner:
    """Builds a submission on a copy of the world, keeping each order that the rules accept."""

    def __init__(self, world: World, seat: str, rng: random.Random) -> None:
        self.world = world.clone()
        self.seat = seat
        self.rng = rng
        self.data: GameData = world.data
        self.orders: list[str] = []

    def play(self, text: str) -> bool:
        try:
            apply(self.world, self.seat, parse_action(self.data, text))
        except (IllegalAction, ActionSyntaxError):
            return False
        self.orders.append(text)
        return True

    # ------------------------------------------------------------------ geometry helpers
    def enemy(self) -> str:
        return self.data.enemy(self.seat)

    def enemy_units(self) -> list[Unit]:
        return [
            u
            for u in self.world.on_map()
            if self.world.side_of(u) == self.enemy() and u.kind not in supply.NOT_GROUND and u.hex is not None
        ]

    def objectives(self, map_id: str) -> list[int]:
        """Victory hexes on ``map_id`` the enemy holds (for the English front: any enemy-held place,
        and London's hexes)."""
        geo = self.data.geography
        out = [
            c
            for c in self.data.victory_value
            if geo.hexes[c].map == map_id and self.world.control.get(c) != self.seat
        ]
        if not out:
            out = [u.hex for u in self.enemy_units() if u.hex is not None and geo.hexes[u.hex].map == map_id]
        return out

    def distance_to(self, cell: int, goals: list[int]) -> int:
        geo = self.data.geography
        best = 1 << 20
        for g in goals:
            d = geo.distance(cell, g)
            if d is not None and d < best:
                best = d
        return best

    # ------------------------------------------------------------------ phases
    def new_units(self) -> list[str]:
        world = self.world
        geo = self.data.geography
        for unit in sorted(world.units.values(), key=lambda u: u.id):
            if unit.where != AVAILABLE or world.side_of(unit) != self.seat:
                continue
            if unit.kind == "generator":
                options = inventions.generator_hexes(world, self.seat)
            else:
                options = rules.placement_hexes(world, unit)
            enemies = [u.hex for u in self.enemy_units() if u.hex is not None]
            options.sort(key=lambda c: (self.distance_to(c, enemies), geo.hexes[c].id))
            for cell in options[:4]:
                if self.play(f"place {unit.id} {geo.hexes[cell].id}"):
                    break
        return self.orders

    def base_change(self) -> list[str]:
        geo = self.data.geography
        enemies = [u.hex for u in self.enemy_units() if u.hex is not None]
        for unit, options in list(air.base_changers(self.world)):
            here = self.distance_to(unit.hex or 0, enemies)
            best = min(options, key=lambda c: (abs(self.distance_to(c, enemies) - 2), geo.hexes[c].id))
            if abs(self.distance_to(best, enemies) - 2) < abs(here - 2):
                self.play(f"base {unit.id} {geo.hexes[best].id}")
        return self.orders

    def embark(self) -> list[str]:
        for troop, zeppelin in air.boardings(self.world):
            self.play(f"embark {troop.id} {zeppelin.id}")
        return self.orders

    def sortie(self) -> list[str]:
        world = self.world
        geo = self.data.geography
        carrying = air.book(world).get("carrying", {})
        states = supply.unit_states(world)
        hungry = [
            u.hex
            for u in world.on_map()
            if u.hex is not None
            and world.side_of(u) == self.seat
            and states.get(u.id) in (supply.DEFENCE, supply.OUT)
        ]
        for zeppelin in air.sortie_ready(world):
            options = air.sortie_hexes(world, zeppelin)
            if not options:
                continue
            if zeppelin.id in carrying:
                targets = [c for c in self.objectives(geo.hexes[zeppelin.hex or 0].map) if c in options]
                if targets:
                    self.play(f"sortie {zeppelin.id} {geo.hexes[targets[0]].id}")
                continue
            if hungry:
                best = min(options, key=lambda c: (self.distance_to(c, hungry), geo.hexes[c].id))
                if self.distance_to(best, hungry) <= 1:
                    self.play(f"sortie {zeppelin.id} {geo.hexes[best].id}")
                    hungry = [h for h in hungry if (geo.distance(h, best) or 9) > 1]
        return self.orders

    def missions(self) -> list[str]:
        world = self.world
        geo = self.data.geography
        enemies = self.enemy_units()
        for flyer in air.mission_ready(world):
            kind = air.role(flyer)
            if kind == "F":
                targets = air.mission_targets(world, flyer, "sweep")
                if targets:
                    self.play(f"mission {flyer.id} sweep {geo.hexes[targets[0]].id}")
            elif kind == "CS":
                targets = air.mission_targets(world, flyer, "light")
                scored = [
                    (-sum(1 for e in enemies if e.hex in geo.neighbours[c]), geo.hexes[c].id) for c in targets
                ]
                if scored and min(scored)[0] < 0:
                    self.play(f"mission {flyer.id} light {min(scored)[1]}")
            elif kind == "B":
                in_range = set(air.mission_targets(world, flyer, "heavy"))
                stacks: dict[int, int] = {}
                for e in enemies:
                    if e.hex is not None and e.hex in in_range:
                        stacks[e.hex] = stacks.get(e.hex, 0) + e.steps
                if stacks:
                    best = max(stacks, key=lambda c: (stacks[c], geo.hexes[c].id))
                    self.play(f"mission {flyer.id} heavy {geo.hexes[best].id}")
        return self.orders

    def intercept(self) -> list[str]:
        geo = self.data.geography
        for fighter in air.interceptors(self.world):
            targets = air.interception_targets(self.world, fighter)
            if targets:
                self.play(f"intercept {geo.hexes[targets[0]].id} with {fighter.id}")
        return self.orders

    def movement(self) -> list[str]:
        world = self.world
        geo = self.data.geography
        maps = supply.supply_maps(world)
        enemies = [u.hex for u in self.enemy_units() if u.hex is not None]
        units = [
            u
            for u in world.on_map()
            if world.side_of(u) == self.seat
            and u.kind not in supply.NOT_GROUND
            and movement.allowance(world, u) > 0
        ]
        units.sort(key=lambda u: (self.distance_to(u.hex or 0, enemies), u.id))
        for unit in units:
            if unit.hex is None:
                continue
            goals = self.objectives(geo.hexes[unit.hex].map) or enemies
            if not goals:
                continue
            options = movement.destinations(world, unit, maps)
            if not options:
                continue
            here = self.distance_to(unit.hex, goals)
            if unit.kind == "hq":
                # an HQ keeps a hex behind the line: next to its own units, not next to the enemy
                zone = supply.zones(world, supply.ground_masks(world)[self.enemy()])
                options = [c for c in options if not (zone >> c) & 1] or options
            best = min(options, key=lambda c: (self.distance_to(c, goals), self.rng.random()))
            if self.distance_to(best, goals) < here:
                self.play(f"move {unit.id} {geo.hexes[best].id}")
        return self.orders

    def bombard(self) -> list[str]:
        world = self.world
        geo = self.data.geography
        for hq in artillery.gunners(world):
            targets = artillery.targets_of(world, hq)
            if not targets:
                continue
            best = max(
                targets,
                key=lambda c: (
                    sum(u.steps for u in artillery.hittable(world, c, self.enemy())),
                    geo.hexes[c].id,
                ),
            )
            self.play(f"bombard {geo.hexes[best].id} with {hq.id}")
        return self.orders

    def combat(self) -> list[str]:
        world = self.world
        geo = self.data.geography
        maps = supply.supply_maps(world)
        best: tuple[int, str] | None = None
        for cell in combat.targets(world):
            attackers = combat.attackers_for(world, cell)
            if not attackers:
                continue
            odds = combat.odds(world, cell, attackers, maps)
            floor = MIN_COLUMN_FOR_CITIES if cell in self.data.victory_value else MIN_COLUMN
            if odds.column < self.data.column_names.index(floor):
                continue
            text = f"attack {geo.hexes[cell].id} with {','.join(u.id for u in attackers)}"
            if best is None or odds.column > best[0]:
                best = (odds.column, text)
        if best is not None:
            self.play(best[1])
        return self.orders


def _advance(world: World) -> list[str]:
    """Advance with as many of the attackers as the stack takes."""
    d = world.decision
    assert d is not None
    units = list(d["units"])
    while units:
        text = f"advance {','.join(units)}"
        try:
            apply(world.clone(), str(d["seat"]), parse_action(world.data, text))
            return [text]
        except (IllegalAction, ActionSyntaxError):
            units.pop()
    return ["stay"]


def _storms(world: World, seat: str) -> list[str]:
    """Storms over the friendly cities the enemy stands next to, the most valuable first."""
    geo = world.data.geography
    enemy = world.data.enemy(seat)
    held = supply.ground_masks(world)[enemy]
    zone = supply.zones(world, held)
    allowed = set(inventions.storm_hexes(world))
    threatened = sorted(
        (c for c, owner in world.control.items() if owner == seat and (zone >> c) & 1 and c in allowed),
        key=lambda c: (-world.data.victory_value.get(c, 0), geo.hexes[c].id),
    )
    count = int(world.decision["count"]) if world.decision else 0
    return [f"storm {geo.hexes[c].id}" for c in threatened[:count]]


__all__ = ["MAP", "heuristic"]
