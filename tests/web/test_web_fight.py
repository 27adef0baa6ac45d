"""``companion spartacus fight --web``: the combat assistant's fighters on phones.

A fight has hidden information: each fighter with a net declares in secret whether it
throws it this round (ruling C2a: nothing is revealed until both have declared). Both
fighters are played from their phones in a real browser, with nets; a fighter's net
question is on its own phone only (every page's DOM and every message pushed to it)."""

from __future__ import annotations

import random
import time

import pytest
from browser import PHONE, TV, offer_id, open_page, press, shown, tap
from web_helpers import Companion

pytestmark = pytest.mark.slow
playwright_api = pytest.importorskip("playwright.sync_api")

SEEN = "document.documentElement.outerHTML + JSON.stringify(window.__pushed || [])"


@pytest.mark.timeout(240)
def test_a_fight_played_from_two_phones_with_secret_nets(browser, tmp_path):
    companion = Companion(
        "spartacus",
        "fight",
        "-1",
        "Weak=1/1/1+netz",
        "-2",
        "Strong=6/6/3+netz",
        "--web",
        "127.0.0.1:0",
        "--phone-seats",
        "all",
        "--seed",
        "2",
        "--hardware",
        "sim",
        journal=tmp_path / "fight.jsonl",
    )
    assert set(companion.tokens) == {"table", "host", "seat-0", "seat-1"}
    rng = random.Random(2)
    phones = [
        open_page(browser, companion.url, companion.tokens[f"seat-{n}"], PHONE) for n in (0, 1)
    ]
    tv_context, tv = open_page(browser, companion.url, companion.tokens["table"], TV)
    nets = [0, 0]  # net questions seen on each phone
    try:
        deadline = time.monotonic() + 180
        while companion.proc.poll() is None:
            assert time.monotonic() < deadline, "the fight did not end"
            acted = False
            for n, (_, page) in enumerate(phones):
                if offer_id(page) is not None:
                    if page.locator('button.act[data-text^="net "]').count():
                        nets[n] += 1
                    tap(page, rng)
                    acted = True
            prompt, seq = shown(tv)
            if not acted and "press ROLL" in prompt:
                press(phones[rng.randrange(2)][1], "roll")
                try:
                    tv.wait_for_function(
                        f"Number(document.getElementById('main').dataset.seq) > {seq}",
                        timeout=15000,
                    )
                except playwright_api.TimeoutError:
                    raise AssertionError(
                        f"ROLL was never taken (pressed at frame {seq}, prompt {prompt!r}; "
                        f"the TV is at {shown(tv)}); the fight's last output:\n"
                        + "".join(companion.output[-40:])
                    ) from None
            elif not acted:
                time.sleep(0.02)
        assert companion.close() == 0, "".join(companion.output[-30:])
        assert companion.records("end"), "the journal has no end record"
        kinds = [r["action"]["kind"] for r in companion.records("action")]
        assert nets[0] and nets[1] and kinds.count("net") >= 2
        # a fighter's net question never reached another page
        sides = ("I", "II")
        for n, (_, page) in enumerate(phones):
            seen = page.evaluate(SEEN)
            assert f'data-text="net {sides[1 - n]} ' not in seen
        assert 'data-text="net ' not in tv.evaluate(SEEN)
    finally:
        companion.close()
        for context, _ in (*phones, (tv_context, tv)):
            context.close()
