"""A person playing at an 80x24 terminal sees what they need to decide: the hint they
asked for, the whole of a refusal or of the help, the board and the seats' rows.

Each test renders the live view the way ``companion play`` draws it while a person types
(:meth:`TableScreen.screen`: the view and the input row) on a rich console of 80x24, and
reads the rows a person would see.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console

from companion.dice import Roller
from companion.games.registry import get_game
from companion.table.loop import adapter_for, decide
from companion.table.people import TableStopped, TerminalAgent
from companion.table.session import GameSession, SessionSettings
from companion.worker import heavy_work_here


def small_console(width: int = 80, height: int = 24) -> Console:
    return Console(record=True, width=width, height=height, file=io.StringIO())


def seen(view: Any) -> str:
    """What the typed live view shows now, row by row, as text."""
    console = view.console
    console.print(view.screen())
    return console.export_text(clear=True)


def typed_view(game: str, console: Console) -> Any:
    from companion.ui.dashboard import Dashboard
    from companion.ui.gladiatoren import GladiatorenView
    from companion.ui.skirmish import SkirmishDashboard
    from companion.ui.spartacus import SpartacusView

    views = {
        "battle-royale": Dashboard,
        "gladiatoren": GladiatorenView,
        "skirmish": SkirmishDashboard,
        "spartacus": SpartacusView,
    }
    return views[game](console, live=True, typing=True)


class Typist:
    """A person at the terminal: each poll gives the next line; a callable is called first
    (it looks at the screen) and gives the line."""

    people = 1
    holder: int | None = None
    seats: set[int] | None = None

    def __init__(self, lines: list[str | Callable[[], str]]) -> None:
        self.lines = list(lines)

    def poll(self, timeout: float, hidden: bool = False) -> str | None:
        line = self.lines.pop(0)
        return line() if callable(line) else line


def new_session(game: str) -> GameSession:
    g = get_game(game)
    config = g.config(players=3 if game != "skirmish" else 2)
    state = g.new_game(config)
    return GameSession(state, config, SessionSettings(game=game, mode="tracked"))


def at_the_first_decision(game: str) -> tuple[GameSession, Any, list[str], Callable[..., Any]]:
    """A new game past its opening chance nodes on an 80x24 typed view; ``screens`` gets
    what the view shows whenever the returned ``looking(answer)`` line is typed."""
    session = new_session(game)
    while session.state.is_chance_node:
        session.apply(session.state.chance_outcomes()[0][0])
    view = typed_view(game, small_console())
    view.update(session.state, [])
    screens: list[str] = []

    def looking(answer: str) -> Callable[[], str]:
        def look() -> str:
            screens.append(seen(view))
            return answer

        return look

    return session, view, screens, looking


@pytest.mark.parametrize("game", ["battle-royale", "skirmish"])
def test_a_hint_stays_on_the_screen_above_the_question_asked_again(game: str) -> None:
    """Found at 80x24: ``hint`` was computed and journalled, but the question asked again
    replaced it at once, so nobody ever saw it."""
    session, view, screens, looking = at_the_first_decision(game)
    agent = TerminalAgent(Typist(["hint", looking("1")]), view, adapter=adapter_for(game))
    with heavy_work_here():
        action = decide(session, agent, view)
    hint = session.hints[0]["shown"]["notation"]
    assert f"> hint: {hint}" in screens[0]
    assert "help for more" in screens[0]  # and the question under it
    view.update(session.state, session.apply(action))
    assert "hint:" not in seen(view)  # the seat acted: the hint was for the move made


def in_the_events_panel(screen: str) -> str:
    """The text inside the events panel's frame, its rows joined by spaces."""
    lines = screen.splitlines()
    top = next(i for i, line in enumerate(lines) if " events " in line and "╭" in line)
    bottom = next(i for i in range(top, len(lines)) if lines[i].startswith("╰"))
    return " ".join(line.rstrip()[1:-1].strip() for line in lines[top + 1 : bottom])


@pytest.mark.parametrize("game", ["battle-royale", "gladiatoren", "skirmish", "spartacus"])
def test_help_at_80x24_is_shown_whole(game: str) -> None:
    """Found at 80x24: 'help' showed one row ending in '…' (the full list is ~280
    characters, cut even at 110 columns)."""
    session, view, screens, looking = at_the_first_decision(game)
    adapter = adapter_for(game)
    by_hand = ["" for _ in adapter.manual_steps(session.state, session.state.current_player)]
    agent = TerminalAgent(Typist([*by_hand, "help", looking("quit")]), view, adapter=adapter)
    with pytest.raises(TableStopped):
        agent.choose(session.state, session.state.legal_actions())
    helped = view.log[-1].plain.removeprefix("* ")
    assert len(helped) > 160 and "quit - stop" in helped
    assert helped in in_the_events_panel(screens[0])
    assert len(screens[0].splitlines()) == 24 and "help for more" in screens[0]


def test_the_rule_an_illegal_move_breaks_is_shown_whole_at_80x24() -> None:
    """The rule an illegal move breaks (what the README sells) was cut to one row."""
    session, view, screens, looking = at_the_first_decision("battle-royale")
    adapter = adapter_for("battle-royale")
    agent = TerminalAgent(Typist(["eliminator a1", looking("1")]), view, adapter=adapter)
    decide(session, agent, view)
    refused = view.log[-1].plain.removeprefix("* ")
    assert "is not allowed: " in refused and len(refused) > 100  # more than a row
    assert refused in in_the_events_panel(screens[0])


def test_the_newest_message_is_whole_and_the_ones_before_fit_around_it() -> None:
    session = new_session("battle-royale")
    view = typed_view("battle-royale", small_console())
    view.update(session.state, [])
    view.prompt("purple: choose (help for more)", ["1: play 1x4", "2: play 4x1"])
    older = "an older message, " * 10
    newest = "the newest message, " * 30  # 8 rows of 76
    view.message(older.strip())
    view.message(newest.strip())
    screen = seen(view)
    panel = in_the_events_panel(screen)
    assert newest.strip() in panel
    assert "…" not in panel.split(newest.strip())[1]  # nothing of the newest is cut
    assert len(screen.splitlines()) == 24
    assert "> purple: choose" in screen and "2: play 4x1" in screen


def bot_game(game: str, view: Any, until: Callable[[Any], bool], players: int = 3) -> Any:
    """A seeded bot game on simulated hardware, shown on ``view``, until ``until(state)``."""
    import sys

    sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/table")
    from table_helpers import game_table

    g = get_game(game)
    config = g.config(players=players)
    session = GameSession(g.new_game(config), config, SessionSettings(game=game))
    table, hw = game_table(game, session, view, seed=4)
    view.hw = hw if view.hw is not None else None
    with hw:
        view.update(session.state, [])
        while not session.state.is_terminal and not until(session.state):
            table.step()
    return table


def ask_like_the_table(view: Any, game: str, state: Any) -> None:
    """The question a person at the terminal gets now, with its options."""
    adapter = adapter_for(game)
    seat = state.current_player
    options = [a for a in state.legal_actions() if not getattr(a, "is_correction", False)]
    view.prompt(
        f"{adapter.ask(state, seat)} ({adapter.prompt_hint(state)}; help for more)",
        [
            adapter.named(state, line)
            for line in adapter.option_lines(adapter.listed_options(state, options))
        ],
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_battle_royale_at_80x24_shows_the_whole_arena_and_every_seat(players: int) -> None:
    """Found at 80x24: the Players table showed its header and never a row."""
    view = typed_view("battle-royale", small_console())
    table = bot_game(
        "battle-royale",
        view,
        lambda s: s.turn >= 3 and s.phase == "play_card" and not s.is_chance_node,
        players,
    )
    ask_like_the_table(view, "battle-royale", table.state)
    screen = seen(view)
    assert len(screen.splitlines()) == 24 and "help for more" in screen
    for row in range(1, 6):
        assert any(line.lstrip().startswith(f"{row} ") for line in screen.splitlines())
    for colour in table.state.colours[:players]:
        assert f"{colour[0].upper()} {colour}" in screen  # the seat's row
    # a newcomer: nothing on the live board said what 'P1G1T2', 'F', 'E' or '()' mean
    assert "key: P2 two purple figures  F flag  E the Eliminator under it  () hole" in screen
    if players == 2:  # the neutral colour by the name the push menu uses
        neutral = table.state.colours[table.state.neutral]
        assert f"{neutral[0].upper()} {neutral} (neutral)" in screen


def test_the_demo_at_80x24_shows_all_four_seats() -> None:
    """Found at 80x24: ``companion demo`` (no one typing, the hardware panel) showed 2 of
    4 seats."""
    from companion.ui.dashboard import Dashboard

    console = small_console()
    view = Dashboard(console, None, live=True)
    bot_game("battle-royale", view, lambda s: s.turn >= 4, players=4)
    view.prompt("grey: press ROLL for the Doom die")
    console.print(view.render())
    screen = console.export_text()
    assert len(screen.splitlines()) <= 24
    for seat in ("P purple", "G grey", "T turquoise", "R red"):
        assert seat in screen


def test_skirmish_placement_at_80x24_shows_the_entrance_and_the_cells_offered() -> None:
    """Found at 80x24: placing within 5 fields of entrance E, the board stopped at row 9
    (entrance E and the gladiator placed on k10 off screen) and the cells offered ended
    in '…'."""
    view = typed_view("skirmish", small_console())
    table = bot_game("skirmish", view, lambda s: s.phase == "place", players=2)
    ask_like_the_table(view, "skirmish", table.state)
    screen = seen(view)
    rows = screen.splitlines()
    assert len(rows) == 24 and "within 5 fields of entrance" in screen
    assert any(line.startswith("11 ") for line in rows)  # the map's last row
    assert "[E]" in screen and "…" not in screen
    cells = [o for o in view.options if o.startswith("place <cell>")][0].split("cells: ")[1]
    assert all(cell in screen for cell in cells.split())


def test_a_long_option_is_broken_into_rows_when_printed_never_cut() -> None:
    """The skirmish pick list ended in '…' even in pipe mode."""
    from companion.ui.skirmish import SkirmishDashboard

    console = Console(record=True, width=80, file=io.StringIO())
    view = SkirmishDashboard(console, live=False)
    ids = "|".join(str(i) for i in range(1, 70, 2))
    view.prompt("purple: pick gladiators, then ready", [f"pick <{ids}>", "ready"])
    out = console.export_text()
    assert "…" not in out and max(len(line) for line in out.splitlines()) <= 80
    assert ids in "".join(line.strip() for line in out.splitlines())


def test_the_doom_face_and_an_explosion_are_each_shown_once() -> None:
    """Found at 80x24: '* the Doom die shows: explosion' / 'Doom die: explosion' and
    'explosion under b2: ...' / '* explosion under b2: hit the red button' filled the
    events box twice over."""
    from companion.ui.dashboard import Dashboard

    class Counting(Dashboard):
        kinds: list[str] = []

        def update(self, state: Any, events: Any) -> None:
            self.kinds += [e.kind for e in events]
            super().update(state, events)

    console = Console(record=True, width=100, file=io.StringIO())
    view = Counting(console, None, live=False)
    bot_game("battle-royale", view, lambda s: False, players=3)
    out = console.export_text().splitlines()
    explosions = [line for line in out if "explosion under " in line]
    assert len(explosions) == view.kinds.count("explosion_armed") > 0
    assert not any("the Doom die shows" in line for line in out)
    faces = [line for line in out if "Doom die: " in line]
    assert len(faces) == view.kinds.count("doom_rolled") > 0


def test_in_assist_mode_the_doom_face_is_shown_once() -> None:
    from companion.games.battle_royale import BattleRoyaleConfig
    from companion.games.battle_royale.assist import new_assist_game
    from companion.hal import HardwareConfig, ManualClock, open_hardware
    from companion.table.assist import AssistTable
    from companion.table.people import SimOperator
    from companion.ui.dashboard import Dashboard

    console = Console(record=True, width=100, file=io.StringIO())
    view = Dashboard(console, None, live=False)
    clock = ManualClock()
    hw = open_hardware(HardwareConfig(profile="sim"), clock=clock)
    state = new_assist_game(BattleRoyaleConfig(players=3, start_player=0))
    loop = AssistTable(
        state, hw, Roller.seeded(2), view, sleep=clock.sleep, operator=SimOperator(hw)
    )
    with hw:
        view.update(loop.state, [])
        while loop.state.turn < 4:
            loop.step()
    out = console.export_text().splitlines()
    assert any("Doom die: " in line for line in out)
    assert not any("the Doom die shows" in line for line in out)


def test_a_long_choice_of_figures_leaves_the_seats_on_screen_at_80x24() -> None:
    """Found at 80x24: choosing which of 21 figures to move listed '4: figure a2 purple'
    in eight rows, and the seats' table showed its header and never a row. Options that
    differ in one word are shown once as 'figure … purple:' with the numbers and fields."""
    view = typed_view("battle-royale", small_console())
    table = bot_game(
        "battle-royale",
        view,
        lambda s: s.phase == "move" and len(s.legal_actions()) > 15,
        players=2,
    )
    state = table.state
    ask_like_the_table(view, "battle-royale", state)
    screen = seen(view)
    rows = screen.splitlines()
    assert len(rows) == 24 and "more options than fit" not in screen
    for colour in state.colours[:2]:
        assert f"{colour[0].upper()} {colour}" in screen  # the seat's row
    assert "figure … " in screen
    figures = [o for o in view.options if " figure " in o]
    assert len(figures) > 15
    for option in figures:  # every number with its field, none cut
        number, field = option.split(" ")[0], option.split(" ")[2]
        assert f"{number} {field}" in " ".join(screen.split())


def test_after_a_blast_the_corrections_are_on_the_screen_at_80x24() -> None:
    """Found at 80x24: after the Eliminator fired the prompt showed only '1: done'; the
    corrections (the figures or tiles fell otherwise at the table) were under '?', and a
    newcomer could not tell they existed. Their forms are shown under 'done', the board
    and the seats stay whole."""
    view = typed_view("battle-royale", small_console())
    table = bot_game("battle-royale", view, lambda s: s.phase == "blast", players=2)
    state = table.state
    screens: list[str] = []

    def look() -> str:
        screens.append(seen(view))
        return "1"

    agent = TerminalAgent(Typist([look]), view, adapter=adapter_for("battle-royale"))
    action = decide(table.session, agent, view)
    assert action.kind == "done"
    rows = screens[0].splitlines()
    words = " ".join(screens[0].split())
    assert len(rows) == 24 and "1: done" in words and "more options than fit" not in words
    for form in (
        "knockoff <field> <colour>",
        "shift <field> <colour> <to>",
        "remove <field>",
        "set-eliminator <field>",
    ):
        assert form in words
    for row in range(1, 6):  # the whole arena
        assert any(line.lstrip().startswith(f"{row} ") for line in rows)
    for colour in state.colours[:2]:
        assert f"{colour[0].upper()} {colour}" in screens[0]  # the seat's row


def test_while_the_eliminator_waits_for_the_red_button_the_header_says_armed() -> None:
    """The Doom roll is shown before the red button now (it was shown after the pulse):
    'Doom die: Explosion   ELIMINATOR ARMED' then cut ARMED at 80 columns."""
    from companion.ui.dashboard import Dashboard

    screens: list[str] = []

    class Looking(Dashboard):
        def prompt(self, text: str, options: Any = (), seat: int | None = None) -> None:
            super().prompt(text, options, seat)
            if "RED BUTTON" in text and self.last_face == "explosion" and not screens:
                screens.append(seen(self))  # an explosion the Doom die rolled

    view = Looking(small_console(), live=True, typing=True)
    view.hw = True  # bot_game gives it the table's hardware
    bot_game("battle-royale", view, lambda s: bool(screens), players=3)
    header = screens[0].splitlines()[0]
    assert "to play" in header and "ELIMINATOR ARMED" in header


def test_options_differing_in_one_word_are_grouped_only_in_long_runs() -> None:
    from companion.ui.screen import option_runs

    ways = ("N", "NE", "E", "SE", "S", "SW", "W")
    steps = [f"{n}: step {d}" for n, d in enumerate(ways, 1)]
    assert option_runs([*steps, "8: end"]) == [
        ([f"{n}: {d}" for n, d in enumerate(ways, 1)], "step …"),
        (["8: end"], None),
    ]
    # a number that differs stays beside its option's number: '9: 27' read as gladiator 9
    # (found by a review: the fifth pick took gladiator 27)
    picks = [f"{n}: pick {g}" for n, g in enumerate((1, 3, 7, 9, 11, 17, 21, 25, 27), 1)]
    assert option_runs(picks) == [(picks, None)]
    bids = [f"{n}: bid {n - 1}" for n in range(1, 8)]
    assert option_runs(bids) == [(bids, None)]
    plays = ["1: play 1x4", "2: play 3x2", "3: play 1x3+explosion", "4: play 2x1+move"]
    assert option_runs(plays) == [(plays, None)]  # four: as they are
    mixed = [f"{n}: step {d} now" for n, d in enumerate("NESWXY", 1)]
    mixed[3] = "4: step W later"  # two words differ: the run breaks
    assert [shared for _, shared in option_runs(mixed)] == [None]
    assert option_runs(["pick <1|3|5>", "ready"]) == [(["pick <1|3|5>", "ready"], None)]


@pytest.mark.parametrize("players", [3, 4])
def test_spartacus_intrigue_turn_at_80x24_shows_every_house_and_done(players: int) -> None:
    """Found by a newcomer at 80x24: in the intrigue turn the houses table showed its
    header and no house (three rows of property each), and the 26 schemes (every set of
    supporters) cut 'done', the only way to end the turn, off the list."""
    view = typed_view("spartacus", small_console())
    table = bot_game(
        "spartacus",
        view,
        lambda s: (
            s.phase == "intrigue_turn"
            and any(a.kind == "scheme" for a in s.legal_actions_for(s.current_player))
        ),
        players,
    )
    state = table.state
    ask_like_the_table(view, "spartacus", state)
    screen = seen(view)
    assert len(screen.splitlines()) == 24 and "more options than fit" not in screen
    assert any(line.split(":")[-1].strip() == "done" for line in screen.splitlines())
    for seat, house in enumerate(state.houses):
        row = next(line for line in screen.splitlines() if line.lstrip().startswith(house))
        cells = row.replace("(host)", "").split()
        gold = "hidden" if state.gold_is_hidden() else str(state.gold[seat])
        assert cells[1:3] == [gold, str(state.influence[seat])], row


@pytest.mark.parametrize("in_combat", [False, True])
def test_gladiatoren_at_80x24_shows_the_score_and_the_whole_map(in_combat: bool) -> None:
    """Found by a newcomer at 80x24: the players' table (their points) was never on screen
    during play, only in the dump after quit; in a combat the map lost its last row's
    weapons."""
    view = typed_view("gladiatoren", small_console())
    table = bot_game(
        "gladiatoren",
        view,
        lambda s: s.turn >= 2 and (s.combat is not None) == in_combat,
        players=3,
    )
    state = table.state
    ask_like_the_table(view, "gladiatoren", state)
    screen = seen(view)
    rows = screen.splitlines()
    assert len(rows) == 24
    assert any(line.lstrip().startswith("O ") for line in rows)  # the map's last row
    scores = " ".join(f"{c[0].upper()}{state.score(n)}" for n, c in enumerate(state.colours))
    assert rows[0].rstrip().endswith(f"points {scores}"), rows[0]  # in the header row


def test_skirmish_round_at_80x24_shows_the_initiative_order_beside_the_map() -> None:
    """Found by a newcomer at 80x24: under the map, 'Round 1 - initiative' showed its
    title and no gladiator; the order now stands beside the map by letter and number."""
    view = typed_view("skirmish", small_console())
    table = bot_game(
        "skirmish", view, lambda s: s.round >= 1 and s.active_gladiator is not None, players=2
    )
    state = table.state
    ask_like_the_table(view, "skirmish", state)
    screen = seen(view)
    rows = screen.splitlines()
    assert len(rows) == 24 and any(line.startswith("11 ") for line in rows)
    shown = " ".join(screen.split())  # on the map a gladiator has its facing: 'P31↑'
    for gid in state.round_order():
        g = state.gladiators[gid]
        assert f"{state.colours[g.owner][0].upper()}{gid} {g.initiative}" in shown


def test_log_shows_the_events_the_box_no_longer_holds_until_the_next_line() -> None:
    """Found by a newcomer: the events box keeps five lines at 80x24, so a bot's whole
    turn could go by unseen, and nothing showed more."""
    view = typed_view("battle-royale", small_console())
    table = bot_game(
        "battle-royale",
        view,
        lambda s: s.turn >= 4 and s.phase == "play_card" and not s.is_chance_node,
        players=4,
    )
    ask_like_the_table(view, "battle-royale", table.state)
    before = in_the_events_panel(seen(view))
    older = [line.plain for line in list(view.log)[-15:-6]]
    assert older and not any(line in before for line in older)
    screens: list[str] = []

    def look() -> str:
        screens.append(seen(view))
        return ""

    typed = Typist(["log", look, "", look, "quit"])
    agent = TerminalAgent(typed, view, adapter=adapter_for("battle-royale"))
    with pytest.raises(TableStopped):
        agent.choose(table.state, table.state.legal_actions())
    shown, after = screens
    assert "events so far, the newest last (Enter: back to the board)" in shown
    panel = in_the_events_panel(shown.replace("events so far", " events "))
    assert all(line in panel for line in older)
    assert len(shown.splitlines()) == 24 and "help for more" in shown  # the question stays
    assert "events so far" not in after and " 5 " in after  # Enter: the arena again


def test_log_printed_prints_the_last_events_and_the_question_again() -> None:
    from companion.ui.dashboard import Dashboard

    console = small_console()
    view = Dashboard(console, None, live=False)
    bot_game("battle-royale", view, lambda s: s.turn >= 3, players=3)
    view.prompt("purple: choose", ["1: play 1x4"])
    console.export_text(clear=True)
    view.show_log()
    printed = console.export_text()
    lines = printed.splitlines()
    n = min(20, len(view.log))  # the console's height less the question's rows
    assert n > 10  # more than the live box ever shows
    assert lines[0] == f"the last {n} events and messages:"
    assert [line.strip() for line in lines[1 : n + 1]] == [t.plain for t in list(view.log)[-n:]]
    assert "> purple: choose" in printed


def test_gladiatoren_set_up_is_named_and_the_seat_choosing_is_the_one_shown() -> None:
    """Found by a newcomer: the title read 'turn 0' through the set-up, and while the
    animals were placed it named the start player, not the seat placing them."""
    from companion.table.gladiatoren_table import GladiatorenAdapter

    view = typed_view("gladiatoren", small_console())
    table = bot_game(
        "gladiatoren", view, lambda s: s.phase == "place_animal" and s.placer != s.active
    )
    state = table.state
    assert state.phase == "place_animal"  # the case that showed the wrong seat
    ask_like_the_table(view, "gladiatoren", state)
    header = seen(view).splitlines()[0]
    placer = state.colours[state.placer]
    assert header.startswith(
        f"Kampf der Gladiatoren - set-up  {placer[0].upper()} {placer} to play"
    )
    assert "challenge" not in seen(view)  # the example is for a turn
    assert GladiatorenAdapter().turn_seat(state) == state.placer  # the turn LED too
    table = bot_game("gladiatoren", view, lambda s: s.turn >= 1, players=3)
    assert seen(view).startswith(f"Kampf der Gladiatoren - turn {table.state.turn}  ")


def test_skirmish_team_picking_at_80x24_shows_the_gladiators_values() -> None:
    """Found by a newcomer: while teams were picked the small terminal showed the empty
    map and 'pick <1|3|...>': no name, points or values to pick by."""
    view = typed_view("skirmish", small_console())
    table = bot_game("skirmish", view, lambda s: s.phase == "select", players=2)
    state = table.state
    ask_like_the_table(view, "skirmish", state)
    screen = seen(view)
    rows = screen.splitlines()
    assert len(rows) == 24 and "gladiator's id to pick it" in screen
    assert "step" not in screen  # the activation's example is not for picking
    profiles = state.config.data.profiles
    ids = state.pickable(state.picking)
    top = next(i for i, row in enumerate(rows) if row.startswith("id name"))
    second = rows[top].index(" id ") + 1  # the second group of columns starts here
    shown: list[int] = []
    for row in rows[top + 1 :]:
        if row.startswith("… and "):
            assert row.split()[2] == str(ids[len(shown)])  # what did not fit, from the next
            break
        for part in (row[:second], row[second:]):
            if part.strip():
                words = part.split()
                g = int(words[0])
                p = profiles[g]
                element = {"fire": "F", "water": "W", "air": "A", "earth": "E"}[p.element]
                values = [p.initiative, p.movement, p.attack, f"{element}{p.affinity}", p.life]
                assert words[-6:] == [str(v) for v in (*values, p.points)]
                shown.append(g)
    else:
        pytest.fail("no line for the gladiators that did not fit")
    assert sorted(shown) == sorted(ids[: len(shown)]) and len(shown) >= 16  # two groups


def test_log_before_anything_happened_says_so() -> None:
    _, view, _, _ = at_the_first_decision("skirmish")
    view.show_log()
    assert "nothing has happened yet" in in_the_events_panel(
        seen(view).replace("events so far", " events ")
    )


def test_spartacus_header_at_80_columns_keeps_whose_turn_it_is() -> None:
    """Found by a newcomer at 80x24: 'Spartacus: 3 houses (3 at the terminal) - round 1,
    intrigue turn  solonius to' - the title took the row and cut whose turn it is."""
    view = typed_view("spartacus", small_console())
    view.title = "Spartacus: 3 houses (3 at the terminal)"
    table = bot_game("spartacus", view, lambda s: s.phase == "intrigue_turn", 3)
    ask_like_the_table(view, "spartacus", table.state)
    first = seen(view).splitlines()[0].rstrip()
    house = table.state.houses[table.state.current_player]
    assert first.startswith("Spartacus: 3 houses - round") and first.endswith(f"{house} to decide")
    assert view.header().plain.startswith("Spartacus: 3 houses (3 at the terminal)")  # printed


def test_gladiatoren_long_challenge_list_at_80x24_leaves_the_map_whole() -> None:
    """Found by a newcomer at 80x24: with 20 or more challenges listed, the map lost its
    bottom row (fields O P Q). The options give way: one 'challenge …' row with the
    numbers and the rest of each, the events box down to 3 rows; the map stays whole."""
    from companion.table.gladiatoren_table import GladiatorenAdapter
    from companion.ui.gladiatoren import composition

    def many(state: Any) -> bool:
        if state.phase != "turn" or state.is_chance_node:
            return False
        return len(GladiatorenAdapter().listed_options(state, state.legal_actions())) >= 20

    view = typed_view("gladiatoren", small_console())
    table = bot_game("gladiatoren", view, many, players=3)
    state = table.state
    assert many(state)
    ask_like_the_table(view, "gladiatoren", state)
    screen = seen(view)
    rows = screen.splitlines()
    assert len(rows) == 24 and "more options than fit" not in screen
    bottom = next(i for i, row in enumerate(rows) if row.lstrip().startswith("O "))
    for field in "OPQ":  # the map's bottom row, and under it what stands there
        piece = state.board[state.arena.index(field)]
        if piece is not None and piece[0] == "team":
            team = state.teams[piece[1]]
            assert composition(team.active).plain in rows[bottom + 1], field
    shown = " ".join(screen.split())
    assert "challenge …: type the number" in shown
    challenges = [o for o in view.options if o[:1].isdigit()]
    assert len(challenges) >= 20
    for option in challenges:  # every challenge, its number with the rest of it
        number, _, notation = option.partition(": ")
        assert f"{number}: {notation.removeprefix('challenge ')}" in shown, option


@pytest.mark.parametrize("width", [80, 100])
def test_skirmish_play_at_80x24_shows_every_gladiators_values(width: int) -> None:
    """Found by a newcomer at 80x24: after the teams were picked no value of any
    gladiator was on screen, so nobody saw the movement, attack, affinity or life of the
    gladiators they moved and fought with. Beside the map each one in the initiative
    order has them, as the team picking shows them."""
    view = typed_view("skirmish", small_console(width))
    table = bot_game(
        "skirmish",
        view,
        lambda s: s.round >= 2 and s.active_gladiator is not None and s.attack is None,
        players=2,
    )
    state = table.state
    ask_like_the_table(view, "skirmish", state)
    screen = seen(view)
    rows = screen.splitlines()
    assert len(rows) == 24 and any(line.startswith("11 ") for line in rows)  # the whole map
    headers = "ini mv at af li" if width == 80 else "ini mov att aff life"
    assert any(line.rstrip().endswith(headers) for line in rows)
    shown = " ".join(screen.split())
    element = {"fire": "F", "water": "W", "air": "A", "earth": "E"}
    for gid in state.round_order():
        g = state.gladiators[gid]
        letter = state.colours[g.owner][0].upper()
        values = (g.initiative, g.movement, g.attack, f"{element[g.profile.element]}{g.affinity}")
        assert f"{letter}{gid} {' '.join(map(str, (*values, g.life)))}" in shown, gid


def test_skirmish_attack_odds_at_80x24_are_shown_whole_at_the_roll() -> None:
    """Found by a newcomer at 80x24: at a melee's ROLL prompt the odds panel under the
    map showed its top border and nothing else. Its odds now come first, unframed, the
    map and the values beside it under them, the events box down to 3 rows."""
    from types import SimpleNamespace

    from companion.games.arena_skirmish.combat import damage_distribution, percent

    view = typed_view("skirmish", small_console())
    table = bot_game(
        "skirmish",
        view,
        lambda s: s.phase == "hit" and s.attack is not None and s.attack["kind"] == "melee",
        players=2,
    )
    state = table.state
    adapter = adapter_for("skirmish")
    ask = adapter.dice(state)
    adapter.before_roll(SimpleNamespace(view=view, state=state), ask)  # as the table does
    attacker = state.gladiators[state.attack["attacker"]]
    view.prompt(f"{state.seat_name(attacker.owner)}: press ROLL for {ask.what}")
    attack = state.attack
    breakdown = state.breakdown(attack["attacker"], attack["target"], attack["kind"])
    dist = damage_distribution(state.gladiators[attack["target"]].stats, breakdown.dice)
    title = f"#{attack['attacker']} {attack['kind']} on #{attack['target']}"
    screen = seen(view)
    rows = screen.splitlines()
    assert len(rows) == 24 and "press ROLL for " in screen
    assert rows[1].startswith(f"{title}: {dist.dice} dice on life {dist.stats.life}")
    lost = "  ".join(f"{k}: {percent(p)}" for k, p in sorted(dist.life_lost.items()))
    assert f"life lost  {lost}" in screen
    for what in (f"removed {percent(dist.removed)}", "-1 attack (arms) ", "movement (legs) "):
        assert what in screen
    assert any(line.startswith("11 ") for line in rows)  # and the whole map
    events = next(i for i, row in enumerate(rows) if " events " in row)
    assert not any("╭" in row for row in rows[:events])  # no frame cut under the map
