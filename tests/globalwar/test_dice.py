"""The battle resolver against the exact probabilities of every attacker-dice x defender-dice battle."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from itertools import product

import pytest

from interboard.games.globalwar import Attack, Phase, Rules, new_game, step
from interboard.games.globalwar.results import Battle

BATTLES = 6000


def exact(
    attack_dice: int, defence_dice: int, ties_to_attacker: bool = False
) -> dict[tuple[int, int], float]:
    """P(attacker lost, defender lost) by enumerating every roll, written apart from the engine."""
    counts: Counter[tuple[int, int]] = Counter()
    for roll in product(range(1, 7), repeat=attack_dice + defence_dice):
        a = sorted(roll[:attack_dice], reverse=True)
        d = sorted(roll[attack_dice:], reverse=True)
        lost_a = lost_d = 0
        for i in range(min(attack_dice, defence_dice)):
            if a[i] > d[i] or (ties_to_attacker and a[i] == d[i]):
                lost_d += 1
            else:
                lost_a += 1
        counts[(lost_a, lost_d)] += 1
    total = 6 ** (attack_dice + defence_dice)
    return {k: v / total for k, v in counts.items()}


def test_exact_probabilities_match_the_known_values() -> None:
    # The textbook figures: 3 v 2 attacker wins both 2890/7776, 1 v 1 attacker wins 15/36.
    assert exact(3, 2)[(0, 2)] == pytest.approx(2890 / 7776)
    assert exact(3, 2)[(2, 0)] == pytest.approx(2275 / 7776)
    assert exact(1, 1)[(0, 1)] == pytest.approx(15 / 36)
    assert exact(3, 1)[(0, 1)] == pytest.approx(855 / 1296)


def _frequencies(attack_dice: int, defence_dice: int) -> dict[tuple[int, int], float]:
    w = new_game(Rules(players=3, auto_placement=True), 1)
    alaska, kamchatka = w.world.names.index("Alaska"), w.world.names.index("Kamchatka")
    owner = list(w.owner)
    owner[alaska], owner[kamchatka] = 0, 1
    armies = list(w.armies)
    armies[alaska], armies[kamchatka] = attack_dice + 1 + 10, defence_dice
    state = replace(w, owner=tuple(owner), armies=tuple(armies), phase=Phase.ATTACK, pool=0, current=0)
    counts: Counter[tuple[int, int]] = Counter()
    for _ in range(BATTLES):
        after, result = step(state, Attack(alaska, kamchatka, attack_dice))
        battle = result.events[0]
        assert isinstance(battle, Battle)
        assert len(battle.attack_dice) == attack_dice and len(battle.defence_dice) == defence_dice
        counts[(battle.attacker_lost, battle.defender_lost)] += 1
        state = replace(state, rng=after.rng)  # same battle again, the generator moved on
    return {k: v / BATTLES for k, v in counts.items()}


@pytest.mark.parametrize(("attack_dice", "defence_dice"), list(product((1, 2, 3), (1, 2))))
def test_resolver_frequencies(attack_dice: int, defence_dice: int) -> None:
    right = exact(attack_dice, defence_dice)
    wrong = exact(attack_dice, defence_dice, ties_to_attacker=True)
    outcomes = set(right) | set(wrong)
    # 4.5 standard deviations of a frequency over BATTLES rolls: a correct resolver passes ...
    tolerance = {
        k: 4.5 * math.sqrt(right.get(k, 0) * (1 - right.get(k, 0)) / BATTLES) + 1e-9 for k in outcomes
    }
    # ... and a resolver giving ties to the attacker cannot: it is further off than that somewhere.
    assert any(abs(right.get(k, 0) - wrong.get(k, 0)) > 2 * tolerance[k] for k in outcomes)
    got = _frequencies(attack_dice, defence_dice)
    for k in outcomes:
        assert abs(got.get(k, 0) - right.get(k, 0)) <= tolerance[k], (k, got, right)
