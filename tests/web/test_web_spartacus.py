"""Spartacus on four phones through ``companion play spartacus --web``: an auction with
secret bids and a scheme with a peek, played from four browser contexts (one per house)
and a table screen. No page ever contains another house's hand, gold or bid, nor the card
another house peeked at: checked on each page's whole DOM after every tap and on every
message the server pushed to it. What a house may see is worked out independently of the
server: the journal the command wrote, replayed with the engine (``game.view`` and
``game.event_view`` at every step)."""

from __future__ import annotations

import re
import time

import pytest
from browser import PHONE, TV, open_page, screenshot_dir
from web_helpers import Companion

from companion.games.registry import get_game
from companion.web import pages

pytestmark = pytest.mark.slow
playwright_api = pytest.importorskip("playwright.sync_api")

ROW = re.compile(r"<dt>[^<]*</dt><dd>[^<]*</dd>")
SHOWN = "[document.documentElement.outerHTML, document.getElementById('main').dataset.seq]"
GAME = get_game("spartacus")


class Secrets:
    """Per house, every private row its phone could ever show (``<dt>gold</dt><dd>7</dd>``)
    and the private texts of its peeks, gathered while the journal is replayed."""

    def __init__(self, players: int) -> None:
        self.rows: list[set[str]] = [set() for _ in range(players)]
        self.peeks: list[set[str]] = [set() for _ in range(players)]
        self.done = 0
        self.state = None
        self.events: list = []

    def follow(self, companion: Companion) -> None:
        records = companion.records("action")
        if self.state is None:
            header = companion.records("header")[0]
            self.state = GAME.new_game(GAME.config_from_dict(header["config"]))
            self._see(list(self.state.initial_events))
        for record in records[self.done :]:
            self._see(self.state.apply(GAME.action_from_dict(record["action"])))
        self.done = len(records)

    def _see(self, events: list) -> None:
        self.events += events
        for seat in range(len(self.rows)):
            private = GAME.view(self.state, seat)["private"]
            self.rows[seat] |= set(ROW.findall(pages.private_box(private)))
        for event in events:
            if event.kind == "peeked":
                self.peeks[event.private_to].add(GAME.event_view(event, event.private_to)["text"])

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def forbidden(self, seat: int | None) -> tuple[set[str], set[str]]:
        """What page ``seat`` (None: the table screen) may never show: rows that were only
        ever other houses' own, and other houses' peeks."""
        own = self.rows[seat] if seat is not None else set()
        rows = set().union(*(r for k, r in enumerate(self.rows) if k != seat)) - own
        peeks = set().union(*(p for k, p in enumerate(self.peeks) if k != seat))
        return rows, peeks


def check(html: str, secrets: Secrets, seat: int | None, where: str) -> None:
    rows, peeks = secrets.forbidden(seat)
    for row in ROW.findall(html):
        assert row not in rows, f"{where}: {row} belongs to another house"
    for text in peeks:
        assert text not in html, f"{where}: another house's peek: {text}"
    if seat is None:
        assert "data-private" not in html, f"{where}: the table screen shows a secret"
    else:
        assert html.count('data-private="1"') <= 1


def offer_on(page) -> tuple[int | None, list[str], bool]:
    """The page's present question: its id, its choices, whether it is a secret bid."""
    found = page.evaluate(
        """() => { const o = document.querySelector('section.offer[data-offer]');
          if (!o) return [null, [], false];
          return [Number(o.dataset.offer),
                  Array.from(o.querySelectorAll('button.act[data-kind=action]'))
                       .map(b => b.dataset.text),
                  !!o.querySelector('form.secret')]; }"""
    )
    return found[0], found[1], found[2]


def decide(actions: list[str], secret: bool, seat: int, peeked: bool) -> tuple[str, str]:
    """What each house does: play Spione (a scheme with a peek) once, bid secretly, and
    otherwise end its turn quickly."""
    if secret:
        return "bid", str(1 + seat)
    spies = [a for a in actions if a.startswith("scheme spione") and "+" not in a]
    if spies and not peeked:
        return "action", spies[0]
    for word in ("done", "pass", "decline", "no", "pay-upkeep"):
        if word in actions:
            return "action", word
    return "action", actions[0]


def act(page, offer: int, kind: str, value: str) -> None:
    if kind == "bid":
        page.fill(f'[data-offer="{offer}"] form.secret input[name=amount]', value)
        page.click(f'[data-offer="{offer}"] form.secret button')
        return
    button = page.locator(f'[data-offer="{offer}"] button.act[data-text="{value}"]').first
    button.evaluate("b => { const d = b.closest('details'); if (d) d.open = true; }")
    button.click()


@pytest.mark.timeout(300)
def test_four_phones_at_a_spartacus_table_keep_their_secrets(browser, tmp_path):
    companion = Companion(
        "play",
        "spartacus",
        "--web",
        "127.0.0.1:0",
        "--phone-seats",
        "all",
        "--seed",
        "3",
        journal=tmp_path / "spartacus.jsonl",
    )
    try:
        assert "4 on phones, no bots" in "".join(companion.output)
        phones = [
            open_page(browser, companion.url, companion.tokens[f"seat-{n}"], PHONE)
            for n in range(4)
        ]
        table = open_page(browser, companion.url, companion.tokens["table"], TV)
        pages_of: dict[int | None, object] = {n: phones[n][1] for n in range(4)}
        pages_of[None] = table[1]
        secrets = Secrets(4)
        answered: set[int] = set()
        bids_while_secret = 0
        deadline = time.monotonic() + 200
        while True:
            assert time.monotonic() < deadline, "no auction after a peek:\n" + "".join(
                companion.output[-30:]
            )
            assert companion.proc.poll() is None, "".join(companion.output[-30:])
            secrets.follow(companion)
            kinds = secrets.kinds()
            peeked = "peeked" in kinds
            if peeked and "bids_revealed" in kinds[kinds.index("peeked") :]:
                break
            acted = False
            for seat in range(4):
                page = pages_of[seat]
                offer, actions, secret = offer_on(page)
                if offer is None or offer in answered:
                    continue
                kind, value = decide(actions, secret, seat, peeked)
                act(page, offer, kind, value)
                answered.add(offer)
                acted = True
                bids_while_secret += kind == "bid"
                time.sleep(0.05)
                secrets.follow(companion)
                for who, shown in pages_of.items():  # every page, right now
                    html, _ = shown.evaluate(SHOWN)
                    check(html, secrets, who, f"page {who}")
            if not acted:
                prompt = pages_of[0].evaluate("document.querySelector('p.prompt')?.innerText || ''")
                if "ROLL" in prompt:
                    pages_of[0].click('section.buttons button.press[data-button="roll"]')
                time.sleep(0.1)
        assert bids_while_secret >= 2
        # the peeker's own phone shows the card it saw; nobody else's does
        peek = next(e for e in secrets.events if e.kind == "peeked")
        peeker = pages_of[peek.private_to]
        peeker.wait_for_function("document.body.innerText.includes('peeked')")
        assert peek.data["card"] in peeker.inner_text("section.private")
        # every message the server pushed to every page
        secrets.follow(companion)
        for who, page in pages_of.items():
            pushed = page.evaluate("window.__pushed")
            assert any("main" in m for m in pushed), f"page {who} got no live update"
            for message in pushed:
                if "main" in message:
                    check(message["main"], secrets, who, f"push {message['seq']} to {who}")
            check(page.evaluate(SHOWN)[0], secrets, who, f"page {who} at the end")
        shots = screenshot_dir(tmp_path)  # docs/web when making the docs
        table[1].screenshot(path=str(shots / "spartacus-table.png"), full_page=True)
        peeker.screenshot(path=str(shots / "spartacus-phone.png"))
        assert peeker.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        for context, _ in (*phones, table):
            context.close()
    finally:
        companion.type("quit")
        companion.close()
