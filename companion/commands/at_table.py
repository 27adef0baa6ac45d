"""Running one game at the table, in the order that keeps files and people safe.

Every game command (``play``, ``demo``, ``resume``, ``gladiatoren play``,
``spartacus fight`` ...) goes through :func:`run_at_table`:

1. the hardware is opened first (:func:`open_table_hardware`); if it is not
   there (no GPIO pins on a laptop, no I/O board plugged in) the command ends
   with one message and exit 2, and no file has been written;
2. only then does the journal start (a new file) or continue (a resumed file
   is cut back to its last good record only now);
3. the game runs. ``quit`` (or the end of typed input) and Ctrl-C both stop it
   with the same hint, ``continue it with: companion resume FILE``; exit 1 and
   130. Ctrl-C reaches the command as :exc:`KeyboardInterrupt` after the
   hardware layer has switched the solenoid off. A start that fails before the
   first record leaves no journal behind. On every way out the journal is
   closed and the terminal restored (echo on).
"""

from __future__ import annotations

import dataclasses
import logging
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.commands.errors import EXIT_INTERRUPTED, EXIT_STOPPED, CommandError
from companion.hal import Hardware, HardwareConfig, HardwareConfigError, open_hardware
from companion.table.config import TableConfigError, load_hardware_from_table
from companion.table.journal import JournalError
from companion.table.journals import archive
from companion.table.session import GameSession

if TYPE_CHECKING:
    from companion.table.people import TerminalInput

log = logging.getLogger(__name__)

NO_PINS_HINT = (
    "on a laptop use --hardware sim; on a Raspberry Pi install the pin library "
    "(pip install 'arena-table-companion[pi]') and run as a user in the gpio group"
)


def _from_pin_library(exc: BaseException) -> bool:
    """An error raised by a pin library itself (``lgpio.error`` when a pin is busy ...)."""
    return type(exc).__module__.split(".")[0] in ("lgpio", "RPi", "pigpio")


def hardware_problem(profile: str, exc: BaseException, tried: Sequence[str] = ()) -> str | None:
    """A clear sentence for a failure to open ``profile`` that the user can fix, or None
    (then it is a bug and is raised as it is). ``tried``: the pin libraries gpiozero
    could not load, and why."""
    if profile == "gpio":
        from gpiozero.exc import BadPinFactory, GPIOZeroError

        if isinstance(exc, BadPinFactory):
            why = f"{exc}; tried {', '.join(tried)}" if tried else str(exc)
            return f"this machine has no GPIO pins gpiozero can use ({why}): {NO_PINS_HINT}"
        if isinstance(exc, GPIOZeroError | OSError) or _from_pin_library(exc):
            return (
                f"cannot open the Pi's pins: {exc} (is the companion service running "
                "and holding them? 'sudo systemctl stop companion' first)"
            )
    if profile in ("serial", "virtual-board"):
        from companion.hal.serial_board import BoardNotFound, BoardRefused

        if isinstance(exc, BoardNotFound):
            return (
                f"no I/O board: {exc}. Check the USB cable and that the board runs the "
                "companion firmware (firmware/README.md), or use --hardware sim"
            )
        if isinstance(exc, BoardRefused):
            return f"the I/O board answered but cannot be used: {exc}"
        if isinstance(exc, OSError):
            return f"cannot open the I/O board's serial port: {exc}"
        if profile == "virtual-board" and isinstance(exc, ImportError):
            return f"the virtual I/O board cannot start: {exc}"
    return None


@contextmanager
def _pin_library_fallbacks(profile: str, tried: list[str]) -> Iterator[None]:
    """Collect gpiozero's ``PinFactoryFallback`` warnings (one per pin library it could not
    load) into ``tried`` instead of printing them: if no library loads they are part of
    the one message; if one does, they go to the log as warnings."""
    if profile != "gpio":
        yield
        return
    from gpiozero.exc import PinFactoryFallback

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PinFactoryFallback)
        try:
            yield
        finally:
            for warning in caught:
                if issubclass(warning.category, PinFactoryFallback):
                    tried.append(str(warning.message).removeprefix("Falling back from "))
                else:
                    warnings.warn_explicit(
                        warning.message, warning.category, warning.filename, warning.lineno
                    )


def open_table_hardware(
    config: HardwareConfig, *, clock: Callable[[], float] | None = None
) -> Hardware:
    """Open the hardware, turning "it is not there" into a :class:`CommandError`."""
    tried: list[str] = []
    try:
        with _pin_library_fallbacks(config.profile, tried):
            hw = open_hardware(config, clock=clock)
    except Exception as exc:
        message = hardware_problem(config.profile, exc, tried)
        if message is None:
            raise
        raise CommandError(f"cannot open the {config.profile} hardware: {message}") from None
    for fallback in tried:
        log.warning("gpio: the pin library %s could not be used", fallback)
    return hw


def hardware_config(
    profile: str | None, config_path: str | PathLike[str] | None, default: str = "sim"
) -> HardwareConfig:
    """The ``[hardware]`` of ``config_path`` (a table.toml; defaults without one) on
    ``profile`` (default: the file's, else ``default``); errors are :class:`CommandError`."""
    try:
        if config_path:
            hw = load_hardware_from_table(config_path)
        else:
            hw = HardwareConfig(profile=default)
        if profile and profile != hw.profile:
            hw = dataclasses.replace(hw, profile=profile)
        return hw
    except (TableConfigError, HardwareConfigError) as exc:
        raise CommandError(str(exc)) from None


def seed_words(seed: int, typed: bool, comma: str = ",") -> str:
    """The seed for the line a game starts with, only if the person typed it (``--seed``).
    A seed the companion drew stays off the shared screen: every card drawn and die rolled
    follows from it and the moves everyone saw (it is in the journal, for resume and
    replay)."""
    return f"{comma} seed {seed}" if typed else ""


def seed_shown(typed: int | None, resumed: Any | None) -> bool:
    """Whether the start line shows the seed (:func:`seed_words`): one the person typed
    (``--seed``, *typed*) for a new game; for a resumed one (*resumed*: its settings) a
    demo's (bots and simulated people only), or one whose dice follow a typed seed."""
    if resumed is None:
        return typed is not None
    return bool(resumed.demo or resumed.seeded_dice)


def who_plays(people: int, bots: int, phones: int = 0) -> str:
    """``1 at the terminal, 2 bots``, in words people read (``1 bot``, ``no bots``);
    ``phones`` of the ``people`` play from their phones (``--web --phone-seats``):
    ``1 at the terminal, 2 on phones, 1 bot``."""
    named = "no bots" if bots == 0 else f"{bots} bot{'s' if bots != 1 else ''}"
    parts = [f"{people - phones} at the terminal"] if people > phones or not phones else []
    if phones:
        parts.append(f"{phones} on phone{'s' if phones != 1 else ''}")
    return ", ".join([*parts, named])


def stopped_message(session: GameSession, reason: str, resume: str = "companion resume") -> str:
    """What ``quit``, the end of the input and Ctrl-C all print: how to continue."""
    where = (
        f"continue it with: {resume} {session.journal_path}"
        if session.journal_path is not None
        else "it was not journalled"
    )
    return f"game stopped ({reason}) after {len(session.state.history)} actions; {where}"


def start_journal(begin: Callable[[], GameSession]) -> GameSession:
    """Start (or continue) the session's journal; file problems become a CommandError."""
    try:
        return begin()
    except JournalError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"cannot start the journal: {exc.strerror or exc}") from None


def run_at_table(
    console: Any,
    hardware: HardwareConfig,
    begin: Callable[[], GameSession],
    play: Callable[[Hardware, GameSession], Any],
    *,
    clock: Callable[[], float] | None = None,
    archive_in: Path | None = None,
    terminal: TerminalInput | None = None,
    resume: str = "companion resume",
) -> tuple[int, Any]:
    """Open the hardware, start the journal, play; returns (exit code, final state or None).

    ``begin`` starts the journal (a new game) or attaches it (a resumed one);
    ``play(hw, session)`` runs the game and returns its final state. A finished
    game's journal in the folder ``archive_in`` is moved into its ``finished/``.
    ``terminal`` (the typed input, if any) is restored on every way out; ``resume``
    is the command the stop message names.
    """
    # the people at the table are needed once a game runs (serve opens the hardware and
    # resumes without them: its start-up does not import them)
    from companion.table.people import TableStopped

    try:
        with open_table_hardware(hardware, clock=clock) as hw:
            session = start_journal(begin)
            console.print(f"journal: {session.journal_path}", soft_wrap=True)
            journal = session.journal
            try:
                state = play(hw, session)
            except (TableStopped, EOFError) as exc:
                console.print(stopped_message(session, str(exc), resume), soft_wrap=True)
                return EXIT_STOPPED, None
            except KeyboardInterrupt:
                console.print(stopped_message(session, "Ctrl-C", resume), soft_wrap=True)
                return EXIT_INTERRUPTED, None
            except OSError as exc:  # the disk itself failed (a full disk only pauses the table)
                raise CommandError(
                    f"cannot write the journal {session.journal_path}: {exc.strerror or exc}; "
                    "everything up to the last record is kept: "
                    f"'companion resume {session.journal_path}' on a working disk"
                ) from None
            except BaseException:
                if journal is not None and journal.discard_unused():
                    console.print("the game did not begin: its journal was removed", soft_wrap=True)
                raise
            finally:
                if journal is not None:
                    journal.close()
    finally:
        if terminal is not None:
            terminal.restore()
    path = session.journal_path
    if (
        archive_in is not None
        and path is not None
        and session.state.is_terminal
        and path.parent.resolve() == archive_in.resolve()
    ):
        archive(path)
    return 0, state
