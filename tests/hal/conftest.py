"""Fixtures for the hardware layer: a manual clock, open hardware (``mock_factory`` is in
tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from clocks import open_ready
from gpiozero.pins.mock import MockFactory

from companion.hal import Hardware, HardwareConfig, ManualClock


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def sim_hw(clock: ManualClock) -> Iterator[Hardware]:
    """Simulated hardware with default settings on a manual clock, past the cool-down the
    guard counts from its start."""
    with open_ready(HardwareConfig(profile="sim"), clock) as hw:
        yield hw


@pytest.fixture
def gpio_config() -> HardwareConfig:
    return HardwareConfig(profile="gpio", hold_s=0.2)


@pytest.fixture
def gpio_hw(mock_factory: MockFactory, gpio_config: HardwareConfig) -> Iterator[Hardware]:
    """The gpio backend on mock pins, its clock past the cool-down the guard counts from
    its start."""
    with open_ready(gpio_config) as hw:
        yield hw
