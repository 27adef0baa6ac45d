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


def port(device, vid, pid, serial_number=None):
    return SimpleNamespace(device=device, vid=vid, pid=pid, serial_number=serial_number)


PORTS = [
    port("/dev/ttyUSB0", 0x0403, 0x6001, "A50285BI"),
    port("/dev/ttyACM3", 0x2E8A, 0x0005, "E66038B7135A2B2F"),
    port("/dev/ttyACM1", 0x2E8A, 0x0005, "E6614C311B4A8D29"),
    port("/dev/ttyS0", None, None),
]


def test_finds_the_pico_by_usb_ids() -> None:
    assert find_pico_port(comports=lambda: PORTS[1:2]) == "/dev/ttyACM3"
    assert find_pico_port(0x0403, 0x6001, comports=lambda: PORTS) == "/dev/ttyUSB0"
    assert find_pico_port(comports=lambda: PORTS[:1]) is None


def test_two_picos_are_ambiguous_unless_the_usb_serial_number_says_which() -> None:
    with pytest.raises(BoardNotFound) as info:
        find_pico_port(comports=lambda: PORTS)
    text = str(info.value)
    assert "2 boards with USB id 2e8a:0005" in text and "hardware.usb_serial" in text
    assert "/dev/ttyACM1 (serial number E6614C311B4A8D29)" in text
    assert find_pico_port(serial_number="e66038b7135a2b2f", comports=lambda: PORTS) == (
        "/dev/ttyACM3"
    )
    assert find_pico_port(serial_number="E6614C311B4A8D29", comports=lambda: PORTS) == (
        "/dev/ttyACM1"
    )
    assert find_pico_port(serial_number="0000", comports=lambda: PORTS) is None


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
    board = VirtualBoard(protocol_version=3, firmware_version=(3, 1, 0)).start()
    try:
        with pytest.raises(BoardRefused) as info:
            open_serial(HardwareConfig(profile="serial"), port=board.port, connect_timeout_s=3)
        text = str(info.value)
        assert "firmware 3.1.0" in text and "protocol 3" in text and "speaks protocol 2" in text
        assert "companion firmware flash" in text and "mpremote" in text
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


def test_the_port_is_opened_exclusively(tmp_path) -> None:
    board = VirtualBoard().start()
    try:
        with open_serial(HardwareConfig(profile="serial"), port=board.port) as first:
            assert first.connected
            with pytest.raises(BoardNotFound, match="in use by another program"):
                open_serial(
                    HardwareConfig(profile="serial"), port=board.port, connect_timeout_s=0.5
                )
            assert first.connected and first.link.disconnects == 0
    finally:
        board.close()


def test_a_configured_usb_serial_number_must_match_the_boards_id() -> None:
    board = VirtualBoard(board_id=bytes.fromhex("e66038b7135a2b2f")).start()
    try:
        wrong = HardwareConfig(profile="serial", usb_serial="E6614C311B4A8D29")
        with pytest.raises(BoardRefused, match="is board e66038b7135a2b2f, not the configured"):
            open_serial(wrong, port=board.port, connect_timeout_s=3)
        right = HardwareConfig(profile="serial", usb_serial="E66038B7135A2B2F")
        with open_serial(right, port=board.port) as hw:
            assert hw.connected and hw.board.board_id_hex == "e66038b7135a2b2f"
    finally:
        board.close()


def test_the_finder_gets_the_usb_serial_number() -> None:
    asked = []

    def finder(vid, pid, serial_number):
        asked.append((vid, pid, serial_number))
        return None

    with pytest.raises(BoardNotFound, match="with USB serial number E66038B7135A2B2F"):
        open_serial(
            HardwareConfig(profile="serial", usb_serial="E66038B7135A2B2F"),
            connect_timeout_s=0.2,
            finder=finder,
        )
    assert asked[0] == (0x2E8A, 0x0005, "E66038B7135A2B2F")
