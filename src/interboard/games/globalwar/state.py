"""The immutable state of a Global War game and its setup (seeded deal and starting armies)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from ... import rng
from . import cards
from .maps import World, world
from .rules import STARTING_ARMIES, TEAM_SIZE, Rules


class Phase(StrEnum):
    PLACEMENT = "placement"
    """Players place their starting armies one at a time, in turn."""
    DEPLOY = "deploy"
    """The player to act places its reinforcements (and trades cards)."""
    ATTACK = "attack"
    MOVE_IN = "move_in"
    """A country was captured: the attacker says how many armies move in."""
    FORTIFY = "fortify"
    """After attacking: one fortification move, or in team play Fortify, Exchange or Give."""
    OVER = "over"


@dataclass(frozen=True, slots=True)
class PendingMove:
    """A capture waiting for the attacker's move-in."""

    source: int
    target: int
    minimum: int
    """The number of dice rolled in the capturing attack."""
    maximum: int
    """Every army of the source but one."""


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything a Global War position is; players are indices ``0..n-1`` (``P1``..``Pn``)."""

    rules: Rules
    owner: tuple[int, ...]
    """Player holding each country."""
    armies: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    """Cards of each player in :func:`~interboard.globalwar.cards.hand_order`."""
    deck: tuple[int, ...]
    """Draw pile, top first."""
    discard: tuple[int, ...]
    sets_traded: int
    phase: Phase
    current: int
    """Player to act."""
    turn: int
    """Player-turns begun so far (0 during placement)."""
    to_place: tuple[int, ...]
    """Starting armies each player has still to place."""
    pool: int
    """Armies the current player has still to deploy."""
    captured: bool
    """The current player captured a country this turn (it draws a card at the turn's end)."""
    pending: PendingMove | None
    fortified_from: frozenset[int]
    """Countries already used as a fortification source this turn (Unlimited fortification)."""
    fortify_chosen: bool
    """The player chose Fortify this turn, which excludes Exchange and Give."""
    out: tuple[bool, ...]
    """Eliminated (or surrendered) players."""
    rng: int
    winners: tuple[int, ...] = ()
    """Players who won (the surviving members of the winning team), once the game is over."""

    @property
    def world(self) -> World:
        return world(self.rules.map)

    @property
    def players(self) -> int:
        return self.rules.players

    def countries_of(self, player: int) -> list[int]:
        return [c for c, p in enumerate(self.owner) if p == player]

    def partner(self, player: int) -> int | None:
        return partner_of(self.rules, player)


def player_id(player: int) -> str:
    return f"P{player + 1}"


def player_index(rules: Rules, ident: str) -> int | None:
    text = ident.strip().upper()
    if text.startswith("P") and text[1:].isdigit():
        n = int(text[1:]) - 1
        if 0 <= n < rules.players:
            return n
    return None


def partner_of(rules: Rules, player: int) -> int | None:
    """The partner in a team game: players ``i`` and ``i + 3`` form a team."""
    if not rules.teams:
        return None
    half = rules.players // TEAM_SIZE
    return (player + half) % rules.players


def team_of(rules: Rules, player: int) -> tuple[int, ...]:
    partner = partner_of(rules, player)
    return (player,) if partner is None else tuple(sorted((player, partner)))


def reinforcements(state: GameState, player: int) -> tuple[int, list[str]]:
    """Armies a player receives at the start of its turn, and the continents that gave a bonus."""
    w = state.world
    owned = sum(1 for p in state.owner if p == player)
    total = max(3, owned // 3)
    bonuses = []
    for _, name, members, bonus in w.continents:
        if all(state.owner[c] == player for c in members):
            total += bonus
            bonuses.append(name)
    return total, bonuses


def new_game(rules: Rules, seed: int) -> GameState:
    """The seeded deal: countries dealt round the table one army each, the deck shuffled.

    With ``auto_placement`` the starting armies are placed at random at once and the first player's
    turn begins; otherwise the players place them one at a time, ``P1`` first.
    """
    w = world(rules.map)
    state_rng = rng.seed_state(seed)
    state_rng, order = rng.shuffled(state_rng, tuple(range(w.size)))
    owner = [0] * w.size
    for k, country in enumerate(order):
        owner[country] = k % rules.players
    armies = [1] * w.size
    to_place = [STARTING_ARMIES[rules.players] - owner.count(p) for p in range(rules.players)]
    state_rng, deck = rng.shuffled(state_rng, cards.deck_for(w.size))
    if rules.auto_placement:
        mine = [[c for c in range(w.size) if owner[c] == p] for p in range(rules.players)]
        for p in range(rules.players):
            for _ in range(to_place[p]):
                state_rng, k = rng.below(state_rng, len(mine[p]))
                armies[mine[p][k]] += 1
            to_place[p] = 0
    state = GameState(
        rules=rules,
        owner=tuple(owner),
        armies=tuple(armies),
        hands=tuple(() for _ in range(rules.players)),
        deck=deck,
        discard=(),
        sets_traded=0,
        phase=Phase.PLACEMENT,
        current=0,
        turn=0,
        to_place=tuple(to_place),
        pool=0,
        captured=False,
        pending=None,
        fortified_from=frozenset(),
        fortify_chosen=False,
        out=tuple(False for _ in range(rules.players)),
        rng=state_rng,
    )
    if rules.auto_placement:
        return begin_turn(state, 0)
    return state


def begin_turn(state: GameState, player: int) -> GameState:
    """``player``'s turn starts with its reinforcements to deploy."""
    state = replace(
        state,
        phase=Phase.DEPLOY,
        current=player,
        turn=state.turn + 1,
        captured=False,
        pending=None,
        fortified_from=frozenset(),
        fortify_chosen=False,
    )
    return replace(state, pool=reinforcements(state, player)[0])
