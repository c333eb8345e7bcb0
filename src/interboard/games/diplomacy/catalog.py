"""The Diplomacy family as listed before it is loaded (``interboard variants``, ``interboard --help``, the
family of a variant found): its variants' names and its commands. It imports nothing of the rules;
``tests/test_registry.py`` checks it against the family."""

from ..protocol import Catalog, ListedCommand, ListedVariant

CATALOG = Catalog(
    name="diplomacy",
    title="Diplomacy",
    variants=(
        ListedVariant(
            "standard",
            "Standard Diplomacy",
            "Seven powers on the 1901 map of Europe; 18 of 34 supply centres win.",
        ),
        ListedVariant(
            "twin_earths_1",
            "Twin Earths I (rs16, Don Miller)",
            "Two standard boards, I and II, each space joined to the same space on the other board. Seven "
            "powers, each with its homeland on both boards; the game opens with builds in Winter 1900 on "
            "empty centres. 35 units after a Winter win. Played without DIPLOMANIA house rule #9, whose "
            "content is not known: nothing is done for it.",
        ),
        ListedVariant(
            "twin_earths_3",
            "Twin Earths III (rm11, Lew Pulsipher)",
            "Two standard boards, Y and Z, unconnected at the start; fourteen powers (Germany-Y ... "
            "Turkey-Z). Each Winter the powers LINK, DESTROY and REINFORCE links between spaces, as many "
            "as their centres allow. 23 units after a Winter win. Options: 1 link limit (oldest dropped), "
            "2 cutting printed adjacencies, 3 links between boards only.",
        ),
        ListedVariant(
            "hyperspace_2",
            "Hyperspace Diplomacy II (Don Miller, 1972)",
            "The standard board; with its movement orders each power may order one LINK (two spaces become "
            "adjacent) and one SEPARATE (an adjacency or a link is cut) a season, in effect from the next "
            "movement phase. 18 centres win.",
        ),
    ),
    cli="interboard.games.diplomacy.cli",
    commands=(
        ListedCommand(
            "adjudicate",
            "Adjudicate one Diplomacy phase: a position and orders in, results and the next position out.",
        ),
    ),
)
