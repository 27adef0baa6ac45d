"""A press lost with the I/O board is asked for again, even when the board left and came
back between two polls of the table (``hw.input_gaps``, firmware/PROTOCOL.md section 2)."""

from __future__ import annotations

from companion.games.battle_royale import BattleRoyaleConfig
from companion.games.battle_royale.assist import new_assist_game
from companion.hal import HardwareConfig, ManualClock, open_hardware
from companion.table.loop import TableLoop


class Messages:
    def __init__(self) -> None:
        self.messages: list[str] = []

    def update(self, state, events) -> None: ...

    def message(self, text: str) -> None:
        self.messages.append(text)

    def prompt(self, text: str, options=()) -> None: ...


class BlinkingBoard:
    """Sim hardware whose I/O board session ended and came back between two polls (the
    table never sees ``connected`` False); it gives up after 50 polls instead of hanging."""

    connected = True

    def __init__(self, hw) -> None:
        self._hw = hw
        self.input_gaps = 0
        self.polls = 0

    def __getattr__(self, name):
        return getattr(self._hw, name)

    def next_input(self, timeout=None):
        self.polls += 1
        assert self.polls < 50, "the table waits for ever for a press lost with the board"
        if self.polls == 1:
            self.input_gaps += 1  # a reconnect (or an IDENT saying events were dropped)
        return self._hw.next_input(timeout=timeout)


class LosingOperator:
    """Presses for the table; the first press is lost with the board's session."""

    def __init__(self, hw) -> None:
        self.hw = hw
        self.presses: list[str] = []

    def press(self, button: str) -> None:
        self.presses.append(button)
        if len(self.presses) > 1:
            self.hw.sim.tap(button, 0.03)


def test_a_press_lost_while_the_board_blinked_is_asked_for_again() -> None:
    clock = ManualClock()
    with open_hardware(HardwareConfig(profile="sim"), clock=clock) as hw:
        board = BlinkingBoard(hw)
        operator = LosingOperator(hw)
        view = Messages()
        state = new_assist_game(BattleRoyaleConfig(players=2, start_player=0))
        loop = TableLoop(state, board, None, view, sleep=clock.sleep, operator=operator)
        event = loop.wait_for({"roll"}, "press ROLL")
    assert event.button == "roll" and event.kind == "press"
    assert operator.presses == ["roll", "roll"]
    assert view.messages == ["the I/O board may have missed a press: press ROLL"]


def test_no_gap_no_second_press() -> None:
    clock = ManualClock()
    with open_hardware(HardwareConfig(profile="sim"), clock=clock) as hw:
        operator = LosingOperator(hw)
        operator.presses.append("earlier")  # so its next press goes through
        view = Messages()
        state = new_assist_game(BattleRoyaleConfig(players=2, start_player=0))
        loop = TableLoop(state, hw, None, view, sleep=clock.sleep, operator=operator)
        event = loop.wait_for({"roll"}, "press ROLL")
    assert event.button == "roll"
    assert operator.presses == ["earlier", "roll"] and view.messages == []
