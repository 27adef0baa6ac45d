"""Arena skirmish (a tactical gladiator game; the rulebook gives no title): the rules engine.

``SkirmishConfig`` -> ``new_game(config)`` -> a :class:`SkirmishState` that changes only
through ``apply(action)``; :data:`GAME` is the game as the registry sees it. See
``docs/rules/arena-skirmish.md``.
"""

from companion.games.arena_skirmish.actions import CODEC, Action, action_from_dict, parse_action
from companion.games.arena_skirmish.bot import SkirmishBot
from companion.games.arena_skirmish.config import COLOURS, ConfigError, SkirmishConfig
from companion.games.arena_skirmish.events import Event
from companion.games.arena_skirmish.privacy import PRIVACY
from companion.games.arena_skirmish.state import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    SkirmishState,
    new_game,
    replay,
)
from companion.games.core import Game

GAME = Game(
    name="skirmish",
    title="Arena skirmish",
    state=SkirmishState,
    config=SkirmishConfig,
    codec=CODEC,
    bot=SkirmishBot,
    builtin_data="arena_skirmish.json",
    privacy=PRIVACY,
)

__all__ = [
    "CHANCE",
    "COLOURS",
    "GAME",
    "TERMINAL",
    "Action",
    "ConfigError",
    "Event",
    "IllegalActionError",
    "SkirmishConfig",
    "SkirmishState",
    "action_from_dict",
    "new_game",
    "parse_action",
    "replay",
]
