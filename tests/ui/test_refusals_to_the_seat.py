"""Why a typed move is refused may name what only the seat that typed it may see (its gold
while the bids are secret, its hand): it is said to that seat only. On a phone it is the
seat's note; on a shared terminal it is in the events box while the seat holds the screen,
and gone when the screen is handed over. Found by a review of hidden information."""

from __future__ import annotations

import io
import random
from collections.abc import Callable

from rich.console import Console

from companion.dice import Roller
from companion.games.spartacus import SpartacusConfig
from companion.games.spartacus.bot import SimpleBot
from companion.table.loop import Observers, decide
from companion.table.people import TerminalAgent
from companion.table.session import GameSession, SessionSettings
from companion.table.spartacus_table import SpartacusAdapter
from companion.ui.spartacus import SpartacusView


class TwoAtTheTerminal:
    people = 2
    holder = None
    seats = {0, 1}

    def __init__(self, lines: list) -> None:
        self.lines = list(lines)

    def poll(self, timeout: float, hidden: bool = False) -> str | None:
        line = self.lines.pop(0)
        return line() if callable(line) else line


class Phones:
    """What the web hub is told: messages for every page, notes for one seat."""

    def __init__(self) -> None:
        self.messages: list[str] = []
        self.notes: list[tuple[int, str]] = []

    def update(self, state, events) -> None:
        pass

    def message(self, text: str) -> None:
        self.messages.append(text)

    def prompt(self, text: str, options=(), seat: int | None = None) -> None:
        pass

    def seat_message(self, text: str, seat: int) -> None:
        self.notes.append((seat, text))


def screens_of(terminal) -> tuple[list[str], Callable[[str], Callable[[], str]]]:
    """What the terminal shows, kept whenever a ``looking(answer)`` line is typed."""
    screens: list[str] = []

    def looking(answer: str) -> Callable[[], str]:
        def look() -> str:
            terminal.console.print(terminal.screen())
            screens.append(terminal.console.export_text(clear=True))
            return answer

        return look

    return screens, looking


def at_batiatus_secret_bid() -> GameSession:
    config = SpartacusConfig(players=3, host=0)
    session = GameSession.start(config, SessionSettings(game="spartacus", seed=3), None)
    bot, dice = SimpleBot(random.Random(3)), Roller(random.Random(3))
    for _ in range(3000):
        state = session.state
        if state.phase == "bid" and state.current_player == 0:
            return session
        session.apply(dice.choose(state.chance_outcomes()) if state.is_chance_node
                      else bot.choose(state))  # fmt: skip
    raise AssertionError("no bid for batiatus")


def test_an_over_high_secret_bid_is_refused_to_its_seat_only() -> None:
    session = at_batiatus_secret_bid()
    gold = session.state.gold[0]
    assert session.state.gold_is_hidden()
    terminal = SpartacusView(
        Console(record=True, width=100, height=40, file=io.StringIO()), live=True, typing=True
    )
    phones = Phones()
    terminal.update(session.state, [])
    people = TwoAtTheTerminal(["", str(gold + 5), "2"])  # the hand-over's Enter, two bids
    agent = TerminalAgent(people, terminal, adapter=SpartacusAdapter({0, 1}))
    session.apply(decide(session, agent, Observers([terminal, phones])))

    said = "the gold batiatus has"
    assert not any(said in text for text in phones.messages)  # no page for everyone
    assert [seat for seat, text in phones.notes if said in text] == [0]  # batiatus's phone
    terminal.console.print(terminal.screen())
    assert said in terminal.console.export_text(clear=True)  # while batiatus holds it

    looked: list[str] = []

    def solonius_looks() -> str:
        terminal.console.print(terminal.screen())
        looked.append(terminal.console.export_text(clear=True))
        return ""

    people.lines.append(solonius_looks)
    agent._hand_over(session.state, 1)
    [screen] = looked
    assert "pass the screen to solonius" in screen and "hidden" in screen
    assert said not in screen.replace("\n", " ") and f"0..{gold} gold" not in screen


def test_a_secret_bid_is_asked_after_a_hand_over_in_assist_mode_too(monkeypatch) -> None:
    """Found by the same review: in assist mode no hand is shown, so no prompt was private
    and the secret bid's question ('your secret bid, 0..32 gold', the house's hidden gold)
    came on the shared screen without a hand-over. A secret's question is now private."""
    session = at_batiatus_secret_bid()
    monkeypatch.setattr(SpartacusAdapter, "private_prompt", lambda self, state: False)
    terminal = SpartacusView(
        Console(record=True, width=100, height=40, file=io.StringIO()), live=True, typing=True
    )
    terminal.update(session.state, [])
    screens, looking = screens_of(terminal)
    people = TwoAtTheTerminal([looking(""), looking("2")])
    agent = TerminalAgent(people, terminal, adapter=SpartacusAdapter({0, 1}))
    assert decide(session, agent, terminal).notation == "bid 2"
    first, second = screens
    assert "pass the screen to batiatus" in first and "gold" not in first.split("events")[-1]
    assert "your secret bid" in second


def test_battle_royale_asks_for_a_card_after_a_hand_over_when_people_share_the_terminal():
    """Found by the same review: `play battle-royale` with several people at one terminal
    listed each seat's cards ('1: play 1x4 ...') for everyone to read (the table shows only
    how many each holds)."""
    from companion.games.registry import get_game
    from companion.table.loop import adapter_for

    game = get_game("battle-royale")
    config = game.config(players=2)
    session = GameSession(game.new_game(config), config, SessionSettings(mode="tracked"))
    while session.state.is_chance_node:
        session.apply(session.state.chance_outcomes()[0][0])
    from companion.ui.dashboard import Dashboard

    terminal = Dashboard(Console(record=True, width=100, height=40, file=io.StringIO()),
                         live=True, typing=True)  # fmt: skip
    terminal.update(session.state, [])
    screens, looking = screens_of(terminal)
    people = TwoAtTheTerminal([looking(""), looking("1")])
    agent = TerminalAgent(people, terminal, adapter=adapter_for("battle-royale"))
    decide(session, agent, terminal)
    first, second = screens
    assert "pass the screen to purple" in first and "play 1x" not in first
    assert "play 1x" in second


def test_a_move_typed_for_another_house_is_refused_without_its_secrets() -> None:
    """Found by the same review: at its own prompt a house typed a reaction 'by' another
    house, and the refusal said whether that house held the card ('... is not in solonius's
    hand' or another reason), so three probes read a hand. A refused move of another
    seat now says only that it is not the typist's."""
    config = SpartacusConfig(players=3, host=0)
    session = GameSession.start(config, SessionSettings(game="spartacus", seed=8), None)
    bot, dice = SimpleBot(random.Random(8)), Roller(random.Random(8))
    while not (session.state.phase == "intrigue_turn" and session.state.current_player == 0):
        state = session.state
        session.apply(dice.choose(state.chance_outcomes()) if state.is_chance_node
                      else bot.choose(state))  # fmt: skip
    phones = Phones()
    terminal = SpartacusView(
        Console(record=True, width=100, height=40, file=io.StringIO()), live=True, typing=True
    )
    terminal.update(session.state, [])
    cards = ("mittellos", "leeres-bordell", "gefluesterte-geruechte")
    probes = [f"react {card} batiatus solonius" for card in cards]
    people = TwoAtTheTerminal(["", "", *probes, "done"])  # by hand, hand-over, probes
    agent = TerminalAgent(people, terminal, adapter=SpartacusAdapter({0, 1}))
    decide(session, agent, Observers([terminal, phones]))
    told = [text for seat, text in phones.notes if "react" in text]
    assert len(told) == 3
    for text in told:
        assert "hand" not in text and "is solonius's move" in text


def test_replay_json_of_a_game_in_the_auctions_hides_the_gold() -> None:
    """Found by the same review: `companion replay --json` of a game in progress printed
    every house's gold during the auctions, where the printed replay says "hidden"."""
    from companion.commands.spartacus import replay_document

    session = at_batiatus_secret_bid()
    assert session.state.gold_is_hidden()
    doc = replay_document(session, "game.jsonl", 1)
    assert doc["gold"] is None and doc["influence"]  # what everyone sees stays


def test_a_seats_refusal_is_not_printed_for_everyone_when_the_table_stops() -> None:
    """Found by a newcomer: 'quit' during a secret bid printed the last events on the
    normal screen, the refusal that told batiatus its hidden gold among them."""
    session = at_batiatus_secret_bid()
    gold = session.state.gold[0]
    console = Console(record=True, width=100, height=40, file=io.StringIO())
    terminal = SpartacusView(console, live=True, typing=True)
    with terminal:
        terminal.update(session.state, [])
        people = TwoAtTheTerminal(["", str(gold + 5), "2"])
        agent = TerminalAgent(people, terminal, adapter=SpartacusAdapter({0, 1}))
        session.apply(decide(session, agent, terminal))
        terminal.message("a public line")
        console.export_text(clear=True)
    printed = console.export_text()  # what stays on the normal screen after the stop
    assert "a public line" in printed
    assert "the gold batiatus has" not in printed and f"0..{gold} gold" not in printed
