"""A random bot: picks uniformly among the legal choices, never a correction."""

from __future__ import annotations

import random

from companion.games.battle_royale import actions as A
from companion.games.battle_royale.state import BattleRoyaleState


class RandomBot:
    """Plays any seat. Corrections are for real tables, so the bot only ends them."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: BattleRoyaleState) -> A.Action:
        legal = [a for a in state.legal_actions() if not a.is_correction]
        return self.rng.choice(legal)


def play_random_game(
    state: BattleRoyaleState, seed: int, max_actions: int = 100_000
) -> BattleRoyaleState:
    """Play ``state`` to its end with random bots in every seat, chance from a seeded roller."""
    from companion.dice import Roller

    roller = Roller.seeded(seed)
    bot = RandomBot(random.Random(seed))
    for _ in range(max_actions):
        if state.is_terminal:
            return state
        if state.is_chance_node:
            state.apply(roller.choose(state.chance_outcomes()))
        else:
            state.apply(bot.choose(state))
    raise RuntimeError(f"game not finished after {max_actions} actions")
