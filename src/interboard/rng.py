"""A small serialisable pseudo-random generator (SplitMix64) carried in a game state, for every family.

The whole generator is one 64-bit integer, so a state can be saved as JSON and a game replayed
roll for roll. Draws are unbiased: values from the incomplete top range are rejected.
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a user seed (any integer)."""
    return (seed * GOLDEN + 0x632BE59BD9B4E019) & MASK


def next_u64(state: int) -> tuple[int, int]:
    """(new state, a uniform 64-bit value)."""
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, a uniform integer in 0..n-1)."""
    if n <= 0:
        raise ValueError("below() needs a positive bound")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, value = next_u64(state)
        if value < limit:
            return state, value % n


def roll_dice(state: int, count: int) -> tuple[int, tuple[int, ...]]:
    """(new state, ``count`` six-sided dice in the order rolled)."""
    dice = []
    for _ in range(count):
        state, value = below(state, 6)
        dice.append(value + 1)
    return state, tuple(dice)


def shuffled(state: int, items: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """(new state, a Fisher-Yates shuffle of ``items``)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, tuple(out)
