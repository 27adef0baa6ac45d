"""Actions: notation and dict forms round-trip; bad input says what is expected."""

from __future__ import annotations

import json

import pytest

from companion.games.kampf_der_gladiatoren import (
    GAME,
    ActionFormatError,
    action_from_dict,
    parse_action,
)
from companion.games.kampf_der_gladiatoren import actions as A

EXAMPLES = [
    A.DrawAnimal("lion"),
    A.Roll(1, 2, 0),
    A.PlaceCarrier("E", "sword"),
    A.AddGladiator("E", "net"),
    A.PlaceAnimal("F"),
    A.Challenge("E", "E", "I"),
    A.Challenge("E", "H", "L"),
    A.UseAnimal("lion", "F", "G"),
    A.Net("shield"),
    A.Reroll(),
    A.Keep(),
    A.GiveUp("spear"),
    A.GiveUp("sword", True),
]


@pytest.mark.parametrize("action", EXAMPLES, ids=lambda a: a.notation)
def test_round_trips(action):
    assert parse_action(action.notation) == action
    data = json.loads(json.dumps(action.to_dict()))
    assert action_from_dict(data) == action
    assert data["kind"] == action.kind
    assert not action.is_correction
    assert action.is_chance == (action.kind in ("draw", "roll"))
    assert str(action) == action.notation


def test_notation_is_forgiving_about_case():
    assert parse_action("CHALLENGE e>h l") == A.Challenge("E", "H", "L")
    assert parse_action("give Sword INACTIVE") == A.GiveUp("sword", True)
    assert parse_action("animal Lion f g") == A.UseAnimal("lion", "F", "G")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty input"),
        ("fight E F", "unknown action"),
        ("challenge E", "challenge takes 2 values"),
        ("give", "give takes a kind"),
        ("give sword netted", "give takes a kind"),
        ("carrier E axe", "gladiator kind"),
        ("roll 1 x 0", "whole number"),
        ("roll 1 -1 0", "0 or more"),
        ("keep now", "keep takes 0 value"),
        ("challenge E! F", "field id"),
    ],
)
def test_bad_text_says_what_is_expected(text, message):
    with pytest.raises(ActionFormatError, match=message):
        parse_action(text)


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"kind": "fight"},
        {"kind": "net"},
        {"kind": "net", "gladiator": "net", "x": 1},
        {"kind": "give", "gladiator": "net", "inactive": "yes"},
        {"kind": "roll", "doubles": True, "singles": 0, "blanks": 0},
    ],
)
def test_bad_dicts_are_refused(data):
    with pytest.raises(ActionFormatError):
        action_from_dict(data)


def test_give_without_inactive_in_old_logs_means_active():
    assert action_from_dict({"kind": "give", "gladiator": "net"}) == A.GiveUp("net")


def test_registry_entry():
    from companion.games.kampf_der_gladiatoren import GladiatorenConfig

    assert GAME.name == "gladiatoren" and GAME.title == "Kampf der Gladiatoren"
    config = GAME.config_from_dict({"players": 4})
    assert config == GladiatorenConfig(players=4)
    state = GAME.new_game(config)
    bot = GAME.bot(__import__("random").Random(1))
    action = bot.choose(state)
    assert GAME.parse_action(action.notation) == action
    state.apply(action)
    assert GAME.replay(config, state.history).snapshot() == state.snapshot()
    assert GAME.action_from_dict(action.to_dict()) == action
