"""The legal actions of the player to act, as typed actions and as a click tree for clients."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import cards
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
)
from .engine import MAX_ATTACK_DICE, reachable
from .rules import Fortification
from .state import GameState, Phase, player_id

TURN = "*"
"""Key of the option tree for actions that belong to no country (end attack, move in, trade...)."""


def every_count(lo: int, hi: int) -> list[int]:
    return list(range(lo, hi + 1))


def bounds_only(lo: int, hi: int) -> list[int]:
    return [lo] if lo == hi else [lo, hi]


def legal_actions(
    state: GameState, surrender: bool = True, counts: Callable[[int, int], list[int]] = every_count
) -> list[Action]:
    """Every action :func:`~interboard.globalwar.engine.step` accepts now, for ``state.current``.

    Attacks are listed with their dice; counts of armies (deploy, move in, fortify) are listed one
    action per count given by ``counts(lowest, highest)``: every count by default, or
    :func:`bounds_only` for bots that only ever move all or the least. ``surrender=False`` leaves out
    the surrender actions.
    """
    s = state
    me = s.current
    out: list[Action] = []
    if s.phase is Phase.OVER:
        return out
    mine = s.countries_of(me)
    partner = s.partner(me)
    if s.phase is Phase.PLACEMENT:
        return [Place(c) for c in mine]
    if s.phase is Phase.MOVE_IN:
        assert s.pending is not None
        out.extend(MoveIn(n) for n in counts(s.pending.minimum, s.pending.maximum))
    elif s.phase in (Phase.DEPLOY, Phase.ATTACK):
        forced = len(s.hands[me]) >= cards.FORCED_TRADE
        if s.phase is Phase.DEPLOY or s.rules.non_sequential or forced:
            out.extend(TradeCards(combo) for combo in cards.sets_in(s.hands[me], s.world.size))
        deploying = s.phase is Phase.DEPLOY or s.rules.non_sequential
        if deploying and s.pool > 0 and not forced:
            targets = mine if partner is None else mine + s.countries_of(partner)
            out.extend(Deploy(n, c) for c in targets for n in counts(1, s.pool))
        attacking = s.phase is Phase.ATTACK or s.rules.non_sequential
        if attacking and not forced and (s.pool == 0 or s.rules.non_sequential):
            adjacent = s.world.adjacent
            for source in mine:
                if s.armies[source] < 2:
                    continue
                for target in sorted(adjacent[source]):
                    if s.owner[target] not in (me, partner):
                        most = min(MAX_ATTACK_DICE, s.armies[source] - 1)
                        out.extend(Attack(source, target, d) for d in range(1, most + 1))
        if s.pool == 0 and not forced and attacking:
            out.append(EndAttack())
    elif s.phase is Phase.FORTIFY:
        for source in mine:
            spare = s.armies[source] - 1
            if spare < 1 or source in s.fortified_from:
                continue
            if s.rules.fortification is Fortification.CONNECTED:
                targets = sorted(reachable(s, source))
            else:
                targets = sorted(t for t in s.world.adjacent[source] if s.owner[t] in (me, partner))
            out.extend(Fortify(source, t, n) for t in targets for n in counts(1, spare))
        if partner is not None and not s.fortify_chosen:
            adjacent = s.world.adjacent
            out.extend(Exchange(c, t) for c in mine for t in sorted(adjacent[c]) if s.owner[t] == partner)
            if not s.out[partner] and len(mine) > 1:
                out.extend(Give(c) for c in mine)
                if s.rules.fortification is Fortification.UNLIMITED:
                    for k, (_, _, members, _) in enumerate(s.world.continents):
                        if len(members) < len(mine) and all(s.owner[c] == me for c in members):
                            out.append(GiveContinent(k))
        out.append(EndTurn())
    if surrender and s.phase is not Phase.MOVE_IN:
        out.extend(Surrender(p) for p in range(s.players) if p != me and not s.out[p])
    return out


def option_tree(state: GameState) -> dict[str, Any]:
    """:func:`legal_actions` as a JSON-ready tree for a click interface.

    Keyed first by the id of the country the player clicks (``TURN``, ``"*"``, for the rest), then
    by action kind; leaves are action texts that :func:`~interboard.globalwar.parse_action` reads::

        "ALA": {"place": text, "deploy": {count: text}, "attack": {target id: {dice: text}},
                "fortify": {target id: {count: text}}, "exchange": {partner country id: text},
                "give": text, "move": {count: text}}   (move: the country just taken)
        "*":   {"trade": {"Alaska (infantry), Japan (infantry), wild": text},
                "end_attack": text, "end_turn": text,
                "give_continent": {continent id: text}, "surrender": {player: text}}

    Every army count is offered, however long the range (a page shows a long one as a number to
    choose rather than as buttons): no legal action is left out of the tree.
    """
    ids = [sp.id for sp in state.world.board.spaces]
    tree: dict[str, Any] = {}

    def at(key: str) -> dict[str, Any]:
        node: dict[str, Any] = tree.setdefault(key, {})
        return node

    for action in legal_actions(state):
        text = action_text(state, action)
        match action:
            case Place(c):
                at(ids[c])["place"] = text
            case Deploy(n, c):
                at(ids[c]).setdefault("deploy", {})[str(n)] = text
            case Attack(a, b, dice):
                at(ids[a]).setdefault("attack", {}).setdefault(ids[b], {})[str(dice)] = text
            case Fortify(a, b, n):
                at(ids[a]).setdefault("fortify", {}).setdefault(ids[b], {})[str(n)] = text
            case Exchange(a, b):
                at(ids[a]).setdefault("exchange", {})[ids[b]] = text
            case Give(c):
                at(ids[c])["give"] = text
            case TradeCards(chosen):
                size = state.world.size
                shown = ", ".join(cards.card_text(c, size, state.world.names) for c in chosen)
                at(TURN).setdefault("trade", {})[shown] = text
            case MoveIn(n):  # asked of the country just taken: the place the player looks at
                assert state.pending is not None
                at(ids[state.pending.target]).setdefault("move", {})[str(n)] = text
            case EndAttack():
                at(TURN)["end_attack"] = text
            case EndTurn():
                at(TURN)["end_turn"] = text
            case GiveContinent(k):
                at(TURN).setdefault("give_continent", {})[state.world.continents[k][0]] = text
            case Surrender(p):
                at(TURN).setdefault("surrender", {})[player_id(p)] = text
    return tree
