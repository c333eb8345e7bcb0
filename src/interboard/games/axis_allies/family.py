"""The Axis & Allies family on the family protocol.

A decision point is one step of the mover (its purchase, its combat move, its non-combat move, its
placement: the kind ``turn``), or a decision a battle asks (casualties, from each side at once; a
retreat, from the attacker: the kind ``decision``, with the mover's seat as the turn's owner). The
dice of a battle are rolled when the decision before them is processed, from the generator in the
state, and every roll is in the results.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..protocol import Choices, FamilyError, OptionValue, Pending, Processed, State, VariantInfo
from ..submissions import Drafts
from . import bots, combat, layers, linked, rules, scenario
from .actions import Action, ActionSyntaxError, action_text, parse_action
from .drawing import draw_position
from .engine import apply, begin_turn, finish_step, run_on
from .gamedata import GAMES, GameDataError, game_data
from .interface import option_tree
from .legal import legal_actions
from .options import Options, option_specs
from .state import SEAT_OF, IllegalAction, Phase, World, new_world, seat_of
from .text import world_text

TITLES = {
    "aa_europe_1999": "Axis & Allies Europe (1999)",
    "aa_pacific_2001": "Axis & Allies Pacific (2001)",
    "aa_linked_world": "Axis & Allies: the linked world game",
}
DESCRIPTIONS = {
    "aa_europe_1999": "Germany against the Soviet Union, the UK and the USA in Europe, the Atlantic and "
    "North Africa: convoys, Middle East oil, Soviet conversion. Capture an enemy capital and "
    "hold it a round.",
    "aa_pacific_2001": "Japan against the UK (India and Australia), China and the USA across the Pacific: "
    "convoy routes, kamikaze, marines, destroyer-transports; Japan wins at 22 victory points.",
    "aa_linked_world": "Rob Daviau's linked game: the Europe and Pacific boards joined by ten "
    "interboard spaces into one war; Germany, the USSR, Japan, the UK and the USA in that order.",
}


def seats_of(game: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(seat_of_power(p.id) for p in game_data(game).powers))


def seat_of_power(power: str) -> str:
    return SEAT_OF.get(power, power)


class AxisAlliesFamily:
    name = "axis_allies"
    title = "Axis & Allies"
    phase_kinds = ("turn", "decision")
    bots: tuple[str, ...] = ("calculator", "turtle")
    """The family's own bots (:mod:`.bots`); the generic random player (``random``) plays it too."""
    default_bot = "calculator"

    def __init__(self) -> None:
        self._drafts: Drafts[World] = Drafts(self._world, self._play)

    cli = "interboard.games.axis_allies.cli"

    def variants(self) -> list[VariantInfo]:
        return [
            VariantInfo(
                g,
                self.name,
                TITLES[g],
                DESCRIPTIONS[g],
                seats_of(g),
                option_specs(g),
                rules=("axis-allies-play", "axis-allies"),
            )
            for g in GAMES
        ]

    def new_state(self, variant: str, options: Mapping[str, OptionValue], seed: int) -> State:
        info = next((v for v in self.variants() if v.id == variant), None)
        if info is None:
            raise FamilyError(f"unknown Axis & Allies variant {variant!r} (variants: {', '.join(GAMES)})")
        chosen = info.check_options(options)
        world = new_world(variant, Options.from_json(dict(chosen)), seed)
        placement = layers.hooks(world).initial_placement
        if placement is not None:
            placement.begin(world)
        else:
            begin_turn(world)
            run_on(world)
        world.log.clear()
        return {"variant": variant, **world.to_json()}

    def scenario(
        self, variant: str, options: Mapping[str, OptionValue], seed: int, position: Mapping[str, Any]
    ) -> State:
        if not position:
            return self.new_state(variant, options, seed)
        info = next((v for v in self.variants() if v.id == variant), None)
        if info is None:
            raise FamilyError(f"unknown Axis & Allies variant {variant!r} (variants: {', '.join(GAMES)})")
        world = scenario.build(variant, info.check_options(options), seed, position)
        run_on(world)
        world.log.clear()
        return {"variant": variant, **world.to_json()}

    def position(self, state: State) -> dict[str, Any]:
        return scenario.written(self._world(state))

    def _world(self, state: State) -> World:
        try:
            return World.from_json(state)
        except (KeyError, TypeError, ValueError, GameDataError) as exc:
            raise FamilyError(f"stored Axis & Allies state is unreadable: {exc}") from None

    def seats(self, state: State) -> list[str]:
        return list(seats_of(state["game"]))

    def pending(self, state: State) -> Pending:
        world = self._world(state)
        name = f"R{world.round}.{world.power}.{world.phase.value}.{world.steps}"
        if world.phase is Phase.OVER:
            return Pending(name, "turn", (), world.round, over=True)
        mover = seat_of(world, world.power)
        if world.phase is Phase.COMBAT:
            asked = combat.asked(world)
            seats = tuple(dict.fromkeys(seat_of(world, p) for p in asked))
            prompts = {seat_of(world, p): text for p, text in asked.items()}
            return Pending(name, "decision", seats, world.round, mover, prompts)
        prompt = f"{world.data.power(world.power).name}: {world.phase.value.replace('_', ' ')}"
        placement = layers.hooks(world).initial_placement
        if world.phase is Phase.SETUP and placement is not None:
            budget = placement.budget(world)
            prompt = f"{world.data.power(world.power).name}: initial placement ({budget} IPCs)"
        if world.phase is Phase.PURCHASE:
            prompt += (
                " ("
                + ", ".join(
                    f"{e.id} {world.ipcs.get(e.id, 0)} IPCs" for e in world.data.power(world.power).economies
                )
                + ")"
            )
        return Pending(name, "turn", (mover,), world.round, mover, {mover: prompt})

    def _play(self, world: World, seat: str, text: str) -> None:
        """One action of ``seat`` on ``world`` (raises with the reason when refused)."""
        action = parse_action(world.data, text)
        self._act(world, seat, action)

    def _act(self, world: World, seat: str, action: Action) -> None:
        if world.phase is Phase.COMBAT:
            combat.decide(world, seat, action)
            return
        if seat != seat_of(world, world.power):
            raise IllegalAction(f"it is {world.power}'s {world.phase.value.replace('_', ' ')}, not {seat}'s")
        apply(world, action)

    def check(self, state: State, seat: str, actions: Sequence[str]) -> list[str | None]:
        world = self._world(state)
        out: list[str | None] = []
        if seat not in self.pending(state).seats:
            why = _not_now(world, seat)
            return [f"{text!r}: {why}" for text in actions]
        for text in actions:
            try:
                self._play(world, seat, text)
                out.append(None)
            except (ActionSyntaxError, IllegalAction, ValueError) as exc:
                out.append(f"{text!r}: {exc}")
        return out

    def process(self, state: State, submissions: Mapping[str, Sequence[str]]) -> Processed:
        world = self._world(state)
        pending = self.pending(state)
        before = self.view(state)
        results: list[dict[str, Any]] = []
        world.log.clear()
        for seat in pending.seats:
            texts = list(submissions.get(seat, []))
            if seat not in submissions and world.phase is Phase.COMBAT:
                texts = [action_text(world.data, a) for a in combat.defaults(world, seat)]
                default = True
            else:
                default = seat not in submissions
            for text in texts:
                try:
                    self._play(world, seat, text)
                    results.append({"power": seat, "order": text, "succeeded": True, "default": default})
                except (ActionSyntaxError, IllegalAction, ValueError) as exc:  # checked on submission
                    results.append({"power": seat, "order": text, "succeeded": False, "message": str(exc)})
        if world.phase is Phase.COMBAT:
            combat.resume(world)
        else:
            finish_step(world)
        run_on(world)
        world.steps += 1
        for line in world.log:
            results.append({"power": "", "order": "", "succeeded": True, "message": line})
        # Each roll with the space it was rolled for ("at"), where a page may show it.
        dice = [{**d, "at": d["battle"]} if "battle" in d else d for d in world.extra.pop("dice_log", [])]
        if dice:
            results.append(
                {"power": "", "order": "dice", "succeeded": True, "message": "dice rolled", "dice": dice}
            )
        world.log.clear()
        new_state = {"variant": state["variant"], **world.to_json()}
        return Processed(new_state, pending.phase, before, results, self.winners(new_state))

    def legal(self, state: State, seat: str, chosen: Sequence[str]) -> Choices:
        if seat not in self.pending(state).seats:
            return Choices((), True)
        return _choices(self._drafts.after(state, seat, tuple(chosen)), seat)

    def options(self, state: State, seat: str, chosen: Sequence[str] = ()) -> dict[str, Any]:
        pending = self.pending(state)
        if seat not in pending.seats:
            return {}
        world = self._drafts.after(state, seat, tuple(chosen))
        actions = list(_choices(world, seat).actions)
        # The tree alone: its leaves are the actions, and a front's move list is long enough
        # (Japan's first combat move: over 700) that sending it twice would double the reply.
        return {
            "phase": pending.phase,
            "prompt": pending.prompts.get(seat, ""),
            "due": 0,
            "waive": None,
            "chained": True,
            **option_tree(world, actions),
        }

    def view(self, state: State) -> dict[str, Any]:
        public = {k: v for k, v in state.items() if k not in ("rng", "seed")}
        world = self._world(state)
        public["income"] = {p.id: sum(_income(world, p.id).values()) for p in world.data.powers}
        public["phase_title"] = (
            f"{world.data.power(world.power).name}: {STEPS[world.phase]}, round {world.round}"
            if world.power and world.phase in STEPS
            else ""
        )
        # What a page shows beside each seat (a seat may play two powers: the USA plays China).
        of_seat: dict[str, list[Any]] = {}
        for p in world.data.powers:
            of_seat.setdefault(seat_of_power(p.id), []).append(p)
        owners = Counter(u.owner for u in world.units.values())
        public["counts"] = {
            "IPCs": {
                seat: sum(world.ipcs.get(e.id, 0) for p in powers for e in p.economies)
                for seat, powers in of_seat.items()
            },
            "income": {seat: sum(public["income"][p.id] for p in powers) for seat, powers in of_seat.items()},
            "units": {seat: sum(owners[p.id] for p in powers) for seat, powers in of_seat.items()},
        }
        public["seat_names"] = {
            seat: " and ".join(p.name for p in sorted(powers, key=lambda p: p.id != seat))
            for seat, powers in of_seat.items()
        }
        # Charts by round for the page: income at each round's end, and unit value (now as the last point).
        by_round = world.extra.get("by_round", {"income": {}, "units": {}})
        powers = [p.id for p in world.data.powers]
        public["charts"] = {
            "income (IPCs)": {p: list(by_round["income"].get(p, [])) for p in powers},
            "unit value (IPCs)": {
                p: [*by_round["units"].get(p, []), rules.unit_value(world, p)] for p in powers
            },
        }
        return public

    def alive(self, state: State) -> list[str]:
        return self.seats(state)

    def scores(self, state: State) -> dict[str, int]:
        world = self._world(state)
        out = {seat: 0 for seat in self.seats(state)}
        for p in world.data.powers:
            out[seat_of(world, p.id)] += sum(_income(world, p.id).values())
        return out

    def winners(self, state: State) -> list[str]:
        side = state.get("winner")
        if side is None:
            return []
        data = game_data(state["game"])
        return list(dict.fromkeys(seat_of_power(p.id) for p in data.powers if p.side == side))

    def text(self, state: State) -> str:
        return world_text(self._world(state))

    def bot_actions(self, state: State, seat: str, bot: str, seed: str) -> list[str]:
        play = {"calculator": bots.calculator, "turtle": bots.turtle}.get(bot)
        if play is None:
            raise FamilyError(
                f"no Axis & Allies bot {bot!r} (bots: calculator, turtle; the generic 'random' plays it too)"
            )
        return play(state, seat, seed)

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


def _choices(world: World, seat: str) -> Choices:
    """What ``seat`` may play next on ``world``: a battle's answers, or the mover's next actions."""
    if world.phase is Phase.COMBAT:
        return Choices(tuple(combat.choices(world, seat)), combat.may_end(world, seat))
    return Choices(tuple(legal_actions(world)), True)


STEPS = {
    Phase.SETUP: "initial placement",
    Phase.PURCHASE: "purchase",
    Phase.COMBAT_MOVE: "combat move",
    Phase.COMBAT: "combat",
    Phase.NONCOMBAT_MOVE: "non-combat move",
    Phase.PLACE: "placement",
}
THE = frozenset({"Soviet Union", "United Kingdom", "United States"})
"""Powers whose names take "the" in a sentence."""


def _name(world: World, power: str) -> str:
    name = world.data.power(power).name
    return f"the {name}" if name in THE else name


def _possessive(world: World, power: str) -> str:
    name = _name(world, power)
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _not_now(world: World, seat: str) -> str:
    """Why ``seat`` may not act now: whose step (or battle) it is, and when ``seat`` decides next."""
    seats = seats_of(world.data.id)
    if seat not in seats:
        return f"{seat} is no seat of this game (its seats: {', '.join(seats)})"
    if world.phase is Phase.OVER:
        return "the game is over: " + (f"the {world.winner.title()} won" if world.winner else "a draw")
    mover = world.power
    now = f"it is {_possessive(world, mover)} {STEPS[world.phase]}"
    if world.phase is Phase.COMBAT and world.battle is not None:
        b = world.battle
        what = f"the battle in {world.space_name(b['at'])}" if b.get("at") else "the kamikaze attack"
        waiting = " and ".join(dict.fromkeys(_name(world, seat_of(world, p)) for p in b.get("asked", {})))
        now += f": {what} waits on {waiting}"
    who = _name(world, seat)
    if layers.out_of_the_war(world, seat):
        return f"{now}; {who} has surrendered and decides nothing more"
    if world.phase is Phase.COMBAT and seat_of(world, mover) == seat:
        own = _own(world, seat, mover)
        return f"{now}; {who} decides next when a battle asks it, or in {own} non-combat move"
    power, step = _next_step(world, seat)
    later = f"in {_own(world, seat, power)} {step}"
    if world.phase is Phase.COMBAT and _fights_on(world, seat):
        later = f"if a battle asks it, or {later}"
    return f"{now}; {who} decides next {later}"


def _own(world: World, seat: str, power: str) -> str:
    """``its own`` for the seat's own power, else the power's name (China, played by the USA's seat)."""
    return "its own" if power == seat else _possessive(world, power)


def _next_step(world: World, seat: str) -> tuple[str, str]:
    """The next power ``seat`` plays and the step it decides first: its purchase, or in the linked
    game's initial placement its own placement while that is still to come."""
    order = world.order
    placement = layers.hooks(world).initial_placement
    if world.phase is Phase.SETUP and placement is not None:
        setup = placement.order
        ahead = setup[setup.index(world.power) + 1 :]
        if seat in ahead:
            return seat, "initial placement"
        after = list(order)  # round 1 begins with the first power in the order of play
    else:
        after = [*order[world.turn + 1 :], *order[: world.turn + 1]]
    for power in after:
        if seat_of(world, power) == seat and not layers.out_of_the_war(world, power):
            return power, "purchase step"
    return seat, "purchase step"


def _fights_on(world: World, seat: str) -> bool:
    """Whether ``seat`` has units where a battle of this combat step is being or is still to be fought
    (it may yet be asked there)."""
    spaces = set(world.battles)
    if world.battle is not None and world.battle.get("at"):
        spaces.add(world.battle["at"])
    return any(u.at in spaces and seat_of(world, u.owner) == seat for u in world.units.values())


def _income(world: World, power: str) -> dict[str, int]:
    return rules.income_of(world, power)


layers.provide(linked.LAYER)  # the layers the variants may name (gamedata.LAYERS)

FAMILY = AxisAlliesFamily()
"""The family's protocol object, as the registry names it."""
