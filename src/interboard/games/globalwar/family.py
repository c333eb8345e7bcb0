"""The Global War family on the family protocol: one seat acts at a time, one small step at a time.

A decision point is one step of the player to act: its initial placement, its deploy step, one
attack, its move-in, or its after-attack choice. The acting seat submits the text actions of the
step (``deploy 3 Alaska``, ``attack Alaska Kamchatka 3``...); ``process`` applies them, rolling the
dice from the generator carried in the state. An attack is the last action of a submission: its
dice are rolled only when the step is processed, so checking orders reveals nothing of them.

Every step has the phase kind ``turn``. A seat that misses a deadline gets the defaults: the fewest
moves in, the attacks ended, the turn ended, reinforcements (after any forced trade) and starting
armies on its strongest country.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ...render import render_board
from ...render.base import LegendItem
from ...render.svg import el, mix
from ..protocol import Choices, FamilyError, Option, OptionValue, Pending, Processed, State, VariantInfo
from . import (
    MAPS,
    Action,
    Attack,
    Deploy,
    EndAttack,
    EndTurn,
    Fortification,
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
    scenario,
    step,
)
from . import cards as card_rules
from .bots import GlobalWarBot, GreedyBot, RandomBot
from .maps import world
from .record import RecordError, action_to_json, event_to_json, state_from_json, state_to_json
from .text import event_text, position_text, step_prompt

MAX_BOT_ACTIONS = 200
"""A bound on one step's actions, in case a bot never ends its step (each action is one army at least)."""

PLAYER_COLOURS = ("#c8102e", "#1f4e9c", "#2e8b57", "#e0a526", "#7b3f9e", "#4fa3d9")
"""P1 to P6 in a free-for-all game."""
TEAM_COLOURS = ("#c8102e", "#1f4e9c", "#2e8b57", "#f08a8f", "#86a9e0", "#8fd3a8")
"""P1 to P6 in a team game: partners (P1 and P4, P2 and P5, P3 and P6) in a dark and a light shade."""

TITLES = {"global_war": "Global War (42 countries)", "classic_world": "Classic world board (42 territories)"}
OPTIONS = (
    Option("players", 6, "number of players (a team game has 6)", (), 3, 6),
    Option("teams", False, "team play: 3 teams of 2 (P1+P4, P2+P5, P3+P6)"),
    Option(
        "fortification",
        "limited",
        "limited: one move into an adjacent country; unlimited: any number of such moves; "
        "connected: one move along a chain of your own countries",
        tuple(f.value for f in Fortification),
    ),
    Option("non_sequential", False, "deploy, trade and attack may be mixed until the attacks end"),
    Option("auto_placement", True, "starting armies placed at random (seeded) instead of one at a time"),
)


class GlobalWarFamily:
    name = "globalwar"
    title = "Global War"
    phase_kinds = ("turn",)
    bots = ("greedy", "random")
    default_bot = "greedy"
    cli = "interboard.games.globalwar.cli"

    def variants(self) -> list[VariantInfo]:
        return [
            VariantInfo(
                map_id,
                self.name,
                TITLES.get(map_id, map_id),
                "Risk-like world conquest, 3-6 players, team play for 6 (P1+P4, P2+P5, P3+P6)",
                tuple(player_id(p) for p in range(6)),
                OPTIONS,
                rules=("global-war-play", "global-war-teams"),
            )
            for map_id in MAPS
        ]

    def new_state(self, variant: str, options: Mapping[str, OptionValue], seed: int) -> State:
        info = next((v for v in self.variants() if v.id == variant), None)
        if info is None:
            raise FamilyError(f"unknown Global War variant {variant!r} (variants: {', '.join(MAPS)})")
        chosen = info.check_options(options)
        try:
            rules = Rules.from_json({**chosen, "map": variant})
        except OptionError as exc:
            raise FamilyError(f"{variant}: {exc}") from None
        return {
            "variant": variant,
            "rules": rules.to_json(),
            "seed": seed,
            "steps": 0,
            "state": state_to_json(new_game(rules, seed)),
        }

    def scenario(
        self, variant: str, options: Mapping[str, OptionValue], seed: int, position: Mapping[str, Any]
    ) -> State:
        state = self.new_state(variant, options, seed)
        if not position:
            return state
        rules = Rules.from_json(state["rules"])
        return {**state, "state": state_to_json(scenario.build(rules, seed, position))}

    def position(self, state: State) -> dict[str, Any]:
        return scenario.written(self._state(state))

    def _state(self, state: State) -> GameState:
        try:
            return state_from_json(Rules.from_json(state["rules"]), state["state"])
        except (RecordError, OptionError, KeyError) as exc:
            raise FamilyError(f"stored Global War state is unreadable: {exc}") from None

    def seats(self, state: State) -> list[str]:
        return [player_id(p) for p in range(int(state["rules"]["players"]))]

    def pending(self, state: State) -> Pending:
        s = self._state(state)
        name = f"T{s.turn}.{player_id(s.current)}.{s.phase.value}.{state['steps']}"
        if s.phase is Phase.OVER:
            return Pending(name, "turn", (), s.turn, over=True)
        seat = player_id(s.current)
        return Pending(name, "turn", (seat,), s.turn, seat, {seat: step_prompt(s)})

    def check(self, state: State, seat: str, actions: Sequence[str]) -> list[str | None]:
        s = self._state(state)
        out: list[str | None] = []
        rolled = False
        for text in actions:
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

    def process(self, state: State, submissions: Mapping[str, Sequence[str]]) -> Processed:
        s = self._state(state)
        phase = self.pending(state).phase
        seat = player_id(s.current)
        before = self.view(state)
        results: list[dict[str, Any]] = []
        texts = submissions.get(seat, [])
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
            events = [event_to_json(s, e) for e in result.events]
            results.append(
                {
                    "seat": seat,
                    "action": text,
                    "typed": action_to_json(s, action),
                    "default": missed,
                    "events": events,
                    # Each battle's dice where it was fought, for a page to show them there.
                    "dice": [
                        {"for": side, "at": e["target"], "dice": e[f"{side}_dice"]}
                        for e in events
                        if e["kind"] == "battle"
                        for side in ("attack", "defence")
                    ],
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

    def legal(self, state: State, seat: str, chosen: Sequence[str]) -> Choices:
        """Every action :func:`legal_actions` lists once ``chosen`` is played, until the step ends:
        after an attack (its dice wait for the processing) or when the turn or step passes on."""
        s = self._state(state)
        start = (s.current, s.phase)
        for text in chosen:
            action = parse_action(s, text)
            if isinstance(action, Attack):
                return Choices((), True)
            s, _ = step(s, action)
        if s.phase is Phase.OVER or player_id(s.current) != seat or (s.current, s.phase) != start:
            return Choices((), True)
        return Choices(tuple(action_text(s, a) for a in legal_actions(s)), True)

    def view(self, state: State) -> dict[str, Any]:
        s = self._state(state)
        public = state_to_json(s)
        for secret in ("hands", "deck", "discard", "rng"):
            public.pop(secret)
        public["cards"] = {player_id(p): len(h) for p, h in enumerate(s.hands)}
        public["eliminated"] = public.pop("out")
        public["map"] = state["variant"]
        public["teams"] = [[player_id(p), player_id(p + 3)] for p in range(3)] if s.rules.teams else []
        step_words = {"move_in": "moving in", "placement": "placing starting armies"}
        public["phase_title"] = (
            f"Turn {s.turn}, {player_id(s.current)}: {step_words.get(s.phase.value, s.phase.value)}"
            if s.phase is not Phase.OVER
            else "The game is over"
        )
        # Per seat, what a page shows beside each player (a column per entry).
        players = range(s.players)
        public["counts"] = {
            "countries": {player_id(p): len(s.countries_of(p)) for p in players},
            "armies": {player_id(p): sum(s.armies[c] for c in s.countries_of(p)) for p in players},
            "cards": public["cards"],
        }
        return public

    def options(self, state: State, seat: str, chosen: Sequence[str] = ()) -> dict[str, Any]:
        s = self._state(state)
        if s.phase is Phase.OVER or player_id(s.current) != seat:
            return {}
        # The shape of Diplomacy's tree, so that one web page serves both families: by the country
        # clicked, with the actions tied to no country under "turn".
        orders = option_tree(s)
        if "*" in orders:
            orders["turn"] = orders.pop("*")
        names = s.world.names
        index = s.world.board.space_by_id
        labels = {key: f"{names[index[key]]} ({s.armies[index[key]]})" for key in orders if key in index}
        if "turn" in orders:
            labels["turn"] = "Turn (cards, end, surrender)"
        return {
            "due": 0,
            "waive": None,
            "prompt": step_prompt(s),
            "no_orders": "No actions yet.",
            "labels": labels,
            "example": next(iter(_leaves(orders)), ""),
            "play_at_once": sorted(
                text
                for node in orders.values()
                for kind, actions in node.items()
                if kind in PLAYED_AT_ONCE
                for text in _leaves(actions)
            ),
            "orders": orders,
            # Actions that cannot be taken back ask once more before they are given.
            "confirm": {
                text: f"Surrender to {to}: your countries and armies pass to {to} and you leave the game."
                for to, text in orders.get("turn", {}).get("surrender", {}).items()
            },
        }

    def alive(self, state: State) -> list[str]:
        s = self._state(state)
        return [player_id(p) for p in range(s.players) if not s.out[p]]

    def scores(self, state: State) -> dict[str, int]:
        s = self._state(state)
        return {player_id(p): len(s.countries_of(p)) for p in range(s.players)}

    def winners(self, state: State) -> list[str]:
        return [player_id(p) for p in self._state(state).winners]

    def text(self, state: State) -> str:
        return position_text(self._state(state))

    def bot_actions(self, state: State, seat: str, bot: str, seed: str) -> list[str]:
        """One step of a seat: the bot's actions until its step changes, up to and including an
        attack (whose dice are rolled when the step is processed)."""
        s = self._state(state)
        if bot not in self.bots:
            raise FamilyError(f"no Global War bot {bot!r} (bots: {', '.join(self.bots)})")
        step_seed = zlib.crc32(f"{seed}/{state.get('steps', 0)}".encode())
        chooser: GlobalWarBot = GreedyBot(step_seed) if bot == "greedy" else RandomBot(step_seed)
        texts: list[str] = []
        start = (s.current, s.phase)
        while s.phase is not Phase.OVER and player_id(s.current) == seat and (s.current, s.phase) == start:
            action = chooser.choose(s)
            texts.append(action_text(s, action))
            if isinstance(action, Attack) or len(texts) >= MAX_BOT_ACTIONS:
                break
            s, _ = step(s, action)
        return texts

    def draw(
        self,
        variant: str,
        position: dict[str, Any],
        orders: Mapping[str, Sequence[str]],
        results: Sequence[dict[str, Any]],
        title: str,
    ) -> str:
        """The world map: each country in a light shade of its owner's colour with its army count in
        the colour itself (partners in two shades of one colour in a team game), its name, owner and
        armies on hover, and a legend of the players (or teams) with what each holds."""
        board = world(variant).board
        teams: list[list[str]] = position.get("teams") or []
        palette = TEAM_COLOURS if teams else PLAYER_COLOURS
        owners: dict[str, str] = position.get("owner", {})
        armies: dict[str, int] = position.get("armies", {})
        colour_of = {player_id(p): palette[p % len(palette)] for p in range(len(palette))}
        fills: dict[int, str] = {}
        labels: dict[int, str] = {}
        titles: dict[int, str] = {}
        data: dict[int, dict[str, str]] = {}
        held: dict[str, list[int]] = {}
        for country, owner in owners.items():
            index = board.space_by_id.get(country)
            if index is None or owner not in colour_of:
                raise FamilyError(f"cannot draw the position: unknown country {country!r} or owner {owner!r}")
            colour = colour_of[owner]
            count = int(armies.get(country, 0))
            fills[index] = mix(colour, "#ffffff", 0.45)
            labels[index] = str(count)
            titles[index] = f"{board.spaces[index].name}: {owner}, {count} arm{'y' if count == 1 else 'ies'}"
            data[index] = {"data-owner": owner, "data-colour": colour}
            held.setdefault(owner, []).append(count)
        # Every player, the eliminated too (the view's card counts name them all).
        everyone = {*owners.values(), *position.get("cards", {}), *(s for team in teams for s in team)}
        seats = sorted(everyone & set(colour_of), key=lambda s: int(s[1:]))
        out_seats = set(position.get("eliminated") or [])

        def swatch(seat: str, dx: float = 0.0) -> str:
            return el(
                "rect",
                {
                    "class": "swatch",
                    "data-power": seat,
                    "data-colour": colour_of[seat],
                    "x": dx - 8,
                    "y": -7,
                    "width": 14,
                    "height": 14,
                    "rx": 3,
                    "fill": colour_of[seat],
                    "stroke": "#1a1a1a",
                    "stroke-width": 0.8,
                },
            )

        def holds(seat: str) -> str:
            if seat in out_seats or not held.get(seat):
                return f"{seat}: out"
            mine = held[seat]
            return f"{seat}: {len(mine)} countries, {sum(mine)} armies"

        items: list[LegendItem] = []
        if teams:
            for k, team in enumerate(teams, start=1):
                text = f"Team {k} · " + "; ".join(holds(s) for s in team)
                items.append(
                    LegendItem(swatch(team[0], -4) + swatch(team[1], 6), text, "legend-item legend-team")
                )
        else:
            items.extend(LegendItem(swatch(s), holds(s), "legend-item legend-player") for s in seats)
        return render_board(
            board, fills=fills, labels=labels, title=title, titles=titles, data=data, legend=items
        )


PLAYED_AT_ONCE = ("attack", "move", "end_attack", "end_turn")
"""The tree's action kinds that end the player's step (an attack's dice, the armies moved in after
a conquest, the end of attacking or of the turn): the page sends each with its click."""


def _leaves(node: Any) -> Iterator[str]:
    """The action texts of an option tree, in its order (the first is the page's typing example)."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for child in node.values():
            yield from _leaves(child)


FAMILY = GlobalWarFamily()
"""The family's protocol object, as the registry names it."""
