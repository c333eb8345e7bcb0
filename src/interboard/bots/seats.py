"""Bots in the seats of server games: which bots a family has, and a bot's orders as the texts a
person would submit (the service checks and stores them the same way)."""

from __future__ import annotations

import zlib
from typing import Any

DEFAULT_BOT = {"diplomacy": "heuristic", "globalwar": "greedy"}
"""The bot that takes over a seat whose player leaves, by family."""

GLOBALWAR_BOTS = ("greedy", "random")
MAX_GLOBALWAR_ACTIONS = 200
"""A bound on one step's actions, in case a bot never ends its step (each action is one army at least)."""


def bot_names(family: str) -> list[str]:
    """The bots a family's seats can be given (empty for a family without bots)."""
    if family == "diplomacy":
        from .diplomacy import BOTS

        return list(BOTS)
    if family == "globalwar":
        return list(GLOBALWAR_BOTS)
    return []


def seat_orders(family: str, state: dict[str, Any], seat: str, bot: str, seed: str) -> list[str]:
    """The orders bot ``bot`` gives for ``seat`` in the current phase of the family's state."""
    if family == "diplomacy":
        return _diplomacy_orders(state, seat, bot, seed)
    if family == "globalwar":
        return _globalwar_orders(state, seat, bot, seed)
    raise ValueError(f"no bots for the {family} family")


def _diplomacy_orders(state: dict[str, Any], seat: str, bot: str, seed: str) -> list[str]:
    from ..diplomacy.orders import format_order
    from ..formats.record import game_from_json
    from .diplomacy import Turn, make_bot

    game = game_from_json(state)
    board = game.board
    turn = Turn.of(board, game.position, seat, game.rulebook)
    return [format_order(board, o) for o in make_bot(bot, seed).orders(turn)]


def _globalwar_orders(state: dict[str, Any], seat: str, bot: str, seed: str) -> list[str]:
    """One service step of a Global War seat: the bot's actions until its step changes, up to and
    including an attack (whose dice the service rolls when it processes the step)."""
    from ..formats.globalwar import state_from_json
    from ..globalwar import Attack, Phase, Rules, action_text, player_id, step
    from .globalwar import GreedyBot, RandomBot

    s = state_from_json(Rules.from_json(state["rules"]), state["state"])
    if bot not in GLOBALWAR_BOTS:
        raise ValueError(f"no Global War bot {bot!r} (bots: {', '.join(GLOBALWAR_BOTS)})")
    step_seed = zlib.crc32(f"{seed}/{state.get('steps', 0)}".encode())
    chooser = GreedyBot(step_seed) if bot == "greedy" else RandomBot(step_seed)
    texts: list[str] = []
    start = (s.current, s.phase)
    while s.phase is not Phase.OVER and player_id(s.current) == seat and (s.current, s.phase) == start:
        action = chooser.choose(s)
        texts.append(action_text(s, action))
        if isinstance(action, Attack) or len(texts) >= MAX_GLOBALWAR_ACTIONS:
            break
        s, _ = step(s, action)
    return texts
