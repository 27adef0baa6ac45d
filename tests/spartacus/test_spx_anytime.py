"""Out-of-turn play (rules R11, R12, R13a) and gold between houses (rule R32): every card at
every moment the rulebook allows it, for any seat; a transfer of any amount in one action."""

from __future__ import annotations

import copy

import pytest
from spx_helpers import draw_all, give_hand, play, set_property, setup_game

from companion.games.spartacus import IllegalActionError
from companion.games.spartacus import actions as A

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3  # batiatus, solonius, glaber, tullius


def empty_hands(host: int = PETE):
    """A game at the host's first intrigue turn, every hand emptied (the tests give cards)."""
    state = setup_game(host=host)
    draw_all(state)
    for seat in range(4):
        state.hands[seat] = {}
    state._legal = None
    return state


def intrigue(host: int, influence: list[int]):
    state = empty_hands(host)
    state.influence = list(influence)
    return state


def no_gold(state, seat: int) -> None:
    state.bank += state.gold[seat]
    state.gold[seat] = 0
    state._legal = None


# -- R11: reactions with an effect, at any time, by any house --------------------------------


def test_r11_rulebook_mittellos_in_the_upkeep() -> None:
    """'In der Unterhaltungsphase hat Sally nur 2 Gold, welches sie komplett benoetigt, um ihr
    Konto auszugleichen und verbleibt ohne Gold. John kann nun die Reaktionskarte 'Mittellos!'
    spielen ... Sally verliert dadurch einen Punkt Einfluss"."""
    state = empty_hands()
    give_hand(state, JOHN, "mittellos", "skandal")
    set_property(state, SALLY, gladiators=2)  # no slaves: she owes 2
    set_property(state, LIZ, gladiators=3, slaves=2)  # Liz owes 1 after her
    state.bank += state.gold[SALLY] - 2
    state.gold[SALLY] = 2
    state._start_round()  # test setup: round 2's upkeep on this property
    assert state.phase == "upkeep_pay" and state.current_player == SALLY
    react = A.React("mittellos", "solonius", "glaber")
    assert react not in state.legal_actions()  # Sally still has her gold
    events = play(state, "pay")
    assert state.gold[SALLY] == 0 and state.current_player == LIZ  # still the upkeep
    window = next(
        e for e in events if e.kind == "reaction_window" and e.data["card"] == "mittellos"
    )
    assert window.data["target"] == SALLY
    assert JOHN in window.data["seats"] and JOHN in state.seats_that_may_act()
    assert react in state.legal_actions_for(JOHN)
    assert react not in state.legal_actions_for(LIZ) and state.actor(react) == JOHN
    influence = state.influence[SALLY]
    play(state, "react mittellos solonius glaber")
    assert state.influence[SALLY] == influence - 1
    assert state.intrigue_discard["mittellos"] == 1 and state.hand_size(JOHN) == 1
    assert state.phase == "upkeep_pay" and state.current_player == LIZ  # Liz is still asked


def test_r11_a_reaction_needs_its_players_own_influence_and_the_targets_condition() -> None:
    state = intrigue(PETE, [4, 4, 1, 4])  # mittellos needs 2 (guess); John has 1
    give_hand(state, JOHN, "mittellos")
    no_gold(state, SALLY)
    assert not [a for a in state.legal_actions_for(JOHN) if isinstance(a, A.React)]
    with pytest.raises(IllegalActionError, match="needs 2 influence of glaber's own"):
        play(state, "react mittellos solonius glaber")
    state.influence[JOHN] = 2
    state._legal = None
    reacts = [a for a in state.legal_actions_for(JOHN) if isinstance(a, A.React)]
    assert reacts == [A.React("mittellos", "solonius", "glaber")]  # only the house without gold
    with pytest.raises(IllegalActionError, match="on a house without gold; batiatus is not"):
        play(state, "react mittellos batiatus glaber")


def test_r11b_no_mittellos_while_the_gold_is_hidden_for_the_auctions() -> None:
    """Ruling R11b: while every house hides its gold nobody can see that a house has none."""
    state = empty_hands()
    give_hand(state, JOHN, "mittellos")
    state._start_market()
    no_gold(state, SALLY)
    assert A.React("mittellos", "solonius", "glaber") in state.legal_actions()
    for _ in range(4):
        play(state, "done")
    state.apply(A.DrawCard("auction", "market", "agron"))
    assert state.phase == "bid" and state.gold_is_hidden()
    assert not [a for a in state.legal_actions() if isinstance(a, A.React)]
    assert state.reaction_windows() == {}


def test_r11_a_reaction_during_a_fight() -> None:
    from spx_helpers import finish_fight

    state = empty_hands()
    give_hand(state, LIZ, "leeres-bordell")
    set_property(state, SALLY, gladiators=1)  # no slaves
    set_property(state, JOHN, gladiators=1, slaves=1)
    state.host = PETE
    state._start_arena()
    play(state, "invite solonius", f"accept {state.property[SALLY][0]}")
    play(state, "invite glaber", f"accept {state.property[JOHN][0]}")
    while state.phase == "bets":
        play(state, "done")
    assert state.phase == "fight"
    for side in ("I", "II"):  # the initiative roll is a chance node: react at the choice after
        speed = state.fight.fighters[side].speed
        play(state, f"roll {side} initiative {'-'.join(['6' if side == 'I' else '1'] * speed)}")
    assert state.fight.phase == "first"
    influence = state.influence[SALLY]
    play(state, "react leeres-bordell solonius tullius")
    assert state.influence[SALLY] == influence - 1 and state.phase == "fight"
    finish_fight(state, "I", "yield")
    assert state.phase == "thumbs"


# -- R12 / R13: answers to a scheme ------------------------------------------------------------


def test_r12_any_house_not_yet_passed_may_thwart_not_only_the_one_asked() -> None:
    state = intrigue(SALLY, [4, 7, 4, 4])
    give_hand(state, SALLY, "skandal")
    give_hand(state, LIZ, "gefluesterte-geruechte")
    play(state, "scheme skandal batiatus")
    assert state.current_player == JOHN
    assert LIZ in state.seats_that_may_act() and PETE in state.seats_that_may_act()
    thwart = A.Thwart("gefluesterte-geruechte", "tullius")
    assert thwart in state.legal_actions_for(LIZ) and thwart not in state.decisions()
    play(state, "thwart gefluesterte-geruechte tullius")
    assert state.phase == "intrigue_turn" and state.influence[PETE] == 4
    assert state.intrigue_discard["skandal"] == 1


def test_r12_a_house_that_passed_can_no_longer_thwart() -> None:
    state = intrigue(SALLY, [4, 7, 4, 4])
    give_hand(state, SALLY, "skandal")
    give_hand(state, JOHN, "gefluesterte-geruechte")
    play(state, "scheme skandal batiatus", "pass")  # John passes
    assert A.Thwart("gefluesterte-geruechte", "glaber") not in state.legal_actions()
    assert JOHN not in state.seats_that_may_act()


def test_r13a_a_guard_is_laid_on_the_table_at_any_time() -> None:
    """'Wachen koennen jederzeit von der Hand auf den Tisch gelegt werden'."""
    state = empty_hands()
    give_hand(state, LIZ, "wache")
    state._start_market()
    assert state.phase == "market_turn" and state.current_player == PETE
    guards = len(state.guards[LIZ])
    play(state, "post-guard wache tullius")
    assert len(state.guards[LIZ]) == guards + 1 and state.hand_size(LIZ) == 0
    assert state.current_player == PETE  # Pete's market turn goes on


def test_the_house_asked_plays_without_by_as_journals_always_did() -> None:
    state = intrigue(JOHN, [4, 4, 4, 4])
    give_hand(state, JOHN, "wache")
    action = A.PostGuard("wache")
    assert action in state.legal_actions_for(JOHN) and action.to_dict() == {
        "kind": "post-guard",
        "card": "wache",
    }
    assert A.PostGuard("wache", "glaber") not in state.legal_actions()


def test_a_seat_is_offered_only_its_own_actions() -> None:
    state = intrigue(PETE, [4, 4, 4, 4])
    give_hand(state, JOHN, "wache")
    give_hand(state, PETE, "skandal")
    pete = state.legal_actions_for(PETE)
    assert not [a for a in pete if getattr(a, "by", None) == "glaber"]
    assert A.PostGuard("wache", "glaber") in state.legal_actions_for(JOHN)
    assert not [a for a in state.legal_actions_for(JOHN) if isinstance(a, A.PlayScheme)]
    assert state.seats_that_may_act() == [PETE]  # no reaction's moment, no scheme to answer


def test_seats_that_may_act_are_decided_by_public_information_only() -> None:
    """Asking a seat must not tell the table what its hand holds: a house with cards and the
    influence for a reaction is asked whether or not it holds that reaction."""
    state = intrigue(PETE, [4, 4, 4, 4])
    give_hand(state, JOHN, "mittellos")
    give_hand(state, LIZ, "skandal")
    no_gold(state, SALLY)
    seats = state.seats_that_may_act()
    assert JOHN in seats and LIZ in seats and SALLY not in seats  # Sally holds nothing
    swapped = copy.deepcopy(state)
    swapped.hands[JOHN], swapped.hands[LIZ] = {"skandal": 1}, {"mittellos": 1}
    swapped._legal = None
    assert swapped.seats_that_may_act() == seats
    assert swapped.reaction_windows() == state.reaction_windows()


# -- R32: gold between houses ------------------------------------------------------------------


def test_r32_gold_moves_freely_any_amount_in_one_action() -> None:
    """'Gold kann jederzeit zwischen zwei Spielern wechseln! Es gibt keine Beschraenkung fuer den
    Austausch von Gold.'"""
    state = intrigue(PETE, [4, 4, 4, 4])
    gold = list(state.gold)
    events = play(state, f"gold glaber solonius {gold[JOHN]}")  # all of it, John not asked
    assert state.gold[JOHN] == 0 and state.gold[SALLY] == gold[SALLY] + gold[JOHN]
    assert [e.kind for e in events if e.kind.startswith("gold")] == ["gold_transfer"]
    action = state.history[-1]
    assert action.to_dict() == {
        "kind": "give",
        "giver": "glaber",
        "receiver": "solonius",
        "amount": gold[JOHN],
    }
    assert A.action_from_dict(action.to_dict()) == action and action.notation.startswith("gold ")
    assert state.actor(action) == JOHN and state.total_gold() == 0
    with pytest.raises(IllegalActionError, match="corrections"):
        play(state, "gold glaber solonius 1")  # nothing left to give
    assert A.GiveGold("batiatus", "glaber", 1) in state.legal_actions_for(PETE)
    assert not [a for a in state.legal_actions_for(PETE) if getattr(a, "giver", "") == "solonius"]


def test_r32_gold_on_the_table_in_an_auction_tie_cannot_be_given_away() -> None:
    state = setup_game(host=PETE)
    draw_all(state)
    state._start_market()
    for _ in range(4):
        play(state, "done")
    state.apply(A.DrawCard("auction", "market", "agron"))
    gold = state.gold[PETE]
    play(state, f"bid {gold}", "bid 0", "bid 0", "bid 0")  # Pete wins and pays all he has
    assert state.gold[PETE] == 0
    state.apply(A.DrawCard("auction", "market", "crixus"))
    play(state, "bid 0", "bid 2")  # Pete has nothing left; Sally bids 2 (hidden)
    assert A.GiveGold("solonius", "glaber", state.gold[SALLY]) not in state.legal_actions()
    assert A.GiveGold("solonius", "glaber", state.gold[SALLY] - 2) in state.legal_actions()


def test_r32_old_one_gold_records_still_read() -> None:
    assert A.action_from_dict(
        {"kind": "give", "giver": "batiatus", "receiver": "glaber", "amount": 1}
    ) == A.GiveGold("batiatus", "glaber", 1)
    assert A.parse_action("give batiatus glaber 1") == A.parse_action("gold batiatus glaber 1")
