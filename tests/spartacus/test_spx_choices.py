"""Fewer, clearer choices: the kind of action first, then its parameters (state.menu), with
legal_actions() the one source of legality; and how long the lists a person sees are."""

from __future__ import annotations

import copy
import random

import pytest
from measure_choices import measure
from spx_helpers import draw_all, give_hand, setup_game

from companion.dice import Roller
from companion.games.spartacus import SpartacusConfig, new_game
from companion.games.spartacus import actions as A
from companion.games.spartacus.bot import KindBot
from companion.games.spartacus.choices import Menu, Param

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3


def test_a_scheme_is_chosen_card_then_target_then_supporters() -> None:
    state = setup_game(host=PETE)
    draw_all(state)
    state.hands[PETE] = {}
    give_hand(state, PETE, "erpressung", "skandal")  # erpressung needs 9: support needed
    state.influence = [6, 3, 2, 2]
    state._legal = None
    menu = state.menu(PETE)
    assert [k.kind for k in menu.kinds(corrections=False)][:2] == ["sell", "scheme"]
    card = menu.step("scheme")
    assert isinstance(card, Param) and set(card.values) == {"erpressung", "skandal"}
    target = menu.step("scheme", {"card": "erpressung"})
    assert target.values == ("batiatus", "solonius", "glaber", "tullius")
    support = menu.step("scheme", {"card": "erpressung", "target": "glaber"})
    assert support.multi and set(support.values) == {"solonius", "glaber", "tullius"}
    chosen = {"card": "erpressung", "target": "glaber", "supporters": ["tullius", "solonius"]}
    action = menu.step("scheme", chosen)
    assert action == A.PlayScheme("erpressung", "glaber", ("solonius", "tullius"))
    assert state.is_legal(action)
    assert menu.matching("scheme", {**chosen, "supporters": ["glaber"]}) == []  # 6 + 2 < 9


def test_a_trade_is_partner_card_and_a_typed_price() -> None:
    state = setup_game(host=PETE)
    draw_all(state)
    state._start_market()
    menu = state.menu(PETE)
    seller = menu.step("trade")
    assert seller.values == ("batiatus", "solonius", "glaber", "tullius")
    buyer = menu.step("trade", {"seller": "batiatus"})
    assert buyer.values == ("solonius", "glaber", "tullius")
    card = menu.step("trade", {"seller": "batiatus", "buyer": "glaber"})
    assert set(card.values) == set(state.tradeable(PETE))
    price = menu.step("trade", {"seller": "batiatus", "buyer": "glaber", "card": card.values[0]})
    assert price.is_range and price.shown() == [f"0..{state.gold[JOHN]}"]


def test_a_fighter_then_its_equipment_and_one_value_left_is_never_asked() -> None:
    menu = Menu(
        [
            A.Accept("varro", ()),
            A.Accept("varro", ("gladius",)),
            A.Accept("varro", ("gladius", "helm")),
            A.Accept("varro", ("helm",)),
        ]
    )
    equipment = menu.step("accept")  # one fighter: not asked
    assert equipment.name == "equipment" and equipment.multi
    assert menu.step("accept", {"equipment": ["helm", "gladius"]}) == A.Accept(
        "varro", ("gladius", "helm")
    )
    assert Menu([A.UseNet("I", True), A.UseNet("I", False)]).step("net").values == (True, False)


def test_typed_names_complete() -> None:
    param = Param("card", ("mittellos", "leeres-bordell", "wache"))
    assert param.complete("mit") == ["mittellos"] and param.complete("WACHE") == ["wache"]
    assert param.complete("x") == [] and len(Param("n", (1, 2, 3)).shown()) == 1


@pytest.mark.slow
def test_a_menu_shows_one_seat_only_its_own_actions() -> None:
    """Another seat's hand never changes what a seat is offered (hidden information)."""
    for seed in range(4):
        state = new_game(SpartacusConfig(players=3))
        roller, bot, rng = Roller.seeded(seed), KindBot(random.Random(seed)), random.Random(seed)
        for step in range(400):
            if state.is_terminal:
                break
            if state.is_chance_node:
                state.apply(roller.choose(state.chance_outcomes()))
                continue
            if step % 5 == 0:
                seat, other = rng.sample(range(3), 2)
                menu = [a.notation for a in state.menu(seat).actions]
                seats = state.seats_that_may_act()
                scrambled = copy.deepcopy(state)
                held = [c for c, n in scrambled.hands[other].items() if n]
                if held:
                    scrambled.hands[other][held[0]] -= 1
                    new = rng.choice(list(state.data.intrigue))
                    scrambled.hands[other][new] = scrambled.hands[other].get(new, 0) + 1
                    scrambled._legal = None
                    assert [a.notation for a in scrambled.menu(seat).actions] == menu
                    assert scrambled.seats_that_may_act() == seats
            state.apply(bot.choose(state))


@pytest.mark.slow
def test_the_longest_list_in_a_seeded_three_house_game() -> None:
    """Issue 17: option lists of 28-40 entries (and more) are unusable at a table. In seeded
    3-house games the flat list reached hundreds (every trade price); the menus stay short.
    Numbers for docs/rules/spartacus.md: tests/spartacus/measure_choices.py."""
    for seed in (1, 2, 3):
        m = measure(3, seed)
        assert m["before"] >= 40 and m["after"] <= 12, m
