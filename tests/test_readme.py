"""The README's examples run, and its set-up commands are the ones CI uses."""

from __future__ import annotations

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_examples_run() -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(README, {}, "README.md", str(ROOT / "README.md"), 0)
    assert test.examples, "the README should show Python examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0


def test_readme_starts_with_the_two_commands_and_ci_runs_the_second() -> None:
    block = README.split("```sh\n", 1)[1].split("```", 1)[0].strip().splitlines()
    assert len(block) == 2
    run_cmd, test_cmd = block
    assert "pip install" in run_cmd and "interboard" in run_cmd
    assert test_cmd.endswith("python -m pytest")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test_cmd.replace("pip install -e", "pip install -q -e") in ci
