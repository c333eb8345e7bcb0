"""Reads the scenario fixtures (see scenarios/FORMAT.md) and plays them against the engine."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from interboard import rng as dice_rng
from interboard.games.globalwar import (
    ActionSyntaxError,
    GameState,
    IllegalAction,
    Phase,
    Rules,
    new_game,
    parse_action,
    step,
)
from interboard.games.globalwar import cards as card_rules
from interboard.games.globalwar.actions import find_country
from interboard.games.globalwar.record import event_to_json
from interboard.games.globalwar.results import StepResult
from interboard.games.globalwar.rules import Fortification
from interboard.games.globalwar.state import PendingMove, player_index

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
        for _, key, value in self.lines:
            if key == "new_game":
                return new_game(rules, int(value))
        state = new_game(rules, 0)
        w = state.world
        owner: dict[int, int] = {}
        armies: dict[int, int] = {}
        hands: list[list[int]] = [[] for _ in range(rules.players)]
        changes: dict[str, object] = {
            "pool": 0,
            "to_place": tuple(0 for _ in range(rules.players)),
            "phase": Phase.DEPLOY,
        }
        rest: list[int] = []
        dice: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        for n, key, value in self.lines:
            words = value.split()
            if key == "owner":
                player = self.player(n, rules, words[0])
                for item in value.split(None, 1)[1].split(","):
                    name, _, count = item.strip().rpartition("=")
                    country = find_country(w, name)
                    owner[country] = player
                    armies[country] = int(count)
            elif key == "rest":
                rest = [self.player(n, rules, word) for word in words]
            elif key == "turn":
                changes["current"] = self.player(n, rules, words[0])
                changes["phase"] = Phase(words[1])
            elif key == "pool":
                changes["pool"] = int(value)
            elif key == "to_place":
                places = [0] * rules.players
                for item in words:
                    who, _, count = item.partition("=")
                    places[self.player(n, rules, who)] = int(count)
                changes["to_place"] = tuple(places)
            elif key == "sets_traded":
                changes["sets_traded"] = int(value)
            elif key in ("captured", "fortify_chosen"):
                changes[key] = value == "yes"
            elif key == "pending":
                source, _, target_and_counts = value.partition("->")
                target, low, high = target_and_counts.rsplit(None, 2)
                changes["pending"] = PendingMove(
                    find_country(w, source.strip()), find_country(w, target.strip()), int(low), int(high)
                )
            elif key == "fortified_from":
                changes["fortified_from"] = frozenset(find_country(w, x.strip()) for x in value.split(","))
            elif key == "dice":
                left, _, right = value.partition("/")
                dice = (tuple(int(x) for x in left.split()), tuple(int(x) for x in right.split()))
        unlisted = [c for c in range(w.size) if c not in owner]
        if unlisted and not rest:
            raise ScenarioError(f"{self.path.name}: countries {unlisted[:3]}... have no owner (add 'rest:')")
        for k, c in enumerate(unlisted):
            owner[c] = rest[k % len(rest)]
            armies[c] = 1
        owner_t = tuple(owner[c] for c in range(w.size))
        for n, key, value in self.lines:
            if key == "hand":
                player = self.player(n, rules, value.split()[0])
                for item in value.split(None, 1)[1].split(","):
                    hands[player].append(self.card(n, state, item.strip(), player, owner_t, hands))
        in_hands = {c for h in hands for c in h}
        state = replace(
            state,
            owner=owner_t,
            armies=tuple(armies[c] for c in range(w.size)),
            hands=tuple(card_rules.hand_order(tuple(h), w.size) for h in hands),
            deck=tuple(c for c in card_rules.deck_for(w.size) if c not in in_hands),
            discard=(),
            out=tuple(p not in owner_t for p in range(rules.players)),
            turn=1,
            **changes,  # type: ignore[arg-type]
        )
        if dice is not None:
            state = replace(state, rng=rng_for_dice(*dice))
        return state

    def player(self, n: int, rules: Rules, text: str) -> int:
        p = player_index(rules, text)
        if p is None:
            raise self.fail(n, f"unknown player {text!r}")
        return p

    def card(
        self, n: int, state: GameState, text: str, player: int, owner: tuple[int, ...], hands: list[list[int]]
    ) -> int:
        size = state.world.size
        taken = {c for h in hands for c in h}
        if text in (*card_rules.SYMBOLS, card_rules.WILD):
            for card in card_rules.deck_for(size):
                country = card_rules.country_of(card, size)
                if (
                    card not in taken
                    and card_rules.symbol(card, size) == text
                    and (country is None or owner[country] != player)
                ):
                    return card
            raise self.fail(n, f"no {text} card left")
        return find_country(state.world, text)

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
