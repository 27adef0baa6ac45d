"""Assist mode (rules A1-A6): the players shuffle and deal the box's cards; the companion learns
a card when it is played, sold or revealed, keeps hidden hands as counts, and still checks
costs, influence, timing and gold. Journalled and replayed like tracked mode."""

from __future__ import annotations

import json
import random

import pytest

from companion.dice import Roller
from companion.games.spartacus import GAME, IllegalActionError, SpartacusConfig, new_game, replay
from companion.games.spartacus import actions as A
from companion.games.spartacus.bot import KindBot
from companion.games.spartacus.odds import multisets

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3  # batiatus, solonius, glaber, tullius
STARTERS = {
    "gladiator": ["thraker-1", "thraker-2", "gallier-1", "gallier-2"] * 2,
    "slave": ["haussklave-1", "haussklave-2", "haussklave-3", "haussklave-4"] * 2,
}


def play(state, *texts: str) -> list:
    events = []
    for text in texts:
        events += state.apply(A.parse_action(text))
    return events


def dealt(players: int = 4, host: int | None = PETE) -> object:
    """An assist game after the deal: the starting cards entered as the houses got them."""
    state = new_game(SpartacusConfig(players=players, host=host, mode="assist"))
    while state.phase == "deal":
        assert not state.is_chance_node
        state.apply(state.decisions()[0])
    return state


def test_a1_the_deal_is_entered_by_each_house_not_drawn() -> None:
    state = new_game(SpartacusConfig(players=3, host=SALLY, mode="assist"))
    assert state.phase == "deal" and not state.is_chance_node
    assert state.current_player == PETE  # the house dealt to says which card it got
    assert {a.kind for a in state.decisions()} == {"reveal"}
    play(state, "reveal gallier-2")
    assert state.property[PETE] == ["gallier-2"]
    with pytest.raises(IllegalActionError):
        play(state, "reveal gallier-2")  # that card is dealt already
    with pytest.raises(IllegalActionError):
        play(state, "reveal agron")  # not a starting card
    while state.phase == "deal":
        state.apply(state.decisions()[-1])
    assert all(len(p) == 4 for p in state.property)
    assert state.phase == "intrigue_turn"  # the draws are at the table: no chance node
    assert state.hand_size(SALLY) == 3 and state.hands == [{}, {}, {}]
    assert state.intrigue_deck == {}


def test_a1_the_opening_roll_is_dice_each_house_enters_its_die() -> None:
    """'Jeder Dominus wuerfelt mit einem Wuerfel. Der Spieler mit der hoechsten Augenzahl ...
    erhaelt er die Veranstalter-Marke'; a tie rolls again."""
    state = new_game(SpartacusConfig(players=3, mode="assist"))  # dice: assist's default
    assert state.phase == "rolloff" and state.is_chance_node
    play(state, "roll batiatus opening 5", "roll solonius opening 5", "roll glaber opening 2")
    assert state.phase == "rolloff" and state.rolloff_seats == [PETE, SALLY]
    play(state, "roll batiatus opening 3", "roll solonius opening 6")
    assert state.host == SALLY and state.phase == "deal"


def test_a2_cards_are_entered_by_name_when_played_and_hands_stay_counts() -> None:
    state = dealt()
    assert state.current_player == PETE and state.hand_size(PETE) == 3
    assert state.influence == [7, 7, 7, 7]
    play(state, "sell skandal")  # revealed by selling: face up on the discard
    assert state.hand_size(PETE) == 2 and state.intrigue_discard["skandal"] == 1
    play(state, "scheme schwarzmarkt batiatus")  # influence 7: enough
    play(state, "pass", "pass", "thwart gefluesterte-geruechte")  # Liz thwarts
    assert state.hand_size(PETE) == 1 and state.hand_size(LIZ) == 2
    assert state.intrigue_discard["schwarzmarkt"] == 1
    assert state.intrigue_discard["gefluesterte-geruechte"] == 1


def test_a3_the_companion_still_checks_influence_costs_and_the_hand() -> None:
    state = dealt()
    with pytest.raises(IllegalActionError, match="R9"):
        play(state, "scheme erpressung glaber")  # needs 9 (a guess): Pete has 7
    play(state, "scheme erpressung glaber +solonius")  # 7 + 7 with Sally's support
    play(state, "pass", "pass", "pass")
    assert state.phase == "intrigue_turn"
    state.gold[PETE], state.bank = 2, state.bank + state.gold[PETE] - 2
    state._legal = None
    schemes = [a.card for a in state.decisions() if isinstance(a, A.PlayScheme)]
    assert "festmahl" not in schemes
    with pytest.raises(IllegalActionError, match="R10"):
        play(state, "scheme festmahl batiatus")  # pays 2 to each of 3: 6 gold
    play(state, "sell wache", "sell wache")
    assert state.hand_size(PETE) == 0
    with pytest.raises(IllegalActionError):
        play(state, "sell wache")  # the hand is empty
    with pytest.raises(IllegalActionError):
        play(state, "sell nonsuch")  # not a card of the data


def test_a3_the_hand_limit_counts_cards() -> None:
    state = dealt()
    state.influence[PETE] = 0  # limit 3 at influence 0 (a guess)
    state.hand_counts[PETE] = 5
    state._legal = None
    assert "done" not in {a.kind for a in state.decisions()}
    play(state, "sell wache", "sell mittellos", "done")
    assert state.hand_size(PETE) == 3


def test_a4_a_draw_and_a_peek_happen_at_the_table() -> None:
    state = dealt()
    play(state, "scheme insiderinformation batiatus")  # draw 2 (influence 6)
    events = play(state, "pass", "pass", "pass")
    assert state.hand_size(PETE) == 2 + 2 and state.phase == "intrigue_turn"
    assert any(e.kind == "cards_drawn" and e.data["count"] == 2 for e in events)
    events = play(state, "scheme spione glaber", "pass", "pass", "pass")
    peek = next(e for e in events if e.kind == "peek_at_table")
    assert peek.private_to is None and "card" not in peek.data
    assert state.peeks == [] and state.phase == "intrigue_turn"


def test_a5_the_host_enters_the_auction_card_any_card_nobody_owns() -> None:
    state = dealt(host=JOHN)
    while state.phase != "auction_reveal":
        state.apply(A.Done() if A.Done() in state.legal_actions() else state.decisions()[0])
    assert not state.is_chance_node and state.current_player == JOHN
    owned = state.property[PETE][0]
    with pytest.raises(IllegalActionError):
        play(state, f"reveal {owned}")
    play(state, "reveal agron")
    assert state.phase == "bid" and state.auction_card == "agron"
    play(state, "bid 0", "bid 0", "bid 0", "bid 0")  # failed: discarded
    assert state.market_discard["agron"] == 1
    play(state, "reveal agron")  # the table's reshuffle is the table's: from the discard too
    assert state.market_discard["agron"] == 0


def test_a6_views_in_assist_mode_hold_counts_never_cards() -> None:
    state = dealt()
    for seat in (None, PETE, SALLY):
        view = GAME.view(state, seat)
        assert view["public"]["hand_sizes"] == {"0": 3, "1": 3, "2": 3, "3": 3}
        assert "hands" not in view["public"] and "hands" not in view["private"]
        assert "intrigue_deck" not in view["public"] and "intrigue_deck_size" not in view["public"]
        json.dumps(view)
    assert GAME.view(state, PETE)["private"] == {"peeked": []}


def test_a6_an_assist_game_is_journalled_and_replayed() -> None:
    config = SpartacusConfig(players=3, mode="assist")
    header = json.loads(json.dumps(config.to_dict()))
    assert header["mode"] == "assist" and config.opening == "dice" and "opening" not in header
    tracked = SpartacusConfig(players=3).to_dict()
    assert "mode" not in tracked and "opening" not in tracked  # tracked headers as before
    assert SpartacusConfig(players=3, opening="dice").to_dict()["opening"] == "dice"
    state = new_game(config)
    roller, bot = Roller.seeded(4), KindBot(random.Random(4))
    for _ in range(900):
        if state.is_terminal:
            break
        chance = state.is_chance_node
        state.apply(roller.choose(state.chance_outcomes()) if chance else bot.choose(state))
    records = [json.loads(json.dumps(a.to_dict())) for a in state.history]
    again = replay(SpartacusConfig.from_dict(header), [A.action_from_dict(r) for r in records])
    assert again.snapshot() == state.snapshot()
    assert {a.kind for a in state.history} >= {"reveal", "sell", "roll"}


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["tracked", "assist"])
def test_every_die_can_be_entered_at_every_chance_node(mode: str) -> None:
    """Physical dice: each roll of n dice is one chance node listing every sorted roll, so any
    roll a player makes is an outcome; in assist mode the only chance nodes are dice (the
    opening roll-off too); tracked mode also draws cards and names the opening's winner."""
    for seed in range(6):
        config = SpartacusConfig(players=2 + seed % 3, mode=mode, length="standard")
        state = new_game(config)
        roller, bot = Roller.seeded(seed), KindBot(random.Random(seed))
        for _ in range(1500):
            if state.is_terminal:
                break
            if state.is_chance_node:
                outcomes = state.chance_outcomes()
                first = outcomes[0][0]
                if isinstance(first, A.DiceRoll):
                    n = len(first.faces)
                    faces = {a.faces for a, _ in outcomes}
                    assert faces == {f for f, _ in multisets(n)} and len(faces) == len(outcomes)
                else:
                    assert mode == "tracked", first
                state.apply(roller.choose(outcomes))
            else:
                state.apply(bot.choose(state))


def test_a_table_reads_what_to_roll_at_each_dice_node() -> None:
    """For physical dice: who rolls, how many and which colour (state.pending_roll)."""
    from spx_helpers import fight, spec

    state = new_game(SpartacusConfig(players=3, mode="assist"))
    assert state.pending_roll() == {
        "who": "batiatus",
        "seat": PETE,
        "purpose": "opening",
        "dice": 1,
        "die": None,
    }
    duel = fight(spec("A", a=4, s=2), spec("B", d=3, s=1))
    assert duel.pending_roll()["die"] == "blue" and duel.pending_roll()["dice"] == 2
    play(duel, "roll I initiative 6-6", "roll II initiative 1", "first I", "step E", "attack")
    assert duel.pending_roll() == {
        "who": "I",
        "seat": 0,
        "purpose": "attack",
        "dice": 4,
        "die": "red",
    }
    play(duel, "roll I attack 6-5-4-3")
    assert duel.pending_roll()["die"] == "black" and duel.pending_roll()["seat"] == 1
    play(duel, "roll II defence 1-1-1")
    assert duel.pending_roll() is None  # a decision (the wounds) or the end
