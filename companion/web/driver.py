"""A table without hardware, played from phones: the stand-in for the table loop.

:class:`PhoneTable` plays one game (a :class:`~companion.table.session.GameSession`, so
every action is journalled and undo works as at the table) with a
:class:`~companion.web.hub.WebHub` as its view: seats played by people choose through
their :class:`~companion.web.agent.WebAgent`; bots play the other seats; chance nodes
are rolled by the roller, or entered from the rolling seat's phone when the table
rolls physical dice. It uses the table's own ``decide`` (commit, undo, refusals), so a
phone's move is the same journalled action as a move typed at the terminal; the hardware
table loops take the hub in the same two places (the view and the agents).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from companion.dice import Roller
from companion.table.loop import adapter_for, decide
from companion.table.people import TableStopped
from companion.web.agent import WebAgent
from companion.web.hub import WebHub
from companion.web.odds import is_dice


class PhoneTable:
    """One game played through ``hub``. ``people``: the seats played from phones (the
    rest are bots); ``physical_dice``: chance nodes are entered from a phone."""

    def __init__(
        self,
        session: Any,
        hub: WebHub,
        roller: Roller,
        *,
        people: set[int],
        bot: Callable[[int], Any],
        physical_dice: bool = False,
    ) -> None:
        self.session = session
        self.hub = hub
        self.roller = roller
        self.stop = threading.Event()
        self.physical_dice = physical_dice
        self.agents: dict[int, Any] = {}
        # never another seat's cards; long lists as at the terminal (step by step)
        adapter = adapter_for(session.settings.game)
        for seat in range(hub.players):
            if seat in people:
                self.agents[seat] = WebAgent(
                    hub, seat, undoable=session.undoable, stop=self.stop, adapter=adapter
                )
            else:
                self.agents[seat] = bot(seat)

    @property
    def state(self) -> Any:
        return self.session.state

    def run(self) -> Any:
        """Play to the end (or until :attr:`stop` is set); returns the final state."""
        self.hub.update(self.state, list(getattr(self.state, "initial_events", [])))
        try:
            while not self.state.is_terminal:
                self.step()
        except TableStopped:
            return self.state
        self.session.finish()
        return self.state

    def step(self) -> list[Any]:
        if self.state.is_chance_node:
            action = self.roll()
        else:
            agent = self.agents[self.state.current_player]
            action = decide(self.session, agent, self.hub)
            if action is None:  # an undo rebuilt the state
                self.hub.update(self.state, [])
                return []
        events = self.session.apply(action)
        self.hub.update(self.state, events)
        return events

    def roll(self) -> Any:
        """A chance node: the roller's draw, or a seat's physical dice from its phone."""
        outcomes = self.state.chance_outcomes()
        seat = getattr(self.state, "active", None)
        agent = self.agents.get(seat) if isinstance(seat, int) else None
        if self.physical_dice and isinstance(agent, WebAgent) and is_dice(outcomes[0][0]):
            action = agent.enter_dice(outcomes, "roll your dice and enter what they show")
        else:
            action = self.roller.choose(outcomes)
        self.session.commit(action)  # durable before it is shown
        return action
