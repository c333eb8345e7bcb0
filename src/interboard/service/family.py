"""The interface the game master needs from a rule family.

The service never touches a family's rules: it stores the family's state (JSON), asks who must act,
checks and stores orders, and asks the family to process a phase. Both kinds of play fit:

* simultaneous orders (Diplomacy): every acting seat orders, then the phase is processed;
* one seat at a time (Global War): ``acting`` names one seat, which submits one step's
  actions; ``process`` applies them (rolling the seeded dice carried in the state) and the next
  seat, or the same one, acts next.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


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

    def draw(
        self,
        variant: str,
        position: dict[str, Any],
        orders: dict[str, list[str]],
        results: list[dict[str, Any]],
        title: str,
    ) -> str:
        """A position (as :meth:`view` gives it, or as the history keeps it) drawn as an SVG map,
        with a phase's orders, or with its results when given. Raises :class:`FamilyError` when the
        stored orders cannot be read back."""
        ...
