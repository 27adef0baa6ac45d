"""The web server: uvicorn on a thread of its own, in the web view's process.

``companion serve --web [HOST:PORT]`` (and ``play``/``demo``) start the web view's process
(:mod:`companion.web.process`), which runs a :class:`WebServer`: its own asyncio event
loop on its own thread, so nothing the web does can hold up the table (or the red button,
whose process it is not in). It listens on localhost unless given an address; a LAN
address only when given.

Plain uvicorn (h11, the asyncio loop, no uvloop, httptools or websockets): the smallest
kept ASGI server, measured for the Pi Zero 2 W (``docs/web.md``).
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
from typing import Any

import uvicorn

from companion.web.address import DEFAULT_HOST, DEFAULT_PORT, http_url
from companion.web.app import create_app
from companion.web.site import Site


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
        """Start serving; returns once the socket listens (``OSError`` saying why if it
        cannot, e.g. "address already in use")."""
        listening = self._listen()
        self.port = listening.getsockname()[1]
        self._thread = threading.Thread(
            target=self._run, args=(listening,), name="web", daemon=True
        )
        self._thread.start()
        while not self._server.started:
            if not self._thread.is_alive():
                listening.close()
                raise OSError(f"the web server could not start on {self.host}:{self.port}")
            self._thread.join(0.01)
        if not self.site.base_url:
            self.site.base_url = self.url
        return self

    def _listen(self) -> socket.socket:
        """The listening socket, bound here so that a failure says why (uvicorn, binding
        itself, logs the reason and exits its thread)."""
        try:
            family = socket.getaddrinfo(self.host, self.port, type=socket.SOCK_STREAM)[0][0]
            # on "::" also IPv4 phones, as uvicorn's own binding did
            dualstack = family == socket.AF_INET6 and socket.has_dualstack_ipv6()
            return socket.create_server(
                (self.host, self.port), family=family, dualstack_ipv6=dualstack
            )
        except OSError as exc:
            # create_server's message adds the address it was given: the errno says it all
            plain = exc.errno and not isinstance(exc, socket.gaierror)
            why = (os.strerror(exc.errno) if plain else exc.strerror or str(exc)).lower()
            where = self.url.removeprefix("http://")
            raise OSError(f"the web server could not listen on {where}: {why}") from None

    def _run(self, listening: socket.socket) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self.site.bind(loop)
        try:
            loop.run_until_complete(self._server.serve(sockets=[listening]))
        except BaseException as exc:  # reported by start() / stop()
            self._error = exc
        finally:
            loop.close()

    @property
    def url(self) -> str:
        return http_url(self.host, self.port)

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
