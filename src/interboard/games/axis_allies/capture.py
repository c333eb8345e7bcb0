"""What moving and fighting change on the map: a territory taken or liberated (and the purse of a
capital taken), a land no one held claimed, a convoy centre passed by a warship.

Below the combat step and the turn's steps, which both take territories.
"""

from __future__ import annotations

from .layers import hooks
from .state import Unit, World


def take_territory(world: World, space: str, power: str, blitz: bool = False) -> None:
    """``power``'s land units take ``space``: it passes to ``power``, or back to its original owner
    when that is an ally whose capital its side holds (liberation); a capital taken gives the captor
    the IPCs of the economy whose capital it was."""
    t = world.data.territories[space]
    previous = world.owner.get(space)
    original = t.original_owner or t.owner
    new = power
    if original is not None and not world.enemies(original, power) and original != power:
        capital = world.data.power(original).capital
        holder = world.owner.get(capital)
        if holder is not None and not world.enemies(holder, original):
            new = original  # liberated
    world.owner[space] = new
    for u in world.at(space):
        ut = world.unit_type(u)
        if world.enemies(u.owner, power) and (
            ut.has("factory") or ut.has("infrastructure") or ut.has("anti_aircraft")
        ):
            u.owner = new  # factories, bases and AA guns change hands
    world.extra.setdefault("conquered", []).append(space)
    how = "blitzes through" if blitz else "takes"
    world.log.append(f"{power} {how} {world.space_name(space)}" + (f" for {new}" if new != power else ""))
    if previous is not None and world.enemies(previous, power):
        for power_ in world.data.powers:
            for economy in power_.economies:
                if economy.capital == space and power_.id == previous:
                    loot = world.ipcs.get(economy.id, 0)
                    world.ipcs[economy.id] = 0
                    gain = world.data.power(power).economies[0].id
                    world.ipcs[gain] = world.ipcs.get(gain, 0) + loot
                    world.captured_capitals[space] = world.round
                    for taken in hooks(world).capital_taken:
                        taken(world, space, previous)
                    world.log.append(
                        f"{power} captures the capital {world.space_name(space)} and its {loot} IPCs"
                    )


def claim_unowned(world: World, space: str, power: str) -> None:
    """A land no one holds passes to the first power whose land units enter it (the data's cards with
    no owner: the linked world's Rocky Mountains and Great Plains)."""
    t = world.data.territories[space]
    if space in world.owner or t.neutral or world.is_sea(space):
        return
    world.owner[space] = power
    world.log.append(f"{power} takes {world.space_name(space)}, which no one held")


def pass_convoy(world: World, unit: Unit, space: str) -> None:
    """A warship entering or passing a convoy centre of the other side takes control of it; a
    warship of the owner's side takes it back (transports never do)."""
    t = world.data.territories[space]
    if not t.convoy or world.unit_type(unit).attack <= 0:
        return
    owner = world.owner.get(space)
    if owner is None:
        return
    if world.enemies(owner, unit.owner):
        if world.convoys.get(space) != world.side(unit.owner):
            world.convoys[space] = world.side(unit.owner)
            world.log.append(
                f"{unit.owner} takes the convoy centre {world.space_name(space)} ({t.convoy} IPCs)"
            )
    elif space in world.convoys:
        world.convoys.pop(space)
        world.log.append(f"{unit.owner} clears the convoy centre {world.space_name(space)}")
