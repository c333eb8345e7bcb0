"""The battle calculator: chances worked out by hand (cases/odds.json), an independent brute-force
enumeration of small battles to 1e-9, sampling within its confidence interval, the command."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from interboard.cli.main import app
from interboard.games.axis_allies.actions import parse_counts
from interboard.games.axis_allies.gamedata import game_data
from interboard.games.axis_allies.odds import Battle, OddsError, exact, simulate
from interboard.games.axis_allies.state import Unit
from interboard.games.axis_allies.volleys import Context, Volley, can_hit, eligible, volley_order, volleys

CASES = json.loads((Path(__file__).parent / "cases" / "odds.json").read_text(encoding="utf-8"))["cases"]
runner = CliRunner()


def units(game: str, text: str) -> tuple[str, ...]:
    return tuple(t for t, n in parse_counts(game_data(game).units, text, "test") for _ in range(n))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_known_odds(case: dict[str, Any]) -> None:
    game = case.get("game", "aa_europe_1999")
    battle = Battle(
        game_data(game).units,
        units(game, case["attack"]),
        units(game, case["defend"]),
        kind=case.get("kind", "land"),
        bombard=units(game, case["bombard"]) if "bombard" in case else (),
        low_luck=case.get("mode") == "low-luck",
    )
    got = exact(battle).to_json()
    for key, value in case["expect"].items():
        assert got[key] == pytest.approx(float(Fraction(value)), abs=1e-9), key


def test_the_issues_reference_battle() -> None:
    game = "aa_europe_1999"
    odds = exact(
        Battle(
            game_data(game).units, units(game, "3 infantry, 1 artillery, 2 armour"), units(game, "4 infantry")
        )
    )
    assert round(odds.attacker_wins, 5) == 0.95268
    assert odds.attacker_wins + odds.defender_wins + odds.draw + odds.stalemate == pytest.approx(
        1.0, abs=1e-12
    )


# ---------------------------------------------------------------------- an independent enumeration
ATTACK = {"infantry": 1, "artillery": 2, "armour": 3, "fighter": 3}
DEFENCE = {"infantry": 2, "artillery": 2, "armour": 2, "fighter": 4}
COST = {"infantry": 3, "artillery": 4, "armour": 5, "fighter": 12}


def attack_values(side: tuple[str, ...]) -> list[int]:
    support = side.count("artillery")
    out = []
    for t in side:
        if t == "infantry" and support:
            support -= 1
            out.append(2)
        else:
            out.append(ATTACK[t])
    return out


@cache
def brute(att: tuple[str, ...], dfn: tuple[str, ...]) -> tuple[Fraction, Fraction, Fraction]:
    """(attacker wins, defender wins, draw) by enumerating every round's hits and misses. Sides are
    listed in their order of loss (the first unit goes first)."""
    if not att and not dfn:
        return (Fraction(0), Fraction(0), Fraction(1))
    if not dfn:
        return (Fraction(1), Fraction(0), Fraction(0))
    if not att:
        return (Fraction(0), Fraction(1), Fraction(0))
    shots = [Fraction(v, 6) for v in attack_values(att)] + [Fraction(DEFENCE[t], 6) for t in dfn]
    stay = Fraction(0)
    total = [Fraction(0)] * 3
    for outcome in itertools.product((0, 1), repeat=len(shots)):
        p = Fraction(1)
        for hit, q in zip(outcome, shots, strict=True):
            p *= q if hit else 1 - q
        hits_on_d = sum(outcome[: len(att)])
        hits_on_a = sum(outcome[len(att) :])
        if hits_on_a == 0 and hits_on_d == 0:
            stay += p
            continue
        sub = brute(att[hits_on_a:], dfn[hits_on_d:])
        total = [t + p * s for t, s in zip(total, sub, strict=True)]
    return (total[0] / (1 - stay), total[1] / (1 - stay), total[2] / (1 - stay))


def loss_order(side: list[str], attacking: bool) -> tuple[str, ...]:
    value = ATTACK if attacking else DEFENCE
    return tuple(sorted(side, key=lambda t: (COST[t], value[t])))


@pytest.mark.parametrize(
    ("attack", "defend"),
    [
        (["infantry", "infantry", "artillery"], ["infantry", "infantry"]),
        (["infantry", "armour", "fighter"], ["infantry", "armour"]),
        (["artillery", "armour", "armour"], ["fighter", "infantry"]),
        (["infantry", "infantry", "artillery", "fighter"], ["infantry", "infantry", "armour"]),
    ],
)
def test_exact_agrees_with_brute_force(attack: list[str], defend: list[str]) -> None:
    odds = exact(Battle(game_data("aa_europe_1999").units, tuple(attack), tuple(defend)))
    want = brute(loss_order(attack, True), loss_order(defend, False))
    assert odds.attacker_wins == pytest.approx(float(want[0]), abs=1e-9)
    assert odds.defender_wins == pytest.approx(float(want[1]), abs=1e-9)
    assert odds.draw == pytest.approx(float(want[2]), abs=1e-9)


# ---------------------------------------------------------------------- a plain chain, every die rolled
def plain_chain(battle: Battle) -> tuple[float, float, float, float]:
    """(attacker wins, defender wins, draw, stalemate) of a small battle by the plainest chain: a
    state is the list of hit points left on each side in its order of loss, every die of every volley
    is enumerated (or low luck's one die), and each hit goes to the first hit point of its class.
    It shares only the rules of who fires at what (:mod:`.volleys`) with the calculator."""
    table = battle.table

    def order(types: tuple[str, ...], attacking: bool, first_id: int) -> tuple[tuple[int, str, int], ...]:
        points = [(first_id + k, t, j) for k, t in enumerate(types) for j in range(table[t].hits)]
        return tuple(
            sorted(
                points,
                key=lambda p: (
                    0 if p[2] < table[p[1]].hits - 1 else table[p[1]].cost or 0,
                    table[p[1]].attack if attacking else table[p[1]].defence,
                    p[0],
                    p[2],
                ),
            )
        )

    def live(points: tuple[tuple[int, str, int], ...], owner: str) -> list[Unit]:
        return [Unit(uid, t, owner, "X") for uid, t in sorted({(uid, t) for uid, t, _ in points})]

    def outcomes(vs: list[Volley]) -> list[tuple[float, dict[str, int]]]:
        """Every way the volleys can fall: (chance, hits by class)."""
        out: list[tuple[float, dict[str, int]]] = [(1.0, {})]
        for v in vs:
            if battle.low_luck:
                sure, rest = divmod(sum(v.values), 6)
                ways = [(1 - rest / 6, sure), (rest / 6, sure + 1)]
            else:
                ways = []
                for dice in itertools.product((False, True), repeat=len(v.values)):
                    q = 1.0
                    for hit, value in zip(dice, v.values, strict=True):
                        q *= value / 6 if hit else 1 - value / 6
                    ways.append((q, sum(dice)))
            out = [(p * q, {**h, v.targets: h.get(v.targets, 0) + n}) for p, h in out for q, n in ways if q]
        return out

    def take(
        points: tuple[tuple[int, str, int], ...], hits: dict[str, int]
    ) -> tuple[tuple[int, str, int], ...]:
        left = list(points)
        for cls in ("air", "sea", "not_sub", "any"):
            for _ in range(hits.get(cls, 0)):
                pick = next((p for p in left if eligible(table, Unit(p[0], p[1], "", ""), cls)), None)
                if pick is not None:
                    left.remove(pick)
        return tuple(left)

    context = {
        first: Context(
            land=battle.kind != "sea",
            first_round=first,
            aa=battle.aa,
            low_luck=battle.low_luck,
            air_needs_destroyer=battle.air_needs_destroyer,
            defending_subs_first_strike=battle.defending_subs_first_strike,
        )
        for first in (True, False)
    }

    @cache
    def value(
        a: tuple[tuple[int, str, int], ...], d: tuple[tuple[int, str, int], ...], first: bool
    ) -> tuple[float, ...]:
        if not a or not d:
            return (float(bool(a) and not d), float(bool(d) and not a), float(not a and not d), 0.0)
        ctx = context[first]
        if not any(can_hit(table, live(a, "A"), live(d, "D"), ctx)) and not (first and battle.aa):
            return (0.0, 0.0, 0.0, 1.0)
        states = {(a, d): 1.0}
        for stage in volley_order(1 if first else 2, ctx.land):
            after: dict[tuple[Any, Any], float] = {}
            for (sa, sd), p in states.items():
                vs = volleys(stage, table, live(sa, "A"), live(sd, "D"), ctx) if sa and sd else []
                mine = [v for v in vs if v.side == "attacker"]
                theirs = [v for v in vs if v.side == "defender"]
                for pa, on_d in outcomes(mine):
                    for pd, on_a in outcomes(theirs):
                        key = (take(sa, on_a), take(sd, on_d))
                        after[key] = after.get(key, 0.0) + p * pa * pd
            states = after
        stay = 0.0 if first else states.pop((a, d), 0.0)
        if stay > 1 - 1e-12:
            return (0.0, 0.0, 0.0, 1.0)
        total = [0.0] * 4
        for (na, nd), p in states.items():
            total = [t + p * s for t, s in zip(total, value(na, nd, False), strict=True)]
        return tuple(t / (1 - stay) for t in total)

    result = value(order(battle.attacker, True, 0), order(battle.defender, False, 100), True)
    return (result[0], result[1], result[2], result[3])


SEA = ("battleship", "destroyer", "submarine", "carrier", "fighter", "transport")
LAND = ("infantry", "artillery", "armour", "fighter", "bomber")


@st.composite
def small_battles(draw: st.DrawFn) -> Battle:
    kind = draw(st.sampled_from(["land", "sea"]))
    pool = SEA if kind == "sea" else LAND
    side = st.lists(st.sampled_from(pool), min_size=1, max_size=3).map(tuple)
    return Battle(
        game_data("aa_europe_1999").units,
        draw(side),
        draw(side),
        kind=kind,
        aa=kind == "land" and draw(st.booleans()),
        low_luck=draw(st.booleans()),
        air_needs_destroyer=draw(st.booleans()),
        defending_subs_first_strike=draw(st.booleans()),
    )


@settings(max_examples=60, deadline=None)
@given(small_battles())
def test_exact_agrees_with_a_plain_chain_on_small_battles(battle: Battle) -> None:
    """Submarines' first strike, aircraft that cannot hit submarines without a destroyer, AA fire,
    two-hit battleships, low luck: the calculator's shared states agree with every die enumerated."""
    try:
        odds = exact(battle)
    except OddsError:
        assume(False)  # transports alone: nothing fights
    want = plain_chain(battle)
    got = (odds.attacker_wins, odds.defender_wins, odds.draw, odds.stalemate)
    assert got == pytest.approx(want, abs=1e-9)


def test_a_long_battle_is_solved_however_deep_its_chain() -> None:
    """Three hundred infantry against two: the chain is hundreds of states deep (the attacker can,
    however unlikely, lose one at a time), deeper than Python's default recursion limit."""
    table = game_data("aa_europe_1999").units
    odds = exact(Battle(table, ("infantry",) * 300, ("infantry",) * 2))
    assert odds.attacker_wins == pytest.approx(1.0, abs=1e-9)
    assert odds.defender_loss == pytest.approx(2 * (table["infantry"].cost or 0))


@pytest.mark.parametrize(
    ("attack", "defend", "kind", "aa"),
    [
        (
            "4 infantry, 2 artillery, 3 armour, 2 fighter, 1 bomber",
            "6 infantry, 2 armour, 1 fighter",
            "land",
            True,
        ),
        (
            "2 battleship, 2 destroyer, 3 submarine, 2 fighter",
            "1 battleship, 3 destroyer, 2 submarine, 1 carrier, 2 fighter",
            "sea",
            False,
        ),
    ],
    ids=["land_with_aa", "sea_with_every_rule"],
)
def test_sampling_agrees_with_exact(attack: str, defend: str, kind: str, aa: bool) -> None:
    game = "aa_europe_1999"
    battle = Battle(game_data(game).units, units(game, attack), units(game, defend), kind=kind, aa=aa)
    want = exact(battle)
    got = simulate(battle, 4000, seed=7)
    for key in ("attacker_wins", "defender_wins"):
        p = getattr(want, key)
        spread = 4.5 * math.sqrt(max(p * (1 - p), 1e-4) / 4000)  # far beyond chance, yet tight
        assert abs(getattr(got, key) - p) < spread, (key, getattr(got, key), p)


def test_an_order_of_loss_is_followed() -> None:
    game = "aa_europe_1999"
    table = game_data(game).units
    cheap = exact(Battle(table, units(game, "1 infantry, 1 armour"), units(game, "2 infantry")))
    dear = exact(
        Battle(
            table,
            units(game, "1 infantry, 1 armour"),
            units(game, "2 infantry"),
            attacker_order=("armour", "infantry"),
        )
    )
    assert dear.attacker_wins < cheap.attacker_wins  # losing the armour first leaves the weaker unit


def test_a_battle_without_fighting_units_is_refused() -> None:
    game = "aa_europe_1999"
    with pytest.raises(OddsError, match="fighting units on both sides"):
        exact(Battle(game_data(game).units, units(game, "1 fighter"), units(game, "1 aa gun")))


def test_the_odds_command() -> None:
    out = runner.invoke(
        app,
        [
            "odds",
            "aa_europe_1999",
            "--attack",
            "3 infantry, 1 artillery, 2 armour",
            "--defend",
            "4 infantry",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    last = json.loads(out.output.strip().splitlines()[-1])
    assert round(last["attacker_wins"], 5) == 0.95268 and {"defender_wins", "draw"} <= set(last)
    assert "attacker wins" in out.output and "expected losses" in out.output
    out = runner.invoke(
        app,
        [
            "odds",
            "aa_europe_1999",
            "--attack",
            "1 fighter",
            "--defend",
            "1 fighter",
            "--mode",
            "dice",
            "--trials",
            "2000",
        ],
    )
    assert out.exit_code == 0 and "2,000 battles sampled" in out.output
    out = runner.invoke(app, ["odds", "aa_europe_1999", "--attack", "2 dragons", "--defend", "1 infantry"])
    assert out.exit_code == 2 and "unknown unit 'dragons'" in out.output and "armour" in out.output
    out = runner.invoke(app, ["odds", "standard", "--attack", "1 infantry", "--defend", "1 infantry"])
    assert out.exit_code == 2 and "diplomacy variant" in out.output
    out = runner.invoke(
        app,
        [
            "odds",
            "aa_europe_1999",
            "--attack",
            "1 infantry",
            "--defend",
            "1 infantry",
            "--bombard",
            "1 battleship",
        ],
    )
    assert out.exit_code == 2 and "--kind amphibious" in out.output
