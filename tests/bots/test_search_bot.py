"""The search bot in every game: legal moves, repeatable, never changes the state, its
budget (iterations, a clock passed in, a stop request), the worker-process entry point."""

from __future__ import annotations

import random

import pytest
from bot_helpers import GAMES, position

from companion.games.registry import get_game
from companion.games.search import SearchBot, think
from companion.games.search.bot import LEVELS, budget_of
from companion.games.search.mcts import Budget, search
from companion.games.search.profile import profile_for


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("steps", [0, 40])
def test_the_bot_chooses_a_legal_action_and_leaves_the_state_alone(game: str, steps: int) -> None:
    state = position(game, seed=7, steps=steps)
    before = state.snapshot()
    bot = SearchBot(game, random.Random(3), "easy")
    action = bot.choose(state)
    assert state.snapshot() == before
    assert state.is_legal(action)
    assert action in profile_for(game).options(state)


@pytest.mark.parametrize("game", GAMES)
def test_a_seeded_search_is_repeatable(game: str) -> None:
    state = position(game, seed=11, steps=20)
    first = SearchBot(game, random.Random(5), "easy").search(state)
    second = SearchBot(game, random.Random(5), "easy").search(state)
    assert first == second


def test_root_statistics_add_up() -> None:
    state = position("battle-royale", seed=3, steps=10)
    result = search(state, profile_for("battle-royale"), Budget(50), random.Random(1))
    assert result.iterations == 50
    assert sum(c.visits for c in result.choices) == 50
    assert result.best.visits == max(c.visits for c in result.choices)
    assert {c.action for c in result.choices} == set(profile_for("battle-royale").options(state))
    assert all(0.0 <= c.win_chance <= 1.0 for c in result.choices if c.visits)


def test_a_clock_passed_in_caps_the_search() -> None:
    state = position("battle-royale", seed=3, steps=10)
    ticks = iter(range(1000))
    result = search(
        state,
        profile_for("battle-royale"),
        Budget(iterations=500, seconds=4.5),
        random.Random(1),
        clock=lambda: float(next(ticks)),  # one second per call
    )
    assert result.iterations == 5  # the deadline (start + 4.5) passed after five iterations


def test_a_stop_request_ends_the_search_with_a_legal_move() -> None:
    state = position("gladiatoren", seed=3, steps=30)
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) >= 3

    result = search(state, profile_for("gladiatoren"), Budget(500), random.Random(1), stop=stop)
    assert result.iterations == 3
    assert state.is_legal(result.best.action)


def test_levels_grow_and_unknown_levels_are_refused() -> None:
    for game in GAMES:
        its = [budget_of(game, level).iterations for level in LEVELS]
        assert its == sorted(its) and its[0] >= 1
    with pytest.raises(ValueError, match="levels: easy, normal, strong"):
        SearchBot("battle-royale", random.Random(), "grandmaster")
    with pytest.raises(KeyError, match="no search bot"):
        SearchBot("chess", random.Random())


def test_a_forced_move_is_not_searched() -> None:
    state = position("battle-royale", seed=3, steps=10)
    while len(profile_for("battle-royale").options(state)) > 1 or state.is_chance_node:
        if state.is_chance_node:
            state.apply(state.chance_outcomes()[0][0])
        else:
            state.apply(profile_for("battle-royale").options(state)[0])
    result = SearchBot("battle-royale", random.Random(1)).search(state)
    assert result.iterations == 0 and result.best.action in state.legal_actions()


@pytest.mark.parametrize("game", GAMES)
def test_think_rebuilds_the_game_from_plain_data(game: str) -> None:
    """The worker-process entry point: config and history as dicts in, an action dict out."""
    g = get_game(game)
    state = position(game, seed=5, steps=15)
    answer = think(
        game,
        state.config.to_dict(),
        [a.to_dict() for a in state.history],
        random.Random(2),
        level="easy",
    )
    assert state.is_legal(g.action_from_dict(answer))
    assert answer == SearchBot(game, random.Random(2), "easy").choose(state).to_dict()
