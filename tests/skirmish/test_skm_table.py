"""The skirmish at the table: bots on simulated hardware, the ROLL button and the dice on
the arena display, a person at the terminal, journal, resume after a power cut, undo."""

import io
import random
from pathlib import Path

import pytest
from skm_helpers import profile, start

from companion.dice import Roller
from companion.games.arena_skirmish import SkirmishConfig, new_game
from companion.games.arena_skirmish import actions as A
from companion.hal import CellState, HardwareConfig, ManualClock, open_hardware
from companion.table.journal import JournalError, read_journal
from companion.table.people import SimOperator, TerminalInput
from companion.table.session import UndoRefused, rebuild
from companion.table.skirmish_table import (
    SkirmishBotAgent,
    SkirmishTable,
    SkirmishTerminalAgent,
    dice_frames,
    option_lines,
    phase_prompt,
    resume,
    settings,
    start_session,
    window_frame,
)

H, B, OFF = CellState.HIGHLIGHT, CellState.BLINK, CellState.OFF


class View:
    def __init__(self) -> None:
        self.events, self.messages, self.prompts, self.attacks = [], [], [], []

    def update(self, state, events) -> None:
        self.events.extend(events)

    def message(self, text: str) -> None:
        self.messages.append(text)

    def prompt(self, text: str, options=(), seat=None) -> None:
        self.prompts.append(text)

    def show_attack(self, breakdown, distribution, title) -> None:
        self.attacks.append((breakdown, distribution, title))


def sim():
    clock = ManualClock()
    return open_hardware(HardwareConfig(profile="sim"), clock=clock), clock


def bot_table(game, seed=1):
    hw, clock = sim()
    view = View()
    rng = random.Random(seed)
    players = game.config.players
    agents = {s: SkirmishBotAgent(rng) for s in range(players)}
    table = SkirmishTable(
        game, hw, Roller.seeded(seed), view, agents, sleep=clock.sleep, operator=SimOperator(hw)
    )
    return table, hw, view


def test_dice_on_the_arena_display():
    frames = dice_frames([1, 6, 3], 5)
    assert len(frames) == 1
    assert frames[0][0] == (H, OFF, OFF, OFF, OFF)
    assert frames[0][1] == (B,) * 5  # a 6: the whole row blinks
    assert frames[0][2] == (H, H, H, OFF, OFF)
    assert frames[0][3] == frames[0][4] == (OFF,) * 5
    pages = dice_frames([5] * 7, 5)
    assert len(pages) == 2 and pages[1][1] == (H,) * 5 and pages[1][2] == (OFF,) * 5


def test_window_around_the_acting_gladiator():
    rows = ["00000", "01A#0", "00B00", "00000", "00000"]
    profiles = [profile(1, initiative=9), profile(2, initiative=1), profile(3, initiative=2)]
    s = start(profiles, [[1, 3], [2]], {1: ("c3", "N"), 2: ("c4", "N"), 3: ("a1", "S")}, rows=rows)
    f = window_frame(s, 5)
    assert f[2][2] == CellState.BLINK  # the acting gladiator in the middle
    assert f[3][2] == CellState.HIGHLIGHT  # an enemy
    assert f[0][0] == CellState.ELIMINATOR  # a team mate
    assert f[1][3] == CellState.HOLE and f[1][1] == CellState.CENTRE  # blocked, raised
    assert f[4][4] == CellState.FIELD
    f3 = window_frame(s, 3)
    assert len(f3) == 3 and f3[1][1] == CellState.BLINK
    corner = window_frame(s, 5, centre=0)
    assert corner[0][0] == CellState.OFF and corner[2][2] == CellState.ELIMINATOR


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 5)])
def test_bot_game_on_sim_hardware_runs_to_the_end(players, seed):
    game = new_game(SkirmishConfig(players=players, round_limit=150))
    table, hw, view = bot_table(game, seed)
    with hw:
        state = table.run()
        assert state.is_terminal and state.winners
        attacks = [e for e in view.events if e.kind == "attack_declared"]
        assert table.operator.presses.count("roll") == len(attacks) == len(table.rolls) > 0
        assert [len(r) for r in table.rolls] == [e.data["dice"] for e in attacks]
        assert len(view.attacks) == len(attacks)  # the odds were shown before each roll
        shown = [f for _, f in hw.sim.frames]
        for faces in table.rolls:
            assert dice_frames(faces, 5)[-1] in shown
        lit = [name for _, name, on in hw.sim.led_changes if on]
        assert lit and set(lit) <= set(state.colours)


def test_journal_rebuild_and_resume_after_a_power_cut(tmp_path):
    path = tmp_path / "game.jsonl"
    config = SkirmishConfig(round_limit=60)
    session = start_session(config, settings(bots=2, seed=4), path)
    table, hw, _ = bot_table(session, 4)
    with hw:
        final = table.run()
    session.journal.close()
    contents = read_journal(path)
    assert contents.header["game"] == "skirmish" and contents.finished
    assert any(r["type"] == "checkpoint" for _, r in contents.records)
    rebuilt = rebuild(contents)
    assert rebuilt.state.snapshot() == final.snapshot()
    with pytest.raises(JournalError, match="game is over"):
        resume(path)

    # a power cut: the file ends half-way through a record
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    cut = len(lines) // 2
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(b"".join(lines[:cut]) + lines[cut][: len(lines[cut]) // 2])
    resumed, warnings = resume(torn)
    assert warnings and "incomplete" in warnings[0]
    assert 0 < len(resumed.state.history) < len(final.history)
    table2, hw2, _ = bot_table(resumed, 9)
    with hw2:
        state = table2.run()
    resumed.journal.close()
    assert state.is_terminal
    assert rebuild(read_journal(torn)).state.snapshot() == state.snapshot()


def test_resume_refuses_changed_data(tmp_path):
    from skm_helpers import data_file

    source = data_file([profile(i) for i in range(1, 5)])
    copy = tmp_path / "data.json"
    copy.write_text(Path(source).read_text())
    config = SkirmishConfig(data_file=str(copy))
    session = start_session(config, settings(), tmp_path / "g.jsonl")
    session.journal.close()
    copy.write_text(Path(source).read_text().replace('"life": 5', '"life": 6', 1))
    with pytest.raises(JournalError, match="changed since the game started"):
        resume(tmp_path / "g.jsonl")


def test_undo_within_an_activation_and_its_journal(tmp_path):
    profiles = [profile(1, initiative=9), profile(2, initiative=1, life=9)]
    s = start(profiles, [[1], [2]], {1: ("c5", "N"), 2: ("c3", "S")})
    path = tmp_path / "u.jsonl"
    session = start_session(s.config, settings(), path)
    for action in s.history:  # bring the journalled session to the same place
        session.commit(action)
        session.apply(action)
    assert session.undoable() == 0  # a new activation started
    for action in (A.TurnLeft(), A.TurnRight(), A.Step()):
        session.commit(action)
        session.apply(action)
    assert session.undoable() == 3
    state = session.undo(2)
    assert state.points_left == 3 and state.gladiators[1].facing == 3
    for action in (A.TurnRight(), A.Step(), A.Melee(2)):
        session.commit(action)
        session.apply(action)
    with pytest.raises(UndoRefused, match="only 4"):
        session.undo(5)
    session.commit(A.HitDie(5))
    session.apply(A.HitDie(5))
    with pytest.raises(UndoRefused, match="nothing to undo"):
        session.undo()
    session.journal.close()
    rebuilt = rebuild(read_journal(path))
    assert rebuilt.state.snapshot() == session.state.snapshot()


def test_a_person_at_the_terminal(tmp_path):
    profiles = [profile(1, initiative=9, movement=3), profile(2, initiative=1, life=1)]
    s = start(profiles, [[1], [2]], {1: ("c5", "N"), 2: ("c3", "E")})
    hw, clock = sim()
    view = View()
    lines = "step\nbogus\nundo\nstep, melee 2\nroll\n"
    terminal = TerminalInput(io.StringIO(lines))
    agents = {0: SkirmishTerminalAgent(terminal, view), 1: SkirmishBotAgent(random.Random(1))}
    table = SkirmishTable(
        s,
        hw,
        Roller.seeded(3),
        view,
        agents,
        sleep=clock.sleep,
        operator=SimOperator(hw),
        terminal=terminal,
    )
    with hw:
        state = table.run()
    assert state.is_terminal and state.winners == [0]
    assert any("'bogus' is not one of your actions now: " in m for m in view.messages)
    assert any("took back 1 choice(s)" in m for m in view.messages)
    assert any("press ROLL" in p for p in view.prompts)
    kinds = [a.kind for a in state.history]
    assert kinds.count("step") == 1 and "melee" in kinds


def test_prompts_and_grouped_options():
    s = new_game(SkirmishConfig(teams=((1,), (2,))))
    s.apply(A.RollOff(0))
    assert phase_prompt(s) == "purple: you won the roll-off - choose an entrance"
    assert option_lines(s.legal_actions())[0] == "1: entrance A"
    s.apply(A.ChooseEntrance("A"))
    assert "within 5 fields of entrance" in phase_prompt(s)
    lines = option_lines(s.legal_actions())
    assert len(lines) == 1 and lines[0].startswith("place <cell> <N|E|S|W>, cells: ")
    assert option_lines([A.Step(), A.Melee(3)]) == ["1: step", "2: melee 3"]


def test_a_number_typed_at_a_list_by_kind_is_the_value_shown_not_a_hidden_index():
    """Found by a newcomer: the pick list shows 'pick <1|3|5|...>' and typing 9 picked
    gladiator 17, the ninth of a list nobody had seen. A number is an option's number only
    once '?' has numbered them."""
    from companion.games.registry import get_game

    g = get_game("skirmish")
    state = g.new_game(g.config(players=2))
    assert state.phase == "select" and len(state.legal_actions()) > 24  # listed by kind
    view = View()
    agent = SkirmishTerminalAgent(TerminalInput(io.StringIO("9\n4\n?\n9\n")), view)
    assert agent.choose(state, state.legal_actions()).notation == "pick 9"
    assert agent.choose(state, state.legal_actions()).notation == "pick 17"  # after '?'
    assert any("the options here are not numbered" in m for m in view.messages)  # 4: none
