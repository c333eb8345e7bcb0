"""The hex-and-counter wargame family on the family protocol.

Decision points: the set-up (both sides at once, kind ``setup``); each decision phase of the phasing
side (New Units, Movement, and each attack of the Combat phase: kind ``turn``); and the decisions a
combat leaves open (the defender's retreat hex, the attacker's advance: kind ``decision``, asked of
whichever side must answer, with the phasing side as the turn's owner). The die of an attack is
rolled when the attack is processed, from the generator in the state, and every die is in the
results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..protocol import Choices, FamilyError, OptionValue, Pending, Processed, State, VariantInfo
from ..submissions import Drafts
from . import air, armour, inventions, layers, rules, scenario
from .actions import ActionSyntaxError, parse_action
from .bots import heuristic
from .drawing import draw_position
from .engine import IllegalAction, apply, begin_play, finish_setup, finish_step, out_of_turn, run_on, seat_of
from .gamedata import VARIANTS, GameDataError, game_data
from .interface import in_words, option_tree
from .legal import defaults, legal_actions, owes_answer
from .state import World, new_world
from .text import world_text


class HexWarFamily:
    name = "hexwar"
    title = "Hex-and-counter wargames"
    phase_kinds = ("setup", "turn", "decision")
    bots: tuple[str, ...] = ("heuristic",)
    """The family's own bots; the generic random player (``random``) plays it too."""
    default_bot = "heuristic"
    cli = None

    def __init__(self) -> None:
        self._drafts: Drafts[World] = Drafts(self._world, self._play)

    def variants(self) -> list[VariantInfo]:
        out = []
        for variant in VARIANTS:
            data = game_data(variant)
            title, description = data.title, data.description
            out.append(
                VariantInfo(
                    variant, self.name, title, description, data.side_ids, rules=("vernian-play", "vernian")
                )
            )
        return out

    def new_state(self, variant: str, options: Mapping[str, OptionValue], seed: int) -> State:
        info = next((v for v in self.variants() if v.id == variant), None)
        if info is None:
            raise FamilyError(f"unknown hex wargame {variant!r} (variants: {', '.join(VARIANTS)})")
        info.check_options(options)
        world = new_world(variant, seed)
        return {"variant": variant, **world.to_json()}

    def scenario(
        self, variant: str, options: Mapping[str, OptionValue], seed: int, position: Mapping[str, Any]
    ) -> State:
        state = self.new_state(variant, options, seed)
        if not position:
            return state
        world = scenario.build(variant, seed, position)
        run_on(world)
        world.log.clear()
        world.dice.clear()
        return {"variant": variant, **world.to_json()}

    def position(self, state: State) -> dict[str, Any]:
        return scenario.written(self._world(state))

    def _world(self, state: State) -> World:
        try:
            return World.from_json(state)
        except (KeyError, TypeError, ValueError, GameDataError) as exc:
            raise FamilyError(f"stored hex wargame state is unreadable: {exc}") from None

    def seats(self, state: State) -> list[str]:
        return list(game_data(state["game"]).side_ids)

    def pending(self, state: State) -> Pending:
        world = self._world(state)
        if world.stage == "over":
            return Pending(f"end.{world.steps}", "turn", (), world.game_turn, over=True)
        if world.stage == "setup":
            seats = tuple(world.data.side_ids)
            prompts = {s: f"{s}: set up your counters by the set-up rules" for s in seats}
            return Pending(f"setup.{world.steps}", "setup", seats, 0, None, prompts)
        name = f"{world.turn_name()}.{world.side}.{world.phase_name}.{world.steps}"
        seat = seat_of(world)
        if world.decision is not None:
            d = world.decision
            units = ", ".join(d.get("units", []))
            prompt = {
                "retreat": f"{seat}: pick the retreat hex of {units} from {d['hex']}",
                "advance": f"{seat}: advance into {d['hex']} with any of {units}, or stay",
                "storms": f"{seat}: place up to {d.get('count')} storm markers, turn {world.turn_name()}",
            }[d["kind"]]
            return Pending(name, "decision", (seat,), world.game_turn, world.side, {seat: prompt})
        prompt = f"{seat}: {world.phase_name.replace('_', ' ')}, turn {world.turn_name()}"
        return Pending(name, "turn", (seat,), world.game_turn, world.side, {seat: prompt})

    def _play(self, world: World, seat: str, text: str) -> None:
        apply(world, seat, parse_action(world.data, text))

    def check(self, state: State, seat: str, actions: Sequence[str]) -> list[str | None]:
        world = self._world(state)
        if seat not in self.pending(state).seats:
            why = out_of_turn(world, seat)
            return [f"{text!r}: {why}" for text in actions]
        out: list[str | None] = []
        for text in actions:
            try:
                self._play(world, seat, text)
                out.append(None)
            except (ActionSyntaxError, IllegalAction) as exc:
                out.append(f"{text!r}: {exc}")
        return out

    def process(self, state: State, submissions: Mapping[str, Sequence[str]]) -> Processed:
        world = self._world(state)
        pending = self.pending(state)
        before = self.view(state)
        results: list[dict[str, Any]] = []
        world.log.clear()
        world.dice.clear()
        was_decision = world.decision is not None
        for seat in pending.seats:
            default = seat not in submissions
            texts = list(submissions[seat]) if not default else defaults(world, seat)
            self._play_all(world, seat, texts, default, results)
            if not default and owes_answer(world, seat):
                # An empty (or refused) answer where one is needed: the default answers, or the
                # same decision would be asked again for ever.
                self._play_all(world, seat, defaults(world, seat), True, results)
        if world.stage == "setup":
            for seat in pending.seats:
                finish_setup(world, seat)
            begin_play(world)
        elif was_decision:
            if world.decision is not None and world.decision["kind"] == "storms":
                world.decision = None  # the markers are placed: the operational turn goes on
            if world.decision is None:
                world.extra.pop("attacked_now", None)
        else:
            finish_step(world)
        run_on(world)
        world.steps += 1
        for line in world.log:
            # The message in players' words; the log line as the rules wrote it, codes and all.
            results.append(
                {"power": "", "order": "", "succeeded": True, "message": in_words(world, line), "log": line}
            )
        if world.dice:
            results.append(
                {
                    "power": "",
                    "order": "dice",
                    "succeeded": True,
                    "message": "dice rolled",
                    "dice": list(world.dice),
                }
            )
        world.log.clear()
        world.dice.clear()
        new_state = {"variant": state["variant"], **world.to_json()}
        return Processed(new_state, pending.phase, before, results, self.winners(new_state))

    def _play_all(
        self, world: World, seat: str, texts: Sequence[str], default: bool, results: list[dict[str, Any]]
    ) -> None:
        for text in texts:
            try:
                self._play(world, seat, text)
                results.append({"power": seat, "order": text, "succeeded": True, "default": default})
            except (ActionSyntaxError, IllegalAction) as exc:  # checked on submission
                results.append({"power": seat, "order": text, "succeeded": False, "message": str(exc)})

    def legal(self, state: State, seat: str, chosen: Sequence[str]) -> Choices:
        if seat not in self.pending(state).seats:
            return Choices((), True)
        world = self._drafts.after(state, seat, tuple(chosen))
        actions, may_end = legal_actions(world, seat, len(chosen))
        return Choices(tuple(actions), may_end)

    def options(self, state: State, seat: str, chosen: Sequence[str] = ()) -> dict[str, Any]:
        pending = self.pending(state)
        if seat not in pending.seats:
            return {}
        world = self._drafts.after(state, seat, tuple(chosen)) if chosen else self._world(state)
        tree = option_tree(world, seat)
        return {
            "phase": pending.phase,
            "prompt": pending.prompts.get(seat, ""),
            "due": 0,
            "waive": None,
            "chained": True,
            # One click from the odds on the buttons to the table they are read in.
            "help": [["the combat results table", f"/rules/{state['variant']}#rules-vernian-play-combat"]],
            **tree,
        }

    def view(self, state: State) -> dict[str, Any]:
        public = {k: v for k, v in state.items() if k not in ("rng", "seed")}
        world = self._world(state)
        public["victory"] = {side: rules.victory_points(world, side) for side in world.data.side_ids}
        sides = world.data.side_ids
        public["phase_title"] = (
            f"{world.side}: {world.phase_name.replace('_', ' ')}, turn {world.turn_name()}"
            if world.stage == "play"
            else {"setup": "Set-up", "over": "The game is over"}.get(world.stage, world.stage)
        )
        on_map = [world.side_of(u) for u in world.on_map()]
        public["counts"] = {  # what a page shows beside each side
            "units on the map": {side: on_map.count(side) for side in sides},
            "victory points": {side: sum(public["victory"][side].values()) for side in sides},
        }
        return public

    def alive(self, state: State) -> list[str]:
        return self.seats(state)

    def scores(self, state: State) -> dict[str, int]:
        world = self._world(state)
        return {side: sum(rules.victory_points(world, side).values()) for side in world.data.side_ids}

    def winners(self, state: State) -> list[str]:
        winner = state.get("winner")
        return [winner] if winner else []

    def text(self, state: State) -> str:
        return world_text(self._world(state))

    def bot_actions(self, state: State, seat: str, bot: str, seed: str) -> list[str]:
        if bot != "heuristic":
            raise FamilyError(
                f"no hex wargame bot {bot!r} (bots: heuristic; the generic 'random' plays it too)"
            )
        return heuristic(state, seat, seed)

    def draw(
        self,
        variant: str,
        position: dict[str, Any],
        orders: Mapping[str, Sequence[str]],
        results: Sequence[dict[str, Any]],
        title: str,
    ) -> str:
        try:
            return draw_position(game_data(position.get("game", variant)), position, title)
        except (KeyError, TypeError, ValueError) as exc:
            raise FamilyError(f"cannot draw the position: {exc}") from None


layers.provide(inventions.LAYER, air.LAYER, armour.LAYER)  # the layers a variant's data may name

FAMILY = HexWarFamily()
"""The family's protocol object, as the registry names it."""
