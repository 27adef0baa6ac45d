"""Helpers for Battle Royale rule tests: set up a position, then play actions by notation."""

from __future__ import annotations

from companion.games.battle_royale import BattleRoyaleConfig, new_game, parse_action
from companion.games.battle_royale.events import Event
from companion.games.battle_royale.layout import CELLS, parse_field
from companion.games.battle_royale.state import BattleRoyaleState

LETTERS = {"P": "purple", "G": "grey", "T": "turquoise", "R": "red"}
PLAIN_HAND = ["2x3", "2x2", "3x2", "4x1"]


def game(players: int = 4, start: int = 0, **config) -> BattleRoyaleState:
    """A game at the start player's first decision, hands dealt in deck order."""
    state = new_game(BattleRoyaleConfig(players=players, start_player=start, **config))
    while state.is_chance_node:
        state.apply(state.chance_outcomes()[0][0])
    return state


def set_position(state: BattleRoyaleState, spec: dict[str, str]) -> None:
    """Empty every field, then place figures: ``{"b2": "P3 G2 T1"}``."""
    for cell in range(CELLS):
        state.counts[cell] = [0] * len(state.colours)
    for name, figures in spec.items():
        cell = parse_field(name)
        assert state.present[cell], f"{name} is a hole in this layout"
        for token in figures.split():
            k = state.colour_index(LETTERS[token[0]])
            state.counts[cell][k] += int(token[1:])
    state.arena_total = [
        sum(state.counts[c][k] for c in range(CELLS)) for k in range(len(state.colours))
    ]
    state._legal = None


def set_hand(state: BattleRoyaleState, seat: int, cards: list[str]) -> None:
    state.hands[seat] = {cid: 0 for cid in state.hands[seat]}
    for card in cards:
        state.hands[seat][card] += 1
    state._legal = None


def play(state: BattleRoyaleState, *moves: str) -> list[Event]:
    """Apply actions written in notation; return all their events."""
    events: list[Event] = []
    for move in moves:
        events.extend(state.apply(parse_action(move)))
    return events


def draw_first(state: BattleRoyaleState) -> list[Event]:
    assert state.is_chance_node, state.phase
    return state.apply(state.chance_outcomes()[0][0])


def to_doom_roll(state: BattleRoyaleState, card: str = "2x2") -> None:
    """Play a plain card, move nothing, draw: the state waits for the Doom die."""
    set_hand(state, state.active, [card, *PLAIN_HAND[:3]])
    play(state, f"play {card}", "end")
    draw_first(state)
    assert state.phase == "doom_roll", state.phase


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def count(state: BattleRoyaleState, field: str, letter: str) -> int:
    return state.counts[parse_field(field)][state.colour_index(LETTERS[letter])]
