"""The serial and virtual-board profiles in [hardware], and open_hardware's dispatch."""

from __future__ import annotations

import subprocess
import sys

import pytest
from serial_helpers import REPO, subprocess_env

from companion.hal import HardwareConfig, HardwareConfigError, load_hardware_config, open_hardware
from companion.hal.config import PROFILES


def test_profiles_and_defaults() -> None:
    assert {"serial", "virtual-board"} <= set(PROFILES)
    config = HardwareConfig(profile="serial")
    assert config.serial_port is None
    assert (config.usb_vid, config.usb_pid, config.baud) == (0x2E8A, 0x0005, 115200)


def test_load_serial_keys() -> None:
    config = load_hardware_config(
        {
            "profile": "serial",
            "serial_port": "/dev/ttyACM1",
            "usb_vid": 0x1234,
            "usb_pid": 0x5678,
            "usb_serial": "E66038B7135A2B2F",
            "baud": 921600,
        }
    )
    assert config.usb_serial == "E66038B7135A2B2F"
    assert (config.serial_port, config.usb_vid, config.usb_pid, config.baud) == (
        "/dev/ttyACM1",
        0x1234,
        0x5678,
        921600,
    )
    assert load_hardware_config(config.to_mapping()) == config
    assert "serial_port" not in HardwareConfig(profile="serial").to_mapping()
    assert "usb_serial" not in HardwareConfig(profile="serial").to_mapping()


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("serial_port", ""),
        ("serial_port", 5),
        ("usb_vid", -1),
        ("usb_vid", 0x10000),
        ("usb_pid", "0005"),
        ("usb_pid", True),
        ("usb_serial", ""),
        ("usb_serial", "E6 60"),
        ("usb_serial", 0xE660),
        ("baud", 1234),
        ("baud", 115200.0),
    ],
)
def test_bad_serial_values_name_the_key(key: str, value: object) -> None:
    with pytest.raises(HardwareConfigError) as info:
        load_hardware_config({"profile": "serial", key: value})
    assert info.value.key == f"hardware.{key}"
    assert "allowed" in str(info.value)


def test_bad_profile_lists_the_new_ones() -> None:
    with pytest.raises(HardwareConfigError, match='"serial", "virtual-board"'):
        HardwareConfig(profile="usb")


def test_toml_file(tmp_path) -> None:
    from companion.hal import load_hardware_config_file

    path = tmp_path / "table.toml"
    path.write_text('[hardware]\nprofile = "serial"\nusb_vid = 0x2E8A\nserial_port = "/dev/x"\n')
    config = load_hardware_config_file(path)
    assert config.profile == "serial" and config.serial_port == "/dev/x"


def test_clock_is_refused_for_the_serial_profiles() -> None:
    from companion.hal import ManualClock

    for profile in ("serial", "virtual-board"):
        with pytest.raises(ValueError, match="real clock"):
            open_hardware(HardwareConfig(profile=profile), clock=ManualClock())


def test_importing_companion_hal_does_not_import_pyserial() -> None:
    code = (
        "import sys, companion.hal; bad = [m for m in ('serial', 'companion.hal.serial_board',"
        " 'companion.hal.link') if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_open_hardware_virtual_board_profile() -> None:
    with open_hardware(HardwareConfig(profile="virtual-board")) as hw:
        assert hw.profile == "virtual-board" and hw.connected
        assert hw.virtual_board is not None and hw.sim is not None
        port = hw.virtual_board.port
    assert not hw.connected
    assert not hw.virtual_board.plugged
    assert port
