"""The policy bot: random outside a combat, the odds' documented policy inside one.

The uniform random bot every game shares is :class:`companion.games.core.RandomBot`.
"""

from __future__ import annotations

from companion.games.core import RandomBot
from companion.games.kampf_der_gladiatoren import actions as A
from companion.games.kampf_der_gladiatoren.state import GladiatorenState


class PolicyBot(RandomBot):
    """Random outside combat; inside a combat it plays the odds' documented policy.

    Nets, rerolls and gladiators given up follow :data:`odds.POLICY`, so a
    Monte-Carlo run of the engine with this bot reproduces :func:`odds.combat_odds`.
    """

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
        return super().choose(state)
