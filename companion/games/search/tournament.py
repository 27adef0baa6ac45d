"""Seeded matches between bots, and how sure their results are (Wilson intervals).

A *lineup* is one bot spec per seat: ``search`` / ``search:LEVEL`` (the search bot),
``random`` (uniform among the legal actions) or ``heuristic`` (the game's current table
bot: Kampf der Gladiatoren's odds-policy bot, Spartacus's simple bot, the skirmish
hunter; Battle Royale has none but the random bot). Game ``i`` of a tournament is seeded
with ``(seed, i)`` and rotates the lineup by ``i`` seats, so every entry plays every seat
equally often and a start player's advantage falls on all of them.

A shared win counts as a fraction (1/2 for two winners). Nothing here makes a random
generator or reads a clock: the caller passes the generator class (``random.Random``),
seeded per game and seat with text (``"seed:game:bot<seat>"``, ``"seed:game:chance"``),
and may pass a clock to time the search bots' moves (the timing never changes a move;
the levels' time caps stay off, so a tournament is repeatable on any machine).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.games.core.bots import Bot, RandomBot, Rng
from companion.games.registry import get_game
from companion.games.search.bot import LEVELS, SearchBot
from companion.games.search.mcts import sample_outcome
from companion.games.search.profile import profile_for

KINDS = ("search", "random", "heuristic")
MAX_ACTIONS = 100_000


class LineupError(ValueError):
    """A bot spec or lineup that cannot be played; the message says what is expected."""


@dataclass(frozen=True)
class Entry:
    """One seat's bot: ``kind`` (search, random, heuristic) and, for search, its level."""

    kind: str
    level: str | None = None

    @property
    def label(self) -> str:
        return f"{self.kind}:{self.level}" if self.level else self.kind


def parse_entry(text: str) -> Entry:
    """``search``, ``search:easy|normal|strong``, ``random`` or ``heuristic``."""
    kind, _, level = text.strip().lower().partition(":")
    if kind not in KINDS:
        raise LineupError(f"unknown bot {text!r}: use {', '.join(KINDS)} (search:LEVEL)")
    if kind == "search":
        level = level or "normal"
        if level not in LEVELS:
            raise LineupError(f"unknown level {level!r} in {text!r}: levels {', '.join(LEVELS)}")
        return Entry(kind, level)
    if level:
        raise LineupError(f"{kind} has no level ({text!r})")
    return Entry(kind)


def parse_lineup(text: str) -> list[Entry]:
    """A comma-separated lineup, one bot per seat: ``search:normal,random,random``."""
    entries = [parse_entry(part) for part in text.split(",") if part.strip()]
    if len(entries) < 2:
        raise LineupError(f"a lineup needs a bot per seat, at least two: {text!r}")
    return entries


def wilson(wins: float, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95 % by default)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Standing:
    """One lineup entry's results: wins (shared wins as fractions) out of ``games``."""

    entry: Entry
    wins: float = 0.0
    games: int = 0

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


@dataclass
class TournamentResult:
    game: str
    players: int
    seed: int
    standings: list[Standing]
    move_seconds: list[float] = field(default_factory=list)
    actions: int = 0

    def to_dict(self) -> dict[str, Any]:
        times = sorted(self.move_seconds)
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "games": self.standings[0].games if self.standings else 0,
            "standings": [
                {
                    "seat_in_lineup": i,
                    "bot": s.entry.label,
                    "wins": s.wins,
                    "games": s.games,
                    "rate": s.rate,
                    "wilson95": list(s.interval),
                }
                for i, s in enumerate(self.standings)
            ],
            "search_moves": len(times),
            "search_move_median_ms": statistics.median(times) * 1000 if times else None,
            "search_move_p90_ms": times[int(0.9 * (len(times) - 1))] * 1000 if times else None,
        }


def make_bot(game: str, entry: Entry, rng: Rng) -> Bot:
    if entry.kind == "search":
        assert entry.level is not None
        return SearchBot(game, rng, entry.level)
    if entry.kind == "heuristic":
        return profile_for(game).heuristic(rng)
    return RandomBot(rng)


def play_game(
    game: str,
    config: Any,
    bots: list[Bot],
    rng: Rng,
    timed: Callable[[Bot, Any], Any] | None = None,
) -> Any:
    """One game to its end: ``bots[seat]`` decides for each seat, chance by ``rng``."""
    state = get_game(game).new_game(config)
    for _ in range(MAX_ACTIONS):
        if state.is_terminal:
            return state
        if state.is_chance_node:
            state.apply(sample_outcome(state.chance_outcomes(), rng))
            continue
        bot = bots[state.current_player]
        state.apply(timed(bot, state) if timed is not None else bot.choose(state))
    raise RuntimeError(f"{game}: game not finished after {MAX_ACTIONS} actions")


def tournament(
    game: str,
    lineup: list[Entry],
    games: int,
    seed: int,
    generator: Callable[[str], Rng],
    config: Any = None,
    clock: Callable[[], float] | None = None,
    progress: Callable[[int, TournamentResult], None] | None = None,
) -> TournamentResult:
    """Play ``games`` seeded games of ``lineup`` (one entry per seat, rotated each game)."""
    g = get_game(game)
    players = len(lineup)
    if config is None:
        config = g.config(players=players)
    elif config.players != players:
        raise LineupError(f"{players} bots for {config.players} players")
    result = TournamentResult(game, players, seed, [Standing(e) for e in lineup])

    def timed(bot: Bot, state: Any) -> Any:
        if clock is None or not isinstance(bot, SearchBot):
            return bot.choose(state)
        started = clock()
        action = bot.choose(state)
        result.move_seconds.append(clock() - started)
        return action

    for i in range(games):
        shift = i % players
        # entry k sits at seat (k + shift) % players
        seats = [lineup[(s - shift) % players] for s in range(players)]
        bots = [make_bot(game, e, generator(f"{seed}:{i}:bot{s}")) for s, e in enumerate(seats)]
        state = play_game(game, config, bots, generator(f"{seed}:{i}:chance"), timed)
        result.actions += len(state.history)
        for k, standing in enumerate(result.standings):
            seat = (k + shift) % players
            standing.games += 1
            if seat in state.winners:
                standing.wins += 1 / len(state.winners)
        if progress is not None:
            progress(i + 1, result)
    return result
