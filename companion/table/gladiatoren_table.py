"""Kampf der Gladiatoren at the table: one game, one hardware set, one journal.

Every action goes ``session.commit(action)`` (checked and journalled durably)
then ``session.apply(action)``. The session is any object with ``state``,
``commit``, ``apply``, ``undo`` and ``finish``: the generalised
:class:`companion.table.session.GameSession` once it runs every registered
game, until then :class:`LocalSession` here (the same order and journal format).

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
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from companion import __version__
from companion.dice import Roller
from companion.games.kampf_der_gladiatoren import (
    GladiatorenConfig,
    IllegalActionError,
    new_game,
    replay,
)
from companion.games.kampf_der_gladiatoren import actions as A
from companion.games.kampf_der_gladiatoren.events import Event
from companion.games.kampf_der_gladiatoren.odds import odds_for_challenge
from companion.hal import ARENA_SIZE, CellState, Hardware
from companion.table.journal import FORMAT, JournalWriter, file_sha256, state_digest
from companion.table.people import Agent, SimOperator, TableStopped, TerminalInput, UndoRequest
from companion.table.session import UndoRefused as SessionUndoRefused

GAME = "gladiatoren"
POLL_S = 0.05
DIE_CELL = {
    "two_red_stars": CellState.HIGHLIGHT,
    "one_yellow_star": CellState.FIELD,
    "blank": CellState.OFF,
}


class UndoRefused(ValueError):
    """Nothing (or not that much) can be undone; the message says why."""


class _Undone(Exception):
    """A person typed undo while the table waited for the ROLL button."""


def dice_frame(faces: Sequence[str], size: int = ARENA_SIZE) -> tuple[tuple[CellState, ...], ...]:
    """The arena display showing ``faces`` (die face ids), ``size`` dice per row."""
    cells = [DIE_CELL[f] for f in faces[: size * size]]
    cells += [CellState.OFF] * (size * size - len(cells))
    return tuple(tuple(cells[r * size:(r + 1) * size]) for r in range(size))


def _builtin_sha(name: str) -> str:
    import hashlib

    return hashlib.sha256(resources.files("companion.data").joinpath(name).read_bytes()) \
        .hexdigest()


def journal_header(config: GladiatorenConfig, settings: dict[str, Any]) -> dict[str, Any]:
    """The journal's first line, in the format of ``companion.table.session``."""
    if config.data_file is None:
        data = {"path": "builtin:gladiatoren.json", "sha256": _builtin_sha("gladiatoren.json")}
    else:
        path = Path(config.data_file).resolve()
        data = {"path": str(path), "sha256": file_sha256(path)}
    return {
        "format": FORMAT,
        "software": __version__,
        "game": GAME,
        "mode": "tracked",
        "config": config.to_dict(),
        "players": list(config.colours),
        "data_files": {"gladiatoren": data, "dice": {"path": "builtin:dice.json",
                                                     "sha256": _builtin_sha("dice.json")}},
        "session": dict(settings),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }


class LocalSession:
    """The session interface the loop uses, until the generalised GameSession is in.

    ``commit`` checks and journals (flush + fsync), ``apply`` applies and writes a
    checkpoint when a turn starts; ``undo`` takes back this turn's choices since
    the last die roll or draw; ``finish`` writes the end record.
    """

    def __init__(self, state: Any, journal: JournalWriter | None = None) -> None:
        self.state = state
        self.config = state.config
        self.journal = journal
        self.barrier = len(state.history)

    @classmethod
    def start(cls, config: GladiatorenConfig, settings: dict[str, Any] | None = None,
              journal_path: str | Path | None = None) -> LocalSession:
        journal = None
        if journal_path is not None:
            journal = JournalWriter.create(journal_path, journal_header(config, settings or {}))
        return cls(new_game(config), journal)

    @property
    def journal_path(self) -> Path | None:
        return self.journal.path if self.journal else None

    def commit(self, action: Any) -> None:
        if not self.state.is_legal(action):
            self.state.apply(action)  # raises with the rule and the reason; changes nothing
        if self.journal is not None:
            self.journal.append("action", action=action.to_dict())

    def apply(self, action: Any) -> list[Event]:
        events = self.state.apply(action)
        turn_started = any(e.kind == "turn_started" for e in events)
        if action.is_chance or turn_started:
            self.barrier = len(self.state.history)
        if turn_started and self.journal is not None:
            self.journal.append("checkpoint", actions=len(self.state.history),
                                turn=self.state.turn, digest=state_digest(self.state.snapshot()))
        return events

    def undoable(self) -> int:
        return len(self.state.history) - self.barrier

    def undo(self, count: int = 1) -> Any:
        if count < 1:
            raise UndoRefused("undo needs a count of 1 or more")
        if count > self.undoable():
            raise UndoRefused("nothing to undo: a die roll, an animal drawn or a new turn cannot "
                              "be undone" if not self.undoable() else
                              f"only {self.undoable()} action(s) can be undone")
        if self.journal is not None:
            self.journal.append("undo", count=count)
        self.state = replay(self.config, self.state.history[:-count])
        return self.state

    def finish(self) -> None:
        if self.journal is not None and self.state.is_terminal:
            self.journal.append("end", winners=list(self.state.winners),
                                reason=self.state.end_reason, scores=self.state.scores())


def start_session(config: GladiatorenConfig, *, bots: int, hardware: str, seed: int | None,
                  journal_path: str | Path | None) -> Any:
    """A new session: the generalised GameSession once this game is in the registry, else
    :class:`LocalSession` (same interface, same journal format)."""
    from companion.games.registry import GAME_MODULES

    if GAME in GAME_MODULES:
        from companion.table.session import GameSession, SessionSettings

        settings = SessionSettings(mode="tracked", bots=bots, hardware=hardware, seed=seed,
                                   game=GAME)
        return GameSession.start(config, settings, journal_path)
    return LocalSession.start(config, {"mode": "tracked", "bots": bots, "hardware": hardware,
                                       "seed": seed}, journal_path)


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
            session = LocalSession(session)
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
        agent = self.agents[self.state.current_player]
        while True:
            action = agent.choose(self.state, self.state.legal_actions())
            if isinstance(action, UndoRequest):
                try:
                    self.session.undo(action.count)
                except (UndoRefused, SessionUndoRefused) as exc:
                    self.view.message(str(exc))
                    continue
                self.view.message(f"undid {action.count} action(s)")
                return None
            try:
                self.session.commit(action)
            except IllegalActionError as exc:
                if getattr(agent, "is_bot", False):
                    raise
                self.view.message(str(exc))
                continue
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
            self.wait_for({"roll"}, f"{who}: press ROLL for {n} star "
                          f"{'die' if n == 1 else 'dice'}", seat=seat)
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
                self.terminal is None or (seat is not None and self.seat_is_bot(seat))):
            self.operator.press(sorted(buttons)[0])
        elif self.terminal is not None:
            self.view.message(f"{prompt} (type 'roll' or 'r' on simulated hardware; 'undo' "
                              "takes back your last choice)")
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
                    except (UndoRefused, SessionUndoRefused) as exc:
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
