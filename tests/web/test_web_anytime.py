"""Plays out of turn from a phone the table does not ask for (issue 16): while the table
waits for one house (on its phone, or at the terminal), every other phone house sees its
own plays out of turn (a guard laid, gold given) in a section of its own; a tap ends the
wait, the play is journalled as the typed one, and the house asked is asked again.

The table is the rulebook's upkeep example (``tests/spartacus/spx_helpers``): Sally
(solonius) is asked to pay her upkeep; Pete (batiatus) holds a guard (Wache)."""

from __future__ import annotations

import io
import os
import threading

import pytest
from test_web_out_of_turn import (
    JOHN,
    LIZ,
    PETE,
    SALLY,
    Pays,
    Silent,
    action_records,
    close_all,
    main_of,
    never_shown,
    open_pages,
    post,
    pushed_and_dom,
    spartacus_table,
    until,
)

from companion.games.registry import get_game
from companion.games.spartacus import actions as A
from companion.table.loop import Observers
from companion.table.people import TerminalInput
from companion.table.spartacus_table import SpartacusAdapter, terminal_agent
from companion.web.anytime import LATE, PhonePlays
from companion.web.attach import WebRequest, attach_web
from companion.web.hub import Submission, WebHub
from companion.web.pairing import TABLE, seat

GUARD = "post-guard wache batiatus"


def phones(tmp_path, seats, agents=None):
    """The example with ``seats`` on phones (a real server), nothing stepped yet."""
    agents = agents or {s: Pays() for s in range(4)}
    loop, _ = spartacus_table(tmp_path, agents, Silent())
    request_ = WebRequest("127.0.0.1:0", frozenset(seats))
    web = attach_web(request_, get_game("spartacus"), loop.state.config, 4, hw=loop.hw, hints=False)
    web.plug(loop)
    loop.view.update(loop.state, [])
    return web, loop


def stepping(loop) -> threading.Thread:
    thread = threading.Thread(target=loop.step, daemon=True)
    thread.start()
    return thread


def test_a_phone_lays_a_guard_while_another_phone_is_asked(tmp_path):
    web, loop = phones(tmp_path, {PETE, SALLY, JOHN})
    try:
        step = stepping(loop)
        asked = until(lambda: web.hub.current_offer(SALLY))
        pete = until(lambda: web.hub.anytime_offer(PETE))
        # Pete's own plays, from the engine: his guard and gold he gives, nothing else
        assert GUARD in pete.actions
        assert {a.split()[0] for a in pete.actions} == {"post-guard", "gold"}
        assert all(a.startswith("gold batiatus ") for a in pete.actions if a != GUARD)
        assert web.hub.anytime_offer(SALLY) is None  # the house asked has its own offer
        john = web.hub.anytime_offer(JOHN)
        assert john is not None and not any("wache" in a for a in john.actions)
        assert all(a.startswith("gold glaber ") for a in john.actions)
        # hidden: no other page shows Pete's plays (his guard, his gold)
        for role in (TABLE, seat(SALLY), seat(JOHN), seat(LIZ)):
            page = main_of(web, role)
            assert "post-guard" not in page and "gold batiatus" not in page, role
        assert GUARD in main_of(web, seat(PETE))
        assert 'section class="anytime"' in main_of(web, seat(PETE))
        assert post(web, PETE, {"offer": pete.id, "kind": "anytime", "text": GUARD}) == 200
        step.join(10)
        assert not step.is_alive()
        assert loop.state.history[-1] == A.PostGuard("wache", "batiatus")
        assert web.hub.anytime_offer(PETE) is None  # withdrawn as the table moved on
        # the old offer again: refused at once, never applied to the new state
        assert post(web, PETE, {"offer": pete.id, "kind": "anytime", "text": GUARD}) == 409
        # the guard opened a reaction's moment (John is asked, passes); then Sally is
        # asked again, with a new question, and Pete's guard is no longer his to lay
        step = stepping(loop)
        john_asked = until(lambda: web.hub.current_offer(JOHN))
        assert post(web, JOHN, {"offer": john_asked.id, "kind": "pass"}) == 200
        again = until(lambda: web.hub.current_offer(SALLY))
        assert again.id != asked.id and "pay" in again.actions
        assert GUARD not in until(lambda: web.hub.anytime_offer(PETE)).actions
        assert post(web, SALLY, {"offer": again.id, "kind": "action", "text": "pay"}) == 200
        step.join(10)
        assert isinstance(loop.state.history[-1], A.PayUpkeep)
        guards = [r for r in action_records(tmp_path / "game.jsonl") if r["kind"] == "post-guard"]
        assert len(guards) == 1
    finally:
        web.close()
        loop.hw.close()


def test_a_phones_play_out_of_turn_is_the_same_journalled_action_as_a_typed_one(tmp_path):
    web, loop = phones(tmp_path / "phone", {PETE, SALLY})
    try:
        step = stepping(loop)
        until(lambda: web.hub.current_offer(SALLY))
        pete = until(lambda: web.hub.anytime_offer(PETE))
        assert post(web, PETE, {"offer": pete.id, "kind": "anytime", "text": GUARD}) == 200
        step.join(10)
    finally:
        web.close()
        loop.hw.close()
    # at the terminal: while Sally is asked, Pete types his play with his house's name
    (tmp_path / "typed").mkdir()
    terminal = TerminalInput(io.StringIO(GUARD + "\n"))
    person = terminal_agent(Observers([Silent()]), terminal)
    typed, _ = spartacus_table(tmp_path / "typed", {PETE: Pays(), SALLY: person}, Silent())
    typed.terminal = terminal
    with typed.hw:
        typed.step()
    phone = action_records(tmp_path / "phone" / "game.jsonl")
    assert phone == action_records(tmp_path / "typed" / "game.jsonl")
    assert [a["kind"] for a in phone] == ["post-guard"]


def test_a_phone_gives_gold_while_a_person_at_the_terminal_is_asked(tmp_path):
    """The terminal's wait (nobody typing) wakes for the phone's play; gold is offered
    on the giver's phone only."""
    read, write = os.pipe()
    terminal = TerminalInput(os.fdopen(read))
    person = terminal_agent(Observers([Silent()]), terminal)
    agents = {PETE: Pays(), SALLY: person, JOHN: Pays(), LIZ: Pays()}
    web, loop = phones(tmp_path, {PETE, JOHN}, agents)
    loop.terminal = terminal
    try:
        step = stepping(loop)
        pete = until(lambda: web.hub.anytime_offer(PETE))
        give = "gold batiatus solonius 3"
        assert give in pete.actions
        assert give not in main_of(web, seat(JOHN)) and give not in main_of(web, TABLE)
        assert post(web, PETE, {"offer": pete.id, "kind": "anytime", "text": give}) == 200
        step.join(10)
        assert not step.is_alive()
        assert loop.state.history[-1] == A.GiveGold("batiatus", "solonius", 3)
    finally:
        os.close(write)
        web.close()
        loop.hw.close()


def test_a_play_for_an_old_state_is_refused_and_its_seat_told(tmp_path):
    web, loop = phones(tmp_path, set())
    hub: WebHub = web.hub
    plays = PhonePlays(hub, {PETE, JOHN}, SpartacusAdapter().out_of_turn_actions)
    try:
        plays.open(loop.state, SALLY)
        offer = hub.anytime_offer(PETE)
        assert offer is not None and hub.anytime_offer(SALLY) is None
        # a tap with something not offered is queued but not taken
        assert hub.submit(Submission(PETE, offer.id, "anytime", "pay"))
        assert plays.take(loop.state) is None
        assert "not one of your plays" in hub.frame.notes[PETE]
        # a tap queued as the table moves on (the decision closed): dropped, Pete told
        assert hub.submit(Submission(PETE, offer.id, "anytime", GUARD))
        plays.close()
        assert hub.frame.notes[PETE] == LATE
        assert not hub.submit(Submission(PETE, offer.id, "anytime", GUARD))  # withdrawn
        # offered for one state, taken only for that state
        plays.open(loop.state, SALLY)
        offer = hub.anytime_offer(PETE)
        assert hub.submit(Submission(PETE, offer.id, "anytime", GUARD))
        loop.session.commit(A.PayUpkeep())
        loop.session.apply(A.PayUpkeep())
        assert plays.take(loop.state) is None
        assert hub.frame.notes[PETE] == LATE
        assert A.PostGuard("wache", "batiatus") not in loop.state.history
    finally:
        web.close()
        loop.hw.close()


def test_other_games_and_the_seat_asked_have_no_plays_out_of_turn(tmp_path):
    web, loop = phones(tmp_path, {PETE, SALLY})
    try:
        assert SpartacusAdapter().out_of_turn_actions(loop.state, SALLY) == []
        plays = SpartacusAdapter().out_of_turn_actions(loop.state, PETE)
        assert plays and not any(a.is_correction and not isinstance(a, A.GiveGold) for a in plays)
        from companion.table.battle_royale_table import BattleRoyaleAdapter

        assert not hasattr(BattleRoyaleAdapter(), "out_of_turn_actions")
    finally:
        web.close()
        loop.hw.close()


pytest.importorskip("playwright.sync_api")


@pytest.mark.slow
def test_a_guard_laid_from_a_phone_while_another_phone_is_asked_in_a_browser(browser, tmp_path):
    """Pete lays his guard from his phone's "out of turn" section while Sally's phone is
    asked; it is journalled; no other page (DOM or pushed message) shows Pete's plays."""
    web, loop = phones(tmp_path, {PETE, SALLY, JOHN})
    pages = {}
    try:
        open_pages(browser, web, pages)
        step = stepping(loop)
        pete, sally = pages["seat-0"][1], pages["seat-1"][1]
        sally.wait_for_selector('section.offer button.act[data-text="pay"]', timeout=15000)
        button = f'section.anytime button.act[data-kind="anytime"][data-text="{GUARD}"]'
        pete.wait_for_selector(button, timeout=15000)
        assert "out of turn" in pete.inner_text("section.anytime h2")
        pete.click(button)
        step.join(15)
        assert not step.is_alive()
        assert loop.state.history[-1] == A.PostGuard("wache", "batiatus")
        kinds = [r["kind"] for r in action_records(tmp_path / "game.jsonl")]
        assert kinds == ["post-guard"]
        pete.wait_for_selector("section.anytime", state="detached", timeout=15000)
        step = stepping(loop)  # John asked at the moment the guard opened; he passes
        john = pages["seat-2"][1]
        john.wait_for_selector("section.offer button.act.pass", timeout=15000)
        john.click("section.offer button.act.pass")
        sally.wait_for_selector('section.offer button.act[data-text="pay"]', timeout=15000)
        sally.click('section.offer button.act[data-text="pay"]')
        step.join(15)
        never_shown(pages, ("table", "seat-1", "seat-2", "seat-3"), "post-guard", "gold batiatus")
        assert GUARD in pushed_and_dom(pete)
    finally:
        close_all(pages, web, loop)
