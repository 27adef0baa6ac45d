"""Who acts at the table: bots, a person at the terminal, and the simulated operator.

- :class:`BotAgent` plays a seat: a random legal choice (never a correction), or the
  game's own bot (:attr:`companion.games.core.game.Game.bot`).
- :class:`SearchAgent` plays a seat with the search bot at a level (``--bots N:LEVEL``,
  ``docs/bots.md``); it thinks in the worker process (:mod:`companion.worker`), off
  the table's threads. :func:`table_bot` chooses between the two.
- :class:`TerminalInput` reads lines from the terminal on a thread of its own, so the
  table loop can wait for a typed line and a button at once. On a terminal it reads a
  line only when the table asks for one, so a secret (a bid) is read without echo.
- :class:`TerminalAgent` is a person choosing at the terminal, in the game's notation;
  what it says and how it reads a line come from the game's
  :class:`~companion.table.adapter.TableAdapter`.
- :class:`SimOperator` stands in for the people at a simulated table with no humans:
  when the loop waits for a button, it presses that button on the sim hardware, so the
  whole hardware path (debounce, queue, solenoid guard) runs.
"""

from __future__ import annotations

import atexit
import queue
import random
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any, Protocol

from companion.hal import Hardware


def seat_message(view: Any, text: str, seat: int | None) -> None:
    """Say ``text`` to ``seat`` only: the answer to what that seat typed, which may name
    what only it may see (its hand, its gold while the bids are secret). A view's
    ``seat_message`` (a phone's note; the terminal's events box, cleared when the screen
    is handed over), else its ``message``. Without a seat it is a message for everyone."""
    say = getattr(view, "seat_message", None) if seat is not None and seat >= 0 else None
    if say is not None:
        say(text, seat)
    else:
        view.message(text)


def show_log(view: Any) -> None:
    """Typed ``log``: a view that keeps the events so far shows them (``show_log()``: the
    terminal); a phone keeps its own list, and the web's pages are left as they are."""
    show = getattr(view, "show_log", None)
    if show is not None:
        show()


def note_to_seat(view: Any, text: str, seat: int) -> None:
    """Show ``text`` to ``seat`` only, until that seat acts: the view's ``seat_note``, or
    for a view without one a prompt with the seat (the web's seat note)."""
    note = getattr(view, "seat_note", None)
    if note is not None:
        note(text, seat)
    else:
        view.prompt(text, seat=seat)


class TableStopped(Exception):
    """The people at the table stopped the game (typed quit, or the input ended)."""


class UndoRequest:
    """A person asked to take back their last ``count`` actions."""

    def __init__(self, count: int = 1) -> None:
        self.count = count


class HintRequest:
    """A person asked for a hint (``hint``): the table shows it to their seat, journals
    it as shown (:mod:`companion.table.hints`) and asks them again."""


class Agent(Protocol):
    """Chooses one of the legal actions for a seat."""

    def choose(self, state: Any, legal: Sequence[Any]) -> Any: ...


class BotAgent:
    """A bot at the table: ``bot`` (a game's bot, ``choose(state)``), or without one a
    uniform choice over the legal actions (corrections only to end them)."""

    is_bot = True

    def __init__(self, rng: random.Random, bot: Any = None) -> None:
        self.rng = rng
        self.bot = bot

    def choose(self, state: Any, legal: Sequence[Any]) -> Any:
        if self.bot is not None:
            return self.bot.choose(state)
        choices = [a for a in legal if not getattr(a, "is_correction", False)]
        return self.rng.choice(choices or list(legal))

    def out_of_turn(self, state: Any, seat: int, options: Sequence[Any], text: str) -> Any:
        """Asked out of turn (a reaction's moment): the bot's own policy
        (``bot.out_of_turn(state, seat, options)``) decides; a bot without one passes."""
        policy = getattr(self.bot, "out_of_turn", None)
        if policy is None or not options:
            return None
        return policy(state, seat, options)


class SearchAgent:
    """The search bot at the table: ``level`` (easy, normal, strong) of ``game``.

    Each move is searched in the worker process (:func:`companion.worker.run_heavy`
    of :func:`companion.games.search.bot.move`: the state travels pickled, about a
    millisecond), so the search never holds this process's interpreter lock while the
    button thread and the web view run (measured: ``bench/hal_latency.py``, the ``bot``
    condition). ``clock`` turns the level's time cap on (the table's default), so a
    slow machine plays weaker rather than slower; ``None`` searches the full iteration
    budget (the same move on any machine, for tests). A move's generator is drawn from
    ``rng``, so a seeded table draws its bots' moves from its seed.
    """

    is_bot = True

    def __init__(
        self, game: str, rng: random.Random, level: str, clock: Any = time.perf_counter
    ) -> None:
        from companion.games.search.bot import budget_of

        budget_of(game, level)  # an unknown level or game fails here, not at the first move
        self.game = game
        self.rng = rng
        self.level = level
        self.clock = clock

    def choose(self, state: Any, legal: Sequence[Any]) -> Any:
        from companion.games.search.bot import move
        from companion.worker import run_heavy

        move_rng = random.Random(self.rng.getrandbits(64))
        return run_heavy(move, self.game, state, move_rng, self.level, self.clock)

    def out_of_turn(self, state: Any, seat: int, options: Sequence[Any], text: str) -> Any:
        """Asked out of turn (a reaction's moment): the game's own bot's policy decides,
        as for the table bot (one cheap decision; the search plays the seat's turns)."""
        from companion.games.registry import get_game

        policy = getattr(get_game(self.game).bot(self.rng), "out_of_turn", None)
        if policy is None or not options:
            return None
        return policy(state, seat, options)


def table_bot(game: str, rng: random.Random, level: str | None, own: Any = None) -> Any:
    """The agent of a bot's seat: the search bot at ``level``, or without a level the
    game's own table bot (``own``, a :class:`BotAgent`; default a random legal choice)."""
    if level is not None:
        return SearchAgent(game, rng, level)
    return own if own is not None else BotAgent(rng)


class TerminalInput:
    """Lines typed at the terminal, read on a daemon thread into a queue.

    On a terminal, a line is read only when :meth:`poll` asks for one (with readline's
    editing and Tab completion, or without echo for a secret); from a pipe or a file,
    every line is read in order.
    """

    def __init__(self, stream: Any = None, prompt: str = "> ") -> None:
        self._stream = stream if stream is not None else sys.stdin
        self._prompt = prompt
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._wanted = threading.Event()
        self._asked = False  # a line was asked for and has not come yet
        self._hidden = False
        self.reading_hidden = False
        self._saved: Any = None  # the terminal's settings before the first read
        self.people = 1  # how many people share this terminal (the commands set it)
        self.seats: set[int] | None = None  # which seats they play (None: not said)
        self.holder: int | None = None  # the seat the screen was last handed over to

    @property
    def interactive(self) -> bool:
        return self._stream is sys.stdin and sys.stdin.isatty()

    def start(self) -> None:
        if self._thread is None:
            if self.interactive:
                self._saved = terminal_settings()
                atexit.register(self.restore)
            self._thread = threading.Thread(target=self._read, name="terminal-input", daemon=True)
            self._thread.start()

    def _read(self) -> None:
        try:
            if self.interactive:
                import getpass  # a person at a terminal only (termios)

                install_completion()
                while True:
                    self._wanted.wait()
                    self._wanted.clear()
                    if self._hidden:
                        self.reading_hidden = True
                        line = getpass.getpass(self._prompt + "(hidden) ")
                        self.reading_hidden = False
                    else:
                        line = input(self._prompt)
                    self._lines.put(line.strip())
            else:
                for line in self._stream:
                    self._lines.put(line.strip())
        except (EOFError, OSError, ValueError):  # closed, or a read on a closed file
            pass
        self._lines.put(None)  # end of input

    def restore(self) -> None:
        """Put the terminal back as it was before the first read: echo on, line editing.

        A read may still be under way on the reader thread when the table stops (quit, the
        end of the game, Ctrl-C): readline or a hidden read has then switched echo off,
        and the shell would be left without it. Called on every exit path by the
        commands, and at the interpreter's exit in any case."""
        if self._saved is not None:
            restore_terminal(self._saved)

    def poll(self, timeout: float, hidden: bool = False) -> str | None:
        """The next line, or ``None`` if none came within ``timeout`` seconds.

        ``hidden``: on a terminal, read it without echo (a secret bid). Raises
        :class:`EOFError` once the input has ended.
        """
        self.start()
        if not self._asked:
            self._asked = True
            self._hidden = hidden
            self._wanted.set()
        try:
            line = self._lines.get(timeout=timeout) if timeout > 0 else self._lines.get_nowait()
        except queue.Empty:
            return None
        self._asked = False
        if line is None:
            self._lines.put(None)
            raise EOFError("the terminal input ended")
        return line


class SimOperator:
    """Presses simulated buttons for a table where no person is present."""

    def __init__(self, hw: Hardware, tap_s: float = 0.03, rng: random.Random | None = None) -> None:
        if hw.sim is None:
            raise ValueError("the simulated operator needs simulated hardware (profile sim)")
        self.hw = hw
        self.tap_s = tap_s
        self.rng = rng if rng is not None else random.Random(0)
        self.presses: list[str] = []

    def pick(self, choices: Sequence[int]) -> int:
        """Which of ``choices`` the simulated people take (seeded, so runs repeat)."""
        return self.rng.choice(list(choices))

    def press(self, button: str) -> None:
        assert self.hw.sim is not None
        self.presses.append(button)
        self.hw.sim.tap(button, self.tap_s)


#: Typed at any prompt of the table, whatever the game.
COMMON_WORDS = (
    "undo [n] - take back your last choices (hold SELECT)",
    "board - show the board again",
    "log - the events so far, more than the box shows (a bot's whole turn)",
    "hint - the companion's suggestion for your move, with its win chance",
    "? - every legal action",
    "help - this list",
    "quit - stop (the journal keeps the game: companion resume)",
)


class TerminalAgent:
    """A person at the terminal choosing actions for a seat, in the engine's notation.

    Accepted input: an action (``play 2x3``, ``step E``, ``melee 17``), the number of a
    listed option, several actions separated by commas, and what the game's adapter
    expands (Battle Royale's move shorthand ``b2 E N``). ``?`` lists every legal action
    including corrections; ``undo`` (or ``undo 3``) takes back your last actions of this
    turn; ``board`` shows the board again; ``hint`` asks for the companion's suggestion
    (shown to this seat only); ``help`` lists all this; ``quit`` stops.
    """

    is_bot = False

    def __init__(
        self,
        terminal: TerminalInput,
        view: Any,
        parse: Any = None,
        expand: Any = None,
        hint: str = "",
        *,
        adapter: Any = None,
    ) -> None:
        from companion.table.adapter import TableAdapter

        self.terminal = terminal
        self.view = view
        self.adapter = adapter if adapter is not None else TableAdapter()
        self.parse = parse or self.adapter.parse
        self.expand = expand if expand is not None else self.adapter.expand
        self.hint = hint
        self.pending: list[Any] = []
        #: where the last action returned should stand in the history, and the action:
        #: the rest of a typed line goes on only if it was made
        self._given: tuple[int, Any] = (-1, None)
        #: called between polls while this person decides (the table's
        #: ``take_out_of_turn``: a phone's play out of turn ends the wait)
        self.idle: Any = None

    def _line(self, state: Any) -> str:
        """The next line typed (``quit`` stops the table)."""
        while True:
            line = self.terminal.poll(0.1)
            if line is None:
                if self.idle is not None:
                    self.idle()
                continue
            if line.strip().lower() in ("quit", "q"):
                raise TableStopped("quit")
            return line

    def _enter(self, state: Any, asked: str) -> None:
        """Wait for Enter alone (or ``done``); any other line is not taken, and saying so
        keeps a move typed too early from vanishing without a word."""
        while True:
            line = self._line(state).strip()
            if line.lower() in ("", "done", "ok"):
                return
            self.view.message(f"{line!r} was not taken: {asked}")

    def _hand_over(self, state: Any, seat: int) -> None:
        """On a shared terminal with several people: before a prompt shows what only
        ``seat`` may see (a hand), the screen is handed over and its holder confirms."""
        if self.terminal.people < 2 or self.terminal.holder == seat:
            return
        conceal = getattr(self.view, "conceal", None)
        if conceal is not None:
            conceal()  # nothing of the last holder's stays on the screen
        name = state.seat_name(seat)
        self.view.prompt(f"pass the screen to {name}: only {name} looks now; {name}, press Enter")
        self._enter(state, f"{name}, press Enter to see your screen")
        self.terminal.holder = seat

    def _from_menu(self, state: Any, menu: Any, kind: str) -> Any | None:
        """Choose an action of ``kind`` parameter by parameter (``cancel``: back)."""
        chosen: dict[str, Any] = {}
        while True:
            step = menu.step(kind, chosen)
            if not hasattr(step, "values"):
                return step  # one legal action is left: this one
            shown = step.shown()
            how = "names, or none" if step.multi else "a number or a name"
            listed = shown if step.is_range else [f"{i}: {v}" for i, v in enumerate(shown, 1)]
            self.view.prompt(f"{kind}: which {step.name}? ({how}; cancel: back)", listed)
            line = self._line(state).strip()
            if line.lower() == "cancel":
                return None
            if step.multi:
                words = [w for w in line.replace(",", " ").split() if w.lower() != "none"]
                picks = [step.complete(w) for w in words]
                if all(len(p) == 1 for p in picks):
                    chosen[step.name] = tuple(p[0] for p in picks)
                    continue
            elif line.isdigit() and not step.is_range and 1 <= int(line) <= len(step.values):
                chosen[step.name] = step.values[int(line) - 1]
                continue
            else:
                found = step.complete(line)
                if step.is_range and line.isdigit() and int(line) in step.values:
                    found = [int(line)]
                if len(found) == 1:
                    chosen[step.name] = found[0]
                    continue
            seat_message(
                self.view,
                f"{line!r} is not one {step.name} of {', '.join(shown)}",
                state.current_player,
            )

    def out_of_turn(self, state: Any, seat: int, options: Sequence[Any], text: str) -> Any:
        """Asked out of turn (``text``: the moment, a reaction's): one of ``options`` by its
        number, its notation or the start of it (``react mittellos solonius``), or pass
        with Enter. Where a prompt would show a hand, the screen is handed over first and
        every seat the table asks is asked alike, holding a card or not, so that the
        others learn nothing; with one person at the terminal an empty hand is not asked."""
        private = self.adapter.private_prompt(state)
        if private and not options and self.terminal.people < 2:
            return None
        if private:
            self._hand_over(state, seat)
        name = state.seat_name(seat)
        listed = self.adapter.option_lines(options)  # many (gold to give): one line a kind
        numbered = bool(listed) and listed[0].startswith("1: ")
        how = "a number or the action" if numbered else "the action as listed, ? numbers them"
        if options:
            text = f"{name}, out of turn: {text} - play one? ({how}; Enter: pass)"
        else:
            text = f"{name}, out of turn: {text} - nothing you hold can be played: press Enter"
        self.view.prompt(text, listed, seat=seat if private else None)
        set_completions([a.notation for a in options])
        while True:
            line = self._line(state).strip()
            word = line.lower()
            if word in ("", "pass", "p", "no", "n"):
                return None
            if word == "?" and options:  # every play numbered (gold to give: many)
                numbered, how = True, "a number or the action"
                listed = [f"{i}: {a.notation}" for i, a in enumerate(options, 1)]
                self.view.prompt(text, listed, seat=seat if private else None)
                continue
            if numbered and line.isdigit() and 1 <= int(line) <= len(options):
                return options[int(line) - 1]
            found = [a for a in options if a.notation.lower() == word] or [
                a for a in options if a.notation.lower().startswith(word)
            ]
            if len(found) == 1:
                return found[0]
            self.view.message(f"{line!r} is not one of the plays listed: {how}, or Enter to pass")

    def _out_at_the_keyboard(self, state: Any, asked: int, word: str) -> Any | None:
        """``out <house>`` typed at a prompt that shows ``asked``'s hand on a shared
        terminal: that house plays out of turn from its own hand. The screen is handed over
        to it (so nobody reads the asked house's hand to type a play out of turn), it plays
        one of its plays out of turn or passes, and the screen goes back to ``asked``.
        ``None``: nothing played (a refusal said why)."""
        seats = self.terminal.seats or set()
        names = {state.seat_name(s).lower(): s for s in seats if s != asked}
        wanted = word[4:].strip()
        other = names.get(wanted)
        if other is None:
            choices = ", ".join(sorted(names)) or "none"
            self.view.message(f"out <house>: a house played at this keyboard ({choices})")
            return None
        plays = self.adapter.out_of_turn_actions(state, other)
        return self.out_of_turn(state, other, plays, f"while {state.seat_name(asked)} is asked")

    def choose(self, state: Any, legal: Sequence[Any]) -> Any:
        seat = state.current_player
        at, given = self._given
        if self.pending and not (len(state.history) > at and state.history[at] == given):
            # the line's first move was refused (the table said why): nothing of it was made
            self.pending.clear()
        while self.pending:
            action = self.pending.pop(0)
            if state.is_legal(action):
                return self._give(state, action, self.pending)
            if getattr(action, "kind", "") == "stop":
                continue  # the figure already stopped by itself
            self.pending.clear()
            rule, reason = state.why_illegal(action)
            seat_message(
                self.view,
                f"{action.notation} is not allowed: {rule}: {reason}; the moves before it "
                "were made - enter the rest again",
                seat,
            )
        adapter = self.adapter
        for step in adapter.manual_steps(state, seat):  # the house's rules done by hand
            self.view.prompt(f"{state.seat_name(seat)}, by hand: {step} - press Enter when done")
            self._enter(state, "press Enter when this is done at the table")
        secret = adapter.secret_prompt(state, seat)
        if adapter.private_prompt(state) or secret is not None:
            # a secret's question shows what only its seat may see too (the room of a bid:
            # the house's hidden gold), also in assist mode, where no hand is shown
            self._hand_over(state, seat)
        own = adapter.own_actions(state, seat, legal)
        options = [a for a in own if not getattr(a, "is_correction", False)]
        shown = adapter.listed_options(state, options)  # what a number chooses from
        lines = [adapter.named(state, line) for line in adapter.option_lines(shown)]
        if secret is not None:
            self.view.prompt(secret, seat=seat)  # its room shows hidden gold: its seat only
        else:
            adapter.before_prompt(self.view, state, options)
            text = f"{adapter.ask(state, seat)} ({self._hint(state)}; help for more)"
            if adapter.private_prompt(state):
                self.view.prompt(text, lines, seat=seat)  # shows a hand: to its seat only
            else:
                self.view.prompt(text, lines)
        set_completions([adapter.named(state, a.notation) for a in own])
        menu = adapter.menu(state, seat) if secret is None else None
        # a number is an option's number only where the options were shown numbered (as
        # they are, or by '?'); where they were shown by kind ('pick <1|3|...>') it is a value
        numbered = bool(lines) and lines[0].startswith("1: ")
        while True:
            line = self.terminal.poll(0.1, hidden=secret is not None)
            if line is None and self.idle is not None:
                self.idle()
            if line == "":  # Enter alone: nothing chosen; the live view is drawn again
                redraw = getattr(self.view, "redraw", None)
                if redraw is not None:
                    redraw()
            if not line:
                continue
            word = line.lower()
            if menu and word in {k.kind for k in menu.kinds()}:
                chosen = self._from_menu(state, menu, word)
                if chosen is not None:
                    return chosen
                self.view.prompt(text, lines)
                continue
            if word in ("quit", "q"):
                raise TableStopped("quit")
            if word == "undo" or word.startswith("undo "):
                count = word[5:].strip() or "1"
                if not count.isdigit():
                    self.view.message("type undo, or undo followed by a number of actions")
                    continue
                return UndoRequest(int(count))
            if word == "?":
                numbered, shown = True, options
                listed = [f"{i}: {a.notation}" for i, a in enumerate(options, 1)]
                fixes = [a.notation for a in own if getattr(a, "is_correction", False)]
                listed = [adapter.named(state, line) for line in listed + fixes]
                self.view.prompt(f"every legal action of {state.seat_name(seat)}", listed)
                continue
            if word == "help":
                self.view.message(
                    "; ".join((self._hint(state), *COMMON_WORDS, *self._more_words()))
                )
                continue
            if word == "hint":
                return HintRequest()
            if word == "board":
                self.view.update(state, [])
                continue
            if word == "log":
                show_log(self.view)
                continue
            said = adapter.answer_word(state, seat, word)
            if said is not None:  # the game's own word (cards): to this seat only
                seat_message(self.view, said, seat)
                continue
            if (word == "out" or word.startswith("out ")) and self._more_words():
                played = self._out_at_the_keyboard(state, seat, word)
                if played is not None:
                    return played
                if self.terminal.holder != seat:  # handed over: back to the house asked
                    return self.choose(state, legal)
                continue
            if secret is not None:
                answer = adapter.secret_answer(state, seat, line)
                if answer is not None:
                    return answer
            if numbered and line.isdigit() and 1 <= int(line) <= len(shown):
                return self._give(state, shown[int(line) - 1], [])
            if " " not in line.strip():  # one word: the option it names, if only one does
                found = [a for a in options if word.strip() in a.notation.lower().split()]
                if len(found) == 1:
                    return self._give(state, found[0], [])
                if line.isdigit() and not numbered:
                    self.view.message(
                        "the options here are not numbered: type an action as listed, "
                        "or ? for a numbered list"
                        if not found
                        else f"{line!r} could be "
                        f"{', '.join(adapter.named(state, a.notation) for a in found)}: "
                        "type the whole action"
                    )
                    continue
            try:
                actions = self.expand(state, line) if self.expand else None
                if not actions:
                    actions = [self.parse(part) for part in line.split(",") if part.strip()]
            except ValueError as exc:
                self.view.message(_refusal(line, exc, own))
                continue
            if not actions:
                continue
            return self._give(state, actions[0], actions[1:])

    def _more_words(self) -> tuple[str, ...]:
        """What ``help`` lists beyond the common words: ``out`` where houses sharing this
        keyboard play out of turn."""
        if self.terminal.people >= 2 and hasattr(self.adapter, "out_of_turn_actions"):
            return (
                "out <house> - that house plays out of turn (gold, a guard, a reaction): "
                "the screen is passed to it first",
            )
        return ()

    def _give(self, state: Any, action: Any, then: list[Any]) -> Any:
        """``action`` chosen now, ``then`` the rest of the line typed (a move shorthand)."""
        self.pending, self._given = then, (len(state.history), action)
        return action

    def _hint(self, state: Any) -> str:
        """What the prompt says may be typed (the game's words for its present phase)."""
        return self.hint or self.adapter.prompt_hint(state)


def _refusal(line: str, exc: ValueError, own: Sequence[Any]) -> str:
    """Why a typed line is no action: for a word that is none of the seat's actions now,
    the kinds it has (not every verb of the game's notation: a newcomer read "post-guard,
    exhaust-card, ..." as what could be typed); else the parser's reason."""
    kinds = list(dict.fromkeys(a.notation.split()[0] for a in own))
    parts = [p.split() for p in line.split(",") if p.strip()]
    if kinds and any(p[0].lower() not in kinds for p in parts):
        return (
            f"{line!r} is not one of your actions now: {', '.join(kinds)}; "
            "? lists them all, help says what else may be typed"
        )
    return str(exc)


def terminal_settings() -> Any:
    """Standard input's terminal settings (``None`` if it is no terminal)."""
    try:
        import termios

        return termios.tcgetattr(sys.stdin.fileno())
    except (ImportError, OSError, ValueError):
        return None


def restore_terminal(settings: Any) -> None:
    """Set standard input's terminal back to ``settings`` (from :func:`terminal_settings`)."""
    try:
        import termios

        termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, settings)
    except (ImportError, OSError, ValueError):
        pass


_COMPLETIONS: list[str] = []


def set_completions(words: list[str]) -> None:
    """Offer these actions to readline's tab completion (when a terminal has readline)."""
    _COMPLETIONS[:] = words


def install_completion() -> None:
    """Tab completion of the legal actions at the terminal prompt."""
    try:
        import readline
    except ImportError:  # pragma: no cover - not on every platform
        return

    def complete(text: str, index: int) -> str | None:
        line = readline.get_line_buffer()
        matches = [w for w in _COMPLETIONS if w.startswith(line)]
        offset = len(line) - len(text)
        matches = [m[offset:] for m in matches]
        return matches[index] if index < len(matches) else None

    readline.set_completer_delims(" ")
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")
