"""Battle Royale at the table: what the arena display and the LEDs show, the Doom die.

- The arena display shows the fields, holes, the centre and the Eliminator
  (:func:`~companion.table.arena_frame.arena_frame`), with the loop's highlight and
  blink marks on top (an armed explosion's field blinks).
- The turn LEDs light the active colour; the die LEDs animate a Doom roll and keep its
  face lit.
- The Doom die waits for ROLL, or for its face typed from the players' own die
  (``explosion``, ``battle royale``, ``move eliminator``, ``free choice``).
- Tracked mode: an ``explosion_armed`` event starts the fire sequence at once, once the
  events up to it (the Doom roll, the explosion) are shown; the events of what fell are
  shown after the pulse (the board shown with them is the engine's, the explosion applied,
  as on the arena LEDs). A game resumed between an explosion and its fire arms it again.

:class:`TrackedTable` is the shared loop with this adapter; assist mode's buttons are in
:mod:`companion.table.assist`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.battle_royale import parse_action
from companion.games.battle_royale.layout import field_name, parse_field
from companion.table.adapter import DiceAsk, TableAdapter
from companion.table.arena_frame import arena_frame
from companion.table.loop import TrackedTable
from companion.table.session import fire_token
from companion.table.shorthand import expand_move

#: The Doom die's faces as people say them.
FACE_WORDS = {
    "explosion": "explosion",
    "battle royale": "battle_royale",
    "move eliminator": "move_eliminator",
    "free choice": "free_choice",
}


#: Under ``done`` after a blast (or a special action applied by hand): the corrections are
#: too many to list (``?`` lists them), so their forms are shown. Only ``1: done`` was, and a
#: newcomer could not tell that the board may be corrected.
CORRECTIONS_LINE = (
    "or correct the board first: knockoff <field> <colour>, shift <field> <colour> <to>, "
    "remove <field>, set-eliminator <field> (? lists each)"
)


def in_words(text: str) -> str:
    """Doom faces in words in a text for people (``choose move_eliminator`` ->
    ``choose move eliminator``)."""
    for name, face in FACE_WORDS.items():
        text = text.replace(face, name)
    return text


def face_of(text: str) -> str | None:
    """A Doom die face from typed words (``explosion``, ``battle royale``, ``move``,
    ``free``, or the first letters of one); ``None`` if none."""
    words = " ".join(text.lower().replace("_", " ").replace("-", " ").split())
    if words == "br":  # as the cards write it ('play 1x2+br')
        return "battle_royale"
    if len(words) < 3:
        return None
    found = [face for name, face in FACE_WORDS.items() if name.startswith(words)]
    return found[0] if len(found) == 1 else None


class BattleRoyaleAdapter(TableAdapter):
    """Battle Royale (tracked and assist mode) on the table's hardware."""

    game = "battle-royale"
    hint = "number, action, or a move like 'b2 E N'"

    def prompt_hint(self, state: Any) -> str:
        """The move shorthand only where a figure may move: at the card's choice 'b2 E N'
        was refused as if the moves before it were made."""
        return self.hint if getattr(state, "phase", "") == "move" else "number or action"

    def frame(self, loop: Any) -> Any:
        state = loop.state
        return arena_frame(
            state.present, state.eliminator, highlight=loop.highlight, blink=loop.blink
        )

    def react(self, loop: Any, events: Sequence[Any]) -> None:
        for i, event in enumerate(events):
            if event.kind == "turn_started":
                loop.show_turn()
            elif event.kind == "explosion_armed" and loop.session.settings.mode == "tracked":
                loop.show_now(events[: i + 1])  # the roll and the explosion, then the red button
                name = event.data["field"]
                loop.fire_sequence(parse_field(name), fire_token(loop.state.turn, name))
        loop.paint()

    def resumed(self, loop: Any) -> None:
        if loop.session.pending_fire is not None:  # resumed between an explosion and its fire
            name, token = loop.session.pending_fire
            loop.view.message(f"resumed: the explosion under {name} is armed again")
            loop.fire_sequence(parse_field(name), token)

    def dice(self, state: Any) -> DiceAsk | None:
        first = state.chance_outcomes()[0][0]
        if not hasattr(first, "face"):
            return None  # a card drawn, the start player
        extra = " (extra roll: only an explosion counts)" if first.kind == "extra-roll" else ""
        return DiceAsk(
            state.active,
            "the Doom die" + extra,
            "its face: explosion, battle royale (br), move eliminator or free choice (or "
            "its first three letters)",
        )

    def entered(self, state: Any, text: str, ask: DiceAsk) -> list[Any]:
        face = face_of(text)
        for action, _ in state.chance_outcomes():
            if action.face == face:
                return [action]
        raise ValueError(f"{text!r} is not a face of the Doom die: type {ask.entry}")

    def rolled(self, loop: Any, action: Any) -> None:
        if hasattr(action, "face"):
            loop.animate_roll(action.face)

    def parse(self, text: str) -> Any:
        """The notation, with the Doom faces also in words (``choose move eliminator``)."""
        words = " ".join(text.split())
        for name, face in FACE_WORDS.items():
            words = words.replace(name, face).replace(name.replace(" ", "-"), face)
        return parse_action(words)

    def private_prompt(self, state: Any) -> bool:
        """A card to play is asked with the seat's hand listed (the hands are hidden): with
        several people at one terminal it is asked after a hand-over."""
        return state.phase == "turn_start"

    def ask(self, state: Any, seat: int) -> str:
        """Whose choice it is, and for a capture or a push on which field."""
        colour = state.colours[seat]
        if state.phase == "capture" and getattr(state, "br_cell", None) is not None:
            return (
                f"{colour}: Battle Royale on {field_name(state.br_cell)} - take a figure "
                f"on {field_name(state.br_cell)} prisoner"
            )
        if state.phase == "push" and getattr(state, "push_stack", None):
            cell = state.push_stack[-1][0]
            return (
                f"{colour}: {field_name(cell)} is over-full - push a figure off {field_name(cell)}"
            )
        if state.phase == "blast":  # ruling 9a: the board is the engine's, the table may differ
            return (
                f"{colour}: if the blast moved figures or tiles otherwise than the board "
                "shows, correct the board; then done"
            )
        if state.phase == "special_effect":
            return f"{colour}: apply the special action on the board by hand (corrections)"
        return f"{colour}: choose"

    def option_lines(self, options: Sequence[Any]) -> list[str]:
        lines = [in_words(line) for line in super().option_lines(options)]
        if any(a.kind == "done" for a in options):  # the corrections: one row, not hundreds
            lines.append(CORRECTIONS_LINE)
        return lines

    def expand(self, state: Any, line: str) -> list[Any] | None:
        return expand_move(state, line)


__all__ = ["BattleRoyaleAdapter", "TrackedTable", "face_of", "in_words"]
