"""Battle Royale (Kosmos / Identity Games, 2024): the complete rules engine.

``BattleRoyaleConfig`` -> ``new_game(config)`` -> a :class:`BattleRoyaleState`
that changes only through ``apply(action)``. See ``docs/rules/battle-royale.md``.
"""

from companion.games.battle_royale.actions import Action, action_from_dict, parse_action
from companion.games.battle_royale.config import COLOURS, BattleRoyaleConfig, ConfigError
from companion.games.battle_royale.events import Event
from companion.games.battle_royale.state import (
    CHANCE,
    TERMINAL,
    BattleRoyaleState,
    IllegalActionError,
    new_game,
    replay,
)
from companion.games.registry import GameInfo


def _bot(rng):  # noqa: ANN001, ANN202 - the registry's signature
    from companion.games.battle_royale.bot import RandomBot

    return RandomBot(rng)


GAME = GameInfo(
    name="battle-royale",
    title="Battle Royale",
    config_from_dict=BattleRoyaleConfig.from_dict,
    new_game=new_game,
    replay=replay,
    action_from_dict=action_from_dict,
    parse_action=parse_action,
    bot=_bot,
    builtin_data="battle_royale.json",
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
