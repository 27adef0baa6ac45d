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

from companion.games import core
from companion.games.arena_skirmish.grid import DIRECTIONS, MapError, check_cell_name
from companion.games.core import actions as base
from companion.games.core.actions import ActionFormatError, one_of, text, whole_number

STATS = ("life", "movement", "attack", "affinity", "points")


@dataclass(frozen=True)
class Action(core.Action):
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


ACTION_TYPES: dict[str, type[Action]] = base.action_types(
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
