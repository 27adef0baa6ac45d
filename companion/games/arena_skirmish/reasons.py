"""Why an action is not legal: a ruling name and a sentence a player can act on.

Only asked after ``legal_actions()`` has said no, so these checks explain; they never
decide. :class:`SkirmishReasons` is a part of the game self (it reads the self's
attributes); the shared checks come first (:meth:`GameState.why_illegal
<companion.games.core.self.GameState.why_illegal>`). Ruling numbers are those of
``docs/rules/arena-skirmish.md``.
"""

from __future__ import annotations

from typing import Any

from companion.games.arena_skirmish import actions as A
from companion.games.arena_skirmish.grid import DIRECTIONS, MapError

SETUP = "ruling 2 (setup)"
TEAMS = "ruling 3 (gladiators)"
ROUND = "ruling 4 (round)"
MOVEMENT = "ruling 5 (movement)"
MELEE = "ruling 6 (melee)"
AFFINITY = "ruling 7 (affinity)"

PHASE_TEXT = {
    "select": "a player picks gladiators for the team",
    "roll_off": "the players roll off for the entrance",
    "entrance": "the roll-off winner chooses an entrance",
    "tie_break": "gladiators of equal initiative roll off",
    "place": "a gladiator is being placed",
    "move": "a gladiator moves (then melee or affinity, or end)",
    "hit": "the hit dice of an attack are rolled",
    "rest": "a gladiator uses its remaining movement at double cost (or ends)",
    "combo": "a combo attack is applied by hand (adjust, then done)",
    "game_over": "the game is over",
}


class SkirmishReasons:
    """Why an action is not legal now (a part of :class:`SkirmishState`)."""

    PHASE_TEXT = PHASE_TEXT
    END_RULE = "ruling 4 (victory)"
    OUTCOME = "a die or roll-off outcome"
    phase: str
    config: Any
    players: int
    colours: tuple[str, ...]
    gladiators: dict[int, Any]
    teams: list[list[int]]
    picking: int
    placing: int | None
    entrance_of: list[str | None]
    occupant: list[int]
    active_gladiator: int | None
    points_left: int
    map: Any

    def _why(self, action: A.Action) -> tuple[str, str] | None:
        phase = self.phase
        if isinstance(action, A.Pick) and phase == "select":
            return self._why_pick(action)
        if isinstance(action, A.Ready) and phase == "select":
            return TEAMS, "pick at least one gladiator first"
        if isinstance(action, A.ChooseEntrance) and phase == "entrance":
            return SETUP, (
                f"the map has no entrance {action.entrance!r}; entrances: "
                f"{', '.join(self.map.entrance_names)}"
            )
        if isinstance(action, A.Place) and phase == "place":
            return self._why_place(action)
        if phase in ("move", "rest"):
            if isinstance(action, A.Step):
                return self._why_step()
            if isinstance(action, A.TurnLeft | A.TurnRight):
                cost = 2 if phase == "rest" else 1
                return MOVEMENT, (
                    f"a 90-degree turn costs {cost} movement point(s)"
                    f"{' (remaining movement: double cost)' if cost == 2 else ''}; "
                    f"{self.points_left} left"
                )
            if isinstance(action, A.Melee | A.AffinityAttack):
                return self._why_attack(action)
        if isinstance(
            action, A.Melee | A.AffinityAttack | A.Step | A.TurnLeft | A.TurnRight | A.EndActivation
        ):
            return ROUND, f"no gladiator is acting: now {PHASE_TEXT.get(phase, phase)}"
        if isinstance(action, A.Adjust) and phase == "combo":
            if (
                action.gladiator not in self.gladiators
                or not self.gladiators[action.gladiator].alive
            ):
                return "corrections", f"no gladiator #{action.gladiator} is standing"
            if action.delta not in (-1, 1):
                return "corrections", "adjust one point at a time: +1 or -1"
            return "corrections", f"{action.stat} cannot go below 0 (or above 99)"
        if action.is_correction:
            return "corrections", (
                "a combo window opens only during a gladiator's activation; "
                f"now {PHASE_TEXT.get(phase, phase)}"
            )
        return None

    def _why_pick(self, a: A.Pick) -> tuple[str, str]:
        seat = self.picking
        count, points, source = self.config.limits
        team = self.teams[seat]
        profiles = self.config.data.profiles
        if a.gladiator not in profiles:
            return TEAMS, f"no gladiator profile has ID {a.gladiator} in {self.config.data.source}"
        if a.gladiator in self.gladiators:
            return TEAMS, f"#{a.gladiator} is already in a team"
        if a.gladiator not in self.config.offered(seat):
            if self.config.id_tables:
                return TEAMS, (
                    f"#{a.gladiator} is not in {self.colours[seat]}'s column of the "
                    f"fair-choice ID table ({self.players} players)"
                )
            return TEAMS, f"#{a.gladiator} costs more than the {points}-point limit"
        if len(team) >= count:
            return TEAMS, f"a team has at most {count} gladiators ({source})"
        spent = sum(profiles[g].points for g in team)
        return TEAMS, (
            f"#{a.gladiator} costs {profiles[a.gladiator].points} points; the team has "
            f"spent {spent} of {points} ({source})"
        )

    def _why_place(self, a: A.Place) -> tuple[str, str]:
        try:
            cell = self.map.cell_of(a.cell)
        except MapError as exc:
            return SETUP, str(exc)
        if a.facing not in DIRECTIONS:
            return SETUP, f"facing must be one of {', '.join(DIRECTIONS)}"
        if self.map.blocked[cell]:
            return SETUP, f"{a.cell} is blocked"
        if self.occupant[cell] >= 0:
            return SETUP, f"#{self.occupant[cell]} already stands on {a.cell}"
        assert self.placing is not None
        letter = self.entrance_of[self.gladiators[self.placing].owner]
        assert letter is not None
        away = self.map.distance(cell, self.map.entrance_cell(letter))
        return SETUP, (
            f"gladiators are placed no more than 5 fields from their entrance "
            f"({letter}); {a.cell} is {away} away"
        )

    def _why_step(self) -> tuple[str, str]:
        gid = self.active_gladiator
        assert gid is not None
        g = self.gladiators[gid]
        assert g.cell is not None
        to = self.map.step(g.cell, g.facing)
        facing = DIRECTIONS[g.facing]
        if to < 0:
            return MOVEMENT, f"a step goes forward ({facing}) and that leaves the map; turn first"
        name = self.map.name_of(to)
        if self.map.blocked[to]:
            return MOVEMENT, f"{name} (ahead, {facing}) is blocked"
        if self.occupant[to] >= 0:
            return MOVEMENT, (
                f"#{self.occupant[to]} stands on {name}: never through another gladiator"
            )
        rise = self.map.heights[to] - self.map.heights[g.cell]
        climb = abs(rise)
        if climb > 1:
            return MOVEMENT, (
                f"{name} is {climb} levels {'up' if rise > 0 else 'down'}; a step "
                "climbs at most one level"
            )
        cost = (2 if climb else 1) * (2 if self.phase == "rest" else 1)
        return MOVEMENT, (f"this step costs {cost} movement point(s); {self.points_left} left")

    def _why_attack(self, a: A.Melee | A.AffinityAttack) -> tuple[str, str]:
        rule = MELEE if isinstance(a, A.Melee) else AFFINITY
        gid = self.active_gladiator
        assert gid is not None
        if self.phase == "rest":
            return rule, "one melee OR affinity attack per activation, after movement; it is done"
        target = self.gladiators.get(a.target)
        if target is None or not target.alive:
            return rule, f"no gladiator #{a.target} is standing"
        if target.owner == self.gladiators[gid].owner:
            return rule, f"#{a.target} is on your own team"
        kind = "melee" if isinstance(a, A.Melee) else "affinity"
        breakdown = self.breakdown(gid, a.target, kind)
        if breakdown is None:
            return rule, (
                f"#{a.target} is not in direct contact (orthogonally adjacent, no field "
                "between, not diagonal)"
            )
        return rule, breakdown.reason
