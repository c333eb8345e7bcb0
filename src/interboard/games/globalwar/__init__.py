"""Global War: a Risk-like rule family with team play, as a pure engine on the board layer.

``new_game(rules, seed)`` deals a game; ``step(state, action)`` applies one action of the player to
act and returns the next state and a typed result (every die rolled); ``legal_actions(state)`` lists
what that player may do. Actions are read from text by ``parse_action`` and written by ``action_text``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .actions import (
        Action,
        Attack,
        Deploy,
        EndAttack,
        EndTurn,
        Exchange,
        Fortify,
        Give,
        GiveContinent,
        MoveIn,
        Place,
        Surrender,
        TradeCards,
        action_text,
        parse_action,
    )
    from .engine import check, step
    from .errors import ActionSyntaxError, GlobalWarError, IllegalAction, OptionError
    from .game import Match
    from .legal import legal_actions, option_tree
    from .maps import World, world
    from .results import StepResult
    from .rules import MAPS, Fortification, Rules
    from .state import GameState, Phase, new_game, partner_of, player_id, reinforcements
    from .teams import FinishedGame, Standing, standings
else:
    from ..lazy import exports

    __getattr__ = exports(
        __name__,
        {
            ".actions": "Action Attack Deploy EndAttack EndTurn Exchange Fortify Give GiveContinent MoveIn "
            "Place Surrender TradeCards action_text parse_action",
            ".engine": "check step",
            ".errors": "ActionSyntaxError GlobalWarError IllegalAction OptionError",
            ".game": "Match",
            ".legal": "legal_actions option_tree",
            ".maps": "World world",
            ".results": "StepResult",
            ".rules": "MAPS Fortification Rules",
            ".state": "GameState Phase new_game partner_of player_id reinforcements",
            ".teams": "FinishedGame Standing standings",
        },
    )

__all__ = [
    "MAPS",
    "Action",
    "ActionSyntaxError",
    "Attack",
    "Deploy",
    "EndAttack",
    "EndTurn",
    "Exchange",
    "FinishedGame",
    "Fortification",
    "Fortify",
    "GameState",
    "Give",
    "GiveContinent",
    "GlobalWarError",
    "IllegalAction",
    "Match",
    "MoveIn",
    "OptionError",
    "Phase",
    "Place",
    "Rules",
    "Standing",
    "StepResult",
    "Surrender",
    "TradeCards",
    "World",
    "action_text",
    "check",
    "legal_actions",
    "new_game",
    "option_tree",
    "parse_action",
    "partner_of",
    "player_id",
    "reinforcements",
    "standings",
    "step",
    "world",
]
