"""Who acts at the table: bots, a person at the terminal, and the simulated operator.

- :class:`BotAgent` picks a random legal choice (never a correction).
- :class:`TerminalInput` reads lines from the terminal on a thread of its own,
  so the table loop can wait for a typed command and a button at once.
- :class:`SimOperator` stands in for the people at a simulated table with no
  humans: when the loop waits for a button, it presses that button on the sim
  hardware, so the whole hardware path (debounce, queue, solenoid guard) runs.
"""

from __future__ import annotations

import queue
import random
import sys
import threading
from collections.abc import Sequence
from typing import Any, Protocol

from companion.hal import Hardware


class TableStopped(Exception):
    """The people at the table stopped the game (typed quit, or the input ended)."""


class UndoRequest:
    """A person asked to take back their last ``count`` actions."""

    def __init__(self, count: int = 1) -> None:
        self.count = count


class Agent(Protocol):
    """Chooses one of the legal actions for a seat."""

    def choose(self, state: Any, legal: Sequence[Any]) -> Any: ...


class BotAgent:
    """A random bot: uniform over the legal choices; corrections only to end them."""

    is_bot = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: Any, legal: Sequence[Any]) -> Any:
        choices = [a for a in legal if not getattr(a, "is_correction", False)]
        return self.rng.choice(choices or list(legal))


class TerminalInput:
    """Lines typed at the terminal, read on a daemon thread into a queue."""

    def __init__(self, stream: Any = None) -> None:
        self._stream = stream if stream is not None else sys.stdin
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._read, name="terminal-input", daemon=True)
            self._thread.start()

    def _read(self) -> None:
        if self._stream is sys.stdin and sys.stdin.isatty():
            install_completion()
            while True:
                try:
                    line = input()  # readline editing and completion
                except EOFError:
                    break
                self._lines.put(line.strip())
        else:
            for line in self._stream:
                self._lines.put(line.strip())
        self._lines.put(None)  # end of input

    def poll(self, timeout: float) -> str | None:
        """The next line, or ``None`` if none came within ``timeout`` seconds.

        Raises :class:`EOFError` once the input has ended.
        """
        self.start()
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return None
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


class TerminalAgent:
    """A person at the terminal choosing actions for a seat, in the engine's notation.

    Accepted input: an action (``play 2x3``, ``figure b2 purple``, ``step E``,
    ``push grey``), the number of a listed option, or a move shorthand ``b2 E N``
    (pick up your figure on b2, step east, step north, stop). ``?`` lists every
    legal action including corrections; ``undo`` (or ``undo 3``) takes back your
    last actions of this turn.
    """

    is_bot = False

    def __init__(
        self,
        terminal: TerminalInput,
        view: Any,
        parse: Any,
        expand: Any = None,
        hint: str = "number, action, or a move like 'b2 E N'",
    ) -> None:
        self.terminal = terminal
        self.view = view
        self.parse = parse
        self.expand = expand
        self.hint = hint
        self.pending: list[Any] = []

    def choose(self, state: Any, legal: Sequence[Any]) -> Any:
        while self.pending:
            action = self.pending.pop(0)
            if action in legal:
                return action
            if getattr(action, "kind", "") == "stop":
                continue  # the figure already stopped by itself
            self.pending.clear()
            self.view.message(f"{action.notation} is not legal now; enter the rest again")
        options = [a for a in legal if not getattr(a, "is_correction", False)]
        colour = state.colours[state.current_player]
        self.view.prompt(
            f"{colour}: choose ({self.hint})",
            [f"{i}: {a.notation}" for i, a in enumerate(options, 1)],
        )
        set_completions([a.notation for a in legal])
        while True:
            line = self.terminal.poll(0.1)
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
                self.view.prompt("every legal action", [a.notation for a in legal])
                continue
            if line.isdigit() and 1 <= int(line) <= len(options):
                return options[int(line) - 1]
            try:
                actions = self.expand(state, line) if self.expand else None
                if not actions:
                    actions = [self.parse(line)]
            except ValueError as exc:
                self.view.message(str(exc))
                continue
            self.pending = actions[1:]
            return actions[0]


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
