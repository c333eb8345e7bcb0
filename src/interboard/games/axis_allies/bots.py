"""The Axis & Allies family's own bots.

``calculator`` plays every decision point with the texts a player would submit, each checked on a copy
of the position as it goes (so all it sends is legal), and weighs its attacks with the battle
calculator (:mod:`.odds`, exact):

* Purchase: what is needed. Infantry to hold a capital the enemy could take next turn; otherwise
  two infantry for each armour, and a fighter when rich, spending every purse.
* Combat move: each enemy territory next to its land units, most valuable first, is attacked with
  the units that can reach it, when the calculator gives the attacker 70 % or more and the IPCs
  gained (the territory and the enemy units' cost) outweigh the expected losses. Units guarding a
  threatened capital stay home.
* Battles: the cheapest casualties; the attacker retreats when the calculator, on the units left,
  no longer gives it even odds.
* Non-combat move: land units march a step towards the nearest enemy territory, unless they guard
  their capital; aircraft land where they may, nearest the front.
* Placement: everything bought, at the factory nearest the enemy (a threatened capital first).

``turtle`` is its measuring opponent: it buys infantry, places them at home and never moves.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from . import combat, linked
from .actions import Action, Buy, Move, Place, action_text, parse_action
from .engine import IllegalAction, apply, seat_of
from .legal import legal_actions
from .moves import MoveError, hostile_land, neighbours
from .odds import Battle, OddsError, exact
from .state import Phase, Unit, World

ATTACK_AT = 0.70
"""The least chance of winning the calculator must give an attack."""
RETREAT_BELOW = 0.5
MAX_ATTACKERS = 14
"""An attack uses at most this many units (the exact calculator's cost grows with both sides)."""
MAX_DEFENDERS = 14


def calculator(state: dict[str, Any], seat: str, seed: str) -> list[str]:
    return _submission(state, seat, turtle=False)


def turtle(state: dict[str, Any], seat: str, seed: str) -> list[str]:
    return _submission(state, seat, turtle=True)


def _submission(state: dict[str, Any], seat: str, turtle: bool) -> list[str]:
    world = World.from_json(state)
    if world.phase is Phase.COMBAT:
        if turtle:
            return [action_text(world.data, a) for a in combat.defaults(world, seat)]
        return _battle(world, seat)
    if world.phase is Phase.OVER or seat != seat_of(world, world.power):
        return []
    plan = _Plan(world)
    if world.phase is Phase.SETUP:
        plan.setup()
    elif world.phase is Phase.PURCHASE:
        plan.purchase(turtle)
    elif world.phase is Phase.COMBAT_MOVE and not turtle:
        plan.attacks()
    elif world.phase is Phase.NONCOMBAT_MOVE:
        plan.land_aircraft() if turtle else plan.march()
    elif world.phase is Phase.PLACE:
        plan.place()
    return plan.texts


class _Plan:
    """A submission built action by action on a working copy of the position."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.power = world.power
        self.texts: list[str] = []

    def play(self, action: Action) -> bool:
        trial = self.world.clone()
        try:
            apply(trial, action)
        except (IllegalAction, MoveError, ValueError):
            return False
        self.world = trial
        self.texts.append(action_text(trial.data, action))
        return True

    # ------------------------------------------------------------------ what the map says
    def enemy_lands(self) -> set[str]:
        w = self.world
        return {
            s
            for s, holder in w.owner.items()
            if not w.is_sea(s) and w.enemies(holder, self.power) and not linked.closed_by_surrender(w, s)
        }

    def distances(self, targets: set[str]) -> dict[str, int]:
        """Land steps from every land territory to the nearest of ``targets``."""
        w = self.world
        dist = {t: 0 for t in targets}
        queue = deque(targets)
        while queue:
            here = queue.popleft()
            for nxt in neighbours(w, here):
                if nxt not in dist and not w.is_sea(nxt):
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        return dist

    def threat(self, space: str) -> float:
        """Attack strength of the enemy land and air units next to ``space``."""
        w = self.world
        total = 0.0
        for nxt in neighbours(w, space):
            for u in w.at(nxt):
                if w.enemies(u.owner, self.power) and not w.unit_type(u).is_sea:
                    total += w.unit_type(u).attack
        return total

    def defence(self, space: str) -> float:
        w = self.world
        return sum(w.unit_type(u).defence for u in w.at(space) if u.owner == self.power)

    def capitals(self) -> list[str]:
        w = self.world
        return [e.capital for e in w.data.power(self.power).economies if w.owner.get(e.capital) == self.power]

    def threatened_capitals(self) -> list[str]:
        return [c for c in self.capitals() if self.threat(c) >= self.defence(c)]

    # ------------------------------------------------------------------ steps
    def setup(self) -> None:
        """The initial placement: infantry where the enemy is nearest."""
        w = self.world
        front = self.distances(self.enemy_lands())
        while True:
            offered = [parse_action(w.data, t) for t in legal_actions(self.world)]
            places = [a for a in offered if isinstance(a, Place) and a.units[0][0] == "infantry"]
            if not places:
                break
            best = min(places, key=lambda a: (front.get(a.at, 99), a.at))
            if not self.play(best):
                break

    def purchase(self, turtle: bool) -> None:
        w = self.world
        power = w.data.power(self.power)
        guard = bool(self.threatened_capitals()) or turtle
        for economy in power.economies:
            purse = w.ipcs.get(economy.id, 0)
            econ = economy.id if len(power.economies) > 1 else None
            counts: dict[str, int] = {}
            cost = {u: w.data.units[u].cost or 0 for u in power.buys}
            step = 0
            while True:
                choice = "infantry"
                if not guard:
                    if "fighter" in cost and purse >= 30 and step % 4 == 3:
                        choice = "fighter"
                    elif "armour" in cost and step % 3 == 2:
                        choice = "armour"
                if choice not in cost or cost[choice] > purse:
                    choice = "infantry"
                if "infantry" not in cost or cost[choice] > purse:
                    break
                counts[choice] = counts.get(choice, 0) + 1
                purse -= cost[choice]
                step += 1
            if counts:
                self.play(Buy(tuple(sorted(counts.items())), econ))

    def attacks(self) -> None:
        w = self.world
        guarding = set(self.threatened_capitals())
        committed: set[int] = set()
        targets = sorted(
            self.enemy_lands(),
            key=lambda s: (-(w.data.territories[s].ipc + self._worth(s)), s),
        )
        for target in targets:
            attackers = self._attackers(target, committed, guarding)
            if not attackers:
                continue
            defenders = [u for u in self.world.at(target) if self.world.enemies(u.owner, self.power)]
            # The fewest units that make the odds: weakest first, the strongest added last.
            attackers.sort(key=lambda u: (w.unit_type(u).attack, -(w.unit_type(u).cost or 0), u.id))
            odds = None
            for n in range(1, len(attackers) + 1):
                if n < len(attackers) and sum(w.unit_type(u).attack for u in attackers[:n]) < len(defenders):
                    continue  # clearly too few to be worth asking the calculator
                odds = self._odds(attackers[:n], defenders, target)
                if odds is not None and odds.attacker_wins >= ATTACK_AT:
                    attackers = attackers[:n]
                    break
            if odds is None or odds.attacker_wins < ATTACK_AT:
                continue
            gain = odds.attacker_wins * (w.data.territories[target].ipc + 1) + odds.defender_loss
            if gain < odds.attacker_loss * 0.8:
                continue
            for u in attackers:
                if self.play(Move(((u.type, 1),), u.at, target)):
                    committed.add(u.id)

    def _worth(self, space: str) -> float:
        w = self.world
        return sum(w.unit_type(u).cost or 0 for u in w.at(space) if w.enemies(u.owner, self.power))

    def _attackers(self, target: str, committed: set[int], guarding: set[str]) -> list[Unit]:
        w = self.world
        out = []
        for nxt in neighbours(w, target):
            if nxt in guarding or w.is_sea(nxt):
                continue
            for u in w.at(nxt):
                ut = w.unit_type(u)
                if (
                    u.owner == self.power
                    and ut.is_land
                    and ut.attack > 0
                    and u.id not in committed
                    and not u.moved
                ):
                    out.append(u)
        return out[:MAX_ATTACKERS]

    def _odds(self, attackers: list[Unit], defenders: list[Unit], target: str) -> Any:
        w = self.world
        fighting = [u for u in defenders if w.unit_type(u).fights]
        if not fighting:
            return _Certain(w.data.territories[target].ipc)
        if len(fighting) > MAX_DEFENDERS:
            return None
        battle = Battle(
            w.data.units,
            tuple(u.type for u in attackers),
            tuple(u.type for u in fighting),
            aa=any(w.unit_type(u).has("anti_aircraft") for u in defenders),
            low_luck=w.options.dice == "low_luck",
        )
        try:
            return exact(battle)
        except OddsError:
            return None

    def march(self) -> None:
        """Land units a step towards the nearest enemy territory; aircraft land."""
        w = self.world
        guarding = set(self.capitals())
        front = self.distances(self.enemy_lands())
        for u in sorted(w.units.values(), key=lambda u: u.id):
            ut = w.unit_type(u)
            if u.owner != self.power or not ut.is_land or u.moved or u.fought or u.aboard is not None:
                continue
            if u.at in guarding and self.threat(u.at) >= self.defence(u.at) - ut.defence:
                continue
            here = front.get(u.at, 99)
            steps = [
                n
                for n in neighbours(self.world, u.at)
                if not self.world.is_sea(n)
                and front.get(n, 99) < here
                and not hostile_land(self.world, n, self.power)
            ]
            for n in sorted(steps, key=lambda n: (front.get(n, 99), n)):
                if self.play(Move(((u.type, 1),), u.at, n)):
                    break
        self.land_aircraft()

    def land_aircraft(self) -> None:
        """Aircraft that may not stay where they are fly to the landing place nearest the front."""
        front = self.distances(self.enemy_lands())
        while True:
            offered = [parse_action(self.world.data, t) for t in legal_actions(self.world)]
            stranded = [
                a
                for a in offered
                if isinstance(a, Move)
                and self.world.data.units[a.units[0][0]].is_air
                and not self._may_stay(a.frm, a.units[0][0])
            ]
            if not stranded:
                return
            best = min(stranded, key=lambda a: (front.get(a.to, 99), a.to))
            if not self.play(best):
                return

    def _may_stay(self, space: str, unit: str) -> bool:
        held = self.world.extra.get("held_at_start", {})
        return held.get(space) == self.world.side(self.power) or self.world.is_sea(space)

    def place(self) -> None:
        front = self.distances(self.enemy_lands())
        threatened = set(self.threatened_capitals())
        while True:
            offered = [parse_action(self.world.data, t) for t in legal_actions(self.world)]
            places = [a for a in offered if isinstance(a, Place) and not self.world.is_sea(a.at)]
            if not places:
                return
            best = min(places, key=lambda a: (a.at not in threatened, front.get(a.at, 99), a.at))
            if not self.play(best):
                return


class _Certain:
    """An undefended territory: taken for certain."""

    def __init__(self, ipc: int) -> None:
        self.attacker_wins = 1.0
        self.defender_loss = 0.0
        self.attacker_loss = 0.0


def _battle(world: World, seat: str) -> list[str]:
    """Cheapest casualties; the attacker retreats when the odds on what is left fall below even."""
    out = [action_text(world.data, a) for a in combat.defaults(world, seat)]
    b = world.battle
    if b is None or b.get("stage") != "choice" or seat_of(world, b["attacker"]) != seat:
        return out
    retreats = [t for t in combat.choices(world, seat) if t.startswith("retreat to")]
    if not retreats:
        return out
    attackers = [u for u in world.at(b["at"]) if u.owner == b["attacker"] and world.unit_type(u).fights]
    defenders = [
        u for u in world.at(b["at"]) if world.enemies(u.owner, b["attacker"]) and world.unit_type(u).fights
    ]
    if not attackers or not defenders or len(attackers) > MAX_ATTACKERS or len(defenders) > MAX_DEFENDERS:
        return out
    try:
        odds = exact(
            Battle(
                world.data.units,
                tuple(u.type for u in attackers),
                tuple(u.type for u in defenders),
                kind=b.get("kind", "land") if b.get("kind") in ("land", "sea") else "land",
            )
        )
    except OddsError:
        return out
    if odds.attacker_wins < RETREAT_BELOW:
        return [t for t in out if not t.startswith("press")] + [retreats[0]]
    return out
