"""Bots: a random bot for any seat, and a helper that plays a whole random game."""

from __future__ import annotations

import random

from companion.games.kampf_der_gladiatoren import actions as A
from companion.games.kampf_der_gladiatoren.state import GladiatorenState


class RandomBot:
    """Plays any seat: a uniform choice among the legal actions."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: GladiatorenState) -> A.Action:
        return self.rng.choice(state.legal_actions())


def play_random_game(
    state: GladiatorenState, seed: int, max_actions: int = 100_000
) -> GladiatorenState:
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


class PolicyBot:
    """Random outside combat; inside a combat it plays the odds' documented policy.

    Nets, rerolls and gladiators given up follow :data:`odds.POLICY`, so a
    Monte-Carlo run of the engine with this bot reproduces :func:`odds.combat_odds`.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: GladiatorenState) -> A.Action:
        from companion.games.kampf_der_gladiatoren import odds
        from companion.games.kampf_der_gladiatoren.rules import KINDS

        c = state.combat
        if c is not None and state.phase == "net":
            opponent = state.side_team(1 - c.net_side)
            return A.Net(KINDS[odds.net_choice(opponent.active, c.net_side == c.first)])
        if c is not None and state.phase == "give_up":
            team = state.side_team(1 - c.striker)
            k, inactive = odds.give_up_choice(team.active, team.inactive)
            return A.GiveUp(KINDS[k], inactive)
        if c is not None and state.phase == "reroll":
            assert c.roll is not None
            striker = odds.fighter_from_state(state, c.striker)
            target = odds.fighter_from_state(state, 1 - c.striker)
            again = odds.should_reroll(
                striker, target, c.roll, c.strikes == 0, state.config.die_faces()
            )
            return A.Reroll() if again else A.Keep()
        return self.rng.choice(state.legal_actions())
