"""What a phone seat is offered and told: only its own actions (never another house's
out-of-turn plays, which show that house's hand), its hint (on its page only, for its
present question only), and a secret bid's prompt typed at the terminal kept off the
table screen."""

from __future__ import annotations

import io
import random
import time

from test_web_hub import spartacus_at, start_choosing

from companion.dice import Roller
from companion.games.registry import get_game
from companion.table.loop import adapter_for
from companion.table.people import TerminalAgent, TerminalInput
from companion.table.session import GameSession, SessionSettings
from companion.web import pages
from companion.web.agent import WebAgent
from companion.web.hints import THINKING, Hints
from companion.web.hub import Submission, WebHub


def spartacus_with_others_plays(seed: int = 3):
    """A Spartacus state where legal_actions() lists other houses' plays (a guard on the
    table, gold given) besides the seat asked."""
    game = get_game("spartacus")
    state = game.new_game()
    bot, roller = game.bot(random.Random(seed)), Roller.seeded(seed)
    while True:
        if state.is_chance_node:
            state.apply(roller.choose(state.chance_outcomes()))
            continue
        if any(state.actor(a) != state.current_player for a in state.legal_actions()):
            return game, state
        state.apply(bot.choose(state))


def test_a_phone_is_offered_its_own_actions_only():
    game, state = spartacus_with_others_plays()
    seat = state.current_player
    hub = WebHub(game, state.config, state.players)
    hub.update(state, [])
    own = adapter_for("spartacus").own_actions
    thread, result = start_choosing(WebAgent(hub, seat, own_actions=own), state)
    offer = hub.current_offer(seat)
    mine = {a.notation for a in state.legal_actions_for(seat)}
    others = {a.notation for a in state.legal_actions()} - mine
    assert others, "the state lists other houses' plays"
    assert set(offer.actions) | set(offer.corrections) == mine
    html = pages.seat_main(hub.frame, seat, game, state.config, "t", ())
    for notation in others:
        assert f'data-text="{notation}"' not in html
    # another house's play sent from this phone is not one of its choices
    assert hub.submit(Submission(seat, offer.id, "action", sorted(others)[0]))
    while seat not in hub.frame.notes:
        time.sleep(0.01)
    assert "not one of your choices" in hub.frame.notes[seat]
    hub.submit(Submission(seat, offer.id, "action", offer.actions[0]))
    thread.join(5)
    assert state.actor(result["a"]) == seat


def gladiatoren_with_hints(set_up: bool = False):
    """A Kampf der Gladiatoren table at its first turn's choice (``set_up``: its first
    choice, a team's entry), hints on (easy level), its session journalling hints:
    ``(game, state, seat, hub, hints)``."""
    game = get_game("gladiatoren")
    state = game.new_game(game.config(players=3))
    roller = Roller.seeded(2)
    rng = random.Random(2)
    while state.is_chance_node or not (set_up or state.phase == "turn"):
        if state.is_chance_node:
            state.apply(roller.choose(state.chance_outcomes()))
        else:
            state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player
    hub = WebHub(game, state.config, state.players)
    hub.update(state, [])
    hints = Hints(hub, "gladiatoren", level="easy")
    hints.session = GameSession(state, state.config, SessionSettings(game="gladiatoren"))
    return game, state, seat, hub, hints


def test_a_hint_is_its_seats_own_and_only_for_its_present_question():
    game, state, seat, hub, hints = gladiatoren_with_hints()
    agent = WebAgent(hub, seat, hints=hints)
    thread, result = start_choosing(agent, state)
    offer = hub.current_offer(seat)
    assert offer.hint
    history = list(state.history)
    hub.submit(Submission(seat, offer.id, "hint"))
    deadline = time.monotonic() + 30
    while hub.frame.hints.get(seat) in (None, THINKING):
        assert time.monotonic() < deadline, "no hint came"
        time.sleep(0.01)
    text = hub.frame.hints[seat]
    notation = text.removeprefix("hint: ").split(" (")[0]
    assert text.startswith("hint: ") and notation in offer.actions
    assert list(state.history) == history  # searched on a copy: the table's state untouched
    # journalled as shown, once, before it was shown; never as an action
    (record,) = hints.session.hints
    assert record["seat"] == seat and record["shown"]["notation"] == notation
    assert record["level"] == "easy" and record["actions"] == len(history)
    frame = hub.frame
    assert text in pages.seat_main(frame, seat, game, state.config, "t", ())
    for other in (s for s in range(state.players) if s != seat):
        assert "hint" not in pages.seat_main(frame, other, game, state.config, "t", ())
    assert "hint" not in pages.table_main(frame, game, state.config, "t")
    hub.submit(Submission(seat, offer.id, "action", offer.actions[0]))
    thread.join(5)
    assert seat not in hub.frame.hints  # the question is over: so is its hint
    assert not hub.hint(seat, offer.id, "late")  # a search that ends afterwards is dropped


def test_no_hint_search_during_the_gladiatoren_set_up_the_phone_is_told_why():
    """As at the terminal: the search is blind in the set-up (it named the first entry)."""
    game, state, seat, hub, hints = gladiatoren_with_hints(set_up=True)
    thread, _ = start_choosing(WebAgent(hub, seat, hints=hints), state)
    offer = hub.current_offer(seat)
    assert hints.ask(state, seat, offer.id)
    assert hints.threads == []  # nothing searched
    assert hub.frame.hints[seat].startswith("no hint: the set-up is beyond the search")
    assert hints.session.hints == []  # nothing shown that a replay should list
    hub.submit(Submission(seat, offer.id, "action", offer.actions[0]))
    thread.join(5)


def test_a_hint_answered_too_late_is_neither_shown_nor_journalled():
    game, state, seat, hub, hints = gladiatoren_with_hints()
    thread, _ = start_choosing(WebAgent(hub, seat, hints=hints), state)
    offer = hub.current_offer(seat)
    assert hints.ask(state, seat, offer.id)
    assert not hints.ask(state, seat, offer.id)  # one search per seat at a time
    hub.submit(Submission(seat, offer.id, "action", offer.actions[0]))
    thread.join(5)
    for search in hints.threads:
        search.join(30)
    assert hints.deliver() == 0  # its question is over
    assert hints.session.hints == [] and seat not in hub.frame.hints


def test_a_secret_bid_typed_at_the_terminal_is_asked_on_its_seats_page_only():
    game, state = spartacus_at("bid")
    seat = state.current_player
    hub = WebHub(game, state.config, state.players)
    hub.update(state, [])
    terminal = TerminalInput(io.StringIO("2\n"))
    agent = TerminalAgent(terminal, hub, adapter=adapter_for("spartacus"))
    action = agent.choose(state, state.legal_actions())
    assert action.notation == "bid 2"
    room = max(a.amount for a in state.legal_actions_for(seat) if a.kind == "bid")
    assert f"0..{room} gold" in hub.frame.notes[seat]
    assert "gold" not in hub.frame.prompt


def test_the_start_line_counts_the_phone_seats():
    from companion.commands.at_table import who_plays

    assert who_plays(3, 1, 2) == "1 at the terminal, 2 on phones, 1 bot"
    assert who_plays(4, 0, 4) == "4 on phones, no bots"
    assert who_plays(1, 2, 1) == "1 on phone, 2 bots"
    assert who_plays(2, 1) == "2 at the terminal, 1 bot"  # no phones: as before


def test_a_secret_bid_is_typed_in_its_field_even_with_a_guard_to_post_beside_it():
    """Found by a newcomer: a house that could also post a guard got thirteen 'bid 0' ..
    'bid 12' buttons instead of the field the docs promise (every action had to be a bid)."""
    from companion.web.hub import Offer
    from companion.web.pages import _secret_form

    offer = Offer(
        id=3,
        prompt="your bid",
        actions=(*(f"bid {n}" for n in range(13)), "post-guard wache"),
        secret=True,
    )
    html = _secret_form(offer)
    assert 'form class="secret"' in html and 'max="12"' in html
    assert 'data-text="bid 0"' not in html  # no button per amount
    assert 'data-text="post-guard wache"' in html  # the guard stays a button
    net = Offer(id=4, prompt="net?", actions=("net I yes", "net I no"), secret=True)
    assert "form" not in _secret_form(net) and 'data-text="net I yes"' in _secret_form(net)


def test_a_yes_no_column_reads_yes_not_true():
    """Found by a newcomer: Spartacus's 'bid in' column showed 'True' or nothing."""
    from companion.web.pages import players_box

    html = players_box("spartacus", {"bids_entered": [True, False]}, ["batiatus", "solonius"])
    assert "True" not in html and "False" not in html
    assert html.count("<td>yes</td>") == 1 and "<th>bid in</th>" in html


def test_a_question_outside_ones_turn_is_not_titled_your_turn():
    """Found on the phones: every question was titled "your turn", a scheme's answer, a
    net, a reroll too. The title names the phase; the badge says "your choice"."""
    game = get_game("spartacus")
    state = game.new_game(game.config(players=3))
    bot, roller = game.bot(random.Random(5)), Roller.seeded(5)
    while state.phase != "scheme_response":
        if state.is_chance_node:
            state.apply(roller.choose(state.chance_outcomes()))
        else:
            state.apply(bot.choose(state))
    seat = state.current_player
    hub = WebHub(game, state.config, state.players)
    hub.update(state, [])
    own = adapter_for("spartacus").own_actions
    thread, result = start_choosing(WebAgent(hub, seat, own_actions=own), state)
    offer = hub.current_offer(seat)
    try:
        html = pages.seat_main(hub.frame, seat, game, state.config, "t", ())
    finally:  # answered whatever the page shows: the choosing thread ends
        hub.submit(Submission(seat, offer.id, "action", offer.actions[0]))
        thread.join(5)
    assert "your turn" not in html
    assert '<b class="yourturn">your choice</b>' in html
    assert "<h2>scheme response: your choice</h2>" in html
    assert result["a"].notation == offer.actions[0]


def spartacus_scheme_with_supporters(players: int = 4, seed: int = 1):
    """A Spartacus house at its intrigue turn that may play a scheme with many sets of
    supporters (more than a phone's fold should hold)."""
    game = get_game("spartacus")
    state = game.new_game(game.config(players=players))
    bot, roller = game.bot(random.Random(seed)), Roller.seeded(seed)
    while True:
        if state.is_chance_node:
            state.apply(roller.choose(state.chance_outcomes()))
            continue
        if state.phase == "intrigue_turn":
            mine = state.legal_actions_for(state.current_player)
            if sum(a.kind == "scheme" for a in mine) > pages.GROUP_OVER:
                return game, state
        state.apply(bot.choose(state))


def test_a_phone_lists_each_scheme_once_and_chooses_supporters_step_by_step():
    """Found by a newcomer with 4 houses: one fold read `scheme (64)` and, opened, the page
    was 6221 px tall (every scheme with every set of supporters). As at the terminal, each
    scheme is listed once, and supporters are chosen step by step (the engine's menu)."""
    game, state = spartacus_scheme_with_supporters()
    seat = state.current_player
    schemes = [a for a in state.legal_actions_for(seat) if a.kind == "scheme"]
    wanted = max(schemes, key=lambda a: len(a.supporters))  # the most supporters
    hub = WebHub(game, state.config, state.players)
    hub.update(state, [])
    agent = WebAgent(hub, seat, adapter=adapter_for("spartacus"))
    thread, result = start_choosing(agent, state)
    offer = hub.current_offer(seat)
    html = pages.seat_main(hub.frame, seat, game, state.config, "t", ())
    listed = [a for a in offer.actions if a.startswith("scheme ")]
    assert len(listed) == len({(a.card, a.target) for a in schemes}) < len(schemes)
    assert all("+" not in a for a in listed)
    assert html.count('data-text="scheme ') == len(listed)
    assert offer.steps == ("scheme",) and 'data-kind="step" data-text="scheme"' in html
    hub.submit(Submission(seat, offer.id, "step", "scheme"))
    offer = next_offer(hub, seat, offer.id, thread)
    hub.submit(Submission(seat, offer.id, "back"))  # back: the whole question again
    offer = next_offer(hub, seat, offer.id, thread)
    assert offer.steps == ("scheme",) and not offer.back and offer.actions[: len(listed)]
    hub.submit(Submission(seat, offer.id, "step", "scheme"))
    taps = 1
    while (offer := next_offer(hub, seat, offer.id, thread)) is not None:
        # step by step: each question a few buttons and "back", no fold; the last one the
        # schemes left (each set of supporters of one card on one target)
        assert offer.back and len(offer.actions) <= 12, offer
        page = pages.seat_main(hub.frame, seat, game, state.config, "t", ())
        question = page.split('<section class="offer"')[1].split("</section>")[0]
        assert "<details>" not in question and 'data-kind="back"' in question
        pick = [a for a in offer.actions if a == wanted.notation or a in wanted.notation.split()]
        assert pick, (offer.prompt, offer.actions)
        hub.submit(Submission(seat, offer.id, "action", pick[0]))
        taps += 1
    thread.join(5)
    assert result["a"] == wanted and taps <= 4


def next_offer(hub, seat: int, old: int, thread):
    """The seat's next question after offer ``old``, or ``None`` once its agent chose."""
    while thread.is_alive():
        offer = hub.current_offer(seat)
        if offer is not None and offer.id != old:
            return offer
        time.sleep(0.01)
    return None


def test_a_phone_shows_what_its_own_cards_do_and_no_other_page_does():
    """Found by a newcomer: card effects were shown nowhere, and the ids differ from the
    printed names. The seat's "only you see this" lists each card of its hand: the id and
    the printed name with its effect (from the data); no other page shows them."""
    game, state = spartacus_at("bid")
    state.hands[0] = {"schwarzmarkt": 1}
    state.hands[1] = {"wache": 1}
    hub = WebHub(game, state.config, state.players)
    hub.update(state, [])
    row = "<dt>schwarzmarkt</dt><dd>Gewinn vom Schwarzmarkt: scheme, 7 influence; the target"
    assert row in pages.seat_main(hub.frame, 0, game, state.config, "t", ())
    assert "<dt>wache</dt><dd>Wache: guard; " in pages.seat_main(
        hub.frame, 1, game, state.config, "t", ()
    )
    for seat in range(1, state.players):
        assert "Gewinn vom" not in pages.seat_main(hub.frame, seat, game, state.config, "t", ())
    assert "Gewinn vom" not in pages.table_main(hub.frame, game, state.config, "t")
