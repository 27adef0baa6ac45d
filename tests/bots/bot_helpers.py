"""Shared helpers for the bot tests: games played forward to a position with decisions."""

from __future__ import annotations

import random
from typing import Any

from companion.games.registry import get_game
from companion.games.search.mcts import sample_outcome
from companion.games.search.profile import profile_for

GAMES = ("battle-royale", "gladiatoren", "skirmish", "spartacus")


def advance(state: Any, rng: random.Random, steps: int, game: str) -> Any:
    """Play ``steps`` actions with the game's table bot (chance drawn by ``rng``), then on
    to the next decision with more than one option."""
    bot = profile_for(game).heuristic(rng)
    options = profile_for(game).options
    done = 0
    while not state.is_terminal:
        if state.is_chance_node:
            state.apply(sample_outcome(state.chance_outcomes(), rng))
            continue
        if done >= steps and len(options(state)) > 1:
            return state
        state.apply(bot.choose(state))
        done += 1
    return state


def position(game: str, seed: int, steps: int, config: Any = None) -> Any:
    """A position of ``game`` after about ``steps`` actions, at a real decision."""
    g = get_game(game)
    return advance(g.new_game(config), random.Random(seed), steps, game)
