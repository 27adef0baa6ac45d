"""The terminal views of all four games (issue 15): the live view fits 80x24 and 100x40
with the prompt and the last events on screen; printed, every prompt shows (a button's
too), options never break inside, ``board`` prints the board; no internal names leak."""

from __future__ import annotations

import argparse
import io
import random
import sys

import pytest
from rich.console import Console

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/table")
from table_helpers import game_table  # noqa: E402

from companion.dice import Roller  # noqa: E402
from companion.games.registry import get_game  # noqa: E402
from companion.table.people import BotAgent  # noqa: E402
from companion.table.session import GameSession, SessionSettings  # noqa: E402

SIZES = [(80, 24), (100, 40)]


def views():
    from companion.ui.dashboard import Dashboard
    from companion.ui.gladiatoren import GladiatorenView
    from companion.ui.skirmish import SkirmishDashboard
    from companion.ui.spartacus import SpartacusView

    return {
        "battle-royale": lambda c, hw: Dashboard(c, hw, live=True),
        "gladiatoren": lambda c, hw: GladiatorenView(c, hw, live=True),
        "skirmish": lambda c, hw: SkirmishDashboard(c, hw, live=True),
        "spartacus": lambda c, hw: SpartacusView(c, hw=hw, live=True),
    }


def config(game: str):
    if game == "spartacus":
        from companion.games.spartacus import SpartacusConfig

        return SpartacusConfig(players=3)
    if game == "skirmish":
        from companion.games.arena_skirmish import SkirmishConfig

        return SkirmishConfig(players=2, round_limit=30)
    return get_game(game).config(players=3 if game != "skirmish" else 2)


def played(game: str, view, steps: int, seed: int = 4):
    """A bot game ``steps`` steps in, shown on ``view``."""
    conf = config(game)
    session = GameSession(get_game(game).new_game(conf), conf, SessionSettings(game=game))
    table, hw = game_table(game, session, view, seed=seed)
    view.hw = hw
    with hw:
        view.update(session.state, [])
        for _ in range(steps):
            if session.state.is_terminal:
                break
            table.step()
    return table


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("game", ["battle-royale", "gladiatoren", "skirmish", "spartacus"])
def test_the_live_view_fits_with_the_prompt_and_the_last_events(game, width, height):
    console = Console(record=True, width=width, height=height, file=io.StringIO())
    view = views()[game](console, None)
    played(game, view, 120)
    prompt = "red: press ROLL for the dice - or throw your own and type the faces"
    view.prompt(prompt, ["1: first option", "2: second option"])
    view.message("the last message")
    console.print(view.render())
    lines = console.export_text().splitlines()
    screen = "\n".join(lines)
    assert len(lines) <= height
    assert "> red: press ROLL" in screen and "2: second option" in screen
    assert "the last message" in screen
    last = [line.plain for line in list(view.log)[-3:-1]]
    assert all(text[:30] in screen for text in last)  # the events before the message
    assert max(len(line) for line in lines) <= width


def test_printed_every_prompt_shows_and_options_never_break():
    from companion.ui.dashboard import Dashboard

    console = Console(record=True, width=80, file=io.StringIO())
    view = Dashboard(console, None, live=False)
    view.prompt("purple: press ROLL for the Doom die")  # a button: no options
    fields = ["a1", "b2", "c3", "d4", "e5"]
    options = [f"{i}: figure {f} purple" for i, f in enumerate(fields, 1)]
    options *= 4
    view.prompt("purple: choose", options)
    out = console.export_text()
    assert "> purple: press ROLL for the Doom die" in out
    for option in set(options):
        assert option in out  # each option whole on one line
    assert max(len(line) for line in out.splitlines()) <= 80


def test_board_typed_prints_the_board_and_the_prompt_again():
    from companion.ui.dashboard import Dashboard

    console = Console(record=True, width=100, file=io.StringIO())
    view = Dashboard(console, None, live=False)
    table = played("battle-royale", view, 30)
    view.prompt("purple: choose", ["1: end"])
    before = console.export_text(clear=True)
    view.update(table.state, [])  # what 'board' (and a resume) does
    view.prompt("purple: choose", ["1: end"])
    after = console.export_text()
    assert "Players" in before
    assert "Arena" in after and "Players" in after and "> purple: choose" in after


def test_no_internal_names_in_battle_royale_output(capsys, tmp_path):
    from companion.commands.demo import run

    args = argparse.Namespace(
        game="battle-royale",
        players=4,
        seed=5,
        layout="first-game",
        data=None,
        speed=1.0,
        journal=str(tmp_path / "d.jsonl"),
        hardware="sim",
    )
    assert run(args) == 0
    out = capsys.readouterr().out
    for name in ("battle_royale", "move_eliminator", "free_choice", " 1 bots"):
        assert name not in out


def test_typed_doom_faces_in_words_are_read():
    from companion.games.battle_royale import actions as A
    from companion.table.battle_royale_table import BattleRoyaleAdapter

    adapter = BattleRoyaleAdapter()
    assert adapter.parse("choose move eliminator") == A.ChooseAction("move_eliminator")
    assert adapter.parse("choose battle-royale") == A.ChooseAction("battle_royale")
    lines = adapter.option_lines([A.ChooseAction("free_choice"), A.ChooseAction("explosion")])
    assert lines == ["1: choose free choice", "2: choose explosion"]


def test_who_plays_in_words():
    from companion.commands.at_table import who_plays

    assert who_plays(1, 1) == "1 at the terminal, 1 bot"
    assert who_plays(2, 0) == "2 at the terminal, no bots"
    assert who_plays(1, 3) == "1 at the terminal, 3 bots"


def test_capture_and_push_prompts_name_the_field():
    from companion.games.battle_royale import BattleRoyaleConfig, new_game
    from companion.table.battle_royale_table import BattleRoyaleAdapter

    adapter = BattleRoyaleAdapter()
    state = new_game(BattleRoyaleConfig(players=3))
    roller, rng = Roller.seeded(2), random.Random(2)
    seen = set()
    while not state.is_terminal and len(seen) < 2:
        if state.phase in ("capture", "push"):
            text = adapter.ask(state, state.current_player)
            cell = state.br_cell if state.phase == "capture" else state.push_stack[-1][0]
            from companion.games.battle_royale.layout import field_name

            assert field_name(cell) in text
            seen.add(state.phase)
        action = (
            roller.choose(state.chance_outcomes())
            if state.is_chance_node
            else BotAgent(rng).choose(state, state.legal_actions())
        )
        state.apply(action)
    assert "capture" in seen


def test_an_empty_config_file_does_not_switch_to_assist_mode(tmp_path, monkeypatch, capsys):
    from companion.cli import main

    empty = tmp_path / "table.toml"
    empty.write_text("")
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code = main(
        ["play", "battle-royale", "--config", str(empty), "--journal", str(tmp_path / "j.jsonl")]
    )
    out = capsys.readouterr().out
    assert code == 1 and "tracked mode" in out and "3 bots" in out


def typing_views():
    from companion.ui.dashboard import Dashboard
    from companion.ui.gladiatoren import GladiatorenView
    from companion.ui.skirmish import SkirmishDashboard
    from companion.ui.spartacus import SpartacusView

    return {
        "battle-royale": lambda c: Dashboard(c, None, live=True, typing=True),
        "gladiatoren": lambda c: GladiatorenView(c, live=True, typing=True),
        "skirmish": lambda c: SkirmishDashboard(c, live=True, typing=True),
        "spartacus": lambda c: SpartacusView(c, live=True, typing=True),
    }


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("game", ["battle-royale", "gladiatoren", "skirmish", "spartacus"])
def test_while_a_person_types_the_live_view_keeps_the_prompt_above_the_input_row(
    game, width, height
):
    """Issue 15: a person typing sees the live view redrawn, not line after line; the
    prompt, its options and the last events stay on screen and the bottom row is left for
    what the person types."""
    console = Console(record=True, width=width, height=height, file=io.StringIO())
    view = typing_views()[game](console)
    played(game, view, 120)
    assert console.export_text() == ""  # nothing printed line by line
    view.prompt("red: choose (number or action; help for more)", ["1: first", "2: second"])
    view.message("the last message")
    console.print(view.screen())
    lines = console.export_text().splitlines()
    assert len(lines) == height and not lines[-1].strip()  # the input row, empty
    screen = "\n".join(lines[:-1])
    assert "> red: choose" in screen and "2: second" in screen
    assert "the last message" in screen
    last = [line.plain for line in list(view.log)[-3:-1]]
    assert all(text[:30] in screen for text in last)
    assert max(len(line) for line in lines) <= width


def test_on_a_terminal_the_typed_live_view_redraws_the_whole_screen_and_waits_at_the_bottom():
    """Each refresh goes to the top of the alternate screen and leaves the cursor at the
    start of the input row (a carriage return after the last column); when the table stops,
    the board and the last events stay on the normal screen."""
    from companion.ui.spartacus import SpartacusView

    out = io.StringIO()
    console = Console(file=out, width=80, height=24, force_terminal=True, force_interactive=True)
    with SpartacusView(console, live=True, typing=True) as view:
        played("spartacus", view, 30)
        view.prompt("batiatus: choose", ["1: done"])
        screen = out.getvalue()
        assert screen.startswith("\x1b[?1049h")  # the alternate screen
        assert screen.endswith("\r")  # the input row's start
        assert screen.count("\x1b[H") > 2  # every refresh from the top
    after = out.getvalue()[len(screen) :]
    assert "\x1b[?1049l" in after and "batiatus" in after.split("\x1b[?1049l")[-1]


def test_enter_alone_at_a_choice_redraws_the_typed_live_view():
    """Found playing in tmux: Enter alone at a choice moved the terminal's rows (the input row
    scrolled) and nothing drew the view again; now it is redrawn."""
    from companion.games.spartacus import SpartacusConfig, new_game
    from companion.table.people import TerminalInput
    from companion.table.spartacus_table import terminal_agent
    from companion.ui.spartacus import SpartacusView

    state = new_game(SpartacusConfig(fight=None, players=2))
    while state.is_chance_node:
        state.apply(state.chance_outcomes()[0][0])
    view = SpartacusView(Console(file=io.StringIO(), width=100), live=True, typing=True)
    drawn = []
    view.redraw = lambda: drawn.append(True)
    agent = terminal_agent(view, TerminalInput(io.StringIO("\n\n1\n")))
    agent.choose(state, state.legal_actions())
    assert len(drawn) >= 1


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_spartacus_attack_shows_both_fighters_and_its_odds_on_a_small_terminal(width, height):
    """Found playing in tmux at 80x24: before an attack the board ran past its rows, and
    the live view cut off fighter II's row and the odds the person decides on."""
    from companion.games.spartacus import FighterSpec, SpartacusConfig, new_game
    from companion.ui.spartacus import SpartacusView

    state = new_game(
        SpartacusConfig(
            fight=(
                FighterSpec("Crixus", 4, 3, 3, ("gladius",), ("pair-extra-wound",)),
                FighterSpec("Agron", 3, 4, 2, ("helm",), ("defence-triple-counter",)),
            )
        )
    )
    rng = random.Random(3)
    while not any(a.kind == "attack" for a in state.legal_actions()):  # fighters closing in
        if state.is_chance_node:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        moves = [a for a in state.legal_actions() if a.kind in ("step", "first")]
        state.apply(moves[0] if moves else state.legal_actions()[0])
    console = Console(record=True, width=width, height=height, file=io.StringIO())
    view = SpartacusView(console, live=True, typing=True)
    view.update(state, [])
    view.attack_odds(state, state.legal_actions())
    view.prompt("I: choose (number, action; help for more)", ["1: attack", "2: end"])
    console.print(view.screen())
    screen = console.export_text()
    assert len(screen.splitlines()) == height
    assert "Crixus" in screen and "Agron" in screen  # both fighters' rows
    assert "wounds 0:" in screen and "decapitation" in screen and "takes wounds back" in screen
    assert "2: end" in screen
    assert "··" in screen  # the arena too, at 80x24 without the table's frame and title
