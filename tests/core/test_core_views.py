"""Public and private views, for the toy game and over random games of every engine.

Three properties over random play of each engine (hypothesis):

- the public view (the table's screen) holds no secret part of the state: every key of the
  snapshot is either public as it is, or a declared secret shown only as its summary;
- a seat's view holds its own secret entries and nobody else's: changing another seat's
  secrets (its hand, its bid, its hidden gold, what it peeked at) changes nothing in it;
- the union of the views is consistent with the snapshot: public parts equal, each seat's
  private entries equal its entries, summaries equal the summaries of the hidden values.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from toy_game import TOY, Deal, Take

from companion.dice import Roller
from companion.games.battle_royale import BattleRoyaleConfig
from companion.games.battle_royale.assist import ASSIST
from companion.games.core import Game, RandomBot
from companion.games.core.views import seat_entries, seat_entry
from companion.games.kampf_der_gladiatoren import GladiatorenConfig
from companion.games.registry import get_game
from companion.games.spartacus import SpartacusConfig
from companion.games.spartacus.bot import KindBot, SimpleBot

# --- the toy game ------------------------------------------------------------------------


def test_the_table_sees_only_the_public_part_and_a_seat_its_own_card():
    state = TOY.new_game()
    state.apply(Deal(0, "ace"))
    state.apply(Deal(1, "king"))
    table = TOY.view(state, None)
    assert table["public"] == {
        "phase": "take",
        "winners": [],
        "end_reason": "",
        "pile": 5,
        "active": 0,
        "cards_dealt": {"0": True, "1": True},
    }
    assert table["private"] == {} and table["seat"] is None and table["current_player"] == 0
    assert TOY.view(state, 1)["private"] == {"cards": "king"}
    assert TOY.view(state, 0)["public"] == table["public"]
    json.dumps(table)


def test_a_private_event_shows_its_secret_only_to_its_seat():
    state = TOY.new_game()
    event = state.apply(Deal(0, "queen"))[0]
    assert event.private_to == 0
    assert TOY.event_view(event, 0) == {
        "kind": "dealt",
        "text": "you hold the queen",
        "data": {"seat": 0, "card": "queen"},
    }
    for seat in (None, 1):
        assert TOY.event_view(event, seat) == {
            "kind": "dealt",
            "text": "red is dealt a card",
            "data": {"seat": 0},
        }
    public = state.apply(Deal(1, "ace"))
    public += state.apply(Take(1))
    assert TOY.event_view(public[-1], 1) == public[-1].to_dict()


# --- every engine ------------------------------------------------------------------------


def games() -> dict[str, tuple[Game[Any], Callable[[int], Any], Callable[[random.Random], Any]]]:
    """name -> (game, config for a player count, bot)."""
    return {
        "battle-royale": (
            get_game("battle-royale"),
            lambda n: BattleRoyaleConfig(players=n, abilities=True, special_actions=True),
            RandomBot,
        ),
        "assist": (ASSIST, lambda n: BattleRoyaleConfig(players=n), RandomBot),
        "gladiatoren": (get_game("gladiatoren"), lambda n: GladiatorenConfig(players=n), RandomBot),
        "skirmish": (get_game("skirmish"), lambda n: get_game("skirmish").config(players=n), None),
        "spartacus": (
            get_game("spartacus"),
            lambda n: SpartacusConfig(players=n),
            lambda rng: (SimpleBot if rng.random() < 0.5 else KindBot)(rng),
        ),
        "spartacus-assist": (
            get_game("spartacus"),
            lambda n: SpartacusConfig(players=n, mode="assist"),
            KindBot,
        ),
    }


def played(name: str, players: int, seed: int, steps: int) -> Iterator[tuple[Any, list[Any]]]:
    """Random legal play; yields each state with the events that led to it."""
    game, config, bot_type = games()[name]
    state = game.new_game(config(players))
    roller, rng = Roller.seeded(seed), random.Random(seed)
    bot = (bot_type or game.bot)(rng)
    yield state, list(state.initial_events)
    for _ in range(steps):
        if state.is_terminal:
            return
        if state.is_chance_node:
            action = roller.choose(state.chance_outcomes())
        else:
            action = bot.choose(state)
        yield state, state.apply(action)


#: Public keys a privacy's view snapshot adds to the state's snapshot, and why each is public.
ADDED_PUBLIC = {"rolling": "the house asked to roll dice: the table's ROLL prompt names it"}


def check_views(game: Game[Any], state: Any) -> None:
    # what the views start from: the state's snapshot, or the privacy's view snapshot
    # (Spartacus: while nets are declared they leave the public fight for a seat's
    # ``net_declarations``; ``rolling``, the house asked to roll)
    start = game.privacy.view_snapshot
    snapshot = state.snapshot() if start is None else start(state)
    raw = state.snapshot()
    for key, value in raw.items():  # it only takes away from what the state says
        if isinstance(value, dict) and snapshot[key] != value:
            assert snapshot[key].items() <= value.items(), f"the view snapshot changes {key!r}"
        else:
            assert snapshot[key] == value, f"the view snapshot changes {key!r}"
    secrets = game.privacy.secrets_now(state)
    for key in set(snapshot) - set(raw):  # a key it adds is a secret, or known to be public
        assert key in secrets or key in ADDED_PUBLIC, f"the view snapshot adds {key!r}"
    table = game.view(state, None)
    json.dumps(table)
    public = table["public"]
    assert table["private"] == {}
    for key, value in snapshot.items():
        secret = secrets.get(key)
        if secret is None:  # public as it is
            assert public[key] == value
            continue
        assert key not in public, f"the secret {key!r} is on the table's screen"
        if secret.public_key is not None:  # only its summary is public
            expected = (
                {str(s): secret.summary(e) for s, e in seat_entries(value)}
                if secret.per_seat
                else secret.summary(value)
            )
            assert public[secret.public_key] == expected
    assert set(public) <= set(snapshot) | {s.public_key for s in secrets.values()}
    for seat in range(state.players):
        mine = game.view(state, seat)
        json.dumps(mine)
        assert mine["public"] == public and mine["seat"] == seat
        for key, secret in secrets.items():  # the seat's own entries, nobody else's
            if secret.per_seat:
                assert mine["private"][key] == seat_entry(snapshot[key], seat)
            else:
                assert key not in mine["private"]


def check_events(game: Game[Any], state: Any, events: list[Any]) -> None:
    for event in events:
        json.dumps(event.to_dict())
        if event.private_to is None:
            continue
        for seat in [None, *range(state.players)]:
            seen = game.event_view(event, seat)
            if seat == event.private_to:
                assert seen == event.to_dict()
            else:
                assert seen["text"] == event.public_text
                assert not set(event.secret) & set(seen["data"])


def scramble(name: str, state: Any, seat: int, rng: random.Random) -> bool:
    """Change ``seat``'s secrets (and the hidden decks) without changing any public
    summary; False if it has none now."""
    changed = False

    def shuffle_cards(cards: dict[str, int], ids: list[str]) -> bool:
        held = [c for c, n in cards.items() if n]
        others = [c for c in ids if c not in held]
        if not held or not others:
            return False
        cards[rng.choice(held)] -= 1
        new = rng.choice(others)
        cards[new] = cards.get(new, 0) + 1
        return True

    if name == "battle-royale":
        deck = list(state.hands[seat])
        changed |= shuffle_cards(state.hands[seat], deck)
        changed |= shuffle_cards(state.draw_piles[seat], deck)
    elif name.startswith("spartacus"):
        intrigue = list(state.data.intrigue)
        changed |= shuffle_cards(state.hands[seat], intrigue)
        shuffle_cards(state.intrigue_deck, intrigue)  # hidden from everyone
        if state.phase == "bid" and seat in state.bids:
            state.bids[seat] += 1
            changed = True
        from companion.games.spartacus.privacy import gold_hidden

        if gold_hidden(state):
            state.gold[seat] += 1
            state.bank -= 1
            changed = True
        state.peeks.append((seat, (seat + 1) % state.players, intrigue[0], state.round))
        changed = True
    return changed


ENGINES = st.sampled_from(
    ["battle-royale", "assist", "gladiatoren", "skirmish", "spartacus", "spartacus-assist"]
)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=ENGINES, players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
@example(name="spartacus", players=4, seed=66)  # a fight's nets declared (view snapshot)
def test_views_of_random_games(name: str, players: int, seed: int) -> None:
    game = games()[name][0]
    for state, events in played(name, players, seed, 400):
        check_views(game, state)
        check_events(game, state, events)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=ENGINES, players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_another_seats_secrets_never_reach_a_view(name: str, players: int, seed: int) -> None:
    game = games()[name][0]
    rng = random.Random(seed)
    for i, (state, _) in enumerate(played(name, players, seed, 400)):
        if i % 7:
            continue
        seat = rng.randrange(players)
        before = {s: game.view(state, s) for s in [None, *range(players)]}
        other = copy.deepcopy(state)
        if not scramble(name, other, seat, rng):
            continue
        for s in [None, *(t for t in range(players) if t != seat)]:
            assert game.view(other, s) == before[s], f"seat {seat}'s secrets reach seat {s}"
        assert game.view(other, seat) != before[seat]  # the scramble is visible to its seat


def test_games_without_secrets_say_so():
    for name in ("gladiatoren", "skirmish"):
        game = get_game(name)
        assert not game.privacy.secrets and "everything is public" in game.privacy.summary
    assert "public" in ASSIST.privacy.summary and not ASSIST.privacy.secrets
