"""The battle resolver: highest die against highest, ties to the defender."""

from __future__ import annotations


def battle_losses(attack: tuple[int, ...], defence: tuple[int, ...]) -> tuple[int, int]:
    """(attacker losses, defender losses) of one roll.

    Dice are compared in pairs after sorting each side high to low, as many pairs as the smaller side
    has dice; a tie goes to the defender.
    """
    attacker_lost = defender_lost = 0
    for a, d in zip(sorted(attack, reverse=True), sorted(defence, reverse=True), strict=False):
        if a > d:
            defender_lost += 1
        else:
            attacker_lost += 1
    return attacker_lost, defender_lost
