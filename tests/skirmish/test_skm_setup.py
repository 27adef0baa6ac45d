"""Rulings 1-3: maps from data files, the printed limits and ID tables, team choice,
the roll-off for the entrance, deployment zones, placement order and range."""

import json
from fractions import Fraction
from pathlib import Path

import pytest
from skm_helpers import OPEN5, data_file, profile, start

from companion.games.arena_skirmish import (
    ConfigError,
    IllegalActionError,
    SkirmishConfig,
    new_game,
)
from companion.games.arena_skirmish import actions as A
from companion.games.arena_skirmish.data import (
    PRINTED_ID_TABLES,
    PRINTED_LIMITS,
    DataError,
    default_data,
    id_table,
    parse_data,
)
from companion.games.arena_skirmish.grid import GameMap, MapError

# -- ruling 1: maps --------------------------------------------------------------------------


def test_default_data_is_labelled():
    data = default_data()
    assert "default" in data.maps and "default map" in data.maps["default"].label
    assert "sample" in data.profiles_label and "not the official" in data.profiles_label
    assert sorted(data.profiles) == list(range(1, 71))
    assert "not printed" in data.two_player_label


def test_map_text_round_trip_and_cells():
    m = GameMap.parse("\n".join(["A0000", "01#00", "00200", "00000", "0000B"]), "t")
    assert m.size == 5 and m.entrance_names == ("A", "B")
    assert m.heights[m.cell_of("b2")] == 1 and m.blocked[m.cell_of("c2")]
    assert m.heights[m.cell_of("c3")] == 2 and m.distance(m.cell_of("a1"), m.cell_of("e5")) == 8
    assert GameMap.parse(m.draw(), "t") == m
    assert m.name_of(m.cell_of("d4")) == "d4"


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (["A000", "0000", "000B", "0000"], "5..26 rows"),
        (["A0000", "0000", "00000", "00000", "0000B"], "row 2"),
        (["A0000", "00x00", "00000", "00000", "0000B"], "'x' is not a height"),
        (["A0000", "00000", "00000", "00000", "00000"], "at least 2 entrances"),
        (["A0000", "00000", "00A00", "00000", "0000B"], "entrance A appears twice"),
    ],
)
def test_bad_maps_are_refused_with_the_place(rows, message):
    with pytest.raises(MapError, match=message):
        GameMap.parse("\n".join(rows), "bad")


def test_bad_data_names_the_entry():
    good = json.loads(Path(data_file([profile(1), profile(2)])).read_text())
    bad = json.loads(json.dumps(good))
    bad["gladiators"]["profiles"][1]["class"] = "giant"
    with pytest.raises(DataError, match="gladiator 2.*'class'"):
        parse_data(bad, "x.json")
    bad = json.loads(json.dumps(good))
    bad["gladiators"]["profiles"][1]["id"] = 1
    with pytest.raises(DataError, match="ID 1 is defined twice"):
        parse_data(bad, "x.json")
    bad = json.loads(json.dumps(good))
    del bad["two_players"]
    with pytest.raises(DataError, match="two_players"):
        parse_data(bad, "x.json")
    with pytest.raises(ConfigError, match="not valid JSON"):
        SkirmishConfig(data_file=__file__)


def test_config_checks_map_entrances_and_teams():
    with pytest.raises(ConfigError, match="too few for 3 players"):
        SkirmishConfig(players=3, map="duel")
    with pytest.raises(ConfigError, match="unknown map"):
        SkirmishConfig(map="nowhere")
    with pytest.raises(ConfigError, match="limit is 4"):
        SkirmishConfig(players=3, teams=((1, 4, 7, 10, 13), (2,), (3,)))
    with pytest.raises(ConfigError, match="two teams"):
        SkirmishConfig(teams=((1,), (1,)))
    with pytest.raises(ConfigError, match="points; the limit is 100"):
        SkirmishConfig(
            players=7,
            max_points=None,
            teams=((1,), (2,), (3,), (4,), (5,), (6,), (7,)),
            data_file=data_file(
                [profile(i, points=101 if i == 1 else 5) for i in range(1, 8)],
                {
                    "big": [
                        "A0B0C0D",
                        "0000000",
                        "E000000",
                        "000000F",
                        "0000000",
                        "0000000",
                        "G000000",
                    ]
                },
            ),
            map="big",
        )
    cfg = SkirmishConfig(map="A0000\n00000\n00000\n00000\n0000B")
    assert SkirmishConfig.from_dict(cfg.to_dict()) == cfg


# -- ruling 3: limits and the fair-choice ID tables ---------------------------------------------

PRINTED = {  # the rulebook's text, one string per column
    6: [
        "1, 7, 13, 19, 25, 31, 37, 43, 49, 55, 61, 67",
        "2, 8, 14, 20, 26, 32, 38, 44, 50, 56, 62, 68",
        "3, 9, 15, 21, 27, 33, 39, 45, 51, 57, 63, 69",
        "4, 10, 16, 22, 28, 34, 40, 46, 52, 58, 64",
        "5, 11, 17, 23, 29, 35, 41, 47, 53, 59, 65",
        "6, 12, 18, 24, 30, 36, 42, 48, 54, 60, 66",
    ],
}


def test_printed_limits():
    assert PRINTED_LIMITS[3] == (4, 235) and PRINTED_LIMITS[4] == (3, 175)
    assert PRINTED_LIMITS[5] == PRINTED_LIMITS[6] == (2, 120)
    assert all(PRINTED_LIMITS[n] == (1, 100) for n in (7, 8, 9, 10))
    assert SkirmishConfig(players=3).limits[:2] == (4, 235)
    two = SkirmishConfig(players=2).limits
    assert two[:2] == (5, 295) and "not printed" in two[2]
    assert SkirmishConfig(players=2, max_gladiators=3, max_points=150).limits[:2] == (3, 150)


def test_printed_id_tables():
    for players, columns in PRINTED_ID_TABLES.items():
        assert len(columns) == players
        for k, column in enumerate(columns, start=1):
            assert column[0] == k and all(
                b - a == players for a, b in zip(column, column[1:], strict=False)
            )
    assert [", ".join(map(str, c)) for c in PRINTED_ID_TABLES[6]] == PRINTED[6]
    # as printed, the 6-player table hands out 1..69 only
    assert 70 not in {g for c in PRINTED_ID_TABLES[6] for g in c}
    for players in (3, 4, 5, 7):
        assert sorted(g for c in PRINTED_ID_TABLES[players] for g in c) == list(range(1, 71))


def test_unprinted_id_tables_continue_the_pattern():
    columns, printed = id_table(2)
    assert not printed and columns == (tuple(range(1, 71, 2)), tuple(range(2, 71, 2)))
    columns, printed = id_table(10)
    assert not printed and columns[9] == (10, 20, 30, 40, 50, 60, 70)
    assert id_table(4)[1]


def test_team_choice_from_the_id_table_within_the_limits():
    s = new_game(SkirmishConfig(players=3))
    assert s.phase == "select" and s.current_player == 0
    picks = {a.gladiator for a in s.legal_actions() if isinstance(a, A.Pick)}
    assert picks <= set(PRINTED_ID_TABLES[3][0]) and A.Ready() not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="column of the fair-choice ID table"):
        s.apply(A.Pick(2))
    s.apply(A.Pick(1))
    assert A.Ready() in s.legal_actions()
    s.apply(A.Ready())
    assert s.current_player == 1


def test_a_full_team_is_complete_without_a_question():
    profiles = [profile(i, points=10) for i in range(1, 9)]
    cfg = SkirmishConfig(data_file=data_file(profiles), max_gladiators=2)
    s = new_game(cfg)
    s.apply(A.Pick(1))
    s.apply(A.Pick(3))
    assert s.picking == 1  # two picked: the team is full
    s.apply(A.Pick(2))
    s.apply(A.Pick(4))
    assert s.phase == "roll_off"


def test_points_limit_during_choice():
    profiles = [
        profile(1, points=60),
        profile(3, points=50),
        profile(5, points=10),
        profile(2, points=10),
    ]
    cfg = SkirmishConfig(data_file=data_file(profiles), max_points=70)
    s = new_game(cfg)
    s.apply(A.Pick(1))
    assert {a.gladiator for a in s.legal_actions() if isinstance(a, A.Pick)} == {5}
    with pytest.raises(IllegalActionError, match="costs 50 points; the team has spent 60"):
        s.apply(A.Pick(3))


# -- ruling 2: roll-off, entrances, placement ------------------------------------------------


def test_roll_off_is_an_exact_chance_node():
    s = new_game(SkirmishConfig(players=3, teams=((1,), (2,), (3,))))
    assert s.phase == "roll_off" and s.is_chance_node and s.current_player == -1
    outcomes = s.chance_outcomes()
    assert [a.seat for a, _ in outcomes] == [0, 1, 2]
    assert all(p == Fraction(1, 3) for _, p in outcomes)
    s.apply(A.RollOff(2))
    assert s.phase == "entrance" and s.current_player == 2


def test_two_players_the_opponent_takes_the_farthest_entrance():
    s = new_game(SkirmishConfig(teams=((1,), (2,))))
    s.apply(A.RollOff(1))
    s.apply(A.ChooseEntrance("A"))  # a1 on the default map
    assert s.entrance_of == ["E", "A"]  # k11, the opposite corner
    s = new_game(SkirmishConfig(teams=((1,), (2,))))
    s.apply(A.RollOff(0))
    s.apply(A.ChooseEntrance("B"))  # f1: both bottom corners are 15 away (F is 10)
    assert s.entrance_of[1] == "G"  # a tie: the first in reading order (a11 before k11)


def test_more_players_spread_as_far_apart_as_possible():
    s = new_game(SkirmishConfig(players=4, teams=((1,), (2,), (3,), (4,))))
    s.apply(A.RollOff(0))
    s.apply(A.ChooseEntrance("A"))
    assert sorted(s.entrance_of) == ["A", "C", "E", "G"]  # the four corners
    assert s.entrance_of[1] == "E"  # the next seat: the farthest from A
    cells = [s.map.entrance_cell(e) for e in s.entrance_of]
    assert min(s.map.distance(a, b) for a in cells for b in cells if a != b) == 10


def test_placement_in_ascending_initiative_with_roll_offs_for_ties():
    profiles = [
        profile(1, initiative=7),
        profile(2, initiative=3),
        profile(3, initiative=3),
        profile(4, initiative=1),
    ]
    cfg = SkirmishConfig(teams=((1, 2), (3, 4)), data_file=data_file(profiles))
    s = new_game(cfg)
    s.apply(A.RollOff(0))
    s.apply(A.ChooseEntrance("A"))
    assert s.phase == "place" and s.placing == 4 and s.current_player == 1
    s.apply(A.Place("a1", "S"))
    assert s.phase == "tie_break" and s.tied == [2, 3]
    assert [p for _, p in s.chance_outcomes()] == [Fraction(1, 2)] * 2
    s.apply(A.TieBreak(3))
    assert s.placing == 3
    s.apply(A.Place("b1", "S"))
    assert s.placing == 2  # the other tied one, without another roll-off
    s.apply(A.Place("c1", "S"))
    assert s.placing == 1


def test_placement_within_five_fields_of_the_entrance_with_a_facing():
    s = new_game(SkirmishConfig(teams=((1,), (2,))))
    s.apply(A.RollOff(0))
    s.apply(A.ChooseEntrance("A"))
    gid = s.placing
    entrance = s.map.entrance_cell(s.entrance_of[s.gladiators[gid].owner])
    places = [a for a in s.legal_actions() if isinstance(a, A.Place)]
    cells = {s.map.cell_of(a.cell) for a in places}
    assert all(s.map.distance(c, entrance) <= 5 for c in cells)
    assert all(not s.map.blocked[c] for c in cells)
    assert len(places) == 4 * len(cells)
    far = next(c for c in range(s.map.cells) if s.map.distance(c, entrance) == 6)
    err = pytest.raises(IllegalActionError, s.apply, A.Place(s.map.name_of(far), "N")).value
    assert err.rule == "ruling 2 (setup)" and "is 6 away" in err.reason


def test_rounds_start_once_everyone_is_placed():
    s = start(
        [profile(1, initiative=2), profile(2, initiative=9)],
        [[1], [2]],
        {1: ("a1", "S"), 2: ("e5", "N")},
        rows=OPEN5,
    )
    assert s.round == 1 and s.phase == "move" and s.active_gladiator == 2
