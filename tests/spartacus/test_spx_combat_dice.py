"""Rules C4-C13: comparing dice, pairs and triples, wounds and the rule of one.

The rulebook shows most of its dice as pictures; where our text gives the
numbers (the sword, Agron and Spartacus examples) they are used exactly, and
where it gives only the result ("Der Angreifer verursacht 2 Wunden") the dice
are a reconstruction that gives that result, marked as such.
"""

from __future__ import annotations

import pytest
from spx_helpers import DATA

from companion.games.spartacus.combat import (
    Modifiers,
    attack_outcome,
    compare,
    defeat_level,
    level_after,
    parse_faces,
    pattern_triggers,
    wound_choices,
)

SPARTACUS = DATA.abilities["pair-extra-wound"]
AGRON = DATA.abilities["defence-triple-counter"]


def test_c4_highest_against_highest_ties_to_the_defender() -> None:
    cmp = compare([3, 6, 4], [4, 6, 2])
    assert cmp.attack == (6, 4, 3) and cmp.defence == (6, 4, 2)
    assert cmp.pairs == ((6, 6, False), (4, 4, False), (3, 2, True))
    assert cmp.wounds == 1


def test_c5_unmatched_attack_dice_wound_on_three_or_more() -> None:
    # "Im obigen Beispiel verursacht der Angreifer 2 Wunden" (dice reconstructed)
    cmp = compare([5, 4, 3, 2, 1], [6, 3])
    assert cmp.pairs == ((5, 6, False), (4, 3, True))
    assert cmp.unmatched == ((3, True), (2, False), (1, False))
    assert cmp.wounds == 2


def test_c6_surplus_defence_dice_are_the_lowest_and_ignored() -> None:
    cmp = compare([5, 2], [6, 1, 1, 1])
    assert cmp.ignored == (1, 1)
    assert cmp.pairs == ((5, 6, False), (2, 1, True))
    assert cmp.wounds == 1


def test_rulebook_more_examples_reconstructed() -> None:
    # "Auch mit der doppelten Anzahl an Wuerfeln kann man Schwaeche zeigen!": 2 wounds
    assert compare([4, 3, 2, 2, 1, 1], [5, 2, 1]).wounds == 2
    # "In diesem Beispiel kann man sich nicht aussuchen, die 5 des Angreifers unverteidigt zu
    # lassen": the 5 meets the defender's highest die
    cmp = compare([5, 4, 4], [6, 3])
    assert cmp.pairs[0] == (5, 6, False) and cmp.wounds == 2
    # "Der Verteidiger wuerfelt gut, aber der Angreifer noch besser!"
    assert compare([6, 6, 5], [5, 5, 4]).wounds == 3


def test_c7_rulebook_sword_example() -> None:
    # Sally 6-4-3 against 6-4-2: one wound; she rerolls the 3, gets a 5: 6-5-4, two wounds
    assert compare([6, 4, 3], [6, 4, 2]).wounds == 1
    assert compare([6, 5, 4], [6, 4, 2]).wounds == 2


def test_c9_rulebook_agron_example_defence_triple_wounds_the_attacker() -> None:
    mods = Modifiers(defence_abilities=(AGRON,))
    before = attack_outcome([6, 6, 6, 6], [4, 3, 3, 2], mods)
    assert before.to_attacker == 0
    after = attack_outcome([6, 6, 6, 6], [4, 3, 3, 3], mods)  # the 2 rerolled to a 3
    assert after.counter == 1 and after.to_attacker == 1
    # "Unabhaengig vom Angriffswurf": whatever the attack
    assert attack_outcome([1], [4, 3, 3, 3], mods).to_attacker == 1


def test_c9_rulebook_spartacus_example_two_pairs_two_wounds() -> None:
    mods = Modifiers(attack_abilities=(SPARTACUS,))
    o = attack_outcome([2, 2, 1, 1], [6, 6, 6, 6], mods)
    assert o.comparison.wounds == 0
    assert o.ability_wounds == 2 and o.to_defender == 2


def test_c9_each_die_in_one_pair_or_triple_only() -> None:
    triple = DATA.abilities["attack-triple-extra"]
    # three fives: a pair or a triple, never two pairs
    assert pattern_triggers([5, 5, 5], [SPARTACUS]) == {SPARTACUS.id: 1}
    assert pattern_triggers([5, 5, 5], [triple]) == {triple.id: 1}
    assert pattern_triggers([5, 5, 5, 5], [SPARTACUS]) == {SPARTACUS.id: 2}
    assert pattern_triggers([5, 5, 5, 5], [triple]) == {triple.id: 1}


def test_c9a_pairs_and_triples_together_split_to_trigger_most_often() -> None:
    triple = DATA.abilities["attack-triple-extra"]
    both = [SPARTACUS, triple]
    assert pattern_triggers([5, 5, 5], both) == {SPARTACUS.id: 0, triple.id: 1}  # tie: triple
    assert pattern_triggers([5, 5, 5, 5], both) == {SPARTACUS.id: 2, triple.id: 0}
    assert pattern_triggers([5] * 5, both) == {SPARTACUS.id: 1, triple.id: 1}


def test_c9_face_filter() -> None:
    sixes = DATA.abilities["sixes-extra-wound"]
    assert pattern_triggers([6, 6, 5, 5], [sixes]) == {sixes.id: 1}
    assert pattern_triggers([5, 5, 4, 4], [sixes]) == {sixes.id: 0}


def test_c10a_extra_wound_whatever_the_dice_did_then_ignore() -> None:
    # "Nachdem gewürfelt wurde, aber bevor Eigenschaften durch Verletzungen gesenkt
    # werden, wird eine zusätzliche Wunde verursacht": an attack that misses wounds too
    o = attack_outcome([1], [6], Modifiers(extra_wound=1))
    assert o.comparison.wounds == 0 and o.extra_wound == 1 and o.to_defender == 1
    assert attack_outcome([1], [6], Modifiers(extra_wound=1, ignore_defender=1)).to_defender == 0
    o = attack_outcome([6], [1], Modifiers(extra_wound=1))
    assert o.extra_wound == 1 and o.to_defender == 2
    o = attack_outcome([6], [1], Modifiers(extra_wound=1, ignore_defender=1))
    assert o.ignored == 1 and o.to_defender == 1
    assert attack_outcome([6], [1], Modifiers(ignore_defender=3)).to_defender == 0  # never < 0


def test_c10_defence_pair_ignores_and_counter_wound_ignored_by_attacker_armour() -> None:
    ignore = DATA.abilities["defence-pair-ignore"]
    o = attack_outcome([6, 6, 6], [2, 2, 1], Modifiers(defence_abilities=(ignore,)))
    assert o.comparison.wounds == 3 and o.to_defender == 2
    o = attack_outcome([6], [3, 3, 3], Modifiers(defence_abilities=(AGRON,), ignore_attacker=1))
    assert o.counter == 1 and o.to_attacker == 0


def test_c12_rule_of_one_rulebook_sally_example() -> None:
    # Sally: attack 2, defence 2, speed 1 takes 2 wounds: not speed first
    assert wound_choices([2, 2, 1]) == [0, 1]
    assert wound_choices([1, 2, 1]) == [1]
    assert wound_choices([1, 1, 1]) == [0, 1, 2]  # "noch eine Wunde ... besiegt"
    assert level_after(5, 2) == 0 and level_after(5, 3) == 1


def test_c11_rulebook_pete_example_any_attribute() -> None:
    # Pete 3/3/3 takes two wounds and may take them from defence and speed
    assert wound_choices([3, 3, 3]) == [0, 1, 2]
    assert wound_choices([3, 2, 3]) == [0, 1, 2]


def test_c13_defeat_levels() -> None:
    assert defeat_level([1, 1, 1]) is None
    assert defeat_level([0, 1, 1]) == "yield"
    assert defeat_level([0, 0, 1]) == "injury"
    assert defeat_level([0, 0, 0]) == "decapitation"
    assert [level_after(9, w) for w in range(6, 11)] == [0, 1, 2, 3, 3]


def test_faces_text_forms() -> None:
    assert parse_faces("3-6-4") == (6, 4, 3)
    assert parse_faces("643") == (6, 4, 3)
    assert parse_faces("6,4") == (6, 4)
    for bad in ("", "7", "x-1", "0"):
        with pytest.raises(ValueError):
            parse_faces(bad)
