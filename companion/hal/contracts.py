"""Role contracts of the table hardware: what the table loop may ask of it.

Roles, not chips. Every backend (``sim``, ``gpio``, later ``serial``) provides
one object per role, bundled in a :class:`companion.hal.Hardware`:

* :class:`Trigger` - the red button on the Eliminator;
* :class:`Buttons` - roll / select / confirm, each with short and long press;
* :class:`Eliminator` - the solenoid under the arena (always behind the
  :class:`~companion.hal.safety.SolenoidGuard`);
* :class:`StatusLeds` - one LED per player colour (whose turn) and one per
  Doom-die face (what was rolled);
* :class:`ArenaDisplay` - one state per arena cell.

Inputs never come through these objects: presses, long presses and releases
of every button arrive as :class:`~companion.hal.events.InputEvent` on the
hardware's single input queue. The role objects only report current state.

This module also holds the small value types the contracts speak in
(:class:`CellState`, :class:`Refusal`, :class:`Pulse`, :class:`FireResult`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from enum import StrEnum
from typing import Protocol, runtime_checkable

from companion.hal.events import InputEvent
from companion.records import Record

__all__ = [
    "ARENA_SIZE",
    "DEFAULT_TURN_COLOURS",
    "DIE_FACES",
    "ArenaDisplay",
    "Buttons",
    "Cell",
    "CellState",
    "Eliminator",
    "FireRefused",
    "FireResult",
    "Frame",
    "Pulse",
    "Refusal",
    "StatusLeds",
    "Trigger",
]

#: The arena is a square of ARENA_SIZE x ARENA_SIZE cells.
ARENA_SIZE = 5

#: Player colours with a turn LED, in default order.
DEFAULT_TURN_COLOURS: tuple[str, ...] = ("purple", "grey", "turquoise", "red")

#: The faces of the Doom die, one status LED each.
DIE_FACES: tuple[str, ...] = ("battle_royale", "move_eliminator", "explosion", "free_choice")

#: An arena cell as (row, column), both counted from 0 at the top left.
Cell = tuple[int, int]


class CellState(StrEnum):
    """What an arena cell shows."""

    OFF = "off"  #: dark (display cleared)
    FIELD = "field"  #: a tile is in place
    HOLE = "hole"  #: no tile (exploded or collapsed)
    CENTRE = "centre"  #: the solid centre field
    ELIMINATOR = "eliminator"  #: the Eliminator is under this cell
    HIGHLIGHT = "highlight"  #: draw attention (e.g. a tile to remove)
    BLINK = "blink"  #: urgent attention (e.g. armed explosion target)


#: A full arena picture: ARENA_SIZE rows of ARENA_SIZE states, immutable.
Frame = tuple[tuple[CellState, ...], ...]


class Refusal(StrEnum):
    """Why the guard did not fire the solenoid."""

    NOT_ARMED = "not_armed"  #: no explosion is armed
    NOT_A_TRIGGER_PRESS = "not_a_trigger_press"  #: the event is not a real trigger press
    PRESS_BEFORE_ARMING = "press_before_arming"  #: the press happened before arm()
    ALREADY_FIRED = "already_fired_for_press"  #: this press already fired once
    COOLING_DOWN = "cooling_down"  #: the last pulse ended less than cooldown_s ago
    DRIVER_FAULT = "driver_fault"  #: the solenoid driver failed; latched until cleared
    #: no answer to a FIRE (I/O board link): it may have fired; the board's account is awaited
    OUTCOME_UNKNOWN = "outcome_unknown"
    CLOSED = "closed"  #: the hardware has been closed
    #: judged at its edge long ago; that answer is no longer kept (the press never fires now)
    STALE_PRESS = "stale_press"


class Pulse(Record, eager=True):  # made on the fire path: compiled at import
    """One solenoid pulse: switched on at *start* (clock seconds) for *length_s*."""

    start: float
    length_s: float
    token: Hashable | None = None


class FireResult(Record, eager=True):  # made on the fire path: compiled at import
    """
    The outcome of :meth:`Eliminator.fire`.

    Truthy when the solenoid fired. Otherwise *reason* says why not, *message*
    says it in words, and for :attr:`Refusal.COOLING_DOWN` *retry_after_s*
    says how long until a press may fire.
    """

    fired: bool
    reason: Refusal | None = None
    message: str = ""
    token: Hashable | None = None
    pulse: Pulse | None = None
    retry_after_s: float | None = None

    def __bool__(self) -> bool:
        return self.fired

    def raise_if_refused(self) -> FireResult:
        """Return self if the solenoid fired, else raise :exc:`FireRefused`."""
        if not self.fired:
            raise FireRefused(self)
        return self


class FireRefused(RuntimeError):
    """Raised by :meth:`FireResult.raise_if_refused`; *result* holds the reason."""

    def __init__(self, result: FireResult) -> None:
        super().__init__(f"{result.reason}: {result.message}")
        self.result = result


@runtime_checkable
class Trigger(Protocol):
    """The red button. Its presses arrive as events with ``button="trigger"``."""

    @property
    def is_pressed(self) -> bool:
        """:data:`True` while the button is held down (debounced)."""
        ...


@runtime_checkable
class Buttons(Protocol):
    """The roll / select / confirm buttons. Presses arrive as input events."""

    @property
    def names(self) -> tuple[str, ...]:
        """The button names, e.g. ``("roll", "select", "confirm")``."""
        ...

    def is_pressed(self, name: str) -> bool:
        """:data:`True` while button *name* is held down. Unknown names raise KeyError."""
        ...


@runtime_checkable
class Eliminator(Protocol):
    """
    The solenoid that catapults a tile. Only the guard may switch it.

    The table loop calls :meth:`arm` when the rules engine has armed an
    explosion, then passes each trigger press from the input queue to
    :meth:`fire`. A fire consumes the arming; every refusal is a
    :class:`FireResult` with a :class:`Refusal` reason.
    """

    def arm(self, token: Hashable) -> None:
        """Allow one pulse, for the explosion identified by *token* (``SpentToken`` if
        that explosion fired, or may have, in this game)."""
        ...

    def disarm(self) -> None:
        """Withdraw the arming (no-op if not armed)."""
        ...

    def new_game(self) -> None:
        """A new game starts: the explosion tokens of earlier games no longer apply."""
        ...

    def spent(self, token: Hashable) -> bool:
        """Whether the explosion *token* fired (or may have) in this game."""
        ...

    @property
    def cooldown_left_s(self) -> float:
        """Seconds until the cool-down allows a pulse (0.0: now)."""
        ...

    @property
    def armed(self) -> bool:
        """:data:`True` between :meth:`arm` and a fire or :meth:`disarm`."""
        ...

    def fire(self, press: InputEvent) -> FireResult:
        """Fire one pulse in response to the trigger press *press*, if allowed."""
        ...

    @property
    def fault(self) -> str | None:
        """The latched driver fault, or :data:`None`."""
        ...

    def clear_fault(self) -> None:
        """Forget a latched driver fault (after a person has checked the driver)."""
        ...

    @property
    def position(self) -> Cell | None:
        """The sensed cell above the Eliminator, or None if unknown or unsensed."""
        ...

    def off(self) -> None:
        """Switch the coil off now, whatever else is happening."""
        ...


@runtime_checkable
class StatusLeds(Protocol):
    """One LED per player colour (turn) and one per Doom-die face."""

    @property
    def colours(self) -> tuple[str, ...]:
        """Player colours that have a turn LED."""
        ...

    @property
    def faces(self) -> tuple[str, ...]:
        """Die faces that have an LED (see :data:`DIE_FACES`)."""
        ...

    def show_turn(self, colour: str | None) -> None:
        """Light the LED of *colour* only; None darkens all turn LEDs."""
        ...

    def show_die(self, face: str | None) -> None:
        """Light the LED of *face* only; None darkens all die LEDs."""
        ...

    def off(self) -> None:
        """Darken every status LED."""
        ...

    def state(self) -> Mapping[str, bool]:
        """Current on/off state of every LED by name."""
        ...


@runtime_checkable
class ArenaDisplay(Protocol):
    """One :class:`CellState` per arena cell."""

    @property
    def size(self) -> int:
        """Cells per side (:data:`ARENA_SIZE`)."""
        ...

    @property
    def frame(self) -> Frame:
        """The frame currently shown."""
        ...

    def show(self, frame: Sequence[Sequence[CellState | str]]) -> None:
        """Show a whole frame (size rows of size states)."""
        ...

    def set_cell(self, cell: Cell, state: CellState | str) -> None:
        """Change one cell, keeping the others."""
        ...

    def clear(self) -> None:
        """Show an all-:attr:`CellState.OFF` frame."""
        ...
