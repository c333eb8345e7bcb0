"""What the game page offers a hex wargame player to click: the legal orders as a tree by hex.

The page is generic: it lists the tree's top-level keys (a stack's hex, or a group such as
``new units``), and when one is chosen it highlights the map places named further down as its
targets, then offers the orders that involve the target clicked. ``labels`` describe each key (the
stack's counters with their values and steps) and ``notes`` annotate an order (an attack's odds).
"""

from __future__ import annotations

import re
from typing import Any

from . import air, artillery, combat, inventions, movement, rules, supply
from .engine import seat_of
from .legal import arrival_hexes
from .state import AVAILABLE, SETUP, Unit, World


def _steps(unit: Unit) -> str:
    return f", {unit.steps} step{'s' if unit.steps != 1 else ''}" if unit.spec.type.steps > 1 else ""


NOUNS = {"corps": "corps", "div": "division", "cav": "cavalry", "fort": "fortress"}
"""What a counter is called after its factors, by its type's kind word (``GE-corps``: corps);
the other kinds' values already say what they are (HQ, Zeppelin, flyer, tank...)."""


def unit_words(world: World, unit: Unit, steps: bool = True) -> str:
    """A counter as players say it: "German 5-5-4 corps (GE-C01), 2 steps" (without the steps
    inside a sentence)."""
    nation = world.data.nation_names.get(unit.spec.nation, unit.spec.nation)
    noun = NOUNS.get(unit.spec.type.id.split("-")[1] if "-" in unit.spec.type.id else "", "")
    what = " ".join(w for w in (nation, _values(unit), noun) if w)
    return f"{what} ({unit.id})" + (_steps(unit) if steps else "")


def hex_words(world: World, ident: str) -> str:
    """A hex as players say it: "Liège (W4907)", or "W4907, forest" for a hex with no name."""
    h = world.data.geography.hex(ident)
    return f"{h.name} ({h.id})" if h.fields.get("name") else f"{h.id}, {h.terrain.replace('_', ' ')}"


CODE = re.compile(r"(?<![(\w-])([A-Z]{2}-[A-Z]+\d*|[A-Z]\d{4})(?![\w-])")
"""A counter's code (GE-C01) or a hex's (W4907), not already in brackets after its name."""


def in_words(world: World, line: str) -> str:
    """A log line with each counter and hex it names by code named as players do ("German 5-5-4
    corps (GE-C01) is reduced", "retreat to Liège (W4907)"); other words as they are."""

    def name(match: re.Match[str]) -> str:
        code = match.group(1)
        unit = world.units.get(code)
        if unit is not None:
            return unit_words(world, unit, steps=False)
        if code in world.data.geography.by_id:
            return hex_words(world, code)
        return code

    return CODE.sub(name, line)


def action_words(world: World, text: str) -> str:
    """An action of the tree in players' words, from its text (the words name every counter and
    hex by name with its code, so that the typed form stays learnable)."""
    words = text.split()

    def unit(ident: str) -> str:
        u = world.units.get(ident)
        return unit_words(world, u, steps=False) if u else ident

    def place(ident: str) -> str:
        try:
            return hex_words(world, ident)
        except KeyError:
            return ident

    match words:
        case ["move", u, h]:
            return f"Move {unit(u)} to {place(h)}"
        case ["hold", u]:
            return f"{unit(u)} stays where it is"
        case ["setup", u, h]:
            return f"Set up {unit(u)} in {place(h)}"
        case ["place", u, h]:
            return f"Bring {unit(u)} onto the map at {place(h)}"
        case ["withdraw", u]:
            return f"Withdraw {unit(u)}"
        case ["attack", h, "with", group]:
            n = len(group.split(","))
            return f"Attack {place(h)} with {n} unit{'s' if n != 1 else ''}"
        case ["bombard", h, "with", u]:
            return f"Bombard {place(h)} with {unit(u)}"
        case ["base", u, h]:
            return f"Base {unit(u)} at {place(h)}"
        case ["embark", t, z]:
            return f"Embark {unit(t)} on {unit(z)}"
        case ["sortie", z, h]:
            return f"Send {unit(z)} on a sortie to {place(h)}"
        case ["mission", f, "escort", other]:
            return f"{unit(f)} escorts {unit(other)}"
        case ["mission", f, kind, h]:
            return f"{unit(f)}: {kind} mission over {place(h)}"
        case ["intercept", h, "with", f]:
            return f"Intercept over {place(h)} with {unit(f)}"
        case ["retreat", h]:
            return f"Retreat to {place(h)}"
        case ["advance", group, "then", h]:
            return f"Advance into the hex won, then on to {place(h)}"
        case ["advance", group]:
            return "Advance into the hex won"
        case ["stay"]:
            return "Stay: do not advance"
        case ["storm", h]:
            return f"Storm in {place(h)}"
    return text


def _values(unit: Unit) -> str:
    a, d, m = unit.factors()
    kind = unit.kind
    if kind == "hq":
        dice, kill = unit.spec.type.guns
        values = f"HQ {dice}-{kill}"
    elif kind == "zeppelin":
        values = f"Zeppelin {a}-{d}-{m}" + (" improved" if unit.improved else "")
    elif kind == "flyer":
        values = f"{unit.spec.type.role} flyer"
    elif kind in ("tank", "afb", "generator"):
        values = {"tank": "tank", "afb": "armoured front buster", "generator": "generator"}[kind]
    else:
        values = f"{a}-{d}-{m}" + (" crack" if unit.crack else "")
    return values


def stack_label(world: World, cell: int) -> str:
    geo = world.data.geography
    h = geo.hexes[cell]
    units = sorted(world.at(cell), key=lambda u: u.id)
    return f"{hex_words(world, h.id)}: " + "; ".join(unit_words(world, u) for u in units)


def option_tree(world: World, seat: str) -> dict[str, Any]:
    """The page's tree for ``seat`` now (empty when it has nothing to decide), with each action
    in players' words (``words``) and each hex it names by name (``place_names``)."""
    tree = _option_tree(world, seat)
    if not tree:
        return tree
    texts: list[str] = []
    keys: set[str] = set()
    _walk(tree["orders"], texts, keys)
    geo = world.data.geography
    tree["words"] = {text: action_words(world, text) for text in texts}
    tree["place_names"] = {key: hex_words(world, key) for key in sorted(keys) if key.upper() in geo.by_id}
    return tree


def _walk(node: dict[str, Any], texts: list[str], keys: set[str]) -> None:
    """The tree's action texts and keys, into ``texts`` and ``keys`` (a function of its own: one
    nested in its caller would hold itself in its closure, a cycle for the garbage collector)."""
    for key, child in node.items():
        keys.add(key)
        if isinstance(child, str):
            texts.append(child)
        else:
            _walk(child, texts, keys)


def _option_tree(world: World, seat: str) -> dict[str, Any]:
    geo = world.data.geography
    orders: dict[str, Any] = {}
    notes: dict[str, str] = {}
    labels: dict[str, str] = {}

    def hexid(c: int) -> str:
        return geo.hexes[c].id

    def add(key: str, unit: str, target: str, text: str) -> None:
        orders.setdefault(key, {}).setdefault(unit, {})[target] = text

    if world.stage == "over":
        return {}
    if world.stage == "setup":
        for unit in rules.setup_units(world, seat):
            for c in rules.setup_hexes(world, unit):
                add("set-up", unit.id, hexid(c), f"setup {unit.id} {hexid(c)}")
        labels["set-up"] = "counters the set-up rules place"
        return {"orders": orders, "labels": labels, "notes": notes}
    if world.decision is not None:
        d = world.decision
        if d["seat"] != seat:
            return {}
        if d["kind"] == "retreat":
            orders[d["hex"]] = {h: f"retreat {h}" for h in d["options"]}
        elif d["kind"] == "advance":
            group = ",".join(d["units"])
            orders[d["hex"]] = {"advance": f"advance {group}", "stay": "stay"}
            for h in d.get("onward", []):
                orders[d["hex"]][h] = f"advance {group} then {h}"
        elif d["kind"] == "storms":
            orders["storms"] = {hexid(c): f"storm {hexid(c)}" for c in inventions.storm_hexes(world)}
        for key in orders:
            if key in geo.by_id:
                labels[key] = stack_label(world, geo.hex(key).index)
        return {"orders": orders, "labels": labels, "notes": notes}
    if seat != seat_of(world):
        return {}
    phase = world.phase_name
    maps = supply.supply_maps(world)
    if phase == "new_units":
        for unit in sorted(world.units.values(), key=lambda u: u.id):
            if unit.where == AVAILABLE and world.side_of(unit) == seat:
                for c in arrival_hexes(world, unit, maps):
                    add("new units", unit.id, hexid(c), f"place {unit.id} {hexid(c)}")
        for u in world.on_map():
            if world.side_of(u) == seat and world.operational == 1 and rules.may_withdraw(world, u) is None:
                add(hexid(u.hex or 0), u.id, "withdraw", f"withdraw {u.id}")
        labels["new units"] = "units waiting to be placed"
    elif phase == "movement":
        for unit in world.on_map():
            if unit.hex is None or world.side_of(unit) != seat or unit.id in world.moved:
                continue
            if movement.allowance(world, unit) <= 0:
                continue
            destinations = movement.destinations(world, unit, maps)
            for c in destinations:
                add(hexid(unit.hex), unit.id, hexid(c), f"move {unit.id} {hexid(c)}")
            if destinations:  # staying put, said aloud: the unit is done for this phase
                add(hexid(unit.hex), unit.id, "hold", f"hold {unit.id}")
    elif phase == "combat" and not world.extra.get("attacked_now"):
        for cell in combat.targets(world):
            attackers = combat.attackers_for(world, cell)
            text = f"attack {hexid(cell)} with {','.join(u.id for u in attackers)}"
            odds = combat.odds(world, cell, attackers, maps)
            shifts = f", {odds.shifts} shift{'s' if odds.shifts != 1 else ''} left" if odds.shifts else ""
            notes[text] = f"{odds.attack} to {odds.defence}: {odds.name(world.data.column_names)}{shifts}"
            for home in sorted({u.hex for u in attackers if u.hex is not None}):
                orders.setdefault(hexid(home), {})[hexid(cell)] = text
    elif phase == "bombard":
        for hq in artillery.gunners(world):
            for c in artillery.targets_of(world, hq):
                add(hexid(hq.hex or 0), hq.id, hexid(c), f"bombard {hexid(c)} with {hq.id}")
    elif phase in ("zeppelin_base_change", "flyer_base_change"):
        for unit, options in air.base_changers(world):
            for c in options:
                add(hexid(unit.hex or 0), unit.id, hexid(c), f"base {unit.id} {hexid(c)}")
    elif phase == "airmobile_embarkation":
        for troop, zeppelin in air.boardings(world):
            add(hexid(zeppelin.hex or 0), zeppelin.id, troop.id, f"embark {troop.id} {zeppelin.id}")
    elif phase == "zeppelin_sortie":
        for z in air.sortie_ready(world):
            for c in air.sortie_hexes(world, z):
                add(hexid(z.hex or 0), z.id, hexid(c), f"sortie {z.id} {hexid(c)}")
    elif phase == "mission_allocation":
        for f in air.mission_ready(world):
            for mission in ("sweep", "light", "heavy"):
                if air.role(f) in air.MISSION_ROLES[mission]:
                    for c in air.mission_targets(world, f, mission):
                        add(hexid(f.hex or 0), f.id, hexid(c), f"mission {f.id} {mission} {hexid(c)}")
            if air.role(f) == "F":
                for other in air.escorts_for(world, f):
                    add(hexid(f.hex or 0), f.id, f"escort {other}", f"mission {f.id} escort {other}")
    elif phase == "interception":
        for f in air.interceptors(world):
            for c in air.interception_targets(world, f):
                add(hexid(f.hex or 0), f.id, hexid(c), f"intercept {hexid(c)} with {f.id}")
    for key in orders:
        if key in geo.by_id:
            labels[key] = stack_label(world, geo.hex(key).index)
    return {"orders": orders, "labels": labels, "notes": notes}


__all__ = [
    "SETUP",
    "action_words",
    "hex_words",
    "in_words",
    "option_tree",
    "stack_label",
    "unit_words",
]
