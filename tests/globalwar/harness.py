"""Reads the scenario fixtures (see scenarios/FORMAT.md) and plays them against the engine."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from interboard import rng as dice_rng
from interboard.games.globalwar import (
    ActionSyntaxError,
    GameState,
    IllegalAction,
    Rules,
    new_game,
    parse_action,
    scenario,
    step,
)
from interboard.games.globalwar.actions import find_country
from interboard.games.globalwar.record import event_to_json
from interboard.games.globalwar.results import StepResult
from interboard.games.globalwar.rules import Fortification
from interboard.games.globalwar.state import player_index
from interboard.games.protocol import FamilyError

SCENARIOS = Path(__file__).parent / "scenarios"


class ScenarioError(AssertionError):
    pass


def rng_for_dice(attack: tuple[int, ...], defence: tuple[int, ...]) -> int:
    """A generator state whose next rolls are exactly these dice (found by search)."""
    for k in range(2_000_000):
        state = dice_rng.seed_state(k)
        state, a = dice_rng.roll_dice(state, len(attack))
        _, d = dice_rng.roll_dice(state, len(defence))
        if a == attack and d == defence:
            return dice_rng.seed_state(k)
    raise ScenarioError(f"no generator state rolls {attack} / {defence}")


def _rules(text: str) -> Rules:
    values: dict[str, object] = {}
    for item in text.split():
        key, _, value = item.partition("=")
        if key in ("teams", "non_sequential", "auto_placement"):
            values[key] = value == "true"
        elif key == "players":
            values[key] = int(value)
        elif key == "fortification":
            values[key] = Fortification(value)
        elif key == "map":
            values[key] = value
        else:
            raise ScenarioError(f"unknown rule {key!r}")
    return Rules(**values)  # type: ignore[arg-type]


class Scenario:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines = [
            (n, line.split(":", 1)[0].strip(), line.split(":", 1)[1].strip() if ":" in line else "")
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if line.strip() and not line.lstrip().startswith("#")
        ]

    def fail(self, n: int, message: str) -> ScenarioError:
        return ScenarioError(f"{self.path.name}:{n}: {message}")

    def run(self) -> None:
        rules = Rules()
        for _, key, value in self.lines:
            if key == "rules":
                rules = _rules(value)
        state = self.build(rules)
        last: StepResult | None = None
        refusal: tuple[int, Exception] | None = None
        for n, key, value in self.lines:
            if refusal is not None and key not in ("refused", "syntax"):
                raise self.fail(refusal[0], f"refused unexpectedly: {refusal[1]}")
            if key == "do":
                try:
                    state, last = step(state, parse_action(state, value))
                except (IllegalAction, ActionSyntaxError) as exc:
                    refusal = (n, exc)
            elif key in ("refused", "syntax"):
                if refusal is None:
                    raise self.fail(n, f"expected a {key} error, but the action was accepted")
                wanted = IllegalAction if key == "refused" else ActionSyntaxError
                if not isinstance(refusal[1], wanted) or value.lower() not in str(refusal[1]).lower():
                    raise self.fail(n, f"expected a {key} error with {value!r}, got {refusal[1]!r}")
                refusal = None
            elif key == "expect":
                self.expect(n, state, last, value)
        if refusal is not None:
            raise self.fail(refusal[0], f"refused unexpectedly: {refusal[1]}")

    def build(self, rules: Rules) -> GameState:
        """The position the lines build, read as a scenario position by the family's reader."""
        for _, key, value in self.lines:
            if key == "new_game":
                return new_game(rules, int(value))
        position: dict[str, Any] = {"pool": 0, "to_place": {}, "phase": "deploy"}
        dice: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        for _, key, value in self.lines:
            words = value.split()
            if key == "owner":
                countries = position.setdefault("owner", {}).setdefault(words[0], {})
                for item in value.split(None, 1)[1].split(","):
                    name, _, count = item.strip().rpartition("=")
                    countries[name] = int(count)
            elif key == "rest":
                position["rest"] = words
            elif key == "turn":
                position["current"], position["phase"] = words[0], words[1]
            elif key in ("pool", "sets_traded"):
                position[key] = int(value)
            elif key == "to_place":
                position["to_place"] = {
                    who: int(count) for who, _, count in (w.partition("=") for w in words)
                }
            elif key in ("captured", "fortify_chosen"):
                position[key] = value == "yes"
            elif key == "pending":
                source, _, target_and_counts = value.partition("->")
                target, low, high = target_and_counts.rsplit(None, 2)
                position["pending"] = {"from": source.strip(), "to": target.strip(), "minimum": int(low),
                                       "maximum": int(high)}  # fmt: skip
            elif key == "fortified_from":
                position["fortified_from"] = [x.strip() for x in value.split(",")]
            elif key == "hand":
                held = position.setdefault("hands", {}).setdefault(words[0], [])
                held.extend(item.strip() for item in value.split(None, 1)[1].split(","))
            elif key == "dice":
                left, _, right = value.partition("/")
                dice = (tuple(int(x) for x in left.split()), tuple(int(x) for x in right.split()))
        if "owner" not in position:
            raise ScenarioError(f"{self.path.name}: no 'owner:' line (or 'new_game:')")
        try:
            state = scenario.build(rules, 0, position)
        except FamilyError as exc:
            raise ScenarioError(f"{self.path.name}: {exc}") from None
        return replace(state, rng=rng_for_dice(*dice)) if dice is not None else state

    def player(self, n: int, rules: Rules, text: str) -> int:
        p = player_index(rules, text)
        if p is None:
            raise self.fail(n, f"unknown player {text!r}")
        return p

    def expect(self, n: int, state: GameState, last: StepResult | None, text: str) -> None:
        words = text.split()
        what = words[0]
        rules = state.rules

        def check(got: object, wanted: object) -> None:
            if got != wanted:
                raise self.fail(n, f"expect {text!r}: got {got!r}")

        if what == "phase":
            check(state.phase.value, words[1])
        elif what == "current":
            check(state.current, self.player(n, rules, words[1]))
        elif what == "pool":
            check(state.pool, int(words[1]))
        elif what == "hand":
            check(len(state.hands[self.player(n, rules, words[1])]), int(words[2]))
        elif what == "countries":
            check(len(state.countries_of(self.player(n, rules, words[1]))), int(words[2]))
        elif what == "armies":
            p = self.player(n, rules, words[1])
            check(sum(a for c, a in enumerate(state.armies) if state.owner[c] == p), int(words[2]))
        elif what == "out":
            check(
                {p for p in range(rules.players) if state.out[p]},
                {self.player(n, rules, w) for w in words[1:]},
            )
        elif what == "winners":
            wanted = (
                () if words[1:] == ["none"] else tuple(sorted(self.player(n, rules, w) for w in words[1:]))
            )
            check(tuple(sorted(state.winners)), wanted)
        elif what == "sets_traded":
            check(state.sets_traded, int(words[1]))
        elif what == "to_place":
            check(state.to_place[self.player(n, rules, words[1])], int(words[2]))
        elif what in ("event", "no"):
            kind = words[-1]
            if last is None:
                raise self.fail(n, "no action was played")
            kinds = {event_to_json(state, e)["kind"] for e in last.events}
            check(kind in kinds, what == "event")
        else:
            # "<country> <player> [armies]": the country may be several words.
            *name, last_word = words
            if last_word.isdigit():
                *name, who = name
                armies: int | None = int(last_word)
            else:
                who, armies = last_word, None
            country = find_country(state.world, " ".join(name))
            check(state.owner[country], self.player(n, rules, who))
            if armies is not None:
                check(state.armies[country], armies)


def scenario_paths() -> list[Path]:
    return sorted(SCENARIOS.glob("*.txt"))
