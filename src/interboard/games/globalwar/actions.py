"""Typed actions and their text forms.

Text forms (country names, ids or aliases, case and dots ignored; names of several words allowed)::

    place Alaska                  deploy 3 Alaska              trade cards 1 2 3
    attack Alaska Kamchatka 3     move 2                       end attack
    fortify Alaska Alberta 4      exchange Alaska Kamchatka    give Alaska
    give continent Africa         end turn                     surrender to P2

``trade cards`` numbers the cards of the player's hand from 1, in the order the hand is shown.
The dice of ``attack`` may be left out (as many as allowed, up to 3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from .errors import ActionSyntaxError
from .maps import World
from .state import GameState, player_id, player_index


@dataclass(frozen=True, slots=True)
class Place:
    """Place one starting army on one's own country."""

    country: int


@dataclass(frozen=True, slots=True)
class Deploy:
    count: int
    country: int


@dataclass(frozen=True, slots=True)
class TradeCards:
    cards: tuple[int, ...]
    """Card numbers (see :mod:`interboard.globalwar.cards`), not hand positions."""


@dataclass(frozen=True, slots=True)
class Attack:
    source: int
    target: int
    dice: int | None = None
    """None: as many dice as allowed."""


@dataclass(frozen=True, slots=True)
class MoveIn:
    count: int


@dataclass(frozen=True, slots=True)
class EndAttack:
    pass


@dataclass(frozen=True, slots=True)
class Fortify:
    source: int
    target: int
    count: int


@dataclass(frozen=True, slots=True)
class Exchange:
    own: int
    partners: int


@dataclass(frozen=True, slots=True)
class Give:
    country: int


@dataclass(frozen=True, slots=True)
class GiveContinent:
    continent: int
    """Index into the map's continents."""


@dataclass(frozen=True, slots=True)
class EndTurn:
    pass


@dataclass(frozen=True, slots=True)
class Surrender:
    to: int


Action = (
    Place
    | Deploy
    | TradeCards
    | Attack
    | MoveIn
    | EndAttack
    | Fortify
    | Exchange
    | Give
    | GiveContinent
    | EndTurn
    | Surrender
)


def _words(text: str) -> tuple[str, ...]:
    return tuple(re.sub(r"[.\s]+", " ", text.lower()).split())


@cache
def _country_keys(w: World) -> dict[tuple[str, ...], int]:
    keys: dict[tuple[str, ...], int] = {}
    for space in w.board.spaces:
        for text in (space.id, space.name, *space.aliases):
            keys[_words(text)] = space.index
    return keys


@cache
def _continent_keys(w: World) -> dict[tuple[str, ...], int]:
    return {key: i for i, (cid, name, _, _) in enumerate(w.continents) for key in (_words(cid), _words(name))}


def find_country(w: World, text: str) -> int:
    """The country named ``text`` (name, id or alias; case and dots ignored)."""
    found = _country_keys(w).get(_words(text))
    if found is None:
        raise ActionSyntaxError(text, f"unknown country on the {w.board.title} map")
    return found


class _Reader:
    def __init__(self, w: World, text: str) -> None:
        self.world = w
        self.text = text
        self.words = _words(text)
        self.pos = 1  # after the verb

    def fail(self, problem: str) -> ActionSyntaxError:
        return ActionSyntaxError(self.text.strip(), problem)

    def _name(self, keys: dict[tuple[str, ...], int], what: str) -> int:
        if self.pos >= len(self.words):
            raise self.fail(f"a {what} is missing")
        for end in range(len(self.words), self.pos, -1):
            found = keys.get(self.words[self.pos : end])
            if found is not None:
                self.pos = end
                return found
        stop = self.pos + 1
        while (
            stop < len(self.words)
            and not self.words[stop].isdigit()
            and not any(self.words[stop:end] in keys for end in range(stop + 1, len(self.words) + 1))
        ):
            stop += 1
        unknown = " ".join(self.words[self.pos : stop])
        raise self.fail(f"unknown {what} '{unknown}' on the {self.world.board.title} map")

    def country(self) -> int:
        return self._name(_country_keys(self.world), "country")

    def continent(self) -> int:
        return self._name(_continent_keys(self.world), "continent")

    def number(self, what: str, optional: bool = False) -> int | None:
        if self.pos >= len(self.words):
            if optional:
                return None
            raise self.fail(f"the number of {what} is missing")
        word = self.words[self.pos]
        if not word.isdigit():
            raise self.fail(f"the number of {what} must be a whole number, not '{word}'")
        self.pos += 1
        return int(word)

    def keyword(self, word: str) -> None:
        if self.pos >= len(self.words) or self.words[self.pos] != word:
            raise self.fail(f"expected '{word}' after '{' '.join(self.words[: self.pos])}'")
        self.pos += 1

    def done(self) -> None:
        if self.pos < len(self.words):
            raise self.fail(f"unexpected '{' '.join(self.words[self.pos :])}' at the end")


VERBS = ("place", "deploy", "trade", "attack", "move", "end", "fortify", "exchange", "give", "surrender")


def parse_action(state: GameState, text: str) -> Action:
    """Read an action's text for the player to act in ``state`` (hand positions need the state)."""
    r = _Reader(state.world, text)
    if not r.words:
        raise r.fail("empty action")
    verb = r.words[0]
    action: Action
    if verb == "place":
        action = Place(r.country())
    elif verb == "deploy":
        count = r.number("armies")
        assert count is not None
        action = Deploy(count, r.country())
    elif verb == "trade":
        if r.pos < len(r.words) and r.words[r.pos] == "cards":
            r.pos += 1
        hand = state.hands[state.current]
        chosen = []
        for _ in range(3):
            n = r.number("cards (three hand positions, as 'trade cards 1 2 3')")
            assert n is not None
            if not 1 <= n <= len(hand):
                raise r.fail(f"card {n} does not exist: you hold {len(hand)} card(s), numbered from 1")
            chosen.append(hand[n - 1])
        action = TradeCards(tuple(chosen))
    elif verb == "attack":
        source = r.country()
        target = r.country()
        action = Attack(source, target, r.number("dice", optional=True))
    elif verb == "move":
        count = r.number("armies")
        assert count is not None
        action = MoveIn(count)
    elif verb == "end":
        if r.pos < len(r.words) and r.words[r.pos] in ("attack", "attacks"):
            action = EndAttack()
        elif r.pos < len(r.words) and r.words[r.pos] == "turn":
            action = EndTurn()
        else:
            raise r.fail("say 'end attack' or 'end turn'")
        r.pos += 1
    elif verb == "fortify":
        source = r.country()
        target = r.country()
        count = r.number("armies")
        assert count is not None
        action = Fortify(source, target, count)
    elif verb == "exchange":
        action = Exchange(r.country(), r.country())
    elif verb == "give":
        if r.pos < len(r.words) and r.words[r.pos] == "continent":
            r.pos += 1
            action = GiveContinent(r.continent())
        else:
            action = Give(r.country())
    elif verb == "surrender":
        r.keyword("to")
        if r.pos >= len(r.words):
            raise r.fail("say to whom: 'surrender to P2'")
        to = player_index(state.rules, r.words[r.pos])
        if to is None:
            raise r.fail(f"unknown player '{r.words[r.pos]}' (players: P1..P{state.players})")
        r.pos += 1
        action = Surrender(to)
    else:
        raise r.fail(f"unknown action '{verb}' (actions: {', '.join(VERBS)})")
    r.done()
    return action


def action_text(state: GameState, action: Action) -> str:
    """The text form of ``action`` as :func:`parse_action` reads it in ``state``."""
    names = state.world.names
    match action:
        case Place(c):
            return f"place {names[c]}"
        case Deploy(n, c):
            return f"deploy {n} {names[c]}"
        case TradeCards(chosen):
            hand = state.hands[state.current]
            positions = [str(hand.index(card) + 1) if card in hand else "?" for card in chosen]
            return "trade cards " + " ".join(positions)
        case Attack(a, b, dice):
            return f"attack {names[a]} {names[b]}" + ("" if dice is None else f" {dice}")
        case MoveIn(n):
            return f"move {n}"
        case EndAttack():
            return "end attack"
        case Fortify(a, b, n):
            return f"fortify {names[a]} {names[b]} {n}"
        case Exchange(a, b):
            return f"exchange {names[a]} {names[b]}"
        case Give(c):
            return f"give {names[c]}"
        case GiveContinent(k):
            return f"give continent {state.world.continents[k][1]}"
        case EndTurn():
            return "end turn"
        case Surrender(to):
            return f"surrender to {player_id(to)}"
    raise TypeError(f"not an action: {action!r}")
