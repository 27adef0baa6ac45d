"""Assist mode at the table: the pieces are the truth, the buttons drive the companion.

Buttons:
- ROLL: movement is done, roll the Doom die (the LEDs animate, the face stays lit);
- SELECT: cycle through the choices (Eliminator targets light up on the arena, a
  free choice lights its die LED, other choices show on the screen);
- CONFIRM: take the selected choice, or confirm that the players did what the
  screen asked (resolved a Battle Royale, removed the blinking tiles);
- the red button: fire the Eliminator while an explosion is armed (its field blinks).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.battle_royale import actions as A
from companion.games.battle_royale.assist import (
    CardExtra,
    DeclareOut,
    DeclareWinner,
    Fired,
    Removed,
    Resolved,
)
from companion.games.battle_royale.layout import field_name
from companion.hal import GestureTracker
from companion.table.battle_royale_table import BattleRoyaleAdapter
from companion.table.loop import TableLoop
from companion.table.session import UndoRefused, fire_token

CORRECTIONS = (A.RemoveField, A.SetEliminator)

#: What the table waits for, said with its buttons (the engine's own words, ``state.prompt``,
#: name its actions: ``continue``, ``card-extra <face>``, ``resolved``, which nobody types).
TABLE_PHASE_TEXT = {
    "movement": "the active player moves figures by hand, then presses ROLL (a card with an "
    "extra action: SELECT to it, then CONFIRM)",
    "battle_royale": "the players resolve the Battle Royale by hand, then press CONFIRM",
    "armed": "the explosion is armed: hit the red button",
    "remove_fields": "the players clear the table after the explosion, then press CONFIRM",
}


def describe(state: Any, action: Any) -> str:
    """A choice in words for the screen."""
    if isinstance(action, A.Continue):
        return "movement done: roll the Doom die"
    if isinstance(action, Resolved):
        return "the Battle Royale is resolved"
    if isinstance(action, Removed):
        return "the tiles are off the table"
    if isinstance(action, CardExtra):
        return f"my card has an extra action: {action.face.replace('_', ' ')}"
    if isinstance(action, DeclareOut):
        return f"{state.colours[action.seat]} is out (no figure left)"
    if isinstance(action, DeclareWinner):
        return "winner: " + " and ".join(state.colours[s] for s in action.seats)
    if isinstance(action, A.MoveEliminator):
        return f"move the Eliminator under {field_name(action.position)}"
    if isinstance(action, A.ChooseAction):
        return f"free choice: {action.face.replace('_', ' ')}"
    return str(action)


def choice_prompt(
    state: Any,
    options: Sequence[Any],
    index: int,
    face: str | None = None,
    *,
    typing: bool = False,
) -> str:
    """Whose turn it is, what the table waits for (in buttons: :data:`TABLE_PHASE_TEXT`),
    what SELECT points at and what each button does now. ``typing``: the table reads typed
    lines (a terminal), so ``undo`` may be typed too; a headless table (``companion
    serve``) has only the buttons."""
    turn = f"{state.colours[state.active]}'s turn" if state.turn else "setting up"
    shown = f", Doom die: {face.replace('_', ' ')}" if face else ""
    waits = TABLE_PHASE_TEXT.get(state.phase, state.prompt)
    undo = "hold SELECT (or type undo): undo" if typing else "hold SELECT: undo"
    return (
        f"{turn}{shown} - {waits}. SELECT points at: {describe(state, options[index])} "
        f"({index + 1}/{len(options)}); SELECT: next, CONFIRM: take it; {undo}"
    )


class AssistAdapter(BattleRoyaleAdapter):
    """Assist mode: the blinking tiles to take off, the explosion armed as soon as the
    rules arm it (a press from then on fires)."""

    def react(self, loop: Any, events: Sequence[Any]) -> None:
        for event in events:
            if event.kind == "turn_started":
                loop.show_turn()
                loop.last_face = None
        state = loop.state
        loop.highlight = set()
        loop.blink = set()
        if state.phase == "remove_fields":  # the tiles to take off blink until confirmed
            loop.blink = set(state.collapsed_fields)
            if state.exploded_field is not None:
                loop.blink.add(state.exploded_field)
        armed = state.explosion_armed_field()
        if armed is not None:  # arm as soon as the rules do: a press from now on fires
            loop.blink = {armed}
            loop.arm_explosion(armed, loop.fire_token(armed))
        loop.paint()

    def rolled(self, loop: Any, action: Any) -> None:
        super().rolled(loop, action)
        if hasattr(action, "face"):
            loop.last_face = action.face
            loop.view.message(f"the Doom die shows: {action.face.replace('_', ' ')}")


class AssistTable(TableLoop):
    """Runs an :class:`~companion.games.battle_royale.assist.AssistState` with buttons."""

    EARLY_ROLL_COUNTS = True  # the buttons drive the game: ROLL pressed early still rolls

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("adapter", AssistAdapter())
        super().__init__(*args, **kwargs)
        self._roll_pressed = False
        self.last_face: str | None = None  # the Doom die's face this turn

    def run(self) -> Any:
        state = super().run()
        self.paint()
        return state

    def roll(self, *, pressed: bool = False) -> list[Any]:
        if self._roll_pressed and self.state.phase == "doom_roll":
            self._roll_pressed = False  # ROLL ended the movement: roll without asking again
            pressed = True
        return super().roll(pressed=pressed)

    def decide(self) -> Any:
        """Fire an armed explosion, or the choice made with the buttons; committed."""
        state = self.state
        if state.phase == "armed":
            cell = state.explosion_armed_field()
            fired = self.fire_sequence(cell, self.fire_token(cell))
            if not fired:
                self.wait_for(
                    {"confirm"},
                    f"lift the tile {field_name(cell)} out by hand, then press CONFIRM",
                    asked=self.hw.inputs.last_seq,  # a CONFIRM from before does not say so
                )
            action: Any = Fired()
        else:
            action = self.choose_by_buttons()
            if action is None:  # undone: the state was rebuilt
                return None
        self.session.commit(action)
        return action

    def fire_token(self, cell: int) -> str:
        return fire_token(self.state.turn, field_name(cell))

    # -- choices with SELECT / CONFIRM ---------------------------------------------------

    def choose_by_buttons(self) -> Any:
        """SELECT (short) cycles, CONFIRM takes, ROLL ends movement, SELECT held undoes.

        Only presses made once the question appeared answer it: one made while the table
        was busy (a roll's animation, the last choice still being shown) would take a
        choice nobody saw selected, so it is dropped.

        Returns the chosen action, or ``None`` when an undo rebuilt the state.
        """
        state = self.state
        options = [a for a in state.legal_actions() if not isinstance(a, CORRECTIONS)]
        index = 0
        gestures = GestureTracker()
        asked = self.hw.inputs.last_seq  # the presses up to here came before the question
        if self.operator is not None and self.terminal is None:
            self._operate(options)
        while True:
            choice = options[index]
            self._show_choice(choice)
            event = self.wait_for(
                {"select", "confirm", "roll"},
                choice_prompt(
                    state, options, index, self.last_face, typing=self.terminal is not None
                ),
                kinds=("press", "long_press", "release"),
                seat=None,
                operate=False,
                undo=True,
                asked=asked,
            )
            if event.button == "select":
                gesture = gestures.feed(event)
                if gesture == "short":
                    index = (index + 1) % len(options)
                elif gesture == "long":
                    try:
                        self.session.undo(1)
                    except UndoRefused as exc:
                        self.view.message(str(exc))
                        continue
                    self.view.message("undid the last choice")
                    return None
            elif event.kind != "press":
                continue
            elif event.button == "confirm":
                return choice
            elif isinstance(options[0], A.Continue):  # ROLL during movement
                self._roll_pressed = True
                return options[0]

    def _show_choice(self, choice: Any) -> None:
        if isinstance(choice, A.MoveEliminator):
            self.highlight = set(self.state.eliminator_targets()) - {choice.position}
            self.blink = {choice.position}
            self.paint()
        elif isinstance(choice, A.ChooseAction):
            self.hw.status_leds.show_die(choice.face)

    def _operate(self, options: list[Any]) -> None:
        """The simulated operator: roll after movement, otherwise a random choice."""
        assert self.operator is not None
        if isinstance(options[0], A.Continue):
            self.operator.press("roll")
            return
        pool = [
            i for i, a in enumerate(options) if not isinstance(a, DeclareOut | DeclareWinner)
        ] or list(range(len(options)))
        pick = self.operator.pick(pool)
        for _ in range(pick):
            self.operator.press("select")
        self.operator.press("confirm")
