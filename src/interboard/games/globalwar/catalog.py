"""The Global War family as listed before it is loaded (``interboard variants``, ``interboard --help``, the
family of a variant found): its variants' names and its commands. It imports nothing of the rules;
``tests/test_registry.py`` checks it against the family."""

from ..protocol import Catalog, ListedVariant

CATALOG = Catalog(
    name="globalwar",
    title="Global War",
    variants=(
        ListedVariant(
            "global_war",
            "Global War (42 countries)",
            "Risk-like world conquest, 3-6 players, team play for 6 (P1+P4, P2+P5, P3+P6)",
        ),
        ListedVariant(
            "classic_world",
            "Classic world board (42 territories)",
            "Risk-like world conquest, 3-6 players, team play for 6 (P1+P4, P2+P5, P3+P6)",
        ),
    ),
    cli="interboard.games.globalwar.cli",
    commands=(),
)
