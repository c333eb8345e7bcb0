"""Plain-text views of a position and of results, for the CLI and logs."""

from __future__ import annotations

from . import cards
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
from .state import GameState, Phase, player_id, reinforcements


def hand_text(state: GameState, player: int) -> str:
    w = state.world
    hand = state.hands[player]
    if not hand:
        return "no cards"
    return ", ".join(f"{k}: {cards.card_text(c, w.size, w.names)}" for k, c in enumerate(hand, start=1))


def position_text(state: GameState, viewer: int | None = None) -> str:
    """Countries by continent with holder and armies, the players, and whose move it is."""
    w = state.world
    lines = []
    for _, name, members, bonus in w.continents:
        lines.append(f"{name} (bonus {bonus}):")
        lines.extend(f"  {w.names[c]:<22} {player_id(state.owner[c])} {state.armies[c]:>4}" for c in members)
    for p in range(state.players):
        partner = state.partner(p)
        team = f", partner {player_id(partner)}" if partner is not None else ""
        if state.out[p]:
            lines.append(f"{player_id(p)}: out{team}")
            continue
        held = state.countries_of(p)
        armies = sum(state.armies[c] for c in held)
        income, bonuses = reinforcements(state, p)
        lines.append(
            f"{player_id(p)}: {len(held)} countries, {armies} armies, {len(state.hands[p])} cards, "
            f"income {income}{' (' + ', '.join(bonuses) + ')' if bonuses else ''}{team}"
        )
    lines.append(phase_text(state))
    if viewer is not None:
        lines.append(f"Your cards: {hand_text(state, viewer)}")
    return "\n".join(lines)


def phase_text(state: GameState) -> str:
    me = player_id(state.current)
    if state.phase is Phase.OVER:
        return "Game over: " + ", ".join(player_id(p) for p in state.winners) + " won."
    if state.phase is Phase.PLACEMENT:
        return f"{me} places a starting army ({state.to_place[state.current]} left): 'place COUNTRY'"
    if state.phase is Phase.DEPLOY:
        return f"Turn {state.turn}: {me} deploys {state.pool} armies: 'deploy N COUNTRY', 'trade cards 1 2 3'"
    if state.phase is Phase.ATTACK:
        return f"Turn {state.turn}: {me} attacks: 'attack FROM TO [DICE]' or 'end attack'"
    if state.phase is Phase.MOVE_IN:
        p = state.pending
        assert p is not None
        names = state.world.names
        into = f"from {names[p.source]} into {names[p.target]}"
        return f"{me} moves {p.minimum} to {p.maximum} armies {into}: 'move N'"
    options = "'fortify FROM TO N'"
    if state.partner(state.current) is not None:
        options += ", 'exchange MINE PARTNERS', 'give COUNTRY', 'give continent NAME'"
    return f"Turn {state.turn}: {me} ends the turn: {options} or 'end turn'"


def _armies(n: int) -> str:
    return f"{n} arm{'y' if n == 1 else 'ies'}"


def step_prompt(state: GameState) -> str:
    """What the step of the player to act asks, in words for a player who clicks the map: the
    armies left to deploy or place, and how to pick an action."""
    me = player_id(state.current)
    if state.phase is Phase.OVER:
        return "Game over: " + ", ".join(player_id(p) for p in state.winners) + " won."
    partner = state.partner(state.current)
    yours = "one of your countries"
    if partner is not None:
        yours += f" (or one of your partner {player_id(partner)}'s)"
    turn = f"Turn {state.turn}, {me}"
    hand = len(state.hands[state.current])
    if state.phase is Phase.PLACEMENT:
        left = state.to_place[state.current]
        return f"{me}: place a starting army ({_armies(left)} left to place): click one of your countries."
    if state.phase is Phase.MOVE_IN:
        p = state.pending
        assert p is not None
        names = state.world.names
        return (
            f"{me}: you took {names[p.target]}. Move {p.minimum} to {p.maximum} armies in from "
            f"{names[p.source]}: pick the number."
        )
    if state.phase in (Phase.DEPLOY, Phase.ATTACK) and hand >= cards.FORCED_TRADE:
        return f"{turn}: you hold {hand} cards: trade a set of three first (under Turn)."
    if state.phase is Phase.DEPLOY or (state.rules.non_sequential and state.pool > 0):
        trade = f" You may trade a set of cards first (you hold {hand})." if hand >= 3 else ""
        also = " Or attack: deploying and attacking may be mixed." if state.phase is Phase.ATTACK else ""
        return f"{turn}: deploy {_armies(state.pool)}: click {yours}, then pick how many.{trade}{also}"
    if state.phase is Phase.ATTACK:
        return (
            f"{turn}: attack: click one of your countries with 2 or more armies, then an enemy "
            "neighbour, then the dice. Or end the attacks (under Turn)."
        )
    reach = (
        "linked to it through your countries"
        if state.rules.fortification.value == "connected"
        else "next to it"
    )
    if partner is not None and not state.fortify_chosen:
        return (
            f"{turn}: fortify (click one of your countries, then one of yours or your partner's {reach}), "
            f"exchange or give a country to your partner {player_id(partner)}, or end your turn (under Turn)."
        )
    return (
        f"{turn}: fortify (click one of your countries, then one of yours {reach}, then how many) "
        "or end your turn (under Turn)."
    )


def event_text(state: GameState, event: Event) -> str:
    names = state.world.names
    match event:
        case Placed(p, c):
            return f"{player_id(p)} places an army on {names[c]}"
        case Deployed(p, c, n, owner):
            whose = "" if owner == p else f" (now {player_id(owner)}'s)"
            return f"{player_id(p)} deploys {n} on {names[c]}{whose}"
        case Traded(p, _, armies, bonus):
            extra = f", +2 on {names[bonus]}" if bonus is not None else ""
            return f"{player_id(p)} trades a set for {armies} armies{extra}"
        case Battle(a, b, attack, defence, lost_a, lost_d):
            return (
                f"{names[a]} {list(attack)} attacks {names[b]} {list(defence)}: "
                f"attacker loses {lost_a}, defender loses {lost_d}"
            )
        case Captured(p, c, before):
            return f"{player_id(p)} captures {names[c]} from {player_id(before)}"
        case MovedIn(a, b, n):
            return f"{n} armies move from {names[a]} into {names[b]}"
        case Eliminated(p, by, taken):
            return f"{player_id(p)} is eliminated by {player_id(by)}, who takes {len(taken)} card(s)"
        case Fortified(p, a, b, n, to):
            whose = "" if to == p else f" (now {player_id(to)}'s)"
            return f"{player_id(p)} fortifies {names[b]} with {n} from {names[a]}{whose}"
        case Exchanged(p, partner, own, theirs):
            return f"{player_id(p)} exchanges {names[own]} with {player_id(partner)}'s {names[theirs]}"
        case Given(p, partner, countries):
            return f"{player_id(p)} gives {', '.join(names[c] for c in countries)} to {player_id(partner)}"
        case Surrendered(p, to):
            return f"{player_id(p)} surrenders to {player_id(to)}"
        case CardDrawn(p, _):
            return f"{player_id(p)} draws a commendation"
        case TurnBegan(p, turn, n):
            return f"Turn {turn}: {player_id(p)} receives {n} armies"
        case GameWon(winners):
            return "Victory: " + ", ".join(player_id(p) for p in winners)
    raise TypeError(f"not an event: {event!r}")


def result_text(state: GameState, result: StepResult) -> str:
    """``state`` is the state the result was played from."""
    return "\n".join(event_text(state, e) for e in result.events)
