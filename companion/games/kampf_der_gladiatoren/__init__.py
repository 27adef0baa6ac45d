"""Kampf der Gladiatoren (Reiner Knizia, Hans im Glück, 2002): the complete rules engine.

``GladiatorenConfig`` -> ``new_game(config)`` -> a :class:`GladiatorenState` that
changes only through ``apply(action)``. ``odds.combat_odds`` gives the exact
loss distribution of a combat. See ``docs/rules/kampf-der-gladiatoren.md``.
"""

from companion.games.kampf_der_gladiatoren.actions import (
    Action,
    ActionFormatError,
    action_from_dict,
    parse_action,
)
from companion.games.kampf_der_gladiatoren.config import (
    COLOURS,
    ConfigError,
    GladiatorenConfig,
)
from companion.games.kampf_der_gladiatoren.events import Event
from companion.games.kampf_der_gladiatoren.rules import KINDS
from companion.games.kampf_der_gladiatoren.state import (
    CHANCE,
    TERMINAL,
    GladiatorenState,
    IllegalActionError,
    new_game,
    replay,
)
from companion.games.registry import GameInfo


def _bot(rng):  # noqa: ANN001, ANN202 - the registry's signature
    from companion.games.kampf_der_gladiatoren.bot import RandomBot

    return RandomBot(rng)


GAME = GameInfo(
    name="gladiatoren",
    title="Kampf der Gladiatoren",
    config_from_dict=GladiatorenConfig.from_dict,
    new_game=new_game,
    replay=replay,
    action_from_dict=action_from_dict,
    parse_action=parse_action,
    bot=_bot,
    builtin_data="gladiatoren.json",
)

__all__ = [
    "CHANCE",
    "COLOURS",
    "GAME",
    "KINDS",
    "TERMINAL",
    "Action",
    "ActionFormatError",
    "ConfigError",
    "Event",
    "GladiatorenConfig",
    "GladiatorenState",
    "IllegalActionError",
    "action_from_dict",
    "new_game",
    "parse_action",
    "replay",
]
