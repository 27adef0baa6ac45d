"""The ``companion`` command line: roll, dice, demo, help, version and lazy imports."""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import pytest

from companion import __version__
from companion.cli import main
from companion.dice import get_die

ROOT = Path(__file__).resolve().parent.parent


def run(argv: Sequence[str]) -> int:
    """``main(argv)``'s exit code, whether it returns or argparse exits."""
    try:
        return main(list(argv))
    except SystemExit as exc:
        return 0 if exc.code is None else int(exc.code)


def run_python(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


# --- roll -------------------------------------------------------------------------------


def test_seeded_roll_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["roll", "doom", "5", "--seed", "3"]) == 0
    first = capsys.readouterr().out
    assert run(["roll", "doom", "5", "--seed", "3"]) == 0
    second = capsys.readouterr().out
    assert first == second
    assert first.startswith("doom: ")
    labels = first.removeprefix("doom: ").strip().split(", ")
    assert len(labels) == 5
    assert set(labels) <= {f.label for f in get_die("doom").faces}


def test_seeded_roll_json_matches_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["roll", "d20", "7", "--seed", "11", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seed"] == 11
    assert run(["roll", "d20", "7", "--seed", "11"]) == 0
    assert capsys.readouterr().out.strip() == "d20: " + ", ".join(data["faces"])


def test_roll_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["roll", "star", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["die"] == "star"
    assert data["seed"] is None
    assert len(data["faces"]) == 3
    assert set(data["faces"]) <= {"two_red_stars", "one_yellow_star", "blank"}


def test_roll_default_count_is_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["roll", "red", "--json"]) == 0
    faces = json.loads(capsys.readouterr().out)["faces"]
    assert len(faces) == 1
    assert faces[0] in {str(n) for n in range(1, 7)}


def test_roll_unknown_die(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["roll", "nosuchdie"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "companion: error:" in captured.err
    assert "unknown die 'nosuchdie'" in captured.err
    assert "doom" in captured.err  # lists what is known


def test_roll_zero_dice_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["roll", "d6", "0"])
    assert info.value.code == 2
    assert "must be 1 or more" in capsys.readouterr().err


def test_roll_count_must_be_a_number(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["roll", "d6", "lots"]) == 2
    assert "'lots' is not a whole number" in capsys.readouterr().err


def test_roll_too_many_dice(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["roll", "d6", "20000"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "at most 10000" in captured.err


def test_roll_plain_die_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["roll", "d1"]) == 2
    assert "2..1000 sides" in capsys.readouterr().err


# --- dice -------------------------------------------------------------------------------


def test_dice_lists_the_table_dice(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["dice"]) == 0
    out = capsys.readouterr().out
    for name in ("doom", "star", "red", "black", "blue"):
        assert name in out


def test_dice_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["dice", "--json"]) == 0
    dice = json.loads(capsys.readouterr().out)
    names = [d["name"] for d in dice]
    assert {"doom", "star", "red", "black", "blue"} <= set(names)
    for die in dice:
        probabilities = [Fraction(f["probability"]) for f in die["faces"]]
        assert sum(probabilities) == 1, die["name"]
        assert probabilities == [get_die(die["name"]).distribution()[f["id"]] for f in die["faces"]]


# --- demo -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [2, 7])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_demo_plays_to_a_winner(
    players: int, seed: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Rich wraps at 80 columns when not on a terminal; a long end reason would split the
    # final line, so give the console room.
    monkeypatch.setenv("COLUMNS", "200")
    assert run(["demo", "--players", str(players), "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if line.strip()]
    assert "win" in lines[-1]
    assert "Game over" in lines[-2]
    assert f"{players} bots, seed {seed}" in out


@pytest.mark.slow
def test_demo_is_repeatable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")

    def without_journal_line(out: str) -> list[str]:
        return [line for line in out.splitlines() if not line.startswith("journal: ")]

    assert run(["demo", "--players", "3", "--seed", "5"]) == 0
    first = capsys.readouterr().out
    assert run(["demo", "--players", "3", "--seed", "5"]) == 0
    second = capsys.readouterr().out
    assert "journal: " in first  # each run has its own journal file ...
    assert without_journal_line(second) == without_journal_line(first)  # ... and the same game


def test_demo_rejects_an_unknown_layout(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["demo", "--layout", "nowhere"]) == 2
    err = capsys.readouterr().err
    assert 'argument --layout: "nowhere" is not a known layout' in err  # the flag's terms
    assert err.rstrip().endswith(". (hole) and C (the centre, in the middle)")  # not "..., C"


def test_a_bad_flag_is_named_as_the_flag_and_a_bad_file_as_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A flag's bad value was said as the file's key: 'invalid table configuration:
    game.bots = 7 is not allowed'."""
    assert run(["play", "battle-royale", "--bots", "7"]) == 2
    err = capsys.readouterr().err
    assert "argument --bots: 7 is not allowed; allowed: a whole number from 0 to 4" in err
    assert "game.bots" not in err
    config = tmp_path / "table.toml"
    config.write_text("[game]\nbots = 9\n", encoding="utf-8")
    assert run(["play", "battle-royale", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert f"invalid table configuration in {config}: game.bots = 9 is not allowed" in err


def test_demo_rejects_five_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["demo", "--players", "5"]) == 2
    assert "Battle Royale is for 2 to 4 players" in capsys.readouterr().err
    assert run(["demo", "--players", "11"]) == 2
    assert "Battle Royale is for 2 to 4 players" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["demo"], ["play", "battle-royale"], ["play", "spartacus"]])
@pytest.mark.parametrize("players", ["1", "0", "-2"])
def test_fewer_than_two_players_is_one_line_not_a_list_of_choices(
    command: list[str], players: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """It listed "choose from 2, 3, ..., 10", every game's counts at once (and 0 played a
    game of the default size)."""
    assert run([*command, "--players", players]) == 2
    err = capsys.readouterr().err
    assert f"argument --players: must be 2 or more, got {int(players)}" in err
    assert "choose from" not in err


#: a value for each option only some games of ``companion play`` take
ONE_GAME_VALUES = {
    "--layout": ["first-game"],
    "--map": ["duel"],
    "--teams": ["1/2"],
    "--rounds": ["3"],
    "--victory": ["points"],
    "--length": ["quick"],
    "--arena": ["default"],
    "--start-player": ["0"],
    "--autoplay": [],
    "--config": ["table.toml"],
}
#: which games take them (the rest ignored them: --length, --map, --autoplay, ...)
ONE_GAME_OPTIONS = {
    "--layout": {"battle-royale"},
    "--map": {"skirmish"},
    "--teams": {"skirmish"},
    "--rounds": {"skirmish"},
    "--victory": {"skirmish"},
    "--length": {"spartacus"},
    "--arena": {"spartacus"},
    "--start-player": {"battle-royale", "gladiatoren", "spartacus"},
    "--autoplay": {"battle-royale", "skirmish", "spartacus"},
    "--config": {"battle-royale", "skirmish", "spartacus"},
}
GAMES = ("battle-royale", "gladiatoren", "skirmish", "spartacus")


@pytest.fixture
def no_game_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    """``companion play`` returns 99 where a game would start (none is played here)."""
    from companion.commands import gladiatoren, play, skirmish, spartacus

    for module, name in (
        (play, "play_game"),
        (spartacus, "run_play"),
        (skirmish, "run_play"),
        (gladiatoren, "run_play"),
    ):
        monkeypatch.setattr(module, name, lambda *args, **kwargs: 99)


@pytest.mark.parametrize("flag", sorted(ONE_GAME_OPTIONS))
@pytest.mark.parametrize("game", GAMES)
def test_play_refuses_an_option_its_game_does_not_take(
    game: str, flag: str, no_game_starts: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by a newcomer: 'play battle-royale --length long' started a game that ignored
    --length (so --map, --rounds, --teams, --victory, --arena for three games, --autoplay
    and --config for Kampf der Gladiatoren). Another game's option is one line, exit 2."""
    from companion.cli import build_parser
    from companion.commands.arguments import not_for_this_game

    argv = ["play", game, flag, *ONE_GAME_VALUES[flag]]
    if game in ONE_GAME_OPTIONS[flag]:
        assert not_for_this_game(build_parser().parse_args(argv)) is None
        return
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("companion: error: ")
    assert f"{flag} is an option of " in err and f"'play {game}' does not take it" in err
    assert "Traceback" not in err


def test_play_spartacus_takes_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game takes --speed: 'play spartacus --autoplay --speed 4' played at speed 1."""
    from companion.commands import spartacus

    given: dict[str, object] = {}
    monkeypatch.setattr(spartacus, "_run", lambda config, **kwargs: given.update(kwargs) or 99)
    assert run(["play", "spartacus", "--autoplay", "--speed", "4"]) == 99
    assert given["speed"] == 4.0


def test_play_help_says_which_game_takes_which_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["play", "--help"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line[:2] == "  "}
    for game in GAMES:
        takes = {flag for flag, games in ONE_GAME_OPTIONS.items() if game in games}
        assert set(rows[game]) == takes


# --- help, version, imports -------------------------------------------------------------


def test_help_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "usage: companion" in out
    for command in ("demo", "dice", "roll"):
        assert command in out


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run([]) == 2
    assert "usage: companion" in capsys.readouterr().out


HEAVY_MODULES = (
    "rich",
    "numpy",
    "gpiozero",
    "serial",
    "logging",
    "typing",
    "json",
    "tomllib",
    "shutil",  # argparse imports it for the terminal width; the CLI asks os itself
)


@pytest.mark.parametrize(
    "code",
    [
        "import companion.cli",
        "import contextlib, io\nfrom companion.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n        main(['--help'])\n    except SystemExit:\n        pass",
    ],
    ids=["import", "help"],
)
def test_the_cli_and_help_stay_light(code: str) -> None:
    """``companion --help`` loads none of the heavy modules a command needs (issue 18:
    its cost on a Pi Zero 2 W; measured by bench/import_time.py, not here)."""
    check = "import sys; print(' '.join(m for m in {heavy!r} if m in sys.modules))"
    result = run_python("-c", code + "\n" + check.format(heavy=HEAVY_MODULES))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def test_the_parsers_offer_the_search_bots_levels() -> None:
    from companion.commands.arguments import BOT_LEVELS
    from companion.games.search.bot import LEVELS

    assert tuple(LEVELS) == BOT_LEVELS


def test_the_cli_offers_the_log_levels_of_companion_logs() -> None:
    from companion.cli import LOG_LEVELS
    from companion.logs import LEVELS

    assert LOG_LEVELS == LEVELS


def test_python_m_companion_version() -> None:
    result = run_python("-m", "companion", "--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"companion {__version__}"


def test_no_command_imports_the_cli_module() -> None:
    """cli.py imports the commands; a command never imports cli.py (no cycle, nothing upward):
    CommandError and the exit codes live in companion.commands.errors."""
    import ast

    for path in sorted((ROOT / "companion" / "commands").glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            assert not any(n == "companion.cli" or n.startswith("companion.cli.") for n in names), (
                path.name
            )


def test_the_top_level_help_builds_no_command_parser(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``companion --help`` lists every command with its one-line help from the declaration
    alone; a command's parser is built when it is asked for, and only that one."""
    from companion.cli import LazySubParsers, build_parser

    parser = build_parser()
    (commands,) = (a for a in parser._actions if isinstance(a, LazySubParsers))
    with pytest.raises(SystemExit):
        parser.parse_args(["--help"])
    listed = capsys.readouterr().out
    built = [n for n, p in dict.items(commands.choices) if isinstance(p, argparse.ArgumentParser)]
    assert built == []
    for pseudo in commands._get_subactions():
        assert pseudo.dest in commands.choices and pseudo.dest in listed
    assert parser.parse_args(["roll", "d6", "2"]).count == 2
    built = [n for n, p in dict.items(commands.choices) if isinstance(p, argparse.ArgumentParser)]
    assert built == ["roll"]


def test_every_command_parser_is_built_with_its_declared_prog_and_help() -> None:
    """Each lazily built parser is what ``add_parser`` made: prog ``companion CMD``, the
    declared one-line help listed for it, and its own ``--help`` printed from it."""
    from companion.cli import LazySubParsers, build_parser

    parser = build_parser()
    (commands,) = (a for a in parser._actions if isinstance(a, LazySubParsers))
    names = [pseudo.dest for pseudo in commands._get_subactions()]
    assert names == list(commands.choices)  # every declared command is listed, in order
    for name in names:
        built = commands.choices[name]
        assert built.prog == f"companion {name}"
        assert built.format_help().startswith(f"usage: companion {name}")
        assert commands.choices[name] is built  # built once


def test_a_command_declared_twice_is_refused() -> None:
    from companion.cli import LazySubParsers

    parser = argparse.ArgumentParser(prog="x")
    sub = parser.add_subparsers(dest="command", action=LazySubParsers)
    sub.add_lazy_parser("a", lambda p: None, help="a")
    with pytest.raises(argparse.ArgumentError, match="conflicting subparser: a"):
        sub.add_lazy_parser("a", lambda p: None, help="again")


@pytest.mark.parametrize("columns", [None, "100", "40", "0", "-5", "wide"])
def test_help_width_is_shutils(columns: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The help formatter's width is the one argparse would take from shutil."""
    import shutil

    from companion.cli import terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns


@pytest.mark.parametrize("game", ["battle-royale", "gladiatoren", "skirmish", "spartacus"])
def test_a_seed_the_companion_drew_is_not_shown_on_the_shared_screen(
    game: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a review: the start line showed the seed it drew, and from the seed and the
    moves everyone saw, a player with a laptop worked out every hand, deck and die roll
    (Spartacus: 15 of 15 draws). A seed the person typed is still shown."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # nobody types: the game stops
    run(["play", game, "--players", "2"])
    assert " seed " not in capsys.readouterr().out.replace("\n", " ")
    run(["play", game, "--players", "2", "--seed", "7"])
    assert "seed 7" in capsys.readouterr().out
