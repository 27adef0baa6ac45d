"""Action notation and serialisation; rejection reasons."""

import pytest
from br_helpers import game, play, set_hand, set_position

from companion.games.battle_royale import IllegalActionError, action_from_dict, parse_action
from companion.games.battle_royale.actions import (
    ACTION_TYPES,
    ActionFormatError,
    DrawCard,
    ShiftFigure,
    StartFigure,
    Step,
)
from companion.games.battle_royale.state import replay


@pytest.mark.parametrize(
    "action",
    [StartFigure(6, "purple"), Step("NE"), DrawCard(2, "2x3"), ShiftFigure(12, "red", 7)],
)
def test_notation_and_dict_round_trip(action):
    assert parse_action(action.notation) == action
    assert action_from_dict(action.to_dict()) == action


def test_every_action_kind_is_registered_once():
    assert len(ACTION_TYPES) == 24


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty input"),
        ("jump c3", "unknown action 'jump'"),
        ("step", r"step takes 1 value\(s\): step <direction>"),
        ("step UP", "direction must be one of N, E, S, W"),
        ("figure z9 purple", "not a field"),
    ],
)
def test_bad_notation_says_what_is_expected(text, message):
    with pytest.raises(ActionFormatError, match=message):
        parse_action(text)


def test_bad_action_dicts_are_refused():
    with pytest.raises(ActionFormatError):
        action_from_dict({"kind": "step"})
    with pytest.raises(ActionFormatError):
        action_from_dict({"kind": "fly"})


def test_rejection_changes_nothing_and_names_the_rule():
    s = game(4)
    set_position(s, {"b2": "P1", "c3": "G1 T1 R1"})
    set_hand(s, 0, ["2x2", "2x3", "3x2", "4x1"])
    before = s.snapshot()
    with pytest.raises(IllegalActionError) as err:
        play(s, "step N")
    assert err.value.rule == "turn order" and "legal now: play" in err.value.reason
    with pytest.raises(IllegalActionError, match="die or card outcome"):
        play(s, "roll explosion")
    assert s.snapshot() == before


def test_chance_node_rejects_choices():
    s = game(4)
    set_hand(s, 0, ["2x2", "2x3", "3x2", "4x1"])
    play(s, "play 2x2", "end")
    with pytest.raises(IllegalActionError, match="apply one of the chance outcomes"):
        play(s, "end")
    with pytest.raises(IllegalActionError, match="not an outcome of this chance node"):
        play(s, "draw 1 2x3")


def test_replay_rebuilds_the_state_and_checks_every_action():
    s = game(4)
    set_hand(s, 0, ["2x2", "2x3", "3x2", "4x1"])
    # a real game from its config: replay the history of a fresh state
    fresh = game(4)
    history = list(fresh.history)
    assert replay(fresh.config, history).snapshot() == fresh.snapshot()
    with pytest.raises(IllegalActionError):
        replay(fresh.config, [*history, parse_action("step N")])


@pytest.mark.parametrize(
    "action",
    [
        Step("n"),
        Step("X"),
        StartFigure(99, "purple"),
        StartFigure(-1, "purple"),
        StartFigure(6, "pink"),
    ],
)
def test_malformed_actions_are_rejected_not_crashed_on(action):
    s = game(4)
    set_hand(s, 0, ["2x2", "2x3", "3x2", "4x1"])
    play(s, "play 2x2", "figure b2 purple")
    with pytest.raises(IllegalActionError) as err:
        s.apply(action)
    assert err.value.rule == "action format"


def test_the_engine_loads_on_first_use() -> None:
    """The package gives the full engine and GAME lazily (an assist table never needs
    them) and the same objects as their modules; an unknown name is an AttributeError."""
    import companion.games.battle_royale as br
    from companion.games.battle_royale import game, state

    assert br.GAME is game.GAME and br.GAME.state is state.BattleRoyaleState
    assert br.new_game is state.new_game and br.TERMINAL is state.TERMINAL
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        br.nothing  # noqa: B018
