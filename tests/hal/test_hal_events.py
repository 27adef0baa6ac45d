"""The single input queue and its events."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest

from companion.hal import GestureTracker, InputEvent, InputHub, ManualClock


def test_events_are_immutable(clock: ManualClock) -> None:
    event = InputHub(clock).emit("press", "roll")
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.kind = "release"  # type: ignore[misc]


def test_events_carry_clock_time_and_sequence(clock: ManualClock) -> None:
    hub = InputHub(clock)
    hub.emit("press", "trigger")
    clock.advance(0.25)
    hub.emit("release", "trigger")
    first, second = hub.drain()
    assert (first.kind, first.button, first.t, first.seq) == ("press", "trigger", clock() - 0.25, 1)
    assert (second.kind, second.t, second.seq) == ("release", clock(), 2)
    assert first.is_trigger_press and not second.is_trigger_press


def test_get_returns_none_when_empty() -> None:
    hub = InputHub()
    assert hub.get(0) is None
    start = time.monotonic()
    assert hub.get(0.05) is None
    assert time.monotonic() - start >= 0.04


def test_blocking_get_wakes_for_an_event_from_another_thread() -> None:
    hub = InputHub()
    timer = threading.Timer(0.02, hub.callback("press", "confirm"))
    timer.start()
    event = hub.get(2.0)
    timer.join()
    assert event is not None and (event.kind, event.button) == ("press", "confirm")


def test_many_threads_one_queue_in_sequence_order() -> None:
    hub = InputHub()
    per_thread, threads = 500, 8
    start = threading.Barrier(threads)

    def worker(button: str) -> None:
        start.wait()
        for _ in range(per_thread):
            hub.emit("press", button)

    pool = [
        threading.Thread(target=worker, args=(("roll", "select", "confirm", "trigger")[i % 4],))
        for i in range(threads)
    ]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    events = hub.drain()
    assert len(events) == per_thread * threads
    seqs = [e.seq for e in events]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    times = [e.t for e in events]
    assert times == sorted(times)


def test_hub_recognises_only_its_own_events(clock: ManualClock) -> None:
    hub, other = InputHub(clock), InputHub(clock)
    mine = hub.emit("press", "trigger")
    forged = InputEvent("press", "trigger", clock(), mine.seq)
    assert hub.issued(mine)
    assert not hub.issued(forged)
    assert not hub.issued(other.emit("press", "trigger"))
    assert forged == mine  # same fields: origin is deliberately not compared


def _events(clock: ManualClock, *pairs: tuple[str, str]) -> list[InputEvent]:
    hub = InputHub(clock)
    for kind, button in pairs:
        hub.emit(kind, button)  # type: ignore[arg-type]
    return hub.drain()


def test_gestures_short_and_long(clock: ManualClock) -> None:
    tracker = GestureTracker()
    stream = _events(
        clock,
        ("press", "roll"),
        ("release", "roll"),
        ("press", "confirm"),
        ("long_press", "confirm"),
        ("long_press", "confirm"),
        ("release", "confirm"),
    )
    assert [tracker.feed(e) for e in stream] == [None, "short", None, "long", None, None]


def test_gestures_ignore_out_of_order_events(clock: ManualClock) -> None:
    tracker = GestureTracker()
    stream = _events(
        clock,
        ("release", "select"),
        ("long_press", "select"),
        ("press", "select"),
        ("release", "select"),
        ("long_press", "select"),  # a hold thread racing the release
    )
    assert [tracker.feed(e) for e in stream] == [None, None, None, "short", None]
