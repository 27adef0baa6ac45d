"""Spartacus at the table: journal, undo and resume; electronic dice; bots and people.

:class:`SpartacusSession` is the same contract as the Battle Royale
:class:`~companion.table.session.GameSession` (``commit(action)`` journals
durably, then ``apply(action)``, ``undo(n)``, ``finish()``, ``.state``) for a
Spartacus game, written on the same journal format (``docs/journal.md``),
until the generic session takes every registered game. Undo never crosses a
die roll or a card draw.

:class:`SpartacusTable` runs a game (or a single fight) on a
:class:`~companion.hal.Hardware`: every die roll waits for the ROLL button
(pressed by the simulated operator for bots), is journalled, then shown in
red / black / blue on the terminal and as bars on the arena display
(:func:`dice_frame`). Decisions come from agents: :class:`BotAgent` (the
simple bot) or :class:`TerminalAgent` (a person typing the notation; secret
bids are read without echo on a terminal and never printed).

Arena display mapping for dice (5 x 5 cells): one row per die, highest first;
a face 1-5 lights that many cells from the left (``field``); a 6 lights all
five as ``highlight``. Only five dice fit: a sixth and later die are shown on
the terminal only. The dice colour is the terminal's; the turn LED of seat
*i* (the hardware's *i*-th turn colour) marks the house deciding.
"""

from __future__ import annotations

import getpass
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from companion import __version__
from companion.dice import Roller
from companion.games.spartacus import (
    IllegalActionError,
    SpartacusConfig,
    action_from_dict,
    parse_action,
    replay,
)
from companion.games.spartacus import actions as A
from companion.games.spartacus.bot import SimpleBot
from companion.games.spartacus.state import SpartacusState
from companion.hal import ARENA_SIZE, CellState, Hardware
from companion.table.journal import (
    FORMAT,
    JournalContents,
    JournalError,
    JournalWriter,
    file_sha256,
    read_journal,
    state_digest,
)
from companion.table.people import SimOperator, TableStopped

GAME = "spartacus"
BUILTIN = "builtin:"
POLL_S = 0.05


class UndoRefused(ValueError):
    """Nothing (or not that much) can be undone; the message says why."""


# -- dice on the arena display ------------------------------------------------------------


def dice_frame(faces: Sequence[int]) -> tuple[tuple[CellState, ...], ...]:
    """A roll as arena-display rows (see the module docstring)."""
    rows = []
    for r in range(ARENA_SIZE):
        if r < len(faces):
            f = faces[r]
            lit = CellState.HIGHLIGHT if f >= 6 else CellState.FIELD
            n = min(f, ARENA_SIZE)
            rows.append(tuple(lit if c < n else CellState.OFF for c in range(ARENA_SIZE)))
        else:
            rows.append((CellState.OFF,) * ARENA_SIZE)
    return tuple(rows)


# -- the session: journal first, then act -------------------------------------------------


def _builtin_sha(name: str) -> str:
    import hashlib

    return hashlib.sha256(resources.files("companion.data").joinpath(name).read_bytes()) \
        .hexdigest()


def data_files(config: SpartacusConfig) -> dict[str, dict[str, str]]:
    if config.data_file is None:
        sp = {"path": BUILTIN + "spartacus.json", "sha256": _builtin_sha("spartacus.json")}
    else:
        path = Path(config.data_file).resolve()
        sp = {"path": str(path), "sha256": file_sha256(path)}
    return {"spartacus": sp}


@dataclass
class SpartacusSession:
    """One Spartacus game (or fight) and its journal (``journal`` None: nothing written)."""

    state: SpartacusState
    config: SpartacusConfig
    settings: dict[str, Any] = field(default_factory=dict)
    journal: JournalWriter | None = None
    barrier: int = 0  # history before this index can never be undone

    @classmethod
    def start(cls, config: SpartacusConfig, settings: dict[str, Any],
              journal_path: str | Path | None) -> SpartacusSession:
        state = SpartacusState(config)
        journal = None
        if journal_path is not None:
            header = {
                "format": FORMAT, "software": __version__, "game": GAME,
                "mode": "tracked",
                "config": config.to_dict(), "players": list(config.houses),
                "data_files": data_files(config), "session": dict(settings),
                "created": datetime.now(UTC).isoformat(timespec="seconds"),
            }
            journal = JournalWriter.create(journal_path, header)
        return cls(state, config, dict(settings), journal)

    @property
    def journal_path(self) -> Path | None:
        return self.journal.path if self.journal else None

    def commit(self, action: A.Action) -> None:
        """Check ``action`` is legal now and make it durable (raises, writing nothing, if not)."""
        if action not in self.state.legal_actions():
            self.state.apply(action)  # raises IllegalActionError naming the rule
        if self.journal is not None:
            self.journal.append("action", action=action.to_dict())

    def apply(self, action: A.Action) -> list[Any]:
        events = self.state.apply(action)
        self._after(action, events)
        return events

    def _after(self, action: A.Action, events: list[Any], write: bool = True) -> None:
        new_round = any(e.kind == "turn_started" for e in events)
        if action.is_chance or new_round:
            self.barrier = len(self.state.history)
        if write and self.journal is not None and new_round:
            self.journal.append("checkpoint", actions=len(self.state.history),
                                turn=self.state.turn, digest=state_digest(self.state.snapshot()))

    def finish(self) -> None:
        if self.journal is not None and self.state.is_terminal:
            self.journal.append("end", winners=list(self.state.winners),
                                reason=self.state.end_reason)

    def undoable(self) -> int:
        return len(self.state.history) - self.barrier

    def undo(self, count: int = 1) -> SpartacusState:
        """Take back the last ``count`` choices (never a die roll or a card draw)."""
        if count < 1:
            raise UndoRefused("undo needs a count of 1 or more")
        available = self.undoable()
        if count > available:
            if available == 0:
                raise UndoRefused("nothing to undo: a die roll, a card drawn or a new round "
                                  "cannot be undone")
            raise UndoRefused(f"only {available} action(s) can be undone")
        if self.journal is not None:
            self.journal.append("undo", count=count)
        self.state = replay(self.config, self.state.history[:-count])
        return self.state


def rebuild(contents: JournalContents) -> SpartacusSession:
    """Replay a Spartacus journal into a session (no writer); checks every checkpoint."""
    header, path = contents.header, contents.path
    if header.get("game") != GAME:
        raise JournalError(f"{path} is a journal of {header.get('game')!r}, not {GAME}")
    for name, entry in (header.get("data_files") or {}).items():
        file = entry.get("path", "")
        sha = _builtin_sha(file[len(BUILTIN):]) if file.startswith(BUILTIN) else (
            file_sha256(file) if Path(file).exists() else None)
        if sha != entry.get("sha256"):
            raise JournalError(f"{path}: the {name} data file {file} is missing or changed "
                               "since the game started; restore it to resume")
    try:
        config = SpartacusConfig.from_dict(header["config"])
    except (KeyError, TypeError, ValueError) as exc:
        raise JournalError(f"{path}, line 1: the game config is not usable: {exc}") from None
    session = SpartacusSession(SpartacusState(config), config, dict(header.get("session") or {}))
    held: list[tuple[int, A.Action]] = []

    def play(line: int, action: A.Action) -> None:
        try:
            events = session.state.apply(action)
        except IllegalActionError as exc:
            raise JournalError(f"{path}, line {line}: this record cannot be replayed ({exc}); "
                               f"resume with --until-line {line - 1}") from None
        session._after(action, events, write=False)

    def flush() -> None:
        for line, action in held:
            play(line, action)
        held.clear()

    for line, record in contents.records:
        kind = record["type"]
        if kind == "action":
            try:
                action = action_from_dict(record.get("action"))
            except ValueError as exc:
                raise JournalError(f"{path}, line {line}: {exc}") from None
            if action.is_chance:
                flush()
                play(line, action)
            else:
                held.append((line, action))
        elif kind == "undo":
            count = record.get("count")
            if not isinstance(count, int) or not 1 <= count <= len(held):
                raise JournalError(f"{path}, line {line}: an undo of {count!r} action(s) that "
                                   "cannot be undone there")
            del held[-count:]
        elif kind == "checkpoint":
            flush()
            if record.get("actions") != len(session.state.history) or \
                    record.get("digest") != state_digest(session.state.snapshot()):
                raise JournalError(f"{path}, line {line}: the replayed game does not match the "
                                   "checkpoint written during play (another rules version?)")
    flush()
    return session


def resume_spartacus(path: str | Path) -> SpartacusSession:
    """Rebuild a session from its journal and continue writing to it."""
    contents = read_journal(path)
    session = rebuild(contents)
    if contents.finished:
        raise JournalError(f"{path}: this game is over")
    session.journal = JournalWriter.reopen(path, contents.valid_bytes, contents.next_n)
    return session


def open_session(config: SpartacusConfig, *, bots: Sequence[int], hardware: str,
                 seed: int | None, path: str | Path | None) -> Any:
    """The generic :class:`~companion.table.session.GameSession` once Spartacus is registered
    in ``companion/games/registry.py``, else :class:`SpartacusSession` (the same contract)."""
    from companion.games.registry import GAME_MODULES

    if GAME in GAME_MODULES:
        from companion.table.session import GameSession, SessionSettings

        try:
            settings = SessionSettings(mode="tracked", bots=len(bots), hardware=hardware,
                                       seed=seed, game=GAME)
        except TypeError:  # a session class that does not know other games yet
            pass
        else:
            return GameSession.start(config, settings, path)
    return SpartacusSession.start(config, {"bots": len(bots), "bot_seats": list(bots),
                                           "hardware": hardware, "seed": seed}, path)


def bot_seats(session: Any) -> tuple[int, ...]:
    """The seats bots play in a (resumed) session: the last ``bots`` seats, or as recorded."""
    settings = session.settings
    players = session.config.players
    if isinstance(settings, dict):
        if "bot_seats" in settings:
            return tuple(settings["bot_seats"])
        count = int(settings.get("bots", 0))
    else:
        count = int(getattr(settings, "bots", 0))
    return tuple(range(players - count, players))


def session_seed(session: Any) -> int | None:
    settings = session.settings
    return settings.get("seed") if isinstance(settings, dict) else getattr(settings, "seed", None)


# -- who decides --------------------------------------------------------------------------


class UndoRequest:
    def __init__(self, count: int = 1) -> None:
        self.count = count


class BotAgent:
    """The simple bot (sensible fights, simple economy)."""

    is_bot = True

    def __init__(self, rng: random.Random) -> None:
        self.bot = SimpleBot(rng)

    def choose(self, state: SpartacusState, legal: Sequence[A.Action]) -> Any:
        return self.bot.choose(state)


def _read_line(prompt: str, stream: Any, hidden: bool) -> str:
    if stream is sys.stdin and sys.stdin.isatty():
        if hidden:
            return getpass.getpass(prompt)
        return input(prompt)
    line = stream.readline()
    if not line:
        raise EOFError("the input ended")
    return line.strip()


class TerminalAgent:
    """A person typing actions (notation or the number of a listed option).

    ``?`` lists every legal action (corrections included), ``undo [n]`` takes
    back choices, ``quit`` stops (the journal keeps the game). Bids are read
    without echo on a terminal and never printed.
    """

    is_bot = False

    def __init__(self, view: Any, stream: Any = None) -> None:
        self.view = view
        self.stream = stream if stream is not None else sys.stdin

    def _show_odds(self, state: SpartacusState, options: Sequence[A.Action]) -> None:
        """Before an attack: the exact odds of each attack the fighter may make."""
        console = getattr(self.view, "console", None)
        if console is None or state.fight is None or state.phase != "fight":
            return
        from companion.ui.spartacus import odds_text

        if state.fight.phase != "turn":
            return
        side = state.fight.active.side
        for action in options:
            if isinstance(action, A.Attack | A.QuickAttack):
                console.print(odds_text(state.fight, side, isinstance(action, A.QuickAttack)))
                self.view.odds_shown = (state.fight.round, side)

    def choose(self, state: SpartacusState, legal: Sequence[A.Action]) -> Any:
        seat = state.current_player
        house = state.houses[seat]
        net = state.fight is not None and state.phase == "fight" and state.fight.phase == "net"
        hidden = state.phase == "bid" or net
        options = [a for a in legal if not a.is_correction]
        if net:
            side = state.fight.decider()
            self.view.prompt(f"{side}: throw the net this round? yes or no (hidden, not shown)")
        elif hidden:
            room = max(a.amount for a in options)
            self.view.prompt(f"{house}: your secret bid, 0..{room} gold (hidden, not shown)")
        else:
            self._show_odds(state, options)
            hand = ""
            if not state.config.fight_only and state.hand(seat):
                hand = f" - your hand: {', '.join(state.hand(seat))}"
            shown = options if len(options) <= 40 else options[:40]
            self.view.prompt(f"{house}: choose (number or action; ? all, undo, quit){hand}",
                             [f"{i}: {a.notation}" for i, a in enumerate(shown, 1)])
        while True:
            line = _read_line("> ", self.stream, hidden).strip()
            if not line:
                continue
            if line in ("quit", "q"):
                raise TableStopped("quit")
            if line == "?":
                self.view.prompt("every legal action", [a.notation for a in legal])
                continue
            if line == "undo" or line.startswith("undo "):
                count = line[5:].strip() or "1"
                if count.isdigit():
                    return UndoRequest(int(count))
                self.view.message("type undo, or undo and a number")
                continue
            if net and line.lower() in ("y", "yes", "n", "no"):
                return A.UseNet(state.fight.decider(), line.lower().startswith("y"))
            if hidden and not net and line.isdigit():
                return A.Bid(int(line))
            if line.isdigit() and 1 <= int(line) <= len(options):
                return options[int(line) - 1]
            try:
                return parse_action(line)
            except ValueError as exc:
                self.view.message(str(exc))


# -- the table loop -----------------------------------------------------------------------


class SpartacusTable:
    """One Spartacus game or fight on a table's hardware."""

    def __init__(self, session: Any, hw: Hardware, roller: Roller, view: Any,
                 agents: dict[int, Any], *, sleep: Callable[[float], None] = time.sleep,
                 operator: SimOperator | None = None, stream: Any = None,
                 roll_button: bool = True) -> None:
        self.session = session
        self.hw = hw
        self.roller = roller
        self.view = view
        self.agents = agents
        self.sleep = sleep
        self.operator = operator
        self.stream = stream
        self.roll_button = roll_button
        self.frames: list[Any] = []

    @property
    def state(self) -> SpartacusState:
        return self.session.state

    def run(self) -> SpartacusState:
        self.view.update(self.state, [])
        while not self.state.is_terminal:
            self.step()
        self.session.finish()
        self.hw.status_leds.show_turn(None)
        return self.state

    def step(self) -> list[Any]:
        state = self.state
        if state.is_chance_node:
            action = self.resolve_chance()
        else:
            self.show_turn()
            action = self.decide()
            if action is None:
                self.view.update(self.state, [])
                return []
        events = self.session.apply(action)
        self.view.update(self.state, events)
        for e in events:
            if e.kind == "dice_rolled":
                self.show_dice(e.data["faces"])
        return events

    def show_turn(self) -> None:
        colours = self.hw.status_leds.colours
        seat = self.state.current_player
        self.hw.status_leds.show_turn(colours[seat] if 0 <= seat < len(colours) else None)

    def show_dice(self, faces: Sequence[int]) -> None:
        frame = dice_frame(faces)
        self.frames.append(frame)
        self.hw.display.show(frame)

    def resolve_chance(self) -> A.Action:
        outcomes = self.state.chance_outcomes()
        first = outcomes[0][0]
        if isinstance(first, A.DiceRoll) and self.roll_button:
            who = first.who
            dice = "die" if len(first.faces) == 1 else f"{len(first.faces)} dice"
            self.wait_for_roll(f"{who}: press ROLL for the {first.purpose} ({dice})",
                               self._seat_of(who))
        action = self.roller.choose(outcomes)
        self.session.commit(action)  # durable before the dice are shown
        return action

    def _seat_of(self, who: str) -> int | None:
        """The seat whose die it is: a fighter's owner, or a house."""
        state = self.state
        if state.fight is not None and who in A.SIDES:
            return state.fight.fighters[who].owner
        return state.houses.index(who) if who in state.houses else None

    def wait_for_roll(self, prompt: str, seat: int | None) -> None:
        """Wait for the ROLL button; the simulated operator presses for bots and for a table
        with nobody at the terminal; a person at the terminal types ``r`` (or Enter)."""
        agent = self.agents.get(seat) if seat is not None else None
        person = self.stream is not None and (agent is None or not getattr(agent, "is_bot",
                                                                           False))
        if self.operator is not None and not person:
            self.operator.press("roll")
        elif person and self.hw.sim is not None:
            self.view.prompt(prompt + " (type r or press Enter)")
            line = _read_line("> ", self.stream, False).strip()
            if line in ("quit", "q"):
                raise TableStopped("quit")
            self.hw.sim.tap("roll", 0.03)
        else:
            self.view.prompt(prompt)
        while True:
            event = self.hw.next_input(timeout=POLL_S)
            if event is not None and event.button == "roll" and event.kind == "press":
                return

    def decide(self) -> A.Action | None:
        agent = self.agents[self.state.current_player]
        while True:
            action = agent.choose(self.state, self.state.legal_actions())
            if isinstance(action, UndoRequest):
                try:
                    self.session.undo(action.count)
                except ValueError as exc:  # UndoRefused, of either session class
                    self.view.message(str(exc))
                    continue
                self.view.message(f"undid {action.count} action(s)")
                return None
            try:
                self.session.commit(action)
                return action
            except IllegalActionError as exc:
                if getattr(agent, "is_bot", False):
                    raise
                self.view.message(str(exc))

