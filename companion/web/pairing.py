"""Pairing: one secret token per seat, one for the table screen and one for the host.

Threat model (``docs/web.md``): the server listens on the table's LAN (or only on
localhost, the default); the people who can reach it are the people at the table and
whoever else shares the Wi-Fi. A token is the only credential: whoever holds a seat's
token sees that seat's hand, gold and bids and may act for that seat. So:

- tokens are 128 random bits (:func:`secrets.token_urlsafe`), new for every game;
- the table screen's token shows only public state (its QR code hangs on the TV for all
  to see); the *host* token is separate, shown only on the companion's terminal, and
  is the one that may revoke (replace) any token;
- every comparison is constant-time (:func:`secrets.compare_digest`) and runs over every
  token, so the time taken says nothing about which token nearly matched;
- a token arrives once in a link (``/pair/<token>``, what a QR code carries), is moved
  into an ``HttpOnly``, ``SameSite=Lax`` cookie kept for a day (a game night; closing the
  browser does not lose it) and the browser is redirected to a clean address, so it does
  not stay in the address bar or the history. ``Lax``, not ``Strict``: a QR code opened
  from the camera is a navigation from outside the site, and with ``Strict`` the phone's
  own cookie is not sent with it; ``Lax`` still keeps it off every cross-site post, frame
  and script request;
- a seat's link pairs one phone (:meth:`Pairing.claim`): a second phone that scans the
  same code (a photo of the host page) is refused and the host page says so, where before
  it silently saw the seat's hand too; a phone that already holds another seat is refused
  any seat's code (the neighbour's code scanned by mistake would have given it a second
  hand and taken the neighbour's seat). The phone that paired may open the link again (its
  cookie holds the token). A seat that changes phones gets a new code from the host
  (:meth:`Pairing.revoke`). The table screen's and the host's links pair any number of
  screens (the table's shows only public state; the host's is shown only to the host); a
  seat's phone that opens the table's link keeps its seat (its page shows the board too):
  before, its cookie became the table's and its own code then refused it;
- a seat a bot plays has no code at all: a bot's hand, gold and bids are as secret as a
  person's, and its code on the host page and the terminal let anyone see them.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterable
from dataclasses import dataclass

TOKEN_BYTES = 16  # 128 bits


@dataclass(frozen=True)
class Role:
    """Who a token belongs to: the ``table`` screen, a ``seat`` (with its number), the ``host``."""

    kind: str
    seat: int | None = None

    @property
    def key(self) -> str:
        """``table``, ``host`` or ``seat-2``: the role's name in links and on screens."""
        return self.kind if self.seat is None else f"{self.kind}-{self.seat}"

    @property
    def path(self) -> str:
        """The page of this role."""
        return (
            "/table"
            if self.kind == "table"
            else "/host"
            if self.kind == "host"
            else (f"/seat/{self.seat}")
        )


TABLE = Role("table")
HOST = Role("host")


def seat(n: int) -> Role:
    return Role("seat", n)


class Pairing:
    """The tokens of one game. Thread-safe: the web thread reads, the web process's message
    loop renews (a new game at the table)."""

    def __init__(self, players: int, bots: Iterable[int] = ()) -> None:
        self.bots = frozenset(bots)  # seats bots play: no code (a bot's hand is secret too)
        self._lock = threading.Lock()
        self._tokens: dict[Role, str] = {}
        self._paired: set[Role] = set()  # the seats whose link has paired its phone
        self._refused: dict[Role, int] = {}  # per seat, the other phones its link refused
        self.generation = 0  # bumped on every change: the host's codes are drawn again
        self.new_game(players)

    def new_game(self, players: int) -> None:
        """Fresh tokens for every role (a new game: last game's links stop working); the
        seats bots play get none."""
        with self._lock:
            roles = [r for r in self._roles(players) if r.seat not in self.bots]
            self._tokens = {r: secrets.token_urlsafe(TOKEN_BYTES) for r in roles}
            self._paired.clear()
            self._refused.clear()
            self.generation += 1

    @staticmethod
    def _roles(players: int) -> list[Role]:
        return [TABLE, HOST, *(seat(n) for n in range(players))]

    @property
    def roles(self) -> list[Role]:
        with self._lock:
            return list(self._tokens)

    def token(self, role: Role) -> str:
        with self._lock:
            return self._tokens[role]

    def revoke(self, role: Role) -> str:
        """Replace ``role``'s token: every phone paired with the old one is locked out."""
        with self._lock:
            if role not in self._tokens:
                raise KeyError(role)
            self._tokens[role] = secrets.token_urlsafe(TOKEN_BYTES)
            self._paired.discard(role)
            self._refused.pop(role, None)
            self.generation += 1
            return self._tokens[role]

    def claim(self, token: str, held: str | None) -> tuple[Role | None, str]:
        """A pairing link opened by a phone whose cookie holds ``held``: ``(the link's role
        or None, what happens)``, ``"paired"``, ``"taken"`` (another phone has paired this
        seat), ``"other seat"`` (this phone holds another seat) or ``"kept"`` (a seat's
        phone opened the table screen's link: it keeps its seat, whose page shows the
        board too; the role returned is its seat). A seat's link pairs the first phone that
        opens it, and again only that phone; a refused phone is counted for the host page."""
        role = self.role_of(token)
        mine = self.role_of(held)
        if role == TABLE and mine is not None and mine.kind == "seat":
            return mine, "kept"  # the TV's code scanned: the phone stays its seat's
        if role is None or role.kind != "seat":
            return role, "paired"
        with self._lock:
            if self._tokens.get(role) != token:  # revoked in between
                return None, "taken"
            if mine is not None and mine.kind == "seat" and mine != role:
                return self._refuse(role, "other seat")
            if role not in self._paired:
                self._paired.add(role)
                self.generation += 1
                return role, "paired"
            if mine == role:
                return role, "paired"
            return self._refuse(role, "taken")

    def _refuse(self, role: Role, why: str) -> tuple[Role, str]:
        """Count a phone refused by ``role``'s link (under the lock) for the host page."""
        self._refused[role] = self._refused.get(role, 0) + 1
        self.generation += 1
        return role, why

    def status(self, role: Role) -> str:
        """What the host page says of a seat's code: waiting, paired, other phones refused."""
        with self._lock:
            if role.kind != "seat":
                return ""
            said = "paired" if role in self._paired else "waiting for its phone"
            refused = self._refused.get(role, 0)
        if not refused:
            return said
        return f"{said}; {refused} other phone{'s' if refused > 1 else ''} refused"

    def role_of(self, token: str | None) -> Role | None:
        """The role ``token`` belongs to, or ``None``; compares against every token in
        constant time each."""
        if not token:
            return None
        given = token.encode()
        found = None
        with self._lock:
            for role, secret in self._tokens.items():
                if secrets.compare_digest(given, secret.encode()):
                    found = role
        return found
