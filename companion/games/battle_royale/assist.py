"""Battle Royale in assist mode: the pieces on the table are the truth.

The companion does not track figures or cards. It runs the turn order, rolls the
Doom die (as chance nodes), knows where the Eliminator is and which fields are
holes, works out which fields collapse after an explosion, arms the explosion
(the table fires the solenoid when the red button is hit), and applies the
two-player rules (the extra roll after every turn, no Battle Royale in the first
3 turns). The players move figures, push, capture and count by hand, and only
confirm and choose with the buttons at the table.

Like the full engine, :class:`AssistState` is a core
:class:`~companion.games.core.state.GameState`: ``legal_actions()`` is the single
source of legality, ``apply()`` rejects anything else with an ``IllegalActionError``
and changes nothing, chance nodes list their outcomes with exact probabilities, and a
game is its config plus its action history (:func:`replay_assist`). The turn order
and the Doom phase are the full engine's (:mod:`.doom`).

Rule numbers refer to ``docs/rules/battle-royale.md``; the assist-mode phases
and rulings are in ``docs/rules/battle-royale-assist.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields
from fractions import Fraction
from itertools import combinations
from typing import Any

from companion.games.battle_royale import actions as A
from companion.games.battle_royale.actions import Action, ActionFormatError
from companion.games.battle_royale.config import DOOM_FACES, BattleRoyaleConfig
from companion.games.battle_royale.doom import DoomPhase
from companion.games.battle_royale.events import EVENT_KINDS
from companion.games.battle_royale.layout import CELLS, CENTRE, field_name
from companion.games.battle_royale.privacy import ASSIST_PRIVACY
from companion.games.core import Game, RandomBot
from companion.games.core.actions import ActionCodec, action_types
from companion.games.core.state import CHANCE, TERMINAL

__all__ = [
    "ASSIST",
    "ASSIST_ACTION_TYPES",
    "ASSIST_EVENT_KINDS",
    "ASSIST_PHASES",
    "CHANCE",
    "TERMINAL",
    "AssistState",
    "CardExtra",
    "DeclareOut",
    "DeclareWinner",
    "Fired",
    "Removed",
    "Resolved",
    "assist_action_from_dict",
    "new_assist_game",
    "parse_assist_action",
    "replay_assist",
]

# --- assist-mode actions -----------------------------------------------------------------


class CardExtra(Action, kind="card-extra"):
    """The card played this turn has an extra action (``face``): it runs before the Doom roll.

    Declared when movement is done, instead of ``continue``.
    """

    face: str


class Fired(Action, kind="fired"):
    """The Eliminator has fired: the armed field is gone."""


class Removed(Action, kind="removed"):
    """The table is cleared after an explosion: the exploded tile, figures that fell out of
    the arena and every collapsed field (with its figures) are in the box."""


class Resolved(Action, kind="resolved"):
    """The players have resolved the Battle Royale by hand, field by field."""


class DeclareOut(Action, kind="out"):
    """The player in ``seat`` has no figure left in the arena (rule 11)."""

    seat: int


class DeclareWinner(Action, kind="winner"):
    """The players end the game (rule 12) and name the winner(s); several seats for a tie.

    ``seats`` is kept sorted without repeats, so ``DeclareWinner((2, 0)) == DeclareWinner((0, 2))``.
    """

    seats: tuple[int, ...]

    def __post_init__(self) -> None:
        try:
            seats = tuple(sorted(set(self.seats)))
        except TypeError:  # not a collection of comparable values: rejected as malformed
            return
        object.__setattr__(self, "seats", seats)

    def _show_field(self, name: str, value: Any) -> str | None:
        return " ".join(str(s) for s in value)


_NEW_TYPES: tuple[type[Action], ...] = (
    CardExtra,
    Fired,
    Removed,
    Resolved,
    DeclareOut,
    DeclareWinner,
)
_REUSED_TYPES: tuple[type[Action], ...] = (
    A.StartPlayer,
    A.DoomRoll,
    A.ExtraRoll,
    A.MoveEliminator,
    A.ChooseAction,
    A.Continue,
    A.RemoveField,
    A.SetEliminator,
)
ASSIST_ACTION_TYPES: dict[str, type[Action]] = action_types(_REUSED_TYPES + _NEW_TYPES)
assert not {c.kind for c in _NEW_TYPES} & set(A.ACTION_TYPES), "assist kinds clash"


# --- phases and events -------------------------------------------------------------------

PHASE_TEXT = {
    "start_player": "the start player is being drawn",
    "movement": "the active player moves figures by hand, then says continue (or card-extra "
    "<face> for a card with an extra action)",
    "doom_roll": "the Doom die is rolled",
    "choose": "free choice: the active player picks a Doom action",
    "move_eliminator": "the active player moves the Eliminator",
    "battle_royale": "the players resolve the Battle Royale by hand, then confirm with resolved",
    "armed": "the explosion is armed: hit the red button, then confirm with fired",
    "remove_fields": "the players clear the table after the explosion, then confirm with removed",
    "extra_roll": "two players: the extra Doom-die roll",
    "declare_winner": "only the centre is left: the players name the winner",
    "game_over": "the game is over",
}
ASSIST_PHASES = tuple(PHASE_TEXT)
CHANCE_PHASES = frozenset({"start_player", "doom_roll", "extra_roll"})
# Phases where the table has just changed and the players may end the game or declare a
# player out (rules 11 and 12 apply "sofort", the companion cannot see it).
_DECLARE_PHASES = frozenset({"movement", "battle_royale", "remove_fields"})
_CORRECTION_PHASES = frozenset({"movement", "remove_fields"})

# The engine's event kinds plus two of assist mode's own.
ASSIST_EVENT_KINDS = (
    *EVENT_KINDS,
    "confirmed",  # the players confirmed a step done by hand (data: step)
    "winner_needed",  # only the centre is left: the players must name the winner
)


class AssistState(DoomPhase):
    """One game of Battle Royale in assist mode. Public attributes are read-only views.

    - ``present[cell]``: whether the field is still in the arena (cells 0..24);
    - ``eliminator``: the cell the Eliminator is under (starts under the centre);
    - ``turn`` (1-based, counted over all players; 0 before the first turn), ``active``;
    - ``out[seat]``: the players declared out;
    - ``phase`` (see ``PHASE_TEXT``), ``doom_stage``: ``None`` during movement, ``"extra"``
      (the card's extra action), ``"roll"`` (the Doom roll), ``"extra_roll"`` (two players);
    - ``card_extra``: the extra action declared this turn, if any;
    - ``exploded_field`` and ``collapsed_fields``: the last explosion and the fields that
      collapsed with it (a ``remove`` correction in the clear-up adds to them);
    - ``winners``, ``end_reason``, ``history``.
    """

    CHANCE_PHASES = CHANCE_PHASES
    PHASE_TEXT = PHASE_TEXT
    ACTION = Action

    def __init__(self, config: BattleRoyaleConfig | None = None) -> None:
        super().__init__(config or BattleRoyaleConfig())

    def _setup(self) -> None:
        config = self.config
        self.players = config.players
        self.colours: tuple[str, ...] = config.colours
        self.neutral_colour: str | None = config.neutral_colour
        self._doom = config.doom_distribution()
        self._doom_made = {}
        layout = config.arena_layout.fields
        self.present = [cell in layout for cell in range(CELLS)]
        self.eliminator = CENTRE
        self.turn = 0
        self.start_player: int | None = config.start_player
        self.active = config.start_player if config.start_player is not None else 0
        self.out = [False] * self.players
        self.doom_stage: str | None = None
        self.card_extra: str | None = None
        self.exploded_field: int | None = None
        self.collapsed_fields: list[int] = []
        if self.start_player is None:
            self.phase = "start_player"
        else:
            self._start_turn(self.start_player)

    # ------------------------------------------------------------------ queries

    def _chooser(self) -> int:
        """The active player (declarations are the table's)."""
        return self.active

    @property
    def prompt(self) -> str:
        """What the table waits for, in words."""
        return PHASE_TEXT[self.phase]

    def players_in(self) -> list[int]:
        """Seats not declared out."""
        return [s for s in range(self.players) if not self.out[s]]

    def eliminator_targets(self) -> list[int]:
        """Rule 8: the up to 8 neighbouring positions that lie under a field (centre
        included), in reading order: SELECT at the table cycles them."""
        return sorted(super().eliminator_targets())

    def explosion_armed_field(self) -> int | None:
        """The field the Eliminator will blow up (phase ``armed``), else ``None``.

        The table blinks this field and fires the solenoid when the red button is hit.
        """
        return self.eliminator if self.phase == "armed" else None

    # ------------------------------------------------------------------ legality

    def _chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """At a chance node: each outcome with its exact probability (they sum to 1)."""
        if self.phase == "start_player":
            return [(A.StartPlayer(s), Fraction(1, self.players)) for s in range(self.players)]
        if self.phase == "doom_roll":
            return self._doom_outcomes(A.DoomRoll)
        if self.phase == "extra_roll":
            return self._doom_outcomes(A.ExtraRoll)
        return []

    def _choices(self) -> list[Action]:
        phase = self.phase
        acts: list[Action] = []
        if phase == "movement":
            acts = [A.Continue(), *(CardExtra(f) for f in DOOM_FACES)]
        elif phase == "choose":
            acts = self._choose_actions()
        elif phase == "move_eliminator":
            acts = [A.MoveEliminator(p) for p in self.eliminator_targets()]
        elif phase == "battle_royale":
            acts = [Resolved()]
        elif phase == "armed":
            acts = [Fired()]
        elif phase == "remove_fields":
            acts = [Removed()]
        elif phase == "declare_winner":
            return self._winner_actions()
        if phase in _DECLARE_PHASES:
            acts += [DeclareOut(s) for s in self.players_in()]
            acts += self._winner_actions()
        if phase in _CORRECTION_PHASES:
            acts += [A.RemoveField(c) for c in self.fields() if c != CENTRE]
            acts += [A.SetEliminator(p) for p in range(CELLS) if p != self.eliminator]
        return acts

    def _winner_actions(self) -> list[Action]:
        """Every non-empty set of seats. The players judge who won (ruling A4)."""
        seats = range(self.players)
        return [
            DeclareWinner(c) for n in range(1, self.players + 1) for c in combinations(seats, n)
        ]

    # ------------------------------------------------------------------ actions

    # turns -------------------------------------------------------------------

    def _do_StartPlayer(self, a: A.StartPlayer) -> None:
        self.start_player = a.seat
        self._emit("setup", f"{self.colours[a.seat]} starts", seat=a.seat)
        self._start_turn(a.seat)

    def _start_turn(self, seat: int) -> None:
        self.turn += 1
        self.active = seat
        self.doom_stage = None
        self.card_extra = None
        self.phase = "movement"
        self._emit(
            "turn_started", f"turn {self.turn}: {self.colours[seat]}", seat=seat, turn=self.turn
        )

    def _do_Continue(self, a: A.Continue) -> None:
        self.doom_stage = "roll"
        self.phase = "doom_roll"

    def _do_CardExtra(self, a: CardExtra) -> None:
        self.card_extra = a.face
        self.doom_stage = "extra"
        self._emit(
            "doom_action",
            f"the card's extra action: {a.face.replace('_', ' ')}",
            face=a.face,
            source="card",
        )
        self._run_doom_action(a.face)

    # Doom phase: the players resolve a Battle Royale and clear up an explosion -------

    def _battle_royale(self) -> None:
        self._emit(
            "doom_action",
            "Battle Royale: resolve every field by hand in reading "
            "order (not the centre), then confirm",
            face="battle_royale",
            source="table",
        )
        self.phase = "battle_royale"

    def _explosion(self) -> None:
        cell = self.eliminator
        self._emit(
            "explosion_armed",
            f"explosion under {field_name(cell)}: hit the red button",
            field=field_name(cell),
            cell=cell,
        )
        self.phase = "armed"

    def _explosion_redirected(self, where: str) -> None:
        self._emit(
            "doom_action",
            f"the Eliminator is under {where}: the explosion becomes move Eliminator",
            face="move_eliminator",
            source="explosion",
        )

    def _do_Fired(self, a: Fired) -> None:
        cell = self.eliminator
        self.present[cell] = False
        self.exploded_field = cell
        self.collapsed_fields = []
        self._emit(
            "field_exploded", f"{field_name(cell)} explodes", field=field_name(cell), cell=cell
        )
        self._collapse()
        if not self._only_centre_left():
            self.phase = "remove_fields"

    def _collapse(self) -> None:
        loose = self._loose_fields()
        if not loose:
            return
        for cell in loose:
            self.present[cell] = False
        self.collapsed_fields.extend(loose)
        names = [field_name(c) for c in loose]
        self._emit(
            "fields_collapsed",
            f"collapsed: {', '.join(names)}: take them off with their figures",
            fields=names,
            cells=loose,
        )

    def _only_centre_left(self) -> bool:
        """Rule 12: only the centre is left, so the game ends; the players count."""
        if self.fields() != [CENTRE]:
            return False
        self.phase = "declare_winner"
        self._emit(
            "winner_needed",
            "only the centre is left: the most figures on the centre "
            "wins, then the most prisoners; name the winner(s)",
        )
        return True

    def _do_Removed(self, a: Removed) -> None:
        self._emit("confirmed", "the table is cleared after the explosion", step="removed")
        self._doom_done()

    def _do_Resolved(self, a: Resolved) -> None:
        self._emit("confirmed", "the Battle Royale is resolved", step="resolved")
        self._doom_done()

    # declarations and corrections ---------------------------------------------

    def _do_DeclareOut(self, a: DeclareOut) -> None:
        self.out[a.seat] = True
        self._emit(
            "player_out", f"{self.colours[a.seat]} has no figure left in the arena", seat=a.seat
        )
        left = self.players_in()
        if len(left) == 1:
            self._finish(
                left,
                f"every other player is out: only {self.colours[left[0]]} is left in the arena",
            )
        elif a.seat == self.active and self.phase == "movement":
            # ruling 11a: out at once; a Battle Royale or a clear-up under way is finished
            # by hand first (resolved, removed), then the turn ends (see _doom_done)
            self._cut_turn_short()

    def _do_DeclareWinner(self, a: DeclareWinner) -> None:
        if self.phase == "declare_winner":
            reason = "only the centre is left: the players named the winner"
        else:
            reason = "the players declared the end of the game"
        self._finish(list(a.seats), reason)

    def _do_RemoveField(self, a: A.RemoveField) -> None:
        self.present[a.field] = False
        if self.phase != "remove_fields":
            self.collapsed_fields = []
        self._emit(
            "correction",
            f"field {field_name(a.field)} removed",
            correction="remove",
            field=field_name(a.field),
        )
        self._collapse()
        self._only_centre_left()

    # ------------------------------------------------------------------ rejections

    def _why_foreign(self, action: Any) -> tuple[str, str] | None:
        if type(action) not in ASSIST_ACTION_TYPES.values():
            return "assist mode", (
                f"{getattr(action, 'kind', repr(action))} is not an assist-mode action: the "
                f"players handle figures and cards by hand; legal now: {self.legal_kinds()}"
            )
        return None

    def _why(self, action: Action) -> tuple[str, str] | None:
        now = f"now {PHASE_TEXT[self.phase]} (legal now: {self.legal_kinds()})"
        malformed = self._malformed(action)
        if malformed:
            return "action format", malformed
        return self._specific(action, now) or ("turn order", now)

    def _malformed(self, action: Action) -> str | None:
        for name in ("field", "position"):
            value = getattr(action, name, 0)
            if not _is_int(value) or not 0 <= value < CELLS:
                return f"{name} must be a field number 0..24 (a1..e5), got {value!r}"
        face = getattr(action, "face", DOOM_FACES[0])
        if face not in DOOM_FACES:
            return f"the Doom die's faces are {', '.join(DOOM_FACES)}, not {face!r}"
        seats: list[Any] = []
        if isinstance(action, DeclareOut):
            seats = [action.seat]
        elif isinstance(action, DeclareWinner):
            if not isinstance(action.seats, tuple | list):
                return f"seats must be a list of seats, got {action.seats!r}"
            if not action.seats:
                return "name at least one winning seat"
            seats = list(action.seats)
        for seat in seats:
            if not _is_int(seat) or not 0 <= seat < self.players:
                return f"seats are 0..{self.players - 1} in this game, got {seat!r}"
        return None

    def _specific(self, action: Action, now: str) -> tuple[str, str] | None:
        phase = self.phase
        if isinstance(action, CardExtra):
            return "rule 6 (cards)", (
                "a card's extra action is declared once per turn, when "
                f"movement is done and before the Doom roll; {now}"
            )
        if isinstance(action, A.Continue):
            return "turn order", f"continue ends the movement phase; {now}"
        if isinstance(action, A.MoveEliminator):
            if phase != "move_eliminator":
                return "rule 8 (move Eliminator)", (
                    f"the Eliminator moves only when the Doom die says so; {now}"
                )
            targets = ", ".join(field_name(c) for c in self.eliminator_targets())
            pos = action.position
            if pos == self.eliminator:
                why = "it must move one position"
            elif not self.present[pos]:
                why = f"{field_name(pos)} is a hole"
            else:
                why = f"{field_name(pos)} is not next to {field_name(self.eliminator)}"
            return "rule 8 (move Eliminator)", (
                f"{why}; the Eliminator moves one position (also diagonally) under a field, "
                f"never under a hole: choose {targets}"
            )
        if isinstance(action, A.ChooseAction):
            if phase == "choose" and action.face == "battle_royale":
                return "rule 13 (two players)", (
                    "no Battle Royale in the first 3 turns: choose move_eliminator or explosion"
                )
            if phase == "choose":
                return "rule 10 (free choice)", "choose battle_royale, move_eliminator or explosion"
            return "rule 10 (free choice)", f"a Doom action is chosen after free choice; {now}"
        if isinstance(action, Fired):
            return "rule 9 (explosion)", f"no explosion is armed; {now}"
        if isinstance(action, Removed):
            return "rule 9 (explosion)", f"there is nothing to clear after an explosion; {now}"
        if isinstance(action, Resolved):
            return "rule 7 (Battle Royale)", f"no Battle Royale is being resolved; {now}"
        if isinstance(action, DeclareOut):
            if phase in _DECLARE_PHASES:
                return "rule 11 (players out)", f"{self.colours[action.seat]} is already out"
            return "rule 11 (players out)", (
                "players are declared out while the table waits for the players (movement, a "
                f"Battle Royale, the clear-up after an explosion); {now}"
            )
        if isinstance(action, DeclareWinner):
            return "rule 12 (end of game)", (
                "the players name the winner while the table waits for them (movement, a Battle "
                f"Royale, the clear-up after an explosion, only the centre left); {now}"
            )
        if isinstance(action, A.RemoveField | A.SetEliminator):
            if phase not in _CORRECTION_PHASES:
                return "corrections", (
                    "corrections are entered during movement or the clear-up "
                    f"after an explosion; {now}"
                )
            if isinstance(action, A.SetEliminator):
                where = field_name(action.position)
                return "corrections", f"the Eliminator is already under {where}"
            if action.field == CENTRE:
                return "rule 9 (explosion)", "the centre field never leaves the arena"
            return "corrections", f"{field_name(action.field)} is already a hole"
        return None

    # ------------------------------------------------------------------ snapshots

    def snapshot(self) -> dict[str, Any]:
        """Everything that makes the state, as plain JSON-able data."""
        return {
            **super().snapshot(),
            "mode": "assist",
            "turn": self.turn,
            "active": self.active,
            "start_player": self.start_player,
            "colours": list(self.colours),
            "neutral_colour": self.neutral_colour,
            "present": list(self.present),
            "eliminator": self.eliminator,
            "armed": self.explosion_armed_field(),
            "out": list(self.out),
            "doom_stage": self.doom_stage,
            "card_extra": self.card_extra,
            "exploded_field": self.exploded_field,
            "collapsed_fields": list(self.collapsed_fields),
        }


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def new_assist_game(config: BattleRoyaleConfig | None = None) -> AssistState:
    """A fresh assist-mode game (default config: 4 players, first-game layout, start drawn)."""
    return AssistState(config)


def replay_assist(config: BattleRoyaleConfig, history: Iterable[Action]) -> AssistState:
    """Rebuild a state from its config and action log; every action is checked again."""
    return AssistState.replay(config, history)


# --- reading actions ---------------------------------------------------------------------


def _seat(kind: str, raw: Any, colours: Sequence[str] | None) -> int:
    if colours is not None and isinstance(raw, str) and raw.lower() in colours:
        return list(colours).index(raw.lower())
    if _is_int(raw):
        return raw
    if isinstance(raw, str) and raw.strip().isdigit():
        return int(raw)
    named = f" or a colour ({', '.join(colours)})" if colours else ""
    raise ActionFormatError(f"{kind}: a seat is a number{named}, got {raw!r}")


def _face(kind: str, raw: Any) -> str:
    if raw not in DOOM_FACES:
        raise ActionFormatError(f"{kind}: face must be one of {', '.join(DOOM_FACES)}, got {raw!r}")
    return raw


def _usage(cls: type[Action]) -> str:
    if cls is DeclareWinner:
        return "winner <seat> [<seat> ...]"
    return " ".join([cls.kind, *(f"<{f.name}>" for f in fields(cls))])


def _codec(colours: Sequence[str] | None) -> ActionCodec[Action]:
    """Assist-mode notation and dicts; with ``colours``, seats may be named by colour."""

    def convert(cls: type[Action], name: str, raw: Any) -> Any:
        if cls not in _NEW_TYPES:
            return A.CODEC.convert(cls, name, raw)
        if name == "seat":
            return _seat(cls.kind, raw, colours)
        if name == "face":
            return _face(cls.kind, raw)
        if not isinstance(raw, list | tuple) or not raw:
            raise ActionFormatError(f"winner: seats must be a non-empty list, got {raw!r}")
        return tuple(_seat(cls.kind, s, colours) for s in raw)

    def special(cls: type[Action], words: list[str]) -> Action | None:
        if cls is DeclareWinner:
            if not words:
                raise ActionFormatError(f"winner takes one or more seats: {_usage(cls)}")
            return DeclareWinner(convert(cls, "seats", words))
        if cls is CardExtra and len(words) == 1:
            return CardExtra(_face(cls.kind, words[0].lower()))
        return None

    return ActionCodec(
        ASSIST_ACTION_TYPES,
        convert,
        "a Battle Royale assist-mode",
        "'continue' or 'fired'",
        show_usage=_usage,
        special=special,
    )


ASSIST_CODEC = _codec(None)
assist_action_from_dict = ASSIST_CODEC.from_dict


def parse_assist_action(text: str, colours: Sequence[str] | None = None) -> Action:
    """Read assist-mode notation: ``continue``, ``card-extra explosion``, ``fired``,
    ``removed``, ``resolved``, ``out 2``, ``winner 0 1``, ``eliminator b2``, ``choose
    explosion``, ``remove a1``, ``set-eliminator c3``, ``roll explosion``.

    With ``colours`` (the seats' colours), seats may also be named by colour: ``out red``.
    """
    return ASSIST_CODEC.parse(text) if colours is None else _codec(colours).parse(text)


ASSIST = Game(
    name="battle-royale",
    title="Battle Royale (assist mode)",
    state=AssistState,
    config=BattleRoyaleConfig,
    codec=ASSIST_CODEC,
    bot=RandomBot,
    builtin_data="battle_royale.json",
    privacy=ASSIST_PRIVACY,
)
