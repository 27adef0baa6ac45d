"""Exact combat odds: hand-checked numbers, and agreement with a Monte-Carlo run of the engine."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction as F
from itertools import product

import pytest
from kdg_helpers import position_game, team

from companion.dice import Roller
from companion.games.kampf_der_gladiatoren import parse_action
from companion.games.kampf_der_gladiatoren import rules as R
from companion.games.kampf_der_gladiatoren.bot import PolicyBot
from companion.games.kampf_der_gladiatoren.data import default_data
from companion.games.kampf_der_gladiatoren.odds import (
    STAR_DIE,
    Fighter,
    animal_fighter,
    apply_nets,
    combat_odds,
    give_up_choice,
    net_choice,
    odds_for_challenge,
    prefers_reroll,
    strike_result,
    team_fighter,
)
from companion.games.kampf_der_gladiatoren.rules import KINDS, roll_outcomes

ANIMALS = default_data().animals


def animal(name: str, stars: int = 0):
    return animal_fighter(default_data().animal(name), stars)


def test_roll_outcomes_are_the_exact_multinomial():
    faces = (F(1, 6), F(2, 6), F(3, 6))
    outcomes = dict(roll_outcomes(2, faces))
    assert outcomes == {
        (0, 0, 2): F(1, 4),
        (0, 1, 1): F(1, 3),
        (0, 2, 0): F(1, 9),
        (1, 0, 1): F(1, 6),
        (1, 1, 0): F(1, 9),
        (2, 0, 0): F(1, 36),
    }
    for n in range(1, 7):
        assert sum(p for _, p in roll_outcomes(n, faces)) == 1
        assert len(roll_outcomes(n, faces)) == (n + 1) * (n + 2) // 2


def test_one_sword_against_the_wolf_by_hand():
    # the wolf (1 spear) rolls first with 1 die: a double star takes the lone sword (1/6);
    # otherwise the team's 2 dice defeat the 1-hit wolf unless both are blank (3/4)
    odds = combat_odds(team_fighter(["sword"]), animal("wolf"))
    assert odds.first == 1
    assert odds.joint == {(0, 0): F(5, 24), (0, 1): F(5, 8), (1, 0): F(1, 6)}
    assert odds.out(0) == F(1, 6) and odds.out(1) == F(5, 8)
    assert odds.expected(1) == F(5, 8)


def test_the_second_rollers_reroll_by_hand():
    # B (spear) rolls first with 1 die; A strikes back with 2 dice and may reroll (trident):
    # the policy rerolls exactly the rolls that took nothing, so B falls with 5/12 * 19/12
    odds = combat_odds(team_fighter(["trident", "sword"]), team_fighter(["spear"]))
    assert odds.first == 1
    assert odds.joint == {
        (0, 0): F(245, 864),
        (0, 1): F(475, 864),
        (1, 0): F(7, 72),
        (1, 1): F(5, 72),
    }


def test_marginals_and_units():
    odds = combat_odds(team_fighter(["net", "sword", "sword", "shield"]), animal("elephant", 1))
    assert sum(odds.joint.values()) == 1
    assert sum(odds.challenger_losses.values()) == sum(odds.defender_losses.values()) == 1
    assert max(odds.defender_losses) == 3  # the elephant has 4 hits and 1 star already
    assert odds.defender.unit == "hit stars" and odds.challenger.unit == "gladiators"


def test_the_policy_choices():
    active = [1, 1, 1, 0, 1]
    assert KINDS[net_choice(active, True)] == "net"
    assert KINDS[net_choice(active, False)] == "sword"
    assert give_up_choice([0, 0, 2, 1, 0], [0, 0, 1, 0, 0]) == (KINDS.index("sword"), True)
    assert give_up_choice([0, 0, 2, 1, 0], [0] * 5) == (KINDS.index("trident"), False)
    with pytest.raises(ValueError):
        team_fighter(["sword"] * 5)
    with pytest.raises(ValueError):
        animal("lion", 2)


def test_odds_for_a_challenge_in_a_running_game():
    state = position_game(
        [team("R sword sword", "E", stars=1), team("Y shield", "F")],
        [{"animal": "lion", "field": "I", "stars": 1}],
    )
    odds = odds_for_challenge(state, state.board[4], state.board[state.arena.index("I")])
    assert odds.challenger.stars == 1 and odds.defender.stars == 1
    assert odds.joint == combat_odds(team_fighter(["sword", "sword"], 1), animal("lion", 1)).joint


MATCHES = [
    ("R net sword sword trident", "Y spear sword sword shield", None),  # the rulebook's example
    ("R net sword sword shield", None, "lion"),  # the animal rerolls
    ("R spear net net sword", "Y net trident sword shield", None),  # nets both ways, reroll
    ("R trident trident sword", None, "crocodile"),  # the team rerolls against shields
]


def monte_carlo(red: str, yellow: str | None, beast: str | None, n: int, seed: int) -> Counter:
    teams = [team(red, "E"), team("Y sword", "Q")]
    animals = []
    if yellow:
        teams.append(team(yellow, "F"))
    else:
        animals.append({"animal": beast, "field": "F"})
    start = position_game(teams, animals)
    roller, bot = Roller.seeded(seed), PolicyBot(random.Random(seed))
    counts: Counter = Counter()
    for _ in range(n):
        state = _fresh(start)
        state.apply(parse_action("challenge E F"))
        while state.combat is not None:
            events = state.apply(
                roller.choose(state.chance_outcomes())
                if state.is_chance_node
                else bot.choose(state)
            )
        counts[tuple(next(e for e in events if e.kind == "combat_ended").data["lost"])] += 1
    return counts


def _fresh(start):
    from companion.games.kampf_der_gladiatoren import new_game

    return new_game(start.config)


@pytest.mark.slow
@pytest.mark.parametrize(("red", "yellow", "beast"), MATCHES)
def test_exact_odds_match_a_monte_carlo_run_of_the_engine(red, yellow, beast):
    n = 2500
    counts = monte_carlo(red, yellow, beast, n, seed=20020)
    challenger = team_fighter(red.split()[1:])
    defender = team_fighter(yellow.split()[1:]) if yellow else animal(beast)
    odds = combat_odds(challenger, defender)
    assert set(counts) <= set(odds.joint)  # nothing the exact odds call impossible
    for outcome, p in odds.joint.items():
        freq = counts[outcome] / n
        sd = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(freq - float(p)) <= 4.5 * sd + 2 / n, (outcome, freq, float(p))


def brute_force(challenger: Fighter, defender: Fighter) -> dict[tuple[int, int], F]:
    """Every ordered roll of every die (and every reroll), one die at a time, in fractions:
    the rules functions and the policy's decisions worked out from these rolls alone."""
    faces = STAR_DIE

    def rolls(n: int) -> list[tuple[tuple[int, int, int], F]]:
        out = []
        for dice in product(range(3), repeat=n):  # 0 double, 1 single, 2 blank
            p = F(1)
            for d in dice:
                p *= faces[d]
            out.append(((dice.count(0), dice.count(1), dice.count(2)), p))
        return out

    def strike_back(target: Fighter, striker: Fighter) -> dict[int, F]:
        outs = [(strike_result(target, r)[0], p) for r, p in rolls(striker.dice)]
        fresh = sum(loss * p for loss, p in outs)
        can = striker.dice > 0 and R.may_reroll(striker.active[R.TRIDENT], target.active[R.TRIDENT])
        dist: dict[int, F] = {}
        for loss, p in outs:
            for loss2, p2 in outs if can and fresh > loss else [(loss, F(1))]:
                dist[loss2] = dist.get(loss2, F(0)) + p * p2
        return dist

    def means(joint: dict) -> tuple[F, F]:
        return (sum(k[0] * p for k, p in joint.items()), sum(k[1] * p for k, p in joint.items()))

    first = R.first_roller(challenger.active[R.SPEAR], defender.active[R.SPEAR])
    f, s = (challenger, defender) if first == 0 else (defender, challenger)
    f, s = apply_nets(f, s)
    parts = []
    for roll, p in rolls(f.dice):
        lost, after = strike_result(s, roll)
        joint = (
            {(0, lost): F(1)}
            if after is None
            else {(l1, lost): q for l1, q in strike_back(f, after).items()}
        )
        parts.append((joint, p))
    fresh: dict = {}
    for joint, p in parts:
        for k, q in joint.items():
            fresh[k] = fresh.get(k, F(0)) + p * q
    if f.dice and R.may_reroll(f.active[R.TRIDENT], s.active[R.TRIDENT]):
        mixed: dict = {}
        for joint, p in parts:
            for k, q in (fresh if prefers_reroll(means(joint), means(fresh)) else joint).items():
                mixed[k] = mixed.get(k, F(0)) + p * q
        fresh = mixed
    if first == 1:
        fresh = {(b, a): p for (a, b), p in fresh.items()}
    return {k: p for k, p in sorted(fresh.items()) if p}


@pytest.mark.parametrize(
    ("red", "other"),
    [
        ("sword sword trident", "lion"),  # the lion (2 tridents) rerolls as second roller
        ("trident trident sword", "crocodile"),  # the team rerolls against shields
        ("net sword sword trident", "spear sword sword shield"),  # the rulebook's example
        ("spear net net", "net trident shield"),  # nets both ways, the second roller rerolls
    ],
)
def test_exact_odds_equal_brute_force(red: str, other: str) -> None:
    challenger = team_fighter(red.split())
    defender = animal(other) if other in {a.id for a in ANIMALS} else team_fighter(other.split())
    assert combat_odds(challenger, defender).joint == brute_force(challenger, defender)
