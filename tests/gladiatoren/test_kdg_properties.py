"""Properties over random legal games: conservation, scores, replay, illegal actions refused.

Games are driven like the table drives them: chance nodes resolved with
``Roller.seeded(seed).choose(state.chance_outcomes())``, choices uniform among
the legal actions.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.dice import Roller
from companion.games.core import RandomBot, play_out
from companion.games.kampf_der_gladiatoren import (
    CHANCE,
    TERMINAL,
    GladiatorenConfig,
    IllegalActionError,
    new_game,
    replay,
)
from companion.games.kampf_der_gladiatoren import actions as A
from companion.games.kampf_der_gladiatoren.bot import PolicyBot
from companion.games.kampf_der_gladiatoren.rules import KINDS, TEAM_SIZE

PROPERTY_SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
configs = st.builds(GladiatorenConfig, players=st.integers(2, 5), start_player=st.integers(0, 1))
seeds = st.integers(0, 2**32 - 1)
LOCATIONS = {"stack", "drawn", "board", "beside", "stable", "box"}


def check_invariants(state) -> None:
    data = state.config.data
    for k in range(len(KINDS)):
        on_board = sum(t.active[k] + t.inactive[k] for t in state.teams.values())
        stables = sum(s[k] for s in state.stables)
        assert state.supply[k] + state.box[k] + stables + on_board == data.supply[k], KINDS[k]
        assert min(state.supply[k], state.box[k], stables) >= 0
    assert all(loc in LOCATIONS for loc in state.animal_loc)
    assert len(state.animal_loc) == len(data.animals)
    for field, piece in enumerate(state.board):
        if piece is None:
            continue
        if piece[0] == "team":
            assert state.teams[piece[1]].field == field
        else:
            assert state.animal_loc[piece[1]] == "board" and state.animal_field[piece[1]] == field
    for team in state.teams.values():
        assert state.board[team.field] == ("team", team.id)
        assert 1 <= team.size <= TEAM_SIZE or (state.combat is not None and team.size == 0)
        assert min(team.active + team.inactive) >= 0
        assert team.stars in (0, 1)
        if state.combat is None:
            assert sum(team.inactive) == 0
    for i, loc in enumerate(state.animal_loc):
        assert (loc == "board") == (state.animal_field[i] is not None)
        assert 0 <= state.animal_stars[i] < data.animals[i].hits or loc != "board"
        assert (loc == "stable") == (state.animal_owner[i] is not None)
    if state.is_chance_node:
        assert state.current_player == CHANCE
        assert sum(p for _, p in state.chance_outcomes()) == Fraction(1)
    elif state.is_terminal:
        assert state.current_player == TERMINAL and state.legal_actions() == []
        assert not state.teams and sum(state.supply) == 0
        assert sum(map(sum, state.stables)) + sum(state.box) == sum(data.supply)
        points = sum(map(sum, state.stables)) + 2 * sum(
            1 for loc in state.animal_loc if loc == "stable"
        )
        assert sum(state.scores()) == points
        top = max(state.scores())
        assert state.winners == [s for s in range(state.players) if state.scores()[s] == top]
    else:
        assert 0 <= state.current_player < state.players
        assert state.legal_actions()


def wrong_actions(state, rng: random.Random) -> list[A.Action]:
    """Well-formed actions of every kind, most of them illegal now."""
    f = list(state.field_ids)
    k = list(KINDS)
    return [
        A.PlaceCarrier(rng.choice(f), rng.choice(k)),
        A.AddGladiator(rng.choice(f), rng.choice(k)),
        A.PlaceAnimal(rng.choice(f)),
        A.Challenge(rng.choice(f), rng.choice(f), rng.choice(f)),
        A.UseAnimal(rng.choice(state.animal_ids), rng.choice(f), rng.choice(f)),
        A.Net(rng.choice(k)),
        A.Reroll(),
        A.Keep(),
        A.GiveUp(rng.choice(k), rng.random() < 0.5),
        A.Roll(rng.randrange(3), rng.randrange(3), rng.randrange(3)),
        A.DrawAnimal(rng.choice(state.animal_ids)),
        A.Challenge("Z", "Z", "A"),
        A.UseAnimal("unicorn", "A", "B"),
    ]


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(config=configs, seed=seeds)
def test_random_games_keep_every_invariant_and_replay_identically(config, seed):
    state = new_game(config)
    roller = Roller.seeded(seed)
    rng = random.Random(seed)
    check_invariants(state)
    steps = 0
    while not state.is_terminal:
        if steps % 7 == 0:
            for wrong in wrong_actions(state, rng):
                if wrong in state.legal_actions():
                    continue
                before = state.snapshot()
                try:
                    state.apply(wrong)
                except IllegalActionError as exc:
                    assert exc.rule and exc.reason and exc.action == wrong
                else:  # pragma: no cover
                    raise AssertionError(f"{wrong.notation} was accepted in {state.phase}")
                assert state.snapshot() == before
        action = (
            roller.choose(state.chance_outcomes())
            if state.is_chance_node
            else rng.choice(state.legal_actions())
        )
        state.apply(action)
        check_invariants(state)
        steps += 1
        assert steps < 20_000
    again = replay(config, state.history)
    assert again.snapshot() == state.snapshot()
    logged = [a.to_dict() for a in state.history]
    from companion.games.kampf_der_gladiatoren import action_from_dict, parse_action

    assert [action_from_dict(d) for d in logged] == state.history
    assert [parse_action(a.notation) for a in state.history] == state.history


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 5), seed=seeds)
def test_policy_bot_games_end_too(players, seed):
    state = new_game(GladiatorenConfig(players=players))
    roller = Roller.seeded(seed)
    bot = PolicyBot(random.Random(seed))
    while not state.is_terminal:
        state.apply(
            roller.choose(state.chance_outcomes()) if state.is_chance_node else bot.choose(state)
        )
    check_invariants(state)


def test_play_random_game_is_repeatable():
    config = GladiatorenConfig(players=4)
    a = play_out(new_game(config), RandomBot(random.Random(11)), Roller.seeded(11).choose)
    b = play_out(new_game(config), RandomBot(random.Random(11)), Roller.seeded(11).choose)
    assert a.history == b.history and a.is_terminal
