"""Actions: notation and dict forms round-trip; bad input says the expected form; illegal
actions are refused with the ruling and change nothing."""

import json

import pytest
from skm_helpers import profile, start

from companion.games.arena_skirmish import (
    GAME,
    IllegalActionError,
    SkirmishConfig,
    action_from_dict,
    new_game,
    parse_action,
)
from companion.games.arena_skirmish import actions as A
from companion.games.arena_skirmish.actions import ACTION_TYPES, ActionFormatError
from companion.games.core import Game

SAMPLES = [
    A.RollOff(1),
    A.TieBreak(17),
    A.HitDie(4),
    A.Pick(12),
    A.Ready(),
    A.ChooseEntrance("C"),
    A.Place("c5", "N"),
    A.Step(),
    A.TurnLeft(),
    A.TurnRight(),
    A.Melee(17),
    A.AffinityAttack(3),
    A.EndActivation(),
    A.Done(),
    A.Combo(),
    A.Adjust(17, "life", -1),
]


def test_every_kind_has_a_sample():
    assert {a.kind for a in SAMPLES} == set(ACTION_TYPES)


@pytest.mark.parametrize("action", SAMPLES, ids=[a.notation for a in SAMPLES])
def test_round_trips(action):
    assert parse_action(action.notation) == action
    assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
    assert hash(action) == hash(parse_action(str(action)))


def test_notation_examples_and_flags():
    assert A.Place("c5", "N").notation == "place c5 N"
    assert A.Adjust(3, "movement", 1).notation == "adjust 3 movement +1"
    assert parse_action("PLACE C5 n") == A.Place("c5", "N")
    assert parse_action("entrance b") == A.ChooseEntrance("B")
    assert A.HitDie(1).is_chance and A.RollOff(0).is_chance and A.TieBreak(1).is_chance
    assert A.Combo().is_correction and A.Adjust(1, "life", 1).is_correction
    assert not A.Done().is_correction and not A.Melee(1).is_chance


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty input"),
        ("jump", "unknown action 'jump'"),
        ("melee", "takes 1 value"),
        ("melee x", "whole number"),
        ("place 5c N", "column letter and a row number"),
        ("place c5 up", "facing must be one of N, E, S, W"),
        ("adjust 3 luck +1", "stat must be one of"),
    ],
)
def test_bad_text(text, message):
    with pytest.raises(ActionFormatError, match=message):
        parse_action(text)


def test_bad_dicts():
    with pytest.raises(ActionFormatError, match="not an arena skirmish action"):
        action_from_dict({"kind": "fly"})
    with pytest.raises(ActionFormatError, match="expected fields"):
        action_from_dict({"kind": "melee", "target": 1, "extra": 2})


def test_registry_entry():
    assert isinstance(GAME, Game) and GAME.name == "skirmish"
    cfg = GAME.config_from_dict(SkirmishConfig(players=3).to_dict())
    assert cfg.players == 3
    state = GAME.new_game(cfg)
    assert GAME.replay(cfg, []).snapshot() == state.snapshot()
    import random

    bot = GAME.bot(random.Random(1))
    assert bot.choose(state) in state.legal_actions()


def test_illegal_actions_change_nothing_and_name_the_ruling():
    profiles = [profile(1, initiative=9), profile(2, initiative=1)]
    s = start(profiles, [[1], [2]], {1: ("a1", "E"), 2: ("e5", "N")})
    before = json.dumps(s.snapshot())
    cases = [
        (A.HitDie(3), "chance"),
        (A.Place("b1", "N"), "turn order"),
        (A.Melee(2), "ruling 6 (melee)"),
        (A.AffinityAttack(2), "ruling 7 (affinity)"),
        (A.Adjust(1, "life", -1), "corrections"),
        (A.Pick(5), "turn order"),
    ]
    for action, rule in cases:
        with pytest.raises(IllegalActionError) as err:
            s.apply(action)
        assert err.value.rule == rule, action
        assert err.value.action == action and action.notation in str(err.value)
    assert json.dumps(s.snapshot()) == before and len(s.history) == len(s.history)


def test_chance_nodes_refuse_choices():
    s = new_game(SkirmishConfig(teams=((1,), (2,))))
    err = pytest.raises(IllegalActionError, s.apply, A.Step()).value
    assert err.rule == "chance" and "roll off" in err.reason
    err = pytest.raises(IllegalActionError, s.apply, A.RollOff(5)).value
    assert "not an outcome" in err.reason


def test_snapshot_is_json():
    s = new_game(SkirmishConfig(players=4))
    json.dumps(s.snapshot())
