"""The [hardware] configuration: defaults, loading, and errors that name the key."""

from __future__ import annotations

import re
import tomllib

import pytest
from hal_helpers import REPO

from companion.hal import (
    DEFAULT_TURN_COLOURS,
    DIE_FACES,
    HardwareConfig,
    HardwareConfigError,
    PinMap,
    load_hardware_config,
    load_hardware_config_file,
)

EXAMPLE = """
[hardware]
profile = "gpio"
pulse_ms = 45
cooldown_s = 4
bounce_ms = 10
hold_s = 0.8

[hardware.pins]
trigger = 4
solenoid = 25

[hardware.pins.turn]
red = 5
blue = 6

[hardware.pins.die]
explosion = 21
"""


def error_for(mapping) -> HardwareConfigError:
    with pytest.raises(HardwareConfigError) as info:
        load_hardware_config(mapping)
    return info.value


def wiring_pin_table() -> dict[str, int]:
    text = (REPO / "hardware" / "wiring.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\|\s*`(pins\.[a-z_.]+)`\s*\|\s*(\d+)\s*\|", text, re.MULTILINE)
    return {key: int(bcm) for key, bcm in rows}


def test_defaults_match_the_wiring_pin_table() -> None:
    table = wiring_pin_table()
    assert table == HardwareConfig().pins.by_key()
    assert len(table) == 5 + len(DEFAULT_TURN_COLOURS) + len(DIE_FACES)


def test_defaults() -> None:
    config = HardwareConfig()
    assert (config.profile, config.pulse_ms, config.cooldown_s) == ("sim", 60, 3.0)
    assert (config.bounce_ms, config.hold_s) == (20, 1.0)
    assert config.glitch_ms <= 2 and config.glitch_s == config.glitch_ms / 1000
    assert tuple(config.pins.turn) == DEFAULT_TURN_COLOURS
    assert tuple(config.pins.die) == DIE_FACES
    assert load_hardware_config(None) == config == load_hardware_config({})


def test_loads_a_toml_hardware_table() -> None:
    config = load_hardware_config(tomllib.loads(EXAMPLE)["hardware"])
    assert (config.profile, config.pulse_ms, config.cooldown_s) == ("gpio", 45, 4)
    assert (config.bounce_ms, config.bounce_s, config.hold_s) == (10, 0.01, 0.8)
    assert (config.pins.trigger, config.pins.solenoid, config.pins.roll) == (4, 25, 27)
    assert dict(config.pins.turn) == {"red": 5, "blue": 6}  # a turn table replaces the list
    assert config.pins.die["explosion"] == 21 and config.pins.die["free_choice"] == 20


def test_round_trip_through_to_mapping() -> None:
    config = load_hardware_config(tomllib.loads(EXAMPLE)["hardware"])
    assert load_hardware_config(config.to_mapping()) == config


def test_the_glitch_filter_is_configurable() -> None:
    config = load_hardware_config({"profile": "gpio", "glitch_ms": 0.5})
    assert config.glitch_s == 0.0005
    assert load_hardware_config(config.to_mapping()) == config


def test_config_is_immutable() -> None:
    config = HardwareConfig()
    with pytest.raises(AttributeError):
        config.pulse_ms = 200  # type: ignore[misc]
    with pytest.raises(TypeError):
        config.pins.turn["red"] = 3  # type: ignore[index]


@pytest.mark.parametrize("value", [251, 300, 10_000])
def test_pulse_above_hard_cap_names_key_and_max(value) -> None:
    error = error_for({"pulse_ms": value})
    assert error.key == "hardware.pulse_ms" and error.value == value
    assert f"hardware.pulse_ms = {value}" in str(error)
    assert "250" in error.allowed and "max" in error.allowed


@pytest.mark.parametrize("value", [0, -1, 60.0, "60", True])
def test_pulse_must_be_a_positive_integer(value) -> None:
    assert error_for({"pulse_ms": value}).key == "hardware.pulse_ms"


def test_direct_construction_is_validated_too() -> None:
    with pytest.raises(HardwareConfigError, match=r"hardware\.pulse_ms = 300"):
        HardwareConfig(pulse_ms=300)
    with pytest.raises(HardwareConfigError, match=r"hardware\.pins\.roll"):
        HardwareConfig(pins=PinMap(roll=17))


def test_bad_profile_lists_the_allowed_values() -> None:
    error = error_for({"profile": "usb"})
    assert error.key == "hardware.profile"
    assert '"sim"' in str(error) and '"gpio"' in str(error) and '"serial"' in str(error)
    assert '"virtual-board"' in str(error)


@pytest.mark.parametrize(
    ("key", "value", "fragment"),
    [
        ("cooldown_s", 0.5, "from 1 to 600"),
        ("cooldown_s", 0, "from 1 to 600"),
        ("cooldown_s", "3", "from 1 to 600"),
        ("bounce_ms", -1, "from 0 to 200"),
        ("bounce_ms", 500, "from 0 to 200"),
        ("glitch_ms", -0.5, "from 0 to 5"),
        ("glitch_ms", 20, "from 0 to 5"),
        ("glitch_ms", True, "from 0 to 5"),
        ("hold_s", 0.1, "from 0.2 to 10"),
    ],
)
def test_out_of_range_numbers(key, value, fragment) -> None:
    error = error_for({key: value})
    assert error.key == f"hardware.{key}" and fragment in str(error)


def test_unknown_keys_are_errors() -> None:
    error = error_for({"pulse": 60})
    assert error.key == "hardware.pulse"
    assert "unknown key" in str(error) and "pulse_ms" in error.allowed
    assert error_for({"pins": {"fire": 4}}).key == "hardware.pins.fire"
    die = error_for({"pins": {"die": {"skull": 4}}})
    assert die.key == "hardware.pins.die.skull" and "explosion" in die.allowed


@pytest.mark.parametrize("pin", [0, 1, 28, 40, "GPIO17", 17.0, True])
def test_pins_must_be_usable_bcm_numbers(pin) -> None:
    error = error_for({"pins": {"trigger": pin}})
    assert error.key == "hardware.pins.trigger"
    assert "BCM GPIO number from 2 to 27" in str(error)


def test_duplicate_pins_name_both_keys() -> None:
    error = error_for({"pins": {"solenoid": 17}})  # 17 is the trigger's default
    message = str(error)
    assert error.key == "hardware.pins.solenoid"
    assert "hardware.pins.trigger" in message and "17" in message
    turn = error_for({"pins": {"turn": {"red": 26, "blue": 6}}})  # 26 is die.explosion's
    assert turn.key == "hardware.pins.die.explosion" and "hardware.pins.turn.red" in str(turn)


@pytest.mark.parametrize(
    ("turn", "key"),
    [
        ({}, "hardware.pins.turn"),
        ({"Red": 5}, "hardware.pins.turn.Red"),
        ({"explosion": 5}, "hardware.pins.turn.explosion"),
        ({f"c{i}": 2 + i for i in range(7)}, "hardware.pins.turn"),
        ("red", "hardware.pins.turn"),
    ],
)
def test_bad_turn_tables(turn, key) -> None:
    assert error_for({"pins": {"turn": turn}}).key == key


def test_wrong_table_types() -> None:
    assert error_for({"pins": 17}).key == "hardware.pins"
    assert error_for({"pins": {"die": [1, 2]}}).key == "hardware.pins.die"
    assert error_for(["profile"]).key == "hardware"  # type: ignore[arg-type]


def test_every_problem_is_reported_at_once() -> None:
    error = error_for({"pulse_ms": 300, "cooldown_s": 0, "colour": "red"})
    assert [p.key for p in error.problems] == [
        "hardware.colour",
        "hardware.pulse_ms",
        "hardware.cooldown_s",
    ]
    assert str(error).count("\n  - ") == 3


def test_file_loading(tmp_path) -> None:
    good = tmp_path / "table.toml"
    good.write_text(EXAMPLE + '\n[game]\nname = "battle_royale"\n', encoding="utf-8")
    assert load_hardware_config_file(good).pulse_ms == 45
    no_table = tmp_path / "empty.toml"
    no_table.write_text("[game]\n", encoding="utf-8")
    assert load_hardware_config_file(no_table) == HardwareConfig()


def test_file_errors_name_the_file_and_key(tmp_path) -> None:
    bad = tmp_path / "table.toml"
    bad.write_text("[hardware]\npulse_ms = 300\n", encoding="utf-8")
    with pytest.raises(HardwareConfigError) as info:
        load_hardware_config_file(bad)
    assert str(bad) in str(info.value) and "hardware.pulse_ms = 300" in str(info.value)
    broken = tmp_path / "broken.toml"
    broken.write_text("[hardware\npulse_ms = \n", encoding="utf-8")
    with pytest.raises(HardwareConfigError, match="valid TOML"):
        load_hardware_config_file(broken)
