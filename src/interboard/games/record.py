"""The game record every family shares: the variant, its options, the seed, and every decision
point's submissions, in order (``interboard-record/1``). It replays through the family protocol to
the same state, dice included, since every chance comes from the seeded generator in the state.

A family may also have records of its own (the Diplomacy family's ``interboard-game/1``, MILA's saved
games); this one needs nothing of a family but the protocol.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import add_variant, find_variant
from .protocol import Family, FamilyError, OptionValue, Processed, State, VariantInfo

FORMAT = "interboard-record/1"


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message names the file and the entry."""


@dataclass(frozen=True)
class Step:
    """One processed decision point: its name and what each deciding seat submitted."""

    phase: str
    submissions: dict[str, list[str]]


@dataclass
class Match:
    """A game being played or replayed through the protocol, with its record."""

    family: Family
    info: VariantInfo
    options: dict[str, OptionValue]
    seed: int
    state: State
    steps: list[Step] = field(default_factory=list)
    players: dict[str, str] = field(default_factory=dict)
    """Seat -> who played it (``bot:heuristic``, a name): for the reader, not for the replay."""
    position: dict[str, Any] | None = None
    """The scenario position the game started from (:mod:`.scenario`); ``None``: the variant's start."""

    @classmethod
    def new(
        cls,
        variant: str,
        options: Mapping[str, OptionValue] | None = None,
        seed: int | None = None,
        position: Mapping[str, Any] | None = None,
    ) -> Match:
        """A new game of ``variant`` (any family), from the variant's start or from a scenario's
        ``position``; ``seed`` ``None`` draws one."""
        fam, info = find_variant(variant)
        chosen = info.check_options(options or {})
        seed = secrets.randbelow(2**31) + 1 if seed is None else seed
        if position is None:
            return cls(fam, info, chosen, seed, fam.new_state(info.id, chosen, seed))
        kept = json.loads(json.dumps(position))  # the record's own copy, JSON as it will be saved
        return cls(fam, info, chosen, seed, fam.scenario(info.id, chosen, seed, kept), position=kept)

    def play(self, submissions: Mapping[str, Sequence[str]]) -> Processed:
        """Process the current decision point with these submissions (missing seats: defaults)."""
        done = self.family.process(self.state, submissions)
        self.steps.append(Step(done.phase, {seat: list(texts) for seat, texts in submissions.items()}))
        self.state = done.state
        return done

    @property
    def over(self) -> bool:
        return self.family.pending(self.state).over

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "family": self.family.name,
            "variant": self.info.id,
            **({"variant_definition": json.loads(self.info.definition)} if self.info.definition else {}),
            "options": dict(self.options),
            "seed": self.seed,
            **({"scenario": self.position} if self.position is not None else {}),
            "players": dict(self.players),
            "steps": [{"phase": s.phase, "submissions": s.submissions} for s in self.steps],
            "winners": self.family.winners(self.state),
        }


def _field(data: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in data:
        raise RecordError(f"{where}: missing {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{where}: {key!r} must be {kind.__name__}")
    return value


def replay(data: Any, source: str = "record", until: str | int | None = None) -> Match:
    """Replay a record from its start; each step must be the decision point the record names.
    ``until`` stops at a decision point, named or numbered from 0 (:class:`RecordError` if the
    record never reaches it). Raises :class:`RecordError` saying where it stops agreeing."""
    if not isinstance(data, dict):
        raise RecordError(f"{source}: a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"{source}: format is {data.get('format')!r}, not {FORMAT!r}")
    variant = _field(data, "variant", str, source)
    if "variant_definition" in data:  # a variant made from a file: the record keeps the file
        try:
            add_variant(data["variant_definition"], f"{source}: variant_definition")
        except FamilyError as exc:
            raise RecordError(str(exc)) from None
    position = data.get("scenario")
    if position is not None and not isinstance(position, dict):
        raise RecordError(f"{source}: 'scenario' must be the position the game started from, an object")
    try:
        match = Match.new(
            variant, _field(data, "options", dict, source), _field(data, "seed", int, source), position
        )
    except FamilyError as exc:
        raise RecordError(f"{source}: {exc}") from None
    if data.get("family", match.family.name) != match.family.name:
        raise RecordError(f"{source}: {variant} is a {match.family.name} variant, not {data['family']}")
    match.players = dict(data.get("players", {}))
    for k, raw in enumerate(_field(data, "steps", list, source)):
        where = f"{source}: steps[{k}]"
        if not isinstance(raw, dict):
            raise RecordError(f"{where}: a step is a JSON object")
        pending = match.family.pending(match.state)
        if until in (pending.phase, k):
            return match
        phase = _field(raw, "phase", str, where)
        if phase != pending.phase:
            raise RecordError(f"{where}: the record says {phase}, the replay is at {pending.phase}")
        submissions = _field(raw, "submissions", dict, where)
        for seat, texts in submissions.items():
            if seat not in pending.seats:
                raise RecordError(f"{where}: {seat} has nothing to decide in {phase}")
            if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
                raise RecordError(f"{where}: {seat}'s submission is not a list of texts")
            problems = [p for p in match.family.check(match.state, seat, texts) if p is not None]
            if problems:
                raise RecordError(f"{where}: {seat}: {problems[0]}")
        match.play(submissions)
    if until is not None and until not in (match.family.pending(match.state).phase, len(match.steps)):
        raise RecordError(
            f"{source}: the record never reaches decision point {until!r} "
            f"(it has {len(match.steps) + 1}, numbered 0 to {len(match.steps)})"
        )
    return match


def save(match: Match, path: str | Path) -> None:
    Path(path).write_text(json.dumps(match.to_json(), indent=1) + "\n", encoding="utf-8")


def load(path: str | Path) -> Match:
    """Read and replay a record file."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RecordError(f"{p}: cannot be read ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{p}: line {exc.lineno} column {exc.colno}: not JSON: {exc.msg}") from None
    return replay(data, str(p))
