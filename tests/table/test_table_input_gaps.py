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

    def __init__(self, hw, *, blink_at_poll: int | None = 1) -> None:
        self._hw = hw
        self.input_gaps = 0
        self.polls = 0
        self.blink_at_poll = blink_at_poll

    def __getattr__(self, name):
        return getattr(self._hw, name)

    def next_input(self, timeout=None):
        self.polls += 1
        assert self.polls < 50, "the table waits for ever for a press lost with the board"
        if self.polls == self.blink_at_poll:
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


class BlinkDuringPressOperator(LosingOperator):
    """Its first press is lost with a session that ends while the press is on its way: the
    gap is counted before the press is done (a simulated operator's tap waits until the
    board has taken the release, and the link may drop and come back meanwhile)."""

    def __init__(self, hw, board: BlinkingBoard) -> None:
        super().__init__(hw)
        self.board = board

    def press(self, button: str) -> None:
        if not self.presses:
            self.board.input_gaps += 1
        super().press(button)


def test_a_press_lost_while_the_operator_pressed_is_asked_for_again() -> None:
    """The gap count the table compares with is taken before its operator presses, not
    after: a session that ended during the press (the serial game's hang under load, where
    the host dropped the link while the tap of the press it lost was still waiting for the
    board's release) is a gap too."""
    clock = ManualClock()
    with open_hardware(HardwareConfig(profile="sim"), clock=clock) as hw:
        board = BlinkingBoard(hw, blink_at_poll=None)
        operator = BlinkDuringPressOperator(hw, board)
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


class PressWhenAsked(Messages):
    """A person who presses ROLL when the table asks for it."""

    def __init__(self, hw) -> None:
        super().__init__()
        self.hw = hw

    def prompt(self, text: str, options=(), seat=None) -> None:
        self.hw.inputs.emit("press", "roll")


def test_a_roll_pressed_before_the_roll_was_asked_rolls_nothing() -> None:
    """Found by a newcomer on the phones: a ROLL tapped while the phone was asked something
    else was kept, and a minute later rolled a die nobody had pressed for."""
    from companion.table.adapter import DiceAsk

    clock = ManualClock()
    with open_hardware(HardwareConfig(profile="sim"), clock=clock) as hw:
        view = PressWhenAsked(hw)
        state = new_assist_game(BattleRoyaleConfig(players=2, start_player=0))
        loop = TableLoop(state, hw, None, view, sleep=clock.sleep)
        hw.inputs.emit("press", "roll")  # the stray tap, before the roll is asked
        assert loop.wait_for_roll(DiceAsk(0, "the Doom die", "a face")) is None
        assert hw.next_input(timeout=0) is None  # the press after the question answered it
