"""Battle Royale actions: every chance outcome, choice and correction is one small action.

An action is a frozen dataclass, so it can be compared, hashed, listed by
``legal_actions()`` and written to a log. Each has a short text form (its
``notation``), used on the terminal and in journals, which
:func:`parse_action` reads back.

Kinds of action:
- chance outcomes (``is_chance``): the start player, a card drawn, a card
  revealed, a Doom-die face;
- choices of the players: play a card, move a figure step by step, push,
  capture, move the Eliminator, choose a Doom action, use a special action;
- corrections (``is_correction``): what really happened on the table that the
  rules cannot know, such as figures knocked off by a blast.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from companion.games import core
from companion.games.battle_royale.layout import DIRECTIONS, LayoutError, field_name, parse_field
from companion.games.core.actions import (
    ActionCodec,
    ActionFormatError,
    action_types,
    one_of,
    text,
    whole_number,
)


@dataclass(frozen=True)
class Action(core.Action):
    """Base class. ``kind`` names the action in notation and in logs."""

    def _show_field(self, name: str, value: Any) -> str | None:
        return field_name(value) if name in _CELL_FIELDS else str(value)


_CELL_FIELDS = {"field", "to", "position"}

# --- chance outcomes ---------------------------------------------------------------------


@dataclass(frozen=True)
class StartPlayer(Action):
    """The start player drawn at random (the rules say the youngest starts)."""

    kind: ClassVar[str] = "start"
    is_chance: ClassVar[bool] = True
    seat: int


@dataclass(frozen=True)
class DrawCard(Action):
    """A card drawn from a player's draw pile (a uniform draw from the cards left)."""

    kind: ClassVar[str] = "draw"
    is_chance: ClassVar[bool] = True
    seat: int
    card: str


@dataclass(frozen=True)
class RevealAbility(Action):
    kind: ClassVar[str] = "reveal-ability"
    is_chance: ClassVar[bool] = True
    card: str


@dataclass(frozen=True)
class RevealSpecial(Action):
    kind: ClassVar[str] = "reveal-special"
    is_chance: ClassVar[bool] = True
    card: str


@dataclass(frozen=True)
class DoomRoll(Action):
    """The Doom die's face (``extra`` is the 2-player second roll)."""

    kind: ClassVar[str] = "roll"
    is_chance: ClassVar[bool] = True
    face: str


@dataclass(frozen=True)
class ExtraRoll(Action):
    """Two players: the roll after every turn, where only an explosion counts."""

    kind: ClassVar[str] = "extra-roll"
    is_chance: ClassVar[bool] = True
    face: str


# --- choices -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PickAbility(Action):
    kind: ClassVar[str] = "pick"
    card: str


@dataclass(frozen=True)
class PlayCard(Action):
    kind: ClassVar[str] = "play"
    card: str


@dataclass(frozen=True)
class StartFigure(Action):
    """Pick up a figure of ``colour`` on ``field`` to move it."""

    kind: ClassVar[str] = "figure"
    field: int
    colour: str


@dataclass(frozen=True)
class Step(Action):
    """Move the figure in hand one field: N, E, S, W (or NE, SE, SW, NW with a diagonal card)."""

    kind: ClassVar[str] = "step"
    direction: str


@dataclass(frozen=True)
class StopFigure(Action):
    """End this figure's move here (pushes are resolved next)."""

    kind: ClassVar[str] = "stop"


@dataclass(frozen=True)
class EndMovement(Action):
    """Move no more figures this turn."""

    kind: ClassVar[str] = "end"


@dataclass(frozen=True)
class Push(Action):
    """Push one figure of ``colour`` on from the overfull field."""

    kind: ClassVar[str] = "push"
    colour: str


@dataclass(frozen=True)
class Capture(Action):
    """Take one figure of ``colour`` prisoner in a Battle Royale."""

    kind: ClassVar[str] = "capture"
    colour: str


@dataclass(frozen=True)
class DeclineCapture(Action):
    """Two players: decline the optional capture when sharing the majority with neutral."""

    kind: ClassVar[str] = "decline"


@dataclass(frozen=True)
class MoveEliminator(Action):
    kind: ClassVar[str] = "eliminator"
    position: int


@dataclass(frozen=True)
class ChooseAction(Action):
    """Free choice: run one of the three Doom actions."""

    kind: ClassVar[str] = "choose"
    face: str


@dataclass(frozen=True)
class UseSpecial(Action):
    """Use a face-up special action, paying its cost in own prisoners."""

    kind: ClassVar[str] = "special"
    card: str


@dataclass(frozen=True)
class Continue(Action):
    """Let a window pass: no special action now, or keep the Doom-die result."""

    kind: ClassVar[str] = "continue"


# --- corrections -------------------------------------------------------------------------


@dataclass(frozen=True)
class KnockOff(Action):
    """A figure of ``colour`` fell off ``field`` (blast): it goes to the box."""

    kind: ClassVar[str] = "knockoff"
    is_correction: ClassVar[bool] = True
    field: int
    colour: str


@dataclass(frozen=True)
class ShiftFigure(Action):
    """A figure was knocked beside the fields and is set on the nearest field ``to``."""

    kind: ClassVar[str] = "shift"
    is_correction: ClassVar[bool] = True
    field: int
    colour: str
    to: int


@dataclass(frozen=True)
class RemoveField(Action):
    """A field (tile) left the arena; its figures go to the box and loose fields collapse."""

    kind: ClassVar[str] = "remove"
    is_correction: ClassVar[bool] = True
    field: int


@dataclass(frozen=True)
class SetEliminator(Action):
    """The Eliminator really stands under ``position``."""

    kind: ClassVar[str] = "set-eliminator"
    is_correction: ClassVar[bool] = True
    position: int


@dataclass(frozen=True)
class EndCorrections(Action):
    """Corrections are complete; play goes on."""

    kind: ClassVar[str] = "done"


ACTION_TYPES: dict[str, type[Action]] = action_types(
    [
        StartPlayer,
        DrawCard,
        RevealAbility,
        RevealSpecial,
        DoomRoll,
        ExtraRoll,
        PickAbility,
        PlayCard,
        StartFigure,
        Step,
        StopFigure,
        EndMovement,
        Push,
        Capture,
        DeclineCapture,
        MoveEliminator,
        ChooseAction,
        UseSpecial,
        Continue,
        KnockOff,
        ShiftFigure,
        RemoveField,
        SetEliminator,
        EndCorrections,
    ]
)


def _convert(cls: type[Action], name: str, raw: Any) -> Any:
    if name in _CELL_FIELDS:
        if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < 25:
            return raw
        if isinstance(raw, str):
            try:
                return parse_field(raw)
            except LayoutError as exc:
                raise ActionFormatError(f"{cls.kind}: {exc}") from None
        raise ActionFormatError(f"{cls.kind}: {name} must be a field like c3, got {raw!r}")
    if name == "seat":
        return whole_number(cls.kind, name, raw)
    if name == "direction":
        return one_of(cls.kind, name, raw, DIRECTIONS, str.upper)
    return text(cls.kind, name, raw)


CODEC = ActionCodec(ACTION_TYPES, _convert, "a Battle Royale", "'play 2x3' or 'step N'")
action_from_dict = CODEC.from_dict
parse_action = CODEC.parse  # the notation: ``play 2x3``, ``figure c2 red``, ``step N``
