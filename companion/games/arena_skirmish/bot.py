"""The skirmish bot: a random bot that seeks a fight.

The uniform random bot every game shares (:class:`companion.games.core.RandomBot`)
explores every rule, which is what property tests want, but it wanders: its skirmish
games rarely end without a round limit. :class:`SkirmishBot` is still random where it
does not matter (team, entrance, cells) but walks towards the nearest enemy by the
cheapest path and strikes with the most dice. It is the table's bot (``GAME.bot``): its
games end.
"""

from __future__ import annotations

import heapq

from companion.games.arena_skirmish import actions as A
from companion.games.arena_skirmish.state import SkirmishState
from companion.games.core.bots import RandomBot, Rng


class SkirmishBot(RandomBot):
    """Plays any seat: fills its team, deploys facing the centre, hunts and strikes."""

    def __init__(self, rng: Rng, wander: float = 0.05) -> None:
        super().__init__(rng)
        self.wander = wander

    def choose(self, state: SkirmishState) -> A.Action:
        legal = self.options(state)
        phase = state.phase
        if phase == "select":
            picks = [a for a in legal if isinstance(a, A.Pick)]
            return self.rng.choice(picks) if picks else A.Ready()
        if phase == "place":
            return self._place(state, legal)
        if phase == "combo":
            return A.Done()
        if phase == "rest":
            return A.EndActivation()
        if phase == "move":
            attacks = [a for a in legal if isinstance(a, A.Melee | A.AffinityAttack)]
            if attacks:
                return self._best_attack(state, attacks)
            if self.rng.random() < self.wander:
                return self.rng.choice(legal)
            return self._hunt(state)
        return self.rng.choice(legal)

    def _place(self, state: SkirmishState, legal: list[A.Action]) -> A.Action:
        size = state.map.size
        centre = (size - 1) / 2
        cells = sorted({a.cell for a in legal if isinstance(a, A.Place)})
        cell = self.rng.choice(cells)
        r, c = divmod(state.map.cell_of(cell), size)
        dr, dc = centre - r, centre - c
        vertical = "S" if dr > 0 else "N"
        facing = vertical if abs(dr) >= abs(dc) else ("E" if dc > 0 else "W")
        return A.Place(cell, facing)

    def _best_attack(self, state: SkirmishState, attacks: list[A.Action]) -> A.Action:
        gid = state.active_gladiator
        assert gid is not None
        best: list[A.Action] = []
        best_key: tuple[int, int] | None = None
        for a in attacks:
            assert isinstance(a, A.Melee | A.AffinityAttack)
            kind = "melee" if isinstance(a, A.Melee) else "affinity"
            breakdown = state.breakdown(gid, a.target, kind)
            assert breakdown is not None
            key = (breakdown.dice, -state.gladiators[a.target].life)
            if best_key is None or key > best_key:
                best, best_key = [a], key
            elif key == best_key:
                best.append(a)
        return self.rng.choice(best)

    @staticmethod
    def _distance_field(state: SkirmishState, gid: int, foes: dict[int, int]) -> dict[int, int]:
        return _distance_field_impl(state, gid, foes)

    def _hunt(self, state: SkirmishState) -> A.Action:
        """The first action of the cheapest way to the best reachable spot: next to an
        enemy and facing it, else next to one, else as close as possible."""
        gid = state.active_gladiator
        assert gid is not None
        me = state.gladiators[gid]
        assert me.cell is not None
        gmap = state.map
        foes = {g.cell: g.id for g in state.alive() if g.owner != me.owner and g.cell is not None}
        if not foes:
            return A.EndActivation()
        field = self._distance_field(state, gid, foes)
        enemies = list(foes)

        def near(cell: int) -> int:
            if cell in field:
                return field[cell]
            return 1000 + min(gmap.distance(cell, e) for e in enemies)

        def dice_from(cell: int, facing: int) -> int:
            best = 0
            for d in range(4):
                foe = foes.get(gmap.step(cell, d))
                if foe is None:
                    continue
                for kind in ("melee", "affinity"):
                    b = state.breakdown(gid, foe, kind, cell=cell, facing=facing)
                    if b is not None and b.allowed:
                        best = max(best, b.dice)
            return best

        def score(cell: int, facing: int) -> tuple[int, int]:
            dice = dice_from(cell, facing)
            if dice:
                return 0, -dice
            ahead = gmap.step(cell, facing)
            # facing a free cell that is closer to an enemy is worth a turn
            closer = ahead >= 0 and not gmap.blocked[ahead] and near(ahead) < near(cell)
            return 1 + near(cell), 0 if closer else 1

        start = (me.cell, me.facing)
        budget = state.points_left
        dist = {start: 0}
        first: dict[tuple[int, int], A.Action | None] = {start: None}
        heap = [(0, me.cell, me.facing)]
        best_key = (*score(*start), 0)
        best_state = start
        while heap:
            cost, cell, facing = heapq.heappop(heap)
            if cost > dist[(cell, facing)]:
                continue
            key = (*score(cell, facing), cost)
            if key < best_key:
                best_key, best_state = key, (cell, facing)
            moves: list[tuple[tuple[int, int], int, A.Action]] = [
                ((cell, (facing + 3) % 4), 1, A.TurnLeft()),
                ((cell, (facing + 1) % 4), 1, A.TurnRight()),
            ]
            ahead = gmap.step(cell, facing)
            if (
                ahead >= 0
                and not gmap.blocked[ahead]
                and (state.occupant[ahead] < 0 or state.occupant[ahead] == gid)
            ):
                climb = abs(gmap.heights[ahead] - gmap.heights[cell])
                if climb <= 1:
                    moves.append(((ahead, facing), 2 if climb else 1, A.Step()))
            for nxt, step_cost, action in moves:
                total = cost + step_cost
                if total > budget or total >= dist.get(nxt, budget + 1):
                    continue
                dist[nxt] = total
                first[nxt] = first[(cell, facing)] or action
                heapq.heappush(heap, (total, nxt[0], nxt[1]))
        action = first[best_state]
        return action if action is not None else A.EndActivation()


def _distance_field_impl(state: SkirmishState, gid: int, foes: dict[int, int]) -> dict[int, int]:
    """Movement points from each cell to the nearest free cell beside an enemy (facing
    ignored; other gladiators are obstacles; no climbing with movement 1)."""
    gmap = state.map
    me = state.gladiators[gid]
    climb = 1 if me.movement >= 2 else 0

    def free(cell: int) -> bool:
        return (
            cell >= 0
            and not gmap.blocked[cell]
            and (state.occupant[cell] < 0 or state.occupant[cell] == gid)
        )

    dist: dict[int, int] = {}
    heap: list[tuple[int, int]] = []
    for foe_cell in foes:
        for n in gmap.steps[foe_cell]:
            if free(n) and n not in dist:
                dist[n] = 0
                heap.append((0, n))
    heapq.heapify(heap)
    while heap:
        d, cell = heapq.heappop(heap)
        if d > dist[cell]:
            continue
        for n in gmap.steps[cell]:
            if not free(n):
                continue
            rise = abs(gmap.heights[n] - gmap.heights[cell])
            if rise > climb:
                continue
            nd = d + (2 if rise else 1)
            if nd < dist.get(n, 1 << 30):
                dist[n] = nd
                heapq.heappush(heap, (nd, n))
    return dist
