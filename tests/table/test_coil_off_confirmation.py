"""The table names "lift the tile by hand" only once the coil is confirmed off (issue 12): on
the sim and gpio profiles the guard's own read-back of the output; while it reads on, the
table says so and waits. (The I/O board's confirmation: tests/serial/test_serial_outcome.py.)"""

from table_helpers import RecordingView, sim_hardware

from companion.dice import Roller
from companion.games.battle_royale import BattleRoyaleConfig, new_game
from companion.hal import Refusal, SolenoidDriverError
from companion.table.loop import TableLoop
from companion.table.people import SimOperator


def sim_table(hw, clock) -> tuple[TableLoop, RecordingView]:
    view = RecordingView()
    table = TableLoop(
        new_game(BattleRoyaleConfig(players=4)),
        hw,
        Roller.seeded(1),
        view,
        sleep=clock.sleep,
        operator=SimOperator(hw),
    )
    return table, view


def test_a_fault_that_leaves_the_coil_on_keeps_hands_away_until_it_reads_off() -> None:
    hw, clock = sim_hardware()
    with hw:
        coil = hw.sim.coil
        switch_on, switch_off = coil.on, coil.off
        # the guard tries twice, the fault handler (all outputs off) twice, the table once more
        failures = {"off": 5}

        def on() -> None:
            switch_on()
            raise SolenoidDriverError("gate driver reports overcurrent")

        def off() -> None:
            if failures["off"]:
                failures["off"] -= 1
                raise SolenoidDriverError("gate stuck")
            switch_off()

        coil.on, coil.off = on, off
        table, view = sim_table(hw, clock)
        assert table.fire_sequence(12, "turn-1-c3") is False
        [result] = table.fire_results
        assert result.reason is Refusal.DRIVER_FAULT
        waiting = next(i for i, m in enumerate(view.messages) if "confirmed off" in m)
        by_hand = next(i for i, m in enumerate(view.messages) if "by hand" in m)
        assert waiting < by_hand and "the coil is off" in view.messages[by_hand]
        assert not hw.sim.coil_on and failures["off"] == 0


def test_a_fault_with_the_coil_off_says_so_at_once() -> None:
    hw, clock = sim_hardware()
    with hw:
        hw.sim.inject_driver_fault("coil open circuit")
        table, view = sim_table(hw, clock)
        assert table.fire_sequence(12, "turn-1-c3") is False
        assert not any("confirmed off" in m for m in view.messages)
        assert any("the coil is off; lift the tile c3 out by hand" in m for m in view.messages)
