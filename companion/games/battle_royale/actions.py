"""Battle Royale actions: every chance outcome, choice and correction is one small action.

An action is an immutable record (:mod:`companion.records`): it can be compared, hashed, listed by
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

from typing import Any

from companion.games.battle_royale.layout import DIRECTIONS, LayoutError, field_name, parse_field
from companion.games.core import actions as core
from companion.games.core.actions import (
    ActionCodec,
    ActionFormatError,
    action_types,
    one_of,
    text,
    whole_number,
)


class Action(core.Action):
    """Base class. ``kind`` names the action in notation and in logs."""

    def _show_field(self, name: str, value: Any) -> str | None:
        return field_name(value) if name in _CELL_FIELDS else str(value)


_CELL_FIELDS = {"field", "to", "position"}

# --- chance outcomes ---------------------------------------------------------------------


class StartPlayer(Action, kind="start", chance=True):
    """The start player drawn at random (the rules say the youngest starts)."""

    seat: int


class DrawCard(Action, kind="draw", chance=True):
    """A card drawn from a player's draw pile (a uniform draw from the cards left)."""

    seat: int
    card: str


class RevealAbility(Action, kind="reveal-ability", chance=True):
    card: str


class RevealSpecial(Action, kind="reveal-special", chance=True):
    card: str


class DoomRoll(Action, kind="roll", chance=True):
    """The Doom die's face (``extra`` is the 2-player second roll)."""

    face: str


class ExtraRoll(Action, kind="extra-roll", chance=True):
    """Two players: the roll after every turn, where only an explosion counts."""

    face: str


# --- choices -----------------------------------------------------------------------------


class PickAbility(Action, kind="pick"):
    card: str


class PlayCard(Action, kind="play"):
    card: str


class StartFigure(Action, kind="figure"):
    """Pick up a figure of ``colour`` on ``field`` to move it."""

    field: int
    colour: str


class Step(Action, kind="step"):
    """Move the figure in hand one field: N, E, S, W (or NE, SE, SW, NW with a diagonal card)."""

    direction: str


class StopFigure(Action, kind="stop"):
    """End this figure's move here (pushes are resolved next)."""


class EndMovement(Action, kind="end"):
    """Move no more figures this turn."""


class Push(Action, kind="push"):
    """Push one figure of ``colour`` on from the overfull field."""

    colour: str


class Capture(Action, kind="capture"):
    """Take one figure of ``colour`` prisoner in a Battle Royale."""

    colour: str


class DeclineCapture(Action, kind="decline"):
    """Two players: decline the optional capture when sharing the majority with neutral."""


class MoveEliminator(Action, kind="eliminator"):
    position: int


class ChooseAction(Action, kind="choose"):
    """Free choice: run one of the three Doom actions."""

    face: str


class UseSpecial(Action, kind="special"):
    """Use a face-up special action, paying its cost in own prisoners."""

    card: str


class Continue(Action, kind="continue"):
    """Let a window pass: no special action now, or keep the Doom-die result."""


# --- corrections -------------------------------------------------------------------------


class KnockOff(Action, kind="knockoff", correction=True):
    """A figure of ``colour`` fell off ``field`` (blast): it goes to the box."""

    field: int
    colour: str


class ShiftFigure(Action, kind="shift", correction=True):
    """A figure was knocked beside the fields and is set on the nearest field ``to``."""

    field: int
    colour: str
    to: int


class RemoveField(Action, kind="remove", correction=True):
    """A field (tile) left the arena; its figures go to the box and loose fields collapse."""

    field: int


class SetEliminator(Action, kind="set-eliminator", correction=True):
    """The Eliminator really stands under ``position``."""

    position: int


class EndCorrections(Action, kind="done"):
    """Corrections are complete; play goes on."""


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
