"""Exact odds of an attack: the distribution of wounds and of each defeat level.

Before an attack the table shows, as exact fractions (and percentages), how
many wounds the defender takes, how many the attacker takes back (abilities
like Agron's), and how likely each defeat level is for the current dice.

Method: a roll of ``n`` dice is one of the ``C(n + 5, 5)`` sorted multisets,
each weighted by the number of orderings. For every (merged) defence roll the
attack rolls that beat it position by position are bit masks over the attack
multisets; a bit-sliced counter adds the masks, and weighted popcounts give
the exact distribution in whole numbers over the common denominator. A 5
against 5 attack is a few milliseconds.

Rerolls (rule C7) are the owner's choice; the odds assume the *reroll policy*
:func:`policy_reroll`: reroll the lowest die showing 1-3 that is not part of a
pair or triple that triggers one of the fighter's abilities (ruling C7b). With
``rerolls=False`` the odds are those of not rerolling.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import factorial

from companion.games.core.bots import Rng
from companion.games.spartacus.combat import (
    LEVELS,
    Faces,
    Modifiers,
    ability_total,
    attack_outcome,
    level_after,
    pattern_triggers,
    sort_faces,
)
from companion.games.spartacus.data import Ability

FACES = (1, 2, 3, 4, 5, 6)
PAD = 2  # an unmatched attack die wounds on 3+: as if against a defence die showing 2
REROLL_MAX = 3  # the policy rerolls a die showing at most this
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


def policy_reroll(faces: Sequence[int], abilities: Sequence[Ability] = ()) -> int | None:
    """The odds' reroll policy (ruling C7b): the face of the die to reroll, or None."""
    if not faces:
        return None
    triggered = sum(pattern_triggers(faces, abilities).values()) if abilities else 0
    for f in sorted(set(faces)):
        if f > REROLL_MAX:
            return None
        if triggered:
            rest = list(faces)
            rest.remove(f)
            if sum(pattern_triggers(rest, abilities).values()) < triggered:
                continue
        return f
    return None


def replace_die(faces: Sequence[int], old: int, new: int) -> Faces:
    rest = list(faces)
    rest.remove(old)
    rest.append(new)
    return sort_faces(rest)


def roll_weights(
    n: int, reroll: bool, abilities: Sequence[Ability] = ()
) -> tuple[dict[Faces, int], int]:
    """Final rolls of ``n`` dice (after the policy's reroll) as whole weights over a denominator."""
    base = multisets(n)
    if not reroll:
        return {f: w for f, w in base}, 6**n
    out: dict[Faces, int] = {}
    for faces, w in base:
        old = policy_reroll(faces, abilities)
        if old is None:
            out[faces] = out.get(faces, 0) + 6 * w
            continue
        for new in FACES:
            key = replace_die(faces, old, new)
            out[key] = out.get(key, 0) + w
    return out, 6 ** (n + 1)


@dataclass(frozen=True)
class AttackOdds:
    """The exact distribution of one attack's wounds.

    ``joint[(to_defender, to_attacker)]`` sums to 1. ``defender_levels`` and
    ``attacker_levels`` give the chance of each defeat level (``none``,
    ``yield``, ``injury``, ``decapitation``); the attacker can only be defeated
    when the defender is not (ruling C10b).
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
        out = {name: Fraction(0) for name in ("none", *LEVELS)}
        for (w, _), p in self.joint.items():
            z = level_after(self.defender_life, w)
            out["none" if z == 0 else LEVELS[z - 1]] += p
        return out

    @property
    def attacker_levels(self) -> dict[str, Fraction]:
        out = {name: Fraction(0) for name in ("none", *LEVELS)}
        for (w, c), p in self.joint.items():
            z = 0 if level_after(self.defender_life, w) else level_after(self.attacker_life, c)
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
    att, att_den = roll_weights(n_att, att_reroll, mods.attack_abilities)
    dfn, def_den = roll_weights(n_def, def_reroll, mods.defence_abilities)
    rolls = list(att.items())
    n = n_att
    # P[pos][t]: attack rolls whose die at ``pos`` beats a defence die showing ``t``
    beats = [[0] * 7 for _ in range(n)]
    for idx, (faces, _) in enumerate(rolls):
        bit = 1 << idx
        for pos, f in enumerate(faces):
            for t in range(f):
                beats[pos][t] |= bit
    # weighted popcount: per attacker bonus, one mask per bit of the weights
    groups: dict[int, list[int]] = {}
    max_bits = max(w for _, w in rolls).bit_length()
    for idx, (faces, w) in enumerate(rolls):
        bonus = ability_total(faces, mods.attack_abilities, "extra_wound")
        planes = groups.setdefault(bonus, [0] * max_bits)
        for b in range(max_bits):
            if w >> b & 1:
                planes[b] |= 1 << idx
    # merge defence rolls that act alike: thresholds per attack position, counter, ignore
    keys: dict[tuple[tuple[int, ...], int, int], int] = {}
    for faces, w in dfn.items():
        thresholds = tuple(faces[pos] if pos < len(faces) else PAD for pos in range(n))
        counter = ability_total(faces, mods.defence_abilities, "wound_attacker")
        ignore = ability_total(faces, mods.defence_abilities, "ignore_wound")
        key = (thresholds, counter, ignore)
        keys[key] = keys.get(key, 0) + w
    acc: dict[tuple[int, int, int], int] = {}
    all_bits = (1 << len(rolls)) - 1
    for (thresholds, counter, ignore), wd in keys.items():
        planes: list[int] = []  # bit-sliced count of positions won, per attack roll
        for pos in range(n):
            carry = beats[pos][thresholds[pos]]
            k = 0
            while carry:
                if k == len(planes):
                    planes.append(0)
                plane = planes[k]
                planes[k] = plane ^ carry
                carry &= plane
                k += 1
        for count in range(n + 1):
            mask = all_bits
            for k, plane in enumerate(planes):
                mask &= plane if count >> k & 1 else ~plane
            if count >> len(planes):
                continue
            mask &= all_bits
            if not mask:
                continue
            for bonus, wplanes in groups.items():
                total = 0
                for b, wp in enumerate(wplanes):
                    if wp:
                        total += (mask & wp).bit_count() << b
                if total:
                    key3 = (count + bonus, counter, ignore)
                    acc[key3] = acc.get(key3, 0) + total * wd
    den = att_den * def_den
    out: dict[tuple[int, int], int] = {}
    for (total, counter, ignore), w in acc.items():
        if total > 0:
            total += mods.extra_wound
        to_def = max(0, total - mods.ignore_defender - ignore)
        to_att = max(0, counter - mods.ignore_attacker)
        out[(to_def, to_att)] = out.get((to_def, to_att), 0) + w
    return {k: Fraction(w, den) for k, w in sorted(out.items())}


# --- checks: brute force and Monte-Carlo (used by the tests) ------------------------------


def brute_force(
    n_att: int,
    n_def: int,
    mods: Modifiers = NO_MODIFIERS,
    *,
    attack_reroll: bool = False,
    defence_reroll: bool = False,
) -> dict[tuple[int, int], Fraction]:
    """Every ordered roll (and reroll) one by one, through :func:`attack_outcome`."""
    from itertools import product

    def finals(n: int, reroll: bool, abilities: Sequence[Ability]) -> list[tuple[Faces, int]]:
        out = []  # weights over 6 ** (n + 1)
        for roll in product(FACES, repeat=n):
            faces = sort_faces(roll)
            old = policy_reroll(faces, abilities) if reroll else None
            if old is None:
                out.append((faces, 6))
            else:
                out.extend((replace_die(faces, old, f), 1) for f in FACES)
        return out

    counts: dict[tuple[int, int], int] = {}
    defence = finals(n_def, defence_reroll, mods.defence_abilities)
    for a, wa in finals(n_att, attack_reroll, mods.attack_abilities):
        for d, wd in defence:
            o = attack_outcome(a, d, mods)
            key = (o.to_defender, o.to_attacker)
            counts[key] = counts.get(key, 0) + wa * wd
    den = 6 ** (n_att + 1) * 6 ** (n_def + 1)
    joint = {k: Fraction(w, den) for k, w in counts.items()}
    return dict(sorted(joint.items()))


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
    """Simulated frequencies of (to_defender, to_attacker), rolling dice one by one."""
    counts: Counter[tuple[int, int]] = Counter()
    for _ in range(samples):
        a = sort_faces(rng.randint(1, 6) for _ in range(n_att))
        d = sort_faces(rng.randint(1, 6) for _ in range(n_def))
        if attack_reroll and (old := policy_reroll(a, mods.attack_abilities)) is not None:
            a = replace_die(a, old, rng.randint(1, 6))
        if defence_reroll and (old := policy_reroll(d, mods.defence_abilities)) is not None:
            d = replace_die(d, old, rng.randint(1, 6))
        o = attack_outcome(a, d, mods)
        counts[(o.to_defender, o.to_attacker)] += 1
    return {k: v / samples for k, v in sorted(counts.items())}


def percent(p: Fraction) -> str:
    """A probability as a percentage for the screen (exact fraction kept elsewhere)."""
    return f"{float(p) * 100:.1f}%"
