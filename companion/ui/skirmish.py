"""Rich views of an arena skirmish game: the grid, initiative order, profiles, attacks.

Every colour also has a letter (P, G, T, R, O, N, B, Y, W, K), and the grid shows
gladiators by profile ID with a facing arrow, so the board reads the same for
colour-blind players, on a monochrome screen and in a log file.

:class:`SkirmishDashboard` is the table view (``update``/``message``/``prompt``): a live
display on a terminal when nobody types, a printed log otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from companion.games.arena_skirmish.combat import (
    DamageDistribution,
    DiceBreakdown,
    HitResult,
    percent,
)
from companion.games.arena_skirmish.grid import ARROWS, DIRECTIONS
from companion.ui.screen import TableScreen, rows_at, styled_event

STYLE = {
    "purple": "magenta",
    "grey": "bright_black",
    "turquoise": "cyan",
    "red": "red",
    "orange": "dark_orange",
    "green": "green",
    "blue": "blue",
    "yellow": "yellow",
    "white": "white",
    "black": "black on white",
}
LETTER = {
    "purple": "P",
    "grey": "G",
    "turquoise": "T",
    "red": "R",
    "orange": "O",
    "green": "N",
    "blue": "B",
    "yellow": "Y",
    "white": "W",
    "black": "K",
}
ELEMENT_MARK = {"fire": "F", "water": "W", "air": "A", "earth": "E"}
QUIET_EVENTS = {"hit_die", "stepped", "turned", "activation_ended", "gladiator_picked"}


def colour_text(colour: str, text: str | None = None) -> Text:
    return Text(
        text if text is not None else f"{LETTER.get(colour, '?')} {colour}",
        style=f"bold {STYLE.get(colour, '')}",
    )


def cell_text(state: Any, cell: int) -> Text:
    """One grid cell: a gladiator (owner letter, ID, facing arrow), else the terrain."""
    gmap = state.map
    gid = state.occupant[cell]
    if gid >= 0:
        g = state.gladiators[gid]
        colour = state.colours[g.owner]
        style = f"bold {STYLE.get(colour, '')}"
        if gid == state.active_gladiator:
            style += " reverse"
        return Text(f"{LETTER.get(colour, '?')}{gid}{ARROWS[g.facing]}", style=style)
    letters = {c: e for e, c in gmap.entrances}
    if gmap.blocked[cell]:
        return Text("###", style="bold white on grey23")
    level = gmap.heights[cell]
    if cell in letters:
        return Text(f"[{letters[cell]}]", style="yellow")
    shade = ["", "on grey19", "on grey30", "on grey42", "on grey50"][min(level, 4)]
    return Text(f" {level} " if level else " . ", style=f"dim {shade}".strip())


def map_table(state: Any, title: str | None = "Arena", key: bool = True) -> Table:
    """The grid with heights (shaded digits), blocked cells, entrances and gladiators;
    ``key``: the caption that explains the marks (a small terminal leaves it out)."""
    gmap = state.map
    table = Table(
        show_header=True,
        show_lines=False,
        padding=(0, 1),
        title=title,
        box=None,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("", justify="right", no_wrap=True)
    for c in range(gmap.size):
        table.add_column(chr(ord("a") + c), justify="center", min_width=4, no_wrap=True)
    for r in range(gmap.size):
        table.add_row(str(r + 1), *(cell_text(state, r * gmap.size + c) for c in range(gmap.size)))
    if key:
        table.caption = (
            "digits: height level (. = 0)  ###: blocked  [A]: entrance  "
            "P17→: purple's #17 facing east"
        )
    return table


#: the values beside the map on a small terminal: (header, short header) per column
VALUE_COLUMNS = (("mov", "mv"), ("att", "at"), ("aff", "af"), ("life", "li"))
#: the columns the order with its values takes beside the map: short headers, then whole
VALUES_WIDE = (21, 25)


def order_table(state: Any, narrow: bool = False, room: int = 0) -> Table:
    """This round's initiative order: done, acting, waiting. ``narrow`` (beside the map
    on a small terminal): no frame, the gladiators by letter and number only, and in
    ``room`` columns (21 at 80: headers ``ini mv at af li``, from 25 ``ini mov att aff
    life``) each one's values now (lowered ones in bold), as the team picking shows them
    (``P31 8 4 3 A2 5``: during play no value was on screen)."""
    values = narrow and room >= VALUES_WIDE[0]
    if narrow:
        table = Table(
            box=None,
            padding=(0, 1),
            title=f"round {state.round}",
            pad_edge=False,
            collapse_padding=True,
        )
    else:
        table = Table(title=f"Round {state.round} - initiative", padding=(0, 1))
    table.add_column("")
    table.add_column("gladiator", no_wrap=True, max_width=24, overflow="ellipsis")
    table.add_column("ini", justify="right")
    table.show_header = not narrow or values
    if values:
        table.columns[1].header = ""
        whole = room >= VALUES_WIDE[1]
        for header, short in VALUE_COLUMNS:
            table.add_column(header if whole else short, justify="right", no_wrap=True)
    for gid in state.round_order():
        g = state.gladiators[gid]
        colour = state.colours[g.owner]
        if gid == state.active_gladiator:
            mark = Text(">", style="bold")
        elif gid in state.acted:
            mark = Text("✓", style="dim")
        else:
            mark = Text(" ")
        label = f"{LETTER.get(colour, '?')}{gid}" + ("" if narrow else f" {g.profile.name}")
        name = colour_text(colour, label)
        if gid in state.acted and gid != state.active_gladiator:
            name.stylize("dim")
        row = [mark, name, Text(str(g.initiative))]
        if values:
            p = g.profile
            row += [_value(g.movement, p.movement, True), _value(g.attack, p.attack, True)]
            affinity = _value(g.affinity, p.affinity, True)
            row.append(Text(ELEMENT_MARK[p.element]).append_text(affinity))
            row.append(_value(g.life, p.life, True))
        table.add_row(*row)
    return table


def _value(now: int, printed: int, compact: bool = False) -> Text:
    """A value now; where a hit lowered it, ``now/printed`` in colour (``compact``: the
    value now alone, in colour: no room for ``2/4``)."""
    if now == printed:
        return Text(str(now))
    return Text(
        str(now) if compact else f"{now}/{printed}", style="bold yellow" if now else "bold red"
    )


def profiles_table(state: Any) -> Table:
    """Every gladiator: profile values (current/printed where lowered), place, combo text."""
    table = Table(title="Gladiators", padding=(0, 1))
    combos = any(g.profile.combo for g in state.gladiators.values())
    columns = [
        ("id", "right"),
        ("name", "left"),
        ("ini", "right"),
        ("mov", "right"),
        ("att", "right"),
        ("aff", "right"),
        ("life", "right"),
        ("class", "left"),
        ("pts", "right"),
        ("cell", "left"),
    ] + ([("combo", "left")] if combos else [])
    for name, justify in columns:
        if name == "name":
            table.add_column(name, no_wrap=True, max_width=14, overflow="ellipsis")
        else:
            table.add_column(name, justify=justify, no_wrap=name != "combo")  # type: ignore[arg-type]
    for gid, g in sorted(state.gladiators.items()):
        p = g.profile
        colour = state.colours[g.owner]
        ident = colour_text(colour, f"{LETTER.get(colour, '?')}{gid}")
        if g.alive:
            where = (
                f"{state.cell_name(g.cell)} {DIRECTIONS[g.facing]}" if g.cell is not None else "-"
            )
        else:
            where = "out"
        aff = Text(f"{ELEMENT_MARK[p.element]}").append_text(_value(g.affinity, p.affinity))
        row = [
            ident,
            Text(p.name),
            Text(str(p.initiative)),
            _value(g.movement, p.movement),
            _value(g.attack, p.attack),
            aff,
            _value(g.life, p.life),
            Text(p.weight),
            Text(str(p.points)),
            Text(where),
        ]
        if combos:
            row.append(Text(p.combo or "-", style="dim"))
        if not g.alive:
            for cell in row:
                cell.stylize("dim strike")
        table.add_row(*row)
    table.caption = "F/W/A/E: fire, water, air, earth; 2/4: now/printed" + (
        "" if combos else "; combo attacks: see the profile cards"
    )
    return table


#: a pickable gladiator's columns on a small terminal (no class, no combo): name, width
PICK_COLUMNS = (
    ("id", 2),
    ("name", 0),
    ("ini", 3),
    ("mov", 3),
    ("att", 3),
    ("aff", 3),
    ("life", 4),
    ("pts", 3),
)


def pick_table(state: Any, width: int, rows: int) -> RenderableType:
    """While teams are picked on a small terminal (the map says nothing yet): the
    gladiators the seat picking may still take, with the values a pick is made on, in as
    many groups side by side as ``width`` allows, in ``rows`` rows; a last row says what
    did not fit. The seat's team so far heads it."""
    seat = state.picking
    profiles = state.config.data.profiles
    ids = state.pickable(seat)
    colour = state.colours[seat]
    team = ", ".join(f"#{g} {profiles[g].name}" for g in state.teams[seat]) or "nobody yet"
    head = colour_text(colour).append(f" has {team}", style="")
    numbers = sum(w + 1 for _, w in PICK_COLUMNS)  # the columns but the name, and their gaps
    groups = max(1, min(3, (width + 2) // (numbers + 10 + 2)))
    name_width = max(10, (width + 2) // groups - 2 - numbers)
    per_group = max(1, rows - 2)  # the head, then a header row over each group
    shown = ids[: groups * per_group]
    grid = Table.grid(padding=(0, 2))
    chunks = [shown[i : i + per_group] for i in range(0, len(shown), per_group)]
    tables = []
    for chunk in chunks:
        table = Table(box=None, padding=(0, 1, 0, 0), show_edge=False, header_style="bold")
        for name, w in PICK_COLUMNS:
            table.add_column(
                name,
                justify="left" if name == "name" else "right",
                no_wrap=True,
                overflow="ellipsis",
                max_width=name_width if name == "name" else None,
                min_width=w or None,
            )
        for g in chunk:
            pr = profiles[g]
            element = ELEMENT_MARK[pr.element]
            table.add_row(
                colour_text(colour, str(g)),
                pr.name,
                str(pr.initiative),
                str(pr.movement),
                str(pr.attack),
                f"{element}{pr.affinity}",
                str(pr.life),
                str(pr.points),
            )
        tables.append(table)
    grid.add_row(*tables)
    parts: list[RenderableType] = [head, grid]
    if len(shown) < len(ids):
        rest = " ".join(str(g) for g in ids[len(shown) :])
        more = Text(f"… and {rest}: '?' lists them, a taller terminal shows them", style="dim")
        more.truncate(width, overflow="ellipsis")
        parts.append(more)
    return Group(*parts)


def players_line(state: Any) -> Text:
    text = Text()
    for seat in range(state.players):
        colour = state.colours[seat]
        text.append_text(colour_text(colour))
        standing = len(state.alive(seat))
        entrance = state.entrance_of[seat] or "?"
        text.append(f" entrance {entrance}, {standing} standing, {state.standing_points(seat)} pts")
        if state.config.victory == "points":
            text.append(f", scored {state.scored[seat]}")
        text.append("   ")
    return text


def breakdown_text(breakdown: DiceBreakdown) -> Text:
    text = Text()
    for i, (line, delta) in enumerate(breakdown.lines):
        sign = f"{delta}" if i == 0 else f"{delta:+d}"
        text.append(f"  {sign:>3}  {line}\n")
    if breakdown.allowed:
        text.append(f"  = {breakdown.dice} dice ({breakdown.kind})\n", style="bold")
    else:
        text.append(f"  no attack: {breakdown.reason}\n", style="bold red")
    return text


def distribution_table(dist: DamageDistribution) -> Table:
    """Exact odds, shown as percentages."""
    table = Table(title=f"{dist.dice} dice on life {dist.stats.life}: damage", padding=(0, 1))
    table.add_column("life lost", justify="right")
    table.add_column("chance", justify="right")
    table.add_column("at least", justify="right")
    tail = sum(dist.life_lost.values())
    for k, p in sorted(dist.life_lost.items()):
        table.add_row(str(k), percent(p), percent(tail))
        tail -= p
    return table


def distribution_summary(dist: DamageDistribution) -> Text:
    """The rest of the odds, one line each."""
    text = Text()
    for i, (label, value) in enumerate(_what_a_hit_does(dist)):
        style = "bold red" if i == 0 and dist.removed else ""  # removed
        text.append(f"{label + ':':<20}{value}\n", style=style)
    text.append(f"expected life lost: {float(dist.expected_life_lost):.2f}\n")
    return text


def _what_a_hit_does(dist: DamageDistribution) -> list[tuple[str, str]]:
    """Removed first, then the lowered values, with their chances."""
    moves = ", ".join(f"-{k}: {percent(p)}" for k, p in dist.movement_lost.items() if k)
    return [
        ("removed", percent(dist.removed)),
        ("-1 attack (arms)", percent(dist.attack_lost)),
        ("-1 affinity (head)", percent(dist.affinity_lost)),
        ("movement (legs)", moves or "none"),
    ]


def odds_lines(dist: DamageDistribution, title: str, width: int) -> Text:
    """An attack's odds without a frame, in about four rows (a small terminal): the
    attack and its dice, the life lost, then what else a hit does, never broken inside."""
    text = Text(f"{title}: {dist.dice} dice on life {dist.stats.life}", style="bold")
    text.append(f"   expected life lost {float(dist.expected_life_lost):.2f}\n")
    lost = "  ".join(f"{k}: {percent(p)}" for k, p in sorted(dist.life_lost.items()))
    text.append(f"life lost  {lost}\n")
    parts = [f"{label} {value}" for label, value in _what_a_hit_does(dist)]
    row = ""
    for part in parts:
        if row and len(row) + 3 + len(part) > width:
            text.append(row + "\n")
            row = ""
        row = f"{row}   {part}" if row else part
    text.append(row)
    return text


def result_text(faces: Sequence[int], result: HitResult) -> Text:
    text = Text("rolled: ", style="bold")
    text.append(" ".join(str(f) for f in faces) + "\n")
    text.append(result.describe() + "\n")
    after = result.after
    text.append(
        f"target now: life {after.life}, movement {after.movement}, attack "
        f"{after.attack}, affinity {after.affinity}" + (" - REMOVED" if result.removed else ""),
        style="bold red" if result.removed else "",
    )
    return text


def attack_panel(
    breakdown: DiceBreakdown,
    dist: DamageDistribution | None,
    faces: Sequence[int] = (),
    result: HitResult | None = None,
    title: str = "Attack",
) -> Panel:
    parts: list[Any] = [breakdown_text(breakdown)]
    if dist is not None:
        parts += [distribution_table(dist), distribution_summary(dist)]
    if result is not None:
        parts.append(result_text(faces, result))
    return Panel(Group(*parts), title=title, expand=False)


EVENT_STYLE = {
    "game_over": "bold green",
    "gladiator_removed": "bold red",
    "hits_resolved": "red",
    "attack_declared": "bold",
    "round_started": "bold cyan",
}


def event_line(event: Any) -> Text | None:
    """One event for the log (``None``: too small to show)."""
    return styled_event(event, QUIET_EVENTS, EVENT_STYLE)


def dice_text(faces: Sequence[int]) -> Text:
    pips = "⚀⚁⚂⚃⚄⚅"
    text = Text()
    for f in faces:
        text.append(f"{pips[f - 1]}{f} ", style="bold")
    return text


def game_view(state: Any, width: int = 120, profiles: bool = True, compact: bool = False) -> Group:
    """The board: map and initiative order (side by side when ``width`` allows),
    players, and the gladiators' profiles. ``compact`` (a small terminal): the map
    without its title and key, so all its rows fit above the events and the prompt."""
    parts: list[Any] = []
    order = order_table(state) if state.round else None
    arena = map_table(state, None, key=False) if compact else map_table(state)
    if order is not None and compact and width < 6 * state.map.size + 44:
        # 80 columns: the order fits beside the map by letter and number (below it, the
        # small terminal showed the order's title and no gladiator)
        order = order_table(state, narrow=True, room=width - 5 * state.map.size - 4)
        if width >= 6 * state.map.size + 14:
            top = Table.grid(padding=(0, 2))
            top.add_row(arena, order)
            parts.append(top)
            parts.append(players_line(state))
            return Group(*parts)
    if order is not None and width >= 6 * state.map.size + 44:
        top = Table.grid(padding=(0, 2))
        top.add_row(arena, order)
        parts.append(top)
    else:
        parts += [arena] + ([order] if order is not None else [])
    parts.append(players_line(state))
    if profiles:
        parts.append(profiles_table(state))
    return Group(*parts)


class SkirmishDashboard(TableScreen):
    """The skirmish view for the terminal (see :mod:`companion.ui.screen`): the map and
    the initiative order, the attack about to be rolled with its odds, the log."""

    TURN_EVENTS = frozenset({"round_started"})
    TITLE = "Arena skirmish"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.last_roll: list[int] = []
        self.last_attack: Panel | None = None
        #: the odds of the attack about to be rolled, for a small terminal
        self.odds: tuple[DamageDistribution, str] | None = None

    def update(self, state: Any, events: Sequence[Any]) -> None:
        for event in events:
            if event.kind == "attack_declared":
                self.last_roll = []
            if event.kind == "hit_die":
                self.last_roll.append(event.data["face"])
        super().update(state, events)

    def show_attack(
        self, breakdown: DiceBreakdown, distribution: DamageDistribution, title: str
    ) -> None:
        """The dice breakdown and the odds of the attack about to be rolled."""
        panel = attack_panel(breakdown, distribution, title=title)
        self.last_attack = panel
        self.odds = (distribution, title)
        if not self.live:
            self.console.print(panel)
        self._refresh()

    def when(self) -> str:
        return f"round {self.state.round}"

    def whose_turn(self) -> Text:
        state = self.state
        if state.active_gladiator is not None:
            g = state.gladiators[state.active_gladiator]
            text = colour_text(state.colours[g.owner], f"#{g.id} {g.profile.name}")
            text.append(f" acts, {state.points_left} movement points left ({state.phase})")
        else:
            text = Text(state.phase.replace("_", " "))
        if self.last_roll:
            text.append("   dice: ").append_text(dice_text(self.last_roll))
        return text

    def board(self, width: int, height: int | None = None) -> RenderableType:
        small = height is not None and height < 30
        if small and self.state.phase == "select" and self.state.pickable(self.state.picking):
            assert height is not None
            return pick_table(self.state, width, height - 1)  # the 'more' row
        view = game_view(self.state, width, profiles=height is None or height >= 40, compact=small)
        if small and self.live:
            # the framed odds under the map showed their top border only at 80x24: while
            # an attack is rolled its odds come first, unframed, and the map gives way
            # (the players' line, then the map and the order) when they do not fit
            parts = self._odds_first(view, width)
            if parts is None:
                return view
            while len(parts) > 1 and rows_at(self.console, Group(*parts), width) > height:
                parts.pop()
            return Group(*parts)
        if self.last_attack is not None and self.live:
            return Group(view, self.last_attack)
        return view

    def _rolled(self) -> tuple[DamageDistribution, str] | None:
        """The odds of the attack being rolled now (None: no attack is)."""
        attack = self.state is not None and self.state.attack is not None
        return self.odds if attack else None

    def _odds_first(self, view: Group, width: int) -> list[RenderableType] | None:
        """While an attack is rolled: its odds, then the view's parts (None: no attack)."""
        odds = self._rolled()
        return None if odds is None else [odds_lines(*odds, width), *view.renderables]

    def board_kept(self, width: int) -> int:
        """While an attack is rolled on a small terminal, its odds and the map: the
        events box gives way for them (down to 3 rows)."""
        odds = self._rolled()
        if odds is None:  # no attack rolled: no view drawn only to be measured
            return 0
        arena = game_view(self.state, width, profiles=False, compact=True).renderables[0]
        return rows_at(self.console, Group(odds_lines(*odds, width), arena), width)

    def event_text(self, event: Any) -> Text | None:
        return event_line(event)

    def turn_block(self, events: Sequence[Any]) -> None:
        self.console.print(Rule(f"{self.title}: round {events[0].data.get('round', '')}"))
