"""The web server in the companion's process: uvicorn on a thread of its own.

``companion serve --web [HOST:PORT]`` (and ``play``/``demo``) start a :class:`WebServer`
beside the table loop. It runs its own asyncio event loop on its own thread, so nothing
the web does can hold up the table (or the red button, whose path never meets it). It
listens on localhost unless given an address; a LAN address only when given.

Plain uvicorn (h11, the asyncio loop, no uvloop, httptools or websockets): the smallest
kept ASGI server, measured for the Pi Zero 2 W (``docs/web.md``).
"""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import Any, TextIO

import uvicorn

from companion.web.app import create_app
from companion.web.pairing import HOST, TABLE
from companion.web.qr import print_qr
from companion.web.site import Site

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
START_TIMEOUT_S = 10.0


def parse_address(text: str | None) -> tuple[str, int]:
    """``HOST:PORT``, ``HOST``, ``:PORT`` or ``PORT`` (``[::1]:8080`` for IPv6); empty or
    ``None``: localhost on the default port. ``ValueError`` with what to write."""
    if not text:
        return DEFAULT_HOST, DEFAULT_PORT
    host, port = text, ""
    if text.startswith("["):  # [v6]:port
        end = text.find("]")
        if end < 0:
            raise ValueError(f"--web {text!r}: an IPv6 address goes in brackets, [::1]:8765")
        host, port = text[1:end], text[end + 1 :].removeprefix(":")
    elif text.isdigit():
        host, port = DEFAULT_HOST, text
    elif text.count(":") == 1:
        host, port = text.split(":")
    host = host or DEFAULT_HOST
    if not port:
        return host, DEFAULT_PORT
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--web {text!r}: the port must be a number 0..65535 (HOST:PORT)")
    return host, int(port)


class WebServer:
    """Serves ``site`` on ``host:port`` from a daemon thread; :meth:`stop` ends it."""

    def __init__(self, site: Site, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> None:
        self.site = site
        self.host = host
        self.port = port
        config = uvicorn.Config(
            create_app(site),
            host=host,
            port=port,
            loop="asyncio",
            http="h11",
            ws="none",
            lifespan="off",
            log_level="warning",
            access_log=False,
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    def start(self) -> WebServer:
        """Start serving; returns once the socket listens (``OSError`` if it cannot)."""
        self._thread = threading.Thread(target=self._run, name="web", daemon=True)
        self._thread.start()
        while not self._server.started:
            if not self._thread.is_alive():
                raise OSError(f"the web server could not listen on {self.host}:{self.port}")
            self._thread.join(0.01)
        sockets = [s for server in self._server.servers for s in server.sockets]
        if sockets:
            self.port = sockets[0].getsockname()[1]
        if not self.site.base_url:
            self.site.base_url = self.url
        return self

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self.site.bind(loop)
        try:
            loop.run_until_complete(self._server.serve())
        except BaseException as exc:  # reported by start() / stop()
            self._error = exc
        finally:
            loop.close()

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def stop(self, timeout: float = 5.0) -> None:
        self.site.closing = True  # end the live streams, so shutdown need not cancel them
        self.site.poke()
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def print_pairing(site: Site, out: TextIO | None = None, *, codes: bool = True) -> None:
    """The pairing links (and QR codes) on the terminal: the table screen, every seat,
    and last the host's link (it may revoke codes: keep it to yourself)."""
    out = out if out is not None else sys.stdout
    names = site.hub.config.colours if hasattr(site.hub.config, "colours") else ()
    for role in site.pairing.roles:
        if role == HOST:
            continue
        label = "table screen" if role == TABLE else f"seat {role.seat} ({names[role.seat]})"
        out.write(f"\n{label}: {site.link(role)}\n")
        if codes:
            print_qr(site.link(role), out)
    out.write(f"\nhost (revoke codes; keep it to yourself): {site.link(HOST)}\n")
    out.flush()
