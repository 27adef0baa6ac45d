"""Battle Royale component data: layouts, the action deck, ability and special-action cards.

Loaded from ``companion/data/battle_royale.json`` or a file of the user's, and
validated with errors that name the entry and say what to fix.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from companion.games.battle_royale.layout import Layout, LayoutError
from companion.games.core.data import DataFile, whole
from companion.games.core.errors import DataError
from companion.records import Record

DOOM_ACTIONS = ("battle_royale", "move_eliminator", "explosion")


class ActionCard(Record):
    """An action card: move up to ``figures`` figures, each up to ``steps`` steps.

    ``extra`` is a Doom action run after movement; ``diagonal`` allows diagonal
    steps; ``any_colour`` allows moving figures of other colours (neutral included).
    """

    id: str
    figures: int
    steps: int
    extra: str | None = None
    diagonal: bool = False
    any_colour: bool = False

    def describe(self) -> str:
        """What the card allows, in words (said on every card played: made once)."""
        return self._description

    @cached_property
    def _description(self) -> str:
        text = f"{self.figures} figure(s) x {self.steps} step(s)"
        if self.diagonal:
            text += ", diagonal allowed"
        if self.any_colour:
            text += ", any colour"
        if self.extra:
            text += f", then {self.extra.replace('_', ' ')}"
        return text


class AbilityCard(Record):
    id: str
    title: str


class SpecialAction(Record):
    """A shared special action, paid with ``cost`` of the user's prisoners.

    ``effect == "reroll"`` is run by the engine in the Doom phase; any other
    effect is applied by the players with correction actions.
    """

    id: str
    title: str
    cost: int
    effect: str | None = None


class BattleRoyaleData(Record):
    layouts: dict[str, Layout]
    deck: tuple[ActionCard, ...]
    abilities: tuple[AbilityCard, ...]
    specials: tuple[SpecialAction, ...]
    source: str

    def card(self, card_id: str) -> ActionCard:
        for card in self.deck:
            if card.id == card_id:
                return card
        raise DataError(f"no action card {card_id!r} in {self.source}")

    def special(self, special_id: str) -> SpecialAction:
        for special in self.specials:
            if special.id == special_id:
                return special
        raise DataError(f"no special action {special_id!r} in {self.source}")


def _entries(data: dict[str, Any], key: str, where: str) -> list[dict[str, Any]]:
    section = data.get(key)
    if not isinstance(section, dict) or not isinstance(section.get("cards"), list):
        raise DataError(f"{where}: needs a {key!r} object with a 'cards' list")
    cards = section["cards"]
    ids = []
    for i, card in enumerate(cards):
        if not isinstance(card, dict) or not isinstance(card.get("id"), str) or not card["id"]:
            raise DataError(f"{where}: {key} card #{i} needs an 'id' string")
        ids.append(card["id"])
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise DataError(f"{where}: {key} card id(s) used twice: {', '.join(dupes)}")
    return cards


def parse_data(data: Any, source: str) -> BattleRoyaleData:
    """Validate a decoded data document."""
    if not isinstance(data, dict):
        raise DataError(f"{source}: expected a JSON object")
    layouts: dict[str, Layout] = {}
    raw_layouts = data.get("layouts", {})
    if not isinstance(raw_layouts, dict) or "first-game" not in raw_layouts:
        raise DataError(f"{source}: 'layouts' must be an object with a 'first-game' layout")
    for name, entry in raw_layouts.items():
        rows = entry.get("rows") if isinstance(entry, dict) else None
        if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
            raise DataError(f"{source}: layout {name!r} needs 'rows', a list of 5 strings")
        try:
            layouts[name] = Layout.parse("\n".join(rows), name)
        except LayoutError as exc:
            raise DataError(f"{source}: {exc}") from None

    deck = []
    for card in _entries(data, "action_deck", source):
        where = f"{source}: action card {card['id']!r}"
        extra = card.get("extra")
        if extra is not None and extra not in DOOM_ACTIONS + ("free_choice",):
            raise DataError(
                f"{where}: 'extra' must be one of {', '.join(DOOM_ACTIONS)}, free_choice or "
                f"absent, got {extra!r}"
            )
        for flag in ("diagonal", "any_colour"):
            if not isinstance(card.get(flag, False), bool):
                raise DataError(f"{where}: {flag!r} must be true or false")
        deck.append(
            ActionCard(
                id=card["id"],
                figures=whole(card.get("figures"), f"{where}: 'figures'", 1, 21),
                steps=whole(card.get("steps"), f"{where}: 'steps'", 1, 24),
                extra=extra,
                diagonal=card.get("diagonal", False),
                any_colour=card.get("any_colour", False),
            )
        )
    if len(deck) < 5:
        raise DataError(f"{source}: the action deck needs at least 5 cards (4 in hand + 1 to draw)")

    abilities = tuple(
        AbilityCard(id=c["id"], title=str(c.get("title", c["id"])))
        for c in _entries(data, "abilities", source)
    )
    if len(abilities) < 5:
        raise DataError(f"{source}: at least 5 ability cards are needed (4 players + 1)")
    specials = []
    for c in _entries(data, "special_actions", source):
        where = f"{source}: special action {c['id']!r}"
        effect = c.get("effect")
        if effect not in (None, "reroll"):
            raise DataError(f"{where}: 'effect' must be 'reroll' or absent, got {effect!r}")
        specials.append(
            SpecialAction(
                id=c["id"],
                title=str(c.get("title", c["id"])),
                cost=whole(c.get("cost"), f"{where}: 'cost'", 0, 99),
                effect=effect,
            )
        )
    if len(specials) < 3:
        raise DataError(f"{source}: at least 3 special actions are needed (3 lie face up)")
    return BattleRoyaleData(layouts, tuple(deck), abilities, tuple(specials), source)


DATA_FILE = DataFile("battle_royale.json", "Battle Royale", parse_data)
default_data = DATA_FILE.builtin_data
load_data = DATA_FILE.load
