"""The search bot at the table: ``--bots N:LEVEL`` seats it, a resumed game keeps its level.

- :func:`table_bot` gives the search bot at a level, else the game's own table bot;
- :class:`SearchAgent` thinks in the worker process and plays the search bot's move;
- every game's command records the level in the journal header and seats the search bot
  in the bots' seats; ``companion resume`` seats it again at the same level, and a journal
  written before levels existed resumes with the table bot.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from bot_helpers import position

from companion.cli import main
from companion.games.registry import get_game
from companion.games.search import SearchBot
from companion.games.search.profile import profile_for
from companion.table.journal import JournalError, read_journal
from companion.table.people import BotAgent, SearchAgent, table_bot
from companion.table.session import GameSession, SessionSettings, load_resume
from companion.worker import heavy_work_here, shutdown_worker


def run(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:
        return 0 if exc.code is None else int(exc.code)


def test_without_a_level_a_seat_keeps_the_games_own_table_bot() -> None:
    rng = random.Random(1)
    assert isinstance(table_bot("battle-royale", rng, None), BotAgent)
    own = BotAgent(rng, object())
    assert table_bot("spartacus", rng, None, own) is own
    agent = table_bot("gladiatoren", rng, "strong", own)
    assert isinstance(agent, SearchAgent) and agent.level == "strong" and agent.is_bot


def test_an_unknown_level_fails_when_the_bot_is_seated() -> None:
    with pytest.raises(ValueError, match="levels: easy, normal, strong"):
        SearchAgent("battle-royale", random.Random(1), "hard")


@pytest.mark.parametrize("game", ["battle-royale", "spartacus"])
def test_the_agent_plays_the_search_bots_move_in_the_worker_process(game: str) -> None:
    state = position(game, seed=5, steps=20)
    before = state.snapshot()
    seed_of_move = random.Random(7).getrandbits(64)
    try:
        chosen = SearchAgent(game, random.Random(7), "easy", clock=None).choose(
            state, state.legal_actions()
        )
    finally:
        shutdown_worker()
    assert state.snapshot() == before  # the table's state is never touched
    expected = SearchBot(game, random.Random(seed_of_move), "easy").choose(state)
    assert chosen == expected  # the same search, only elsewhere


# --- the commands -------------------------------------------------------------------------

NEW_GAMES = {
    "battle-royale": ["play", "battle-royale", "--bots", "4:easy", "--autoplay"],
    "gladiatoren": ["play", "gladiatoren", "--players", "2", "--bots", "2:easy"],
    "gladiatoren play": ["gladiatoren", "play", "--players", "2", "--bots", "2:strong"],
    "skirmish": ["play", "skirmish", "--bots", "2:normal", "--autoplay", "--rounds", "3"],
    "spartacus": ["play", "spartacus", "--players", "3", "--bots", "3:easy", "--autoplay"],
    "spartacus fight": ["spartacus", "fight", "--bots", "both", "--bot-level", "easy"],
    **{
        f"demo {game}": ["demo", "--game", game, "--players", "2", "--bots-level", "normal"]
        for game in ("battle-royale", "gladiatoren", "skirmish")
    },
    "demo spartacus": ["demo", "--game", "spartacus", "--players", "3", "--bots-level", "easy"],
}


@pytest.fixture
def searched(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every move a :class:`SearchAgent` is asked for, as (game, level); the move itself
    is the game's table bot's (the wiring is under test here, not the search)."""
    calls: list[tuple[str, str]] = []

    def choose(self: SearchAgent, state: Any, legal: Any) -> Any:
        calls.append((self.game, self.level))
        return profile_for(self.game).heuristic(random.Random(len(calls))).choose(state)

    monkeypatch.setattr(SearchAgent, "choose", choose)
    return calls


def header_session(path: Path) -> dict[str, Any]:
    return read_journal(path).header["session"]


@pytest.mark.parametrize("name", list(NEW_GAMES))
def test_bots_with_a_level_are_search_bots_and_the_journal_keeps_the_level(
    name: str, tmp_path: Path, searched: list[tuple[str, str]]
) -> None:
    argv = NEW_GAMES[name]
    given = {
        flag: argv[argv.index(flag) + 1]
        for flag in ("--bot-level", "--bots-level", "--bots")
        if flag in argv
    }
    level = given.get("--bot-level") or given.get("--bots-level") or given["--bots"].split(":")[1]
    path = tmp_path / "game.jsonl"
    with heavy_work_here():
        assert run([*argv, "--seed", "3", "--journal", str(path)]) == 0
    game = read_journal(path).header["game"]
    assert searched and set(searched) == {(game, level)}
    assert header_session(path)["bot_level"] == level


def test_bots_without_a_level_stay_the_table_bots(
    tmp_path: Path, searched: list[tuple[str, str]]
) -> None:
    path = tmp_path / "game.jsonl"
    argv = ["gladiatoren", "play", "--players", "2", "--bots", "2", "--seed", "3"]
    assert run([*argv, "--journal", str(path)]) == 0
    assert searched == []
    assert "bot_level" not in header_session(path)


def test_a_bad_level_is_one_clear_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["gladiatoren", "play", "--bots", "2:hard"]) == 2
    err = capsys.readouterr().err
    assert "unknown bot level 'hard'" in err and "Traceback" not in err


# --- resume -------------------------------------------------------------------------------

RESUMED = {  # game -> a config of few players for a short game
    "battle-royale": {"players": 2},
    "gladiatoren": {"players": 2},
    "skirmish": {"players": 2, "round_limit": 6},
    "spartacus": {"players": 3},
}


def started(game: str, path: Path, level: str | None, actions: int = 12) -> None:
    """A journal of ``game`` whose every seat is a bot, ``actions`` actions in, stopped."""
    g = get_game(game)
    config = g.config(**RESUMED[game])
    settings = SessionSettings(
        mode="tracked", bots=config.players, hardware="sim", seed=4, game=game, bot_level=level
    )
    session = GameSession.start(config, settings, path)
    rng = random.Random(2)
    bot = profile_for(game).heuristic(rng)
    for _ in range(actions):
        state = session.state
        if state.is_chance_node:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = bot.choose(state)
        session.commit(action)
        session.apply(action)
    session.journal.close()


@pytest.mark.parametrize("game", list(RESUMED))
def test_a_resumed_game_keeps_its_bots_level(
    game: str, tmp_path: Path, searched: list[tuple[str, str]]
) -> None:
    path = tmp_path / "game.jsonl"
    started(game, path, "strong")
    assert load_resume(path).session.settings.bot_level == "strong"
    with heavy_work_here():
        assert run(["resume", str(path)]) == 0
    assert searched and set(searched) == {(game, "strong")}


def test_a_journal_from_before_levels_resumes_with_the_table_bot(
    tmp_path: Path, searched: list[tuple[str, str]]
) -> None:
    path = tmp_path / "game.jsonl"
    started("gladiatoren", path, None)
    assert "bot_level" not in header_session(path)
    assert load_resume(path).session.settings.bot_level is None
    assert run(["resume", str(path)]) == 0
    assert searched == []


def test_a_header_with_an_unknown_level_is_refused(tmp_path: Path) -> None:
    from companion.table.journal import record_crc

    path = tmp_path / "game.jsonl"
    started("gladiatoren", path, "easy", actions=2)
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["session"]["bot_level"] = "godlike"
    del header["crc"]
    header["crc"] = record_crc(header)
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    with pytest.raises(JournalError, match="session.bot_level"):
        load_resume(path)


@pytest.mark.parametrize("steps", [0, 15, 60, 140])
def test_battle_royales_table_bot_chooses_among_the_random_bots_options(steps: int) -> None:
    """Why docs/bots.md's "against three of the current table bots" for Battle Royale is the
    tournament against three random bots: the table's bot (``BotAgent`` without a game bot)
    draws uniformly from exactly the options the tournament's random bot draws from."""
    from companion.games.core.bots import RandomBot

    state = position("battle-royale", seed=steps, steps=steps)
    legal = state.legal_actions()
    table_options = [a for a in legal if not getattr(a, "is_correction", False)]
    assert table_options == RandomBot(random.Random(1)).options(state)
    assert isinstance(table_bot("battle-royale", random.Random(1), None), BotAgent)
