"""The table loop: one game state + one hardware set + one journal, for every game.

:class:`TableLoop` is game-neutral. It plays a game through its
:class:`~companion.table.session.GameSession` (commit to the journal, then apply; undo),
asks each seat's agent (a bot, a person at the terminal, later a phone), waits for the
buttons (a person may type them on simulated hardware), rolls dice on the ROLL button or
takes the faces of the players' own dice, pauses while the I/O board is away, and fires
the Eliminator (:class:`~companion.table.eliminator.FirePath`). What a game shows on the
turn LEDs and the arena display, and which of its chance nodes are dice, comes from its
:class:`~companion.table.adapter.TableAdapter` (``companion/table/*_table.py``).

The loop does not know which backend it has: it only uses the roles of
:class:`companion.hal.Hardware`. It talks to people through a :class:`TableView`
(the terminal's dashboards, a test's recorder, the web hub: :class:`Observers` hands
every call to several).
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any, Protocol

from companion.dice import Roller
from companion.games.core.errors import IllegalActionError
from companion.hal import DIE_FACES, Hardware
from companion.table.adapter import DiceAsk, TableAdapter
from companion.table.eliminator import FirePath
from companion.table.people import (
    Agent,
    HintRequest,
    SimOperator,
    TableStopped,
    TerminalInput,
    UndoRequest,
    note_to_seat,
    seat_message,
    show_log,
)
from companion.table.session import GameSession, SessionSettings, UndoRefused

ROLL_ANIMATION_STEPS = 6
ROLL_ANIMATION_STEP_S = 0.05
POLL_S = 0.05
#: Longest single sleep of :meth:`TableLoop.rest` between two heartbeats.
REST_STEP_S = 1.0

#: Each game's adapter, imported when a table plays it.
ADAPTERS = {
    "battle-royale": "companion.table.battle_royale_table:BattleRoyaleAdapter",
    "gladiatoren": "companion.table.gladiatoren_table:GladiatorenAdapter",
    "skirmish": "companion.table.skirmish_table:SkirmishAdapter",
    "spartacus": "companion.table.spartacus_table:SpartacusAdapter",
}


def adapter_for(game: str) -> TableAdapter:
    """The table adapter of the game registered as ``game``."""
    module, name = ADAPTERS[game].split(":")
    adapter: TableAdapter = getattr(importlib.import_module(module), name)()
    return adapter


class TableView(Protocol):
    """Where the loop tells people what happens (the terminal, a test's list, the web).

    ``update(state, [])`` (no events) asks for the whole board again: at the start, after
    an undo or a resume, when someone types ``board``. A prompt with a ``seat`` shows what
    only that seat may see (its hand): a phone shows it to its seat only, the shared
    terminal only after the screen was handed over. A view may also have ``answered()``
    (the table took the button or line its last public prompt asked for), ``redraw()``,
    ``seat_note(text, seat)``: a line for ``seat`` only (a hint) that stays shown with the
    questions asked after it until that seat acts (a view without it gets
    ``prompt(text, seat=seat)``: see :func:`note_to_seat`), and ``seat_message(text,
    seat)``: why that seat's typed move was refused, for it only (a view without it gets
    ``message``: see :func:`seat_message`).
    """

    def update(self, state: Any, events: Sequence[Any]) -> None: ...

    def message(self, text: str) -> None: ...

    def prompt(self, text: str, options: Sequence[str] = (), seat: int | None = None) -> None: ...


def prompt_typed(view: Any, text: str, tail: str) -> None:
    """A public prompt, ``tail`` (what may be typed at the terminal) only on the views a
    person types at: not a view with ``keyboard = False`` (the phones' hub)."""
    for one in view.views if isinstance(view, Observers) else [view]:
        one.prompt(text + tail if getattr(one, "keyboard", True) else text)


class Observers:
    """Several views of one table (the terminal and the web); each call goes to all."""

    def __init__(self, views: Iterable[TableView] = ()) -> None:
        self.views: list[TableView] = list(views)

    def attach(self, view: TableView) -> None:
        if view not in self.views:
            self.views.append(view)

    def update(self, state: Any, events: Sequence[Any]) -> None:
        for view in self.views:
            view.update(state, events)

    def message(self, text: str) -> None:
        for view in self.views:
            view.message(text)

    def prompt(self, text: str, options: Sequence[str] = (), seat: int | None = None) -> None:
        for view in self.views:
            view.prompt(text, options, seat=seat)

    def seat_note(self, text: str, seat: int) -> None:
        for view in self.views:
            note_to_seat(view, text, seat)

    def seat_message(self, text: str, seat: int) -> None:
        for view in self.views:
            seat_message(view, text, seat)

    def redraw(self) -> None:
        for view in self.views:
            redraw = getattr(view, "redraw", None)
            if redraw is not None:
                redraw()

    def answered(self) -> None:
        for view in self.views:
            answered = getattr(view, "answered", None)
            if answered is not None:
                answered()

    def show_log(self) -> None:
        for view in self.views:
            show_log(view)


class Undone(Exception):
    """An undo was typed while the table waited for a button: the state was rebuilt."""


class PlayedOutOfTurn(Exception):
    """While the table waited for the seat asked, another seat played out of turn from
    elsewhere than the terminal (a phone): ``action``, one of that seat's plays offered
    for the present state (:attr:`TableLoop.anytime`)."""

    def __init__(self, action: Any) -> None:
        super().__init__(action)
        self.action = action


class OutOfTurnSource(Protocol):
    """Where seats not asked play out of turn while a decision waits (the web's phones):
    ``open(state, seat)`` offers the other seats their plays for this state,
    ``take(state)`` gives a play submitted for exactly this state (or ``None``),
    ``close()`` withdraws the offers (a play still arriving is refused)."""

    def open(self, state: Any, seat: int) -> None: ...

    def take(self, state: Any) -> Any: ...

    def close(self) -> None: ...


#: Typed names of the buttons (on simulated hardware a typed name presses it).
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
BUTTON_WORDS = {"roll": "roll (r)", "trigger": "fire (f)", "select": "select (s)"}
BUTTON_WORDS["confirm"] = "confirm (c)"


class TableLoop(FirePath):
    """One game at the table: every seat has an agent (``agents``: bot or person).

    ``sleep`` waits on the hardware's clock (a :class:`~companion.hal.ManualClock`
    in simulations advances instantly). ``operator`` presses buttons on simulated
    hardware when no person is present; ``terminal`` lets a person at a laptop
    type commands; on simulated hardware ``roll``, ``fire`` (the red button),
    ``select`` and ``confirm`` are pressed for them.

    ``heartbeat`` is called whenever the loop waits (each input poll, each step of
    a pause or a cool-down), so it keeps being called as long as the loop is alive
    and stops when the loop hangs: the Pi service feeds systemd's watchdog from it
    (:meth:`companion.notify.Notifier.heartbeat`). It must be cheap and must not raise.
    The session's journal calls it too while it waits for space on a full disk
    (:meth:`waiting_for_space`, where a stop ends the wait).
    """

    #: The game a subclass plays (its adapter is made when none is given).
    game_name = "battle-royale"
    #: Whether a ROLL pressed before a roll is asked rolls it: not in tracked mode, where
    #: the table asks for every roll (a ROLL tapped on a phone at another question was kept
    #: and rolled a later roll); assist mode, where the buttons drive the game, takes it.
    EARLY_ROLL_COUNTS = False

    def __init__(
        self,
        game: Any,
        hw: Hardware,
        roller: Roller,
        view: TableView,
        agents: dict[int, Agent] | None = None,
        *,
        adapter: TableAdapter | None = None,
        sleep: Callable[[float], None] = time.sleep,
        operator: SimOperator | None = None,
        terminal: TerminalInput | None = None,
        heartbeat: Callable[[], None] | None = None,
    ) -> None:
        if not isinstance(game, GameSession):  # a bare state: play it without a journal
            name = adapter.game if adapter is not None else self.game_name
            mode = "tracked" if hasattr(game, "counts") or name != "battle-royale" else "assist"
            game = GameSession(
                game, game.config, SessionSettings(mode=mode, game=name), barrier=len(game.history)
            )
        self.session = game
        self.adapter = adapter if adapter is not None else adapter_for(game.settings.game)
        self.hw = hw
        self.roller = roller
        self.view = view
        self.agents: dict[int, Agent] = agents or {}
        self.sleep = sleep
        self.operator = operator
        self.terminal = terminal
        self.heartbeat: Callable[[], None] = heartbeat or _no_heartbeat
        if game.journal is not None:  # a full disk pauses the table: it waits, alive
            game.journal.heartbeat = self.waiting_for_space
        self.highlight: set[int] = set()
        self.blink: set[int] = set()
        self.fire_results: list[Any] = []
        self.rolls: list[Any] = []  # every roll shown, as the adapter records it
        #: out-of-turn moments opened and not yet asked (the adapter's ``moments``)
        self.moments: list[Any] = []
        #: where the players' own dice are entered besides the terminal (the web's phones):
        #: ``dice_from(loop, ask)`` gives the outcomes entered, or ``None`` (roll as usual)
        self.dice_from: Callable[[TableLoop, DiceAsk], list[Any] | None] | None = None
        #: plays out of turn taken while a decision waits (the web's phones; the terminal
        #: types them as the asked seat's line): see :meth:`take_out_of_turn`
        self.anytime: OutOfTurnSource | None = None
        #: the events of the action being shown that the adapter showed already (show_now)
        self._shown_now: list[Any] = []

    @property
    def state(self) -> Any:
        """The game state (a new object after an undo)."""
        return self.session.state

    # -- the game ----------------------------------------------------------------------

    def run(self) -> Any:
        """Play to the end of the game; returns the final state."""
        state = self.state
        first = [] if state.history else list(getattr(state, "initial_events", []))
        self.adapter.start(self)
        self.react_and_show(first)
        self.adapter.resumed(self)
        while not self.state.is_terminal:
            self.step()
        self.session.finish()
        self.hw.status_leds.show_turn(None)
        return self.state

    def run_until(self, done: Callable[[Any], bool]) -> list[Any]:
        """Play until ``done(state)`` (or the end); returns every event on the way."""
        events: list[Any] = []
        while not self.state.is_terminal and not done(self.state):
            events += self.step()
        return events

    def step(self) -> list[Any]:
        """One action (a roll may be several chance nodes): decided or rolled, journalled,
        applied, shown on the hardware and to the views."""
        try:
            if self.state.is_chance_node:
                events = self.roll()
            else:
                played = self.ask_out_of_turn() if self.moments else []
                if played:  # shown already; the next step asks again
                    return played
                action = self.decide()
                if action is None:
                    raise Undone
                events = self.session.apply(action)
        except PlayedOutOfTurn as play:  # taken while the seat asked waited: ask it again
            self.session.commit(play.action)
            self.adapter.decided(self, play.action)
            events = self.session.apply(play.action)
        except Undone:  # the state was rebuilt
            self.moments.clear()
            self.adapter.start(self)
            self.react([])
            self.view.update(self.state, [])
            return []
        self.moments += self.adapter.moments(self.state, events)
        self.react_and_show(events)
        return events

    def decide(self) -> Any:
        """The current seat's choice, committed to the journal; ``None`` after an undo.
        Meanwhile the other seats may play out of turn (:attr:`anytime`): such a play ends
        the wait as :class:`PlayedOutOfTurn` (nothing of the seat asked is committed)."""
        seat = self.state.current_player
        if self.anytime is not None:
            self.anytime.open(self.state, seat)
        try:
            action = decide(self.session, self.agents[seat], self.view)
        finally:
            if self.anytime is not None:
                self.anytime.close()
        if action is not None:
            self.adapter.decided(self, action)
        return action

    def take_out_of_turn(self) -> None:
        """Called by a decision's wait (a phone's, the terminal's): a play out of turn
        submitted for the present state ends the wait (:class:`PlayedOutOfTurn`)."""
        action = self.anytime.take(self.state) if self.anytime is not None else None
        if action is not None:
            raise PlayedOutOfTurn(action)

    def ask_out_of_turn(self) -> list[Any]:
        """The moments when seats other than the one asked may play (the adapter's: a
        reaction's moment): each seat the adapter names is asked in turn by its agent
        (``agent.out_of_turn(state, seat, options, text)``: a bot by its policy, a person
        at the terminal after the screen is handed over) and plays one of its options or
        passes (``None``). A play is journalled, applied and shown like any action; the
        seats after it are still asked. Returns the events of the plays."""
        events: list[Any] = []
        while self.moments and not self.state.is_terminal and not self.state.is_chance_node:
            moment = self.moments.pop(0)
            for seat in self.adapter.moment_seats(self.state, moment):
                if seat not in self.adapter.moment_seats(self.state, moment):
                    continue  # a play before it closed the moment
                ask = getattr(self.agents.get(seat), "out_of_turn", None)
                if ask is None:
                    continue
                options = self.adapter.moment_options(self.state, moment, seat)
                action = ask(
                    self.state, seat, options, self.adapter.moment_text(self.state, moment)
                )
                if action is None:
                    continue
                self.session.commit(action)
                self.adapter.decided(self, action)
                played = self.session.apply(action)
                self.moments += self.adapter.moments(self.state, played)
                self.react_and_show(played)
                events += played
        return events

    def seat_is_bot(self, seat: int) -> bool:
        """Whether a bot plays ``seat`` (then the simulated operator presses for it)."""
        return bool(getattr(self.agents.get(seat), "is_bot", False))

    # -- chance: dice on the ROLL button, or the players' own ------------------------------

    def roll(self, *, pressed: bool = False) -> list[Any]:
        """A chance node: dice wait for ROLL (``pressed``: it was pressed already) or for
        the faces of the players' own dice; anything else is drawn. Each outcome is
        journalled, shown, then applied; returns the events."""
        ask = self.adapter.dice(self.state)
        entered: list[Any] | None = None
        if ask is not None and not pressed:
            self.adapter.before_roll(self, ask)
            entered = (self.dice_from and self.dice_from(self, ask)) or self.wait_for_roll(ask)
        events: list[Any] = []
        for i in range(ask.nodes if ask is not None else 1):
            if not self.state.is_chance_node:
                break
            action = entered[i] if entered else self.roller.choose(self.state.chance_outcomes())
            self.session.commit(action)  # durable before it is shown
            self.adapter.rolled(self, action)
            events += self.session.apply(action)
        return events

    def wait_for_roll(self, ask: DiceAsk) -> list[Any] | None:
        """Wait for ROLL (``None``) or typed faces (the outcomes they are)."""
        who = self.state.seat_name(ask.seat) if ask.seat is not None else "roll"
        prompt = f"{who}: press ROLL for {ask.what}"
        own = f" - or throw your own and type {ask.entry}" if self.terminal is not None else ""
        inputs = None if self.EARLY_ROLL_COUNTS else getattr(self.hw, "inputs", None)
        answer = self.wait_for(
            {"roll"},
            prompt,
            seat=ask.seat,
            typed=lambda line: self.adapter.entered(self.state, line, ask),
            undo=True,
            # tracked: a ROLL pressed before this roll was asked (a phone's ROLL tapped at
            # another question) rolls nothing: it was kept and rolled a later roll nobody
            # pressed for (a newcomer on the phones)
            asked=inputs.last_seq if inputs is not None else None,
            typed_tail=own,
        )
        return answer if isinstance(answer, list) else None

    def animate_roll(self, face: str) -> None:
        """A short rolling animation over the die LEDs, ending on ``face``."""
        for i in range(ROLL_ANIMATION_STEPS):
            self.hw.status_leds.show_die(DIE_FACES[i % len(DIE_FACES)])
            self.sleep(ROLL_ANIMATION_STEP_S)
        self.hw.status_leds.show_die(face)

    # -- output ------------------------------------------------------------------------

    def react(self, events: Sequence[Any]) -> None:
        """Map events onto the hardware (the game's adapter)."""
        self.adapter.react(self, events)

    def react_and_show(self, events: Sequence[Any]) -> None:
        """Map an action's events onto the hardware, then show the views those the adapter
        did not show already (:meth:`show_now`)."""
        self._shown_now = []
        try:
            self.react(events)
        finally:
            shown, self._shown_now = self._shown_now, []
        rest = [e for e in events if not any(e is s for s in shown)]
        if rest or not shown:  # no events at all: the whole board again (the start)
            self.view.update(self.state, rest)

    def show_now(self, events: Sequence[Any]) -> None:
        """Show ``events`` (the first of an action's) now, while the adapter still works on
        the hardware: Battle Royale shows the Doom roll and the explosion before it waits
        for the red button, and the events of what fell once the coil fired (the roll was
        shown after the pulse, as if the die were rolled after the Eliminator fired). The
        views get the state as it is, after the whole action."""
        fresh = [e for e in events if not any(e is s for s in self._shown_now)]
        self._shown_now += fresh
        if fresh:
            self.view.update(self.state, fresh)

    def paint(self) -> None:
        """Show the game's frame on the arena display (if it has one now)."""
        frame = self.adapter.frame(self)
        if frame is not None:
            self.hw.display.show(frame)

    def show_turn(self, seat: int | None = None) -> None:
        """Light the turn LED of ``seat`` (default: the adapter's seat to play)."""
        if seat is None:
            seat = self.adapter.turn_seat(self.state)
        self.hw.status_leds.show_turn(
            self.adapter.led(self.state, seat, self.hw.status_leds.colours)
        )

    # -- input -------------------------------------------------------------------------

    def wait_for(
        self,
        buttons: Iterable[str],
        prompt: str,
        kinds: Iterable[str] = ("press",),
        *,
        seat: int | None = None,
        operator_presses: str | None = None,
        operate: bool = True,
        typed: Callable[[str], Any] | None = None,
        undo: bool = False,
        asked: int | None = None,
        typed_tail: str = "",
    ) -> Any:
        """Wait for a press of one of ``buttons`` (or a typed command naming one).

        Returns the :class:`~companion.hal.InputEvent`, or what ``typed`` made of a typed
        line (physical dice). With ``undo``, a typed ``undo`` takes back choices of this
        turn and raises :class:`Undone` (the state was rebuilt). ``asked``: the input
        queue's ``last_seq`` when the question appeared; an event issued up to then was
        made before anyone saw the question (pressed while the table was busy) and is
        no answer to it (dropped, as every event of another button is). ``typed_tail``
        ends the prompt on the views a person types at (what to type at the terminal);
        the phones cannot type it (:func:`prompt_typed`).
        When a simulated operator stands in for ``seat`` (a bot's seat, or any seat when
        no person is at the table), it presses ``operator_presses`` (default: the first
        button) first.
        """
        buttons, kinds = set(buttons), set(kinds)
        prompt_typed(self.view, prompt, typed_tail)
        pressing = (
            operate
            and self.operator is not None
            and (self.terminal is None or (seat is not None and self.seat_is_bot(seat)))
        )
        operator_button = operator_presses or sorted(buttons)[0]
        # counted before the operator presses: a press lost with a session that ended
        # while it was on its way is a gap too
        gaps = getattr(self.hw, "input_gaps", 0)
        if pressing:
            self.operator.press(operator_button)
        listening = self.terminal is not None and not pressing
        while True:
            self.heartbeat()
            away = not getattr(self.hw, "connected", True)
            if away:  # the I/O board is away: pause
                self.pause_for_board()
            if away or getattr(self.hw, "input_gaps", 0) != gaps:
                # a press may have been lost with the board (also when it left and came
                # back between two polls, or said it dropped events): ask again
                gaps = getattr(self.hw, "input_gaps", 0)
                self.view.message(f"the I/O board may have missed a press: {prompt}")
                if pressing:
                    self.operator.press(operator_button)
                continue
            event = self.hw.next_input(timeout=0 if listening else POLL_S)
            if event is not None:
                if asked is not None and event.seq <= asked:
                    continue  # pressed before the question appeared
                if event.button in buttons and event.kind in kinds:
                    if event.kind == "press":
                        self._answered()
                    return event
                continue
            if listening:
                assert self.terminal is not None
                line = self.terminal.poll(POLL_S)
                if line == "" and buttons == {"roll"}:
                    line = "roll"  # Enter rolls (never fires: the red button is not ROLL)
                if line:
                    answer = self.typed_line(line, buttons, typed, undo)
                    if answer is not None:
                        self._answered()
                        return answer

    def _answered(self) -> None:
        """The prompt of :meth:`wait_for` is answered: a view that shows it to people who
        may press again (a phone's ``answered``) takes it down at once, before the roll's
        animation and messages, so no page offers a press the table has taken."""
        answered = getattr(self.view, "answered", None)
        if answered is not None:
            answered()

    def typed_line(
        self,
        line: str,
        buttons: set[str],
        typed: Callable[[str], Any] | None = None,
        undo: bool = False,
    ) -> Any:
        """A line typed while the table waits for a button: a button's name (pressed on
        simulated hardware), ``undo``, ``board``, ``help``, ``quit``, or what ``typed``
        reads (the faces of physical dice). Returns an answer for :meth:`wait_for`."""
        word = line.strip().lower()
        expected = [BUTTON_WORDS[b] for b in sorted(buttons) if b in BUTTON_WORDS]
        words = [*expected, *(["undo [n] (hold SELECT)"] if undo else []), "board", "log", "help"]
        if word in ("quit", "q"):
            raise TableStopped("quit")
        if word == "board":
            self.view.update(self.state, [])
            return None
        if word == "log":
            show_log(self.view)
            return None
        if word in ("help", "?"):
            self.view.message("now: " + ", ".join([*words, "quit"]))
            return None
        if word == "hint":  # a hint answers a choice; here the table waits for a button
            self.view.message(f"no hint: {self.no_hint_now(expected)}")
            return None
        if undo and (word == "undo" or word.startswith("undo ")):
            count = word[5:].strip() or "1"
            try:
                self.session.undo(int(count) if count.isdigit() else 1)
            except UndoRefused as exc:
                self.view.message(str(exc))
                return None
            self.view.message(f"undone: {count if count.isdigit() else 1} action(s) taken back")
            raise Undone
        button = TYPED.get(word)
        if button is not None:
            if self.hw.sim is None:
                self.view.message("on real hardware, press the button itself")
            elif button not in buttons:
                self.view.message(f"{line!r} does nothing now: type {' or '.join(expected)}")
            else:
                self.hw.sim.tap(button, 0.03)
            return None
        if typed is not None:
            try:
                return typed(line)
            except ValueError as exc:
                self.view.message(str(exc))
                return None
        self.view.message(f"{line!r}: type {', '.join(words)} or quit")
        return None

    def no_hint_now(self, expected: Sequence[str]) -> str:
        """Why ``hint`` gives no hint while the table waits for a button (``expected``,
        their typed words): assist mode has none, a tracked table gives one at a choice."""
        from companion.table.hints import ASSIST_REFUSAL

        if self.session.settings.mode != "tracked":
            return ASSIST_REFUSAL
        return f"nothing to choose now: the table waits for {' or '.join(expected)}"

    def pause_for_board(self) -> None:
        """Wait (bounded steps) until the I/O board is back; the solenoid never fires meanwhile."""
        self.view.message(f"{self.hw.link_status}: table paused until the I/O board is back")
        while not self.hw.wait_connected(0.5):
            self.heartbeat()
            if self.terminal is not None and self.terminal.poll(0) in ("quit", "q"):
                raise TableStopped("quit")
        self.view.message("I/O board back: table resumed")

    def waiting_for_space(self) -> None:
        """Called by the journal before each retry while the disk is full: the heartbeat,
        and a stop signal CPython dropped raised again (as at every input poll), so a stop
        ends the wait instead of waiting for space (the record not written is not acted on:
        the journal keeps everything before it)."""
        self.heartbeat()
        self.hw.raise_if_stopped()

    def rest(self, seconds: float) -> None:
        """Sleep ``seconds`` in steps of at most :data:`REST_STEP_S`, beating in between."""
        while seconds > 0:
            step = min(seconds, REST_STEP_S)
            self.sleep(step)
            self.heartbeat()
            seconds -= step


class TrackedTable(TableLoop):
    """Battle Royale in tracked mode: the full engine, every seat an agent (its adapter:
    :mod:`companion.table.battle_royale_table`)."""


def _no_heartbeat() -> None:
    """The heartbeat of a loop nobody watches."""


def show_hint(session: Any, view: TableView) -> None:
    """The seat to move asked for a hint: shown to that seat only (:mod:`.hints`), and
    kept on the terminal's screen above the question asked again until the seat acts."""
    from companion.table.hints import HintRefused, give_hint

    seat = session.state.current_player
    try:
        text = give_hint(session, seat).text
    except HintRefused as exc:
        text = f"no hint: {exc}"
    note_to_seat(view, text, seat)


def for_a_bot(session: Any, action: Any) -> str | None:
    """Why a person may not type ``action`` (``None``: they may): it is a bot's to make.
    A Spartacus gift, trade or card played out of turn names the house whose it is (the
    giver, ``by``); typed at a person's prompt for a house a bot plays it moved the bot's
    gold or property with no say of the bot's (a newcomer: 'gold glaber batiatus 10' and
    'trade glaber batiatus gallier-1 0' took a bot's gold and gladiator). Another
    person's play stays typeable: people at one keyboard type for each other."""
    actor = getattr(session.state, "actor", None)
    if actor is None:
        return None
    who = actor(action)
    seat = session.state.current_player
    if who is None or who == seat or who not in session.bot_seats():
        return None
    name = session.state.seat_name(who)
    return (
        f"{getattr(action, 'notation', action)} is refused: it is {name}'s to make, and a "
        f"bot plays {name}: only it gives its gold, property or cards"
    )


def refusal_text(
    state: Any,
    action: Any,
    seat: int,
    exc: Exception,
    named: Callable[[str], str] | None = None,
) -> str:
    """What the seat that typed a refused move is told: the rule and why, unless the move
    is another seat's (a Spartacus reaction or gift typed 'by' another house). Then why it
    is refused could tell the typist that house's hand or gold, so only that it is not
    theirs to type (it is still committed if it is legal, as a correction)."""
    actor = getattr(state, "actor", None)
    who = actor(action) if actor is not None else seat
    if who is None or who == seat or seat < 0:
        if not isinstance(exc, IllegalActionError) or named is None:
            return str(exc)
        # the move as the seat typed it (Gladiatoren's 'for blue', not the notation's 'for 2')
        return f"{named(exc.action.notation)!r} is not allowed: {exc.rule}: {exc.reason}"
    return (
        f"{getattr(action, 'notation', action)} is refused: it is {state.seat_name(who)}'s "
        f"move, and why it is refused is for {state.seat_name(who)} only (type your own "
        f"moves, {state.seat_name(seat)})"
    )


def decide(session: Any, agent: Agent, view: TableView) -> Any:
    """Ask ``agent`` for a choice until one is legal, and commit it to the journal.

    A person's illegal choice is explained and asked again (a bot's is a bug and
    raises); an undo request is carried out and gives ``None`` (the state was rebuilt);
    a hint is shown to the seat only, journalled as shown, and the seat asked again.
    """
    while True:
        action = agent.choose(session.state, session.state.legal_actions())
        if isinstance(action, HintRequest):
            show_hint(session, view)
            continue
        if isinstance(action, UndoRequest):
            seat = session.state.current_player
            try:
                taken = session.undo_choices(seat, action.count)
            except UndoRefused as exc:
                seat_message(view, str(exc), seat)
                continue
            after = f" ({taken} actions with the bots' after them)" if taken > action.count else ""
            view.message(
                f"{session.state.seat_name(seat)} took back {action.count} choice(s){after}"
            )
            return None
        refused = for_a_bot(session, action) if not getattr(agent, "is_bot", False) else None
        if refused is not None:
            seat_message(view, refused, session.state.current_player)
            continue
        try:
            session.commit(action)
            return action
        except IllegalActionError as exc:
            if getattr(agent, "is_bot", False):
                raise
            # to the seat only: why a move is refused may name what only it may see (the
            # gold it has while the bids are secret)
            seat = session.state.current_player
            state = session.state
            named = partial(adapter_for(session.settings.game).named, state)
            seat_message(view, refusal_text(state, action, seat, exc, named), seat)
