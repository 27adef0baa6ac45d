"""Tournaments: lineups, seat rotation, repeatability, Wilson intervals, the command."""

from __future__ import annotations

import json
import random

import pytest
from scipy.stats import binomtest

from companion.cli import main
from companion.commands.arguments import BotCount, bots_option
from companion.games.search.tournament import (
    Entry,
    LineupError,
    parse_entry,
    parse_lineup,
    tournament,
    wilson,
)


def run(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:
        return 0 if exc.code is None else int(exc.code)


@pytest.mark.parametrize(("wins", "games"), [(7, 10), (0, 20), (20, 20), (35, 50)])
def test_wilson_matches_scipy(wins: int, games: int) -> None:
    low, high = wilson(wins, games)
    ci = binomtest(wins, games).proportion_ci(confidence_level=0.95, method="wilson")
    assert low == pytest.approx(ci.low, abs=1e-6)
    assert high == pytest.approx(ci.high, abs=1e-6)


def test_lineups_are_read_and_bad_ones_refused() -> None:
    assert parse_lineup("search:strong, random,heuristic") == [
        Entry("search", "strong"),
        Entry("random"),
        Entry("heuristic"),
    ]
    assert parse_entry("search") == Entry("search", "normal")
    for bad, message in [
        ("search:hard,random", "unknown level"),
        ("alphazero,random", "unknown bot"),
        ("random:easy,random", "has no level"),
        ("search", "at least two"),
    ]:
        with pytest.raises(LineupError, match=message):
            parse_lineup(bad)


def test_a_tournament_rotates_seats_and_is_repeatable() -> None:
    lineup = parse_lineup("search:easy,random")
    first = tournament("battle-royale", lineup, games=4, seed=3, generator=random.Random)
    second = tournament("battle-royale", lineup, games=4, seed=3, generator=random.Random)
    assert first.to_dict() == second.to_dict()
    assert [s.games for s in first.standings] == [4, 4]
    assert sum(s.wins for s in first.standings) == pytest.approx(4)


def test_the_command_prints_wins_with_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--game", "gladiatoren", "--bots", "search:easy,heuristic"]
    assert run([*argv, "--games", "2", "--seed", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and data["players"] == 2
    assert [s["bot"] for s in data["standings"]] == ["search:easy", "heuristic"]
    assert all(0 <= s["wilson95"][0] <= s["rate"] <= s["wilson95"][1] for s in data["standings"])
    assert data["search_moves"] > 0 and data["search_move_median_ms"] > 0
    assert run([*argv, "--games", "1", "--quiet"]) == 0
    assert "95% interval" in capsys.readouterr().out


def test_progress_names_every_bot(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--bots", "search:easy,random,heuristic", "--games", "2"]
    assert run(argv) == 0
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0] for line in lines] == ["game 1/2", "game 2/2"]
    for line in lines:
        for bot in ("search:easy", "random", "heuristic"):
            assert f"{bot} " in line.split(": wins ", 1)[1], line


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "search:ultra,random"], "unknown level"),
        (["--bots", "random,random,random,random,random,random"], "--bots"),
        (["--bots", "search,random", "--games", "0"], "must be 1 or more"),
    ],
)
def test_bad_input_is_one_message_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["tournament", "--game", "battle-royale", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_bots_option_keeps_count_and_level() -> None:
    three = bots_option("3:strong")
    assert isinstance(three, BotCount) and three == 3 and three.level == "strong"
    assert bots_option("2").level is None and bots_option("2") + 1 == 3
    for bad in ("x", "3:grand", "-1"):
        with pytest.raises(Exception, match="LEVEL|level|0 or more"):
            bots_option(bad)
