"""Helpers for table-loop tests: a view that records, simulated hardware on a manual clock,
a whole journalled bot game."""

from __future__ import annotations

import random

from companion.dice import Roller
from companion.games.battle_royale import BattleRoyaleConfig
from companion.hal import HardwareConfig, ManualClock, open_hardware
from companion.table.loop import TrackedTable
from companion.table.people import BotAgent, SimOperator
from companion.table.session import GameSession, SessionSettings


class RecordingView:
    def __init__(self) -> None:
        self.events = []
        self.messages: list[str] = []
        self.prompts: list[str] = []

    def update(self, state, events) -> None:
        self.events.extend(events)

    def message(self, text: str) -> None:
        self.messages.append(text)

    def prompt(self, text: str, options=(), seat=None) -> None:
        self.prompts.append(text)


class AnsweringView(RecordingView):
    """A recording view whose people answer what they see: :meth:`answer` plans presses
    (on simulated hardware) for the next prompt that contains ``at`` (default: an assist
    table's choice), made when that prompt appears, as people at the table press."""

    def __init__(self, hw) -> None:
        super().__init__()
        self.hw = hw
        self.answers: list[tuple[str, tuple[str, ...]]] = []

    def answer(self, *buttons: str, at: str = "SELECT points at") -> None:
        self.answers.append((at, buttons))

    def prompt(self, text: str, options=(), seat=None) -> None:
        super().prompt(text, options, seat)
        if self.answers and self.answers[0][0] in text:
            for button in self.answers.pop(0)[1]:
                self.hw.sim.tap(button)


def sim_hardware(*, ready: bool = True, **config):
    """Simulated hardware on a new manual clock: ``(hw, clock)``; *ready*: the clock then
    moved past the cool-down the solenoid guard counts from its start."""
    clock = ManualClock()
    hw = open_hardware(HardwareConfig(profile="sim", **config), clock=clock)
    if ready:
        clock.advance(hw.eliminator.cooldown_left_s)
    return hw, clock


def bot_table(session, hw, clock, seed, view=None, **options):
    """A tracked table where bots play every seat (seeded) and a simulated operator presses
    the buttons for them, on ``clock``."""
    rng = random.Random(seed)
    return TrackedTable(
        session,
        hw,
        Roller.seeded(seed),
        view if view is not None else RecordingView(),
        {s: BotAgent(rng) for s in range(session.config.players)},
        sleep=clock.sleep,
        operator=SimOperator(hw),
        **options,
    )


def bot_game(path, players=3, seed=5):
    """A whole bot game on simulated hardware, journalled to ``path``: (session, hardware)."""
    hw, clock = sim_hardware()
    config = BattleRoyaleConfig(players=players)
    session = GameSession.start(config, SessionSettings(bots=players, seed=seed), path)
    with hw:
        bot_table(session, hw, clock, seed).run()
    session.journal.close()
    return session, hw


def game_table(game, session, view, *, seed=1, roller=None, agent=None, terminal=None):
    """Any game at a simulated table: every seat ``agent(rng, bot)`` (default a bot; ``bot``
    is the game's own bot where the table uses one), the simulated operator pressing for
    bots; returns ``(table, hw)``."""
    import random

    from companion.dice import Roller
    from companion.games.registry import get_game
    from companion.table.loop import TableLoop, adapter_for
    from companion.table.people import BotAgent, SimOperator

    hw, clock = sim_hardware()
    rng = random.Random(seed)
    make = agent or BotAgent
    own = None if game in ("battle-royale", "gladiatoren") else get_game(game).bot
    agents = {s: make(rng, own(rng) if own else None) for s in range(session.config.players)}
    table = TableLoop(
        session,
        hw,
        roller or Roller.seeded(seed),
        view,
        agents,
        adapter=adapter_for(game),
        sleep=clock.sleep,
        operator=SimOperator(hw),
        terminal=terminal,
    )
    return table, hw
