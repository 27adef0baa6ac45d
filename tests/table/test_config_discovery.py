"""Which table.toml a command reads: --config, $COMPANION_CONFIG, the user's, the system's."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion.cli import main
from companion.table.config import (
    CONFIG_ENV,
    example_table_config_text,
    find_table_config,
    load_found_table_config,
    table_config_from_mapping,
)


@pytest.fixture
def places(tmp_path: Path) -> dict[str, Path]:
    """A config file in each of the four places, each for a different number of players."""
    paths = {
        "explicit": tmp_path / "explicit.toml",
        "env": tmp_path / "env.toml",
        "user": tmp_path / "xdg" / "companion" / "table.toml",
        "system": tmp_path / "etc" / "companion" / "table.toml",
    }
    for players, path in zip((2, 3, 4, 2), paths.values(), strict=True):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"[game]\nplayers = {players}\n", encoding="utf-8")
    return paths


def environ(places: dict[str, Path], *without: str) -> dict[str, str]:
    env = {
        CONFIG_ENV: str(places["env"]),
        "XDG_CONFIG_HOME": str(places["user"].parent.parent),
        "HOME": "/nonexistent-home",
        "CONFIGURATION_DIRECTORY": str(places["system"].parent),
    }
    for name in without:
        env.pop(name)
    return env


def test_the_order_is_explicit_env_user_system_then_defaults(places, tmp_path) -> None:
    env = environ(places)
    assert find_table_config(places["explicit"], env).path == places["explicit"]
    assert find_table_config(None, env).path == places["env"]
    env = environ(places, CONFIG_ENV)
    assert find_table_config(None, env).path == places["user"]
    places["user"].unlink()
    choice = find_table_config(None, env)
    assert choice.path == places["system"] and choice.origin == "the system configuration"
    assert choice.searched[0] == places["user"]
    places["system"].unlink()
    choice = find_table_config(None, env)
    assert choice.path is None and "built-in defaults" in choice.describe()
    assert places["system"] in choice.searched
    assert load_found_table_config(None, env).hardware.profile == "sim"


def test_etc_companion_is_the_system_file_without_systemds_variable(tmp_path, monkeypatch) -> None:
    system = tmp_path / "etc" / "companion" / "table.toml"
    system.parent.mkdir(parents=True)
    system.write_text("[game]\nplayers = 3\n", encoding="utf-8")
    monkeypatch.setattr("companion.table.config.DEFAULT_TABLE_CONFIG_PATH", str(system))
    choice = find_table_config(None, {"HOME": str(tmp_path / "home")})
    assert choice.path == system
    assert load_found_table_config(None, {"HOME": str(tmp_path)}).game.players == 3


def test_xdg_defaults_to_dot_config_and_a_relative_xdg_is_ignored(tmp_path) -> None:
    user = tmp_path / ".config" / "companion" / "table.toml"
    user.parent.mkdir(parents=True)
    user.write_text("", encoding="utf-8")
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": "relative/path"}
    assert find_table_config(None, env).path == user


def test_a_named_file_that_is_missing_is_an_error_not_a_fallback(places, capsys) -> None:
    missing = places["explicit"].with_name("typo.toml")
    assert find_table_config(missing, environ(places)).path == missing
    env = {**environ(places), CONFIG_ENV: str(missing)}
    assert find_table_config(None, env).path == missing  # not the user's file
    assert main(["config", "path", "--config", str(missing)]) == 2
    assert "no such file" in capsys.readouterr().err


def test_config_path_command_says_which_and_why(places, monkeypatch, capsys) -> None:
    monkeypatch.setenv(CONFIG_ENV, str(places["env"]))
    assert main(["config", "path"]) == 0
    assert capsys.readouterr().out.strip() == f"{places['env']} (${CONFIG_ENV})"


def test_config_example_prints_a_file_the_real_loader_accepts(capsys, tmp_path) -> None:
    assert main(["config", "example"]) == 0
    out = capsys.readouterr().out
    assert out == example_table_config_text()
    config = table_config_from_mapping(tomllib.loads(out), base_dir=tmp_path)
    assert config.hardware.profile == "gpio" and config.game.players == 4
    (tmp_path / "table.toml").write_text(out, encoding="utf-8")
    assert main(["config", "path", "--config", str(tmp_path / "table.toml")]) == 0


def test_selftest_reads_the_users_file(monkeypatch, tmp_path, capsys) -> None:
    user = tmp_path / "xdg" / "companion" / "table.toml"
    user.parent.mkdir(parents=True)
    user.write_text('[hardware]\nprofile = "sim"\npulse_ms = 45\n', encoding="utf-8")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr("companion.commands.selftest.stdin_is_terminal", lambda: False)
    monkeypatch.setenv("COLUMNS", "300")  # the path on one line
    assert main(["selftest"]) == 0
    out = capsys.readouterr().out
    assert "pulse 45 ms" in out and str(user) in out


@pytest.mark.slow
def test_serve_reads_companion_config(monkeypatch, tmp_path, capsys) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[game]\nplayers = 3\n[hardware]\nprofile = "sim"\n', encoding="utf-8")
    monkeypatch.setenv(CONFIG_ENV, str(path))
    assert main(["serve", "--autoplay", "--games", "1"]) == 0
    err = capsys.readouterr().err
    assert f"3 players, config {path}" in err


def test_a_bad_file_found_by_discovery_exits_2_naming_it(monkeypatch, tmp_path, capsys) -> None:
    user = tmp_path / "xdg" / "companion" / "table.toml"
    user.parent.mkdir(parents=True)
    user.write_text("[game]\nplayers = 9\n", encoding="utf-8")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert main(["serve", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: error:") and str(user) in err and "game.players" in err
