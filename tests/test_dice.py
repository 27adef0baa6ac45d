"""Table dice: fairness (chi-square), exact distributions, rollers and data validation."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction

import pytest

from companion.dice import DiceError, Roller, builtin_dice, get_die, parse_dice

SAMPLE = 60_000
SEED = 1234
ALL_DICE = ("doom", "star", "red", "black", "blue", "d6", "d20")

# Upper 0.001 critical values of the chi-square distribution, by degrees of freedom.
CHI2_CRITICAL_0001 = {
    1: 10.828,
    2: 13.816,
    3: 16.266,
    4: 18.467,
    5: 20.515,
    6: 22.458,
    7: 24.322,
    8: 26.124,
    9: 27.877,
    10: 29.588,
    11: 31.264,
    12: 32.909,
    13: 34.528,
    14: 36.123,
    15: 37.697,
    16: 39.252,
    17: 40.790,
    18: 42.312,
    19: 43.820,
    20: 45.315,
}


def chi_square(observed: Mapping[str, int], expected: Mapping[str, Fraction]) -> float:
    """Pearson's statistic of ``observed`` counts against probabilities ``expected``."""
    unexpected = set(observed) - set(expected)
    assert not unexpected, f"outcomes outside the distribution: {unexpected}"
    n = sum(observed.values())
    stat = 0.0
    for key, p in expected.items():
        e = n * float(p)
        stat += (observed.get(key, 0) - e) ** 2 / e
    return stat


def fits(observed: Mapping[str, int], expected: Mapping[str, Fraction]) -> bool:
    """Goodness of fit at the 0.001 level (k outcomes: k - 1 degrees of freedom)."""
    return chi_square(observed, expected) < CHI2_CRITICAL_0001[len(expected) - 1]


def roll_counts(name: str, seed: int = SEED, n: int = SAMPLE) -> Counter[str]:
    die = get_die(name)
    return Counter(face.id for face in Roller.seeded(seed).roll_many(die, n))


# --- fairness --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL_DICE)
def test_rolls_fit_the_die_distribution(name: str) -> None:
    counts = roll_counts(name)
    dist = get_die(name).distribution()
    assert set(counts) == set(dist), "every face should turn up in 60,000 rolls"
    stat = chi_square(counts, dist)
    assert stat < CHI2_CRITICAL_0001[len(dist) - 1], f"{name}: chi-square {stat:.2f}"


def test_chi_square_check_rejects_a_wrong_mapping() -> None:
    """The fairness check can fail: star rolls against swapped probabilities are rejected."""
    counts = roll_counts("star")
    right = get_die("star").distribution()
    swapped = {
        "two_red_stars": right["blank"],
        "one_yellow_star": right["one_yellow_star"],
        "blank": right["two_red_stars"],
    }
    assert fits(counts, right)
    assert not fits(counts, swapped)
    assert chi_square(counts, swapped) > 100 * CHI2_CRITICAL_0001[2]


def test_chi_square_check_rejects_a_slightly_loaded_die() -> None:
    """A d6 whose six comes up 1/5 of the time (instead of 1/6) is caught at 60,000 rolls."""
    rng = random.Random(SEED)
    weights = [4, 4, 4, 4, 4, 5]  # / 25
    counts = Counter(rng.choices([str(i) for i in range(1, 7)], weights, k=SAMPLE))
    assert not fits(counts, get_die("d6").distribution())


# --- exact distributions ----------------------------------------------------------------


def test_star_die_distribution_is_exact() -> None:
    assert get_die("star").distribution() == {
        "two_red_stars": Fraction(1, 6),
        "one_yellow_star": Fraction(1, 3),
        "blank": Fraction(1, 2),
    }
    assert get_die("star").sides == 6


@pytest.mark.parametrize("name", ["red", "black", "blue"])
def test_spartacus_dice_are_fair_d6(name: str) -> None:
    die = get_die(name)
    assert die.sides == 6
    assert die.distribution() == {str(n): Fraction(1, 6) for n in range(1, 7)}
    assert die.game == "spartacus"


@pytest.mark.parametrize("name", ALL_DICE)
def test_distribution_sums_to_exactly_one(name: str) -> None:
    dist = get_die(name).distribution()
    assert all(isinstance(p, Fraction) and p > 0 for p in dist.values())
    assert sum(dist.values()) == 1


def test_every_builtin_die_sums_to_one() -> None:
    for die in builtin_dice().values():
        assert sum(die.distribution().values()) == 1, die.name


def test_plain_die_faces() -> None:
    d20 = get_die("d20")
    assert d20.sides == 20
    assert [f.id for f in d20.faces] == [str(n) for n in range(1, 21)]
    assert d20.distribution()["20"] == Fraction(1, 20)


def test_shipped_doom_die_has_the_four_battle_royale_faces() -> None:
    doom = builtin_dice()["doom"]
    ids = [f.id for f in doom.faces]
    assert sorted(ids) == sorted(["battle_royale", "move_eliminator", "explosion", "free_choice"])
    assert len(ids) == 4
    assert doom.game == "battle-royale"


def test_face_for_side_walks_the_faces() -> None:
    star = get_die("star")
    assert [star.face_for_side(s).id for s in range(6)] == [
        "two_red_stars",
        "one_yellow_star",
        "one_yellow_star",
        "blank",
        "blank",
        "blank",
    ]
    with pytest.raises(DiceError, match="side 6"):
        star.face_for_side(6)
    with pytest.raises(DiceError, match="no face 'gold'"):
        star.face("gold")


# --- rollers ----------------------------------------------------------------------------


def test_default_roller_uses_the_system_generator() -> None:
    roller = Roller()
    assert roller.is_system
    assert roller.seed is None
    assert isinstance(roller._rng, random.SystemRandom)
    assert roller.roll(get_die("doom")).id in get_die("doom").distribution()


def test_seeded_rollers_repeat_exactly() -> None:
    a, b = Roller.seeded(99), Roller.seeded(99)
    assert not a.is_system
    assert a.seed == 99
    for name in ALL_DICE:
        die = get_die(name)
        assert [f.id for f in a.roll_many(die, 200)] == [f.id for f in b.roll_many(die, 200)]
    other = Roller.seeded(100)
    d20 = get_die("d20")
    assert [f.id for f in Roller.seeded(99).roll_many(d20, 50)] != [
        f.id for f in other.roll_many(d20, 50)
    ]


@pytest.mark.parametrize("count", [0, -1, 2.5])
def test_roll_many_rejects_bad_counts(count) -> None:
    with pytest.raises(DiceError, match="count"):
        Roller.seeded(1).roll_many(get_die("d6"), count)


def _choose_counts(outcomes: list[tuple[str, Fraction]], n: int = SAMPLE) -> Counter[str]:
    roller = Roller.seeded(SEED)
    return Counter(roller.choose(outcomes) for _ in range(n))


@pytest.mark.parametrize(
    "outcomes",
    [
        [("a", Fraction(1, 2)), ("b", Fraction(1, 3)), ("c", Fraction(1, 6))],
        [
            ("w", Fraction(2, 7)),
            ("x", Fraction(1, 5)),
            ("y", Fraction(3, 10)),
            ("z", Fraction(3, 14)),
        ],
        [("only", Fraction(1))],
    ],
    ids=["halves-thirds-sixths", "mixed-denominators", "certain"],
)
def test_choose_follows_the_probabilities(outcomes: list[tuple[str, Fraction]]) -> None:
    assert sum(p for _, p in outcomes) == 1
    counts = _choose_counts(outcomes)
    expected = dict(outcomes)
    if len(expected) == 1:
        assert counts == {"only": SAMPLE}
        return
    assert set(counts) == set(expected)
    assert fits(counts, expected), chi_square(counts, expected)


def test_choose_never_picks_a_zero_probability_outcome() -> None:
    outcomes = [("never", Fraction(0)), ("a", Fraction(1, 4)), ("b", Fraction(3, 4))]
    counts = _choose_counts(outcomes, 20_000)
    assert "never" not in counts
    assert fits(counts, {"a": Fraction(1, 4), "b": Fraction(3, 4)})


def test_choose_follows_a_die_distribution_as_a_chance_node() -> None:
    doom = get_die("doom").distribution()
    counts = _choose_counts(list(doom.items()))
    assert fits(counts, doom)


def test_choose_with_no_outcomes_is_an_error() -> None:
    with pytest.raises(DiceError, match="no outcomes"):
        Roller.seeded(1).choose([])
    with pytest.raises(DiceError, match="no outcomes"):
        Roller().choose([])


@pytest.mark.parametrize(
    "outcomes",
    [
        [("a", Fraction(1, 2)), ("b", Fraction(1, 2)), ("c", Fraction(1, 2))],
        [("a", Fraction(1, 2))],
        [("a", Fraction(3, 2)), ("b", Fraction(-1, 2))],
    ],
)
def test_choose_refuses_probabilities_that_do_not_sum_to_one(outcomes) -> None:
    with pytest.raises(DiceError, match="sum to exactly 1"):
        Roller.seeded(1).choose(outcomes)


# --- names and data validation ----------------------------------------------------------


def test_unknown_die_lists_the_known_dice() -> None:
    with pytest.raises(DiceError) as info:
        get_die("nosuchdie")
    message = str(info.value)
    assert "'nosuchdie'" in message
    for name in ("doom", "star", "red", "black", "blue"):
        assert name in message
    assert "d6" in message  # says how to name a plain die


@pytest.mark.parametrize("name", ["d1", "d1001", "d9999"])
def test_plain_dice_outside_2_to_1000_sides_are_rejected(name: str) -> None:
    with pytest.raises(DiceError, match="2..1000 sides"):
        get_die(name)


@pytest.mark.parametrize("name", ["d0", "d", "D6", "d06", "6", "d-3", "d10000"])
def test_malformed_plain_names_are_unknown(name: str) -> None:
    with pytest.raises(DiceError, match="unknown die"):
        get_die(name)


@pytest.mark.parametrize("name", ["d2", "d1000"])
def test_plain_dice_limits_are_allowed(name: str) -> None:
    assert get_die(name).sides == int(name[1:])


def _doc(*dice: object) -> dict[str, object]:
    return {"format": "companion-dice/1", "dice": list(dice)}


def test_parse_dice_accepts_a_valid_document() -> None:
    dice = parse_dice(
        _doc(
            {"name": "coin", "faces": [{"id": "heads"}, {"id": "tails"}]},
            {"name": "d8ish", "numeric": 8},
            {"name": "loaded", "faces": [{"id": "x", "count": 5}, {"id": "y"}]},
        )
    )
    assert dice["coin"].distribution() == {"heads": Fraction(1, 2), "tails": Fraction(1, 2)}
    assert dice["d8ish"].sides == 8
    assert dice["loaded"].distribution() == {"x": Fraction(5, 6), "y": Fraction(1, 6)}


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"name": "bad", "faces": [{"id": "a"}, {"id": "a"}]}, "face id twice"),
        (
            {"name": "bad", "faces": [{"id": "a", "count": 0}]},
            "'count' must be a whole number >= 1, got 0",
        ),
        ({"name": "bad", "faces": [{"id": "a", "count": -2}]}, "got -2"),
        ({"name": "bad", "faces": [{"id": "a", "count": True}]}, "'count'"),
        ({"name": "bad"}, "needs a non-empty 'faces' list or 'numeric'"),
        ({"name": "bad", "faces": []}, "needs a non-empty 'faces' list"),
        ({"name": "d6", "faces": [{"id": "a"}]}, "'d6' is reserved for plain dice"),
        ({"name": "d20", "numeric": 20}, "reserved for plain dice"),
        ({"faces": [{"id": "a"}]}, "needs a non-empty 'name'"),
        ({"name": "bad", "faces": [{"label": "no id"}]}, "needs an 'id' string"),
        ({"name": "bad", "numeric": "6"}, "'numeric' must be a whole number"),
        ("not an object", "must be an object"),
    ],
    ids=[
        "duplicate-face",
        "count-0",
        "count-negative",
        "count-bool",
        "missing-faces",
        "empty-faces",
        "reserved-d6",
        "reserved-d20",
        "no-name",
        "face-without-id",
        "numeric-text",
        "not-object",
    ],
)
def test_parse_dice_errors_name_the_problem(entry: object, message: str) -> None:
    with pytest.raises(DiceError, match=message) as info:
        parse_dice(_doc(entry), "my-dice.json")
    assert "my-dice.json" in str(info.value)


def test_parse_dice_rejects_a_die_defined_twice() -> None:
    coin = {"name": "coin", "faces": [{"id": "h"}, {"id": "t"}]}
    with pytest.raises(DiceError, match="'coin' is defined twice"):
        parse_dice(_doc(coin, coin))


@pytest.mark.parametrize("data", [None, [], {"dice": {}}, {"no_dice": []}])
def test_parse_dice_rejects_documents_without_a_dice_list(data: object) -> None:
    with pytest.raises(DiceError, match="'dice' list"):
        parse_dice(data)


def _all_ids(dice: Iterable[str]) -> set[str]:
    return {f.id for name in dice for f in get_die(name).faces}


def test_face_ids_are_unique_per_die() -> None:
    for die in builtin_dice().values():
        ids = [f.id for f in die.faces]
        assert len(ids) == len(set(ids)), die.name
    assert {"battle_royale", "blank", "1", "6"} <= _all_ids(["doom", "star", "red"])
