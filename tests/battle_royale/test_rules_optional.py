"""Ruling 14: the optional ability and special-action cards."""

import pytest
from br_helpers import draw_first, game, kinds, play, set_hand, to_doom_roll

from companion.games.battle_royale import IllegalActionError
from companion.games.battle_royale.actions import Continue, PickAbility, UseSpecial


def test_ability_draft_right_of_the_start_player_first_then_counter_clockwise():
    s = game(4, start=2, abilities=True)
    assert s.phase == "pick_ability"
    assert len(s.revealed_abilities) == 5  # players + 1, face up
    order = []
    while s.phase == "pick_ability":
        order.append(s.current_player)
        s.apply(s.legal_actions()[-1])
    assert order == [1, 0, 3, 2]
    leftover = set(s.revealed_abilities) - set(s.abilities.values())
    assert len(leftover) == 1  # the last card leaves the game
    assert s.phase == "deal"


def test_a_picked_ability_cannot_be_picked_again():
    s = game(3, start=0, abilities=True)
    card = s.revealed_abilities[0]
    s.apply(PickAbility(card))
    assert PickAbility(card) not in s.legal_actions()


def specials_game():
    s = game(4, special_actions=True)
    assert s.specials == ["reroll", "special-2", "special-3"]  # 3 of 7 face up
    set_hand(s, 0, ["2x2", "2x3", "3x2", "4x1"])
    return s


def test_special_actions_need_enough_own_prisoners():
    s = specials_game()
    assert not [a for a in s.legal_actions() if isinstance(a, UseSpecial)]
    with pytest.raises(IllegalActionError, match="costs 1 prisoner") as err:
        play(s, "special special-2")
    assert err.value.rule == "rule 14 (special actions)"


def test_special_action_before_movement_is_paid_to_the_box_once_per_turn():
    s = specials_game()
    s.prisoners[0][1] = 3
    legal = set(s.legal_actions())
    assert {UseSpecial("special-2"), UseSpecial("special-3")} <= legal
    assert UseSpecial("reroll") not in legal  # that one belongs to the Doom phase
    events = play(s, "special special-3")
    assert s.phase == "special_effect"  # players apply its effect with corrections
    assert events[0].data["by_hand"] is True
    assert s.prisoners[0][1] == 1 and s.box[1] == 2
    play(s, "done")
    assert s.phase == "turn_start"
    assert not [a for a in s.legal_actions() if isinstance(a, UseSpecial)]


def test_special_action_window_after_movement():
    s = specials_game()
    s.prisoners[0][1] = 1
    play(s, "play 2x2", "end")
    draw_first(s)
    assert s.phase == "after_move"
    assert set(s.legal_actions()) == {Continue(), UseSpecial("special-2")}
    play(s, "continue")
    assert s.phase == "doom_roll"


def test_reroll_in_the_doom_phase():
    s = specials_game()
    s.prisoners[0][2] = 1
    play(s, "play 2x2", "end")
    draw_first(s)
    play(s, "continue")
    play(s, "roll battle_royale")
    assert s.phase == "reroll_choice"
    events = play(s, "special reroll")
    assert "special_used" in kinds(events) and s.prisoner_total(0) == 0
    assert s.phase == "doom_roll"
    play(s, "roll move_eliminator")
    assert s.phase == "move_eliminator"  # no second reroll


def test_keeping_the_roll():
    s = specials_game()
    s.prisoners[0][2] = 1
    to_doom_roll_with_window(s)
    play(s, "roll move_eliminator", "continue")
    assert s.phase == "move_eliminator"


def to_doom_roll_with_window(s):
    play(s, "play 2x2", "end")
    draw_first(s)
    if s.phase == "after_move":
        play(s, "continue")


def test_without_the_option_no_special_actions():
    s = game(4)
    s.prisoners[0][1] = 5
    to_doom_roll(s)
    play(s, "roll battle_royale")
    assert s.phase != "reroll_choice"
