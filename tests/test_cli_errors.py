"""Errors are messages: every failure a user can cause is one line, exit 2, no traceback,
and no file left behind; a hypothesis test feeds the CLI random input."""

from __future__ import annotations

import io
import os
import string
import sys
from pathlib import Path

import pytest
from gpiozero import Device
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.commands.errors import EXIT_CODES

ROOT = Path(__file__).resolve().parent.parent


def run(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse: --help, or a usage error
        return 0 if exc.code is None else int(exc.code)


def files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


@pytest.fixture
def data_home() -> Path:
    return Path(os.environ["XDG_DATA_HOME"])


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "battle-royale", "--hardware", "gpio"],
        ["play", "battle-royale", "--hardware", "gpio", "--mode", "assist"],
        ["play", "skirmish", "--hardware", "gpio"],
        ["play", "spartacus", "--hardware", "gpio"],
        ["gladiatoren", "play", "--hardware", "gpio"],
        ["gladiatoren", "dice", "--hardware", "gpio"],
        ["gladiatoren", "combat", "sword", "lion", "--hardware", "gpio", "--auto"],
        ["spartacus", "fight", "--hardware", "gpio"],
        ["attack", "--attacker", "1", "--target", "2", "--hardware", "gpio"],
        ["serve", "--hardware", "gpio"],
        ["selftest", "--hardware", "gpio"],
    ],
)
def test_gpio_on_a_laptop_is_one_message_and_leaves_no_journal(argv, no_pins, data_home, capsys):
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("companion: error: cannot open the gpio hardware") and err.count("\n") == 1
    )
    assert "--hardware sim" in err and "Traceback" not in err
    assert files_under(data_home) == []


def test_the_pin_libraries_gpiozero_tried_are_in_the_one_message(monkeypatch, data_home, capsys):
    import warnings

    from gpiozero.exc import BadPinFactory, PinFactoryFallback

    def no_factory():  # what gpiozero does on a laptop: one warning per library, then fails
        for name, why in (("lgpio", "No module named 'lgpio'"), ("native", "not a Pi")):
            warnings.warn(PinFactoryFallback(f"Falling back from {name}: {why}"), stacklevel=1)
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    assert run(["play", "battle-royale", "--hardware", "gpio", "--bots", "4"]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("companion: error: cannot open the gpio hardware") and err.count("\n") == 1
    )
    assert "tried lgpio: No module named 'lgpio', native: not a Pi" in err
    assert files_under(data_home) == []


def test_a_busy_pin_reported_by_the_pin_library_is_one_message(monkeypatch, data_home, capsys):
    busy = type("error", (Exception,), {"__module__": "lgpio"})  # lgpio.error, as on a Pi

    def held(*args, **kwargs):
        raise busy("GPIO busy")

    monkeypatch.setattr("companion.commands.at_table.open_hardware", held)
    assert run(["play", "battle-royale", "--hardware", "gpio", "--bots", "4"]) == 2
    err = capsys.readouterr().err
    assert "cannot open the Pi's pins: GPIO busy" in err and "systemctl stop companion" in err
    assert "Traceback" not in err and files_under(data_home) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "battle-royale", "--hardware", "serial", "--bots", "4"],
        ["play", "battle-royale", "--hardware", "serial", "--mode", "assist"],
        ["serve", "--hardware", "serial"],
    ],
)
def test_no_io_board_is_one_message_and_leaves_no_journal(argv, no_board, data_home, capsys):
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert "cannot open the serial hardware: no I/O board" in err and "Traceback" not in err
    assert files_under(data_home) == []


def test_a_virtual_board_that_cannot_start_is_one_message(monkeypatch, data_home, capsys):
    from companion.hal import virtual_board

    def broken(**kwargs):
        raise ImportError("another module named machine hides the MicroPython shims")

    monkeypatch.setattr(virtual_board, "open_virtual_board", broken)
    assert run(["demo", "--hardware", "virtual-board"]) == 2
    err = capsys.readouterr().err
    assert "the virtual I/O board cannot start" in err and "Traceback" not in err
    assert files_under(data_home) == []


def test_a_start_that_fails_before_the_game_begins_leaves_no_journal(
    monkeypatch, data_home, capsys
):
    from companion.table.loop import TrackedTable

    def broken(self):
        raise RuntimeError("the table could not start")

    monkeypatch.setattr(TrackedTable, "run", broken)
    with pytest.raises(RuntimeError):  # a bug is still a bug, but it leaves no file
        main(["demo"])
    assert files_under(data_home) == []
    assert "its journal was removed" in capsys.readouterr().out


def test_a_journal_that_exists_already_is_a_message(tmp_path, capsys):
    path = tmp_path / "taken.jsonl"
    path.write_text("mine\n")
    assert run(["demo", "--journal", str(path)]) == 2
    assert "exists already" in capsys.readouterr().err
    assert path.read_text() == "mine\n"


def test_a_journal_in_an_unwritable_place_is_a_message(tmp_path, capsys):
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert run(["demo", "--journal", str(blocked / "game.jsonl")]) == 2
    assert "cannot start the journal" in capsys.readouterr().err


def test_the_exit_codes_are_documented():
    readme = (ROOT / "README.md").read_text()
    journal = (ROOT / "docs" / "journal.md").read_text()
    for code in EXIT_CODES:
        assert f"| {code} |" in readme, code
        assert f"| {code} |" in journal, code


# -- random input -----------------------------------------------------------------------------

COMMANDS = [
    ["roll"],
    ["dice"],
    ["replay"],
    ["resume"],
    ["journals"],
    ["journals", "prune"],
    ["journals", "unfinished"],
    ["play", "battle-royale"],
    ["play", "skirmish"],
    ["play", "spartacus"],
    ["demo", "--game", "skirmish", "--rounds", "1"],
    ["attack"],
    ["gladiatoren", "dice"],
    ["gladiatoren", "combat"],
    ["gladiatoren", "play"],
    ["spartacus", "fight"],
    ["spartacus", "resume"],
    ["spartacus", "cards", "check"],
    ["selftest"],
    ["safe-off"],
    ["calibrate"],
    ["config", "path"],
    ["config", "example"],
    ["firmware", "path"],
]
#: Commands whose first argument is a journal file.
JOURNAL_COMMANDS = (["replay"], ["resume"], ["spartacus", "resume"])
FLAGS = [
    "--players",
    "--bots",
    "--seed",
    "--mode",
    "--hardware",
    "--config",
    "--data",
    "--layout",
    "--start-player",
    "--until-line",
    "--turn",
    "--json",
    "--keep",
    "--map",
    "--teams",
    "--rounds",
    "--victory",
    "--attacker",
    "--target",
    "--faces",
    "--speed",
    "--length",
    "--arena",
    "--limit",
    "--dir",
    "-1",
    "-2",
    "--bot-seats",
    "--start-ms",
    "--max-ms",
    "--no-guesses",
]
WORDS = [
    "0",
    "1",
    "2",
    "3",
    "4",
    "-1",
    "99",
    "1e9",
    "nan",
    "inf",
    "sim",
    "gpio",
    "assist",
    "tracked",
    "doom",
    "d6",
    "d0",
    "lion",
    "sword",
    "1,2",
    "1,x/2",
    "{CONFIG}",
    "{DATA}",
    "{JOURNAL}",
    "{DIR}",
    "/dev/zero",
    "/nonexistent",
    "",
    "é",
]

toml_values = st.one_of(
    st.integers(-5, 20_000),
    st.booleans(),
    st.sampled_from(["assist", "tracked", "gpio", "sim", "first-game", "/dev/zero", "x"]),
    st.lists(st.sampled_from(["purple", "grey", "red", "turquoise", "pink"]), max_size=5),
)
toml_keys = st.sampled_from(
    [
        "game.players",
        "game.mode",
        "game.colours",
        "game.layout",
        "game.bots",
        "game.start_player",
        "game.data_file",
        "game.name",
        "hardware.profile",
        "hardware.pulse_ms",
        "hardware.cooldown_s",
        "hardware.bounce_ms",
        "journal.keep_finished",
        "other.key",
    ]
)


def toml_text(pairs: list[tuple[str, object]], junk: str) -> str:
    tables: dict[str, list[str]] = {}
    for key, value in pairs:
        table, name = key.split(".")
        if isinstance(value, bool):
            shown = "true" if value else "false"
        elif isinstance(value, str):
            shown = f'"{value}"'
        elif isinstance(value, list):
            shown = "[" + ", ".join(f'"{v}"' for v in value) + "]"
        else:
            shown = str(value)
        tables.setdefault(table, []).append(f"{name} = {shown}")
    text = "".join(f"[{t}]\n" + "\n".join(lines) + "\n" for t, lines in tables.items())
    return text + junk


@pytest.mark.slow
@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    command=st.sampled_from(COMMANDS),
    args=st.lists(
        st.one_of(
            st.tuples(st.sampled_from(FLAGS), st.sampled_from(WORDS)),
            st.tuples(st.sampled_from(FLAGS + WORDS)),
        ),
        max_size=4,
    ).map(lambda groups: [word for group in groups for word in group]),
    toml=st.tuples(
        st.lists(st.tuples(toml_keys, toml_values), max_size=5),
        st.text(alphabet=string.printable, max_size=20),
    ),
    data=st.one_of(
        st.binary(max_size=200),
        st.sampled_from([b"{}", b'{"layouts": 3}', b"[]", b'{"dice": [{"name": "x"}]}']),
    ),
    journal=st.one_of(
        st.binary(max_size=300), st.sampled_from([b"", b"{}\n", b'{"type":"header"}'])
    ),
    stdin=st.lists(
        st.one_of(
            st.sampled_from(["quit", "undo", "undo 9", "?", "1", "roll", "r", "b2 E N", "end"]),
            st.text(alphabet=string.printable.strip(), max_size=12),
        ),
        max_size=5,
    ),
)
def test_random_input_never_gives_a_traceback(
    tmp_path, monkeypatch, capsys, no_pins, no_board, command, args, toml, data, journal, stdin
):
    config = tmp_path / "table.toml"
    config.write_text(toml_text(*toml))
    data_file = tmp_path / "data.json"
    data_file.write_bytes(data)
    journal_file = tmp_path / "game.jsonl"
    journal_file.write_bytes(journal)
    names = {
        "{CONFIG}": str(config),
        "{DATA}": str(data_file),
        "{JOURNAL}": str(journal_file),
        "{DIR}": str(tmp_path),
    }
    journal_arg = [str(journal_file)] if command in JOURNAL_COMMANDS else []
    argv = [*command, *journal_arg, *(names.get(a, a) for a in args)]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(stdin) + "\n"))
    data_home = Path(os.environ["XDG_DATA_HOME"])
    before = {p: p.read_bytes() for p in files_under(tmp_path) + files_under(data_home)}
    code = run(argv)
    event(f"{command[0]}: exit {code}")
    out, err = capsys.readouterr()
    assert "Traceback" not in err + out, argv
    assert code in EXIT_CODES and code not in (129, 130, 143), (argv, code, err)
    if code == 2:
        # one message says what was wrong (argparse's usage lines and a warning about a torn
        # journal may come before it), and no file was changed or left behind
        errors = [line for line in err.splitlines() if ": error: " in line]
        assert len(errors) == 1 and err.splitlines()[-1] == errors[0], (argv, err)
        after = {p: p.read_bytes() for p in files_under(tmp_path) + files_under(data_home)}
        assert after == before, (argv, err)


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "battle-royale"],
        ["play", "battle-royale", "--mode", "assist"],
        ["serve"],
        ["selftest"],
    ],
)
@pytest.mark.parametrize("how", ["flag", "environment"])
def test_a_config_file_that_is_not_utf8_is_one_message(
    argv, how, tmp_path, monkeypatch, data_home, capsys
):
    bad = tmp_path / "table.toml"
    bad.write_bytes(b"\xff\xfe garbage")
    if how == "flag":
        argv = [*argv, "--config", str(bad)]
    else:
        monkeypatch.setenv("COMPANION_CONFIG", str(bad))
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert "not UTF-8 text" in err and str(bad) in err and err.count("\n") == 1
    assert "Traceback" not in err and files_under(data_home) == []


@pytest.mark.parametrize("argv", [["config", "example"], ["dice"], ["roll", "d6", "3", "--json"]])
def test_output_into_a_closed_pipe_ends_quietly(argv):
    """``companion ... | head -1``: the reader went away. No traceback and no "Exception
    ignored" at exit; status 1, as rich gives what its consoles print (``dice``)."""
    import subprocess

    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "companion", *argv],
            stdout=write,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            env=env,
            timeout=60,
        )
    finally:
        os.close(write)
    assert done.returncode == 1, done.stderr
    assert done.stderr == ""
