"""A uniformly random legal player for any family, through the protocol alone.

It builds a submission one action at a time from :meth:`Family.legal`: at each step it picks
uniformly among the legal next actions and, when the submission may be sent as it is, stopping.
It knows no family's rules, so it is the player the conformance suite plays every variant with.
"""

from __future__ import annotations

import random

from ..games.protocol import Family, State

MAX_ACTIONS = 500
"""A bound on one submission, whatever a family offers."""


def random_submission(family: Family, state: State, seat: str, rng: random.Random) -> list[str]:
    """A legal submission for ``seat`` at the current decision point."""
    chosen: list[str] = []
    while len(chosen) < MAX_ACTIONS:
        choices = family.legal(state, seat, chosen)
        options = len(choices.actions) + (1 if choices.may_end else 0)
        if options == 0:
            break
        pick = rng.randrange(options)
        if pick == len(choices.actions):
            break
        chosen.append(choices.actions[pick])
    return chosen
