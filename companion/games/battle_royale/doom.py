"""The Doom phase and the turn order, as the full engine and assist mode both run them.

Rules 7-10 and 13 of ``docs/rules/battle-royale.md``: the Doom die's face (or a card's
extra action, or a free choice) runs one Doom action; a Battle Royale is suspended in a
two-player game's first 3 turns; an explosion under a hole or the centre becomes "move
Eliminator"; two players roll once more after every turn, where only an explosion counts.

What differs is where the pieces are the truth: the full engine resolves a Battle
Royale and an explosion itself (:meth:`_battle_royale`, :meth:`_explosion`), assist mode
waits for the players to do it on the table. Both are :class:`DoomPhase` states.
"""

from __future__ import annotations

from abc import abstractmethod
from fractions import Fraction
from functools import cache
from itertools import compress

from companion.games.battle_royale import actions as A
from companion.games.battle_royale.config import BattleRoyaleConfig
from companion.games.battle_royale.data import DOOM_ACTIONS
from companion.games.battle_royale.layout import (
    CELLS,
    CENTRE,
    FIELD_NAMES,
    NEIGHBOUR_CELLS,
    connected_to_centre,
    field_name,
)
from companion.games.core.state import GameState

NO_BATTLE_ROYALE_TURNS = 3  # two players: no Battle Royale in the first 3 turns


class DoomPhase(GameState):
    """Turn order and the Doom phase. A subclass sets ``players``, ``colours``, ``out``,
    ``present``, ``eliminator``, ``active``, ``turn``, ``doom_stage`` and starts turns
    with ``_start_turn(seat)``."""

    config: BattleRoyaleConfig
    players: int
    colours: tuple[str, ...]
    out: list[bool]
    present: list[bool]
    eliminator: int
    active: int
    turn: int
    doom_stage: str | None
    _doom: dict[str, Fraction]
    _doom_made: dict[type, list[tuple[A.Action, Fraction]]]  # outcomes made once a game

    END_RULE = "rule 12 (end of game)"
    NAME = "a Battle Royale"

    # ------------------------------------------------------------------ queries

    def colour_of(self, seat: int) -> str:
        return self.colours[seat]

    def fields(self) -> list[int]:
        return list(compress(range(CELLS), self.present))

    def eliminator_targets(self) -> list[int]:
        """Rule 8: the up to 8 neighbouring positions that lie under a field."""
        present = self.present
        return [n for n in NEIGHBOUR_CELLS[True][self.eliminator] if present[n]]

    def battle_royale_suspended(self) -> bool:
        """Rule 13: two players have no Battle Royale in the first 3 turns."""
        return self.players == 2 and self.turn <= NO_BATTLE_ROYALE_TURNS

    def _explosion_possible(self) -> bool:
        """Rule 9: the Eliminator is under a field other than the centre."""
        return self.present[self.eliminator] and self.eliminator != CENTRE

    def _loose_fields(self) -> list[int]:
        """Rule 9: fields no longer joined to the centre, which collapse."""
        fields = self.fields()
        return sorted(set(fields) - connected_to_centre(fields))

    def _doom_outcomes(
        self, action: type[A.DoomRoll | A.ExtraRoll]
    ) -> list[tuple[A.Action, Fraction]]:
        made = self._doom_made
        outcomes = made.get(action)
        if outcomes is None:  # made once per game: a roll after every turn
            outcomes = made[action] = [(action.shared(face), p) for face, p in self._doom.items()]
        return list(outcomes)

    def _choose_actions(self) -> list[A.Action]:
        """Rule 10: a free choice of the Doom actions (rule 13: no Battle Royale early)."""
        choose = _choice_actions()
        if self.battle_royale_suspended():
            return [choose[f] for f in DOOM_ACTIONS if f != "battle_royale"]
        return [choose[f] for f in DOOM_ACTIONS]

    # ------------------------------------------------------------------ turns

    @abstractmethod
    def _start_turn(self, seat: int) -> None:
        """``seat`` begins a turn."""

    def _cut_turn_short(self) -> None:
        """Ruling 11a: the active player lost the last figure in their own turn and is out
        at once; what was under way is resolved, the rest of the turn is skipped."""
        self._emit(
            "turn_cut_short",
            f"{self.colours[self.active]} is out: the rest of the turn is skipped",
            seat=self.active,
        )
        self._end_turn()

    def _end_turn(self) -> None:
        """The next player clockwise who is still in begins a turn."""
        for i in range(1, self.players + 1):
            seat = (self.active + i) % self.players
            if not self.out[seat]:
                self._start_turn(seat)
                return
        raise AssertionError("every player is out but the game did not end")  # pragma: no cover

    # ------------------------------------------------------------------ the Doom phase

    def _do_DoomRoll(self, a: A.DoomRoll) -> None:
        self._record("doom_rolled", f"Doom die: {a.face.replace('_', ' ')}", {"face": a.face})
        if not self._offer_reroll(a.face):
            self._run_doom_action(a.face)

    def _offer_reroll(self, face: str) -> bool:
        """Whether the roll waits for a reroll decision (rule 14) before it runs."""
        return False

    def _do_ExtraRoll(self, a: A.ExtraRoll) -> None:
        self._emit(
            "doom_rolled", f"extra Doom die: {a.face.replace('_', ' ')}", face=a.face, extra=True
        )
        if a.face == "explosion":
            self._run_doom_action("explosion")
        else:
            self._emit("nothing_happens", "the extra roll counts only an explosion")
            self._doom_done()

    def _do_ChooseAction(self, a: A.ChooseAction) -> None:
        self._emit(
            "doom_action",
            f"{self.colours[self.active]} chooses {a.face.replace('_', ' ')}",
            face=a.face,
            source="choice",
        )
        self._run_doom_action(a.face)

    def _run_doom_action(self, face: str) -> None:
        if face == "free_choice":
            self.phase = "choose"
        elif face == "battle_royale":
            if self.battle_royale_suspended():
                self._emit("nothing_happens", "two players: no Battle Royale in the first 3 turns")
                self._doom_done()
            else:
                self._battle_royale()
        elif face == "move_eliminator":
            if self.eliminator_targets():
                self.phase = "move_eliminator"
            else:
                self._emit("nothing_happens", "the Eliminator has no field to move under")
                self._doom_done()
        elif face == "explosion":
            if not self._explosion_possible():
                self._explosion_redirected("the centre" if self.eliminator == CENTRE else "a hole")
                self._run_doom_action("move_eliminator")
            else:
                self._explosion()
        else:  # pragma: no cover - faces are validated by the config and by legality
            raise AssertionError(face)

    @abstractmethod
    def _battle_royale(self) -> None:
        """Rule 7: a Battle Royale on every field but the centre."""

    @abstractmethod
    def _explosion(self) -> None:
        """Rule 9: the field over the Eliminator explodes."""

    @abstractmethod
    def _explosion_redirected(self, where: str) -> None:
        """Rule 9: the Eliminator is under ``where`` (the centre, a hole): say so."""

    def _do_MoveEliminator(self, a: A.MoveEliminator) -> None:
        old, self.eliminator = FIELD_NAMES[self.eliminator], a.position
        new = FIELD_NAMES[a.position]
        self._record("eliminator_moved", f"Eliminator {old} -> {new}", {"from": old, "to": new})
        self._doom_done()

    def _doom_done(self) -> None:
        """A Doom action is over: the roll after a card's extra action, two players' extra
        roll, or the next turn (at once if the active player is out: ruling 11a)."""
        if self.out[self.active]:
            self._cut_turn_short()
        elif self.doom_stage == "extra":
            self.doom_stage = "roll"
            self.phase = "doom_roll"
        elif self.doom_stage == "roll" and self.players == 2:
            self.doom_stage = "extra_roll"
            self.phase = "extra_roll"
        else:
            self._end_turn()

    # ------------------------------------------------------------------ corrections

    def _do_SetEliminator(self, a: A.SetEliminator) -> None:
        self.eliminator = a.position
        self._emit(
            "correction",
            f"Eliminator set under {field_name(a.position)}",
            correction="set-eliminator",
            position=field_name(a.position),
        )


@cache
def _choice_actions() -> dict[str, A.ChooseAction]:
    """Doom action -> the action choosing it, made on first use (not at import)."""
    return {face: A.ChooseAction.shared(face) for face in DOOM_ACTIONS}
