"""A game session: the game state plus its journal, undo, and resume after a power cut.

The table loop goes through :class:`GameSession` for every action:

1. :meth:`GameSession.commit` checks the action is legal and writes it to the
   journal, durably (flush + fsync);
2. only then does the table show a die face or apply it
   (:meth:`GameSession.apply`), which also writes a checkpoint when a turn starts
   and an ``end`` record when the game is over.

The Eliminator is the exception to "write first, then act", because nothing may
stand between the red button and the coil: :meth:`GameSession.armed` is made
durable when an explosion is *armed* (before anyone can press), the coil fires
at the press with no disk I/O, and :meth:`GameSession.fired` follows the pulse.
A journal that ends between the two (``armed_before_stop``) is an explosion
whose tile may or may not have flown: the table arms it again and lets the
players confirm that it already flew.

:func:`resume_session` rebuilds a session from a journal by replaying the engine,
checking every checkpoint, and continues writing to it.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import field
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import __version__
from companion.datafiles import DataFileError, check_data_file
from companion.games.battle_royale.config import BattleRoyaleConfig
from companion.games.core.errors import IllegalActionError
from companion.games.registry import get_game
from companion.records import Record
from companion.table.journal import (
    FORMAT,
    JournalContents,
    JournalError,
    JournalWriter,
    file_sha256,
    read_journal,
    state_digest,
)
from companion.table.journals import find_unfinished  # noqa: F401 - re-exported

if TYPE_CHECKING:
    from companion.games.battle_royale.events import Event
    from companion.games.core.game import Game

GAME = "battle-royale"
MODES = ("tracked", "assist")  # assist mode exists for Battle Royale

#: What undo stops at, per game, in its own terms (:meth:`GameSession.undo`; the skirmish:
#: the default, "a die roll or a new turn").
UNDO_BARRIERS = {
    "battle-royale": "a die roll, a card drawn, a new turn or a fired Eliminator",
    "spartacus": "a die roll, a card drawn or a new turn",
    "gladiatoren": "a die roll, an animal drawn or a new turn",
}

#: How a ``fired`` record knows the tile flew: the coil at a press, or the players' word.
FIRED_SOURCES = ("coil", "players", "fault")
BUILTIN = "builtin:"


class UndoRefused(ValueError):
    """Nothing (or not that much) can be undone; the message says why."""


class SessionSettings(Record, frozen=False):
    """What a resumed session needs besides the game: mode, bots, hardware, seed.

    ``seed`` seeds the bots and the simulated people; ``seeded_dice`` says whether
    the dice follow it too (None: the game's default, for journals written before
    it was recorded). A resumed seeded game draws the same as the uninterrupted one
    (see :mod:`companion.table.seeding`). ``demo``: bots and simulated people only
    (a demo or ``--autoplay``); ``serve`` never resumes such a game by itself.
    """

    mode: str = "tracked"
    bots: int = 0
    hardware: str = "sim"
    seed: int | None = None
    game: str = GAME
    bot_seats: tuple[int, ...] | None = None  # which seats bots play, when not the last ``bots``
    seeded_dice: bool | None = None
    demo: bool = False
    #: the search bot's level for the bots' seats (``docs/bots.md``); ``None``: the game's
    #: own table bot (and every journal written before levels were recorded)
    bot_level: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "mode": self.mode,
            "bots": self.bots,
            "hardware": self.hardware,
            "seed": self.seed,
        }
        if self.bot_seats is not None:
            data["bot_seats"] = list(self.bot_seats)
        if self.seeded_dice is not None:
            data["seeded_dice"] = self.seeded_dice
        if self.demo:
            data["demo"] = True
        if self.bot_level is not None:
            data["bot_level"] = self.bot_level
        return data

    @property
    def dice_follow_seed(self) -> bool:
        """Whether this game's dice come from ``seed`` (Battle Royale: only if asked for)."""
        if self.seeded_dice is not None:
            return self.seeded_dice and self.seed is not None
        return self.game != GAME and self.seed is not None

    @property
    def info(self) -> Game:
        return get_game(self.game)


def fire_token(turn: int, field_name: str) -> str:
    """The token an explosion arms the solenoid guard with (and the journal records)."""
    return f"turn-{turn}-{field_name}"


def _builtin_sha(name: str) -> str:
    import hashlib

    data = resources.files("companion.data").joinpath(name).read_bytes()
    return hashlib.sha256(data).hexdigest()


def data_files(config: Any, game: Game) -> dict[str, dict[str, str]]:
    """The data files a game uses, with their SHA-256, for the journal header."""
    files = {"dice": {"path": BUILTIN + "dice.json", "sha256": _builtin_sha("dice.json")}}
    own = getattr(config, "data_file", None)
    if own is not None:
        path = check_data_file(Path(own).resolve())
        files[game.name] = {"path": str(path), "sha256": file_sha256(path)}
    elif game.builtin_data is not None:
        files[game.name] = {
            "path": BUILTIN + game.builtin_data,
            "sha256": _builtin_sha(game.builtin_data),
        }
    return files


def journal_header(config: Any, settings: SessionSettings) -> dict[str, Any]:
    game = settings.info
    header = {
        "format": FORMAT,
        "software": __version__,
        "game": game.name,
        "mode": settings.mode,
        "config": config.to_dict(),
        "players": list(getattr(config, "colours", ()) or getattr(config, "players", ())),
        "data_files": data_files(config, game),
        "session": settings.to_dict(),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    if hasattr(config, "arena_layout"):
        header["layout"] = config.arena_layout.draw()
    return header


def _assist() -> Any:
    """Assist mode's engine (:mod:`companion.games.battle_royale.assist`), loaded when an
    assist game starts or resumes, not when a table's configuration is read."""
    from companion.games.battle_royale import assist

    return assist


def new_state(settings: SessionSettings, config: Any) -> Any:
    if settings.mode == "assist":
        return _assist().new_assist_game(config)
    return settings.info.new_game(config)


def _replay(settings: SessionSettings, config: Any, history: list[Any]) -> Any:
    if settings.mode == "assist":
        return _assist().replay_assist(config, history)
    return settings.info.replay(config, history)


def decode_action(settings: SessionSettings, data: Any) -> Any:
    if settings.mode == "assist":
        return _assist().assist_action_from_dict(data)
    return settings.info.action_from_dict(data)


class GameSession(Record, frozen=False):
    """One game and its journal. ``journal`` may be None (nothing is written)."""

    state: Any
    config: Any
    settings: SessionSettings
    journal: JournalWriter | None = None
    barrier: int = 0  # history before this index can never be undone
    fired_tokens: set[str] = field(default_factory=set)
    # of those, explosions settled by a solenoid fault: the tile was lifted out by hand
    fault_tokens: set[str] = field(default_factory=set)
    # explosions whose arming is durable (an ``armed`` record)
    armed_tokens: set[str] = field(default_factory=set)
    # armed in an earlier run of this journal and not fired since: the table stopped
    # (a power cut, a crash) while it was armed, so its tile may already have flown
    armed_before_stop: set[str] = field(default_factory=set)
    # tracked mode: an explosion the engine resolved whose firing is not journalled yet
    # (a power cut between the two): the table arms it again when the game resumes
    pending_fire: tuple[str, str] | None = None
    # resume: the last turn started but its checkpoint record was lost with the power
    checkpoint_due: bool = False
    # the hints shown (``hint`` records, as journalled): listed, never replayed as actions
    hints: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def start(
        cls, config: Any, settings: SessionSettings, journal_path: str | Path | None
    ) -> GameSession:
        """A new game; its journal (if a path is given) starts with the header."""
        state = new_state(settings, config)
        journal = None
        if journal_path is not None:
            journal = JournalWriter.create(journal_path, journal_header(config, settings))
        return cls(state, config, settings, journal)

    @property
    def journal_path(self) -> Path | None:
        return self.journal.path if self.journal else None

    # -- the order: journal first, then act ---------------------------------------------

    def commit(self, action: Any) -> None:
        """Check ``action`` is legal now and make it durable in the journal.

        Raises :class:`IllegalActionError` (nothing written) for an illegal action.
        """
        if action not in self.state.legal_actions():
            self.state.apply(action)  # raises with the rule and the reason; changes nothing
        if self.journal is not None:
            self.journal.append("action", action=action.to_dict())

    def apply(self, action: Any) -> list[Event]:
        """Apply a committed action; writes a checkpoint when a turn starts."""
        events = self.state.apply(action)
        self._after(action, events)
        return events

    def _after(self, action: Any, events: list[Event], write: bool = True) -> None:
        for event in events:
            if event.kind == "explosion_armed" and self.settings.mode == "tracked":
                field_name = event.data["field"]
                self.pending_fire = (field_name, fire_token(self.state.turn, field_name))
        turn_started = any(e.kind == "turn_started" for e in events)
        if action.is_chance or turn_started or action.kind == "fired":
            self.barrier = len(self.state.history)
        if not write or self.journal is None:
            return
        if turn_started:
            self.write_checkpoint()

    def write_checkpoint(self) -> None:
        """The ``checkpoint`` record of the turn that has just started."""
        assert self.journal is not None
        self.journal.append(
            "checkpoint",
            actions=len(self.state.history),
            turn=getattr(self.state, "turn", None),
            digest=state_digest(self.state.snapshot()),
        )

    def hint_shown(self, seat: int, level: str, shown: dict[str, Any]) -> dict[str, Any]:
        """Journal a hint as it was shown to ``seat`` (``shown``: what the screen said,
        ``Hint.to_dict()``): a ``hint`` record, never an action; replay and resume skip
        it, ``companion replay`` lists it. Returns the record."""
        record = {"seat": seat, "actions": len(self.state.history), "level": level, "shown": shown}
        if self.journal is not None:
            record = self.journal.append("hint", **record)
        self.hints.append(record)
        return record

    def finish(self) -> None:
        """Write the ``end`` record once the game is over and the table has acted on it."""
        if self.journal is not None and self.state.is_terminal:
            self.journal.append(
                "end", winners=list(self.state.winners), reason=self.state.end_reason
            )

    def armed(self, field_name: str, token: str) -> None:
        """Record, durably, that the Eliminator is being armed for this explosion.

        Written before the solenoid guard is armed, so before anyone can press the
        red button; once per token. Undo never crosses it.
        """
        self.barrier = len(self.state.history)
        if token in self.armed_tokens:
            return
        self.armed_tokens.add(token)
        if self.journal is not None:
            self.journal.append(
                "armed", field=field_name, token=token, actions=len(self.state.history)
            )

    def fired(
        self, field_name: str, token: str, *, source: str = "coil", fault: str | None = None
    ) -> None:
        """Record, durably, that the explosion is done: undo never crosses it, and it is
        never armed again.

        *source* is ``"coil"`` (a pulse fired at a press; written after the pulse),
        ``"players"`` (after a stop, the players confirmed it had flown already) or
        ``"fault"`` (the solenoid driver failed at the press: the coil is confirmed off and
        the players lift the tile out by hand; *fault* says what failed).
        """
        if source not in FIRED_SOURCES:
            raise ValueError(f"source must be one of {FIRED_SOURCES}, not {source!r}")
        self.barrier = len(self.state.history)
        if self.pending_fire and self.pending_fire[1] == token:
            self.pending_fire = None
        self.armed_before_stop.discard(token)
        if token in self.fired_tokens:
            return
        self.fired_tokens.add(token)
        if source == "fault":
            self.fault_tokens.add(token)
        if self.journal is not None:
            extra = {} if fault is None else {"fault": fault}
            self.journal.append(
                "fired",
                field=field_name,
                token=token,
                actions=len(self.state.history),
                source=source,
                **extra,
            )

    # -- undo ---------------------------------------------------------------------------

    def undoable(self) -> int:
        """How many of the last actions can be undone: this turn's data entry since the last
        die roll, card draw or fired Eliminator."""
        return len(self.state.history) - self.barrier

    def _barriers_in_words(self) -> str:
        """What undo stops at, in this game's terms (a Kampf der Gladiatoren player was told
        of cards and a fired Eliminator)."""
        return UNDO_BARRIERS.get(self.settings.game, "a die roll or a new turn")

    def bot_seats(self) -> tuple[int, ...]:
        """The seats bots play: as recorded, else the last ``bots`` seats."""
        if self.settings.bot_seats is not None:
            return self.settings.bot_seats
        players = self.config.players
        return tuple(range(players - self.settings.bots, players))

    def undo_choices(self, seat: int, count: int = 1) -> int:
        """Take back ``seat``'s last ``count`` choices of this turn and what the bots did
        after them (they choose again); returns how many actions that was. Refused for a
        die roll or card drawn in between (:meth:`undoable`), and for another person's
        move after them: that person takes it back first. Before, ``undo`` took back the
        last action whoever made it: after a bot's pass, the bot's, which it made again."""
        if count < 1:
            raise UndoRefused("undo needs a count of 1 or more")
        actors = self._actors_since_barrier()
        own = [i for i, who in enumerate(actors) if who == seat]
        if len(own) < count:
            if not own:
                raise UndoRefused(
                    f"nothing of yours to undo: {self._barriers_in_words()} cannot be undone"
                )
            raise UndoRefused(f"only {len(own)} of your choices can be undone now")
        start = own[-count]
        bots = set(self.bot_seats())
        people = sorted({w for w in actors[start:] if w not in (None, seat) and w not in bots})
        if people:
            names = " and ".join(self.state.seat_name(w) for w in people)
            raise UndoRefused(f"that would take back {names}'s move too: {names} may undo it first")
        taken = len(actors) - start
        self.undo(taken)
        return taken

    def _actors_since_barrier(self) -> list[int | None]:
        """Who made each undoable action (None: a chance outcome), by replaying them."""
        history = self.state.history
        state = _replay(self.settings, self.config, history[: self.barrier])
        actors: list[int | None] = []
        for action in history[self.barrier :]:
            who = None
            if not state.is_chance_node:
                actor = getattr(state, "actor", None)  # a move made out of turn (Spartacus)
                who = actor(action) if actor is not None else None
                if who is None and state.current_player >= 0:
                    who = state.current_player
            actors.append(who)
            state.apply(action)
        return actors

    def undo(self, count: int = 1) -> Any:
        """Take back the last ``count`` data-entry actions; the undo is journalled too."""
        if count < 1:
            raise UndoRefused("undo needs a count of 1 or more")
        available = self.undoable()
        if count > available:
            if available == 0:
                raise UndoRefused(f"nothing to undo: {self._barriers_in_words()} cannot be undone")
            raise UndoRefused(f"only {available} action(s) of this turn can be undone")
        if self.journal is not None:
            self.journal.append("undo", count=count)
        self.state = _replay(self.settings, self.config, self.state.history[:-count])
        return self.state


# -- resume ---------------------------------------------------------------------------------

HARDWARE_PROFILES = ("sim", "gpio", "serial", "virtual-board")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _header_problem(header: dict[str, Any]) -> str | None:
    """What is wrong with the shape of a (checksummed) header, or None.

    A header with a good CRC was written by companion, or edited by someone who
    recomputed the CRC; either way every value is checked before it is used.
    """

    def bad(key: str, expected: str) -> str:
        value = header
        for part in key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        shown = repr(value)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        return f"the header's {key} is {shown}, expected {expected}"

    if not isinstance(header.get("game"), str):
        return bad("game", "a game name")
    if not isinstance(header.get("mode"), str):
        return bad("mode", f"{' or '.join(MODES)}")
    if not isinstance(header.get("config"), dict):
        return bad("config", "an object with the game's settings")
    data_file = header["config"].get("data_file")
    if data_file is not None and not isinstance(data_file, str):
        return bad("config.data_file", "null or a file path")
    files = header.get("data_files", {})
    if not isinstance(files, dict):
        return bad("data_files", "an object of {name: {path, sha256}}")
    for name, entry in files.items():
        if not (
            isinstance(entry, dict)
            and isinstance(entry.get("path"), str)
            and isinstance(entry.get("sha256"), str)
        ):
            return bad(f"data_files.{name}", "an object with a path and a sha256")
    session = header.get("session", {})
    if not isinstance(session, dict):
        return bad("session", "an object with the session settings")
    bots = session.get("bots", 0)
    if not (_is_int(bots) and 0 <= bots <= 16):
        return bad("session.bots", "a whole number of bots, 0..16")
    if session.get("hardware", "sim") not in HARDWARE_PROFILES:
        return bad("session.hardware", f"one of {', '.join(HARDWARE_PROFILES)}")
    seed = session.get("seed")
    if seed is not None and not _is_int(seed):
        return bad("session.seed", "null or a whole number")
    seats = session.get("bot_seats")
    if seats is not None and not (
        isinstance(seats, list)
        and len(seats) <= 16
        and all(_is_int(x) and 0 <= x < 16 for x in seats)
    ):
        return bad("session.bot_seats", "null or a list of seat numbers")
    for flag in ("seeded_dice", "demo"):
        if session.get(flag) is not None and not isinstance(session.get(flag), bool):
            return bad(f"session.{flag}", "true or false")
    if session.get("bot_level") is not None:
        from companion.games.search.bot import LEVELS  # only a game with bots imports the search

        if session["bot_level"] not in LEVELS:
            return bad("session.bot_level", f"null or one of {', '.join(LEVELS)}")
    return None


def _check_data_files(header: dict[str, Any], path: Path) -> None:
    """Every data file the header names (and the config's own) is the one the game used."""
    for name, entry in header.get("data_files", {}).items():
        file = entry["path"]
        if file.startswith(BUILTIN):
            try:
                same = _builtin_sha(file[len(BUILTIN) :]) == entry["sha256"]
            except (OSError, ValueError):  # no such built-in file
                same = False
            if not same:
                raise JournalError(
                    f"{path}: the built-in {name} data changed since this game started (it was "
                    f"written by companion {header.get('software')}, this is {__version__}); "
                    "replaying it could give another game. Resume it with the version that "
                    "started it"
                )
            continue
        if not Path(file).exists():
            raise JournalError(
                f"{path}: the game uses the data file {file}, which is missing; "
                "put it back at that path to resume"
            )
        try:
            check_data_file(file)
        except DataFileError as exc:
            raise JournalError(f"{path}, line 1: {exc}") from None
        if file_sha256(file) != entry["sha256"]:
            raise JournalError(
                f"{path}: the data file {file} changed since the game started; "
                "restore the version the game started with to resume"
            )
    own = header["config"].get("data_file")
    if own is not None:
        try:
            check_data_file(own)
        except DataFileError as exc:
            raise JournalError(f"{path}, line 1: {exc}") from None


def _check_header(
    contents: JournalContents, game: str | None = None
) -> tuple[Any, SessionSettings]:
    header, path = contents.header, contents.path
    problem = _header_problem(header)
    if problem is not None:
        raise JournalError(
            f"{path}, line 1: {problem}; the file was not written this way by companion "
            "(edited, or damaged with a matching checksum), so it cannot be used"
        )
    name = header["game"]
    if game is not None and name != game:
        raise JournalError(f"{path} is a journal of {name!r}, not {game}")
    mode = header["mode"]
    if mode == "assist" and name == GAME:
        # assist mode needs Battle Royale's configuration, not its full engine (a table
        # resumes sooner without importing it)
        config_type: Any = BattleRoyaleConfig
    else:
        try:
            config_type = get_game(name).config
        except KeyError as exc:
            raise JournalError(f"{path}: {exc.args[0]}; this companion cannot resume it") from None
    session = header.get("session", {})
    if mode not in MODES or (mode == "assist" and name != GAME):
        raise JournalError(
            f"{path}: unknown mode {mode!r} in the header (expected {' or '.join(MODES)})"
        )
    _check_data_files(header, path)
    try:
        config = config_type.from_dict(header["config"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise JournalError(
            f"{path}, line 1: the game config in the header is not usable: {exc}"
        ) from None
    seats = session.get("bot_seats")
    settings = SessionSettings(
        mode=mode,
        bots=session.get("bots", 0),
        hardware=session.get("hardware", "sim"),
        seed=session.get("seed"),
        game=name,
        bot_seats=None if seats is None else tuple(seats),
        seeded_dice=session.get("seeded_dice"),
        demo=session.get("demo", False),
        bot_level=session.get("bot_level"),
    )
    return config, settings


def rebuild(
    contents: JournalContents, *, until_turn: int | None = None, game: str | None = None
) -> GameSession:
    """Replay a journal into a session (without a writer); verifies every checkpoint.

    Data-entry actions are held back until the next die roll, card draw,
    checkpoint or fire (the points undo never crosses), so an ``undo`` record just
    drops them instead of replaying the game again. With ``until_turn``, stops
    when that turn is over (the next one has just begun).
    """
    config, settings = _check_header(contents, game)
    session = GameSession(new_state(settings, config), config, settings)
    path = contents.path
    held: list[tuple[int, Any]] = []  # (line, action) that an undo may still take back

    def fail(line: int, why: str) -> JournalError:
        return JournalError(
            f"{path}, line {line}: this record cannot be replayed ({why}). "
            f"Nothing was changed; 'companion resume {path} --until-line "
            f"{line - 1}' continues from the records before it"
        )

    def play(line: int, action: Any) -> None:
        try:
            events = session.state.apply(action)
        except IllegalActionError as exc:
            raise fail(line, str(exc)) from None
        session._after(action, events, write=False)
        if any(e.kind == "turn_started" for e in events):
            session.checkpoint_due = True  # until its checkpoint record is read

    def flush() -> None:
        for line, action in held:
            play(line, action)
        held.clear()

    for line, record in contents.records:
        if until_turn is not None and session.state.turn > until_turn:
            break
        kind = record["type"]
        if kind == "action":
            try:
                action = decode_action(settings, record.get("action"))
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                raise fail(line, f"not an action of this game: {exc}") from None
            if action.is_chance:
                flush()
                play(line, action)
            else:
                held.append((line, action))
        elif kind == "undo":
            count = record.get("count")
            if not _is_int(count) or not 1 <= count <= len(held):
                raise fail(
                    line,
                    f"undo of {count!r} action(s), but only {len(held)} of this "
                    "turn's data entry can be undone there",
                )
            del held[-count:]
        elif kind == "armed":
            flush()
            token = str(record.get("token"))
            session.armed(str(record.get("field")), token)
            if token not in session.fired_tokens:
                session.armed_before_stop.add(token)
        elif kind == "fired":
            flush()
            source = record.get("source", "coil")
            session.fired(
                str(record.get("field")),
                str(record.get("token")),
                source=source if source in FIRED_SOURCES else "coil",
            )  # (the fault's message stays in the journal; the table needs only the source)
        elif kind == "hint":  # shown to a seat, not an action: listed, never replayed
            session.hints.append(record)
        elif kind == "checkpoint":
            flush()
            session.checkpoint_due = False
            digest = state_digest(session.state.snapshot())
            if (
                record.get("actions") != len(session.state.history)
                or record.get("digest") != digest
            ):
                raise JournalError(
                    f"{path}, line {line}: the replayed game does not match the checkpoint "
                    "written during play (another rules version or data?). Nothing was "
                    f"changed; inspect it with 'companion replay {path} --until-line "
                    f"{line - 1}' and attach the file to a bug report"
                )
    flush()
    return session


class PendingResume(Record, frozen=False):
    """A journal read, checked and replayed, not yet continued: nothing was written.

    ``session`` is the rebuilt game (without a journal writer). :meth:`attach`
    is the first and only step that touches the file system: it cuts a torn
    tail (or, with ``until_line``, copies the good records to a new file) and
    gives the session its writer. Call it only once everything else that can
    fail (configuration, hardware) has been checked.
    """

    session: GameSession
    contents: JournalContents
    until_line: int | None = None
    new_path: Path | None = None

    @property
    def warnings(self) -> list[str]:
        return self.contents.warnings

    @property
    def path(self) -> Path:
        """The file the game continues in (a new file with ``until_line``)."""
        if self.until_line is None:
            return self.contents.path
        source = self.contents.path
        return self.new_path or source.with_name(
            f"{source.stem}.from-line-{self.until_line}{source.suffix}"
        )

    def attach(self) -> GameSession:
        """Continue the journal: the session writes to it from now on."""
        source, target = self.contents.path, self.path
        if target != source:
            if target.exists():
                raise JournalError(f"{target} exists already; move it away or pass another name")
            with open(source, "rb") as src, open(target, "xb") as dst:
                dst.write(src.read(self.contents.valid_bytes))
                dst.flush()
                os.fsync(dst.fileno())
            shutil.copystat(source, target)
        self.session.journal = JournalWriter.reopen(
            target, self.contents.valid_bytes, self.contents.next_n
        )
        if self.session.checkpoint_due:  # the power went between a turn's start and its
            self.session.write_checkpoint()  # checkpoint: write it, as the game would have
            self.session.checkpoint_due = False
        return self.session


def load_resume(
    path: str | Path,
    *,
    until_line: int | None = None,
    new_path: str | Path | None = None,
    game: str | None = None,
) -> PendingResume:
    """Read, check and replay a journal for resuming; never changes a file.

    Raises :class:`JournalError` for a journal that cannot be continued (corrupt,
    another game, a finished game, a target file that exists).
    """
    path = Path(path)
    contents = read_journal(path, until_line=until_line)
    session = rebuild(contents, game=game)
    if contents.finished:
        raise JournalError(
            f"{path}: this game is over ({contents.records[-1][1].get('reason')})"
            f"; see it with 'companion replay {path}'"
        )
    pending = PendingResume(session, contents, until_line, Path(new_path) if new_path else None)
    if until_line is not None and pending.path.exists():
        raise JournalError(f"{pending.path} exists already; move it away or pass another name")
    return pending


def resume_session(
    path: str | Path,
    *,
    until_line: int | None = None,
    new_path: str | Path | None = None,
    game: str | None = None,
) -> tuple[GameSession, list[str]]:
    """Rebuild a session from its journal and continue writing to it.

    Every check runs before the file is touched, so a failed resume changes
    nothing. With ``until_line``, the records up to that line are copied to a new
    journal (``new_path``, default ``<name>.from-line-N.jsonl``), which continues;
    the original is left as it is. Returns the session and the warnings
    (a dropped torn record). Commands use :func:`load_resume` and attach only
    after checking the hardware.
    """
    pending = load_resume(path, until_line=until_line, new_path=new_path, game=game)
    return pending.attach(), pending.warnings
