"""Helpers for table-loop tests: a view that records, simulated hardware on a manual clock."""

from __future__ import annotations

from companion.hal import HardwareConfig, ManualClock, open_hardware


class RecordingView:
    def __init__(self) -> None:
        self.events = []
        self.messages: list[str] = []
        self.prompts: list[str] = []

    def update(self, state, events) -> None:
        self.events.extend(events)

    def message(self, text: str) -> None:
        self.messages.append(text)

    def prompt(self, text: str, options=(), seat=None) -> None:
        self.prompts.append(text)


def sim_hardware(**config):
    clock = ManualClock()
    hw = open_hardware(HardwareConfig(profile="sim", **config), clock=clock)
    return hw, clock
