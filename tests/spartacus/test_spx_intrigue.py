"""Rules R5-R14: intrigue cards, schemes, support, reactions, guards, exhausted cards."""

from __future__ import annotations

from fractions import Fraction

import pytest
from spx_helpers import draw_all, give_hand, kinds, play, set_property, setup_game

from companion.games.spartacus import IllegalActionError
from companion.games.spartacus import actions as A

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3  # batiatus, solonius, glaber, tullius


def intrigue(host: int, influence: list[int] | None = None):
    state = setup_game(host=host)
    draw_all(state)
    for seat in range(4):
        state.hands[seat] = {}  # test setup: hands are given per test
    if influence:
        state.influence = list(influence)
    state._legal = None
    assert state.phase == "intrigue_turn" and state.current_player == host
    return state


def pass_all(state) -> list:
    events = []
    while state.phase == "scheme_response":
        events += play(state, "pass")
    return events


def test_r5_each_house_draws_three_and_the_deck_reshuffles() -> None:
    state = setup_game()
    assert state.phase == "draw"
    draw_all(state)
    assert [state.hand_size(s) for s in range(4)] == [3, 3, 3, 3]
    state.intrigue_discard = dict(state.intrigue_deck)
    state.intrigue_deck = dict.fromkeys(state.intrigue_deck, 0)
    state.draw_queue, state.after_draw = [[0, 1]], "effects"
    state.scheme, state.effects = {"card": "spione", "player": 0, "target": 0}, []
    state._continue_draws()
    assert state.phase == "draw" and sum(state.intrigue_deck.values()) > 0


def test_r8_rulebook_insiderinformation_on_oneself() -> None:
    state = intrigue(SALLY, [4, 7, 4, 4])
    give_hand(state, SALLY, "insiderinformation")
    play(state, "scheme insiderinformation solonius")
    assert state.phase == "scheme_response"
    pass_all(state)
    assert state.phase == "draw"
    draw_all(state)
    assert state.hand_size(SALLY) == 2 and state.intrigue_discard["insiderinformation"] == 1
    assert state.phase == "intrigue_turn" and state.current_player == SALLY


def test_r9_rulebook_support_example_adds_influence_for_this_scheme_only() -> None:
    state = intrigue(JOHN, [4, 4, 6, 4])
    give_hand(state, JOHN, "erpressung")  # needs 9
    with pytest.raises(IllegalActionError, match=r"R9 \(support\).*needs 9.*6"):
        play(state, "scheme erpressung batiatus")
    events = play(state, "scheme erpressung batiatus +tullius")  # John 6 + Liz 4 = 10
    assert state.influence == [4, 4, 6, 4]
    pass_all(state)
    assert state.influence == [4, 4, 6, 4]
    assert any(e.kind == "scheme_played" and "tullius" in e.text for e in events)


def test_r10_rulebook_black_market_with_paid_support() -> None:
    state = intrigue(PETE, [4, 4, 4, 3])
    give_hand(state, PETE, "schwarzmarkt")  # needs 7, "Erhalte 5 Gold"
    gold = list(state.gold)
    play(state, "give batiatus tullius 1", "give batiatus tullius 1")  # Liz asks for 2 gold
    play(state, "scheme schwarzmarkt batiatus +tullius")
    events = pass_all(state)
    assert state.gold[PETE] == gold[PETE] - 2 + 5 and state.gold[LIZ] == gold[LIZ] + 2
    assert any(e.kind == "scheme_succeeds" for e in events)
    assert state.total_gold() == 0


def test_r12_rulebook_whispered_rumours_thwart_a_visitor_from_rome() -> None:
    state = intrigue(JOHN, [4, 4, 10, 4])
    give_hand(state, JOHN, "besucher-aus-rom")
    give_hand(state, LIZ, "gefluesterte-geruechte")
    play(state, "scheme besucher-aus-rom glaber")
    assert state.current_player == LIZ  # clockwise from John
    events = play(state, "thwart gefluesterte-geruechte")
    assert any(e.kind == "scheme_thwarted" for e in events)
    assert state.influence[JOHN] == 10
    assert state.intrigue_discard["besucher-aus-rom"] == 1
    assert state.intrigue_discard["gefluesterte-geruechte"] == 1
    assert state.phase == "intrigue_turn" and state.current_player == JOHN


def test_r12_a_reaction_needs_its_own_influence() -> None:
    state = intrigue(JOHN, [4, 4, 10, 2])
    give_hand(state, JOHN, "besucher-aus-rom")
    give_hand(state, LIZ, "gefluesterte-geruechte")  # needs 3: Liz has 2, no support
    play(state, "scheme besucher-aus-rom glaber")
    assert A.Thwart("gefluesterte-geruechte") not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="R12"):
        play(state, "thwart gefluesterte-geruechte")


def test_r13_rulebook_guards_fail_then_hold() -> None:
    state = intrigue(SALLY, [4, 7, 4, 4])
    set_property(state, PETE, gladiators=2)
    give_hand(state, SALLY, "zur-rebellion-aufstacheln")
    give_hand(state, PETE, "wache")
    play(state, "scheme zur-rebellion-aufstacheln batiatus")
    play(state, "pass", "pass")  # John, Liz
    assert state.current_player == PETE
    play(state, "guard wache table", "roll batiatus guard 2")  # the table guard fails
    assert state.phase == "scheme_response" and state.current_player == PETE
    play(state, "guard wache hand", "roll batiatus guard 5")
    assert state.guards[PETE] == [] and state.hand_size(PETE) == 0
    assert len(state.property[PETE]) == 2  # the gladiators stay
    assert state.intrigue_discard["wache"] == 2
    assert state.intrigue_discard["zur-rebellion-aufstacheln"] == 1


def test_r13_only_the_target_uses_guards_at_any_point_of_the_answers() -> None:
    """Guards answer schemes against their owner, and like every reaction not only when
    the owner is asked ("nicht nur waehrend des eigenen Zuges")."""
    state = intrigue(SALLY, [4, 7, 4, 4])
    give_hand(state, SALLY, "skandal")
    play(state, "scheme skandal batiatus")
    play(state, "pass")  # John
    assert state.current_player == LIZ
    assert not any(isinstance(a, A.UseGuard) for a in state.legal_actions_for(LIZ))
    assert A.UseGuard("wache", "table") in state.legal_actions_for(PETE)
    assert state.actor(A.UseGuard("wache", "table")) == PETE
    play(state, "guard wache table", "roll batiatus guard 5")  # Pete, before Liz answers
    assert state.phase == "intrigue_turn" and state.influence[PETE] == 4


def test_r10_rulebook_a_thwarted_banquet_costs_nothing() -> None:
    state = intrigue(LIZ, [4, 4, 4, 6])
    give_hand(state, LIZ, "festmahl")
    give_hand(state, JOHN, "gefluesterte-geruechte")
    gold = list(state.gold)
    play(state, "scheme festmahl tullius", "pass", "pass", "thwart gefluesterte-geruechte")
    assert state.gold == gold and state.influence[LIZ] == 6


def test_r10_a_banquet_pays_everyone_and_raises_the_chosen_house() -> None:
    state = intrigue(LIZ, [4, 4, 4, 6])
    give_hand(state, LIZ, "festmahl")
    gold = list(state.gold)
    play(state, "scheme festmahl glaber")
    pass_all(state)
    assert state.gold == [gold[0] + 2, gold[1] + 2, gold[2] + 2, gold[3] - 6]
    assert state.influence[JOHN] == 5


def test_r10_costs_must_be_payable() -> None:
    state = intrigue(LIZ, [4, 4, 4, 6])
    give_hand(state, LIZ, "festmahl")
    state.gold[LIZ] = 5
    state._legal = None
    assert "scheme" not in kinds(state)


def test_r14_rulebook_exhausted_slaves_do_not_count() -> None:
    state = intrigue(SALLY, [4, 7, 7, 4])
    slaves = set_property(state, SALLY, slaves=3)
    state.exhausted.update(slaves[1:])
    give_hand(state, SALLY, "illegale-dienste")
    give_hand(state, PETE, "rebellion-anzetteln")
    give_hand(state, JOHN, "leeres-bordell")
    gold = state.gold[SALLY]
    play(state, "scheme illegale-dienste solonius")
    pass_all(state)
    assert state.gold[SALLY] == gold + 2  # only the ready slave earns
    play(state, "done")  # Sally's turn ends; John's follows
    play(state, "done")
    assert state.current_player == LIZ
    play(state, "done")
    assert state.current_player == PETE
    play(state, "scheme rebellion-anzetteln solonius")
    pass_all(state)  # her only ready slave goes, without a choice
    assert slaves[0] not in state.owner and slaves[1] in state.owner


def test_r11_reactions_with_a_condition_empty_brothel_and_destitute() -> None:
    state = intrigue(JOHN, [4, 7, 4, 4])
    set_property(state, SALLY, gladiators=1, slaves=1)
    state.exhausted.add(state.property[SALLY][1])
    give_hand(state, JOHN, "leeres-bordell", "mittellos")
    state.gold[PETE] = 0
    state._legal = None
    targets = {
        a.target
        for a in state.legal_actions()
        if isinstance(a, A.React) and a.card == "leeres-bordell"
    }
    assert "solonius" in targets and "glaber" not in targets
    play(state, "react leeres-bordell solonius")
    assert state.influence[SALLY] == 6
    play(state, "react mittellos batiatus")
    assert state.influence[PETE] == 3


def test_r7_hand_limit_forces_sales_at_the_end_of_the_turn() -> None:
    state = intrigue(SALLY, [4, 5, 4, 4])
    give_hand(state, SALLY, "wache", "wache", "skandal", "spione", "bestechung")
    assert state.hand_limit(SALLY) == 4  # the rulebook's Solonius: influence 5, 4 cards
    assert "done" not in kinds(state)
    with pytest.raises(IllegalActionError, match=r"R7 \(hand limit\).*5 cards.*4"):
        play(state, "done")
    gold = state.gold[SALLY]
    play(state, "sell skandal")
    assert state.gold[SALLY] == gold + 1 and "done" in kinds(state)


def test_r6_rulebook_pietros_exhausts_for_one_gold() -> None:
    state = intrigue(LIZ, [4, 4, 4, 4])
    set_property(state, LIZ, gladiators=1, extra=("pietros",))
    gold = state.gold[LIZ]
    play(state, "exhaust pietros tullius")
    assert state.gold[LIZ] == gold + 1 and "pietros" in state.exhausted
    assert A.ExhaustCard("pietros", "tullius") not in state.legal_actions()


def test_r6_indus_peeks_at_a_random_hand_card() -> None:
    state = intrigue(LIZ, [4, 4, 4, 4])
    set_property(state, LIZ, gladiators=1, extra=("indus",))
    give_hand(state, PETE, "wache", "wache", "skandal")
    play(state, "exhaust indus batiatus")
    assert state.phase == "peek"
    outcomes = {a.card: p for a, p in state.chance_outcomes()}
    assert outcomes == {"wache": Fraction(2, 3), "skandal": Fraction(1, 3)}
    events = play(state, "peek tullius batiatus skandal")
    assert events[0].private_to == LIZ and "skandal" not in events[0].public_text
    assert state.phase == "intrigue_turn"


def test_r10_discard_effect_the_target_chooses_among_ready_cards() -> None:
    state = intrigue(PETE, [7, 4, 4, 4])
    glads = set_property(state, SALLY, gladiators=2)
    give_hand(state, PETE, "zur-rebellion-aufstacheln")
    play(state, "scheme zur-rebellion-aufstacheln solonius")
    pass_all(state)
    assert state.phase == "discard_choice" and state.current_player == SALLY
    assert {a.card for a in state.legal_actions() if isinstance(a, A.DiscardCard)} == set(glads)
    play(state, f"discard {glads[1]}")
    assert state.property[SALLY] == [glads[0]] and state.phase == "intrigue_turn"


def test_r13_guards_go_from_hand_to_table_and_are_sold_in_the_market() -> None:
    state = intrigue(PETE, [4, 4, 4, 4])
    give_hand(state, PETE, "wache")
    play(state, "post-guard wache")
    assert state.guards[PETE] == ["wache", "wache"]
    for _ in range(4):
        play(state, "done")
    assert state.phase == "market_turn" and state.current_player == PETE
    gold = state.gold[PETE]
    play(state, "sell-bank wache")
    assert state.gold[PETE] == gold + 1 and state.guards[PETE] == ["wache"]
    play(state, "trade batiatus solonius wache 3")
    assert state.guards[SALLY] == ["wache", "wache"] and state.gold[PETE] == gold + 4
    assert state.total_gold() == 0


def test_r7_hands_over_the_limit_at_the_end_of_the_phase_are_sold_down() -> None:
    state = intrigue(PETE, [4, 5, 4, 6])
    give_hand(state, LIZ, "insiderinformation")
    play(state, "done", "done", "done")  # Pete, Sally, John
    give_hand(state, SALLY, "wache", "skandal", "spione", "bestechung")  # 4: at Sally's limit
    play(state, "scheme insiderinformation solonius")  # Liz gives Sally 2 more cards
    pass_all(state)
    draw_all(state)
    play(state, "done")
    assert state.phase == "hand_limit" and state.current_player == SALLY
    assert kinds(state) >= {"sell"} and "done" not in kinds(state)
    play(state, "sell skandal", "sell spione")
    assert state.phase == "market_turn"


def test_a_pass_and_the_end_of_an_intrigue_turn_are_logged_for_everyone() -> None:
    """Found on the phones: a house that passed on a scheme, or ended its intrigue turn,
    left no event, so the others could not see it had passed. A pass is public at the
    table: every screen sees the same line, and it names no card in anyone's hand."""
    state = intrigue(PETE, [7, 4, 4, 4])
    give_hand(state, PETE, "schwarzmarkt")
    give_hand(state, SALLY, "gefluesterte-geruechte")  # could thwart, passes instead
    play(state, "scheme schwarzmarkt batiatus")
    events = pass_all(state)
    passes = [e for e in events if e.kind == "passed"]
    assert [e.data["seat"] for e in passes] == [SALLY, JOHN, LIZ]
    assert passes[0].text == "solonius passes on Gewinn vom Schwarzmarkt"
    for event in passes:
        assert all(event.seen_by(s)["text"] == event.text for s in (None, PETE, SALLY))
        assert "Geruechte" not in event.text and "gefluesterte" not in str(event.data)
    events = play(state, "done")
    (done,) = [e for e in events if e.kind == "intrigue_done"]
    assert done.text == "batiatus passes: its intrigue turn is over"
    assert done.seen_by(None)["text"] == done.text


def test_the_end_of_a_market_turn_is_logged_for_everyone() -> None:
    """As the end of an intrigue turn: a house done at the market left no event."""
    state = intrigue(PETE, [4, 4, 4, 4])
    for _ in range(4):
        play(state, "done")
    assert state.phase == "market_turn" and state.current_player == PETE
    events = play(state, "done")
    (done,) = [e for e in events if e.kind == "market_done"]
    assert done.text == "batiatus is done at the market" and done.data["seat"] == PETE
    assert all(done.seen_by(s)["text"] == done.text for s in (None, PETE, SALLY))
