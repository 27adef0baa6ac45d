"""Rich views of Spartacus: dice in red / black / blue, the hex arena, houses, odds, bets.

Every die shows its face number on its colour (``[6]`` red for attack, black for
defence, blue for speed), so it reads the same in a log file and on a
monochrome screen (the colour is also named in the event text). Hidden
things (bids, hand cards of other houses, a peeked card) are never shown on
the shared screen: events that carry a ``private`` seat print their public text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from companion.games.spartacus.combat import ATTRS, DIE_OF
from companion.games.spartacus.odds import percent
from companion.ui.screen import TableScreen, rows_at
from companion.worker import run_heavy

DIE_STYLE = {
    "red": "bold white on red3",
    "black": "bold white on grey11",
    "blue": "bold white on blue3",
}
SIDE_STYLE = {"I": "bold red", "II": "bold cyan"}


def die_text(face: int, die: str) -> Text:
    """One die: its face number on its colour."""
    return Text(f"[{face}]", style=DIE_STYLE.get(die, "bold"))


def roll_text(faces: Sequence[int], die: str) -> Text:
    text = Text()
    for i, f in enumerate(faces):
        if i:
            text.append(" ")
        text.append_text(die_text(f, die))
    return text


def dice_counts(dice: Sequence[int]) -> Text:
    """A fighter's dice left: attack red, defence black, speed blue."""
    text = Text()
    for i, (attr, n) in enumerate(zip(ATTRS, dice, strict=True)):
        if i:
            text.append(" ")
        text.append(f" {n} ", style=DIE_STYLE[DIE_OF[attr]])
    return text


def arena_text(fight: Any) -> Text:
    """The hex arena: ``I`` and ``II`` where the fighters stand, ``..`` for free hexes."""
    arena = fight.arena
    xs = [x for x, _ in arena.hexes]
    rows = max(r for _, r in arena.hexes) + 1
    where = {f.pos: f.side for f in fight.fighters.values()}
    text = Text()
    for r in range(rows):
        text.append(f"{chr(ord('A') + r)} ", style="dim")
        line = Text()
        for x in range(min(xs), max(xs) + 1):
            h = (x, r)
            if h in where:
                line.append(f"{where[h]:<2}", style=SIDE_STYLE[where[h]])
            elif h in arena.hexes:
                line.append("··", style="dim")
            else:
                line.append("  ")
        text.append_text(line)
        text.append("\n")
    return text


def fighters_table(state: Any, compact: bool = False, header: bool = True) -> Table:
    """Both fighters: dice, life, hex, equipment, ability. ``compact``: no frame and no
    title (the screen's header names the combat round), three rows for a small terminal
    (two without the ``header`` row)."""
    fight = state.fight
    if compact:
        table = Table(box=None, padding=(0, 1), header_style="bold", show_header=header)
    else:
        table = Table(title=f"Combat round {fight.round}", show_lines=False, padding=(0, 1))
    own = not state.config.fight_only
    for col in (
        "",
        "fighter",
        *(("house",) if own else ()),
        "dice A D S",
        "life",
        "hex",
        "equipment",
        "ability",
    ):
        table.add_column(col)
    for side in ("I", "II"):
        f = fight.fighters[side]
        gear = ", ".join(c.title + (" (used)" if c.id in f.used else "") for c in f.equipment)
        marks = " champion" if f.champion else (f" {f.favours} favour" if f.favours else "")
        table.add_row(
            Text(side, style=SIDE_STYLE[side]),
            f.name + marks,
            *((state.houses[f.owner],) if own else ()),
            dice_counts(f.dice),
            str(f.life),
            fight.arena.name(f.pos),
            gear or "-",
            ", ".join(a.id for a in f.abilities) or "-",
        )
    return table


def odds_text(fight: Any, attacker: str, quick: bool = False) -> Text:
    """The exact odds of an attack, in percent (computed in the worker process)."""
    odds = run_heavy(fight.odds, attacker, quick=quick)
    defender = fight.other(attacker)
    text = Text(
        f"odds, {attacker} attacks {defender}{' (quick)' if quick else ''}: wounds ", style="bold"
    )
    text.append(" ".join(f"{w}:{percent(p)}" for w, p in odds.wounds.items()))
    levels = odds.defender_levels
    text.append(
        f"\n  {defender} "
        + ", ".join(
            f"{name} {percent(levels[name])}" for name in ("yield", "injury", "decapitation")
        )
    )
    if any(c for (_, c) in odds.joint):
        att = odds.attacker_levels
        text.append(
            f"\n  {attacker} takes wounds back: "
            + " ".join(f"{w}:{percent(p)}" for w, p in odds.counter_wounds.items())
        )
        text.append(f"; {attacker} defeated {percent(1 - att['none'])}")
    return text


def houses_table(
    state: Any, compact: bool = False, header: bool = True, width: int | None = None
) -> Table:
    """The houses on the shared screen: only what everyone may see (gold is hidden from the
    first auction until the host is decided: ``privacy.py``). For a small terminal:
    ``compact`` (no frame, no title: the screen's header says the round), no ``header``
    row, and with ``width`` each house's property on one row, cut with '…' to fit, so that
    every house's gold, influence, hand and guards stay on screen."""
    hidden = state.gold_is_hidden()
    if compact:
        table = Table(box=None, padding=(0, 1), header_style="bold", show_header=header)
    else:
        table = Table(title=f"Round {state.round}: {state.phase.replace('_', ' ')}", padding=(0, 1))
    rows = []
    for seat, house in enumerate(state.houses):
        cards = []
        for c in state.property[seat]:
            label = state.card(c).title.split(" (")[0]
            if c in state.champions:
                label += "*C"
            elif state.favours.get(c):
                label += f"*{state.favours[c]}"
            if c in state.injured:
                label += " (injured)"
            elif c in state.exhausted:
                label += " (exh.)"
            cards.append(label)
        rows.append(
            [
                house + (" (host)" if seat == state.host else ""),
                "hidden" if hidden else str(state.gold[seat]),
                str(state.influence[seat]),
                str(state.hand_size(seat)),
                str(len(state.guards[seat])),
                ", ".join(cards) or "-",
            ]
        )
    columns = ("house", "gold", "infl.", "hand", "guards", "property")
    if width is not None:  # the property on one row: what the other columns leave, less '…'
        used = sum(max(len(c), *(len(r[i]) for r in rows)) + 2 for i, c in enumerate(columns[:5]))
        room = max(8, width - used - 2)
        for row in rows:
            row[5] = row[5] if len(row[5]) <= room else row[5][: room - 1].rstrip(", ") + "…"
    for col in columns:
        table.add_column(col)
    for seat, row in enumerate(rows):
        style = "bold" if seat == state.current_player else ""
        table.add_row(Text(row[0], style=style), *row[1:])
    return table


def bets_text(state: Any) -> Text:
    if not state.bets:
        return Text("no bets", style="dim")
    return Text("bets: " + ", ".join(f"{state.houses[s]} {n} on {k}" for s, k, n in state.bets))


def event_text(event: Any) -> Text:
    """One event for the shared screen (dice in colour, private things hidden)."""
    if event.kind == "dice_rolled":
        text = Text(f"{event.data['side']} {event.data['purpose']}: ")
        text.append_text(roll_text(event.data["faces"], event.data["die"] or "red"))
        return text
    if event.kind == "attack_resolved":
        text = Text()
        text.append_text(roll_text(event.data["attack"], event.data["die"]["attack"]))
        text.append(" vs ")
        text.append_text(roll_text(event.data["defence"], "black"))
        text.append("  " + event.text.split(": ", 1)[-1])
        return text
    style = {
        "fight_over": "bold green",
        "game_over": "bold green",
        "influence": "yellow",
        "champion": "bold yellow",
        "scheme_thwarted": "magenta",
    }.get(event.kind, "")
    return Text(event.public_text if event.private_to is not None else event.text, style=style)


class SpartacusView(TableScreen):
    """The Spartacus view for the terminal (see :mod:`companion.ui.screen`): the houses
    between fights, the hex arena and the fighters during one, dice in colour, the odds.

    Live (a terminal with nobody typing: the demo) it redraws in place, paced; printed
    (a person typing, a log) it prints every event as it happens and the panels a
    decision needs. Hidden things (bids, other houses' hands, a peeked card) are never
    shown: private events print their public text.
    """

    TURN_EVENTS = frozenset({"fighter_turn", "round_started", "phase", "auction_card"})

    TITLE = "Spartacus"

    def __init__(
        self, console: Console | None = None, show_odds: bool = True, **kwargs: Any
    ) -> None:
        super().__init__(console or Console(), **kwargs)
        self.show_odds = show_odds
        self.lines: list[str] = []
        self.odds_shown: tuple[int, str] | None = None  # (combat round, side) shown to a person
        self.odds: Text | None = None  # the odds of the attack declared last

    def update(self, state: Any, events: Iterable[Any]) -> None:
        events = [e for e in events if e.kind != "turn_started"]  # for the journal's checkpoints
        self.state = state
        self.lines += [event_text(e).plain for e in events]
        for event in events:
            if event.kind == "attack_declared" and self.show_odds and state.fight is not None:
                fight = state.fight
                self.odds = odds_text(fight, event.data["side"], event.data["quick"])
                if self.odds_shown != (fight.round, event.data["side"]) and not self.live:
                    super().update(state, [event])  # the attack, then its odds
                    self.console.print(self.odds)
                    continue
            super().update(state, [event])
            if self.live:
                continue
            if event.kind in ("fighter_turn", "fight_started") and state.fight is not None:
                self.console.print(Group(arena_text(state.fight), fighters_table(state)))
                self._printed_board = self.board_key()  # not again before the prompt
            if event.kind == "round_started" and not state.config.fight_only:
                self.console.print(houses_table(state))
            if event.kind == "fight_started" and not state.config.fight_only:
                self.console.print(bets_text(state))
        if not events:
            super().update(state, [])

    def message(self, text: str) -> None:
        self.lines.append(text)
        super().message(text)

    def attack_odds(self, state: Any, options: Sequence[Any]) -> None:
        """Before a person attacks: the exact odds of each attack the fighter may make."""
        fight = state.fight
        if fight is None or state.phase != "fight" or fight.phase != "turn":
            return
        side = fight.active.side
        for action in options:
            if action.kind in ("attack", "quick-attack"):
                self.odds = odds_text(fight, side, action.kind == "quick-attack")
                if not self.live:
                    self.console.print(self.odds)
                self.odds_shown = (fight.round, side)

    def when(self) -> str:
        state = self.state
        if state.config.fight_only:
            return f"combat round {state.turn}"
        return f"round {state.round}, {state.phase.replace('_', ' ')}"

    def whose_turn(self) -> Text:
        seat = self.state.current_player
        return Text(f"{self.state.houses[seat]} to decide" if seat >= 0 else "")

    def board(self, width: int, height: int | None = None) -> RenderableType:
        state = self.state
        if state.fight is None:
            bets = bets_text(state)
            if height is None or height >= 30:
                return Group(houses_table(state), bets)
            # a small terminal (80x24 leaves the board about 12 rows; three houses' property
            # wrapped to three rows each left the table its header and no house): the frame
            # goes, then property is cut at the edge, then the header row, then the bets
            # line when there are none
            for table in (
                houses_table(state),
                houses_table(state, compact=True),
                houses_table(state, compact=True, width=width),
                houses_table(state, compact=True, header=False, width=width),
            ):
                if rows_at(self.console, Group(table, bets), width) <= height:
                    return Group(table, bets)
            return table if not state.bets else Group(table, bets)
        odds = [self.odds] if self.odds is not None and self.show_odds else []
        if height is None or height >= 30:
            return Group(arena_text(state.fight), fighters_table(state), *odds)
        # a small terminal (80x24 leaves the board 12-13 rows): both fighters and the odds
        # come first; then the table's header row goes, then the arena (the table names
        # the hexes)
        arena = arena_text(state.fight)
        arena.rstrip()
        table = fighters_table(state, compact=True)
        bare = fighters_table(state, compact=True, header=False)
        for parts in ((arena, table), (arena, bare)):
            if rows_at(self.console, Group(*parts, *odds), width) <= height:
                return Group(*parts, *odds)
        return Group(table, *odds)

    def event_text(self, event: Any) -> Text | None:
        return event_text(event)

    def print_board(self) -> None:
        if self.state is not None and self.state.fight is not None:
            self.console.print(Group(arena_text(self.state.fight), fighters_table(self.state)))
            self._printed_board = self.board_key()
        else:
            super().print_board()

    def summary(self, state: Any) -> None:
        if state.config.fight_only and state.fight is not None:
            self.console.print(Group(arena_text(state.fight), fighters_table(state)))
        else:
            self.console.print(houses_table(state))
