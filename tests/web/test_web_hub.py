"""The hub, the seat agent and physical dice: phones choose only what legal_actions lists."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.dice import Roller
from companion.games.registry import get_game
from companion.table.people import UndoRequest
from companion.web import pages
from companion.web.agent import WebAgent, dice_entry, outcome_for
from companion.web.hub import Submission, WebHub
from companion.web.odds import public_odds


def spartacus_at(phase: str, seed: int = 3):
    game = get_game("spartacus")
    state = game.new_game()
    bot, roller = game.bot(random.Random(seed)), Roller.seeded(seed)
    while not (state.phase == phase and not state.is_chance_node):
        state.apply(
            roller.choose(state.chance_outcomes()) if state.is_chance_node else bot.choose(state)
        )
    return game, state


def bidder_choosing(undoable: int):
    """A Spartacus seat about to bid, choosing on its phone."""
    game, state = spartacus_at("bid")
    seat = state.current_player
    hub = WebHub(game, state.config, state.players)
    hub.update(state, [])
    thread, result = start_choosing(WebAgent(hub, seat, undoable=lambda: undoable), state)
    return hub, state, seat, thread, result


def start_choosing(agent, state):
    """The agent choosing on a thread of its own (as on the table's), once it has offered."""
    result = {}
    thread = threading.Thread(
        target=lambda: result.update(a=agent.choose(state, state.legal_actions()))
    )
    thread.start()
    while agent.hub.current_offer(agent.seat) is None:
        pass
    return thread, result


def test_frames_are_numbered_and_hold_each_seats_view():
    game, state = spartacus_at("bid")
    hub = WebHub(game, state.config, state.players)
    assert hub.frame is None
    hub.update(state, [])
    first = hub.frame
    hub.message("hello")
    assert hub.frame.seq > first.seq
    for s in range(state.players):
        assert hub.frame.view(s) == game.view(state, s)
    assert "gold" not in hub.frame.view(None)["public"]  # hidden while bidding


def test_the_agent_takes_only_a_legal_notation_of_its_present_offer():
    hub, state, seat, thread, result = bidder_choosing(undoable=0)
    offer = hub.current_offer(seat)
    assert offer.secret and offer.actions[0] == "bid 0"
    assert not hub.submit(Submission(seat, offer.id + 1, "action", "bid 0"))  # stale offer
    assert hub.submit(Submission(seat, offer.id, "action", "bid 999"))  # not legal: refused
    while seat not in hub.frame.notes:
        pass
    assert "not one of your choices" in hub.frame.notes[seat]
    assert hub.submit(Submission(seat, offer.id, "action", "bid 1"))
    thread.join(5)
    assert result["a"] in state.legal_actions() and result["a"].notation == "bid 1"
    assert hub.current_offer(seat) is None


def test_undo_from_a_phone_is_an_undo_request():
    hub, state, seat, thread, out = bidder_choosing(undoable=2)
    assert hub.current_offer(seat).undo == 2
    hub.submit(Submission(seat, hub.current_offer(seat).id, "undo", count=2))
    thread.join(5)
    assert isinstance(out["a"], UndoRequest) and out["a"].count == 2


@pytest.mark.parametrize("name", ["battle-royale", "gladiatoren", "skirmish", "spartacus"])
def test_physical_dice_are_one_of_the_chance_nodes_own_outcomes(name):
    game = get_game(name)
    state = game.new_game()
    bot, roller = game.bot(random.Random(5)), Roller.seeded(5)
    checked = 0
    for _ in range(3000):
        if state.is_terminal:
            break
        if state.is_chance_node:
            outcomes = state.chance_outcomes()
            if any(hasattr(outcomes[0][0], f) for f in ("face", "faces", "counts")):
                entry = dice_entry(outcomes, "your dice")
                action = roller.choose(outcomes)
                if entry.outcomes:
                    sub = Submission(0, 1, "dice", text=action.notation)
                else:
                    sub = Submission(0, 1, "dice", faces=tuple(reversed(action.faces)))
                assert outcome_for(outcomes, sub) == action
                checked += 1
            state.apply(roller.choose(outcomes))
        else:
            state.apply(bot.choose(state))
    assert checked > 0
    assert outcome_for(outcomes, Submission(0, 1, "dice", text="nonsense")) is None


@pytest.mark.parametrize("name", ["battle-royale", "gladiatoren", "skirmish", "spartacus"])
def test_every_page_renders_over_a_whole_game(name):
    """The table screen and every phone render at every step of a random game, and the
    table screen never shows a chance node's outcomes that are not dice."""
    game = get_game(name)
    state = game.new_game()
    hub = WebHub(game, state.config, state.players, extras=public_odds)
    bot, roller = game.bot(random.Random(2)), Roller.seeded(2)
    steps = 0
    while not state.is_terminal and steps < 400:
        action = (
            roller.choose(state.chance_outcomes()) if state.is_chance_node else bot.choose(state)
        )
        hub.update(state, state.apply(action))
        frame = hub.frame
        html = pages.table_main(frame, game, state.config, game.title)
        assert "<svg" in html
        for s in range(state.players):
            assert "<svg" in pages.seat_main(frame, s, game, state.config, game.title, ())
        for _title, rows in frame.extras.get("odds", ()):
            assert not any("peek" in k or "draw" in k for k, _ in rows)
        steps += 1


def test_assist_mode_board_renders():
    from companion.games.battle_royale import BattleRoyaleConfig
    from companion.games.battle_royale.assist import ASSIST, new_assist_game

    state = new_assist_game(BattleRoyaleConfig())
    hub = WebHub(ASSIST, state.config, state.players)
    roller = Roller.seeded(1)
    for _ in range(30):
        if state.is_chance_node:
            action = roller.choose(state.chance_outcomes())
        else:
            action = state.legal_actions()[0]
        hub.update(state, state.apply(action))
        assert "Battle Royale arena" in pages.table_main(hub.frame, ASSIST, state.config, "BR")


@pytest.mark.slow
def test_nothing_of_the_web_is_imported_without_web():
    """The companion's commands and the table import no web module and no web stack."""
    code = (
        "import sys, companion.cli, companion.commands.play, companion.commands.serve, "
        "companion.commands.spartacus, companion.table.loop, companion.table.assist\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('starlette', 'uvicorn', 'segno', 'anyio', 'h11') or m.startswith('companion.web')]\n"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_why_the_table_refused_an_answer_stays_with_the_question_asked_again():
    """Found by a newcomer: a refused undo ("solonius may undo it first") reached the phone
    as the same question asked again, the reason on the terminal only: the new offer
    dropped the note the refusal had just set."""
    hub, state, seat, thread, result = bidder_choosing(undoable=1)
    offer = hub.current_offer(seat)
    assert hub.submit(Submission(seat, offer.id, "undo", count=1))
    thread.join(5)
    assert isinstance(result["a"], UndoRequest) and hub.current_offer(seat) is None
    hub.seat_message("that would take back batiatus's move too: batiatus may undo it first", seat)
    thread, result = start_choosing(WebAgent(hub, seat, undoable=lambda: 1), state)
    assert "may undo it first" in hub.frame.notes[seat]  # shown with the question again
    for other in range(state.players):
        if other != seat:
            assert other not in hub.frame.notes  # its seat's only
    again = hub.current_offer(seat)
    assert hub.submit(Submission(seat, again.id, "action", "bid 1"))
    thread.join(5)
    thread, result = start_choosing(WebAgent(hub, seat, undoable=lambda: 0), state)
    assert seat not in hub.frame.notes  # the next question: old news
    # a note while a question is up (a choice refused on the spot) goes with that question
    now = hub.current_offer(seat)
    hub.note(seat, "'bid 999' is not one of your choices now")
    assert hub.submit(Submission(seat, now.id, "action", "bid 1"))
    thread.join(5)
    thread, result = start_choosing(WebAgent(hub, seat, undoable=lambda: 0), state)
    assert seat not in hub.frame.notes
    hub.submit(Submission(seat, hub.current_offer(seat).id, "action", "bid 1"))
    thread.join(5)


def test_the_header_names_the_house_whose_roll_the_table_asks_for():
    """Found by a newcomer: the header said `turn: B batiatus (dice)` while the table asked
    solonius to press ROLL (a guard's roll, a roll-off: the house rolling is not the house
    whose turn it is). The header names the house the table's ROLL prompt names."""
    from companion.table.loop import adapter_for

    game = get_game("spartacus")
    adapter = adapter_for("spartacus")
    state = game.new_game(game.config(players=3))
    hub = WebHub(game, state.config, state.players)
    bot, roller = game.bot(random.Random(1)), Roller.seeded(1)
    checked = 0
    while not state.is_terminal and checked < 3:
        ask = adapter.dice(state) if state.is_chance_node else None
        if ask is not None and ask.seat != state.active:
            hub.update(state, [])
            asked = state.seat_name(ask.seat)
            for html in (
                pages.table_main(hub.frame, game, state.config, "t"),
                pages.seat_main(hub.frame, ask.seat, game, state.config, "t", ()),
            ):
                turn = html.split('<p class="turn">')[1].split("</p>")[0]
                assert f"</span> {asked} (dice)" in turn, (turn, ask.what)
            checked += 1
        state.apply(
            roller.choose(state.chance_outcomes()) if state.is_chance_node else bot.choose(state)
        )
    assert checked == 3, "the game had no roll by a house other than the active one"


def test_a_phone_offers_every_challenge_naming_who_acts_for_the_animal():
    """Rule 6a on a phone: the terminal lists each Kampf der Gladiatoren challenge once (the
    ones naming a fellow player to act for the animal are typed or found under '?'); a
    phone cannot type, so it offers them all."""
    sys.path.insert(0, str(Path(__file__).parents[1] / "gladiatoren"))
    from kdg_helpers import position_game, team

    from companion.table.loop import adapter_for

    teams = [team("R sword", "E"), team("Y sword", "Q"), team("B sword", "O")]
    lion = [{"animal": "lion", "field": "F", "stars": 0}]
    state = position_game(teams, lion, players=3)
    hub = WebHub(get_game("gladiatoren"), state.config, state.players)
    hub.update(state, [])
    seat = state.current_player
    thread, _ = start_choosing(WebAgent(hub, seat, adapter=adapter_for("gladiatoren")), state)
    offer = hub.current_offer(seat)
    try:
        proxies = {a.notation for a in state.legal_actions() if " for " in a.notation}
        assert proxies and proxies <= set(offer.actions)
        # a button reads as the terminal names it, by colour, and sends the notation
        labels = dict(offer.labels)
        assert set(labels) == proxies
        notation = sorted(proxies)[0]
        seat_number = int(notation.rsplit(" ", 1)[1])
        named = notation.rsplit(" ", 1)[0] + " " + state.seat_name(seat_number)
        assert labels[notation] == named
        box = pages.offer_box(offer, ())
        assert f'data-text="{notation}">{named}</button>' in box
    finally:  # the phone answers, so the choosing thread ends either way
        hub.submit(Submission(seat, offer.id, "action", offer.actions[0]))
        thread.join(5)


def test_an_empty_private_entry_still_shows_its_row():
    """A house with no cards still reads 'hand —' in its box (an empty dict is no list of
    card texts)."""
    box = pages.private_box({"hand": {}, "peeked": []})
    assert "<dt>hand</dt><dd>—</dd>" in box and "<dt>peeked</dt><dd>—</dd>" in box
