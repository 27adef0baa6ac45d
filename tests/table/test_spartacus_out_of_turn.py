"""Out-of-turn play at the table (issue 17, rules R11 and R32): at a reaction's moment the
table asks every house that may play it, in seat order (a person after the screen is handed
over, a bot by its own policy); gold moves between two houses in one journalled action."""

from __future__ import annotations

import io
import random
import sys

import pytest
from rich.console import Console

from companion.dice import Roller
from companion.games.spartacus import actions as A
from companion.games.spartacus.bot import SimpleBot
from companion.hal import HardwareConfig, ManualClock, open_hardware
from companion.table.journal import read_journal
from companion.table.people import BotAgent, SearchAgent, SimOperator, TerminalInput
from companion.table.session import GameSession, SessionSettings
from companion.table.spartacus_table import SpartacusAdapter, SpartacusTable, terminal_agent
from companion.ui.spartacus import SpartacusView

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/spartacus")
from spx_helpers import draw_all, setup_game, upkeep_example  # noqa: E402

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3  # batiatus, solonius, glaber, tullius


class Scripted:
    """A person's seat that answers the upkeep with ``pay`` (never asked out of turn)."""

    is_bot = False

    def choose(self, state, legal):
        return A.PayUpkeep()


def table(state, agents, view, terminal=None, journal=None):
    session = GameSession(
        state,
        state.config,
        SessionSettings(mode="tracked", game="spartacus"),
        barrier=len(state.history),
    )
    if journal is not None:
        session = GameSession.start(state.config, SessionSettings(game="spartacus"), journal)
    clock = ManualClock()
    hw = open_hardware(HardwareConfig(profile="sim"), clock=clock)
    loop = SpartacusTable(
        session,
        hw,
        Roller.seeded(1),
        view,
        agents,
        operator=SimOperator(hw, rng=random.Random(1)),
        terminal=terminal,
        sleep=clock.sleep,
    )
    return loop, hw


def view() -> SpartacusView:
    return SpartacusView(Console(file=io.StringIO(), width=100))


def test_mittellos_plays_through_at_the_table_a_person_asked_after_a_hand_over():
    """Sally pays her last gold; the table asks John, then Pete (from her left; both may hold
    a reaction by what everyone sees, Liz holds no card), each after the screen is handed over;
    John plays Mittellos!, Pete has nothing to play and presses Enter; Sally loses 1
    influence; Liz then pays."""
    state = upkeep_example()
    screen = view()
    terminal = TerminalInput(io.StringIO("\n1\n\n\n"))  # hand-over, 1; hand-over, Enter
    terminal.people = 4
    person = terminal_agent(screen, terminal)
    agents = {PETE: person, SALLY: Scripted(), JOHN: person, LIZ: Scripted()}
    loop, hw = table(state, agents, screen, terminal)
    influence = state.influence[SALLY]
    with hw:
        loop.step()  # Sally pays: the moment opens
        assert loop.state.gold[SALLY] == 0 and ("mittellos", SALLY) in loop.moments[0]
        played = loop.step()  # the moment: John, then Pete asked
    assert [a for a in loop.state.history if isinstance(a, A.React)] == [
        A.React("mittellos", "solonius", "glaber")
    ]
    assert any(e.kind == "reaction_played" for e in played)
    assert loop.state.influence[SALLY] == influence - 1
    assert loop.state.phase == "upkeep_pay" and loop.state.current_player == LIZ
    out = screen.console.file.getvalue()
    john = out.index("pass the screen to glaber")
    pete = out.index("pass the screen to batiatus")
    assert john < out.index("glaber, out of turn") < pete  # in seat order from Sally's left
    assert "1: react mittellos solonius glaber" in out[john:pete]
    assert "nothing you hold can be played" in out[pete:]
    assert "react mittellos" not in out[pete:]  # Pete's screen shows nothing of John's hand
    with hw:
        loop.step()  # Liz is asked as before
    assert loop.state.gold[LIZ] >= 0 and loop.state.current_player != LIZ


@pytest.mark.parametrize("agent", ["table bot", "search bot"])
def test_mittellos_plays_through_with_a_bot_deciding_by_its_own_policy(agent):
    state = upkeep_example()
    screen = view()
    if agent == "search bot":  # out of turn it decides by the game's own bot's policy
        bot = SearchAgent("spartacus", random.Random(0), "easy", clock=None)
    else:
        bot = BotAgent(random.Random(0), SimpleBot(random.Random(0)))
    agents = {PETE: bot, SALLY: Scripted(), JOHN: bot, LIZ: Scripted()}
    loop, hw = table(state, agents, screen)
    influence = state.influence[SALLY]
    with hw:
        loop.step()
        loop.step()
    assert loop.state.influence[SALLY] == influence - 1
    assert loop.state.history[-1] == A.React("mittellos", "solonius", "glaber")
    assert loop.state.current_player == LIZ


def test_a_lone_person_with_nothing_to_play_is_not_asked():
    state = upkeep_example()
    screen = view()
    terminal = TerminalInput(io.StringIO(""))
    person = terminal_agent(screen, terminal)  # one person: nobody to keep a secret from
    agents = {PETE: person, SALLY: Scripted(), JOHN: Scripted(), LIZ: Scripted()}
    loop, hw = table(state, agents, screen, terminal)
    with hw:
        loop.step()
        loop.step()  # nobody is asked: Liz pays
    assert not [a for a in loop.state.history if isinstance(a, A.React)]
    assert "out of turn" not in screen.console.file.getvalue()
    assert loop.state.history[-1] == A.PayUpkeep() and loop.state.current_player != LIZ


def test_a_play_is_typed_by_the_start_of_its_notation_and_passing_is_enter():
    state = upkeep_example()
    screen = view()
    person = terminal_agent(screen, TerminalInput(io.StringIO("nonsense\nreact mittellos\n")))
    state.gold[SALLY] = 0
    state._legal = None
    options = SpartacusAdapter().moment_options(state, (("mittellos", SALLY),), JOHN)
    assert options[0] == A.React("mittellos", "solonius", "glaber")
    chosen = person.out_of_turn(state, JOHN, options, "solonius has no gold")
    assert chosen == options[0]
    assert "not one of the plays listed" in screen.console.file.getvalue()
    passing = terminal_agent(screen, TerminalInput(io.StringIO("\n")))
    assert passing.out_of_turn(state, JOHN, options, "solonius has no gold") is None


def test_the_seats_asked_are_decided_by_public_information_only():
    """Swapping Pete's card for another changes neither who is asked nor in which order."""
    state = upkeep_example()
    state.gold[SALLY] = 0
    state._legal = None
    adapter = SpartacusAdapter()
    asked = adapter.moment_seats(state, (("mittellos", SALLY),))
    assert asked == [JOHN, PETE]  # from Sally's left: John, (Liz holds nothing), Pete
    state.hands[PETE] = {"mittellos": 1}
    state.hands[JOHN] = {"wache": 2}
    state._legal = None
    assert adapter.moment_seats(state, (("mittellos", SALLY),)) == asked


def test_a_bribe_of_any_amount_is_one_journalled_action(tmp_path):
    """'Gold kann jederzeit zwischen zwei Spielern wechseln! Es gibt keine Beschraenkung fuer den
    Austausch von Gold.' Glaber, not asked, types his bribe at batiatus's prompt: one record."""
    state = setup_game(players=3, host=0)
    draw_all(state)
    screen = view()
    journal = tmp_path / "bribe.jsonl"
    session = GameSession.start(state.config, SessionSettings(game="spartacus"), journal)
    for action in state.history:
        session.commit(action)
        session.apply(action)
    gold = list(session.state.gold)
    terminal = TerminalInput(io.StringIO(f"\ngold glaber solonius {gold[2]}\n"))
    clock = ManualClock()
    hw = open_hardware(HardwareConfig(profile="sim"), clock=clock)
    person = terminal_agent(screen, terminal)
    loop = SpartacusTable(
        session,
        hw,
        Roller.seeded(1),
        screen,
        {0: person, 1: person, 2: person},
        terminal=terminal,
        sleep=clock.sleep,
    )
    with hw:
        loop.step()
    session.journal.close()
    assert loop.state.gold[2] == 0 and loop.state.gold[1] == gold[1] + gold[2]
    records = read_journal(journal).records
    actions = [r["action"] for _, r in records if r["type"] == "action"]
    assert actions[-1] == {
        "kind": "give",
        "giver": "glaber",
        "receiver": "solonius",
        "amount": gold[2],
    }
    assert [a for a in actions if a["kind"] == "give"] == actions[-1:]  # one action
