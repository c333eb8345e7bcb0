"""The family protocol: what the service, the generic CLI, the generic bots, self-play and the
conformance suite need of a rule family, and nothing more.

A game's state is a JSON-ready ``dict`` owned by its family; the generic parts store it, pass it
back, and never look inside. The game moves on by *decision points*. At each one,
:meth:`Family.pending` says which seats must decide (several at once for simultaneous orders, one
for a turn-based step, a seat that is not the turn's owner for a defender's casualties or a
retreat), what kind of decision it is (the kind picks the deadline), and whose turn it is. Each
deciding seat submits a list of action texts, checked by :meth:`Family.check` without revealing
anything of chance; :meth:`Family.process` applies the submissions, gives a missing seat its
defaults (the deadline passed), rolls any dice from the seeded generator carried in the state, and
returns the next state with typed results that record every roll. So a record replays to the same
state, and no one can re-roll: a die exists only once the step that throws it is committed.

A turn of a wargame is then a sequence of decision points: purchase, each move, each battle's
rounds with the defender's casualty choice, a retreat, placement; the seat to act changes as the
turn goes. Diplomacy is the special case of one decision point a phase with every power deciding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

State = dict[str, Any]
"""A family's game state, JSON-ready. Only the family reads it."""

OptionValue = bool | int | str


class FamilyError(ValueError):
    """Bad input for a family (unknown variant, bad option, unreadable record); the message says what."""


@dataclass(frozen=True)
class Option:
    """A rule option of a variant: its name, default (whose type is the option's type), and bounds."""

    name: str
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    """The allowed values of a text option (empty: any, up to 100 characters)."""
    minimum: int | None = None
    maximum: int | None = None

    @property
    def kind(self) -> str:
        """``bool``, ``int`` or ``str``."""
        return type(self.default).__name__

    def check(self, value: object, where: str) -> OptionValue:
        """``value`` if it is allowed, else a :class:`FamilyError` that says why."""
        if type(value) is not type(self.default):
            raise FamilyError(f"{where}: option {self.name!r} must be {self.kind}, not {value!r}")
        assert isinstance(value, bool | int | str)
        if isinstance(value, str):
            if self.choices and value not in self.choices:
                raise FamilyError(
                    f"{where}: option {self.name!r} must be one of {', '.join(self.choices)}, not {value!r}"
                )
            if len(value) > 100:
                raise FamilyError(f"{where}: option {self.name!r} is longer than 100 characters")
        elif isinstance(value, int) and not isinstance(value, bool):
            low = self.minimum if self.minimum is not None else -(2**31)
            high = self.maximum if self.maximum is not None else 2**31 - 1
            if not low <= value <= high:
                raise FamilyError(f"{where}: option {self.name!r} must be from {low} to {high}, not {value}")
        return value

    def parse(self, text: str, where: str) -> OptionValue:
        """The option's value written as text (``true``/``false``, a number, a word)."""
        if isinstance(self.default, bool):
            lowered = text.strip().lower()
            if lowered not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
                raise FamilyError(f"{where}: option {self.name!r} is true or false, not {text!r}")
            return self.check(lowered in ("true", "yes", "1", "on"), where)
        if isinstance(self.default, int):
            try:
                number = int(text)
            except ValueError:
                raise FamilyError(f"{where}: option {self.name!r} is a whole number, not {text!r}") from None
            return self.check(number, where)
        return self.check(text.strip(), where)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "help": self.help,
        }
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


@dataclass(frozen=True)
class VariantInfo:
    """A playable variant, under the one id it has everywhere (CLI, API, lobby, records)."""

    id: str
    family: str
    title: str
    description: str
    seats: tuple[str, ...]
    """The seats of a game with the default options (an option may seat fewer)."""
    options: tuple[Option, ...] = ()
    rules: tuple[str, ...] = ()
    """The project's rule pages that explain the variant (``docs/rules/<name>.md``), first the one
    a new player should read: the server shows them on the variant's rules page."""
    definition: str | None = None
    """For a variant defined by a file (``docs/variants.md``): that definition, as JSON text with
    its map files written in, which a record keeps so that it replays if the file later changes."""

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise FamilyError(f"{self.id} has no option {name!r} (options: {known})")

    def check_options(self, given: Mapping[str, object]) -> dict[str, OptionValue]:
        """Every option of the variant, the given ones checked and the others at their defaults."""
        for name in given:
            self.option(name)
        return {
            o.name: o.check(given[o.name], self.id) if o.name in given else o.default for o in self.options
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "family": self.family,
            "title": self.title,
            "description": self.description,
            "seats": list(self.seats),
            "options": [o.to_json() for o in self.options],
        }


@dataclass(frozen=True)
class ListedVariant:
    """A variant as its family's catalog lists it: the names :class:`VariantInfo` gives it too."""

    id: str
    title: str
    description: str


@dataclass(frozen=True)
class ListedCommand:
    """A command of a family's CLI module as ``interboard --help`` lists it: its name, and the first
    paragraph of its help, as written in its docstring (line breaks kept)."""

    name: str
    summary: str


@dataclass(frozen=True)
class Catalog:
    """What is known of a family before it is loaded: its names, its variants' names and its
    commands. A built-in family keeps its catalog in a module that imports nothing of its rules
    (``catalog.py``), so that listing the variants or the commands, or finding the family of a
    variant, loads no engine; the tests check each catalog against its family."""

    name: str
    title: str
    variants: tuple[ListedVariant, ...]
    cli: str | None = None
    """The family's CLI module (:attr:`Family.cli`)."""
    commands: tuple[ListedCommand, ...] | None = ()
    """The commands its CLI module registers (``register(app)``); ``None``: not listed (the CLI
    imports the module when it starts, to register them)."""

    @classmethod
    def of(cls, family: Family) -> Catalog:
        """The catalog of a family loaded already (one that keeps none): its commands unlisted."""
        listed = tuple(ListedVariant(v.id, v.title, v.description) for v in family.variants())
        return cls(family.name, family.title, listed, family.cli, None if family.cli else ())


@dataclass(frozen=True)
class Pending:
    """The decision point a game is at: who must decide, what kind of decision, whose turn."""

    phase: str
    """The decision point's name, unique within a game (``S1901M``, ``T3.P2.attack.17``)."""
    kind: str
    """One of the family's :attr:`Family.phase_kinds`: it picks the deadline that applies."""
    seats: tuple[str, ...]
    """Seats that must decide now."""
    round: int
    """The game's round (a Diplomacy year, a turn number): self-play caps games by it."""
    turn: str | None = None
    """Whose turn it is in a turn-based game (``None`` when every seat orders at once). A seat in
    :attr:`seats` that is not the turn's owner answers a decision asked of it (a defender)."""
    prompts: Mapping[str, str] = field(default_factory=dict)
    """Per seat, what is asked of it, in the family's words."""
    over: bool = False
    """The game has ended (then :attr:`seats` is empty). A decision point with no seat to decide
    that is not the end is processed at once, with nothing submitted."""


@dataclass(frozen=True)
class Choices:
    """What a seat may add to a submission it is building: the legal next actions, and whether the
    submission may be sent as it is. A step whose dice are rolled when processed ends a submission
    (no action may follow it), so choosing never reveals a roll."""

    actions: tuple[str, ...]
    may_end: bool


@dataclass(frozen=True)
class Processed:
    """What :meth:`Family.process` returns."""

    state: State
    phase: str
    """The decision point that was processed."""
    position: dict[str, Any]
    """The public view of the position it was played from (what the history keeps)."""
    results: list[dict[str, Any]]
    """One entry per action, with every die rolled. Each has at least ``power`` (the seat),
    ``order`` (the action's text) and ``succeeded``, and may have a ``message`` that explains it,
    so a page that knows no family's rules can list them."""
    winners: list[str]


@runtime_checkable
class VariantFiles(Protocol):
    """A family whose variants may be defined by files (``docs/variants.md``)."""

    def add_variant(self, definition: Mapping[str, Any], source: str, base: Path | None) -> VariantInfo:
        """Offer the variant ``definition`` (a parsed variant file named ``source``; its map files
        are read from ``base``) from now on, in this process. The same definition again is the same
        variant; another under a taken id is refused. Raises :class:`FamilyError` with every error
        of the file, each naming where it is."""
        ...


@runtime_checkable
class Family(Protocol):
    """A rule family. One object per family, listed by the registry in :mod:`interboard.games`."""

    name: str
    """The family's id (``diplomacy``)."""
    title: str
    phase_kinds: tuple[str, ...]
    """The kinds of decision point; a game's deadlines are set per kind."""
    bots: tuple[str, ...]
    """The family's own bots by name (the generic ``random`` bot works in every family too)."""
    default_bot: str | None
    """The bot that takes a seat whose player leaves (``None``: the seat opens)."""
    cli: str | None
    """Module of the family's CLI commands (``register(app)``, and ``play(variant, args)`` when it
    has its own local play), imported only by the CLI; ``None`` if it has none."""

    def variants(self) -> list[VariantInfo]: ...

    def new_state(self, variant: str, options: Mapping[str, OptionValue], seed: int) -> State:
        """A new game. ``options`` are checked (:meth:`VariantInfo.check_options`); ``seed`` seeds
        every chance in the game. Raises :class:`FamilyError`."""
        ...

    def scenario(
        self, variant: str, options: Mapping[str, OptionValue], seed: int, position: Mapping[str, Any]
    ) -> State:
        """A new game of ``variant`` that starts from ``position``: the family's scenario fields
        (``docs/scenarios.md``), each given one replacing that part of the variant's start. Raises
        :class:`FamilyError` naming the field and the rule it breaks (``position.units[3]: ...``)."""
        ...

    def position(self, state: State) -> dict[str, Any]:
        """The position of ``state`` in the family's scenario fields, every field written: a game
        started from it (:meth:`scenario`) is at the same decision point with the same choices."""
        ...

    def seats(self, state: State) -> list[str]: ...

    def pending(self, state: State) -> Pending: ...

    def check(self, state: State, seat: str, actions: Sequence[str]) -> list[str | None]:
        """For each action text, read in order: ``None`` if accepted, else what is wrong with it."""
        ...

    def process(self, state: State, submissions: Mapping[str, Sequence[str]]) -> Processed:
        """Apply the decision point's submissions; a deciding seat missing from them gets the
        family's defaults (units hold, cheapest casualties, ...), marked ``default`` in its results."""
        ...

    def legal(self, state: State, seat: str, chosen: Sequence[str]) -> Choices:
        """What ``seat`` may add after the actions ``chosen`` so far in its submission."""
        ...

    def options(self, state: State, seat: str, chosen: Sequence[str] = ()) -> dict[str, Any]:
        """The legal-action tree a page offers for clicking (the family's shape), after the actions
        ``chosen`` that the seat has saved so far (a family whose actions build on each other, such as
        the moves of a wargame's turn, offers what may follow them; others may ignore them).

        What may be clicked are the texts under ``orders`` (place -> ... -> action text), ``links``
        (kind -> end -> end -> text) and ``waive``: together they hold every action :meth:`legal`
        lists for the seat, none left out (the conformance suite checks it). A run of numbers as the
        last keys (``{"1": text, "2": text}``) is a quantity. What else a page reads, each optional:
        ``prompt``, ``hint``, ``example`` and ``no_orders`` (words for the step), ``labels`` (a key's
        name), ``place_names`` (a place code's name), ``words`` and ``notes`` (an action's text in
        players' words, and what it costs or its odds), ``confirm`` (actions asked about once more,
        with the question), ``play_at_once`` (actions sent with their click), ``chained`` (what may
        follow depends on what was chosen), ``help`` ([text, link] pairs into the rules page)."""
        ...

    def view(self, state: State) -> dict[str, Any]:
        """What everyone may see of the position (never the generator's state)."""
        ...

    def alive(self, state: State) -> list[str]:
        """Seats still in the game."""
        ...

    def scores(self, state: State) -> dict[str, int]:
        """Each seat's size (centres, countries, income): self-play tables sum them."""
        ...

    def winners(self, state: State) -> list[str]: ...

    def text(self, state: State) -> str:
        """The position for a terminal."""
        ...

    def bot_actions(self, state: State, seat: str, bot: str, seed: str) -> list[str]:
        """The submission the family's bot ``bot`` makes for ``seat`` now (``seed`` makes it repeatable)."""
        ...

    def draw(
        self,
        variant: str,
        position: dict[str, Any],
        orders: Mapping[str, Sequence[str]],
        results: Sequence[dict[str, Any]],
        title: str,
    ) -> str:
        """A position (as :meth:`view` gives it, or as the history keeps it) drawn as an SVG map,
        with a phase's orders, or with its results when given. Raises :class:`FamilyError` when the
        stored orders cannot be read back."""
        ...
