"""The web view's own process (``companion.web.process``): the table's process keeps no
thread of the web server (the red button's thread never waits for the interpreter behind
one), frames reach the pages, phones' answers and presses come back checked on both
sides, and either process ending leaves the other in order."""

from __future__ import annotations

import io
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from processes import children, parent_to_kill, running
from web_helpers import request, until

from companion.games.registry import get_game
from companion.web.attach import WebRequest, attach_web
from companion.web.buttons import NotAWebButton
from companion.web.hub import Frame, Offer, Submission
from companion.web.pairing import TABLE
from companion.web.process import Mirror, Presser
from companion.web.render import Look
from companion.web.site import Site

ROOT = Path(__file__).resolve().parents[2]


#: How long a process may take to start or end (spawning imports the web stack).
PROCESS_S = 20.0


@pytest.fixture
def web():
    game = get_game("battle-royale")
    web = attach_web(WebRequest("127.0.0.1:0"), game, game.config(), 2)
    yield web
    web.close()


def test_the_server_and_its_pages_process_run_beside_the_table_and_close_stops_them(web):
    game = web.hub.game
    pid = web.process.pid
    assert pid is not None and pid != os.getpid() and web.process.alive
    pages = until(lambda: children(pid), PROCESS_S)  # the pages process, under the web process
    assert [t.name for t in threading.enumerate() if t.name == "web"] == []  # no server here
    web.hub.update(game.new_game(game.config()), [])
    seq = web.process.sync()
    assert seq == web.hub.frame.seq
    status, _, body = request(web.url + "/table/state", token=web.token(TABLE))
    assert status == 200
    here = Site(web.hub, buttons=web.buttons)
    try:
        assert json.loads(body) == {"seq": seq, "main": here.main(TABLE)[1]}
    finally:
        here.close()
    web.close()
    assert not web.process.alive
    until(lambda: not any(running(p) for p in pages), PROCESS_S)


def test_the_tables_process_never_imports_the_web_server():
    """The web stack (uvicorn, starlette) is the web process's only: the table's process
    keeps its memory and its interpreter for the table."""
    code = textwrap.dedent(
        """
        import sys
        from companion.games.registry import get_game
        from companion.web.attach import WebRequest, attach_web

        if __name__ == "__main__":
            game = get_game("battle-royale")
            web = attach_web(WebRequest("127.0.0.1:0"), game, game.config(), 2)
            web.hub.update(game.new_game(game.config()), [])
            web.process.sync()
            print(sorted(m for m in ("uvicorn", "starlette", "h11") if m in sys.modules))
            web.close()
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def frame_with(offers: dict[int, Offer], anytime: dict[int, Offer] | None = None) -> Frame:
    return Frame(seq=1, views={None: {}}, offers=offers, anytime=anytime or {})


def test_the_mirror_takes_only_an_answer_to_the_offer_the_phone_was_shown():
    sent = []
    game = get_game("battle-royale")
    mirror = Mirror(Look(game.name, game.config(), game.title, ()), 2, sent.append)
    assert not mirror.submit(Submission(0, 1, "action", "x"))  # no frame yet
    mirror.publish(frame_with({0: Offer(5, "choose")}, {1: Offer(9, "any time")}))
    assert not mirror.submit(Submission(0, 4, "action", "x"))  # an old question
    assert not mirror.submit(Submission(1, 5, "action", "x"))  # another seat's offer
    assert not mirror.submit(Submission(0, 9, "anytime", "x"))  # not seat 0's anytime
    assert sent == []
    assert mirror.submit(Submission(0, 5, "action", "x"))
    assert mirror.submit(Submission(1, 9, "anytime", "y"))
    assert sent == [
        ("submit", Submission(0, 5, "action", "x")),
        ("submit", Submission(1, 9, "anytime", "y")),
    ]


def test_the_web_process_refuses_the_red_button_before_the_table_does():
    sent = []
    presser = Presser(sent.append)
    for name in ("trigger", "fire", "red"):
        with pytest.raises(NotAWebButton):
            presser.press(name, 0)
    presser.press("select", 1, hold=True)
    assert sent == [("press", "select", 1, True)]


def test_the_table_plays_on_when_the_web_process_dies(web, caplog):
    game = web.hub.game
    state = game.new_game(game.config())
    pages = until(lambda: children(web.process.pid), PROCESS_S)
    with caplog.at_level(logging.WARNING, logger="companion.web.process"):
        os.kill(web.process.pid, signal.SIGKILL)
        until(lambda: "ended" in caplog.text, PROCESS_S)
        # the pages process ends with it
        until(lambda: not any(running(p) for p in pages), PROCESS_S)
        for _ in range(50):  # frames for nobody: dropped, the table never waits
            web.hub.update(state, [])
    with pytest.raises(OSError, match="ended"):
        web.process.sync()
    with caplog.at_level(logging.WARNING, logger="companion.web.attach"):
        web.new_game()  # the service's next game: no links, no error
    assert "no new links" in caplog.text
    assert caplog.text.count("the table plays on") == 1


def test_a_stop_signal_to_every_process_leaves_the_web_process_to_its_table(web, caplog):
    """systemd stops a service by signalling every process of the unit: the web process
    waits for the table's process to stop it, which then warns of nothing."""
    with caplog.at_level(logging.WARNING, logger="companion.web.process"):
        os.kill(web.process.pid, signal.SIGTERM)
        os.kill(web.process.pid, signal.SIGINT)
        assert web.process.sync() == 0  # still answering
        web.close()
    assert not web.process.alive
    assert "ended" not in caplog.text


def test_the_web_process_ends_with_the_tables_process(tmp_path):
    """Killed (nothing runs on the way out), the table's process leaves its end of the
    pipe closed: the web process reads that and stops, with its pages process."""
    code = textwrap.dedent(
        """
        import sys, time
        from companion.games.registry import get_game
        from companion.web.attach import WebRequest, attach_web

        if __name__ == "__main__":
            game = get_game("battle-royale")
            web = attach_web(WebRequest("127.0.0.1:0"), game, game.config(), 2)
            print(web.process.pid, flush=True)
            time.sleep(120)
        """
    )
    table, pid = parent_to_kill(code)
    try:
        pages = until(lambda: children(pid), PROCESS_S)
        table.kill()
        table.wait(10)
        until(lambda: not running(pid), PROCESS_S)
        until(lambda: not any(running(p) for p in pages), PROCESS_S)
    finally:
        table.kill()


def test_a_port_in_use_is_one_oserror_saying_so():
    game = get_game("battle-royale")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(
            OSError, match=f"could not listen on 127.0.0.1:{port}: address already in use"
        ):
            attach_web(WebRequest(f"127.0.0.1:{port}"), game, game.config(), 2)


def test_a_seat_a_bot_plays_gets_no_pairing_code():
    """Found by a newcomer: a bot's seat had a code on the terminal and the host page, and
    whoever opened it (the table screen's browser too) saw the bot's hand and gold."""
    from argparse import Namespace

    from companion.commands.web_option import web_request
    from companion.web.pairing import HOST

    args = Namespace(web="127.0.0.1:0", phone_seats="0", phone_dice=False)
    request_ = web_request(args, 4, (2, 3))
    assert request_.bot_seats == frozenset({2, 3}) and request_.phone_seats == frozenset({0})
    game = get_game("spartacus")
    out = io.StringIO()
    web = attach_web(request_, game, game.config(players=4), 4, out=out, hints=False)
    try:
        links = web.process.links()
        assert {r.seat for r in links if r.kind == "seat"} == {0, 1}  # the people's only
        names = game.config(players=4).houses
        printed = out.getvalue()
        assert f"seat 1 ({names[1]})" in printed and f"seat 2 ({names[2]})" not in printed
        web.hub.update(game.new_game(game.config(players=4)), [])
        web.process.sync()
        status, _, body = request(web.url + "/host", token=web.token(HOST))
        assert status == 200
        for n in (2, 3):
            assert f"seat {n}: {names[n]} (a bot plays it: no code)" in body.decode()
        web.new_game(4)  # a new game's codes: still none for the bots
        assert {r.seat for r in web.process.links() if r.kind == "seat"} == {0, 1}
    finally:
        web.close()
