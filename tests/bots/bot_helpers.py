"""Shared helpers for the bot tests: games played forward to a position with decisions."""

from __future__ import annotations

import random
from typing import Any

from companion.games.registry import get_game
from companion.games.search.clone import clone
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


def swap_hidden_card(state: Any, other: int, game: str) -> Any:
    """A copy of ``state`` where ``other`` holds a different card (taken from the hidden
    pile its hand is drawn from) - the same for every seat but ``other``."""
    alt = clone(state)
    hand = alt.hands[other]
    pile = alt.draw_piles[other] if game == "battle-royale" else alt.intrigue_deck
    give = next(c for c, n in sorted(hand.items()) if n)
    take = next((c for c, n in sorted(pile.items()) if n and c != give), None)
    if take is None:
        return None
    hand[give] -= 1
    pile[give] = pile.get(give, 0) + 1
    pile[take] -= 1
    hand[take] = hand.get(take, 0) + 1
    return alt
