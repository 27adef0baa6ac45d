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

Method without rerolls: for every (merged) defence roll the attack rolls that beat
it position by position are bit masks over the attack multisets; a bit-sliced
counter adds the masks, and weighted popcounts give the distribution.

Method with rerolls (the choice depends on both rolls, so on every pair of rolls):
the rolls are rows of packed lanes (:mod:`.lanes`) and a whole row of pairs is
decided at once. A choice leads to a *state*: a kept roll, or the dice kept when
one is rerolled (a roll of ``n - 1`` dice). For every attacker state and defence
roll the defender's best answer is a lane-wise minimum over its choices; for every
attack roll the attacker's choice is a lane-wise maximum over its states. Choices
that can never be better are dropped first: with the same new die, rerolling a
lower die is never worse unless a pair or triple ability says otherwise. The mass
of every pair then flows to the final rolls and is counted by outcome.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from math import factorial
from operator import ge, itemgetter

from companion.games.core.bots import Rng
from companion.games.spartacus.combat import (
    LEVELS,
    Faces,
    Modifiers,
    ability_total,
    attack_outcome,
    level_after,
    sort_faces,
)
from companion.games.spartacus.data import Ability
from companion.games.spartacus.lanes import Lanes

FACES = (1, 2, 3, 4, 5, 6)
PAD = 2  # an unmatched attack die wounds on 3+: as if against a defence die showing 2
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


def _valuer(
    attack: Sequence[int], defence: Sequence[int], mods: Modifiers
) -> Callable[[int | None, int | None], int]:
    """``value(attack face, defence face)``: 36 x the attacker's expected wound difference
    (wounds dealt minus wounds taken) after the two choices (None: the roll is kept)."""
    att, dfn = _side(len(attack)), _side(len(defence))
    out = _outcomes(len(attack), len(defence), mods)
    a, d = att.index[sort_faces(attack)], dfn.index[sort_faces(defence)]

    def value(a_face: int | None, d_face: int | None) -> int:
        rows = (a,) * 6 if a_face is None else att.plus[att.minus[a][a_face]]
        cols = (d,) * 6 if d_face is None else dfn.plus[dfn.minus[d][d_face]]
        to_att = out.to_att
        return sum(out.to_def[r][c] - to_att[c] for r in rows for c in cols)

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
    if att_reroll or def_reroll:
        counts, den = _with_rerolls(n_att, n_def, mods, att_reroll, def_reroll)
    else:
        counts, den = _without_rerolls(n_att, n_def, mods)
    return {k: Fraction(w, den) for k, w in sorted(counts.items()) if w}


def clear_caches() -> None:
    """Forget every memoised table (benchmarks measure a cold computation)."""
    for fn in (_joint, multisets, _side, _outcomes):
        fn.cache_clear()


# --- without rerolls: bit masks over the attack rolls --------------------------------------


def _without_rerolls(n_att: int, n_def: int, mods: Modifiers) -> tuple[dict, int]:
    rolls = multisets(n_att)
    n = n_att
    # beats[pos][t]: attack rolls whose die at ``pos`` beats a defence die showing ``t``
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
    for faces, w in multisets(n_def):
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
            if count >> len(planes):
                continue
            mask = all_bits
            for k, plane in enumerate(planes):
                mask &= plane if count >> k & 1 else ~plane
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
    out: Counter[tuple[int, int]] = Counter()
    for (total, counter, ignore), w in acc.items():
        total += mods.extra_wound  # ruling C10a: whatever the dice did
        to_def = max(0, total - mods.ignore_defender - ignore)
        to_att = max(0, counter - mods.ignore_attacker)
        out[(to_def, to_att)] += w
    return out, 6**n_att * 6**n_def


# --- with rerolls: lanes over the defence rolls --------------------------------------------


@dataclass(frozen=True)
class _Side:
    """The rolls of ``n`` dice and of ``n - 1`` dice (what is kept when one is rerolled)."""

    rolls: tuple[Faces, ...]
    weights: tuple[int, ...]
    index: dict[Faces, int]
    parts: tuple[Faces, ...]
    plus: tuple[tuple[int, ...], ...]  # plus[p][x - 1]: the roll parts[p] + x
    minus: tuple[dict[int, int], ...]  # minus[r][face]: the part rolls[r] - face


@cache
def _side(n: int) -> _Side:
    rolls = multisets(n)
    index = {faces: i for i, (faces, _) in enumerate(rolls)}
    parts = tuple(faces for faces, _ in multisets(n - 1)) if n > 1 else ((),)
    part_index = {faces: i for i, faces in enumerate(parts)}
    plus = tuple(tuple(index[sort_faces((*p, x))] for x in FACES) for p in parts)
    minus = tuple(
        {face: part_index[remove_die(faces, face)] for face in sorted(set(faces))}
        for faces, _ in rolls
    )
    return _Side(tuple(f for f, _ in rolls), tuple(w for _, w in rolls), index, parts, plus, minus)


@dataclass(frozen=True)
class _Outcomes:
    """What every pair of final rolls deals: ``to_def[attack][defence]``, ``to_att[defence]``,
    and what each roll's pair and triple abilities give (per effect, per roll)."""

    to_def: tuple[tuple[int, ...], ...]
    to_att: tuple[int, ...]
    rows: tuple[int, ...]  # to_def per attack roll as 16-bit lanes over the defence rolls
    bonus: tuple[int, ...]  # the attacker's ability wounds, per attack roll
    counter: tuple[int, ...]  # the defender's counter wounds, per defence roll
    ignore: tuple[int, ...]  # wounds the defender's abilities ignore, per defence roll


def _ability_values(
    rolls: Sequence[Faces], abilities: Sequence[Ability], effects: Sequence[str]
) -> list[tuple[int, ...]]:
    """Per effect, what ``abilities`` give on each roll. A face's triggers depend only on
    how often it shows (and, for an ability of one face, which face): rolls with the same
    counts are worked out once."""
    if not abilities:
        return [(0,) * len(rolls) for _ in effects]
    only = sorted({a.face for a in abilities if a.face is not None})
    memo: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}
    values = []
    for roll in rolls:
        counts = [roll.count(f) for f in FACES]
        key = (
            tuple(sorted(c for f, c in zip(FACES, counts, strict=True) if f not in only)),
            tuple(counts[f - 1] for f in only),
        )
        found = memo.get(key)
        if found is None:
            found = memo[key] = tuple(ability_total(roll, abilities, e) for e in effects)
        values.append(found)
    return [tuple(v[i] for v in values) for i in range(len(effects))]


@cache
def _outcomes(n_att: int, n_def: int, mods: Modifiers) -> _Outcomes:
    att, dfn = _side(n_att), _side(n_def)
    (bonus,) = _ability_values(att.rolls, mods.attack_abilities, ("extra_wound",))
    counter, ignore = _ability_values(
        dfn.rolls, mods.defence_abilities, ("wound_attacker", "ignore_wound")
    )
    to_att = tuple(max(0, c - mods.ignore_attacker) for c in counter)
    lanes = Lanes(len(dfn.rolls), 16)
    # wins[pos][t]: 1 in the lanes of the defence rolls whose die at pos is below t
    wins = [
        [lanes.pack(int((d[pos] if pos < n_def else PAD) < t) for d in dfn.rolls) for t in range(7)]
        for pos in range(n_att)
    ]
    off = max(ignore) + mods.ignore_defender
    floor = lanes.fill(off)
    less = lanes.pack(off - mods.ignore_defender - i for i in ignore)
    rows = []
    for a, b in zip(att.rolls, bonus, strict=True):
        x = sum(wins[pos][f] for pos, f in enumerate(a)) + less + lanes.fill(b + mods.extra_wound)
        rows.append(lanes.select(lanes.less(x, floor), floor, x) - floor)  # never below 0
    to_def = tuple(tuple(lanes.unpack(x)) for x in rows)
    return _Outcomes(to_def, to_att, tuple(rows), bonus, counter, ignore)


def _choices(side: _Side, values: Sequence[Sequence[int]]) -> list[tuple[tuple[int, int], ...]]:
    """Per roll, the rerolls worth considering as ``(face, part)``, lowest face first.

    ``values``: per effect, what each roll's pair and triple abilities give (the more the
    better for their owner). With the same new die, rerolling a lower face leaves a higher
    roll, which never compares worse; so rerolling ``high`` is dropped when rerolling a
    lower face gives abilities at least as good for every new die (it could only tie, and
    the lower face comes first), and rerolling a 6 is dropped when keeping does (keeping
    comes first)."""
    values = [v for v in values if any(v)]
    if not values:  # no abilities: only the lowest die, unless all show 6
        return [((low, minus[low]),) if (low := min(minus)) < 6 else () for minus in side.minus]
    # what the abilities give on the six rolls a part leads to (one tuple per effect and die)
    after = [tuple(b for v in values for b in itemgetter(*plus)(v)) for plus in side.plus]
    kept = [tuple(v[r] for v in values for _ in range(6)) for r in range(len(side.rolls))]
    out = []
    for r, minus in enumerate(side.minus):
        faces = sorted(minus)
        keep = []
        for i, f in enumerate(faces):
            mine = after[minus[f]]
            if f == 6 and all(map(ge, kept[r], mine)):
                continue
            if any(all(map(ge, after[minus[low]], mine)) for low in faces[:i]):
                continue
            keep.append((f, minus[f]))
        out.append(tuple(keep))
    return out


def _transpose(rows: Sequence[int], lanes: Lanes, out: Lanes) -> list[int]:
    """Rows of ``lanes`` (``out.n`` of them) as ``lanes.n`` rows of ``out`` lanes (as wide
    or wider)."""
    values = array(lanes.code, b"".join(row.to_bytes(lanes.nbytes, "little") for row in rows))
    n = lanes.n
    return [out.from_bytes(values[j::n].tobytes(), lanes.width) for j in range(n)]


def _with_rerolls(
    n_att: int, n_def: int, mods: Modifiers, att_reroll: bool, def_reroll: bool
) -> tuple[Counter[tuple[int, int]], int]:
    att, dfn = _side(n_att), _side(n_def)
    out = _outcomes(n_att, n_def, mods)
    n_a, n_d = len(att.rolls), len(dfn.rolls)
    den = 6**n_att * 6**n_def * 36
    if den >= 1 << 63:
        raise ValueError(f"{n_att} against {n_def} dice: too many dice for exact odds")
    a_choices = _choices(att, [out.bonus]) if att_reroll else [()] * n_a
    d_choices = _choices(dfn, [out.counter, out.ignore]) if def_reroll else [()] * n_d
    slots = max(len(c) for c in d_choices)  # the defender's k-th reroll choice
    # value: 36 x the attacker's wound difference, biased to be >= 0
    bias = max(out.to_att)
    big = 36 * (max(max(r) for r in out.to_def) + bias) + 1  # above every value
    width = Lanes.width_for(max((big + 1) * 8, 6 ** (n_att + 1) // 2))
    lanes, by_att = Lanes(n_d, width), Lanes(n_a, width)
    back = lanes.pack(bias - a for a in out.to_att)
    narrow = Lanes(n_d, 16)  # the lanes of the outcome table
    ub = [lanes.widen(row, narrow) + back for row in out.rows]
    parts = range(len(att.parts)) if att_reroll else range(0)
    # value rows (lanes: defence rolls) for every attacker state, kept roll or part
    keep = [36 * row for row in ub] + [6 * sum(ub[r] for r in att.plus[p]) for p in parts]
    slot_rows: list[list[int]] = [[] for _ in keep]
    if slots:
        zero = bytes(by_att.nbytes)
        columns = _transpose(ub, lanes, by_att)  # per defence roll, lanes: attack rolls
        sums_bytes = [
            sum(columns[d] for d in plus).to_bytes(by_att.nbytes, "little") for plus in dfn.plus
        ]
        for k in range(slots):
            part_of = [c[k][1] if k < len(c) else -1 for c in d_choices]
            table = array(by_att.code, b"".join(sums_bytes[q] if q >= 0 else zero for q in part_of))
            td = [int.from_bytes(table[a::n_a].tobytes(), "little") for a in range(n_a)]
            missing = lanes.pack(big * 8 if q < 0 else 0 for q in part_of) + lanes.fill(k + 1)
            for r in range(n_a):
                slot_rows[r].append(48 * td[r] + missing)
            for p in parts:
                slot_rows[n_a + p].append(8 * sum(td[r] for r in att.plus[p]) + missing)
    # the defender's best answer to every attacker state: value * 8 + its slot
    best_answer = []
    for value, rows in zip(keep, slot_rows, strict=True):
        answer = value * 8
        for row in rows:
            answer = lanes.minimum(answer, row)
        best_answer.append(answer)
    # the attacker's choice per attack roll; mass (attack weights) per state and answer
    seven = lanes.fill(7)
    value_bits = lanes.fill(1 << (width - 4)) - lanes.ones  # a value without its slot
    everything = lanes.fill(lanes.limit - 1)
    mass = [[0] * (slots + 1) for _ in keep]
    for r, weight in enumerate(att.weights):
        options = [r] + [n_a + p for _, p in a_choices[r]]
        chosen = [everything]
        if len(options) > 1:
            best = (best_answer[r] >> 3) & value_bits
            for s in options[1:]:
                v = (best_answer[s] >> 3) & value_bits
                better = lanes.less(best, v)
                if better:
                    best = lanes.select(better, v, best)
                    chosen = [c & ~better for c in chosen]
                chosen.append(better)
        w = lanes.fill(weight)
        for s, lanes_chosen in zip(options, chosen, strict=True):
            if not lanes_chosen:
                continue
            answers = best_answer[s] & seven
            if not slots:
                mass[s][0] += lanes_chosen & w
                continue
            for k in range(slots + 1):
                cls = lanes_chosen & lanes.equal(answers, k)
                if cls:
                    mass[s][k] += cls & w
    return _count(att, dfn, out, lanes, mass, d_choices), den


def _count(
    att: _Side,
    dfn: _Side,
    out: _Outcomes,
    lanes: Lanes,
    mass: list[list[int]],
    d_choices: list[tuple[tuple[int, int], ...]],
) -> Counter[tuple[int, int]]:
    """The distribution: the mass of every state flows to the final rolls (36 ways per
    pair of rolls), then is counted by outcome."""
    n_a, n_d = len(att.rolls), len(dfn.rolls)
    wide = Lanes(n_a, 64)
    fin = [0] * n_d  # per final defence roll, lanes: final attack rolls
    q_acc = [0] * len(dfn.parts)
    for k in range(len(mass[0])):
        # attack side: a kept roll counts 6 times, a part's mass goes to its six rolls
        rows = [6 * mass[r][k] for r in range(n_a)]
        for p, plus in enumerate(att.plus[: len(mass) - n_a]):
            m = mass[n_a + p][k]
            if m:
                for r in plus:
                    rows[r] += m
        if not any(rows):
            continue
        by_defence = _transpose(rows, lanes, wide)
        for d, row in enumerate(by_defence):
            if not row:
                continue
            if k == 0:
                fin[d] += 6 * dfn.weights[d] * row
            else:
                q_acc[d_choices[d][k - 1][1]] += dfn.weights[d] * row
    for q, row in enumerate(q_acc):
        if row:
            for d in dfn.plus[q]:
                fin[d] += row
    return _by_outcome(out, fin, wide)


def _by_outcome(out: _Outcomes, fin: list[int], wide: Lanes) -> Counter[tuple[int, int]]:
    """Add up the mass of every pair of final rolls (``fin[defence]``, lanes: attack rolls)
    by its outcome."""
    n_d = len(fin)
    flat = b"".join(bytes(row) for row in out.to_def)  # to_def by attack roll, then defence
    dist: Counter[tuple[int, int]] = Counter()
    for d, row in enumerate(fin):
        if not row:
            continue
        counts = [0] * 256
        masses = memoryview(row.to_bytes(wide.nbytes, "little")).cast(wide.code)
        for v, m in zip(flat[d::n_d], masses, strict=True):
            counts[v] += m
        to_att = out.to_att[d]
        for v, m in enumerate(counts):
            if m:
                dist[(v, to_att)] += m
    return dist


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
