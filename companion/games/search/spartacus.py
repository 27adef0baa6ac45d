"""Spartacus's part of the search: hidden hands, bids and gold; exact odds in a fight.

- Hidden (``GAME.view``): the other houses' intrigue cards, the face-down intrigue deck,
  the secret bids while they are entered and every house's gold while the auctions run.
  A determinization deals the other houses hands of their (public) sizes from the cards
  the seat cannot see (the other hands and the deck together: the intrigue cards less
  the discards, the guards on the table and its own hand), gives each other house the
  seat's own gold while gold is hidden (the view tells nothing else; at least what it put
  on the table in a tie; the bank keeps the game's constant total) and a bid drawn
  uniformly up to what it has left. Peeked cards are not
  kept in the other hands (a loss of knowledge, never a leak). In a fight, a net another
  seat's fighter has declared while nets are still declared (ruling C2a) is drawn, throw
  or keep equally likely.
- Exact decisions in a fight, where the engine's exact odds settle them: a reroll
  (rule C7) is the option with the best exact expected wound difference (the criterion
  of ruling C7b), the other side's pending reroll answered the same way; a wound
  (rule C11) is the attribute whose loss leaves the best exact next exchange: the chance
  that the fighter's next attack defeats the opponent less the chance that the
  opponent's next attack defeats it, then the expected wound difference of those two
  attacks. (Which attribute loses a die never changes the defeat level, ruling C12a.)
- Evaluation: a full game by influence (the victory condition), gold and the value of the
  house's property; a single fight by the dice the fighters have left.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from companion.games.core.actions import Action
from companion.games.core.bots import Rng
from companion.games.search.profile import Profile, Sampler, win_chances
from companion.games.search.result import Choice, SearchResult
from companion.games.spartacus import GAME
from companion.games.spartacus import actions as A
from companion.games.spartacus.bot import SimpleBot
from companion.games.spartacus.combat import ATTRS, attack_outcome, sort_faces, wound_choices
from companion.games.spartacus.odds import attack_odds

#: influence of difference that makes a house e times more likely to win
TEMPERATURE = 1.5
GOLD = 0.08  # influence worth of one gold
PROPERTY = 0.04  # influence worth of one gold of gladiators and equipment
FIGHT_TEMPERATURE = 2.0  # dice of difference, in a single fight
FACES = range(1, 7)


#: what a bot never does on its own: a trade is an agreement two houses reach at the
#: table, entered once both agree (a bot offering one alone would give its cards away)
AGREEMENTS = ("trade",)


def options(state: Any) -> list[Action]:
    """The seat's decisions (SimpleBot's: its own intrigue-turn plays included), without
    trades and the long lists of supporter combinations."""
    found = SimpleBot.options(SimpleBot.__new__(SimpleBot), state)
    plain = [a for a in found if a.kind not in AGREEMENTS and not getattr(a, "supporters", ())]
    return plain or found


# --- determinization --------------------------------------------------------------------


def determinizer(state: Any, seat: int) -> Sampler | None:
    nets = _hidden_nets(state, seat)
    if state.config.fight_only:  # a single fight hides only a net declared (ruling C2a)
        return None if not nets else lambda world, rng: _draw_nets(world, nets, rng)
    view = GAME.view(state, seat)
    public, private = view["public"], view["private"]
    hidden_hands = "hand_sizes" in public and not state.assist
    gold_hidden = "gold" not in public
    bids = public.get("bids_entered", {})
    if not hidden_hands and not gold_hidden and not bids and not nets:
        return None
    others = [s for s in range(state.players) if s != seat]
    pool: list[str] = []
    sizes: dict[int, int] = {}
    if hidden_hands:
        sizes = {s: public["hand_sizes"][str(s)] for s in others}
        deck_size = public["intrigue_deck_size"]
        pool = sorted(_unseen(state, public, private).elements())
        assert len(pool) == deck_size + sum(sizes.values()), "unseen intrigue cards"
    own_gold = private.get("gold", public.get("gold", [0] * state.players)[seat])
    if gold_hidden:
        # the houses' gold and the bank always sum to the game's constant total
        rest = state.total_gold() - own_gold - sum(stake for _, _, stake in state.bets)
    bidders = [int(k) for k, entered in bids.items() if entered and int(k) != seat]

    def sample(world: Any, rng: Rng) -> None:
        if hidden_hands:
            cards = list(pool)
            for s in others:
                hand: dict[str, int] = {}
                for _ in range(sizes[s]):
                    i = int(rng.random() * len(cards))
                    hand[cards[i]] = hand.get(cards[i], 0) + 1
                    cards[i] = cards[-1]
                    cards.pop()
                world.hands[s] = hand
            world.intrigue_deck = dict(Counter(cards))
        if gold_hidden:
            for s in others:  # at least the gold it put on the table in a tie (public)
                world.gold[s] = max(own_gold, world.bid_totals.get(s, 0))
            world.bank = rest - sum(world.gold[s] for s in others)
        for s in bidders:
            world.bids[s] = rng.randint(0, max(0, world.gold[s] - world.bid_totals.get(s, 0)))
        _draw_nets(world, nets, rng)

    return sample


def _hidden_nets(state: Any, seat: int) -> list[str]:
    """The fighters of another seat that have declared their net while nets are still
    declared (ruling C2a: the seat does not know what they declared)."""
    fight = state.fight
    if fight is None or fight.phase != "net":
        return []
    return [side for side in fight.nets if fight.fighters[side].owner != seat]


def _draw_nets(world: Any, sides: list[str], rng: Rng) -> None:
    """Each hidden declaration drawn, throw or keep equally likely (the seat knows nothing
    of it)."""
    for side in sides:
        world.fight.nets[side] = rng.random() < 0.5


def _unseen(state: Any, public: dict[str, Any], private: dict[str, Any]) -> Counter[str]:
    """The intrigue cards ``private``'s seat cannot see: all of them less the discards,
    the guards on the table, the scheme in play and its own hand."""
    total = Counter(state.data.intrigue_deck())
    total -= Counter(public.get("intrigue_discard", {}))
    total -= Counter(card for guards in public.get("guards", []) for card in guards)
    total -= Counter(private.get("hands", {}))
    scheme = public.get("scheme")
    if scheme and scheme.get("card") in total:
        total[scheme["card"]] -= 1
    return +total


# --- exact decisions in a fight ---------------------------------------------------------


def exact(state: Any, seat: int) -> SearchResult | None:
    fight = state.fight if state.phase == "fight" else None
    if fight is None:
        return None
    if fight.phase == "reroll_choice":
        return _reroll(fight)
    if fight.phase == "wound":
        return _wound(fight)
    return None


def _outcomes(faces: tuple[int, ...], reroll: int | None) -> list[tuple[tuple[int, ...], float]]:
    if reroll is None:
        return [(faces, 1.0)]
    rest = list(faces)
    rest.remove(reroll)
    return [(sort_faces([*rest, new]), 1 / 6) for new in FACES]


def reroll_values(fight: Any) -> dict[int | None, float]:
    """Each option of the side choosing a reroll now (``None``: keep, else the face to
    reroll), with its exact expected wound difference for that side; a pending reroll of
    the other side is its best answer by the same measure (ruling C7b)."""
    side = fight.reroll_pending[0]
    attacker = fight.attacker
    defender = fight.other(attacker)
    mods = fight.modifiers(attacker)
    chosen = dict(fight.reroll_faces)
    answer = fight.reroll_pending[1] if len(fight.reroll_pending) > 1 else None

    def diff(att_choice: int | None, def_choice: int | None) -> float:
        total = 0.0
        for a, pa in _outcomes(fight.rolls[attacker], att_choice):
            for d, pd in _outcomes(fight.rolls[defender], def_choice):
                o = attack_outcome(a, d, mods)
                total += pa * pd * (o.to_defender - o.to_attacker)
        return total

    def value(choices: dict[str, int | None], who: str) -> float:
        v = diff(choices.get(attacker), choices.get(defender))
        return v if who == attacker else -v

    out: dict[int | None, float] = {}
    for option in [None, *sorted(set(fight.rolls[side]))]:
        choices = {**chosen, side: option}
        if answer is not None:
            best = _best_option(
                {r: value({**choices, answer: r}, answer) for r in _faces_of(fight, answer)}
            )
            choices[answer] = best
        out[option] = value(choices, side)
    return out


def _faces_of(fight: Any, side: str) -> list[int | None]:
    return [None, *sorted(set(fight.rolls[side]))]


def _best_option(values: dict[int | None, float]) -> int | None:
    """The best option: the highest value, keeping on a tie, else the lowest face."""
    top = max(values.values())
    if values.get(None, -1e9) >= top - 1e-12:
        return None
    return min(f for f, v in values.items() if f is not None and v >= top - 1e-12)


def _reroll(fight: Any) -> SearchResult:
    side = fight.reroll_pending[0]
    values = reroll_values(fight)
    best = _best_option(values)
    order = sorted(values, key=lambda f: (f != best, -values[f]))
    choices = tuple(
        Choice(A.KeepRoll(side) if f is None else A.Reroll(side, f), 0, values[f]) for f in order
    )
    return SearchResult(choices, 0, exact=True)


def exchange_value(fight: Any, side: str, dice: list[int]) -> tuple[float, float]:
    """With ``dice`` for ``side``: the exact chance that its next attack defeats the
    opponent less the chance that the opponent's next attack defeats it, and the expected
    wound difference of those two attacks."""
    me, foe = fight.fighters[side], fight.fighters[fight.other(side)]
    life = sum(dice)
    mine = attack_odds(
        max(1, dice[0]),
        max(1, foe.defence),
        fight.modifiers(side),
        attack_reroll=bool(me.effects("reroll_attack")),
        defence_reroll=bool(foe.effects("reroll_defence")),
        defender_life=foe.life,
        attacker_life=life,
    )
    theirs = attack_odds(
        max(1, foe.attack),
        max(1, dice[1]),
        fight.modifiers(foe.side),
        attack_reroll=bool(foe.effects("reroll_attack")),
        defence_reroll=bool(me.effects("reroll_defence")),
        defender_life=life,
        attacker_life=foe.life,
    )
    win = _defeat(mine.defender_levels) - _defeat(theirs.defender_levels)
    wounds = float(mine.expected_wounds - theirs.expected_wounds)
    return float(win), wounds


def _defeat(levels: dict[str, Fraction]) -> Fraction:
    return 1 - levels["none"]


def wound_values(fight: Any) -> dict[int, tuple[float, float]]:
    """Each attribute the wound may take a die from (rule C12), with its exchange value."""
    side = fight.wound_queue[0][0]
    dice = fight.fighters[side].dice
    out = {}
    for i in wound_choices(dice):
        after = list(dice)
        after[i] -= 1
        out[i] = exchange_value(fight, side, after)
    return out


def _wound(fight: Any) -> SearchResult:
    side = fight.wound_queue[0][0]
    values = wound_values(fight)
    # the best exchange; on a tie speed goes first, then defence (a steady preference)
    prefer = {2: 0, 1: 1, 0: 2}
    order = sorted(
        values, key=lambda i: (-round(values[i][0], 12), -round(values[i][1], 12), prefer[i])
    )
    choices = tuple(Choice(A.Wound(side, ATTRS[i]), 0, values[i][0]) for i in order)
    return SearchResult(choices, 0, exact=True)


def rollout(state: Any, rng: Rng) -> Action:
    return SimpleBot(rng).choose(state)


def attack_odds_text(state: Any, action: Action) -> str | None:
    """A hint's exact odds of an attack in a fight (``Fight.odds``): the chance that it
    defeats the opponent (yields, injured or decapitated) and the expected wounds."""
    if not isinstance(action, A.Attack | A.QuickAttack) or state.phase != "fight":
        return None
    fight = state.fight
    odds = fight.odds(fight.active.side, quick=isinstance(action, A.QuickAttack))
    defeat = 1 - odds.defender_levels["none"]
    hurt = 1 - odds.attacker_levels["none"]
    return (
        f"attack odds: opponent defeated {float(defeat):.0%}, expected wounds "
        f"{float(odds.expected_wounds):.2f}; you defeated by the counter {float(hurt):.0%}"
    )


# --- evaluation -------------------------------------------------------------------------


def evaluate(state: Any) -> list[float]:
    if state.config.fight_only:
        fight = state.fight
        life = [0.0, 0.0]
        for f in fight.fighters.values():
            life[f.owner] += f.life
        return win_chances(life, [True, True], FIGHT_TEMPERATURE)
    scores = [
        state.influence[s] + GOLD * state.gold[s] + PROPERTY * state.gold_value(s)
        for s in range(state.players)
    ]
    return win_chances(scores, [True] * state.players, TEMPERATURE)


PROFILE = Profile(
    evaluate=evaluate,
    options=options,
    determinizer=determinizer,
    rollout_depth=10,
    exact=exact,
    odds=attack_odds_text,
    heuristic=SimpleBot,
    rollout=rollout,
    iterations={"easy": 5, "normal": 14, "strong": 140},
)
