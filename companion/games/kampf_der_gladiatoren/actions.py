"""Kampf der Gladiatoren actions: every chance outcome and every choice is one small action.

An action is an immutable record (:mod:`companion.records`): it can be compared, hashed, listed by
``legal_actions()`` and written to a log. Its ``notation`` is the short text
used on the terminal and in journals; :func:`parse_action` reads it back.

- chance (``is_chance``): ``draw lion`` (the next animal from the face-down
  stack), ``roll 1 2 0`` (a roll: double stars, single stars, blanks);
- entry: ``carrier E sword`` (a new carrier with one gladiator), ``add E net``;
- animals: ``place F``;
- the turn: ``challenge E I`` (team on E challenges I), ``challenge E>H L``
  (move E to H first), ``animal lion F G`` (a player without gladiators sets
  the lion on / moves it to F and challenges G);
- combat: ``net sword`` (neutralise one), ``reroll`` / ``keep``,
  ``give spear`` / ``give sword inactive`` (give up a gladiator).

Field ids are upper case (``E``), animals and gladiator kinds lower case.
There are no correction actions: the companion tracks every piece.
"""

from __future__ import annotations

from typing import Any

from companion.games.core import actions as core
from companion.games.core.actions import ActionFormatError
from companion.games.kampf_der_gladiatoren.rules import KINDS


class Action(core.Action):
    """Base class. ``kind`` names the action in notation and in logs."""


# --- chance ------------------------------------------------------------------------------


class DrawAnimal(Action, kind="draw", chance=True):
    """The next animal from the face-down stack (a uniform draw from those left)."""

    animal: str


class Roll(Action, kind="roll", chance=True):
    """A roll of the star dice: how many show a double star, a single star, a blank."""

    doubles: int
    singles: int
    blanks: int

    @property
    def counts(self) -> tuple[int, int, int]:
        return (self.doubles, self.singles, self.blanks)


# --- entry and animals -------------------------------------------------------------------


class PlaceCarrier(Action, kind="carrier"):
    """Entry: set a new carrier on a free field with one gladiator of this kind."""

    field: str
    gladiator: str


class AddGladiator(Action, kind="add"):
    """Entry: add one gladiator to the own carrier on ``field`` (fewer than 4 on it)."""

    field: str
    gladiator: str


class PlaceAnimal(Action, kind="place"):
    """Set the animal just drawn face up on a free field."""

    field: str


# --- the turn ----------------------------------------------------------------------------


class Challenge(Action, kind="challenge"):
    """The team on ``team`` moves to ``to`` (``to == team``: stays) and challenges ``target``.

    ``proxy``: the seat the challenger names to act for a challenged animal ("der Spieler
    benennt einen Mitspieler, der für das Tier handelt"); ``None``: the left neighbour.
    """

    team: str
    to: str
    target: str
    proxy: int | None = None

    @property
    def moves(self) -> bool:
        return self.to != self.team

    @property
    def notation(self) -> str:
        start = f"{self.team}>{self.to}" if self.moves else self.team
        return f"challenge {start} {self.target}{_for(self.proxy)}"


class UseAnimal(Action, kind="animal"):
    """A player without gladiators: ``animal`` goes to / stays on ``to`` and challenges;
    ``proxy`` as for :class:`Challenge` (when the target is an animal)."""

    animal: str
    to: str
    target: str
    proxy: int | None = None

    @property
    def notation(self) -> str:
        return f"animal {self.animal} {self.to} {self.target}{_for(self.proxy)}"


def _for(proxy: int | None) -> str:
    return "" if proxy is None else f" for {proxy}"


# --- combat ------------------------------------------------------------------------------


class Net(Action, kind="net"):
    """A net neutralises one active opponent gladiator of this kind for the combat."""

    gladiator: str


class Reroll(Action, kind="reroll"):
    """Roll all dice again; the second result must be kept."""


class Keep(Action, kind="keep"):
    """Keep the roll (do not use the trident reroll)."""


class GiveUp(Action, kind="give"):
    """Give up one gladiator of this kind; ``inactive``: one neutralised by a net."""

    gladiator: str
    inactive: bool = False

    @property
    def notation(self) -> str:
        return f"give {self.gladiator}" + (" inactive" if self.inactive else "")


ACTION_TYPES: dict[str, type[Action]] = core.action_types(
    [
        DrawAnimal,
        Roll,
        PlaceCarrier,
        AddGladiator,
        PlaceAnimal,
        Challenge,
        UseAnimal,
        Net,
        Reroll,
        Keep,
        GiveUp,
    ]
)

_FIELD_NAMES = {"field", "team", "to", "target"}
_ANIMAL_FIELDS = ("animal", "to", "target")
_USAGE = {
    "draw": "draw <animal>",
    "roll": "roll <doubles> <singles> <blanks>",
    "carrier": "carrier <field> <kind>",
    "add": "add <field> <kind>",
    "place": "place <field>",
    "challenge": "challenge <team field>[><move to field>] <target field> [for <seat>]",
    "animal": "animal <animal> <field> <target field> [for <seat>]",
    "net": "net <kind>",
    "reroll": "reroll",
    "keep": "keep",
    "give": "give <kind> [inactive]",
}


def _convert(cls: type[Action], name: str, raw: Any) -> Any:
    kind = cls.kind
    if name in _FIELD_NAMES:
        if not isinstance(raw, str) or not raw.isalnum():
            raise ActionFormatError(f"{kind}: {name} must be a field id like E, got {raw!r}")
        return raw.upper()
    if name == "gladiator":
        text = str(raw).lower()
        if text not in KINDS:
            raise ActionFormatError(
                f"{kind}: a gladiator kind is one of {', '.join(KINDS)}, got {raw!r}"
            )
        return text
    if name == "animal":
        if not isinstance(raw, str) or not raw:
            raise ActionFormatError(f"{kind}: animal must be an animal id like lion, got {raw!r}")
        return raw.lower()
    if name in ("doubles", "singles", "blanks", "proxy"):
        return core.whole_number(kind, name, raw, minimum=0)
    if name == "inactive":
        if isinstance(raw, bool):
            return raw
        raise ActionFormatError(f"{kind}: inactive must be true or false, got {raw!r}")
    raise AssertionError(name)  # pragma: no cover


def _proxy(cls: type[Action], args: list[str], values: int) -> int | None:
    """``values`` words, then maybe ``for <seat>`` (who acts for a challenged animal)."""
    if len(args) == values:
        return None
    if len(args) == values + 2 and args[values].lower() == "for":
        return _convert(cls, "proxy", args[values + 1])
    raise ActionFormatError(f"{cls.kind} takes {values} values: {_USAGE[cls.kind]}")


def _parse_special(cls: type[Action], args: list[str]) -> Action | None:
    if cls is Challenge:
        proxy = _proxy(cls, args, 2)
        team, _, to = args[0].partition(">")
        return Challenge(
            _convert(cls, "team", team),
            _convert(cls, "to", to or team),
            _convert(cls, "target", args[1]),
            proxy,
        )
    if cls is UseAnimal:
        proxy = _proxy(cls, args, 3)
        animal, to, target = (
            _convert(cls, n, w) for n, w in zip(_ANIMAL_FIELDS, args[:3], strict=True)
        )
        return UseAnimal(animal, to, target, proxy)
    if cls is GiveUp:
        if len(args) not in (1, 2) or (len(args) == 2 and args[1].lower() != "inactive"):
            raise ActionFormatError(f"give takes a kind and maybe 'inactive': {_USAGE['give']}")
        return GiveUp(_convert(cls, "gladiator", args[0]), len(args) == 2)
    return None


CODEC = core.ActionCodec(
    ACTION_TYPES,
    _convert,
    "a Kampf der Gladiatoren",
    "'challenge E I' or 'keep'",
    show_usage=lambda cls: _USAGE[cls.kind],
    special=_parse_special,
)
action_from_dict = CODEC.from_dict
parse_action = (
    CODEC.parse
)  # the notation: ``carrier E sword``, ``challenge E>H L``, ``give sword inactive``
