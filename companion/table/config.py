"""Table configuration: the ``table.toml`` file with ``[game]``, ``[hardware]`` and ``[journal]``.

``[hardware]`` is validated by :func:`companion.hal.load_hardware_config` (see
``docs/hardware.md``); this module adds ``[game]`` and checks the two against
each other (every player colour needs a turn LED). Every problem in a file is
reported at once, each naming the full key (``game.players``), the bad value
and what is allowed, in one :exc:`TableConfigError`. A commented example ships
in the package (``companion config example`` prints it, :func:`example_table_config_text`
returns it)::

    [game]
    name = "battle-royale"  # the only game so far
    players = 3             # 2..4
    mode = "assist"         # "assist" (the pieces are the truth) or "tracked"
    layout = "first-game"   # a layout name from the data file, or 5 lines of # . C

    [hardware]
    profile = "gpio"

    [journal]
    keep_finished = 500     # finished games whose journals are kept (the oldest go first)

Tables or keys left out keep their defaults: an empty file is assist mode for
four players on simulated hardware, like :func:`default_table_config`.

Which file a command reads (:func:`find_table_config`), first found wins:

1. ``--config FILE`` on the command line;
2. the file named by the environment variable ``COMPANION_CONFIG``;
3. ``$XDG_CONFIG_HOME/companion/table.toml`` (``~/.config/companion/table.toml``);
4. the system file: ``$CONFIGURATION_DIRECTORY/table.toml`` when systemd set that
   variable (the unit's ``ConfigurationDirectory=companion``), then
   ``/etc/companion/table.toml``;

and without any of them the built-in defaults. A file named by 1 or 2 must exist
(a typo is an error, not a silent fallback); 3 and 4 are used only if they exist.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import field, replace
from importlib import resources
from os import PathLike
from pathlib import Path
from typing import Any

from companion.datafiles import DataFileError, check_data_file
from companion.games.battle_royale.config import COLOURS, BattleRoyaleConfig, ConfigError
from companion.games.battle_royale.data import DataError, load_data
from companion.games.battle_royale.layout import Layout, LayoutError
from companion.hal.config import (
    ConfigProblem,
    HardwareConfig,
    HardwareConfigError,
    load_hardware_config,
)
from companion.records import Record

__all__ = [
    "CONFIG_ENV",
    "DEFAULT_TABLE_CONFIG_PATH",
    "GAMES",
    "GAME_KEYS",
    "MODES",
    "ConfigChoice",
    "FileProblem",
    "GameSettings",
    "JournalSettings",
    "TableConfig",
    "TableConfigError",
    "default_table_config",
    "example_table_config_text",
    "find_table_config",
    "load_found_table_config",
    "load_hardware_from_table",
    "load_table_config",
    "read_table_file",
    "table_config_from_mapping",
]

#: Where the Pi service reads its configuration (see docs/pi-service.md).
DEFAULT_TABLE_CONFIG_PATH = "/etc/companion/table.toml"
#: The environment variable that names a table.toml (after --config, before the user's file).
CONFIG_ENV = "COMPANION_CONFIG"
#: The file name in the user's and the system's configuration folder.
CONFIG_FILE_NAME = "table.toml"
#: The commented example, a resource of ``companion.data``.
EXAMPLE_RESOURCE = "table.example.toml"
#: Games a table can run.
GAMES: tuple[str, ...] = ("battle-royale",)
#: ``assist``: the pieces on the table are the truth; ``tracked``: every figure is tracked.
MODES: tuple[str, ...] = ("assist", "tracked")
#: The keys of ``[game]``.
GAME_KEYS: tuple[str, ...] = (
    "name",
    "players",
    "mode",
    "colours",
    "layout",
    "start_player",
    "bots",
    "data_file",
    "abilities",
    "special_actions",
)
#: The keys of ``[journal]``.
JOURNAL_KEYS: tuple[str, ...] = ("keep_finished",)
#: How many finished games' journals ``serve`` keeps by default (about 90 KB each).
DEFAULT_KEEP_FINISHED = 500
MAX_KEEP_FINISHED = 1_000_000
_TABLES: tuple[str, ...] = ("game", "hardware", "journal")
#: The largest table.toml read (a real one is about 2 KB).
MAX_TABLE_FILE_BYTES = 256 * 1024
_LAYOUT_ALLOWED = (
    "a layout name from the data file ({names}), or 5 lines of # (field), . (hole) and C "
    "(the centre, in the middle)"
)


class FileProblem(Record):
    """A problem with the file itself (unreadable, not UTF-8, TOML syntax), not with a key."""

    key: str
    value: Any
    allowed: str
    message: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        return self.message


Problem = ConfigProblem | FileProblem


class TableConfigError(ValueError):
    """
    The table configuration is invalid. *problems* lists every problem;
    *key*, *value* and *allowed* are those of the first one, *source* names
    the file. For a TOML syntax error, *line* and *column* say where.
    """

    def __init__(self, problems: Sequence[Problem], source: str | None = None) -> None:
        if not problems:
            raise ValueError("TableConfigError needs at least one problem")
        self.problems: list[Problem] = list(problems)
        self.source = source
        first = self.problems[0]
        self.key, self.value, self.allowed = first.key, first.value, first.allowed
        self.line = getattr(first, "line", None)
        self.column = getattr(first, "column", None)
        where = f" in {source}" if source else ""
        if len(self.problems) == 1:
            text = f"invalid table configuration{where}: {first}"
        else:
            text = f"invalid table configuration{where}:\n" + "\n".join(
                f"  - {p}" for p in self.problems
            )
        super().__init__(text)


# -- [game] --------------------------------------------------------------------------------


class GameSettings(Record):
    """
    The validated ``[game]`` table. Building one directly validates it too.

    :param name: the game, ``"battle-royale"``.
    :param players: 2..4, seated clockwise in the order of *colours*.
    :param mode: ``"assist"`` or ``"tracked"``.
    :param colours: one colour per seat; empty means the first *players* of
        purple, grey, turquoise, red.
    :param layout: a layout name from the data file, or 5 lines of ``#``/``.``/``C``.
    :param start_player: the seat that starts (0 is the first colour), or None to draw it.
    :param bots: tracked mode only: how many seats, counted from the last, bots play.
    :param data_file: a Battle Royale data file, or None for the built-in data.
    :param abilities: play with the optional ability cards.
    :param special_actions: play with the optional special actions.
    """

    name: str = "battle-royale"
    players: int = 4
    mode: str = "assist"
    colours: tuple[str, ...] = ()
    layout: str = "first-game"
    start_player: int | None = None
    bots: int = 0
    data_file: str | None = None
    abilities: bool = False
    special_actions: bool = False
    _br: BattleRoyaleConfig | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        problems = _check_game(self)
        if not problems:
            colours = tuple(self.colours) or COLOURS[: self.players]
            object.__setattr__(self, "colours", colours)
            try:
                br = BattleRoyaleConfig(
                    players=self.players,
                    colours=colours,
                    layout=self.layout,
                    start_player=self.start_player,
                    abilities=self.abilities,
                    special_actions=self.special_actions,
                    data_file=self.data_file,
                )
            except (ConfigError, LayoutError) as exc:
                problems.append(_engine_problem(self, exc))
            else:
                object.__setattr__(self, "_br", br)
        if problems:
            raise TableConfigError(problems)

    def battle_royale_config(self) -> BattleRoyaleConfig:
        """The rules engine's configuration for this game."""
        assert self._br is not None
        return self._br

    @property
    def bot_seats(self) -> tuple[int, ...]:
        """Seats bots play (tracked mode): the last *bots* seats."""
        return tuple(range(self.players - self.bots, self.players))

    @property
    def human_seats(self) -> tuple[int, ...]:
        """Seats people play."""
        return tuple(range(self.players - self.bots))

    def to_mapping(self) -> dict[str, Any]:
        """The settings as a ``[game]`` table (loadable again; no start_player if drawn)."""
        mapping: dict[str, Any] = {
            "name": self.name,
            "players": self.players,
            "mode": self.mode,
            "colours": list(self.colours),
            "layout": self.layout,
            "bots": self.bots,
            "abilities": self.abilities,
            "special_actions": self.special_actions,
        }
        if self.start_player is not None:
            mapping["start_player"] = self.start_player
        if self.data_file is not None:
            mapping["data_file"] = self.data_file
        return mapping


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _one_of(values: Sequence[str]) -> str:
    return "one of " + ", ".join(f'"{v}"' for v in values)


def _check_game(g: GameSettings) -> list[Problem]:
    """Every problem of *g*'s values, as ``game.*`` problems (engine checks excluded)."""
    problems: list[Problem] = []

    def add(key: str, value: Any, allowed: str, problem: str = "is not allowed") -> None:
        problems.append(ConfigProblem(f"game.{key}", value, allowed, problem))

    if g.name not in GAMES:
        add("name", g.name, _one_of(GAMES))
    players_ok = _is_int(g.players) and 2 <= g.players <= 4
    if not players_ok:
        add("players", g.players, "2, 3 or 4")
    if g.mode not in MODES:
        add(
            "mode",
            g.mode,
            _one_of(MODES) + " (assist: the pieces on the table are the truth; tracked: "
            "every figure is tracked)",
        )

    colours_allowed = (
        f"{g.players if players_ok else 'one per player,'} different colours from "
        f"{', '.join(COLOURS)}, in seat order (leave it out for the first "
        f"{g.players if players_ok else 'N'})"
    )
    colours = g.colours
    if isinstance(colours, str) or not isinstance(colours, Sequence):
        add("colours", colours, "a list of " + colours_allowed)
    elif colours:
        unknown = [c for c in colours if c not in COLOURS]
        dupes = sorted({c for c in colours if isinstance(c, str) and list(colours).count(c) > 1})
        if unknown:
            add("colours", list(colours), colours_allowed, f"names unknown colours {unknown}")
        elif dupes:
            add("colours", list(colours), colours_allowed, f"names {', '.join(dupes)} twice")
        elif players_ok and len(colours) != g.players:
            add(
                "colours",
                list(colours),
                colours_allowed,
                f"has {len(colours)} colours for {g.players} players",
            )

    if not isinstance(g.layout, str) or not g.layout.strip():
        add("layout", g.layout, _LAYOUT_ALLOWED.format(names="e.g. first-game"))

    if g.start_player is not None:
        seats = (
            f"a seat from 0 to {g.players - 1} (0 = the first colour)"
            if players_ok
            else "a seat number (0 = the first colour)"
        )
        allowed = seats + "; leave it out to draw the start player at random"
        if not _is_int(g.start_player) or (players_ok and not 0 <= g.start_player < g.players):
            add("start_player", g.start_player, allowed)

    if not (_is_int(g.bots) and g.bots >= 0 and (not players_ok or g.bots <= g.players)):
        most = g.players if players_ok else "the number of players"
        add("bots", g.bots, f"a whole number from 0 to {most} (bots play the last seats)")
    elif g.bots and g.mode == "assist":
        add(
            "bots",
            g.bots,
            '0 in assist mode (bots play only in mode = "tracked")',
        )

    data_ok = g.data_file is None or (isinstance(g.data_file, str) and g.data_file.strip())
    if not data_ok:
        add("data_file", g.data_file, "the path of a Battle Royale data file (JSON)")
    else:
        try:
            if g.data_file is not None:
                check_data_file(g.data_file)
            data = load_data(g.data_file)
        except (DataError, DataFileError) as exc:
            add(
                "data_file",
                g.data_file,
                "a readable, valid Battle Royale data file (JSON); leave it out for the "
                "built-in data",
                f"cannot be used: {exc}",
            )
        else:
            if isinstance(g.layout, str) and g.layout.strip():
                problem = _layout_problem(g.layout, data.layouts)
                if problem is not None:
                    problems.append(problem)

    for key in ("abilities", "special_actions"):
        value = getattr(g, key)
        if not isinstance(value, bool):
            add(key, value, "true or false")
    return problems


def _layout_problem(layout: str, known: Mapping[str, Layout]) -> ConfigProblem | None:
    allowed = _LAYOUT_ALLOWED.format(names=", ".join(known))
    if layout in known:
        return None
    if "\n" not in layout:
        return ConfigProblem("game.layout", layout, allowed, "is not a known layout")
    try:
        Layout.parse(layout)
    except LayoutError as exc:
        shown = " / ".join(line.strip() for line in layout.strip().splitlines())
        return ConfigProblem("game.layout", shown, allowed, f"is not a playable layout: {exc}")
    return None


def _engine_problem(g: GameSettings, exc: Exception) -> ConfigProblem:
    """Name the ``game.*`` key of an error the rules engine's configuration raised."""
    text = str(exc)
    lowered = text.lower()
    for key, words in (
        ("layout", ("layout",)),
        ("start_player", ("start_player",)),
        ("colours", ("colour",)),
        ("players", ("players",)),
        ("data_file", ("data file", "json")),
    ):
        if any(word in lowered for word in words):
            return ConfigProblem(
                f"game.{key}", getattr(g, key), "what the rules engine accepts", f"fails: {text}"
            )
    return ConfigProblem("game", g.name, "a game the rules engine accepts", f"fails: {text}")


# -- [journal] ------------------------------------------------------------------------------


class JournalSettings(Record):
    """
    The validated ``[journal]`` table: retention of a season's journals.

    :param keep_finished: how many finished games' journals ``serve`` keeps in
        ``finished/`` (the oldest are deleted when a game ends; unfinished
        journals are never deleted). Also ``companion journals prune``'s default.
    """

    keep_finished: int = DEFAULT_KEEP_FINISHED

    def __post_init__(self) -> None:
        value = self.keep_finished
        if not (_is_int(value) and 0 <= value <= MAX_KEEP_FINISHED):
            raise TableConfigError(
                [
                    ConfigProblem(
                        "journal.keep_finished",
                        value,
                        f"a whole number from 0 to {MAX_KEEP_FINISHED:,} (finished games "
                        "whose journals are kept; about 90 KB each)",
                    )
                ]
            )


# -- the whole file -------------------------------------------------------------------------


class TableConfig(Record):
    """
    A validated ``table.toml``: the game, the hardware, and where they came from.

    Building one checks that every game colour has a turn LED.
    """

    game: GameSettings = field(default_factory=GameSettings)
    hardware: HardwareConfig = field(default_factory=HardwareConfig)
    source: str = "(built-in defaults)"
    journal: JournalSettings = field(default_factory=JournalSettings)

    def __post_init__(self) -> None:
        problems = _cross_check(self.game, self.hardware)
        if problems:
            raise TableConfigError(problems, self.source)

    def with_profile(self, profile: str | None) -> TableConfig:
        """The same configuration on another hardware profile (None: unchanged)."""
        if profile is None or profile == self.hardware.profile:
            return self
        return replace(self, hardware=replace(self.hardware, profile=profile))


def _cross_check(game: GameSettings, hardware: HardwareConfig) -> list[Problem]:
    turn = tuple(hardware.pins.turn)
    missing = [c for c in game.colours if c not in turn]
    if not missing:
        return []
    return [
        ConfigProblem(
            "game.colours",
            list(game.colours),
            f"colours with a turn LED in hardware.pins.turn ({', '.join(turn)}); "
            f"game.colours defaults to the first {game.players} of {', '.join(COLOURS)}",
            f"needs a turn LED for {', '.join(missing)}, which hardware.pins.turn lacks",
        )
    ]


def default_table_config() -> TableConfig:
    """Assist mode, four players, simulated hardware."""
    return TableConfig(
        GameSettings(mode="assist", players=4), HardwareConfig(profile="sim"), "(built-in defaults)"
    )


def table_config_from_mapping(
    mapping: Mapping[str, Any] | None,
    source: str = "(mapping)",
    *,
    base_dir: str | PathLike[str] | None = None,
) -> TableConfig:
    """
    Validate a whole ``table.toml`` document (as :mod:`tomllib` returns it).

    A relative ``game.data_file`` is taken relative to *base_dir* (the file's
    folder) if given. Raises :exc:`TableConfigError` listing every problem.
    """
    mapping = {} if mapping is None else mapping
    if not isinstance(mapping, Mapping):
        raise TableConfigError(
            [ConfigProblem("(document)", mapping, "[game] and [hardware] tables")], source
        )
    problems: list[Problem] = []
    for key, value in mapping.items():
        if key not in _TABLES:
            shown = f"[{key}]" if isinstance(value, Mapping) else value
            problems.append(
                ConfigProblem(
                    key,
                    shown,
                    "the tables [game], [hardware] and [journal]",
                    "is an unknown table or key",
                )
            )

    game: GameSettings | None = None
    raw = mapping.get("game", {})
    if not isinstance(raw, Mapping):
        problems.append(ConfigProblem("game", raw, "a [game] table"))
    else:
        values: dict[str, Any] = {}
        for key, value in raw.items():
            if key not in GAME_KEYS:
                problems.append(
                    ConfigProblem(
                        f"game.{key}",
                        value,
                        "the keys of [game]: " + ", ".join(GAME_KEYS),
                        "is an unknown key",
                    )
                )
            else:
                values[key] = value
        if isinstance(values.get("colours"), list):
            values["colours"] = tuple(values["colours"])
        data_file = values.get("data_file")
        if isinstance(data_file, str) and data_file.strip() and base_dir is not None:
            path = Path(data_file).expanduser()
            values["data_file"] = str(
                path if path.is_absolute() else Path(base_dir).absolute() / path
            )
        try:
            game = GameSettings(**values)
        except TableConfigError as exc:
            problems.extend(exc.problems)

    hardware: HardwareConfig | None = None
    try:
        hardware = load_hardware_config(mapping.get("hardware"), source=source)
    except HardwareConfigError as exc:
        problems.extend(exc.problems)

    journal: JournalSettings | None = None
    raw_journal = mapping.get("journal", {})
    if not isinstance(raw_journal, Mapping):
        problems.append(ConfigProblem("journal", raw_journal, "a [journal] table"))
    else:
        unknown = [k for k in raw_journal if k not in JOURNAL_KEYS]
        for key in unknown:
            problems.append(
                ConfigProblem(
                    f"journal.{key}",
                    raw_journal[key],
                    "the keys of [journal]: " + ", ".join(JOURNAL_KEYS),
                    "is an unknown key",
                )
            )
        try:
            journal = JournalSettings(**{k: v for k, v in raw_journal.items() if k not in unknown})
        except TableConfigError as exc:
            problems.extend(exc.problems)

    if problems:
        raise TableConfigError(problems, source)
    assert game is not None and hardware is not None and journal is not None
    return TableConfig(game, hardware, source, journal)


def read_table_file(path: str | PathLike[str]) -> dict[str, Any]:
    """
    Read and parse the TOML file *path*; unreadable files, bad UTF-8 and
    syntax errors (with line and column) raise :exc:`TableConfigError`.
    """
    path = Path(path)
    source = str(path)
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_TABLE_FILE_BYTES:
            if stat.S_ISDIR(info.st_mode):
                what = "it is a folder"
            elif stat.S_ISREG(info.st_mode):
                what = f"it has {info.st_size:,} bytes (a table.toml is a few KB)"
            else:
                what = "it is not a regular file (a device or pipe is never read)"
            raise TableConfigError(
                [
                    FileProblem(
                        "(file)",
                        source,
                        f"a TOML file of at most {MAX_TABLE_FILE_BYTES // 1024} KiB",
                        f"cannot read the file: {what}",
                    )
                ],
                source,
            )
        data = path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise TableConfigError(
            [
                FileProblem(
                    "(file)", source, "a readable TOML file", f"cannot read the file: {reason}"
                )
            ],
            source,
        ) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise TableConfigError(
            [
                FileProblem(
                    "(file)",
                    source,
                    "UTF-8 text",
                    f"line {line}: not UTF-8 text (byte {exc.start})",
                    line,
                )
            ],
            source,
        ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TableConfigError([_syntax_problem(exc, text)], source) from None


def _syntax_problem(exc: tomllib.TOMLDecodeError, text: str) -> FileProblem:
    message = str(exc)
    line: int | None = getattr(exc, "lineno", None)
    column: int | None = getattr(exc, "colno", None)
    found = re.search(r"\(at line (\d+), column (\d+)\)", message)
    if found and line is None:
        line, column = int(found.group(1)), int(found.group(2))
    reason = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)
    reason = getattr(exc, "msg", None) or reason
    lines = text.splitlines()
    if line is None:  # "at end of document"
        line = max(len(lines), 1)
        column = len(lines[-1]) + 1 if lines else 1
    where = f"line {line}, column {column}"
    shown = lines[line - 1] if 0 < line <= len(lines) else ""
    detail = f"TOML syntax error at {where}: {reason}"
    if shown.strip():
        detail += f"\n      {shown}\n      {' ' * max((column or 1) - 1, 0)}^"
    return FileProblem(where, shown, "valid TOML (https://toml.io)", detail, line, column)


def load_table_config(path: str | PathLike[str]) -> TableConfig:
    """
    Read and validate the ``table.toml`` at *path*.

    Raises :exc:`TableConfigError` naming the file, every bad key, its value
    and what is allowed; unreadable files and TOML syntax errors (with line
    and column) included.
    """
    path = Path(path)
    document = read_table_file(path)
    return table_config_from_mapping(document, str(path), base_dir=path.parent)


def load_hardware_from_table(path: str | PathLike[str]) -> HardwareConfig:
    """
    Only the ``[hardware]`` table of the ``table.toml`` at *path* (defaults if
    absent); other tables are not looked at. Raises :exc:`TableConfigError`.
    """
    source = str(path)
    document = read_table_file(path)
    try:
        return load_hardware_config(document.get("hardware"), source=source)
    except HardwareConfigError as exc:
        raise TableConfigError(exc.problems, source) from None


# -- where the file is ----------------------------------------------------------------------


class ConfigChoice(Record):
    """The table.toml a command reads: *path* (None: built-in defaults), *origin* (why).

    *searched* lists, in order, the optional locations that were looked at.
    """

    path: Path | None
    origin: str
    searched: tuple[Path, ...] = ()

    def describe(self) -> str:
        """One line for people: which file, and why that one."""
        if self.path is None:
            looked = ", ".join(str(p) for p in self.searched)
            return f"built-in defaults (no table.toml found; looked at {looked})"
        return f"{self.path} ({self.origin})"


def _user_config_dir(environ: Mapping[str, str]) -> Path | None:
    """``$XDG_CONFIG_HOME``, else ``~/.config`` (a relative XDG path is ignored, as the
    XDG base directory specification says); None if there is no home either."""
    xdg = environ.get("XDG_CONFIG_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg)
    home = environ.get("HOME", "")
    return Path(home) / ".config" if home and os.path.isabs(home) else None


def _system_config_dirs(environ: Mapping[str, str]) -> list[Path]:
    """systemd's ``$CONFIGURATION_DIRECTORY`` (colon-separated), then /etc/companion."""
    dirs = [Path(d) for d in environ.get("CONFIGURATION_DIRECTORY", "").split(":") if d]
    system = Path(DEFAULT_TABLE_CONFIG_PATH).parent
    return [*dirs, system] if system not in dirs else dirs


def find_table_config(
    explicit: str | PathLike[str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> ConfigChoice:
    """
    Which table.toml to read: ``--config`` (*explicit*), then ``$COMPANION_CONFIG``,
    then ``$XDG_CONFIG_HOME/companion/table.toml``, then the system file (see the
    module's docstring). *environ* defaults to :data:`os.environ`.

    An explicit file (1 or 2) is returned even if it does not exist, so that loading
    it reports the problem; the others only if they exist.
    """
    env = os.environ if environ is None else environ
    if explicit:
        return ConfigChoice(Path(explicit), "--config")
    if env.get(CONFIG_ENV):
        return ConfigChoice(Path(env[CONFIG_ENV]), f"${CONFIG_ENV}")
    searched: list[Path] = []
    user = _user_config_dir(env)
    if user is not None:
        candidate = user / "companion" / CONFIG_FILE_NAME
        searched.append(candidate)
        if candidate.is_file():
            return ConfigChoice(candidate, "the user's configuration", tuple(searched))
    for folder in _system_config_dirs(env):
        candidate = folder / CONFIG_FILE_NAME
        searched.append(candidate)
        if candidate.is_file():
            return ConfigChoice(candidate, "the system configuration", tuple(searched))
    return ConfigChoice(None, "built-in defaults", tuple(searched))


def load_found_table_config(
    explicit: str | PathLike[str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> TableConfig:
    """The validated configuration :func:`find_table_config` points at (or the defaults)."""
    choice = find_table_config(explicit, environ)
    return default_table_config() if choice.path is None else load_table_config(choice.path)


def example_table_config_text() -> str:
    """The commented example ``table.toml`` that ships in the package."""
    return resources.files("companion.data").joinpath(EXAMPLE_RESOURCE).read_text(encoding="utf-8")
