"""What each seat sees of Battle Royale: hands and face-down draw piles stay with their
seat; the arena, prisoners, discards and the face-up optional cards are public."""

from __future__ import annotations

from br_helpers import game, play, set_hand

from companion.games.battle_royale import GAME
from companion.games.battle_royale.assist import ASSIST, new_assist_game


def test_hands_and_draw_piles_are_private_their_sizes_public():
    s = game(3, abilities=True, special_actions=True)
    while s.phase == "pick_ability":
        s.apply(s.legal_actions()[0])
    while s.is_chance_node:
        s.apply(s.chance_outcomes()[0][0])
    table = GAME.view(s, None)["public"]
    assert "hands" not in table and "draw_piles" not in table
    assert table["hand_sizes"] == {"0": 4, "1": 4, "2": 4}
    assert table["draw_pile_sizes"] == {"0": 6, "1": 6, "2": 6}
    assert table["specials"] == s.specials and table["abilities"]  # face up
    mine = GAME.view(s, 1)["private"]
    assert mine == {"hands": s.hands[1], "draw_piles": s.draw_piles[1]}


def test_the_card_played_and_the_discards_are_public_the_draw_is_not():
    s = game(3)
    set_hand(s, 0, ["2x2", "2x3", "3x2", "4x1"])
    play(s, "play 2x2", "end")
    events = s.apply(s.chance_outcomes()[0][0])
    drawn = events[0]
    assert drawn.kind == "card_drawn" and drawn.private_to == 0
    assert GAME.event_view(drawn, 0)["data"]["card"] == drawn.data["card"]
    for seat in (None, 1, 2):
        assert GAME.event_view(drawn, seat) == {
            "kind": "card_drawn",
            "text": "purple draws a card",
            "data": {"seat": 0},
        }
    table = GAME.view(s, 2)["public"]
    assert table["discards"][0]["2x2"] == 1 and table["card"] == "2x2"


def test_assist_mode_keeps_nothing_private():
    s = new_assist_game()
    assert ASSIST.view(s, 0)["private"] == {}
    assert ASSIST.view(s, None)["public"] == s.snapshot()
