#!/usr/bin/env python3
"""An action from one phone, visible on the five other open pages; the server's memory.

A Battle Royale game of four people plays from phones in a server process of its own
(the real path: WebHub, WebAgent, the table's ``decide`` and GameSession; Starlette on
uvicorn in the web view's process, as ``--web`` runs it). This process opens six live
pages (the table screen, the host page, four seats: server-sent events over HTTP on
127.0.0.1), then, action after
action, posts the acting seat's first choice as its phone would and times how long until
each of the five *other* pages has received a changed page. The server's resident
memory (VmRSS) is read while the six pages are open.

    python bench/web_latency.py --actions 300 --json
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OFFER = re.compile(r'data-offer="(\d+)".*?data-text="([^"]*)"', re.S)


def serve() -> None:
    """The server process: a game of phones until standard input closes."""
    sys.path.insert(0, str(ROOT))
    from companion.dice import Roller
    from companion.games.registry import get_game
    from companion.table.session import GameSession, SessionSettings
    from companion.web.driver import PhoneTable
    from companion.web.hub import WebHub
    from companion.web.odds import public_odds
    from companion.web.process import WebProcess
    from companion.web.render import Look

    game = get_game("battle-royale")
    config = game.config()
    session = GameSession.start(config, SessionSettings(seed=1), None)
    hub = WebHub(game, config, session.state.players, extras=public_odds)
    table = PhoneTable(session, hub, Roller.seeded(1), people={0, 1, 2, 3}, bot=lambda s: None)
    # as --web does: the server in the web view's process, the pages drawn in its pages
    # process
    look = Look(game.name, config, game.title, ())
    web = WebProcess(hub, look, "127.0.0.1", 0).start()
    tokens = {r.key: web.token(r) for r in web.links()}
    threading.Thread(target=table.run, daemon=True).start()
    print(json.dumps({"port": web.port, "tokens": tokens}), flush=True)
    sys.stdin.read()
    table.stop.set()
    web.stop()


class Page:
    """One open page: its live stream read on a thread; every frame kept with its time."""

    def __init__(self, port: int, role: str, token: str) -> None:
        self.role = role
        self.path = (
            "/table"
            if role == "table"
            else "/host"
            if role == "host"
            else ("/seat/" + role.split("-")[1])
        )
        self.frames: list[tuple[float, int, str]] = []
        self.lock = threading.Lock()
        self.conn = http.client.HTTPConnection("127.0.0.1", port)
        self.conn.request("GET", self.path + "/events", headers={"Cookie": f"companion={token}"})
        self.response = self.conn.getresponse()
        assert self.response.status == 200, (role, self.response.status)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        data = ""
        for raw in self.response:
            line = raw.decode().rstrip("\n")
            if line.startswith("data: "):
                data = line[6:]
            elif not line and data:
                frame = json.loads(data)
                if "main" in frame:
                    with self.lock:
                        self.frames.append((time.perf_counter(), frame["seq"], frame["main"]))
                data = ""

    def latest(self) -> tuple[float, int, str] | None:
        with self.lock:
            return self.frames[-1] if self.frames else None

    def wait_first(self, timeout: float = 30.0) -> None:
        """Until the first frame is in (the pages process may still be starting)."""
        deadline = time.monotonic() + timeout
        while self.latest() is None:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.role}: no frame in {timeout:g} s")
            time.sleep(0.01)

    def first_change_after(self, t0: float, before: str) -> float | None:
        with self.lock:
            for t, _seq, main in self.frames:
                if t >= t0 and main != before:
                    return t
        return None


def post(port: int, path: str, token: str, body: dict) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port)
    conn.request(
        "POST",
        path,
        json.dumps(body),
        {"Cookie": f"companion={token}", "Content-Type": "application/json"},
    )
    status = conn.getresponse().status
    conn.close()
    return status


def pages() -> None:
    """Six live pages for another benchmark (``hal_latency.py``'s web condition): the
    port and tokens come as one JSON line on standard input; ``open`` once every stream
    is open and has shown its first frame; when standard input closes, the frames each
    page received, as JSON."""
    info = json.loads(sys.stdin.readline())
    open_pages = [Page(info["port"], role, token) for role, token in info["tokens"].items()]
    for page in open_pages:
        page.wait_first()
    print("open", flush=True)
    sys.stdin.read()
    print(json.dumps({"frames": sum(len(p.frames) for p in open_pages)}), flush=True)


def children_rss_mb(pid: int) -> float:
    """The resident memory of ``pid``'s descendants together: the web view's process, its
    pages process, multiprocessing's resource trackers (and the worker, once started)."""
    total = 0.0
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):  # it ended meanwhile
            for child in children.read_text().split():
                with contextlib.suppress(OSError, ValueError):
                    total += rss_mb(int(child)) + children_rss_mb(int(child))
    return total


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(actions: int) -> dict:
    load_before = os.getloadavg()[0]
    child = subprocess.Popen(
        [sys.executable, __file__, "--serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        info = json.loads(child.stdout.readline())
        port, tokens = info["port"], info["tokens"]
        pages = {role: Page(port, role, token) for role, token in tokens.items()}
        for page in pages.values():
            page.wait_first()
        time.sleep(0.3)
        peak = rss_mb(child.pid)
        pages_peak = children_rss_mb(child.pid)
        latencies: list[float] = []
        unseen = 0
        for _ in range(actions):
            actor, offer, text = None, None, None
            deadline = time.perf_counter() + 5
            while actor is None and time.perf_counter() < deadline:
                for role, page in pages.items():
                    latest = page.latest()
                    if role.startswith("seat") and latest and (m := OFFER.search(latest[2])):
                        actor, offer, text = role, int(m.group(1)), m.group(2)
                        break
                else:
                    time.sleep(0.001)
            if actor is None:
                break  # the game is over
            others = {r: p for r, p in pages.items() if r != actor}
            before = {r: p.latest()[2] for r, p in others.items()}
            t0 = time.perf_counter()
            status = post(
                port,
                pages[actor].path + "/act",
                tokens[actor],
                {"offer": offer, "kind": "action", "text": text},
            )
            if status != 200:
                time.sleep(0.01)
                continue
            seen: dict[str, float] = {}
            deadline = t0 + 2
            while len(seen) < len(others) and time.perf_counter() < deadline:
                for role, page in others.items():
                    if role not in seen and (t := page.first_change_after(t0, before[role])):
                        seen[role] = t - t0
                time.sleep(0.0005)
            if len(seen) < len(others):
                unseen += 1  # an action that changes nothing another page shows
            if seen:
                latencies.append(max(seen.values()))
            peak = max(peak, rss_mb(child.pid))
            pages_peak = max(pages_peak, children_rss_mb(child.pid))
        return {
            "actions": len(latencies),
            "not_visible": unseen,
            "pages": len(pages),
            "visible_ms": {
                "p50": statistics.median(latencies) * 1000,
                "p99": quantile(latencies, 0.99) * 1000,
                "max": max(latencies) * 1000,
            },
            "server_rss_mb": {"peak": peak},
            "children_rss_mb": {"peak": pages_peak},
            "targets": {"visible_p99_ms": 100, "server_rss_mb": 60},
            "load_average_1min": [load_before, os.getloadavg()[0]],
        }
    finally:
        child.stdin.close()
        child.wait(10)


PAIR = re.compile(r"web view: pair (\S+) with http://[^/]+/pair/(\S+)")
PROMPT = re.compile(r'<p class="prompt">([^<]*)</p>')
NEW_GAME = "start a new game"  # serve's prompt once a game has ended
STUCK_S = 30.0  # no prompt the phones can answer for this long: fail, never hang


def serve_memory(presses: int) -> dict:
    """``companion serve --web`` (assist mode, sim hardware) with six pages open, played
    from the phones' ROLL/SELECT/CONFIRM: its resident memory after every press."""
    with tempfile.TemporaryDirectory(prefix="web-serve-") as tmp:
        child = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "companion",
                "serve",
                "--web",
                "127.0.0.1:0",
                "--hardware",
                "sim",
                "--new",
                "--journal-dir",
                f"{tmp}/journals",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        try:
            assert child.stderr is not None
            tokens: dict[str, str] = {}
            for line in child.stderr:
                if m := PAIR.search(line):
                    tokens[m.group(1)] = m.group(2)
                if "ready" in line:
                    break
            host = Path(tmp, "web-pairing", "host.txt").read_text().strip()
            tokens["host"] = host.rsplit("/", 1)[1]
            port = int(host.split(":")[2].split("/")[0])
            threading.Thread(target=lambda: [None for _ in child.stderr], daemon=True).start()
            pages = {role: Page(port, role, token) for role, token in tokens.items()}
            time.sleep(0.3)
            samples = [rss_mb(child.pid)]
            pages_samples = [children_rss_mb(child.pid)]
            rng = random.Random(1)
            done = 0
            stopped_at = "the presses asked for"
            stuck_since = time.monotonic()
            while done < presses:
                latest = pages["table"].latest()
                prompt = m.group(1) if latest and (m := PROMPT.search(latest[2])) else ""
                if "RED BUTTON" in prompt:
                    stopped_at = "the red button"  # only it fires, no page may: the game waits
                    break
                if NEW_GAME in prompt:  # three players out before any explosion: it ended
                    stopped_at = "the end of the game"
                    break
                if "ROLL" in prompt.split(" - ")[0] or "movement done" in prompt:
                    button = "roll"
                elif "SELECT" in prompt:
                    button = rng.choice(("select", "confirm", "confirm"))
                elif time.monotonic() - stuck_since > STUCK_S:
                    raise RuntimeError(
                        f"serve --web: no prompt a phone can answer for {STUCK_S:.0f} s "
                        f"after {done} presses; the table page says {prompt!r}"
                    )
                else:
                    time.sleep(0.01)
                    continue
                stuck_since = time.monotonic()
                seat = f"seat-{rng.randrange(4)}"
                post(port, pages[seat].path + "/button", tokens[seat], {"button": button})
                done += 1
                time.sleep(0.02)
                samples.append(rss_mb(child.pid))
                pages_samples.append(children_rss_mb(child.pid))
            # a finished game's journal has moved to journals/finished
            journal = next(Path(tmp, "journals").rglob("*.jsonl")).read_text()
            return {
                "pages": len(pages),
                "presses": done,
                "stopped_at": stopped_at,  # the dice are the system's: a game may explode early
                "journalled_actions": journal.count('"type":"action"'),
                "rss_mb": {"start": samples[0], "peak": max(samples), "end": samples[-1]},
                "children_rss_mb": {"peak": max(pages_samples)},
            }
        finally:
            child.terminate()
            child.wait(10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--presses", type=int, default=200, help="serve --web: phone presses")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--pages", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return 0
    if args.pages:
        pages()
        return 0
    result = measure(args.actions)
    result["serve_web"] = serve_memory(args.presses)
    if args.json:
        print(json.dumps(result))
    else:
        v = result["visible_ms"]
        print(
            f"{result['actions']} actions, seen on 5 other pages: p50 {v['p50']:.1f} ms, "
            f"p99 {v['p99']:.1f} ms, max {v['max']:.1f} ms; server RSS peak "
            f"{result['server_rss_mb']['peak']:.1f} MB (its child processes "
            f"{result['children_rss_mb']['peak']:.1f} MB) with {result['pages']} pages open; "
            f"serve --web: RSS peak {result['serve_web']['rss_mb']['peak']:.1f} MB "
            "(child processes "
            f"{result['serve_web']['children_rss_mb']['peak']:.1f} MB) with "
            f"{result['serve_web']['pages']} pages, {result['serve_web']['presses']} presses"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
