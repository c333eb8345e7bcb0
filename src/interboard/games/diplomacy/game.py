"""A Diplomacy game as a sequence of adjudicated phases: the object records, the CLI and the server use."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ...board import Board
from .adjustments import adjustment_counts
from .engine import PhaseOutcome, step
from .errors import IllegalOrderError
from .orders import Order, format_order
from .parse import parse_power_order
from .results import OrderResult, Reason
from .rules import Rulebook
from .state import PhaseKind, Position
from .variants import Variant, get_variant


@dataclass(frozen=True)
class PhaseRecord:
    """One played phase: the position it started from, the orders given, and the results."""

    position: Position
    orders: tuple[tuple[str, Order], ...]
    results: tuple[OrderResult, ...]


@dataclass
class Game:
    variant: Variant
    rulebook: Rulebook
    position: Position
    history: list[PhaseRecord] = field(default_factory=list)
    winners: tuple[str, ...] = ()

    @classmethod
    def new(cls, variant: str | Variant = "standard", rulebook: Rulebook | None = None) -> Game:
        v = get_variant(variant) if isinstance(variant, str) else variant
        return cls(v, rulebook or v.rulebook, v.start())

    @property
    def board(self) -> Board:
        """The geography the current phase is played on (with the links made so far)."""
        return self.variant.board_for(self.position)

    @property
    def over(self) -> bool:
        return bool(self.winners)

    @property
    def acting(self) -> list[str]:
        """Powers that order in the current phase, in the board's order: those with units (movement),
        with dislodged units (retreats), with builds or removals due (adjustments); and, in the phase
        where the rules let players make links, every power still in the game."""
        pos = self.position
        if self.over:
            return []
        kind = pos.phase.kind
        if kind is PhaseKind.MOVEMENT:
            acting = {u.power for u in pos.units.values()}
        elif kind is PhaseKind.RETREATS:
            acting = {d.unit.power for d in pos.dislodged}
        else:
            acting = set(adjustment_counts(self.board, pos))
        links = self.rulebook.links
        if links is not None and links.phase is kind:
            acting |= {p.id for p in self.board.powers if p.id not in pos.eliminated}
        return [p.id for p in self.board.powers if p.id in acting]

    def process(self, orders: Iterable[tuple[str, Order]]) -> PhaseOutcome:
        """Adjudicate the current phase with typed orders and move to the next phase."""
        if self.over:
            raise IllegalOrderError("", f"the game is over: {', '.join(self.winners)} won")
        given = tuple(orders)
        outcome = step(self.board, self.position, given, self.rulebook)
        self.history.append(PhaseRecord(self.position, given, outcome.results))
        self.position = outcome.position
        self.winners = outcome.winners
        return outcome

    def process_text(self, lines: Iterable[str], power: str | None = None) -> PhaseOutcome:
        """Parse ``Power: order`` lines (or bare orders for ``power``) and process the phase."""
        orders = []
        for line in lines:
            po = parse_power_order(self.board, line, self.position.phase.kind)
            who = po.power or power
            if who is None:
                raise IllegalOrderError(line, "say which power gives the order ('France: A Par - Bur')")
            orders.append((who, po.order))
        return self.process(orders)


def describe_result(board: Board, result: OrderResult) -> str:
    """One line of text for a result: ``A PAR - BUR: bounced (with MUN)``."""
    text = f"{result.power.title()}: {format_order(board, result.order)}"
    if result.succeeded and result.reason is None:
        status = "succeeds"
    elif result.reason is Reason.NOT_ORDERED:
        status = "no order (default)"
    else:
        status = result.reason.value if result.reason else "fails"
        if result.by:
            names = ", ".join(board.spaces[s].id for s in result.by)
            status += f" (by {names})" if result.reason is Reason.CUT else f" (with {names})"
        if result.message:
            status += f": {result.message}"
    if result.dislodged_by is not None:
        status += f"; dislodged from {board.spaces[result.dislodged_by].id}"
    return f"{text}: {status}"
