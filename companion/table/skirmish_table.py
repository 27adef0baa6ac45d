"""The arena skirmish at the table: its adapter to the shared table loop.

The loop (:mod:`companion.table.loop`) journals, applies and undoes as for every game;
:func:`resume` continues a game from its journal, checking every checkpoint. Roll-offs
are drawn; an attack's hit dice wait for the ROLL button, or for the faces of the
players' own dice typed at the terminal (``1 3 3 6``); every die is journalled before it
is shown on the terminal and the arena display.

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

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.games.arena_skirmish import GAME as SKIRMISH
from companion.games.arena_skirmish import SkirmishConfig, parse_action
from companion.games.arena_skirmish.actions import HitDie
from companion.games.arena_skirmish.combat import damage_distribution
from companion.games.arena_skirmish.events import Event
from companion.games.arena_skirmish.state import SkirmishState
from companion.hal import CellState
from companion.table.adapter import MAX_NUMBERED, DiceAsk, TableAdapter, kind_lines, numbers
from companion.table.loop import TableLoop
from companion.table.people import BotAgent, TerminalAgent, TerminalInput
from companion.table.session import (
    GameSession,
    SessionSettings,
    resume_session,
)

GAME_NAME = SKIRMISH.name
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


# -- the table's adapter --------------------------------------------------------------------


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


class SkirmishAdapter(TableAdapter):
    """The arena skirmish on the table's hardware (see the module docstring)."""

    game = GAME_NAME
    hint = "an action like 'step' or 'melee 17', its number, or several separated by commas"

    def __init__(self) -> None:
        self.done: list[int] = []  # hit dice rolled before this roll (a resumed attack)

    def prompt_hint(self, state: Any) -> str:
        """While teams are picked: an id (or 'pick 9'), or 'ready'; a gladiator's
        actions while it acts; else a number or the choice."""
        if state.phase == "select":
            return "a gladiator's id to pick it, e.g. '9', or 'ready'"
        return self.hint if state.active_gladiator is not None else "number or action"

    def frame(self, loop: Any) -> Any:
        return window_frame(loop.state, loop.hw.display.size)

    def react(self, loop: Any, events: Sequence[Event]) -> None:
        for event in events:
            if event.kind == "turn_started":
                loop.show_turn()
        faces = [e.data["face"] for e in events if e.kind == "hit_die"]
        if not faces:
            loop.paint()
            return
        attack, self.done = self.done + faces, []
        loop.rolls.append(attack)
        for i, frame in enumerate(dice_frames(attack, loop.hw.display.size)):
            if i:
                loop.sleep(DICE_PAGE_S)
            loop.hw.display.show(frame)

    def dice(self, state: SkirmishState) -> DiceAsk | None:
        attack = state.attack
        if state.phase != "hit" or attack is None:
            return None  # a roll-off or a tie-break: drawn
        attacker = state.gladiators[attack["attacker"]]
        left = attack["dice"] - len(attack["faces"])
        return DiceAsk(
            attacker.owner,
            f"{left} d6 ({attack['kind']} on #{attack['target']})",
            f"the {left} faces, like {' '.join(['3'] * left)}",
            nodes=left,
        )

    def entered(self, state: Any, text: str, ask: DiceAsk) -> list[Any]:
        faces = numbers(text)
        if len(faces) != ask.nodes or not all(1 <= f <= 6 for f in faces):
            raise ValueError(f"{text!r}: this attack rolls {ask.what}: type {ask.entry}")
        return [HitDie(f) for f in faces]

    def before_roll(self, loop: Any, ask: DiceAsk) -> None:
        show = getattr(loop.view, "show_attack", None)
        attack = loop.state.attack
        if attack is None:
            return
        self.done = list(attack["faces"])
        if show is None:
            return
        state = loop.state
        breakdown = state.breakdown(attack["attacker"], attack["target"], attack["kind"])
        assert breakdown is not None
        target = state.gladiators[attack["target"]]
        show(
            breakdown,
            damage_distribution(target.stats, breakdown.dice),
            f"#{attack['attacker']} {attack['kind']} on #{target.id}",
        )

    def parse(self, text: str) -> Any:
        return parse_action(text)

    def ask(self, state: Any, seat: int) -> str:
        return phase_prompt(state)

    def option_lines(self, options: Sequence[Any]) -> list[str]:
        return option_lines(options)


def option_lines(options: Sequence[Any]) -> list[str]:
    """Numbered options, or (many of them) one line per kind with the values."""
    if len(options) <= MAX_NUMBERED:
        return TableAdapter().option_lines(options)
    lines = []
    places = [a.notation.split()[1] for a in options if a.kind == "place"]
    if places:  # cells, each with every facing
        lines.append(f"place <cell> <N|E|S|W>, cells: {' '.join(dict.fromkeys(places))}")
    rest = [a for a in options if a.kind != "place"]
    return lines + kind_lines(rest)


class SkirmishTable(TableLoop):
    """Tracked play: every seat has an agent (bot or person); the engine is the truth."""

    game_name = GAME_NAME


def SkirmishBotAgent(rng: Any) -> BotAgent:  # noqa: N802 - a table agent, named like one
    """A table agent around :class:`~companion.games.arena_skirmish.bot.SkirmishBot`."""
    from companion.games.arena_skirmish.bot import SkirmishBot

    return BotAgent(rng, SkirmishBot(rng))


def SkirmishTerminalAgent(terminal: TerminalInput, view: Any) -> TerminalAgent:  # noqa: N802
    """A person at the terminal choosing for a skirmish seat."""
    return TerminalAgent(terminal, view, adapter=SkirmishAdapter())
