"""The pages process: the web view renders the pages in a process of its own (the web
server's event loop never waits behind a page), the same pages as rendered here, one round trip per
frame, each seat's part drawn from its own view only, and a process that dies costs
nothing but time."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal

from companion.dice import Roller
from companion.games.registry import get_game
from companion.web.hub import Offer, WebHub
from companion.web.pairing import HOST, TABLE, seat
from companion.web.site import Site, pages_process
from companion.worker import Worker

BUTTONS = ("roll", "confirm")


def spartacus_hub() -> WebHub:
    """A Spartacus table mid-game (secret hands), seat 0 asked something."""
    game = get_game("spartacus")
    state = game.new_game()
    bot, roller = game.bot(random.Random(5)), Roller.seeded(5)
    for _ in range(40):
        state.apply(
            roller.choose(state.chance_outcomes()) if state.is_chance_node else bot.choose(state)
        )
    hub = WebHub(game, state.config, state.players)
    hub.update(state, [])
    hub.offer(0, Offer(hub.new_offer_id(), "choose", actions=("pass",)))
    hub.message("hello")
    return hub


def roles(hub: WebHub):
    return [TABLE, HOST, *(seat(n) for n in range(hub.players))]


class CountingWorker(Worker):
    """A pages process that counts its round trips."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.submitted = 0

    def submit(self, fn, /, *args, **kwargs):
        self.submitted += 1
        return super().submit(fn, *args, **kwargs)


def counting_pages_process(hub: WebHub) -> CountingWorker:
    pages = pages_process(hub, BUTTONS)
    return CountingWorker(pages.name, pages.setup, pages.args)


async def every_page(site: Site, all_roles) -> list[tuple[int, str]]:
    return list(await asyncio.gather(*(site.main_async(r) for r in all_roles)))


def test_pages_rendered_in_the_pages_process_are_the_pages_rendered_here() -> None:
    hub = spartacus_hub()
    renderer = counting_pages_process(hub)
    away = Site(hub, buttons=BUTTONS, renderer=renderer)
    here = Site(hub, buttons=BUTTONS, pairing=away.pairing)  # the same codes on the host's
    try:
        assert renderer.run(os.getpid) != os.getpid()  # another process
        rendered = asyncio.run(every_page(away, roles(hub)))
        assert rendered == [here.main(r) for r in roles(hub)]
        # every page woken by a frame in one turn of the loop: one round trip
        assert renderer.submitted == 2  # the getpid above, then the frame
        # a seat's part is drawn from its own view: another seat's secrets never show
        parts = {r.key: main for r, (_, main) in zip(roles(hub), rendered, strict=True)}
        assert parts["seat-0"] != parts["seat-1"]
        assert "choose" in parts["seat-0"] and "choose" not in parts["seat-1"]
        # the same frame again: nothing to render
        asyncio.run(every_page(away, roles(hub)))
        assert renderer.submitted == 2
        # a new frame: one more round trip, and the pages follow it
        hub.message("again")
        rendered = asyncio.run(every_page(away, roles(hub)))
        assert renderer.submitted == 3
        assert all("again" in main for _, main in rendered)
        assert rendered == [here.main(r) for r in roles(hub)]
    finally:
        away.close()
    assert not renderer.running  # the site's close stops its pages process


def test_a_pages_process_that_dies_costs_only_time(caplog) -> None:
    hub = spartacus_hub()
    away = Site(hub, buttons=BUTTONS, renderer=pages_process(hub, BUTTONS))
    here = Site(hub, buttons=BUTTONS, pairing=away.pairing)
    try:
        assert away.renderer is not None
        os.kill(away.renderer.run(os.getpid), signal.SIGKILL)
        with caplog.at_level(logging.WARNING, logger="companion.worker"):
            rendered = asyncio.run(every_page(away, roles(hub)))
        assert rendered == [here.main(r) for r in roles(hub)]  # rendered here instead
        assert "web pages process failed" in caplog.text
        hub.message("later")
        assert all("later" in m for _, m in asyncio.run(every_page(away, roles(hub))))
    finally:
        away.close()


def test_a_page_that_goes_away_does_not_cancel_the_other_pages() -> None:
    hub = spartacus_hub()
    site = Site(hub, buttons=BUTTONS, renderer=pages_process(hub, BUTTONS))

    async def one_leaves() -> list[tuple[int, str]]:
        leaving = asyncio.ensure_future(site.main_async(seat(0)))
        staying = [asyncio.ensure_future(site.main_async(r)) for r in (TABLE, seat(1))]
        await asyncio.sleep(0)  # both asked in this turn: one round trip
        leaving.cancel()
        return list(await asyncio.gather(*staying))

    try:
        staying = asyncio.run(one_leaves())
        assert staying == [Site(hub, buttons=BUTTONS).main(r) for r in (TABLE, seat(1))]
    finally:
        site.close()
