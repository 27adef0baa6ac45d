"""Why an action is not legal: a rule name and a sentence a player can act on.

Only called after ``legal_actions()`` has said no, so these checks explain;
they never decide. Rule numbers are those of ``docs/rules/kampf-der-gladiatoren.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.kampf_der_gladiatoren import actions as A
from companion.games.kampf_der_gladiatoren import rules as R
from companion.games.kampf_der_gladiatoren.rules import KINDS, TEAM_SIZE, TRIDENT

if TYPE_CHECKING:
    from companion.games.kampf_der_gladiatoren.state import GladiatorenState

PHASE_TEXT = {
    "entry": "a player brings a gladiator into the arena",
    "draw_animal": "the next animal is drawn",
    "place_animal": "a player places the animal just drawn",
    "turn": "the active player challenges",
    "net": "a net neutralises an opponent gladiator",
    "roll": "the dice are rolled",
    "reroll": "the side with more tridents decides: reroll or keep",
    "give_up": "a team gives up a gladiator",
    "game_over": "the game is over",
}

RULE = {
    "entry": "rule 2 (entry)",
    "place_animal": "rule 3 (animals)",
    "turn": "rule 4 (a turn)",
    "net": "rule 5 (nets)",
    "reroll": "rule 5 (tridents)",
    "give_up": "rule 5 (giving up gladiators)",
}


def _legal_kinds(state: GladiatorenState) -> str:
    kinds = sorted({a.kind for a in state.legal_actions()})
    return ", ".join(kinds) if kinds else "nothing"


def why_illegal(state: GladiatorenState, action: A.Action) -> tuple[str, str]:
    """``(rule, reason)`` for an action that is not in ``state.legal_actions()``."""
    phase = state.phase
    if phase == "game_over":
        return "rule 8 (end of game)", f"the game is over ({state.end_reason})"
    if not isinstance(action, A.Action):
        return "action format", f"{action!r} is not a Kampf der Gladiatoren action"
    if action.is_chance != state.is_chance_node:
        if state.is_chance_node:
            return "chance", (
                f"now {PHASE_TEXT[phase]}: apply one of the chance outcomes ({_legal_kinds(state)})"
            )
        return "chance", (
            f"{action.kind} is a die or draw outcome, but now "
            f"{PHASE_TEXT[phase]}; legal now: {_legal_kinds(state)}"
        )
    if action.is_chance:
        return _why_chance(state, action)
    for name in ("field", "team", "to", "target"):
        value = getattr(action, name, None)
        if value is not None and state.field_index(value) is None:
            return "rule 1 (arena)", (
                f"there is no field {value!r}; the fields are {', '.join(state.field_ids)}"
            )
    animal = getattr(action, "animal", None)
    if animal is not None and state.animal_index(animal) is None:
        return "rule 3 (animals)", (
            f"there is no animal {animal!r}; the animals are {', '.join(state.animal_ids)}"
        )
    if isinstance(action, A.Reroll | A.Keep) and phase != "reroll":
        return "rule 5 (tridents)", (
            "reroll or keep is decided right after a roll, by a side "
            "with more active tridents than its opponent; now "
            f"{PHASE_TEXT.get(phase, phase)}"
        )
    handler = {
        "entry": _why_entry,
        "place_animal": _why_place,
        "turn": _why_turn,
        "net": _why_net,
        "give_up": _why_give,
    }.get(phase)
    if handler is not None:
        found = handler(state, action)
        if found:
            return RULE[phase], found
    return "turn order", (
        f"{action.kind} is not possible now: {PHASE_TEXT.get(phase, phase)}; "
        f"legal now: {_legal_kinds(state)}"
    )


def _why_chance(state: GladiatorenState, action: A.Action) -> tuple[str, str]:
    if isinstance(action, A.Roll) and state.phase == "roll":
        assert state.combat is not None
        n = state.dice_for(state.combat.striker)
        return "rule 5 (dice)", (
            f"{action.notation} is not a result of rolling {n} "
            f"{'die' if n == 1 else 'dice'}: the three numbers must add "
            f"up to {n}"
        )
    if isinstance(action, A.DrawAnimal) and state.phase == "draw_animal":
        left = [state.animal_ids[i] for i, loc in enumerate(state.animal_loc) if loc == "stack"]
        return "rule 3 (animals)", (
            f"the {action.animal} is not in the face-down stack; left: {', '.join(left)}"
        )
    return "chance", f"{action.notation} is not an outcome of this chance node"


def _why_entry(state: GladiatorenState, a: A.Action) -> str | None:
    seat = state.entry_seat
    colour = state.colours[seat]
    kind = getattr(a, "gladiator", None)
    if isinstance(a, A.PlaceCarrier | A.AddGladiator) and kind is not None:
        k = KINDS.index(kind)
        if not state.supply[k]:
            left = ", ".join(KINDS[i] for i in range(len(KINDS)) if state.supply[i])
            return f"the {kind} pile is empty; choose from: {left}"
    if isinstance(a, A.PlaceCarrier):
        field = state.field_index(a.field)
        assert field is not None
        if not state.carriers_left[seat]:
            return f"{colour} has placed every carrier; add gladiators to a carrier instead"
        if state.board[field] is not None:
            return f"field {a.field} is not free"
        allowed = ", ".join(state.field_ids[f] for f in state.entry_fields(seat))
        return (
            f"a new carrier may not stand next to an own carrier while other free fields "
            f"exist; free fields apart from {colour}'s carriers: {allowed}"
        )
    if isinstance(a, A.AddGladiator):
        field = state.field_index(a.field)
        assert field is not None
        team = state.team_at(field)
        if team is None or team.owner != seat:
            return f"{colour} has no carrier on {a.field}"
        if team.size >= TEAM_SIZE:
            return f"the carrier on {a.field} is full ({TEAM_SIZE} gladiators)"
    return None


def _why_place(state: GladiatorenState, a: A.Action) -> str | None:
    if isinstance(a, A.PlaceAnimal):
        return f"field {a.field} is not free"
    return None


def _why_turn(state: GladiatorenState, a: A.Action) -> str | None:
    seat = state.active
    colour = state.colours[seat]
    own = state.teams_of(seat)
    if isinstance(a, A.UseAnimal):
        if own:
            return (
                f"{colour} still has gladiators: challenge with a team (rule 7 is for players "
                "without gladiators)"
            )
        return _why_use_animal(state, a)
    if not isinstance(a, A.Challenge):
        return None
    if not own:
        return (
            f"{colour} has no gladiators left: challenge with an animal "
            "('animal <animal> <field> <target>', rule 7)"
        )
    origin = state.field_index(a.team)
    assert origin is not None
    team = state.team_at(origin)
    if team is None or team.owner != seat:
        fields = ", ".join(state.field_ids[t.field] for t in own)
        return f"{colour} has no team on {a.team}; {colour}'s teams are on {fields}"
    dest = state.field_index(a.to)
    target = state.field_index(a.target)
    assert dest is not None and target is not None
    if a.moves:
        if not state.may_move(team):
            return (
                f"the team on {a.team} has {team.size} gladiators and an enemy team or an "
                "animal next to it: it may not move, it challenges a neighbour"
            )
        if dest not in state.reachable(origin):
            return (
                f"{a.to} cannot be reached from {a.team} over free fields (teams and "
                "animals cannot be jumped)"
            )
    if target not in state.adj[dest]:
        where = f"{a.to} (where the team stops)" if a.moves else a.team
        return f"{a.target} is not next to {where}"
    piece = state.board[target]
    if piece is None:
        return f"{a.target} is empty: challenge an enemy team or an animal"
    return f"{a.target} holds one of {colour}'s own teams"


def _why_use_animal(state: GladiatorenState, a: A.UseAnimal) -> str:
    index = state.animal_index(a.animal)
    assert index is not None
    loc = state.animal_loc[index]
    if loc not in ("board", "beside"):
        return f"the {a.animal} is defeated ({loc}); choose an animal on or beside the arena"
    dest = state.field_index(a.to)
    target = state.field_index(a.target)
    assert dest is not None and target is not None
    if loc == "beside":
        if state.board[dest] is not None:
            return f"an animal from beside the arena is set on a free field; {a.to} is taken"
    else:
        here = state.animal_field[index]
        if here != dest and dest not in state.reachable(here):  # type: ignore[arg-type]
            return f"the {a.animal} cannot reach {a.to} over free fields"
    if target not in state.adj[dest]:
        return f"{a.target} is not next to {a.to}"
    return f"{a.target} holds nothing the {a.animal} can challenge"


def _why_net(state: GladiatorenState, a: A.Action) -> str | None:
    if isinstance(a, A.Net):
        c = state.combat
        assert c is not None
        opp = state.side_team(1 - c.net_side)
        left = ", ".join(KINDS[k] for k in range(len(KINDS)) if opp.active[k])
        return f"the opponent has no active {a.gladiator}; active: {left}"
    return None


def _why_give(state: GladiatorenState, a: A.Action) -> str | None:
    if isinstance(a, A.GiveUp):
        c = state.combat
        assert c is not None
        team = state.side_team(1 - c.striker)
        has = ", ".join(x.notation[5:] for x in state._give_up_actions(team))
        state_word = "inactive" if a.inactive else "active"
        return f"the team has no {state_word} {a.gladiator}; it can give: {has}"
    return None


def reroll_explained(state: GladiatorenState, side: int) -> str:
    """Why a side may (not) reroll, for views."""
    mine = state.side_symbols(side)[TRIDENT]
    theirs = state.side_symbols(1 - side)[TRIDENT]
    verdict = "may" if R.may_reroll(mine, theirs) else "may not"
    return f"{mine} active trident(s) against {theirs}: {verdict} reroll"
