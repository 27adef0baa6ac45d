"""FirstEdgeDebouncer on a manual clock: first edge, glitch filter, once per press, hold."""

from __future__ import annotations

import pytest

from companion.hal.debounce import FirstEdgeDebouncer


class Contact:
    """A button's pin level and the debouncer watching it, on a clock the test moves."""

    def __init__(self, glitch_s=0.001, release_s=0.02, hold_s=1.0) -> None:
        self.now = 100.0
        self.pressed = False
        self.events: list[tuple[str, str, float]] = []
        self.debouncer = FirstEdgeDebouncer(
            ["trigger"],
            read=lambda name: self.pressed,
            emit=lambda kind, name: self.events.append((kind, name, self.now)),
            glitch_s=glitch_s,
            release_s=release_s,
            hold_s=hold_s,
            clock=lambda: self.now,
            start=False,
        )

    def edge(self, pressed: bool) -> None:
        self.pressed = pressed
        self.debouncer.edge("trigger", pressed)

    def wait(self, seconds: float) -> None:
        """Let *seconds* pass, deciding every window that ends on the way."""
        end = self.now + seconds
        while (due := self.debouncer.poll(self.now)) is not None and due <= end:
            self.now = due
        self.now = end
        self.debouncer.poll(self.now)

    def kinds(self) -> list[str]:
        return [kind for kind, _, _ in self.events]


def test_a_press_counts_at_its_first_edge_plus_the_glitch_window() -> None:
    c = Contact(glitch_s=0.001, release_s=0.02)
    c.edge(True)
    t0 = c.now
    c.wait(0.0009)
    assert c.events == []
    c.wait(0.0001)
    assert c.events == [("press", "trigger", pytest.approx(t0 + 0.001))]


def test_a_spike_shorter_than_the_glitch_window_is_ignored() -> None:
    c = Contact(glitch_s=0.002)
    c.edge(True)
    c.wait(0.0005)
    c.edge(False)  # a 0.5 ms spike (the coil's wiring, a static discharge)
    c.wait(0.1)
    assert c.events == []
    assert c.debouncer.contact("trigger").glitches == 1


def test_bounce_inside_the_window_does_not_delay_or_reject_the_press() -> None:
    c = Contact(glitch_s=0.001)
    c.edge(True)
    t0 = c.now
    for _ in range(3):  # the contact chatters, but is closed when the window ends
        c.wait(0.0002)
        c.edge(False)
        c.wait(0.0001)
        c.edge(True)
    c.wait(0.0001)
    assert c.kinds() == ["press"] and c.events[0][2] == pytest.approx(t0 + 0.001)


def test_a_bouncing_press_and_release_count_once() -> None:
    c = Contact(glitch_s=0.001, release_s=0.02)
    c.edge(True)
    c.wait(0.001)
    for _ in range(5):  # bounce after the press counted: ignored
        c.edge(False)
        c.wait(0.001)
        c.edge(True)
        c.wait(0.002)
    c.wait(0.1)
    for _ in range(4):  # bounce on release: one release, 20 ms after the last edge
        c.edge(False)
        c.wait(0.003)
        c.edge(True)
        c.wait(0.001)
    c.edge(False)
    last_edge = c.now
    c.wait(0.1)
    assert c.kinds() == ["press", "release"]
    assert c.events[1][2] == pytest.approx(last_edge + 0.02)
    assert c.debouncer.contact("trigger").bounces == 9


def test_a_new_press_needs_the_button_released_for_the_debounce_time() -> None:
    c = Contact(glitch_s=0.001, release_s=0.02)
    c.edge(True)
    c.wait(0.05)
    c.edge(False)
    c.wait(0.015)  # released 15 ms: still the same press
    c.edge(True)
    c.wait(0.05)
    assert c.kinds() == ["press"]
    c.edge(False)
    c.wait(0.05)  # released 50 ms: done
    c.edge(True)
    c.wait(0.05)
    assert c.kinds() == ["press", "release", "press"]


def test_a_long_press_is_sent_once_and_never_after_the_release_began() -> None:
    c = Contact(glitch_s=0.001, release_s=0.02, hold_s=0.5)
    c.edge(True)
    c.wait(2.0)
    c.edge(False)
    c.wait(0.1)
    assert c.kinds() == ["press", "long_press", "release"]
    c.edge(True)
    c.wait(0.49)
    c.edge(False)  # released just before hold_s: the release is still being confirmed
    c.wait(0.1)
    assert c.kinds()[3:] == ["press", "release"]


def test_no_glitch_window_counts_the_press_when_the_edge_is_seen() -> None:
    c = Contact(glitch_s=0.0)
    c.edge(True)
    c.debouncer.poll(c.now)
    assert c.kinds() == ["press"]


def test_a_missed_release_edge_is_not_a_release_while_the_pin_reads_pressed() -> None:
    c = Contact(glitch_s=0.001, release_s=0.02)
    c.edge(True)
    c.wait(0.01)
    c.debouncer.edge("trigger", False)  # an opening edge was reported, but the pin reads closed
    c.wait(0.1)
    assert c.kinds() == ["press"]
    c.edge(False)
    c.wait(0.1)
    assert c.kinds() == ["press", "release"]


def test_the_worker_thread_decides_on_the_real_clock_and_stops() -> None:
    events: list[str] = []
    levels = {"roll": False}
    done = __import__("threading").Event()

    def emit(kind: str, name: str) -> None:
        events.append(kind)
        done.set()

    debouncer = FirstEdgeDebouncer(
        ["roll"], read=levels.get, emit=emit, glitch_s=0.001, release_s=0.01, hold_s=1.0
    )
    try:
        levels["roll"] = True
        debouncer.edge("roll", True)
        assert done.wait(2.0)
        assert events == ["press"]
    finally:
        debouncer.close()
    assert not any(t.name == "companion-buttons" and t.is_alive() for t in _threads())


def _threads():
    import threading

    return threading.enumerate()
