"""Helpers for the web tests: a table of phones on a real server, and plain HTTP."""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from companion.dice import Roller
from companion.games.registry import get_game
from companion.table.people import BotAgent
from companion.table.session import GameSession, SessionSettings
from companion.web.driver import PhoneTable
from companion.web.hub import WebHub
from companion.web.odds import public_odds
from companion.web.pairing import Role
from companion.web.server import WebServer
from companion.web.site import COOKIE, Site


def until(predicate, timeout: float = 10.0):
    """Poll ``predicate`` until it returns something true (returned), failing after
    ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not (found := predicate()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)
    return found


@dataclass
class Running:
    server: WebServer
    site: Site
    table: PhoneTable
    thread: threading.Thread

    @property
    def url(self) -> str:
        return self.server.url

    def token(self, role: Role) -> str:
        return self.site.pairing.token(role)

    def wait(self, predicate: Any, timeout: float = 10.0) -> None:
        """Wait until ``predicate()`` holds (the table thread moves on by itself)."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError("timed out waiting for the table")
            time.sleep(0.01)


@contextmanager
def phone_table(
    game_name: str,
    *,
    people: set[int],
    seed: int = 1,
    config: Any = None,
    physical_dice: bool = False,
    journal: Any = None,
) -> Iterator[Running]:
    """A game played from phones (``people``) and bots, served on a free local port."""
    game = get_game(game_name)
    config = config if config is not None else game.config()
    settings = SessionSettings(game=game_name, seed=seed)
    session = GameSession.start(config, settings, journal)
    hub = WebHub(game, config, session.state.players, extras=public_odds)
    rng = random.Random(seed)
    table = PhoneTable(
        session,
        hub,
        Roller.seeded(seed),
        people=people,
        bot=lambda seat: BotAgent(rng) if game_name == "battle-royale" else _GameBot(game, rng),
        physical_dice=physical_dice,
    )
    site = Site(hub)
    server = WebServer(site, "127.0.0.1", 0).start()
    thread = threading.Thread(target=table.run, name="table", daemon=True)
    thread.start()
    running = Running(server, site, table, thread)
    try:
        running.wait(lambda: hub.frame is not None)
        yield running
    finally:
        table.stop.set()
        thread.join(5)
        server.stop()
        site.close()


class _GameBot:
    is_bot = True

    def __init__(self, game: Any, rng: random.Random) -> None:
        self.bot = game.bot(rng)

    def choose(self, state: Any, legal: Any) -> Any:
        return self.bot.choose(state)


def request(
    url: str,
    method: str = "GET",
    *,
    token: str | None = None,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One plain HTTP request (no redirects followed); the token goes in the cookie."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    sent = dict(headers or {})
    if token is not None:
        sent["Cookie"] = f"{COOKIE}={token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent.setdefault("Content-Type", "application/json")
    conn.request(method, parts.path + (f"?{parts.query}" if parts.query else ""), data, sent)
    response = conn.getresponse()
    payload = response.read()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, payload


# -- a real `companion` command with --web ---------------------------------------------------

LINK = re.compile(r"^(table screen|seat (\d+) \([^)]*\)|host[^:]*): (http://\S+/pair/(\S+))$")


class Companion:
    """``companion <args> --web 127.0.0.1:0`` in a process of its own, as a person starts
    it: its pairing links read from its output, lines typed on its standard input (on
    simulated hardware ``fire`` presses the simulated red button), its journal read back."""

    def __init__(self, *args: str, journal: Path, env: dict[str, str] | None = None) -> None:
        """``journal``: the game's journal file (given as ``--journal``, unless the command
        names it itself: ``resume FILE``)."""
        self.journal = journal
        named = str(journal) in args
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "companion",
                *args,
                *([] if named else ["--journal", str(journal)]),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**(env if env is not None else os.environ), "COLUMNS": "100"},
        )
        self.output: list[str] = []
        self.tokens: dict[str, str] = {}
        self.url = ""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)
            if m := LINK.match(line.strip()):
                first = m.group(1)
                key = (
                    "table"
                    if first == "table screen"
                    else "host"
                    if m.group(2) is None
                    else (f"seat-{m.group(2)}")
                )
                self.tokens[key] = m.group(4)
                self.url = m.group(3).split("/pair/")[0]
                if key == "host":
                    break
        else:
            raise AssertionError("companion printed no pairing links:\n" + "".join(self.output))
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)

    def type(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def records(self, kind: str | None = None) -> list[dict[str, Any]]:
        """The journal's records so far (of one ``type``)."""
        lines = self.journal.read_text().splitlines() if self.journal.exists() else []
        records = [json.loads(line) for line in lines if line.strip()]
        return [r for r in records if kind is None or r.get("type") == kind]

    def close(self) -> int:
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            return self.proc.wait(15)
        finally:
            self.proc.kill()
