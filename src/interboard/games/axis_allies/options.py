"""The rule options of the Axis & Allies family: every point where printings, house practice or
TripleA differ is a named option; the defaults and the reasons are in ``docs/rules/axis-allies.md``."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from ..protocol import Option, OptionValue
from .gamedata import LAYERS


@dataclass(frozen=True, slots=True)
class Options:
    dice: str = "dice"
    """``dice``: a die per shot; ``low_luck``: hits = total ÷ 6 and the remainder rolled, AA fire too."""
    max_rounds: int = 0
    """End the game as a draw after this round (0: play on until a side wins)."""
    defending_subs_first_strike: bool = False
    """Defending submarines fire first too (TripleA's setting for these games: off)."""
    air_needs_destroyer: bool = True
    """Aircraft hit submarines only with a friendly destroyer in the battle (TripleA's notes for Europe)."""
    bombard_return_fire: bool = True
    """Units hit by shore bombardment still fire back in that round."""
    surprise_attack: bool = True
    """Pacific: in Japan's first turn the Allies defend at 1 in the first round of each battle."""
    kamikaze_hit: int = 2
    """Pacific: a kamikaze token hits its ship on this number or less."""
    bases: bool = True
    """Pacific: airfields and harbours give +1 movement to aircraft and ships leaving them."""
    convoy_routes: bool = True
    """Pacific: an island's income is lost while an enemy warship is in its convoy sea zone."""
    uk_ipc_loss_modifier: bool = False
    """Linked game: the UK's struck-through surrender modifier (every 10 IPCs lost to the Axis)."""
    combat_air_patrol: bool = True
    """Linked game: fighters that did not fly in the combat move may patrol over a friendly sea zone or
    territory in the non-combat move, defending there and blocking enemy surface ships until their
    owner's next turn."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Options:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


HELP = {
    "dice": ("dice or low_luck (hits = total ÷ 6, the remainder rolled; AA fire too)", ("dice", "low_luck")),
    "max_rounds": ("a draw after this round (0: until a side wins)", ()),
    "defending_subs_first_strike": ("defending submarines fire first too", ()),
    "air_needs_destroyer": ("aircraft hit submarines only with a friendly destroyer present", ()),
    "bombard_return_fire": ("units hit by shore bombardment fire back", ()),
    "surprise_attack": ("Pacific: the Allies defend at 1 in the first round of Japan's first turn", ()),
    "kamikaze_hit": ("Pacific: a kamikaze hits on this number or less", ()),
    "bases": ("Pacific: airfields and harbours give +1 movement", ()),
    "convoy_routes": (
        "Pacific: an island's income is lost while an enemy warship sits on its convoy route",
        (),
    ),
    "uk_ipc_loss_modifier": ("linked game: the UK's struck-through surrender modifier", ()),
    "combat_air_patrol": ("linked game: fighters may patrol over a friendly space until their next turn", ()),
}
BOUNDS = {"max_rounds": (0, 100), "kamikaze_hit": (1, 6)}
PACIFIC_ONLY = {"surprise_attack", "kamikaze_hit", "bases", "convoy_routes"}
LAYER_ONLY = {"uk_ipc_loss_modifier": "linked", "combat_air_patrol": "linked"}
"""Options of a rule layer (:mod:`.layers`): offered by the games that play with it."""


def option_specs(game: str) -> tuple[Option, ...]:
    """The options a variant offers, for the protocol (typed, bounded, with their defaults)."""
    out = []
    default = Options()
    for f in fields(Options):
        if f.name in PACIFIC_ONLY and game == "aa_europe_1999":
            continue
        if f.name in LAYER_ONLY and LAYER_ONLY[f.name] not in LAYERS.get(game, ()):
            continue
        value: OptionValue = getattr(default, f.name)
        text, choices = HELP[f.name]
        low, high = BOUNDS.get(f.name, (None, None))
        out.append(Option(f.name, value, text, choices, low, high))
    return tuple(out)
