"""Rules R1-R4 and R15-R31: setup, upkeep, market, arena, victory and the tie tournament."""

from __future__ import annotations

import pytest
from spx_helpers import (
    draw_all,
    finish_fight,
    give_card,
    kinds,
    play,
    set_property,
    setup_game,
)

from companion.games.spartacus import IllegalActionError, SpartacusConfig, new_game
from companion.games.spartacus import actions as A

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3  # batiatus, solonius, glaber, tullius


# -- setup --------------------------------------------------------------------------------


def test_r1_setup_deals_starters_guards_gold_and_influence() -> None:
    state = new_game(SpartacusConfig(players=3, length="standard"))
    assert state.phase == "host_draw" and len(state.chance_outcomes()) == 3
    play(state, "host solonius")
    assert state.host == 1 and state.phase == "deal"
    while state.phase == "deal":
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == 1
        state.apply(outcomes[-1][0])
    assert state.influence == [4, 4, 4]
    for seat in range(3):
        kinds_owned = sorted(state.card(c).kind for c in state.property[seat])
        assert kinds_owned == ["gladiator", "gladiator", "slave", "slave"]
        assert all(state.card(c).starter for c in state.property[seat])
    assert state.guards == [["wache"], ["wache"], ["wache", "wache"]]
    assert state.gold == [12, 12, 10]
    # unused starters went into the market deck
    assert sum(1 for c in state.market_deck if state.card(c).starter) == 2 + 2
    assert state.round == 1 and state.phase == "draw"


# -- upkeep (R2-R4) -----------------------------------------------------------------------


def test_r4_rulebook_upkeep_examples() -> None:
    state = setup_game()
    set_property(state, PETE, gladiators=3, slaves=2)
    sally = set_property(state, SALLY, gladiators=2, slaves=4)
    set_property(state, JOHN, gladiators=1, slaves=1)
    liz = set_property(state, LIZ, gladiators=3)
    state.exhausted.add(sally[1])
    state.injured.add(sally[1])  # Sally: one ready, one injured gladiator
    state.gold[LIZ] = 2
    state.bank -= 2 - 14
    gold = list(state.gold)
    state._start_round()  # test setup: run round 2's upkeep on this property
    play(state, "roll solonius heal 2")  # stays injured
    assert state.phase == "upkeep_pay" and state.current_player == PETE
    play(state, "pay")  # Pete: 3 gladiators, 2 slaves: pays 1
    assert state.gold[PETE] == gold[PETE] - 1
    assert state.gold[SALLY] == gold[SALLY] + 3  # 4 slaves, 1 ready gladiator
    assert state.gold[JOHN] == gold[JOHN]  # 1 and 1
    assert state.current_player == LIZ and "pay" not in kinds(state)  # 2 gold for 3
    with pytest.raises(IllegalActionError, match=r"R4 \(upkeep\)"):
        play(state, "pay")
    play(state, f"release {liz[0]}", "pay")
    assert state.gold[LIZ] == 0 and len(state.property[LIZ]) == 2
    assert liz[0] in state.market_discard
    assert state.phase == "draw"


def test_r3_rulebook_pete_heals_one_of_two_injured_gladiators() -> None:
    state = setup_game()
    cards = set_property(state, PETE, gladiators=3, slaves=2)
    glads, slaves = cards[:3], cards[3:]
    state.exhausted.update([glads[1], glads[2], *slaves])
    state.injured.update([glads[1], glads[2]])
    gold = state.gold[PETE]
    state._start_round()
    assert not any(c in state.exhausted for c in slaves)  # the slaves are readied
    assert state.phase == "heal"
    events = play(state, "roll batiatus heal 3", "roll batiatus heal 5")
    assert glads[1] in state.injured and glads[2] not in state.injured
    assert glads[2] not in state.exhausted
    assert state.gold[PETE] == gold  # 2 ready gladiators, 2 ready slaves
    assert any(e.kind == "still_injured" for e in events) and any(
        e.kind == "healed" for e in events
    )


def test_r3_a_heal_roll_of_one_kills() -> None:
    state = setup_game()
    glad = state.property[PETE][0]
    state.exhausted.add(glad)
    state.injured.add(glad)
    state._start_round()
    play(state, "roll batiatus heal 1")
    assert glad not in state.property[PETE] and glad in state.market_discard


# -- market (R15-R19) ---------------------------------------------------------------------


def to_auction(state, card: str) -> None:
    draw_all(state)
    state._start_market()  # test setup: skip the intrigue turns
    for _ in range(state.players):
        play(state, "done")
    assert state.phase == "auction_reveal"
    state.apply(A.DrawCard("auction", "market", card))


def test_r17_rulebook_auction_tie_example_fails_and_returns_the_gold() -> None:
    state = setup_game()
    to_auction(state, "agron")
    gold = list(state.gold)
    events = play(state, "bid 0", "bid 2", "bid 3")
    assert all(e.kind == "bid_entered" and "3" not in e.text for e in events)  # never echoed
    events = play(state, "bid 3")
    assert any(e.kind == "bids_revealed" for e in events)
    assert state.bidders == [JOHN, LIZ] and state.bid_totals == {0: 0, 1: 2, 2: 3, 3: 3}
    play(state, "bid 1", "bid 1")  # both add one gold
    assert state.bidders == [JOHN, LIZ]
    events = play(state, "bid 0", "bid 0")  # nobody adds: the auction fails
    assert any(e.kind == "auction_failed" for e in events)
    assert state.market_discard.get("agron") and state.gold == gold
    assert "agron" not in state.owner


def test_r17_highest_bid_wins_and_pays_the_bank() -> None:
    state = setup_game()
    to_auction(state, "agron")
    gold = list(state.gold)
    play(state, "bid 0", "bid 2", "bid 5")
    with pytest.raises(IllegalActionError, match=r"R17.*bid 0\.\.14"):
        play(state, "bid 15")
    play(state, "bid 3")
    assert state.owner["agron"] == JOHN and state.gold[JOHN] == gold[JOHN] - 5
    assert state.gold[SALLY] == gold[SALLY]


def test_r18_a_tied_bidder_cannot_bid_gold_already_on_the_table() -> None:
    state = setup_game()
    to_auction(state, "agron")
    play(state, "bid 0", "bid 0", "bid 3", "bid 3")
    assert max(a.amount for a in state.legal_actions() if isinstance(a, A.Bid)) == 10 - 3
    play(state, "bid 0", "bid 2")
    assert state.owner["agron"] == LIZ and state.gold[LIZ] == 14 - 5


def test_r19_rulebook_host_auction_roll_off() -> None:
    state = setup_game()
    draw_all(state)
    state._start_market()
    for _ in range(4):
        play(state, "done")
    state.auction_left = 0  # test setup: straight to the host auction
    state.market_deck = {}
    state.market_discard = {}
    state._next_auction()
    assert state.phase == "bid" and state.auction_card is None
    gold = list(state.gold)
    play(state, "bid 8", "bid 5", "bid 6", "bid 8")  # Pete 8, Sally 5, John 6, Liz 8
    assert state.bidders == [PETE, LIZ]
    play(state, "bid 4", "bid 4")  # Pete has no gold left to add
    play(state, "bid 0", "bid 0")
    assert state.phase == "rolloff"
    play(state, "roll batiatus host 3", "roll tullius host 3")  # a tie: roll again
    assert state.phase == "rolloff" and state.rolloff_rolls == {}
    play(state, "roll batiatus host 2", "roll tullius host 5")
    assert state.host == LIZ
    assert state.gold == gold  # a failed auction: the bids go back
    assert state.influence[LIZ] == 8 and state.phase == "invite"  # R20: +1 for the host


# -- arena (R20-R28) ----------------------------------------------------------------------


def to_arena(state, host: int) -> None:
    draw_all(state)
    state.host = host
    state._start_arena()  # test setup: skip intrigue and market


def test_r21_rulebook_invitation_example() -> None:
    state = setup_game()
    set_property(state, PETE, gladiators=1, extra=("dreizack", "helm", "wurfspeer"))
    set_property(state, JOHN, gladiators=1, extra=("theokoles",))
    to_arena(state, JOHN)
    assert state.influence[JOHN] == 8  # +1 for hosting
    assert state.current_player == JOHN
    play(state, "invite tullius")
    assert state.current_player == LIZ
    play(state, "decline")
    assert state.influence[LIZ] == 6
    play(state, "invite batiatus")
    pete_fighter = state.property[PETE][0]
    play(state, f"accept {pete_fighter} dreizack helm wurfspeer")
    assert state.entrants[0] == (PETE, pete_fighter, ("dreizack", "helm", "wurfspeer"))
    play(state, "invite glaber", "accept theokoles")
    assert state.phase == "bets"


def test_r21_an_invitation_needs_a_ready_fighter_and_one_equipment_per_type() -> None:
    state = setup_game()
    set_property(state, PETE, gladiators=1, extra=("gladius", "schwert"))
    to_arena(state, JOHN)
    play(state, "invite batiatus")
    fighter = state.property[PETE][0]
    with pytest.raises(IllegalActionError, match="one\nready weapon|at most one"):
        play(state, f"accept {fighter} gladius schwert")
    state.exhausted.add(fighter)
    state._legal = None
    assert kinds(state) - {
        "gold",
        "influence",
        "give",
        "lose-card",
        "exhaust-card",
        "ready-card",
    } == {"decline"}


def test_r21_host_must_invite_itself_last_and_one_acceptor_means_no_fight() -> None:
    state = setup_game(players=2)
    to_arena(state, PETE)
    # the host may invite itself at any time ...
    assert [a.house for a in state.legal_actions() if isinstance(a, A.Invite)] == [
        "solonius",
        "batiatus",
    ]
    play(state, "invite solonius", "decline")  # ... and must, once all others were asked
    assert [a.house for a in state.legal_actions() if isinstance(a, A.Invite)] == ["batiatus"]
    fighter = state.property[PETE][0]
    events = play(state, "invite batiatus", f"accept {fighter}")
    assert any(e.kind == "no_fight" for e in events)
    assert state.round == 2  # the next round began


def test_r22_tribute_and_r23_bets_never_against_ones_own_fighter() -> None:
    state = setup_game()
    to_arena(state, JOHN)
    f_pete, f_sally = state.property[PETE][0], state.property[SALLY][0]
    state.favours[f_pete] = 2
    state.champions.add(f_sally)
    gold = list(state.gold)
    play(state, "invite batiatus", f"accept {f_pete}", "invite solonius", f"accept {f_sally}")
    assert state.gold[PETE] == gold[PETE] + 4 and state.gold[SALLY] == gold[SALLY] + 6
    assert state.phase == "bets" and state.current_player == JOHN  # the host bets first
    play(state, "done")
    assert state.current_player == LIZ
    play(state, "done")
    assert state.current_player == PETE  # Pete is fighter I
    bets = {a.bet for a in state.legal_actions() if isinstance(a, A.Bet)}
    assert bets == {"winner-I", "injury", "decapitation"}
    with pytest.raises(IllegalActionError, match=r"R23"):
        play(state, "bet winner-II 1")
    with pytest.raises(IllegalActionError, match=r"1 to 3 gold"):
        play(state, "bet winner-I 4")


def test_r24_rulebook_bet_example_and_r25_r28_after_the_fight() -> None:
    state = setup_game()
    set_property(state, PETE, gladiators=1, extra=("barca",))  # 4 attack dice
    set_property(state, JOHN, gladiators=1, extra=("theokoles",))
    to_arena(state, JOHN)
    pete_fighter = "barca"
    play(state, "invite batiatus", f"accept {pete_fighter}", "invite glaber", "accept theokoles")
    gold_sally = state.gold[SALLY]
    play(state, "done", "done")  # John (host), Liz
    play(state, "done")  # Pete
    play(state, "bet decapitation 3", "bet winner-II 3", "done")  # Sally
    assert state.gold[SALLY] == gold_sally - 6 and state.total_gold() == 0
    influence = list(state.influence)
    finish_fight(state, "I", "decapitation")  # Theokoles is decapitated
    assert state.gold[SALLY] == gold_sally + 3  # "Unterm Strich hat Sally 3 Gold Gewinn"
    assert state.influence[PETE] == influence[PETE] + 1  # R25 victory
    assert state.favours[pete_fighter] == 1
    assert "theokoles" not in state.owner and "theokoles" in state.market_discard
    assert state.round == 2  # decapitated: no thumbs, next round
    assert state.total_gold() == 0


def test_r26_third_favour_crowns_a_champion_and_r27_thumbs() -> None:
    state = setup_game()
    to_arena(state, JOHN)
    f_pete, f_sally = state.property[PETE][0], state.property[SALLY][0]
    state.favours[f_pete] = 2
    state.favours[f_sally] = 2
    play(state, "invite batiatus", f"accept {f_pete}", "invite solonius", f"accept {f_sally}")
    for _ in range(4):
        play(state, "done")
    influence = list(state.influence)
    finish_fight(state, "I", "injury")
    assert f_pete in state.champions and f_pete not in state.favours
    assert state.influence[PETE] == influence[PETE] + 2  # victory + champion
    assert f_sally in state.injured and f_sally in state.exhausted
    assert state.phase == "thumbs" and state.current_player == JOHN
    play(state, "thumbs down")  # two favour tokens: the host loses 2 influence
    assert state.influence[JOHN] == influence[JOHN] - 2
    assert f_sally not in state.owner


def test_r26_a_champion_winning_again_gains_no_favour_tokens() -> None:
    state = setup_game()
    to_arena(state, JOHN)
    f_pete, f_sally = state.property[PETE][0], state.property[SALLY][0]
    state.champions.add(f_pete)
    play(state, "invite batiatus", f"accept {f_pete}", "invite solonius", f"accept {f_sally}")
    for _ in range(4):
        play(state, "done")
    influence = state.influence[PETE]
    finish_fight(state, "I", "yield")
    assert f_pete not in state.favours and state.influence[PETE] == influence + 1


def test_r27_a_champion_cannot_be_executed_and_losing_one_costs_influence() -> None:
    state = setup_game()
    to_arena(state, JOHN)
    f_pete, f_sally = state.property[PETE][0], state.property[SALLY][0]
    state.champions.add(f_sally)
    play(state, "invite batiatus", f"accept {f_pete}", "invite solonius", f"accept {f_sally}")
    for _ in range(4):
        play(state, "done")
    finish_fight(state, "I", "yield")
    assert state.phase == "thumbs" and A.Thumbs(False) not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="champion cannot be executed"):
        play(state, "thumbs down")
    play(state, "thumbs up")
    assert f_sally in state.owner and f_sally not in state.injured
    # R26: a house that loses its champion (here: sold to the bank) loses 1 influence
    influence = state.influence[SALLY]
    state._lose_card(f_sally, "test")
    assert state.influence[SALLY] == influence - 1


# -- victory (R29-R31) --------------------------------------------------------------------


def end_intrigue(state) -> list:
    draw_all(state)
    events = []
    while state.phase == "intrigue_turn":
        events += play(state, "done")
    return events


def test_r29_one_house_with_12_wins_at_the_end_of_a_phase() -> None:
    state = setup_game()
    draw_all(state)
    state.influence[LIZ] = 12
    state._legal = None
    end_intrigue(state)
    assert state.is_terminal and state.winners == [LIZ]
    assert "intrigue" in state.end_reason


def test_r29_reaching_12_mid_phase_is_not_yet_a_win() -> None:
    state = setup_game()
    draw_all(state)
    state.influence[PETE] = 12
    state._legal = None
    play(state, "done")
    state.influence[PETE] = 11  # lowered again before the phase ends
    end_intrigue(state)
    assert not state.is_terminal and state.phase == "market_turn"


def test_r30_two_houses_fight_it_out() -> None:
    state = setup_game()
    draw_all(state)
    state.influence[SALLY] = state.influence[JOHN] = 13
    state._legal = None
    end_intrigue(state)
    assert state.phase == "tournament_pick" and state.current_player == SALLY
    play(state, f"accept {state.property[SALLY][0]}", f"accept {state.property[JOHN][0]}")
    finish_fight(state, "II", "yield")
    assert state.is_terminal and state.winners == [JOHN]


def test_r30_three_houses_poorest_two_fight_first_ties_by_a_die() -> None:
    state = setup_game()
    draw_all(state)
    give_card(state, LIZ, "gladius")  # Liz is the richest
    for s in (SALLY, JOHN, LIZ):
        state.influence[s] = 12
    state._legal = None
    end_intrigue(state)
    assert state.phase == "rolloff"  # Sally and John tie on gold value
    play(state, "roll solonius tiebreak 4", "roll glaber tiebreak 4")  # again
    play(state, "roll solonius tiebreak 5", "roll glaber tiebreak 2")  # John is poorer
    assert state.tournament["order"] == [JOHN, SALLY, LIZ]
    assert state.current_player == JOHN
    play(state, f"accept {state.property[JOHN][0]}", f"accept {state.property[SALLY][0]}")
    finish_fight(state, "II", "yield")  # Sally beats John
    assert state.current_player == SALLY  # the final: Sally against Liz
    play(state, f"accept {state.property[SALLY][1]}", f"accept {state.property[LIZ][0]}")
    finish_fight(state, "II", "injury")
    assert state.is_terminal and state.winners == [LIZ]


def test_r30_four_houses_poor_pair_rich_pair_then_the_winners() -> None:
    state = setup_game()
    draw_all(state)
    give_card(state, JOHN, "gladius")
    give_card(state, LIZ, "axt")
    give_card(state, LIZ, "helm")
    give_card(state, SALLY, "netz")
    for s in range(4):
        state.influence[s] = 12
    state._legal = None
    end_intrigue(state)
    # values: Pete 6, Sally 8, John 9, Liz 12
    assert state.tournament["order"] == [PETE, SALLY, JOHN, LIZ]
    for winner in ("I", "II"):
        pair = state.tournament["fights"][0]
        play(state, *(f"accept {state.ready_fighters(s)[0]}" for s in pair))
        finish_fight(state, winner, "yield")
    assert state.tournament["fights"][0] == [PETE, LIZ]
    play(state, f"accept {state.ready_fighters(PETE)[0]}", f"accept {state.ready_fighters(LIZ)[0]}")
    finish_fight(state, "I", "yield")
    assert state.winners == [PETE]


def test_r31_a_house_without_a_ready_fighter_loses_its_tournament_fight() -> None:
    state = setup_game()
    draw_all(state)
    state.exhausted.update(state.property[PETE])
    state.influence[PETE] = state.influence[SALLY] = 12
    state._legal = None
    end_intrigue(state)
    assert state.phase == "tournament_pick" and state.current_player == SALLY
    play(state, f"accept {state.property[SALLY][0]}")
    assert state.is_terminal and state.winners == [SALLY]


def test_r16_open_market_trades_sales_and_a_traded_champion() -> None:
    state = setup_game()
    draw_all(state)
    state._start_market()  # test setup: skip the intrigue turns
    assert state.phase == "market_turn" and state.current_player == PETE
    champion = state.property[SALLY][0]
    state.champions.add(champion)
    state._legal = None
    gold = list(state.gold)
    influence = list(state.influence)
    play(state, f"trade solonius batiatus {champion} 5")  # Pete buys Sally's champion
    assert state.owner[champion] == PETE and champion in state.champions
    assert state.gold[PETE] == gold[PETE] - 5 and state.gold[SALLY] == gold[SALLY] + 5
    assert state.influence[PETE] == influence[PETE] + 1
    assert state.influence[SALLY] == influence[SALLY] - 1
    slave = state.ready(PETE, "slave")[0]
    play(state, f"sell-bank {slave}")
    assert state.gold[PETE] == gold[PETE] - 5 + state.card(slave).value
    assert slave in state.market_discard
    state.exhausted.add(state.property[PETE][0])
    state._legal = None
    with pytest.raises(IllegalActionError, match=r"R16"):
        play(state, f"sell-bank {state.property[PETE][0]}")  # exhausted cards stay
    with pytest.raises(IllegalActionError):
        play(state, "sell wache")  # intrigue cards are not sold in the market
    play(state, "done")
    assert state.current_player == SALLY and state.total_gold() == 0


def test_r21a_the_host_may_decline_its_own_invitation() -> None:
    state = setup_game(players=2)
    to_arena(state, PETE)
    play(state, "invite batiatus", "decline")
    assert state.influence[PETE] == 7  # +1 hosting, -1 declining


def test_r28a_a_thrown_net_is_exhausted_until_the_next_upkeep() -> None:
    state = setup_game()
    set_property(state, PETE, gladiators=1, extra=("barca", "netz"))
    to_arena(state, JOHN)
    play(
        state,
        "invite batiatus",
        "accept barca netz",
        "invite solonius",
        f"accept {state.property[SALLY][0]}",
    )
    for _ in range(4):
        play(state, "done")
    play(state, "net I yes")
    assert state.fight.init_winner == "I"
    play(state, "first I")
    finish_fight(state, "I", "yield")
    assert state.phase == "thumbs" and "netz" in state.exhausted
    play(state, "thumbs up")  # the next round's upkeep readies it
    assert state.round == 2 and "netz" in state.ready(PETE)
