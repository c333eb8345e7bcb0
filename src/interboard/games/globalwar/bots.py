"""Global War bots. Both choose only among the actions :func:`legal_actions` lists, so they obey
every rule the engine enforces (team rules included) through the same interface a person uses."""

from __future__ import annotations

import random
from typing import Protocol

from . import (
    Action,
    Attack,
    Deploy,
    EndAttack,
    EndTurn,
    Fortify,
    GameState,
    MoveIn,
    Phase,
    Place,
    TradeCards,
    legal_actions,
)
from .legal import bounds_only


class GlobalWarBot(Protocol):
    def choose(self, state: GameState) -> Action:
        """An action for ``state.current``, one of ``legal_actions(state)``."""
        ...


class RandomBot:
    """Uniformly random among the legal actions (never surrenders unless told it may)."""

    def __init__(self, seed: int = 0, surrender: bool = False) -> None:
        self.rng = random.Random(seed)
        self.surrender = surrender

    def choose(self, state: GameState) -> Action:
        actions = legal_actions(state, surrender=self.surrender)
        if not actions:
            raise ValueError("no legal action: the game is over")
        return self.rng.choice(actions)


class GreedyBot:
    """Trades whenever it can, masses its armies on the strongest front, attacks while it outnumbers
    the defender, and fortifies from the interior to the front. With a partner it treats the
    partner's countries as friendly: it may reinforce them and fortify into them, never attacks them.
    """

    def __init__(self, seed: int = 0, margin: int = 1) -> None:
        self.rng = random.Random(seed)
        self.margin = margin
        """Start an attack when the source has at least this many armies more than the target."""
        self.committed: tuple[int, int] | None = None
        """An attack begun is pressed until the country falls or the source is spent: even stacks
        that stop at parity would trade armies for ever."""

    def choose(self, state: GameState) -> Action:
        actions = legal_actions(state, surrender=False, counts=bounds_only)
        if not actions:
            raise ValueError("no legal action: the game is over")
        s = state
        me = s.current
        friends = {me, s.partner(me)}
        adjacent = s.world.adjacent

        def threat(country: int) -> int:
            """Strongest enemy army next to ``country`` (0 on the interior)."""
            return max((s.armies[n] for n in adjacent[country] if s.owner[n] not in friends), default=0)

        def weakest_enemy(country: int) -> int:
            return min((s.armies[n] for n in adjacent[country] if s.owner[n] not in friends), default=0)

        trades = [a for a in actions if isinstance(a, TradeCards)]
        if trades:
            return trades[0]
        if s.phase is Phase.PLACEMENT:
            places = [a for a in actions if isinstance(a, Place)]
            return max(places, key=lambda a: (threat(a.country) > 0, s.armies[a.country], -a.country))
        deploys = [a for a in actions if isinstance(a, Deploy) and a.count == s.pool]
        if deploys:
            front = [a for a in deploys if threat(a.country) > 0] or deploys
            return max(
                front,
                key=lambda a: (
                    s.owner[a.country] == me,
                    s.armies[a.country] - weakest_enemy(a.country),
                    -a.country,
                ),
            )
        if s.phase is Phase.MOVE_IN:
            return max((a for a in actions if isinstance(a, MoveIn)), key=lambda a: a.count)
        full = [a for a in actions if isinstance(a, Attack) and a.dice == min(3, s.armies[a.source] - 1)]
        pressed = [a for a in full if (a.source, a.target) == self.committed]
        if pressed:
            return pressed[0]
        attacks = [a for a in full if s.armies[a.source] >= s.armies[a.target] + self.margin]
        if attacks:
            # Focus on the weakest enemy (eliminating a player ends games and takes its cards), and
            # on its biggest stack that can be beaten, before it grows.
            held = [s.owner.count(p) for p in range(s.players)]
            chosen = max(
                attacks,
                key=lambda a: (-held[s.owner[a.target]], s.armies[a.target], -a.target),
            )
            self.committed = (chosen.source, chosen.target)
            return chosen
        if any(isinstance(a, EndAttack) for a in actions):
            return EndAttack()
        fortifies = [
            a
            for a in actions
            if isinstance(a, Fortify)
            and threat(a.source) == 0
            and threat(a.target) > 0
            and a.count == s.armies[a.source] - 1
        ]
        if fortifies:
            return max(fortifies, key=lambda a: (a.count, -a.source, -a.target))
        if any(isinstance(a, EndTurn) for a in actions):
            return EndTurn()
        return self.rng.choice(actions)
