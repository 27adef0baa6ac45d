"""The core machinery on a toy game: legality, refusals, chance, dispatch, replay, Game."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from toy_game import TOY, AddStone, Deal, Take, ToyConfig, ToyState

from companion.dice import Roller
from companion.games.core import (
    CHANCE,
    TERMINAL,
    ActionFormatError,
    ConfigError,
    IllegalActionError,
    RandomBot,
    best,
    play_out,
)


def dealt(stones: int = 5, players: int = 2) -> ToyState:
    state = TOY.new_game(ToyConfig(players=players, stones=stones))
    for seat in range(players):
        state.apply(Deal(seat, "ace"))
    return state


def test_setup_runs_to_the_first_chance_node_and_keeps_its_events():
    state = TOY.new_game()
    assert state.is_chance_node and state.current_player == CHANCE
    assert [e.kind for e in state.initial_events] == ["setup"]
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == 1 and all(isinstance(p, Fraction) for _, p in outcomes)
    assert state.legal_actions() == [a for a, _ in outcomes]


def test_legal_actions_are_cached_and_handed_out_as_copies():
    state = dealt()
    first = state.legal_actions()
    first.clear()
    assert state.legal_actions() == [Take(1), Take(2), AddStone()]
    assert state._legal is not None and state.legal_actions()[0] is state._legal[0]


def test_apply_dispatches_to_the_handler_and_returns_the_events():
    state = dealt()
    events = state.apply(Take(2))
    assert [e.kind for e in events] == ["took"] and state.pile == 3 and state.active == 1
    assert state.history[-1] == Take(2)


def test_an_illegal_action_is_refused_with_rule_and_reason_and_changes_nothing():
    state = dealt(stones=1)
    before, history = state.snapshot(), list(state.history)
    with pytest.raises(IllegalActionError) as info:
        state.apply(Take(2))
    assert info.value.rule == "taking" and "at most the 1 left" in info.value.reason
    assert info.value.action == Take(2) and "'take 2' is not allowed: taking" in str(info.value)
    assert state.snapshot() == before and state.history == history


@pytest.mark.parametrize(
    "action, rule, words",
    [
        (Deal(0, "ace"), "chance", "is a card dealt, but now a player takes stones"),
        ("take 1", "action format", "is not a toy action"),
        ({"kind": "take"}, "action format", "is not a toy action"),
    ],
)
def test_shared_refusals(action, rule, words):
    state = dealt()
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert info.value.rule == rule and words in info.value.reason


def test_chance_refusals():
    state = TOY.new_game()
    with pytest.raises(IllegalActionError, match="apply one of the chance outcomes"):
        state.apply(Take(1))
    with pytest.raises(IllegalActionError, match="not an outcome of this chance node"):
        state.apply(Deal(1, "ace"))  # seat 0 is dealt first


def test_the_end_refuses_everything_and_names_the_end_rule():
    state = dealt(stones=1)
    events = state.apply(Take(1))
    assert state.is_terminal and state.current_player == TERMINAL and state.winners == [0]
    assert events[-1].kind == "game_over" and events[-1].text == "red wins: took the last stone"
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError) as info:
        state.apply(Take(1))
    assert info.value.rule == "end of game" and "took the last stone" in info.value.reason


def test_is_legal_never_raises_on_unhashable_look_alikes():
    state = dealt()
    assert state.is_legal(Take(1)) and not state.is_legal(Take(3))
    assert not state.is_legal([1, 2]) and not state.is_legal({"kind": "take"})


def test_a_fresh_copy_of_a_legal_action_is_legal_too():
    state = dealt()
    assert state.is_legal(TOY.action_from_dict({"kind": "take", "stones": 1}))


def test_replay_rebuilds_the_state_bit_for_bit():
    config = ToyConfig(players=3, stones=9)
    state = play_out(TOY.new_game(config), RandomBot(random.Random(4)), Roller.seeded(4).choose)
    again = TOY.replay(config, state.history)
    assert again.snapshot() == state.snapshot() and again.history == state.history


def test_play_out_gives_up_after_max_actions():
    class Dawdler:
        def choose(self, state):
            return AddStone()

    with pytest.raises(RuntimeError, match="not finished after 20 actions"):
        play_out(TOY.new_game(), Dawdler(), Roller.seeded(0).choose, max_actions=20)


def test_the_random_bot_never_picks_a_correction():
    bot = RandomBot(random.Random(0))
    state = dealt()
    assert {bot.choose(state) for _ in range(50)} == {Take(1), Take(2)}


def test_dispatch_uses_one_handler_table_per_class():
    state = dealt()
    state.apply(Take(1))
    assert ToyState._handlers[Take] is ToyState._do_Take
    assert ToyState.handles(AddStone) and not ToyState.handles(int)


def test_game_codec_round_trips_notation_and_dicts():
    for action in (Deal(1, "king"), Take(2), AddStone()):
        assert TOY.parse_action(action.notation) == action
        assert TOY.action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
    with pytest.raises(ActionFormatError, match="take takes 1 value"):
        TOY.parse_action("take")
    with pytest.raises(ActionFormatError, match="stones must be a whole number"):
        TOY.action_from_dict({"kind": "take", "stones": True})
    with pytest.raises(ActionFormatError, match="expected fields"):
        TOY.action_from_dict({"kind": "take", "stones": 1, "extra": 0})
    with pytest.raises(ActionFormatError, match="unknown action 'jump'; actions are: add, take"):
        TOY.parse_action("jump")


def test_game_config_round_trip_and_unknown_keys():
    config = ToyConfig(players=3, colours=("green", "red", "blue"))
    assert TOY.config_from_dict(config.to_dict()) == config
    with pytest.raises(ConfigError, match=r"unknown config key\(s\) \['speed'\]"):
        TOY.config_from_dict({"speed": 2})
    with pytest.raises(ConfigError, match="players must be 2 or 3, got 4"):
        ToyConfig(players=4)
    with pytest.raises(ConfigError, match="colours must name 2 different colours"):
        ToyConfig(colours=("red", "red"))
    with pytest.raises(ConfigError, match=r"unknown colour\(s\) \['pink'\]"):
        ToyConfig(colours=("red", "pink"))


def test_best_keeps_every_seat_on_a_tie_in_the_order_given():
    assert best([2, 0, 1], lambda s: [5, 3, 5][s]) == [2, 0]


def test_a_state_without_its_rules_cannot_be_made():
    from companion.games.core import GameState

    class Half(GameState):
        def _setup(self) -> None:
            pass

    with pytest.raises(TypeError, match="abstract"):
        Half(None)


def test_every_engine_handles_every_action_it_can_read():
    from companion.games.battle_royale.assist import ASSIST
    from companion.games.registry import game_names, get_game
    from companion.games.spartacus.fight import Fight

    for game in [*(get_game(n) for n in game_names()), ASSIST]:
        for kind, cls in game.codec.types.items():
            handled = game.state.handles(cls) or (game.name == "spartacus" and Fight.handles(cls))
            assert handled, f"{game.name}: no handler for {kind}"


class _Delegate:
    """A bot that is not a RandomBot: play_out takes its choice through apply."""

    def __init__(self, rng):
        self.bot = RandomBot(rng)

    def choose(self, state):
        return self.bot.choose(state)


class _ListRng:
    """A generator that is not random.Random: its choice is not trusted."""

    def __init__(self, pick):
        self.pick = pick

    def choice(self, seq):
        return self.pick(seq)


def test_play_out_with_the_plain_random_bot_plays_the_same_game_as_through_choose():
    fast = play_out(
        TOY.new_game(ToyConfig(stones=9)), RandomBot(random.Random(3)), Roller.seeded(3).choose
    )
    slow = play_out(
        TOY.new_game(ToyConfig(stones=9)), _Delegate(random.Random(3)), Roller.seeded(3).choose
    )
    assert fast.history == slow.history and fast.snapshot() == slow.snapshot()


def test_play_out_still_refuses_what_another_generator_picks_outside_the_list():
    bot = RandomBot(_ListRng(lambda seq: Take(7)))
    with pytest.raises(IllegalActionError):
        play_out(TOY.new_game(), bot, Roller.seeded(0).choose)


def test_events_are_the_event_records_a_caller_would_make():
    from companion.games.core import Event

    state = dealt()
    assert state.apply(Take(2)) == [Event("took", "red takes 2", {"stones": 2})]


def test_play_out_checks_every_chance_outcome_it_is_handed():
    config = ToyConfig(stones=9)
    copies = play_out(
        TOY.new_game(config),
        RandomBot(random.Random(5)),
        lambda outcomes: Deal(outcomes[0][0].seat, outcomes[0][0].card),  # an equal copy
    )
    assert copies.history[:2] == [Deal(0, "ace"), Deal(1, "ace")] and copies.is_terminal
    with pytest.raises(IllegalActionError):
        play_out(
            TOY.new_game(config), RandomBot(random.Random(5)), lambda outcomes: Deal(0, "joker")
        )
