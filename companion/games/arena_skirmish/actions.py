"""Arena skirmish actions: every chance outcome, choice and correction is one small action.

An action is an immutable record (:mod:`companion.records`): it can be compared, hashed, listed by
``legal_actions()`` and written to a log. Each has a short text form (its
``notation``), used on the terminal and in journals, which :func:`parse_action`
reads back. Cells are kept by name (``c5``) and gladiators by profile ID.

- chance outcomes (``is_chance``): a roll-off for the entrance (``roll-off 1``), a
  roll-off between gladiators of equal initiative (``tie-break 17``), one hit die
  (``hit 4``);
- choices: ``pick 17``, ``ready``, ``entrance A``, ``place c5 N``, ``step``, ``left``,
  ``right``, ``melee 17``, ``affinity 17``, ``end``, ``done``;
- corrections (``is_correction``): ``combo`` opens a window to apply a combo attack's
  profile text by hand with ``adjust 17 life -1``; ``done`` closes it.
"""

from __future__ import annotations

from typing import Any

from companion.games.arena_skirmish.grid import DIRECTIONS, MapError, check_cell_name
from companion.games.core import actions as core
from companion.games.core.actions import ActionFormatError, one_of, text, whole_number

STATS = ("life", "movement", "attack", "affinity", "points")


class Action(core.Action):
    """Base class. ``kind`` names the action in notation and in logs."""

    def _show_field(self, name: str, value: Any) -> str | None:
        return f"{value:+d}" if name == "delta" else str(value)


# --- chance outcomes ---------------------------------------------------------------------


class RollOff(Action, kind="roll-off", chance=True):
    """The player who won the roll-off and chooses an entrance."""

    seat: int


class TieBreak(Action, kind="tie-break", chance=True):
    """Of gladiators with equal initiative, the one who won the roll-off goes first."""

    gladiator: int


class HitDie(Action, kind="hit", chance=True):
    """One die of an attack (every die hits; the face picks the place)."""

    face: int


# --- choices -----------------------------------------------------------------------------


class Pick(Action, kind="pick"):
    """Take a gladiator into your team."""

    gladiator: int


class Ready(Action, kind="ready"):
    """Your team is complete."""


class ChooseEntrance(Action, kind="entrance"):
    """The roll-off winner's entrance."""

    entrance: str


class Place(Action, kind="place"):
    """Set the gladiator whose turn it is to deploy on ``cell``, facing ``facing``."""

    cell: str
    facing: str


class Step(Action, kind="step"):
    """One field forward, in the facing direction."""


class TurnLeft(Action, kind="left"):
    """Turn 90 degrees anticlockwise."""


class TurnRight(Action, kind="right"):
    """Turn 90 degrees clockwise."""


class Melee(Action, kind="melee"):
    """Strike an orthogonally adjacent enemy."""

    target: int


class AffinityAttack(Action, kind="affinity"):
    """Use the affinity instead of a melee strike on an orthogonally adjacent enemy."""

    target: int


class EndActivation(Action, kind="end"):
    """This gladiator is done for the round."""


class Done(Action, kind="done"):
    """Close the combo window; play goes on."""


# --- corrections -------------------------------------------------------------------------


class Combo(Action, kind="combo", correction=True):
    """Open a window to apply a combo attack's profile text by hand."""


class Adjust(Action, kind="adjust", correction=True):
    """Change one value of a gladiator by ``delta`` (``points``: the active one's movement
    points left this activation)."""

    gladiator: int
    stat: str
    delta: int


ACTION_TYPES: dict[str, type[Action]] = core.action_types(
    [
        RollOff,
        TieBreak,
        HitDie,
        Pick,
        Ready,
        ChooseEntrance,
        Place,
        Step,
        TurnLeft,
        TurnRight,
        Melee,
        AffinityAttack,
        EndActivation,
        Done,
        Combo,
        Adjust,
    ]
)

_INT_FIELDS = {"seat", "gladiator", "face", "target", "delta"}


def _convert(cls: type[Action], name: str, raw: Any) -> Any:
    if name in _INT_FIELDS:
        return whole_number(cls.kind, name, raw)
    raw = text(cls.kind, name, raw)
    if name == "cell":
        try:
            return check_cell_name(raw)
        except MapError as exc:
            raise ActionFormatError(f"{cls.kind}: {exc}") from None
    if name == "facing":
        return one_of(cls.kind, name, raw, DIRECTIONS, str.upper)
    if name == "entrance":
        return raw.upper()
    if name == "stat":
        return one_of(cls.kind, name, raw, STATS, str.lower)
    return raw


CODEC = core.ActionCodec(ACTION_TYPES, _convert, "an arena skirmish", "'step' or 'melee 17'")
action_from_dict = CODEC.from_dict
parse_action = CODEC.parse  # the notation: ``step``, ``left``, ``melee 17``, ``place c5 N``
