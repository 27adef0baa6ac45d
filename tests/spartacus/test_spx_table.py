"""At the table: the combat assistant, full games, dice on the display, journal, undo, resume."""

from __future__ import annotations

import argparse
import contextlib
import io
import random

import pytest
from rich.console import Console

from companion.commands import spartacus as S
from companion.dice import Roller
from companion.games.spartacus import SpartacusConfig, replay
from companion.games.spartacus import actions as A
from companion.hal import CellState, HardwareConfig, ManualClock, open_hardware
from companion.table.journal import read_journal
from companion.table.people import SimOperator, TerminalInput
from companion.table.session import UndoRefused, rebuild
from companion.table.spartacus_table import (
    SpartacusTable,
    bot_agent,
    dice_frame,
    open_session,
    resume_spartacus,
    terminal_agent,
)
from companion.ui.spartacus import SpartacusView, roll_text


def quiet() -> Console:
    return Console(file=io.StringIO(), width=100)


def fight_config() -> SpartacusConfig:
    data = SpartacusConfig().data
    return SpartacusConfig(
        fight=(
            S.parse_fighter("spartacus+gladius+netz", data),
            S.parse_fighter("agron+helm+dreizack", data),
        ),
        arena="small",
    )


def test_dice_frame_mapping() -> None:
    frame = dice_frame((6, 3, 1))
    assert frame[0] == (CellState.HIGHLIGHT,) * 5
    assert frame[1] == (CellState.FIELD,) * 3 + (CellState.OFF,) * 2
    assert frame[2][0] == CellState.FIELD and frame[3] == (CellState.OFF,) * 5


def test_roll_text_shows_faces_on_their_colour() -> None:
    text = roll_text([6, 4], "red")
    assert text.plain == "[6] [4]"
    assert all("red" in str(span.style) for span in text.spans)


def test_parse_fighter_specs() -> None:
    data = SpartacusConfig().data
    spec = S.parse_fighter("Crixus=4/3/2@attack-triple-extra+dreizack", data)
    assert (spec.name, spec.attack, spec.defence, spec.speed) == ("Crixus", 4, 3, 2)
    assert spec.abilities == ("attack-triple-extra",) and spec.equipment == ("dreizack",)
    card = S.parse_fighter("agron+helm", data)
    assert card.card == "agron" and card.abilities == ("defence-triple-counter",)
    with pytest.raises(S.CommandError, match="attack/defence/speed"):
        S.parse_fighter("Bob=3/3", data)
    with pytest.raises(S.CommandError, match="no gladiator"):
        S.parse_fighter("nobody", data)


def run_table(config, bots, seed, tmp_path, stream=None, steps=None):
    session = open_session(
        config, bots=bots, hardware="sim", seed=seed, path=tmp_path / "game.jsonl"
    )
    clock = ManualClock()
    hw = open_hardware(HardwareConfig(profile="sim"), clock=clock)
    operator = SimOperator(hw, rng=random.Random(seed))
    view = SpartacusView(quiet())
    terminal = TerminalInput(stream) if stream is not None else None
    agents = {
        s: bot_agent(random.Random(seed + s)) if s in bots else terminal_agent(view, terminal)
        for s in range(config.players)
    }
    table = SpartacusTable(
        session,
        hw,
        Roller.seeded(seed),
        view,
        agents,
        operator=operator,
        terminal=terminal,
        sleep=clock.sleep,
    )
    return session, hw, operator, table, view


def test_combat_assistant_with_bots_journals_and_shows_dice(tmp_path) -> None:
    config = fight_config()
    session, hw, operator, table, view = run_table(config, (0, 1), 5, tmp_path)
    with hw:
        state = table.run()
    session.journal.close()
    assert state.is_terminal and len(state.winners) == 1
    rolls = [a for a in state.history if isinstance(a, A.DiceRoll)]
    assert operator.presses.count("roll") == len(rolls)  # ROLL pressed for every roll
    assert len(table.rolls) == len(rolls)
    contents = read_journal(tmp_path / "game.jsonl")
    assert contents.header["game"] == "spartacus" and contents.finished
    assert rebuild(contents).state.snapshot() == state.snapshot()


def test_a_person_types_at_the_terminal(tmp_path) -> None:
    config = fight_config()
    # "1" takes the first option at a choice, "r" presses ROLL at a roll (each is refused
    # with a word at the other kind of prompt)
    lines = io.StringIO("?\nnonsense\nno\n" + "1\nr\n" * 400)
    session, hw, operator, table, view = run_table(config, (1,), 2, tmp_path, stream=lines)
    with hw, contextlib.suppress(EOFError):
        table.run()
    assert any("is not one of your actions now" in line for line in view.lines)
    assert len(session.state.history) > 10


def test_undo_takes_back_choices_never_dice(tmp_path) -> None:
    session = open_session(
        fight_config(), bots=(), hardware="sim", seed=None, path=tmp_path / "u.jsonl"
    )
    state = session.state
    session.commit(A.UseNet("I", False))
    session.apply(A.UseNet("I", False))
    assert session.undoable() == 1
    session.undo(1)
    assert session.state.fight.phase == "net"
    for text in ("net I no", "roll I initiative 6-6-6", "roll II initiative 1-1"):
        action = A.parse_action(text)
        session.commit(action)
        session.apply(action)
    with pytest.raises(UndoRefused, match="die roll"):
        session.undo(1)
    session.commit(A.ChooseFirst("II"))
    session.apply(A.ChooseFirst("II"))
    session.undo(1)
    session.commit(A.ChooseFirst("I"))
    session.apply(A.ChooseFirst("I"))
    session.journal.close()
    again = rebuild(read_journal(tmp_path / "u.jsonl"))
    assert again.state.snapshot() == session.state.snapshot()
    assert state is not session.state  # undo replays into a new state


def test_resume_after_a_power_cut_continues_the_game(tmp_path) -> None:
    config = SpartacusConfig(players=2, length="quick")
    session, hw, operator, table, view = run_table(config, (0, 1), 9, tmp_path)
    with hw:
        for _ in range(60):
            table.step()
    assert not session.state.is_terminal
    session.journal.close()
    with open(tmp_path / "game.jsonl", "ab") as f:
        f.write(b'{"type":"action","n":99')  # a torn record
    resumed = resume_spartacus(tmp_path / "game.jsonl")
    assert resumed.state.snapshot() == session.state.snapshot()
    clock = ManualClock()
    with open_hardware(HardwareConfig(profile="sim"), clock=clock) as hw2:
        table2 = SpartacusTable(
            resumed,
            hw2,
            Roller.seeded(1),
            SpartacusView(quiet()),
            {s: bot_agent(random.Random(s)) for s in (0, 1)},
            operator=SimOperator(hw2),
            sleep=clock.sleep,
        )
        final = table2.run()
    resumed.journal.close()
    assert final.is_terminal
    assert replay(config, final.history).snapshot() == final.snapshot()
    assert rebuild(read_journal(tmp_path / "game.jsonl")).state.snapshot() == final.snapshot()


def test_secret_bids_are_never_shown(tmp_path) -> None:
    from spx_helpers import draw_all, setup_game

    state = setup_game(players=2)
    draw_all(state)
    state._start_market()
    state.apply(A.Done())
    state.apply(A.Done())
    state.apply(state.chance_outcomes()[0][0])
    assert state.phase == "bid"
    view = SpartacusView(quiet())
    agent = terminal_agent(view, TerminalInput(io.StringIO("7\n")))
    assert agent.choose(state, state.legal_actions()) == A.Bid(7)
    out = view.console.file.getvalue()
    assert "hidden" in out and "7" not in out.split("hidden")[-1]
    events = state.apply(A.Bid(7))
    assert "7" not in events[0].text


def test_run_fight_command_autoplay(tmp_path, capsys) -> None:
    args = argparse.Namespace(
        fighter_1="spartacus+gladius",
        fighter_2="Crixus=4/3/2+dreizack",
        bots="none",
        autoplay=True,
        arena="small",
        hardware="sim",
        seed=4,
        data=None,
        journal=str(tmp_path / "f.jsonl"),
        no_odds=False,
    )
    assert S.run_fight(args) == 0
    out = capsys.readouterr().out
    assert "odds," in out and "wins" in out and "[" in out


@pytest.mark.slow
def test_demo_and_play_autoplay(tmp_path, capsys) -> None:
    demo = argparse.Namespace(players=2, seed=3, journal=str(tmp_path / "d.jsonl"), data=None)
    assert S.run_demo(demo) == 0
    play = argparse.Namespace(
        players=3,
        autoplay=True,
        bots=None,
        seed=5,
        hardware="sim",
        journal=str(tmp_path / "p.jsonl"),
        data=None,
        start_player=None,
    )
    assert S.run_play(play) == 0
    assert "wins" in capsys.readouterr().out


def test_cli_parser_fragment() -> None:
    parser = argparse.ArgumentParser(prog="companion")
    sub = parser.add_subparsers(dest="command")
    S.configure_parser(sub.add_parser("spartacus"))
    args = parser.parse_args(
        ["spartacus", "fight", "--bots", "both", "--seed", "1", "-1", "crixus+axt"]
    )
    assert args.handler == "companion.commands.spartacus:run_fight"
    assert args.fighter_1 == "crixus+axt" and args.bots == "both"
    args = parser.parse_args(["spartacus", "resume", "x.jsonl"])
    assert args.handler == "companion.commands.spartacus:run_resume"


def test_resume_command_finishes_a_journalled_fight(tmp_path, capsys) -> None:
    session, hw, operator, table, view = run_table(fight_config(), (0, 1), 3, tmp_path)
    with hw:
        for _ in range(12):
            table.step()
    session.journal.close()
    args = argparse.Namespace(journal=str(tmp_path / "game.jsonl"), hardware=None)
    assert S.run_resume(args) == 0
    contents = read_journal(tmp_path / "game.jsonl")
    assert contents.finished
    final = rebuild(contents)
    doc = S.replay_document(final, "game.jsonl", len(contents.records))
    assert doc["over"] and doc["winners"] and doc["fight"]["level"] and "gold" not in doc
    S.print_replay(final, "game.jsonl")
    with pytest.raises(S.CommandError, match="over"):
        S.run_resume(args)


def test_the_generic_game_session_runs_spartacus(tmp_path, monkeypatch) -> None:
    """Once Spartacus is in the registry, the table uses the shared GameSession (journal,
    checkpoints at every round, undo barrier at every roll) and 'companion resume' works."""
    from companion.games import registry
    from companion.table import session as generic

    if "game" not in generic.SessionSettings.__dataclass_fields__:
        pytest.skip("the generic session does not take other games yet")
    monkeypatch.setitem(registry.GAME_MODULES, "spartacus", "companion.games.spartacus")
    config = SpartacusConfig(players=2)
    session, hw, operator, table, view = run_table(config, (0, 1), 4, tmp_path)
    assert isinstance(session, generic.GameSession)
    with hw:
        for _ in range(80):
            table.step()
    session.journal.close()
    records = [r for _, r in read_journal(tmp_path / "game.jsonl").records]
    assert any(r["type"] == "checkpoint" for r in records)
    resumed, warnings = generic.resume_session(tmp_path / "game.jsonl")
    assert resumed.state.snapshot() == session.state.snapshot() and not warnings
    resumed.journal.close()
    args = argparse.Namespace(journal=str(tmp_path / "game.jsonl"), hardware=None)
    assert S.run_resume(args) == 0
    contents = read_journal(tmp_path / "game.jsonl")
    assert contents.finished
    final = generic.rebuild(contents)
    doc = S.replay_document(final, "game.jsonl", len(contents.records))
    assert doc["over"] and doc["winners"] and set(doc["gold"]) == {"batiatus", "solonius"}
    S.print_replay(final, "game.jsonl")


def test_a_net_is_declared_without_echo() -> None:
    state = fight_config_state()
    view = SpartacusView(quiet())
    agent = terminal_agent(view, TerminalInput(io.StringIO("yes\n")))
    assert agent.choose(state, state.legal_actions()) == A.UseNet("I", True)
    assert "hidden" in view.console.file.getvalue()


def fight_config_state():
    from companion.games.spartacus import new_game

    return new_game(fight_config())


def test_the_prompt_offers_a_house_only_its_own_cards_others_type_their_name() -> None:
    """Out-of-turn plays are legal for other houses, but the house asked is never shown them
    (they name another house's cards); another house types its play with its name."""
    from spx_helpers import draw_all, give_hand, setup_game

    state = setup_game(players=3, host=0)
    draw_all(state)
    state.hands[1] = {}
    give_hand(state, 1, "wache")
    assert A.PostGuard("wache", "solonius") in state.legal_actions()
    view = SpartacusView(quiet())
    agent = terminal_agent(
        view, TerminalInput(io.StringIO("\n?\npost-guard wache solonius\n"))
    )  # Enter: the house rules done by hand, acknowledged first
    assert agent.choose(state, state.legal_actions()) == A.PostGuard("wache", "solonius")
    out = view.console.file.getvalue()
    assert "every legal action of batiatus" in out and "post-guard wache" not in out


def schemed_with_bots_answering(bots: int):
    """Batiatus (seat 0, a person) schemes Illegale Dienste (+4 gold, no die, no card) and
    the other houses pass: the session, and batiatus's gold before the scheme."""
    from spx_helpers import setup_game

    from companion.table.session import GameSession, SessionSettings

    state = setup_game(players=3)
    while state.phase == "draw":
        outcomes = [a for a, _ in state.chance_outcomes()]
        wanted = [a for a in outcomes if a.notation == "draw batiatus intrigue illegale-dienste"]
        state.apply((wanted or outcomes)[0])
    session = GameSession(state, state.config, SessionSettings(game="spartacus", bots=bots))
    gold = state.gold[0]
    scheme = A.parse_action("scheme illegale-dienste batiatus")
    session.commit(scheme)
    session.apply(scheme)
    while not (session.state.phase == "intrigue_turn" and session.state.current_player == 0):
        answer = A.parse_action("pass")
        session.commit(answer)
        session.apply(answer)
    assert session.state.gold[0] == gold + 4
    return session, gold


def test_undo_takes_back_the_persons_choice_not_the_bots_answer_after_it() -> None:
    """Found by a newcomer: 'undo' after a scheme took back the last bot's pass, which the
    bot made again at once ('undid 1 action(s)', and the scheme stood)."""
    session, gold = schemed_with_bots_answering(bots=2)
    assert session.undo_choices(0, 1) == 3  # the scheme and the two passes after it
    state = session.state
    assert state.phase == "intrigue_turn" and state.current_player == 0
    assert state.gold[0] == gold and state.history[-1].is_chance
    with pytest.raises(UndoRefused, match="nothing of yours to undo") as refused:
        session.undo_choices(0, 1)
    assert "Eliminator" not in str(refused.value)  # Battle Royale's words, not Spartacus's


def test_undo_never_takes_back_another_persons_move() -> None:
    session, _ = schemed_with_bots_answering(bots=1)  # solonius is a person, glaber a bot
    with pytest.raises(UndoRefused, match="solonius's move too: solonius may undo it first"):
        session.undo_choices(0, 1)
    with pytest.raises(UndoRefused, match="only 1 of your choices"):
        session.undo_choices(0, 2)
