"""Arena skirmish (a tactical gladiator game; the rulebook gives no title): the rules engine.

``SkirmishConfig`` -> ``new_game(config)`` -> a :class:`SkirmishState` that changes only
through ``apply(action)``. See ``docs/rules/arena-skirmish.md``.
"""

from companion.games.arena_skirmish.actions import Action, action_from_dict, parse_action
from companion.games.arena_skirmish.config import COLOURS, ConfigError, SkirmishConfig
from companion.games.arena_skirmish.events import Event
from companion.games.arena_skirmish.state import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    SkirmishState,
    new_game,
    replay,
)
from companion.games.registry import GameInfo


def _bot(rng):  # noqa: ANN001, ANN202 - the registry's signature
    from companion.games.arena_skirmish.bot import SkirmishBot

    return SkirmishBot(rng)


GAME = GameInfo(
    name="skirmish",
    title="Arena skirmish",
    config_from_dict=SkirmishConfig.from_dict,
    new_game=new_game,
    replay=replay,
    action_from_dict=action_from_dict,
    parse_action=parse_action,
    bot=_bot,
    builtin_data="arena_skirmish.json",
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
