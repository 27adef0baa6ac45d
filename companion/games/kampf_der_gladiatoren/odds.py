"""Exact combat odds: the probability distribution of what each side loses in one combat.

Computed by exact enumeration over the star-die outcomes (one chance node per
roll, over face counts, exactly as the engine's), with the rules functions of
:mod:`~companion.games.kampf_der_gladiatoren.rules` that the engine plays by.
All probabilities are :class:`~fractions.Fraction`.

What a side *loses*: a team, the gladiators it gives up; an animal, the hit stars
it takes this combat, counted up to its remaining hits (so "loses all it has
left" means defeated). The inputs are the sides before the combat, with their
hit stars already on the field.

Choices inside a combat follow one fixed, documented policy (:data:`POLICY`),
which :class:`~companion.games.kampf_der_gladiatoren.bot.PolicyBot` also plays,
so a Monte-Carlo run of the engine reproduces these numbers:

- nets (team against team): the first roller's nets take, in this order, the
  opponent's nets, swords, shields, tridents, spears; the second roller's nets
  take swords, shields, tridents, nets, spears;
- giving up a gladiator: first inactive (neutralised) ones, then active ones, in
  the order spear, net, shield, trident, sword (a team keeps its swords longest);
- reroll: a side that may reroll does so exactly when a fresh roll lowers its
  expected losses in this combat, or, when those are equal (always for the second
  roller, whose losses are settled), when it raises the opponent's expected losses.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from math import factorial, lcm
from typing import Any

from companion.games.kampf_der_gladiatoren import rules as R
from companion.games.kampf_der_gladiatoren.data import Animal
from companion.games.kampf_der_gladiatoren.rules import (
    KINDS,
    NET,
    SHIELD,
    SPEAR,
    SWORD,
    TEAM_SIZE,
    TRIDENT,
)

POLICY = (
    "nets: first roller takes nets > swords > shields > tridents > spears, second roller swords "
    "> shields > tridents > nets > spears; giving up: inactive first, then spear > net > shield "
    "> trident > sword; reroll when it lowers the roller's expected losses, or (equal) raises "
    "the opponent's"
)
NET_ORDER_FIRST = (NET, SWORD, SHIELD, TRIDENT, SPEAR)
NET_ORDER_SECOND = (SWORD, SHIELD, TRIDENT, NET, SPEAR)
GIVE_ORDER = (SPEAR, NET, SHIELD, TRIDENT, SWORD)
STAR_DIE = (Fraction(1, 6), Fraction(2, 6), Fraction(3, 6))  # double, single, blank

Faces = tuple[Fraction, Fraction, Fraction]
Joint = dict[tuple[int, int], Fraction]


@dataclass(frozen=True)
class Fighter:
    """One side of a combat: a team (gladiators by kind) or an animal (symbols by kind)."""

    is_animal: bool
    active: tuple[int, ...]
    inactive: tuple[int, ...] = (0, 0, 0, 0, 0)
    stars: int = 0
    hits: int = 0  # animals: hit stars that defeat it
    name: str = field(default="", compare=False)

    @property
    def size(self) -> int:
        return sum(self.active) + sum(self.inactive)

    @property
    def dice(self) -> int:
        return R.dice_count(self.is_animal, self.active[SWORD])

    @property
    def left(self) -> int:
        """What this side can lose before it is out: gladiators, or hit stars to defeat."""
        return self.hits - self.stars if self.is_animal else self.size

    @property
    def unit(self) -> str:
        return "hit stars" if self.is_animal else "gladiators"


def team_fighter(gladiators: Iterable[str], stars: int = 0, name: str = "") -> Fighter:
    """A team from gladiator kinds (``["spear", "sword", "sword", "shield"]``)."""
    kinds = list(gladiators)
    bad = [k for k in kinds if k not in KINDS]
    if bad or not 1 <= len(kinds) <= TEAM_SIZE:
        raise ValueError(f"a team has 1..{TEAM_SIZE} gladiators of {', '.join(KINDS)}; got {kinds}")
    if stars not in (0, 1):
        raise ValueError(f"a team's field holds 0 or 1 hit star between combats, not {stars}")
    return Fighter(
        False, tuple(kinds.count(k) for k in KINDS), stars=stars, name=name or " ".join(kinds)
    )


def animal_fighter(animal: Animal, stars: int = 0) -> Fighter:
    if not 0 <= stars < animal.hits:
        raise ValueError(f"the {animal.id} can carry 0..{animal.hits - 1} hit stars, not {stars}")
    return Fighter(True, animal.symbols, stars=stars, hits=animal.hits, name=animal.id)


# --- the policy ----------------------------------------------------------------------------


def net_choice(opponent_active: tuple[int, ...] | list[int], first_roller: bool) -> int:
    """The kind a net neutralises (the opponent has at least one active gladiator)."""
    for k in NET_ORDER_FIRST if first_roller else NET_ORDER_SECOND:
        if opponent_active[k]:
            return k
    raise ValueError("the opponent has no active gladiator to neutralise")


def give_up_choice(
    active: tuple[int, ...] | list[int], inactive: tuple[int, ...] | list[int]
) -> tuple[int, bool]:
    """``(kind, inactive)`` of the gladiator a team gives up next."""
    for pool, is_inactive in ((inactive, True), (active, False)):
        for k in GIVE_ORDER:
            if pool[k]:
                return k, is_inactive
    raise ValueError("the team has no gladiator to give up")


def prefers_reroll(keep: tuple[Fraction, Fraction], fresh: tuple[Fraction, Fraction]) -> bool:
    """``(own expected losses, opponent's expected losses)`` after keeping vs rerolling."""
    return fresh[0] < keep[0] or (fresh[0] == keep[0] and fresh[1] > keep[1])


# --- enumeration ---------------------------------------------------------------------------
#
# The inner sums run on whole numbers: a roll of n dice is weighted by how many ways it comes
# up out of ``den ** n`` (``den`` the common denominator of the die's faces), and fractions
# are made once per distribution, not once per addition.


def _give_up(team: Fighter, count: int) -> Fighter:
    active, inactive = list(team.active), list(team.inactive)
    for _ in range(count):
        k, is_inactive = give_up_choice(active, inactive)
        (inactive if is_inactive else active)[k] -= 1
    return replace(team, active=tuple(active), inactive=tuple(inactive))


@lru_cache(maxsize=4096)
def strike_result(target: Fighter, roll: tuple[int, int, int]) -> tuple[int, Fighter | None]:
    """What ``target`` loses to ``roll``, and the target afterwards (None: it is out)."""
    if target.is_animal:
        added, _ = R.strike_on_animal(roll, target.active[SHIELD])
        if added >= target.left:
            return target.left, None
        return added, replace(target, stars=target.stars + added)
    losses, left, _ = R.strike_on_team(roll, target.active[SHIELD], target.stars)
    if losses >= target.size:
        return target.size, None
    return losses, _give_up(replace(target, stars=left), losses)


@lru_cache(maxsize=64)
def _roll_weights(n: int, faces: Faces) -> tuple[tuple[tuple[int, int, int], int], ...]:
    """Every roll of ``n`` star dice as face counts with its whole-number weight out of
    ``_face_weights(faces)[1] ** n`` (the multinomial, as :func:`rules.roll_outcomes`)."""
    (wd, ws, wb), _ = _face_weights(faces)
    out = []
    for d in range(n + 1):
        for s in range(n - d + 1):
            b = n - d - s
            w = factorial(n) // (factorial(d) * factorial(s) * factorial(b)) * wd**d * ws**s * wb**b
            if w:
                out.append(((d, s, b), w))
    return tuple(out)


@lru_cache(maxsize=64)
def _face_weights(faces: Faces) -> tuple[tuple[int, int, int], int]:
    """The faces' probabilities as whole numbers over their common denominator."""
    den = lcm(*(p.denominator for p in faces))
    wd, ws, wb = (int(p * den) for p in faces)
    return (wd, ws, wb), den


def _rolls(striker: Fighter, faces: Faces) -> tuple[tuple[tuple[int, int, int], int], ...]:
    return _roll_weights(striker.dice, faces) if striker.dice else (((0, 0, 0), 1),)


def _mean(dist: dict[int, Fraction]) -> Fraction:
    return sum((k * p for k, p in dist.items()), Fraction(0))


@lru_cache(maxsize=4096)
def _strike_back(target: Fighter, dice: int, reroll: bool, faces: Faces) -> dict[int, Fraction]:
    """The second roller strikes back with ``dice`` dice: the distribution of what
    ``target`` loses. Its own losses are settled, so it rerolls (if it may) exactly the
    rolls that take less than a fresh roll does on average."""
    rolls = _roll_weights(dice, faces) if dice else (((0, 0, 0), 1),)
    outs = [(strike_result(target, roll)[0], w) for roll, w in rolls]
    total = sum(w for _, w in outs)
    fresh: dict[int, int] = {}
    for loss, w in outs:
        fresh[loss] = fresh.get(loss, 0) + w
    fresh_sum = sum(loss * w for loss, w in fresh.items())  # mean = fresh_sum / total
    dist: dict[int, int] = {}
    for loss, w in outs:
        if reroll and dice and loss * total < fresh_sum:
            for loss2, w2 in fresh.items():
                dist[loss2] = dist.get(loss2, 0) + w * w2
        else:
            dist[loss] = dist.get(loss, 0) + w * total
    return {loss: Fraction(w, total * total) for loss, w in dist.items()}


def _counterstrike(first: Fighter, second: Fighter, faces: Faces) -> dict[int, Fraction]:
    """The second roller strikes back: the distribution of what ``first`` loses (only the
    second's dice and its right to reroll matter, not its hit stars)."""
    can = R.may_reroll(second.active[TRIDENT], first.active[TRIDENT])
    return _strike_back(first, second.dice, can, faces)


def dict_sum(pairs: Iterable[tuple[int, Fraction]]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for k, p in pairs:
        out[k] = out.get(k, Fraction(0)) + p
    return out


@lru_cache(maxsize=4096)
def _after_first_roll(
    first: Fighter, second: Fighter, roll: tuple[int, int, int], faces: Faces
) -> Joint:
    """The rest of the combat once the first roller's roll stands: (first, second) losses."""
    lost, after = strike_result(second, roll)
    if after is None:
        return {(0, lost): Fraction(1)}
    return {(l1, lost): p for l1, p in _counterstrike(first, after, faces).items()}


def _means(joint: Joint) -> tuple[Fraction, Fraction]:
    a = sum((k[0] * p for k, p in joint.items()), Fraction(0))
    b = sum((k[1] * p for k, p in joint.items()), Fraction(0))
    return a, b


def _mix(parts: Iterable[tuple[Joint, Fraction]]) -> Joint:
    out: Joint = {}
    for joint, w in parts:
        for k, p in joint.items():
            out[k] = out.get(k, Fraction(0)) + w * p
    return out


@lru_cache(maxsize=1024)
def _first_strike(first: Fighter, second: Fighter, faces: Faces) -> Joint:
    rolls = _rolls(first, faces)
    total = sum(w for _, w in rolls)
    parts = [
        (_after_first_roll(first, second, roll, faces), Fraction(w, total)) for roll, w in rolls
    ]
    if not (first.dice and R.may_reroll(first.active[TRIDENT], second.active[TRIDENT])):
        return _mix(parts)
    fresh = _mix(parts)
    fresh_means = _means(fresh)
    return _mix((fresh if prefers_reroll(_means(j), fresh_means) else j, p) for j, p in parts)


def _outcomes(striker: Fighter, faces: Faces) -> tuple[tuple[tuple[int, int, int], Fraction], ...]:
    return R.roll_outcomes(striker.dice, faces) if striker.dice else (((0, 0, 0), Fraction(1)),)


def should_reroll(
    striker: Fighter,
    target: Fighter,
    roll: tuple[int, int, int],
    first_strike: bool,
    faces: Faces = STAR_DIE,
) -> bool:
    """The policy's reroll decision for ``striker`` after ``roll`` (the engine's bot uses it)."""
    if first_strike:
        parts = [
            (_after_first_roll(striker, target, r, faces), p) for r, p in _outcomes(striker, faces)
        ]
        keep = _means(_after_first_roll(striker, target, roll, faces))
        return prefers_reroll(keep, _means(_mix(parts)))
    outs = [(strike_result(target, r)[0], p) for r, p in _outcomes(striker, faces)]
    fresh = _mean(dict_sum(outs))
    return prefers_reroll(
        (Fraction(0), Fraction(strike_result(target, roll)[0])), (Fraction(0), fresh)
    )


def apply_nets(first: Fighter, second: Fighter) -> tuple[Fighter, Fighter]:
    """Rule 5b with the policy: the first roller's nets, then the second's active nets."""
    if first.is_animal or second.is_animal:
        return first, second

    def throw(nets: int, target: Fighter, first_roller: bool) -> Fighter:
        active, inactive = list(target.active), list(target.inactive)
        for _ in range(nets):
            if not sum(active):
                break
            k = net_choice(active, first_roller)
            active[k] -= 1
            inactive[k] += 1
        return replace(target, active=tuple(active), inactive=tuple(inactive))

    second = throw(first.active[NET], second, True)
    first = throw(second.active[NET], first, False)
    return first, second


@dataclass(frozen=True)
class CombatOdds:
    """The exact outcome distribution of one combat, from the challenger's point of view."""

    challenger: Fighter
    defender: Fighter
    first: int  # 0: the challenger rolls first, 1: the defender
    joint: dict[tuple[int, int], Fraction]  # (challenger loses, defender loses) -> probability

    def marginal(self, side: int) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for key, p in self.joint.items():
            out[key[side]] = out.get(key[side], Fraction(0)) + p
        return dict(sorted(out.items()))

    @property
    def challenger_losses(self) -> dict[int, Fraction]:
        return self.marginal(0)

    @property
    def defender_losses(self) -> dict[int, Fraction]:
        return self.marginal(1)

    def expected(self, side: int) -> Fraction:
        return sum((k * p for k, p in self.marginal(side).items()), Fraction(0))

    def out(self, side: int) -> Fraction:
        """Probability that this side is out after the combat (wiped, or the animal defeated)."""
        fighter = self.challenger if side == 0 else self.defender
        return self.marginal(side).get(fighter.left, Fraction(0))


def combat_odds(challenger: Fighter, defender: Fighter, faces: Faces = STAR_DIE) -> CombatOdds:
    """The exact distribution of losses in a combat ``challenger`` against ``defender``."""
    first = R.first_roller(challenger.active[SPEAR], defender.active[SPEAR])
    f, s = (challenger, defender) if first == 0 else (defender, challenger)
    f, s = apply_nets(f, s)
    joint = _first_strike(f, s, tuple(faces))
    if first == 1:
        joint = {(b, a): p for (a, b), p in joint.items()}
    return CombatOdds(challenger, defender, first, dict(sorted(joint.items())))


def clear_caches() -> None:
    """Forget every memoised result (benchmarks measure a cold computation)."""
    for fn in (
        strike_result,
        _strike_back,
        _after_first_roll,
        _first_strike,
        _roll_weights,
        _face_weights,
    ):
        fn.cache_clear()
    R.roll_outcomes.cache_clear()


def piece_fighter(state: Any, piece: tuple[str, int]) -> Fighter:
    """A team or animal of a running game as it stands (compositions and hit stars)."""
    kind, ref = piece
    if kind == "team":
        team = state.teams[ref]
        return Fighter(False, tuple(team.active), tuple(team.inactive), team.stars)
    animal = state.animals[ref]
    return Fighter(
        True, animal.symbols, stars=state.animal_stars[ref], hits=animal.hits, name=animal.id
    )


def fighter_from_state(state: Any, side: int) -> Fighter:
    """The combat side ``side`` of a running game (its present compositions and stars)."""
    return piece_fighter(state, state.combat.pieces[side])


def odds_for_challenge(
    state: Any, attacker: tuple[str, int], target: tuple[str, int]
) -> CombatOdds:
    """Odds of a combat between two pieces of a game (before the challenge is applied)."""
    return combat_odds(
        piece_fighter(state, attacker), piece_fighter(state, target), state.config.die_faces()
    )
