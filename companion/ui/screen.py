"""The terminal's view of a table, for every game: board, panels, the last events, the prompt.

:class:`TableScreen` is a :class:`~companion.table.loop.TableView` with two ways to show a
game:

- **live** (a terminal with nobody typing: demos, autoplay, the service on an HDMI screen
  or over SSH): a rich ``Live`` display redrawn in place. Its layout is fitted to the
  console's height (:meth:`TableScreen.render`): the header and the prompt on top and at
  the bottom, the last events above the prompt (wrapped: the newest whole, taking rows
  from the board when it needs them), the board in the rows left over, cropped if it
  must be, so the prompt and the last events are always on screen, at 80x24 as at
  100x40;
- **live, typed** (``typing``: a person types at a terminal): the same live layout on
  the terminal's alternate screen, one row shorter: the bottom row is the input line,
  where the person types after the prompt shown above it; every refresh redraws the
  whole screen from its top, so a typed line (and its Enter) never shifts the view;
  when the table stops, the board and the last events are printed on the normal screen;
- **printed** (a pipe, a log file, CI): every event as it happens (a
  finished move is confirmed the moment it is made), messages, every prompt (a button's
  too) with its options in columns that never break a word, and the board before a
  person is asked when it changed since it was last printed, or when ``board`` is typed
  (an update with no events).

A game's view says what its header, board and event lines are (:meth:`header`,
:meth:`board`, :meth:`event_text`); everything else is here.
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.control import Control
from rich.panel import Panel
from rich.segment import ControlType, Segment, Segments
from rich.text import Text

if TYPE_CHECKING:
    from rich.layout import Layout
    from rich.live import Live

LOG_LINES = 10
#: How many lines of events and messages ``log`` can show (the box shows the last few).
HISTORY_LINES = 300
PROMPT_STYLE = "bold cyan"


class TableScreen:
    """The terminal view of one game at the table (see the module docstring).

    ``live``: redraw in place, fitted to the console; otherwise print. ``typing``: a
    person types below the live view (its last row is theirs). ``pace_s``: pause this
    long at every new turn so people can follow a bot game.
    """

    #: Event kinds that start a turn (the pace, and a new block when printed).
    TURN_EVENTS = frozenset({"turn_started"})
    #: The header's name of the game (``title`` replaces it).
    TITLE = ""

    def __init__(
        self,
        console: Console,
        hw: Any = None,
        *,
        live: bool = False,
        pace_s: float = 0.0,
        title: str | None = None,
        typing: bool = False,
    ) -> None:
        self.console = console
        self.hw = hw
        self.live = live
        self.typing = live and typing
        self.pace_s = pace_s
        self.title = title or self.TITLE
        self.log: deque[Text] = deque(maxlen=HISTORY_LINES)
        #: typed ``log``: the events take the board's rows until the next line or move
        self.showing_log = False
        self._private: set[int] = set()  # ids of log lines only the screen's holder may see
        self.prompt_text = ""
        self.options: Sequence[str] = ()
        #: a line for the seat asked (a hint), kept above its question until it acts
        self.note = ""
        self.state: Any = None
        self._live: Live | None = None
        self._printed_board: Any = None  # what the board showed when it was last printed
        self._last_prompt: tuple[str, tuple[str, ...]] | None = None

    # -- what a game shows ---------------------------------------------------------------

    def header(self, width: int | None = None) -> Text:
        """One line: the game, the turn (:meth:`when`), whose turn it is
        (:meth:`whose_turn`), or who won. In ``width`` columns the title gives way first
        (its brackets, then all after its colon: it was printed above the live view), so
        that whose turn it is stays on the line."""
        for title in self._titles():
            text = self._header(title)
            if width is None or text.cell_len <= width:
                break
        return text

    def _titles(self) -> list[str]:
        short = re.sub(r"\s*\([^)]*\)", "", self.title)
        return list(dict.fromkeys((self.title, short, short.split(":")[0])))

    def _header(self, title: str) -> Text:
        state = self.state
        if state is None:
            return Text(title, style="bold")
        text = Text(f"{title} - {self.when()}  ", style="bold")
        if state.is_terminal:
            names = " and ".join(state.seat_name(s) for s in state.winners) or "nobody"
            return text.append(f"game over: {names} won", style="bold green")
        return text.append_text(self.whose_turn())

    def when(self) -> str:
        return f"turn {getattr(self.state, 'turn', 0)}"

    def whose_turn(self) -> Text:
        seat = self.state.current_player
        return Text(f"{self.state.seat_name(seat)} to play" if seat >= 0 else "")

    def board(self, width: int, height: int | None = None) -> RenderableType:
        """The board (and its tables) in ``width`` columns; ``height``: the rows the live
        view has for it (``None``: printed, as tall as it needs)."""
        return Text("")

    def board_kept(self, width: int) -> int:
        """The rows the live board keeps however long the prompt's options are (a map
        that must stay whole: the options give way, and the events box down to 3 rows);
        default none."""
        return 0

    def event_text(self, event: Any) -> Text | None:
        """One event as a line for the log (``None``: not worth a line)."""
        text = event.public_text if event.private_to is not None else event.text
        return Text(text) if text else None

    def board_key(self) -> Any:
        """What the board shows, to tell whether it changed (default: the history's length)."""
        return len(getattr(self.state, "history", ())) if self.state is not None else None

    def hardware(self) -> RenderableType | None:
        """The table's outputs (LEDs, the arena display), shown in the live view."""
        if self.hw is None:
            return None
        return Text(f"arena display:\n{self.hw.display.render()}", style="dim")

    def turn_block(self, events: Sequence[Any]) -> None:
        """Printed mode: a new turn began (a rule with its name)."""

    # -- lifecycle -----------------------------------------------------------------------

    def __enter__(self) -> TableScreen:
        if self.live:
            from rich.live import Live  # a terminal to redraw: printed views need neither

            self._live = Live(
                self.screen(),
                console=self.console,
                auto_refresh=False,
                transient=False,
                vertical_overflow="crop",
                screen=self.typing,
                # typed: input() must see the real stdout, or it drops readline (and its
                # prompt would wait in rich's line buffer)
                redirect_stdout=not self.typing,
                redirect_stderr=not self.typing,
            )
            self._live.__enter__()
            self._to_input_row()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self._live.update(self.screen(), refresh=True)
            self._live.__exit__(None, None, None)
            self._live = None
            if self.typing:  # the alternate screen is gone: keep where the game stood
                self.print_board()
                # not the holder's refusals: after quit everyone reads the screen (one told
                # the seat its hidden gold: 'bid 0..25 gold, the gold batiatus has')
                public = [line for line in self.log if id(line) not in self._private]
                for line in public[-LOG_LINES:]:
                    self.console.print(Text("  ").append_text(line), soft_wrap=False)

    # -- TableView -----------------------------------------------------------------------

    def update(self, state: Any, events: Sequence[Any]) -> None:
        self.showing_log = False
        if events or state is not self.state:  # the seat acted, or an undo: a new state
            self.note = ""
        self.state = state
        if events:
            self.prompt_text = ""  # the prompt was answered
            self.options = ()
        for event in events:
            if event.kind in self.TURN_EVENTS:
                if self.pace_s:
                    time.sleep(self.pace_s)
                if not self.live:
                    self.turn_block([event])
            line = self.event_text(event)
            if line is not None and line.plain:
                self.log.append(line)
                if not self.live:
                    self.console.print(Text("  - ").append_text(line), soft_wrap=False)
        if not events and not self.live:
            self.print_board()  # typed 'board', a resume, an undo
        self._refresh()

    def message(self, text: str) -> None:
        line = Text(f"* {text}", style="italic")
        self.log.append(line)
        if not self.live:
            self.console.print(Text("  ").append_text(line))
        self._refresh()

    def prompt(self, text: str, options: Sequence[str] = (), seat: int | None = None) -> None:
        self.showing_log = False
        self.prompt_text = text
        self.options = tuple(options)
        if not self.live:
            if options and self.board_key() != self._printed_board:
                self.print_board()  # a person is asked: the board as it is now
            if self._last_prompt != (text, self.options):
                self.console.print(Text(f"> {text}", style=PROMPT_STYLE))
                if options:
                    self.console.print(option_columns(options, self.console.width))
        self._last_prompt = (text, self.options)
        self._refresh()

    def seat_message(self, text: str, seat: int) -> None:
        """A message for ``seat`` only (why its typed move was refused, which may name its
        hand or its hidden gold): in the events box like any message, and taken out of it
        when the screen is handed over (:meth:`conceal`). The seat holds the screen then."""
        before = {id(line) for line in self.log}
        self.message(text)
        now = {id(line) for line in self.log}
        self._private = (self._private & now) | (now - before)  # lines the log still holds

    def seat_note(self, text: str, seat: int) -> None:
        """A line for ``seat`` only (a hint): shown above the question asked after it,
        until the seat acts (an action, an undo) or the screen is handed over. Printed,
        it is printed once, and the question after it again."""
        self.note = text
        if not self.live:
            self.console.print(Text(f"> {text}", style=PROMPT_STYLE))
            self._last_prompt = None
        self._refresh()

    def redraw(self) -> None:
        """Draw the live view again (a line typed that changed nothing: its Enter moved
        the terminal's rows, the view puts them back); after ``log``, the board again."""
        self.showing_log = False
        self._refresh()

    def show_log(self) -> None:
        """Typed ``log``: the events and messages so far, more than the events box holds
        (a bot's whole turn, the last rounds). Live, they take the board's rows until the
        next line is typed or the next move is made; printed, the last screenful is
        printed."""
        if not self.live:
            rows = max(LOG_LINES, self.console.height - 4)
            lines = list(self.log)[-rows:]
            self.console.print(Text(f"the last {len(lines)} events and messages:", style="bold"))
            for line in lines:
                self.console.print(Text("  ").append_text(line), soft_wrap=False)
            self._last_prompt = None  # the question again below them
            if self.prompt_text:
                self.prompt(self.prompt_text, self.options)
            return
        self.showing_log = True
        self._refresh()

    def conceal(self) -> None:
        """Clear what the screen shows (a hand) before it is handed to another seat."""
        if self.console.is_terminal and not self.live:
            self.console.clear()
        self._printed_board = None
        self.note = ""  # the last holder's hint
        if self._private:  # the last holder's refusals
            kept = [line for line in self.log if id(line) not in self._private]
            self.log.clear()
            self.log.extend(kept)
            self._private = set()
        if self.live:  # the prompt showed the hand: it goes before the next is drawn
            self.showing_log = False
            self.prompt_text, self.options = "", ()
            self._refresh()

    # -- printing ------------------------------------------------------------------------

    def print_board(self) -> None:
        if self.state is None:
            return
        self.console.print(self.board(self.console.width))
        self._printed_board = self.board_key()
        self._last_prompt = None  # the prompt is worth repeating below the board

    # -- the live view -------------------------------------------------------------------

    def _refresh(self) -> None:
        if self._live is not None:
            self._live.update(self.screen(), refresh=True)
            self._to_input_row()

    def _to_input_row(self) -> None:
        """Typed live view: the cursor to the start of the bottom row, where the person
        types (the full screen leaves it past the last column, where a typed character
        would scroll the screen first)."""
        if self.typing and self.console.is_terminal:
            self.console.control(Control(ControlType.CARRIAGE_RETURN))

    def screen(self) -> Layout:
        """What the live view shows: the view at the console's height; while a person
        types, one row less and the input row below it (left empty: the person types
        there)."""
        if not self.typing:
            return self.render()
        from rich.layout import Layout

        height = self.console.height
        whole = Layout()
        whole.split_column(
            Layout(self.render(height - 1), name="view", size=height - 1),
            Layout(Text(" "), name="input", size=1),  # not empty: a Layout shows a placeholder then
        )
        return whole

    def render(self, height: int | None = None) -> Layout:
        """The whole view fitted to ``height`` rows (default: the console's)."""
        from rich.layout import Layout

        height = height or self.console.height
        width = self.console.width
        prompt = self._prompt_block(width)
        shown = self.prompt_text or self.note
        prompt_rows = rows_at(self.console, prompt, width) if shown else 0
        # the newest line whole, even when it needs more rows than the panel has: the
        # board gives way (down to one row), then the prompt's options (down to the
        # question and one row of them: a long list is cut for the help just asked for)
        least = rows_at(self.console, self._prompt_block(width, False), width) if shown else 0
        least += 1 if self.options and shown else 0
        most = max(1, height - 1 - least - 2 - 1)
        side = self.hardware()
        board_width = width - 40 if side is not None and width >= 100 else width
        board = self.board if self.state is not None else _nothing_yet
        # the board's rows it keeps (a map): the options give way, grouped by their verb
        # where that takes fewer rows, cut after that
        kept = max(1, self.board_kept(board_width) if self.state is not None else 0)
        listed, listed_rows = prompt, prompt_rows
        compact: tuple[RenderableType, int] | None = None
        # the events box shows the last height/4 rows (3 to LOG_LINES); when the board
        # (or the options beside the rows the board keeps) needs more rows than that
        # leaves, the box gives it rows, down to 3 of its own
        log_rows = max(3, min(LOG_LINES, height // 4))
        if self.showing_log:  # typed 'log': the events take the board's rows too
            prompt_rows = min(prompt_rows, max(least, height - 1 - 5))
            events_rows = height - 1 - prompt_rows
            log = self._log_block(width - 4, events_rows - 2, events_rows - 2)
            if not log.plain.strip():
                log = Text("nothing has happened yet", style="dim")
        while not self.showing_log:
            log = self._log_block(width - 4, log_rows, most)  # inside the panel's frame
            events_rows = max(log_rows, len(log.plain.splitlines())) + 2
            room = height - 1 - events_rows - kept
            prompt, prompt_rows = listed, listed_rows
            if prompt_rows > room and self.options:
                if compact is None:
                    grouped = self._prompt_block(width, by_verb=True)
                    compact = grouped, rows_at(self.console, grouped, width)
                if compact[1] < prompt_rows:
                    prompt, prompt_rows = compact
            cut = prompt_rows > max(least, room)
            prompt_rows = min(prompt_rows, max(least, room))
            body_rows = max(1, height - 1 - prompt_rows - events_rows)
            drawn = board(board_width, body_rows)
            fits = rows_at(self.console, drawn, board_width) <= body_rows
            if log_rows <= 3 or (not cut and fits and body_rows >= kept):
                break
            log_rows -= 1
        layout = Layout()
        parts = [Layout(self.header(width), name="header", size=1)]
        title = "events"
        if self.showing_log:
            title = "events so far, the newest last (Enter: back to the board)"
        else:
            body = Layout(name="body", size=body_rows)
            if board_width < width:
                assert side is not None
                body.split_row(
                    Layout(drawn, name="board"),
                    Layout(side, name="side", size=40),
                )
            else:
                body.update(drawn)
            parts.append(body)
        parts.append(Layout(Panel(log, title=title), name="events", size=events_rows))
        if prompt_rows:
            full = rows_at(self.console, prompt, width)
            if prompt_rows < full:  # the options' tail gave way: say so
                lines = self.console.render_lines(
                    prompt, self.console.options.update(width=width), pad=False
                )
                kept: list[Segment] = []
                for line in lines[: prompt_rows - 1]:
                    kept += [*line, Segment.line()]
                more = Text("… and more options than fit here", style="dim")
                prompt = Group(Segments(kept), more)
            parts.append(Layout(prompt, name="prompt", size=prompt_rows))
        layout.split_column(*parts)
        return layout

    def _log_block(self, width: int, rows: int, most: int) -> Text:
        """The last events and messages wrapped at ``width``, in ``rows`` rows or up to
        ``most`` for the newest: the newest whole (cut only past ``most``), the ones before
        it while they fit, the oldest shown cut to the rows left (its cut marked) if it must be."""
        shown: list[list[Text]] = []
        left = rows
        for line in reversed(self.log):
            wrapped = [row.copy() for row in line.wrap(self.console, width)]
            if not shown:
                left = max(rows, min(len(wrapped), most))
            if len(wrapped) <= left:
                shown.append(wrapped)
                left -= len(wrapped)
                continue
            if left > 0:  # what fits of it, the cut marked
                cut = wrapped[:left]
                cut[-1].truncate(width - 1)
                cut[-1].rstrip()
                cut[-1].append("…")
                shown.append(cut)
            break
        log = Text("\n").join(row for rows_ in reversed(shown) for row in rows_)
        log.no_wrap, log.overflow = True, "ellipsis"
        return log

    def _prompt_block(
        self, width: int, options: bool = True, by_verb: bool = False
    ) -> RenderableType:
        """The note (a hint), the question and (``options``) its options (``by_verb``:
        grouped by their first word, see :func:`option_columns`)."""
        lines: list[RenderableType] = []
        if self.note:
            lines.append(Text(f"> {self.note}", style="bold green"))
        if self.prompt_text:
            lines.append(Text(f"> {self.prompt_text}", style=PROMPT_STYLE))
        if self.options and options:
            lines.append(option_columns(self.options, width, by_verb))
        return Group(*lines)


def _nothing_yet(width: int, height: int | None = None) -> RenderableType:
    """The board before the game's first state is shown (the live view has started)."""
    return Text("")


def styled_event(event: Any, quiet: Any, styles: dict[str, str], words: Any = None) -> Text | None:
    """An event as a log line in its kind's style (``None`` for a ``quiet`` kind);
    ``words`` turns engine names in its text into words."""
    if event.kind in quiet:
        return None
    text = event.public_text if event.private_to is not None else event.text
    return Text(words(text) if words else text, style=styles.get(event.kind, ""))


#: A run of at least this many options that differ in one word only is shown compactly.
SHARED_RUN = 6


def option_columns(
    options: Sequence[str], width: int | None = None, by_verb: bool = False
) -> RenderableType:
    """Options side by side in columns; an option is never broken inside (nor a word).
    An option wider than ``width`` (a kind with all its values, ``pick <1|3|...>``) gets
    rows of its own, broken after a space or a ``|``, never cut. A run of numbered options
    that differ in one word only (``4: figure a2 purple``, ``5: figure b2 purple``, ...)
    is shown once as ``figure … purple:`` (saying how to type one) with the numbers and
    that word (``4: a2``): 21 figures take 4 rows at 80 columns instead of 8, and the
    seats' table stays on screen. ``by_verb`` (the options do not fit beside a board that
    keeps its rows): runs sharing their first word only are shown so too (``challenge
    …:`` with ``4: A>E I``, see :func:`verb_runs`)."""
    blocks: list[RenderableType] = []
    short: list[Text] = []

    def flush() -> None:
        if short:
            blocks.append(Columns(list(short), padding=(0, 3)))
            short.clear()

    runs = verb_runs(options) if by_verb else option_runs(options, width)
    for run, shared in runs:
        if shared is not None:
            flush()
            number, _, word = run[0].partition(": ")
            said = f"{shared}: type the number"
            if sum(word in o.partition(": ")[2].split() for o in options) == 1:
                said += f" or what is beside it ({number} or {word})"  # one option has it
            blocks.append(Text(said, no_wrap=True, overflow="ellipsis"))
            short.extend(Text(o, no_wrap=True) for o in run)
            flush()
            continue
        for option in run:
            if width is None or len(option) <= width // 2:
                short.append(Text(option, no_wrap=True, overflow="ellipsis"))
                continue
            # a long one on a row of its own: among the others it would make every option
            # take a row (columns are as wide as the widest)
            flush()
            blocks.append(broken_option(option, width))
    flush()
    return blocks[0] if len(blocks) == 1 else Group(*blocks)


def option_runs(
    options: Sequence[str], width: int | None = None
) -> list[tuple[list[str], str | None]]:
    """The options in runs: ``(options, None)`` as they are, or ``(["4: a2", ...],
    "figure … purple")`` for numbered options in a row whose words differ in one place
    only, never where that word is a number (``9: 27`` for ``pick 27`` reads as if 9
    picked gladiator 9): at least :data:`SHARED_RUN` of them, or with ``width`` at least
    three where that takes fewer rows (three Spartacus schemes against each house, one
    to a row, and ``done`` cut off at 80x24)."""
    parsed = [_numbered(o) for o in options]
    out: list[tuple[list[str], str | None]] = []
    i = 0
    while i < len(options):
        end, place = i + 1, None
        if parsed[i] is not None and i + 1 < len(options):
            place = _one_difference(parsed[i], parsed[i + 1])
            while place is not None and end < len(options):
                if _one_difference(parsed[i], parsed[end]) != place:
                    break
                end += 1
        run = [p for p in parsed[i:end] if p is not None]
        if place is not None and _worth_grouping(options[i:end], run, place, width):
            words = run[0][1]
            shared = " ".join([*words[:place], "…", *words[place + 1 :]])
            out.append(([f"{n}: {w[place]}" for n, w in run], shared))
            i = end
            continue
        _as_it_is(out, options[i])
        i += 1
    return out


def verb_runs(options: Sequence[str]) -> list[tuple[list[str], str | None]]:
    """The options in runs as :func:`option_runs` gives them, but a run of at least three
    numbered options sharing their first word is shown once by that word (``challenge
    …``, with ``4: A>E I``, ``5: A>F C``, ...: 24 challenges in 5 rows at 80 columns
    instead of 8), never where the words after it start with a number (``9: 27``)."""
    verbs = [_verb(o) for o in options]
    out: list[tuple[list[str], str | None]] = []
    i = 0
    while i < len(options):
        end = i + 1
        while verbs[i] is not None and end < len(options) and verbs[end] == verbs[i]:
            end += 1
        if end - i >= 3:
            run = [_numbered(o) for o in options[i:end]]
            shown = [f"{p[0]}: {' '.join(p[1][1:])}" for p in run if p is not None]
            out.append((shown, f"{verbs[i]} …"))
            i = end
            continue
        _as_it_is(out, options[i])
        i += 1
    return out


def _as_it_is(out: list[tuple[list[str], str | None]], option: str) -> None:
    """An option shown as it is: with the run of such options before it, or a new run."""
    if out and out[-1][1] is None:
        out[-1][0].append(option)
    else:
        out.append(([option], None))


def _verb(option: str) -> str | None:
    """The first word of a numbered option whose next word is no number (None otherwise)."""
    parsed = _numbered(option)
    if parsed is None or parsed[1][1][:1].isdigit():
        return None
    return parsed[1][0]


def _worth_grouping(
    shown: Sequence[str], run: list[tuple[str, list[str]]], place: int, width: int | None
) -> bool:
    if len(run) >= SHARED_RUN:
        return True
    if width is None or len(run) < 3:
        return False
    grouped = [f"{n}: {w[place]}" for n, w in run]
    return 1 + _packed_rows(grouped, width) < _packed_rows(shown, width)


def _packed_rows(items: Sequence[str], width: int) -> int:
    """About how many rows ``items`` take side by side in columns 3 apart."""
    across = max(1, (width + 3) // (max(map(len, items)) + 3))
    return -(-len(items) // across)


def _numbered(option: str) -> tuple[str, list[str]] | None:
    """``"4: figure a2 purple"`` -> ``("4", ["figure", "a2", "purple"])``; None otherwise."""
    number, sep, text = option.partition(": ")
    words = text.split(" ")
    if not sep or not number.isdigit() or len(words) < 2 or "" in words:
        return None
    return number, words


def _one_difference(a: tuple[str, list[str]] | None, b: tuple[str, list[str]] | None) -> int | None:
    """The one place where the words of two numbered options differ (None: not exactly one)."""
    if a is None or b is None or len(a[1]) != len(b[1]):
        return None
    places = [k for k, (x, y) in enumerate(zip(a[1], b[1], strict=True)) if x != y]
    if len(places) != 1 or a[1][places[0]][:1].isdigit() or b[1][places[0]][:1].isdigit():
        return None
    return places[0]


def broken_option(option: str, width: int) -> Text:
    """A long option in rows of at most ``width``, broken after a space or a ``|`` (the
    rows after the first indented by two)."""
    rows: list[str] = []
    row = ""
    for piece in re.findall(r"[^ |]+[ |]?|[ |]", option):
        if row.strip() and len(row) + len(piece.rstrip()) > width:
            rows.append(row.rstrip())
            row = "  "
        row += piece
    rows.append(row.rstrip())
    return Text("\n".join(rows), no_wrap=True, overflow="ellipsis")


def rows_at(console: Console, renderable: RenderableType, width: int) -> int:
    """How many rows ``renderable`` takes at ``width``."""
    return len(console.render_lines(renderable, console.options.update(width=width), pad=False))
