"""A bot sees only its seat's view.

- Every determinization shows the seat exactly what the real state shows it
  (``game.view(world, seat) == game.view(state, seat)``), while the other seats' hidden
  parts are redrawn (they vary from one determinization to the next).
- Two states that differ only in another seat's hidden cards give the same search, move
  for move and visit for visit: nothing of the hidden part reaches the bot.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from bot_helpers import position, swap_hidden_card

from companion.games.registry import get_game
from companion.games.search import SearchBot
from companion.games.search.clone import clone
from companion.games.search.profile import profile_for


def br_position(seed: int, steps: int) -> Any:
    return position("battle-royale", seed, steps)


def spartacus_position(seed: int, steps: int) -> Any:
    """A Spartacus decision where another house holds intrigue cards."""
    state = position("spartacus", seed, steps)
    while not any(sum(h.values()) for s, h in enumerate(state.hands) if s != state.current_player):
        state = position("spartacus", seed, steps + 7)
        steps += 7
    return state


CASES = [
    ("battle-royale", br_position(1, 12)),
    ("battle-royale", br_position(2, 90)),
    ("spartacus", spartacus_position(3, 20)),
    ("spartacus", spartacus_position(4, 120)),
]


@pytest.mark.parametrize(("game", "state"), CASES)
def test_a_determinization_shows_the_seat_what_it_saw(game: str, state: Any) -> None:
    g = get_game(game)
    seat = state.current_player
    sampler = profile_for(game).determinizer(state, seat)
    assert sampler is not None
    seen = g.view(state, seat)
    others = [s for s in range(state.players) if s != seat]
    truth = [dict(state.hands[s]) for s in others]
    redrawn = 0
    rng = random.Random(9)
    for _ in range(30):
        world = clone(state)
        sampler(world, rng)
        assert g.view(world, seat) == seen
        world.legal_actions()  # a consistent state: the engine can go on from it
        if [{k: v for k, v in world.hands[s].items() if v} for s in others] != [
            {k: v for k, v in h.items() if v} for h in truth
        ]:
            redrawn += 1
    assert redrawn > 0  # the other hands are not just copied from the truth


@pytest.mark.parametrize(("game", "state"), CASES)
def test_another_seats_hidden_cards_never_change_the_search(game: str, state: Any) -> None:
    g = get_game(game)
    seat = state.current_player
    for other in range(state.players):
        if other == seat or not sum(state.hands[other].values()):
            continue
        alt = swap_hidden_card(state, other, game)
        if alt is None:
            continue
        assert g.view(alt, seat) == g.view(state, seat)
        assert g.view(alt, other) != g.view(state, other)  # really a different hand
        first = SearchBot(game, random.Random(4), "easy").search(state)
        second = SearchBot(game, random.Random(4), "easy").search(alt)
        assert first == second
        return
    pytest.fail("no other seat with a hidden card to swap")


def test_the_own_hand_is_kept() -> None:
    state = br_position(5, 40)
    seat = state.current_player
    sampler = profile_for("battle-royale").determinizer(state, seat)
    assert sampler is not None
    world = clone(state)
    sampler(world, random.Random(1))
    assert world.hands[seat] == state.hands[seat]
    assert world.draw_piles[seat] == state.draw_piles[seat]


def spartacus_bidding(seed: int) -> Any:
    """A Spartacus position in the secret bidding, after another house has bid."""
    from bot_helpers import advance

    from companion.games.registry import get_game as game_of

    state = game_of("spartacus").new_game()
    rng = random.Random(seed)
    for _ in range(400):
        state = advance(state, rng, 1, "spartacus")
        if state.phase == "bid" and state.bids and state.current_player not in state.bids:
            return state
    pytest.fail("no bidding with a bid entered")


def test_secret_bids_and_hidden_gold_are_redrawn() -> None:
    g = get_game("spartacus")
    state = spartacus_bidding(6)
    seat = state.current_player
    assert "gold" not in g.view(state, seat)["public"]  # the gold is hidden now
    sampler = profile_for("spartacus").determinizer(state, seat)
    assert sampler is not None
    rng = random.Random(2)
    seen = g.view(state, seat)
    bids = set()
    for _ in range(20):
        world = clone(state)
        sampler(world, rng)
        assert g.view(world, seat) == seen
        assert world.total_gold() == state.total_gold()
        assert world.gold[seat] == state.gold[seat]
        bids.add(tuple(sorted(world.bids.items())))
        world.legal_actions()
    assert len(bids) > 1  # the entered bids are drawn, not copied
    alt = clone(state)
    other = next(iter(state.bids))
    alt.bids[other] = (state.bids[other] + 1) % (state.gold[other] + 1)
    alt.gold[other] += 3  # more gold behind the screen, taken from the bank
    alt.bank -= 3
    assert g.view(alt, seat) == seen
    first = SearchBot("spartacus", random.Random(4), "easy").search(state)
    assert first == SearchBot("spartacus", random.Random(4), "easy").search(alt)


def net_fights() -> list[Any]:
    """Two fights where both fighters have a net: a single fight (the combat assistant),
    and a fight of a full game (batiatus's barca against solonius's gladiator, both with
    a net; tullius hosts)."""
    import sys

    sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/spartacus")
    from spx_helpers import draw_all, fight, play, set_property, setup_game, spec

    single = fight(spec("A", 5, 2, 1, equipment=("netz",)), spec("B", 2, 2, 5, equipment=("netz",)))
    game = setup_game()
    set_property(game, 0, gladiators=1, extra=("barca", "netz"))
    set_property(game, 1, gladiators=1, extra=("netz",))
    draw_all(game)
    game.host = 3
    game._start_arena()  # test setup: skip intrigue and market
    play(game, "invite batiatus", "accept barca netz", "invite solonius")
    play(game, f"accept {game.property[1][0]} netz")
    while game.fight is None or game.fight.phase != "net":
        play(game, "done")
    return [single, game]


@pytest.mark.parametrize("which", ["single fight", "full game"])
def test_a_net_declared_first_never_changes_the_other_fighters_search(which: str) -> None:
    """Ruling C2a: fighter II's owner does not know what fighter I declared. The search
    (hints, search bots) read I's declaration from the state: with I throwing, II threw
    too, with I keeping, II kept (found by a review; fails on the old code)."""
    g = get_game("spartacus")
    searches, seen = [], []
    for first in ("yes", "no"):
        state = net_fights()[which == "full game"]
        state.apply(next(a for a in state.legal_actions() if str(a) == f"net I {first}"))
        seat = state.fight.fighters["II"].owner
        assert state.current_player == seat and state.fight.phase == "net"
        seen.append(g.view(state, seat))
        sampler = profile_for("spartacus").determinizer(state, seat)
        assert sampler is not None
        drawn = set()
        for n in range(20):
            world = clone(state)
            sampler(world, random.Random(n))
            assert g.view(world, seat) == seen[-1]
            drawn.add(world.fight.nets["I"])
            world.legal_actions()
        assert drawn == {True, False}
        searches.append(SearchBot("spartacus", random.Random(4), "normal").search(state))
    assert seen[0] == seen[1]
    assert searches[0] == searches[1]
