"""Hints at the table: ``hint`` at the terminal, journalled as shown, never as an action.

- the terminal's ``hint`` (``companion play``) shows the seat to move the best legal
  action, journals a ``hint`` record exactly as shown and asks again; a hint is shown to
  its seat only (a prompt with its ``seat``, never a message to everyone);
- a journal holding hints replays, resumes and is listed by ``companion replay`` with the
  same game as without them;
- a hint is refused where there is nothing to hint; it never depends on another seat's
  hidden cards; where the game has exact odds the hint shows them.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from bot_helpers import position, swap_hidden_card

from companion.cli import main
from companion.dice import Roller
from companion.games.battle_royale import BattleRoyaleConfig
from companion.games.kampf_der_gladiatoren import actions as KA
from companion.games.kampf_der_gladiatoren.odds import odds_for_challenge
from companion.games.registry import get_game
from companion.games.search.gladiatoren import challenge_odds
from companion.games.search.mcts import sample_outcome
from companion.games.search.spartacus import attack_odds_text
from companion.table.hints import HintRefused, compute_hint, give_hint, hint_text
from companion.table.journal import read_journal
from companion.table.loop import show_hint
from companion.table.people import BotAgent
from companion.table.session import GameSession, SessionSettings, load_resume, rebuild
from companion.worker import heavy_work_here


class SeatView:
    """Records every prompt with the seat it was for (``None``: everyone)."""

    def __init__(self) -> None:
        self.prompts: list[tuple[str, int | None]] = []
        self.messages: list[str] = []

    def update(self, state: Any, events: Any) -> None:
        pass

    def message(self, text: str) -> None:
        self.messages.append(text)

    def prompt(self, text: str, options: Any = (), seat: int | None = None) -> None:
        self.prompts.append((text, seat))


def test_hints_never_change_what_a_seeded_game_draws(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dice and the bots draw from (seed, journal position); a hint record is not a
    position, so the same typed moves give the same game with hints asked or not."""
    argv = ["play", "battle-royale", "--players", "2", "--bots", "1", "--seed", "4"]
    games = []
    for name, lines in (
        ("plain", "1\n1\n1\n1\n1\n1\nquit\n"),
        ("hints", "hint\n1\n1\nhint\n1\n1\n1\nhint\n1\nquit\n"),
    ):
        path = tmp_path / f"{name}.jsonl"
        monkeypatch.setattr("sys.stdin", io.StringIO(lines))
        with heavy_work_here():
            main([*argv, "--journal", str(path)])
        games.append(rebuild(read_journal(path)))
    plain, hinted = games
    assert len(hinted.hints) >= 2 and not plain.hints
    assert hinted.state.history == plain.state.history


def test_hint_at_the_terminal_is_journalled_as_shown_and_never_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\n1\nhint\nquit\n"))
    argv = ["play", "battle-royale", "--players", "2", "--bots", "1:easy", "--seed", "1"]
    with heavy_work_here():
        main([*argv, "--journal", str(path)])
    out = capsys.readouterr().out
    records = [r for _, r in read_journal(path).records if r["type"] == "hint"]
    assert [r["seat"] for r in records] == [0, 0] and {r["level"] for r in records} == {"normal"}
    for r in records:
        assert hint_text(r["shown"]) in out  # the record is what the screen showed
    assert records[1]["actions"] > records[0]["actions"]  # after the move chosen by "1"
    rebuilt = rebuild(read_journal(path))
    actions = [r for _, r in read_journal(path).records if r["type"] == "action"]
    assert len(rebuilt.state.history) == len(actions)  # the hints are no actions
    assert len(rebuilt.hints) == 2


def test_a_hint_is_shown_to_its_seat_only() -> None:
    state = position("battle-royale", seed=2, steps=40)
    session = GameSession(state, state.config, SessionSettings())
    view = SeatView()
    with heavy_work_here():
        show_hint(session, view)
    seat = session.state.current_player
    assert len(view.prompts) == 1 and view.prompts[0][0].startswith("hint: ")
    assert view.prompts[0][1] == seat and view.messages == []  # never to everyone
    assert [h["seat"] for h in session.hints] == [seat]


def played_with_hints(path: Path, actions: int = 90) -> GameSession:
    """A two-player Battle Royale game, with a hint to the seat to move every 15 actions,
    for ``actions`` actions or until it ends."""
    session = GameSession.start(BattleRoyaleConfig(players=2), SessionSettings(bots=2), path)
    rng = random.Random(3)
    bot = BotAgent(rng)
    for n in range(actions):
        state = session.state
        if state.is_terminal:
            break
        if state.is_chance_node:
            action = Roller.seeded(n).choose(state.chance_outcomes())
        else:
            if n % 15 == 0:
                with heavy_work_here():
                    give_hint(session, state.current_player, random.Random(n), clock=None)
            action = bot.choose(state, state.legal_actions())
        session.commit(action)
        session.apply(action)
    return session


def test_a_journal_with_hints_replays_and_resumes_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    session = played_with_hints(path)
    session.journal.close()
    assert len(session.hints) >= 3
    rebuilt = rebuild(read_journal(path))
    assert rebuilt.state.snapshot() == session.state.snapshot()
    assert rebuilt.state.history == session.state.history
    assert [h["shown"] for h in rebuilt.hints] == [h["shown"] for h in session.hints]
    pending = load_resume(path)
    assert pending.session.state.snapshot() == session.state.snapshot()
    resumed = pending.attach()  # and the resumed journal goes on after the hints
    action = resumed.state.legal_actions()[0]
    resumed.commit(action)
    resumed.apply(action)
    resumed.journal.close()
    assert len(rebuild(read_journal(path)).state.history) == len(session.state.history) + 1


def test_companion_replay_lists_the_hints_once_the_game_is_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.jsonl"
    session = played_with_hints(path, actions=10_000)
    session.journal.close()
    assert session.state.is_terminal
    assert main(["replay", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["actions"] == len(session.state.history)
    assert [h["shown"] for h in doc["hints"]] == [h["shown"] for h in session.hints]
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("hint: ") == len(session.hints)


def test_companion_replay_keeps_a_hint_from_the_screen_while_the_game_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hint was shown to one seat and names what it may do (a card of its hand): the
    replay of an unfinished game printed every hint's words for anyone to read."""
    path = tmp_path / "game.jsonl"
    session = played_with_hints(path)
    session.journal.close()
    assert not session.state.is_terminal and len(session.hints) >= 3
    assert main(["replay", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [h["shown"] for h in doc["hints"]] == [None] * len(session.hints)
    assert [h["seat"] for h in doc["hints"]] == [h["seat"] for h in session.hints]
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "hint: " not in out
    assert out.count("listed once the game is over") == len(session.hints)


def test_a_hint_is_refused_where_there_is_nothing_to_hint(tmp_path: Path) -> None:
    session = GameSession.start(BattleRoyaleConfig(players=2), SessionSettings(bots=2), None)
    while not session.state.is_chance_node:
        session.apply(session.state.legal_actions()[0])
    with pytest.raises(HintRefused, match="dice or the cards"):
        compute_hint(session, 0)
    while session.state.is_chance_node:
        session.apply(session.state.chance_outcomes()[0][0])
    other = 1 - session.state.current_player
    with pytest.raises(HintRefused, match="not yours"):
        compute_hint(session, other)
    assist = GameSession.start(
        BattleRoyaleConfig(players=2), SessionSettings(mode="assist"), tmp_path / "a.jsonl"
    )
    with pytest.raises(HintRefused, match="assist"):
        compute_hint(assist, 0)


def test_a_hint_never_depends_on_another_seats_hidden_cards() -> None:
    state = position("battle-royale", seed=2, steps=90)
    seat = state.current_player
    other = next(s for s in range(state.players) if s != seat and sum(state.hands[s].values()))
    alt = swap_hidden_card(state, other, "battle-royale")
    assert alt is not None
    g = get_game("battle-royale")
    assert g.view(alt, other) != g.view(state, other)

    def shown(s: Any) -> dict[str, Any]:
        session = GameSession(s, s.config, SessionSettings())
        with heavy_work_here():
            return compute_hint(session, seat, random.Random(5), clock=None)

    assert shown(state) == shown(alt)


def test_a_challenge_hint_shows_the_exact_combat_odds() -> None:
    state = position("gladiatoren", seed=4, steps=30)
    while not any(isinstance(a, KA.Challenge) for a in state.legal_actions()):
        state = position("gladiatoren", seed=4, steps=len(state.history) + 5)
    challenge = next(a for a in state.legal_actions() if isinstance(a, KA.Challenge))
    fields = {f: i for i, f in enumerate(state.field_ids)}
    odds = odds_for_challenge(
        state, state.board[fields[challenge.team]], state.board[fields[challenge.target]]
    )
    text = challenge_odds(state, challenge)
    assert text is not None and f"target out {float(odds.out(1)):.0%}" in text
    start = get_game("gladiatoren").new_game()
    assert all(challenge_odds(start, a) is None for a in start.legal_actions())


def test_an_attack_hint_shows_the_exact_attack_odds() -> None:
    from companion.games.spartacus import SpartacusConfig
    from companion.games.spartacus import actions as SA
    from companion.games.spartacus.config import FighterSpec

    fighters = (FighterSpec("A", 4, 3, 2), FighterSpec("B", 3, 3, 2))
    game = get_game("spartacus")
    state = game.new_game(SpartacusConfig(fight=fighters))
    rng = random.Random(1)
    while not state.is_terminal and not any(
        isinstance(a, SA.Attack) for a in state.legal_actions()
    ):
        if state.is_chance_node:
            state.apply(Roller.seeded(rng.randrange(99)).choose(state.chance_outcomes()))
        else:
            state.apply(rng.choice(state.playable_actions()))
    attack = next(a for a in state.legal_actions() if isinstance(a, SA.Attack))
    fight = state.fight
    odds = fight.odds(fight.active.side)
    text = attack_odds_text(state, attack)
    defeat = 1 - odds.defender_levels["none"]
    assert text is not None and f"opponent defeated {float(defeat):.0%}" in text


def test_no_hint_during_the_gladiatoren_set_up_where_the_search_is_blind() -> None:
    """Found by a newcomer: during the set-up the hint was always the first legal entry
    ('carrier A spear') at about 1/3: the search scores by the points, and nobody has any
    before the first challenge. It says so instead, and hints again from the first turn."""
    g = get_game("gladiatoren")
    config = g.config(players=3)
    session = GameSession(
        g.new_game(config), config, SessionSettings(game="gladiatoren", mode="tracked")
    )
    state = session.state
    assert state.phase == "entry"
    with pytest.raises(HintRefused, match="^the set-up is beyond the search"):
        compute_hint(session, state.current_player, random.Random(1))
    rng = random.Random(2)
    while session.state.phase != "turn":
        s = session.state
        session.apply(
            sample_outcome(s.chance_outcomes(), rng)
            if s.is_chance_node
            else rng.choice(s.legal_actions())
        )
    with heavy_work_here():
        shown = compute_hint(session, session.state.current_player, random.Random(1))
    assert shown["notation"] in {a.notation for a in session.state.legal_actions()}


def test_a_hint_the_search_weighed_nothing_against_does_not_claim_to_be_the_only_choice():
    """Found by a newcomer: 'hint: net net (the only choice)' above '1: net net  2: net
    sword' (the net is left to the exact odds' policy, not searched)."""
    text = hint_text({"notation": "net net", "win_chance": None, "exact": False})
    assert text == "hint: net net (the search weighs no other choice here)"
    assert "only choice" not in text
