"""The maps every family ships (``interboard/games/<family>/data/maps/*.json``), found on disk so
that the board tests cover a new family's maps without naming it."""

from __future__ import annotations

from importlib import resources

from interboard.board import Board, load_packaged_board


def shipped_maps() -> list[tuple[str, str]]:
    """(package, map name) of every shipped map."""
    found = []
    games = resources.files("interboard.games")
    for family in sorted(games.iterdir(), key=lambda p: p.name):
        maps = family / "data" / "maps"
        if not maps.is_dir():
            continue
        package = f"interboard.games.{family.name}.data.maps"
        found.extend(
            (package, p.name[:-5])
            for p in sorted(maps.iterdir(), key=lambda p: p.name)
            if p.name.endswith(".json")
        )
    return found


def load_map(package: str, name: str) -> Board:
    return load_packaged_board(package, name)
