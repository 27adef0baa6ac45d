"""The table's buttons on a phone: ROLL, SELECT and CONFIRM, never the red button.

A press on a phone goes onto the hardware's one input queue
(:class:`companion.hal.events.InputHub`) as a press and a release, exactly as a finger
on the physical button would, so the table loop cannot tell them apart and needs no
second path. The red ``trigger`` is not among the buttons a phone may press: the
Eliminator fires only from the physical red button (``docs/web.md``); this module
refuses it, and no route of the web server leads here with anything else.
"""

from __future__ import annotations

from typing import Any

from companion.hal.display import Recent

#: The only buttons a web request may press. The red trigger is not, and never will be.
WEB_BUTTONS = frozenset({"roll", "select", "confirm"})


class NotAWebButton(ValueError):
    """A web request named a button it may not press."""


class ButtonRelay:
    """Presses ``roll``/``select``/``confirm`` on the table's input queue (``inputs``:
    anything with ``emit(kind, button)``, the hardware's ``InputHub``)."""

    def __init__(self, inputs: Any) -> None:
        self._inputs = inputs
        # (seat, button): who pressed what, the recent ones (serve --web runs for a season)
        self.presses: list[tuple[int | None, str]] = Recent()

    def press(self, button: str, seat: int | None = None, *, hold: bool = False) -> None:
        """One press and release of ``button`` (``hold``: a long press, SELECT's undo)."""
        if button not in WEB_BUTTONS:
            raise NotAWebButton(f"{button!r} cannot be pressed from a phone")
        self.presses.append((seat, button))
        self._inputs.emit("press", button)
        if hold:
            self._inputs.emit("long_press", button)
        self._inputs.emit("release", button)
