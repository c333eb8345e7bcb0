"""Scenario fixtures shared by the families' rule tests: files of cases, and the check of a seat's
actions that every case starts with."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from interboard.games.protocol import Family, State


def load_cases(folder: Path) -> list[dict[str, Any]]:
    """Every case of every ``*.json`` file in ``folder`` (``{"cases": [...]}``), with its file name."""
    cases: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            case["file"] = path.name
            cases.append(case)
    return cases


def checked(family: Family, state: State, seat: str, case: dict[str, Any]) -> bool:
    """Check the case's actions: with ``refused``, the last must be refused with that text and the
    others accepted (returns False: nothing more to do); otherwise all must be accepted."""
    actions: Sequence[str] = case.get("actions", [])
    problems = family.check(state, seat, actions)
    if "refused" in case:
        assert problems[:-1] == [None] * (len(actions) - 1), problems
        assert problems[-1] is not None and case["refused"] in problems[-1], problems[-1]
        return False
    assert problems == [None] * len(actions), problems
    return True
