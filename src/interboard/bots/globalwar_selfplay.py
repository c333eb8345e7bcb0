"""Self-play adapter of the Global War family: its bots (:mod:`interboard.bots.globalwar`) play whole
games; each is written as a Global War record (``interboard-globalwar/1``), which replays from its seed."""

from __future__ import annotations

import time
from typing import Any

from ..formats.globalwar import match_to_json
from ..globalwar import MAPS, Match, Rules, action_text, player_id
from ..selfplay import GameResult, GameSpec
from .globalwar import GlobalWarBot, GreedyBot, RandomBot

TEAMS = "_teams"
"""Suffix of a variant id for the team game (6 players, partners i and i + 3)."""
MAX_ACTIONS = 200_000
"""A game still going after this many actions is stopped (a draw among the players left)."""


def _rules(variant: str) -> Rules:
    teams = variant.endswith(TEAMS)
    return Rules(map=variant.removesuffix(TEAMS), players=6, teams=teams, auto_placement=True)


class GlobalWarSelfPlay:
    name = "globalwar"

    def variants(self) -> list[str]:
        return [v for m in MAPS for v in (m, m + TEAMS)]

    def seats(self, variant: str) -> list[str]:
        return [player_id(p) for p in range(_rules(variant).players)]

    def bots(self) -> list[str]:
        return ["greedy", "random"]

    def play(self, spec: GameSpec) -> tuple[GameResult, dict[str, Any]]:
        started = time.perf_counter()
        rules = _rules(spec.variant)
        names = tuple(seat for seat, _ in spec.seats)
        match = Match.new(rules, spec.seed, names)
        bots: list[GlobalWarBot] = [
            GreedyBot(spec.seed * 10 + k) if name == "greedy" else RandomBot(spec.seed * 10 + k)
            for k, (_, name) in enumerate(spec.seats)
        ]
        actions: list[str] = []
        while not match.over and len(actions) < MAX_ACTIONS:
            if spec.max_year is not None and match.state.turn > spec.max_year:
                break
            state = match.state
            action = bots[state.current].choose(state)
            actions.append(action_text(state, action))
            match.play(action)
        state = match.state
        scores = {names[p]: len(state.countries_of(p)) for p in range(len(names))}
        result = GameResult(
            index=spec.index,
            seats=dict(spec.seats),
            winners=match.winner_names,
            survivors=tuple(n for n in names if scores[n]),
            scores=scores,
            phases=len(actions),
            years=state.turn,
            seconds=time.perf_counter() - started,
        )
        # The game's own record (it replays from the seed), with the bot in each seat.
        record = match_to_json(match) | {
            "variant": spec.variant,
            "bots": {seat: f"bot:{name}" for seat, name in spec.seats},
        }
        return result, record
