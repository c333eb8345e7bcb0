"""Plain-text views of positions and results, for the terminal and for logs."""

from __future__ import annotations

from ...board import Board
from .results import OrderResult
from .state import Position


def position_text(board: Board, position: Position) -> str:
    """The position as a few lines per power: units, centres, dislodged units."""
    lines = [f"{position.phase.long_name} ({position.phase.name})"]
    for power in board.powers:
        units = sorted(
            f"{u.kind.value} {board.locations[u.loc].id}"
            for u in position.units.values()
            if u.power == power.id
        )
        centres = sorted(board.spaces[s].id for s, p in position.centres.items() if p == power.id)
        if not units and not centres:
            if power.id in position.eliminated:
                lines.append(f"  {power.name}: eliminated")
            continue
        lines.append(f"  {power.name} ({len(centres)} centres, {len(units)} units)")
        lines.append(f"    units:   {' '.join(units) or '-'}")
        lines.append(f"    centres: {' '.join(centres) or '-'}")
    if position.links:
        pairs = ", ".join(f"{board.locations[a].id}={board.locations[b].id}" for a, b in position.links)
        lines.append(f"  links (oldest first): {pairs}")
    if position.cuts:
        pairs = ", ".join(f"{board.spaces[a].id}/{board.spaces[b].id}" for a, b in sorted(position.cuts))
        lines.append(f"  cut adjacencies: {pairs}")
    for d in position.dislodged:
        options = " ".join(board.locations[x].id for x in d.retreats) or "none: must disband"
        lines.append(
            f"  dislodged: {d.unit.power.title()} {d.unit.kind.value} {board.locations[d.unit.loc].id}"
            f" (attacked from {board.spaces[d.attacker_from].id}); may retreat to {options}"
        )
    return "\n".join(lines)


def results_text(board: Board, results: tuple[OrderResult, ...] | list[OrderResult]) -> str:
    from .game import describe_result

    return "\n".join(describe_result(board, r) for r in results)
