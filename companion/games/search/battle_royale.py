"""Battle Royale's part of the search: hidden hands, a score of the arena, short rollouts.

- Hidden: the other seats' hands and face-down draw piles. What a seat sees
  (``GAME.view``): every hand's size, every pile's size, every discard pile and the card
  in play. A seat's unseen cards are its colour's deck less its discards (and the card in
  play); a determinization deals each other seat a hand of its size from them at random
  and leaves the rest as its draw pile. (Card counting from the history, such as a hand
  that became certain at a reshuffle, is not used: the view has no history.)
- Evaluation: a seat's figures in the arena weigh most (the game is won by being the last
  in it), prisoners break ties (rules 11, 12); figures on the centre count for the end
  where everything left stands on it. A softmax turns these scores into win chances.
- Rollouts finish the turn under way with random moves and stop at the next turn.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.games.battle_royale import GAME
from companion.games.battle_royale.layout import CENTRE
from companion.games.core.bots import Rng
from companion.games.search.profile import Profile, Sampler, win_chances

#: weight of a prisoner against a figure in the arena
PRISONER = 0.35
#: weight of a figure on the centre, beside its weight as a figure
ON_CENTRE = 0.15
#: figures of difference that make a seat e times more likely to win
TEMPERATURE = 1.5


def unseen_pools(view: dict[str, Any], deck: list[str]) -> dict[int, tuple[list[str], int]]:
    """For every other seat in ``view``: its unseen cards (sorted ids, repeated by count)
    and its hand size, from the view alone."""
    public = view["public"]
    seat = view["seat"]
    full = Counter(deck)
    pools: dict[int, tuple[list[str], int]] = {}
    for key, hand_size in public["hand_sizes"].items():
        other = int(key)
        if other == seat:
            continue
        pool = full - Counter(public["discards"][other])
        unseen = hand_size + public["draw_pile_sizes"][key]
        card = public["card"]
        if sum(pool.values()) > unseen and public["active"] == other and pool[card]:
            pool[card] -= 1  # the card in play lies on neither pile yet
        pools[other] = (sorted(pool.elements()), hand_size)
    return pools


def determinizer(state: Any, seat: int) -> Sampler | None:
    view = GAME.view(state, seat)
    pools = unseen_pools(view, [c.id for c in state.config.data.deck])
    if not pools:
        return None
    empty = dict.fromkeys(state.hands[seat], 0)

    def sample(world: Any, rng: Rng) -> None:
        for other, (cards, size) in pools.items():
            cards = list(cards)
            hand = dict(empty)
            for _ in range(size):
                i = int(rng.random() * len(cards))
                hand[cards[i]] += 1
                cards[i] = cards[-1]
                cards.pop()
            pile = dict(empty)
            for c in cards:
                pile[c] += 1
            world.hands[other] = hand
            world.draw_piles[other] = pile

    return sample


def evaluate(state: Any) -> list[float]:
    players = state.players
    centre = state.counts[CENTRE]
    scores = [
        state.arena_total[s] + PRISONER * sum(state.prisoners[s]) + ON_CENTRE * centre[s]
        for s in range(players)
    ]
    return win_chances(scores, [not out for out in state.out], TEMPERATURE)


def turn_over(state: Any) -> bool:
    return state.phase == "turn_start"


PROFILE = Profile(
    evaluate=evaluate,
    determinizer=determinizer,
    rollout_depth=40,
    stop_rollout=turn_over,
    iterations={"easy": 25, "normal": 100, "strong": 1000},
)
