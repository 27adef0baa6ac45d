"""Out of turn from a phone (ruling R11c): at a reaction's moment the table asks each house
it names on that house's phone, in order; the phone offers the house's own playable
reactions and "pass", the table screen says whose phone it waits for and the moment, and
no other page ever shows the asked house's options. A play from a phone is the same
journalled action as one typed at the terminal.

The moment is the rulebook's example (``tests/table/test_spartacus_out_of_turn.py``): Sally
(solonius) pays her last gold at the upkeep; John (glaber) holds Mittellos!, Pete
(batiatus) holds a guard and nothing he could react with; both are asked, John first."""

from __future__ import annotations

import io
import json
import sys
import threading
from pathlib import Path

import pytest
from browser import PHONE, TV, open_page
from web_helpers import request, until

from companion.dice import Roller
from companion.games.registry import get_game
from companion.games.spartacus import actions as A
from companion.hal import HardwareConfig, ManualClock, open_hardware
from companion.table.journal import JournalWriter
from companion.table.loop import Observers
from companion.table.people import TerminalInput
from companion.table.session import GameSession, SessionSettings, journal_header
from companion.table.spartacus_table import SpartacusTable, terminal_agent
from companion.web.attach import WebRequest, attach_web
from companion.web.pairing import TABLE, seat

sys.path.insert(0, str(Path(__file__).parents[1] / "spartacus"))
from spx_helpers import upkeep_example  # noqa: E402

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3  # batiatus, solonius, glaber, tullius
PLAY = "react mittellos solonius glaber"


class Pays:
    """A house at the terminal that pays its upkeep (never asked out of turn here)."""

    is_bot = False

    def choose(self, state, legal):
        return A.PayUpkeep()


class Silent:
    """The terminal's view in these tests: nobody reads it."""

    def update(self, state, events):
        pass

    def message(self, text):
        pass

    def prompt(self, text, options=(), seat=None):
        pass


def spartacus_table(tmp_path: Path, agents: dict, view) -> tuple[SpartacusTable, GameSession]:
    """The example's table on sim hardware, journalled to ``tmp_path/game.jsonl``."""
    state = upkeep_example()
    settings = SessionSettings(mode="tracked", game="spartacus")
    journal = JournalWriter.create(tmp_path / "game.jsonl", journal_header(state.config, settings))
    session = GameSession(state, state.config, settings, journal, barrier=len(state.history))
    clock = ManualClock()
    hw = open_hardware(HardwareConfig(profile="sim"), clock=clock)
    loop = SpartacusTable(session, hw, Roller.seeded(1), view, agents, sleep=clock.sleep)
    return loop, session


def with_phones(tmp_path: Path):
    """The example with Pete and John on phones (a real server): (web, loop, hw)."""
    agents = {PETE: Pays(), SALLY: Pays(), JOHN: Pays(), LIZ: Pays()}
    loop, _ = spartacus_table(tmp_path, agents, Silent())
    game = get_game("spartacus")
    request_ = WebRequest("127.0.0.1:0", frozenset({PETE, JOHN}))
    web = attach_web(request_, game, loop.state.config, 4, hw=loop.hw, hints=False)
    web.plug(loop)
    loop.view.update(loop.state, [])
    loop.step()  # Sally pays her last gold: the moment opens
    assert loop.moments
    return web, loop


def post(web, seat_no: int, body: dict) -> int:
    token = web.token(seat(seat_no))
    status, _, _ = request(f"{web.url}/seat/{seat_no}/act", "POST", token=token, body=body)
    return status


def main_of(web, role) -> str:
    """The role's ``<main>`` as its page reads it, once the web process has every frame."""
    web.process.sync()
    status, _, body = request(f"{web.url}{role.path}/state", token=web.token(role))
    assert status == 200
    return json.loads(body)["main"]


def action_records(path: Path) -> list[dict]:
    lines = path.read_text().splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    return [r["action"] for r in records if r.get("type") == "action"]


def test_a_phone_seat_is_asked_on_its_phone_at_a_reactions_moment(tmp_path):
    web, loop = with_phones(tmp_path)
    try:
        asking = threading.Thread(target=loop.step, daemon=True)
        asking.start()
        offer = until(lambda: web.hub.current_offer(JOHN))
        assert offer.actions == (PLAY,) and offer.passing and not offer.undo
        # the table screen: whose phone, and the moment; nothing of what John may play
        table = main_of(web, TABLE)
        assert "out of turn: waiting for glaber&#x27;s phone" in table
        assert "solonius has no gold" in table
        for role in (TABLE, seat(PETE), seat(SALLY), seat(LIZ)):
            assert "react mittellos" not in main_of(web, role)
        assert PLAY in main_of(web, seat(JOHN)) and 'data-kind="pass"' in main_of(web, seat(JOHN))
        assert post(web, JOHN, {"offer": offer.id, "kind": "action", "text": PLAY}) == 200
        # then Pete, asked alike though he holds nothing to play: "pass" only
        offer = until(lambda: web.hub.current_offer(PETE))
        assert offer.actions == () and offer.passing
        assert "waiting for batiatus&#x27;s phone" in main_of(web, TABLE)
        assert post(web, PETE, {"offer": offer.id, "kind": "action", "text": PLAY}) == 200
        until(lambda: "not one of your plays" in (web.hub.frame.notes.get(PETE) or ""))
        assert post(web, PETE, {"offer": offer.id, "kind": "pass"}) == 200
        asking.join(10)
        assert not asking.is_alive()
        reacts = [a for a in loop.state.history if isinstance(a, A.React)]
        assert reacts == [A.React("mittellos", "solonius", "glaber")]
        assert "waiting for" not in main_of(web, TABLE)  # the question is over everywhere
        assert web.hub.current_offer(JOHN) is None and web.hub.current_offer(PETE) is None
    finally:
        web.close()
        loop.hw.close()


def test_a_play_from_a_phone_is_the_same_journalled_action_as_a_typed_one(tmp_path):
    web, loop = with_phones(tmp_path / "phone")
    try:
        asking = threading.Thread(target=loop.step, daemon=True)
        asking.start()
        offer = until(lambda: web.hub.current_offer(JOHN))
        assert post(web, JOHN, {"offer": offer.id, "kind": "action", "text": PLAY}) == 200
        offer = until(lambda: web.hub.current_offer(PETE))
        assert post(web, PETE, {"offer": offer.id, "kind": "pass"}) == 200
        asking.join(10)
    finally:
        web.close()
        loop.hw.close()
    # the same moment at the terminal: John types 1, Pete presses Enter (after hand-overs)
    (tmp_path / "typed").mkdir()
    terminal = TerminalInput(io.StringIO("\n1\n\n\n"))
    terminal.people = 4
    person = terminal_agent(Observers([Silent()]), terminal)
    agents = {PETE: person, SALLY: Pays(), JOHN: person, LIZ: Pays()}
    typed, _ = spartacus_table(tmp_path / "typed", agents, Silent())
    typed.terminal = terminal
    with typed.hw:
        typed.step()
        typed.step()
    phone = action_records(tmp_path / "phone" / "game.jsonl")
    assert phone == action_records(tmp_path / "typed" / "game.jsonl")
    assert [a for a in phone if a.get("kind") == "react"], phone


pytest.importorskip("playwright.sync_api")


def pushed_and_dom(page) -> str:
    return page.evaluate(
        "document.documentElement.outerHTML + JSON.stringify(window.__pushed || [])"
    )


def never_shown(pages: dict, keys, *words: str) -> None:
    """None of ``words`` in the DOM of the pages ``keys`` nor in a message pushed to them."""
    for key in keys:
        seen = pushed_and_dom(pages[key][1])
        assert not [w for w in words if w in seen], key


def open_pages(browser, web, pages: dict) -> None:
    """The table screen and the four houses' phones, into ``pages`` (key: ``table``,
    ``seat-N``; value: (context, page))."""
    for key, role, size in (
        ("table", TABLE, TV),
        *((f"seat-{n}", seat(n), PHONE) for n in range(4)),
    ):
        pages[key] = open_page(browser, web.url, web.token(role), size)


def close_all(pages: dict, web, loop) -> None:
    for context, _ in pages.values():
        context.close()
    web.close()
    loop.hw.close()


@pytest.mark.slow
def test_a_reaction_played_and_one_passed_from_phones_in_a_browser(browser, tmp_path):
    """John plays Mittellos! from his phone, Pete passes from his; the table screen names
    the phone it waits for; no other page (DOM or pushed message) shows John's options."""
    web, loop = with_phones(tmp_path)
    pages = {}
    try:
        open_pages(browser, web, pages)
        asking = threading.Thread(target=loop.step, daemon=True)
        asking.start()
        john, pete, tv = pages["seat-2"][1], pages["seat-0"][1], pages["table"][1]
        john.wait_for_selector(f'section.offer button.act[data-text="{PLAY}"]', timeout=15000)
        tv.wait_for_function(
            "document.querySelector('p.prompt')?.innerText.includes(\"glaber's phone\")",
            timeout=15000,
        )
        assert "out of turn" in john.inner_text("p.you")
        john.click(f'section.offer button.act[data-text="{PLAY}"]')
        pete.wait_for_selector("section.offer button.act.pass", timeout=15000)
        assert not pete.locator("section.offer button.act[data-kind=action]").count()
        tv.wait_for_function(
            "document.querySelector('p.prompt')?.innerText.includes(\"batiatus's phone\")",
            timeout=15000,
        )
        pete.click("section.offer button.act.pass")
        asking.join(15)
        assert not asking.is_alive()
        assert [a for a in loop.state.history if isinstance(a, A.React)] == [
            A.React("mittellos", "solonius", "glaber")
        ]
        tv.wait_for_function(
            "!(document.querySelector('p.prompt')?.innerText || '').includes('waiting for')",
            timeout=15000,
        )
        never_shown(pages, ("table", "seat-0", "seat-1", "seat-3"), "react mittellos", "skandal")
        assert PLAY in pushed_and_dom(john)
    finally:
        close_all(pages, web, loop)
