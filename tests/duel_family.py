"""A tiny turn-based family that lives outside interboard, for the tests of the registry and the
protocol: two seats, A and B, trade blows.

The seat whose turn it is attacks with 1 to 3 dice (``attack N``) or passes (``pass``); then the
other seat, which is not the turn's owner, decides how to meet it (``block``: each die hits on a 6,
``dodge``: each die hits on a 5 or 6 but the defender strikes back with one die hitting on 4+). The
dice are rolled only when the defender's decision is processed, from the generator in the state.
A seat that misses its deadline passes (attacker) or blocks (defender). Three hits lose the game;
after 12 rounds it is a draw.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from interboard.games.protocol import (
    Choices,
    FamilyError,
    OptionValue,
    Pending,
    Processed,
    State,
    VariantInfo,
)

SEATS = ("A", "B")
POSITION = ("round", "mover", "step", "dice", "hits", "n")
"""A position's fields: all of the state but the generator's."""
ROUNDS = 12
LIFE = 3


def _other(seat: str) -> str:
    return "B" if seat == "A" else "A"


def _roll(state: State, dice: int) -> list[int]:
    rng = random.Random(state["rng"])
    rolls = [rng.randint(1, 6) for _ in range(dice)]
    state["rng"] = rng.randrange(2**63)
    return rolls


class DuelFamily:
    name = "duel"
    title = "Duel (a test family)"
    phase_kinds = ("turn", "decision")
    bots = ("brave",)
    default_bot = "brave"
    cli = None

    def variants(self) -> list[VariantInfo]:
        return [VariantInfo("duel", self.name, "Duel", "Two seats trade blows; the defender decides.", SEATS)]

    def new_state(self, variant: str, options: Mapping[str, OptionValue], seed: int) -> State:
        if variant != "duel":
            raise FamilyError(f"unknown duel variant {variant!r}")
        self.variants()[0].check_options(options)
        return {
            "rng": seed,
            "round": 1,
            "mover": "A",
            "step": "attack",
            "dice": 0,
            "hits": {"A": 0, "B": 0},
            "n": 0,
        }

    def scenario(
        self, variant: str, options: Mapping[str, OptionValue], seed: int, position: Mapping[str, Any]
    ) -> State:
        state = self.new_state(variant, options, seed)
        for key, value in position.items():
            if key not in POSITION:
                raise FamilyError(f"position.{key}: not a field of a duel position")
            state[key] = value
        return state

    def position(self, state: State) -> dict[str, Any]:
        return {key: state[key] for key in POSITION}

    def seats(self, state: State) -> list[str]:
        return list(SEATS)

    def _over(self, state: State) -> bool:
        return state["round"] > ROUNDS or max(state["hits"].values()) >= LIFE

    def pending(self, state: State) -> Pending:
        name = f"R{state['round']}.{state['mover']}.{state['step']}.{state['n']}"
        if self._over(state):
            return Pending(name, "turn", (), state["round"], over=True)
        mover = state["mover"]
        if state["step"] == "attack":
            return Pending(
                name, "turn", (mover,), state["round"], mover, {mover: "attack with 1-3 dice or pass"}
            )
        defender = _other(mover)
        ask = f"{mover} attacks with {state['dice']} dice: block or dodge"
        return Pending(name, "decision", (defender,), state["round"], mover, {defender: ask})

    def _allowed(self, state: State) -> list[str]:
        if state["step"] == "attack":
            return ["attack 1", "attack 2", "attack 3", "pass"]
        return ["block", "dodge"]

    def check(self, state: State, seat: str, actions: Sequence[str]) -> list[str | None]:
        deciding = self.pending(state).seats
        out: list[str | None] = []
        for k, text in enumerate(actions):
            if seat not in deciding:
                out.append(f"{text!r}: {seat} has nothing to decide now")
            elif k > 0:
                out.append(f"{text!r}: one action a step")
            elif text.strip().lower() not in self._allowed(state):
                out.append(f"{text!r}: not an action here (actions: {', '.join(self._allowed(state))})")
            else:
                out.append(None)
        return out

    def process(self, state: State, submissions: Mapping[str, Sequence[str]]) -> Processed:
        before = self.view(state)
        phase = self.pending(state).phase
        s: State = {**state, "hits": dict(state["hits"]), "n": state["n"] + 1}
        mover = s["mover"]
        results: list[dict[str, Any]] = []
        if s["step"] == "attack":
            given = list(submissions.get(mover, []))
            text = given[0].strip().lower() if given else "pass"
            results.append({"power": mover, "order": text, "succeeded": True, "default": not given})
            if text == "pass":
                s["mover"] = _other(mover)
                s["round"] += mover == "B"
            else:
                s["step"], s["dice"] = "defend", int(text.split()[1])
        else:
            defender = _other(mover)
            given = list(submissions.get(defender, []))
            text = given[0].strip().lower() if given else "block"
            rolls = _roll(s, s["dice"])
            hits = sum(r >= (5 if text == "dodge" else 6) for r in rolls)
            back = _roll(s, 1) if text == "dodge" else []
            s["hits"][defender] += hits
            s["hits"][mover] += sum(r >= 4 for r in back)
            results.append(
                {
                    "power": defender,
                    "order": text,
                    "succeeded": True,
                    "default": not given,
                    "dice": rolls,
                    "back": back,
                    "message": f"{hits} hits",
                }
            )
            s["step"], s["dice"], s["mover"] = "attack", 0, _other(mover)
            s["round"] += mover == "B"
        return Processed(s, phase, before, results, self.winners(s))

    def legal(self, state: State, seat: str, chosen: Sequence[str]) -> Choices:
        if chosen or seat not in self.pending(state).seats:
            return Choices((), True)
        return Choices(tuple(self._allowed(state)), True)

    def options(self, state: State, seat: str, chosen: Sequence[str] = ()) -> dict[str, Any]:
        # The page's shape: what may be clicked is under "orders" (here, tied to no place).
        if seat not in self.pending(state).seats:
            return {}
        return {"orders": {"turn": {text: text for text in self._allowed(state)}}}

    def view(self, state: State) -> dict[str, Any]:
        return {k: v for k, v in state.items() if k != "rng"}

    def alive(self, state: State) -> list[str]:
        return [s for s in SEATS if state["hits"][s] < LIFE]

    def scores(self, state: State) -> dict[str, int]:
        return {s: LIFE - state["hits"][s] for s in SEATS}

    def winners(self, state: State) -> list[str]:
        alive = self.alive(state)
        return alive if len(alive) == 1 else []

    def text(self, state: State) -> str:
        return f"round {state['round']}, hits {state['hits']}"

    def bot_actions(self, state: State, seat: str, bot: str, seed: str) -> list[str]:
        return ["attack 3"] if state["step"] == "attack" else ["dodge"]

    def draw(
        self,
        variant: str,
        position: dict[str, Any],
        orders: Mapping[str, Sequence[str]],
        results: Sequence[dict[str, Any]],
        title: str,
    ) -> str:
        hits = position["hits"]
        return (
            '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40">'
            f'<text x="4" y="24">A {hits["A"]} B {hits["B"]}</text></svg>'
        )


FAMILY = DuelFamily()
