"""Finding the Pico by USB ids, and refusing boards or devices the host cannot use."""

from __future__ import annotations

import os
import pty
import time
from types import SimpleNamespace

import pytest
from serial_helpers import VirtualBoard

from companion.hal import HardwareConfig
from companion.hal import link as L
from companion.hal.serial_board import (
    BoardNotFound,
    BoardRefused,
    check_board,
    find_pico_port,
    open_serial,
)


def port(device, vid, pid):
    return SimpleNamespace(device=device, vid=vid, pid=pid)


def test_finds_the_pico_by_usb_ids() -> None:
    ports = [
        port("/dev/ttyUSB0", 0x0403, 0x6001),
        port("/dev/ttyACM3", 0x2E8A, 0x0005),
        port("/dev/ttyACM1", 0x2E8A, 0x0005),
        port("/dev/ttyS0", None, None),
    ]
    assert find_pico_port(comports=lambda: ports) == "/dev/ttyACM1"
    assert find_pico_port(0x0403, 0x6001, comports=lambda: ports) == "/dev/ttyUSB0"
    assert find_pico_port(comports=lambda: ports[:1]) is None


def test_finder_uses_pyserial_list_ports(mocker) -> None:
    comports = mocker.patch(
        "serial.tools.list_ports.comports", return_value=[port("/dev/ttyACM0", 0x2E8A, 0x0005)]
    )
    assert find_pico_port() == "/dev/ttyACM0"
    comports.assert_called_once()


def test_no_board_is_a_clear_bounded_error(mocker) -> None:
    mocker.patch("serial.tools.list_ports.comports", return_value=[])
    start = time.monotonic()
    with pytest.raises(BoardNotFound, match="2e8a:0005.*serial_port"):
        open_serial(HardwareConfig(profile="serial"), connect_timeout_s=0.3)
    assert time.monotonic() - start < 2


def test_a_device_that_does_not_answer_is_not_a_board() -> None:
    master, slave = pty.openpty()
    try:
        with pytest.raises(BoardNotFound, match="did not answer as a companion I/O board"):
            open_serial(
                HardwareConfig(profile="serial"), port=os.ttyname(slave), connect_timeout_s=1.5
            )
    finally:
        os.close(master)
        os.close(slave)


def test_board_with_another_protocol_is_refused_with_what_to_flash() -> None:
    board = VirtualBoard(protocol_version=2, firmware_version=(2, 3, 0)).start()
    try:
        with pytest.raises(BoardRefused) as info:
            open_serial(HardwareConfig(profile="serial"), port=board.port, connect_timeout_s=3)
        text = str(info.value)
        assert "firmware 2.3.0" in text and "protocol 2" in text and "speaks protocol 1" in text
        assert "firmware/README.md" in text and "mpremote" in text
        assert not board.session and board.pulses == []
    finally:
        board.close()


def test_board_lacking_capabilities_is_refused() -> None:
    ident = L.BoardIdent(
        1,
        0,
        (1, 0, 0),
        b"12345678",
        L.CAP_MATRIX | L.CAP_BUTTONS,
        5,
        12,
        4,
        250,
        60,
        3000,
        0,
        0,
        0,
        0,
    )
    with pytest.raises(BoardRefused, match="lacks solenoid, status-leds"):
        check_board(ident, "/dev/ttyACM0")
    small = L.BoardIdent(1, 0, (1, 0, 0), b"12345678", 0xFF, 8, 4, 2, 250, 60, 3000, 0, 0, 0, 0)
    with pytest.raises(BoardRefused, match="8x8.*4 status LEDs.*2 buttons"):
        check_board(small, "/dev/ttyACM0")
