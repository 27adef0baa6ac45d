"""The web view in a process of its own: the table sends it frames, it sends back what phones do.

CPython runs one thread of a process at a time (the GIL). With the web server on a thread
of the table's process, the gpio backend's button thread, woken at the end of the red
button's glitch window, waited for the interpreter while the server's thread held it
(HTTP writes, the live streams' JSON, pickling frames for the pages process), the longer
the more that thread was preempted by other processes: ``bench/hal_latency.py``'s ``web``
condition missed its 1 ms p99 (1.6-1.8 ms beyond the window here, ~17 ms estimated on a
Pi Zero 2 W). So the server runs in the **web process** (``spawn``: a fresh interpreter
that inherits no pin, port or thread of the table), and all the table's process does for
the web is take frames (:class:`~companion.web.hub.WebHub`, on the table's thread, as
before) and hand them to a sender thread, which pickles the latest and writes it to a pipe.

The table's side is :class:`WebProcess`; the web process runs :func:`serve`: the uvicorn
server (:class:`~companion.web.server.WebServer`), the :class:`~companion.web.site.Site`
with its pairing tokens, and the pages process that draws the pages (its own
:class:`~companion.worker.Worker`). The site reads a :class:`Mirror` of the hub: the latest
frame the table sent. What a phone does comes back over the pipe and is done on the table's
side exactly as before: an answer to a seat's offer goes to :meth:`WebHub.submit` (which
checks it against the offer it holds; the mirror has checked it against the offer the phone
was shown), a press of ROLL/SELECT/CONFIRM to the :class:`~companion.web.buttons.ButtonRelay`
(which refuses anything else, as the web process's :class:`Presser` already has: the red
button is never pressed from a page). The pairing tokens live in the web process, which
checks every request; the table asks it for the links (:meth:`WebProcess.links`) and for
new tokens at a new game.

Messages are tuples (pickled by :class:`multiprocessing.connection.Connection`):

- table -> web: ``("frame", frame)`` (only the latest is sent when frames come faster
  than the pipe takes them: a frame is the whole table), ``("call", id, name, args)``
  (``links``, ``token``, ``new_game``, ``seq``), ``("stop",)``;
- web -> table: ``("listening", port)`` or ``("failed", text)`` once at the
  start, then ``("submit", submission)``, ``("press", button, seat, hold)``,
  ``("reply", id, value)``.

A call travels behind every frame queued before it, so after :meth:`WebProcess.sync` the
web process has every frame the hub made before. If the web process dies, the table plays
on (its frames are dropped; logged once); when the table's process ends, the web process
reads the end of the pipe and stops. It ignores SIGINT and SIGTERM (a Ctrl-C at the
terminal, a service's stop: systemd signals every process of the unit at once): the
table's process stops it in order.
"""

from __future__ import annotations

import atexit
import itertools
import logging
import multiprocessing
import signal
import threading
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from companion.web.address import http_url
from companion.web.buttons import WEB_BUTTONS, NotAWebButton
from companion.web.hub import Frame, Listeners, Submission
from companion.web.pairing import Role
from companion.web.render import Look

__all__ = ["Mirror", "Presser", "WebProcess", "serve"]

log = logging.getLogger(__name__)

START_TIMEOUT_S = 120.0  # spawn, import the server and the game: seconds on a Pi Zero 2 W
CALL_TIMEOUT_S = 30.0


# -- the table's side ---------------------------------------------------------------------


class WebProcess:
    """The web view's process, seen from the table's: ``hub``'s frames go to it, and what
    phones do comes back to ``hub`` (answers) and ``relay`` (table buttons; ``None``: a
    table without buttons). ``look``: what the pages need besides a frame; ``lan_host``:
    the address the links name when the server listens on every interface."""

    def __init__(
        self,
        hub: Any,
        look: Look,
        host: str,
        port: int,
        *,
        lan_host: str | None = None,
        relay: Any = None,
    ) -> None:
        self.hub = hub
        self.look = look
        self.host = host
        self.port = port
        self.lan_host = lan_host
        self.relay = relay
        self._conn: Connection | None = None
        self._process: multiprocessing.process.BaseProcess | None = None
        self._outbox: deque[tuple[Any, ...]] = deque()
        self._ready = threading.Condition()
        self._closed = False
        self._calls = itertools.count(1)
        self._replies: dict[int, list[Any]] = {}  # id -> [value] once answered
        self._answered = threading.Condition()
        self._gone = False  # the web process ended (or never started)
        self._stop_listening: Callable[[], None] | None = None
        self._threads: list[threading.Thread] = []

    @property
    def url(self) -> str:
        return http_url(self.host, self.port)

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.is_alive()

    def start(self) -> WebProcess:
        """Start the web process; returns once its server listens (``OSError`` with the
        reason if it cannot)."""
        context = multiprocessing.get_context("spawn")
        mine, theirs = context.Pipe()
        args = (theirs, self.look, self.hub.players, self.host, self.port, self.lan_host)
        # not a daemon: it starts the pages process. Stopped at close, at this process's
        # exit (atexit, before multiprocessing joins its children) and, if this process
        # is killed, by the end of the pipe
        process = context.Process(target=serve, args=args, name="companion-web")
        process.start()
        atexit.register(self.stop)
        theirs.close()
        self._conn, self._process = mine, process
        try:
            first = self._first_message(mine, process)
        except BaseException:
            self._kill()
            raise
        if first[0] != "listening":
            self._kill()
            raise OSError(first[1])
        _, self.port = first
        for target, name in ((self._send_loop, "web-send"), (self._receive_loop, "web-receive")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)
        self._stop_listening = self.hub.listen(self._frame)
        if self.hub.frame is not None:
            self._frame(self.hub.frame)
        return self

    @staticmethod
    def _first_message(conn: Connection, process: Any) -> tuple[Any, ...]:
        waited = 0.0
        while not conn.poll(0.05):
            waited += 0.05
            if not process.is_alive():
                raise OSError(
                    f"the web view's process ended at its start (exit {process.exitcode})"
                )
            if waited > START_TIMEOUT_S:
                raise OSError(f"the web view's process did not start in {START_TIMEOUT_S:.0f} s")
        try:
            message = conn.recv()
        except (EOFError, OSError) as exc:
            raise OSError(f"the web view's process ended at its start ({exc})") from None
        return tuple(message)

    # -- frames and calls out (the sender thread writes them) --------------------------------

    def _frame(self, frame: Frame) -> None:
        """The hub's listener (the table's thread, the hub's lock held): queue the frame,
        in place of a frame still waiting (the newest is the whole table)."""
        with self._ready:
            if self._outbox and self._outbox[-1][0] == "frame":
                self._outbox[-1] = ("frame", frame)
            else:
                self._outbox.append(("frame", frame))
            self._ready.notify()

    def _send_loop(self) -> None:
        assert self._conn is not None
        while True:
            with self._ready:
                while not self._outbox and not self._closed:
                    self._ready.wait()
                if not self._outbox:
                    return
                message = self._outbox.popleft()
            try:
                self._conn.send(message)
            except (OSError, ValueError):  # the web process went away
                self._lost()
                return
            if message[0] == "stop":
                return

    def _receive_loop(self) -> None:
        assert self._conn is not None
        while True:
            try:
                message = self._conn.recv()
            except (EOFError, OSError, ValueError):
                self._lost()
                return
            try:
                self._handle(message)
            except Exception:  # a phone's message must never stop the table
                log.exception("web view: a message from the web process failed")

    def _handle(self, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "submit":
            self.hub.submit(message[1])
        elif kind == "press":
            _, button, seat, hold = message
            if self.relay is None:
                return
            try:
                self.relay.press(button, seat, hold=hold)
            except NotAWebButton:
                log.warning("web view: refused a press of %r from a page", button)
        elif kind == "reply":
            with self._answered:
                self._replies[message[1]] = [message[2]]
                self._answered.notify_all()

    def _lost(self) -> None:
        with self._answered:
            gone, self._gone = self._gone, True
            self._answered.notify_all()
        if not gone and not self._closed:
            log.warning("the web view's process ended; the table plays on without it")

    def call(self, name: str, *args: Any, timeout: float = CALL_TIMEOUT_S) -> Any:
        """``name(*args)`` in the web process (after every frame queued before); its
        value. ``OSError`` if the web process is gone or does not answer."""
        number = next(self._calls)
        with self._ready:
            if self._closed:
                raise OSError("the web view is closed")
            self._outbox.append(("call", number, name, args))
            self._ready.notify()
        with self._answered:
            if not self._answered.wait_for(lambda: number in self._replies or self._gone, timeout):
                raise OSError(f"the web view's process did not answer {name!r}")
            if number not in self._replies:
                raise OSError("the web view's process has ended")
            return self._replies.pop(number)[0]

    def links(self) -> dict[Role, str]:
        """Every role's pairing link."""
        return dict(self.call("links"))

    def token(self, role: Role) -> str:
        return str(self.call("token", role))

    def new_game(self, players: int) -> None:
        """New tokens for every role: last game's links stop working."""
        self.call("new_game", players)

    def sync(self) -> int:
        """Wait until the web process has every frame made so far; its latest frame's
        number (0: none yet)."""
        return int(self.call("seq"))

    # -- the end ------------------------------------------------------------------------------

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the web process (its server, its pages process) and the threads here."""
        atexit.unregister(self.stop)
        if self._stop_listening is not None:
            self._stop_listening()
            self._stop_listening = None
        with self._ready:
            if not self._closed:
                self._outbox.append(("stop",))
                self._closed = True
            self._ready.notify()
        for thread in self._threads:
            thread.join(timeout)
        if self._process is not None:
            self._process.join(timeout)
        self._kill()

    def _kill(self) -> None:
        atexit.unregister(self.stop)
        self._closed = True
        if self._process is not None and self._process.is_alive():
            self._process.terminate()
            self._process.join(5)
        if self._conn is not None:
            self._conn.close()


# -- the web process's side -----------------------------------------------------------------


class Mirror:
    """The hub as the web process sees it: the latest frame the table sent, and answers
    checked against the offers of that frame (the ones the phone was shown) and sent on."""

    def __init__(self, look: Look, players: int, send: Callable[[tuple[Any, ...]], None]) -> None:
        from companion.games.registry import get_game

        self.game = get_game(look.game)
        self.config = look.config
        self.players = players
        self._send = send
        self._lock = threading.Lock()
        self._frame: Frame | None = None
        self._listeners = Listeners()

    @property
    def frame(self) -> Frame | None:
        with self._lock:
            return self._frame

    def listen(self, callback: Callable[[Frame], None]) -> Callable[[], None]:
        return self._listeners.add(callback)

    def publish(self, frame: Frame) -> None:
        with self._lock:
            self._frame = frame
        self._listeners(frame)

    def submit(self, submission: Submission) -> bool:
        """Refused (``False``) unless it answers the seat's offer in the latest frame (its
        anytime offer for a play out of turn); the table checks it again."""
        frame = self.frame
        if frame is None:
            return False
        offers = frame.anytime if submission.kind == "anytime" else frame.offers
        offer = offers.get(submission.seat)
        if offer is None or offer.id != submission.offer:
            return False
        self._send(("submit", submission))
        return True


class Presser:
    """The web process's button relay: ROLL, SELECT or CONFIRM sent to the table's
    :class:`~companion.web.buttons.ButtonRelay`; any other name is refused here already."""

    def __init__(self, send: Callable[[tuple[Any, ...]], None]) -> None:
        self._send = send

    def press(self, button: str, seat: int | None = None, *, hold: bool = False) -> None:
        if button not in WEB_BUTTONS:
            raise NotAWebButton(f"{button!r} cannot be pressed from a phone")
        self._send(("press", button, seat, hold))


def serve(
    conn: Connection, look: Look, players: int, host: str, port: int, lan_host: str | None
) -> None:
    """The web process: serve ``look``'s table on ``host:port`` until the table says stop
    or its end of ``conn`` closes."""
    # Ctrl-C and a service's stop (systemd signals every process of the unit at once) are
    # for the table's process, which stops this one in order (no "web view ended" warning
    # from a table still closing); without it, the end of the pipe stops this one
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    lock = threading.Lock()

    def send(message: tuple[Any, ...]) -> None:
        with lock:
            conn.send(message)

    from companion.web.pairing import Pairing
    from companion.web.render import setup
    from companion.web.server import WebServer
    from companion.web.site import Site
    from companion.worker import Worker

    mirror = Mirror(look, players, send)
    relay = Presser(send) if look.buttons else None
    renderer = Worker("web pages", setup, (look,))
    renderer.start()
    pairing = Pairing(players, bots=look.bot_seats)
    site = Site(mirror, pairing=pairing, relay=relay, buttons=look.buttons, renderer=renderer)
    server = WebServer(site, host, port)
    try:
        server.start()
    except OSError as exc:
        site.close()
        send(("failed", str(exc)))
        return
    if lan_host is not None:  # every interface: the links name the one phones reach
        site.base_url = http_url(lan_host, server.port)
    send(("listening", server.port))
    try:
        _serve_messages(conn, mirror, site, send)
    finally:
        server.stop()
        site.close()


def _serve_messages(
    conn: Connection, mirror: Mirror, site: Any, send: Callable[[tuple[Any, ...]], None]
) -> None:
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the table's process ended
            return
        kind = message[0]
        if kind == "frame":
            mirror.publish(message[1])
        elif kind == "call":
            _, number, name, args = message
            try:
                value = _answer(site, mirror, name, args)
            except Exception:  # answered (None), so the table never waits for it
                log.exception("web view: the call %r failed", name)
                value = None
            send(("reply", number, value))
        elif kind == "stop":
            return


def _answer(site: Any, mirror: Mirror, name: str, args: tuple[Any, ...]) -> Any:
    if name == "links":
        return [(role, site.link(role)) for role in site.pairing.roles]
    if name == "token":
        return site.pairing.token(args[0])
    if name == "new_game":
        site.pairing.new_game(args[0])
        site.poke()
        return None
    if name == "seq":
        frame = mirror.frame
        return frame.seq if frame is not None else 0
    raise ValueError(f"no such call {name!r}")
