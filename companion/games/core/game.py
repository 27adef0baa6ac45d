"""A game as the rest of the companion sees it (OpenSpiel's Game): one :class:`Game` per
engine, registered by name in :mod:`companion.games.registry`.

The table, the journal, ``companion replay`` and the web view need nothing else of an
engine: how to build its config from a journal header, start and replay a game, read an
action from a journal dict or from typed notation, make a bot, and show a state or an
event to one seat.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import field
from typing import Any, Generic, Protocol, TypeVar

from companion.games.core.actions import Action, ActionCodec
from companion.games.core.bots import Bot, Rng
from companion.games.core.events import Event
from companion.games.core.state import GameState
from companion.games.core.views import Privacy, view
from companion.records import Record

S = TypeVar("S", bound=GameState)


class Config(Protocol):
    """What a game's config offers: a dict form for journal headers."""

    def to_dict(self) -> dict[str, Any]: ...


class Game(Record, Generic[S]):
    """One game the companion runs.

    - ``name``: the registry's name (``battle-royale``); ``title``: for people;
    - ``state``: the engine's :class:`GameState` class; ``config``: its config class
      (called with no arguments for the default game; ``from_dict`` for journals);
    - ``codec``: reads actions from journal dicts and from notation;
    - ``bot(rng)``: the game's table bot, playing with the generator it is given;
    - ``builtin_data``: the game's data file in ``companion/data``, if it has one;
    - ``privacy``: what of the state is private to a seat or hidden (:mod:`.views`).
    """

    name: str
    title: str
    state: type[S]
    config: Any
    codec: ActionCodec[Any]
    bot: Callable[[Rng], Bot]
    builtin_data: str | None = None
    privacy: Privacy = field(default_factory=Privacy)

    def new_game(self, config: Any = None) -> S:
        """A fresh game (``None``: the default config)."""
        return self.state(config if config is not None else self.config())

    def replay(self, config: Any, history: Iterable[Action]) -> S:
        """Rebuild a game from its config and action log; every action is checked again."""
        return self.state.replay(config, history)

    def config_from_dict(self, data: dict[str, Any]) -> Any:
        return self.config.from_dict(data)

    def action_from_dict(self, data: Any) -> Action:
        return self.codec.from_dict(data)

    def parse_action(self, text: str) -> Action:
        return self.codec.parse(text)

    def view(self, state: S, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see of ``state``; ``None``: the table's shared screen."""
        return view(self.name, state, self.privacy, seat)

    @staticmethod
    def event_view(event: Event, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see of ``event``; ``None``: the table's shared screen."""
        return event.seen_by(seat)
