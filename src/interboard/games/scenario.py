"""Scenario files: a game of any family started from a given position (``interboard-scenario/1``).

A scenario names its variant, the variant's rule options, the seed of the game's chances and the
position in the family's own words (units by space and owner, control, money, markers; what each
family writes is in ``docs/scenarios.md``)::

    {"format": "interboard-scenario/1", "variant": "aa_europe_1999", "options": {}, "seed": 7,
     "title": "Germany strikes first",
     "position": {"round": 1, "power": "GERMANY", "phase": "combat_move",
                  "units": ["GERMANY 3 infantry Poland", "USSR 2 infantry Belorussia"]}}

Each field of ``position`` replaces that part of the variant's start; a field left out keeps it.
A scenario read here is checked whole: an unknown variant or option, a field of the wrong type, and
every rule the family checks (an unknown space, an illegal stack) are :class:`ScenarioError`, whose
message names the file and the field. Any decision point of a game record can be written out as a
scenario (:func:`export`), and a record of a game started from a scenario keeps it, so that it
replays.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import find_variant
from .protocol import FamilyError, OptionValue

FORMAT = "interboard-scenario/1"
FIELDS = ("format", "variant", "options", "seed", "title", "position")


class ScenarioError(FamilyError):
    """A scenario that cannot be read or breaks a rule; the message says which file and field."""


@dataclass(frozen=True)
class Scenario:
    """A scenario as read: the variant's id, its options (all of them, checked), the seed and the
    position (the family's fields, as given)."""

    variant: str
    options: dict[str, OptionValue]
    seed: int | None
    position: dict[str, Any]
    title: str = ""
    source: str = field(default="scenario", compare=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "variant": self.variant, "options": dict(self.options)}
        if self.seed is not None:
            out["seed"] = self.seed
        if self.title:
            out["title"] = self.title
        out["position"] = self.position
        return out


def read(data: Any, source: str = "scenario") -> Scenario:
    """The scenario in ``data`` (a JSON object), its envelope checked; the position is checked when
    a game starts from it (:func:`start_state`)."""
    if not isinstance(data, dict):
        raise ScenarioError(f"{source}: a scenario is a JSON object, not {type(data).__name__}")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise ScenarioError(f"{source}: unknown field {unknown[0]!r} (a scenario has {', '.join(FIELDS)})")
    if data.get("format", FORMAT) != FORMAT:
        raise ScenarioError(f"{source}: format is {data['format']!r}, not {FORMAT!r}")
    variant = data.get("variant")
    if not isinstance(variant, str):
        raise ScenarioError(f"{source}: variant: the variant's id is required (see 'interboard variants')")
    try:
        _, info = find_variant(variant)
    except FamilyError as exc:
        raise ScenarioError(f"{source}: variant: {exc}") from None
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ScenarioError(f"{source}: options: an object of the variant's rule options")
    try:
        chosen = info.check_options(options)
    except FamilyError as exc:
        raise ScenarioError(f"{source}: options: {exc}") from None
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63):
        raise ScenarioError(f"{source}: seed: a whole number from 0 to 2**63 - 1, not {seed!r}")
    title = data.get("title", "")
    if not isinstance(title, str) or len(title) > 200:
        raise ScenarioError(f"{source}: title: a text of at most 200 characters")
    position = data.get("position", {})
    if not isinstance(position, dict):
        raise ScenarioError(f"{source}: position: an object of the family's position fields")
    return Scenario(info.id, chosen, seed, position, title, source)


def load(path: str | Path) -> Scenario:
    """Read a scenario file."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScenarioError(f"{p}: cannot be read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{p}: not a text file ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{p}: line {exc.lineno} column {exc.colno}: not JSON: {exc.msg}") from None
    return read(data, str(p))


def start_state(
    scenario: Scenario, seed: int, options: Mapping[str, OptionValue] | None = None
) -> dict[str, Any]:
    """The state of a new game from ``scenario``, its chances seeded by ``seed`` (with ``options`` in
    place of the scenario's, when given). Raises :class:`ScenarioError` naming the field and the rule
    a position breaks."""
    fam, info = find_variant(scenario.variant)
    chosen = scenario.options if options is None else options
    try:
        state = fam.scenario(info.id, chosen, seed, scenario.position)
        fam.pending(state)
        fam.view(state)
    except FamilyError as exc:
        raise ScenarioError(f"{scenario.source}: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        # A rule's own counters (markers, a battle or a decision half-fought) are the family's
        # working data, given as is: what the rules cannot read is refused here, not met later.
        raise ScenarioError(f"{scenario.source}: position: the rules cannot read it ({exc!r})") from None
    return state


def written(
    variant: str,
    options: Mapping[str, OptionValue],
    seed: int | None,
    position: dict[str, Any],
    title: str = "",
) -> dict[str, Any]:
    """A scenario file's content for this position."""
    return Scenario(variant, dict(options), seed, position, title).to_json()
