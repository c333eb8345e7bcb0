"""The pure step function: ``step(state, action) -> (next_state, result)``.

The player to act is ``state.current``; an action is refused with :class:`IllegalAction` whose
message names the country or player at fault. Randomness comes only from the generator in the
state, and every die rolled is in the result.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from ... import rng
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
)
from .dice import battle_losses
from .errors import IllegalAction
from .results import (
    Battle,
    Captured,
    CardDrawn,
    Deployed,
    Eliminated,
    Event,
    Exchanged,
    Fortified,
    GameWon,
    Given,
    MovedIn,
    Placed,
    StepResult,
    Surrendered,
    Traded,
    TurnBegan,
)
from .rules import Fortification
from .state import GameState, PendingMove, Phase, begin_turn, player_id

MAX_ATTACK_DICE = 3
MAX_DEFENCE_DICE = 2


def _armies(n: int) -> str:
    return f"{n} {'army' if n == 1 else 'armies'}"


class _Check:
    """The refusals, shared by :func:`step` and :mod:`~interboard.globalwar.legal`."""

    def __init__(self, state: GameState) -> None:
        self.s = state
        self.names = state.world.names
        self.me = state.current
        self.partner = state.partner(self.me)

    def holder(self, country: int) -> str:
        return player_id(self.s.owner[country])

    def own(self, country: int) -> None:
        if self.s.owner[country] != self.me:
            holder = self.holder(country)
            raise IllegalAction(f"{self.names[country]} is not your country ({holder} holds it)")

    def own_or_partner(self, country: int) -> None:
        if self.s.owner[country] == self.me:
            return
        if self.partner is None:
            self.own(country)
        if self.s.owner[country] != self.partner:
            raise IllegalAction(
                f"{self.names[country]} is neither yours nor your partner's ({self.holder(country)} holds it)"
            )

    def adjacent(self, a: int, b: int) -> None:
        if b not in self.s.world.adjacent[a]:
            raise IllegalAction(f"{self.names[b]} is not adjacent to {self.names[a]}")

    def phase(self, allowed: tuple[Phase, ...], doing: str) -> None:
        if self.s.phase not in allowed:
            raise IllegalAction(f"wrong phase: cannot {doing} in the {self.s.phase.value} phase")

    def hand_below_forced(self) -> None:
        held = len(self.s.hands[self.me])
        if held >= cards.FORCED_TRADE:
            raise IllegalAction(f"you hold {held} cards: trade a set first")

    def team_rule(self, name: str) -> int:
        if self.partner is None:
            raise IllegalAction(f"{name} is a team-play move and this game has no teams")
        if self.s.fortify_chosen:
            raise IllegalAction(f"you already chose Fortify this turn: {name} is no longer possible")
        return self.partner

    def partner_alive(self, partner: int) -> None:
        if self.s.out[partner]:
            raise IllegalAction(
                f"your partner {player_id(partner)} is out of the game: giving cannot bring them back"
            )


def check(state: GameState, action: Action) -> None:
    """Raise :class:`IllegalAction` if the player to act may not take ``action`` now."""
    c = _Check(state)
    s = state
    names = c.names
    if s.phase is Phase.OVER:
        raise IllegalAction("the game is over")
    match action:
        case Place(country):
            c.phase((Phase.PLACEMENT,), "place a starting army")
            c.own(country)
        case Deploy(count, country):
            c.phase(_deploy_phases(s), "deploy")
            c.hand_below_forced()
            if s.pool == 0:
                raise IllegalAction("you have no armies left to deploy")
            if not 1 <= count <= s.pool:
                raise IllegalAction(f"you can deploy 1 to {s.pool} armies, not {count}")
            c.own_or_partner(country)
        case TradeCards(chosen):
            anytime = s.rules.non_sequential or _forced(s)
            c.phase((Phase.DEPLOY, Phase.ATTACK) if anytime else (Phase.DEPLOY,), "trade cards")
            hand = s.hands[c.me]
            if any(card not in hand for card in chosen) or len(set(chosen)) != len(chosen):
                raise IllegalAction("those cards are not in your hand")
            if not cards.is_set(tuple(chosen), s.world.size):
                shown = ", ".join(cards.symbol(card, s.world.size) for card in chosen)
                raise IllegalAction(f"not a set ({shown}): three of a kind, one of each, or two and a wild")
        case Attack(source, target, dice):
            c.phase(_attack_phases(s), "attack")
            if s.pool > 0 and not s.rules.non_sequential:
                raise IllegalAction(f"deploy your remaining {_armies(s.pool)} before attacking")
            c.hand_below_forced()
            c.own(source)
            c.adjacent(source, target)
            if s.owner[target] == c.me:
                raise IllegalAction(f"{names[target]} is your own country")
            if s.owner[target] == c.partner:
                raise IllegalAction(
                    f"you may not attack your partner {player_id(s.owner[target])} ({names[target]})"
                )
            if s.armies[source] < 2:
                raise IllegalAction(
                    f"too few armies: {names[source]} has {_armies(s.armies[source])}; attacking needs 2"
                )
            most = min(MAX_ATTACK_DICE, s.armies[source] - 1)
            if dice is not None and not 1 <= dice <= most:
                raise IllegalAction(
                    f"{names[source]} with {_armies(s.armies[source])} can roll 1 to {most} dice, not {dice}"
                )
        case MoveIn(count):
            c.phase((Phase.MOVE_IN,), "move armies in")
            p = s.pending
            assert p is not None
            if not p.minimum <= count <= p.maximum:
                raise IllegalAction(
                    f"move {p.minimum} to {p.maximum} armies into {names[p.target]} "
                    f"(at least the dice rolled, leaving 1 in {names[p.source]}), not {count}"
                )
        case EndAttack():
            c.phase(_attack_phases(s), "end the attacks")
            if s.pool > 0:
                raise IllegalAction(f"deploy your remaining {_armies(s.pool)} first")
            c.hand_below_forced()
        case Fortify(source, target, count):
            c.phase((Phase.FORTIFY,), "fortify")
            c.own(source)
            c.own_or_partner(target)
            if source == target:
                raise IllegalAction(f"fortify from {names[source]} to another country")
            if source in s.fortified_from:
                raise IllegalAction(f"you already fortified from {names[source]} this turn")
            if s.rules.fortification is Fortification.CONNECTED:
                if target not in reachable(s, source):
                    raise IllegalAction(
                        f"{names[target]} cannot be reached from {names[source]} "
                        "through a chain of your countries"
                    )
            else:
                c.adjacent(source, target)
            if not 1 <= count <= s.armies[source] - 1:
                raise IllegalAction(
                    f"too few armies: {names[source]} has {_armies(s.armies[source])} and must keep 1, "
                    f"so 1 to {s.armies[source] - 1} can move, not {count}"
                )
        case Exchange(own, partners):
            c.phase((Phase.FORTIFY,), "exchange countries")
            partner = c.team_rule("Exchange")
            c.own(own)
            if s.owner[partners] != partner:
                raise IllegalAction(
                    f"{names[partners]} is not your partner's country ({c.holder(partners)} holds it)"
                )
            c.adjacent(own, partners)
        case Give(country):
            c.phase((Phase.FORTIFY,), "give a country")
            partner = c.team_rule("Give")
            c.partner_alive(partner)
            c.own(country)
            if len(s.countries_of(c.me)) == 1:
                raise IllegalAction(f"{names[country]} is your last country: you cannot give it away")
        case GiveContinent(k):
            c.phase((Phase.FORTIFY,), "give a continent")
            partner = c.team_rule("Give")
            if s.rules.fortification is not Fortification.UNLIMITED:
                raise IllegalAction("a whole continent may be given only with Unlimited fortification")
            c.partner_alive(partner)
            _, name, members, _ = s.world.continents[k]
            for country in members:
                if s.owner[country] != c.me:
                    holder = c.holder(country)
                    raise IllegalAction(f"you do not hold all of {name}: {holder} holds {names[country]}")
            if len(s.countries_of(c.me)) == len(members):
                raise IllegalAction(f"{name} is all you hold: you cannot give away your last country")
        case EndTurn():
            c.phase((Phase.FORTIFY,), "end the turn")
        case Surrender(to):
            if s.phase is Phase.PLACEMENT:
                raise IllegalAction("wrong phase: surrender is possible once the starting armies are placed")
            if s.phase is Phase.MOVE_IN:
                raise IllegalAction("wrong phase: move your armies into the captured country first")
            if to == c.me:
                raise IllegalAction("you cannot surrender to yourself")
            if not 0 <= to < s.players or s.out[to]:
                raise IllegalAction(f"{player_id(to)} is not in the game")
        case _:
            raise IllegalAction(f"not an action: {action!r}")


def _forced(s: GameState) -> bool:
    return len(s.hands[s.current]) >= cards.FORCED_TRADE


def _deploy_phases(s: GameState) -> tuple[Phase, ...]:
    return (Phase.DEPLOY, Phase.ATTACK) if s.rules.non_sequential else (Phase.DEPLOY,)


def _attack_phases(s: GameState) -> tuple[Phase, ...]:
    return (Phase.DEPLOY, Phase.ATTACK) if s.rules.non_sequential else (Phase.ATTACK,)


def reachable(state: GameState, source: int) -> set[int]:
    """Countries a connected fortification from ``source`` can reach: along the player's own countries,
    ending on one of them or (team play) on an adjacent partner country."""
    me = state.owner[source]
    partner = state.partner(me)
    seen = {source}
    out: set[int] = set()
    queue = deque([source])
    adjacent = state.world.adjacent
    while queue:
        here = queue.popleft()
        for nxt in adjacent[here]:
            if nxt in seen:
                continue
            holder = state.owner[nxt]
            if holder == me:
                seen.add(nxt)
                out.add(nxt)
                queue.append(nxt)
            elif holder == partner:
                seen.add(nxt)
                out.add(nxt)
    return out


def step(state: GameState, action: Action) -> tuple[GameState, StepResult]:
    """Apply the action of the player to act; raise :class:`IllegalAction` if the rules refuse it."""
    check(state, action)
    me = state.current
    events: list[Event] = []
    s = state
    match action:
        case Place(country):
            s = _add(s, country, 1)
            to_place = list(s.to_place)
            to_place[me] -= 1
            s = replace(s, to_place=tuple(to_place))
            events.append(Placed(me, country))
            waiting = [p for p in _order_from(s, me + 1) if s.to_place[p] > 0]
            s = replace(s, current=waiting[0]) if waiting else _start_turn(s, 0, events)
        case Deploy(count, country):
            s = replace(_add(s, country, count), pool=s.pool - count)
            events.append(Deployed(me, country, count, s.owner[country]))
            if s.pool == 0 and s.phase is Phase.DEPLOY:
                s = replace(s, phase=Phase.ATTACK)
        case TradeCards(chosen):
            s = _trade(s, tuple(chosen), events)
        case Attack(source, target, dice):
            s = _attack(s, source, target, dice, events)
        case MoveIn(count):
            assert s.pending is not None
            s = _move_in(s, s.pending, count, events)
        case EndAttack():
            s = replace(s, phase=Phase.FORTIFY)
        case Fortify(source, target, count):
            s = _add(_add(s, source, -count), target, count)
            events.append(Fortified(me, source, target, count, s.owner[target]))
            if s.rules.fortification is Fortification.UNLIMITED:
                s = replace(s, fortified_from=s.fortified_from | {source}, fortify_chosen=True)
            else:
                s = _end_turn(s, events)
        case Exchange(own, partners):
            owner, armies = list(s.owner), list(s.armies)
            owner[own], owner[partners] = owner[partners], owner[own]
            armies[own], armies[partners] = armies[partners], armies[own]
            s = replace(s, owner=tuple(owner), armies=tuple(armies))
            events.append(Exchanged(me, owner[own], own, partners))
            s = _end_turn(s, events)
        case Give(country):
            s = _give(s, (country,), events)
        case GiveContinent(k):
            s = _give(s, s.world.continents[k][2], events)
        case EndTurn():
            s = _end_turn(s, events)
        case Surrender(to):
            s = replace(s, owner=tuple(to if p == me else p for p in s.owner))
            events.append(Surrendered(me, to))
            s = _eliminate(s, me, to, events)
            if s.phase is not Phase.OVER:
                s = _pass_turn(s, events)
    return s, StepResult(me, tuple(events))


def _add(s: GameState, country: int, count: int) -> GameState:
    armies = list(s.armies)
    armies[country] += count
    return replace(s, armies=tuple(armies))


def _order_from(s: GameState, first: int) -> list[int]:
    """Players still in the game, in turn order starting at ``first``."""
    n = s.players
    return [(first + k) % n for k in range(n) if not s.out[(first + k) % n]]


def _start_turn(s: GameState, player: int, events: list[Event]) -> GameState:
    s = begin_turn(s, player)
    events.append(TurnBegan(player, s.turn, s.pool))
    return s


def _trade(s: GameState, chosen: tuple[int, ...], events: list[Event]) -> GameState:
    me = s.current
    size = s.world.size
    value = cards.set_value(s.sets_traded)
    hand = tuple(card for card in s.hands[me] if card not in chosen)
    bonus_country = next(
        (c for card in chosen if (c := cards.country_of(card, size)) is not None and s.owner[c] == me), None
    )
    hands = list(s.hands)
    hands[me] = hand
    s = replace(
        s,
        hands=tuple(hands),
        discard=s.discard + tuple(chosen),
        sets_traded=s.sets_traded + 1,
        pool=s.pool + value,
        phase=Phase.DEPLOY if not s.rules.non_sequential else s.phase,
    )
    if bonus_country is not None:
        s = _add(s, bonus_country, cards.COUNTRY_BONUS)
    events.append(Traded(me, chosen, value, bonus_country))
    return s


def _attack(s: GameState, source: int, target: int, dice: int | None, events: list[Event]) -> GameState:
    me = s.current
    attack_count = dice if dice is not None else min(MAX_ATTACK_DICE, s.armies[source] - 1)
    defence_count = min(MAX_DEFENCE_DICE, s.armies[target])
    state_rng, attack = rng.roll_dice(s.rng, attack_count)
    state_rng, defence = rng.roll_dice(state_rng, defence_count)
    attacker_lost, defender_lost = battle_losses(attack, defence)
    armies = list(s.armies)
    armies[source] -= attacker_lost
    armies[target] -= defender_lost
    s = replace(s, armies=tuple(armies), rng=state_rng)
    events.append(Battle(source, target, attack, defence, attacker_lost, defender_lost))
    if armies[target] > 0:
        return s
    defender = s.owner[target]
    owner = list(s.owner)
    owner[target] = me
    s = replace(s, owner=tuple(owner), captured=True)
    events.append(Captured(me, target, defender))
    if defender not in s.owner:
        s = _eliminate(s, defender, me, events)
    pending = PendingMove(source, target, attack_count, armies[source] - 1)
    if pending.minimum == pending.maximum or s.phase is Phase.OVER:
        return _move_in(s, pending, pending.minimum, events)
    return replace(s, phase=Phase.MOVE_IN, pending=pending)


def _move_in(s: GameState, pending: PendingMove, count: int, events: list[Event]) -> GameState:
    s = _add(_add(s, pending.source, -count), pending.target, count)
    events.append(MovedIn(pending.source, pending.target, count))
    if s.phase is Phase.OVER:
        return replace(s, pending=None)
    # Cards taken from an eliminated player may force a trade (and a deployment) before attacking on.
    phase = Phase.DEPLOY if _forced(s) else Phase.ATTACK
    return replace(s, phase=phase, pending=None)


def _eliminate(s: GameState, loser: int, by: int, events: list[Event]) -> GameState:
    hands = list(s.hands)
    taken = hands[loser]
    hands[by] = cards.hand_order(hands[by] + taken, s.world.size)
    hands[loser] = ()
    out = list(s.out)
    out[loser] = True
    s = replace(s, hands=tuple(hands), out=tuple(out))
    events.append(Eliminated(loser, by, taken))
    return _check_victory(s, events)


def _check_victory(s: GameState, events: list[Event]) -> GameState:
    holders = set(s.owner)
    first = next(iter(holders))
    partner = s.partner(first)
    if len(holders) == 1 or (partner is not None and holders == {first, partner}):
        team = sorted({first} | ({partner} if partner is not None else set()))
        winners = tuple(p for p in team if not s.out[p])
        events.append(GameWon(winners))
        return replace(s, phase=Phase.OVER, winners=winners, pending=None, pool=0)
    return s


def _give(s: GameState, countries: tuple[int, ...], events: list[Event]) -> GameState:
    partner = s.partner(s.current)
    assert partner is not None
    owner = list(s.owner)
    for country in countries:
        owner[country] = partner
    s = replace(s, owner=tuple(owner))
    events.append(Given(s.current, partner, countries))
    return _end_turn(s, events)


def _end_turn(s: GameState, events: list[Event]) -> GameState:
    if s.captured:
        deck, discard = s.deck, s.discard
        state_rng = s.rng
        if not deck and discard:
            state_rng, deck = rng.shuffled(state_rng, discard)
            discard = ()
        if deck:
            hands = list(s.hands)
            hands[s.current] = cards.hand_order(hands[s.current] + (deck[0],), s.world.size)
            events.append(CardDrawn(s.current, deck[0]))
            s = replace(s, hands=tuple(hands), deck=deck[1:], discard=discard, rng=state_rng)
    return _pass_turn(s, events)


def _pass_turn(s: GameState, events: list[Event]) -> GameState:
    return _start_turn(s, _order_from(s, s.current + 1)[0], events)
