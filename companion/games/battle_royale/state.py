"""The Battle Royale game state: the rules as a state machine of small actions.

The machinery (legality, ``apply`` with typed rejection, chance nodes, history, replay,
events) is the core's :class:`~companion.games.core.state.GameState`; the turn order
and the Doom phase are shared with assist mode (:mod:`.doom`); this module holds the
rest of the rules: setup, cards, movement, pushing, Battle Royale captures, explosions
with their figures, corrections, the end of the game.

Rule numbers in messages refer to ``docs/rules/battle-royale.md``.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import cache
from typing import Any

from companion.games.battle_royale import actions as A
from companion.games.battle_royale.config import BattleRoyaleConfig
from companion.games.battle_royale.data import ActionCard
from companion.games.battle_royale.doom import NO_BATTLE_ROYALE_TURNS, DoomPhase
from companion.games.battle_royale.layout import (
    CELLS,
    CENTRE,
    DIRECTIONS,
    FIELD_NAMES,
    NEAR,
    NEIGHBOUR_CELLS,
    field_name,
    neighbours,
    step,
)
from companion.games.battle_royale.reasons import BattleRoyaleReasons
from companion.games.core.errors import IllegalActionError
from companion.games.core.state import CHANCE, TERMINAL, best

__all__ = [
    "CHANCE",
    "NO_BATTLE_ROYALE_TURNS",
    "TERMINAL",
    "BattleRoyaleState",
    "IllegalActionError",
    "new_game",
    "replay",
]

HAND_SIZE = 4
FIGURES_PER_COLOUR = 21
NEUTRAL_PER_FIELD = 2

CHANCE_PHASES = frozenset(
    {
        "start_player",
        "reveal_ability",
        "reveal_special",
        "deal",
        "draw_card",
        "doom_roll",
        "extra_roll",
    }
)
CORRECTION_PHASES = {"blast", "special_effect"}


class BattleRoyaleState(BattleRoyaleReasons, DoomPhase):
    """One game of Battle Royale. Public attributes are read-only views of the state.

    - ``counts[cell][k]``: figures of colour ``k`` on ``cell`` (cells 0..24);
    - ``present[cell]``: whether the field is still in the arena;
    - ``eliminator``: the cell the Eliminator is under;
    - ``prisoners[seat][k]``, ``box[k]``, ``reserve[k]``: figures out of the arena;
    - ``hands``, ``draw_piles``, ``discards``: card id -> count, per seat;
    - ``phase``, ``turn``, ``active``: where the game is.
    """

    CHANCE_PHASES = CHANCE_PHASES
    ACTION = A.Action
    #: The engine's own attributes live in slots. Speed: CPython keeps at most 30
    #: attributes of an instance in its fast inline layout; past that every method call
    #: on the state (``self._emit``, ``self._check_end`` ...) takes the slow generic
    #: look-up. The core's few attributes stay in ``__dict__``.
    __slots__ = (
        "players",
        "colours",
        "neutral",
        "capacity",
        "_cards",
        "_doom",
        "_doom_made",
        "present",
        "counts",
        "arena_total",
        "reserve",
        "box",
        "prisoners",
        "eliminator",
        "draw_piles",
        "_start_figures",
        "_play_actions",
        "_draw_actions",
        "hands",
        "discards",
        "out",
        "turn",
        "start_player",
        "active",
        "revealed_abilities",
        "draft_order",
        "abilities",
        "specials",
        "special_used",
        "card",
        "figures_moved",
        "moved",
        "figure",
        "push_stack",
        "doom_stage",
        "pending_face",
        "br_cell",
        "br_queue",
        "corrections_return",
        "_movable",
    )

    def __init__(self, config: BattleRoyaleConfig | None = None) -> None:
        super().__init__(config or BattleRoyaleConfig())

    def _setup(self) -> None:
        config = self.config
        self.players = config.players
        self.colours: tuple[str, ...] = config.colours + (
            (config.neutral_colour,) if config.neutral_colour else ()
        )
        self.neutral: int | None = self.players if config.neutral_colour else None
        self.capacity = config.capacity
        self._cards: dict[str, ActionCard] = {c.id: c for c in config.data.deck}
        self._doom = config.doom_distribution()
        self._doom_made: dict[type, list[tuple[A.Action, Fraction]]] = {}
        k = len(self.colours)
        fields = config.arena_layout.fields
        self.present = [cell in fields for cell in range(CELLS)]
        self.counts = [[0] * k for _ in range(CELLS)]
        for cell in fields:
            for seat in range(self.players):
                self.counts[cell][seat] = 1
        if self.neutral is not None:
            for cell in (CENTRE, *(n for _, n in neighbours(CENTRE, True))):
                if self.present[cell]:
                    self.counts[cell][self.neutral] = NEUTRAL_PER_FIELD
        self.arena_total = [sum(self.counts[c][i] for c in range(CELLS)) for i in range(k)]
        self.reserve = [FIGURES_PER_COLOUR - len(fields)] * self.players + [0] * (k - self.players)
        self.box = [0] * k
        self.prisoners = [[0] * k for _ in range(self.players)]
        self.eliminator = CENTRE
        empty = {c.id: 0 for c in config.data.deck}
        full = dict(empty)
        for c in config.data.deck:
            full[c.id] += 1
        self.draw_piles = [dict(full) for _ in range(self.players)]
        self._start_figures = _start_figures(self.colours)
        self._play_actions = _play_actions(tuple(full))
        self._draw_actions = [_draw_actions(seat, tuple(full)) for seat in range(self.players)]
        self.hands = [dict(empty) for _ in range(self.players)]
        self.discards = [dict(empty) for _ in range(self.players)]
        self.out = [False] * self.players
        self.turn = 0
        self.start_player: int | None = config.start_player
        self.active = config.start_player if config.start_player is not None else 0
        self.revealed_abilities: list[str] = []
        self.draft_order: list[int] = []
        self.abilities: dict[int, str] = {}
        self.specials: list[str] = []
        self.special_used = False
        # movement phase
        self.card: str | None = None
        self.figures_moved = 0
        self.moved: dict[tuple[int, int], int] = {}
        # the figure being moved: [cell, colour, steps, visited cells, last direction, start]
        self.figure: list[Any] | None = None
        self.push_stack: list[list[Any]] = []  # [cell, direction, protected colour, moved]
        # Doom phase
        self.doom_stage: str | None = None
        self.pending_face: str | None = None
        self.br_cell: int | None = None
        self.br_queue: list[tuple[int, tuple[int, ...], bool]] = []
        self.corrections_return: str | None = None
        # per card kind (diagonal or not): the fields with a field next to them; kept until
        # a field leaves the arena (speed: listed on every move)
        self._movable: dict[bool, tuple[int, ...]] = {}
        self._advance_setup()

    # ------------------------------------------------------------------ queries

    def _chooser(self) -> int:
        if self.phase == "pick_ability":
            return self.draft_order[len(self.abilities)]
        if self.phase == "capture":
            return self.br_queue[0][0]
        return self.active

    def colour_index(self, colour: str) -> int:
        return self.colours.index(colour)

    def card_in_play(self) -> ActionCard | None:
        return self._cards[self.card] if self.card else None

    def hand(self, seat: int) -> list[str]:
        """Card ids in a seat's hand, repeated by count, in deck order."""
        return [cid for cid, n in self.hands[seat].items() for _ in range(n)]

    def figures_in_arena(self, colour: int) -> int:
        return self.arena_total[colour]

    def prisoner_total(self, seat: int) -> int:
        return sum(self.prisoners[seat])

    def field_total(self, cell: int) -> int:
        return sum(self.counts[cell])

    def explosion_armed(self) -> bool:
        """True once an explosion will blow up a field (the table may fire now)."""
        return self._explosion_possible()

    # ------------------------------------------------------------------ legality

    def _chance_outcomes(self) -> list[tuple[A.Action, Fraction]]:
        """At a chance node: each outcome with its exact probability (they sum to 1)."""
        phase = self.phase
        if phase == "draw_card" or phase == "deal":  # the usual chance nodes first
            seat = self._drawing_seat()
            pile = self.draw_piles[seat]
            draw, shares = self._draw_actions[seat], _shares(sum(pile.values()))
            return [(draw[cid], shares[n]) for cid, n in pile.items() if n]
        if phase == "doom_roll":
            return self._doom_outcomes(A.DoomRoll)
        if phase == "start_player":
            p = _fraction(1, self.players)
            return [(A.StartPlayer.shared(s), p) for s in range(self.players)]
        if phase == "reveal_ability":
            left = [c.id for c in self.config.data.abilities if c.id not in self.revealed_abilities]
            return [(A.RevealAbility.shared(c), _fraction(1, len(left))) for c in left]
        if phase == "reveal_special":
            left = [c.id for c in self.config.data.specials if c.id not in self.specials]
            return [(A.RevealSpecial.shared(c), _fraction(1, len(left))) for c in left]
        if phase == "extra_roll":
            return self._doom_outcomes(A.ExtraRoll)
        return []

    def _choices(self) -> list[A.Action]:
        """The phase's own lister (a table look-up: a long ``if phase ==`` chain was a
        tenth of the bytecodes a bot's move ran)."""
        lister = _CHOICES.get(self.phase)
        return [] if lister is None else lister(self)

    def _pick_choices(self) -> list[A.Action]:
        taken = set(self.abilities.values())
        return [A.PickAbility(c) for c in self.revealed_abilities if c not in taken]

    def _turn_start_choices(self) -> list[A.Action]:
        play = self._play_actions
        acts: list[A.Action] = [play[c] for c, n in self.hands[self.active].items() if n]
        if self.config.special_actions:
            acts += self._special_actions(before_doom=True)
        return acts

    def _move_choices(self) -> list[A.Action]:
        """The figures that may start a move, then ending the movement."""
        return self._start_figure_actions(_END_MOVEMENT)

    def _figure_choices(self) -> list[A.Action]:
        fig = self.figure
        if fig is None or self.card is None:
            return []
        card = self._cards[self.card]
        acts = []
        if fig[2] < card.steps:
            present, visited = self.present, fig[3]
            acts = [
                act
                for act, n in _STEP_ACTIONS[card.diagonal][fig[0]]
                if present[n] and n not in visited
            ]
        if fig[2] >= 1:
            acts.append(_STOP)
        return acts

    def _push_choices(self) -> list[A.Action]:
        cell, _, protected, _ = self.push_stack[-1]
        names = self.colours
        return [A.Push.shared(names[k]) for k in self._push_candidates(cell, protected)]

    def _after_move_choices(self) -> list[A.Action]:
        return [A.Continue.shared(), *self._special_actions(before_doom=True)]

    def _reroll_choices(self) -> list[A.Action]:
        return [A.Continue.shared(), *self._special_actions(before_doom=False)]

    def _eliminator_choices(self) -> list[A.Action]:
        present = self.present
        return [_MOVE_ELIMINATOR[p] for p in NEIGHBOUR_CELLS[True][self.eliminator] if present[p]]

    def _capture_choices(self) -> list[A.Action]:
        seat, allowed, optional = self.br_queue[0]
        cell = self.br_cell
        assert cell is not None
        row, capture = self.counts[cell], _captures(self.colours)
        acts = [capture[k] for k in allowed if row[k] > 0]
        if optional:
            acts.append(A.DeclineCapture.shared())
        return acts

    def _correction_choices(self) -> list[A.Action]:
        return [A.EndCorrections.shared(), *self._correction_actions()]

    def _end_corrections_only(self) -> list[A.Action]:
        """Corrections are offered only after a blast (and a special action by hand),
        where a bot just ends them: the hundreds of corrections are not listed for it."""
        return [_END_CORRECTIONS]

    def _special_actions(self, before_doom: bool) -> list[A.Action]:
        if not self.config.special_actions or self.special_used:
            return []
        out: list[A.Action] = []
        prisoners = self.prisoner_total(self.active)
        for sid in self.specials:
            special = self.config.data.special(sid)
            if (special.effect == "reroll") != (not before_doom):
                continue
            if prisoners >= special.cost:
                out.append(A.UseSpecial(sid))
        return out

    def _movable_fields(self, diagonal: bool) -> tuple[int, ...]:
        """Fields with another field next to them (a figure there can take a step)."""
        cells = self._movable.get(diagonal)
        if cells is None:
            fields = self.fields()
            present = set(fields)
            near = NEAR[diagonal]
            cells = self._movable[diagonal] = tuple(
                [cell for cell in fields if not near[cell].isdisjoint(present)]
            )
        return cells

    def _start_figure_actions(self, then: A.Action) -> list[A.Action]:
        """The figures that may start a move: the player's own colour (every colour with
        a card that moves any), not yet moved this turn, on a field a step can leave;
        ``then`` after them."""
        card = self._cards[self.card]  # type: ignore[index]
        counts, moved, start = self.counts, self.moved, self._start_figures
        cells = self._movable.get(card.diagonal) or self._movable_fields(card.diagonal)
        if not card.any_colour:  # the usual card: the player's own colour
            k = self.active
            if not moved:
                acts = [start[c][k] for c in cells if counts[c][k]]
            else:
                acts = [start[c][k] for c in cells if counts[c][k] > moved.get((c, k), 0)]
        else:
            colours = range(len(self.colours))
            acts = [
                start[c][k] for c in cells for k in colours if counts[c][k] > moved.get((c, k), 0)
            ]
        acts.append(then)
        return acts

    def _push_candidates(self, cell: int, protected: int) -> list[int]:
        row = self.counts[cell]
        return [k for k in range(len(row)) if row[k] - (k == protected) > 0]

    def _correction_actions(self) -> list[A.Action]:
        acts: list[A.Action] = []
        present, counts = self.present, self.counts
        table = _corrections(self.colours)
        for cell in self.fields():
            near = [to for _, to in neighbours(cell, True) if present[to]]
            remove, figures = table[cell]
            for k, n in enumerate(counts[cell]):
                if n:
                    knock, shifts = figures[k]
                    acts.append(knock)
                    acts.extend(map(shifts.__getitem__, near))
            if cell != CENTRE:
                acts.append(remove)
        eliminator = self.eliminator
        acts.extend(a for p, a in enumerate(_SET_ELIMINATOR) if p != eliminator)
        return acts

    # ------------------------------------------------------------------ actions

    # setup -------------------------------------------------------------------

    def _advance_setup(self) -> None:
        cfg = self.config
        if self.start_player is None:
            self.phase = "start_player"
        elif cfg.abilities and len(self.revealed_abilities) < self.players + 1:
            self.phase = "reveal_ability"
        elif cfg.abilities and len(self.abilities) < self.players:
            if not self.draft_order:
                # right of the start player picks first, then counter-clockwise
                self.draft_order = [
                    (self.start_player - 1 - i) % self.players for i in range(self.players)
                ]
            self.phase = "pick_ability"
        elif cfg.special_actions and len(self.specials) < 3:
            self.phase = "reveal_special"
        elif any(sum(h.values()) < HAND_SIZE for h in self.hands):
            self.phase = "deal"
        else:
            self._start_turn(self.start_player)

    def _drawing_seat(self) -> int:
        if self.phase == "deal":
            return next(s for s in range(self.players) if sum(self.hands[s].values()) < HAND_SIZE)
        return self.active

    def _do_StartPlayer(self, a: A.StartPlayer) -> None:
        self.start_player = a.seat
        self._emit("setup", f"{self.colours[a.seat]} starts", seat=a.seat)
        self._advance_setup()

    def _do_RevealAbility(self, a: A.RevealAbility) -> None:
        self.revealed_abilities.append(a.card)
        self._emit("setup", f"ability card {a.card} revealed", card=a.card)
        self._advance_setup()

    def _do_PickAbility(self, a: A.PickAbility) -> None:
        seat = self.current_player
        self.abilities[seat] = a.card
        self._emit(
            "ability_picked", f"{self.colours[seat]} takes ability {a.card}", seat=seat, card=a.card
        )
        self._advance_setup()

    def _do_RevealSpecial(self, a: A.RevealSpecial) -> None:
        self.specials.append(a.card)
        self._emit("setup", f"special action {a.card} lies face up", card=a.card)
        self._advance_setup()

    def _do_DrawCard(self, a: A.DrawCard) -> None:
        self.draw_piles[a.seat][a.card] -= 1
        self.hands[a.seat][a.card] += 1
        text = f"{self.colours[a.seat]} draws a card"
        self._emit_private(a.seat, "card_drawn", text, text, ("card",), seat=a.seat, card=a.card)
        if self.phase == "deal":
            self._advance_setup()
        else:
            self._after_draw()

    # turn and movement --------------------------------------------------------

    def _start_turn(self, seat: int) -> None:
        self.turn += 1
        self.active = seat
        self.card = None
        self.figures_moved = 0
        self.moved = {}
        self.special_used = False
        self.doom_stage = None
        self.phase = "turn_start"
        turn = self.turn
        self._record(
            "turn_started", f"turn {turn}: {self.colours[seat]}", {"seat": seat, "turn": turn}
        )

    def _do_PlayCard(self, a: A.PlayCard) -> None:
        self.hands[self.active][a.card] -= 1
        self.card = a.card
        self.phase = "move"
        seat = self.active
        self._record(
            "card_played",
            f"{self.colours[seat]} plays {self._cards[a.card].describe()}",
            {"seat": seat, "card": a.card},
        )

    def _do_StartFigure(self, a: A.StartFigure) -> None:
        k = self.colours.index(a.colour)
        self.figure = [a.field, k, 0, {a.field}, None, a.field]
        self.phase = "figure"

    def _do_Step(self, a: A.Step) -> None:
        fig = self.figure
        assert fig is not None
        cell, k = fig[0], fig[1]
        to = _STEP_TO[a.direction][cell]
        assert to is not None
        counts = self.counts
        counts[cell][k] -= 1
        counts[to][k] += 1
        fig[0] = to
        fig[2] += 1
        visited = fig[3]
        visited.add(to)
        fig[4] = a.direction
        colour, here, there = self.colours[k], FIELD_NAMES[cell], FIELD_NAMES[to]
        self._record(
            "figure_stepped",
            f"{colour} {here} -> {there}",
            {"colour": colour, "from": here, "to": there},
        )
        if fig[2] < self._cards[self.card].steps:  # type: ignore[index]
            acts = self._figure_choices()
            if len(acts) > 1:  # a step is left besides stopping: the figure may go on
                self._playable = acts  # what the next decision lists (speed)
                return
        self._stop_figure()

    def _do_StopFigure(self, a: A.StopFigure) -> None:
        self._stop_figure()

    def _stop_figure(self) -> None:
        fig = self.figure
        assert fig is not None
        cell, k, steps, _, direction, start = fig
        self.figure = None
        colour, here, there = self.colours[k], FIELD_NAMES[start], FIELD_NAMES[cell]
        self._record(
            "figure_moved",
            f"{colour} {here} -> {there} ({steps} step{'s' if steps > 1 else ''})",
            {"colour": colour, "from": here, "to": there, "steps": steps},
        )
        self.moved[(cell, k)] = self.moved.get((cell, k), 0) + 1
        self.figures_moved += 1
        if sum(self.counts[cell]) > self.capacity:
            self.push_stack = [[cell, direction, k, True]]
            self._resolve_pushes()
        else:
            self._after_figure()

    def _resolve_pushes(self) -> None:
        while self.push_stack:
            cell, _, protected, _ = self.push_stack[-1]
            if self.field_total(cell) <= self.capacity:
                self.push_stack.pop()
                continue
            candidates = self._push_candidates(cell, protected)
            if len(candidates) > 1:
                self.phase = "push"
                return
            self._push(candidates[0])
            if self._check_end():
                return
        self._after_figure()

    def _do_Push(self, a: A.Push) -> None:
        self._push(self.colour_index(a.colour))
        if not self._check_end():
            self._resolve_pushes()

    def _push(self, k: int) -> None:
        cell, direction, protected, protected_moved = self.push_stack[-1]
        moved_here = self.moved.get((cell, k), 0)
        unmoved = self.counts[cell][k] - moved_here - (k == protected and not protected_moved)
        was_moved = unmoved <= 0 and moved_here > 0
        if was_moved:
            self.moved[(cell, k)] = moved_here - 1
        self.counts[cell][k] -= 1
        to = _STEP_TO[direction][cell]
        colour = self.colours[k]
        if to is None or not self.present[to]:
            # rule 5 (ruling 5a): whatever its colour, it is the pusher's prisoner
            self.arena_total[k] -= 1
            self.prisoners[self.active][k] += 1
            where = "off the arena" if to is None else f"into the hole at {field_name(to)}"
            self._record(
                "figure_pushed",
                f"{colour} pushed from {field_name(cell)} {where} (prisoner)",
                {"colour": colour, "from": field_name(cell), "to": None, "fate": "prisoner"},
            )
            return
        self.counts[to][k] += 1
        if was_moved:
            self.moved[(to, k)] = self.moved.get((to, k), 0) + 1
        self._record(
            "figure_pushed",
            f"{colour} pushed {field_name(cell)} -> {field_name(to)}",
            {"colour": colour, "from": field_name(cell), "to": field_name(to), "fate": "field"},
        )
        if sum(self.counts[to]) > self.capacity:
            self.push_stack.append([to, direction, k, was_moved])

    def _after_figure(self) -> None:
        card = self._cards[self.card]  # type: ignore[index]
        if self._check_end():  # a move can leave every figure on the centre
            return
        if self.out[self.active]:  # ruling 11a: the mover's last figure is gone
            self.discards[self.active][card.id] += 1
            self._cut_turn_short()
        elif self.figures_moved >= card.figures:
            self._end_movement()
        else:
            self.phase = "move"

    def _do_EndMovement(self, a: A.EndMovement) -> None:
        self._end_movement()

    def _end_movement(self) -> None:
        assert self.card is not None
        seat = self.active
        self.discards[seat][self.card] += 1
        if not any(self.draw_piles[seat].values()):
            self.draw_piles[seat], self.discards[seat] = self.discards[seat], self.draw_piles[seat]
            self._emit(
                "pile_reshuffled", f"{self.colours[seat]} reshuffles the discards", seat=seat
            )
        self.phase = "draw_card"

    def _after_draw(self) -> None:
        if self.config.special_actions and self._special_actions(before_doom=True):
            self.phase = "after_move"
        else:
            self._begin_doom()

    def _do_Continue(self, a: A.Continue) -> None:
        if self.phase == "after_move":
            self._begin_doom()
        else:  # reroll_choice: keep the roll
            face = self.pending_face
            assert face is not None
            self.pending_face = None
            self._run_doom_action(face)

    def _do_UseSpecial(self, a: A.UseSpecial) -> None:
        special = self.config.data.special(a.card)
        self._pay(special.cost)
        self.special_used = True
        self._emit(
            "special_used",
            f"{self.colours[self.active]} uses {special.title}",
            seat=self.active,
            card=a.card,
            cost=special.cost,
            by_hand=special.effect is None,
        )
        if self.phase == "reroll_choice":
            self.pending_face = None
            self.phase = "doom_roll"
            return
        self.corrections_return = "after_move" if self.phase == "after_move" else "turn_start"
        self.phase = "special_effect"

    def _pay(self, cost: int) -> None:
        """Pay prisoners to the box, from the largest pile first (the colour changes nothing)."""
        mine = self.prisoners[self.active]
        for _ in range(cost):
            k = max(range(len(mine)), key=lambda i: (mine[i], -i))
            mine[k] -= 1
            self.box[k] += 1

    # Doom phase ---------------------------------------------------------------

    def _begin_doom(self) -> None:
        card = self.card_in_play()
        if card is not None and card.extra and self.doom_stage is None:
            self.doom_stage = "extra"
            self._emit(
                "doom_action",
                f"the card's extra action: {card.extra}",
                face=card.extra,
                source="card",
            )
            self._run_doom_action(card.extra)
        else:
            self.doom_stage = "roll"
            self.phase = "doom_roll"

    def _offer_reroll(self, face: str) -> bool:
        if not (self.config.special_actions and self._special_actions(before_doom=False)):
            return False
        self.pending_face = face
        self.phase = "reroll_choice"
        return True

    def _battle_royale(self) -> None:
        self.br_cell = -1
        self.br_queue = []
        self._continue_battle_royale()

    def _explosion(self) -> None:
        self._explode()
        if self._check_end():
            return
        self.corrections_return = "doom"
        self.phase = "blast"

    def _explosion_redirected(self, where: str) -> None:
        self._emit("nothing_happens", f"the Eliminator is under {where}: move it instead")

    def _explode(self) -> None:
        cell = self.eliminator
        self._emit(
            "explosion_armed",
            f"explosion under {field_name(cell)}: fire the Eliminator",
            field=field_name(cell),
        )
        lost = self._remove_field(cell)
        self._emit(
            "field_exploded", f"{field_name(cell)} explodes", field=field_name(cell), figures=lost
        )
        self._collapse()

    def _remove_field(self, cell: int) -> dict[str, int]:
        lost = {}
        for k, n in enumerate(self.counts[cell]):
            if n:
                lost[self.colours[k]] = n
                self.box[k] += n
                self.arena_total[k] -= n
                self.counts[cell][k] = 0
        self.present[cell] = False
        self._movable = {}
        return lost

    def _collapse(self) -> None:
        loose = self._loose_fields()
        if not loose:
            return
        lost: dict[str, int] = {}
        for cell in loose:
            for colour, n in self._remove_field(cell).items():
                lost[colour] = lost.get(colour, 0) + n
        names = [field_name(c) for c in loose]
        self._emit("fields_collapsed", f"collapsed: {', '.join(names)}", fields=names, figures=lost)

    # Battle Royale ------------------------------------------------------------

    def _continue_battle_royale(self) -> None:
        while True:
            cell = self.br_cell
            assert cell is not None
            while self.br_queue:
                seat, allowed, optional = self.br_queue[0]
                available = [k for k in allowed if self.counts[cell][k] > 0]
                if not available:
                    self.br_queue.pop(0)
                    continue
                if len(available) > 1 or optional:
                    self.phase = "capture"
                    return
                self._capture(seat, available[0])
                if self._check_end():
                    return
            cell = self._next_battle(cell + 1)
            if cell >= CELLS:
                self.br_cell = None
                self._doom_done()
                return
            self.br_cell = cell
            if self._battle_on(cell) and self._check_end():
                return

    def _next_battle(self, cell: int) -> int:
        """The first field from ``cell`` on (reading order, not the centre) where a
        colour has fewer figures than the majority: where :meth:`_battle_on` has a battle
        (``CELLS``: none left). Speed: a Battle Royale looks at every field, most have no
        battle, and this test is three C-level list operations."""
        present, counts = self.present, self.counts
        while cell < CELLS:
            if present[cell] and cell != CENTRE:
                row = counts[cell]
                # a colour with 0 < n < top: neither absent nor in the majority
                if row.count(max(row)) + row.count(0) < len(row):
                    return cell
            cell += 1
        return cell

    def _battle_on(self, cell: int) -> bool:
        """Rule 7/13: who has the majority on ``cell``; queue the captures. True when a
        figure left the arena here (a neutral majority)."""
        row = self.counts[cell]
        here = [k for k, n in enumerate(row) if n]
        top = max(row)
        if not here or row.count(top) == len(here):
            return False  # one colour, none, or all alike: no battle
        # (lists, not generators: a generator driven from C runs a second eval loop)
        majority = [k for k in here if row[k] == top]
        others = tuple([k for k in here if row[k] != top])
        if self.neutral is not None and self.neutral in majority:
            players_here = [s for s in range(self.players) if row[s]]
            if majority == [self.neutral]:
                if len(players_here) == 2:
                    a, b = players_here
                    if self.arena_total[a] != self.arena_total[b]:
                        loser = a if self.arena_total[a] > self.arena_total[b] else b
                    else:
                        loser = self.active
                else:
                    loser = players_here[0]
                row[loser] -= 1
                self.arena_total[loser] -= 1
                self.box[loser] += 1
                self._emit(
                    "figure_lost",
                    f"neutral majority on {field_name(cell)}: "
                    f"{self.colours[loser]} loses a figure to the box",
                    field=field_name(cell),
                    colour=self.colours[loser],
                )
                return True
            seat = next(k for k in majority if k != self.neutral)
            other = 1 - seat
            if row[other]:
                self.br_queue = [(seat, (other,), True)]
            return False
        order = [(self.active + i) % self.players for i in range(self.players)]
        self.br_queue = [(seat, others, False) for seat in order if seat in majority]
        return False

    def _capture(self, seat: int, k: int) -> None:
        cell = self.br_cell
        assert cell is not None
        self.counts[cell][k] -= 1
        self.arena_total[k] -= 1
        self.prisoners[seat][k] += 1
        self.br_queue.pop(0)
        colour, name = self.colours[k], FIELD_NAMES[cell]
        self._record(
            "captured",
            f"{self.colours[seat]} captures {colour} on {name}",
            {"seat": seat, "colour": colour, "field": name},
        )

    def _do_Capture(self, a: A.Capture) -> None:
        self._capture(self.br_queue[0][0], self.colour_index(a.colour))
        if not self._check_end():
            self._continue_battle_royale()

    def _do_DeclineCapture(self, a: A.DeclineCapture) -> None:
        self.br_queue.pop(0)
        self._continue_battle_royale()

    # corrections --------------------------------------------------------------

    def _do_KnockOff(self, a: A.KnockOff) -> None:
        k = self.colour_index(a.colour)
        self.counts[a.field][k] -= 1
        self.arena_total[k] -= 1
        self.box[k] += 1
        self._emit(
            "correction",
            f"{a.colour} knocked off {field_name(a.field)} (box)",
            correction="knockoff",
            field=field_name(a.field),
            colour=a.colour,
        )
        self._check_end()

    def _do_ShiftFigure(self, a: A.ShiftFigure) -> None:
        k = self.colour_index(a.colour)
        self.counts[a.field][k] -= 1
        self.counts[a.to][k] += 1
        self._emit(
            "correction",
            f"{a.colour} set from {field_name(a.field)} on {field_name(a.to)}",
            correction="shift",
            field=field_name(a.field),
            colour=a.colour,
            to=field_name(a.to),
        )
        self._check_end()

    def _do_RemoveField(self, a: A.RemoveField) -> None:
        lost = self._remove_field(a.field)
        self._emit(
            "correction",
            f"field {field_name(a.field)} removed",
            correction="remove",
            field=field_name(a.field),
            figures=lost,
        )
        self._collapse()
        self._check_end()

    def _do_EndCorrections(self, a: A.EndCorrections) -> None:
        back, self.corrections_return = self.corrections_return, None
        if back == "doom":
            self._doom_done()
        elif self.out[self.active]:  # ruling 11a: a special action cost the last figure
            self._cut_turn_short()
        elif back == "after_move":
            self._begin_doom()
        else:
            self.phase = "turn_start"

    # end of game --------------------------------------------------------------

    def _check_end(self) -> bool:
        """Rules 11 and 12: players out; the game ends at once when decided."""
        if self.phase == "game_over":
            return True
        totals, out = self.arena_total, self.out
        if min(totals[: self.players]) > 0 and sum(totals) != sum(self.counts[CENTRE]):
            return False  # the common case: every player is in, play goes on
        alive = []
        for seat in range(self.players):
            if totals[seat] > 0:
                alive.append(seat)
            elif not out[seat]:
                out[seat] = True
                self._emit(
                    "player_out", f"{self.colours[seat]} has no figure left in the arena", seat=seat
                )
        if len(alive) > 1 and sum(totals) != sum(self.counts[CENTRE]):
            return False  # the common case: play goes on
        if not alive:
            self._finish(
                best(range(self.players), self.prisoner_total),
                "no player figure is left: most prisoners wins",
            )
        elif len(alive) == 1:
            self._finish(alive, f"only {self.colours[alive[0]]} is left in the arena")
        elif sum(self.arena_total) == sum(self.counts[CENTRE]):
            on_centre = best(range(self.players), lambda s: self.counts[CENTRE][s])
            winners = best(on_centre, self.prisoner_total)
            self._finish(
                winners,
                "every figure left stands on the centre: most figures there "
                "wins, then most prisoners",
            )
        return self.phase == "game_over"

    def _finish(
        self, winners: list[int], reason: str, text: str | None = None, **data: Any
    ) -> None:
        self.figure = None
        self.push_stack = []
        self.br_queue = []
        super()._finish(winners, reason, text, **data)

    # ------------------------------------------------------------------ snapshots

    def snapshot(self) -> dict[str, Any]:
        """Everything that makes the state, as plain JSON-able data."""
        return {
            **super().snapshot(),
            "turn": self.turn,
            "active": self.active,
            "start_player": self.start_player,
            "colours": list(self.colours),
            "present": list(self.present),
            "counts": [list(r) for r in self.counts],
            "arena_total": list(self.arena_total),
            "eliminator": self.eliminator,
            "prisoners": [list(p) for p in self.prisoners],
            "box": list(self.box),
            "reserve": list(self.reserve),
            "hands": [dict(h) for h in self.hands],
            "draw_piles": [dict(p) for p in self.draw_piles],
            "discards": [dict(d) for d in self.discards],
            "out": list(self.out),
            "revealed_abilities": list(self.revealed_abilities),
            "draft_order": list(self.draft_order),
            "abilities": {str(k): v for k, v in sorted(self.abilities.items())},
            "specials": list(self.specials),
            "special_used": self.special_used,
            "card": self.card,
            "figures_moved": self.figures_moved,
            "moved": sorted([list(k) + [v] for k, v in self.moved.items() if v]),
            "figure": None
            if self.figure is None
            else [
                self.figure[0],
                self.figure[1],
                self.figure[2],
                sorted(self.figure[3]),
                self.figure[4],
                self.figure[5],
            ],
            "push_stack": [list(e) for e in self.push_stack],
            "doom_stage": self.doom_stage,
            "pending_face": self.pending_face,
            "br_cell": self.br_cell,
            "br_queue": [[s, list(a), o] for s, a, o in self.br_queue],
            "corrections_return": self.corrections_return,
        }


_FRACTIONS: dict[tuple[int, int], Fraction] = {}


def _fraction(n: int, total: int) -> Fraction:
    """``Fraction(n, total)``, made once (chance nodes list these on every draw)."""
    p = _FRACTIONS.get((n, total))
    if p is None:
        p = _FRACTIONS[(n, total)] = Fraction(n, total)
    return p


@cache
def _shares(total: int) -> tuple[Fraction, ...]:
    """``[n]``: ``Fraction(n, total)``, made once per total (a card draw's odds)."""
    return tuple(Fraction(n, total) for n in range(total + 1))


@cache
def _draw_actions(seat: int, cards: tuple[str, ...]) -> dict[str, A.DrawCard]:
    """Card id -> the action of ``seat`` drawing it, made once per seat and deck."""
    return {card: A.DrawCard.shared(seat, card) for card in cards}


@cache
def _play_actions(cards: tuple[str, ...]) -> dict[str, A.PlayCard]:
    """Card id -> the action playing it, made once per deck."""
    return {card: A.PlayCard.shared(card) for card in cards}


@cache
def _captures(colours: tuple[str, ...]) -> tuple[A.Capture, ...]:
    """``[colour index]``: the action capturing a figure of that colour."""
    return tuple(A.Capture.shared(name) for name in colours)


@cache
def _start_figures(colours: tuple[str, ...]) -> list[list[A.StartFigure]]:
    """``[cell][colour index]``: the action to pick up a figure, made once per colours."""
    return [[A.StartFigure.shared(cell, name) for name in colours] for cell in range(CELLS)]


@cache
def _corrections(
    colours: tuple[str, ...],
) -> list[tuple[A.RemoveField, list[tuple[A.KnockOff, dict[int, A.ShiftFigure]]]]]:
    """Per cell, made once per colours: the field removed, and per colour the figure
    knocked off or set on a neighbouring place (offered where a field is)."""
    return [
        (
            A.RemoveField(cell),
            [
                (
                    A.KnockOff(cell, colour),
                    {to: A.ShiftFigure(cell, colour, to) for _, to in neighbours(cell, True)},
                )
                for colour in colours
            ],
        )
        for cell in range(CELLS)
    ]


#: ``[direction][cell]``: the cell one step away (None: off the arena), as layout.step
_STEP_TO = {d: tuple(step(c, d) for c in range(CELLS)) for d in DIRECTIONS}
_MOVE_ELIMINATOR = tuple(A.MoveEliminator.shared(p) for p in range(CELLS))
_END_MOVEMENT = A.EndMovement.shared()
_SET_ELIMINATOR = tuple(A.SetEliminator(p) for p in range(CELLS))
_END_CORRECTIONS = A.EndCorrections.shared()
_STEPS = {d: A.Step(d) for d in DIRECTIONS}
_STOP = A.StopFigure()
#: ``[diagonal][cell]``: the step actions from a cell with the cell each leads to
_STEP_ACTIONS = {
    diagonal: tuple(tuple((_STEPS[d], n) for d, n in neighbours(c, diagonal)) for c in range(CELLS))
    for diagonal in (False, True)
}

#: phase -> the method listing a decision's legal actions (:meth:`_choices`)
_CHOICES = {
    "pick_ability": BattleRoyaleState._pick_choices,
    "turn_start": BattleRoyaleState._turn_start_choices,
    "move": BattleRoyaleState._move_choices,
    "figure": BattleRoyaleState._figure_choices,
    "push": BattleRoyaleState._push_choices,
    "after_move": BattleRoyaleState._after_move_choices,
    "reroll_choice": BattleRoyaleState._reroll_choices,
    "choose": BattleRoyaleState._choose_actions,
    "move_eliminator": BattleRoyaleState._eliminator_choices,
    "capture": BattleRoyaleState._capture_choices,
    **dict.fromkeys(CORRECTION_PHASES, BattleRoyaleState._correction_choices),
}
#: phase -> the method listing a decision's playable actions (the core's PLAYABLE): the
#: legal ones where no correction is offered
BattleRoyaleState.PLAYABLE = {
    **_CHOICES,
    **dict.fromkeys(CORRECTION_PHASES, BattleRoyaleState._end_corrections_only),
}


def new_game(config: BattleRoyaleConfig | None = None) -> BattleRoyaleState:
    """A fresh game (default config: 4 players, first-game layout, start player drawn)."""
    return BattleRoyaleState(config)


def replay(config: BattleRoyaleConfig, history: Iterable[A.Action]) -> BattleRoyaleState:
    """Rebuild a state from its config and action log; every action is checked again."""
    return BattleRoyaleState.replay(config, history)
