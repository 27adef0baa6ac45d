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

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.games.kampf_der_gladiatoren import GladiatorenConfig, parse_action
from companion.games.kampf_der_gladiatoren import actions as A
from companion.games.kampf_der_gladiatoren.events import Event
from companion.games.kampf_der_gladiatoren.odds import CombatOdds, odds_for_challenge
from companion.hal import ARENA_SIZE, CellState
from companion.table.adapter import DiceAsk, TableAdapter, numbers
from companion.table.loop import TableLoop
from companion.table.session import GameSession, SessionSettings

GAME = "gladiatoren"
DIE_CELL = {
    "two_red_stars": CellState.HIGHLIGHT,
    "one_yellow_star": CellState.FIELD,
    "blank": CellState.OFF,
}


def roll_faces(roll: Sequence[int]) -> list[str]:
    """Face ids of a roll given as (doubles, singles, blanks): doubles first."""
    d, s, b = roll
    return ["two_red_stars"] * d + ["one_yellow_star"] * s + ["blank"] * b


def odds_line(odds: CombatOdds) -> str:
    """The odds of a combat in one line for the event log."""
    return (
        f"odds: challenger loses {float(odds.expected(0)):.2f} {odds.challenger.unit} on "
        f"average (out {float(odds.out(0)):.0%}), the challenged "
        f"{float(odds.expected(1)):.2f} {odds.defender.unit} (out {float(odds.out(1)):.0%})"
    )


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
    bot_seats: tuple[int, ...] | None = None,
    demo: bool = False,
    bot_level: str | None = None,
) -> GameSession:
    """A new session with its journal (the shared :class:`GameSession`): which seats bots
    play (``None``: the last ``bots``) and at which search level, whether it is a demo."""
    settings = SessionSettings(
        mode="tracked",
        bots=bots,
        hardware=hardware,
        seed=seed,
        game=GAME,
        bot_seats=bot_seats,
        demo=demo,
        bot_level=bot_level,
    )
    return GameSession.start(config, settings, journal_path)


def star_faces(text: str, dice: int) -> tuple[int, int, int] | None:
    """Typed star dice -> (doubles, singles, blanks): one mark per die (``**`` a double,
    ``*`` a single, ``-`` or ``0`` a blank: ``** * - -``), or the three counts
    (``1 1 2``). ``None`` if the text is neither."""
    words = text.replace(",", " ").split()
    if words and all(w in ("**", "*", "-", "0") for w in words):
        counts = (words.count("**"), words.count("*"), words.count("-") + words.count("0"))
    else:
        found = numbers(text)
        if len(found) != 3:
            return None
        counts = (found[0], found[1], found[2])
    return counts if sum(counts) == dice else None


#: whose choice it is during the set-up: the teams' entry, then the animals' placing
SETUP_SEAT = {"entry": "entry_seat", "draw_animal": "placer", "place_animal": "placer"}


def turn_owner(state: Any) -> int:
    """The seat the turn LED and the header name: the seat choosing during the set-up,
    then the seat whose turn it is (also while the other side of a fight decides)."""
    return getattr(state, SETUP_SEAT.get(state.phase, "active"))


class GladiatorenAdapter(TableAdapter):
    """Kampf der Gladiatoren on the table's hardware: the turn LED of the seat to act
    (the entry seat while gladiators enter), the star dice on the arena display."""

    game = GAME
    hint = "number or action, e.g. 'challenge E I'"

    def __init__(self, show_odds: bool = True) -> None:
        self.show_odds = show_odds
        #: the options listed last left out challenges naming who acts for the animal
        self.named_left_out = False

    def prompt_hint(self, state: Any) -> str:
        """The challenge example only on a turn: the set-up has no challenge."""
        return self.hint if state.phase == "turn" else "number or action"

    def turn_seat(self, state: Any) -> int | None:
        """The entry seat while the teams enter, the placer while the animals are placed,
        then the seat whose turn it is."""
        return turn_owner(state)

    def start(self, loop: Any) -> None:
        loop.show_turn()

    def react(self, loop: Any, events: Sequence[Event]) -> None:
        for event in events:
            if event.kind == "turn_started":
                loop.show_turn(event.data["seat"])

    def dice(self, state: Any) -> DiceAsk | None:
        if not isinstance(state.chance_outcomes()[0][0], A.Roll):
            return None  # an animal drawn
        c = state.combat
        n = state.dice_for(c.striker)
        seat = state.decider(c.striker)
        what = f"{n} star {'die' if n == 1 else 'dice'}"
        if state.side_is_animal(c.striker):
            what += f" for the {state.animal_ids[c.pieces[c.striker][1]]}"
        return DiceAsk(seat, what, "one mark per die (** double, * single, - blank)")

    def entered(self, state: Any, text: str, ask: DiceAsk) -> list[Any]:
        n = state.dice_for(state.combat.striker)
        counts = star_faces(text, n)
        for action, _ in state.chance_outcomes():
            if counts is not None and action.counts == counts:
                return [action]
        raise ValueError(f"{text!r} is not a roll of {n} star dice: type {ask.entry}")

    def rolled(self, loop: Any, action: Any) -> None:
        if isinstance(action, A.Roll):
            faces = roll_faces(action.counts)
            loop.rolls.append(faces)
            loop.hw.display.show(dice_frame(faces, loop.hw.display.size))

    def decided(self, loop: Any, action: Any) -> None:
        if self.show_odds and isinstance(action, A.Challenge | A.UseAnimal):
            loop.view.message(odds_message(loop.state, action))

    def parse(self, text: str) -> Any:
        return parse_action(text)

    def named(self, state: Any, line: str) -> str:
        """Who acts for the animal by colour, as every seat is named: ``challenge G F for
        blue`` (the notation's ``for 2`` named the seat by its number)."""

        def seats(found: re.Match[str]) -> str:
            return re.sub(r"\d+", lambda n: state.seat_name(int(n[0])), found[0])

        return re.sub(r"\bfor (<[\d|]+>|\d+)", seats, line)

    def expand(self, state: Any, line: str) -> list[Any] | None:
        """``challenge G F for blue``: who acts for the animal typed by colour (the
        notation names the seat by its number, ``for 2``); ``None``: no colour named."""
        pattern = r"\bfor\s+([^\W\d]\w*)"
        said = [word.lower() for word in re.findall(pattern, line, flags=re.IGNORECASE)]
        if not said:
            return None
        seats = {state.seat_name(s).lower(): s for s in range(state.players)}
        unknown = [word for word in said if word not in seats]
        if unknown:
            raise ValueError(
                f"{unknown[0]!r} is no player here: 'for' names who acts for the animal, "
                f"one of {', '.join(seats)}"
            )
        line = re.sub(pattern, lambda w: f"for {seats[w[1].lower()]}", line, flags=re.IGNORECASE)
        return [parse_action(part) for part in line.split(",") if part.strip()]

    def listed_options(self, state: Any, options: Sequence[Any]) -> list[Any]:
        """Each challenge once, without naming who acts for the animal (with 3 to 5
        players every fellow player doubled an animal's challenge, and a long list cut
        the map at 80x24); such a challenge is typed in full or numbered by '?'."""
        listed = [a for a in options if getattr(a, "proxy", None) is None]
        self.named_left_out = len(listed) < len(options)
        return listed

    def option_lines(self, options: Sequence[Any]) -> list[str]:
        lines = super().option_lines(options)
        if self.named_left_out:
            lines.append("(who acts for the animal may be named too: ? lists every challenge)")
        return lines


def odds_message(state: Any, action: A.Challenge | A.UseAnimal) -> str:
    """The odds of a challenge, in one line for the log."""
    if isinstance(action, A.Challenge):
        attacker = state.board[state.arena.index(action.team)]
    else:
        attacker = ("animal", state.animal_index(action.animal))
    target = state.board[state.arena.index(action.target)]
    return odds_line(odds_for_challenge(state, attacker, target))


class GladiatorenTable(TableLoop):
    """Tracked play: the engine runs the game; every seat has an agent (bot or person)."""

    game_name = GAME

    def __init__(self, session: Any, *args: Any, show_odds: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("adapter", GladiatorenAdapter(show_odds))
        super().__init__(session, *args, **kwargs)

    def run_combat(self) -> list[Event]:
        """Play until the combat under way (or about to start) is over; its events."""
        events: list[Event] = []
        if self.state.combat is None:
            events += self.run_until(lambda state: state.combat is not None)
        return events + self.run_until(lambda state: state.combat is None)
