"""Battle Royale (Kosmos / Identity Games, 2024): the complete rules engine.

``BattleRoyaleConfig`` -> ``new_game(config)`` -> a :class:`BattleRoyaleState` that changes
only through ``apply(action)``; :data:`GAME` is the game as the registry sees it. Assist
mode (the pieces on the table are the truth) is :mod:`.assist`. See
``docs/rules/battle-royale.md``.
"""

from companion.games.battle_royale.actions import CODEC, Action, action_from_dict, parse_action
from companion.games.battle_royale.config import COLOURS, BattleRoyaleConfig, ConfigError
from companion.games.battle_royale.events import Event
from companion.games.battle_royale.privacy import PRIVACY
from companion.games.battle_royale.state import (
    CHANCE,
    TERMINAL,
    BattleRoyaleState,
    IllegalActionError,
    new_game,
    replay,
)
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

__all__ = [
    "CHANCE",
    "COLOURS",
    "TERMINAL",
    "Action",
    "BattleRoyaleConfig",
    "BattleRoyaleState",
    "GAME",
    "ConfigError",
    "Event",
    "IllegalActionError",
    "action_from_dict",
    "new_game",
    "parse_action",
    "replay",
]
