"""Errors raised while loading map data."""

from __future__ import annotations


class MapDataError(ValueError):
    """Map data that does not follow the interboard map format.

    The message names the file (or source) and the offending entry, e.g.
    ``standard.json: spaces[12] (BUL): coast 'XC' is not declared``.
    """

    def __init__(self, source: str, where: str, problem: str) -> None:
        self.source = source
        self.where = where
        self.problem = problem
        super().__init__(f"{source}: {where}: {problem}")
