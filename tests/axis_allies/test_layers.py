"""The linked world game is a rule layer on the base games' hooks: the base modules import none of
it, and only the variant that names the layer plays with it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from interboard.games.axis_allies import layers, linked
from interboard.games.axis_allies.family import FAMILY
from interboard.games.axis_allies.state import World

PACKAGE = Path(linked.__file__).parent


def test_only_the_family_imports_the_linked_layer() -> None:
    """A reader of the base games' rules reads no linked-game code: the family provides the layer."""
    importers = set()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:  # from .linked / from . import linked
                modules = [node.module] if node.module else [a.name for a in node.names]
                if "linked" in modules:
                    importers.add(path.stem)
    assert importers == {"family"}


@pytest.mark.parametrize(
    ("variant", "named"),
    [("aa_europe_1999", ()), ("aa_pacific_2001", ()), ("aa_linked_world", (linked.LAYER,))],
)
def test_a_variant_plays_with_the_layers_it_names(variant: str, named: tuple[layers.Layer, ...]) -> None:
    world = World.from_json(FAMILY.new_state(variant, {}, 1))
    assert layers.hooks(world).layers == named
    assert (layers.hooks(world) is layers.BASE) is (not named)
