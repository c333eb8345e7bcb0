"""The Global War family for the game master: one seat acts at a time, one small step at a time.

A service "phase" is one step of the player to act: its initial placement, its deploy step, one
attack, its move-in, or its after-attack choice. The acting seat submits the text actions of the
step (``deploy 3 Alaska``, ``attack Alaska Kamchatka 3``...); ``process`` applies them, rolling the
dice from the generator carried in the state. An attack is the last action of a submission: its
dice are rolled only when the step is processed, so checking orders reveals nothing of them.

Every step has the phase kind ``movement`` so that the service's ``movement`` deadline applies to
each step. A seat that misses a deadline gets the defaults: the fewest moves in, the attacks ended,
the turn ended, reinforcements (after any forced trade) and starting armies on its strongest country.
"""

from __future__ import annotations

import secrets
from typing import Any

from ..formats.globalwar import RecordError, action_to_json, event_to_json, state_from_json, state_to_json
from ..globalwar import (
    MAPS,
    Action,
    Attack,
    Deploy,
    EndAttack,
    EndTurn,
    GameState,
    GlobalWarError,
    MoveIn,
    OptionError,
    Phase,
    Place,
    Rules,
    TradeCards,
    action_text,
    legal_actions,
    new_game,
    option_tree,
    parse_action,
    player_id,
    step,
)
from ..globalwar import cards as card_rules
from ..globalwar.maps import world
from ..globalwar.text import event_text
from ..render import render_board
from .family import FamilyError, Processed, VariantInfo

PLAYER_COLOURS = ("#c8102e", "#1f4e9c", "#2e8b57", "#e0a526", "#7b3f9e", "#4fa3d9")
"""P1 to P6 in a free-for-all game."""
TEAM_COLOURS = ("#c8102e", "#1f4e9c", "#2e8b57", "#f08a8f", "#86a9e0", "#8fd3a8")
"""P1 to P6 in a team game: partners (P1 and P4, P2 and P5, P3 and P6) in a dark and a light shade."""

TITLES = {"global_war": "Global War (42 countries)", "classic_world": "Classic world board (42 territories)"}
OPTIONS: dict[str, Any] = {
    "players": 6,
    "teams": False,
    "fortification": "limited",
    "non_sequential": False,
    "auto_placement": True,
    "seed": 0,
}
"""Option defaults; ``seed`` 0 draws a seed at creation."""


class GlobalWarFamily:
    name = "globalwar"

    def variants(self) -> list[VariantInfo]:
        return [
            VariantInfo(
                map_id,
                TITLES.get(map_id, map_id),
                "Risk-like world conquest, 3-6 players, team play for 6 (P1+P4, P2+P5, P3+P6)",
                [player_id(p) for p in range(6)],
                dict(OPTIONS),
            )
            for map_id in MAPS
        ]

    def new_state(self, variant: str, options: dict[str, Any]) -> dict[str, Any]:
        if variant not in MAPS:
            raise FamilyError(f"unknown variant {variant!r} (variants: {', '.join(MAPS)})")
        for key, value in options.items():
            if key not in OPTIONS:
                raise FamilyError(f"unknown option {key!r} for {variant} (options: {', '.join(OPTIONS)})")
            if type(value) is not type(OPTIONS[key]):
                raise FamilyError(f"option {key!r} must be {type(OPTIONS[key]).__name__}")
        chosen = {**OPTIONS, **options}
        seed = int(chosen.pop("seed")) or secrets.randbelow(2**31) + 1
        try:
            rules = Rules.from_json({**chosen, "map": variant})
        except OptionError as exc:
            raise FamilyError(str(exc)) from None
        return {
            "variant": variant,
            "rules": rules.to_json(),
            "seed": seed,
            "steps": 0,
            "state": state_to_json(new_game(rules, seed)),
        }

    def _state(self, state: dict[str, Any]) -> GameState:
        try:
            return state_from_json(Rules.from_json(state["rules"]), state["state"])
        except (RecordError, OptionError, KeyError) as exc:
            raise FamilyError(f"stored Global War state is unreadable: {exc}") from None

    def seats(self, state: dict[str, Any]) -> list[str]:
        return [player_id(p) for p in range(int(state["rules"]["players"]))]

    def phase(self, state: dict[str, Any]) -> tuple[str, str]:
        s = self._state(state)
        return f"T{s.turn}.{player_id(s.current)}.{s.phase.value}.{state['steps']}", "movement"

    def acting(self, state: dict[str, Any]) -> list[str]:
        s = self._state(state)
        return [] if s.phase is Phase.OVER else [player_id(s.current)]

    def check(self, state: dict[str, Any], seat: str, orders: list[str]) -> list[str | None]:
        s = self._state(state)
        out: list[str | None] = []
        rolled = False
        for text in orders:
            if s.phase is Phase.OVER or player_id(s.current) != seat:
                out.append(f"{text!r}: it is not {seat}'s move any more after the actions before it")
                continue
            if rolled:
                out.append(
                    f"{text!r}: an attack must be the last action sent: its dice are rolled when processed"
                )
                continue
            try:
                action = parse_action(s, text)
                s, _ = step(s, action)
                rolled = isinstance(action, Attack)
                out.append(None)
            except GlobalWarError as exc:
                out.append(str(exc))
        return out

    def _default(self, s: GameState) -> list[Action]:
        """What a seat that missed the deadline does (see the module docstring)."""
        me = s.current
        strongest = max(s.countries_of(me), key=lambda c: (s.armies[c], -c))
        if s.phase is Phase.PLACEMENT:
            return [Place(strongest)]
        if s.phase is Phase.MOVE_IN:
            assert s.pending is not None
            return [MoveIn(s.pending.minimum)]
        if s.phase is Phase.FORTIFY:
            return [EndTurn()]
        actions: list[Action] = []
        if len(s.hands[me]) >= card_rules.FORCED_TRADE:
            actions.append(TradeCards(card_rules.sets_in(s.hands[me], s.world.size)[0]))
            return actions  # the deploy of the traded armies is the next step's
        if s.pool > 0:
            actions.append(Deploy(s.pool, strongest))
        else:
            actions.append(EndAttack())
        return actions

    def process(self, state: dict[str, Any], orders: dict[str, list[str]]) -> Processed:
        s = self._state(state)
        phase, _ = self.phase(state)
        seat = player_id(s.current)
        before = self.view(state)
        results: list[dict[str, Any]] = []
        texts = orders.get(seat, [])
        missed = not texts
        # Each text is read on the state the actions before it left, as ``check`` read it: card
        # numbers, for one, count in the hand as it is then.
        pending: list[str | Action] = list(texts)
        if missed and s.phase is not Phase.OVER:
            pending = list(self._default(s))
        for item in pending:
            if s.phase is Phase.OVER:
                break
            try:
                action = parse_action(s, item) if isinstance(item, str) else item
                text = action_text(s, action)
                after, result = step(s, action)
            except GlobalWarError as exc:  # never expected: the orders were checked on this state
                text = item if isinstance(item, str) else action_text(s, item)
                results.append(
                    {"seat": seat, "action": text, "refused": str(exc)}
                    | {"power": seat, "order": text, "succeeded": False, "message": str(exc)}
                )
                continue
            results.append(
                {
                    "seat": seat,
                    "action": text,
                    "typed": action_to_json(s, action),
                    "default": missed,
                    "events": [event_to_json(s, e) for e in result.events],
                    # What every family's results say, for pages that know no family's rules:
                    "power": seat,
                    "order": text,
                    "succeeded": True,
                    "message": "; ".join(event_text(s, e) for e in result.events),
                }
            )
            s = after
        new_state = {**state, "state": state_to_json(s), "steps": int(state["steps"]) + 1}
        winners = [player_id(p) for p in s.winners]
        return Processed(new_state, phase, before, results, winners)

    def view(self, state: dict[str, Any]) -> dict[str, Any]:
        s = self._state(state)
        public = state_to_json(s)
        for secret in ("hands", "deck", "discard", "rng"):
            public.pop(secret)
        public["cards"] = {player_id(p): len(h) for p, h in enumerate(s.hands)}
        public["eliminated"] = public.pop("out")
        public["map"] = state["variant"]
        public["teams"] = [[player_id(p), player_id(p + 3)] for p in range(3)] if s.rules.teams else []
        return public

    def options(self, state: dict[str, Any], seat: str) -> dict[str, Any]:
        s = self._state(state)
        if s.phase is Phase.OVER or player_id(s.current) != seat:
            return {}
        # The shape of Diplomacy's tree, so that one web page serves both families: by the country
        # clicked, with the actions tied to no country under "turn".
        orders = option_tree(s)
        if "*" in orders:
            orders["turn"] = orders.pop("*")
        return {"due": 0, "waive": None, "orders": orders}

    def winners(self, state: dict[str, Any]) -> list[str]:
        return [player_id(p) for p in self._state(state).winners]

    def draw(
        self,
        variant: str,
        position: dict[str, Any],
        orders: dict[str, list[str]],
        results: list[dict[str, Any]],
        title: str,
    ) -> str:
        """Each country in its owner's colour with its army count (partners in two shades of one
        colour in a team game)."""
        board = world(variant).board
        palette = TEAM_COLOURS if position.get("teams") else PLAYER_COLOURS
        owners: dict[str, str] = position.get("owner", {})
        armies: dict[str, int] = position.get("armies", {})
        fills: dict[int, str] = {}
        labels: dict[int, str] = {}
        for country, owner in owners.items():
            index = board.space_by_id.get(country)
            if index is None:
                raise FamilyError(f"cannot draw the position: unknown country {country!r}")
            fills[index] = palette[(int(owner[1:]) - 1) % len(palette)]
            labels[index] = str(armies.get(country, ""))
        return render_board(board, fills=fills, labels=labels, title=title)


def legal_texts(state: dict[str, Any]) -> list[str]:
    """Every legal action of the seat to act, as text (for tests and simple clients)."""
    s = GlobalWarFamily()._state(state)
    return [action_text(s, a) for a in legal_actions(s)]
