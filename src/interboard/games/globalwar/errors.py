"""Errors of the Global War engine, each with a message for the player."""

from __future__ import annotations


class GlobalWarError(ValueError):
    """Base of the engine's errors."""


class OptionError(GlobalWarError):
    """A rule option that does not exist or has a bad value."""


class ActionSyntaxError(GlobalWarError):
    """Action text that cannot be read (unknown verb, unknown country, missing number)."""

    def __init__(self, text: str, problem: str) -> None:
        super().__init__(f"{text!r}: {problem}")
        self.text = text
        self.problem = problem


class IllegalAction(GlobalWarError):
    """A well-formed action the rules refuse now; the message says why."""
