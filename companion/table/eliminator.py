"""The Eliminator's fire path, a part of the table loop (a mixin of
:class:`companion.table.loop.TableLoop`).

Arm (the ``armed`` record durable first), blink the field, wait for the red button, fire
through the solenoid guard with no disk I/O between the press and the coil, then the
``fired`` record; cool-down refusals wait, driver faults ask for the tile by hand once the
coil is confirmed off, an unanswered FIRE waits for the I/O board's account. The arena's
fields are named as on the 5x5 arena display (``a1``..``e5``).
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from companion.games.battle_royale.layout import field_name
from companion.hal import Refusal, SpentToken
from companion.table.people import TableStopped

POLL_S = 0.05
#: Refusals that can be the answer for the press whose pulse was tried (the coil may have
#: switched on): settled with the people, never skipped as an older press's
OWN_ATTEMPT = (Refusal.DRIVER_FAULT, Refusal.OUTCOME_UNKNOWN, Refusal.CLOSED)


class FirePath:
    """The fire sequence; the loop supplies ``session``, ``hw``, ``view``, ``wait_for``,
    ``pause_for_board``, ``rest``, ``paint``, ``heartbeat`` and ``terminal``."""

    session: Any
    hw: Any
    view: Any
    terminal: Any
    sleep: Any
    blink: set[int]
    fire_results: list[Any]

    # -- the Eliminator ----------------------------------------------------------------

    def arm_explosion(self, cell: int, token: str) -> None:
        """Make the arming durable, then arm the solenoid guard for *token*.

        The ``armed`` record is written before the guard is armed, so before anyone
        can press: from then on the red button switches the coil on with no disk
        I/O in between. A token whose tile has flown (a ``fired`` record) is never
        armed again.
        """
        if token in self.session.fired_tokens:
            return
        self.session.armed(field_name(cell), token)
        if self.hw.eliminator.armed_token != token:
            # through rearm(): in assist mode the guard is armed as soon as the rules arm,
            # and a press may fire on its edge before the fire sequence starts
            self.rearm(token)

    def fire_sequence(self, cell: int, token: str) -> bool:
        """Arm, blink the field, wait for the red button, fire through the guard.

        Returns whether the tile flew: a pulse fired, or, for an explosion that was
        armed when the table stopped (a power cut, a crash), the players confirmed
        with CONFIRM that it had flown already; it never fires without a press. A
        refusal for cool-down waits and asks again; a driver fault is reported and
        the players remove the tile by hand. Nothing is written to the journal
        between the press and the coil: the ``fired`` record follows the pulse.
        """
        if token in self.session.fired_tokens:  # settled before the table stopped
            return token not in self.session.fault_tokens  # a fault: lifted out by hand
        buttons = {"trigger"}
        guard = self.hw.eliminator
        offered_after = self.hw.inputs.last_seq  # a CONFIRM counts if pressed after this
        self.arm_explosion(cell, token)
        self.blink = {cell}
        self.paint()
        self.view.message(f"explosion under {field_name(cell)}: hit the red button")
        if token in self.session.armed_before_stop:
            buttons.add("confirm")
            self.view.message(
                f"the table stopped while this explosion was armed: if the tile on "
                f"{field_name(cell)} already flew, press CONFIRM instead"
            )
        prompt = "hit the RED BUTTON to fire the Eliminator"
        if getattr(self.hw, "sim", None) is not None:  # a laptop: Enter did nothing, said nothing
            prompt += " (simulated: type fire or f)"
        if "confirm" in buttons:
            prompt += " (CONFIRM: the tile already flew)"
        try:
            while True:
                press = self.wait_for(
                    buttons,
                    prompt,
                    seat=self.state.active,
                    operator_presses="trigger",
                )
                if press.button == "confirm":  # the players: the tile already flew
                    if press.seq <= offered_after:
                        continue
                    self.session.fired(field_name(cell), token, source="players")
                    self.view.message(f"the tile on {field_name(cell)} already flew")
                    return True
                result = guard.fire(press)  # no disk I/O between the press and the coil
                self.fire_results.append(result)
                if result.fired:
                    self.session.fired(field_name(cell), token)  # durable after the pulse
                    self.view.message(f"Eliminator fired ({result.pulse.length_s * 1000:.0f} ms)")
                    self.wait_coil_off()
                    return True
                # the cool-down left now, not the press's (presses made during the cool-down
                # come one after another, and each said what was left then), read before
                # the look at spent: a pulse after that look does not count in it
                left = guard.cooldown_left_s
                if result.reason not in OWN_ATTEMPT and guard.spent(token):
                    # an older press, refused at its edge, collected after a later one
                    # fired this explosion there: that press is next on the queue
                    continue
                if result.reason == Refusal.COOLING_DOWN:
                    if left >= 0.05:  # not a clock's rounding after the last rest
                        self.view.message(f"solenoid cooling down: {left:.1f} s")
                    if left > 0:
                        self.rest(left)
                    self.rearm(token)
                    continue
                settled = self.settle_failed_fire(result, cell, token)
                if settled is not None:
                    return settled
                # nothing fired (a stale or repeated press, or link trouble): a fresh press
                self.rearm(token)
        finally:
            guard.disarm()
            self.blink = set()

    def rearm(self, token: str) -> None:
        """Arm *token* again for a fresh press, unless it fired meanwhile: a press made
        while the table rested (or worked through older presses) may have fired it on its
        edge, and that press is on the queue for the fire sequence to collect."""
        with suppress(SpentToken):
            self.hw.eliminator.arm(token)

    def settle_failed_fire(self, result: Any, cell: int, token: str | None = None) -> bool | None:
        """What a fire that did not fire means for the people at the table.

        Returns True if the Eliminator did fire after all (an unanswered FIRE the I/O
        board then accounted for), False if the players must lift the tile out by hand
        (said only once the coil is confirmed off, and once the journal says so: a
        ``fired`` record with ``source: "fault"``, so a resumed game never arms that
        explosion again), None if nothing fired and a fresh press may fire (link
        trouble, or a stale press)."""
        guard = self.hw.eliminator
        if result.reason is Refusal.OUTCOME_UNKNOWN:
            settled = self.wait_fire_outcome(cell)
            if settled is not None:  # it flew, or may have: the explosion is done, durably
                self.session.fired(field_name(cell), result.token)
            return settled
        if result.reason is Refusal.DRIVER_FAULT:
            clear = getattr(guard, "clear_link_fault", None)
            if not getattr(self.hw, "connected", True):
                self.pause_for_board()  # the board went away before the FIRE: nothing fired
                if clear is not None:
                    clear()
                return None
            if clear is not None and clear():
                self.view.message("link trouble: nothing fired; hit the red button again")
                return None
        if result.reason in (Refusal.DRIVER_FAULT, Refusal.CLOSED):
            self.wait_coil_off()
            if result.reason is Refusal.DRIVER_FAULT:  # durable before anyone reaches in
                self.session.fired(
                    field_name(cell), token or result.token, source="fault", fault=result.message
                )
            self.view.message(
                f"solenoid fault ({result.message}): the coil is off; lift the tile "
                f"{field_name(cell)} out by hand"
            )
            return False
        return None

    def wait_fire_outcome(self, cell: int) -> bool | None:
        """The I/O board did not answer a FIRE: say so, keep hands away, and wait (in
        bounded steps, pausing while the board is away) for its account of the coil."""
        guard = self.hw.eliminator
        self.view.message(
            "no answer from the I/O board: the Eliminator may or may not have fired. "
            "Keep your hands off the arena until the board says what it did"
        )
        while True:
            self.heartbeat()
            outcome = guard.resolve_outcome(0.5)
            if outcome is not None:
                break
            if not getattr(self.hw, "connected", True):
                self.pause_for_board()
            elif self.terminal is not None and self.terminal.poll(0) in ("quit", "q"):
                raise TableStopped("quit")
        if outcome == "not_fired":
            self.view.message("the I/O board did not fire: hit the red button again")
            return None
        self.wait_coil_off()
        if outcome == "fired":
            self.view.message("the I/O board confirms: the Eliminator fired")
            return True
        self.view.message(
            f"the I/O board restarted before it said whether it fired; the coil is off: if "
            f"the tile {field_name(cell)} is still in the arena, lift it out by hand"
        )
        return False

    def wait_coil_off(self) -> None:
        """Return once the board (or, on the gpio and sim profiles, the guard) confirms the
        coil is off; until then say so and wait, in bounded steps."""
        guard = self.hw.eliminator
        confirm = getattr(guard, "confirm_coil_off", None)
        said = False
        while True:
            self.heartbeat()
            if confirm is not None:
                if confirm(0.5):
                    return
            elif not getattr(guard, "is_on", False):
                return
            else:
                guard.off()
                self.sleep(POLL_S)
            if not said:
                self.view.message(
                    "waiting for the coil to be confirmed off: keep your hands off the arena"
                )
                said = True
            if not getattr(self.hw, "connected", True):
                self.pause_for_board()
            elif self.terminal is not None and self.terminal.poll(0) in ("quit", "q"):
                raise TableStopped("quit")
