"""Kampf der Gladiatoren at the table: one game, one hardware set, one journal.

Every action goes ``session.commit(action)`` (checked and journalled durably)
then ``session.apply(action)``. The session is any object with ``state``,
``commit``, ``apply``, ``undo`` and ``finish``: the shared
:class:`companion.table.session.GameSession`.

Dice on hardware: a roll waits for the ROLL button (pressed for bots by a
:class:`~companion.table.people.SimOperator` on simulated hardware), then shows
each die on the arena display, five dice per row from the top left:

=================  ======================
cell state         die face
=================  ======================
``HIGHLIGHT``      two red stars (double)
``FIELD``          one yellow star (single)
``OFF``            blank
=================  ======================

Cells after the last die stay ``OFF``; the arena itself is drawn on the screen.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from companion.dice import Roller
from companion.games.kampf_der_gladiatoren import (
    GladiatorenConfig,
)
from companion.games.kampf_der_gladiatoren import actions as A
from companion.games.kampf_der_gladiatoren.events import Event
from companion.games.kampf_der_gladiatoren.odds import odds_for_challenge
from companion.hal import ARENA_SIZE, CellState, Hardware
from companion.table.loop import decide
from companion.table.people import Agent, SimOperator, TableStopped, TerminalInput
from companion.table.session import GameSession, SessionSettings, UndoRefused

GAME = "gladiatoren"
POLL_S = 0.05
DIE_CELL = {
    "two_red_stars": CellState.HIGHLIGHT,
    "one_yellow_star": CellState.FIELD,
    "blank": CellState.OFF,
}


class _Undone(Exception):
    """A person typed undo while the table waited for the ROLL button."""


def dice_frame(faces: Sequence[str], size: int = ARENA_SIZE) -> tuple[tuple[CellState, ...], ...]:
    """The arena display showing ``faces`` (die face ids), ``size`` dice per row."""
    cells = [DIE_CELL[f] for f in faces[: size * size]]
    cells += [CellState.OFF] * (size * size - len(cells))
    return tuple(tuple(cells[r * size : (r + 1) * size]) for r in range(size))


def local_session(state: Any) -> GameSession:
    """A session without a journal around a state (a combat position, a test)."""
    return GameSession(state, state.config, SessionSettings(game=GAME), barrier=len(state.history))


def start_session(
    config: GladiatorenConfig,
    *,
    bots: int,
    hardware: str,
    seed: int | None,
    journal_path: str | Path | None,
) -> GameSession:
    """A new session with its journal (the shared :class:`GameSession`)."""
    settings = SessionSettings(mode="tracked", bots=bots, hardware=hardware, seed=seed, game=GAME)
    return GameSession.start(config, settings, journal_path)


class GladiatorenTable:
    """Tracked play: the engine runs the game; every seat has an agent (bot or person)."""

    def __init__(
        self,
        session: Any,
        hw: Hardware,
        roller: Roller,
        view: Any,
        agents: dict[int, Agent],
        *,
        sleep: Callable[[float], None] = time.sleep,
        operator: SimOperator | None = None,
        terminal: TerminalInput | None = None,
        show_odds: bool = True,
    ) -> None:
        if not hasattr(session, "commit"):  # a bare state: play it without a journal
            session = local_session(session)
        self.session = session
        self.hw = hw
        self.roller = roller
        self.view = view
        self.agents = agents
        self.sleep = sleep
        self.operator = operator
        self.terminal = terminal
        self.show_odds = show_odds
        self.rolls: list[list[str]] = []  # every roll shown on the display, as face ids
        self.events: list[Event] = []  # every event of the actions this loop applied

    @property
    def state(self) -> Any:
        return self.session.state

    def seat_is_bot(self, seat: int) -> bool:
        return bool(getattr(self.agents.get(seat), "is_bot", False))

    # -- the loop ----------------------------------------------------------------------

    def run(self) -> Any:
        """Play to the end of the game; returns the final state."""
        self.view.update(self.state, [])
        self.show_turn()
        while not self.state.is_terminal:
            self.step()
        self.session.finish()
        self.hw.status_leds.show_turn(None)
        return self.state

    def run_combat(self) -> Any:
        """Play until the combat under way (or about to start) is over."""
        started = self.state.combat is not None
        while not self.state.is_terminal and (self.state.combat is not None or not started):
            if self.state.combat is not None:
                started = True
            self.step()
        return self.state

    def step(self) -> list[Event]:
        if self.state.is_chance_node:
            try:
                action = self.resolve_chance()
            except _Undone:
                self.view.message("undone: back to the last choice")
                self.view.update(self.state, [])
                return []
        else:
            action = self.decide()
            if action is None:  # an undo rebuilt the state
                self.view.update(self.state, [])
                return []
        events = self.session.apply(action)
        self.events.extend(events)
        self.react(events)
        self.view.update(self.state, events)
        return events

    def decide(self) -> Any:
        """The current seat's choice, committed to the journal; ``None`` after an undo."""
        action = decide(self.session, self.agents[self.state.current_player], self.view)
        if self.show_odds and isinstance(action, A.Challenge | A.UseAnimal):
            self.view.message(self.odds_message(action))
        return action

    def odds_message(self, action: A.Challenge | A.UseAnimal) -> str:
        from companion.ui.gladiatoren import odds_line

        state = self.state
        if isinstance(action, A.Challenge):
            attacker = state.board[state.arena.index(action.team)]
        else:
            attacker = ("animal", state.animal_index(action.animal))
        target = state.board[state.arena.index(action.target)]
        return odds_line(odds_for_challenge(state, attacker, target))

    # -- chance: the dice --------------------------------------------------------------

    def resolve_chance(self) -> Any:
        outcomes = self.state.chance_outcomes()
        if isinstance(outcomes[0][0], A.Roll):
            c = self.state.combat
            seat = self.state.decider(c.striker)
            n = self.state.dice_for(c.striker)
            who = self.state.colours[seat]
            if self.state.side_is_animal(c.striker):
                who += f" for the {self.state.animal_ids[c.pieces[c.striker][1]]}"
            self.wait_for(
                {"roll"}, f"{who}: press ROLL for {n} star {'die' if n == 1 else 'dice'}", seat=seat
            )
            action = self.roller.choose(outcomes)
            self.session.commit(action)  # durable before the dice are shown
            self.show_dice(action)
            return action
        action = self.roller.choose(outcomes)
        self.session.commit(action)
        return action

    def show_dice(self, roll: A.Roll) -> None:
        from companion.ui.gladiatoren import roll_faces

        faces = roll_faces(roll.counts)
        self.rolls.append(faces)
        self.hw.display.show(dice_frame(faces, self.hw.display.size))

    def wait_for(self, buttons: Iterable[str], prompt: str, *, seat: int | None = None) -> Any:
        """Wait for a press of one of ``buttons`` (a person may type ``roll`` on sim hardware).

        A simulated operator presses for a bot's seat, or for every seat when
        nobody is at the terminal.
        """
        buttons = set(buttons)
        self.view.prompt(prompt)
        if self.operator is not None and (
            self.terminal is None or (seat is not None and self.seat_is_bot(seat))
        ):
            self.operator.press(sorted(buttons)[0])
        elif self.terminal is not None:
            self.view.message(
                f"{prompt} (type 'roll' or 'r' on simulated hardware; 'undo' "
                "takes back your last choice)"
            )
        while True:
            event = self.hw.next_input(timeout=0 if self.terminal else POLL_S)
            if event is not None:
                if event.button in buttons and event.kind == "press":
                    return event
                continue
            if self.terminal is not None:
                line = self.terminal.poll(POLL_S)
                if line is None:
                    continue
                if line in ("quit", "q"):
                    raise TableStopped("quit")
                if line == "undo" or line.startswith("undo "):
                    count = line[5:].strip() or "1"
                    try:
                        self.session.undo(int(count) if count.isdigit() else 1)
                    except UndoRefused as exc:
                        self.view.message(str(exc))
                        continue
                    raise _Undone
                if line.lower() in ("roll", "r") and self.hw.sim is not None:
                    self.hw.sim.tap("roll", 0.03)
                elif self.hw.sim is None:
                    self.view.message("on real hardware, press the ROLL button")
                else:
                    self.view.message(f"{line!r}: type roll (or r) to roll, quit to stop")

    # -- events onto hardware ----------------------------------------------------------

    def show_turn(self, seat: int | None = None) -> None:
        colours = self.hw.status_leds.colours
        state = self.state
        if seat is None:
            seat = state.entry_seat if state.phase == "entry" else state.active
        colour = state.colours[seat]
        self.hw.status_leds.show_turn(colour if colour in colours else None)

    def react(self, events: Sequence[Event]) -> None:
        for event in events:
            if event.kind == "turn_started":
                self.show_turn(event.data["seat"])
