"""The Diplomacy family for the game master: every acting power orders, then the phase is processed."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..diplomacy import OrderError, PhaseKind, parse_order, parse_power_order
from ..diplomacy.game import Game
from ..diplomacy.legal import option_tree
from ..diplomacy.rules import Rulebook
from ..diplomacy.validate import check_order
from ..diplomacy.variants import VARIANTS, get_variant, twin_earths_3_rules
from ..formats.record import (
    game_from_json,
    game_to_json,
    position_from_json,
    position_to_json,
    result_from_json,
    result_to_json,
)
from ..render import render_position
from .family import FamilyError, Processed, VariantInfo


class DiplomacyFamily:
    name = "diplomacy"

    def variants(self) -> list[VariantInfo]:
        out = []
        for v in VARIANTS.values():
            options: dict[str, Any] = {"edition": v.rulebook.edition.value}
            if v.rulebook.links is not None and v.rulebook.links.phase is PhaseKind.ADJUSTMENTS:
                options.update(link_limit=0, cut_printed=False, cross_board_only=False)
            out.append(VariantInfo(v.id, v.title, v.description, [p.id for p in v.board.powers], options))
        return out

    def _rulebook(self, variant: str, options: dict[str, Any]) -> Rulebook:
        v = get_variant(variant)
        known = next(info.options for info in self.variants() if info.id == v.id)
        for key, value in options.items():
            if key not in known:
                raise FamilyError(f"unknown option {key!r} for {v.id} (options: {', '.join(known)})")
            if type(value) is not type(known[key]):
                raise FamilyError(f"option {key!r} must be {type(known[key]).__name__}")
        try:
            rulebook = v.rulebook.with_edition(str(options.get("edition", v.rulebook.edition.value)))
        except ValueError as exc:
            raise FamilyError(str(exc)) from None
        if (
            v.rulebook.links is not None
            and {"link_limit", "cut_printed", "cross_board_only"} & options.keys()
        ):
            limit = int(options.get("link_limit", 0))
            if limit < 0:
                raise FamilyError("link_limit must be 0 (no limit) or more")
            te3 = twin_earths_3_rules(
                limit or None, bool(options.get("cut_printed")), bool(options.get("cross_board_only"))
            )
            rulebook = replace(rulebook, links=te3.links)
        return rulebook

    def new_state(self, variant: str, options: dict[str, Any]) -> dict[str, Any]:
        try:
            v = get_variant(variant)
        except KeyError as exc:
            raise FamilyError(str(exc.args[0])) from None
        return game_to_json(Game.new(v, self._rulebook(v.id, options)))  # no phases played yet

    def _game(self, state: dict[str, Any]) -> Game:
        return game_from_json(state)

    def seats(self, state: dict[str, Any]) -> list[str]:
        return [p.id for p in get_variant(state["variant"]).board.powers]

    def phase(self, state: dict[str, Any]) -> tuple[str, str]:
        phase = self._game(state).position.phase
        return phase.name, {"M": "movement", "R": "retreats", "A": "adjustments"}[phase.kind.value]

    def acting(self, state: dict[str, Any]) -> list[str]:
        return self._game(state).acting

    def check(self, state: dict[str, Any], seat: str, orders: list[str]) -> list[str | None]:
        game = self._game(state)
        board, pos = game.board, game.position
        out: list[str | None] = []
        seen: set[int] = set()
        for text in orders:
            try:
                po = parse_power_order(board, text, pos.phase.kind)
                if po.power is not None and po.power != seat:
                    raise OrderError(text, f"you play {seat}, not {po.power}")
                check_order(board, pos, seat, po.order, game.rulebook)
                loc = getattr(po.order, "loc", None)
                if loc is not None:
                    if loc in seen:
                        raise OrderError(text, "a second order for the same unit")
                    seen.add(loc)
                out.append(None)
            except OrderError as exc:
                out.append(str(exc))
        return out

    def process(self, state: dict[str, Any], orders: dict[str, list[str]]) -> Processed:
        game = self._game(state)
        phase = game.position.phase.name
        lines = [(seat, text) for seat, texts in orders.items() for text in texts]
        parsed = []
        for seat, text in lines:
            try:
                parsed.append((seat, parse_power_order(game.board, text, game.position.phase.kind).order))
            except OrderError:
                continue  # checked on submission; the map cannot change under a stored order
        board = game.board
        before = position_to_json(game.variant.board, game.position)
        outcome = game.process(parsed)
        results = [result_to_json(board, r) for r in outcome.results]
        state = game_to_json(game)
        state["phases"] = []  # the service keeps the history, phase by phase
        return Processed(state, phase, before, results, list(game.winners))

    def view(self, state: dict[str, Any]) -> dict[str, Any]:
        game = self._game(state)
        return position_to_json(game.variant.board, game.position)

    def options(self, state: dict[str, Any], seat: str) -> dict[str, Any]:
        game = self._game(state)
        return dict(option_tree(game.board, game.position, seat).get(seat, {}))

    def winners(self, state: dict[str, Any]) -> list[str]:
        return list(state.get("winners", []))

    def draw(
        self,
        variant: str,
        position: dict[str, Any],
        orders: dict[str, list[str]],
        results: list[dict[str, Any]],
        title: str,
    ) -> str:
        board = get_variant(variant).board
        pos = position_from_json(board, position)
        kind = pos.phase.kind
        try:
            typed = [(p, parse_order(board, text, kind)) for p, lines in orders.items() for text in lines]
            typed_results = [result_from_json(board, r, pos.phase) for r in results]
        except ValueError as exc:  # stored orders were checked on submission; say so rather than fail
            raise FamilyError(f"cannot draw the orders: {exc}") from None
        return render_position(board, pos, orders=typed, results=typed_results, title=title)
