"""The arena skirmish game state: the rules as a state machine of small actions.

The machinery (legality, ``apply`` with typed rejection, chance nodes, history, replay,
events) is the core's :class:`~companion.games.core.state.GameState`; this module holds
the rules. Roll-offs and hit dice are chance nodes (one node per hit die).

Ruling numbers in messages refer to ``docs/rules/arena-skirmish.md``.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from companion.dice import get_die
from companion.games.arena_skirmish import actions as A
from companion.games.arena_skirmish.combat import (
    BEHIND,
    FACE_LOCATION,
    FAVOURABLE,
    FRONT,
    SIDE,
    UNFAVOURABLE,
    DiceBreakdown,
    Stats,
    affinity_breakdown,
    class_relation,
    location_counts,
    melee_breakdown,
    resolve_hits,
)
from companion.games.arena_skirmish.config import SkirmishConfig
from companion.games.arena_skirmish.data import Profile
from companion.games.arena_skirmish.grid import DIRECTIONS, opposite
from companion.games.arena_skirmish.reasons import SkirmishReasons
from companion.games.core.errors import IllegalActionError
from companion.games.core.state import CHANCE, TERMINAL, GameState, best

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Gladiator",
    "IllegalActionError",
    "SkirmishState",
    "new_game",
    "replay",
]

DEPLOY_RANGE = 5  # "nicht weiter als 5 Felder von ihrem Eingang entfernt"
MAX_STAT = 99
CHANCE_PHASES = frozenset({"roll_off", "tie_break", "hit"})
ACTIVATION_PHASES = {"move", "rest"}
_D6 = tuple((int(face), p) for face, p in get_die("d6").distribution().items())
_TURNS = (A.TurnLeft(), A.TurnRight())


class Gladiator:
    """One gladiator in play: its profile and its current values."""

    __slots__ = (
        "id",
        "owner",
        "profile",
        "cell",
        "facing",
        "life",
        "movement",
        "attack",
        "affinity",
        "alive",
    )

    def __init__(self, profile: Profile, owner: int) -> None:
        self.id = profile.id
        self.owner = owner
        self.profile = profile
        self.cell: int | None = None
        self.facing = 0
        self.life = profile.life
        self.movement = profile.movement
        self.attack = profile.attack
        self.affinity = profile.affinity
        self.alive = True

    @property
    def initiative(self) -> int:
        return self.profile.initiative

    @property
    def stats(self) -> Stats:
        return Stats(self.life, self.movement, self.attack, self.affinity)

    def snapshot(self) -> list[Any]:
        return [
            self.id,
            self.owner,
            self.cell,
            self.facing,
            self.life,
            self.movement,
            self.attack,
            self.affinity,
            self.alive,
        ]


class SkirmishState(SkirmishReasons, GameState):
    """One game. Public attributes are read-only views of the state.

    - ``gladiators[gid]``: every gladiator in the game (removed ones with ``alive`` False);
    - ``teams[seat]``: the seat's gladiator IDs in the order picked;
    - ``occupant[cell]``: the gladiator on a cell, or -1;
    - ``entrance_of[seat]``: the seat's deployment entrance (a letter), once chosen;
    - ``phase``, ``round``, ``turn`` (activations so far), ``active`` (the seat acting),
      ``active_gladiator``, ``points_left``, ``attack`` (the attack being rolled).
    """

    CHANCE_PHASES = CHANCE_PHASES
    ACTION = A.Action
    NAME = "an arena skirmish"

    def __init__(self, config: SkirmishConfig | None = None) -> None:
        super().__init__(config or SkirmishConfig())

    def _setup(self) -> None:
        config = self.config
        self.players = config.players
        self.colours = config.colours
        self.map = config.game_map
        self.occupant = [-1] * self.map.cells
        self.teams: list[list[int]] = [[] for _ in range(self.players)]
        self.gladiators: dict[int, Gladiator] = {}
        self.picking = 0
        self.chooser: int | None = None
        self.entrance_of: list[str | None] = [None] * self.players
        self.tied: list[int] = []
        self.tie_for = ""  # place / activate
        self.placing: int | None = None
        self.round = 0
        self.turn = 0
        self.acted: list[int] = []  # this round, in order
        self.active = 0
        self.active_gladiator: int | None = None
        self.points_left = 0
        self.attack: dict[str, Any] | None = None
        self.combo_return: str | None = None
        self.scored = [0] * self.players
        self._start()

    # ------------------------------------------------------------------ queries

    def _chooser(self) -> int:
        phase = self.phase
        if phase == "select":
            return self.picking
        if phase == "entrance":
            assert self.chooser is not None
            return self.chooser
        if phase == "place":
            assert self.placing is not None
            return self.gladiators[self.placing].owner
        return self.active

    def gladiator(self, gid: int) -> Gladiator:
        return self.gladiators[gid]

    def alive(self, seat: int | None = None) -> list[Gladiator]:
        """Gladiators standing (of ``seat``), in ID order."""
        return [
            g
            for gid, g in sorted(self.gladiators.items())
            if g.alive and (seat is None or g.owner == seat)
        ]

    def standing_players(self) -> list[int]:
        """Seats with at least one gladiator standing."""
        return sorted({g.owner for g in self.gladiators.values() if g.alive})

    def standing_points(self, seat: int) -> int:
        return sum(g.profile.points for g in self.alive(seat))

    def cell_name(self, cell: int | None) -> str:
        return "-" if cell is None else self.map.name_of(cell)

    def deploy_cells(self, gid: int) -> list[int]:
        """Ruling 2: free cells within 5 fields of the gladiator's entrance (if none is
        free there: the nearest free cells)."""
        seat = self.gladiators[gid].owner
        letter = self.entrance_of[seat]
        assert letter is not None
        entrance = self.map.entrance_cell(letter)
        free = [
            c for c in range(self.map.cells) if not self.map.blocked[c] and self.occupant[c] < 0
        ]
        near = [c for c in free if self.map.distance(c, entrance) <= DEPLOY_RANGE]
        if near or not free:
            return near
        closest = min(self.map.distance(c, entrance) for c in free)
        return [c for c in free if self.map.distance(c, entrance) == closest]

    def step_cost(self, gid: int) -> int | None:
        """Ruling 5: the cost of one step forward at normal cost, or None if impossible."""
        g = self.gladiators[gid]
        assert g.cell is not None
        to = self.map.step(g.cell, g.facing)
        if to < 0 or self.map.blocked[to] or self.occupant[to] >= 0:
            return None
        climb = abs(self.map.heights[to] - self.map.heights[g.cell])
        if climb > 1:
            return None
        return 2 if climb else 1

    def relative_position(self, attacker: int, target: int) -> tuple[str, bool, int] | None:
        """(position, target in front of the attacker, height difference) for two
        orthogonally adjacent gladiators; None if they are not adjacent.

        ``position`` is where the attacker stands seen from the target's facing: front,
        side or behind.
        """
        a = self.gladiators[attacker]
        if a.cell is None:
            return None
        return self._relative(a.cell, a.facing, target)

    def _relative(self, cell: int, facing: int, target: int) -> tuple[str, bool, int] | None:
        t = self.gladiators[target]
        if t.cell is None:
            return None
        d = self.map.direction_between(t.cell, cell)  # from the target to the attacker
        if d is None:
            return None
        if d == t.facing:
            position = FRONT
        elif d == opposite(t.facing):
            position = BEHIND
        else:
            position = SIDE
        in_front = facing == opposite(d)
        height = self.map.heights[cell] - self.map.heights[t.cell]
        return position, in_front, height

    def breakdown(
        self,
        attacker: int,
        target: int,
        kind: str,
        *,
        cell: int | None = None,
        facing: int | None = None,
    ) -> DiceBreakdown | None:
        """The dice of a melee or affinity attack; None if the two are not adjacent.

        ``cell`` / ``facing``: as if the attacker stood there (for planning), else where
        it stands.
        """
        a, t = self.gladiators[attacker], self.gladiators[target]
        if cell is None:
            cell = a.cell
        if facing is None:
            facing = a.facing
        if cell is None:
            return None
        rel = self._relative(cell, facing, target)
        if rel is None:
            return None
        position, in_front, height = rel
        if kind == "melee":
            return melee_breakdown(
                a.attack, a.profile.weight, t.profile.weight, position, in_front, height
            )
        return affinity_breakdown(
            a.affinity, a.profile.element, t.profile.element, position, in_front
        )

    def adjacent_enemies(self, gid: int) -> list[int]:
        g = self.gladiators[gid]
        if g.cell is None:
            return []
        out = []
        for d in range(4):
            n = self.map.step(g.cell, d)
            if n >= 0:
                other = self.occupant[n]
                if other >= 0 and self.gladiators[other].owner != g.owner:
                    out.append(other)
        return sorted(out)

    def round_order(self) -> list[int]:
        """Gladiators standing, by initiative (highest first; ties by ID until rolled off),
        those that acted this round first."""
        done = [gid for gid in self.acted if self.gladiators[gid].alive]
        rest = sorted(
            (g for g in self.alive() if g.id not in self.acted), key=lambda g: (-g.initiative, g.id)
        )
        return done + [g.id for g in rest]

    # ------------------------------------------------------------------ legality

    def _chance_outcomes(self) -> list[tuple[A.Action, Fraction]]:
        """At a chance node: each outcome with its exact probability (they sum to 1).

        A roll-off's winner is uniform over those rolling off (each rolls a d6; ties
        roll again), so each has probability 1/k.
        """
        phase = self.phase
        if phase == "roll_off":
            return [(A.RollOff(s), Fraction(1, self.players)) for s in range(self.players)]
        if phase == "tie_break":
            return [(A.TieBreak(g), Fraction(1, len(self.tied))) for g in self.tied]
        if phase == "hit":
            return [(A.HitDie(face), p) for face, p in _D6]
        return []

    def _choices(self) -> list[A.Action]:
        phase = self.phase
        if phase == "select":
            acts: list[A.Action] = [A.Pick(g) for g in self.pickable(self.picking)]
            if self.teams[self.picking]:
                acts.append(A.Ready())
            return acts
        if phase == "entrance":
            return [A.ChooseEntrance(e) for e in self.map.entrance_names]
        if phase == "place":
            assert self.placing is not None
            return [
                A.Place(self.map.name_of(c), d)
                for c in self.deploy_cells(self.placing)
                for d in DIRECTIONS
            ]
        if phase in ACTIVATION_PHASES:
            return self._activation_actions()
        if phase == "combo":
            return [A.Done(), *self._adjust_actions()]
        return []

    def pickable(self, seat: int) -> list[int]:
        """Ruling 3: IDs the seat may still pick (its column, untaken, within the limits)."""
        count, points, _ = self.config.limits
        team = self.teams[seat]
        if len(team) >= count:
            return []
        budget = points - sum(self.gladiators[g].profile.points for g in team)
        profiles = self.config.data.profiles
        return [
            g
            for g in self.config.offered(seat)
            if g not in self.gladiators and profiles[g].points <= budget
        ]

    def _activation_actions(self) -> list[A.Action]:
        gid = self.active_gladiator
        assert gid is not None
        double = 2 if self.phase == "rest" else 1
        acts: list[A.Action] = []
        cost = self.step_cost(gid)
        if cost is not None and cost * double <= self.points_left:
            acts.append(A.Step())
        if double <= self.points_left:
            acts.extend(_TURNS)
        if self.phase == "move":
            me = self.gladiators[gid]
            for target in self.adjacent_enemies(gid):
                melee = self.breakdown(gid, target, "melee")
                if melee is not None and melee.allowed:
                    acts.append(A.Melee(target))
                if me.affinity >= 1:
                    aff = self.breakdown(gid, target, "affinity")
                    if aff is not None and aff.allowed:
                        acts.append(A.AffinityAttack(target))
        acts.append(A.EndActivation())
        acts.append(A.Combo())
        return acts

    def _adjust_actions(self) -> list[A.Action]:
        acts: list[A.Action] = []
        for g in self.alive():
            for stat in ("life", "movement", "attack", "affinity"):
                value = getattr(g, stat)
                if value > 0:
                    acts.append(A.Adjust(g.id, stat, -1))
                if value < MAX_STAT:
                    acts.append(A.Adjust(g.id, stat, 1))
        if self.active_gladiator is not None:
            if self.points_left > 0:
                acts.append(A.Adjust(self.active_gladiator, "points", -1))
            if self.points_left < MAX_STAT:
                acts.append(A.Adjust(self.active_gladiator, "points", 1))
        return acts

    # ------------------------------------------------------------------ actions

    def _label(self, gid: int) -> str:
        g = self.gladiators[gid]
        return f"{self.colours[g.owner]} #{gid} {g.profile.name}"

    # setup -------------------------------------------------------------------

    def _start(self) -> None:
        if self.config.teams is None:
            self.phase = "select"
            self._advance_select()
            return
        for seat, team in enumerate(self.config.teams):
            for gid in team:
                self._add(seat, gid)
        self._after_selection()

    def _add(self, seat: int, gid: int) -> None:
        self.teams[seat].append(gid)
        self.gladiators[gid] = Gladiator(self.config.data.profile(gid), seat)

    def _do_Pick(self, a: A.Pick) -> None:
        seat = self.picking
        self._add(seat, a.gladiator)
        profile = self.gladiators[a.gladiator].profile
        self._emit(
            "gladiator_picked",
            f"{self.colours[seat]} picks #{profile.id} {profile.name} ({profile.points} points)",
            seat=seat,
            gladiator=a.gladiator,
            points=profile.points,
        )
        self._advance_select()

    def _do_Ready(self, a: A.Ready) -> None:
        self._team_ready(self.picking)
        self.picking += 1
        self._advance_select()

    def _team_ready(self, seat: int) -> None:
        points = sum(self.gladiators[g].profile.points for g in self.teams[seat])
        self._emit(
            "team_ready",
            f"{self.colours[seat]}'s team: "
            f"{', '.join(f'#{g}' for g in self.teams[seat])} ({points} points)",
            seat=seat,
            team=list(self.teams[seat]),
            points=points,
        )

    def _advance_select(self) -> None:
        """A team with nothing left to pick is complete without a question."""
        while self.picking < self.players:
            if self.pickable(self.picking):
                return
            self._team_ready(self.picking)
            self.picking += 1
        self._after_selection()

    def _after_selection(self) -> None:
        self._emit(
            "setup",
            "teams complete: the players roll off for the entrance",
            teams=[list(t) for t in self.teams],
        )
        self.phase = "roll_off"

    def _do_RollOff(self, a: A.RollOff) -> None:
        self.chooser = a.seat
        self._emit(
            "rolled_off",
            f"{self.colours[a.seat]} wins the roll-off and chooses an entrance",
            seat=a.seat,
        )
        self.phase = "entrance"

    def _do_ChooseEntrance(self, a: A.ChooseEntrance) -> None:
        chooser = self.chooser
        assert chooser is not None
        self.entrance_of[chooser] = a.entrance
        assigned = {chooser: self.map.entrance_cell(a.entrance)}
        for i in range(1, self.players):
            seat = (chooser + i) % self.players
            letter = self._farthest_entrance(list(assigned.values()))
            self.entrance_of[seat] = letter
            assigned[seat] = self.map.entrance_cell(letter)
        text = ", ".join(f"{self.colours[s]} {self.entrance_of[s]}" for s in range(self.players))
        self._emit(
            "entrance_chosen",
            f"{self.colours[chooser]} takes entrance {a.entrance}; entrances: {text}",
            seat=chooser,
            entrance=a.entrance,
            entrances=list(self.entrance_of),
        )
        self._next_placement()

    def _farthest_entrance(self, taken: list[int]) -> str:
        """Ruling 2: the free entrance farthest from those taken (the smallest distance
        to any of them as large as possible; then the larger sum; then map order)."""
        best: tuple[int, int, int] | None = None
        choice = ""
        for index, (letter, cell) in enumerate(self.map.entrances):
            if cell in taken:
                continue
            dists = [self.map.distance(cell, t) for t in taken]
            key = (min(dists), sum(dists), -index)
            if best is None or key > best:
                best, choice = key, letter
        return choice

    def _next_placement(self) -> None:
        left = [g for g in self.gladiators.values() if g.cell is None and g.alive]
        if not left:
            self._start_round()
            return
        low = min(g.initiative for g in left)
        group = sorted(g.id for g in left if g.initiative == low)
        if len(group) == 1:
            self.placing = group[0]
            self.phase = "place"
        else:
            self.tied, self.tie_for = group, "place"
            self.phase = "tie_break"

    def _do_TieBreak(self, a: A.TieBreak) -> None:
        tied = ", ".join(f"#{g}" for g in self.tied)
        self._emit(
            "tie_broken",
            f"roll-off between {tied} (initiative "
            f"{self.gladiators[a.gladiator].initiative}): #{a.gladiator} goes first",
            gladiator=a.gladiator,
            tied=list(self.tied),
            purpose=self.tie_for,
        )
        self.tied = []
        if self.tie_for == "place":
            self.placing = a.gladiator
            self.phase = "place"
        else:
            self._activate(a.gladiator)

    def _do_Place(self, a: A.Place) -> None:
        assert self.placing is not None
        g = self.gladiators[self.placing]
        g.cell = self.map.cell_of(a.cell)
        g.facing = DIRECTIONS.index(a.facing)
        self.occupant[g.cell] = g.id
        self._emit(
            "gladiator_placed",
            f"{self._label(g.id)} placed on {a.cell} facing {a.facing}",
            gladiator=g.id,
            seat=g.owner,
            cell=a.cell,
            facing=a.facing,
        )
        self.placing = None
        self._next_placement()

    # rounds ------------------------------------------------------------------

    def _start_round(self) -> None:
        self.round += 1
        self.acted = []
        self._emit("round_started", f"round {self.round}", round=self.round)
        self._next_activation()

    def _next_activation(self) -> None:
        if len(self.standing_players()) <= 1:
            self._end_round(early=True)
            return
        left = [g for g in self.gladiators.values() if g.alive and g.id not in self.acted]
        if not left:
            self._end_round()
            return
        high = max(g.initiative for g in left)
        group = sorted(g.id for g in left if g.initiative == high)
        if len(group) == 1:
            self._activate(group[0])
        else:
            self.tied, self.tie_for = group, "activate"
            self.phase = "tie_break"

    def _activate(self, gid: int) -> None:
        g = self.gladiators[gid]
        self.turn += 1
        self.active = g.owner
        self.active_gladiator = gid
        self.points_left = g.movement
        self.phase = "move"
        self._emit(
            "turn_started",
            f"round {self.round}: {self._label(gid)} acts (initiative "
            f"{g.initiative}, {g.movement} movement points)",
            turn=self.turn,
            round=self.round,
            seat=g.owner,
            gladiator=gid,
            points=g.movement,
        )

    def _end_activation(self) -> None:
        gid = self.active_gladiator
        assert gid is not None
        self.acted.append(gid)
        self._emit("activation_ended", f"#{gid} is done", gladiator=gid, seat=self.active)
        self.active_gladiator = None
        self.points_left = 0
        self.combo_return = None
        self._next_activation()

    def _do_EndActivation(self, a: A.EndActivation) -> None:
        self._end_activation()

    def _do_Step(self, a: A.Step) -> None:
        gid = self.active_gladiator
        assert gid is not None
        g = self.gladiators[gid]
        cost = self.step_cost(gid)
        assert cost is not None and g.cell is not None
        if self.phase == "rest":
            cost *= 2
        src, dst = g.cell, self.map.step(g.cell, g.facing)
        self.occupant[src] = -1
        self.occupant[dst] = gid
        g.cell = dst
        self.points_left -= cost
        climb = self.map.heights[dst] - self.map.heights[src]
        how = {1: " up", -1: " down"}.get(climb, "")
        self._emit(
            "stepped",
            f"#{gid} steps{how} {self.cell_name(src)} -> {self.cell_name(dst)} "
            f"({cost} point{'s' if cost > 1 else ''}, {self.points_left} left)",
            gladiator=gid,
            **{"from": self.cell_name(src)},
            to=self.cell_name(dst),
            cost=cost,
            points_left=self.points_left,
        )

    def _turn(self, delta: int, word: str) -> None:
        gid = self.active_gladiator
        assert gid is not None
        g = self.gladiators[gid]
        cost = 2 if self.phase == "rest" else 1
        g.facing = (g.facing + delta) % 4
        self.points_left -= cost
        self._emit(
            "turned",
            f"#{gid} turns {word}, now facing {DIRECTIONS[g.facing]} "
            f"({cost} point{'s' if cost > 1 else ''}, {self.points_left} left)",
            gladiator=gid,
            facing=DIRECTIONS[g.facing],
            cost=cost,
            points_left=self.points_left,
        )

    def _do_TurnLeft(self, a: A.TurnLeft) -> None:
        self._turn(3, "left")

    def _do_TurnRight(self, a: A.TurnRight) -> None:
        self._turn(1, "right")

    # attacks -----------------------------------------------------------------

    def _do_Melee(self, a: A.Melee) -> None:
        self._begin_attack("melee", a.target)

    def _do_AffinityAttack(self, a: A.AffinityAttack) -> None:
        self._begin_attack("affinity", a.target)

    def _begin_attack(self, kind: str, target: int) -> None:
        gid = self.active_gladiator
        assert gid is not None
        breakdown = self.breakdown(gid, target, kind)
        assert breakdown is not None and breakdown.allowed
        self.attack = {
            "attacker": gid,
            "target": target,
            "kind": kind,
            "dice": breakdown.dice,
            "faces": [],
        }
        self._emit(
            "attack_declared",
            f"#{gid} {kind} attack on #{target}: {breakdown.describe()}",
            attacker=gid,
            target=target,
            kind=kind,
            dice=breakdown.dice,
            breakdown=[list(line) for line in breakdown.lines],
        )
        self.phase = "hit"

    def _do_HitDie(self, a: A.HitDie) -> None:
        attack = self.attack
        assert attack is not None
        attack["faces"].append(a.face)
        n = len(attack["faces"])
        self._emit(
            "hit_die",
            f"die {n}/{attack['dice']}: {a.face} ({FACE_LOCATION[a.face]})",
            face=a.face,
            location=FACE_LOCATION[a.face],
            n=n,
            dice=attack["dice"],
        )
        if n == attack["dice"]:
            self._resolve_attack()

    def _resolve_attack(self) -> None:
        attack = self.attack
        assert attack is not None
        target = self.gladiators[attack["target"]]
        faces = tuple(attack["faces"])
        result = resolve_hits(target.stats, faces)
        after = result.after
        target.life, target.movement = after.life, after.movement
        target.attack, target.affinity = after.attack, after.affinity
        rolled = " ".join(str(f) for f in faces)
        self._emit(
            "hits_resolved",
            f"#{target.id} hit ({rolled}): {result.describe()}",
            attacker=attack["attacker"],
            target=target.id,
            kind=attack["kind"],
            faces=sorted(faces),
            counts=list(location_counts(faces)),
            life_lost=result.life_lost,
            movement_lost=result.movement_lost,
            attack_lost=result.attack_lost,
            affinity_lost=result.affinity_lost,
            to_body=result.to_body,
            removed=result.removed,
        )
        self.attack = None
        if result.removed:
            self._remove(target.id, by=self.active)
        if len(self.standing_players()) <= 1:
            self._end_activation()
        else:
            self.phase = "rest"

    def _remove(self, gid: int, by: int | None) -> None:
        g = self.gladiators[gid]
        assert g.cell is not None
        where = self.cell_name(g.cell)
        self.occupant[g.cell] = -1
        g.cell = None
        g.alive = False
        g.life = 0
        if by is not None and by != g.owner:
            self.scored[by] += g.profile.points
        self._emit(
            "gladiator_removed",
            f"{self._label(gid)} has no life left and leaves the arena ({where})",
            gladiator=gid,
            seat=g.owner,
            cell=where,
            by=by,
        )

    # corrections -------------------------------------------------------------

    def _do_Combo(self, a: A.Combo) -> None:
        self.combo_return = self.phase
        self.phase = "combo"
        self._emit(
            "combo_window",
            "combo attack: apply the profile text by hand with "
            "'adjust <gladiator> <stat> <+1|-1>', then 'done'",
            gladiator=self.active_gladiator,
        )

    def _do_Adjust(self, a: A.Adjust) -> None:
        g = self.gladiators[a.gladiator]
        if a.stat == "points":
            self.points_left += a.delta
            value = self.points_left
        else:
            value = getattr(g, a.stat) + a.delta
            setattr(g, a.stat, value)
        self._emit(
            "correction",
            f"#{g.id} {a.stat} {a.delta:+d} (now {value})",
            gladiator=g.id,
            stat=a.stat,
            delta=a.delta,
            value=value,
        )
        if a.stat == "life" and value == 0:
            self._remove(g.id, by=None)

    def _do_Done(self, a: A.Done) -> None:
        back, self.combo_return = self.combo_return, None
        gid = self.active_gladiator
        assert back is not None and gid is not None
        if not self.gladiators[gid].alive or len(self.standing_players()) <= 1:
            self._end_activation()
        else:
            self.phase = back

    # end of round and game ----------------------------------------------------

    def _end_round(self, early: bool = False) -> None:
        standing = self.standing_players()
        note = " (at most one player has gladiators left: nothing else can happen)" if early else ""
        self._emit("round_ended", f"round {self.round} ends{note}", round=self.round, early=early)
        victory = self.config.victory
        if len(standing) <= 1:
            if victory == "last-standing":
                self._finish(
                    standing,
                    f"only {self.colours[standing[0]]} has gladiators standing"
                    if standing
                    else "no gladiator is standing",
                )
            else:
                self._finish(
                    best(range(self.players), lambda s: self.scored[s]),
                    "the fighting is over: most points of removed enemies wins",
                )
        elif self.config.round_limit is not None and self.round >= self.config.round_limit:
            self._finish_by_rank(f"round {self.round} was the last")
        elif self._deadlocked():
            self._finish_by_rank("no gladiator can ever reach an enemy it could attack")
        else:
            self._start_round()

    def reach(self, gid: int) -> set[int]:
        """Every cell the gladiator could ever stand on, whatever the others do: none but
        its own with movement 0; flat steps only with movement 1 (a climb costs 2); any
        step otherwise. Other gladiators are ignored (they may move away)."""
        g = self.gladiators[gid]
        if g.cell is None:
            return set()
        if g.movement == 0:
            return {g.cell}
        climb = 1 if g.movement >= 2 else 0
        heights, blocked = self.map.heights, self.map.blocked
        seen = {g.cell}
        todo = [g.cell]
        while todo:
            cell = todo.pop()
            for nxt in self.map.steps[cell]:
                if (
                    nxt >= 0
                    and nxt not in seen
                    and not blocked[nxt]
                    and abs(heights[nxt] - heights[cell]) <= climb
                ):
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    def _could_ever_attack(self, a: Gladiator, t: Gladiator) -> bool:
        """Whether ``a`` might roll at least one die against ``t`` in the best case
        (behind it, facing it, higher)."""
        if a.affinity >= 1 and a.profile.element != t.profile.element:
            return True
        relation = class_relation(a.profile.weight, t.profile.weight)
        base = {FAVOURABLE: 2 * a.attack, UNFAVOURABLE: a.attack - 1}.get(relation, a.attack)
        return base + 2 + 1 >= 1

    def _deadlocked(self) -> bool:
        """Ruling 4b: no gladiator can ever reach an enemy it could attack, so nothing
        can change any more (movement and attack only ever go down)."""
        alive = self.alive()
        reach = {g.id: self.reach(g.id) for g in alive}
        near = {
            gid: {n for c in cells for n in self.map.steps[c] if n >= 0}
            for gid, cells in reach.items()
        }
        for a in alive:
            for t in alive:
                if (
                    t.owner != a.owner
                    and near[a.id] & reach[t.id]
                    and self._could_ever_attack(a, t)
                ):
                    return False
        return True

    def _finish_by_rank(self, why: str) -> None:
        if self.config.victory == "points":
            self._finish(
                best(range(self.players), lambda s: self.scored[s]),
                f"{why}: most points of removed enemies wins",
            )
        else:
            self._finish(
                best(self.standing_players(), self.standing_points),
                f"{why}: most points of gladiators standing wins",
            )

    def _finish(
        self, winners: list[int], reason: str, text: str | None = None, **data: Any
    ) -> None:
        self.active_gladiator = None
        super()._finish(winners, reason, text, **data)

    # ------------------------------------------------------------------ snapshots

    def snapshot(self) -> dict[str, Any]:
        """Everything that makes the state, as plain JSON-able data."""
        return {
            **super().snapshot(),
            "round": self.round,
            "turn": self.turn,
            "active": self.active,
            "active_gladiator": self.active_gladiator,
            "points_left": self.points_left,
            "teams": [list(t) for t in self.teams],
            "gladiators": [g.snapshot() for _, g in sorted(self.gladiators.items())],
            "picking": self.picking,
            "chooser": self.chooser,
            "entrance_of": list(self.entrance_of),
            "tied": list(self.tied),
            "tie_for": self.tie_for,
            "placing": self.placing,
            "acted": list(self.acted),
            "attack": None
            if self.attack is None
            else {k: (list(v) if isinstance(v, list) else v) for k, v in self.attack.items()},
            "combo_return": self.combo_return,
            "scored": list(self.scored),
        }


def new_game(config: SkirmishConfig | None = None) -> SkirmishState:
    """A fresh game (default config: 2 players, the default map, teams picked in the game)."""
    return SkirmishState(config)


def replay(config: SkirmishConfig, history: Iterable[A.Action]) -> SkirmishState:
    """Rebuild a state from its config and action log; every action is checked again."""
    return SkirmishState.replay(config, history)
