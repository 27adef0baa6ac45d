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
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from html import escape
from typing import Any

from companion.web import pages
from companion.web.buttons import WEB_BUTTONS, ButtonRelay
from companion.web.hub import Frame, Submission, WebHub
from companion.web.pairing import HOST, TABLE, Pairing, Role, seat
from companion.web.render import Look, render_part, render_parts, setup
from companion.worker import Worker

COOKIE = "companion"
MAX_TEXT = 200  # longest notation a phone may send
WAITING = "<p>Waiting for the table to start…</p>"


def look_of(hub: WebHub, buttons: tuple[str, ...]) -> Look:
    """What the pages of ``hub``'s table with ``buttons`` need besides a frame."""
    return Look(hub.game.name, hub.config, hub.game.title, buttons)


def pages_process(hub: WebHub, buttons: tuple[str, ...]) -> Worker:
    """The process that renders the pages of ``hub``'s table (its look set once)."""
    return Worker("web pages", setup, (look_of(hub, buttons),))


@dataclass
class _Batch:
    """The parts asked for one frame in one turn of the event loop: rendered together."""

    frame: Frame
    parts: set[int | None] = field(default_factory=set)
    sent: bool = False
    done: asyncio.Future[dict[int | None, str]] | None = None


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
        renderer: Worker | None = None,
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
        self.renderer = renderer
        self._parts: dict[int | None, tuple[int, str]] = {}  # part -> (seq, html)
        self._pairing: tuple[int, str] | None = None  # (generation, the host's codes)
        self._cache_lock = threading.Lock()
        self._batch: _Batch | None = None  # the event loop's next round trip
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
        """The role's ``<main>`` for the latest frame, and the frame's number (rendered
        here if not rendered yet)."""
        frame = self.hub.frame
        if frame is None:
            return 0, WAITING
        html = self._cached(frame.seq, role.seat)
        if html is None:
            html = self._keep(frame.seq, {role.seat: self._render_here(frame, role.seat)})
        return frame.seq, self._with_codes(role, html)

    async def main_async(self, role: Role) -> tuple[int, str]:
        """:meth:`main` for the event loop: rendered in the ``renderer`` process, if any,
        with the parts of every other page that asks for this frame in this turn of
        the loop; the loop runs on meanwhile."""
        frame = self.hub.frame
        if self.renderer is None or frame is None:
            return self.main(role)
        html = self._cached(frame.seq, role.seat)
        if html is None:
            batch = self._batch
            if batch is None or batch.sent or batch.frame is not frame:
                loop = asyncio.get_running_loop()
                batch = self._batch = _Batch(frame, done=loop.create_future())
                loop.call_soon(self._send, batch)  # after the other pages' turns
            batch.parts.add(role.seat)
            assert batch.done is not None
            # shielded: a page that goes away does not cancel the other pages' parts
            html = (await asyncio.shield(batch.done))[role.seat]
        return frame.seq, self._with_codes(role, html)

    def _send(self, batch: _Batch) -> None:
        batch.sent = True
        assert self.renderer is not None and batch.done is not None
        parts = tuple(batch.parts)
        future = self.renderer.submit(render_parts, batch.frame, parts)
        done = batch.done

        def back(_: object) -> None:  # on the event loop: the parts are in, or it failed
            if done.done():
                return
            try:
                rendered = future.result()
            except BrokenProcessPool as exc:  # the process died: render here from now on
                assert self.renderer is not None
                self.renderer.give_up(exc)
                rendered = {p: self._render_here(batch.frame, p) for p in parts}
            except Exception as exc:
                done.set_exception(exc)
                return
            done.set_result(self._keep_all(batch.frame.seq, rendered))

        asyncio.wrap_future(future).add_done_callback(back)

    def _render_here(self, frame: Frame, part: int | None) -> str:
        return render_part(frame, part, look_of(self.hub, self.buttons), self.hub.game)

    def _cached(self, seq: int, part: int | None) -> str | None:
        with self._cache_lock:
            hit = self._parts.get(part)
        return hit[1] if hit is not None and hit[0] == seq else None

    def _keep(self, seq: int, rendered: dict[int | None, str]) -> str:
        """Keep ``rendered`` (one part) as the parts of frame ``seq``; return its html."""
        return next(iter(self._keep_all(seq, rendered).values()))

    def _keep_all(self, seq: int, rendered: dict[int | None, str]) -> dict[int | None, str]:
        with self._cache_lock:
            for part, html in rendered.items():
                kept = self._parts.get(part)
                if kept is None or kept[0] <= seq:  # never an older frame over a newer one
                    self._parts[part] = (seq, html)
        return rendered

    def _with_codes(self, role: Role, html: str) -> str:
        """The host's page is the table screen's below the pairing codes."""
        if role != HOST:
            return html
        generation = self.pairing.generation
        with self._cache_lock:
            kept = self._pairing
        if kept is None or kept[0] != generation:
            kept = (generation, self.pairing_box())
            with self._cache_lock:
                self._pairing = kept
        return kept[1] + html

    def page(self, role: Role) -> str:
        return self._page(role, *self.main(role))

    async def page_async(self, role: Role) -> str:
        return self._page(role, *(await self.main_async(role)))

    def _page(self, role: Role, seq: int, main: str) -> str:
        return pages.page(f"{self.title} – {role.key}", role.path, main, seq, role.kind)

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
            status = self.pairing.status(role)
            said = f' <span class="paired">({status})</span>' if status else ""
            cards.append(
                f'<figure class="qr">{qr_svg(self.link(role))}<figcaption>{label}{said} '
                f'<button class="revoke" data-role="{role.key}">new code</button>'
                "</figcaption></figure>"
            )
        for n in sorted(self.pairing.bots):
            if n < self.hub.players:
                name = escape(names[n])
                cards.append(f'<p class="bot">seat {n}: {name} (a bot plays it: no code)</p>')
        return (
            '<section class="pairing"><h2>Pair the phones</h2><p>Each code is one seat\'s '
            "key: scan it on that seat's phone; it pairs one phone, and refuses any other. "
            "<b>new code</b> locks out every phone paired with the old one (a seat that "
            f'changes phones).</p><div class="qrs">{"".join(cards)}</div></section>'
        )

    # -- input ---------------------------------------------------------------------------------

    def submit(self, seat_no: int, body: dict[str, Any]) -> tuple[bool, str]:
        """A seat's answer to its offer (JSON from its phone)."""
        kind = body.get("kind")
        offer = body.get("offer")
        text = body.get("text", "")
        faces = body.get("faces", [])
        if (
            kind not in ("action", "undo", "dice", "hint", "pass", "anytime", "step", "back")
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
        if self.renderer is not None:
            self.renderer.shutdown()


__all__ = ["COOKIE", "Site", "pages_process", "seat"]
