"""The combat rules as small pure functions, shared by the engine and the odds.

The engine (``state.py``) and the odds calculator (``odds.py``) both call these,
so the odds are computed from exactly the rules the table plays by. Rule
numbers refer to ``docs/rules/kampf-der-gladiatoren.md``.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import factorial

#: The five gladiator kinds, in this order everywhere (counts are 5-tuples).
KINDS = ("spear", "net", "sword", "trident", "shield")
SPEAR, NET, SWORD, TRIDENT, SHIELD = range(5)
SHORT = {"spear": "Sp", "net": "Ne", "sword": "Sw", "trident": "Tr", "shield": "Sh"}
TEAM_SIZE = 4

#: The star die's face ids (``companion/data/dice.json``), in (double, single, blank) order.
STAR_FACES = ("two_red_stars", "one_yellow_star", "blank")

Roll = tuple[int, int, int]  # (double stars, single stars, blanks)


def first_roller(challenger_spears: int, defender_spears: int) -> int:
    """Rule 5a: 0 (the challenger) or 1 (the defender): more spears rolls first; tie: challenger."""
    return 1 if defender_spears > challenger_spears else 0


def dice_count(is_animal: bool, swords: int) -> int:
    """Rule 5c / 6: a team rolls 1 base die + 1 per active sword; an animal 1 per sword symbol."""
    return swords if is_animal else 1 + swords


def may_reroll(striker_tridents: int, target_tridents: int) -> bool:
    """Rule 5d: more active tridents than the opponent: one reroll of all dice (optional)."""
    return striker_tridents > target_tridents


def strike_on_team(roll: Roll, shields: int, stars: int) -> tuple[int, int, int]:
    """Rule 5e-g: ``(gladiators to give up, hit stars left on the field, singles cancelled)``.

    Each active shield cancels one single star; double stars are never cancelled.
    Every double costs 1 gladiator; every single puts a hit star on the field,
    and every 2 stars there cost 1 gladiator (the 2 stars are removed).
    """
    doubles, singles, _ = roll
    cancelled = min(singles, shields)
    total = stars + singles - cancelled
    return doubles + total // 2, total % 2, cancelled


def strike_on_animal(roll: Roll, shields: int) -> tuple[int, int]:
    """Rule 6: ``(hit stars added, singles cancelled)``; a double counts as 2 hit stars."""
    doubles, singles, _ = roll
    cancelled = min(singles, shields)
    return 2 * doubles + singles - cancelled, cancelled


@cache
def roll_outcomes(
    n: int, faces: tuple[Fraction, Fraction, Fraction]
) -> tuple[tuple[Roll, Fraction], ...]:
    """Every result of rolling ``n`` star dice as face counts, with its exact probability.

    ``faces`` are the probabilities of (double, single, blank) on one die. Rolling
    ``n`` dice is one chance node over the multinomial face counts: the dice are
    identical, so only how many show each face matters.
    """
    pd, ps, pb = faces
    out = []
    for d in range(n + 1):
        for s in range(n - d + 1):
            b = n - d - s
            ways = factorial(n) // (factorial(d) * factorial(s) * factorial(b))
            p = ways * pd**d * ps**s * pb**b
            if p:
                out.append(((d, s, b), p))
    return tuple(out)


def describe_roll(roll: Roll) -> str:
    d, s, b = roll
    parts = []
    if d:
        parts.append(f"{d} double star{'s' if d != 1 else ''}")
    if s:
        parts.append(f"{s} single star{'s' if s != 1 else ''}")
    if b:
        parts.append(f"{b} blank{'s' if b != 1 else ''}")
    return ", ".join(parts) or "no dice"


def counts_text(counts: tuple[int, ...] | list[int]) -> str:
    """``spear sword sword shield`` from kind counts."""
    return " ".join(k for k, n in zip(KINDS, counts, strict=True) for _ in range(n)) or "nobody"
