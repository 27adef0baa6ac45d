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
