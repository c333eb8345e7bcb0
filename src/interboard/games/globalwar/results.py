"""Typed results: what one step did, including every die rolled."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Placed:
    player: int
    country: int


@dataclass(frozen=True, slots=True)
class Deployed:
    player: int
    country: int
    count: int
    owner: int
    """Who the armies belong to: the player, or in team play its partner."""


@dataclass(frozen=True, slots=True)
class Traded:
    player: int
    cards: tuple[int, ...]
    armies: int
    bonus_country: int | None
    """A traded country the player holds, which received 2 extra armies."""


@dataclass(frozen=True, slots=True)
class Battle:
    source: int
    target: int
    attack_dice: tuple[int, ...]
    defence_dice: tuple[int, ...]
    attacker_lost: int
    defender_lost: int


@dataclass(frozen=True, slots=True)
class Captured:
    player: int
    country: int
    from_player: int


@dataclass(frozen=True, slots=True)
class MovedIn:
    source: int
    target: int
    count: int


@dataclass(frozen=True, slots=True)
class Eliminated:
    player: int
    by: int
    cards: tuple[int, ...]
    """Cards passed to ``by``."""


@dataclass(frozen=True, slots=True)
class Fortified:
    player: int
    source: int
    target: int
    count: int
    to_player: int
    """Owner of the armies after the move (the partner, when moved into its country)."""


@dataclass(frozen=True, slots=True)
class Exchanged:
    player: int
    partner: int
    own: int
    partners: int


@dataclass(frozen=True, slots=True)
class Given:
    player: int
    partner: int
    countries: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Surrendered:
    player: int
    to: int


@dataclass(frozen=True, slots=True)
class CardDrawn:
    player: int
    card: int


@dataclass(frozen=True, slots=True)
class TurnBegan:
    player: int
    turn: int
    reinforcements: int


@dataclass(frozen=True, slots=True)
class GameWon:
    winners: tuple[int, ...]


Event = (
    Placed
    | Deployed
    | Traded
    | Battle
    | Captured
    | MovedIn
    | Eliminated
    | Fortified
    | Exchanged
    | Given
    | Surrendered
    | CardDrawn
    | TurnBegan
    | GameWon
)


@dataclass(frozen=True, slots=True)
class StepResult:
    player: int
    """Who acted."""
    events: tuple[Event, ...]

    @property
    def dice(self) -> list[Battle]:
        return [e for e in self.events if isinstance(e, Battle)]
