"""Every rule of the hex wargame family as a scenario fixture (see harness.py for the format)."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import load_cases, run_case

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[f"{c['file'][:-5]}-{c['name']}" for c in CASES])
def test_scenario(case: dict[str, Any]) -> None:
    run_case(case)


def test_every_case_has_a_unique_name() -> None:
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
