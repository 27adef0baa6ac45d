"""Hints: the best legal action for the seat to move, with its estimated win chance."""

from __future__ import annotations

import random

import pytest
from bot_helpers import GAMES, position

from companion.games.search import hint
from companion.games.search.mcts import Budget


@pytest.mark.parametrize("game", GAMES)
def test_a_hint_is_a_legal_action_with_a_win_chance(game: str) -> None:
    state = position(game, seed=21, steps=25)
    before = state.snapshot()
    h = hint(game, state, state.current_player, random.Random(1), "easy")
    assert state.snapshot() == before
    assert state.is_legal(h.action)
    assert h.exact or h.iterations > 0
    assert h.win_chance is None or 0.0 <= h.win_chance <= 1.0
    record = h.to_dict()
    assert record["notation"] == h.action.notation and record["action"]["kind"] == h.action.kind


def test_a_hint_is_only_for_the_seat_to_move() -> None:
    state = position("battle-royale", seed=2, steps=10)
    other = (state.current_player + 1) % state.players
    with pytest.raises(ValueError, match="not to move"):
        hint("battle-royale", state, other, random.Random(1))


def test_a_hint_takes_a_budget() -> None:
    state = position("battle-royale", seed=2, steps=10)
    h = hint("battle-royale", state, state.current_player, random.Random(3), Budget(12))
    assert h.iterations == 12
