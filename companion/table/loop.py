"""The table loop: one game state + one hardware set. The only place the two meet.

:class:`TableLoop` holds what every mode shares: status LEDs for the turn, the
Doom die rolled on the roll button with a short LED animation, the arena
display, and the Eliminator's fire sequence (arm, wait for the red button,
fire through the solenoid guard). :class:`TrackedTable` runs the full engine;
the assist-mode loop lives in :mod:`companion.table.assist`.

The loop does not know which backend it has: it only uses the roles of
:class:`companion.hal.Hardware`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from companion.dice import Roller
from companion.games.battle_royale.events import Event
from companion.games.battle_royale.layout import field_name, parse_field
from companion.games.core.errors import IllegalActionError
from companion.hal import DIE_FACES, Hardware, Refusal
from companion.table.arena_frame import arena_frame
from companion.table.people import (
    Agent,
    SimOperator,
    TableStopped,
    TerminalInput,
    UndoRequest,
)
from companion.table.session import GameSession, SessionSettings, UndoRefused, fire_token

ROLL_ANIMATION_STEPS = 6
ROLL_ANIMATION_STEP_S = 0.05
POLL_S = 0.05
#: Longest single sleep of :meth:`TableLoop.rest` between two heartbeats.
REST_STEP_S = 1.0


class TableView(Protocol):
    """Where the loop tells people what happens (the rich dashboard, or a test's list)."""

    def update(self, state: Any, events: Sequence[Event]) -> None: ...

    def message(self, text: str) -> None: ...

    def prompt(self, text: str, options: Sequence[str] = ()) -> None: ...


class TableLoop:
    """Shared machinery of the table modes.

    ``sleep`` waits on the hardware's clock (a :class:`~companion.hal.ManualClock`
    in simulations advances instantly). ``operator`` presses buttons on simulated
    hardware when no person is present; ``terminal`` lets a person at a laptop
    type commands; on simulated hardware ``roll``, ``fire`` (the red button),
    ``select`` and ``confirm`` are pressed for them.

    ``heartbeat`` is called whenever the loop waits (each input poll, each step of
    a pause or a cool-down), so it keeps being called as long as the loop is alive
    and stops when the loop hangs: the Pi service feeds systemd's watchdog from it
    (:meth:`companion.notify.Notifier.heartbeat`). It must be cheap and must not raise.
    The session's journal calls it too while it waits for space on a full disk.
    """

    def __init__(
        self,
        game: Any,
        hw: Hardware,
        roller: Roller,
        view: TableView,
        *,
        sleep: Callable[[float], None] = time.sleep,
        operator: SimOperator | None = None,
        terminal: TerminalInput | None = None,
        heartbeat: Callable[[], None] | None = None,
    ) -> None:
        if not isinstance(game, GameSession):  # a bare state: play it without a journal
            game = GameSession(game, game.config, SessionSettings(mode=_mode_of(game)))
        self.session = game
        self.hw = hw
        self.roller = roller
        self.view = view
        self.sleep = sleep
        self.operator = operator
        self.terminal = terminal
        self.heartbeat: Callable[[], None] = heartbeat or _no_heartbeat
        if game.journal is not None:  # a full disk pauses the table: it waits, alive
            game.journal.heartbeat = self.heartbeat
        self.highlight: set[int] = set()
        self.blink: set[int] = set()
        self.fire_results: list[Any] = []

    @property
    def state(self) -> Any:
        """The game state (a new object after an undo)."""
        return self.session.state

    # -- output ------------------------------------------------------------------------

    def paint(self) -> None:
        """Show the arena on the display (fields, holes, centre, Eliminator, marks)."""
        self.hw.display.show(
            arena_frame(
                self.state.present,
                self.state.eliminator,
                highlight=self.highlight,
                blink=self.blink,
            )
        )

    def show_turn(self) -> None:
        colours = self.hw.status_leds.colours
        colour = self.state.colours[self.state.active]
        self.hw.status_leds.show_turn(colour if colour in colours else None)

    def animate_roll(self, face: str) -> None:
        """A short rolling animation over the die LEDs, ending on ``face``."""
        for i in range(ROLL_ANIMATION_STEPS):
            self.hw.status_leds.show_die(DIE_FACES[i % len(DIE_FACES)])
            self.sleep(ROLL_ANIMATION_STEP_S)
        self.hw.status_leds.show_die(face)

    # -- input -------------------------------------------------------------------------

    def seat_is_bot(self, seat: int) -> bool:
        """Whether a bot plays ``seat`` (then the simulated operator presses for it)."""
        return False

    def wait_for(
        self,
        buttons: Iterable[str],
        prompt: str,
        kinds: Iterable[str] = ("press",),
        *,
        seat: int | None = None,
        operator_presses: str | None = None,
        operate: bool = True,
    ) -> Any:
        """Wait for a press of one of ``buttons`` (or a typed command naming one).

        Returns the :class:`~companion.hal.InputEvent`. When a simulated
        operator stands in for ``seat`` (a bot's seat, or any seat when no
        person is at the table), it presses ``operator_presses`` (default: the
        first button) first.
        """
        buttons, kinds = set(buttons), set(kinds)
        self.view.prompt(prompt)
        pressing = (
            operate
            and self.operator is not None
            and (self.terminal is None or (seat is not None and self.seat_is_bot(seat)))
        )
        if pressing:
            self.operator.press(operator_presses or sorted(buttons)[0])
        while True:
            self.heartbeat()
            if not getattr(self.hw, "connected", True):  # the I/O board is away: pause
                self.pause_for_board()
                if pressing:  # the press may have been lost with the board
                    self.operator.press(operator_presses or sorted(buttons)[0])
                continue
            event = self.hw.next_input(timeout=0 if self.terminal else POLL_S)
            if event is not None:
                if event.button in buttons and event.kind in kinds:
                    return event
                continue
            if self.terminal is not None:
                self._typed_button(self.terminal.poll(POLL_S))

    def pause_for_board(self) -> None:
        """Wait (bounded steps) until the I/O board is back; the solenoid never fires meanwhile."""
        self.view.message(f"{self.hw.link_status}: table paused until the I/O board is back")
        while not self.hw.wait_connected(0.5):
            self.heartbeat()
            if self.terminal is not None and self.terminal.poll(0) in ("quit", "q"):
                raise TableStopped("quit")
        self.view.message("I/O board back: table resumed")

    def rest(self, seconds: float) -> None:
        """Sleep ``seconds`` in steps of at most :data:`REST_STEP_S`, beating in between."""
        while seconds > 0:
            step = min(seconds, REST_STEP_S)
            self.sleep(step)
            self.heartbeat()
            seconds -= step

    TYPED = {
        "roll": "roll",
        "r": "roll",
        "fire": "trigger",
        "f": "trigger",
        "select": "select",
        "s": "select",
        "confirm": "confirm",
        "c": "confirm",
    }

    def _typed_button(self, line: str | None) -> None:
        if line is None:
            return
        if line in ("quit", "q"):
            raise TableStopped("quit")
        button = self.TYPED.get(line.lower())
        if button is None:
            self.view.message(f"{line!r}: type roll, fire, select or confirm")
        elif self.hw.sim is None:
            self.view.message("on real hardware, press the button itself")
        else:
            self.hw.sim.tap(button, 0.03)

    # -- chance and the Doom die -------------------------------------------------------

    def resolve_chance(self) -> Any:
        """Pick the chance node's outcome; a Doom roll waits for the roll button."""
        outcomes = self.state.chance_outcomes()
        first = outcomes[0][0]
        if hasattr(first, "face"):
            seat = self.state.active
            extra = " (extra roll: only an explosion counts)" if first.kind == "extra-roll" else ""
            self.wait_for(
                {"roll"},
                f"{self.state.colours[seat]}: press ROLL for the Doom die{extra}",
                seat=seat,
            )
            action = self.roller.choose(outcomes)
            self.session.commit(action)  # durable before the face is shown
            self.animate_roll(action.face)
            return action
        action = self.roller.choose(outcomes)
        self.session.commit(action)
        return action

    # -- the Eliminator ----------------------------------------------------------------

    def arm_explosion(self, cell: int, token: str) -> None:
        """Make the arming durable, then arm the solenoid guard for *token*.

        The ``armed`` record is written before the guard is armed, so before anyone
        can press: from then on the red button switches the coil on with no disk
        I/O in between. A token whose tile has flown (a ``fired`` record) is never
        armed again.
        """
        if token in self.session.fired_tokens:
            return
        self.session.armed(field_name(cell), token)
        if self.hw.eliminator.armed_token != token:
            self.hw.eliminator.arm(token)

    def fire_sequence(self, cell: int, token: str) -> bool:
        """Arm, blink the field, wait for the red button, fire through the guard.

        Returns whether the tile flew: a pulse fired, or, for an explosion that was
        armed when the table stopped (a power cut, a crash), the players confirmed
        with CONFIRM that it had flown already; it never fires without a press. A
        refusal for cool-down waits and asks again; a driver fault is reported and
        the players remove the tile by hand. Nothing is written to the journal
        between the press and the coil: the ``fired`` record follows the pulse.
        """
        if token in self.session.fired_tokens:  # flew before the table stopped
            return True
        buttons = {"trigger"}
        guard = self.hw.eliminator
        offered_after = self.hw.inputs.last_seq  # a CONFIRM counts if pressed after this
        self.arm_explosion(cell, token)
        self.blink = {cell}
        self.paint()
        self.view.message(f"explosion under {field_name(cell)}: hit the red button")
        if token in self.session.armed_before_stop:
            buttons.add("confirm")
            self.view.message(
                f"the table stopped while this explosion was armed: if the tile on "
                f"{field_name(cell)} already flew, press CONFIRM instead"
            )
        prompt = "hit the RED BUTTON to fire the Eliminator"
        if "confirm" in buttons:
            prompt += " (CONFIRM: the tile already flew)"
        try:
            while True:
                press = self.wait_for(
                    buttons,
                    prompt,
                    seat=self.state.active,
                    operator_presses="trigger",
                )
                if press.button == "confirm":  # the players: the tile already flew
                    if press.seq <= offered_after:
                        continue
                    self.session.fired(field_name(cell), token, source="players")
                    self.view.message(f"the tile on {field_name(cell)} already flew")
                    return True
                result = guard.fire(press)  # no disk I/O between the press and the coil
                self.fire_results.append(result)
                if result.fired:
                    self.session.fired(field_name(cell), token)  # durable after the pulse
                    self.view.message(f"Eliminator fired ({result.pulse.length_s * 1000:.0f} ms)")
                    self.wait_coil_off()
                    return True
                if result.reason == Refusal.COOLING_DOWN:
                    self.view.message(f"solenoid cooling down: {result.retry_after_s:.1f} s")
                    self.rest(result.retry_after_s or 0.1)
                    guard.arm(token)
                    continue
                settled = self.settle_failed_fire(result, cell)
                if settled is not None:
                    return settled
                # nothing fired (a stale or repeated press, or link trouble): a fresh press
                guard.arm(token)
        finally:
            guard.disarm()
            self.blink = set()

    def settle_failed_fire(self, result: Any, cell: int) -> bool | None:
        """What a fire that did not fire means for the people at the table.

        Returns True if the Eliminator did fire after all (an unanswered FIRE the I/O
        board then accounted for), False if the players must lift the tile out by hand
        (said only once the coil is confirmed off), None if nothing fired and a fresh
        press may fire (link trouble, or a stale press)."""
        guard = self.hw.eliminator
        if result.reason is Refusal.OUTCOME_UNKNOWN:
            settled = self.wait_fire_outcome(cell)
            if settled is not None:  # it flew, or may have: the explosion is done, durably
                self.session.fired(field_name(cell), result.token)
            return settled
        if result.reason is Refusal.DRIVER_FAULT:
            clear = getattr(guard, "clear_link_fault", None)
            if not getattr(self.hw, "connected", True):
                self.pause_for_board()  # the board went away before the FIRE: nothing fired
                if clear is not None:
                    clear()
                return None
            if clear is not None and clear():
                self.view.message("link trouble: nothing fired; hit the red button again")
                return None
        if result.reason in (Refusal.DRIVER_FAULT, Refusal.CLOSED):
            self.wait_coil_off()
            self.view.message(
                f"solenoid fault ({result.message}): the coil is off; lift the tile "
                f"{field_name(cell)} out by hand"
            )
            return False
        return None

    def wait_fire_outcome(self, cell: int) -> bool | None:
        """The I/O board did not answer a FIRE: say so, keep hands away, and wait (in
        bounded steps, pausing while the board is away) for its account of the coil."""
        guard = self.hw.eliminator
        self.view.message(
            "no answer from the I/O board: the Eliminator may or may not have fired. "
            "Keep your hands off the arena until the board says what it did"
        )
        while True:
            self.heartbeat()
            outcome = guard.resolve_outcome(0.5)
            if outcome is not None:
                break
            if not getattr(self.hw, "connected", True):
                self.pause_for_board()
            elif self.terminal is not None and self.terminal.poll(0) in ("quit", "q"):
                raise TableStopped("quit")
        if outcome == "not_fired":
            self.view.message("the I/O board did not fire: hit the red button again")
            return None
        self.wait_coil_off()
        if outcome == "fired":
            self.view.message("the I/O board confirms: the Eliminator fired")
            return True
        self.view.message(
            f"the I/O board restarted before it said whether it fired; the coil is off: if "
            f"the tile {field_name(cell)} is still in the arena, lift it out by hand"
        )
        return False

    def wait_coil_off(self) -> None:
        """Return once the board (or, on the gpio and sim profiles, the guard) confirms the
        coil is off; until then say so and wait, in bounded steps."""
        guard = self.hw.eliminator
        confirm = getattr(guard, "confirm_coil_off", None)
        said = False
        while True:
            self.heartbeat()
            if confirm is not None:
                if confirm(0.5):
                    return
            elif not getattr(guard, "is_on", False):
                return
            else:
                guard.off()
                self.sleep(POLL_S)
            if not said:
                self.view.message(
                    "waiting for the coil to be confirmed off: keep your hands off the arena"
                )
                said = True
            if not getattr(self.hw, "connected", True):
                self.pause_for_board()
            elif self.terminal is not None and self.terminal.poll(0) in ("quit", "q"):
                raise TableStopped("quit")


class TrackedTable(TableLoop):
    """Tracked mode: the full engine; every seat has an agent (bot or person)."""

    def __init__(
        self,
        game: Any,
        hw: Hardware,
        roller: Roller,
        view: TableView,
        agents: dict[int, Agent],
        **kwargs: Any,
    ) -> None:
        super().__init__(game, hw, roller, view, **kwargs)
        self.agents = agents

    def seat_is_bot(self, seat: int) -> bool:
        return bool(getattr(self.agents.get(seat), "is_bot", False))

    def run(self) -> Any:
        """Play to the end of the game; returns the final state."""
        if self.state.turn:  # resuming mid-game; a new game lights its first turn on start
            self.show_turn()
        self.paint()
        self.view.update(self.state, [])
        if self.session.pending_fire is not None:  # resumed between an explosion and its fire
            name, token = self.session.pending_fire
            self.view.message(f"resumed: the explosion under {name} is armed again")
            self.fire_sequence(parse_field(name), token)
        while not self.state.is_terminal:
            self.step()
        self.session.finish()
        self.hw.status_leds.show_turn(None)
        return self.state

    def step(self) -> list[Event]:
        if self.state.is_chance_node:
            action = self.resolve_chance()  # committed
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

    def decide(self) -> Any:
        """The current seat's choice, committed to the journal; ``None`` after an undo."""
        return decide(self.session, self.agents[self.state.current_player], self.view)

    def react(self, events: Sequence[Event]) -> None:
        """Map engine events onto the hardware."""
        for event in events:
            if event.kind == "turn_started":
                self.show_turn()
            elif event.kind == "explosion_armed":
                cell = parse_field(event.data["field"])
                self.fire_sequence(cell, fire_token(self.state.turn, event.data["field"]))
        self.paint()


def _no_heartbeat() -> None:
    """The heartbeat of a loop nobody watches."""


def _mode_of(state: Any) -> str:
    return "tracked" if hasattr(state, "counts") else "assist"


def decide(session: Any, agent: Agent, view: TableView) -> Any:
    """Ask ``agent`` for a choice until one is legal, and commit it to the journal.

    A person's illegal choice is explained and asked again (a bot's is a bug and
    raises); an undo request is carried out and gives ``None`` (the state was rebuilt).
    """
    while True:
        action = agent.choose(session.state, session.state.legal_actions())
        if isinstance(action, UndoRequest):
            try:
                session.undo(action.count)
            except UndoRefused as exc:
                view.message(str(exc))
                continue
            view.message(f"undid {action.count} action(s)")
            return None
        try:
            session.commit(action)
            return action
        except IllegalActionError as exc:
            if getattr(agent, "is_bot", False):
                raise
            view.message(str(exc))
