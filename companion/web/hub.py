"""The web's side of the table: what the table publishes, and what phones send back.

Nothing here imports the web stack, so the table (and tests) can use it without it.

:class:`WebHub` is a table view (the table loop's ``TableView``: ``update``,
``message``, ``prompt``). After every change the table calls it; it takes a
:class:`Frame` there and then, on the table's thread, through the game's own seat views
(``game.view(state, seat)`` for the table screen and every seat) and keeps the events
(shown to each page through ``game.event_view``), so the web thread never touches a
live game state. Every frame has a sequence number; a page that reconnects says the
last one it saw and gets the present frame at once.

Phones send back :class:`Submission` objects, kept in one thread-safe queue per seat
(:meth:`WebHub.submit`, :meth:`WebHub.take`), which the seat's agent
(:class:`companion.web.agent.WebAgent`) consumes. What a seat may do now is its
:class:`Offer`, set by that agent; a submission names the offer it answers, so a
double tap or a page left open on an old question is never taken for the next one.

Plays out of turn (a guard laid, gold given, a reaction while another seat is asked) are
each seat's **anytime** offer, set by the table while it waits for a decision
(:class:`companion.web.anytime.PhonePlays`); their submissions go to one queue the table
reads (:meth:`WebHub.take_anytime`), since any seat's may end the wait.
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

LOG_EVENTS = 60  # events kept for the pages' logs (a reconnecting page re-reads them)
MESSAGES = 4  # table messages shown


@dataclass(frozen=True)
class DiceEntry:
    """Physical dice entry at a chance node: the seat types what its own dice show.

    ``outcomes``: the notations of the chance node's outcomes (a button each), or, when
    there are too many to list, ``dice`` faces of ``sides`` sides entered one by one and
    matched against the outcomes' faces (:func:`companion.web.agent.match_faces`).
    """

    label: str
    outcomes: tuple[str, ...] = ()
    dice: int = 0
    sides: int = 6


@dataclass(frozen=True)
class Offer:
    """What one seat may do now: its phone shows these (and only these) as buttons.

    ``actions`` and ``corrections`` are the notations of ``legal_actions()`` (never worked
    out anywhere else); ``secret``: a secret bid or net, entered on the phone only;
    ``buttons``: table buttons (roll, select, confirm) offered to this seat;
    ``undo``: how many of this turn's actions may be taken back; ``steps``: kinds of action
    the list leaves some out of (a scheme with supporters), each a button that chooses
    that kind step by step, a question a parameter (``back``: such a step's question).
    """

    id: int
    prompt: str
    actions: tuple[str, ...] = ()
    corrections: tuple[str, ...] = ()
    secret: bool = False
    undo: int = 0
    dice: DiceEntry | None = None
    buttons: tuple[str, ...] = ()
    hint: bool = False  # a hint button (the search's best action for this seat)
    passing: bool = False  # out of turn: a "pass" button (play none of the actions)
    steps: tuple[str, ...] = ()  # kinds chosen step by step (actions the list leaves out)
    back: bool = False  # a step of such a choice: a "back" button (to the question)
    #: ``(notation, label)`` where a button reads otherwise than its notation, as the
    #: terminal shows it (Gladiatoren's ``challenge G F for blue`` for ``... for 2``)
    labels: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Submission:
    """A phone's answer to an offer: ``kind`` is ``action`` (``text`` is a notation),
    ``undo`` (``count``), ``dice`` (``text`` is an outcome's notation, or ``faces``),
    ``hint`` (the seat asks for a hint to this offer), ``pass`` (out of turn: none),
    ``step`` (``text``: a kind of the offer's ``steps``), ``back`` (a step: back),
    ``anytime`` (``text`` is one of the seat's plays out of turn, its anytime offer)."""

    seat: int
    offer: int
    kind: str
    text: str = ""
    count: int = 1
    faces: tuple[int, ...] = ()


@dataclass(frozen=True)
class LoggedEvent:
    seq: int
    event: Any  # a core Event; shown to a page through game.event_view


@dataclass(frozen=True)
class Frame:
    """The table as the web shows it at one moment (made on the table's thread)."""

    seq: int
    views: dict[int | None, dict[str, Any]]  # None: the table screen
    log: tuple[LoggedEvent, ...] = ()
    roll: LoggedEvent | None = None  # the latest dice event (its faces, animated once)
    messages: tuple[str, ...] = ()
    prompt: str = ""  # what the table asks everyone (press ROLL ...)
    offers: dict[int, Offer] = field(default_factory=dict)
    anytime: dict[int, Offer] = field(default_factory=dict)  # a seat's plays out of turn
    notes: dict[int, str] = field(default_factory=dict)  # a seat's own messages
    hints: dict[int, str] = field(default_factory=dict)  # a seat's hint to its present offer
    extras: dict[str, Any] = field(default_factory=dict)  # public extras: odds

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.views[seat]


#: Event kinds that carry a roll of dice, per game (the table screen animates them).
ROLL_EVENTS = {"doom_rolled", "dice_rolled", "hit_die", "rolled_off"}


class Listeners:
    """The callbacks told of every new frame (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[Frame], None]] = []

    def add(self, callback: Callable[[Frame], None]) -> Callable[[], None]:
        """Tell ``callback`` of every frame from now on; returns the function that stops it."""
        with self._lock:
            self._callbacks.append(callback)

        def stop() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return stop

    def __call__(self, frame: Frame) -> None:
        with self._lock:
            callbacks = list(self._callbacks)
        for callback in callbacks:
            callback(frame)


class WebHub:
    """The table's publisher for the web, and the phones' input queues.

    ``game``: the registry's :class:`~companion.games.core.game.Game`; ``config``: the
    game's config (the board's geometry comes from its component data); ``extras``: a
    function of the state giving public extras (exact odds), run on the table thread.
    """

    keyboard = False  # nobody types at a phone: a prompt's terminal words are left off

    def __init__(
        self,
        game: Any,
        config: Any,
        players: int,
        *,
        extras: Callable[[Any], dict[str, Any]] | None = None,
    ) -> None:
        self.game = game
        self.config = config
        self.players = players
        self._extras = extras
        self._lock = threading.Lock()
        self._seq = 0
        self._offer_ids = itertools.count(1)
        self._log: deque[LoggedEvent] = deque(maxlen=LOG_EVENTS)
        self._messages: deque[str] = deque(maxlen=MESSAGES)
        self._roll: LoggedEvent | None = None
        self._prompt = ""
        self._views: dict[int | None, dict[str, Any]] = {}
        self._extras_now: dict[str, Any] = {}
        self._offers: dict[int, Offer] = {}
        self._notes: dict[int, str] = {}
        # seats whose note came while no question was on their phone (after an answer:
        # why the table refused it): it stays with the question asked next, then goes
        self._fresh_notes: set[int] = set()
        self._hints: dict[int, tuple[int, str]] = {}  # seat -> (offer id, text)
        self._frame: Frame | None = None
        self._listeners = Listeners()
        self._queues = {seat: queue.Queue[Submission]() for seat in range(players)}
        self._anytime: dict[int, Offer] = {}
        self._anytime_queue = queue.Queue[Submission]()

    # -- the table view (called on the table's thread) ------------------------------------

    def update(self, state: Any, events: Sequence[Any]) -> None:
        """The state changed (``events`` happened): take a new frame of every view."""
        views = {s: self.game.view(state, s) for s in (None, *range(self.players))}
        extras = self._extras(state) if self._extras is not None else {}
        with self._lock:
            self._views = views
            self._extras_now = extras
            if events:
                self._prompt = ""  # what the table asked was answered (as on the dashboard)
            for event in events:
                self._seq += 1
                logged = LoggedEvent(self._seq, event)
                self._log.append(logged)
                if event.kind in ROLL_EVENTS:
                    self._roll = logged
            self._publish()

    def message(self, text: str) -> None:
        """A message for everyone at the table (shown on every page)."""
        with self._lock:
            self._messages.append(text)
            self._publish()

    def seat_message(self, text: str, seat: int) -> None:
        """Why the seat's own move was refused: its note, on its phone only (the reason may
        name what only it may see)."""
        self.prompt(text, seat=seat)

    def prompt(self, text: str, options: Sequence[str] = (), seat: int | None = None) -> None:
        """What the table asks now. Without ``seat`` it is public (the terminal's prompt,
        "press ROLL"); its options are not shown on the web, whose seats get their own
        :class:`Offer`. With ``seat`` it is that seat's note only."""
        with self._lock:
            if seat is None:
                self._prompt = text
            else:
                self._note(seat, text)
            self._publish()

    def answered(self) -> None:
        """The table took what its public prompt asked for (a press of ROLL): the prompt
        leaves every page at once, not after the roll's animation and messages, so nobody
        is shown "press ROLL" for a roll already taken (and presses again)."""
        with self._lock:
            if self._prompt:
                self._prompt = ""
                self._publish()

    def reset(self) -> None:
        """A new game at the same table: forget the last game's log, dice, messages,
        prompt and seats' notes (the frames keep counting, so open pages follow on)."""
        with self._lock:
            self._log.clear()
            self._messages.clear()
            self._roll = None
            self._prompt = ""
            self._notes.clear()
            self._fresh_notes.clear()
            self._hints.clear()
            self._anytime.clear()
            self._publish()

    # -- offers and notes (the seats' agents) ----------------------------------------------

    def new_offer_id(self) -> int:
        return next(self._offer_ids)

    def offer(self, seat: int, offer: Offer | None) -> None:
        """Show ``offer`` on ``seat``'s phone (``None``: nothing to do); drops answers
        still queued for an earlier offer."""
        with self._lock:
            self._hints.pop(seat, None)  # a hint answers one question only
            if offer is None:
                self._offers.pop(seat, None)
            else:
                self._offers[seat] = offer
                if seat in self._fresh_notes:  # why the last answer was refused: shown
                    self._fresh_notes.discard(seat)  # with the question asked again
                else:
                    self._notes.pop(seat, None)  # a new question: the last note is old news
            self._publish()

    def note(self, seat: int, text: str) -> None:
        """A message for one seat only (why its choice was refused)."""
        with self._lock:
            self._note(seat, text)
            self._publish()

    def _note(self, seat: int, text: str) -> None:
        """(Under the lock.) A note set between two questions (the table refused the
        answer) is kept for the next question; one set while a question is up goes with
        that question. Before, every new question dropped it: a refused undo, or a guard
        posted by another house first, reached the phone as the same question asked again,
        the reason on the terminal only."""
        self._notes[seat] = text
        if seat in self._offers:
            self._fresh_notes.discard(seat)
        else:
            self._fresh_notes.add(seat)

    def hint(self, seat: int, offer_id: int, text: str) -> bool:
        """Show ``text`` on ``seat``'s phone only, if ``offer_id`` is still its present
        offer (a hint that comes after the question was answered is dropped)."""
        with self._lock:
            offer = self._offers.get(seat)
            if offer is None or offer.id != offer_id:
                return False
            self._hints[seat] = (offer_id, text)
            self._publish()
            return True

    def current_offer(self, seat: int) -> Offer | None:
        with self._lock:
            return self._offers.get(seat)

    def anytime(self, offers: dict[int, Offer]) -> list[Submission]:
        """Replace every seat's plays out of turn with ``offers`` (``{}``: none now).
        Returns the submissions still queued for the old ones: they are not played."""
        dropped = []
        with self._lock:
            self._anytime = dict(offers)
            while True:
                try:
                    dropped.append(self._anytime_queue.get_nowait())
                except queue.Empty:
                    break
            self._publish()
        return dropped

    def anytime_offer(self, seat: int) -> Offer | None:
        with self._lock:
            return self._anytime.get(seat)

    def take_anytime(self) -> Submission | None:
        """The next play out of turn submitted for a present anytime offer, or ``None``
        (never waits: the table calls it between its own polls)."""
        while True:
            try:
                submission = self._anytime_queue.get_nowait()
            except queue.Empty:
                return None
            offer = self.anytime_offer(submission.seat)
            if offer is not None and offer.id == submission.offer:
                return submission

    # -- frames (read by the web view's side) -------------------------------------------------

    def _publish(self) -> None:
        """Make the next frame (the lock is held) and wake every listener."""
        if not self._views:
            return  # nothing to show before the first update
        self._seq += 1
        self._frame = Frame(
            seq=self._seq,
            views=self._views,
            log=tuple(self._log),
            roll=self._roll,
            messages=tuple(self._messages),
            prompt=self._prompt,
            offers=dict(self._offers),
            anytime=dict(self._anytime),
            notes=dict(self._notes),
            hints={s: text for s, (_, text) in self._hints.items()},
            extras=self._extras_now,
        )
        self._listeners(self._frame)

    @property
    def frame(self) -> Frame | None:
        """The latest frame (``None`` before the table's first update)."""
        with self._lock:
            return self._frame

    def listen(self, callback: Callable[[Frame], None]) -> Callable[[], None]:
        """Call ``callback(frame)`` with every new frame (on the table's thread, with the
        hub's lock held: it must only hand the news on, e.g. with
        ``loop.call_soon_threadsafe``). Returns the function that stops it."""
        return self._listeners.add(callback)

    # -- input (phones -> the seat's agent) -------------------------------------------------

    def submit(self, submission: Submission) -> bool:
        """Queue a phone's answer for its seat's agent. Refused (``False``) unless it
        answers the seat's present offer (a play out of turn: its present anytime offer,
        checked and queued under the lock, so never for offers already withdrawn)."""
        if submission.kind == "anytime":
            with self._lock:
                offer = self._anytime.get(submission.seat)
                if offer is None or offer.id != submission.offer:
                    return False
                self._anytime_queue.put(submission)
                return True
        offer = self.current_offer(submission.seat)
        if offer is None or offer.id != submission.offer:
            return False
        self._queues[submission.seat].put(submission)
        return True

    def take(self, seat: int, timeout: float | None = None) -> Submission | None:
        """The next answer from ``seat``'s phone that answers its present offer, or
        ``None`` after ``timeout`` seconds."""
        q = self._queues[seat]
        while True:
            try:
                submission = q.get(timeout=timeout)
            except queue.Empty:
                return None
            offer = self.current_offer(seat)
            if offer is not None and submission.offer == offer.id:
                return submission
