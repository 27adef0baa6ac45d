"""The web server's routes (Starlette): pages, the live stream, and the phones' input.

Every route but ``/pair/<token>`` needs the cookie a pairing link set, and a page or a
post of one role needs that role's token: no token or a wrong one is ``401``, another
role's token ``403``, with no body worth reading. The routes a phone may post to take a
seat's answer to its offer (``/seat/<n>/act``) and a press of ROLL, SELECT or CONFIRM
(``/seat/<n>/button``); there is no route that fires, arms or presses the red button.

Live updates are server-sent events (``/<role>/events``): one ``frame`` message per
change, carrying the sequence number and the role's rendered ``<main>``; a page that
reconnects sends the last number it saw (``Last-Event-ID`` or ``?since=``) and gets the
present frame at once if it missed any. A comment every 15 s keeps idle connections
honest (a dead phone is noticed and its stream ended).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from companion.web.pairing import HOST, TABLE, Role, seat
from companion.web.site import COOKIE, Site

KEEPALIVE_S = 15.0
STATIC = {"app.js": "text/javascript", "style.css": "text/css"}
NO_STORE = {"Cache-Control": "no-store"}


def pairing_page(title: str, *paragraphs: str) -> str:
    """A short fixed page about pairing: what to do, and nothing about the game."""
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="referrer" content="no-referrer"><title>{title}</title>'
        "<style>body{font:1.2rem/1.5 system-ui,sans-serif;margin:2rem auto;max-width:30rem;"
        f"padding:0 1rem}}</style></head><body><h1>{title}</h1>{body}</body></html>"
    )


#: What a person who opens a page without a working pairing sees (an old QR code, a code
#: the host replaced, a phone whose cookie is gone).
NOT_PAIRED_PAGE = pairing_page(
    "Not paired",
    "This link does not open the table any more, or this phone is not paired with it. "
    "Pairing links change with every new game and when the host makes a new code.",
    "Scan your seat's QR code again: it is on the table's screen, or ask the host. If "
    "it says the code has already paired another phone, ask the host for a new code.",
)

#: A seat's code opened on a second phone (:meth:`Pairing.claim`).
ALREADY_PAIRED_PAGE = pairing_page(
    "Already paired",
    "This code has already paired another phone. Each seat's code pairs one phone, so "
    "that a seat's cards stay on its own screen.",
    "Scanned the wrong code? Scan your own seat's code. Changed phones? Ask the host for "
    "a new code for your seat: it pairs this phone and locks out the old one.",
    '<a href="/">Your page</a> (if this phone is paired with a seat)',
)

#: A seat's code opened on a phone that holds another seat: one phone, one hand.
OTHER_SEAT_PAGE = pairing_page(
    "Paired with another seat",
    "This phone is already paired with a seat, and a phone holds one seat only, so that "
    "it never shows two seats' cards. Nothing was changed.",
    "Scanned the wrong code? Go back to your page. Should this phone change seats? Ask "
    "the host for a new code for the seat it should hold.",
    '<a href="/">Your page</a>',
)

#: A page of another role opened by a paired phone (another seat's address typed or
#: bookmarked): where it belongs instead of a bare "403".
NOT_YOURS_PAGE = pairing_page(
    "Not your page",
    "This page belongs to another seat or screen; this phone shows its own only.",
    '<a href="/">Your page</a>',
)

#: How long a phone keeps its pairing cookie (closing the browser does not lose it): a
#: game night. The tokens change with every game anyway.
COOKIE_MAX_AGE_S = 24 * 3600


def refused(status: int) -> Response:
    return Response(str(status), status_code=status, media_type="text/plain", headers=NO_STORE)


def not_paired() -> Response:
    """The 401 of a page a person opens (``/``, ``/pair/<token>``, a role's page): the same
    short page for every refusal. The script's routes and the static files stay a bare
    ``401``."""
    return HTMLResponse(NOT_PAIRED_PAGE, status_code=401, headers=NO_STORE)


def _role_of_path(request: Request) -> Role | None:
    kind = request.path_params.get("kind", "seat")
    if kind == "table":
        return TABLE
    if kind == "host":
        return HOST
    try:
        return seat(int(request.path_params["n"]))
    except (KeyError, ValueError):
        return None


def create_app(site: Site) -> Starlette:
    """The ASGI app of one table's web view."""

    def allowed(request: Request, role: Role | None) -> Response | None:
        """``None`` if the request's cookie holds ``role``'s token, else the refusal."""
        held = site.pairing.role_of(request.cookies.get(COOKIE))
        if held is None or role is None:
            return refused(401)
        if held != role:
            return refused(403)
        return None

    async def pair(request: Request) -> Response:
        token = request.path_params["token"]
        role, outcome = site.pairing.claim(token, request.cookies.get(COOKIE))
        if role is None:
            return not_paired()
        if outcome == "kept":  # a seat's phone opened the table's link: it stays the seat's
            return RedirectResponse(role.path, status_code=303, headers=NO_STORE)
        if role.seat is not None:
            site.poke()  # the host page says the seat is paired (or that a phone was refused)
        if outcome != "paired":
            page = ALREADY_PAIRED_PAGE if outcome == "taken" else OTHER_SEAT_PAGE
            return HTMLResponse(page, status_code=409, headers=NO_STORE)
        response = RedirectResponse(role.path, status_code=303, headers=NO_STORE)
        response.set_cookie(
            COOKIE, token, max_age=COOKIE_MAX_AGE_S, httponly=True, samesite="lax", path="/"
        )
        return response

    async def home(request: Request) -> Response:
        held = site.pairing.role_of(request.cookies.get(COOKIE))
        if held is None:
            return not_paired()
        return RedirectResponse(held.path, status_code=303, headers=NO_STORE)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if site.pairing.role_of(request.cookies.get(COOKIE)) is None:
            return refused(401)
        if name not in STATIC:
            return refused(404)
        body = resources.files("companion.web").joinpath("static", name).read_bytes()
        return Response(body, media_type=STATIC[name], headers={"Cache-Control": "max-age=60"})

    async def role_page(request: Request) -> Response:
        role = _role_of_path(request)
        if (refusal := allowed(request, role)) is not None:
            if refusal.status_code == 401:
                return not_paired()
            return HTMLResponse(NOT_YOURS_PAGE, status_code=403, headers=NO_STORE)
        assert role is not None
        return HTMLResponse(await site.page_async(role), headers=NO_STORE)

    async def state(request: Request) -> Response:
        """The role's present frame (what a reconnecting page re-reads)."""
        role = _role_of_path(request)
        if (refusal := allowed(request, role)) is not None:
            return refusal
        assert role is not None
        seq, main = await site.main_async(role)
        return JSONResponse({"seq": seq, "main": main}, headers=NO_STORE)

    async def events(request: Request) -> Response:
        role = _role_of_path(request)
        if (refusal := allowed(request, role)) is not None:
            return refusal
        assert role is not None
        since = request.headers.get("last-event-id") or request.query_params.get("since") or ""
        last = int(since) if since.isdigit() else -1
        return StreamingResponse(
            _stream(site, role, request.cookies.get(COOKIE, ""), last),
            media_type="text/event-stream",
            headers={**NO_STORE, "X-Accel-Buffering": "no"},
        )

    async def seat_post(request: Request, handle: Any) -> Response:
        """A post from a seat's own phone: its JSON body to ``handle(seat, body)``."""
        role = _role_of_path(request)
        if (refusal := allowed(request, role)) is not None:
            return refusal
        assert role is not None and role.seat is not None
        body = await _json(request)
        if body is None:
            return refused(400)
        ok, why = handle(role.seat, body)
        return JSONResponse({"ok": ok, "why": why}, status_code=200 if ok else 409)

    async def act(request: Request) -> Response:
        return await seat_post(request, site.submit)

    async def button(request: Request) -> Response:
        return await seat_post(
            request,
            lambda n, body: site.press(n, str(body.get("button", "")), bool(body.get("hold"))),
        )

    async def revoke(request: Request) -> Response:
        if (refusal := allowed(request, HOST)) is not None:
            return refusal
        body = await _json(request)
        if body is None:
            return refused(400)
        ok = site.revoke(str(body.get("role", "")))
        return JSONResponse({"ok": ok}, status_code=200 if ok else 409)

    routes = [
        Route("/", home),
        # browsers ask for it on every page: nothing to refuse, nothing to say (a 401 per page)
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/pair/{token}", pair),
        Route("/static/{name}", static),
        Route("/{kind:str}", role_page),
        Route("/seat/{n:int}", role_page),
        Route("/{kind:str}/state", state),
        Route("/seat/{n:int}/state", state),
        Route("/{kind:str}/events", events),
        Route("/seat/{n:int}/events", events),
        Route("/seat/{n:int}/act", act, methods=["POST"]),
        Route("/seat/{n:int}/button", button, methods=["POST"]),
        Route("/host/revoke", revoke, methods=["POST"]),
    ]
    app = Starlette(routes=routes)
    app.state.site = site
    return app


async def _json(request: Request) -> dict[str, Any] | None:
    """A JSON object body (the pages post JSON only; a form from another site cannot)."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return None
    try:
        body = json.loads(await request.body())
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


async def _stream(site: Site, role: Role, token: str, last: int) -> AsyncIterator[str]:
    """The role's frames as server-sent events, until the client goes or is unpaired."""
    yield "retry: 2000\n\n"
    sent = ""
    # the host's page shows the codes: new ones go out too, and the present ones at every
    # (re)connection (the page may have slept through a change)
    codes = -1
    while not site.closing:
        if site.pairing.role_of(token) != role:
            yield "event: unpaired\ndata: {}\n\n"
            return
        waiter = site.changed()
        generation = site.pairing.generation
        seq, main = await site.main_async(role)
        if seq != last or (role == HOST and generation != codes):
            last, codes = seq, generation
            # a frame that changed nothing this page shows (another seat's offer) goes out
            # as its number alone
            frame = {"seq": seq} if main == sent else {"seq": seq, "main": main}
            sent = main
            yield f"id: {seq}\nevent: frame\ndata: {json.dumps(frame)}\n\n"
        try:
            await asyncio.wait_for(waiter.wait(), KEEPALIVE_S)
        except TimeoutError:
            yield ": keep-alive\n\n"
