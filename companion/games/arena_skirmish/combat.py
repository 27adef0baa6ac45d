"""Attacks, pure and exact: dice counts with their breakdown, hit locations, damage odds.

Used by the engine (``state.py``), the attack assistant and the terminal views. Nothing
here rolls: :func:`damage_distribution` gives exact :class:`~fractions.Fraction` odds and
:func:`resolve_hits` applies faces that someone rolled.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

# Weight classes: "Leicht schlägt Schwer ..., verliert aber gegen die ausgewogenere
# Mittel-Klasse, die der brutalen Schwer-Klasse unterlegen ist" (leicht < mittel < schwer
# < leicht). BEATS[a] is the class that ``a`` is favourable against.
BEATS = {"light": "heavy", "medium": "light", "heavy": "medium"}

FAVOURABLE = "favourable"
UNFAVOURABLE = "unfavourable"
NEUTRAL = "neutral"
NO_DAMAGE = "no damage"

# The reference page's affinity table, as printed ("Typ / gegen": attacker row, target column).
AFFINITY_TABLE: dict[str, dict[str, str]] = {
    "fire": {"fire": NO_DAMAGE, "water": UNFAVOURABLE, "air": NEUTRAL, "earth": FAVOURABLE},
    "water": {"fire": FAVOURABLE, "water": NO_DAMAGE, "air": UNFAVOURABLE, "earth": NEUTRAL},
    "air": {"fire": NEUTRAL, "water": FAVOURABLE, "air": NO_DAMAGE, "earth": UNFAVOURABLE},
    "earth": {"fire": UNFAVOURABLE, "water": NEUTRAL, "air": FAVOURABLE, "earth": NO_DAMAGE},
}

# Where the attacker stands, seen from the target's facing.
FRONT, SIDE, BEHIND = "front", "side", "behind"
POSITIONS = (FRONT, SIDE, BEHIND)
POSITION_BONUS = {FRONT: 0, SIDE: 1, BEHIND: 2}

HEAD, BODY, ARMS, LEGS = "head", "body", "arms", "legs"
LOCATIONS = (HEAD, BODY, ARMS, LEGS)
# "1 trifft den Kopf, 2-3 trifft den Körper, 4 trifft die Arme, 5-6 trifft die Beine"
FACE_LOCATION = {1: HEAD, 2: BODY, 3: BODY, 4: ARMS, 5: LEGS, 6: LEGS}
LOCATION_SIDES = {HEAD: 1, BODY: 2, ARMS: 1, LEGS: 2}
THRESHOLD = 3  # "bei drei oder mehr Treffern"
MAX_DICE = 60


def class_relation(attacker: str, target: str) -> str:
    """``favourable``, ``unfavourable`` or ``neutral`` (same class) for a melee attack."""
    if BEATS[attacker] == target:
        return FAVOURABLE
    if BEATS[target] == attacker:
        return UNFAVOURABLE
    return NEUTRAL


def affinity_relation(attacker: str, target: str) -> str:
    """The reference page's table: favourable, unfavourable, neutral or no damage."""
    return AFFINITY_TABLE[attacker][target]


@dataclass(frozen=True)
class DiceBreakdown:
    """How many dice an attack rolls, line by line (each line's change in dice)."""

    kind: str  # melee / affinity
    lines: tuple[tuple[str, int], ...]
    dice: int
    allowed: bool
    reason: str = ""  # why not allowed

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "lines": [list(line) for line in self.lines],
            "dice": self.dice,
            "allowed": self.allowed,
            "reason": self.reason,
        }

    def describe(self) -> str:
        parts = [
            f"{text} ({delta:+d})" if i else f"{text} ({delta})"
            for i, (text, delta) in enumerate(self.lines)
        ]
        verdict = f"= {self.dice} dice" if self.allowed else f"= no attack: {self.reason}"
        return ", ".join(parts) + " " + verdict


def _facing_lines(position: str, target_in_front: bool) -> list[tuple[str, int]]:
    lines = []
    if position == BEHIND:
        lines.append(("attacker behind the target", 2))
    elif position == SIDE:
        lines.append(("attacker at the target's side", 1))
    if not target_in_front:
        lines.append(("target not in front of the attacker", -1))
    return lines


def _finish(kind: str, lines: list[tuple[str, int]]) -> DiceBreakdown:
    dice = sum(delta for _, delta in lines)
    if dice < 1:
        return DiceBreakdown(
            kind, tuple(lines), dice, False, f"{dice} dice: fewer than 1 die means no attack"
        )
    return DiceBreakdown(kind, tuple(lines), dice, True)


def _check_position(position: str) -> None:
    if position not in POSITIONS:
        raise ValueError(f"position must be one of {', '.join(POSITIONS)}, got {position!r}")


def melee_breakdown(
    attack: int,
    attacker_class: str,
    target_class: str,
    position: str,
    target_in_front: bool,
    height: int,
) -> DiceBreakdown:
    """Melee dice: attack value as base dice; class (x2 or -1); facing; height.

    ``position``: where the attacker stands seen from the target (front/side/behind);
    ``target_in_front``: whether the target is in the cell the attacker faces;
    ``height``: the attacker's level minus the target's (only its sign counts).
    """
    _check_position(position)
    lines = [(f"attack value {attack}: base dice", attack)]
    relation = class_relation(attacker_class, target_class)
    if relation == FAVOURABLE:
        lines.append(
            (f"class {attacker_class} vs {target_class}: favourable, base dice x2", attack)
        )
    elif relation == UNFAVOURABLE:
        lines.append((f"class {attacker_class} vs {target_class}: unfavourable", -1))
    lines += _facing_lines(position, target_in_front)
    if height > 0:
        lines.append(("attacker higher than the target", 1))
    elif height < 0:
        lines.append(("attacker lower than the target", -1))
    return _finish("melee", lines)


def affinity_breakdown(
    affinity: int, attacker_element: str, target_element: str, position: str, target_in_front: bool
) -> DiceBreakdown:
    """Affinity dice: affinity value; the table (x2, -1, none); facing. No class, no height."""
    _check_position(position)
    if affinity < 1:
        return DiceBreakdown(
            "affinity",
            ((f"affinity value {affinity}", affinity),),
            affinity,
            False,
            "an affinity attack needs an affinity value of at least 1",
        )
    relation = affinity_relation(attacker_element, target_element)
    lines = [(f"affinity value {affinity}: base dice", affinity)]
    if relation == NO_DAMAGE:
        return DiceBreakdown(
            "affinity",
            tuple(lines),
            0,
            False,
            f"a {target_element} target cannot be attacked with {target_element} "
            "affinity (same element: no damage)",
        )
    if relation == FAVOURABLE:
        lines.append((f"{attacker_element} vs {target_element}: favourable, dice x2", affinity))
    elif relation == UNFAVOURABLE:
        lines.append((f"{attacker_element} vs {target_element}: unfavourable", -1))
    lines += _facing_lines(position, target_in_front)
    return _finish("affinity", lines)


# -- hits ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Stats:
    """The profile values an attack can lower."""

    life: int
    movement: int
    attack: int
    affinity: int


@dataclass(frozen=True)
class HitResult:
    """What one attack's dice did to the target."""

    before: Stats
    after: Stats
    counts: tuple[int, int, int, int]  # dice on head, body, arms, legs
    to_body: int  # dice that went to the body because their value was already 0
    removed: bool

    @property
    def life_lost(self) -> int:
        return self.before.life - self.after.life

    @property
    def movement_lost(self) -> int:
        return self.before.movement - self.after.movement

    @property
    def attack_lost(self) -> int:
        return self.before.attack - self.after.attack

    @property
    def affinity_lost(self) -> int:
        return self.before.affinity - self.after.affinity

    def describe(self) -> str:
        h, b, a, legs = self.counts
        parts = []
        for n, where in ((h, "head"), (b, "body"), (a, "arms"), (legs, "legs")):
            if n:
                parts.append(f"{n} {where}")
        text = ", ".join(parts) if parts else "no dice"
        effects = []
        if self.life_lost:
            effects.append(f"-{self.life_lost} life")
        if self.movement_lost:
            effects.append(f"-{self.movement_lost} movement")
        if self.attack_lost:
            effects.append("-1 attack")
        if self.affinity_lost:
            effects.append("-1 affinity")
        if self.to_body:
            effects.append(f"{self.to_body} to the body (value already 0)")
        if self.removed:
            effects.append("removed")
        return text + (": " + ", ".join(effects) if effects else ": no effect")


def location_counts(faces: tuple[int, ...] | list[int]) -> tuple[int, int, int, int]:
    counts = [0, 0, 0, 0]
    for face in faces:
        counts[LOCATIONS.index(FACE_LOCATION[face])] += 1
    return counts[0], counts[1], counts[2], counts[3]


def resolve_counts(stats: Stats, head: int, body: int, arms: int, legs: int) -> HitResult:
    """Apply one attack's dice by location.

    - body: -1 life per die;
    - head: three or more head dice -1 affinity (once);
    - arms: three or more arm dice -1 attack (once);
    - legs: -1 movement per die;
    - a die on a value that is already 0 hits the body instead. For head and arms the
      value before the attack counts; for legs each die in turn (movement 1 and three
      leg dice: -1 movement, then two dice to the body);
    - life 0: the gladiator is removed at once.
    """
    to_body = 0
    affinity, attack, movement = stats.affinity, stats.attack, stats.movement
    if head:
        if stats.affinity == 0:
            to_body += head
        elif head >= THRESHOLD:
            affinity -= 1
    if arms:
        if stats.attack == 0:
            to_body += arms
        elif arms >= THRESHOLD:
            attack -= 1
    if legs:
        lost = min(legs, movement)
        movement -= lost
        to_body += legs - lost
    life = max(0, stats.life - body - to_body)
    after = Stats(life, movement, attack, affinity)
    return HitResult(stats, after, (head, body, arms, legs), to_body, life == 0)


def resolve_hits(stats: Stats, faces: tuple[int, ...] | list[int]) -> HitResult:
    """Apply one attack's rolled faces (1-6, every die hits)."""
    for face in faces:
        if face not in FACE_LOCATION:
            raise ValueError(f"a d6 face is 1..6, got {face!r}")
    return resolve_counts(stats, *location_counts(faces))


@cache
def location_outcomes(dice: int) -> tuple[tuple[tuple[int, int, int, int], Fraction], ...]:
    """Every split of ``dice`` d6 over head/body/arms/legs with its exact probability."""
    if not 0 <= dice <= MAX_DICE:
        raise ValueError(f"dice must be 0..{MAX_DICE}, got {dice}")
    out = []
    total = 6**dice
    for h in range(dice + 1):
        for b in range(dice - h + 1):
            for a in range(dice - h - b + 1):
                legs = dice - h - b - a
                ways = math.factorial(dice) // (
                    math.factorial(h) * math.factorial(b) * math.factorial(a) * math.factorial(legs)
                )
                weight = ways * 2 ** (b + legs)  # body and legs have two sides each
                out.append(((h, b, a, legs), Fraction(weight, total)))
    return tuple(out)


@dataclass(frozen=True)
class DamageDistribution:
    """Exact odds of what an attack of ``dice`` dice does to a target with ``stats``."""

    dice: int
    stats: Stats
    life_lost: dict[int, Fraction]
    movement_lost: dict[int, Fraction]
    attack_lost: Fraction
    affinity_lost: Fraction
    removed: Fraction

    @property
    def expected_life_lost(self) -> Fraction:
        return sum((k * p for k, p in self.life_lost.items()), Fraction(0))

    def to_dict(self) -> dict[str, object]:
        def pct(p: Fraction) -> float:
            return round(float(p) * 100, 4)

        return {
            "dice": self.dice,
            "life_lost": {str(k): pct(p) for k, p in sorted(self.life_lost.items())},
            "movement_lost": {str(k): pct(p) for k, p in sorted(self.movement_lost.items())},
            "attack_lost": pct(self.attack_lost),
            "affinity_lost": pct(self.affinity_lost),
            "removed": pct(self.removed),
            "expected_life_lost": round(float(self.expected_life_lost), 4),
            "exact": {
                "life_lost": {str(k): str(p) for k, p in sorted(self.life_lost.items())},
                "removed": str(self.removed),
            },
        }


@cache
def damage_distribution(stats: Stats, dice: int) -> DamageDistribution:
    life: dict[int, Fraction] = {}
    movement: dict[int, Fraction] = {}
    attack = affinity = removed = Fraction(0)
    for counts, p in location_outcomes(dice):
        result = resolve_counts(stats, *counts)
        life[result.life_lost] = life.get(result.life_lost, Fraction(0)) + p
        movement[result.movement_lost] = movement.get(result.movement_lost, Fraction(0)) + p
        if result.attack_lost:
            attack += p
        if result.affinity_lost:
            affinity += p
        if result.removed:
            removed += p
    return DamageDistribution(
        dice,
        stats,
        dict(sorted(life.items())),
        dict(sorted(movement.items())),
        attack,
        affinity,
        removed,
    )


def percent(p: Fraction, digits: int = 1) -> str:
    """A probability as a percentage for people (exact value kept by the caller)."""
    value = float(p) * 100
    if p and value < 10**-digits:
        return f"<{10**-digits:g}%"
    if p != 1 and value > 100 - 10**-digits:
        return f">{100 - 10**-digits:g}%"
    return f"{value:.{digits}f}%"
