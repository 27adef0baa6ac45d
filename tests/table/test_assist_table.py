"""Assist mode at the table, driven by button presses on simulated hardware."""

import io
import random

import pytest
from table_helpers import AnsweringView, RecordingView, sim_hardware

from companion.dice import Roller
from companion.games.battle_royale import BattleRoyaleConfig
from companion.games.battle_royale.assist import new_assist_game
from companion.games.battle_royale.layout import parse_field
from companion.hal import CellState
from companion.table.assist import AssistTable
from companion.table.people import SimOperator, TerminalInput


class FixedRoller:
    """Rolls the faces it is told to, in order (chance nodes other than rolls: first outcome)."""

    def __init__(self, *faces):
        self.faces = list(faces)

    def choose(self, outcomes):
        if not hasattr(outcomes[0][0], "face"):
            return outcomes[0][0]
        face = self.faces.pop(0)
        return next(a for a, _ in outcomes if a.face == face)


def table(*faces, players=4, layout="first-game"):
    hw, clock = sim_hardware()
    state = new_assist_game(BattleRoyaleConfig(players=players, start_player=0, layout=layout))
    view = AnsweringView(hw)
    loop = AssistTable(state, hw, FixedRoller(*faces), view, sleep=clock.sleep)
    loop.react(state.initial_events)
    return loop, hw, view


def at_a_terminal(typed: str, players: int):
    """An assist table with a terminal (``companion play --mode assist``) reading ``typed``."""
    hw, clock = sim_hardware()
    state = new_assist_game(BattleRoyaleConfig(players=players, start_player=0))
    view = RecordingView()
    terminal = TerminalInput(io.StringIO(typed))
    loop = AssistTable(state, hw, Roller.seeded(1), view, sleep=clock.sleep, terminal=terminal)
    return loop, hw, view


def cell_state(hw, name):
    r, c = divmod(parse_field(name), 5)
    return hw.display.frame[r][c]


def test_roll_button_ends_movement_and_rolls_once():
    loop, hw, view = table("battle_royale")
    with hw:
        assert hw.status_leds.state()["purple"]  # turn LED of the start player
        view.answer("roll")
        loop.step()  # movement done
        loop.step()  # the same press rolls: no second press needed
        assert loop.state.phase == "battle_royale"
        assert hw.status_leds.state()["battle_royale"]
        view.answer("confirm")
        loop.step()
        assert loop.state.phase == "movement" and loop.state.active == 1
        assert hw.status_leds.state()["grey"] and not hw.status_leds.state()["purple"]


def test_move_eliminator_select_cycles_targets_confirm_chooses():
    loop, hw, view = table("move_eliminator")
    with hw:
        view.answer("roll")
        loop.step()
        loop.step()
        assert loop.state.phase == "move_eliminator"
        targets = loop.state.eliminator_targets()
        view.answer("select", "select", "confirm")
        loop.step()
        assert loop.state.eliminator == targets[2]
        # while choosing, the candidate blinked and the other targets were highlighted
        seen = {s for _, frame in hw.sim.frames for row in frame for s in row}
        assert {CellState.BLINK, CellState.HIGHLIGHT} <= seen
        assert hw.display.frame[targets[2] // 5][targets[2] % 5] == CellState.ELIMINATOR


def test_presses_made_before_a_question_appeared_do_not_answer_it():
    """CONFIRM and SELECT pressed while the table was busy (here: rolling the Doom die)
    used to answer the next question: the Eliminator moved to a target nobody had seen
    selected. They are dropped; the presses made once the question is shown count."""
    loop, hw, view = table("move_eliminator")
    with hw:
        view.answer("roll")
        loop.step()  # movement done
        hw.sim.tap("confirm")  # while the die rolls: no target shown yet
        hw.sim.hold("select")  # held (undo) while it rolls: no undo either
        loop.step()  # the Doom die: move the Eliminator
        assert loop.state.phase == "move_eliminator"
        targets = loop.state.eliminator_targets()
        view.answer("select", "confirm")
        loop.step()
        assert loop.state.eliminator == targets[1] and not view.answers
        assert not any("undid" in m for m in view.messages)


LINE = "#....\n##...\n.#C..\n.....\n....."


def test_explosion_blinks_fires_on_the_red_button_and_collapsed_tiles_blink_until_confirmed():
    loop, hw, view = table("move_eliminator", "explosion", layout=LINE)
    with hw:
        view.answer("roll")
        loop.step()
        loop.step()
        options = loop.state.eliminator_targets()
        presses = options.index(parse_field("b2"))
        view.answer(*["select"] * presses, "confirm")
        loop.step()
        assert loop.state.eliminator == parse_field("b2")
        # next player's turn: explosion under b2
        view.answer("roll")
        loop.step()
        loop.step()
        assert loop.state.phase == "armed"
        assert hw.sim.pulses == []  # nothing fires before the red button
        hw.sim.tap("trigger")
        loop.step()
        assert len(hw.sim.pulses) == 1 and abs(hw.sim.pulses[0].length_s - 0.06) < 1e-9
        assert loop.state.phase == "remove_fields"
        assert {cell_state(hw, n) for n in ("a1", "a2", "b2")} == {CellState.BLINK}
        view.answer("confirm")
        loop.step()
        assert cell_state(hw, "a1") == CellState.HOLE
        assert not hw.sim.coil_on


def test_two_players_extra_roll_only_an_explosion_counts():
    loop, hw, view = table("move_eliminator", "battle_royale", players=2)
    with hw:
        view.answer("roll")
        loop.step()
        loop.step()
        view.answer("confirm")
        loop.step()
        assert loop.state.phase == "extra_roll"
        hw.sim.tap("roll")
        loop.step()
        assert any(e.kind == "nothing_happens" for e in view.events)
        assert loop.state.active == 1


def test_driver_fault_asks_for_the_tile_by_hand():
    loop, hw, view = table("move_eliminator", "explosion", layout=LINE)
    with hw:
        view.answer("roll")
        loop.step()
        loop.step()
        presses = loop.state.eliminator_targets().index(parse_field("b2"))
        view.answer(*["select"] * presses, "confirm")
        loop.step()
        hw.sim.inject_driver_fault()
        view.answer("roll")
        loop.step()
        loop.step()
        hw.sim.tap("trigger")
        hw.sim.tap("confirm")  # pressed before the table asks: no answer to it
        view.answer("confirm", at="by hand")  # pressed once asked: the tile is out
        loop.step()
        assert hw.sim.pulses == [] and loop.state.phase == "remove_fields"
        assert any("by hand" in m for m in view.prompts) and not view.answers
        # a newcomer at a laptop: Enter did nothing at the red button's prompt, and nothing
        # said what to type (only 'help' did)
        fire = [m for m in view.prompts if m.startswith("hit the RED BUTTON")]
        assert fire and all("(simulated: type fire or f)" in m for m in fire)
        # the CONFIRM from before was dropped: only the answer's release is left
        assert [(e.kind, e.button) for e in hw.drain_inputs()] == [("release", "confirm")]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_full_assist_game_with_simulated_people(players):
    hw, clock = sim_hardware()
    state = new_assist_game(BattleRoyaleConfig(players=players))
    view = RecordingView()
    loop = AssistTable(
        state,
        hw,
        Roller.seeded(players),
        view,
        sleep=clock.sleep,
        operator=SimOperator(hw, rng=random.Random(players)),
    )
    with hw:
        loop.run()
        assert state.is_terminal and state.winners
        exploded = [e for e in view.events if e.kind == "field_exploded"]
        assert len(hw.sim.pulses) == len(exploded) > 0
    assert not hw.sim.coil_on


def test_the_choice_prompt_offers_typing_undo_only_where_lines_are_read():
    # companion serve: buttons only, nothing reads a typed line
    loop, hw, view = table("battle_royale")
    with hw:
        view.answer("roll")
        loop.step()
    assert view.prompts[-1].endswith("; hold SELECT: undo")
    assert "type" not in view.prompts[-1]
    # a terminal at the table (companion play --mode assist): undo may be typed as well
    loop, hw, view = at_a_terminal("roll\n", players=4)
    with hw:
        loop.step()
    assert view.prompts[-1].endswith("; hold SELECT (or type undo): undo")


def test_at_a_terminal_the_assist_prompt_names_only_what_the_table_takes():
    """Found by a newcomer: the prompt said 'then says continue (or card-extra <face> ...)',
    and typing either was refused; the refusal left out undo and board, which work; and
    'hint' got the same refusal instead of the one line docs/bots.md promises."""
    loop, hw, view = at_a_terminal("continue\nhint\nroll\n", players=3)
    with hw:
        loop.step()  # 'roll' ended the movement
    asked = view.prompts[0]
    assert "presses ROLL" in asked and "SELECT to it, then CONFIRM" in asked
    assert "continue" not in asked and "card-extra" not in asked
    refused, hint = view.messages[:2]
    assert refused.startswith("'continue': type ")
    for word in ("confirm (c)", "roll (r)", "select (s)", "undo", "board", "help", "quit"):
        assert word in refused
    assert hint == "no hint: hints need a tracked game (in assist mode the table is the truth)"
    assert loop.state.phase != "movement"


def test_a_battle_royale_in_assist_mode_asks_for_confirm_not_a_word_to_type():
    loop, hw, view = table("battle_royale")
    with hw:
        view.answer("roll")
        view.answer("confirm", at="Battle Royale by hand")
        for _ in range(3):  # movement done, the Doom die, the Battle Royale resolved
            loop.step()
    asked = [p for p in view.prompts if "Battle Royale by hand" in p]
    assert asked and "confirm with resolved" not in asked[0]
    assert "SELECT points at: the Battle Royale is resolved (1/" in asked[0]
    assert loop.state.phase != "battle_royale"
