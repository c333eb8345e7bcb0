"""The registry of a family's rule layers (its ``layers`` module says what a layer is and what its
hooks are): the layers the family provides, and each game's combined hooks, found once per game data.

A variant names its layers in its data (``data.layers``); the engine asks for the hooks at every
hook point, so they are kept per data object."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, Protocol, TypeVar


class Named(Protocol):
    @property
    def name(self) -> str: ...


class Layered(Hashable, Protocol):
    @property
    def id(self) -> str: ...

    @property
    def layers(self) -> tuple[str, ...]: ...


L = TypeVar("L", bound=Named)
D = TypeVar("D", bound=Layered)
H = TypeVar("H")


class LayerRegistry(Generic[D, L, H]):
    """``combine(data, layers)`` makes the hooks of the layers a game's data names, in its order."""

    def __init__(self, family: str, combine: Callable[[D, tuple[L, ...]], H]) -> None:
        self.family = family
        self.combine = combine
        self._provided: dict[str, L] = {}
        self._hooks: dict[D, H] = {}

    def provide(self, *layers: L) -> None:
        """Make layers available to the variants that name them (the family provides its own)."""
        for layer in layers:
            self._provided[layer.name] = layer
        self._hooks.clear()

    def hooks(self, data: D) -> H:
        """The hooks of the layers ``data`` names; a layer no one provided is an error, not a
        game silently played without its rules."""
        try:
            return self._hooks[data]
        except KeyError:
            pass
        missing = [n for n in data.layers if n not in self._provided]
        if missing:
            raise LookupError(
                f"{data.id} plays with the rule layer(s) {', '.join(missing)}, which no family has "
                f"provided (the {self.family} family provides its own when it is imported)"
            )
        found = self._hooks[data] = self.combine(data, tuple(self._provided[n] for n in data.layers))
        return found
