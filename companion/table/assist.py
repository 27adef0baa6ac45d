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
)
from companion.games.battle_royale.events import Event
from companion.games.battle_royale.layout import field_name
from companion.hal import GestureTracker
from companion.table.loop import TableLoop
from companion.table.session import UndoRefused, fire_token

CORRECTIONS = (A.RemoveField, A.SetEliminator)


def describe(state: Any, action: Any) -> str:
    """A choice in words for the screen."""
    if isinstance(action, A.Continue):
        return "movement done: roll the Doom die"
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


class AssistTable(TableLoop):
    """Runs an :class:`~companion.games.battle_royale.assist.AssistState` with buttons."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._roll_pressed = False

    def run(self) -> Any:
        state = self.state
        first = [] if state.history else list(getattr(state, "initial_events", []))
        if state.turn:
            self.show_turn()  # a resumed game, or a start player set in the config
        self.react(first)
        self.view.update(state, first)
        while not self.state.is_terminal:
            self.step()
        self.session.finish()
        self.hw.status_leds.show_turn(None)
        self.paint()
        return self.state

    def step(self) -> list[Event]:
        state = self.state
        if state.is_chance_node:
            if self._roll_pressed and state.phase == "doom_roll":
                self._roll_pressed = False
                action = self.roller.choose(state.chance_outcomes())
                self.session.commit(action)  # durable before the face is shown
                self.animate_roll(action.face)
            else:
                action = self.resolve_chance()
        elif state.phase == "armed":
            cell = state.explosion_armed_field()
            fired = self.fire_sequence(cell, self.fire_token(cell))
            if not fired:
                self.wait_for(
                    {"confirm"}, f"lift the tile {field_name(cell)} out by hand, then press CONFIRM"
                )
            action = Fired()
            self.session.commit(action)
        else:
            action = self.choose_by_buttons()
            if action is None:  # undone: the state was rebuilt
                self.show_turn()
                self.react([])
                self.view.update(self.state, [])
                return []
            self.session.commit(action)
        events = self.session.apply(action)
        self.react(events)
        self.view.update(self.state, events)
        return events

    def react(self, events: Sequence[Event]) -> None:
        for event in events:
            if event.kind == "turn_started":
                self.show_turn()
        state = self.state
        self.highlight = set()
        self.blink = set()
        if state.phase == "remove_fields":  # the tiles to take off blink until confirmed
            self.blink = set(state.collapsed_fields)
            if state.exploded_field is not None:
                self.blink.add(state.exploded_field)
        armed = state.explosion_armed_field()
        if armed is not None:  # arm as soon as the rules do: a press from now on fires
            self.blink = {armed}
            self.arm_explosion(armed, self.fire_token(armed))
        self.paint()

    def fire_token(self, cell: int) -> str:
        return fire_token(self.state.turn, field_name(cell))

    # -- choices with SELECT / CONFIRM ---------------------------------------------------

    def choose_by_buttons(self) -> Any:
        """SELECT (short) cycles, CONFIRM takes, ROLL ends movement, SELECT held undoes.

        Returns the chosen action, or ``None`` when an undo rebuilt the state.
        """
        state = self.state
        options = [a for a in state.legal_actions() if not isinstance(a, CORRECTIONS)]
        index = 0
        gestures = GestureTracker()
        if self.operator is not None and self.terminal is None:
            self._operate(options)
        while True:
            choice = options[index]
            self._show_choice(choice)
            roll_hint = ", ROLL when done" if isinstance(options[0], A.Continue) else ""
            event = self.wait_for(
                {"select", "confirm", "roll"},
                f"{state.prompt}: {describe(state, choice)} - SELECT for the next choice "
                f"({index + 1}/{len(options)}), CONFIRM to take it{roll_hint}; hold SELECT "
                "to undo",
                kinds=("press", "long_press", "release"),
                seat=None,
                operate=False,
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
