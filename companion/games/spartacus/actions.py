"""Spartacus actions: every die, card draw, choice and correction is one small action.

An action is a frozen dataclass: it can be compared, hashed, listed by
``legal_actions()`` and written to a log. Each has a short text form (its
``notation``) that :func:`parse_action` reads back:

- chance outcomes (``is_chance``): ``roll I attack 6-4-3`` (dice faces, high
  to low), ``draw batiatus intrigue wache``, ``host solonius``,
  ``peek batiatus glaber wache``;
- fight choices: ``net I yes``, ``first II``, ``step NE``, ``attack``,
  ``quick-attack``, ``end``, ``reroll I 3``, ``keep II``, ``wound I speed``;
- round choices: ``pay``, ``release varro``, ``sell wache``,
  ``scheme skandal glaber`` (``+solonius`` supporters), ``thwart <card>``,
  ``guard <card> hand|table``, ``pass``, ``discard <card>``, ``post-guard``,
  ``exhaust <card> <target>``, ``react <card> <target>``, ``done``,
  ``trade <from> <to> <card> <gold>``, ``sell-bank <card>``, ``bid <n>``,
  ``invite <house>``, ``accept <fighter> [equipment ...]``, ``decline``,
  ``bet <kind> <n>``, ``thumbs up|down``;
- corrections (``is_correction``): ``gold <house> <+-n>``, ``give <from> <to> <n>``,
  ``influence <house> <+-n>``, ``lose-card <house> <card>``,
  ``exhaust-card <house> <card>``, ``ready-card <house> <card>``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from companion.games.core import actions as base
from companion.games.core.actions import ActionFormatError, one_of, text, whole_number
from companion.games.spartacus.combat import ATTR_ALIASES, faces_text, parse_faces
from companion.games.spartacus.hexmap import DIRECTIONS

SIDES = ("I", "II")
BET_KINDS = ("winner-I", "winner-II", "injury", "decapitation")


@dataclass(frozen=True)
class Action(base.Action):
    """Base class. ``kind`` names the action in notation and in logs."""

    def _show_field(self, name: str, value: Any) -> str | None:
        return _show(name, value) or None


def _show(name: str, value: Any) -> str:
    if name == "faces":
        return faces_text(value)
    if name == "supporters":
        return " ".join(f"+{s}" for s in value)
    if name == "equipment":
        return " ".join(value)
    if isinstance(value, bool):
        if name == "up":
            return "up" if value else "down"
        return "yes" if value else "no"
    if name in ("delta",):
        return f"{value:+d}"
    return str(value)


# --- chance outcomes ---------------------------------------------------------------------


@dataclass(frozen=True)
class DiceRoll(Action):
    """Dice of one roll, high to low. ``who``: a side (I, II) or a house; ``purpose``:
    initiative, attack, defence, reroll, heal, guard, rolloff, tiebreak."""

    kind: ClassVar[str] = "roll"
    is_chance: ClassVar[bool] = True
    who: str
    purpose: str
    faces: tuple[int, ...]


@dataclass(frozen=True)
class DrawCard(Action):
    """A card drawn: ``deck`` is intrigue, market, gladiator or slave (the starters)."""

    kind: ClassVar[str] = "draw"
    is_chance: ClassVar[bool] = True
    who: str
    deck: str
    card: str


@dataclass(frozen=True)
class StartHost(Action):
    """Setup: the house that won the opening roll holds the host marker."""

    kind: ClassVar[str] = "host"
    is_chance: ClassVar[bool] = True
    house: str


@dataclass(frozen=True)
class Peek(Action):
    """``who`` looks at a random hand card of ``target``: this one."""

    kind: ClassVar[str] = "peek"
    is_chance: ClassVar[bool] = True
    who: str
    target: str
    card: str


# --- fight choices -----------------------------------------------------------------------


@dataclass(frozen=True)
class UseNet(Action):
    kind: ClassVar[str] = "net"
    side: str
    use: bool


@dataclass(frozen=True)
class ChooseFirst(Action):
    """The initiative winner names the fighter who acts first this combat round."""

    kind: ClassVar[str] = "first"
    side: str


@dataclass(frozen=True)
class Step(Action):
    """Move the acting fighter one hex: E, W, NE, NW, SE, SW."""

    kind: ClassVar[str] = "step"
    direction: str


@dataclass(frozen=True)
class Attack(Action):
    kind: ClassVar[str] = "attack"


@dataclass(frozen=True)
class QuickAttack(Action):
    """Attack with the speed dice instead of the attack dice (quick-attack equipment)."""

    kind: ClassVar[str] = "quick-attack"


@dataclass(frozen=True)
class EndTurn(Action):
    """The acting fighter is done (moving and attacking are both optional)."""

    kind: ClassVar[str] = "end"


@dataclass(frozen=True)
class Reroll(Action):
    """Reroll one die showing ``face`` (reroll equipment)."""

    kind: ClassVar[str] = "reroll"
    side: str
    face: int


@dataclass(frozen=True)
class KeepRoll(Action):
    kind: ClassVar[str] = "keep"
    side: str


@dataclass(frozen=True)
class Wound(Action):
    """Remove one die of ``attr`` (attack, defence, speed) from a wounded fighter."""

    kind: ClassVar[str] = "wound"
    side: str
    attr: str


# --- round choices -----------------------------------------------------------------------


@dataclass(frozen=True)
class PayUpkeep(Action):
    kind: ClassVar[str] = "pay"


@dataclass(frozen=True)
class Release(Action):
    """Upkeep: set a gladiator free instead of paying its gold."""

    kind: ClassVar[str] = "release"
    card: str


@dataclass(frozen=True)
class SellCard(Action):
    """Intrigue: sell an intrigue card from the hand to the bank for its gold value."""

    kind: ClassVar[str] = "sell"
    card: str


@dataclass(frozen=True)
class PlayScheme(Action):
    kind: ClassVar[str] = "scheme"
    card: str
    target: str
    supporters: tuple[str, ...] = ()


@dataclass(frozen=True)
class Thwart(Action):
    """Play a reaction that thwarts the scheme on the table."""

    kind: ClassVar[str] = "thwart"
    card: str


@dataclass(frozen=True)
class UseGuard(Action):
    """The scheme's target discards a guard (from ``hand`` or ``table``) and rolls: 4-6 thwarts."""

    kind: ClassVar[str] = "guard"
    card: str
    source: str


@dataclass(frozen=True)
class Pass(Action):
    """Let the scheme (or another window) pass."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class DiscardCard(Action):
    """The target of a discard effect gives up one of its ready cards."""

    kind: ClassVar[str] = "discard"
    card: str


@dataclass(frozen=True)
class PostGuard(Action):
    """Lay a guard from the hand onto the table (it becomes property)."""

    kind: ClassVar[str] = "post-guard"
    card: str


@dataclass(frozen=True)
class ExhaustCard(Action):
    """Use a ready slave's or gladiator's intrigue ability (exhausting it)."""

    kind: ClassVar[str] = "exhaust"
    card: str
    target: str


@dataclass(frozen=True)
class React(Action):
    """Play a reaction with an effect (not a thwart) on ``target``."""

    kind: ClassVar[str] = "react"
    card: str
    target: str


@dataclass(frozen=True)
class Done(Action):
    """End this house's intrigue turn, open-market turn, or betting."""

    kind: ClassVar[str] = "done"


@dataclass(frozen=True)
class Trade(Action):
    """Open market: ``card`` goes from ``seller`` to ``buyer``, ``gold`` the other way."""

    kind: ClassVar[str] = "trade"
    seller: str
    buyer: str
    card: str
    gold: int


@dataclass(frozen=True)
class SellToBank(Action):
    kind: ClassVar[str] = "sell-bank"
    card: str


@dataclass(frozen=True)
class Bid(Action):
    """A secret bid (entered hidden, revealed when every bidder has bid)."""

    kind: ClassVar[str] = "bid"
    amount: int


@dataclass(frozen=True)
class Invite(Action):
    kind: ClassVar[str] = "invite"
    house: str


@dataclass(frozen=True)
class Accept(Action):
    """Accept an invitation (or enter a tournament) with a fighter and its equipment."""

    kind: ClassVar[str] = "accept"
    fighter: str
    equipment: tuple[str, ...] = ()


@dataclass(frozen=True)
class Decline(Action):
    kind: ClassVar[str] = "decline"


@dataclass(frozen=True)
class Bet(Action):
    kind: ClassVar[str] = "bet"
    bet: str
    amount: int


@dataclass(frozen=True)
class Thumbs(Action):
    kind: ClassVar[str] = "thumbs"
    up: bool


# --- corrections -------------------------------------------------------------------------


@dataclass(frozen=True)
class AdjustGold(Action):
    """A house's gold changed on the table (a card applied by hand): to or from the bank."""

    kind: ClassVar[str] = "gold"
    is_correction: ClassVar[bool] = True
    house: str
    delta: int


@dataclass(frozen=True)
class GiveGold(Action):
    """Gold changed hands between two houses (allowed at any time)."""

    kind: ClassVar[str] = "give"
    is_correction: ClassVar[bool] = True
    giver: str
    receiver: str
    amount: int


@dataclass(frozen=True)
class AdjustInfluence(Action):
    kind: ClassVar[str] = "influence"
    is_correction: ClassVar[bool] = True
    house: str
    delta: int


@dataclass(frozen=True)
class LoseCard(Action):
    """A house's property card left the game by a card effect applied by hand."""

    kind: ClassVar[str] = "lose-card"
    is_correction: ClassVar[bool] = True
    house: str
    card: str


@dataclass(frozen=True)
class ExhaustProperty(Action):
    kind: ClassVar[str] = "exhaust-card"
    is_correction: ClassVar[bool] = True
    house: str
    card: str


@dataclass(frozen=True)
class ReadyProperty(Action):
    kind: ClassVar[str] = "ready-card"
    is_correction: ClassVar[bool] = True
    house: str
    card: str


ACTION_TYPES: dict[str, type[Action]] = base.action_types(
    [
        DiceRoll,
        DrawCard,
        StartHost,
        Peek,
        UseNet,
        ChooseFirst,
        Step,
        Attack,
        QuickAttack,
        EndTurn,
        Reroll,
        KeepRoll,
        Wound,
        PayUpkeep,
        Release,
        SellCard,
        PlayScheme,
        Thwart,
        UseGuard,
        Pass,
        DiscardCard,
        PostGuard,
        ExhaustCard,
        React,
        Done,
        Trade,
        SellToBank,
        Bid,
        Invite,
        Accept,
        Decline,
        Bet,
        Thumbs,
        AdjustGold,
        GiveGold,
        AdjustInfluence,
        LoseCard,
        ExhaustProperty,
        ReadyProperty,
    ]
)

_INT_FIELDS = {"face", "gold", "amount", "delta"}
_BOOL_WORDS = {
    "yes": True,
    "y": True,
    "true": True,
    "up": True,
    "no": False,
    "n": False,
    "false": False,
    "down": False,
}


def _convert(cls: type[Action], name: str, raw: Any) -> Any:
    kind = cls.kind
    if name == "faces":
        if isinstance(raw, list | tuple):
            if not raw or any(
                isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 6 for f in raw
            ):
                raise ActionFormatError(f"{kind}: faces must be dice 1..6, got {raw!r}")
            return tuple(sorted(raw, reverse=True))
        try:
            return parse_faces(str(raw))
        except ValueError as exc:
            raise ActionFormatError(f"{kind}: {exc}") from None
    if name in _INT_FIELDS:
        return whole_number(kind, name, raw)
    if name in ("use", "up"):
        if isinstance(raw, bool):
            return raw
        value = _BOOL_WORDS.get(str(raw).lower())
        if value is None:
            words = "up or down" if name == "up" else "yes or no"
            raise ActionFormatError(f"{kind}: {name} must be {words}, got {raw!r}")
        return value
    if name == "side":
        side = str(raw).upper()
        if side not in SIDES:
            raise ActionFormatError(f"{kind}: side must be I or II, got {raw!r}")
        return side
    if name == "direction":
        return one_of(kind, name, raw, DIRECTIONS, str.upper)
    if name == "attr":
        attr = ATTR_ALIASES.get(str(raw).lower())
        if attr is None:
            raise ActionFormatError(
                f"wound: attribute must be attack, defence or speed, got {raw!r}"
            )
        return attr
    if name in ("supporters", "equipment"):
        if isinstance(raw, str):
            raw = raw.split()
        if not isinstance(raw, list | tuple) or not all(isinstance(x, str) for x in raw):
            raise ActionFormatError(f"{kind}: {name} must be a list of names, got {raw!r}")
        return tuple(x.lstrip("+") for x in raw)
    if name == "source" and raw not in ("hand", "table"):
        raise ActionFormatError(f"guard: source must be hand or table, got {raw!r}")
    if name == "bet":
        for b in BET_KINDS:
            if str(raw).lower() == b.lower():
                return b
        raise ActionFormatError(f"bet: kind must be one of {', '.join(BET_KINDS)}, got {raw!r}")
    return text(kind, name, raw)


def _parse_list(cls: type[Action], values: list[str]) -> Action | None:
    """Kinds whose last field takes the rest of the words."""
    names = [f.name for f in fields(cls)]
    if not names or names[-1] not in ("supporters", "equipment"):
        return None
    fixed = names[:-1]
    if len(values) < len(fixed):
        raise ActionFormatError(f"{cls.kind} takes {base.usage(cls)}")
    args = {n: _convert(cls, n, w) for n, w in zip(fixed, values, strict=False)}
    args[names[-1]] = _convert(cls, names[-1], values[len(fixed) :])
    return cls(**args)


CODEC = base.ActionCodec(
    ACTION_TYPES, _convert, "a Spartacus", "'attack' or 'step NE'", special=_parse_list
)
action_from_dict = CODEC.from_dict
parse_action = CODEC.parse  # the notation (see the module docstring)
