"""Why an action is not legal: a rule name and a sentence a player can act on.

Only asked after ``legal_actions()`` has said no, so these checks explain; they never
decide. :class:`GladiatorenReasons` is a part of the game self (it reads the self's
attributes); the shared checks come first (:meth:`GameState.why_illegal
<companion.games.core.self.GameState.why_illegal>`). Rule numbers are those of
``docs/rules/kampf-der-gladiatoren.md``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.kampf_der_gladiatoren import actions as A
from companion.games.kampf_der_gladiatoren.rules import KINDS, TEAM_SIZE

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


class GladiatorenReasons:
    """Why an action is not legal now (a part of :class:`GladiatorenState`)."""

    PHASE_TEXT = PHASE_TEXT
    END_RULE = "rule 8 (end of game)"
    OUTCOME = "a die or draw outcome"
    phase: str
    colours: tuple[str, ...]
    field_ids: tuple[str, ...]
    animal_ids: tuple[str, ...]
    combat: Any
    entry_seat: int
    active: int
    supply: list[int]
    carriers_left: list[int]
    board: list[tuple[str, int] | None]
    animal_loc: list[str]
    animal_field: list[int | None]
    adj: tuple[tuple[int, ...], ...]

    def _why(self, action: A.Action) -> tuple[str, str] | None:
        for name in ("field", "team", "to", "target"):
            value = getattr(action, name, None)
            if value is not None and self.field_index(value) is None:
                return "rule 1 (arena)", (
                    f"there is no field {value!r}; the fields are {', '.join(self.field_ids)}"
                )
        animal = getattr(action, "animal", None)
        if animal is not None and self.animal_index(animal) is None:
            return "rule 3 (animals)", (
                f"there is no animal {animal!r}; the animals are {', '.join(self.animal_ids)}"
            )
        phase = self.phase
        if (
            isinstance(action, A.Challenge | A.UseAnimal)
            and action.proxy is not None
            and phase == "turn"
            and self.is_legal(replace(action, proxy=None))
        ):
            return "rule 6 (animals)", self._why_proxy(action)
        if isinstance(action, A.Reroll | A.Keep) and phase != "reroll":
            return "rule 5 (tridents)", (
                "reroll or keep is decided right after a roll, by a side "
                "with more active tridents than its opponent; now "
                f"{PHASE_TEXT.get(phase, phase)}"
            )
        handler = {
            "entry": self._why_entry,
            "place_animal": self._why_place,
            "turn": self._why_turn,
            "net": self._why_net,
            "give_up": self._why_give,
        }.get(phase)
        if handler is not None:
            found = handler(action)
            if found:
                return RULE[phase], found
        return None

    def _why_outcome(self, action: A.Action) -> tuple[str, str]:
        if isinstance(action, A.Roll) and self.phase == "roll":
            assert self.combat is not None
            n = self.dice_for(self.combat.striker)
            return "rule 5 (dice)", (
                f"{action.notation} is not a result of rolling {n} "
                f"{'die' if n == 1 else 'dice'}: the three numbers must add "
                f"up to {n}"
            )
        if isinstance(action, A.DrawAnimal) and self.phase == "draw_animal":
            left = [self.animal_ids[i] for i, loc in enumerate(self.animal_loc) if loc == "stack"]
            return "rule 3 (animals)", (
                f"the {action.animal} is not in the face-down stack; left: {', '.join(left)}"
            )
        return "chance", f"{action.notation} is not an outcome of this chance node"

    def _why_entry(self, a: A.Action) -> str | None:
        seat = self.entry_seat
        colour = self.colours[seat]
        kind = getattr(a, "gladiator", None)
        if isinstance(a, A.PlaceCarrier | A.AddGladiator) and kind is not None:
            k = KINDS.index(kind)
            if not self.supply[k]:
                left = ", ".join(KINDS[i] for i in range(len(KINDS)) if self.supply[i])
                return f"the {kind} pile is empty; choose from: {left}"
        if isinstance(a, A.PlaceCarrier):
            field = self.field_index(a.field)
            assert field is not None
            if not self.carriers_left[seat]:
                return f"{colour} has placed every carrier; add gladiators to a carrier instead"
            if self.board[field] is not None:
                return f"field {a.field} is not free"
            allowed = ", ".join(self.field_ids[f] for f in self.entry_fields(seat))
            return (
                f"a new carrier may not stand next to an own carrier while other free fields "
                f"exist; free fields apart from {colour}'s carriers: {allowed}"
            )
        if isinstance(a, A.AddGladiator):
            field = self.field_index(a.field)
            assert field is not None
            team = self.team_at(field)
            if team is None or team.owner != seat:
                return f"{colour} has no carrier on {a.field}"
            if team.size >= TEAM_SIZE:
                return f"the carrier on {a.field} is full ({TEAM_SIZE} gladiators)"
        return None

    def _why_proxy(self, a: A.Challenge | A.UseAnimal) -> str:
        """Ruling 6a: a challenge that would be legal without naming who acts for the animal."""
        seat, players = self.active, len(self.colours)
        neighbour = self.left_neighbour(seat)
        target = self.field_index(a.target)
        assert target is not None and a.proxy is not None
        animal = self.animal_at(target)
        if animal is None:
            return f"{a.target} holds a team, not an animal: nobody acts for it"
        if a.proxy == seat or not 0 <= a.proxy < players:
            others = [self.colours[s] for s in range(players) if s != seat]
            return (
                f"the challenger names a fellow player ({', '.join(others)}, not "
                f"{self.colours[seat]}) to act for the {self.animal_ids[animal]}"
            )
        if a.proxy == neighbour:
            colour = self.colours[neighbour]
            return (
                f"{colour} (the left neighbour) acts for the animal anyway: leave "
                f"'for {colour}' out"
            )
        return (
            f"the {self.animal_ids[animal]} has no more tridents than its challenger, so it "
            "never rerolls, its one choice: leave 'for' out"
        )

    def _why_place(self, a: A.Action) -> str | None:
        if isinstance(a, A.PlaceAnimal):
            return f"field {a.field} is not free"
        return None

    def _why_turn(self, a: A.Action) -> str | None:
        seat = self.active
        colour = self.colours[seat]
        own = self.teams_of(seat)
        if isinstance(a, A.UseAnimal):
            if own:
                return (
                    f"{colour} still has gladiators: challenge with a team (rule 7 is for players "
                    "without gladiators)"
                )
            return self._why_use_animal(a)
        if not isinstance(a, A.Challenge):
            return None
        if not own:
            return (
                f"{colour} has no gladiators left: challenge with an animal "
                "('animal <animal> <field> <target>', rule 7)"
            )
        origin = self.field_index(a.team)
        assert origin is not None
        team = self.team_at(origin)
        if team is None or team.owner != seat:
            fields = ", ".join(self.field_ids[t.field] for t in own)
            return f"{colour} has no team on {a.team}; {colour}'s teams are on {fields}"
        dest = self.field_index(a.to)
        target = self.field_index(a.target)
        assert dest is not None and target is not None
        if a.moves:
            if not self.may_move(team):
                return (
                    f"the team on {a.team} has {team.size} gladiators and an enemy team or an "
                    "animal next to it: it may not move, it challenges a neighbour"
                )
            if dest not in self.reachable(origin):
                return (
                    f"{a.to} cannot be reached from {a.team} over free fields (teams and "
                    "animals cannot be jumped)"
                )
        if target not in self.adj[dest]:
            where = f"{a.to} (where the team stops)" if a.moves else a.team
            return f"{a.target} is not next to {where}"
        piece = self.board[target]
        if piece is None:
            return f"{a.target} is empty: challenge an enemy team or an animal"
        return f"{a.target} holds one of {colour}'s own teams"

    def _why_use_animal(self, a: A.UseAnimal) -> str:
        index = self.animal_index(a.animal)
        assert index is not None
        loc = self.animal_loc[index]
        if loc not in ("board", "beside"):
            return f"the {a.animal} is defeated ({loc}); choose an animal on or beside the arena"
        dest = self.field_index(a.to)
        target = self.field_index(a.target)
        assert dest is not None and target is not None
        if loc == "beside":
            if self.board[dest] is not None:
                return f"an animal from beside the arena is set on a free field; {a.to} is taken"
        else:
            here = self.animal_field[index]
            if here != dest and dest not in self.reachable(here):  # type: ignore[arg-type]
                return f"the {a.animal} cannot reach {a.to} over free fields"
        if target not in self.adj[dest]:
            return f"{a.target} is not next to {a.to}"
        return f"{a.target} holds nothing the {a.animal} can challenge"

    def _why_net(self, a: A.Action) -> str | None:
        if isinstance(a, A.Net):
            c = self.combat
            assert c is not None
            opp = self.side_team(1 - c.net_side)
            left = ", ".join(KINDS[k] for k in range(len(KINDS)) if opp.active[k])
            return f"the opponent has no active {a.gladiator}; active: {left}"
        return None

    def _why_give(self, a: A.Action) -> str | None:
        if isinstance(a, A.GiveUp):
            c = self.combat
            assert c is not None
            team = self.side_team(1 - c.striker)
            has = ", ".join(x.notation[5:] for x in self._give_up_actions(team))
            state_word = "inactive" if a.inactive else "active"
            return f"the team has no {state_word} {a.gladiator}; it can give: {has}"
        return None
