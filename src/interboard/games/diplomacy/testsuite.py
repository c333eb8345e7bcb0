"""Reader for the jDip / godip adjudication test-suite text, with interboard's extensions.

The format is described in ``tests/diplomacy/cases/FORMAT.md``. This module only reads text into
plain values; turning them into positions and orders is the caller's business. Lines of the
sections that set up a retreat phase (``PRESTATE_DISLODGED``, ``PRESTATE_RESULTS``) keep their line
numbers, so that the caller can name the line of a unit or an order the board does not know.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from .state import Phase, PhaseKind
from .variant import Variant
from .variant_file import VariantFileError, variant_from_data
from .variants import get_variant

_SECTIONS = {
    "PRESTATE",
    "PRESTATE_LINKS",
    "POSTSTATE_LINKS",
    "POSTSTATE_CUTS",
    "PRESTATE_CUTS",
    "PRESTATE_SUPPLYCENTER_OWNERS",
    "PRESTATE_DISLODGED",
    "PRESTATE_RESULTS",
    "ORDERS",
    "RESULTS",
    "POSTSTATE",
    "POSTSTATE_DISLODGED",
    "POSTSTATE_SUPPLYCENTER_OWNERS",
}
# jDip's owner lines carry a unit letter its parser requires and then ignores (``France: A bre``).
_OWNER_WITH_UNIT = re.compile(r"^([^:]*:)\s*[AaFf]\s+(\S.*)$")
_PLACED_UNIT = re.compile(r"^[^:]*\S[^:]*:\s*\S+\s+\S")
_PRIOR_RESULT = re.compile(r"^(SUCCESS|FAILURE)\s*:\s*([^:]*\S[^:]*:\s*\S.*)$", re.IGNORECASE)


class CaseLine(NamedTuple):
    """A line's text with its number, for errors that the caller finds in it."""

    line: int
    text: str


class PriorResult(NamedTuple):
    """A ``PRESTATE_RESULTS`` line: an order of the movement phase before the case, and its outcome."""

    line: int
    succeeded: bool
    order: str
    """``Power: order`` as written."""


@dataclass
class PhaseBlock:
    """One phase of a case: its orders and what is expected after it, per edition.

    The expectation dictionaries are keyed by edition, ``""`` holding the default.
    """

    phase: str
    orders: list[str] = field(default_factory=list)
    results: dict[str, dict[str, str]] = field(default_factory=dict)
    poststate: dict[str, list[str]] = field(default_factory=dict)
    dislodged: dict[str, list[str]] = field(default_factory=dict)
    centres: dict[str, list[str]] = field(default_factory=dict)
    """Centre owners, ``Power: place`` (a unit letter written before the place is dropped)."""
    links: dict[str, list[str]] = field(default_factory=dict)
    cuts: dict[str, list[str]] = field(default_factory=dict)
    winners: dict[str, list[str]] = field(default_factory=dict)

    def expected(self, table: dict[str, list[str]] | dict[str, dict[str, str]], edition: str) -> object:
        return table.get(edition, table.get(""))


@dataclass
class Case:
    id: str
    title: str
    source: str
    line: int
    editions: tuple[str, ...] = ()
    """Editions the case applies to; empty means every edition."""
    prestate: list[str] = field(default_factory=list)
    prestate_centres: list[str] | None = None
    """Centre owners, ``Power: place`` (a unit letter written before the place is dropped)."""
    prestate_dislodged: list[CaseLine] = field(default_factory=list)
    """Units dislodged before the case's retreat phase, ``Power: A place``."""
    prestate_results: list[PriorResult] = field(default_factory=list)
    """The orders of the movement phase before the case's retreat phase, which tell where each
    dislodged unit's attacker came from and where moves stood each other off."""
    prestate_links: list[str] = field(default_factory=list)
    prestate_cuts: list[str] = field(default_factory=list)
    blocks: list[PhaseBlock] = field(default_factory=list)
    variant: str = "standard"
    options: tuple[str, ...] = ()
    """Rule options, ``name`` or ``name=value`` (``link_limit=2``, ``cut_printed``)."""
    defined: Variant | None = None
    """The variant of a ``VARIANT_FILE`` line, when the cases name one (else the registered
    :attr:`variant`)."""

    def played_on(self) -> Variant:
        """The variant the case is played on."""
        return self.defined if self.defined is not None else get_variant(self.variant)


class CaseFileError(ValueError):
    def __init__(self, source: str, line: int, problem: str) -> None:
        super().__init__(f"{source}:{line}: {problem}")


def read_cases(path: str | Path) -> list[Case]:
    p = Path(path)
    return parse_cases(p.read_text(encoding="utf-8"), p.name, p.parent)


def _file_variant(rest: str, base: Path | None, source: str, number: int) -> Variant:
    """``VARIANT_FILE path``: the variant of the file (relative to the case file). It is not
    registered: a case file's variant is its cases' alone."""
    path = (base or Path.cwd()) / rest
    try:
        definition = json.loads(path.read_text(encoding="utf-8"))
        return variant_from_data(definition, path.name, path.parent)
    except OSError as exc:
        raise CaseFileError(source, number, f"VARIANT_FILE {rest}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CaseFileError(source, number, f"VARIANT_FILE {rest}: not JSON: {exc}") from None
    except VariantFileError as exc:
        raise CaseFileError(source, number, f"VARIANT_FILE {exc}") from None


def parse_cases(text: str, source: str = "<cases>", base: Path | None = None) -> list[Case]:
    """The cases of a case file's ``text``; ``base`` is where its ``VARIANT_FILE`` lines look."""
    cases: list[Case] = []
    case: Case | None = None
    block: PhaseBlock | None = None
    section: str | None = None
    edition = ""
    file_variant = "standard"
    file_defined: Variant | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        # jDip and godip let a comment follow a line's text too ("F tri-alb  # retreat").
        line = raw.partition("#")[0].strip()
        if not line:
            continue
        head, _, rest = line.partition(" ")
        rest = rest.strip()
        if head == "VARIANT_ALL":
            file_variant = rest.lower()
            continue
        if head == "VARIANT_FILE" and case is None:
            file_defined = _file_variant(rest, base, source, number)
            file_variant = file_defined.id
            continue
        if head == "CASE":
            if case is not None:
                raise CaseFileError(source, number, f"CASE {case.id} has no END")
            ident, _, title = rest.partition(" ")
            case = Case(ident, title.strip(), source, number, variant=file_variant, defined=file_defined)
            block, section = None, None
            continue
        if case is None:
            raise CaseFileError(source, number, f"'{line}' outside a CASE")
        if head == "END":
            cases.append(case)
            case, block, section = None, None, None
            continue
        if head == "EDITION":
            case.editions = (*case.editions, rest)
            continue
        if head == "VARIANT":
            case.variant = rest.lower()
            continue
        if head == "VARIANT_FILE":
            case.defined = _file_variant(rest, base, source, number)
            case.variant = case.defined.id
            continue
        if head == "OPTIONS":
            case.options = (*case.options, *rest.split())
            continue
        if head == "POSTSTATE_WINNERS":
            if block is None:
                raise CaseFileError(source, number, "POSTSTATE_WINNERS before PRESTATE_SETPHASE")
            block.winners[""] = rest.split()
            continue
        if head == "PRESTATE_SETPHASE":
            block = PhaseBlock(rest)
            case.blocks.append(block)
            section = None
            continue
        if head == "NEXT_PHASE":
            block = PhaseBlock(rest)
            case.blocks.append(block)
            section = None
            continue
        if head in _SECTIONS:
            section, edition = head, rest
            if head == "PRESTATE_SUPPLYCENTER_OWNERS":
                case.prestate_centres = []
            elif head in ("PRESTATE_DISLODGED", "PRESTATE_RESULTS"):
                _check_retreat_setup(case, head, source, number)
            elif head in ("PRESTATE_LINKS", "PRESTATE_CUTS"):
                pass
            elif block is None:
                raise CaseFileError(source, number, f"{head} before PRESTATE_SETPHASE")
            elif head == "RESULTS":
                block.results[edition] = {}
            elif head == "POSTSTATE":
                block.poststate[edition] = []
            elif head == "POSTSTATE_DISLODGED":
                block.dislodged[edition] = []
            elif head == "POSTSTATE_SUPPLYCENTER_OWNERS":
                block.centres[edition] = []
            elif head == "POSTSTATE_LINKS":
                block.links[edition] = []
            elif head == "POSTSTATE_CUTS":
                block.cuts[edition] = []
            continue
        if section is None or (block is None and not section.startswith("PRESTATE")):
            raise CaseFileError(source, number, f"'{line}' outside a section")
        if section == "PRESTATE":
            case.prestate.append(line)
        elif section == "PRESTATE_SUPPLYCENTER_OWNERS":
            assert case.prestate_centres is not None
            case.prestate_centres.append(_owner(line))
        elif section == "PRESTATE_LINKS":
            case.prestate_links.append(line)
        elif section == "PRESTATE_CUTS":
            case.prestate_cuts.append(line)
        elif section == "PRESTATE_DISLODGED":
            if not _PLACED_UNIT.match(line):
                raise CaseFileError(
                    source, number, "a dislodged unit is written 'Power: A place' or 'Power: F place'"
                )
            case.prestate_dislodged.append(CaseLine(number, line))
        elif section == "PRESTATE_RESULTS":
            m = _PRIOR_RESULT.match(line)
            if not m:
                raise CaseFileError(
                    source,
                    number,
                    "a prior result is written 'SUCCESS: Power: order' or 'FAILURE: Power: order'",
                )
            case.prestate_results.append(PriorResult(number, m.group(1).upper() == "SUCCESS", m.group(2)))
        else:
            assert block is not None
            if section == "ORDERS":
                block.orders.append(line)
            elif section == "RESULTS":
                order, sep, verdict = line.rpartition("=>")
                verdict = verdict.strip().upper()
                if not sep or verdict not in ("SUCCEEDS", "FAILS"):
                    raise CaseFileError(
                        source, number, "a result is written 'Power: order => SUCCEEDS' or '=> FAILS'"
                    )
                block.results[edition][order.strip()] = verdict
            elif section == "POSTSTATE":
                block.poststate[edition].append(line)
            elif section == "POSTSTATE_DISLODGED":
                block.dislodged[edition].append(line)
            elif section == "POSTSTATE_SUPPLYCENTER_OWNERS":
                block.centres[edition].append(_owner(line))
            elif section == "POSTSTATE_LINKS":
                block.links[edition].append(line)
            elif section == "POSTSTATE_CUTS":
                block.cuts[edition].append(line)
    if case is not None:
        raise CaseFileError(source, case.line, f"CASE {case.id} has no END")
    return cases


def _owner(line: str) -> str:
    """A centre owner line as ``Power: place``, without the unit letter jDip writes before the place."""
    m = _OWNER_WITH_UNIT.match(line)
    return f"{m.group(1)} {m.group(2)}" if m else line


def _check_retreat_setup(case: Case, head: str, source: str, number: int) -> None:
    """The dislodged units and prior results set up the case's first phase, which must be a retreat."""
    need = f"{head} is for a case that starts in a retreat phase: 'PRESTATE_SETPHASE <phase>, Retreat' first"
    if len(case.blocks) != 1:
        raise CaseFileError(source, number, need)
    try:
        kind = Phase.parse(case.blocks[0].phase).kind
    except ValueError as e:
        raise CaseFileError(source, number, str(e)) from None
    if kind is not PhaseKind.RETREATS:
        raise CaseFileError(source, number, need)
