"""Spartacus at the table: its adapter to the shared table loop.

Sessions are the shared :class:`~companion.table.session.GameSession`
(``commit(action)`` journals durably, then ``apply(action)``, ``undo(n)``,
``finish()``, ``.state``; ``docs/journal.md``). Undo never crosses a die roll
or a card draw.

:class:`SpartacusTable` runs a game (or a single fight) on a
:class:`~companion.hal.Hardware`: every die roll waits for the ROLL button
(pressed by the simulated operator for bots) or for the faces of the players' own
dice (``6-4``, ``state.pending_roll()`` says who rolls which dice), is journalled,
then shown in red / black / blue on the terminal and as bars on the arena display
(:func:`dice_frame`). Decisions come from agents: :func:`bot_agent` (the simple bot)
or :func:`terminal_agent` (a person typing the notation; secret bids are read without
echo on a terminal and never printed).

Arena display mapping for dice (5 x 5 cells): one row per die, highest first;
a face 1-5 lights that many cells from the left (``field``); a 6 lights all
five as ``highlight``. Only five dice fit: a sixth and later die are shown on
the terminal only. The dice colour is the terminal's; the turn LED of seat
*i* (the hardware's *i*-th turn colour) marks the house deciding.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.games.spartacus import SpartacusConfig, parse_action
from companion.games.spartacus import actions as A
from companion.games.spartacus.bot import SimpleBot
from companion.games.spartacus.state import SpartacusState
from companion.hal import ARENA_SIZE, CellState
from companion.table.adapter import DiceAsk, TableAdapter, match_outcome
from companion.table.loop import TableLoop
from companion.table.people import BotAgent, TerminalAgent, TerminalInput
from companion.table.session import (
    GameSession,
    SessionSettings,
    resume_session,
)

GAME = "spartacus"


# -- dice on the arena display ------------------------------------------------------------


def dice_frame(faces: Sequence[int]) -> tuple[tuple[CellState, ...], ...]:
    """A roll as arena-display rows (see the module docstring)."""
    rows = []
    for r in range(ARENA_SIZE):
        if r < len(faces):
            f = faces[r]
            lit = CellState.HIGHLIGHT if f >= 6 else CellState.FIELD
            n = min(f, ARENA_SIZE)
            rows.append(tuple(lit if c < n else CellState.OFF for c in range(ARENA_SIZE)))
        else:
            rows.append((CellState.OFF,) * ARENA_SIZE)
    return tuple(rows)


# -- sessions: the shared GameSession ------------------------------------------------------


def resume_spartacus(path: str | Path) -> GameSession:
    """Rebuild a session from its journal (checked) and continue writing to it."""
    session, _warnings = resume_session(path, game=GAME)
    return session


def open_session(
    config: SpartacusConfig,
    *,
    bots: Sequence[int],
    hardware: str,
    seed: int | None,
    path: str | Path | None,
    demo: bool = False,
    bot_level: str | None = None,
) -> GameSession:
    """A new game or fight and its journal; which seats bots play (and at which search
    level) is recorded, and whether it is a demo (never resumed by ``serve``)."""
    settings = SessionSettings(
        mode="tracked",
        bots=len(bots),
        hardware=hardware,
        seed=seed,
        game=GAME,
        bot_seats=tuple(bots),
        demo=demo,
        bot_level=bot_level,
    )
    return GameSession.start(config, settings, path)


# -- the table's adapter ------------------------------------------------------------------


class SpartacusAdapter(TableAdapter):
    """Spartacus on the table's hardware: the turn LED of the house deciding (seat *i*: the
    hardware's *i*-th colour), every roll on ROLL or from the players' own dice, dice as
    bars on the arena display; hidden bids and nets typed without echo."""

    game = GAME
    hint = "number, action, or a kind alone ('scheme') step by step"

    def turn_seat(self, state: Any) -> int | None:
        seat = state.current_player
        return seat if seat >= 0 else None

    def led(self, state: Any, seat: int | None, colours: Sequence[str]) -> str | None:
        return colours[seat] if seat is not None and 0 <= seat < len(colours) else None

    def start(self, loop: Any) -> None:
        loop.show_turn()

    def react(self, loop: Any, events: Sequence[Any]) -> None:
        loop.show_turn()
        for event in events:
            if event.kind == "dice_rolled":
                frame = dice_frame(event.data["faces"])
                loop.rolls.append(frame)
                loop.hw.display.show(frame)

    def dice(self, state: SpartacusState) -> DiceAsk | None:
        roll = state.pending_roll()
        if roll is None:
            return None  # a card drawn, the opening roll for the host
        n = roll["dice"]
        colour = f"{roll['die']} " if roll["die"] else ""
        what = f"the {roll['purpose']} of {roll['who']} ({n} {colour}{'die' if n == 1 else 'dice'})"
        like = "-".join(str(f) for f in (6, 4, 3, 2, 1)[:n])
        return DiceAsk(roll["seat"], what, f"the {n} face{'s' if n > 1 else ''}, like {like}")

    def entered(self, state: Any, text: str, ask: DiceAsk) -> list[Any]:
        action = match_outcome(state.chance_outcomes(), text, parse_action)
        if action is None:
            raise ValueError(f"{text!r} is not a roll of {ask.what}: type {ask.entry}")
        return [action]

    def parse(self, text: str) -> Any:
        return parse_action(text)

    def __init__(self, people: set[int] | None = None) -> None:
        self.people = people  # the seats people play (out-of-turn hints name only them)
        self.acknowledged: set[tuple[int, str]] = set()  # (round, manual step) done

    def ask(self, state: SpartacusState, seat: int) -> str:
        hand = ""
        if self.private_prompt(state) and state.hand(seat):
            hand = f" - your hand: {', '.join(state.hand(seat))} (cards: what they do)"
        elif state.assist and not state.config.fight_only:
            hand = f" - {state.hand_size(seat)} cards in your hand"
        others = [
            state.houses[s]
            for s in state.seats_that_may_act()
            if s != seat and (self.people is None or s in self.people)
        ]
        if others and self.private_prompt(state):
            # the prompt shows this house's hand: the others play from their own screen
            hand += (
                f"; {', '.join(others)} may play out of turn now: 'out <house>' passes it "
                "the screen"
            )
        elif others:
            hand += (
                f"; {', '.join(others)} may play out of turn now: type the play with the "
                "house's name, e.g. 'react <card> <target> <your house>'"
            )
        return f"{state.houses[seat]}: choose{hand}"

    def answer_word(self, state: SpartacusState, seat: int, word: str) -> str | None:
        """``cards``: each card of the seat's hand, its id, printed name and effect (from
        the data, guesses labelled); said to the seat only, as its hand is. In assist mode
        the companion does not know the hand: every intrigue card of the data."""
        if word != "cards":
            return None
        if state.config.fight_only:
            return "a fight has no intrigue cards"
        if state.assist:
            ids = list(state.data.intrigue)
            head = "the intrigue cards (you hold yours)"
        else:
            ids = list(dict.fromkeys(state.hand(seat)))
            head = f"{state.houses[seat]}'s cards"
        if not ids:
            return f"{head}: none"
        lines = (f"{c} = {state.intrigue_card(c).effect_line()}" for c in ids)
        return f"{head}: " + " | ".join(lines)

    def menu(self, state: SpartacusState, seat: int) -> Any:
        return state.menu(seat)

    def manual_steps(self, state: SpartacusState, seat: int) -> list[str]:
        steps = []
        for step in state.manual_steps():
            key = (state.round, step["id"])
            if step["seat"] == seat and key not in self.acknowledged:
                self.acknowledged.add(key)
                steps.append(f"{step['title']}: {step['text']}")
        return steps

    def own_actions(self, state: SpartacusState, seat: int, legal: Sequence[Any]) -> list[Any]:
        return state.legal_actions_for(seat)  # never another house's cards (out of turn)

    def listed_options(self, state: SpartacusState, options: Sequence[Any]) -> list[Any]:
        """Each scheme once, without its supporters (a scheme against 3 houses listed every
        set of supporters: 26 options at 80x24 cut 'done' off the list); a scheme with
        supporters is typed in full, chosen step by step ('scheme'), or numbered by '?'."""
        return [a for a in options if not getattr(a, "supporters", ())]

    def option_lines(self, options: Sequence[Any]) -> list[str]:
        lines = super().option_lines(options)
        if any(isinstance(a, A.PlayScheme) for a in options):
            lines.append("(with supporters: 'scheme' chooses step by step; ? lists all)")
        return lines

    def out_of_turn_actions(self, state: SpartacusState, seat: int) -> list[Any]:
        """What ``seat`` may play now while another house is asked (R11, R13a): its own
        reactions, thwarts and guards laid on the table, and gold it gives (the giver's
        only), never a correction of the table's record. Not limited to
        ``seats_that_may_act()``, which leaves out guards and gold (they open no window)."""
        if seat == state.current_player:
            return []
        return [
            a
            for a in state.legal_actions_for(seat)
            if not a.is_correction or isinstance(a, A.GiveGold)
        ]

    def before_prompt(self, view: Any, state: Any, options: Sequence[Any]) -> None:
        show = getattr(view, "attack_odds", None)
        if show is not None:
            show(state, options)

    def private_prompt(self, state: SpartacusState) -> bool:
        """A hand the companion knows (tracked mode) is shown only to its house; in assist
        mode the players hold their cards."""
        return not state.config.fight_only and not state.assist

    # -- out of turn: a reaction's moment (rule R11) ------------------------------------

    def moments(self, state: SpartacusState, events: Sequence[Any]) -> list[Any]:
        """A reaction's moment: the ``reaction_window`` events of one action (a house has
        just lost its last gold or ready slave), as one moment: ((card, target seat), ...)."""
        opened = tuple(
            (e.data["card"], e.data["target"]) for e in events if e.kind == "reaction_window"
        )
        return [opened] if opened else []

    def moment_seats(self, state: SpartacusState, moment: Any) -> list[int]:
        """The houses that may play one of the moment's cards on its target now (public
        information: a hand that is not empty, the card's influence), from the first
        target's left, as the rulebook asks the answers to a scheme from the player's left."""
        windows = state.reaction_windows()
        seats = {s for key in moment for s in windows.get(key, [])}
        first = moment[0][1]
        return sorted(seats, key=lambda s: (s - first) % state.players)

    def moment_options(self, state: SpartacusState, moment: Any, seat: int) -> list[Any]:
        """The seat's reactions playable now (its own hand; assist mode: any such card
        while its hand is not empty), the moment's cards on their targets first."""
        keys = {(card, state.houses[target]) for card, target in moment}
        reacts = [a for a in state.legal_actions_for(seat) if isinstance(a, A.React)]
        return sorted(reacts, key=lambda a: (a.card, a.target) not in keys)

    def moment_text(self, state: SpartacusState, moment: Any) -> str:
        why = {"no_gold": "has no gold", "no_slaves": "has no ready slave"}
        parts = []
        for card, target in moment:
            house = state.houses[target]
            title = state.intrigue_card(card).title
            condition = state.intrigue_card(card).condition or ""
            parts.append(f"{house} {why.get(condition, 'may be the target')} ({title})")
        return "a reaction may be played now: " + "; ".join(parts)

    def secret_prompt(self, state: SpartacusState, seat: int) -> str | None:
        if _net(state):
            side = state.fight.decider()
            return f"{side}: throw the net this round? yes or no (hidden, not shown)"
        if state.phase == "bid":
            room = max(a.amount for a in state.legal_actions_for(seat) if isinstance(a, A.Bid))
            return f"{state.houses[seat]}: your secret bid, 0..{room} gold (hidden, not shown)"
        return None

    def secret_answer(self, state: SpartacusState, seat: int, line: str) -> Any | None:
        word = line.strip().lower()
        if _net(state) and word in ("y", "yes", "n", "no"):
            return A.UseNet(state.fight.decider(), word.startswith("y"))
        if state.phase == "bid" and word.isdigit():
            return A.Bid(int(word))
        return None


def _net(state: SpartacusState) -> bool:
    return state.fight is not None and state.phase == "fight" and state.fight.phase == "net"


class SpartacusTable(TableLoop):
    """One Spartacus game or fight on a table's hardware."""

    game_name = GAME


def bot_agent(rng: random.Random) -> BotAgent:
    """The simple bot (sensible fights, simple economy) as a table agent."""
    return BotAgent(rng, SimpleBot(rng))


def terminal_agent(view: Any, terminal: TerminalInput) -> TerminalAgent:
    """A person typing a house's actions (notation or the number of a listed option).

    ``?`` lists every legal action of the house asked (corrections included; never
    another house's cards), ``undo [n]`` takes back choices, ``quit`` stops (the journal
    keeps the game). Bids and nets are read without echo on a terminal and never
    printed. A house not asked may type its out-of-turn play with its name (``react
    mittellos solonius glaber``, ``gold glaber solonius 3``).
    """
    return TerminalAgent(terminal, view, adapter=SpartacusAdapter(terminal.seats))
