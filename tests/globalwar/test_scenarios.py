"""Every rule and every refusal as a scenario fixture (scenarios/*.txt, format in scenarios/FORMAT.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .harness import Scenario, scenario_paths


@pytest.mark.parametrize("path", scenario_paths(), ids=[p.stem for p in scenario_paths()])
def test_scenario(path: Path) -> None:
    Scenario(path).run()
