"""Rulings 1-3: arena layouts, setup, capacity."""

from fractions import Fraction

import pytest
from br_helpers import game

from companion.games.battle_royale import BattleRoyaleConfig, ConfigError, new_game
from companion.games.battle_royale.layout import (
    CENTRE,
    Layout,
    LayoutError,
    field_name,
    neighbours,
    parse_field,
)
from companion.games.battle_royale.state import CHANCE


def test_first_game_layout_has_21_fields_with_the_centre_and_its_8_neighbours():
    layout = BattleRoyaleConfig().arena_layout
    assert layout.name == "first-game"
    assert len(layout.fields) == 21
    assert CENTRE in layout.fields
    assert all(n in layout.fields for _, n in neighbours(CENTRE, True))


def test_layout_text_round_trips():
    text = ".###.\n#####\n##C##\n#####\n.###."
    assert Layout.parse(text).draw() == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("#####\n#####\n#####\n#####\n#####", "mark the middle field c3 with C"),
        ("#####\n#####\n##.##\n#####\n#####", "centre field c3"),
        ("#...#\n.....\n..C..\n.....\n.....", "a1, e1 not connected to the centre"),
        ("#####\n#####\n##C##\n#####\n####.", r"remove at least 3 field\(s\)"),
        ("#####\n#####\n##C##\n#####", "needs 5 lines"),
        ("##x##\n#####\n##C##\n#####\n.....", "'x' is not allowed"),
        ("C....\n.....\n.....\n.....\n.....", "must be in the middle"),
    ],
)
def test_invalid_layouts_are_refused_with_a_reason(text, message):
    with pytest.raises(LayoutError, match=message):
        Layout.parse(text)


def test_diagonal_contact_does_not_connect_a_field():
    with pytest.raises(LayoutError, match="b2 not connected"):
        Layout.parse(".....\n.#...\n..C..\n.....\n.....")


def test_field_names():
    assert field_name(0) == "a1" and field_name(CENTRE) == "c3" and field_name(24) == "e5"
    assert parse_field("D2") == 8
    with pytest.raises(LayoutError, match="column a-e and a row 1-5"):
        parse_field("f9")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_one_figure_of_each_colour_on_every_field(players):
    state = game(players)
    fields = state.fields()
    assert len(fields) == 21
    for cell in fields:
        for seat in range(players):
            assert state.counts[cell][seat] == 1
    for seat in range(players):
        assert state.arena_total[seat] == 21
        assert state.reserve[seat] == 0
        assert sum(state.hands[seat].values()) == 4
        assert sum(state.draw_piles[seat].values()) == 6
    assert state.eliminator == CENTRE
    assert state.turn == 1 and state.phase == "turn_start"


def test_smaller_layout_keeps_unused_figures_in_reserve():
    state = game(3, layout="cross")
    assert len(state.fields()) == 19
    assert state.reserve[:3] == [2, 2, 2]


def test_capacity_is_5_with_2_or_3_players_and_6_with_4():
    assert BattleRoyaleConfig(players=2).capacity == 5
    assert BattleRoyaleConfig(players=3).capacity == 5
    assert BattleRoyaleConfig(players=4).capacity == 6


def test_start_player_is_a_uniform_chance_node_when_not_chosen():
    state = new_game(BattleRoyaleConfig(players=3))
    assert state.current_player == CHANCE and state.phase == "start_player"
    outcomes = state.chance_outcomes()
    assert [a.seat for a, _ in outcomes] == [0, 1, 2]
    assert all(p == Fraction(1, 3) for _, p in outcomes)


def test_chosen_start_player_begins():
    state = game(4, start=2)
    assert state.active == 2 and state.current_player == 2


def test_dealing_draws_uniformly_from_the_cards_left():
    state = new_game(BattleRoyaleConfig(players=2, start_player=0))
    assert state.phase == "deal"
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 10 and sum(p for _, p in outcomes) == 1
    assert all(p == Fraction(1, 10) for _, p in outcomes)
    state.apply(outcomes[3][0])
    assert all(p == Fraction(1, 9) for _, p in state.chance_outcomes())


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 5}, "players must be 2, 3 or 4"),
        ({"players": 2, "colours": ("red", "red")}, "different colours"),
        ({"players": 2, "colours": ("red", "pink")}, "unknown colour"),
        ({"start_player": 4}, "start_player must be a seat"),
        ({"layout": "moon"}, "unknown layout 'moon'"),
        ({"data_file": "/nonexistent/br.json"}, "cannot read Battle Royale data file"),
    ],
)
def test_bad_config_is_refused_with_the_setting_named(kwargs, message):
    with pytest.raises((ConfigError, LayoutError), match=message):
        new_game(BattleRoyaleConfig(**kwargs))


def test_config_round_trips_through_a_dict():
    config = BattleRoyaleConfig(players=3, layout="cross", start_player=1, special_actions=True)
    assert BattleRoyaleConfig.from_dict(config.to_dict()) == config
    with pytest.raises(ConfigError, match="unknown config key"):
        BattleRoyaleConfig.from_dict({"players": 2, "speed": 3})
