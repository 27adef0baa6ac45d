"""Exact odds of an attack: the distribution of wounds and of each defeat level.

Before an attack the table shows, as exact fractions (and percentages), how many
wounds the defender takes, how many the attacker takes back (abilities like
Agron's), and how likely each defeat level is for the current dice.

The rolls. A roll of ``n`` dice is one of the ``C(n + 5, 5)`` sorted multisets,
each weighted by the number of orderings; all sums are whole numbers over a common
denominator until the end.

Rerolls (rule C7) are the owners' choice, and the odds assume both choose as well
as the rules let them (ruling C7b): after both rolls the attacker picks the die to
reroll (or none) knowing both rolls, then the defender picks knowing both rolls and
the attacker's choice (ruling C7a: it is announced first), then the chosen dice are
rolled. Each maximises its expected *wound difference* (wounds dealt minus wounds
taken in this attack); on a tie it keeps, else rerolls the lowest such die. The
choices are :func:`attack_reroll_choice` and :func:`defence_reroll_choice` (the
bot's and the tests'), and the distribution is what they give, exactly.

The choice depends on both rolls, so every pair of rolls is decided (63,504 pairs at
5 against 5 dice, 1,656,369 at 8 against 8): :mod:`.odds_tables` does that for all
pairs at once with numpy arrays of whole numbers, imported when odds are first asked
for. :func:`brute_force` checks it (the tests), :func:`monte_carlo` simulates it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from math import factorial

from companion.games.core.bots import Rng
from companion.games.spartacus.combat import (
    LEVELS,
    Faces,
    Modifiers,
    attack_outcome,
    level_after,
    sort_faces,
)

FACES = (1, 2, 3, 4, 5, 6)
NO_MODIFIERS = Modifiers()


@cache
def multisets(n: int) -> tuple[tuple[Faces, int], ...]:
    """Every sorted roll of ``n`` d6 with the number of ordered rolls giving it."""
    out: list[tuple[Faces, int]] = []

    def rec(prefix: list[int], top: int, left: int) -> None:
        if left == 0:
            counts = Counter(prefix)
            w = factorial(n)
            for c in counts.values():
                w //= factorial(c)
            out.append((tuple(prefix), w))
            return
        for f in range(top, 0, -1):
            prefix.append(f)
            rec(prefix, f, left - 1)
            prefix.pop()

    rec([], 6, n)
    return tuple(out)


def multiset_probability(faces: Sequence[int]) -> Fraction:
    """Exact probability of rolling exactly these faces (in any order) with len(faces) d6."""
    counts = Counter(faces)
    w = factorial(len(faces))
    for c in counts.values():
        w //= factorial(c)
    return Fraction(w, 6 ** len(faces))


def replace_die(faces: Sequence[int], old: int, new: int) -> Faces:
    rest = list(faces)
    rest.remove(old)
    rest.append(new)
    return sort_faces(rest)


def remove_die(faces: Sequence[int], face: int) -> Faces:
    rest = list(faces)
    rest.remove(face)
    return tuple(rest)


# --- the reroll choices (ruling C7b) -------------------------------------------------------


@dataclass(frozen=True)
class _Pairs:
    """One pair of roll sizes as plain lists (a decision reads a few dozen entries):
    each roll's row, the roll a part becomes with a new die, the part left when a face
    is rerolled, and the wounds of every pair of final rolls."""

    att_row: dict[Faces, int]
    def_row: dict[Faces, int]
    att_plus: list[list[int]]
    def_plus: list[list[int]]
    att_minus: list[list[int]]  # [row][face - 1]
    def_minus: list[list[int]]
    to_def: list[list[int]]
    to_att: list[int]


@cache
def _pairs(n_att: int, n_def: int, mods: Modifiers) -> _Pairs:
    from companion.games.spartacus import odds_tables

    att, dfn = odds_tables.side(n_att), odds_tables.side(n_def)
    to_def, to_att = odds_tables.outcome_table(att, dfn, mods)
    return _Pairs(
        {tuple(f): i for i, f in enumerate(att.faces.tolist())},
        {tuple(f): i for i, f in enumerate(dfn.faces.tolist())},
        att.plus.tolist(),
        dfn.plus.tolist(),
        att.minus.tolist(),
        dfn.minus.tolist(),
        to_def.tolist(),
        to_att.tolist(),
    )


def _valuer(
    attack: Sequence[int], defence: Sequence[int], mods: Modifiers
) -> Callable[[int | None, int | None], int]:
    """``value(attack face, defence face)``: 36 x the attacker's expected wound difference
    (wounds dealt minus wounds taken) after the two choices (None: the roll is kept)."""
    t = _pairs(len(attack), len(defence), mods)
    a, d = t.att_row[sort_faces(attack)], t.def_row[sort_faces(defence)]

    def value(a_face: int | None, d_face: int | None) -> int:
        rows = (a,) * 6 if a_face is None else t.att_plus[t.att_minus[a][a_face - 1]]
        cols = (d,) * 6 if d_face is None else t.def_plus[t.def_minus[d][d_face - 1]]
        to_def, to_att = t.to_def, t.to_att
        return sum(to_def[r][c] - to_att[c] for r in rows for c in cols)

    return value


def _answer(
    value: Callable[[int | None, int | None], int], faces: list[int], attack_face: int | None
) -> tuple[int, int | None]:
    """The defender's best answer to ``attack_face``: ``(value, face or None)``."""
    best, best_value = None, value(attack_face, None)
    for face in faces:
        v = value(attack_face, face)
        if v < best_value:
            best, best_value = face, v
    return best_value, best


def defence_reroll_choice(
    attack: Sequence[int], defence: Sequence[int], mods: Modifiers, attack_face: int | None
) -> int | None:
    """The face the defender rerolls (None: it keeps), knowing both rolls and the
    attacker's choice ``attack_face`` (ruling C7b). It lowers the attacker's expected
    wound difference; on a tie it keeps, else takes the lowest face."""
    return _answer(_valuer(attack, defence, mods), sorted(set(defence)), attack_face)[1]


def attack_reroll_choice(
    attack: Sequence[int], defence: Sequence[int], mods: Modifiers, defence_reroll: bool
) -> int | None:
    """The face the attacker rerolls (None: it keeps), knowing both rolls and that the
    defender (if ``defence_reroll``) will answer with :func:`defence_reroll_choice`
    (ruling C7b). On a tie it keeps, else takes the lowest face."""
    value = _valuer(attack, defence, mods)
    faces = sorted(set(defence)) if defence_reroll else []
    best, best_value = None, _answer(value, faces, None)[0]
    for face in sorted(set(attack)):
        v = _answer(value, faces, face)[0]
        if v > best_value:
            best, best_value = face, v
    return best


def reroll_choices(
    attack: Sequence[int],
    defence: Sequence[int],
    mods: Modifiers,
    attack_reroll: bool,
    defence_reroll: bool,
) -> tuple[int | None, int | None]:
    """Both choices of ruling C7b: ``(attacker's face, defender's face)``, None to keep."""
    a_face = attack_reroll_choice(attack, defence, mods, defence_reroll) if attack_reroll else None
    d_face = defence_reroll_choice(attack, defence, mods, a_face) if defence_reroll else None
    return a_face, d_face


@dataclass(frozen=True)
class AttackOdds:
    """The exact distribution of one attack's wounds.

    ``joint[(to_defender, to_attacker)]`` sums to 1. ``defender_levels`` and
    ``attacker_levels`` give the chance of each defeat level (``none``,
    ``yield``, ``injury``, ``decapitation``) for the fighters' current dice; the
    attacker takes its counter wounds whether or not the defender falls (ruling C10b).
    """

    joint: dict[tuple[int, int], Fraction]
    defender_life: int
    attacker_life: int

    @property
    def wounds(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for (w, _), p in self.joint.items():
            out[w] = out.get(w, Fraction(0)) + p
        return dict(sorted(out.items()))

    @property
    def counter_wounds(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for (_, w), p in self.joint.items():
            out[w] = out.get(w, Fraction(0)) + p
        return dict(sorted(out.items()))

    @property
    def expected_wounds(self) -> Fraction:
        return sum((w * p for w, p in self.wounds.items()), Fraction(0))

    @property
    def defender_levels(self) -> dict[str, Fraction]:
        return _levels(self.wounds, self.defender_life)

    @property
    def attacker_levels(self) -> dict[str, Fraction]:
        return _levels(self.counter_wounds, self.attacker_life)


def _levels(wounds: dict[int, Fraction], life: int) -> dict[str, Fraction]:
    out = {name: Fraction(0) for name in ("none", *LEVELS)}
    for w, p in wounds.items():
        z = level_after(life, w)
        out["none" if z == 0 else LEVELS[z - 1]] += p
    return out


def attack_odds(
    n_attack: int,
    n_defence: int,
    mods: Modifiers = NO_MODIFIERS,
    *,
    attack_reroll: bool = False,
    defence_reroll: bool = False,
    defender_life: int | None = None,
    attacker_life: int | None = None,
) -> AttackOdds:
    """Exact wound distribution of ``n_attack`` dice against ``n_defence`` dice."""
    if n_attack < 1 or n_defence < 1:
        raise ValueError("an attack needs at least one attack and one defence die")
    joint = _joint(n_attack, n_defence, mods, attack_reroll, defence_reroll)
    return AttackOdds(
        joint,
        defender_life if defender_life is not None else 3 * n_defence,
        attacker_life if attacker_life is not None else 3 * n_attack,
    )


@cache
def _joint(
    n_att: int, n_def: int, mods: Modifiers, att_reroll: bool, def_reroll: bool
) -> dict[tuple[int, int], Fraction]:
    from companion.games.spartacus import odds_tables  # numpy, imported when first needed

    counts, den = odds_tables.counts(n_att, n_def, mods, att_reroll, def_reroll)
    return {k: Fraction(w, den) for k, w in sorted(counts.items()) if w}


def clear_caches() -> None:
    """Forget every memoised table (benchmarks measure a cold computation)."""
    from companion.games.spartacus import odds_tables

    for fn in (_joint, _pairs, multisets):
        fn.cache_clear()
    odds_tables.clear_caches()


# --- checks: brute force and Monte-Carlo (used by the tests) ------------------------------


def brute_force(
    n_att: int,
    n_def: int,
    mods: Modifiers = NO_MODIFIERS,
    *,
    attack_reroll: bool = False,
    defence_reroll: bool = False,
) -> dict[tuple[int, int], Fraction]:
    """Every ordered roll, every reroll choice (which die, by position) and every rerolled
    die, one by one through :func:`attack_outcome`: the attacker takes the choice with the
    best expected wound difference given the defender's best answer to it (the first such
    in the order keep, then the dice from the lowest face), the defender the answer with
    the lowest (same order)."""
    memo: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, int]] = {}

    def outcome(a: tuple[int, ...], d: tuple[int, ...]) -> tuple[int, int]:
        found = memo.get((a, d))
        if found is None:
            o = attack_outcome(a, d, mods)
            found = memo[(a, d)] = (o.to_defender, o.to_attacker)
        return found

    def rerolled(roll: tuple[int, ...], i: int | None) -> list[tuple[int, ...]]:
        if i is None:
            return [roll] * 6
        return [roll[:i] + (x,) + roll[i + 1 :] for x in FACES]

    def order(roll: tuple[int, ...], allowed: bool) -> list[int | None]:
        return [None, *sorted(range(len(roll)), key=lambda i: roll[i])] if allowed else [None]

    def value(a: list[tuple[int, ...]], d: list[tuple[int, ...]]) -> int:
        return sum(w - c for w, c in (outcome(x, y) for x in a for y in d))

    counts: Counter[tuple[int, int]] = Counter()
    for a in product(FACES, repeat=n_att):
        for d in product(FACES, repeat=n_def):
            best = None
            for i in order(a, attack_reroll):
                fa = rerolled(a, i)
                answer = None
                for j in order(d, defence_reroll):
                    v = value(fa, rerolled(d, j))
                    if answer is None or v < answer[0]:
                        answer = (v, j)
                assert answer is not None
                if best is None or answer[0] > best[0]:
                    best = (answer[0], fa, rerolled(d, answer[1]))
            assert best is not None
            for x in best[1]:
                for y in best[2]:
                    counts[outcome(x, y)] += 1
    den = 6**n_att * 6**n_def * 36
    return {k: Fraction(w, den) for k, w in sorted(counts.items())}


def monte_carlo(
    n_att: int,
    n_def: int,
    mods: Modifiers = NO_MODIFIERS,
    *,
    samples: int,
    rng: Rng,
    attack_reroll: bool = False,
    defence_reroll: bool = False,
) -> dict[tuple[int, int], float]:
    """Simulated frequencies of (to_defender, to_attacker), rolling dice one by one and
    rerolling as :func:`reroll_choices` says."""
    counts: Counter[tuple[int, int]] = Counter()
    for _ in range(samples):
        a = sort_faces(rng.randint(1, 6) for _ in range(n_att))
        d = sort_faces(rng.randint(1, 6) for _ in range(n_def))
        a_face, d_face = reroll_choices(a, d, mods, attack_reroll, defence_reroll)
        if a_face is not None:
            a = replace_die(a, a_face, rng.randint(1, 6))
        if d_face is not None:
            d = replace_die(d, d_face, rng.randint(1, 6))
        o = attack_outcome(a, d, mods)
        counts[(o.to_defender, o.to_attacker)] += 1
    return {k: v / samples for k, v in sorted(counts.items())}


def percent(p: Fraction) -> str:
    """A probability as a percentage for the screen (exact fraction kept elsewhere)."""
    return f"{float(p) * 100:.1f}%"


__all__ = [
    "AttackOdds",
    "attack_odds",
    "attack_reroll_choice",
    "brute_force",
    "defence_reroll_choice",
    "monte_carlo",
    "multiset_probability",
    "multisets",
    "percent",
    "reroll_choices",
]
