"""Spartacus actions: every die, card draw, choice and correction is one small action.

An action is an immutable record (:mod:`companion.records`): it can be compared, hashed, listed by
``legal_actions()`` and written to a log. Each has a short text form (its
``notation``) that :func:`parse_action` reads back:

- chance outcomes (``is_chance``): ``roll I attack 6-4-3`` (dice faces, high
  to low), ``draw batiatus intrigue wache``, ``host solonius``,
  ``peek batiatus glaber wache``;
- fight choices: ``net I yes``, ``first II``, ``step NE``, ``attack``,
  ``quick-attack``, ``end``, ``reroll I 3``, ``keep II``, ``wound I speed``;
- round choices: ``pay``, ``release varro``, ``sell wache``,
  ``scheme skandal glaber`` (``+solonius`` supporters), ``thwart <card> [by]``,
  ``guard <card> hand|table``, ``pass``, ``discard <card>``, ``post-guard <card> [by]``,
  ``exhaust <card> <target>``, ``react <card> <target> [by]``, ``done``,
  ``trade <from> <to> <card> <gold>``, ``sell-bank <card>``, ``bid <n>``,
  ``invite <house>``, ``accept <fighter> [equipment ...]``, ``decline``,
  ``bet <kind> <n>``, ``thumbs up|down``, ``house-rule <rule> <target> [card]``;
  ``by`` names the house playing a card out of its turn (left out: the house asked now);
- assist mode (physical cards): ``reveal <card>`` (a starting card dealt, an auction card
  turned up);
- corrections (``is_correction``): ``gold <house> <+-n>`` (to or from the bank),
  ``gold <from> <to> <n>`` (between two houses, any amount: journalled as ``give``),
  ``influence <house> <+-n>``, ``lose-card <house> <card>``,
  ``exhaust-card <house> <card>``, ``ready-card <house> <card>``.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from companion.games.core import actions as core
from companion.games.core.actions import ActionFormatError, one_of, text, whole_number
from companion.games.spartacus.combat import ATTR_ALIASES, faces_text, parse_faces
from companion.games.spartacus.hexmap import DIRECTIONS

SIDES = ("I", "II")
BET_KINDS = ("winner-I", "winner-II", "injury", "decapitation")


class Action(core.Action):
    """Base class. ``kind`` names the action in notation and in logs."""

    def _show_field(self, name: str, value: Any) -> str | None:
        return _show(name, value) or None


def _show(name: str, value: Any) -> str:
    if value is None:
        return ""
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


class DiceRoll(Action, kind="roll", chance=True):
    """Dice of one roll, high to low. ``who``: a side (I, II) or a house; ``purpose``:
    initiative, attack, defence, reroll, heal, guard, rolloff, tiebreak."""

    who: str
    purpose: str
    faces: tuple[int, ...]


class DrawCard(Action, kind="draw", chance=True):
    """A card drawn: ``deck`` is intrigue, market, gladiator or slave (the starters)."""

    who: str
    deck: str
    card: str


class StartHost(Action, kind="host", chance=True):
    """Setup: the house that won the opening roll holds the host marker."""

    house: str


class Peek(Action, kind="peek", chance=True):
    """``who`` looks at a random hand card of ``target``: this one."""

    who: str
    target: str
    card: str


# --- fight choices -----------------------------------------------------------------------


class UseNet(Action, kind="net"):
    side: str
    use: bool


class ChooseFirst(Action, kind="first"):
    """The initiative winner names the fighter who acts first this combat round."""

    side: str


class Step(Action, kind="step"):
    """Move the acting fighter one hex: E, W, NE, NW, SE, SW."""

    direction: str


class Attack(Action, kind="attack"):
    """Attack the opponent with the attack dice."""


class QuickAttack(Action, kind="quick-attack"):
    """Attack with the speed dice instead of the attack dice (quick-attack equipment)."""


class EndTurn(Action, kind="end"):
    """The acting fighter is done (moving and attacking are both optional)."""


class Reroll(Action, kind="reroll"):
    """Reroll one die showing ``face`` (reroll equipment)."""

    side: str
    face: int


class KeepRoll(Action, kind="keep"):
    side: str


class Wound(Action, kind="wound"):
    """Remove one die of ``attr`` (attack, defence, speed) from a wounded fighter."""

    side: str
    attr: str


# --- round choices -----------------------------------------------------------------------


class PayUpkeep(Action, kind="pay"):
    """Upkeep: pay the gold the ready gladiators cost beyond what the slaves earn."""


class Release(Action, kind="release"):
    """Upkeep: set a gladiator free instead of paying its gold."""

    card: str


class SellCard(Action, kind="sell"):
    """Intrigue: sell an intrigue card from the hand to the bank for its gold value."""

    card: str


class PlayScheme(Action, kind="scheme"):
    card: str
    target: str
    supporters: tuple[str, ...] = ()


class Thwart(Action, kind="thwart"):
    """Play a reaction that thwarts the scheme on the table (``by``: a house not asked now)."""

    card: str
    by: str | None = None


class UseGuard(Action, kind="guard"):
    """The scheme's target discards a guard (from ``hand`` or ``table``) and rolls: 4-6 thwarts."""

    card: str
    source: str


class Pass(Action, kind="pass"):
    """Let the scheme (or another window) pass."""


class DiscardCard(Action, kind="discard"):
    """The target of a discard effect gives up one of its ready cards."""

    card: str


class PostGuard(Action, kind="post-guard"):
    """Lay a guard from the hand onto the table (it becomes property), at any time
    (``by``: a house not asked now)."""

    card: str
    by: str | None = None


class ExhaustCard(Action, kind="exhaust"):
    """Use a ready slave's or gladiator's intrigue ability (exhausting it)."""

    card: str
    target: str


class React(Action, kind="react"):
    """Play a reaction with an effect (not a thwart) on ``target``, at any time
    (``by``: a house not asked now)."""

    card: str
    target: str
    by: str | None = None


class UseHouseRule(Action, kind="house-rule"):
    """Use a house card's special rule (data) in the house's intrigue turn: ``card`` is the
    ready gladiator or slave it exhausts, if it exhausts one."""

    rule: str
    target: str
    card: str | None = None


class Reveal(Action, kind="reveal"):
    """Assist mode (physical cards): the card that turned up - a starting card dealt to the
    house asked, or the auction card."""

    card: str


class Done(Action, kind="done"):
    """End this house's intrigue turn, open-market turn, or betting."""


class Trade(Action, kind="trade"):
    """Open market: ``card`` goes from ``seller`` to ``buyer``, ``gold`` the other way."""

    seller: str
    buyer: str
    card: str
    gold: int


class SellToBank(Action, kind="sell-bank"):
    card: str


class Bid(Action, kind="bid"):
    """A secret bid (entered hidden, revealed when every bidder has bid)."""

    amount: int


class Invite(Action, kind="invite"):
    house: str


class Accept(Action, kind="accept"):
    """Accept an invitation (or enter a tournament) with a fighter and its equipment."""

    fighter: str
    equipment: tuple[str, ...] = ()


class Decline(Action, kind="decline"):
    """Decline the invitation to the games (it costs influence)."""


class Bet(Action, kind="bet"):
    bet: str
    amount: int


class Thumbs(Action, kind="thumbs"):
    up: bool


# --- corrections -------------------------------------------------------------------------


class AdjustGold(Action, kind="gold", correction=True):
    """A house's gold changed on the table (a card applied by hand): to or from the bank."""

    house: str
    delta: int


class GiveGold(Action, kind="give", correction=True):
    """Gold changed hands between two houses, any amount, at any time ("Gold kann jederzeit
    zwischen zwei Spielern wechseln"). Typed and shown as ``gold <from> <to> <n>``."""

    giver: str
    receiver: str
    amount: int

    @property
    def notation(self) -> str:
        return f"gold {self.giver} {self.receiver} {self.amount}"


class AdjustInfluence(Action, kind="influence", correction=True):
    house: str
    delta: int


class LoseCard(Action, kind="lose-card", correction=True):
    """A house's property card left the game by a card effect applied by hand."""

    house: str
    card: str


class ExhaustProperty(Action, kind="exhaust-card", correction=True):
    house: str
    card: str


class ReadyProperty(Action, kind="ready-card", correction=True):
    house: str
    card: str


ACTION_TYPES: dict[str, type[Action]] = core.action_types(
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
        UseHouseRule,
        Reveal,
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
    """Kinds whose last field takes the rest of the words; ``gold <from> <to> <n>``; and
    optional last fields (``react mittellos solonius`` without ``by``)."""
    names = [f.name for f in fields(cls)]
    if cls is AdjustGold and len(values) == 3:
        giver, receiver, amount = values
        return GiveGold(giver, receiver, whole_number("gold", "amount", amount, minimum=1))
    optional = [f.name for f in fields(cls) if f.default is None]
    if optional and len(names) - len(optional) <= len(values) < len(names):
        args = {n: _convert(cls, n, w) for n, w in zip(names, values, strict=False)}
        return cls(**args)
    if not names or names[-1] not in ("supporters", "equipment"):
        return None
    fixed = names[:-1]
    if len(values) < len(fixed):
        raise ActionFormatError(f"{cls.kind} takes {core.usage(cls)}")
    args = {n: _convert(cls, n, w) for n, w in zip(fixed, values, strict=False)}
    args[names[-1]] = _convert(cls, names[-1], values[len(fixed) :])
    return cls(**args)


CODEC = core.ActionCodec(
    ACTION_TYPES, _convert, "a Spartacus", "'attack' or 'step NE'", special=_parse_list
)
action_from_dict = CODEC.from_dict
parse_action = CODEC.parse  # the notation (see the module docstring)
