"""Commendations (cards): symbols, sets and the value of the n-th set traded in a game.

A deck holds one card per country (symbol by country index, in turn infantry, cavalry, artillery)
and two wild cards. A card is an integer: ``0..n-1`` is the card of country ``i``, ``n`` and ``n+1``
are the wilds.
"""

from __future__ import annotations

from itertools import combinations

SYMBOLS = ("infantry", "cavalry", "artillery")
WILD = "wild"
WILD_CARDS = 2
SET_VALUES = (4, 6, 8, 10, 12, 15)
"""Armies for the 1st..6th set traded in the game; each later set is worth 5 more than the one before."""
COUNTRY_BONUS = 2
"""Extra armies placed on one traded country the trader owns."""
FORCED_TRADE = 5
"""Holding this many cards forces a trade before deploying or attacking."""


def deck_for(countries: int) -> tuple[int, ...]:
    return tuple(range(countries + WILD_CARDS))


def symbol(card: int, countries: int) -> str:
    return WILD if card >= countries else SYMBOLS[card % len(SYMBOLS)]


def country_of(card: int, countries: int) -> int | None:
    return None if card >= countries else card


def hand_order(hand: tuple[int, ...], countries: int) -> tuple[int, ...]:
    """A hand as players see it and number it: infantry, cavalry, artillery, then wilds."""
    return tuple(sorted(hand, key=lambda card: (card >= countries, card % len(SYMBOLS), card)))


def is_set(cards: tuple[int, ...], countries: int) -> bool:
    """Three of a kind, one of each, or any two with a wild."""
    if len(cards) != 3 or len(set(cards)) != 3:
        return False
    symbols = [symbol(c, countries) for c in cards]
    if WILD in symbols:
        return True
    return len(set(symbols)) in (1, 3)


def set_value(sets_traded_before: int) -> int:
    """Armies for a set when ``sets_traded_before`` sets have already been traded in the game."""
    if sets_traded_before < len(SET_VALUES):
        return SET_VALUES[sets_traded_before]
    return SET_VALUES[-1] + 5 * (sets_traded_before - len(SET_VALUES) + 1)


def sets_in(hand: tuple[int, ...], countries: int) -> list[tuple[int, ...]]:
    """Every set (as sorted card triples) that can be made from ``hand``."""
    return [combo for combo in combinations(sorted(hand), 3) if is_set(combo, countries)]


def card_text(card: int, countries: int, names: tuple[str, ...]) -> str:
    country = country_of(card, countries)
    return "wild" if country is None else f"{names[country]} ({symbol(card, countries)})"
