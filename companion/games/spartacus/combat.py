"""Arena combat arithmetic: comparing dice, pairs and triples, wounds, the rule of one.

Pure functions over plain values; the fight state machine
(:mod:`companion.games.spartacus.fight`) and the odds
(:mod:`companion.games.spartacus.odds`) both use them, so the table and the
percentages can never disagree.

Rule numbers refer to ``docs/rules/spartacus.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from companion.games.spartacus.data import Ability

ATTRS = ("attack", "defence", "speed")
ATTR_ALIASES = {
    "attack": "attack",
    "a": "attack",
    "ang": "attack",
    "red": "attack",
    "rot": "attack",
    "defence": "defence",
    "defense": "defence",
    "d": "defence",
    "ver": "defence",
    "black": "defence",
    "schwarz": "defence",
    "speed": "speed",
    "s": "speed",
    "sch": "speed",
    "blue": "speed",
    "blau": "speed",
}
DIE_OF = {"attack": "red", "defence": "black", "speed": "blue"}
LEVELS = ("yield", "injury", "decapitation")  # one, two, three attributes at 0
UNDEFENDED_MIN = 3  # rule C5: an unmatched attack die wounds on 3+

Faces = tuple[int, ...]


def sort_faces(faces: Iterable[int]) -> Faces:
    """Dice lined up from the highest to the lowest (rule C4)."""
    return tuple(sorted(faces, reverse=True))


def faces_text(faces: Sequence[int]) -> str:
    return "-".join(str(f) for f in faces) if faces else "-"


def parse_faces(text: str) -> Faces:
    """``6-4-3`` or ``6,4,3`` or ``643`` -> (6, 4, 3) sorted high to low."""
    raw = text.replace(",", "-").strip()
    parts = raw.split("-") if "-" in raw else list(raw)
    try:
        faces = [int(p) for p in parts if p]
    except ValueError:
        raise ValueError(f"dice faces must be numbers 1..6 like 6-4-3, got {text!r}") from None
    if not faces or any(not 1 <= f <= 6 for f in faces):
        raise ValueError(f"dice faces must be numbers 1..6 like 6-4-3, got {text!r}")
    return sort_faces(faces)


@dataclass(frozen=True)
class Comparison:
    """Rule C4/C5: the pairwise comparison of an attack roll with a defence roll."""

    attack: Faces
    defence: Faces
    pairs: tuple[tuple[int, int, bool], ...]  # (attack die, defence die, wound)
    unmatched: tuple[tuple[int, bool], ...]  # attack dice without a defence die
    ignored: Faces  # the defender's surplus (lowest) dice

    @property
    def wounds(self) -> int:
        return sum(w for *_, w in self.pairs) + sum(w for _, w in self.unmatched)


def compare(attack: Sequence[int], defence: Sequence[int]) -> Comparison:
    """Highest with highest: a higher attack die wounds, a tie goes to the defender;
    unmatched attack dice wound on 3+; surplus defence dice (the lowest) are ignored."""
    a, d = sort_faces(attack), sort_faces(defence)
    n = min(len(a), len(d))
    pairs = tuple((a[i], d[i], a[i] > d[i]) for i in range(n))
    unmatched = tuple((x, x >= UNDEFENDED_MIN) for x in a[n:])
    return Comparison(a, d, pairs, unmatched, d[n:])


def pattern_triggers(faces: Sequence[int], abilities: Sequence[Ability]) -> dict[str, int]:
    """How often each ability triggers on one roll (rule C9).

    Each die counts in one pair or one triple only: a face shown ``c`` times
    gives ``c // 2`` pairs to pair abilities or ``c // 3`` triples to triple
    abilities. When a fighter has both kinds for the same roll, each face's
    dice are split to trigger as often as possible, triples first on a tie
    (ruling C9a).
    """
    out = {a.id: 0 for a in abilities}
    if not abilities:
        return out
    for face, count in Counter(faces).items():
        pair_abs = [a for a in abilities if a.pattern == "pair" and a.matches(face)]
        triple_abs = [a for a in abilities if a.pattern == "triple" and a.matches(face)]
        best = (0, 0)
        for triples in range(count // 3 + 1 if triple_abs else 1):
            pairs = (count - 3 * triples) // 2 if pair_abs else 0
            if (triples + pairs, triples) > (best[0] + best[1], best[0]):
                best = (triples, pairs)
        for a in triple_abs:
            out[a.id] += best[0]
        for a in pair_abs:
            out[a.id] += best[1]
    return out


def ability_total(faces: Sequence[int], abilities: Sequence[Ability], effect: str) -> int:
    """Sum of ``amount`` x triggers of the abilities with ``effect`` on this roll."""
    if not abilities:
        return 0
    triggers = pattern_triggers(faces, abilities)
    return sum(a.amount * triggers[a.id] for a in abilities if a.effect == effect)


@dataclass(frozen=True)
class Modifiers:
    """Everything besides the dice that changes one attack's wounds.

    ``attack_abilities``: the attacker's abilities that read the attack roll;
    ``defence_abilities``: the defender's that read the defence roll;
    ``extra_wound``: wounds the attacker's equipment adds to every attack (ruling C10a);
    ``ignore_defender`` / ``ignore_attacker``: wounds each side's equipment ignores.
    """

    attack_abilities: tuple[Ability, ...] = ()
    defence_abilities: tuple[Ability, ...] = ()
    extra_wound: int = 0
    ignore_defender: int = 0
    ignore_attacker: int = 0


@dataclass(frozen=True)
class AttackOutcome:
    """The wounds of one attack, and why (for the screen and the tests)."""

    comparison: Comparison
    ability_wounds: int  # attacker's pair/triple bonus
    extra_wound: int  # equipment's extra wound (on every attack: ruling C10a)
    ignored: int  # wounds the defender ignored (equipment and abilities)
    to_defender: int
    counter: int  # wounds the defender's abilities deal to the attacker
    counter_ignored: int
    to_attacker: int
    triggers: dict[str, int] = field(default_factory=dict)


def attack_outcome(attack: Sequence[int], defence: Sequence[int], mods: Modifiers) -> AttackOutcome:
    """Rules C4-C10: the wounds one attack deals to each side.

    Order (ruling C10a): dice comparison + the attacker's ability wounds; then
    the equipment's extra wound, whatever the dice did ("Nachdem gewürfelt wurde,
    aber bevor Eigenschaften durch Verletzungen gesenkt werden, wird eine
    zusätzliche Wunde verursacht"); then the defender ignores wounds (equipment,
    then abilities), never below zero. The defender's counter wounds hit the
    attacker, less the attacker's ignored wounds, whatever the attack did to the
    defender (ruling C10b).
    """
    cmp = compare(attack, defence)
    att_trig = pattern_triggers(cmp.attack, mods.attack_abilities)
    def_trig = pattern_triggers(cmp.defence, mods.defence_abilities)
    bonus = sum(
        a.amount * att_trig[a.id] for a in mods.attack_abilities if a.effect == "extra_wound"
    )
    total = cmp.wounds + bonus
    extra = mods.extra_wound
    total += extra
    ignore_ab = sum(
        a.amount * def_trig[a.id] for a in mods.defence_abilities if a.effect == "ignore_wound"
    )
    ignored = min(total, mods.ignore_defender + ignore_ab)
    counter = sum(
        a.amount * def_trig[a.id] for a in mods.defence_abilities if a.effect == "wound_attacker"
    )
    counter_ignored = min(counter, mods.ignore_attacker)
    return AttackOutcome(
        cmp,
        bonus,
        extra,
        ignored,
        total - ignored,
        counter,
        counter_ignored,
        counter - counter_ignored,
        {**att_trig, **def_trig},
    )


# --- wounds and defeat (rules C11-C13) -----------------------------------------------------


def wound_choices(dice: Sequence[int]) -> list[int]:
    """Attribute indices a wound may take a die from, under the rule of one (rule C12).

    An attribute above 1 may always lose a die; an attribute at 1 may drop to 0
    only when no other attribute is above 1; an attribute at 0 has no die to lose.
    """
    out = []
    for i, n in enumerate(dice):
        if n > 1 or (n == 1 and all(m <= 1 for j, m in enumerate(dice) if j != i)):
            out.append(i)
    return out


def zeros(dice: Sequence[int]) -> int:
    return sum(1 for n in dice if n == 0)


def defeat_level(dice: Sequence[int]) -> str | None:
    """Rule C13: one attribute at 0 yields, two injured, three decapitated; None fights on."""
    z = zeros(dice)
    return LEVELS[z - 1] if z else None


def level_after(life: int, wounds: int) -> int:
    """How many attributes reach 0 when a fighter with ``life`` dice (all attributes >= 1)
    takes ``wounds`` wounds: the rule of one leaves every attribute at 1 first, so the
    defeat level never depends on how the wounds are allocated (ruling C12a)."""
    spare = life - 3
    return 0 if wounds <= spare else min(3, wounds - spare)
