"""Spartacus with people at one terminal (issue 17, the table's side): assist mode with the
box's cards, the screen handed over before a hand is shown, other houses told when they
may play out of turn, menus kind first, manual steps acknowledged."""

from __future__ import annotations

import io
import sys

import pytest
from rich.console import Console

from companion.cli import main
from companion.games.spartacus import SpartacusConfig, new_game
from companion.games.spartacus import actions as A
from companion.table.people import TerminalInput
from companion.table.spartacus_table import SpartacusAdapter, terminal_agent
from companion.ui.spartacus import SpartacusView

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/spartacus")
from spx_helpers import draw_all, give_hand, setup_game  # noqa: E402


def reaction_window():
    """Three houses; glaber has no gold left, and solonius holds Mittellos! for him."""
    state = setup_game(players=3, host=0)
    draw_all(state)
    state.hands[1] = {}
    give_hand(state, 1, "mittellos")
    state.gold[2] = 0
    state._note_windows()
    return state


def quiet() -> SpartacusView:
    return SpartacusView(Console(file=io.StringIO(), width=100))


def agent(view, text: str, people: int = 1):
    terminal = TerminalInput(io.StringIO(text))
    terminal.people = people
    return terminal_agent(view, terminal), terminal


def prompts(view) -> str:
    return view.console.file.getvalue()


def test_play_spartacus_in_assist_mode_starts_with_the_opening_dice(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("6\nquit\n"))
    code = main(
        [
            "play",
            "spartacus",
            "--mode",
            "assist",
            "--players",
            "3",
            "--journal",
            str(tmp_path / "a.jsonl"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 1 and "assist mode" in out and "3 at the terminal" in out
    assert "press ROLL for the" in out and "or throw your own" in out
    assert "game stopped" in out


def test_assist_mode_takes_no_bots(capsys):
    assert main(["play", "spartacus", "--mode", "assist", "--bots", "1"]) == 2
    assert "every house is played by a person" in capsys.readouterr().err


def test_a_hand_is_shown_only_after_the_screen_is_handed_over():
    state = setup_game(players=2, host=0)
    draw_all(state)
    view = quiet()
    first, terminal = agent(view, "\n\n1\n", people=2)  # manual step, hand-over, 1
    seat = state.current_player
    house = state.houses[seat]
    first.choose(state, state.legal_actions())
    out = prompts(view)
    handover = out.index(f"pass the screen to {house}")
    assert "your hand" not in out[:handover]  # nothing of a hand before the hand-over
    assert "your hand" in out[handover:] or not state.hand(seat)
    assert terminal.holder == seat
    # the same house again: no second hand-over
    view2 = quiet()
    again = terminal_agent(view2, terminal)
    terminal.holder = seat
    assert "pass the screen" not in prompts(view2)
    del again


def test_one_person_needs_no_hand_over():
    state = setup_game(players=2, host=0)
    draw_all(state)
    view = quiet()
    person, _ = agent(view, "\n1\n", people=1)  # the manual step, then 1
    person.choose(state, state.legal_actions())
    assert "pass the screen" not in prompts(view)


def test_other_houses_are_told_when_they_may_play_out_of_turn():
    state = reaction_window()
    assert state.seats_that_may_act() == [0, 1]  # solonius holds a reaction for glaber
    text = SpartacusAdapter().ask(state, 0)
    assert "solonius may play out of turn now" in text


def test_a_kind_alone_asks_its_parameters_one_by_one():
    state = setup_game(players=3, host=0)
    draw_all(state)
    seat = state.current_player
    giver = state.houses[seat]
    view = quiet()
    person, _ = agent(view, "\ngive\n2\n3\n")  # the manual step first
    action = person.choose(state, state.legal_actions())
    receivers = [h for h in state.houses if h != giver]
    assert action == A.GiveGold(giver, receivers[1], 3)
    out = prompts(view)
    assert "give: which receiver?" in out and "give: which amount?" in out


def test_the_house_rules_done_by_hand_are_asked_before_the_intrigue_turn():
    state = setup_game(players=2, host=0)
    draw_all(state)
    view = quiet()
    person, _ = agent(view, "\n1\n")
    person.choose(state, state.legal_actions())
    assert "batiatus, by hand: House card" in prompts(view)


def test_a_manual_step_is_acknowledged_once():
    adapter = SpartacusAdapter()
    state = new_game(SpartacusConfig(players=3))

    class Steps:
        round = 1
        houses = state.houses

        @staticmethod
        def manual_steps():
            return [{"id": "batiatus:r1", "seat": 0, "title": "Ludus", "text": "do it by hand"}]

    assert adapter.manual_steps(Steps, 0) == ["Ludus: do it by hand"]
    assert adapter.manual_steps(Steps, 0) == []  # acknowledged this round
    assert adapter.manual_steps(Steps, 1) == []


@pytest.mark.parametrize("text", ["cancel\n1\n"])
def test_cancel_goes_back_to_the_kinds(text):
    state = setup_game(players=3, host=0)
    draw_all(state)
    view = quiet()
    person, _ = agent(view, "\ngive\n" + text)
    action = person.choose(state, state.legal_actions())
    assert action is not None and "give: which receiver?" in prompts(view)


def test_out_of_turn_hints_name_only_houses_people_play():
    state = reaction_window()
    assert "may play out of turn" not in SpartacusAdapter(people={0, 2}).ask(state, 0)
    assert "solonius may play out of turn" in SpartacusAdapter(people={0, 1}).ask(state, 0)


def test_the_shared_screen_hides_every_houses_gold_while_the_auctions_are_bid():
    """Found in the tmux game: the houses table showed every house's gold while the bids were
    entered. 'nimmt jeder Spieler sein Gold und verbirgt es' - from the first auction until the
    host is decided the shared screen shows no house's gold."""
    from companion.ui.spartacus import houses_table

    state = setup_game(players=3, host=0)
    draw_all(state)
    state._start_market()
    for _ in range(3):
        state.apply(A.Done())
    state.apply(A.DrawCard("auction", "market", "agron"))
    assert state.phase == "bid" and state.gold_is_hidden()
    console = Console(record=True, width=100, file=io.StringIO())
    console.print(houses_table(state))
    table = console.export_text()
    rows = [row.split("│") for row in table.splitlines() if row.count("│") > 3]
    gold_column = [row[2].strip() for row in rows if row[1].strip()]  # a house's first line
    assert gold_column == ["hidden"] * 3, table
    state.gold = [5, 6, 7]  # what it would have shown
    console.print(houses_table(state))
    assert " 5 " not in console.export_text()


def test_a_person_cannot_give_away_a_bots_gold_or_property():
    """Found by a newcomer: at batiatus's prompt, 'gold glaber batiatus 10' and 'trade
    glaber batiatus gallier-1 0' took a bot's gold and gladiator. A bot's gifts are its
    own to make; a person's may still be typed by another at the shared keyboard."""
    from companion.games.registry import get_game
    from companion.table.loop import decide
    from companion.table.session import GameSession, SessionSettings

    game = get_game("spartacus")
    config = game.config(players=3)
    settings = SessionSettings(game="spartacus", mode="tracked", bots=1)  # glaber: a bot
    session = GameSession(game.new_game(config), config, settings)
    rng = __import__("random").Random(3)
    while session.state.is_chance_node or session.state.current_player != 0:
        s = session.state
        session.apply(s.chance_outcomes()[0][0] if s.is_chance_node else rng.choice(s.decisions()))
    state = session.state
    bot, person = state.houses[2], state.houses[1]
    taking = A.GiveGold(bot, state.houses[0], 1)
    assert state.is_legal(taking) and state.actor(taking) == 2  # the engine allows it
    given = A.GiveGold(person, state.houses[0], 1)  # solonius, a person beside batiatus
    told: list[tuple[str, int]] = []

    class View:
        def update(self, state, events): ...
        def message(self, text): ...
        def prompt(self, text, options=(), seat=None): ...
        def seat_message(self, text, seat):
            told.append((text, seat))

    class Typed:
        is_bot = False

        def __init__(self):
            self.lines = [taking, given]

        def choose(self, state, legal):
            return self.lines.pop(0)

    gold = list(state.gold)
    assert decide(session, Typed(), View()) == given
    assert told == [
        (
            f"{taking.notation} is refused: it is {bot}'s to make, and a bot plays {bot}: "
            "only it gives its gold, property or cards",
            0,
        )
    ]
    assert session.state.gold[2] == gold[2]  # the bot's gold untouched


def keyboard(view, text: str):
    """Three houses, all played at this one terminal."""
    person, terminal = agent(view, text, people=3)
    terminal.seats = {0, 1, 2}
    return person, terminal


def test_a_house_plays_out_of_turn_from_its_own_screen_at_a_shared_keyboard():
    """Found by a newcomer: at one keyboard, batiatus's prompt showed his hand and invited
    solonius to type his reaction there, reading batiatus's hand to do so. Now 'out
    solonius' passes solonius the screen (batiatus's hand concealed) and lists his plays."""
    state = reaction_window()
    view = quiet()
    # batiatus: the manual step, his hand-over, then 'out solonius'; solonius: his
    # hand-over, then his reaction by the start of it
    person, terminal = keyboard(view, "\n\nout solonius\n\nreact\n")
    assert "'out <house>' passes it the screen" in SpartacusAdapter({0, 1, 2}).ask(state, 0)
    action = person.choose(state, state.legal_actions())
    assert action == A.React("mittellos", "glaber", "solonius")
    assert state.actor(action) == 1 and terminal.holder == 1
    out = prompts(view)
    handed = out.index("pass the screen to solonius")
    assert "batiatus: choose - your hand" in out[:handed]
    after = out[handed:]
    assert "your hand" not in after and "insiderinformation" not in after  # batiatus's
    assert "solonius, out of turn: while batiatus is asked" in after
    assert "react mittellos glaber solonius" in after


def test_a_house_that_passes_out_of_turn_hands_the_screen_back():
    state = reaction_window()
    view = quiet()
    # batiatus: step, hand-over, 'out solonius'; solonius: hand-over, pass (Enter);
    # batiatus: hand-over, 'done'
    person, terminal = keyboard(view, "\n\nout solonius\n\n\n\ndone\n")
    action = person.choose(state, state.legal_actions())
    assert state.actor(action) == 0 and terminal.holder == 0
    out = prompts(view)
    back = out.index("pass the screen to batiatus", out.index("pass the screen to solonius"))
    assert "batiatus: choose - your hand" in out[back:]


def test_out_names_only_a_house_at_this_keyboard():
    state = reaction_window()
    view = quiet()
    person, terminal = keyboard(view, "\n\nout\nout crassus\ndone\n")
    terminal.seats = {0, 1}  # glaber plays from elsewhere (a phone or a bot)
    person.choose(state, state.legal_actions())
    out = prompts(view)
    assert out.count("out <house>: a house played at this keyboard (solonius)") == 2
    assert "pass the screen to solonius" not in out


def test_out_is_no_word_for_one_person():
    state = reaction_window()
    view = quiet()
    person, terminal = agent(view, "\nout solonius\nhelp\ndone\n", people=1)
    terminal.seats = {0}
    person = terminal_agent(view, terminal)  # its adapter names the seats at the terminal
    person.choose(state, state.legal_actions())
    out = prompts(view)
    assert "pass the screen" not in out and "out <house>" not in out


def test_the_out_of_turn_example_names_no_real_card():
    """Found by a newcomer: 'e.g. react mittellos solonius glaber', under one house's hand
    at a shared screen, read as if that house held Mittellos!. The example is for assist
    mode, where no hand is shown; where a hand is, the others pass it the screen ('out')."""
    state = setup_game()
    while state.phase != "intrigue_turn":
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    state.seats_that_may_act = lambda: [seat, (seat + 1) % state.players]  # a reaction's moment
    adapter = SpartacusAdapter({0, 1, 2})
    shown = adapter.ask(state, seat)
    assert "your hand" in shown and "'out <house>' passes it the screen" in shown
    state.assist = True  # the box's cards: no hand shown, the play typed at the prompt
    text = adapter.ask(state, seat)
    assert (
        "may play out of turn now" in text and "e.g. 'react <card> <target> <your house>'" in text
    )
    assert "mittellos" not in (text + shown).lower()


def test_a_line_typed_at_press_enter_is_not_swallowed():
    """Found by a newcomer: 'press Enter when done' took any line, so a move typed there
    vanished without a word. It is now refused as not taken, and the step waits for Enter."""
    state = setup_game(players=2, host=0)
    draw_all(state)
    view = quiet()
    person, _ = agent(view, "1\n\n1\n", people=1)  # '1' too early, Enter, then '1'
    action = person.choose(state, state.legal_actions())
    out = prompts(view)
    assert "'1' was not taken: press Enter when this is done at the table" in out
    assert action is not None and state.actor(action) == state.current_player


def test_question_mark_numbers_the_plays_out_of_turn():
    """Found by a newcomer: '?' was refused at an out-of-turn prompt. Many plays (gold to
    give) are listed one line a kind; '?' numbers them, and a number then takes one."""
    state = reaction_window()
    view = quiet()
    person, _ = keyboard(view, "\n?\n2\n")  # the hand-over, then ?
    plays = SpartacusAdapter().out_of_turn_actions(state, 1)
    assert len(plays) > 24  # more than are numbered at first
    chosen = person.out_of_turn(state, 1, plays, "while batiatus is asked")
    assert chosen == plays[1]
    out = prompts(view)
    assert "? numbers them" in out and f"2: {plays[1].notation}" in out


def test_a_word_that_is_no_action_now_names_the_seats_own_kinds():
    """Found by a newcomer: 'unknown action' listed all 37 verbs of the notation
    (post-guard, exhaust-card, ...), most of them never the seat's now."""
    state = reaction_window()
    view = quiet()
    person, _ = agent(view, "\n\nfoo\ndone\n", people=1)
    person.choose(state, state.legal_actions())
    refusal = next(line for line in prompts(view).splitlines() if "'foo'" in line)
    assert "is not one of your actions now: " in refusal
    assert "exhaust-card" not in refusal and "sell" in refusal


def test_cards_shows_what_the_seats_own_cards_do_to_that_seat_only():
    """Found by a newcomer: card effects were shown nowhere, and ids differ from the printed
    names (`schwarzmarkt` is 'Gewinn vom Schwarzmarkt'). `cards` says, to the seat asked
    only, each card of its hand: id, printed name and effect from the data, guesses
    labelled."""
    state = setup_game(players=3, host=0)
    draw_all(state)
    seat = state.current_player
    state.hands[seat] = {}
    give_hand(state, seat, "schwarzmarkt")
    give_hand(state, seat, "skandal")
    told: list[tuple[str, int]] = []
    view = quiet()
    view.seat_message = lambda text, to: told.append((text, to))
    person, _ = agent(view, "\ncards\ndone\n")  # the manual step, cards, done
    assert person.choose(state, state.legal_actions()) == A.Done()
    ((text, to),) = told
    assert to == seat
    assert "schwarzmarkt = Gewinn vom Schwarzmarkt: scheme, 7 influence; the target gains " in text
    assert "skandal = Skandal: scheme" in text and "[guessed: title, influence, effects]" in text
    assert "(cards: what they do)" in prompts(view)  # the prompt says the word exists
    assert "Gewinn vom Schwarzmarkt" not in prompts(view)  # said to the seat, not printed
