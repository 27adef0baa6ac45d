"""Why an action is not legal: a rule name and a sentence a player can act on.

Only asked after ``legal_actions()`` has said no, so these checks explain; they never
decide. :class:`BattleRoyaleReasons` is a part of the game state (it reads the state's
attributes); the shared checks come first (:meth:`GameState.why_illegal
<companion.games.core.state.GameState.why_illegal>`).
"""

from __future__ import annotations

from typing import Any

from companion.games.battle_royale import actions as A
from companion.games.battle_royale.layout import (
    CELLS,
    CENTRE,
    DIAGONAL,
    DIRECTIONS,
    field_name,
    step,
)

PHASE_TEXT = {
    "start_player": "the start player is being drawn",
    "reveal_ability": "ability cards are being revealed",
    "pick_ability": "a player picks an ability card",
    "reveal_special": "special-action cards are being revealed",
    "deal": "hands are being dealt",
    "turn_start": "the active player plays a card",
    "move": "the active player picks a figure to move or ends movement",
    "figure": "a figure is moving step by step",
    "push": "an overfull field: the active player picks a figure to push",
    "draw_card": "the active player draws a card",
    "after_move": "the active player may use a special action",
    "doom_roll": "the Doom die is rolled",
    "reroll_choice": "the active player may reroll the Doom die",
    "choose": "free choice: the active player picks a Doom action",
    "move_eliminator": "the active player moves the Eliminator",
    "capture": "a Battle Royale capture is chosen",
    "blast": "players report what the blast did on the table (corrections)",
    "special_effect": "players apply the special action by hand (corrections)",
    "extra_roll": "two players: the extra Doom-die roll",
    "game_over": "the game is over",
}


class BattleRoyaleReasons:
    """Why an action is not legal now (a part of :class:`BattleRoyaleState`)."""

    PHASE_TEXT = PHASE_TEXT
    colours: tuple[str, ...]
    phase: str
    counts: list[list[int]]
    present: list[bool]
    push_stack: list[list[Any]]
    br_queue: list[tuple[int, tuple[int, ...], bool]]
    specials: list[str]
    special_used: bool
    active: int
    config: Any
    figure: list[Any] | None

    def _why(self, action: A.Action) -> tuple[str, str] | None:
        malformed = self._malformed(action)
        if malformed:
            return "action format", malformed
        return self._specific(action)

    def _malformed(self, action: A.Action) -> str | None:
        """A value no position could make legal: a field off the grid, an unknown direction."""
        for name in ("field", "to", "position"):
            value = getattr(action, name, 0)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < CELLS:
                return f"{name} must be a field number 0..24 (a1..e5), got {value!r}"
        direction = getattr(action, "direction", "N")
        if direction not in DIRECTIONS:
            return f"direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}"
        colour = getattr(action, "colour", None)
        if colour is not None and colour not in self.colours:
            return f"{colour!r} is not a colour in this game: {', '.join(self.colours)}"
        return None

    def _specific(self, action: A.Action) -> tuple[str, str] | None:
        phase = self.phase
        colour_names = self.colours
        if isinstance(action, A.PlayCard) and phase == "turn_start":
            hand = ", ".join(self.hand(self.active)) or "no cards"
            return "rule 6 (cards)", (
                f"{colour_names[self.active]} has no card {action.card!r} "
                f"in hand; the hand holds: {hand}"
            )
        if isinstance(action, A.StartFigure) and phase == "move":
            return self._why_start_figure(action)
        if isinstance(action, A.Step) and phase == "figure":
            return self._why_step(action)
        if isinstance(action, A.StopFigure) and phase == "figure":
            return "rule 4 (movement)", "move the figure at least one step, or pick another action"
        if isinstance(action, A.Push) and phase == "push":
            cell, _, protected, _ = self.push_stack[-1]
            k = self.colour_index(action.colour)
            if self.counts[cell][k] == 0:
                return "rule 5 (pushing)", f"no {action.colour} figure stands on {field_name(cell)}"
            if k == protected:
                return "rule 5 (pushing)", "the figure that just arrived cannot be the one pushed"
        if isinstance(action, A.Capture) and phase == "capture":
            seat, allowed, _ = self.br_queue[0]
            options = ", ".join(colour_names[k] for k in allowed)
            return "rule 7 (Battle Royale)", (
                f"{colour_names[seat]} must capture a colour without the majority that is on the "
                f"field: {options}"
            )
        if isinstance(action, A.MoveEliminator) and phase == "move_eliminator":
            targets = ", ".join(field_name(c) for c in sorted(self.eliminator_targets()))
            return "rule 8 (move Eliminator)", (
                f"the Eliminator moves one position (also diagonally) under a field, not under a "
                f"hole: choose {targets}"
            )
        if isinstance(action, A.ChooseAction) and phase == "choose":
            if action.face == "battle_royale":
                return "rule 13 (two players)", "no Battle Royale in the first 3 turns"
            return "rule 10 (free choice)", "choose battle_royale, move_eliminator or explosion"
        if isinstance(action, A.UseSpecial):
            return self._why_special(action)
        if action.is_correction and phase in ("blast", "special_effect"):
            if isinstance(action, A.RemoveField) and action.field == CENTRE:
                return "rule 9 (explosion)", "the centre field never leaves the arena"
            return "corrections", (
                f"{action.notation} does not match the arena: check the field "
                "exists and holds that colour, and shift only to a neighbouring "
                "field"
            )
        if action.is_correction:
            return "corrections", (
                "corrections are entered after an explosion or a special "
                f"action; now {PHASE_TEXT.get(phase, phase)}"
            )
        return None

    def _why_start_figure(self, a: A.StartFigure) -> tuple[str, str]:
        rule = "rule 4 (movement)"
        card = self.card_in_play()
        assert card is not None
        k = self.colour_index(a.colour)
        if k != self.active and not card.any_colour:
            return rule, (
                f"this card moves only {self.colours[self.active]} figures, not {a.colour}"
            )
        if not self.present[a.field]:
            return rule, f"{field_name(a.field)} is a hole"
        if self.counts[a.field][k] == 0:
            return rule, f"no {a.colour} figure stands on {field_name(a.field)}"
        return rule, (
            f"every {a.colour} figure on {field_name(a.field)} has already moved this "
            "turn, or it has no field to step to"
        )

    def _why_step(self, a: A.Step) -> tuple[str, str]:
        rule = "rule 4 (movement)"
        card = self.card_in_play()
        fig = self.figure
        assert card is not None and fig is not None
        if a.direction in DIAGONAL and not card.diagonal:
            return rule, "figures move orthogonally (N, E, S, W); this card has no diagonal steps"
        if fig[2] >= card.steps:
            return rule, f"this card allows at most {card.steps} step(s) per figure: stop here"
        to = step(fig[0], a.direction)
        if to is None:
            return rule, f"{a.direction} from {field_name(fig[0])} leaves the arena"
        if not self.present[to]:
            return rule, f"{field_name(to)} is a hole; figures never move onto or across a hole"
        return rule, (
            f"this figure has already been on {field_name(to)} this turn; a figure never "
            "enters a field twice in one turn"
        )

    def _why_special(self, a: A.UseSpecial) -> tuple[str, str]:
        rule = "rule 14 (special actions)"
        if not self.config.special_actions:
            return rule, "special actions are not in this game (optional rule)"
        if a.card not in self.specials:
            return rule, f"{a.card!r} is not one of the face-up special actions: {self.specials}"
        if self.special_used:
            return rule, "one special action per turn, and this turn's is used"
        special = self.config.data.special(a.card)
        if self.prisoner_total(self.active) < special.cost:
            return rule, (
                f"{special.title} costs {special.cost} prisoner(s); "
                f"{self.colours[self.active]} has {self.prisoner_total(self.active)}"
            )
        if special.effect == "reroll":
            return rule, "a reroll is used in the Doom phase, right after the roll"
        return rule, "special actions are used right before or right after movement"
