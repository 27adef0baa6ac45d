"""The exact distribution of one attack, every pair of rolls worked out at once (numpy).

:mod:`.odds` says what the odds are (rules C4-C10 and the reroll choices of ruling C7b);
this module computes them. Everything is a whole number until :mod:`.odds` divides by
the number of equally likely ways: ordered rolls of both sides, times 6 for each die
that may be rerolled.

Tables (``N`` rolls of a side, ``P`` rolls of one die fewer, its *parts*):

- a side's rolls: every sorted roll (:func:`side`), with the number of ordered rolls
  giving it; a *part* is what is kept when one die is rerolled, ``plus[part, x - 1]`` the
  roll it becomes with a new die ``x``;
- the outcome of every pair of final rolls: wounds to the defender (``N_att x N_def``) and
  the counter wounds (per defence roll);
- a *state* of a side after its reroll choice: a kept roll, or a part waiting for its new
  die. ``value[attack state, defence state]`` is 36 x the attacker's expected wound
  difference (wounds dealt minus wounds taken) over the dice still to roll.

The choices (ruling C7b): for every attack state and defence roll the defender's best
answer is the minimum over its options (keep first, then its rerolls from the lowest face:
a later option must be strictly better); for every pair of rolls the attacker's choice is
the maximum of those answers over its options (same order). Each pair's weight then flows
to the states chosen, from the states to the final rolls (a part to its six rolls), and is
counted by outcome.

Options that can never be strictly better are left out first (:func:`options`): with the
same new die, rerolling a lower face leaves a higher roll, which never compares worse, so a
higher face is dropped when a lower one gives pair and triple abilities at least as good
for every new die; a 6 is dropped when keeping does.

Where the time goes (issue 18, 8 against 8 dice with abilities, extra wound and both
rerolls; stage timers, about 60 ms of CPU a warm run here): the choices 32%; the index of
the chosen state pair of each of the 1,656,369 pairs of rolls and adding their weights
into the 2,080 x 2,080 grid of state pairs (float64: the totals reach 6^16 x 36) 26%; the
flows from the states to the final rolls and the count by outcome 30%; the outcome table
4%, the rest (rolls, options) 8%. The weights are added a block of attack rolls at a
time with ``np.add.at`` (numpy 1.25's fast path) into one grid; before, one ``bincount``
over every pair needed four tables as large as the pairs (13 MB each): a fresh process
peaked at 101 MB resident instead of 73, and their fresh pages made the first runs
slower. Fresh pages cost about 2 us each here, so the temporaries are few and reused:
the choices share one scratch table, and the flows go a block of final attack rolls at a
time through buffers allocated once, turning each block between the two flows so that
both gather whole rows, and only over the faces a roll shows (:func:`side` puts the rolls
showing more faces first). Why not less: a choice needs the pair of rolls (the same attack
roll rerolls against one defence roll and keeps against another, ruling C7b; the
defender's answer needs only the attack state and the defence roll, and is worked out per
those), and counting needs the weight of every pair of chosen states, since the outcome of
a state pair depends on both: at 8 against 8, 74% of the pairs (90% of the weight) reroll
on both sides, 15% only the defence, 9% only the attack, 2% neither, so splitting the
pairs by who rerolls saves little. Tried and measured in ``bench/spartacus.py``'s
``before_after``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import chain, combinations_with_replacement
from math import comb, factorial

#: Set before numpy loads. The odds need no BLAS (whole-number arrays, no matrix
#: products), but OpenBLAS (behind numpy's wheels and Debian's python3-numpy) starts a
#: thread for every further core as it loads, and each spins for about 0.1 s of CPU here
#: waiting for work that never comes: three threads on a Pi Zero 2 W, right when the first
#: odds are asked for (``odds_import_cpu_ms`` in ``bench/spartacus.py``). With one thread
#: it starts none. A value the user set is kept; a process that loaded numpy before this
#: module (a test with SciPy) keeps its threads.
ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")
for _name in ONE_THREAD:
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402

from companion.games.spartacus.combat import Modifiers, ability_total  # noqa: E402
from companion.games.spartacus.data import Ability  # noqa: E402

PAD = 2  # an unmatched attack die wounds on 3+: as if against a defence die showing 2
FACE_RANGE = np.arange(1, 7, dtype=np.int8)


@dataclass(frozen=True, eq=False)
class Side:
    """Every sorted roll of ``n`` dice (highest first) and its parts."""

    n: int
    faces: np.ndarray  # (N, n) int8
    counts: np.ndarray  # (N, 6): how often each face 1..6 shows
    weights: np.ndarray  # (N,) int64: the ordered rolls that give it
    plus: np.ndarray  # (P, 6): the roll a part becomes with a new die 1..6
    minus: np.ndarray  # (N, 6): the part left when a die showing 1..6 is rerolled, -1 if none
    # (N, 6): the parts left by rerolling each face the roll shows, lowest face first, then
    # -1; the rolls are ordered by how many faces they show (most first), so ``shown[s]``
    # rolls have an s-th face: a prefix
    by_face: np.ndarray
    shown: tuple[int, ...]


def _keys(counts: np.ndarray, base: int) -> np.ndarray:
    return counts.astype(np.int64) @ (base ** np.arange(6, dtype=np.int64))


def _sorted_rolls(n: int) -> np.ndarray:
    rolls = comb(n + 5, 5)
    dice = chain.from_iterable(combinations_with_replacement(range(6, 0, -1), n))
    return np.fromiter(dice, dtype=np.int8, count=rolls * n).reshape(rolls, n)


@cache
def side(n: int) -> Side:
    """The rolls of ``n`` dice, those showing the most different faces first (then
    lexicographic, highest faces first, as :func:`companion.games.spartacus.odds.multisets`)."""
    faces = _sorted_rolls(n)
    counts = (faces[:, :, None] == FACE_RANGE).sum(axis=1)
    distinct = (counts > 0).sum(axis=1)
    by_distinct = np.argsort(-distinct, kind="stable")
    faces, counts, distinct = faces[by_distinct], counts[by_distinct], distinct[by_distinct]
    fact = np.array([factorial(i) for i in range(n + 1)], dtype=np.int64)
    weights = factorial(n) // fact[counts].prod(axis=1)
    if n == 0:
        none = np.full((1, 6), -1)
        return Side(0, faces, counts, weights, np.zeros((0, 6), np.intp), none, none, ())
    part_faces = _sorted_rolls(n - 1)
    part_counts = (part_faces[:, :, None] == FACE_RANGE).sum(axis=1)
    unit = np.eye(6, dtype=np.int64)
    keys = _keys(counts, n + 1)
    order = np.argsort(keys)
    plus_keys = _keys(part_counts[:, None, :] + unit, n + 1)  # (P, 6, 6) -> (P, 6)
    plus = order[np.searchsorted(keys, plus_keys, sorter=order)]
    part_keys = _keys(part_counts, n + 1)
    part_order = np.argsort(part_keys)
    less = _keys(counts[:, None, :] - unit, n + 1)  # (N, 6): a key, or junk where absent
    found = np.searchsorted(part_keys, less, sorter=part_order).clip(0, len(part_keys) - 1)
    minus = np.where(counts > 0, part_order[found], -1)
    order = np.argsort(counts == 0, axis=1, kind="stable")  # the faces shown, lowest first
    by_face = np.take_along_axis(minus, order, axis=1)
    shown = tuple(int((distinct > k).sum()) for k in range(int(distinct.max())))
    return Side(n, faces, counts, weights, plus, minus, by_face, shown)


def ability_values(s: Side, abilities: Sequence[Ability], effect: str) -> np.ndarray:
    """What ``abilities`` give on each roll for ``effect`` (rule C9). A roll's triggers
    depend only on how often each face shows (for an ability of one face, which face):
    rolls with the same counts are worked out once."""
    faces, counts = s.faces, s.counts
    if not any(a.effect == effect for a in abilities):
        return np.zeros(len(faces), dtype=np.int16)
    only = sorted({a.face - 1 for a in abilities if a.face is not None})
    rest = [f for f in range(6) if f not in only]
    signature = np.concatenate([np.sort(counts[:, rest], axis=1), counts[:, only]], axis=1)
    keys = _keys(signature, faces.shape[1] + 1)
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    values = [ability_total(tuple(faces[i].tolist()), abilities, effect) for i in first]
    return np.array(values, dtype=np.int16)[inverse.reshape(-1)]


def options(s: Side, values: Sequence[np.ndarray]) -> np.ndarray:
    """Per roll, the parts worth rerolling to, lowest face first: ``(N, k)``, -1 padded.

    ``values``: per effect, what each roll's pair and triple abilities give (the more the
    better for their owner)."""
    values = [v for v in values if v.any()]
    present = s.minus >= 0
    if not values:  # no abilities: the lowest die, unless every die shows 6
        low = s.faces[:, -1].astype(np.intp) - 1
        part = s.minus[np.arange(len(low)), low]
        return np.where(low < 5, part, -1)[:, None]
    table = np.stack(values, axis=1)  # (N, e)
    after = table[s.plus].reshape(len(s.plus), -1)  # (P, 6e): per new die, per effect
    after = np.concatenate([after, np.full((1, after.shape[1]), np.iinfo(np.int16).min)])
    mine = after[s.minus.T]  # (6, N, 6e): rerolling face f; -1 picks the sentinel row
    kept = np.repeat(table, 6, axis=0).reshape(len(table), -1)  # keeping, same layout
    # dominated[low, f]: rerolling the lower face low is at least as good for every die
    dominated = (mine[:, None] >= mine[None, :]).all(axis=3) & present.T[:, None]
    dominated &= np.tri(6, k=-1, dtype=bool).T[:, :, None]
    keep = present & ~dominated.any(axis=0).T
    keep[:, 5] &= ~(kept >= mine[5]).all(axis=1)
    order = np.argsort(~keep, axis=1, kind="stable")
    parts = np.take_along_axis(np.where(keep, s.minus, -1), order, axis=1)
    width = int(keep.sum(axis=1).max(initial=0))
    return parts[:, :width]


def counts(
    n_att: int, n_def: int, mods: Modifiers, att_reroll: bool, def_reroll: bool
) -> tuple[dict[tuple[int, int], int], int]:
    """``{(wounds to the defender, to the attacker): ways}`` and the number of ways."""
    den = 6**n_att * 6**n_def * 36
    if den >= 1 << 53:  # float64 sums of whole numbers stay exact below this
        raise ValueError(f"{n_att} against {n_def} dice: too many dice for exact odds")
    att, dfn = side(n_att), side(n_def)
    bonus, counter, ignore = _abilities(att, dfn, mods)
    wounds, to_att = _table(att, dfn, mods, bonus, counter, ignore)
    if not (att_reroll or def_reroll):  # every pair of rolls is final: count it 36 times
        weight = np.multiply.outer(att.weights * 36, dfn.weights.astype(np.float64))
        return _by_outcome(wounds, to_att, weight), den
    a_opt = options(att, [bonus]) if att_reroll else _no_options(att)
    d_opt = options(dfn, [counter, ignore]) if def_reroll else _no_options(dfn)
    best, a_order, d_order = _choices(att, dfn, a_opt, d_opt, wounds, to_att)
    small = den < 1 << 32  # every sum fits 32 bits: half the memory to move
    return _count(att, dfn, a_opt, d_opt, best, a_order, d_order, wounds, to_att, small), den


def _no_options(s: Side) -> np.ndarray:
    return np.zeros((len(s.faces), 0), dtype=np.intp)


def outcome_table(att: Side, dfn: Side, mods: Modifiers) -> tuple[np.ndarray, np.ndarray]:
    """Wounds to the defender for every pair of final rolls ``(N_att, N_def)`` and the
    attacker's counter wounds per defence roll (rules C4-C10, ruling C10a's order)."""
    return _table(att, dfn, mods, *_abilities(att, dfn, mods))


def _abilities(att: Side, dfn: Side, mods: Modifiers) -> tuple[np.ndarray, ...]:
    """The attacker's ability wounds per attack roll; the counter wounds and the ignored
    wounds of the defender's abilities per defence roll."""
    return (
        ability_values(att, mods.attack_abilities, "extra_wound"),
        ability_values(dfn, mods.defence_abilities, "wound_attacker"),
        ability_values(dfn, mods.defence_abilities, "ignore_wound"),
    )


def _table(
    att: Side,
    dfn: Side,
    mods: Modifiers,
    bonus: np.ndarray,
    counter: np.ndarray,
    ignore: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    # in bytes (at most n_att hits), one die position at a time (the first writes the table)
    hits = np.empty((len(att.faces), len(dfn.faces)), dtype=np.int8)
    beats = np.empty(hits.shape, dtype=bool)
    a_cols, d_cols = np.ascontiguousarray(att.faces.T), np.ascontiguousarray(dfn.faces.T)
    for pos in range(att.n):
        d = d_cols[pos] if pos < dfn.n else np.full(len(dfn.faces), PAD, np.int8)
        np.greater.outer(a_cols[pos], d, out=beats if pos else hits.view(bool))
        if pos:
            hits += beats.view(np.int8)
    # the wounds stay bytes too (half the memory to move) unless cards add very many
    gain, loss = bonus + mods.extra_wound, ignore + mods.ignore_defender
    # the adds wrap around in bytes, so only the final sums need to fit one
    top, low = att.n + int(gain.max()) - int(loss.min()), int(gain.min()) - int(loss.max())
    wounds = hits if top < 128 and low >= -128 else hits.astype(np.int16)
    wounds += gain.astype(wounds.dtype)[:, None]
    wounds -= loss.astype(wounds.dtype)[None, :]
    np.maximum(wounds, 0, out=wounds)
    to_att = np.maximum(counter - mods.ignore_attacker, 0).astype(np.int16)
    return wounds, to_att


def _choices(
    att: Side,
    dfn: Side,
    a_opt: np.ndarray,
    d_opt: np.ndarray,
    wounds: np.ndarray,
    to_att: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ruling C7b for every pair of rolls: ``(N_att, N_def)`` codes ``(7 - j) << 3 | k``
    in the low 6 bits (the attacker's option j, the defender's answer k; 0 keeps), above
    them the value of the choice; rows and columns in the order of the two rolls' orders
    returned with it (most options first, so the k-th options are a prefix)."""
    na, nd = len(att.faces), len(dfn.faces)
    bias = int(to_att.max())
    # the value of a pair of final rolls (>= 0), its columns already in the defender's
    # order (most options first): gathering the columns here, over the attack rolls, is
    # cheaper than over every attack state below
    d_order, d_many = _most_options_first(d_opt)
    u = np.add(np.take(wounds, d_order, axis=1), bias - to_att[d_order], dtype=np.int16)
    if 36 * int(u.max()) * 64 + 63 >= 1 << 16:
        raise ValueError("too many wounds for the tables of exact odds")
    u = u.view(np.uint16)
    # attack states (kept rolls, then parts) x defence rolls: 6 x value over the attack die
    pa = len(att.plus) if a_opt.shape[1] else 0
    pd = len(dfn.plus) if d_opt.shape[1] else 0
    key = np.empty((na + pa, nd), dtype=np.uint16)
    # one scratch table for every gather and candidate below: a table allocated and freed
    # again is fresh pages again (glibc gives the memory back), about 2 us a page here
    buf = np.empty(max(key.size, (na + max(na, pa)) * pd), dtype=np.uint16)
    np.multiply(u, 6, out=key[:na])
    if pa:
        _sum_over_new_die(u, att.plus, 0, key[na:], _scratch(buf, pa, nd))
    # the defender's best answer to each attack state: 64 x value + k (0 keeps, k its k-th
    # option); the minimum, so a later option must be strictly better
    key *= 6 * 64
    if pd:
        # attack states x defence parts: the parts' columns from the final rolls' (the
        # columns are gathered for the attack rolls only; the attack parts' rows follow)
        d_rank = np.empty(nd, dtype=np.intp)
        d_rank[d_order] = np.arange(nd)
        per_roll = _scratch(buf, na, pd)
        _sum_over_new_die(u, d_rank[dfn.plus], 1, per_roll, _scratch(buf, na, pd, per_roll.size))
        reroll = np.empty((len(key), pd), dtype=np.uint16)
        np.multiply(per_roll, 6, out=reroll[:na])
        if pa:
            tmp = _scratch(buf, pa, pd, per_roll.size)
            _sum_over_new_die(per_roll, att.plus, 0, reroll[na:], tmp)
        reroll <<= 6
        for k, cols in enumerate(d_many):
            cand = _scratch(buf, len(key), cols)
            np.take(reroll, d_opt[d_order[:cols], k], axis=1, out=cand, mode="clip")
            cand += k + 1
            np.minimum(key[:, :cols], cand, out=key[:, :cols])
        del reroll
    # the attacker's choice: value << 6 | (7 - j) << 3 | the defender's answer to it; the
    # maximum, so a later option must be strictly better (in the values' table: done with)
    a_order, a_many = _most_options_first(a_opt)
    best = np.take(key, a_order, axis=0, out=u)
    best |= 7 << 3
    for j, rows in enumerate(a_many):
        cand = _scratch(buf, rows, nd)
        np.take(key, na + a_opt[a_order[:rows], j], axis=0, out=cand, mode="clip")
        cand |= (6 - j) << 3
        np.maximum(best[:rows], cand, out=best[:rows])
    return best, a_order, d_order


def _scratch(buf: np.ndarray, rows: int, cols: int, at: int = 0) -> np.ndarray:
    """A ``rows x cols`` table in ``buf`` from entry ``at``."""
    return buf[at : at + rows * cols].reshape(rows, cols)


def _most_options_first(opt: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """The rolls ordered by how many options they have, most first, and per option slot
    how many rolls have it."""
    many = (opt >= 0).sum(axis=1)
    order = np.argsort(-many, kind="stable")
    return order, [int((many > k).sum()) for k in range(opt.shape[1])]


def _sum_over_new_die(
    table: np.ndarray, plus: np.ndarray, axis: int, out: np.ndarray, tmp: np.ndarray
) -> None:
    """A part's entries over its new die along ``axis`` in ``out`` (``tmp``, as large,
    takes the gathers): for rows, ``out[p] = sum(table[plus[p, x]] for x in 0..5)``."""
    np.take(table, plus[:, 0], axis=axis, out=out, mode="clip")
    for x in range(1, 6):
        np.take(table, plus[:, x], axis=axis, out=tmp, mode="clip")
        out += tmp


BLOCK_BYTES = 1 << 19  # a block of rolls is counted and flows in the cache (half a MiB)


def _count(
    att: Side,
    dfn: Side,
    a_opt: np.ndarray,
    d_opt: np.ndarray,
    best: np.ndarray,
    a_order: np.ndarray,
    d_order: np.ndarray,
    wounds: np.ndarray,
    to_att: np.ndarray,
    small: bool,
) -> dict[tuple[int, int], int]:
    """Each pair's weight goes to the two states chosen, flows from the states to the
    final rolls (a kept roll 6 times, a part once to each of its six rolls) and is counted
    by outcome. The weights are added into the grid of state pairs a block of attack rolls
    at a time (``np.add.at``, numpy's fast path since 1.25), through buffers allocated
    once: no table as large as the pairs (13 MB each at 8 dice) is made. The weights of a
    block are a table of their own, flat like the index: numpy 2.4's ``np.add.at`` reads
    past a row of weights broadcast over a 2-D index (wrong sums), and a 2-D index alone
    leaves the fast path (4x slower)."""
    na, nd = best.shape
    sa = na + (len(att.plus) if a_opt.shape[1] else 0)
    sd = nd + (len(dfn.plus) if d_opt.shape[1] else 0)
    # the state chosen, looked up by roll and code (the low 6 bits of ``best``): the
    # attack state's row offset in the grid, and the defence state
    lookup = np.arange(64)[None, :]
    a_state = (_states(na, a_opt)[a_order[:, None], 7 - (lookup >> 3)] * (sd + 1)).ravel()
    d_state = _states(nd, d_opt)[d_order[:, None], lookup & 7].ravel()
    a_weight = att.weights[a_order].astype(np.float64)
    d_weight = dfn.weights[d_order].astype(np.float64)
    # where to look the states up: 32 bits are enough and half the memory to move (the
    # state indices themselves are 64 bits, as np.add.at wants them)
    d_at = np.arange(nd, dtype=np.int32) * 64
    mass = np.zeros((sa + 1) * (sd + 1))  # a row and a column of zeros at the end
    # a block's tables: the weights, the indices and their other half (8 bytes an entry),
    # the codes and look-up positions (4): sized as five 8-byte tables, as measured
    block = min(na, max(1, BLOCK_BYTES // (nd * 40)))
    code, at = (np.empty((block, nd), dtype=np.int32) for _ in range(2))
    index, other = (np.empty((block, nd), dtype=np.intp) for _ in range(2))
    weight = np.empty((block, nd))
    for lo in range(0, na, block):
        hi = min(na, lo + block)
        r = hi - lo
        np.bitwise_and(best[lo:hi], 63, out=code[:r])  # (7 - j) << 3 | k
        np.add(code[:r], np.arange(lo * 64, hi * 64, 64, dtype=np.int32)[:, None], out=at[:r])
        np.take(a_state, at[:r], out=index[:r])
        np.add(code[:r], d_at, out=at[:r])
        np.take(d_state, at[:r], out=other[:r])
        index[:r] += other[:r]
        np.multiply.outer(a_weight[lo:hi], d_weight, out=weight[:r])
        np.add.at(mass, index[:r].ravel(), weight[:r].ravel())
    mass = mass.reshape(sa + 1, sd + 1)
    if small:
        mass = mass.astype(np.uint32)
    return _flow_and_count(mass, att, dfn, wounds, to_att)


def _by_outcome(
    wounds: np.ndarray, to_att: np.ndarray, weight: np.ndarray
) -> dict[tuple[int, int], int]:
    """``{(wounds, counter wounds): total weight}`` over a table of final pairs (``to_att``
    broadcast along it)."""
    width = int(to_att.max()) + 1
    keys = wounds.astype(np.intp) * width
    keys += to_att
    totals = np.bincount(keys.ravel(), weights=weight.ravel())
    return _totals(totals, width)


def _totals(totals: np.ndarray, width: int) -> dict[tuple[int, int], int]:
    return {divmod(int(key), width): int(totals[key]) for key in np.flatnonzero(totals)}


def _flow_and_count(
    mass: np.ndarray, att: Side, dfn: Side, wounds: np.ndarray, to_att: np.ndarray
) -> dict[tuple[int, int], int]:
    """The mass of the state pairs flows to the final rolls, a block of final attack rolls
    at a time (the blocks' tables stay in the cache and their memory is reused: at 8 dice
    fresh pages cost more than the arithmetic), and is counted by outcome. A block is
    turned (defence states along the rows) between the two flows, so that both gather whole
    rows: gathering columns copies one entry at a time, and costs more than the turn."""
    na, nd = len(att.faces), len(dfn.faces)
    width = int(to_att.max()) + 1
    size = (int(wounds.max()) + 1) * width
    states = mass.shape[1]
    block = min(na, max(1, BLOCK_BYTES // (states * mass.itemsize)))
    rows_buf = np.empty((block, states), dtype=mass.dtype)
    flowed = np.empty_like(rows_buf)
    turned, gathered, final = (np.empty(n * block, dtype=mass.dtype) for n in (states, nd, nd))
    keys = np.empty(nd * block, dtype=np.intp)
    totals = np.zeros(size)
    for lo in range(0, na, block):
        hi = min(na, lo + block)
        r = hi - lo
        _flow(mass, att, flowed[:r], rows_buf, lo, hi)  # final attack rolls x states
        by_state = turned[: states * r].reshape(states, r)
        np.copyto(by_state, flowed[:r].T)
        # final defence rolls x the block's final attack rolls
        _flow(by_state, dfn, final[: nd * r].reshape(nd, r), gathered[: nd * r].reshape(nd, r))
        outcome = keys[: nd * r].reshape(nd, r)  # the key of every final pair, turned too
        np.multiply(wounds[lo:hi].T, width, out=outcome)
        outcome += to_att[:, None]
        totals += np.bincount(keys[: nd * r], weights=final[: nd * r], minlength=size)
    return _totals(totals, width)


def _states(n: int, opt: np.ndarray) -> np.ndarray:
    """``(n, 8)``: the state of option 0 (the kept roll itself) and of option j (its part
    ``n + opt[r, j - 1]``) of every roll; entries past a roll's options are never read."""
    table = np.zeros((n, 8), dtype=np.intp)
    table[:, 0] = np.arange(n)
    table[:, 1 : 1 + opt.shape[1]] = n + opt
    return table


def _flow(
    mass: np.ndarray, s: Side, out: np.ndarray, buf: np.ndarray, lo: int = 0, hi: int | None = None
) -> None:
    """States along the rows (the rolls, then the parts, then zeros) to the final rolls
    ``lo..hi`` in ``out``: a kept roll's mass 6 times, plus the mass of every part the roll
    comes from (the roll less one of the faces it shows, that face being the new die). The
    rolls showing an s-th face are a prefix (:func:`side`): no work for the faces a roll
    does not show. ``buf`` (as large as ``out``) takes the gathered rows."""
    n = len(s.faces)
    hi = n if hi is None else hi
    np.multiply(mass[lo:hi], 6, out=out)
    if len(mass) <= n + 1:  # no parts: every roll is kept
        return
    for k, rows in enumerate(s.shown):
        top = min(hi, rows)
        if top <= lo:
            break
        add = buf[: top - lo]
        np.take(mass, n + s.by_face[lo:top, k], axis=0, out=add, mode="clip")
        out[: top - lo] += add


def clear_caches() -> None:
    """Forget the tables of rolls (benchmarks measure a cold computation)."""
    side.cache_clear()
