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
