"""Rule options of a Global War game, as typed values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import OptionError


class Fortification(StrEnum):
    LIMITED = "limited"
    """One move from one country to one adjacent country."""
    UNLIMITED = "unlimited"
    """As many moves to adjacent countries as wanted, each country the source of at most one move."""
    CONNECTED = "connected"
    """One move along a chain of the player's own countries (Global War 2.40)."""


STARTING_ARMIES = {3: 35, 4: 30, 5: 25, 6: 20}
"""Armies each player starts with, by number of players (the classic counts)."""
TEAM_PLAYERS = 6
TEAM_SIZE = 2
MAPS = ("global_war", "classic_world")


@dataclass(frozen=True, slots=True)
class Rules:
    map: str = "global_war"
    """Shipped map the game is played on."""
    players: int = 6
    """3 to 6; a team game always has 6 (3 teams of 2)."""
    teams: bool = False
    """Team play: partners are players ``i`` and ``i + 3`` (P1 with P4, P2 with P5, P3 with P6)."""
    fortification: Fortification = Fortification.LIMITED
    non_sequential: bool = False
    """Deploying, trading and attacking may be mixed until the player ends its attacks (Global War 2.40)."""
    auto_placement: bool = False
    """Starting armies are placed at random (seeded) instead of one at a time by the players."""

    def __post_init__(self) -> None:
        if self.map not in MAPS:
            raise OptionError(f"unknown map {self.map!r} (maps: {', '.join(MAPS)})")
        if self.players not in STARTING_ARMIES:
            raise OptionError(f"a game has 3 to 6 players, not {self.players}")
        if self.teams and self.players != TEAM_PLAYERS:
            raise OptionError(f"a team game has {TEAM_PLAYERS} players (3 teams of 2), not {self.players}")
        if not isinstance(self.fortification, Fortification):
            raise OptionError(f"fortification must be one of {[f.value for f in Fortification]}")

    def to_json(self) -> dict[str, object]:
        return {
            "map": self.map,
            "players": self.players,
            "teams": self.teams,
            "fortification": self.fortification.value,
            "non_sequential": self.non_sequential,
            "auto_placement": self.auto_placement,
        }

    @classmethod
    def from_json(cls, data: object) -> Rules:
        if not isinstance(data, dict):
            raise OptionError("rules must be a JSON object")
        known = {"map", "players", "teams", "fortification", "non_sequential", "auto_placement"}
        unknown = set(data) - known
        if unknown:
            raise OptionError(f"unknown rule option(s) {sorted(unknown)} (known: {sorted(known)})")
        defaults = cls()
        try:
            fortification = Fortification(data.get("fortification", defaults.fortification.value))
        except ValueError:
            choices = [f.value for f in Fortification]
            raise OptionError(
                f"fortification must be one of {choices}, not {data['fortification']!r}"
            ) from None
        values: dict[str, object] = {}
        for key, kind in (
            ("map", str),
            ("players", int),
            ("teams", bool),
            ("non_sequential", bool),
            ("auto_placement", bool),
        ):
            value = data.get(key, getattr(defaults, key))
            if type(value) is not kind:
                raise OptionError(f"rule option {key!r} must be {kind.__name__}, not {value!r}")
            values[key] = value
        return cls(
            map=str(values["map"]),
            players=int(str(values["players"])),
            teams=bool(values["teams"]),
            fortification=fortification,
            non_sequential=bool(values["non_sequential"]),
            auto_placement=bool(values["auto_placement"]),
        )
