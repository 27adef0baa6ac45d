"""One table as the web serves it: the hub, the pairing tokens, the buttons, the pages.

:class:`Site` is what the routes (:mod:`companion.web.app`) work on. It knows nothing of
HTTP: it renders a role's page from the hub's latest frame (each frame rendered once per
role and shared by every open page of that role), takes a seat's answers and button
presses, and tells the server's event loop when anything changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any

from companion.web import pages
from companion.web.buttons import WEB_BUTTONS, ButtonRelay
from companion.web.hub import Submission, WebHub
from companion.web.pairing import HOST, TABLE, Pairing, Role, seat

COOKIE = "companion"
MAX_TEXT = 200  # longest notation a phone may send


class Site:
    """The web view of one table (``hub``), its tokens (``pairing``) and, where the
    table has buttons, the ``relay`` that presses ROLL/SELECT/CONFIRM for phones."""

    def __init__(
        self,
        hub: WebHub,
        *,
        pairing: Pairing | None = None,
        relay: ButtonRelay | None = None,
        base_url: str = "",
        buttons: tuple[str, ...] | None = None,
    ) -> None:
        self.hub = hub
        self.pairing = pairing if pairing is not None else Pairing(hub.players)
        self.relay = relay
        self.base_url = base_url
        #: the table buttons shown on the phones (none without a relay)
        self.buttons = (
            buttons
            if buttons is not None
            else (("roll", "select", "confirm") if relay is not None else ())
        )
        self.closing = False  # set when the server stops: every live stream ends
        self._cache: dict[str, tuple[int, int, str]] = {}  # role -> (seq, generation, html)
        self._cache_lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self._stop_listening = hub.listen(self._on_frame)

    @property
    def title(self) -> str:
        return self.hub.game.title

    # -- change notification (the server's event loop) -------------------------------------

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Deliver change notices to ``loop`` (the web thread's event loop)."""
        self._loop = loop

    def changed(self) -> asyncio.Event:
        """An event set at the next change (call on the event loop)."""
        if self._changed is None:
            self._changed = asyncio.Event()
        return self._changed

    def _wake(self) -> None:
        event, self._changed = self._changed, None
        if event is not None:
            event.set()

    def _on_frame(self, _frame: object) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody listens
                loop.call_soon_threadsafe(self._wake)

    def poke(self) -> None:
        """Something besides the game changed (a token was revoked): wake every stream."""
        self._on_frame(None)

    # -- pages -------------------------------------------------------------------------------

    def main(self, role: Role) -> tuple[int, str]:
        """The role's ``<main>`` for the latest frame, and the frame's number."""
        frame = self.hub.frame
        seq = frame.seq if frame is not None else 0
        generation = self.pairing.generation
        key = role.key
        with self._cache_lock:
            hit = self._cache.get(key)
            if hit is not None and hit[0] == seq and hit[1] == generation:
                return seq, hit[2]
        html = self._render(role, frame)
        with self._cache_lock:
            self._cache[key] = (seq, generation, html)
        return seq, html

    def _render(self, role: Role, frame: Any) -> str:
        if frame is None:
            return "<p>Waiting for the table to start…</p>"
        hub = self.hub
        if role.kind == "seat":
            assert role.seat is not None
            return pages.seat_main(frame, role.seat, hub.game, hub.config, self.title, self.buttons)
        main = pages.table_main(frame, hub.game, hub.config, self.title)
        if role == HOST:
            main = self.pairing_box() + main
        return main

    def page(self, role: Role) -> str:
        seq, main = self.main(role)
        kind = role.kind
        return pages.page(f"{self.title} – {role.key}", role.path, main, seq, kind)

    def link(self, role: Role) -> str:
        return f"{self.base_url}/pair/{self.pairing.token(role)}"

    def pairing_box(self) -> str:
        """The host's view: a QR code and a revoke button for every role."""
        from companion.web.qr import qr_svg

        names = pages.seat_names(self.hub.config, {})
        cards = []
        for role in self.pairing.roles:
            if role == HOST:
                continue
            label = "table screen" if role == TABLE else f"seat {role.seat}: {names[role.seat]}"
            cards.append(
                f'<figure class="qr">{qr_svg(self.link(role))}<figcaption>{label} '
                f'<button class="revoke" data-role="{role.key}">new code</button>'
                "</figcaption></figure>"
            )
        return (
            '<section class="pairing"><h2>Pair the phones</h2><p>Each code is one seat\'s '
            "key: scan it on that seat's phone. <b>new code</b> locks out every phone paired "
            f'with the old one.</p><div class="qrs">{"".join(cards)}</div></section>'
        )

    # -- input ---------------------------------------------------------------------------------

    def submit(self, seat_no: int, body: dict[str, Any]) -> tuple[bool, str]:
        """A seat's answer to its offer (JSON from its phone)."""
        kind = body.get("kind")
        offer = body.get("offer")
        text = body.get("text", "")
        faces = body.get("faces", [])
        if (
            kind not in ("action", "undo", "dice", "hint", "pass", "anytime")
            or not isinstance(offer, int)
            or not isinstance(text, str)
            or len(text) > MAX_TEXT
            or not isinstance(faces, list)
            or not all(isinstance(f, int) and 1 <= f <= 100 for f in faces[:20])
        ):
            return False, "not understood"
        count = body.get("count", 1)
        submission = Submission(
            seat=seat_no,
            offer=offer,
            kind=kind,
            text=text,
            count=count if isinstance(count, int) else 1,
            faces=tuple(faces[:20]),
        )
        if not self.hub.submit(submission):
            return False, "that question is over; the page shows the new one"
        return True, ""

    def press(self, seat_no: int, button: str, hold: bool = False) -> tuple[bool, str]:
        """ROLL, SELECT or CONFIRM from a seat's phone (never the red button)."""
        if self.relay is None or button not in WEB_BUTTONS or button not in self.buttons:
            return False, "no such button here"
        self.relay.press(button, seat_no, hold=hold and button == "select")
        return True, ""

    def revoke(self, key: str) -> bool:
        """Give ``key``'s role (``table``, ``seat-2``) a new token; its phones are locked out."""
        roles = {r.key: r for r in self.pairing.roles if r != HOST}
        if key not in roles:
            return False
        self.pairing.revoke(roles[key])
        self.poke()
        return True

    def close(self) -> None:
        self._stop_listening()


__all__ = ["COOKIE", "Site", "seat"]
