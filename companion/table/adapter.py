"""What one game needs of the table beyond the shared loop: its per-game adapter.

The table loop (:mod:`companion.table.loop`) is game-neutral: it asks agents, commits to
the journal, applies, undoes, pauses while the I/O board is away, waits for buttons and
fires the Eliminator. A :class:`TableAdapter` says, for one game:

- what the turn LEDs and the arena display show (:meth:`~TableAdapter.led`,
  :meth:`~TableAdapter.frame`, :meth:`~TableAdapter.react`);
- which chance nodes are rolls of dice that people may throw themselves
  (:meth:`~TableAdapter.dice`, a :class:`DiceAsk`), and how typed faces become the
  node's outcomes (:meth:`~TableAdapter.entered`);
- how a person at the terminal is asked (:meth:`~TableAdapter.ask`,
  :meth:`~TableAdapter.option_lines`, secrets, shorthand).

Electronic and physical rolls go the same way afterwards: the outcome is committed to
the journal, then applied, so a journal does not say (and need not) whose dice they were.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: More options than this are listed by kind (``kind a|b|c``), not numbered.
MAX_NUMBERED = 24


@dataclass(frozen=True)
class DiceAsk:
    """A roll the companion would make, which players may make with their own dice.

    ``seat`` rolls (``None``: whoever is at the table); ``what`` names the dice ("the
    Doom die", "3 star dice"); ``entry`` says how to type what they show ("6-4");
    ``nodes``: how many chance nodes one roll answers (an attack's hit dice, one node per
    die, are rolled at once).
    """

    seat: int | None
    what: str
    entry: str
    nodes: int = 1


def numbers(text: str) -> list[int]:
    """The whole numbers in a typed roll: ``6-4-3``, ``6 4 3``, ``6,4,3``."""
    return [int(n) for n in re.findall(r"\d+", text)]


def match_outcome(outcomes: Sequence[tuple[Any, Any]], text: str, parse: Any) -> Any | None:
    """The chance node's outcome a person typed: by its notation, or (for dice) by the
    faces in any order; ``None`` if it is none of them."""
    try:
        action = parse(text)
    except ValueError:
        action = None
    faces = sorted(numbers(text))
    for outcome, _ in outcomes:
        if action is not None and outcome == action:
            return outcome
        own = getattr(outcome, "faces", None)
        if own is not None and faces and sorted(own) == faces:
            return outcome
    return None


def kind_lines(options: Sequence[Any]) -> list[str]:
    """Many options as one line per kind: each word's values (``carrier <A|B|C>
    <spear|net>``); a number then chooses one only from the list ``?`` numbers."""
    by_kind: dict[str, list[list[str]]] = {}
    for a in options:
        kind, *words = a.notation.split()
        by_kind.setdefault(kind, []).append(words)
    lines = []
    for kind, rows in by_kind.items():
        width = max(len(r) for r in rows)
        parts = [kind]
        for i in range(width):
            values = list(dict.fromkeys(r[i] for r in rows if len(r) > i))
            parts.append(values[0] if len(values) == 1 else f"<{'|'.join(values)}>")
        lines.append(" ".join(parts))
    return lines


class TableAdapter:
    """The defaults: colours on the turn LEDs, nothing on the arena display, no dice
    asked (the companion draws every chance node), numbered options."""

    #: The registry's name of the game (journals, sessions).
    game = ""
    #: What a person may type, shown in every prompt.
    hint = "number or action"

    def prompt_hint(self, state: Any) -> str:
        """What the prompt says may be typed now (default :attr:`hint`)."""
        return self.hint

    # -- hardware ------------------------------------------------------------------------

    def turn_seat(self, state: Any) -> int | None:
        """The seat whose turn the LEDs show."""
        seat = getattr(state, "active", None)
        return seat if isinstance(seat, int) else None

    def led(self, state: Any, seat: int | None, colours: Sequence[str]) -> str | None:
        """The turn LED for ``seat`` (``colours``: the hardware's), or ``None``: all off."""
        if seat is None or seat < 0:
            return None
        names = getattr(state, "colours", ())
        colour = names[seat] if seat < len(names) else None
        return colour if colour in colours else None

    def frame(self, loop: Any) -> Any:
        """The arena display's frame now, or ``None`` to leave the display as it is."""
        return None

    def start(self, loop: Any) -> None:
        """The table starts (a new game, or a resumed one): light the turn if it has one."""
        if getattr(loop.state, "turn", 0):
            loop.show_turn()

    def react(self, loop: Any, events: Sequence[Any]) -> None:
        """Events onto the hardware (after they were applied)."""
        for event in events:
            if event.kind == "turn_started":
                loop.show_turn()
        loop.paint()

    def resumed(self, loop: Any) -> None:
        """After the first board is shown: finish what a stop interrupted."""

    # -- dice ----------------------------------------------------------------------------

    def dice(self, state: Any) -> DiceAsk | None:
        """At a chance node: the dice people may throw themselves, or ``None`` (the
        companion draws: a card, a start player)."""
        return None

    def entered(self, state: Any, text: str, ask: DiceAsk) -> list[Any]:
        """The outcomes (``ask.nodes`` of them) a person typed for a roll; ``ValueError``
        with what to type instead."""
        action = match_outcome(state.chance_outcomes(), text, self.parse)
        if action is None:
            raise ValueError(f"{text!r} is not a roll of {ask.what}: type {ask.entry}")
        return [action]

    def before_roll(self, loop: Any, ask: DiceAsk) -> None:
        """Just before a roll is asked (the odds of an attack)."""

    def rolled(self, loop: Any, action: Any) -> None:
        """A roll is journalled, not yet applied: show it (the Doom die's LEDs)."""

    def decided(self, loop: Any, action: Any) -> None:
        """A person's or a bot's choice is journalled, not yet applied."""

    # -- people at the terminal ----------------------------------------------------------

    def parse(self, text: str) -> Any:
        """An action from its notation."""
        from companion.games.registry import get_game

        return get_game(self.game).parse_action(text)

    def expand(self, state: Any, line: str) -> list[Any] | None:
        """Shorthand for several actions (``None``: the line is notation)."""
        return None

    def ask(self, state: Any, seat: int) -> str:
        """What ``seat`` is asked, in words."""
        return f"{state.seat_name(seat)}: choose"

    def own_actions(self, state: Any, seat: int, legal: Sequence[Any]) -> list[Any]:
        """The actions offered to ``seat`` (never another seat's secrets)."""
        return list(legal)

    def listed_options(self, state: Any, options: Sequence[Any]) -> list[Any]:
        """The options the prompt lists (and numbers); ``?`` lists every one. Default: all."""
        return list(options)

    def option_lines(self, options: Sequence[Any]) -> list[str]:
        """Numbered options, or (many of them) one line per kind with its values."""
        if len(options) <= MAX_NUMBERED:
            return [f"{i}: {a.notation}" for i, a in enumerate(options, 1)]
        return kind_lines(options)

    def named(self, state: Any, line: str) -> str:
        """An option (or a notation) as the terminal shows it: seats by their names where
        the notation has their numbers (default: as it is)."""
        return line

    def before_prompt(self, view: Any, state: Any, options: Sequence[Any]) -> None:
        """Before a person is asked (the odds of the attacks offered)."""

    def private_prompt(self, state: Any) -> bool:
        """Whether a prompt shows what only the seat asked may see (a hand)."""
        return False

    def menu(self, state: Any, seat: int) -> Any | None:
        """The seat's actions as a menu, kind first then parameters (``None``: none)."""
        return None

    def answer_word(self, state: Any, seat: int, word: str) -> str | None:
        """What a word of the game's own typed at ``seat``'s prompt shows to that seat
        (Spartacus's ``cards``: what the cards of its hand do); ``None``: not such a word."""
        return None

    def manual_steps(self, state: Any, seat: int) -> list[str]:
        """What ``seat`` does by hand now, each to acknowledge once (a house's own rule)."""
        return []

    def secret_prompt(self, state: Any, seat: int) -> str | None:
        """The prompt of a secret entry (a bid), typed without echo; ``None``: none."""
        return None

    def secret_answer(self, state: Any, seat: int, line: str) -> Any | None:
        """The action of a secret entry typed as ``line`` (``None``: not one)."""
        return None

    # -- out of turn: moments when other seats may play -----------------------------------

    def moments(self, state: Any, events: Sequence[Any]) -> list[Any]:
        """The moments ``events`` opened at which seats other than the one asked may play
        out of turn (a reaction's condition has come true); none by default."""
        return []

    def moment_seats(self, state: Any, moment: Any) -> list[int]:
        """The seats to ask at ``moment`` now, in the order they are asked (empty: the
        moment has passed). Decided by public information only: asking a seat must give
        nothing of its hand away."""
        return []

    def moment_options(self, state: Any, moment: Any, seat: int) -> list[Any]:
        """What ``seat`` may play at ``moment`` (its own legal actions only; empty: it
        holds nothing it could play, which only its own screen may say)."""
        return []

    def moment_text(self, state: Any, moment: Any) -> str:
        """The moment in words, for the seats asked."""
        return "you may play out of turn now"
