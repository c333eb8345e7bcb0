"""A game in progress: its rules, seed, player names, the actions played and their results."""

from __future__ import annotations

from dataclasses import dataclass, field

from .actions import Action, action_text, parse_action
from .engine import step
from .results import StepResult
from .rules import Rules
from .state import GameState, Phase, new_game, player_id


@dataclass
class Match:
    """The one mutable wrapper: everything else in the family is immutable values."""

    rules: Rules
    seed: int
    names: tuple[str, ...]
    state: GameState
    log: list[tuple[Action, StepResult]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    """The text of each action in ``log``, written when it was played (trades name hand positions)."""

    @classmethod
    def new(cls, rules: Rules, seed: int, names: tuple[str, ...] | None = None) -> Match:
        names = names or tuple(player_id(p) for p in range(rules.players))
        if len(names) != rules.players:
            raise ValueError(f"{len(names)} names for {rules.players} players")
        return cls(rules, seed, names, new_game(rules, seed))

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.OVER

    def play(self, action: Action) -> StepResult:
        """Apply one action of the player to act (raises IllegalAction, leaving the game unchanged)."""
        text = action_text(self.state, action)
        self.state, result = step(self.state, action)
        self.log.append((action, result))
        self.texts.append(text)
        return result

    def play_text(self, text: str) -> StepResult:
        return self.play(parse_action(self.state, text))

    @property
    def winner_names(self) -> tuple[str, ...]:
        return tuple(self.names[p] for p in self.state.winners)
