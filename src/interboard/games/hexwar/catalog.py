"""The hex-and-counter wargames family as listed before it is loaded (``interboard variants``,
``interboard --help``, the family of a variant found): its variants' names and its commands. It
imports nothing of the rules; ``tests/test_registry.py`` checks it against the family."""

from ..protocol import Catalog, ListedVariant

CATALOG = Catalog(
    name="hexwar",
    title="Hex-and-counter wargames",
    variants=(
        ListedVariant(
            "vernian_wwi",
            "20,000 Leagues under the Trenches (Vernian WWI)",
            "The Vernian variant of a WWI operational game on the West Front joined to Southern England by "
            "a tunnel from Dover to Munich. Germany wins with 11 French city hexes (Paris two each) or "
            "London and its six neighbours; the Allies with 6 German city hexes (the Ruhr two each); a "
            "negotiated peace at the start of turn H.",
        ),
    ),
    cli=None,
    commands=(),
)
