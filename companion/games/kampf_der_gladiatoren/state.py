"""The Kampf der Gladiatoren game state: the rules as a state machine of small actions.

The machinery (legality, ``apply`` with typed rejection, chance nodes, history, replay,
events) is the core's :class:`~companion.games.core.state.GameState`; this module holds
the rules. Every die roll and the animal draw is a chance node: a roll of n star dice is
one node over the face counts, the draw is uniform over the animals left.

Phases: ``entry`` -> ``draw_animal`` (chance) / ``place_animal`` -> ``turn`` ->
combat (``net``, ``roll`` (chance), ``reroll``, ``give_up``) -> ``turn`` ... ->
``game_over``. Rule numbers refer to ``docs/rules/kampf-der-gladiatoren.md``.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from companion.games.core.errors import IllegalActionError
from companion.games.core.state import CHANCE, TERMINAL, GameState, best
from companion.games.kampf_der_gladiatoren import actions as A
from companion.games.kampf_der_gladiatoren import rules as R
from companion.games.kampf_der_gladiatoren.config import GladiatorenConfig
from companion.games.kampf_der_gladiatoren.reasons import GladiatorenReasons
from companion.games.kampf_der_gladiatoren.rules import KINDS, NET, SHIELD, SPEAR, SWORD, TRIDENT

CHANCE_PHASES = frozenset({"draw_animal", "roll"})
N_KINDS = len(KINDS)

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Combat",
    "GladiatorenState",
    "IllegalActionError",
    "Team",
    "new_game",
    "replay",
]


class Team:
    """A carrier with its gladiators on a field. ``active``/``inactive``: counts by kind."""

    __slots__ = ("active", "field", "id", "inactive", "owner", "stars")

    def __init__(self, tid: int, owner: int, field: int, active: list[int], stars: int = 0):
        self.id = tid
        self.owner = owner
        self.field = field
        self.active = active
        self.inactive = [0] * N_KINDS
        self.stars = stars

    @property
    def size(self) -> int:
        return sum(self.active) + sum(self.inactive)

    def counts(self) -> list[int]:
        return [a + i for a, i in zip(self.active, self.inactive, strict=True)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "owner": self.owner,
            "field": self.field,
            "active": list(self.active),
            "inactive": list(self.inactive),
            "stars": self.stars,
        }


class Combat:
    """One combat. Side 0 is the challenger, side 1 the challenged.

    ``pieces[i]``: ``("team", team id)`` or ``("animal", animal index)``;
    ``controllers[i]``: the seat playing an animal (a player without gladiators) or None;
    ``proxy``: the seat acting for an unowned animal, named by the challenger (default: the
    challenger's left neighbour, ruling 6a).
    """

    __slots__ = (
        "controllers",
        "first",
        "lost",
        "net_side",
        "net_turn",
        "nets_left",
        "out",
        "pending",
        "pieces",
        "proxy",
        "rerolled",
        "roll",
        "strikes",
        "striker",
    )

    def __init__(
        self, pieces: list[tuple[str, int]], controllers: list[int | None], proxy: int
    ) -> None:
        self.pieces = pieces
        self.controllers = controllers
        self.proxy = proxy
        self.first = 0
        self.striker = 0
        self.strikes = 0
        self.net_turn = 0
        self.net_side = 0
        self.nets_left = 0
        self.roll: tuple[int, int, int] | None = None
        self.rerolled = False
        self.pending = 0
        self.lost = [0, 0]
        self.out = [False, False]

    def to_dict(self) -> dict[str, Any]:
        return {
            "pieces": [list(p) for p in self.pieces],
            "controllers": list(self.controllers),
            "proxy": self.proxy,
            "first": self.first,
            "striker": self.striker,
            "strikes": self.strikes,
            "net_turn": self.net_turn,
            "net_side": self.net_side,
            "nets_left": self.nets_left,
            "roll": None if self.roll is None else list(self.roll),
            "rerolled": self.rerolled,
            "pending": self.pending,
            "lost": list(self.lost),
            "out": list(self.out),
        }


class GladiatorenState(GladiatorenReasons, GameState):
    """One game of Kampf der Gladiatoren. Public attributes are read-only views of the state.

    - ``board[field]``: ``("team", id)``, ``("animal", index)`` or None;
    - ``teams``: team id -> :class:`Team`;
    - ``animal_loc[i]``: ``stack``, ``board``, ``beside``, ``stable`` or ``box``;
      ``animal_field``, ``animal_stars``, ``animal_owner`` (the stable's seat);
    - ``supply``, ``box``: gladiators by kind; ``stables[seat]``: gladiators by kind;
    - ``phase``, ``turn``, ``active``, ``combat``: where the game is.
    """

    CHANCE_PHASES = CHANCE_PHASES
    ACTION = A.Action
    NAME = "a Kampf der Gladiatoren"

    def __init__(self, config: GladiatorenConfig | None = None) -> None:
        super().__init__(config or GladiatorenConfig())

    def _setup(self) -> None:
        config = self.config
        data = config.data
        self.players = config.players
        self.colours = config.colours
        self.arena = data.arena
        self.field_ids = data.arena.ids
        self.adj = data.arena.neighbours
        self.animals = data.animals
        self.animal_ids = tuple(a.id for a in data.animals)
        self._faces = config.die_faces()
        n_fields = len(self.field_ids)
        self.board: list[tuple[str, int] | None] = [None] * n_fields
        self.teams: dict[int, Team] = {}
        self.next_team = 0
        self.carriers_left = [config.carriers] * self.players
        self.supply = list(data.supply)
        self.box = [0] * N_KINDS
        self.stables = [[0] * N_KINDS for _ in range(self.players)]
        self.animal_loc = ["stack"] * len(self.animals)
        self.animal_field: list[int | None] = [None] * len(self.animals)
        self.animal_stars = [0] * len(self.animals)
        self.animal_owner: list[int | None] = [None] * len(self.animals)
        self.drawn: int | None = None
        self.start_player = config.start_player
        self.entry_seat = config.start_player
        self.placer = config.start_player
        self.active = config.start_player
        self.turn = 0
        self.passes = 0
        self.combat: Combat | None = None
        self.survivors = [0] * self.players
        if config.start_position is not None:
            self._load_position()
        else:
            self.phase = "entry"

    # ------------------------------------------------------------------ queries

    def _chooser(self) -> int:
        phase = self.phase
        if phase == "entry":
            return self.entry_seat
        if phase == "place_animal":
            return self.placer
        c = self.combat
        if phase == "net":
            assert c is not None
            return self.decider(c.net_side)
        if phase == "reroll":
            assert c is not None
            return self.decider(c.striker)
        if phase == "give_up":
            assert c is not None
            return self.decider(1 - c.striker)
        return self.active

    def field_id(self, index: int) -> str:
        return self.field_ids[index]

    def field_index(self, field_id: str) -> int | None:
        try:
            return self.field_ids.index(field_id)
        except ValueError:
            return None

    def animal_index(self, animal_id: str) -> int | None:
        try:
            return self.animal_ids.index(animal_id)
        except ValueError:
            return None

    def team_at(self, field: int) -> Team | None:
        piece = self.board[field]
        return self.teams[piece[1]] if piece is not None and piece[0] == "team" else None

    def animal_at(self, field: int) -> int | None:
        piece = self.board[field]
        return piece[1] if piece is not None and piece[0] == "animal" else None

    def teams_of(self, seat: int) -> list[Team]:
        return sorted((t for t in self.teams.values() if t.owner == seat), key=lambda t: t.field)

    def gladiators_on_board(self, seat: int) -> int:
        return sum(t.size for t in self.teams.values() if t.owner == seat)

    def stable_animals(self, seat: int) -> list[str]:
        return [
            self.animal_ids[i]
            for i, o in enumerate(self.animal_owner)
            if o == seat and self.animal_loc[i] == "stable"
        ]

    def score(self, seat: int) -> int:
        """1 point per gladiator in the stable, 2 per animal (rule 8)."""
        return sum(self.stables[seat]) + 2 * len(self.stable_animals(seat))

    def scores(self) -> list[int]:
        return [self.score(s) for s in range(self.players)]

    def animals_defeated(self) -> int:
        return sum(1 for loc in self.animal_loc if loc in ("stable", "box"))

    def free_fields(self) -> list[int]:
        return [f for f, p in enumerate(self.board) if p is None]

    def piece_name(self, piece: tuple[str, int]) -> str:
        if piece[0] == "team":
            team = self.teams[piece[1]]
            return f"the {self.colours[team.owner]} team on {self.field_ids[team.field]}"
        field = self.animal_field[piece[1]]
        where = f" on {self.field_ids[field]}" if field is not None else ""
        return f"the {self.animal_ids[piece[1]]}{where}"

    # combat sides -------------------------------------------------------------------

    def side_is_animal(self, side: int) -> bool:
        assert self.combat is not None
        return self.combat.pieces[side][0] == "animal"

    def side_team(self, side: int) -> Team:
        assert self.combat is not None
        return self.teams[self.combat.pieces[side][1]]

    def side_symbols(self, side: int) -> tuple[int, ...]:
        """Active gladiators (a team) or symbols (an animal), by kind."""
        assert self.combat is not None
        kind, ref = self.combat.pieces[side]
        if kind == "team":
            return tuple(self.teams[ref].active)
        return self.animals[ref].symbols

    def side_field(self, side: int) -> int:
        assert self.combat is not None
        kind, ref = self.combat.pieces[side]
        if kind == "team":
            return self.teams[ref].field
        field = self.animal_field[ref]
        assert field is not None
        return field

    def decider(self, side: int) -> int:
        """The seat that makes this side's choices: the owner, or who acts for the animal."""
        c = self.combat
        assert c is not None
        kind, ref = c.pieces[side]
        if kind == "team":
            return self.teams[ref].owner
        controller = c.controllers[side]
        return controller if controller is not None else c.proxy

    def scorer(self, side: int) -> int | None:
        """Whose stable takes what this side defeats (None: an unowned animal, to the box)."""
        c = self.combat
        assert c is not None
        kind, ref = c.pieces[side]
        return self.teams[ref].owner if kind == "team" else c.controllers[side]

    def dice_for(self, side: int) -> int:
        return R.dice_count(self.side_is_animal(side), self.side_symbols(side)[SWORD])

    # ------------------------------------------------------------------ legality

    def _chance_outcomes(self) -> list[tuple[A.Action, Fraction]]:
        """At a chance node: each outcome with its exact probability (they sum to 1)."""
        if self.phase == "draw_animal":
            left = [i for i, loc in enumerate(self.animal_loc) if loc == "stack"]
            p = Fraction(1, len(left))
            return [(A.DrawAnimal(self.animal_ids[i]), p) for i in left]
        if self.phase == "roll":
            assert self.combat is not None
            n = self.dice_for(self.combat.striker)
            return [(A.Roll(*roll), p) for roll, p in R.roll_outcomes(n, self._faces)]
        return []

    def _choices(self) -> list[A.Action]:
        phase = self.phase
        if phase == "entry":
            return self._entry_actions(self.entry_seat)
        if phase == "place_animal":
            return [A.PlaceAnimal(self.field_ids[f]) for f in self.free_fields()]
        if phase == "turn":
            return self._turn_actions(self.active)
        c = self.combat
        if phase == "net":
            assert c is not None
            opp = self.side_team(1 - c.net_side)
            return [A.Net(KINDS[k]) for k in range(N_KINDS) if opp.active[k]]
        if phase == "reroll":
            return [A.Reroll(), A.Keep()]
        if phase == "give_up":
            assert c is not None
            return self._give_up_actions(self.side_team(1 - c.striker))
        return []

    @staticmethod
    def _give_up_actions(team: Team) -> list[A.Action]:
        acts: list[A.Action] = [A.GiveUp(KINDS[k]) for k in range(N_KINDS) if team.active[k]]
        acts += [A.GiveUp(KINDS[k], True) for k in range(N_KINDS) if team.inactive[k]]
        return acts

    # entry ---------------------------------------------------------------------------

    def entry_fields(self, seat: int) -> list[int]:
        """Rule 2: free fields for a new carrier: none next to an own carrier while others exist."""
        free = self.free_fields()
        own = {t.field for t in self.teams.values() if t.owner == seat}
        apart = [f for f in free if not any(n in own for n in self.adj[f])]
        return apart or free

    def _entry_actions(self, seat: int) -> list[A.Action]:
        kinds = [KINDS[k] for k in range(N_KINDS) if self.supply[k]]
        acts: list[A.Action] = []
        if self.carriers_left[seat]:
            for f in self.entry_fields(seat):
                acts.extend(A.PlaceCarrier(self.field_ids[f], k) for k in kinds)
        for team in self.teams_of(seat):
            if team.size < R.TEAM_SIZE:
                acts.extend(A.AddGladiator(self.field_ids[team.field], k) for k in kinds)
        return acts

    def _entry_can_act(self, seat: int) -> bool:
        return bool(self.carriers_left[seat]) or any(
            t.size < R.TEAM_SIZE for t in self.teams.values() if t.owner == seat
        )

    # the turn ------------------------------------------------------------------------

    def reachable(self, start: int) -> list[int]:
        """Rule 4: free fields reachable from ``start`` over free fields (no jumping)."""
        board, adj = self.board, self.adj
        seen = {start}
        todo = [start]
        out = []
        while todo:
            for n in adj[todo.pop()]:
                if n not in seen and board[n] is None:
                    seen.add(n)
                    todo.append(n)
                    out.append(n)
        return sorted(out)

    def team_targets(self, field: int, seat: int) -> list[int]:
        """Fields next to ``field`` a team of ``seat`` may challenge: enemy teams and animals."""
        out = []
        for n in self.adj[field]:
            piece = self.board[n]
            if piece is not None and (piece[0] == "animal" or self.teams[piece[1]].owner != seat):
                out.append(n)
        return out

    def may_move(self, team: Team) -> bool:
        """Rule 4: no enemy team or animal next to it, or 3 or fewer gladiators."""
        return team.size <= 3 or not self.team_targets(team.field, team.owner)

    def _turn_actions(self, seat: int) -> list[A.Action]:
        ids = self.field_ids
        acts: list[A.Action] = []
        own = self.teams_of(seat)
        if own:
            for team in own:
                here, tridents = team.field, team.active[TRIDENT]
                for dest in [here, *(self.reachable(here) if self.may_move(team) else ())]:
                    for t in self.team_targets(dest, seat):
                        acts.extend(
                            A.Challenge(ids[here], ids[dest], ids[t], proxy)
                            for proxy in self._proxies(seat, t, tridents)
                        )
            return acts
        # rule 7: a player without gladiators challenges with an animal
        free = None
        for i, loc in enumerate(self.animal_loc):
            name, tridents = self.animal_ids[i], self.animals[i].tridents
            if loc == "board":
                here = self.animal_field[i]
                assert here is not None
                moves = [(here, here), *((d, here) for d in self.reachable(here))]
            elif loc == "beside":
                if free is None:
                    free = self.free_fields()
                moves = [(d, None) for d in free]
            else:
                continue
            for dest, start in moves:
                for t in self._animal_targets(dest, start):
                    acts.extend(
                        A.UseAnimal(name, ids[dest], ids[t], proxy)
                        for proxy in self._proxies(seat, t, tridents)
                    )
        return acts

    def left_neighbour(self, seat: int) -> int:
        """The next player clockwise: who acts for an animal unless the challenger names
        another (ruling 6a)."""
        return (seat + 1) % self.players

    def _proxies(self, seat: int, target: int, tridents: int) -> list[int | None]:
        """Ruling 6a: who may act for the animal on ``target``, challenged by ``seat`` with
        ``tridents``: ``None`` (the left neighbour) and every other fellow player. The one
        choice an animal ever makes is the reroll, so when it cannot reroll (not more
        tridents) nobody needs to be named."""
        index = self.animal_at(target)
        if index is None or not R.may_reroll(self.animals[index].tridents, tridents):
            return [None]
        named = [s for s in range(self.players) if s not in (seat, self.left_neighbour(seat))]
        return [None, *named]

    def _animal_targets(self, field: int, own_field: int | None) -> list[int]:
        """Any team or other animal next to ``field`` (not the animal's own start field)."""
        return [n for n in self.adj[field] if self.board[n] is not None and n != own_field]

    # ------------------------------------------------------------------ actions

    # setup -----------------------------------------------------------------------------

    def _load_position(self) -> None:
        pos = self.config.start_position
        assert pos is not None
        for spec in pos.teams:
            team = self._new_team(spec.owner, spec.field)
            team.active = list(spec.counts)
            team.stars = spec.stars
            for k, n in enumerate(spec.counts):
                self.supply[k] -= n
        for index, field, stars in pos.animals:
            self.animal_loc[index] = "board"
            self.animal_field[index] = field
            self.animal_stars[index] = stars
            self.board[field] = ("animal", index)
        for index, seat in pos.defeated:
            self.animal_loc[index] = "box" if seat is None else "stable"
            self.animal_owner[index] = seat
        for seat, counts in enumerate(pos.stables):
            for k, n in enumerate(counts):
                self.stables[seat][k] += n
                self.supply[k] -= n
        for k in range(N_KINDS):
            self.box[k] += self.supply[k]
            self.supply[k] = 0
        self.carriers_left = [0] * self.players
        for i, loc in enumerate(self.animal_loc):
            if loc == "stack":
                self.animal_loc[i] = "beside"
        self._emit("setup", "the game starts from a set position", active=pos.active)
        if not self._check_end():
            self._start_turn(pos.active)

    def _new_team(self, owner: int, field: int) -> Team:
        team = Team(self.next_team, owner, field, [0] * N_KINDS)
        self.next_team += 1
        self.teams[team.id] = team
        self.board[field] = ("team", team.id)
        return team

    # entry -----------------------------------------------------------------------------

    def _do_PlaceCarrier(self, a: A.PlaceCarrier) -> None:
        seat = self.entry_seat
        field = self.arena.index(a.field)
        k = KINDS.index(a.gladiator)
        team = self._new_team(seat, field)
        team.active[k] = 1
        self.supply[k] -= 1
        self.carriers_left[seat] -= 1
        self._emit(
            "carrier_placed",
            f"{self.colours[seat]} sets a carrier on {a.field} with a {a.gladiator}",
            seat=seat,
            field=a.field,
            gladiator=a.gladiator,
        )
        self._entry_next(seat + 1)

    def _do_AddGladiator(self, a: A.AddGladiator) -> None:
        seat = self.entry_seat
        team = self.team_at(self.arena.index(a.field))
        assert team is not None
        k = KINDS.index(a.gladiator)
        team.active[k] += 1
        self.supply[k] -= 1
        self._emit(
            "gladiator_added",
            f"{self.colours[seat]} adds a {a.gladiator} on {a.field}",
            seat=seat,
            field=a.field,
            gladiator=a.gladiator,
        )
        self._entry_next(seat + 1)

    def _entry_next(self, start: int) -> None:
        for i in range(self.players):
            seat = (start + i) % self.players
            if self._entry_can_act(seat):
                self.entry_seat = seat
                # an entry turn: the table lights the seat, and undo stops here
                self._emit(
                    "turn_started",
                    f"entry: {self.colours[seat]}",
                    turn=self.turn,
                    seat=seat,
                    setup="entry",
                )
                return
            if any(self._entry_can_act(s) for s in range(self.players)):
                self._emit(
                    "entry_passed", f"{self.colours[seat]}: every carrier is full", seat=seat
                )
        returned = {KINDS[k]: self.supply[k] for k in range(N_KINDS) if self.supply[k]}
        for k in range(N_KINDS):
            self.box[k] += self.supply[k]
            self.supply[k] = 0
        self._emit(
            "entry_over",
            "every carrier is full; the other gladiators go back to the box",
            returned=returned,
        )
        self.placer = self.start_player
        self._next_animal()

    # animals ---------------------------------------------------------------------------

    def _next_animal(self) -> None:
        if self.free_fields() and "stack" in self.animal_loc:
            self.phase = "draw_animal"
            return
        beside = []
        for i, loc in enumerate(self.animal_loc):
            if loc == "stack":
                self.animal_loc[i] = "beside"
                beside.append(self.animal_ids[i])
        self._emit(
            "animals_beside",
            "the arena is full; the other animals lie face up beside "
            f"it: {', '.join(beside) or 'none'}",
            animals=beside,
        )
        self._start_turn(self.start_player)

    def _do_DrawAnimal(self, a: A.DrawAnimal) -> None:
        index = self.animal_ids.index(a.animal)
        self.animal_loc[index] = "drawn"
        self.drawn = index
        self._emit(
            "animal_drawn",
            f"{self.colours[self.placer]} draws the {a.animal} ({self.animals[index].describe()})",
            animal=a.animal,
            seat=self.placer,
        )
        free = self.free_fields()
        if len(free) == 1:
            self._place_animal(free[0])
        else:
            self.phase = "place_animal"

    def _do_PlaceAnimal(self, a: A.PlaceAnimal) -> None:
        self._place_animal(self.arena.index(a.field))

    def _place_animal(self, field: int) -> None:
        index = self.drawn
        assert index is not None
        self.drawn = None
        self.animal_loc[index] = "board"
        self.animal_field[index] = field
        self.board[field] = ("animal", index)
        self._emit(
            "animal_placed",
            f"{self.colours[self.placer]} places the "
            f"{self.animal_ids[index]} on {self.field_ids[field]}",
            animal=self.animal_ids[index],
            field=self.field_ids[field],
            seat=self.placer,
        )
        self.placer = (self.placer + 1) % self.players
        self._next_animal()

    # the turn --------------------------------------------------------------------------

    def _start_turn(self, seat: int) -> None:
        for _ in range(self.players):
            self.turn += 1
            self.active = seat
            self.phase = "turn"
            self.combat = None
            self._legal = None
            self._emit(
                "turn_started", f"turn {self.turn}: {self.colours[seat]}", turn=self.turn, seat=seat
            )
            if self.legal_actions():
                self.passes = 0
                return
            self.passes += 1
            self._emit(
                "turn_passed", f"{self.colours[seat]} cannot challenge and passes", seat=seat
            )
            self._legal = None
            seat = (seat + 1) % self.players
        self._emit("stalemate", "a full round in which nobody could challenge")
        self._end_game(list(range(self.players)), "nobody can challenge any more")

    def _do_Challenge(self, a: A.Challenge) -> None:
        seat = self.active
        origin = self.arena.index(a.team)
        team = self.team_at(origin)
        assert team is not None
        if a.moves:
            self._move(("team", team.id), origin, self.arena.index(a.to))
        target = self.board[self.arena.index(a.target)]
        assert target is not None
        self._start_combat(("team", team.id), target, None, seat, a.proxy)

    def _do_UseAnimal(self, a: A.UseAnimal) -> None:
        seat = self.active
        index = self.animal_ids.index(a.animal)
        dest = self.arena.index(a.to)
        if self.animal_loc[index] == "beside":
            self.animal_loc[index] = "board"
            self.animal_field[index] = dest
            self.board[dest] = ("animal", index)
            self._emit(
                "moved",
                f"{self.colours[seat]} sets the {a.animal} from beside the arena on {a.to}",
                piece="animal",
                animal=a.animal,
                to=a.to,
                **{"from": None},
            )
        else:
            origin = self.animal_field[index]
            assert origin is not None
            if origin != dest:
                self._move(("animal", index), origin, dest)
        target = self.board[self.arena.index(a.target)]
        assert target is not None
        self._start_combat(("animal", index), target, seat, seat, a.proxy)

    def _move(self, piece: tuple[str, int], origin: int, dest: int) -> None:
        self.board[origin] = None
        self.board[dest] = piece
        if piece[0] == "team":
            self.teams[piece[1]].field = dest
        else:
            self.animal_field[piece[1]] = dest
        name = self.piece_name(piece)
        self._emit(
            "moved",
            f"{name.rsplit(' on ', 1)[0]} moves {self.field_ids[origin]} -> {self.field_ids[dest]}",
            piece=piece[0],
            to=self.field_ids[dest],
            **{"from": self.field_ids[origin]},
        )

    # combat ----------------------------------------------------------------------------

    def _start_combat(
        self,
        attacker: tuple[str, int],
        target: tuple[str, int],
        controller: int | None,
        seat: int,
        proxy: int | None,
    ) -> None:
        if proxy is None:
            proxy = self.left_neighbour(seat)
        c = Combat([attacker, target], [controller, None], proxy)
        self.combat = c
        self._emit(
            "challenged",
            f"{self.colours[seat]}: {self.piece_name(attacker)} "
            f"challenges {self.piece_name(target)}",
            seat=seat,
            attacker=self.piece_name(attacker),
            target=self.piece_name(target),
            fields=[self.field_ids[self.side_field(0)], self.field_ids[self.side_field(1)]],
        )
        spears = (self.side_symbols(0)[SPEAR], self.side_symbols(1)[SPEAR])
        c.first = R.first_roller(*spears)
        reason = "more spears" if spears[0] != spears[1] else "equal spears: the challenger"
        self._emit(
            "first_roller",
            f"{self._side_name(c.first)} rolls first ({reason})",
            side=c.first,
            reason=reason,
        )
        if not self.side_is_animal(0) and not self.side_is_animal(1):
            c.net_turn = 0
            c.net_side = c.first
            c.nets_left = self.side_team(c.first).active[NET]
            self._continue_nets()
        else:
            self._begin_strike(c.first)

    def _side_name(self, side: int) -> str:
        c = self.combat
        assert c is not None
        kind, ref = c.pieces[side]
        if kind == "team":
            return self.colours[self.teams[ref].owner]
        return f"the {self.animal_ids[ref]}"

    def _continue_nets(self) -> None:
        c = self.combat
        assert c is not None
        while True:
            opp = self.side_team(1 - c.net_side)
            active = sum(opp.active)
            if c.nets_left and active:
                options = [k for k in range(N_KINDS) if opp.active[k]]
                if c.nets_left >= active or len(options) == 1:
                    self._neutralise(options[0], forced=True)
                    continue
                self.phase = "net"
                return
            c.nets_left = 0
            if c.net_turn == 0:
                c.net_turn = 1
                c.net_side = 1 - c.first
                c.nets_left = self.side_team(c.net_side).active[NET]
                continue
            break
        c.net_turn = 2
        self._begin_strike(c.first)

    def _neutralise(self, k: int, forced: bool = False) -> None:
        c = self.combat
        assert c is not None
        opp = self.side_team(1 - c.net_side)
        opp.active[k] -= 1
        opp.inactive[k] += 1
        c.nets_left -= 1
        self._emit(
            "neutralised",
            f"{self._side_name(c.net_side)}'s net neutralises a "
            f"{KINDS[k]} of {self._side_name(1 - c.net_side)}",
            side=c.net_side,
            gladiator=KINDS[k],
            forced=forced,
        )

    def _do_Net(self, a: A.Net) -> None:
        self._neutralise(KINDS.index(a.gladiator))
        self._continue_nets()

    def _begin_strike(self, side: int) -> None:
        c = self.combat
        assert c is not None
        c.striker = side
        c.rerolled = False
        c.roll = None
        n = self.dice_for(side)
        self._emit(
            "strike",
            f"{self._side_name(side)} strikes with {n} {'die' if n == 1 else 'dice'}",
            side=side,
            dice=n,
        )
        if n == 0:
            self._after_strike()
        else:
            self.phase = "roll"

    def _do_Roll(self, a: A.Roll) -> None:
        c = self.combat
        assert c is not None
        side = c.striker
        self._emit(
            "dice_rolled",
            f"{self._side_name(side)} "
            f"{'rerolls' if c.rerolled else 'rolls'}: {R.describe_roll(a.counts)}",
            side=side,
            roll=list(a.counts),
            reroll=c.rerolled,
        )
        if not c.rerolled and R.may_reroll(
            self.side_symbols(side)[TRIDENT], self.side_symbols(1 - side)[TRIDENT]
        ):
            c.roll = a.counts
            self.phase = "reroll"
            self._emit(
                "reroll_offered",
                f"{self._side_name(side)} has more tridents and may reroll all dice once",
                side=side,
            )
            return
        self._resolve(a.counts)

    def _do_Reroll(self, a: A.Reroll) -> None:
        c = self.combat
        assert c is not None
        c.rerolled = True
        c.roll = None
        self._emit(
            "rerolled",
            f"{self._side_name(c.striker)} rerolls all dice and must keep the second result",
            side=c.striker,
        )
        self.phase = "roll"

    def _do_Keep(self, a: A.Keep) -> None:
        c = self.combat
        assert c is not None and c.roll is not None
        roll, c.roll = c.roll, None
        self._emit("kept", f"{self._side_name(c.striker)} keeps the roll", side=c.striker)
        self._resolve(roll)

    def _resolve(self, roll: tuple[int, int, int]) -> None:
        c = self.combat
        assert c is not None
        tgt = 1 - c.striker
        shields = self.side_symbols(tgt)[SHIELD]
        field = self.field_ids[self.side_field(tgt)]
        if self.side_is_animal(tgt):
            index = c.pieces[tgt][1]
            added, cancelled = R.strike_on_animal(roll, shields)
            self._shields(tgt, cancelled)
            hits = self.animals[index].hits
            before = self.animal_stars[index]
            self.animal_stars[index] = before + added
            c.lost[tgt] += min(added, hits - before)
            if added:
                self._emit(
                    "hit_stars",
                    f"{added} hit star{'s' if added != 1 else ''} on the "
                    f"{self.animal_ids[index]} ({min(hits, before + added)} of {hits})",
                    field=field,
                    added=added,
                    stars=self.animal_stars[index],
                )
            if self.animal_stars[index] >= hits:
                self._defeat_animal(tgt)
            else:
                self._after_strike()
            return
        team = self.side_team(tgt)
        losses, left, cancelled = R.strike_on_team(roll, shields, team.stars)
        self._shields(tgt, cancelled)
        added = roll[1] - cancelled
        if added:
            pairs = (team.stars + added) // 2
            extra = f"; {2 * pairs} removed for {pairs} gladiator(s)" if pairs else ""
            self._emit(
                "hit_stars",
                f"{added} hit star{'s' if added != 1 else ''} on {field}{extra}; {left} stays",
                field=field,
                added=added,
                stars=left,
            )
        team.stars = left
        c.pending = losses
        self._continue_give_up()

    def _shields(self, side: int, cancelled: int) -> None:
        if cancelled:
            self._emit(
                "shields",
                f"{self._side_name(side)}'s shield{'s' if cancelled > 1 else ''}"
                f" cancel{'s' if cancelled == 1 else ''} {cancelled} single star"
                f"{'s' if cancelled > 1 else ''}",
                side=side,
                cancelled=cancelled,
            )

    def _continue_give_up(self) -> None:
        c = self.combat
        assert c is not None
        tgt = 1 - c.striker
        team = self.side_team(tgt)
        while c.pending > 0:
            if c.pending >= team.size:
                for k in range(N_KINDS):
                    for _ in range(team.active[k]):
                        self._lose(team, k, False, forced=True)
                    for _ in range(team.inactive[k]):
                        self._lose(team, k, True, forced=True)
                c.pending = 0
                self._wipe(tgt)
                return
            options = [(k, False) for k in range(N_KINDS) if team.active[k]] + [
                (k, True) for k in range(N_KINDS) if team.inactive[k]
            ]
            if len(options) > 1:
                self.phase = "give_up"
                return
            self._lose(team, *options[0], forced=True)
            c.pending -= 1
        self._after_strike()

    def _do_GiveUp(self, a: A.GiveUp) -> None:
        c = self.combat
        assert c is not None
        self._lose(self.side_team(1 - c.striker), KINDS.index(a.gladiator), a.inactive)
        c.pending -= 1
        self._continue_give_up()

    def _lose(self, team: Team, k: int, inactive: bool, forced: bool = False) -> None:
        c = self.combat
        assert c is not None
        (team.inactive if inactive else team.active)[k] -= 1
        c.lost[1 - c.striker] += 1
        taker = self.scorer(c.striker)
        if taker is None:
            self.box[k] += 1
            where = "the box (defeated by an animal)"
        else:
            self.stables[taker][k] += 1
            where = f"{self.colours[taker]}'s stable"
        state = " (inactive)" if inactive else ""
        self._emit(
            "gladiator_lost",
            f"{self.colours[team.owner]} gives up a {KINDS[k]}{state} to {where}",
            seat=team.owner,
            gladiator=KINDS[k],
            inactive=inactive,
            to="box" if taker is None else "stable",
            taker=taker,
            forced=forced,
        )

    def _after_strike(self) -> None:
        c = self.combat
        assert c is not None
        c.strikes += 1
        if c.strikes >= 2:
            self._end_combat()
        else:
            self._begin_strike(1 - c.striker)

    def _wipe(self, side: int) -> None:
        c = self.combat
        assert c is not None
        team = self.side_team(side)
        field = team.field
        team.stars = 0
        self.board[field] = None
        del self.teams[team.id]
        c.out[side] = True
        self._emit(
            "team_wiped",
            f"{self.colours[team.owner]}'s team on {self.field_ids[field]}"
            " has no gladiator left: its carrier leaves the arena",
            seat=team.owner,
            field=self.field_ids[field],
        )
        self._victor_moves(1 - side, field)
        self._end_combat()

    def _defeat_animal(self, side: int) -> None:
        c = self.combat
        assert c is not None
        index = c.pieces[side][1]
        field = self.animal_field[index]
        assert field is not None
        taker = self.scorer(1 - side)
        self.animal_stars[index] = 0
        self.animal_field[index] = None
        self.animal_loc[index] = "box" if taker is None else "stable"
        self.animal_owner[index] = taker
        self.board[field] = None
        c.out[side] = True
        where = "the box" if taker is None else f"{self.colours[taker]}'s stable"
        self._emit(
            "animal_defeated",
            f"the {self.animal_ids[index]} is defeated and goes to {where}",
            animal=self.animal_ids[index],
            field=self.field_ids[field],
            to=taker,
        )
        self._victor_moves(1 - side, field)
        self._end_combat()

    def _victor_moves(self, side: int, to: int) -> None:
        c = self.combat
        assert c is not None
        piece = c.pieces[side]
        origin = self.side_field(side)
        self.board[origin] = None
        self.board[to] = piece
        if piece[0] == "team":
            self.teams[piece[1]].field = to
        else:
            self.animal_field[piece[1]] = to
        self._emit(
            "victor_moved",
            f"{self._side_name(side)} moves into the vacated field "
            f"{self.field_ids[origin]} -> {self.field_ids[to]}",
            to=self.field_ids[to],
            **{"from": self.field_ids[origin]},
        )

    def _end_combat(self) -> None:
        c = self.combat
        assert c is not None
        for kind, ref in c.pieces:
            if kind == "team" and ref in self.teams:
                team = self.teams[ref]
                for k in range(N_KINDS):
                    team.active[k] += team.inactive[k]
                    team.inactive[k] = 0
        self._emit(
            "combat_ended",
            f"the combat is over (lost: challenger {c.lost[0]}, challenged {c.lost[1]})",
            lost=list(c.lost),
            out=list(c.out),
        )
        if self._check_end():
            return
        self._start_turn((self.active + 1) % self.players)

    # end of game -----------------------------------------------------------------------

    def _check_end(self) -> bool:
        """Rule 8: only one player has gladiators on the board, or every animal is defeated."""
        if self.phase == "game_over":
            return True
        with_gladiators = sorted({t.owner for t in self.teams.values()})
        if len(with_gladiators) <= 1:
            who = (
                f"only {self.colours[with_gladiators[0]]} has gladiators in the arena"
                if with_gladiators
                else "no gladiator is left in the arena"
            )
            self._end_game(with_gladiators, who)
            return True
        if self.animals_defeated() == len(self.animals):
            self._end_game(with_gladiators, f"all {len(self.animals)} animals are defeated")
            return True
        return False

    def _end_game(self, collecting: Iterable[int], reason: str) -> None:
        """The players in ``collecting`` add their surviving gladiators to their stables."""
        collecting = set(collecting)
        for team in list(self.teams.values()):
            if team.owner in collecting:
                for k in range(N_KINDS):
                    n = team.active[k] + team.inactive[k]
                    self.stables[team.owner][k] += n
                    self.survivors[team.owner] += n
                self.board[team.field] = None
                del self.teams[team.id]
        scores = self.scores()
        winners = best(range(self.players), lambda s: scores[s])
        self.combat = None
        names = " and ".join(self.colours[s] for s in winners)
        self._finish(
            winners,
            reason,
            f"{reason}. {names} win{'s' if len(winners) == 1 else ''} with {max(scores)} points",
            scores=scores,
            survivors=list(self.survivors),
        )

    # ------------------------------------------------------------------ snapshots

    def snapshot(self) -> dict[str, Any]:
        """Everything that makes the state, as plain JSON-able data."""
        return {
            **super().snapshot(),
            "turn": self.turn,
            "active": self.active,
            "entry_seat": self.entry_seat,
            "placer": self.placer,
            "passes": self.passes,
            "board": [None if p is None else list(p) for p in self.board],
            "teams": [self.teams[t].to_dict() for t in sorted(self.teams)],
            "next_team": self.next_team,
            "carriers_left": list(self.carriers_left),
            "supply": list(self.supply),
            "box": list(self.box),
            "stables": [list(s) for s in self.stables],
            "animal_loc": list(self.animal_loc),
            "animal_field": list(self.animal_field),
            "animal_stars": list(self.animal_stars),
            "animal_owner": list(self.animal_owner),
            "drawn": self.drawn,
            "combat": None if self.combat is None else self.combat.to_dict(),
            "survivors": list(self.survivors),
            "history": len(self.history),
        }


def new_game(config: GladiatorenConfig | None = None) -> GladiatorenState:
    """A fresh game (default config: 3 players, the default arena and animals)."""
    return GladiatorenState(config)


def replay(config: GladiatorenConfig, history: Iterable[A.Action]) -> GladiatorenState:
    """Rebuild a state from its config and action log; every action is checked again."""
    return GladiatorenState.replay(config, history)
