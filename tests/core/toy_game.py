"""A toy game on the core, small enough to read in one go: each player is dealt a secret
card (a chance node), then players take 1 or 2 stones from a pile in turn; who takes the
last stone wins, and a tie-breaking "peek" shows one seat another's card.

It exercises every part of the core an engine uses: setup to the first chance node,
choices, chance outcomes, handlers, refusals, corrections, events (one private), the
config and action codecs, privacy and views.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.games import core
from companion.games.core import Game, GameState, Privacy, RandomBot, Secret
from companion.games.core.actions import ActionCodec, action_types, text, whole_number
from companion.games.core.config import ConfigDict, check_count, check_names

COLOURS = ("red", "blue", "green")
CARDS = ("ace", "king", "queen")


@dataclass(frozen=True)
class ToyConfig(ConfigDict):
    players: int = 2
    stones: int = 5
    colours: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_count(self.players, 2, 3)
        object.__setattr__(self, "colours", check_names(self.colours, self.players, COLOURS))

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "stones": self.stones, "colours": list(self.colours)}


class Action(core.Action):
    pass


class Deal(Action, kind="deal", chance=True):
    seat: int
    card: str


class Take(Action, kind="take"):
    stones: int


class AddStone(Action, kind="add", correction=True):
    """A stone fell onto the pile from the table."""


TYPES = action_types([Deal, Take, AddStone])


def _convert(cls: type[Action], name: str, raw: Any) -> Any:
    if name in ("seat", "stones"):
        return whole_number(cls.kind, name, raw)
    return text(cls.kind, name, raw)


CODEC = ActionCodec(TYPES, _convert, "a toy", "'take 1'")


class ToyState(GameState):
    CHANCE_PHASES = frozenset({"deal"})
    PHASE_TEXT = {"deal": "cards are dealt", "take": "a player takes stones"}
    ACTION = Action
    NAME = "a toy"
    OUTCOME = "a card dealt"

    def _setup(self) -> None:
        self.players = self.config.players
        self.colours = self.config.colours
        self.pile = self.config.stones
        self.cards: list[str | None] = [None] * self.players
        self.active = 0
        self.phase = "deal"
        self._emit("setup", f"{self.pile} stones")

    def _chooser(self) -> int:
        return self.active

    def _chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        seat = self.cards.index(None)
        return [(Deal(seat, c), Fraction(1, len(CARDS))) for c in CARDS]

    def _choices(self) -> list[Action]:
        return [Take(n) for n in (1, 2) if n <= self.pile] + [AddStone()]

    def _why(self, action: Action) -> tuple[str, str] | None:
        if isinstance(action, Take):
            return "taking", f"take 1 or 2 stones, at most the {self.pile} left"
        return None

    def _do_Deal(self, a: Deal) -> None:
        self.cards[a.seat] = a.card
        self._emit_private(
            a.seat, "dealt", f"you hold the {a.card}", f"{self.seat_name(a.seat)} is dealt a card",
            ("card",), seat=a.seat, card=a.card,
        )  # fmt: skip
        if None not in self.cards:
            self.phase = "take"

    def _do_Take(self, a: Take) -> None:
        self.pile -= a.stones
        self._emit("took", f"{self.seat_name(self.active)} takes {a.stones}", stones=a.stones)
        if self.pile == 0:
            self._finish([self.active], "took the last stone")
        else:
            self.active = (self.active + 1) % self.players

    def _do_AddStone(self, a: AddStone) -> None:
        self.pile += 1

    def snapshot(self) -> dict[str, Any]:
        return {
            **super().snapshot(),
            "pile": self.pile,
            "active": self.active,
            "cards": list(self.cards),
        }


PRIVACY = Privacy(secrets={"cards": Secret("cards_dealt", lambda card: card is not None)})

TOY = Game(
    name="toy",
    title="Toy",
    state=ToyState,
    config=ToyConfig,
    codec=CODEC,
    bot=RandomBot,
    privacy=PRIVACY,
)
