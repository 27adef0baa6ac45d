"""Kampf der Gladiatoren and the arena skirmish from a phone: ``companion gladiatoren play
--web`` and ``companion play skirmish --web`` with seat 0 on a phone (Chromium through
Playwright), bots on the others. A few choices tapped and dice rolled on the phone are
then typed at the terminal of a second run with the same seed: both journals hold the
same actions. A hint asked on the phone shows on that phone only and journals nothing.
SELECT held on a phone is the long press (undo of the selection)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

import pytest
from browser import PHONE, TV, open_page
from web_helpers import Companion, request

from companion.games.registry import get_game
from companion.web.buttons import ButtonRelay
from companion.web.hub import WebHub
from companion.web.pairing import seat
from companion.web.server import WebServer
from companion.web.site import Site

pytestmark = pytest.mark.slow
playwright_api = pytest.importorskip("playwright.sync_api")


def table_prompt(companion: Companion) -> str:
    """What the table asks now, from the server (not a page that may be a frame behind)."""
    _, _, body = request(f"{companion.url}/table/state", token=companion.tokens["table"])
    main = json.loads(body)["main"]
    start = main.find('<p class="prompt">')
    return main[start + 18 : main.find("</p>", start)] if start >= 0 else ""


def offer_of(page) -> tuple[int | None, list[str]]:
    """The page's present question and its choices (not corrections, undo or hint), read
    at once (the page may be redrawn between two reads)."""
    found = page.evaluate(
        """() => { const o = document.querySelector('section.offer[data-offer]');
          if (!o) return [null, []];
          return [Number(o.dataset.offer),
                  Array.from(o.querySelectorAll('.choices button.act')).map(b => b.dataset.text)];
        }"""
    )
    return found[0], found[1]


def tap(page, offer: int, text: str) -> bool:
    """Tap the choice ``text`` of ``offer`` (opening its fold); ``False`` if the page no
    longer shows it."""
    button = page.locator(f'section.offer[data-offer="{offer}"] button.act[data-text="{text}"]')
    try:
        button.first.evaluate(
            "b => { const d = b.closest('details'); if (d) d.open = true; }", timeout=2000
        )
        button.first.click(timeout=2000)
    except playwright_api.TimeoutError:
        return False
    return True


def ask_for_a_hint(phone, tv, offer: int) -> str:
    """Tap the hint button; return the hint once it is shown (on this phone only)."""
    phone.click(f'section.offer[data-offer="{offer}"] button.hint')
    phone.wait_for_function(
        "(() => { const h = document.querySelector('p.hint');"
        " return h && !h.innerText.includes('thinking'); })()",
        timeout=30000,
    )
    text = phone.inner_text("p.hint")
    assert "hint" not in tv.inner_text("main")
    return text


def play_from_the_phone(browser, args: list[str], journal, seat_name: str, decisions: int):
    """Seat 0 plays ``decisions`` choices (and its rolls) from its phone; returns the
    lines a person at the terminal would have typed for the same game, and the hint."""
    companion = Companion(*args, "--web", "127.0.0.1:0", "--phone-seats", "0", journal=journal)
    rng = random.Random(7)
    phone_context, phone = open_page(browser, companion.url, companion.tokens["seat-0"], PHONE)
    tv_context, tv = open_page(browser, companion.url, companion.tokens["table"], TV)
    taken_rolls: list[int] = []  # the journal's length when a ROLL from the phone was taken
    hint = ""
    made = 0
    try:
        assert "1 on phone" in "".join(companion.output)
        deadline = time.monotonic() + 120
        while made < decisions:
            assert time.monotonic() < deadline, "".join(companion.output[-20:])
            assert companion.proc.poll() is None, "".join(companion.output[-20:])
            offer, texts = offer_of(phone)
            if offer is not None and texts:
                if len(texts) > 1 and not hint:
                    hint = ask_for_a_hint(phone, tv, offer)
                    if not hint.startswith("no hint: the set-up is beyond the search"):
                        assert hint.removeprefix("hint: ").split(" (")[0] in texts
                before = len(companion.records("action"))
                if tap(phone, offer, rng.choice(texts)):
                    limit = time.monotonic() + 5
                    while len(companion.records("action")) == before and time.monotonic() < limit:
                        time.sleep(0.02)
                # a tap on a page redrawn at that moment is lost: the person taps again
                made = sum(line != "roll" for line in typed_lines(args, companion, []))
                continue
            prompt = table_prompt(companion)
            if "press ROLL" in prompt and prompt.split(":")[0] in (seat_name, "roll"):
                before = len(companion.records("action"))
                phone.click('section.buttons button.press[data-button="roll"]')
                limit = time.monotonic() + 2
                while len(companion.records("action")) == before and time.monotonic() < limit:
                    time.sleep(0.02)
                if len(companion.records("action")) != before:
                    taken_rolls.append(before)
                continue
            time.sleep(0.05)
        # the phone is asked again (or the game ended): stop here, as the typed run will
        while offer_of(phone)[0] is None and companion.proc.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        companion.type("quit")
        companion.close()
    finally:
        companion.close()
        phone_context.close()
        tv_context.close()
    return typed_lines(args, companion, taken_rolls), hint


def typed_lines(args: list[str], companion: Companion, taken_rolls: list[int]) -> list[str]:
    """The journal as a person at the terminal types it: seat 0's choices in notation,
    ``roll`` where the phone's ROLL was taken."""
    game = get_game("gladiatoren" if args[0] == "gladiatoren" else "skirmish")
    header = companion.records("header")[0]
    state = game.new_game(game.config_from_dict(header["config"]))
    lines = []
    for n, record in enumerate(companion.records("action")):
        action = game.action_from_dict(record["action"])
        if n in taken_rolls:
            lines.append("roll")
        if not state.is_chance_node and state.current_player == 0:
            lines.append(action.notation)
        state.apply(action)
    return lines


def typed_run(args: list[str], lines: list[str], journal) -> list[dict]:
    done = subprocess.run(
        [sys.executable, "-m", "companion", *args, "--journal", str(journal)],
        input="\n".join([*lines, "quit"]) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    records = [json.loads(line) for line in journal.read_text().splitlines() if line.strip()]
    return [r["action"] for r in records if r.get("type") == "action"]


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    "args, seat_name",
    [
        (["gladiatoren", "play", "--players", "3", "--seed", "11"], "red"),
        (["play", "skirmish", "--players", "2", "--seed", "11"], "purple"),
    ],
    ids=["gladiatoren", "skirmish"],
)
def test_a_phones_choices_are_the_same_journalled_actions_as_typed_ones(
    browser, tmp_path, args, seat_name
):
    phone_journal = tmp_path / "phone.jsonl"
    lines, hint = play_from_the_phone(browser, args, phone_journal, seat_name, decisions=6)
    assert len([line for line in lines if line != "roll"]) >= 6
    if args[0] == "gladiatoren":  # its first choices are the set-up, where the search is blind
        assert hint.startswith("no hint: the set-up is beyond the search")
    else:
        assert hint.startswith("hint: ")
    phone_records = [
        json.loads(line)["action"]
        for line in phone_journal.read_text().splitlines()
        if json.loads(line).get("type") == "action"
    ]
    typed = typed_run(args, lines, tmp_path / "typed.jsonl")  # bots: the same seats
    assert typed == phone_records


def test_select_held_on_a_phone_is_the_long_press(browser):
    """A tap on SELECT is a press and a release; held, it is the long press (the table's
    undo of the selection) and no extra tap follows the release."""

    class Inputs:
        def __init__(self) -> None:
            self.events: list[tuple[str, str]] = []

        def emit(self, kind: str, button: str) -> None:
            self.events.append((kind, button))

    game = get_game("battle-royale")
    config = game.config()
    hub = WebHub(game, config, config.players)
    hub.update(game.new_game(config), [])
    inputs = Inputs()
    site = Site(hub, relay=ButtonRelay(inputs), buttons=("roll", "select", "confirm"))
    server = WebServer(site, "127.0.0.1", 0).start()
    try:
        context, page = open_page(browser, server.url, site.pairing.token(seat(0)), PHONE)
        select = page.locator('section.buttons button.press[data-button="select"]')
        select.click()
        deadline = time.monotonic() + 5
        while len(inputs.events) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert inputs.events == [("press", "select"), ("release", "select")]
        inputs.events.clear()
        box = select.bounding_box()
        page.mouse.move(box["x"] + 5, box["y"] + 5)
        page.mouse.down()
        page.wait_for_timeout(1000)
        page.mouse.up()
        page.wait_for_timeout(500)
        assert inputs.events == [
            ("press", "select"),
            ("long_press", "select"),
            ("release", "select"),
        ]
        context.close()
    finally:
        server.stop()
        site.close()
