"""Arena skirmish actions: every chance outcome, choice and correction is one small action.

An action is a frozen dataclass: it can be compared, hashed, listed by
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

from dataclasses import dataclass
from typing import Any, ClassVar

from companion.games import actions_base as base
from companion.games.actions_base import ActionFormatError
from companion.games.arena_skirmish.grid import DIRECTIONS, MapError, check_cell_name

STATS = ("life", "movement", "attack", "affinity", "points")


@dataclass(frozen=True)
class Action(base.Action):
    """Base class. ``kind`` names the action in notation and in logs."""

    def _show_field(self, name: str, value: Any) -> str | None:
        return f"{value:+d}" if name == "delta" else str(value)


# --- chance outcomes ---------------------------------------------------------------------


@dataclass(frozen=True)
class RollOff(Action):
    """The player who won the roll-off and chooses an entrance."""

    kind: ClassVar[str] = "roll-off"
    is_chance: ClassVar[bool] = True
    seat: int


@dataclass(frozen=True)
class TieBreak(Action):
    """Of gladiators with equal initiative, the one who won the roll-off goes first."""

    kind: ClassVar[str] = "tie-break"
    is_chance: ClassVar[bool] = True
    gladiator: int


@dataclass(frozen=True)
class HitDie(Action):
    """One die of an attack (every die hits; the face picks the place)."""

    kind: ClassVar[str] = "hit"
    is_chance: ClassVar[bool] = True
    face: int


# --- choices -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Pick(Action):
    """Take a gladiator into your team."""

    kind: ClassVar[str] = "pick"
    gladiator: int


@dataclass(frozen=True)
class Ready(Action):
    """Your team is complete."""

    kind: ClassVar[str] = "ready"


@dataclass(frozen=True)
class ChooseEntrance(Action):
    """The roll-off winner's entrance."""

    kind: ClassVar[str] = "entrance"
    entrance: str


@dataclass(frozen=True)
class Place(Action):
    """Set the gladiator whose turn it is to deploy on ``cell``, facing ``facing``."""

    kind: ClassVar[str] = "place"
    cell: str
    facing: str


@dataclass(frozen=True)
class Step(Action):
    """One field forward, in the facing direction."""

    kind: ClassVar[str] = "step"


@dataclass(frozen=True)
class TurnLeft(Action):
    """Turn 90 degrees anticlockwise."""

    kind: ClassVar[str] = "left"


@dataclass(frozen=True)
class TurnRight(Action):
    """Turn 90 degrees clockwise."""

    kind: ClassVar[str] = "right"


@dataclass(frozen=True)
class Melee(Action):
    """Strike an orthogonally adjacent enemy."""

    kind: ClassVar[str] = "melee"
    target: int


@dataclass(frozen=True)
class AffinityAttack(Action):
    """Use the affinity instead of a melee strike on an orthogonally adjacent enemy."""

    kind: ClassVar[str] = "affinity"
    target: int


@dataclass(frozen=True)
class EndActivation(Action):
    """This gladiator is done for the round."""

    kind: ClassVar[str] = "end"


@dataclass(frozen=True)
class Done(Action):
    """Close the combo window; play goes on."""

    kind: ClassVar[str] = "done"


# --- corrections -------------------------------------------------------------------------


@dataclass(frozen=True)
class Combo(Action):
    """Open a window to apply a combo attack's profile text by hand."""

    kind: ClassVar[str] = "combo"
    is_correction: ClassVar[bool] = True


@dataclass(frozen=True)
class Adjust(Action):
    """Change one value of a gladiator by ``delta`` (``points``: the active one's movement
    points left this activation)."""

    kind: ClassVar[str] = "adjust"
    is_correction: ClassVar[bool] = True
    gladiator: int
    stat: str
    delta: int


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
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
    )
}

_INT_FIELDS = {"seat", "gladiator", "face", "target", "delta"}


def _convert(cls: type[Action], name: str, raw: Any) -> Any:
    if name in _INT_FIELDS:
        if isinstance(raw, bool):
            raise ActionFormatError(f"{cls.kind}: {name} must be a whole number, got {raw!r}")
        try:
            return int(raw)
        except (TypeError, ValueError):
            raise ActionFormatError(
                f"{cls.kind}: {name} must be a whole number, got {raw!r}"
            ) from None
    if not isinstance(raw, str):
        raise ActionFormatError(f"{cls.kind}: {name} must be text, got {raw!r}")
    if name == "cell":
        try:
            return check_cell_name(raw)
        except MapError as exc:
            raise ActionFormatError(f"{cls.kind}: {exc}") from None
    if name == "facing":
        text = raw.upper()
        if text not in DIRECTIONS:
            raise ActionFormatError(
                f"{cls.kind}: facing must be one of {', '.join(DIRECTIONS)}, got {raw!r}"
            )
        return text
    if name == "entrance":
        return raw.upper()
    if name == "stat":
        text = raw.lower()
        if text not in STATS:
            raise ActionFormatError(f"adjust: stat must be one of {', '.join(STATS)}, got {raw!r}")
        return text
    return raw


def action_from_dict(data: Any) -> Action:
    """Rebuild an action from :meth:`Action.to_dict` output."""
    return base.action_from_dict(data, ACTION_TYPES, _convert, game="an arena skirmish")


def parse_action(text: str) -> Action:
    """Read the notation: ``step``, ``left``, ``melee 17``, ``place c5 N``, ``hit 4``."""
    return base.parse_action(text, ACTION_TYPES, _convert, example="'step' or 'melee 17'")
