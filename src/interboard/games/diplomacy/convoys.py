"""Convoy routes among the fleets at sea, shared by the adjudicator and the legal-order generator."""

from __future__ import annotations

from collections.abc import Container, Sequence


def convoy_routes(
    fsa: Sequence[frozenset[int]], coastal: Sequence[bool], fleet_seas: Container[int], origin: int
) -> dict[int, set[int]]:
    """For an army at ``origin``: destination -> the fleets at sea on some convoy route there.

    A route is a chain of fleets with no shortcut (DATC 6.G.19, as the adjudicator reads it): each
    fleet touches only its neighbours in the chain, only the first touches the origin and only the
    last the destination. A fleet on no such route may not convoy that move.
    """
    found: dict[int, set[int]] = {}
    path: list[int] = []
    for first in fsa[origin]:
        if first in fleet_seas:
            path.append(first)
            _extend(fsa, coastal, fleet_seas, origin, path, found)
            path.pop()
    return found


def _extend(
    fsa: Sequence[frozenset[int]],
    coastal: Sequence[bool],
    fleet_seas: Container[int],
    origin: int,
    path: list[int],
    found: dict[int, set[int]],
) -> None:
    """Note where ``path`` (a chain of fleets from ``origin``) may land, then extend it by each
    fleet that keeps it a route. A function of its own, not one nested in :func:`convoy_routes`: a
    nested function that calls itself holds itself in its closure, and each call of the outer one
    then left a reference cycle for the garbage collector (the listing of every seat's orders makes
    hundreds a second under load)."""
    last = path[-1]
    near = fsa[last]
    earlier = path[:-1]
    for d in near:
        if coastal[d] and d != origin and not any(d in fsa[p] for p in earlier):
            found.setdefault(d, set()).update(path)
    for nxt in near:
        if nxt not in fleet_seas or nxt in path or origin in fsa[nxt]:
            continue
        if any(nxt in fsa[p] for p in earlier):
            continue
        path.append(nxt)
        _extend(fsa, coastal, fleet_seas, origin, path, found)
        path.pop()
