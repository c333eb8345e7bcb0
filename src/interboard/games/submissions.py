"""Help for families whose decision points take a submission of actions played in order on a working
copy of the game (a "world"): the check plays each action, and :meth:`Family.legal` asks again and
again with one action more.

:class:`Drafts` keeps the world after the last ``chosen`` list a seat asked about, so that the next
question, one action longer, plays only the new action on a copy instead of replaying them all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, Self, TypeVar

from .protocol import State


class Cloneable(Protocol):
    def clone(self) -> Self: ...


W = TypeVar("W", bound=Cloneable)


class Drafts(Generic[W]):
    """The world after a seat's draft submission, cached one step back."""

    def __init__(self, load: Callable[[State], W], play: Callable[[W, str, str], None]) -> None:
        self._load = load
        self._play = play
        self._last: tuple[tuple[object, ...], tuple[str, ...], W] | None = None

    def after(self, state: State, seat: str, chosen: tuple[str, ...]) -> W:
        """The world once ``seat`` has played ``chosen`` on ``state`` (raises what ``play`` raises)."""
        key = (id(state), state.get("steps"), state.get("rng"), seat)
        cached = self._last
        if cached is not None and cached[0] == key and cached[1] == chosen[:-1] and chosen:
            world = cached[2].clone()
            self._play(world, seat, chosen[-1])
        else:
            world = self._load(state)
            for text in chosen:
                self._play(world, seat, text)
        self._last = (key, chosen, world.clone())
        return world
