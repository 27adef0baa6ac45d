"""Rich views of a Kampf der Gladiatoren game: the arena map, players, combat, dice, odds.

Every colour also has a letter (R, Y, B, G, W) and every die face a text marker
(``[**]`` red double star, ``[* ]`` yellow single star, ``[  ]`` blank), so the
views read the same for colour-blind players, on a monochrome screen and in a log.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from companion.games.kampf_der_gladiatoren.events import Event
from companion.games.kampf_der_gladiatoren.odds import CombatOdds, Fighter
from companion.games.kampf_der_gladiatoren.rules import KINDS, SHORT
from companion.table.gladiatoren_table import roll_faces, turn_owner
from companion.ui.screen import TableScreen, rows_at

STYLE = {
    "red": "bold red",
    "yellow": "bold yellow",
    "blue": "bold blue",
    "green": "bold green",
    "white": "bold white",
}
LETTER = {"red": "R", "yellow": "Y", "blue": "B", "green": "G", "white": "W"}
DIE_FACE = {  # face id -> (marker, style)
    "two_red_stars": ("[**]", "bold white on red"),
    "one_yellow_star": ("[* ]", "bold black on yellow"),
    "blank": ("[  ]", "dim"),
}
CELL_WIDTH = 14  # characters per field on the map; a map column is half of it
QUIET_EVENTS = {"strike", "reroll_offered", "entry_passed", "rerolled"}


def colour_text(colour: str, text: str | None = None) -> Text:
    return Text(
        text if text is not None else f"{LETTER[colour]} {colour}", style=STYLE.get(colour, "bold")
    )


def dice_text(faces: Iterable[str]) -> Text:
    """Each die as a coloured marker: ``[**]`` double, ``[* ]`` single, ``[  ]`` blank."""
    text = Text()
    for i, face in enumerate(faces):
        marker, style = DIE_FACE[face]
        if i:
            text.append(" ")
        text.append(marker, style=style)
    return text


def composition(counts: Sequence[int], inactive: Sequence[int] = (0, 0, 0, 0, 0)) -> Text:
    """``SpSwSw(Sw)``: gladiators by short code, neutralised ones in brackets."""
    text = Text()
    for k, kind in enumerate(KINDS):
        text.append(SHORT[kind] * counts[k])
    for k, kind in enumerate(KINDS):
        if inactive[k]:
            text.append(f"({SHORT[kind] * inactive[k]})", style="dim")
    return text


def _cell(state: Any, field: int) -> tuple[Text, Text]:
    fid = state.field_ids[field]
    piece = state.board[field]
    top = Text(f"{fid:<2}", style="dim")
    bottom = Text()
    if piece is None:
        top.append(" .", style="dim")
    elif piece[0] == "team":
        team = state.teams[piece[1]]
        colour = state.colours[team.owner]
        top.append(f" {LETTER[colour]}", style=STYLE[colour])
        if team.stars:
            top.append(" *" * team.stars, style="bold yellow")
        bottom = composition(team.active, team.inactive)
        bottom.stylize(STYLE[colour].replace("bold ", ""))
    else:
        animal = state.animals[piece[1]]
        top.append(f" {animal.id}", style="bold magenta")
        stars = state.animal_stars[piece[1]]
        bottom.append(f"*{stars}/{animal.hits} ", style="yellow" if stars else "dim")
        bottom.append(composition(animal.symbols))
    return top, bottom


def arena_map(state: Any) -> Text:
    """The arena as a map: each field at its data position, with its team or animal.

    A team shows its owner letter, its hit star and its gladiators (``Sp`` spear,
    ``Ne`` net, ``Sw`` sword, ``Tr`` trident, ``Sh`` shield; neutralised ones in
    brackets); an animal shows its hit stars of its hit value and its symbols.
    """
    rows: dict[int, list[tuple[int, int]]] = {}
    for field, (row, col) in enumerate(state.arena.positions):
        rows.setdefault(row, []).append((col, field))
    half = CELL_WIDTH // 2
    out = Text()
    for row in sorted(rows):
        lines = [Text(), Text()]
        for col, field in sorted(rows[row]):
            for line, part in zip(lines, _cell(state, field), strict=True):
                line.append(" " * max(0, col * half - len(line.plain)))
                part.truncate(CELL_WIDTH - 1)
                line.append_text(part)
        for line in lines:
            out.append_text(line)
            out.append("\n")
    return out


def players_table(state: Any, compact: bool = False) -> Table:
    """Every seat: teams, gladiators in the arena and in the stable, animals, points.
    ``compact`` (a small terminal): no frame and no title."""
    if compact:
        table = Table(box=None, padding=(0, 1), header_style="bold")
    else:
        table = Table(title="Players", padding=(0, 1))
    for name, justify in (
        ("seat", "left"),
        ("teams", "right"),
        ("in arena", "right"),
        ("stable", "right"),
        ("animals", "left"),
        ("points", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for seat in range(state.players):
        colour = state.colours[seat]
        marker = ">" if seat == state.current_player and not state.is_terminal else " "
        name = Text(marker + " ").append_text(colour_text(colour))
        if seat in getattr(state, "winners", ()):
            name.append(" (winner)", style="bold green")
        table.add_row(
            name,
            str(len(state.teams_of(seat))),
            str(state.gladiators_on_board(seat)),
            str(sum(state.stables[seat])),
            " ".join(state.stable_animals(seat)),
            str(state.score(seat)),
        )
    return table


def animals_line(state: Any) -> Text:
    beside = [state.animal_ids[i] for i, loc in enumerate(state.animal_loc) if loc == "beside"]
    stack = sum(1 for loc in state.animal_loc if loc in ("stack", "drawn"))
    text = Text("animals beside the arena: ", style="dim")
    text.append(", ".join(beside) or "none")
    if stack:
        text.append(f"   face down: {stack}", style="dim")
    text.append(f"   defeated: {state.animals_defeated()} of {len(state.animals)}", style="dim")
    return text


def combat_text(state: Any) -> Text:
    """The running combat: both sides with active / neutralised gladiators, who strikes."""
    c = state.combat
    if c is None:
        return Text()
    text = Text("Combat: ", style="bold")
    for side in (0, 1):
        kind, ref = c.pieces[side]
        if side:
            text.append("  vs  ")
        if kind == "team":
            team = state.teams.get(ref)
            colour = state.colours[team.owner] if team else "?"
            text.append_text(
                colour_text(colour, f"{colour} on {state.field_ids[team.field] if team else '-'} ")
            )
            if team is not None:
                text.append_text(composition(team.active, team.inactive))
        else:
            animal = state.animals[ref]
            text.append(
                f"{animal.id} ({state.animal_stars[ref]}/{animal.hits} hit stars)",
                style="bold magenta",
            )
    first = "challenger" if c.first == 0 else "challenged"
    text.append(f"\n  first roller: the {first}; ")
    if state.phase == "reroll" and c.roll is not None:
        text.append("roll ")
        text.append_text(dice_text(roll_faces(c.roll)))
        text.append(": reroll or keep?")
    elif state.phase == "give_up":
        text.append(f"{c.pending} gladiator(s) to give up")
    elif state.phase == "net":
        text.append(f"{c.nets_left} net(s) to throw")
    else:
        text.append(f"strike {c.strikes + 1} of 2")
    return text


def event_lines(events: Iterable[Event]) -> Text:
    text = Text()
    for event in events:
        if event.kind in QUIET_EVENTS:
            continue
        style = {
            "game_over": "bold green",
            "team_wiped": "bold red",
            "animal_defeated": "bold magenta",
            "gladiator_lost": "red",
            "turn_started": "bold",
            "challenged": "bold cyan",
        }.get(event.kind, "")
        if event.kind == "dice_rolled":
            text.append(f"  - {event.text}  ")
            text.append_text(dice_text(roll_faces(event.data["roll"])))
            text.append("\n")
            continue
        text.append(f"  - {event.text}\n", style=style)
    return text


def _fighter_name(f: Fighter) -> str:
    if f.is_animal:
        return f"{f.name or 'animal'} ({f.stars}/{f.hits} hit stars)"
    return (f.name or composition(f.active).plain) + (" *" * f.stars)


def odds_table(odds: CombatOdds, names: tuple[str, str] | None = None) -> Table:
    """What each side loses in this combat, with exact and decimal probabilities."""
    if names is None:
        names = (
            f"challenger {_fighter_name(odds.challenger)}",
            f"challenged {_fighter_name(odds.defender)}",
        )
    table = Table(title=f"Odds: {names[0]} vs {names[1]}", padding=(0, 1))
    table.add_column("loses")
    for i, name in enumerate(names):
        unit = (odds.challenger, odds.defender)[i].unit
        table.add_column(f"{name}: {unit}", justify="right")
    margins = (odds.challenger_losses, odds.defender_losses)
    for n in range(max(max(m) for m in margins) + 1):
        cells = []
        for m in margins:
            p = m.get(n)
            cells.append("" if p is None else f"{float(p):6.1%}  ({p})")
        table.add_row(str(n), *cells)
    out = tuple(odds.out(i) for i in (0, 1))
    table.add_row("out", *(f"{float(p):6.1%}" for p in out), style="bold")
    table.add_row("expected", *(f"{float(odds.expected(i)):.2f}" for i in (0, 1)))
    table.caption = (
        f"first roller: the {('challenger', 'challenged')[odds.first]}; "
        "choices as in the odds policy"
    )
    return table


def game_view(state: Any) -> Group:
    parts: list[Any] = [arena_map(state), animals_line(state), players_table(state)]
    if state.combat is not None:
        parts.insert(1, combat_text(state))
    return Group(*parts)


class GladiatorenView(TableScreen):
    """The Kampf der Gladiatoren view for the terminal (see :mod:`companion.ui.screen`):
    the arena map, the combat under way, animals and players, the log.

    ``pace_s`` pauses after each turn so people can follow a bot game; ``maps`` False
    shows the combat only (the combat assistant); ``turns`` False prints no turn rules.
    """

    TITLE = "Kampf der Gladiatoren"

    def __init__(self, *args: Any, maps: bool = True, turns: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.maps = maps
        self.turns = turns

    @property
    def messages(self) -> list[str]:
        return [line.plain.removeprefix("* ") for line in self.log if line.plain.startswith("* ")]

    def when(self) -> str:
        """``set-up`` while the teams enter and the animals are placed (no turn yet)."""
        return f"turn {self.state.turn}" if self.state.turn else "set-up"

    def whose_turn(self) -> Text:
        state = self.state
        seat = turn_owner(state)
        text = colour_text(state.colours[seat]).append(" to play")
        # the score in the header row too: on a small terminal the map takes the board
        text.append("  points", style="dim")
        for n, colour in enumerate(state.colours[: state.players]):
            text.append(" ").append_text(colour_text(colour, f"{LETTER[colour]}{state.score(n)}"))
        return text

    def board(self, width: int, height: int | None = None) -> RenderableType:
        state = self.state
        if not self.maps:
            return combat_text(state) if state.combat is not None else Text("")
        if height is not None and height < 30:
            # a small terminal (80x24 leaves about 12 rows): the map and the combat first,
            # then the players without a frame and the animals where they fit (the points
            # are in the header row: the score was never on screen during play)
            arena = arena_map(state)
            arena.rstrip()
            first: list[Any] = [arena]
            if state.combat is not None:
                first.append(combat_text(state))
            tried = (
                [*first, players_table(state, compact=True), animals_line(state)],
                [*first, players_table(state, compact=True)],
                first,
            )
            for parts in tried:
                if rows_at(self.console, Group(*parts), width) <= height:
                    return Group(*parts)
            return Group(*first[1:]) if len(first) > 1 else arena  # the combat before the map
        return game_view(state)

    def board_kept(self, width: int) -> int:
        """The map stays whole: a long list of challenges gives way (it cut the map's
        bottom row, O P Q, at 80x24)."""
        if not self.maps:
            return 0
        arena = arena_map(self.state)
        arena.rstrip()
        return rows_at(self.console, arena, width)

    def event_text(self, event: Any) -> Text | None:
        if event.kind == "turn_started" or event.kind in QUIET_EVENTS:
            return None
        line = event_lines([event])[4:]
        line.rstrip()
        return line if line.plain else None

    def turn_block(self, events: Sequence[Any]) -> None:
        event = events[0]
        if not self.turns or event.data.get("setup"):
            return
        colour = self.state.colours[event.data["seat"]]
        self.console.print(Rule(colour_text(colour, f"Turn {event.data['turn']}: {colour}")))
        if self.maps and not self.state.is_terminal:
            self.print_board()
