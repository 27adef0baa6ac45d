"""The web view in a real browser: four phones at a Spartacus table keep their secrets; a
phone that loses its connection comes back to the same state; screenshots for the docs."""

from __future__ import annotations

import re
import time

import pytest
from browser import PHONE, TV, open_page, screenshot_dir
from web_helpers import phone_table

from companion.web import pages
from companion.web.hub import Submission
from companion.web.pairing import TABLE, seat

pytestmark = pytest.mark.slow
pytest.importorskip("playwright.sync_api")


# the page's whole DOM and the number of the frame its <main> shows, read at once
SHOWN = "[document.documentElement.outerHTML, document.getElementById('main').dataset.seq]"
ROW = re.compile(r"<dt>[^<]*</dt><dd>[^<]*</dd>")


def private_rows(view: dict) -> set[str]:
    """A seat's private rows as its phone renders them (``<dt>hands</dt><dd>...</dd>``)."""
    return set(ROW.findall(pages.private_box(view["private"])))


def forbidden(frame, seat_no: int | None) -> set[str]:
    """What page ``seat_no`` (None: the table screen) must never contain at ``frame``:
    every other seat's private rows that differ from its own."""
    own = private_rows(frame.view(seat_no)) if seat_no is not None else set()
    rows = set()
    for k in range(len(frame.views) - 1):
        if k != seat_no:
            rows |= private_rows(frame.view(k)) - own
    return rows


def peeked_texts(frame, seat_no: int | None) -> set[str]:
    """The texts of peeks this page may not read (another seat's peek)."""
    return {
        e.event.text
        for e in frame.log
        if e.event.kind == "peeked" and e.event.private_to != seat_no
    }


def check_page(html: str, frame, seat_no: int | None, where: str) -> None:
    for row in forbidden(frame, seat_no):
        assert row not in html, f"{where}: {row} belongs to another seat"
    for text in peeked_texts(frame, seat_no):
        assert text not in html, f"{where}: another seat's peek: {text}"
    if seat_no is None:
        assert "data-private" not in html


def policy(offer, state_phase: str, peeked: bool, seat_no: int):
    """What each person does: play Spione (a scheme with a peek) once, bid secretly, and
    otherwise end their turn quickly."""
    spies = [a for a in offer.actions if a.startswith("scheme spione") and "+" not in a]
    if spies and not peeked:
        return "action", spies[0]
    bids = [int(a.split()[1]) for a in offer.actions if a.startswith("bid ")]
    if offer.secret and bids:  # typed in the field (a guard to post stays a button)
        return "bid", min(max(bids), 1 + seat_no)
    for word in ("done", "pass", "decline", "no"):
        if word in offer.actions:
            return "action", word
    return "action", offer.actions[0]


def act(page, offer_id: int, kind: str, value) -> None:
    page.wait_for_selector(f'[data-offer="{offer_id}"]', timeout=5000)
    if kind == "bid":
        page.fill("form.secret input[name=amount]", str(value))
        page.click("form.secret button")
        return
    button = page.locator(f'[data-offer="{offer_id}"] button.act[data-text="{value}"]').first
    button.evaluate("b => { const d = b.closest('details'); if (d) d.open = true; }")
    button.click()


def test_four_phones_keep_their_hands_gold_bids_and_peeks(browser, tmp_path):
    with phone_table("spartacus", people={0, 1, 2, 3}, seed=1) as r:
        hub = r.site.hub
        frames = {}
        stop = hub.listen(lambda f: frames.__setitem__(f.seq, f))
        phones = [open_page(browser, r.url, r.token(seat(n)), PHONE) for n in range(4)]
        table = open_page(browser, r.url, r.token(TABLE), TV)
        pages_by_seat = {n: phones[n][1] for n in range(4)}
        pages_by_seat[None] = table[1]
        done_offers: set[int] = set()
        peeked = bids_seen = bids_hidden_checked = False
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            frame = hub.frame
            kinds = [e.event.kind for e in frame.log]
            peeked = peeked or "peeked" in kinds
            if peeked and "bids_revealed" in kinds:
                break
            phase = frame.view(None)["phase"]
            if phase == "bid" and any(k == "bid_entered" for k in kinds[-2:]):
                bids_hidden_checked = True  # some bids in, others not yet: the secret phase
                bids_seen = True
            for seat_no, offer in frame.offers.items():
                if offer.id in done_offers:
                    continue
                done_offers.add(offer.id)
                kind, value = policy(offer, phase, peeked, seat_no)
                act(pages_by_seat[seat_no], offer.id, kind, value)
                # every page, right now: nobody else's secrets, checked against the frame
                # the page shows (a page may be a frame or two behind the table)
                for who, page in pages_by_seat.items():
                    html, seq = page.evaluate(SHOWN)
                    check_page(html, frames.get(int(seq)) or hub.frame, who, f"page {who}")
            time.sleep(0.02)
        else:
            pytest.fail("the auction after the peek never finished")
        assert peeked and bids_seen and bids_hidden_checked
        stop()
        # the peeker's own phone shows the card it saw (its private knowledge)
        peek = next(e.event for e in hub.frame.log if e.event.kind == "peeked")
        peeker = pages_by_seat[peek.private_to]
        peeker.wait_for_function("document.body.innerText.includes('peeked')")
        assert peek.data["card"] in peeker.inner_text("section.private")
        # every message the server pushed to every page, at its own frame
        for who, page in pages_by_seat.items():
            pushed = page.evaluate("window.__pushed")
            assert pushed, f"page {who} got no live update"
            assert any("main" in m for m in pushed)
            for message in pushed:
                if "main" not in message:
                    continue
                frame = frames.get(message["seq"]) or hub.frame
                check_page(message["main"], frame, who, f"push {message['seq']} to {who}")
        for context, _ in (*phones, table):
            context.close()


def answer_until(hub, seat_no: int, until, timeout: float = 30) -> int:
    """Answer ``seat_no``'s offers (its first choice) from the server side until
    ``until()``; returns how many answers were given."""
    given = 0
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, "the table did not get there"
        offer = hub.frame.offers.get(seat_no)
        if offer is not None and hub.submit(
            Submission(seat_no, offer.id, "action", offer.actions[0])
        ):
            given += 1
        time.sleep(0.01)
    return given


def test_a_phone_that_loses_its_connection_comes_back_to_the_same_state(browser):
    with phone_table("battle-royale", people={0, 1}, seed=4) as r:
        hub = r.site.hub
        answer_until(hub, 1, lambda: 0 in hub.frame.offers)  # seat 0's turn
        context, page = open_page(browser, r.url, r.token(seat(1)), PHONE)
        page.wait_for_function(
            f"Number(document.getElementById('main').dataset.seq) >= {hub.frame.seq}"
        )
        # seat 1's phone drops off mid-turn (seat 0's turn): the network goes (so every
        # reconnection fails) and the live connection breaks
        context.set_offline(True)
        page.evaluate("window.__sources.at(-1).dispatchEvent(new Event('error'))")
        assert answer_until(hub, 0, lambda: 1 in hub.frame.offers) > 0
        time.sleep(0.5)
        seen = int(page.evaluate("document.getElementById('main').dataset.seq"))
        assert seen < hub.frame.seq  # it missed frames while offline
        context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        want = hub.frame.seq
        page.wait_for_function(
            f"Number(document.getElementById('main').dataset.seq) >= {want}", timeout=15000
        )
        offer = hub.frame.offers[1]
        assert page.locator(f'[data-offer="{offer.id}"]').count() == 1  # the same question
        assert page.inner_text("main") == page_text_now(page, r)  # the same state
        act(page, offer.id, "action", offer.actions[0])  # and it can answer it
        r.wait(lambda: hub.frame.offers.get(1) is None or hub.frame.offers[1].id != offer.id)
        context.close()


def page_text_now(page, running) -> str:
    """What a freshly loaded page of the same seat shows now."""
    fresh = page.context.new_page()
    fresh.goto(running.url + "/seat/1")
    text = fresh.inner_text("main")
    fresh.close()
    return text


def test_screenshots_of_every_game(browser, tmp_path):
    shots = screenshot_dir(tmp_path)
    for name in ("battle-royale", "gladiatoren", "skirmish"):
        with phone_table(name, people={0}, seed=2) as r:
            r.wait(lambda: r.site.hub.frame.offers)
            tv, table = open_page(browser, r.url, r.token(TABLE), TV)
            table.screenshot(path=str(shots / f"{name}-table.png"), full_page=True)
            phone, page = open_page(browser, r.url, r.token(seat(0)), PHONE)
            page.screenshot(path=str(shots / f"{name}-phone.png"))
            assert page.locator("section.offer button.act").count() > 0
            assert page.evaluate("document.documentElement.scrollWidth") <= 390  # fits
            tv.close()
            phone.close()


def test_a_not_sent_banner_goes_once_a_later_answer_is_taken(browser):
    """Found by a newcomer: a tap while the phone was offline said 'not sent: no
    connection', and the red line stayed through 9 later moves that were all taken."""
    with phone_table("battle-royale", people={0, 1}, seed=4) as r:
        hub = r.site.hub
        answer_until(hub, 0, lambda: 1 in hub.frame.offers)  # seat 1 is asked
        context, page = open_page(browser, r.url, r.token(seat(1)), PHONE)
        offer = hub.frame.offers[1]
        page.wait_for_selector(f'[data-offer="{offer.id}"]')
        context.set_offline(True)
        act(page, offer.id, "action", offer.actions[0])
        page.wait_for_function("document.getElementById('conn').textContent.length > 0")
        assert page.inner_text("#conn") == "not sent: no connection"
        context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        page.wait_for_selector(f'[data-offer="{offer.id}"]')
        act(page, offer.id, "action", offer.actions[0])  # taken this time
        r.wait(lambda: hub.frame.offers.get(1) is None or hub.frame.offers[1].id != offer.id)
        page.wait_for_function("document.getElementById('conn').textContent === ''")
        context.close()


def test_a_phone_whose_code_is_over_says_so_and_stops_showing_the_hand(browser):
    """Found by a newcomer: after the server restarted (a resume: new codes), an old phone
    page said 'reconnecting…' for ever, still showing its hand from before, while every
    retry was refused with 401."""
    with phone_table("spartacus", people={0, 1}, seed=1) as r:
        hub = r.site.hub
        context, page = open_page(browser, r.url, r.token(seat(1)), PHONE)
        page.wait_for_function(
            f"Number(document.getElementById('main').dataset.seq) >= {hub.frame.seq}"
        )
        assert "Only you see this" in page.inner_text("main")  # its hand
        r.site.pairing.new_game(hub.players)  # new codes: this phone's token is over
        page.evaluate("window.__sources.at(-1).dispatchEvent(new Event('error'))")
        page.wait_for_function(
            "document.getElementById('main').innerText.includes('no longer paired')",
            timeout=15000,
        )
        assert "Only you see this" not in page.inner_text("main")
        assert "unpaired" in page.inner_text("#conn")
        context.close()
