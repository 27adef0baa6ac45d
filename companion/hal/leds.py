"""Status LED logic shared by the backends: one LED per turn colour and die face."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence

__all__ = ["StatusLedsBase"]


class StatusLedsBase(ABC):
    """
    The :class:`~companion.hal.contracts.StatusLeds` behaviour, over named LEDs.

    Subclasses store the LEDs and implement :meth:`_set` and :meth:`_get`.
    Showing a turn lights exactly one colour LED; showing a die face lights
    exactly one face LED.
    """

    def __init__(self, colours: Sequence[str], faces: Sequence[str]) -> None:
        self._colours = tuple(colours)
        self._faces = tuple(faces)
        self._lock = threading.Lock()

    @property
    def colours(self) -> tuple[str, ...]:
        """Player colours with a turn LED, in table order."""
        return self._colours

    @property
    def faces(self) -> tuple[str, ...]:
        """Die faces with an LED."""
        return self._faces

    @property
    def names(self) -> tuple[str, ...]:
        """Every LED name: the colours, then the faces."""
        return self._colours + self._faces

    def show_turn(self, colour: str | None) -> None:
        """Light the turn LED of *colour* only; None darkens all turn LEDs."""
        self._show_one(colour, self._colours, "player colour")

    def show_die(self, face: str | None) -> None:
        """Light the LED of die *face* only; None darkens all die LEDs."""
        self._show_one(face, self._faces, "die face")

    def off(self) -> None:
        """Darken every status LED."""
        with self._lock:
            for name in self.names:
                self._set(name, False)

    def state(self) -> dict[str, bool]:
        """On/off of every LED by name."""
        return {name: self._get(name) for name in self.names}

    def _show_one(self, name: str | None, group: tuple[str, ...], what: str) -> None:
        if name is not None and name not in group:
            raise ValueError(f"{name!r} is not a {what} with an LED; known: {', '.join(group)}")
        with self._lock:
            # switch the old one off before the new one on: never two lit at once
            for other in group:
                if other != name:
                    self._set(other, False)
            if name is not None:
                self._set(name, True)

    @abstractmethod
    def _set(self, name: str, on: bool) -> None:
        """Switch the LED ``name`` (a backend's own device)."""

    @abstractmethod
    def _get(self, name: str) -> bool:
        """Whether the LED ``name`` is lit."""
