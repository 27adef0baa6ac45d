"""The web view plugged into the real table: ``companion play --web`` played from phones.

Each test starts the ``companion`` command in a process of its own, as a person would,
pairs browser pages (Debian's Chromium through Playwright) with the links it prints, and
plays through the pages only: a phone's choice, its ROLL/SELECT/CONFIRM, its dice. The
red button is the simulated one (``fire`` typed at the companion's terminal presses it on
simulated hardware); a phone asking for it is refused and fires nothing.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time

import pytest
from browser import PHONE, TV, offer_id, open_page, press, prompt_of, shown, tap
from web_helpers import Companion, request

pytestmark = pytest.mark.slow
playwright_api = pytest.importorskip("playwright.sync_api")


def pair(browser, companion: Companion, key: str, viewport: dict):
    return open_page(browser, companion.url, companion.tokens[key], viewport)


def press_until_taken(companion: Companion, page, button: str) -> int:
    """Press a table button until the table takes it (a new journal record), as a person
    presses again when nothing happens; 0 if it never did (the page was behind)."""
    before = len(companion.records())
    for _ in range(3):
        press(page, button)
        deadline = time.monotonic() + 1
        while time.monotonic() < deadline:
            if len(companion.records()) != before:
                return 1
            time.sleep(0.01)
        if "press ROLL" not in prompt_of(page):
            break
    return 0


def post_from(page, path: str, body: dict) -> int:
    """A request the page itself sends (its own cookie), as a tampered page could."""
    return page.evaluate(
        """([path, body]) => fetch(path, {method: "POST", body: JSON.stringify(body),
               headers: {"Content-Type": "application/json"}}).then(r => r.status)""",
        [path, body],
    )


def the_red_button_only(companion: Companion, phone, seat_no: int) -> None:
    """The table asks for the red button: a phone naming it is refused and nothing fires;
    the simulated red button (typed ``fire``) fires the coil."""
    fired = len(companion.records("fired"))
    for name in ("trigger", "fire", "TRIGGER"):
        assert post_from(phone, f"/seat/{seat_no}/button", {"button": name}) == 409
    assert post_from(phone, f"/seat/{seat_no}/button", {"button": "confirm"}) == 200
    time.sleep(0.5)  # the table has had time to take anything the phone sent
    assert len(companion.records("fired")) == fired, "a web request fired the coil"
    assert waits_for_the_red_button(companion)  # the table still does
    companion.type("fire")  # the simulated red button
    deadline = time.monotonic() + 10
    while len(companion.records("fired")) == fired:
        assert time.monotonic() < deadline, "the red button did not fire"
        time.sleep(0.02)
    assert companion.records("fired")[-1]["source"] == "coil"


def waits_for_the_red_button(companion: Companion) -> bool:
    """Whether the table asks for the red button now (its own state, not a page that may
    be a frame behind: the people at the table see the field blink)."""
    _, _, table = request(f"{companion.url}/table/state", token=companion.tokens["table"])
    return "RED BUTTON" in json.loads(table)["main"]


def server_offer(companion: Companion, seat_no: int) -> int | None:
    """Seat ``seat_no``'s present question, read from the server (not from its page)."""
    status, _, body = request(
        f"{companion.url}/seat/{seat_no}/state", token=companion.tokens[f"seat-{seat_no}"]
    )
    assert status == 200
    found = re.search(r'data-offer="(\d+)"', json.loads(body)["main"])
    return int(found.group(1)) if found else None


def page_seq(page) -> int:
    return int(page.evaluate("document.getElementById('main').dataset.seq"))


def server_seq(companion: Companion, key: str) -> int:
    path = "/table" if key == "table" else "/seat/" + key.split("-")[1]
    _, _, body = request(f"{companion.url}{path}/state", token=companion.tokens[key])
    return json.loads(body)["seq"]


def drop_and_come_back(companion: Companion, phones: list, rng: random.Random) -> None:
    """Seat 1's phone loses its connection while seat 0 is on turn; seat 0 plays on until
    it is seat 1's turn; seat 1's phone comes back to that same state and answers it."""
    context, page = phones[1]
    context.set_offline(True)
    page.evaluate("window.__sources.at(-1).dispatchEvent(new Event('error'))")
    seen = page_seq(page)
    deadline = time.monotonic() + 30
    while server_offer(companion, 1) is None:
        assert time.monotonic() < deadline, "seat 1's turn never came"
        if offer_id(phones[0][1]) is not None:
            tap(phones[0][1], rng)
        elif "press ROLL" in prompt_of(phones[0][1]):
            press_until_taken(companion, phones[0][1], "roll")
    assert page_seq(page) == seen  # it missed everything meanwhile
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    want = server_seq(companion, "seat-1")
    page.wait_for_function(
        f"Number(document.getElementById('main').dataset.seq) >= {want}", timeout=15000
    )
    assert offer_id(page) == server_offer(companion, 1)  # the same question
    fresh = context.new_page()
    fresh.goto(companion.url + "/seat/1")
    assert page.inner_text("main") == fresh.inner_text("main")  # the same state
    fresh.close()


@pytest.mark.timeout(300)  # a whole game, tap by tap in a browser: ~100 s on a busy machine
def test_a_tracked_game_played_from_phones_through_companion_play(browser, tmp_path):
    companion = Companion(
        "play",
        "battle-royale",
        "--web",
        "127.0.0.1:0",
        "--phone-seats",
        "all",
        "--players",
        "2",
        "--seed",
        "5",
        "--hardware",
        "sim",
        journal=tmp_path / "game.jsonl",
    )
    assert set(companion.tokens) == {"table", "host", "seat-0", "seat-1"}
    rng = random.Random(1)
    phones = [pair(browser, companion, f"seat-{n}", PHONE) for n in range(2)]
    tv_context, tv = pair(browser, companion, "table", TV)
    taps = rolls = fires = 0
    dropped = False
    try:
        deadline = time.monotonic() + 240
        while companion.proc.poll() is None:
            assert time.monotonic() < deadline, "the game did not end"
            prompt = prompt_of(tv)
            if "RED BUTTON" in prompt and waits_for_the_red_button(companion):
                the_red_button_only(companion, phones[fires % 2][1], fires % 2)
                fires += 1
                continue
            acted = False
            for n, (_, page) in enumerate(phones):
                if offer_id(page) is not None:
                    if taps == 20 and not dropped and n == 0:
                        drop_and_come_back(companion, phones, rng)
                        dropped = True
                    taps += tap(page, rng)
                    acted = True
            if not acted and "press ROLL" in prompt:
                seat_no = 0 if prompt.startswith("purple") else 1
                rolls += press_until_taken(companion, phones[seat_no][1], "roll")
            elif not acted:
                time.sleep(0.02)
        assert companion.close() == 0, "".join(companion.output[-30:])
        assert companion.records("end"), "the journal has no end record"
        assert dropped and taps > 50 and rolls > 5 and fires >= 1
        # the journal is the game the phones played: every tap an action record, and it
        # replays to the same end
        assert len(companion.records("action")) >= taps + rolls
        replay = subprocess.run(
            [sys.executable, "-m", "companion", "replay", "--json", str(companion.journal)],
            capture_output=True,
            text=True,
        )
        assert replay.returncode == 0, replay.stderr
        replayed = json.loads(replay.stdout)
        assert replayed["finished"] and replayed["winners"]
        assert replayed["actions"] == len(companion.records("action"))
    finally:
        companion.close()
        for context, _ in (*phones, (tv_context, tv)):
            context.close()


def kinds(companion: Companion) -> list[str]:
    return [r["action"]["kind"] for r in companion.records("action")]


def press_and_wait(tv, phone, button: str, seq: int) -> None:
    """Press a table button on a phone for the prompt of the table screen's frame ``seq``;
    return once the table screen has moved on (the table took the press: once the table
    takes a press its prompt leaves every page, so a prompt shown is one still asked)."""
    press(phone, button)
    try:
        tv.wait_for_function(
            f"Number(document.getElementById('main').dataset.seq) > {seq}", timeout=15000
        )
    except playwright_api.TimeoutError:
        raise AssertionError(f"{button} was never taken") from None


def test_assist_mode_roll_eliminator_and_explosion_from_phones(browser, tmp_path):
    """Assist mode on sim hardware, driven by ROLL/SELECT/CONFIRM on the phones: a Doom
    roll, an Eliminator move and an explosion, the coil fired only by the red button."""
    companion = Companion(
        "play",
        "battle-royale",
        "--mode",
        "assist",
        "--web",
        "127.0.0.1:0",
        "--players",
        "2",
        "--seed",
        "3",
        "--hardware",
        "sim",
        journal=tmp_path / "assist.jsonl",
    )
    phones = [pair(browser, companion, f"seat-{n}", PHONE) for n in range(2)]
    tv_context, tv = pair(browser, companion, "table", TV)
    fires = presses = 0
    try:
        deadline = time.monotonic() + 90
        while not (fires and "eliminator" in kinds(companion) and "roll" in kinds(companion)):
            assert time.monotonic() < deadline, f"not there after {presses} presses"
            assert companion.proc.poll() is None, "".join(companion.output[-30:])
            prompt, seq = shown(tv)
            phone = phones[presses % 2][1]  # anyone at the table may press
            if "RED BUTTON" in prompt and waits_for_the_red_button(companion):
                the_red_button_only(companion, phone, presses % 2)
                fires += 1
            elif "press ROLL" in prompt or "movement done" in prompt:
                press_and_wait(tv, phone, "roll", seq)
            elif "SELECT points at: " in prompt:
                choice = prompt.split("SELECT points at: ")[1].split(" (")[0]
                skip = " is out" in choice or "winner:" in choice
                press_and_wait(tv, phone, "select" if skip else "confirm", seq)
            else:
                time.sleep(0.05)
                continue
            presses += 1
        assert all(source == "coil" for source in (r["source"] for r in companion.records("fired")))
        assert companion.records("armed")
    finally:
        companion.type("quit")
        companion.close()
        for context, _ in (*phones, (tv_context, tv)):
            context.close()
