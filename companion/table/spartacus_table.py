"""Spartacus at the table: journal, undo and resume; electronic dice; bots and people.

Sessions are the shared :class:`~companion.table.session.GameSession`
(``commit(action)`` journals durably, then ``apply(action)``, ``undo(n)``,
``finish()``, ``.state``; ``docs/journal.md``). Undo never crosses a die roll
or a card draw.

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
from pathlib import Path
from typing import Any

from companion.dice import Roller
from companion.games.spartacus import (
    SpartacusConfig,
    parse_action,
)
from companion.games.spartacus import actions as A
from companion.games.spartacus.bot import SimpleBot
from companion.games.spartacus.state import SpartacusState
from companion.hal import ARENA_SIZE, CellState, Hardware
from companion.table.loop import decide
from companion.table.people import SimOperator, TableStopped, UndoRequest
from companion.table.session import (
    GameSession,
    SessionSettings,
    resume_session,
)

GAME = "spartacus"
BUILTIN = "builtin:"
POLL_S = 0.05


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


# -- sessions: the shared GameSession ------------------------------------------------------


def resume_spartacus(path: str | Path) -> GameSession:
    """Rebuild a session from its journal (checked) and continue writing to it."""
    session, _warnings = resume_session(path, game=GAME)
    return session


def open_session(
    config: SpartacusConfig,
    *,
    bots: Sequence[int],
    hardware: str,
    seed: int | None,
    path: str | Path | None,
) -> GameSession:
    """A new game or fight and its journal; which seats bots play is recorded."""
    settings = SessionSettings(
        mode="tracked",
        bots=len(bots),
        hardware=hardware,
        seed=seed,
        game=GAME,
        bot_seats=tuple(bots),
    )
    return GameSession.start(config, settings, path)


def bot_seats(session: GameSession) -> tuple[int, ...]:
    """The seats bots play in a (resumed) session: as recorded, else the last ``bots``."""
    settings = session.settings
    if settings.bot_seats is not None:
        return settings.bot_seats
    players = session.config.players
    return tuple(range(players - settings.bots, players))


def session_seed(session: GameSession) -> int | None:
    return session.settings.seed


# -- who decides --------------------------------------------------------------------------


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

    ``?`` lists every legal action of the house asked (corrections included; never
    another house's cards), ``undo [n]`` takes back choices, ``quit`` stops (the journal
    keeps the game). Bids are read without echo on a terminal and never printed. A
    house not asked may type its out-of-turn play with its name (``react mittellos
    solonius glaber``, ``gold glaber solonius 3``).
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
        own = state.legal_actions_for(seat)  # never another house's cards (out of turn)
        options = [a for a in own if not a.is_correction]
        if net:
            side = state.fight.decider()
            self.view.prompt(f"{side}: throw the net this round? yes or no (hidden, not shown)")
        elif hidden:
            room = max(a.amount for a in options if isinstance(a, A.Bid))
            self.view.prompt(f"{house}: your secret bid, 0..{room} gold (hidden, not shown)")
        else:
            self._show_odds(state, options)
            hand = ""
            if not state.config.fight_only and state.hand(seat):
                hand = f" - your hand: {', '.join(state.hand(seat))}"
            shown = options if len(options) <= 40 else options[:40]
            self.view.prompt(
                f"{house}: choose (number or action; ? all, undo, quit){hand}",
                [f"{i}: {a.notation}" for i, a in enumerate(shown, 1)],
            )
        while True:
            line = _read_line("> ", self.stream, hidden).strip()
            if not line:
                continue
            if line in ("quit", "q"):
                raise TableStopped("quit")
            if line == "?":
                self.view.prompt(f"every legal action of {house}", [a.notation for a in own])
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

    def __init__(
        self,
        session: Any,
        hw: Hardware,
        roller: Roller,
        view: Any,
        agents: dict[int, Any],
        *,
        sleep: Callable[[float], None] = time.sleep,
        operator: SimOperator | None = None,
        stream: Any = None,
        roll_button: bool = True,
    ) -> None:
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
            self.wait_for_roll(
                f"{who}: press ROLL for the {first.purpose} ({dice})", self._seat_of(who)
            )
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
        person = self.stream is not None and (agent is None or not getattr(agent, "is_bot", False))
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
        """The current seat's choice, committed to the journal; ``None`` after an undo."""
        return decide(self.session, self.agents[self.state.current_player], self.view)
