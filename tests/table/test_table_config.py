"""table.toml: [game] + [hardware], every problem named by its full key, the example file."""

from __future__ import annotations

import shutil
from dataclasses import fields
from pathlib import Path

import pytest

from companion.games.battle_royale import COLOURS, BattleRoyaleConfig
from companion.hal import HardwareConfig, HardwareConfigError, PinMap
from companion.table.config import (
    GAME_KEYS,
    GameSettings,
    TableConfig,
    TableConfigError,
    default_table_config,
    load_hardware_from_table,
    load_table_config,
    table_config_from_mapping,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "companion" / "data" / "table.example.toml"  # shipped: companion config example
DATA = ROOT / "companion" / "data" / "battle_royale.json"


def write(tmp_path: Path, text: str, name: str = "table.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_for(tmp_path: Path, text: str) -> TableConfigError:
    path = write(tmp_path, text)
    with pytest.raises(TableConfigError) as info:
        load_table_config(path)
    assert str(path) in str(info.value)  # every message names the file
    return info.value


# --- good files -----------------------------------------------------------------------------


def test_empty_file_is_the_default_table(tmp_path) -> None:
    config = load_table_config(write(tmp_path, ""))
    assert config.game == default_table_config().game
    assert config.hardware == HardwareConfig()
    assert config.source == str(tmp_path / "table.toml")


def test_default_table_config() -> None:
    config = default_table_config()
    assert config.game.mode == "assist" and config.game.players == 4
    assert config.game.colours == COLOURS
    assert config.hardware.profile == "sim"
    assert config.game.start_player is None and config.game.bots == 0
    assert config.game.battle_royale_config() == BattleRoyaleConfig(players=4)


def test_full_file(tmp_path) -> None:
    config = load_table_config(
        write(
            tmp_path,
            """
            [game]
            name = "battle-royale"
            players = 3
            mode = "tracked"
            colours = ["red", "purple", "grey"]
            layout = "cross"
            start_player = 2
            bots = 2
            abilities = true
            special_actions = true

            [hardware]
            profile = "gpio"
            pulse_ms = 80
            [hardware.pins.turn]
            red = 13
            purple = 5
            grey = 6
            """,
        )
    )
    game = config.game
    assert (game.players, game.mode, game.layout, game.start_player) == (3, "tracked", "cross", 2)
    assert game.colours == ("red", "purple", "grey")
    assert game.bot_seats == (1, 2) and game.human_seats == (0,)
    assert config.hardware.profile == "gpio" and config.hardware.pulse_ms == 80
    br = game.battle_royale_config()
    assert br == BattleRoyaleConfig(
        players=3,
        colours=("red", "purple", "grey"),
        layout="cross",
        start_player=2,
        abilities=True,
        special_actions=True,
    )


def test_default_colours_are_the_first_n(tmp_path) -> None:
    config = load_table_config(write(tmp_path, "[game]\nplayers = 2\n"))
    assert config.game.colours == ("purple", "grey")
    assert config.game.battle_royale_config().colours == ("purple", "grey")


def test_layout_drawn_in_the_file(tmp_path) -> None:
    config = load_table_config(
        write(
            tmp_path,
            '[game]\nlayout = """\n.###.\n##.##\n##C##\n##.##\n.###.\n"""\n',
        )
    )
    assert config.game.battle_royale_config().arena_layout.draw().split() == [
        ".###.",
        "##.##",
        "##C##",
        "##.##",
        ".###.",
    ]


def test_data_file_is_relative_to_the_table_file(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "conf"
    folder.mkdir()
    shutil.copy(DATA, folder / "my-data.json")
    monkeypatch.chdir(tmp_path)  # not the file's folder
    config = load_table_config(write(folder, '[game]\ndata_file = "my-data.json"\n'))
    assert config.game.data_file == str(folder / "my-data.json")
    assert config.game.battle_royale_config().data.source == str(folder / "my-data.json")


def test_only_hardware_is_enough(tmp_path) -> None:
    config = load_table_config(write(tmp_path, '[hardware]\nprofile = "gpio"\n'))
    assert config.hardware.profile == "gpio" and config.game == GameSettings()


def test_mapping_round_trip() -> None:
    config = table_config_from_mapping(
        {"game": {"players": 2, "mode": "tracked", "bots": 1, "start_player": 1}}, "test"
    )
    again = table_config_from_mapping(
        {"game": config.game.to_mapping(), "hardware": config.hardware.to_mapping()}, "again"
    )
    assert again.game == config.game and again.hardware == config.hardware
    assert set(config.game.to_mapping()) <= set(GAME_KEYS)


def test_with_profile_overrides_only_the_profile() -> None:
    config = table_config_from_mapping({"hardware": {"pulse_ms": 90}}, "test")
    gpio = config.with_profile("gpio")
    assert gpio.hardware.profile == "gpio" and gpio.hardware.pulse_ms == 90
    assert gpio.game == config.game and config.hardware.profile == "sim"
    assert config.with_profile(None) is config
    with pytest.raises(HardwareConfigError):
        config.with_profile("serial-typo")


def test_configs_are_immutable() -> None:
    config = default_table_config()
    with pytest.raises(AttributeError):
        config.game.players = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        config.source = "x"  # type: ignore[misc]


# --- the example file -----------------------------------------------------------------------


def test_example_file_loads() -> None:
    config = load_table_config(EXAMPLE)
    assert config.source == str(EXAMPLE)
    assert config.game.mode == "assist" and config.hardware.profile == "gpio"
    config.game.battle_royale_config()


def test_example_file_shows_the_real_defaults() -> None:
    """The example's values are the documented defaults (only the profile differs)."""
    config = load_table_config(EXAMPLE)
    assert config.game == GameSettings()
    assert config.hardware == HardwareConfig(profile="gpio")


def test_example_file_is_fully_commented() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    hardware_keys = [f.name for f in fields(HardwareConfig) if f.name != "pins"]
    for key in (*GAME_KEYS, *hardware_keys):
        assert f"\n{key} =" in text or f"\n# {key} =" in text, key
    assert text.count("\n#") > 30


def test_example_files_commented_serial_keys_load_when_uncommented(tmp_path: Path) -> None:
    """The serial block is commented out (the example is a gpio table); a maker who
    uncomments it gets a file that loads with exactly those values."""
    text = EXAMPLE.read_text(encoding="utf-8")
    for key in ("serial_port", "usb_serial", "usb_vid", "usb_pid", "baud"):
        text = text.replace(f"\n# {key} =", f"\n{key} =")
    mine = tmp_path / "table.toml"
    mine.write_text(text, encoding="utf-8")
    hardware = load_table_config(mine).hardware
    assert (hardware.serial_port, hardware.usb_serial) == ("/dev/ttyACM0", "E66038B7135A2B2F")
    assert (hardware.usb_vid, hardware.usb_pid, hardware.baud) == (0x2E8A, 0x0005, 115200)


# --- bad values: the message names the file, the key, the value and what is allowed ---------

BAD_GAME = [
    ("name = 'chess'", "game.name", '"chess"', '"battle-royale"'),
    ("players = 5", "game.players", "5", "2, 3 or 4"),
    ("players = 1", "game.players", "1", "2, 3 or 4"),
    ("players = '4'", "game.players", '"4"', "2, 3 or 4"),
    ("players = true", "game.players", "true", "2, 3 or 4"),
    ("mode = 'auto'", "game.mode", '"auto"', '"assist", "tracked"'),
    ("colours = ['pink', 'grey', 'red', 'purple']", "game.colours", "pink", "turquoise"),
    ("colours = ['red', 'red', 'grey', 'purple']", "game.colours", "red", "different colours"),
    ("colours = ['red', 'grey']", "game.colours", "2 colours for 4 players", "4 different"),
    ("colours = 'red'", "game.colours", '"red"', "a list of"),
    ("layout = 'spiral'", "game.layout", '"spiral"', "first-game, cross"),
    ("layout = '''\n#####\n#####\n##C##\n#####\n####\n'''", "game.layout", "####", "# (field)"),
    ("layout = ''", "game.layout", '""', "5 lines"),
    ("start_player = 4", "game.start_player", "4", "from 0 to 3"),
    ("start_player = -1", "game.start_player", "-1", "leave it out to draw"),
    ("start_player = 'youngest'", "game.start_player", '"youngest"', "from 0 to 3"),
    ("bots = 1", "game.bots", "1", "0 in assist mode"),
    ("mode = 'tracked'\nbots = 5", "game.bots", "5", "from 0 to 4"),
    ("mode = 'tracked'\nbots = -1", "game.bots", "-1", "from 0 to 4"),
    ("data_file = 'missing.json'", "game.data_file", "missing.json", "built-in data"),
    ("data_file = 3", "game.data_file", "3", "path of a Battle Royale data file"),
    ("abilities = 'yes'", "game.abilities", '"yes"', "true or false"),
    ("special_actions = 1", "game.special_actions", "1", "true or false"),
    ("seed = 7", "game.seed", "7", "the keys of [game]: name, players"),
]


@pytest.mark.parametrize(("line", "key", "value", "allowed"), BAD_GAME)
def test_bad_game_value(tmp_path, line, key, value, allowed) -> None:
    error = error_for(tmp_path, f"[game]\n{line}\n")
    message = str(error)
    assert error.key == key, message
    assert key in message and value in message and allowed in message
    assert "allowed:" in message
    assert isinstance(error, ValueError)


def test_invalid_data_file(tmp_path) -> None:
    write(tmp_path, "{ not json", "broken.json")
    error = error_for(tmp_path, "[game]\ndata_file = 'broken.json'\n")
    assert error.key == "game.data_file" and "not valid JSON" in str(error)


def test_unknown_table(tmp_path) -> None:
    error = error_for(tmp_path, "[network]\npath = 'x'\n")
    assert error.key == "network"
    assert "[network]" in str(error) and "[game], [hardware] and [journal]" in str(error)


def test_journal_retention_is_validated(tmp_path) -> None:
    error = error_for(tmp_path, "[journal]\nkeep_finished = -1\npath = 'x'\n")
    keys = [p.key for p in error.problems]
    assert keys == ["journal.path", "journal.keep_finished"]
    assert "a whole number from 0 to" in str(error)
    path = write(tmp_path, "[journal]\nkeep_finished = 7\n")
    assert load_table_config(path).journal.keep_finished == 7


@pytest.mark.parametrize("where", ["/dev/zero", "."])
def test_a_data_file_that_is_not_a_regular_file_is_never_read(tmp_path, where) -> None:
    error = error_for(tmp_path, f"[game]\ndata_file = '{where}'\n")
    assert error.key == "game.data_file"
    assert "not a regular file" in str(error) or "is a folder" in str(error)


def test_a_table_file_that_is_a_device_is_never_read(tmp_path) -> None:
    with pytest.raises(TableConfigError, match="not a regular file"):
        load_table_config("/dev/zero")


def test_game_must_be_a_table(tmp_path) -> None:
    error = error_for(tmp_path, "game = 'battle-royale'\n")
    assert error.key == "game" and "a [game] table" in str(error)


def test_hardware_problems_come_through_with_their_keys(tmp_path) -> None:
    error = error_for(tmp_path, "[hardware]\npulse_ms = 300\n")
    assert error.key == "hardware.pulse_ms"
    assert "300" in str(error) and "250" in str(error)


def test_every_colour_needs_a_turn_led(tmp_path) -> None:
    error = error_for(
        tmp_path,
        "[game]\nplayers = 3\n[hardware.pins.turn]\npurple = 5\ngrey = 6\n",
    )
    message = str(error)
    assert error.key == "game.colours"
    assert "hardware.pins.turn" in message and "turquoise" in message
    assert "purple, grey" in message  # the LEDs there are


def test_cross_check_on_direct_construction() -> None:
    hardware = HardwareConfig(pins=PinMap(turn={"purple": 5}))
    with pytest.raises(TableConfigError) as info:
        TableConfig(GameSettings(players=2), hardware, "direct")
    assert info.value.key == "game.colours" and "grey" in str(info.value)


def test_game_settings_validate_on_construction() -> None:
    with pytest.raises(TableConfigError) as info:
        GameSettings(players=5, mode="x")
    assert [p.key for p in info.value.problems] == ["game.players", "game.mode"]


def test_every_problem_is_reported_at_once(tmp_path) -> None:
    error = error_for(
        tmp_path,
        """
        [game]
        players = 7
        mode = "solo"
        colour = "red"
        abilities = "no"
        [hardware]
        pulse_ms = 999
        profile = "arduino"
        [sound]
        volume = 3
        """,
    )
    keys = [p.key for p in error.problems]
    assert set(keys) == {
        "sound",
        "game.players",
        "game.mode",
        "game.colour",
        "game.abilities",
        "hardware.pulse_ms",
        "hardware.profile",
    }
    message = str(error)
    assert message.count("\n  - ") == len(keys)
    for key in keys:
        assert key in message


# --- the file itself ------------------------------------------------------------------------


def test_toml_syntax_error_has_line_and_column(tmp_path) -> None:
    error = error_for(tmp_path, '[game]\nplayers = 4\nmode = = "assist"\n')
    assert (error.line, error.column) == (3, 8)
    message = str(error)
    assert "TOML syntax error at line 3, column 8" in message
    assert 'mode = = "assist"' in message


def test_toml_error_at_end_of_document(tmp_path) -> None:
    error = error_for(tmp_path, '[game]\nmode = "assist\n')
    assert error.line == 2 and "TOML syntax error" in str(error)


def test_duplicate_table_is_a_syntax_error(tmp_path) -> None:
    error = error_for(tmp_path, "[game]\nplayers = 2\n[game]\nplayers = 3\n")
    assert error.line == 3


def test_missing_file(tmp_path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(TableConfigError) as info:
        load_table_config(path)
    assert str(path) in str(info.value) and "No such file" in str(info.value)


def test_directory_is_unreadable(tmp_path) -> None:
    with pytest.raises(TableConfigError) as info:
        load_table_config(tmp_path)
    assert "cannot read the file" in str(info.value)


def test_not_utf8(tmp_path) -> None:
    path = tmp_path / "table.toml"
    path.write_bytes(b'[game]\nmode = "assist"\nname = "\xff"\n')
    with pytest.raises(TableConfigError) as info:
        load_table_config(path)
    assert info.value.line == 3 and "UTF-8" in str(info.value)


# --- [hardware] alone (what selftest reads) -------------------------------------------------


def test_hardware_only_ignores_the_game_table(tmp_path) -> None:
    path = write(tmp_path, "[game]\nplayers = 9\n[hardware]\npulse_ms = 50\n")
    assert load_hardware_from_table(path).pulse_ms == 50
    with pytest.raises(TableConfigError):
        load_table_config(path)


def test_hardware_only_errors(tmp_path) -> None:
    path = write(tmp_path, "[hardware]\nbounce_ms = 500\n")
    with pytest.raises(TableConfigError) as info:
        load_hardware_from_table(path)
    assert info.value.key == "hardware.bounce_ms" and str(path) in str(info.value)
    with pytest.raises(TableConfigError) as info:
        load_hardware_from_table(write(tmp_path, "[hardware\n", "broken.toml"))
    assert info.value.line == 1
