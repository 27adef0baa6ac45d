"""Spartacus: Intrigen, Blut & Verrat (Gale Force Nine): the rules engine.

``SpartacusConfig`` -> ``new_game(config)`` -> a :class:`SpartacusState` that
changes only through ``apply(action)``. A config with ``fight=(I, II)`` is a
single arena fight (the combat assistant). See ``docs/rules/spartacus.md``.
"""

from companion.games.registry import GameInfo
from companion.games.spartacus.actions import Action, action_from_dict, parse_action
from companion.games.spartacus.config import ConfigError, FighterSpec, SpartacusConfig
from companion.games.spartacus.events import Event
from companion.games.spartacus.state import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    SpartacusState,
    new_game,
    replay,
)


def _bot(rng):  # noqa: ANN001, ANN202 - the registry's signature
    from companion.games.spartacus.bot import SimpleBot

    return SimpleBot(rng)


_INFO = {
    "name": "spartacus",
    "title": "Spartacus: Intrigen, Blut & Verrat",
    "config_from_dict": SpartacusConfig.from_dict,
    "new_game": new_game,
    "replay": replay,
    "action_from_dict": action_from_dict,
    "parse_action": parse_action,
    "bot": _bot,
    "builtin_data": "spartacus.json",
}
# builtin_data is new in GameInfo (the generic journal names the data file by it)
GAME = GameInfo(**{k: v for k, v in _INFO.items() if k in GameInfo.__dataclass_fields__})

__all__ = [
    "CHANCE",
    "GAME",
    "TERMINAL",
    "Action",
    "ConfigError",
    "Event",
    "FighterSpec",
    "IllegalActionError",
    "SpartacusConfig",
    "SpartacusState",
    "action_from_dict",
    "new_game",
    "parse_action",
    "replay",
]
