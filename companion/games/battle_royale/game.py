"""Battle Royale as the registry sees it: the engine, its configuration, codec and bot."""

from __future__ import annotations

from companion.games.battle_royale.actions import CODEC
from companion.games.battle_royale.config import BattleRoyaleConfig
from companion.games.battle_royale.privacy import PRIVACY
from companion.games.battle_royale.state import BattleRoyaleState
from companion.games.core import Game, RandomBot

GAME = Game(
    name="battle-royale",
    title="Battle Royale",
    state=BattleRoyaleState,
    config=BattleRoyaleConfig,
    codec=CODEC,
    bot=RandomBot,
    builtin_data="battle_royale.json",
    privacy=PRIVACY,
)
