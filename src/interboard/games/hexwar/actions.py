"""Action texts of the hex wargame family, parsed into typed actions and printed back.

setup GE-C40 E0214                  a set-up rule's placement
place FR-C20 W6720                  a new unit into play
withdraw BR-C03                     a British unit off England to the available box
move GE-C01 W4805                   a unit to a hex it can reach (the cheapest path is taken)
hold GE-C01                         the unit stays (lets a submission say so)
bombard W4907 with GE-H02           an HQ's monstrous artillery designates its target
attack W4907 with GE-C05,GE-C06     an attack (a tank joins with the infantry of its hex)
retreat W5008                       the defender's retreat hex
advance GE-C05,GE-C06               into the hex emptied by the attack
advance GE-C05,GE-T01 then W5008    a stack with its tank goes on a second hex
stay                                no advance
storm W6720                         a storm marker of a weather control device
base GE-Z01 W4606                   an air unit changes base
embark GE-D01 GE-Z01                a crack troop boards a Zeppelin in its hex
sortie GE-Z01 W5807                 a Zeppelin sorties (and lands its passenger there)
mission FR-E01 sweep W4706          a flyer's mission: sweep, light or heavy at a hex
mission FR-E02 escort FR-E05        a fighter escorts a CS or B flyer on its mission
intercept W4706 with FR-E01,FR-E02  fighters of the side not moving intercept
"""

from __future__ import annotations

from dataclasses import dataclass

from .gamedata import GameData


class ActionSyntaxError(ValueError):
    """An action text that cannot be read; the message says what was expected."""


@dataclass(frozen=True)
class Action:
    verb: str
    units: tuple[str, ...] = ()
    hex: str = ""
    onward: str = ""
    """The second hex of a tank's advance."""
    mission: str = ""

    def text(self) -> str:
        units = ",".join(self.units)
        if self.verb == "mission":
            target = self.hex or self.units[-1]
            return f"mission {self.units[0]} {self.mission} {target}"
        if self.verb == "embark":
            return f"embark {self.units[0]} {self.units[1]}"
        if self.verb in ("setup", "place", "move", "base", "sortie"):
            return f"{self.verb} {units} {self.hex}"
        if self.verb == "advance":
            return f"advance {units}" + (f" then {self.onward}" if self.onward else "")
        if self.verb in ("withdraw", "hold"):
            return f"{self.verb} {units}"
        if self.verb in ("attack", "bombard", "intercept"):
            return f"{self.verb} {self.hex} with {units}"
        if self.verb in ("retreat", "storm"):
            return f"{self.verb} {self.hex}"
        return self.verb


USAGE = {
    "setup": "setup UNIT HEX",
    "place": "place UNIT HEX",
    "move": "move UNIT HEX",
    "withdraw": "withdraw UNIT",
    "hold": "hold UNIT",
    "attack": "attack HEX with UNIT,UNIT,...",
    "bombard": "bombard HEX with HQ",
    "retreat": "retreat HEX",
    "advance": "advance UNIT,UNIT,... [then HEX]",
    "stay": "stay",
    "storm": "storm HEX",
    "base": "base UNIT HEX",
    "embark": "embark TROOP ZEPPELIN",
    "sortie": "sortie ZEPPELIN HEX",
    "mission": "mission FLYER sweep|light|heavy HEX, or mission FLYER escort FLYER",
    "intercept": "intercept HEX with FIGHTER,FIGHTER,...",
}


def _unit(data: GameData, text: str) -> str:
    uid = text.strip().upper()
    if uid not in data.counter_by_id:
        raise ActionSyntaxError(f"{text.strip()!r} is not a counter of this game (ids look like GE-C01)")
    return uid


def _hex(data: GameData, text: str) -> str:
    hid = text.strip().upper()
    if hid not in data.geography.by_id:
        prefixes = "/".join(m.grid.prefix for m in data.geography.maps)
        raise ActionSyntaxError(
            f"{text.strip()!r} is not a hex of the maps (hex ids look like {prefixes}CCRR)"
        )
    return hid


def parse_action(data: GameData, text: str) -> Action:
    words = text.split()
    if not words:
        raise ActionSyntaxError("empty action")
    verb = words[0].lower()
    if verb not in USAGE:
        raise ActionSyntaxError(f"unknown action {words[0]!r} (actions: {', '.join(USAGE)})")
    rest = words[1:]

    def usage() -> ActionSyntaxError:
        return ActionSyntaxError(f"{text.strip()!r}: write {USAGE[verb]}")

    if verb == "mission":
        if len(rest) != 3 or rest[1].lower() not in ("sweep", "escort", "light", "heavy"):
            raise usage()
        kind = rest[1].lower()
        if kind == "escort":
            return Action(verb, (_unit(data, rest[0]), _unit(data, rest[2])), mission=kind)
        return Action(verb, (_unit(data, rest[0]),), _hex(data, rest[2]), mission=kind)
    if verb == "embark":
        if len(rest) != 2:
            raise usage()
        return Action(verb, (_unit(data, rest[0]), _unit(data, rest[1])))
    if verb in ("setup", "place", "move", "base", "sortie"):
        if len(rest) != 2:
            raise usage()
        return Action(verb, (_unit(data, rest[0]),), _hex(data, rest[1]))
    if verb in ("withdraw", "hold"):
        if len(rest) != 1:
            raise usage()
        return Action(verb, (_unit(data, rest[0]),))
    if verb in ("attack", "bombard", "intercept"):
        if len(rest) < 3 or rest[1].lower() != "with":
            raise usage()
        units = tuple(_unit(data, u) for u in "".join(rest[2:]).split(",") if u)
        return Action(verb, units, _hex(data, rest[0]))
    if verb in ("retreat", "storm"):
        if len(rest) != 1:
            raise usage()
        return Action(verb, (), _hex(data, rest[0]))
    if verb == "advance":
        onward = ""
        if len(rest) >= 2 and rest[-2].lower() == "then":
            onward, rest = _hex(data, rest[-1]), rest[:-2]
        units = tuple(_unit(data, u) for u in "".join(rest).split(",") if u)
        if not units:
            raise usage()
        return Action(verb, units, onward=onward)
    if rest:
        raise usage()
    return Action(verb)
