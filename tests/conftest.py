"""Test-wide settings and fixtures.

- Journals written by commands go to a temporary data directory, and no test reads a
  real table.toml or talks to a real systemd: the configuration search, the notify
  socket and the journal stream are pointed at nothing.
- ``mock_factory``: gpiozero's own MockFactory as the pin factory (the one fixture
  every hardware test uses); ``no_pins``: a machine without GPIO pins (a laptop);
  ``no_board``: no I/O board plugged in.
- Hypothesis: the ``ci`` profile (derandomized, no example database, bounded) is
  loaded when ``CI=true``, so a CI run is repeatable; elsewhere hypothesis explores
  freely with its defaults.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,  # the same examples on every run: a red CI is reproducible
    database=None,  # nothing written into the clean clone
    deadline=None,  # two shared cores: a slow example is not a failure
    max_examples=100,  # bounded for tests that do not set their own
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,  # a failure prints the blob that reproduces it
)
if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _isolated_environment(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config-home")))
    for name in (
        "STATE_DIRECTORY",
        "COMPANION_CONFIG",
        "CONFIGURATION_DIRECTORY",
        "NOTIFY_SOCKET",
        "WATCHDOG_USEC",
        "WATCHDOG_PID",
        "JOURNAL_STREAM",
    ):
        monkeypatch.delenv(name, raising=False)
    system = tmp_path_factory.mktemp("etc-companion") / "table.toml"
    monkeypatch.setattr("companion.table.config.DEFAULT_TABLE_CONFIG_PATH", str(system))


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """gpiozero's own MockFactory as the default pin factory, reset after the test."""
    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        factory.close()
        Device.pin_factory = previous


@pytest.fixture
def no_pins(monkeypatch):
    """A machine without GPIO pins: gpiozero finds no pin factory (as on a laptop)."""
    from gpiozero.exc import BadPinFactory

    def no_factory():
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))


@pytest.fixture
def no_board(monkeypatch):
    """No I/O board answers on any port (nothing plugged in), without waiting for one."""
    from companion.hal import serial_board

    def not_found(config=None, **kwargs):
        raise serial_board.BoardNotFound(
            "I/O board not connected: no Raspberry Pi Pico with USB id 2e8a:0005 found"
        )

    monkeypatch.setattr(serial_board, "open_serial", not_found)
