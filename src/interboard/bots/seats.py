"""Bots in the seats of games: which bots a family offers, and a bot's submission as the texts a
person would submit (the service checks and stores them the same way)."""

from __future__ import annotations

import random

from ..games import family as get_family
from ..games.protocol import FamilyError, State
from .random_player import random_submission

GENERIC_BOTS = ("random",)
"""Bots that play any family through the protocol; a family's own bot of the same name wins."""


def bot_names(family: str) -> list[str]:
    """The bots a family's seats can be given: its own, then the generic ones."""
    own = list(get_family(family).bots)
    return own + [b for b in GENERIC_BOTS if b not in own]


def default_bot(family: str) -> str | None:
    """The bot that takes over a seat whose player leaves (``None``: the seat opens)."""
    return get_family(family).default_bot


def seat_actions(family: str, state: State, seat: str, bot: str, seed: str) -> list[str]:
    """The submission bot ``bot`` makes for ``seat`` at the current decision point."""
    fam = get_family(family)
    if bot in fam.bots:
        return fam.bot_actions(state, seat, bot, seed)
    if bot == "random":
        pending = fam.pending(state)
        return random_submission(fam, state, seat, random.Random(f"{seed}/{pending.phase}"))
    raise FamilyError(f"no bot {bot!r} in the {family} family (bots: {', '.join(bot_names(family))})")
