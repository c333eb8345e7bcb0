"""The Diplomacy family on the family protocol: one decision point a phase, every acting power
ordering at once. The state is an ``interboard-game/1`` record without its history (the service
and the generic record keep the history)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..memo import ByState
from ..protocol import Choices, FamilyError, Option, OptionValue, Pending, Processed, State, VariantInfo
from . import scenario
from .bots import BOTS, Turn, make_bot
from .drawing import render_position
from .errors import OrderError
from .game import Game
from .legal import PowerOptions, legal_orders, power_tree
from .links import link_choices
from .orders import Order, Waive, format_order
from .parse import parse_order, parse_power_order
from .record import (
    RecordError,
    game_from_json,
    game_to_json,
    position_from_json,
    position_to_json,
    result_from_json,
    result_to_json,
)
from .rules import Edition, Rulebook
from .state import PhaseKind
from .text import position_text
from .validate import check_order
from .variant_file import VariantFileError
from .variants import DEFINITIONS, VARIANTS, Variant, add_defined, get_variant

_DECODED: ByState[Game] = ByState()
_LISTED: ByState[Mapping[str, PowerOptions]] = ByState()
"""What the read-only calls share (``memo.py``): the game a state decodes to, and the legal orders
of every seat that acts in it. No caller changes them."""

KIND_NAMES = {
    PhaseKind.MOVEMENT: "movement",
    PhaseKind.RETREATS: "retreats",
    PhaseKind.ADJUSTMENTS: "adjustments",
}

LINK_OPTIONS = (
    Option(
        "link_limit", 0, "optional rule 1: at most this many links, oldest dropped (0: no limit)", (), 0, 1000
    ),
    Option("cut_printed", False, "optional rule 2: DESTROY may cut an adjacency of the printed boards"),
    Option("cross_board_only", False, "optional rule 3: a link joins spaces on different boards"),
)


def _options(v: Variant) -> tuple[Option, ...]:
    edition = Option(
        "edition",
        v.rulebook.edition.value,
        "rulebook edition: 2023 (DATC v3.0) or 2000 (DATC v2.4, as MILA and godip play)",
        tuple(e.value for e in Edition),
    )
    player_links = v.rulebook.links is not None and v.rulebook.links.phase is PhaseKind.ADJUSTMENTS
    return (edition, *LINK_OPTIONS) if player_links else (edition,)


def rulebook_for(v: Variant, options: Mapping[str, OptionValue]) -> Rulebook:
    """The variant's rulebook with the chosen options (already checked)."""
    rulebook = v.rulebook.with_edition(str(options.get("edition", v.rulebook.edition.value)))
    if rulebook.links is not None and {"link_limit", "cut_printed", "cross_board_only"} & options.keys():
        limit = int(options.get("link_limit", 0))
        links = replace(
            rulebook.links,
            limit=limit or rulebook.links.limit,
            cut_printed=bool(options.get("cut_printed")) or rulebook.links.cut_printed,
            cross_board_only=bool(options.get("cross_board_only")) or rulebook.links.cross_board_only,
        )
        rulebook = replace(rulebook, links=links)
    return rulebook


def _info(v: Variant) -> VariantInfo:
    return VariantInfo(
        v.id,
        "diplomacy",
        v.title,
        v.description,
        tuple(p.id for p in v.board.powers),
        _options(v),
        rules=("diplomacy", "twin-earths") if v.rulebook.links or v.board.boards else ("diplomacy",),
        definition=DEFINITIONS.get(v.id),
    )


class DiplomacyFamily:
    name = "diplomacy"
    title = "Diplomacy"
    phase_kinds = ("movement", "retreats", "adjustments")
    bots = tuple(BOTS)
    default_bot = "heuristic"
    cli = "interboard.games.diplomacy.cli"

    def variants(self) -> list[VariantInfo]:
        return [_info(v) for v in VARIANTS.values()]

    def add_variant(self, definition: Mapping[str, Any], source: str, base: Path | None) -> VariantInfo:
        try:
            variant, _ = add_defined(definition, source, base)
        except VariantFileError as exc:
            raise FamilyError(str(exc)) from None
        return _info(variant)

    def _info(self, variant: str) -> VariantInfo:
        for info in self.variants():
            if info.id == variant:
                return info
        raise FamilyError(f"unknown Diplomacy variant {variant!r} (variants: {', '.join(VARIANTS)})")

    def new_state(self, variant: str, options: Mapping[str, OptionValue], seed: int) -> State:
        chosen = self._info(variant).check_options(options)
        v = get_variant(variant)
        return game_to_json(Game.new(v, rulebook_for(v, chosen)))  # nothing left to chance: no seed kept

    def scenario(
        self, variant: str, options: Mapping[str, OptionValue], seed: int, position: Mapping[str, Any]
    ) -> State:
        chosen = self._info(variant).check_options(options)
        v = get_variant(variant)
        game = Game.new(v, rulebook_for(v, chosen))
        game.position = scenario.build(v.board, game.position, position)
        return game_to_json(game)

    def position(self, state: State) -> dict[str, Any]:
        game = self._reading(state)
        return scenario.written(game.variant.board, game.position)

    def _game(self, state: State) -> Game:
        """The state's game, of the caller's own: to play on (processing changes it)."""
        try:
            return game_from_json(state)
        except RecordError as exc:
            raise FamilyError(f"stored Diplomacy game is unreadable: {exc}") from None

    def _reading(self, state: State) -> Game:
        """The state's game, decoded once and shared by the calls that only read it."""
        return _DECODED.get(state, None, lambda: self._game(state))

    def _listed(self, state: State, seat: str) -> PowerOptions | None:
        """The seat's legal orders in the state's phase (``None``: it has none). Every seat's are
        worked out at the first call of the phase: the seats ask one after another, and listing all
        of them at once costs about half as much as listing each alone (each listing works out the
        moves and convoys of every unit on the board, not only the seat's)."""
        game = self._reading(state)
        return _LISTED.get(state, None, lambda: legal_orders(game.board, game.position)).get(seat)

    def seats(self, state: State) -> list[str]:
        return [p.id for p in get_variant(state["variant"]).board.powers]

    def pending(self, state: State) -> Pending:
        game = self._reading(state)
        phase = game.position.phase
        return Pending(phase.name, KIND_NAMES[phase.kind], tuple(game.acting), phase.year, over=game.over)

    def check(self, state: State, seat: str, actions: Sequence[str]) -> list[str | None]:
        game = self._reading(state)
        board, pos = game.board, game.position
        out: list[str | None] = []
        seen: set[int] = set()
        # An order in the legal lists needs no adjudication: no listed order is illegal (legal.py).
        # tests/diplomacy/test_legal.py holds the lists to that on the standard board under both
        # editions, and this method's verdicts to the adjudicator's. Link rules are not in the
        # lists' reckoning: such games check every order.
        options = self._listed(state, seat) if game.rulebook.links is None else None
        listed: Mapping[int, Sequence[Order]] = options.orders if options is not None else {}
        for text in actions:
            try:
                po = parse_power_order(board, text, pos.phase.kind)
                if po.power is not None and po.power != seat:
                    raise OrderError(text, f"you play {seat}, not {po.power}")
                loc = getattr(po.order, "loc", None)
                if loc is None or po.order not in listed.get(loc, ()):
                    check_order(board, pos, seat, po.order, game.rulebook)
                if loc is not None:
                    if loc in seen:
                        raise OrderError(text, "a second order for the same unit")
                    seen.add(loc)
                out.append(None)
            except OrderError as exc:
                out.append(str(exc))
        return out

    def process(self, state: State, submissions: Mapping[str, Sequence[str]]) -> Processed:
        game = self._game(state)
        phase = game.position.phase.name
        parsed = []
        for seat, texts in submissions.items():
            for text in texts:
                try:
                    parsed.append((seat, parse_power_order(game.board, text, game.position.phase.kind).order))
                except OrderError:
                    continue  # checked on submission; the map cannot change under a stored order
        board = game.board
        before = _view(game)
        outcome = game.process(parsed)
        results = [result_to_json(board, r) for r in outcome.results]
        new_state = game_to_json(game)
        new_state["phases"] = []  # the history is kept by whoever keeps the decision points
        return Processed(new_state, phase, before, results, list(game.winners))

    def legal(self, state: State, seat: str, chosen: Sequence[str]) -> Choices:
        """The orders of the units (or build sites) not yet ordered; builds up to those due and the
        removals due. Leaving units unordered is always allowed (they hold; removals go by civil
        disorder). Link orders are left to the family's own bots."""
        game = self._reading(state)
        board, pos = game.board, game.position
        opts = self._listed(state, seat)
        if opts is None:
            return Choices((), True)
        taken: set[int] = set()
        count = 0
        for text in chosen:
            order = parse_order(board, text, pos.phase.kind)
            count += 1
            loc = getattr(order, "loc", None)
            if loc is not None:
                taken.add(loc)
        if opts.due != 0 and count >= abs(opts.due):
            return Choices((), True)
        orders: list[Order] = [o for loc, group in opts.orders.items() if loc not in taken for o in group]
        if opts.due > 0:
            orders.append(Waive())
        return Choices(tuple(format_order(board, o) for o in orders), True)

    def options(self, state: State, seat: str, chosen: Sequence[str] = ()) -> dict[str, Any]:
        game = self._reading(state)
        listed = self._listed(state, seat)  # the same lists the seat's orders are checked against
        tree: dict[str, Any] = dict(power_tree(game.board, listed)) if listed is not None else {}
        if tree:
            # The game page's words for this family and phase (it has none of its own).
            tree.update(_page_words(game.position.phase.kind, int(tree.get("due", 0))))
        rules = game.rulebook.links
        if rules is not None and rules.phase is game.position.phase.kind and seat in game.acting:
            tree["links"] = link_choices(game.board.base, game.position, rules, seat)
        return tree

    def view(self, state: State) -> dict[str, Any]:
        return _view(self._reading(state))

    def alive(self, state: State) -> list[str]:
        eliminated = set(state.get("position", {}).get("eliminated", []))
        return [p for p in self.seats(state) if p not in eliminated]

    def scores(self, state: State) -> dict[str, int]:
        pos = self._reading(state).position
        return {p: len(pos.centres_of(p)) for p in self.seats(state)}

    def winners(self, state: State) -> list[str]:
        return list(state.get("winners", []))

    def text(self, state: State) -> str:
        game = self._reading(state)
        return position_text(game.board, game.position)

    def bot_actions(self, state: State, seat: str, bot: str, seed: str) -> list[str]:
        game = self._game(state)
        board = game.board
        turn = Turn.of(board, game.position, seat, game.rulebook)
        try:
            player = make_bot(bot, seed)
        except ValueError as exc:
            raise FamilyError(str(exc)) from None
        return [format_order(board, o) for o in player.orders(turn)]

    def draw(
        self,
        variant: str,
        position: dict[str, Any],
        orders: Mapping[str, Sequence[str]],
        results: Sequence[dict[str, Any]],
        title: str,
    ) -> str:
        board = get_variant(variant).board
        try:
            pos = position_from_json(board, position)
        except (RecordError, ValueError, KeyError) as exc:
            raise FamilyError(f"cannot draw the position: {exc}") from None
        kind = pos.phase.kind
        try:
            typed = [(p, parse_order(board, text, kind)) for p, lines in orders.items() for text in lines]
            typed_results = [result_from_json(board, r, pos.phase) for r in results]
        except ValueError as exc:  # stored orders were checked on submission; say so rather than fail
            raise FamilyError(f"cannot draw the orders: {exc}") from None
        return render_position(board, pos, orders=typed, results=typed_results, title=title)


def _page_words(kind: PhaseKind, due: int) -> dict[str, str]:
    """What the game page says of a phase: how to order by clicking, what no orders mean, and an
    example order to type."""
    if kind is PhaseKind.MOVEMENT:
        return {
            "hint": "Click one of your units on the map (or below), then a destination, then pick the order.",
            "no_orders": "No orders: units hold.",
            "example": "A Par - Bur",
        }
    if kind is PhaseKind.RETREATS:
        return {
            "hint": "Click a dislodged unit (or below), then where it retreats, or disband it.",
            "no_orders": "No orders: dislodged units are disbanded.",
            "example": "A Mun - Boh",
        }
    if due > 0:
        return {
            "hint": f"Click one of your free home centres (or below) to build there: {due} due.",
            "no_orders": f"No builds yet: {due} due; builds not ordered are waived.",
            "example": "A Par B",
        }
    if due < 0:
        return {
            "hint": f"Click one of your units (or below) to remove it: {-due} due.",
            "no_orders": f"No removals yet: {-due} due; if none are ordered, the rules choose.",
            "example": "A Par D",
        }
    return {"hint": "", "no_orders": "No orders.", "example": ""}


FAMILY = DiplomacyFamily()
"""The family's protocol object, as the registry names it."""


def _view(game: Game) -> dict[str, Any]:
    """What everyone sees of ``game``'s position, with its phase as players say it."""
    view = position_to_json(game.variant.board, game.position)
    view["phase_title"] = phase_title(str(view.get("phase", "")))
    view["seat_names"] = {p.id: p.name for p in game.variant.board.powers}  # "France" for FRANCE
    return view


SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}
KINDS = {"M": "movement", "R": "retreats", "A": "adjustments"}


def phase_title(phase: str) -> str:
    """A phase as players say it: S1901M is "Spring 1901, movement"."""
    found = re.fullmatch(r"([SFW])(\d+)([MRA])", phase)
    if not found:
        return phase
    season, year, kind = found.groups()
    return f"{SEASONS[season]} {year}, {KINDS[kind]}"
