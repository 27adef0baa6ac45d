"""Plugging the web view into a running table: what ``--web`` on a command does.

A command that was given ``--web [HOST:PORT]`` calls :func:`attach_web` once, with the
game, its config and the hardware, and gets a :class:`WebTable`: the hub, the web view's
process (its server already listening, the pairing tokens) and the button relay. Then,
for each table loop it runs, :meth:`WebTable.plug` does what ``docs/web.md`` ("Plugging
it into the table") lists, and nothing else:

- the hub joins the loop's views (the table's :class:`~companion.table.loop.Observers`,
  beside the terminal's dashboard), so both see every ``update``/``message``/``prompt``;
- each seat played from a phone gets a :class:`~companion.web.agent.WebAgent` in place
  of its agent, so the loop's own ``decide`` commits (and journals) a phone's move as it
  would a typed one;
- with physical dice, the rolling seat's phone enters the Doom die's face
  (:meth:`WebTable.entered_roll`, the loop's ``dice_from``);
- where the game lets seats play out of turn (the adapter's ``out_of_turn_actions``),
  the phone seats not asked get their plays while a decision waits
  (:class:`~companion.web.anytime.PhonePlays`, the loop's ``anytime``), and the waits of
  a decision (a phone's, the terminal's) take them (``loop.take_out_of_turn``);
- ROLL/SELECT/CONFIRM pressed on a phone go onto the hardware's one input queue through
  the :class:`~companion.web.buttons.ButtonRelay` (never the red button).

The server itself runs in the web view's own process (:mod:`companion.web.process`): the
hub's frames go there, a phone's answers and presses come back here.

:meth:`WebTable.new_game` gives every role a new token (and says the new links);
:meth:`WebTable.close` stops the server. The command imports this module only when
``--web`` is given.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from companion.table.loop import Observers
from companion.web.address import parse_address
from companion.web.agent import OwnActions, WebAgent
from companion.web.anytime import PhonePlays
from companion.web.buttons import ButtonRelay
from companion.web.hints import Hints
from companion.web.hub import WebHub
from companion.web.odds import is_dice, public_odds
from companion.web.pairing import HOST, Role
from companion.web.process import WebProcess
from companion.web.qr import print_pairing
from companion.web.render import Look

log = logging.getLogger(__name__)

#: The buttons a phone shows, per kind of table: assist mode is driven by all three;
#: a tracked Battle Royale table asks only for ROLL (the Doom die) and CONFIRM (a tile
#: that flew); the other games' tables wait only for ROLL (their dice).
ASSIST_BUTTONS = ("roll", "select", "confirm")
TRACKED_BUTTONS = ("roll", "confirm")
DICE_BUTTONS = ("roll",)


def table_buttons(game: str, assist: bool) -> tuple[str, ...]:
    """The table buttons a phone of ``game``'s table shows."""
    if assist:
        return ASSIST_BUTTONS
    return TRACKED_BUTTONS if game == "battle-royale" else DICE_BUTTONS


@dataclass(frozen=True)
class WebRequest:
    """What the command line asked of the web view.

    ``address``: ``--web``'s value (empty: localhost on the default port);
    ``phone_seats``: the seats played from phones; ``phone_dice``: the players roll their
    own dice and the rolling seat enters the face on its phone; ``bot_seats``: the seats
    bots play (no pairing code: whoever opened one would see the bot's hand).
    """

    address: str = ""
    phone_seats: frozenset[int] = frozenset()
    phone_dice: bool = False
    bot_seats: frozenset[int] = frozenset()


def parse_phone_seats(text: str | None, players: int, bot_seats: Iterable[int] = ()) -> set[int]:
    """``--phone-seats``: ``all`` (every seat no bot plays) or seat numbers, ``0,2``.
    ``ValueError`` with what to write."""
    bots = set(bot_seats)
    if not text:
        return set()
    if text.strip().lower() == "all":
        return set(range(players)) - bots
    seats: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or int(part) >= players:
            raise ValueError(
                f"--phone-seats {text!r}: seats are numbers 0..{players - 1}, e.g. 0,2, or all"
            )
        seats.add(int(part))
    if seats & bots:
        raise ValueError(
            f"--phone-seats {text!r}: seat(s) {', '.join(map(str, sorted(seats & bots)))} "
            "are played by bots (fewer --bots, or other seats)"
        )
    return seats


class WebTable:
    """The web view of one table while a command runs (made by :func:`attach_web`)."""

    def __init__(
        self,
        request: WebRequest,
        hub: WebHub,
        process: WebProcess,
        relay: ButtonRelay | None,
        *,
        out: TextIO | None,
        pairing_dir: Path | None,
        hints: Hints | None = None,
    ) -> None:
        self.request = request
        self.hub = hub
        self.hints = hints
        self.process = process
        self.relay = relay
        self.out = out
        self.pairing_dir = pairing_dir
        self.stop = threading.Event()  # set at close: a phone seat's wait ends
        self.heartbeat: Callable[[], None] | None = None
        self.own_actions: OwnActions | None = None
        self.adapter: Any = None

    @property
    def url(self) -> str:
        return self.process.url

    @property
    def port(self) -> int:
        return self.process.port

    @property
    def buttons(self) -> tuple[str, ...]:
        """The table buttons the phones show."""
        return self.process.look.buttons

    def link(self, role: Role) -> str:
        """``role``'s pairing link (it carries the role's token)."""
        return self.process.links()[role]

    def token(self, role: Role) -> str:
        return self.process.token(role)

    # -- a table loop --------------------------------------------------------------------

    def plug(self, loop: Any) -> Any:
        """Give ``loop`` the hub as one more view, phones' agents for the phone seats and,
        with physical dice, the phones' faces; returns the loop."""
        if not isinstance(loop.view, Observers):
            loop.view = Observers([loop.view])
        loop.view.attach(self.hub)
        self.heartbeat = self._table_beat(loop)
        adapter = getattr(loop, "adapter", None)
        self.own_actions = adapter.own_actions if adapter is not None else None
        self.adapter = adapter  # its listed_options and menu: long lists step by step
        if self.hints is not None:
            self.hints.session = loop.session  # every hint shown is journalled
        agents = getattr(loop, "agents", None)
        if agents is not None:
            for seat in self.request.phone_seats:
                agents[seat] = self.agent(seat, undoable=loop.session.undoable)
        if self.request.phone_dice:
            loop.dice_from = self.entered_roll
        plays = getattr(adapter, "out_of_turn_actions", None)
        if plays is not None and self.request.phone_seats and hasattr(loop, "anytime"):
            loop.anytime = PhonePlays(self.hub, self.request.phone_seats, plays)
            for seat, agent in (agents or {}).items():  # a person typing waits too
                if seat not in self.request.phone_seats and hasattr(agent, "idle"):
                    agent.idle = loop.take_out_of_turn
        return loop

    @staticmethod
    def _table_beat(loop: Any) -> Callable[[], None]:
        """While a phone decides: the loop's heartbeat, and the terminal still read (quit,
        the end of its input, a simulated button typed), as when the loop waits itself;
        and another phone's play out of turn ends the wait (``take_out_of_turn``)."""
        terminal = getattr(loop, "terminal", None)
        take = getattr(loop, "take_out_of_turn", None)

        def beat() -> None:
            loop.heartbeat()
            line = terminal.poll(0) if terminal is not None else None
            if line:
                loop.typed_line(line, set())  # quit, board, help; no button is asked for
            if take is not None:
                take()

        return beat

    def agent(self, seat: int, *, undoable: Callable[[], int] | None = None) -> WebAgent:
        """The agent of a seat played from its phone: only its own actions offered (the
        loop's adapter says which), with a hint button when hints are on."""
        return WebAgent(
            self.hub,
            seat,
            undoable=undoable,
            stop=self.stop,
            heartbeat=self._beat,
            own_actions=self.own_actions,
            hints=self.hints,
            adapter=self.adapter,
        )

    def _beat(self) -> None:
        if self.heartbeat is not None:
            self.heartbeat()

    def entered_roll(self, loop: Any, ask: Any) -> list[Any] | None:
        """The loop's ``dice_from``: the face the rolling seat entered on its phone for a
        roll of one die, or ``None`` when the table rolls it (no seat, a bot's seat, several
        dice, not dice)."""
        seat = ask.seat
        outcomes = loop.state.chance_outcomes()
        if (
            not self.request.phone_dice
            or seat is None
            or not 0 <= seat < self.hub.players
            or ask.nodes != 1
            or loop.seat_is_bot(seat)
            or not is_dice(outcomes[0][0])
        ):
            return None
        label = f"throw {ask.what} and enter what it shows"
        return [self.agent(seat).enter_dice(outcomes, label)]

    # -- games and pairing -----------------------------------------------------------------

    def new_game(self, players: int | None = None) -> None:
        """A new game: new tokens for every role (old links stop working), a fresh log,
        and the new links said where the first ones were."""
        try:
            self.process.new_game(players if players is not None else self.hub.players)
        except OSError as exc:  # the web process is gone: the table plays on without it
            log.warning("web view: no new links (%s)", exc)
            self.hub.reset()
            return
        self.hub.reset()
        self.announce()

    def announce(self) -> None:
        """Say the pairing links: QR codes on the terminal; for a service without a screen,
        the links in the log and the host's link and QR code in the state directory."""
        try:
            links = self.process.links()
        except OSError as exc:
            log.warning("web view: no links to say (%s)", exc)
            return
        if self.out is not None:
            print_pairing(links, self.hub.config, self.out, codes=True)
        for role, link in links.items():
            if role != HOST:
                log.info("web view: pair %s with %s", role.key, link)
        if self.pairing_dir is not None:
            write_host_pairing(links[HOST], self.pairing_dir)

    def close(self) -> None:
        self.stop.set()
        self.process.stop()


def write_host_pairing(link: str, directory: Path) -> Path:
    """The host's link (``host.txt``) and its QR code (``host.svg``) in ``directory``,
    readable only by the service's user: the host page shows every other code."""
    import segno

    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    text = directory / "host.txt"
    svg = directory / "host.svg"
    for path in (text, svg):
        path.touch(mode=0o600, exist_ok=True)
        os.chmod(path, 0o600)
    text.write_text(link + "\n")
    segno.make(link, error="m").save(str(svg), scale=6, border=2)
    log.info("web view: the host's link and QR code are in %s", directory)
    return text


def lan_address() -> str:
    """This machine's address on its LAN (the interface a packet to another network would
    leave by; nothing is sent), or its host name when it has no route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, never sent to
            return str(probe.getsockname()[0])
        except OSError:
            return socket.gethostname()


def attach_web(
    request: WebRequest,
    game: Any,
    config: Any,
    players: int,
    *,
    hw: Any = None,
    assist: bool = False,
    out: TextIO | None = None,
    pairing_dir: Path | None = None,
    hints: bool = True,
) -> WebTable:
    """Start the web view of a table: the hub, the button relay onto ``hw``'s input queue
    (when there is hardware), hints for the phone seats (``hints``; never in assist mode,
    whose state is not the whole game), the web view's process (its server on
    ``request.address``, the pairing tokens, the pages process), and the pairing links
    said (on ``out``, the log, and ``pairing_dir``). ``ValueError`` for a bad address,
    ``OSError`` when it cannot listen."""
    host, port = parse_address(request.address)
    hub = WebHub(game, config, players, extras=public_odds)
    relay = ButtonRelay(hw.inputs) if hw is not None else None
    buttons = table_buttons(game.name, assist) if relay is not None else ()
    # the server runs in a process of its own, so no thread of the web view holds this
    # process's interpreter when the red button's thread needs it (companion.web.process)
    lan = lan_address() if host in ("0.0.0.0", "::") else None
    look = Look(game.name, config, game.title, buttons, request.bot_seats)
    process = WebProcess(hub, look, host, port, lan_host=lan, relay=relay).start()
    helper = Hints(hub, game.name) if hints and not assist else None
    web = WebTable(request, hub, process, relay, out=out, pairing_dir=pairing_dir, hints=helper)
    web.announce()
    return web
