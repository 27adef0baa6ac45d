"""Why an action is not legal: a ruling name and a sentence a player can act on.

Only called after ``legal_actions()`` has said no, so these checks explain; they
never decide. Ruling numbers are those of ``docs/rules/arena-skirmish.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.arena_skirmish import actions as A
from companion.games.arena_skirmish.grid import DIRECTIONS, MapError

if TYPE_CHECKING:
    from companion.games.arena_skirmish.state import SkirmishState

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


def _legal_kinds(state: SkirmishState) -> str:
    kinds = sorted({a.kind for a in state.legal_actions()})
    return ", ".join(kinds) if kinds else "nothing"


def why_illegal(state: SkirmishState, action: A.Action) -> tuple[str, str]:
    """``(rule, reason)`` for an action that is not in ``state.legal_actions()``."""
    phase = state.phase
    if phase == "game_over":
        return "ruling 4 (victory)", f"the game is over ({state.end_reason})"
    if not isinstance(action, A.Action):
        return "action format", f"{action!r} is not an arena skirmish action"
    if action.is_chance != state.is_chance_node:
        if state.is_chance_node:
            return "chance", (
                f"now {PHASE_TEXT[phase]}: apply one of the chance outcomes ({_legal_kinds(state)})"
            )
        return "chance", (
            f"{action.kind} is a die or roll-off outcome, but now "
            f"{PHASE_TEXT[phase]}; legal now: {_legal_kinds(state)}"
        )
    if action.is_chance:
        return "chance", f"{action.notation} is not an outcome of this chance node"
    specific = _specific(state, action)
    if specific:
        return specific
    return "turn order", f"now {PHASE_TEXT.get(phase, phase)}; legal now: {_legal_kinds(state)}"


def _specific(state: SkirmishState, action: A.Action) -> tuple[str, str] | None:
    phase = state.phase
    if isinstance(action, A.Pick) and phase == "select":
        return _why_pick(state, action)
    if isinstance(action, A.Ready) and phase == "select":
        return TEAMS, "pick at least one gladiator first"
    if isinstance(action, A.ChooseEntrance) and phase == "entrance":
        return SETUP, (
            f"the map has no entrance {action.entrance!r}; entrances: "
            f"{', '.join(state.map.entrance_names)}"
        )
    if isinstance(action, A.Place) and phase == "place":
        return _why_place(state, action)
    if phase in ("move", "rest"):
        if isinstance(action, A.Step):
            return _why_step(state)
        if isinstance(action, A.TurnLeft | A.TurnRight):
            cost = 2 if phase == "rest" else 1
            return MOVEMENT, (
                f"a 90-degree turn costs {cost} movement point(s)"
                f"{' (remaining movement: double cost)' if cost == 2 else ''}; "
                f"{state.points_left} left"
            )
        if isinstance(action, A.Melee | A.AffinityAttack):
            return _why_attack(state, action)
    if isinstance(
        action, A.Melee | A.AffinityAttack | A.Step | A.TurnLeft | A.TurnRight | A.EndActivation
    ):
        return ROUND, f"no gladiator is acting: now {PHASE_TEXT.get(phase, phase)}"
    if isinstance(action, A.Adjust) and phase == "combo":
        if action.gladiator not in state.gladiators or not state.gladiators[action.gladiator].alive:
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


def _why_pick(state: SkirmishState, a: A.Pick) -> tuple[str, str]:
    seat = state.picking
    count, points, source = state.config.limits
    team = state.teams[seat]
    profiles = state.config.data.profiles
    if a.gladiator not in profiles:
        return TEAMS, f"no gladiator profile has ID {a.gladiator} in {state.config.data.source}"
    if a.gladiator in state.gladiators:
        return TEAMS, f"#{a.gladiator} is already in a team"
    if a.gladiator not in state.config.offered(seat):
        if state.config.id_tables:
            return TEAMS, (
                f"#{a.gladiator} is not in {state.colours[seat]}'s column of the "
                f"fair-choice ID table ({state.players} players)"
            )
        return TEAMS, f"#{a.gladiator} costs more than the {points}-point limit"
    if len(team) >= count:
        return TEAMS, f"a team has at most {count} gladiators ({source})"
    spent = sum(profiles[g].points for g in team)
    return TEAMS, (
        f"#{a.gladiator} costs {profiles[a.gladiator].points} points; the team has "
        f"spent {spent} of {points} ({source})"
    )


def _why_place(state: SkirmishState, a: A.Place) -> tuple[str, str]:
    try:
        cell = state.map.cell_of(a.cell)
    except MapError as exc:
        return SETUP, str(exc)
    if a.facing not in DIRECTIONS:
        return SETUP, f"facing must be one of {', '.join(DIRECTIONS)}"
    if state.map.blocked[cell]:
        return SETUP, f"{a.cell} is blocked"
    if state.occupant[cell] >= 0:
        return SETUP, f"#{state.occupant[cell]} already stands on {a.cell}"
    assert state.placing is not None
    letter = state.entrance_of[state.gladiators[state.placing].owner]
    assert letter is not None
    away = state.map.distance(cell, state.map.entrance_cell(letter))
    return SETUP, (
        f"gladiators are placed no more than 5 fields from their entrance "
        f"({letter}); {a.cell} is {away} away"
    )


def _why_step(state: SkirmishState) -> tuple[str, str]:
    gid = state.active_gladiator
    assert gid is not None
    g = state.gladiators[gid]
    assert g.cell is not None
    to = state.map.step(g.cell, g.facing)
    facing = DIRECTIONS[g.facing]
    if to < 0:
        return MOVEMENT, f"a step goes forward ({facing}) and that leaves the map; turn first"
    name = state.map.name_of(to)
    if state.map.blocked[to]:
        return MOVEMENT, f"{name} (ahead, {facing}) is blocked"
    if state.occupant[to] >= 0:
        return MOVEMENT, (
            f"#{state.occupant[to]} stands on {name}: never through another gladiator"
        )
    rise = state.map.heights[to] - state.map.heights[g.cell]
    climb = abs(rise)
    if climb > 1:
        return MOVEMENT, (
            f"{name} is {climb} levels {'up' if rise > 0 else 'down'}; a step "
            "climbs at most one level"
        )
    cost = (2 if climb else 1) * (2 if state.phase == "rest" else 1)
    return MOVEMENT, (f"this step costs {cost} movement point(s); {state.points_left} left")


def _why_attack(state: SkirmishState, a: A.Melee | A.AffinityAttack) -> tuple[str, str]:
    rule = MELEE if isinstance(a, A.Melee) else AFFINITY
    gid = state.active_gladiator
    assert gid is not None
    if state.phase == "rest":
        return rule, "one melee OR affinity attack per activation, after movement; it is done"
    target = state.gladiators.get(a.target)
    if target is None or not target.alive:
        return rule, f"no gladiator #{a.target} is standing"
    if target.owner == state.gladiators[gid].owner:
        return rule, f"#{a.target} is on your own team"
    kind = "melee" if isinstance(a, A.Melee) else "affinity"
    breakdown = state.breakdown(gid, a.target, kind)
    if breakdown is None:
        return rule, (
            f"#{a.target} is not in direct contact (orthogonally adjacent, no field "
            "between, not diagonal)"
        )
    return rule, breakdown.reason
