"""What a request may ask of a game: the bounds and choices that the API's schemas and the service
both check, what makes two player names one, and a new game's settings (:class:`NewGame`)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

PRESS_RULES = ("none", "broadcast", "full")
"""none: no press; broadcast: messages to everyone only; full: to any chosen seats or everyone."""
MISSED_ORDERS = ("default", "wait")
"""default: at the deadline, seats without orders get the rules' defaults (units hold, dislodged
units disband, builds are waived, removals by civil disorder); wait: the first time a deadline
passes with a player's orders missing, the deadline is extended once by the phase's time."""
MAX_ORDERS = 200
MAX_DEADLINE = 30 * 86400
"""The longest deadline, and the most a game master may extend one by: 30 days, in seconds."""
MAX_NAME = 100
"""The longest player name (the database column's size): refused beyond, never cut."""
BLANK = " \t\n\r"
"""What a blank name or message is made of: JSON's whitespace, as the schema's patterns say it
(regular expression engines disagree on what ``\\s`` is)."""
MAX_MESSAGE = 4000


@dataclass
class NewGame:
    variant: str = "standard"
    family: str | None = None
    """The variant's family; optional (the variant id says it), checked when given."""
    title: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    """Seeds every chance in the game; ``None`` (the default) draws one that no one sees. A chosen
    seed is shown in the game's public view, so players know the dice could be foreseen."""
    press: str = "full"
    deadlines: dict[str, int] = field(default_factory=dict)
    """Seconds per phase kind (the family's kinds: movement, retreats, adjustments for Diplomacy;
    turn for Global War); a kind without one waits for all."""
    seats: dict[str, str] = field(default_factory=dict)
    """Seat -> 'open' (the default), 'bot' (orders nothing: its units hold), 'bot:NAME' (a named bot,
    such as 'bot:heuristic', which orders every phase), or a player's name (the seat is assigned)."""
    autostart: bool = True
    missed_orders: str = "default"
    scenario: dict[str, Any] | None = None
    """A scenario (``interboard-scenario/1``, ``docs/scenarios.md``): the game starts from its position,
    with its options and seed unless the request gives them."""
    on_leave: str = "bot"
    """What a seat becomes when its player leaves a started game: 'bot' (the family's default bot,
    'bot:heuristic' for Diplomacy; an open seat if the family has no bots), 'bot:NAME', or 'open'
    (anyone may join it; until then it gives no orders). A seat left before the start is open."""


def name_key(name: str) -> str:
    """What tells two player names apart: Unicode's compatibility caseless match (its standard,
    3.13, D146: the name decomposed, case-folded and decomposed again, twice over), the spaces
    around and between its words counted as one. So "Émile" is "ÉMILE" and "E\u0301mile" (a
    combining accent) and "Ｅｍｉｌｅ" (full-width letters), "Straße" is "STRASSE"; "Emile" is
    another name."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFD", name).casefold())
    return " ".join(unicodedata.normalize("NFKD", folded.casefold()).split())


def has_nul(value: object) -> bool:
    """Whether JSON-like ``value`` holds a NUL character anywhere (PostgreSQL cannot store one)."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(has_nul(k) or has_nul(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(has_nul(v) for v in value)
    return False
