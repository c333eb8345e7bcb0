"""Seeded full games of every option combination, saved, loaded back and replayed from the record."""

from __future__ import annotations

import json
import random
from itertools import product

import pytest

from interboard.games.globalwar import (
    MAPS,
    Fortification,
    GameState,
    IllegalAction,
    Match,
    Phase,
    Rules,
    action_text,
    legal_actions,
    parse_action,
    step,
)
from interboard.games.globalwar import cards as card_rules
from interboard.games.globalwar.bots import GreedyBot, RandomBot
from interboard.games.globalwar.record import (
    match_from_json,
    match_to_json,
    replay,
    state_from_json,
    state_to_json,
)

COMBINATIONS = list(product(list(Fortification), (False, True), (False, True), (False, True)))
MAX_STEPS = 12_000


def _rules(k: int, fortification: Fortification, teams: bool, non_sequential: bool, auto: bool) -> Rules:
    return Rules(
        map=MAPS[k % len(MAPS)],
        players=6 if teams else 3 + k % 4,
        teams=teams,
        fortification=fortification,
        non_sequential=non_sequential,
        auto_placement=auto,
    )


def _invariants(state: GameState) -> None:
    size = state.world.size
    cards = [c for hand in state.hands for c in hand] + list(state.deck) + list(state.discard)
    assert sorted(cards) == list(range(size + card_rules.WILD_CARDS)), "a card was lost or doubled"
    for c, armies in enumerate(state.armies):
        waiting = state.pending is not None and state.pending.target == c
        assert armies >= (0 if waiting else 1), state.world.names[c]
    for p in range(state.players):
        assert state.out[p] == (p not in state.owner)
    if state.phase is not Phase.OVER:
        assert not state.out[state.current]


@pytest.mark.parametrize(
    ("fortification", "teams", "non_sequential", "auto"),
    COMBINATIONS,
    ids=[
        f"{f.value}-{'teams' if t else 'solo'}-{'nonseq' if n else 'seq'}-{'auto' if a else 'manual'}"
        for f, t, n, a in COMBINATIONS
    ],
)
def test_full_game_saves_loads_and_replays(
    fortification: Fortification, teams: bool, non_sequential: bool, auto: bool
) -> None:
    k = COMBINATIONS.index((fortification, teams, non_sequential, auto))
    rules = _rules(k, fortification, teams, non_sequential, auto)
    match = Match.new(rules, seed=1000 + k, names=tuple(f"player{p}" for p in range(rules.players)))
    bots = [GreedyBot(seed=k * 10 + p) for p in range(rules.players)]
    mid_record = None
    while not match.over and len(match.log) < MAX_STEPS:
        match.play(bots[match.state.current].choose(match.state))
        if len(match.log) % 97 == 0:
            _invariants(match.state)
            # Save and load back in the middle of the game.
            assert state_from_json(rules, json.loads(json.dumps(state_to_json(match.state)))) == match.state
        if len(match.log) == 300:
            mid_record = json.loads(json.dumps(match_to_json(match)))
    assert match.over, f"no winner after {MAX_STEPS} steps"
    _invariants(match.state)
    winners = match.state.winners
    assert winners
    if teams:
        assert len({p % 3 for p in winners}) == 1
        assert all(not match.state.out[p] for p in winners)
    holders = set(match.state.owner)
    assert holders <= {q for p in winners for q in (p, match.state.partner(p)) if q is not None}
    record = json.loads(json.dumps(match_to_json(match)))
    loaded = match_from_json(record)
    assert loaded.state == match.state
    assert loaded.winner_names == match.winner_names
    assert [r for _, r in loaded.log] == [r for _, r in match.log]
    if mid_record is not None:
        resumed = match_from_json(mid_record)
        assert len(resumed.log) == 300
        # The same game continues from the loaded record to the same end.
        for action, _ in match.log[300:]:
            resumed.play(action)
        assert resumed.state == match.state


def test_replay_from_text_gives_the_same_game() -> None:
    rules = Rules(players=6, teams=True, fortification=Fortification.UNLIMITED)
    match = Match.new(rules, seed=77)
    bots = [GreedyBot(seed=p) for p in range(6)]
    while not match.over:
        match.play(bots[match.state.current].choose(match.state))
    texts = [entry["text"] for entry in match_to_json(match)["actions"]]
    again = Match.new(rules, seed=77)
    for text in texts:
        again.play_text(text)
    assert again.state == match.state and again.state.winners == match.state.winners


def test_tampered_record_is_caught() -> None:
    match = Match.new(Rules(players=3, auto_placement=True), seed=5)
    bots = [GreedyBot(seed=p) for p in range(3)]
    for _ in range(200):
        match.play(bots[match.state.current].choose(match.state))
    record = match_to_json(match)
    battle = next(
        (k, e) for k, entry in enumerate(record["actions"]) for e in entry["events"] if e["kind"] == "battle"
    )
    battle[1]["attack_dice"] = [6, 6, 6][: len(battle[1]["attack_dice"])]
    battle[1]["defence_dice"] = [1, 1][: len(battle[1]["defence_dice"])]
    _, differences = replay(record)
    assert differences and differences[0].startswith(f"actions[{battle[0]}]")
    record = match_to_json(match)
    record["state"]["armies"]["ALA"] += 1
    assert replay(record)[1] == ["the state reached differs from the recorded state"]


def test_every_listed_action_is_accepted_and_reads_back() -> None:
    """Random bots over every option combination: each listed action is accepted by step, and its
    text parses back to the same action."""
    rng = random.Random(3)
    for k, combo in enumerate(COMBINATIONS):
        rules = _rules(k + 1, *combo)
        match = Match.new(rules, seed=k)
        bot = RandomBot(seed=k, surrender=True)
        for n in range(150):
            if match.over:
                break
            state = match.state
            actions = legal_actions(state)
            sample = actions if n % 25 == 0 else rng.sample(actions, min(5, len(actions)))
            for action in sample:
                assert parse_action(state, action_text(state, action)) == action
                step(state, action)  # raises if refused
            match.play(bot.choose(state))
            _invariants(match.state)


def test_refused_action_leaves_the_game_unchanged() -> None:
    match = Match.new(Rules(players=3, auto_placement=True), seed=2)
    before = match.state
    mine = before.countries_of(0)
    other = next(c for c in range(42) if before.owner[c] != 0)
    with pytest.raises(IllegalAction, match="is not your country"):
        match.play_text(f"deploy 1 {before.world.names[other]}")
    assert match.state is before and not match.log
    match.play_text(f"deploy {before.pool} {before.world.names[mine[0]]}")
    assert match.state.phase is Phase.ATTACK
