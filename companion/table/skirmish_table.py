"""The arena skirmish at the table: tracked play with electronic d6s, journal, undo, resume.

Every action goes through :class:`companion.table.session.GameSession` (the game plus its
journal): ``commit`` makes it durable, then ``apply`` plays it; ``undo(n)`` takes back the
current activation's actions since the last die or roll-off; :func:`resume` continues a
game from its journal, checking every checkpoint.

:class:`SkirmishTable` runs a game: bots and people choose, roll-offs are drawn, and an
attack's hit dice are rolled electronically when the ROLL button is pressed; every die is
journalled before it is shown on the terminal and the arena display.

Arena display (``hw.display``, size x size cells, 5 on the table):

- while a gladiator acts: a window of the map centred on it. ``BLINK`` the acting
  gladiator, ``HIGHLIGHT`` an enemy, ``ELIMINATOR`` a gladiator of the same team,
  ``HOLE`` a blocked cell, ``CENTRE`` a raised cell (level 1 or more), ``FIELD`` a cell
  at level 0, ``OFF`` off the map;
- after a roll: one die per row, top down: a face of 1..5 lights that many cells from the
  left (``HIGHLIGHT``), a 6 lights the whole row blinking (``BLINK``). More than
  ``size`` dice are shown in pages of ``size`` rows, one after another.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from companion.dice import Roller, get_die
from companion.games.arena_skirmish import GAME as SKIRMISH
from companion.games.arena_skirmish import SkirmishConfig
from companion.games.arena_skirmish.actions import HitDie
from companion.games.arena_skirmish.combat import damage_distribution
from companion.games.arena_skirmish.events import Event
from companion.games.arena_skirmish.state import SkirmishState
from companion.hal import CellState, Hardware
from companion.table.loop import decide
from companion.table.people import SimOperator, TableStopped, TerminalInput, UndoRequest
from companion.table.session import (
    GameSession,
    SessionSettings,
    resume_session,
)

GAME_NAME = SKIRMISH.name
POLL_S = 0.05
DICE_PAGE_S = 1.0


def settings(bots: int = 0, hardware: str = "sim", seed: int | None = None) -> SessionSettings:
    """Session settings of a tracked skirmish game."""
    return SessionSettings(mode="tracked", bots=bots, hardware=hardware, seed=seed, game=GAME_NAME)


def start_session(
    config: SkirmishConfig, session_settings: SessionSettings, journal_path: str | Path | None
) -> GameSession:
    """A new game; its journal (if a path is given) starts with the header."""
    return GameSession.start(config, session_settings, journal_path)


def resume(path: str | Path, *, until_line: int | None = None) -> tuple[GameSession, list[str]]:
    """Continue a skirmish game from its journal (``resume_session`` for this game)."""
    return resume_session(path, until_line=until_line, game=GAME_NAME)


# -- the arena display ----------------------------------------------------------------------


def dice_frames(faces: Sequence[int], size: int = 5) -> list[tuple[tuple[CellState, ...], ...]]:
    """The dice as display frames: a die per row, pages of ``size`` dice."""
    frames = []
    for start in range(0, max(len(faces), 1), size):
        rows = []
        for r in range(size):
            i = start + r
            if i >= len(faces):
                rows.append((CellState.OFF,) * size)
            elif faces[i] > size:
                rows.append((CellState.BLINK,) * size)
            else:
                rows.append(
                    tuple(
                        CellState.HIGHLIGHT if c < faces[i] else CellState.OFF for c in range(size)
                    )
                )
        frames.append(tuple(rows))
    return frames


def window_frame(
    state: SkirmishState, size: int = 5, centre: int | None = None
) -> tuple[tuple[CellState, ...], ...]:
    """A ``size`` x ``size`` window of the map around ``centre`` (default: the acting
    gladiator, else the map's centre)."""
    gmap = state.map
    if centre is None:
        gid = state.active_gladiator
        cell = state.gladiators[gid].cell if gid is not None else None
        centre = cell if cell is not None else (gmap.size // 2) * gmap.size + gmap.size // 2
    cr, cc = divmod(centre, gmap.size)
    me = (
        state.gladiators[state.active_gladiator].owner
        if state.active_gladiator is not None
        else None
    )
    rows = []
    for r in range(size):
        row = []
        for c in range(size):
            mr, mc = cr + r - size // 2, cc + c - size // 2
            if not (0 <= mr < gmap.size and 0 <= mc < gmap.size):
                row.append(CellState.OFF)
                continue
            cell = mr * gmap.size + mc
            gid = state.occupant[cell]
            if gid >= 0:
                if gid == state.active_gladiator:
                    row.append(CellState.BLINK)
                elif me is not None and state.gladiators[gid].owner == me:
                    row.append(CellState.ELIMINATOR)
                else:
                    row.append(CellState.HIGHLIGHT)
            elif gmap.blocked[cell]:
                row.append(CellState.HOLE)
            elif gmap.heights[cell] > 0:
                row.append(CellState.CENTRE)
            else:
                row.append(CellState.FIELD)
        rows.append(tuple(row))
    return tuple(rows)


# -- the table loop -------------------------------------------------------------------------


class SkirmishBotAgent:
    """A table agent around :class:`~companion.games.arena_skirmish.bot.SkirmishBot`."""

    is_bot = True

    def __init__(self, rng: Any) -> None:
        from companion.games.arena_skirmish.bot import SkirmishBot

        self.bot = SkirmishBot(rng)

    def choose(self, state: Any, legal: Sequence[Any]) -> Any:
        return self.bot.choose(state)


MAX_NUMBERED = 24  # more options than this are listed by kind, not numbered


def phase_prompt(state: SkirmishState) -> str:
    """What the seat to move is asked, in words."""
    seat = state.current_player
    who = state.colours[seat]
    phase = state.phase
    if phase == "select":
        count, points, _ = state.config.limits
        team = state.teams[seat]
        spent = sum(state.gladiators[g].profile.points for g in team)
        return (
            f"{who}: pick gladiators ({len(team)} of at most {count}, {points - spent} "
            "points left), then ready"
        )
    if phase == "entrance":
        return f"{who}: you won the roll-off - choose an entrance"
    if phase == "place":
        assert state.placing is not None
        g = state.gladiators[state.placing]
        return (
            f"{who}: place #{g.id} {g.profile.name} within 5 fields of entrance "
            f"{state.entrance_of[seat]}: place <cell> <N|E|S|W>"
        )
    if phase in ("move", "rest"):
        gid = state.active_gladiator
        assert gid is not None
        g = state.gladiators[gid]
        cost = " (remaining movement: double cost)" if phase == "rest" else ""
        return (
            f"{who}: #{gid} {g.profile.name} on {state.cell_name(g.cell)} facing "
            f"{'NESW'[g.facing]}, {state.points_left} movement points{cost}"
        )
    if phase == "combo":
        return f"{who}: apply the combo by hand (adjust <id> <stat> <+1|-1>), then done"
    return f"{who}: choose"


def option_lines(options: Sequence[Any]) -> list[str]:
    """Numbered options, or (many of them) one line per kind with the values."""
    if len(options) <= MAX_NUMBERED:
        return [f"{i}: {a.notation}" for i, a in enumerate(options, 1)]
    by_kind: dict[str, list[str]] = {}
    for a in options:
        kind, _, rest = a.notation.partition(" ")
        by_kind.setdefault(kind, []).append(rest)
    lines = []
    for kind, values in by_kind.items():
        if kind == "place":  # cells, each with every facing
            cells = list(dict.fromkeys(v.split()[0] for v in values))
            lines.append(f"place <cell> <N|E|S|W>, cells: {' '.join(cells)}")
        elif values == [""]:
            lines.append(kind)
        else:
            lines.append(f"{kind} {'|'.join(values)}")
    return lines


class SkirmishTerminalAgent:
    """A person at the terminal choosing for a seat, in the engine's notation.

    Accepted: an action (``step``, ``melee 17``, ``place c5 N``), the number of a listed
    option, several actions separated by commas (``step, step, left``), ``?`` for every
    legal action including corrections, ``undo`` / ``undo 3``, ``quit``.
    """

    is_bot = False

    def __init__(self, terminal: TerminalInput, view: Any) -> None:
        self.terminal = terminal
        self.view = view
        self.pending: list[Any] = []

    def choose(self, state: SkirmishState, legal: Sequence[Any]) -> Any:
        from companion.games.arena_skirmish import parse_action
        from companion.table.people import set_completions

        while self.pending:
            action = self.pending.pop(0)
            if action in legal:
                return action
            self.pending.clear()
            self.view.message(f"{action.notation} is not legal now; enter the rest again")
        options = [a for a in legal if not a.is_correction]
        numbered = len(options) <= MAX_NUMBERED
        self.view.prompt(phase_prompt(state), option_lines(options))
        set_completions([a.notation for a in legal])
        while True:
            line = self.terminal.poll(POLL_S)
            if not line:
                continue
            if line in ("quit", "q"):
                raise TableStopped("quit")
            if line == "undo" or line.startswith("undo "):
                count = line[5:].strip() or "1"
                if not count.isdigit():
                    self.view.message("type undo, or undo followed by a number of actions")
                    continue
                return UndoRequest(int(count))
            if line == "?":
                self.view.prompt("every legal action", option_lines(list(legal)))
                continue
            if line.isdigit() and numbered and 1 <= int(line) <= len(options):
                return options[int(line) - 1]
            try:
                actions = [parse_action(part) for part in line.split(",") if part.strip()]
            except ValueError as exc:
                self.view.message(str(exc))
                continue
            if not actions:
                continue
            self.pending = actions[1:]
            return actions[0]


class SkirmishTable:
    """Tracked play: every seat has an agent (bot or person); the engine is the truth."""

    TYPED = {"roll": "roll", "r": "roll"}

    def __init__(
        self,
        game: GameSession | SkirmishState,
        hw: Hardware,
        roller: Roller,
        view: Any,
        agents: dict[int, Any],
        *,
        sleep: Callable[[float], None] = time.sleep,
        operator: SimOperator | None = None,
        terminal: TerminalInput | None = None,
    ) -> None:
        if not isinstance(game, GameSession):  # a bare state: play it without a journal
            game = GameSession(game, game.config, settings())
        self.session = game
        self.hw = hw
        self.roller = roller
        self.view = view
        self.agents = agents
        self.sleep = sleep
        self.operator = operator
        self.terminal = terminal
        self.rolls: list[list[int]] = []

    @property
    def state(self) -> SkirmishState:
        return self.session.state

    def seat_is_bot(self, seat: int) -> bool:
        return bool(getattr(self.agents.get(seat), "is_bot", False))

    # -- output ------------------------------------------------------------------------

    def paint(self) -> None:
        self.hw.display.show(window_frame(self.state, self.hw.display.size))

    def show_turn(self) -> None:
        colours = self.hw.status_leds.colours
        colour = self.state.colours[self.state.active]
        self.hw.status_leds.show_turn(colour if colour in colours else None)

    def show_dice(self, faces: Sequence[int]) -> None:
        for i, frame in enumerate(dice_frames(faces, self.hw.display.size)):
            if i:
                self.sleep(DICE_PAGE_S)
            self.hw.display.show(frame)

    # -- input -------------------------------------------------------------------------

    def wait_for_roll(self, prompt: str, seat: int) -> None:
        """Wait for the ROLL button (or typed ``roll``); the simulated operator presses
        it for a bot's seat, or for every seat when nobody types."""
        self.view.prompt(prompt)
        if self.operator is not None and (self.terminal is None or self.seat_is_bot(seat)):
            self.operator.press("roll")
        while True:
            event = self.hw.next_input(timeout=0 if self.terminal else POLL_S)
            if event is not None:
                if event.button == "roll" and event.kind == "press":
                    return
                continue
            if self.terminal is not None:
                self._typed(self.terminal.poll(POLL_S))

    def _typed(self, line: str | None) -> None:
        if line is None:
            return
        if line in ("quit", "q"):
            raise TableStopped("quit")
        if self.TYPED.get(line.lower()) is None:
            self.view.message(f"{line!r}: type roll (or r) to roll the dice, quit to stop")
        elif self.hw.sim is None:
            self.view.message("on real hardware, press the ROLL button itself")
        else:
            self.hw.sim.tap("roll", 0.03)

    # -- the game ----------------------------------------------------------------------

    def run(self) -> SkirmishState:
        """Play to the end of the game; returns the final state."""
        if self.state.turn:
            self.show_turn()
        self.paint()
        self.view.update(self.state, [])
        while not self.state.is_terminal:
            self.step()
        self.session.finish()
        self.hw.status_leds.show_turn(None)
        return self.state

    def step(self) -> list[Event]:
        if self.state.phase == "hit":
            return self.roll_attack()
        if self.state.is_chance_node:
            action = self.roller.choose(self.state.chance_outcomes())
            self.session.commit(action)
        else:
            action = self.decide()
            if action is None:  # an undo: the state was rebuilt
                self.show_turn()
                self.paint()
                self.view.update(self.state, [])
                return []
        events = self.session.apply(action)
        self.react(events)
        self.view.update(self.state, events)
        return events

    def roll_attack(self) -> list[Event]:
        """ROLL, then every remaining hit die: each journalled, then applied and shown."""
        attack = self.state.attack
        assert attack is not None
        attacker = self.state.gladiators[attack["attacker"]]
        target = self.state.gladiators[attack["target"]]
        self.show_odds()
        left = attack["dice"] - len(attack["faces"])
        self.wait_for_roll(
            f"{self.state.colours[attacker.owner]}: press ROLL for {left} "
            f"d6 ({attack['kind']} on #{target.id})",
            attacker.owner,
        )
        faces = [int(face.id) for face in self.roller.roll_many(get_die("d6"), left)]
        done = list(attack["faces"])
        events: list[Event] = []
        for face in faces:
            action = HitDie(face)
            self.session.commit(action)  # durable before it is shown or applied
            events += self.session.apply(action)
        self.rolls.append(done + faces)
        self.show_dice(done + faces)
        self.react(events, paint=False)
        self.view.update(self.state, events)
        return events

    def show_odds(self) -> None:
        show = getattr(self.view, "show_attack", None)
        attack = self.state.attack
        if show is None or attack is None:
            return
        from companion.ui.skirmish import attack_panel

        breakdown = self.state.breakdown(attack["attacker"], attack["target"], attack["kind"])
        assert breakdown is not None
        target = self.state.gladiators[attack["target"]]
        show(
            attack_panel(
                breakdown,
                damage_distribution(target.stats, breakdown.dice),
                title=f"#{attack['attacker']} {attack['kind']} on #{target.id}",
            )
        )

    def decide(self) -> Any:
        """The current seat's choice, committed to the journal; ``None`` after an undo."""
        return decide(self.session, self.agents[self.state.current_player], self.view)

    def react(self, events: Iterable[Event], paint: bool = True) -> None:
        for event in events:
            if event.kind == "turn_started":
                self.show_turn()
        if paint:
            self.paint()
