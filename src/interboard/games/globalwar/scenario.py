"""Global War positions as scenario fields (``docs/scenarios.md``): read, checked and written.

The fields (players are ``P1`` .. ``P6``; countries by name, id or alias):

* ``owner``: player -> country -> armies (``{"P1": {"Alaska": 3}}``); ``rest``: players round whom
  every country not listed is dealt, one army each (without it every country must be listed);
* ``current`` (the player to act), ``phase`` (``placement``, ``deploy``, ``attack``, ``move_in``,
  ``fortify``), ``turn`` (player-turns begun), ``pool`` (armies still to deploy: without it, the
  reinforcements the player receives), ``to_place`` (player -> starting armies still to place);
* ``hands`` (player -> cards: a country's card by its country, ``wild``, or any card of a symbol,
  ``infantry``), ``discard``, ``sets_traded``;
* ``captured``, ``pending`` (a capture waiting for the move-in: ``from``, ``to``, ``minimum``,
  ``maximum``), ``fortify_chosen``, ``fortified_from``, ``winners``.

Without ``owner`` the seeded deal stands. The draw pile is the cards in no hand and not discarded,
in the order the game's seed shuffles them. A player holding no country is out of the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..positions import a_list, an_object, fail, flag, unknown_fields, whole
from . import cards
from .actions import find_country
from .errors import ActionSyntaxError
from .rules import Rules
from .state import GameState, PendingMove, Phase, new_game, player_id, player_index, reinforcements

FIELDS = (
    "owner",
    "rest",
    "current",
    "phase",
    "turn",
    "pool",
    "to_place",
    "hands",
    "discard",
    "sets_traded",
    "captured",
    "pending",
    "fortify_chosen",
    "fortified_from",
    "winners",
)


def _player(rules: Rules, text: Any, where: str) -> int:
    p = player_index(rules, text) if isinstance(text, str) else None
    if p is None:
        raise fail(where, f"no player {text!r} (players: P1 to P{rules.players})")
    return p


def _country(state: GameState, text: Any, where: str) -> int:
    if not isinstance(text, str):
        raise fail(where, f"a country's name, not {text!r}")
    try:
        return find_country(state.world, text)
    except ActionSyntaxError as exc:
        raise fail(where, str(exc)) from None


def build(rules: Rules, seed: int, position: Mapping[str, Any]) -> GameState:
    """The state of a game with ``rules`` starting from ``position``."""
    unknown_fields(position, FIELDS, "a Global War")
    state = new_game(rules, seed)
    if not position:
        return state
    w = state.world
    owner, armies = list(state.owner), list(state.armies)
    if "owner" in position:
        listed: dict[int, int] = {}
        for who, countries in an_object(position["owner"], "owner").items():
            p = _player(rules, who, f"owner.{who}")
            for name, count in an_object(countries, f"owner.{who}").items():
                c = _country(state, name, f"owner.{who}.{name}")
                if c in listed:
                    raise fail(f"owner.{who}.{name}", f"{w.names[c]} is listed twice")
                listed[c] = p
                owner[c], armies[c] = p, whole(count, f"owner.{who}.{name}")
        rest = [
            _player(rules, x, f"rest[{k}]") for k, x in enumerate(a_list(position.get("rest", []), "rest"))
        ]
        unlisted = [c for c in range(w.size) if c not in listed]
        if unlisted and not rest:
            names = ", ".join(w.names[c] for c in unlisted[:3])
            raise fail("owner", f"every country needs an owner: {names}... are not listed (or give 'rest')")
        for k, c in enumerate(unlisted):
            owner[c], armies[c] = rest[k % len(rest)], 1
    phase_text = position.get("phase", "deploy")
    try:
        phase = Phase(phase_text)
    except ValueError:
        raise fail("phase", f"one of {', '.join(p.value for p in Phase)}, not {phase_text!r}") from None
    current = _player(rules, position.get("current", "P1"), "current")
    out = tuple(p not in owner for p in range(rules.players))
    if out[current] and phase is not Phase.OVER:
        raise fail("current", f"{player_id(current)} holds no country: it is out of the game")
    hands: list[list[int]] = [[] for _ in range(rules.players)]
    taken: set[int] = set()
    discard = [
        _card(state, x, None, owner, taken, f"discard[{k}]")
        for k, x in enumerate(a_list(position.get("discard", []), "discard"))
    ]
    for who, held in an_object(position.get("hands", {}), "hands").items():
        p = _player(rules, who, f"hands.{who}")
        for k, text in enumerate(a_list(held, f"hands.{who}")):
            hands[p].append(_card(state, text, p, owner, taken, f"hands.{who}[{k}]"))
    to_place = [0] * rules.players
    if phase is Phase.PLACEMENT and "to_place" not in position:
        to_place = list(state.to_place)
    for who, n in an_object(position.get("to_place", {}), "to_place").items():
        to_place[_player(rules, who, f"to_place.{who}")] = whole(n, f"to_place.{who}")
    pending = None
    if position.get("pending") is not None:
        raw = an_object(position["pending"], "pending")
        source = _country(state, raw.get("from"), "pending.from")
        target = _country(state, raw.get("to"), "pending.to")
        low, high = (
            whole(raw.get("minimum"), "pending.minimum", 1),
            whole(raw.get("maximum"), "pending.maximum", 1),
        )
        if low > high or high >= armies[source]:
            raise fail(
                "pending",
                f"move in {low} to {high} armies, leaving one of the {armies[source]} in {w.names[source]}",
            )
        pending = PendingMove(source, target, low, high)
    if (phase is Phase.MOVE_IN) != (pending is not None):
        raise fail("pending", "a capture waits for its move-in exactly when the phase is move_in")
    for c, n in enumerate(armies):  # only a country just captured stands empty, until the move-in
        if n == 0 and (pending is None or c != pending.target):
            raise fail(f"owner.{player_id(owner[c])}.{w.names[c]}", "a country holds at least one army")
    built = replace(
        state,
        owner=tuple(owner),
        armies=tuple(armies),
        hands=tuple(cards.hand_order(tuple(h), w.size) for h in hands),
        deck=tuple(c for c in state.deck if c not in taken),
        discard=tuple(discard),
        sets_traded=whole(position.get("sets_traded", 0), "sets_traded"),
        phase=phase,
        current=current,
        turn=whole(position.get("turn", 1), "turn"),
        to_place=tuple(to_place),
        pool=0,
        captured=flag(position.get("captured", False), "captured"),
        pending=pending,
        fortified_from=frozenset(
            _country(state, x, f"fortified_from[{k}]")
            for k, x in enumerate(a_list(position.get("fortified_from", []), "fortified_from"))
        ),
        fortify_chosen=flag(position.get("fortify_chosen", False), "fortify_chosen"),
        out=out,
        winners=tuple(
            _player(rules, x, f"winners[{k}]")
            for k, x in enumerate(a_list(position.get("winners", []), "winners"))
        ),
    )
    if "pool" in position:
        pool = whole(position["pool"], "pool")
    else:
        pool = reinforcements(built, current)[0] if phase is Phase.DEPLOY else 0
    return replace(built, pool=pool)


def _card(
    state: GameState, text: Any, player: int | None, owner: list[int], taken: set[int], where: str
) -> int:
    """A card named by its country, ``wild``, or a symbol (any free card of it, of a country the
    player does not hold: its trade then gives no country bonus)."""
    size = state.world.size
    if text in (*cards.SYMBOLS, cards.WILD):
        for card in cards.deck_for(size):
            country = cards.country_of(card, size)
            if (
                card not in taken
                and cards.symbol(card, size) == text
                and (country is None or owner[country] != player)
            ):
                taken.add(card)
                return card
        raise fail(where, f"no {text} card is left")
    card = _country(state, text, where)
    if card in taken:
        raise fail(where, f"the card of {state.world.names[card]} is held twice")
    taken.add(card)
    return card


def _card_name(state: GameState, card: int) -> str:
    country = cards.country_of(card, state.world.size)
    return cards.WILD if country is None else state.world.names[country]


def written(state: GameState) -> dict[str, Any]:
    """The position of ``state`` as scenario fields, every field written."""
    names = state.world.names
    owner: dict[str, dict[str, int]] = {player_id(p): {} for p in range(state.players)}
    for c, p in enumerate(state.owner):
        owner[player_id(p)][names[c]] = state.armies[c]
    pending = state.pending
    return {
        "owner": {p: countries for p, countries in owner.items() if countries},
        "current": player_id(state.current),
        "phase": state.phase.value,
        "turn": state.turn,
        "pool": state.pool,
        "to_place": {player_id(p): n for p, n in enumerate(state.to_place) if n},
        "hands": {player_id(p): [_card_name(state, c) for c in h] for p, h in enumerate(state.hands) if h},
        "discard": [_card_name(state, c) for c in state.discard],
        "sets_traded": state.sets_traded,
        "captured": state.captured,
        "pending": None
        if pending is None
        else {
            "from": names[pending.source],
            "to": names[pending.target],
            "minimum": pending.minimum,
            "maximum": pending.maximum,
        },
        "fortify_chosen": state.fortify_chosen,
        "fortified_from": sorted(names[c] for c in state.fortified_from),
        "winners": [player_id(p) for p in state.winners],
    }
