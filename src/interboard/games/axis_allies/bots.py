"""The Axis & Allies family's own bots.

``calculator`` plays every decision point with the texts a player would submit, each checked on a copy
of the position as it goes (so all it sends is legal), and weighs its attacks with the battle
calculator (:mod:`.odds`, exact):

* Purchase: what is needed. Infantry to hold a capital the enemy could take next turn; otherwise a
  transport for every two land units with no way by land to the war, bombers (a power collecting
  30 IPCs or more, about half of the purse of an economy whose capital is a flight from a raid
  base) until it has enough to raid each enemy factory worth 4 IPCs or more to its cap every turn,
  then two infantry for each armour and a fighter when rich, spending every purse.
* Combat move: each enemy territory next to its land units, most valuable first, is attacked with
  the units that can reach it, when the calculator gives the attacker 60 % or more and the IPCs
  gained (the territory and the enemy units' cost) outweigh the expected losses. Units guarding a
  threatened capital stay home. Armies carried to a sea zone beside an enemy coast storm it on the
  same odds (never through enemy warships), sailing in this move to such a sea zone when they are
  not beside one; bombers raid the richest enemy factories in reach, enough on each to reach its
  cap past the interceptors and the AA gun, each with a fighter from its base as escort (in the
  linked game every 10 IPCs bombed in a round is a surrender die for Germany, Japan or the UK).
* Battles: the cheapest casualties; the attacker retreats when the calculator, on the units left,
  no longer gives it even odds.
* Non-combat move: land units march a step towards the nearest enemy territory that is not a
  fortress (more defenders than the calculator weighs), unless they guard their capital; warships
  take the enemy's convoy centres in reach and take back their own side's; transports
  take aboard the armies with no way by land to the war and sail them towards a friendly shore near
  the enemy or a weakly held enemy coast, and land them on the shore; bombers and fighters fly to
  the landing place nearest an enemy factory (within half their move of it: the raid base); other
  aircraft land where they may, nearest the front.
* Placement: everything bought, at the factory nearest the enemy (a threatened capital first), ships
  beside the armies they are to carry.

``turtle`` is its measuring opponent: it buys infantry, places them at home and never moves.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import Any

from . import combat
from .actions import Action, Buy, Move, Place, action_text, parse_action
from .engine import apply
from .layers import hooks
from .legal import legal_actions
from .moves import (
    MoveError,
    can_carry,
    hostile_land,
    is_neutral,
    may_unload_from,
    neighbours,
    reachable,
    transport_room,
    transports_at,
)
from .odds import Battle, OddsError, exact
from .state import IllegalAction, Phase, Unit, World, seat_of

ATTACK_AT = 0.60
"""The least chance of winning the calculator must give an attack."""
RETREAT_BELOW = 0.5
MAX_ATTACKERS = 14
"""An attack uses at most this many units (the exact calculator's cost grows with both sides)."""
MAX_DEFENDERS = 14
FAR = 99
"""Land steps standing for "no way by land"."""
TRANSPORT_SHARE = 3
"""At most a third of a purse goes on transports."""
WEAK_COAST = 2
"""An enemy coast with at most this many defenders is worth sailing an army to."""
BOMBER_REACH = 3
"""Air steps from a bomber's base to the factory it raids: half its move, out and back."""
BOMBER_SHARE = 2
"""About half a purse goes on bombers (at least one, when it buys one)."""
RAID_IPCS = 4
"""The least IPCs a territory must be worth for its factory to be raided."""
BOMBER_PURSE = 30
"""Only a power collecting this many IPCs (all its economies) buys bombers: a poorer one needs its
armies more."""


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
        plan.sail_to_assault()
        plan.landings()
        plan.raids()
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
        lands = {s for s, holder in w.owner.items() if not w.is_sea(s) and w.enemies(holder, self.power)}
        for closed in hooks(w).closed:
            lands = {s for s in lands if not closed(w, s)}
        return lands

    def march_targets(self) -> set[str]:
        """The enemy territories worth marching on: all but the fortresses (more defenders than the
        calculator weighs), unless nothing else is left. Against a player who stacks his capital,
        the armies go round it and take what feeds it."""
        w = self.world
        lands = self.enemy_lands()
        open_lands = {s for s in lands if sum(1 for u in w.at(s) if w.unit_type(u).fights) <= MAX_DEFENDERS}
        return open_lands or lands

    def distances(self, targets: set[str]) -> dict[str, int]:
        """Land steps from every land territory to the nearest of ``targets``, by ways an army can
        march: not through neutral territories or the enemy's other territories (a fortress left
        out of the targets is a wall, not a road)."""
        w = self.world
        walls = self.enemy_lands() - targets
        dist = {t: 0 for t in targets}
        queue = deque(targets)
        while queue:
            here = queue.popleft()
            for nxt in neighbours(w, here):
                if nxt not in dist and not w.is_sea(nxt) and nxt not in walls and not is_neutral(w, nxt):
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
            best = min(places, key=lambda a: (front.get(a.at, FAR), a.at))
            if not self.play(best):
                break

    def purchase(self, turtle: bool) -> None:
        w = self.world
        power = w.data.power(self.power)
        guard = bool(self.threatened_capitals()) or turtle
        # Transports for the armies with no way by land to the war: one for every two of them.
        ships_wanted = 0
        if not guard:
            idle = len(self.idle_far(self.distances(self.march_targets())))
            ships = sum(
                1 for u in w.units.values() if u.owner == self.power and w.unit_type(u).transport_capacity
            )
            ships_wanted = max(0, (idle + 1) // 2 - ships)
        rich = sum(w.ipcs.get(e.id, 0) for e in power.economies) >= BOMBER_PURSE
        bombers_wanted = self.bombers_wanted() if rich and not guard else 0
        bomber_bases = self.raid_bases()
        for economy in power.economies:
            purse = w.ipcs.get(economy.id, 0)
            econ = economy.id if len(power.economies) > 1 else None
            counts: dict[str, int] = {}
            cost = {u: w.data.units[u].cost or 0 for u in power.buys}
            # Bombers where they are a flight from a base: from the economy's capital.
            if bombers_wanted and cost.get("bomber") and economy.capital in bomber_bases:
                n = min(bombers_wanted, -(-purse // BOMBER_SHARE // cost["bomber"]), purse // cost["bomber"])
                if n:
                    counts["bomber"] = n
                    purse -= n * cost["bomber"]
                    bombers_wanted -= n
            if ships_wanted and "transport" in cost and cost["transport"]:
                n = min(ships_wanted, purse // TRANSPORT_SHARE // cost["transport"])
                if n:
                    counts["transport"] = n
                    purse -= n * cost["transport"]
                    ships_wanted -= n
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

    # ------------------------------------------------------------------ amphibious assaults
    def aboard(self, zone: str) -> list[Unit]:
        w = self.world
        return [
            u
            for u in w.at(zone)
            if u.owner == self.power and u.aboard is not None and w.unit_type(u).is_land and not u.moved
        ]

    def cargo_zones(self) -> list[str]:
        """The sea zones where units of ours are aboard ships."""
        w = self.world
        return sorted(
            {
                u.at
                for u in w.units.values()
                if u.owner == self.power and u.aboard is not None and w.is_sea(u.at)
            }
        )

    def best_beach(self, zone: str, cargo: list[Unit]) -> tuple[float, str] | None:
        """The enemy coast beside ``zone`` that ``cargo`` would storm with the odds an attack needs,
        the most worth taking (IPCs and enemy units' cost less the expected losses), and its worth."""
        w = self.world
        if not may_unload_from(w, zone, self.power):
            return None
        enemy = self.enemy_lands()
        best: tuple[float, str] | None = None
        for beach in neighbours(w, zone):
            if beach not in enemy:
                continue
            defenders = [u for u in w.at(beach) if w.enemies(u.owner, self.power)]
            odds = self._odds(cargo, defenders, beach, kind="amphibious")
            if odds is None or odds.attacker_wins < ATTACK_AT:
                continue
            worth = w.data.territories[beach].ipc + odds.defender_loss - odds.attacker_loss
            if best is None or worth > best[0]:
                best = (worth, beach)
        return best

    def sail_to_assault(self) -> None:
        """Loaded transports with no coast to storm where they are sail, in the combat move, to an
        empty sea zone beside one (they land from it in :meth:`landings`)."""
        w = self.world
        for zone in self.cargo_zones():
            ships = [t for t in transports_at(self.world, zone, self.power) if not t.moved]
            cargo = self.aboard(zone)
            if not ships or not cargo or self.best_beach(zone, cargo) is not None:
                continue
            options = reachable(self.world, ships[0], combat=True)
            best: tuple[float, str] | None = None
            for there in sorted(options):
                if not w.is_sea(there) or any(w.enemies(u.owner, self.power) for u in w.at(there)):
                    continue
                found = self.best_beach(there, cargo)
                if found is not None and (best is None or found[0] > best[0]):
                    best = (found[0], there)
            if best is not None:
                kinds = tuple(sorted(Counter(t.type for t in ships).items()))
                self.play(Move(kinds, zone, best[1]))

    def landings(self) -> None:
        """Units carried to a sea zone beside an enemy territory storm it when the calculator gives
        the landing the odds an attack needs (never through enemy warships: no sea battle first)."""
        for zone in self.cargo_zones():
            cargo = self.aboard(zone)
            found = self.best_beach(zone, cargo) if cargo else None
            if found is None:
                continue
            for u in sorted(cargo, key=lambda u: u.id):
                self.play(Move(((u.type, 1),), zone, found[1]))

    # ------------------------------------------------------------------ strategic bombing
    def factories_to_bomb(self) -> list[str]:
        """Enemy territories with a factory worth raiding, the richest first: raids cost the enemy
        IPCs, and in the linked game every 10 of them a surrender die. A raid takes at most the
        territory's IPCs, so a poor one is not worth the bombers the AA gun shoots down."""
        w = self.world
        out = [
            s
            for s in self.enemy_lands()
            if w.data.territories[s].ipc >= RAID_IPCS and any(w.unit_type(u).has("factory") for u in w.at(s))
        ]
        return sorted(out, key=lambda s: (-w.data.territories[s].ipc, s))

    @staticmethod
    def raiders_for(ipc: int) -> int:
        """Bombers sent on one factory: a raid takes at most the territory's IPCs, which this many
        dice (3.5 each) nearly always reach after the interceptors and the AA gun have shot some."""
        return ipc // 2 + 2

    def air_steps(self, sources: set[str], limit: int) -> dict[str, int]:
        """Air steps from the nearest of ``sources`` to every space within ``limit`` (neutrals and
        ships-only spaces closed, as :func:`air_distance`)."""
        w = self.world
        dist = {s: 0 for s in sources}
        queue = deque(sources)
        while queue:
            here = queue.popleft()
            if dist[here] >= limit:
                continue
            for nxt in neighbours(w, here):
                if nxt in dist or is_neutral(w, nxt) or w.data.territories[nxt].ships_only:
                    continue
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
        return dist

    def raid_bases(self) -> dict[str, int]:
        """Air steps to the nearest enemy factory from every space a bomber could raid one from
        within one more flight (its base, or a place a move from one)."""
        targets = set(self.factories_to_bomb())
        if not targets:
            return {}
        return self.air_steps(targets, BOMBER_REACH + self.world.data.units["bomber"].movement)

    def bombers_wanted(self) -> int:
        """Enough bombers within a flight of a base to raid every enemy factory to its cap each turn
        (in the linked game every 10 IPCs bombed is a surrender die, and the turtle's purse shrinks)."""
        w = self.world
        near = self.raid_bases()
        have = sum(
            1
            for u in w.units.values()
            if u.owner == self.power and w.unit_type(u).has("strategic_bomber") and u.at in near
        )
        need = sum(self.raiders_for(w.data.territories[t].ipc) for t in self.factories_to_bomb())
        return max(0, need - have)

    def raids(self) -> None:
        """Every bomber not already sent into battle raids an enemy factory it can reach and come back
        from, at most as many on one factory as its IPCs call for, each with a fighter from its base
        as escort when one is there (fighters are cheaper to lose to the interceptors and the AA gun)."""
        w = self.world
        targets = self.factories_to_bomb()
        sent: dict[str, int] = {}
        for b in sorted(self.idle_aircraft(bombers=True), key=lambda u: u.id):
            for target in targets:
                if sent.get(target, 0) >= self.raiders_for(w.data.territories[target].ipc):
                    continue
                escort = next((f for f in self.idle_aircraft(bombers=False) if f.at == b.at), None)
                if (
                    escort is not None
                    and self.play(Move((("bomber", 1), (escort.type, 1)), b.at, target, raid=True))
                ) or self.play(Move((("bomber", 1),), b.at, target, raid=True)):
                    sent[target] = sent.get(target, 0) + 1
                    break

    def idle_aircraft(self, bombers: bool) -> list[Unit]:
        """Our bombers (or else fighters) on land that have not moved or fought this turn."""
        w = self.world
        return [
            u
            for u in w.units.values()
            if u.owner == self.power
            and w.unit_type(u).is_air
            and w.unit_type(u).has("strategic_bomber") == bombers
            and u.aboard is None
            and not w.is_sea(u.at)
            and not u.moved
            and not u.fought
        ]

    def aircraft_to_bases(self) -> None:
        """Bombers and fighters (back from a raid, or bought far away) land where they may nearest an
        enemy factory, within half their move of it, so that next turn they raid it or escort the
        raid."""
        w = self.world
        targets = set(self.factories_to_bomb())
        if not targets:
            return
        to_target = self.air_steps(targets, 4 * BOMBER_REACH)
        held = w.extra.get("held_at_start", {})
        side = w.side(self.power)
        spots = {s for s, holder in held.items() if holder == side}
        for closed in hooks(w).closed:
            spots = {s for s in spots if not closed(w, s)}
        aircraft = [
            u
            for u in w.units.values()
            if u.owner == self.power
            and w.unit_type(u).is_air
            and u.aboard is None
            and (w.unit_type(u).has("strategic_bomber") or w.unit_type(u).carrier_cost)
        ]
        for craft in sorted(aircraft, key=lambda u: u.id):
            ut = w.unit_type(craft)
            here = to_target.get(craft.at, FAR) if craft.at in spots else FAR
            if here <= ut.movement // 2:
                continue
            flight = self.air_steps({craft.at}, ut.movement - craft.moved)
            options = sorted(
                (s for s in flight if s in spots and s != craft.at and to_target.get(s, FAR) < here),
                key=lambda s: (to_target.get(s, FAR), flight[s], s),
            )
            for there in options[:5]:
                if self.play(Move(((craft.type, 1),), craft.at, there)):
                    break

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

    def _odds(self, attackers: list[Unit], defenders: list[Unit], target: str, kind: str = "land") -> Any:
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
            kind=kind,
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
        front = self.distances(self.march_targets())
        for u in sorted(w.units.values(), key=lambda u: u.id):
            ut = w.unit_type(u)
            if u.owner != self.power or not ut.is_land or u.moved or u.fought or u.aboard is not None:
                continue
            if u.at in guarding and self.threat(u.at) >= self.defence(u.at) - ut.defence:
                continue
            here = front.get(u.at, FAR)
            steps = [
                n
                for n in neighbours(self.world, u.at)
                if not self.world.is_sea(n)
                and front.get(n, FAR) < here
                and not hostile_land(self.world, n, self.power)
            ]
            for n in sorted(steps, key=lambda n: (front.get(n, FAR), n)):
                if self.play(Move(((u.type, 1),), u.at, n)):
                    break
        self.sweep_convoys()
        self.ferry(front)
        self.aircraft_to_bases()
        self.land_aircraft()

    # ------------------------------------------------------------------ convoys
    def convoy_targets(self) -> set[str]:
        """Convoy centres a warship of ours would take from the enemy, or take back."""
        w = self.world
        mine = w.side(self.power)
        out = set()
        for space, t in w.data.territories.items():
            owner = w.owner.get(space)
            if not t.convoy or owner is None:
                continue
            if (w.convoys.get(space) != mine) if w.enemies(owner, self.power) else space in w.convoys:
                out.add(space)
        return out

    def sweep_convoys(self) -> None:
        """Warships take the enemy's convoy centres and take back their own side's: every convoy
        held by the enemy is income lost and, in the linked game, surrender dice."""
        targets = self.convoy_targets()
        w = self.world
        ships = [
            u
            for u in w.units.values()
            if u.owner == self.power
            and w.unit_type(u).is_sea
            and w.unit_type(u).attack > 0
            and not u.moved
            and not u.fought
            and not u.submerged
        ]
        for ship in sorted(ships, key=lambda u: u.id):
            if not targets:
                return
            options = reachable(self.world, ship, combat=False)
            within = [z for z in options if z in targets]
            if not within:
                continue
            best = min(within, key=lambda z: (options[z], z))
            if self.play(Move(((ship.type, 1),), ship.at, best)):
                targets.discard(best)

    # ------------------------------------------------------------------ transports
    def idle_far(self, front: dict[str, int]) -> list[Unit]:
        """Land units that have not moved and have no way by land to anything worth taking (an
        island, another continent), except a capital's guard while it is threatened."""
        w = self.world
        threatened = set(self.threatened_capitals())
        return [
            u
            for u in w.units.values()
            if u.owner == self.power
            and w.unit_type(u).is_land
            and w.unit_type(u).transport_cost > 0
            and not w.is_sea(u.at)
            and not u.moved
            and not u.fought
            and front.get(u.at, FAR) >= FAR
            and u.at not in threatened
        ]

    def sea_distances(self, goals: set[str]) -> dict[str, int]:
        """Sea steps from every sea zone to the nearest of the sea zones ``goals``, through zones
        without enemy units (a transport may not end its move among them)."""
        w = self.world

        def open_sea(zone: str) -> bool:
            return w.is_sea(zone) and not any(w.enemies(u.owner, self.power) for u in w.at(zone))

        dist = {g: 0 for g in goals if open_sea(g)}
        queue = deque(dist)
        while queue:
            here = queue.popleft()
            for nxt in neighbours(w, here):
                if nxt not in dist and open_sea(nxt):
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        return dist

    def ferry(self, front: dict[str, int]) -> None:
        """Transports carry the armies that cannot march to the war: each group of transports in a
        sea zone takes aboard the idle land units beside it, sails towards the nearest friendly
        shore with the enemy at most two steps inland, and lands them there; empty, it sails
        towards the idle units."""
        w = self.world
        shores = {
            s
            for s, d in front.items()
            if 0 < d <= 2 and (holder := w.owner.get(s)) is not None and w.side(holder) == w.side(self.power)
        }
        drop_zones = {z for s in shores for z in neighbours(w, s) if w.is_sea(z)}
        # Weakly held enemy coasts too: the cargo storms them in the next combat move.
        weak = {
            s for s in self.enemy_lands() if sum(1 for u in w.at(s) if w.unit_type(u).fights) <= WEAK_COAST
        }
        assault_zones = {z for s in weak for z in neighbours(w, s) if w.is_sea(z)}
        to_drop = self.sea_distances(drop_zones | assault_zones)
        zones = sorted({u.at for u in w.units.values() if u.owner == self.power and w.is_sea(u.at)})
        for zone in zones:
            ships = [t for t in transports_at(self.world, zone, self.power) if not t.moved]
            if not ships:
                continue
            self.board(zone, ships, front)
            ships = [self.world.units[t.id] for t in ships if t.id in self.world.units]
            loaded = any(self.cargo(t) for t in ships)
            if loaded:
                goal = to_drop
            else:
                pickups = {
                    z
                    for u in self.idle_far(front)
                    for z in neighbours(self.world, u.at)
                    if self.world.is_sea(z)
                }
                goal = self.sea_distances(pickups)
            here = zone
            if goal.get(zone, FAR) > 0:
                options = reachable(self.world, ships[0], combat=False)
                best = min(
                    (z for z in options if self.world.is_sea(z)),
                    key=lambda z: (goal.get(z, FAR), options[z], z),
                    default=None,
                )
                kinds = tuple(sorted(Counter(t.type for t in ships).items()))
                if (
                    best is not None
                    and goal.get(best, FAR) < goal.get(zone, FAR)
                    and self.play(Move(kinds, zone, best))
                ):
                    here = best
            if loaded and here in drop_zones:
                self.land_cargo(here, shores, front)

    def cargo(self, transport: Unit) -> list[Unit]:
        return [u for u in self.world.units.values() if u.aboard == transport.id]

    def board(self, zone: str, ships: list[Unit], front: dict[str, int]) -> None:
        w = self.world
        room = sum(transport_room(w, t) for t in ships)
        for u in sorted(self.idle_far(front), key=lambda u: (-(w.unit_type(u).attack), u.id)):
            if room <= 0:
                return
            if zone not in neighbours(self.world, u.at):
                continue
            if not any(can_carry(self.world, t, u) for t in transports_at(self.world, zone, self.power)):
                continue
            if self.play(Move(((u.type, 1),), u.at, zone)):
                room -= self.world.unit_type(u).transport_cost

    def land_cargo(self, zone: str, shores: set[str], front: dict[str, int]) -> None:
        w = self.world
        beaches = sorted((s for s in neighbours(w, zone) if s in shores), key=lambda s: (front[s], s))
        aboard = [
            u
            for u in w.units.values()
            if u.at == zone and u.owner == self.power and u.aboard is not None and w.unit_type(u).is_land
        ]
        for u in sorted(aboard, key=lambda u: u.id):
            for beach in beaches:
                if self.play(Move(((u.type, 1),), zone, beach)):
                    break

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
            best = min(stranded, key=lambda a: (front.get(a.to, FAR), a.to))
            if not self.play(best):
                return

    def _may_stay(self, space: str, unit: str) -> bool:
        held = self.world.extra.get("held_at_start", {})
        return held.get(space) == self.world.side(self.power) or self.world.is_sea(space)

    def place(self) -> None:
        front = self.distances(self.march_targets())
        threatened = set(self.threatened_capitals())
        while True:
            offered = [parse_action(self.world.data, t) for t in legal_actions(self.world)]
            places = [a for a in offered if isinstance(a, Place)]
            if not places:
                return
            land = [a for a in places if not self.world.is_sea(a.at)]
            if land:
                best = min(land, key=lambda a: (a.at not in threatened, front.get(a.at, FAR), a.at))
            else:
                # Ships: beside the armies they are to carry, else anywhere offered.
                pickups = {
                    z
                    for u in self.idle_far(front)
                    for z in neighbours(self.world, u.at)
                    if self.world.is_sea(z)
                }
                best = min(places, key=lambda a: (a.at not in pickups, a.at))
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
