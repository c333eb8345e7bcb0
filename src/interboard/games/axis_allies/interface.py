"""What the game page offers an Axis & Allies player to click: the legal actions as a tree by space.

The page is generic (see the hex wargame's ``interface``): it lists the tree's top-level keys, a
space on the map or a group such as ``purchase``; a chosen key highlights the map spaces named
further down as targets, and offers the actions that involve the target clicked. Here a space's
subtree holds the moves out of it by unit (``GERMANY / armour / POLAND / move``), what may be placed
or converted there, and ``labels`` describe each space's units, so a stack opens on click.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import combat
from .actions import Buy, Convert, Move, Place, Transfer, action_text, parse_action
from .state import World


def stack_label(world: World, space: str) -> str:
    """``Poland: Germany 3 infantry, 1 armour; USSR 1 infantry``."""
    by_owner: dict[str, Counter[str]] = {}
    for u in world.at(space):
        by_owner.setdefault(u.owner, Counter())[world.unit_type(u).name] += 1
    parts = [
        f"{world.data.power(owner).name} " + ", ".join(f"{n} {name}" for name, n in sorted(units.items()))
        for owner, units in sorted(by_owner.items())
    ]
    return f"{world.space_name(space)}: " + ("; ".join(parts) if parts else "no units")


def battle_board(world: World) -> str:
    """The battle being fought, as the page's label for its decisions: where, which round, each side's
    units and what is asked (``Battle in Egypt, round 2: Germany 3 infantry, 1 armour against United
    Kingdom 2 infantry; UK: take 1 hit``)."""
    b = world.battle
    if b is None or b.get("kind") == "kamikaze" or "attacker" not in b:
        return "the battle's decision"

    def side(units: list[Any]) -> str:
        by_owner: dict[str, Counter[str]] = {}
        for u in units:
            by_owner.setdefault(u.owner, Counter())[world.unit_type(u).name] += 1
        return (
            "; ".join(
                f"{world.data.power(owner).name} " + ", ".join(f"{n} {name}" for name, n in sorted(c.items()))
                for owner, c in sorted(by_owner.items())
            )
            or "nothing"
        )

    asked = "; ".join(f"{power}: {text}" for power, text in sorted(b.get("asked", {}).items()))
    return (
        f"Battle in {world.space_name(b['at'])}, round {b.get('round', 1)}: "
        f"{side(combat.attackers(world))} against {side(combat.defenders(world))}"
        + (f"; {asked}" if asked else "")
    )


def option_tree(world: World, texts: list[str]) -> dict[str, Any]:
    """The page's tree for the legal action ``texts`` of a seat on ``world``.

    Quantities: a purchase is offered for each number of a unit the purse affords (``purchase /
    buy / infantry / 3``), each with its price and the money left (``notes``); a move, for each
    number of like units that stand ready together (unmoved, not aboard: any number of them may go
    where one may), so that "move 3 infantry from Finland to Vyborg" is one click."""
    orders: dict[str, Any] = {}
    labels: dict[str, str] = {}
    notes: dict[str, str] = {}

    def unit_name(unit: str) -> str:
        return world.data.units[unit].name

    ready: Counter[tuple[str, str]] = Counter(
        (u.at, u.type)
        for u in world.units.values()
        if u.owner == world.power and not u.moved and u.aboard is None and not u.submerged
    )

    for text in texts:
        try:
            action = parse_action(world.data, text)
        except ValueError:
            orders.setdefault("choices", {})[text] = text
            continue
        match action:
            case Move(units, frm, to, via, raid):
                node = orders.setdefault(frm, {}).setdefault(unit_name(units[0][0]), {})
                kind, (unit, _) = "raid" if raid else "move", units[0]
                # Into the sea only ships go freely: land units board and aircraft land on carriers,
                # each with room for so many, so those go one at a time.
                free = world.data.units[unit].is_sea or not world.is_sea(to)
                alike = ready[(frm, unit)] if free and not via else 0
                if alike > 1 and not raid:
                    node.setdefault(to, {})[kind] = {
                        str(n): action_text(world.data, Move(((unit, n),), frm, to))
                        for n in range(1, alike + 1)
                    }
                else:
                    node.setdefault(to, {})[kind] = text
            case Place(units, at):
                orders.setdefault(at, {}).setdefault("place", {})[unit_name(units[0][0])] = text
            case Convert(units, at):
                orders.setdefault(at, {}).setdefault("convert", {})[unit_name(units[0][0])] = text
            case Buy(units, economy):
                group = f"buy for {economy.title()}" if economy else "buy"
                unit = units[0][0]
                price = world.data.units[unit].cost or 0
                purse = world.ipcs.get(economy or world.data.power(world.power).economies[0].id, 0)
                counts: dict[str, str] = {}
                for n in range(1, (purse // price if price else 1) + 1):
                    bought = action_text(world.data, Buy(((unit, n),), economy))
                    counts[str(n)] = bought
                    notes[bought] = f"{price} IPCs each: {n * price} IPCs, {purse - n * price} left"
                orders.setdefault("purchase", {}).setdefault(group, {})[unit_name(unit)] = counts
            case Transfer():
                orders.setdefault("purchase", {}).setdefault("move money", {})[text] = text
            case _:  # a battle's answers: casualties, press on, retreat, submerge, kamikaze
                orders.setdefault("battle", {})[text] = text
    for key in orders:
        if key in world.data.territories:
            labels[key] = stack_label(world, key)
    purses = ", ".join(
        f"{n} IPCs" for n in (world.ipcs.get(e.id, 0) for e in world.data.power(world.power).economies)
    )
    labels.setdefault("purchase", f"purchase: units to buy ({purses} to spend), money to move")
    labels.setdefault("battle", battle_board(world))
    return {"orders": orders, "labels": {k: v for k, v in labels.items() if k in orders}, "notes": notes}
