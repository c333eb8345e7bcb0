"""The interface the game master needs from a rule family, and the Diplomacy family's adapter.

The service never touches a family's rules: it stores the family's state (JSON), asks who must act,
checks and stores orders, and asks the family to process a phase. Both kinds of play fit:

* simultaneous orders (Diplomacy): every acting seat orders, then the phase is processed;
* one seat at a time (Global War, later): ``acting`` names one seat, which submits one step's
  actions; ``process`` applies them (rolling the seeded dice carried in the state) and the next
  seat, or the same one, acts next.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ..diplomacy import OrderError, PhaseKind, parse_power_order
from ..diplomacy.adjustments import adjustment_counts
from ..diplomacy.game import Game
from ..diplomacy.legal import option_tree
from ..diplomacy.rules import Rulebook
from ..diplomacy.validate import check_order
from ..diplomacy.variants import VARIANTS, get_variant, twin_earths_3_rules
from ..formats.record import game_from_json, game_to_json, position_to_json, result_to_json


class FamilyError(ValueError):
    """Bad input for a family (unknown variant, bad option); the message says what."""


@dataclass(frozen=True)
class VariantInfo:
    id: str
    title: str
    description: str
    seats: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    """Option name -> its default (the type of the default is the option's type)."""


@dataclass(frozen=True)
class Processed:
    state: dict[str, Any]
    phase: str
    """The phase that was processed."""
    position: dict[str, Any]
    """The public view of the position the phase was played from."""
    results: list[dict[str, Any]]
    winners: list[str]


class GameFamily(Protocol):
    name: str

    def variants(self) -> list[VariantInfo]: ...

    def new_state(self, variant: str, options: dict[str, Any]) -> dict[str, Any]: ...

    def seats(self, state: dict[str, Any]) -> list[str]: ...

    def phase(self, state: dict[str, Any]) -> tuple[str, str]:
        """(phase name, phase kind) of the phase to play next."""
        ...

    def acting(self, state: dict[str, Any]) -> list[str]:
        """Seats that must (or may) give orders in the current phase."""
        ...

    def check(self, state: dict[str, Any], seat: str, orders: list[str]) -> list[str | None]:
        """For each order text: None if it is accepted, else what is wrong with it."""
        ...

    def process(self, state: dict[str, Any], orders: dict[str, list[str]]) -> Processed: ...

    def view(self, state: dict[str, Any]) -> dict[str, Any]:
        """What everyone may see of the current position."""
        ...

    def options(self, state: dict[str, Any], seat: str) -> dict[str, Any]:
        """The legal-order tree of a seat in the current phase."""
        ...

    def winners(self, state: dict[str, Any]) -> list[str]: ...


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
        game = self._game(state)
        pos = game.position
        if game.over:
            return []
        if pos.phase.kind is PhaseKind.MOVEMENT:
            acting = {u.power for u in pos.units.values()}
        elif pos.phase.kind is PhaseKind.RETREATS:
            acting = {d.unit.power for d in pos.dislodged}
        else:
            acting = set(adjustment_counts(game.board, pos))
            links = game.rulebook.links
            if links is not None and links.phase is PhaseKind.ADJUSTMENTS:
                acting |= {p.id for p in game.board.powers if p.id not in pos.eliminated}
        return [p for p in self.seats(state) if p in acting]

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


FAMILIES: dict[str, GameFamily] = {"diplomacy": DiplomacyFamily()}


def get_family(name: str) -> GameFamily:
    try:
        return FAMILIES[name]
    except KeyError:
        raise FamilyError(f"unknown family {name!r} (known: {', '.join(FAMILIES)})") from None
