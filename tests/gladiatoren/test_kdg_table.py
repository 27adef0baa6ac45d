"""At the table: the play loop on simulated hardware, the journal, dice on the display, and the
``play`` / ``demo`` / ``dice`` / ``combat`` command functions."""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import sys

import pytest
from kdg_helpers import position_game, team

from companion.cli import CommandError
from companion.dice import Roller
from companion.games.kampf_der_gladiatoren import (
    GladiatorenConfig,
    IllegalActionError,
    new_game,
    parse_action,
)
from companion.games.kampf_der_gladiatoren import actions as A
from companion.games.kampf_der_gladiatoren.data import default_data
from companion.hal import CellState, HardwareConfig, ManualClock, open_hardware
from companion.table.gladiatoren_table import (
    GladiatorenAdapter,
    GladiatorenTable,
    dice_frame,
    local_session,
    start_session,
)
from companion.table.journal import read_journal, state_digest
from companion.table.people import BotAgent, SimOperator, TerminalAgent, TerminalInput
from companion.table.session import UndoRefused


class Recorder:
    def __init__(self) -> None:
        self.events, self.messages, self.prompts = [], [], []

    def update(self, state, events) -> None:
        self.events.extend(events)

    def message(self, text: str) -> None:
        self.messages.append(text)

    def prompt(self, text: str, options=(), seat=None) -> None:
        self.prompts.append(text)


def sim():
    clock = ManualClock()
    return open_hardware(HardwareConfig(profile="sim"), clock=clock), clock


def test_dice_frame_mapping():
    frame = dice_frame(["two_red_stars", "one_yellow_star", "blank"] * 3)
    assert frame[0] == (
        CellState.HIGHLIGHT,
        CellState.FIELD,
        CellState.OFF,
        CellState.HIGHLIGHT,
        CellState.FIELD,
    )
    assert frame[1][:4] == (CellState.OFF, CellState.HIGHLIGHT, CellState.FIELD, CellState.OFF)
    assert frame[1][4] == CellState.OFF and all(c == CellState.OFF for c in frame[4])


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (5, 2)])
def test_a_bot_game_runs_to_the_end_with_a_journal(tmp_path, players, seed):
    hw, clock = sim()
    path = tmp_path / "game.jsonl"
    session = start_session(
        GladiatorenConfig(players=players),
        bots=players,
        hardware="sim",
        seed=seed,
        journal_path=path,
    )
    view = Recorder()
    rng = random.Random(seed)
    with hw:
        table = GladiatorenTable(
            session,
            hw,
            Roller.seeded(seed),
            view,
            {s: BotAgent(rng) for s in range(players)},
            sleep=clock.sleep,
            operator=SimOperator(hw),
        )
        state = table.run()
        assert state.is_terminal and state.winners
        rolls = [a for a in state.history if isinstance(a, A.Roll)]
        assert table.operator.presses.count("roll") == len(rolls) == len(table.rolls)
        last = table.rolls[-1]
        assert hw.display.frame == dice_frame(last)
        assert any("odds:" in m for m in view.messages)
    session.journal.close()
    contents = read_journal(path)
    assert contents.header["game"] == "gladiatoren" and contents.finished
    logged = [r for _, r in contents.records if r["type"] == "action"]
    assert [parse_action(A.action_from_dict(r["action"]).notation) for r in logged] == state.history
    # every checkpoint matches a replay up to it
    from companion.games.kampf_der_gladiatoren import replay

    checkpoints = [r for _, r in contents.records if r["type"] == "checkpoint"]
    assert checkpoints
    for cp in checkpoints[:5]:
        again = replay(state.config, state.history[: cp["actions"]])
        assert state_digest(again.snapshot()) == cp["digest"]


def test_undo_takes_back_choices_but_not_dice():
    session = local_session(
        position_game([team("R sword sword", "E"), team("Y net sword", "F"), team("Y sword", "Q")])
    )
    with pytest.raises(UndoRefused, match="nothing to undo"):
        session.undo()
    action = parse_action("challenge E F")
    session.commit(action)
    session.apply(action)
    assert session.undoable() == 1
    state = session.undo()
    assert state.combat is None and state.history == []
    for notation in ("challenge E F", "roll 0 0 2"):  # yellow's net took a sword
        session.commit(parse_action(notation))
        session.apply(parse_action(notation))
    with pytest.raises(UndoRefused):
        session.undo(1)
    from companion.games.kampf_der_gladiatoren import IllegalActionError

    with pytest.raises(IllegalActionError):
        session.commit(parse_action("keep"))


def test_a_person_at_the_terminal_plays_with_typed_actions(monkeypatch):
    hw, clock = sim()
    state = position_game(
        [
            team("R sword shield shield shield", "E"),
            team("Y sword shield shield shield", "F"),
            team("Y net", "Q"),
        ]
    )
    view = Recorder()
    terminal = TerminalInput(io.StringIO("challenge E A\nchallenge E F\nr\nundo\nquit\n"))
    agents = {0: TerminalAgent(terminal, view, parse_action), 1: BotAgent(random.Random(1))}
    from companion.table.people import TableStopped

    with hw:
        table = GladiatorenTable(
            local_session(state),
            hw,
            Roller.seeded(3),
            view,
            agents,
            sleep=clock.sleep,
            operator=SimOperator(hw),
            terminal=terminal,
        )
        with pytest.raises((TableStopped, EOFError)):
            table.run()
    assert any("not allowed" in m for m in view.messages)  # A is empty: refused with a reason
    assert table.state.history[0] == A.Challenge("E", "E", "F")
    assert any("press ROLL" in p for p in view.prompts)


def args(**kw) -> argparse.Namespace:
    return argparse.Namespace(**kw)


@pytest.mark.slow
def test_play_with_every_seat_a_bot_needs_no_input(capsys, tmp_path):
    code = _play(capsys, players=3, bots=3, seed=4, journal=str(tmp_path / "g.jsonl"))
    assert code == 0


def _play(capsys, **kw) -> int:
    from companion.commands.gladiatoren import run_play

    code = run_play(args(**kw))
    out = capsys.readouterr().out
    if code == 0:
        assert "Game over" in out and "points after" in out
    return code


def test_demo_runs_to_the_end(capsys, tmp_path):
    from companion.commands.gladiatoren import run_demo

    assert run_demo(args(players=2, seed=7, journal=str(tmp_path / "d.jsonl"))) == 0
    out = capsys.readouterr().out
    assert "Kampf der Gladiatoren demo: 2 bots, seed 7" in out
    assert "Turn 1: red" in out and "Game over" in out


def test_play_with_a_person_stops_when_the_input_ends(capsys, monkeypatch, tmp_path):
    from companion.commands.gladiatoren import run_play

    # the options are listed by kind ('carrier <A|B|...> <spear|...>'): a bare 1 is not an
    # option's number until '?' has numbered them
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n?\n1\nquit\n"))
    code = run_play(args(players=2, seed=1, journal=str(tmp_path / "p.jsonl")))
    out = capsys.readouterr().out
    assert code == 1 and "game stopped" in out
    assert "the options here are not numbered" in " ".join(out.split())
    assert "red sets a carrier" in out


def test_play_refuses_bad_settings():
    from companion.commands.gladiatoren import run_play

    with pytest.raises(CommandError, match="--bots"):
        run_play(args(players=2, bots=3))
    with pytest.raises(CommandError, match="players"):
        run_play(args(players=7, bots=0))
    with pytest.raises(CommandError, match="seats are 0..1"):
        run_play(args(players=2, bot_seats="0,2"))
    with pytest.raises(CommandError, match="seat numbers"):
        run_play(args(players=2, bot_seats="red"))


def test_bots_may_take_any_seats(capsys, monkeypatch, tmp_path):
    from companion.commands.gladiatoren import run_play

    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code = run_play(args(players=3, bot_seats="0,2", seed=2, journal=str(tmp_path / "b.jsonl")))
    out = capsys.readouterr().out
    assert code == 1 and "1 at the terminal, 2 bots" in out
    assert "red sets a carrier" in out and "yellow: choose" in out


def test_dice_only(capsys):
    from companion.commands.gladiatoren import run_dice

    assert run_dice(args(count=4, seed=1, rolls=3)) == 0
    out = capsys.readouterr().out
    assert out.count("roll ") >= 3 and "[**] two red stars" in out
    assert run_dice(args(count=2, seed=1, rolls=2, json=True)) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [len(x["faces"]) for x in lines] == [2, 2]
    with pytest.raises(CommandError):
        run_dice(args(count=0))


def test_dice_on_the_simulated_display_and_in_a_loop(capsys, monkeypatch):
    from companion.commands.gladiatoren import run_dice

    assert run_dice(args(count=3, seed=2, rolls=1, hardware="sim")) == 0
    assert "roll 1:" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n5\nx\nq\n"))
    assert run_dice(args(count=1, seed=2, loop=True)) == 0
    out = capsys.readouterr().out
    assert "roll 3:" in out and "'x'" in out and "roll 4" not in out


def test_combat_assistant_auto(capsys):
    from companion.commands.gladiatoren import run_combat

    assert (
        run_combat(
            args(
                challenger="net sword sword trident",
                defender="spear sword sword shield",
                seed=3,
                auto=True,
            )
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Odds:" in out and "first roller: the challenged" in out
    assert "yellow rolls first" in out and "Result" in out


def test_combat_assistant_asks_each_side(capsys, monkeypatch):
    from companion.commands.gladiatoren import run_combat

    # "1" at a choice, Enter (ROLL) at a roll; each is refused with a word at the other prompt
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n\n" * 40))
    assert run_combat(args(challenger="schwert schwert netz", defender="lion *", seed=5)) == 0
    out = capsys.readouterr().out
    assert "the lion" in out and "Result" in out


def test_combat_assistant_takes_the_players_own_dice(capsys, monkeypatch):
    """Issue 15: wherever the companion would roll, the players may throw their own star dice
    and type what they show; the typed roll is the one used, committed like a roll of the
    companion's. Every roll here is typed as all doubles ("N 0 0" for N dice: only the line
    with the right N is a roll of those dice, the others are refused with a word)."""
    import companion.commands.gladiatoren as G

    sessions = []
    local = G.local_session

    def capture(state):
        sessions.append(local(state))
        return sessions[-1]

    monkeypatch.setattr(G, "local_session", capture)
    block = "1\n" + "".join(f"{n} 0 0\n" for n in range(1, 9))
    monkeypatch.setattr(sys, "stdin", io.StringIO(block * 30))
    assert G.run_combat(args(challenger="schwert schwert netz", defender="lion", seed=5)) == 0
    out = capsys.readouterr().out
    assert "or throw your own and type" in out and "Result" in out
    assert "is not a roll of" in out  # a line with the wrong number of dice is refused
    rolls = [a for a in sessions[0].state.history if isinstance(a, A.Roll)]
    assert rolls and all(a.counts[1:] == (0, 0) for a in rolls)  # what was typed, every time


def test_parse_side():
    from companion.commands.gladiatoren import combat_setup, parse_side

    data = default_data()
    assert parse_side("Spear 2 swords, SH *", data) == (
        "team",
        ["spear", "sword", "sword", "shield"],
        1,
    )
    assert parse_side("Loewe", data) == ("animal", "lion", 0)
    assert parse_side("bear **", data) == ("animal", "bear", 2)
    for bad, message in (
        ("sword axe", "neither"),
        ("5 sword", "1..4"),
        ("lion sword", "one "),
        ("lion **", "defeated by 2"),
        ("sword **", "0 or 1"),
        ("lion tiger", "two animals"),
    ):
        with pytest.raises(CommandError, match=message):
            parse_side(bad, data)
    config, opening, names = combat_setup("tiger", "sword", None)
    assert config.players == 3 and isinstance(opening, A.UseAnimal)
    state = new_game(config)
    assert not state.is_terminal and opening in state.legal_actions()
    config, opening, _ = combat_setup("wolf", "lion", None)
    state = new_game(config)
    assert opening in state.legal_actions()
    with pytest.raises(CommandError, match="itself"):
        combat_setup("lion", "lion", None)


def test_with_the_registry_entry_the_generic_session_journals_and_resumes(
    monkeypatch, tmp_path, capsys
):
    from companion.commands.gladiatoren import run_play
    from companion.games import registry
    from companion.table.session import GameSession, load_resume

    monkeypatch.setitem(
        registry.GAME_MODULES, "gladiatoren", "companion.games.kampf_der_gladiatoren"
    )
    path = tmp_path / "g.jsonl"
    session = start_session(
        GladiatorenConfig(players=3), bots=3, hardware="sim", seed=5, journal_path=path
    )
    assert isinstance(session, GameSession)
    roller, bot = Roller.seeded(5), BotAgent(random.Random(5))
    for _ in range(200):  # well into the fight, then the power goes
        state = session.state
        action = (
            roller.choose(state.chance_outcomes())
            if state.is_chance_node
            else bot.choose(state, state.legal_actions())
        )
        session.commit(action)
        session.apply(action)
    session.journal.close()
    pending = load_resume(path)
    assert not pending.warnings and pending.session.state.snapshot() == session.state.snapshot()
    assert run_play(args(seed=6), pending=pending) == 0
    assert "Game over" in capsys.readouterr().out
    assert read_journal(path).finished


def test_undo_typed_at_the_roll_prompt_takes_back_the_challenge():
    hw, clock = sim()
    state = position_game(
        [
            team("R sword shield shield shield", "E"),
            team("Y sword shield shield shield", "F"),
            team("Y net", "Q"),
        ]
    )
    view = Recorder()
    terminal = TerminalInput(io.StringIO("challenge E F\nundo\nchallenge E F\nr\nquit\n"))
    agents = {0: TerminalAgent(terminal, view, parse_action), 1: BotAgent(random.Random(1))}
    from companion.table.people import TableStopped

    with hw:
        table = GladiatorenTable(
            local_session(state),
            hw,
            Roller.seeded(3),
            view,
            agents,
            sleep=clock.sleep,
            operator=SimOperator(hw),
            terminal=terminal,
        )
        with pytest.raises((TableStopped, EOFError)):
            table.run()
    assert any("undone" in m for m in view.messages)
    history = table.state.history
    assert history[0] == A.Challenge("E", "E", "F") and isinstance(history[1], A.Roll)
    assert sum(isinstance(a, A.Challenge) and a.team == "E" for a in history) == 1


def test_entry_turns_light_the_seat_and_bound_undo():
    state = new_game(GladiatorenConfig(players=2))
    session = local_session(state)
    for notation in ("carrier A sword", "carrier Q sword"):
        session.commit(parse_action(notation))
        events = session.apply(parse_action(notation))
        assert [e.data["seat"] for e in events if e.kind == "turn_started"] == [
            session.state.entry_seat
        ]
    with pytest.raises(UndoRefused):
        session.undo()  # yellow's placement is not red's to take back


def test_replay_shows_a_journalled_game(capsys, tmp_path):
    """``companion replay`` reads a Kampf der Gladiatoren journal (it took every game that
    was not skirmish or Spartacus for Battle Royale and failed on this one)."""
    from companion.cli import main
    from companion.commands.gladiatoren import run_demo
    from companion.table.session import rebuild

    path = tmp_path / "d.jsonl"
    assert run_demo(args(players=2, seed=7, journal=str(path))) == 0
    state = rebuild(read_journal(path)).state
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["game"], doc["finished"], doc["actions"]) == (
        "gladiatoren",
        True,
        len(state.history),
    )
    assert doc["winners"] == [state.colours[s] for s in state.winners]
    assert doc["points"] == {state.colours[s]: state.score(s) for s in range(2)}
    assert len(doc["teams"]) == len(state.teams)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Kampf der Gladiatoren, final" in out and "Game over" in out
    assert main(["replay", str(path), "--json", "--turn", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["turn"] == 3 and not doc["finished"]
    assert main(["replay", str(path), "--turn", str(state.turn + 1)]) == 2


def test_each_challenge_is_listed_once_without_naming_who_acts_for_the_animal():
    """A long list of challenges cut the map at 80x24; with 3 to 5 players each fellow
    player doubled an animal's challenge. Those are left out of the list (a line says so)
    and stay legal: typed in full, or numbered by '?'."""
    state = position_game(
        [team("R sword", "E"), team("Y sword", "Q"), team("B sword", "O")],
        [{"animal": "lion", "field": "F", "stars": 0}],
        players=3,
    )
    adapter = GladiatorenAdapter()
    legal = state.legal_actions()
    assert A.Challenge("E", "E", "F", 2) in legal
    listed = adapter.listed_options(state, legal)
    assert A.Challenge("E", "E", "F") in listed and A.Challenge("E", "E", "F", 2) not in listed
    assert listed == [a for a in legal if a.proxy is None] and len(listed) < len(legal)
    lines = adapter.option_lines(listed)
    assert lines[-1] == "(who acts for the animal may be named too: ? lists every challenge)"
    assert lines[:-1] == [f"{i}: {a.notation}" for i, a in enumerate(listed, 1)]
    two = position_game(
        [team("R sword", "E"), team("Y sword", "Q")], [{"animal": "lion", "field": "F"}]
    )
    listed = adapter.listed_options(two, two.legal_actions())  # nobody else to name
    assert listed == two.legal_actions() and "(who acts" not in adapter.option_lines(listed)[-1]


def test_who_acts_for_the_animal_is_named_by_colour_at_the_terminal():
    """Found by a newcomer: 'challenge G F for 2' named a seat by its number, where every
    other line names it by its colour. '?' lists 'for blue', and 'for blue' is typed."""
    state = position_game(
        [team("R sword", "E"), team("Y sword", "Q"), team("B sword", "O")],
        [{"animal": "lion", "field": "F", "stars": 0}],
        players=3,
    )

    class Options(Recorder):
        listed: list[str] = []

        def prompt(self, text: str, options=(), seat=None) -> None:
            super().prompt(text, options, seat)
            self.listed = list(options)

    view = Options()
    lines = iter(["?", "challenge E F for purple", "challenge E F for Blue"])

    class Typed:
        people, holder, seats = 1, None, None

        def poll(self, timeout: float, hidden: bool = False) -> str:
            return next(lines)

    agent = TerminalAgent(Typed(), view, adapter=GladiatorenAdapter())
    chosen = agent.choose(state, state.legal_actions())
    assert chosen == A.Challenge("E", "E", "F", 2)  # blue is seat 2
    assert "1: challenge E F" in view.listed and "2: challenge E F for blue" in view.listed
    assert not any(re.search(r"for \d", line) for line in view.listed)
    assert view.messages == [
        "'purple' is no player here: 'for' names who acts for the animal, one of red, yellow, blue"
    ]
    with pytest.raises(IllegalActionError) as refused:  # the rule's reason by colour too
        state.apply(parse_action("challenge E F for 1"))
    assert refused.value.reason == (
        "yellow (the left neighbour) acts for the animal anyway: leave 'for yellow' out"
    )


def test_a_refused_challenge_names_who_acts_for_the_animal_as_it_was_typed():
    """Played by hand: 'challenge E I for blue' was refused as "'challenge E I for 2' is
    not allowed": the refusal quoted the notation's seat number, not the colour typed."""
    from companion.table.loop import decide
    from companion.table.session import GameSession, SessionSettings

    session = GameSession.start(
        GladiatorenConfig(players=3), SessionSettings(game="gladiatoren", seed=4), None
    )
    rng, dice = random.Random(4), Roller.seeded(4)
    while True:  # random play to a turn where seat 0 may challenge an animal
        state = session.state
        if state.phase == "turn" and state.current_player == 0:
            plain = [a for a in state.legal_actions() if a.notation.startswith("challenge")]
            named = [
                (a.notation, s, parse_action(f"{a.notation} for {s}"))
                for a in plain
                for s in (1, 2)
                if "for" not in a.notation
            ]
            refused = [n for n in named if not state.is_legal(n[2])]
            if refused:
                break
        chance = state.is_chance_node
        session.apply(
            dice.choose(state.chance_outcomes()) if chance else rng.choice(state.legal_actions())
        )

    class Typist:
        is_bot = False
        answers = [refused[0][2], plain[0]]

        def choose(self, state, legal):
            return self.answers.pop(0)

    class Notes:
        notes: list[tuple[int, str]] = []

        def seat_message(self, text: str, seat: int) -> None:
            self.notes.append((seat, text))

    view = Notes()
    assert decide(session, Typist(), view) == plain[0]
    ((seat, text),) = view.notes
    typed, proxy, _ = refused[0]
    colour = session.state.seat_name(proxy)
    assert seat == 0 and text.startswith(f"'{typed} for {colour}' is not allowed: ")
    assert not re.search(r"for \d", text)
