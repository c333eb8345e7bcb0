"""The Axis & Allies family as listed before it is loaded (``interboard variants``, ``interboard --help``, the
family of a variant found): its variants' names and its commands. It imports nothing of the rules;
``tests/test_registry.py`` checks it against the family."""

from ..protocol import Catalog, ListedCommand, ListedVariant

CATALOG = Catalog(
    name="axis_allies",
    title="Axis & Allies",
    variants=(
        ListedVariant(
            "aa_europe_1999",
            "Axis & Allies Europe (1999)",
            "Germany against the Soviet Union, the UK and the USA in Europe, the Atlantic and North "
            "Africa: convoys, Middle East oil, Soviet conversion. Capture an enemy capital and hold it a "
            "round.",
        ),
        ListedVariant(
            "aa_pacific_2001",
            "Axis & Allies Pacific (2001)",
            "Japan against the UK (India and Australia), China and the USA across the Pacific: convoy "
            "routes, kamikaze, marines, destroyer-transports; Japan wins at 22 victory points.",
        ),
        ListedVariant(
            "aa_linked_world",
            "Axis & Allies: the linked world game",
            "Rob Daviau's linked game: the Europe and Pacific boards joined by ten interboard spaces into "
            "one war; Germany, the USSR, Japan, the UK and the USA in that order.",
        ),
    ),
    cli="interboard.games.axis_allies.cli",
    commands=(
        ListedCommand(
            "odds",
            "The chances of a battle fought to the end: each side's chance to win, the chance both "
            "die, and\nthe expected losses in IPCs. Casualties are taken cheapest first unless an order "
            "is given.",
        ),
    ),
)
