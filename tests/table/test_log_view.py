"""The table's view under systemd: the log, not a board (companion.table.log_view)."""

from __future__ import annotations

import logging

import pytest

from companion.games.core.events import Event
from companion.table.log_view import LogView


def test_messages_are_info_events_and_prompts_debug(caplog: pytest.LogCaptureFixture) -> None:
    view = LogView()
    with caplog.at_level(logging.DEBUG, logger="companion"):
        view.message("the I/O board may have missed a press: press ROLL")
        view.update(None, [Event("doom_rolled", "red rolls a skull")])
        view.prompt("red: press ROLL for the Doom die")
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.INFO, "the I/O board may have missed a press: press ROLL"),
        (logging.DEBUG, "red rolls a skull"),
        (logging.DEBUG, "waiting: red: press ROLL for the Doom die"),
    ]


def test_an_event_for_one_seat_is_logged_in_its_public_words(
    caplog: pytest.LogCaptureFixture,
) -> None:
    secret = Event("card_drawn", "red draws Teleport", private_to=0, public="red draws a card")
    with caplog.at_level(logging.DEBUG, logger="companion"):
        LogView().update(None, [secret])
    assert [r.getMessage() for r in caplog.records] == ["red draws a card"]
