"""Physical dice for every game: wherever the companion would roll, the players may throw
their own dice and type the faces; the typed roll is the one used and journalled, in the
same record as an electronic roll."""

from __future__ import annotations

import queue

import pytest
from table_helpers import RecordingView, game_table

from companion.dice import Roller
from companion.table.journal import read_journal
from companion.table.people import BotAgent, TableStopped, TerminalInput
from companion.table.session import GameSession, SessionSettings


class Person(BotAgent):
    """A person who chooses at random (the test's stand-in): the operator never presses
    for their seat, so their rolls wait for ROLL or typed faces."""

    is_bot = False


class NoElectronicDice(Roller):
    """Draws cards and start players, but fails the test if it rolls a die."""

    def choose(self, outcomes):
        first = outcomes[0][0]
        assert not any(hasattr(first, f) for f in ("face", "faces", "counts")), first
        return super().choose(outcomes)


class Lines:
    """A terminal's input whose lines the test gives while the table waits."""

    def __init__(self) -> None:
        self.queue: queue.Queue[str | None] = queue.Queue()

    def __iter__(self):
        return iter(self.queue.get, None)


class DiceView(RecordingView):
    """Answers every ROLL prompt with the faces ``answer(state)`` gives; ``quit`` after
    ``rolls`` of them."""

    def __init__(self, lines: Lines, answer, rolls: int) -> None:
        super().__init__()
        self.lines, self.answer, self.left = lines, answer, rolls
        self.state = None
        self.typed: list[str] = []

    def update(self, state, events) -> None:
        super().update(state, events)
        self.state = state

    def prompt(self, text, options=(), seat=None) -> None:
        super().prompt(text, options)
        if "press ROLL" in text:
            if self.left == 0:
                self.lines.queue.put("quit")
                return
            self.left -= 1
            answer = self.answer(self.state)
            for line in [answer] if isinstance(answer, str) else answer:
                self.typed.append(line)
                self.lines.queue.put(line)


def play(tmp_path, game: str, config, answer, rolls: int = 3, seed: int = 1):
    """Play ``game`` with every seat a person and every roll typed; returns the rolls in
    the history, the journal's records and the view."""
    path = tmp_path / f"{game}.jsonl"
    session = GameSession.start(config, SessionSettings(game=game), path)
    lines = Lines()
    view = DiceView(lines, answer, rolls)
    table, hw = game_table(
        game,
        session,
        view,
        seed=seed,
        roller=NoElectronicDice.seeded(seed),
        agent=Person,
        terminal=TerminalInput(lines),
    )
    with hw, pytest.raises(TableStopped):
        table.run()
    session.journal.close()
    records = [r for _, r in read_journal(path).records if r["type"] == "action"]
    chance = [a for a in session.state.history if a.is_chance]
    return chance, records, view


def test_battle_royale_doom_die_typed(tmp_path):
    from companion.games.battle_royale import BattleRoyaleConfig

    faces = iter(["battle royale", "move", "Free Choice"] * 3)
    chance, records, view = play(
        tmp_path,
        "battle-royale",
        BattleRoyaleConfig(players=2, start_player=0),
        lambda state: next(faces),
    )
    rolled = [a.face for a in chance if hasattr(a, "face")]
    assert rolled == ["battle_royale", "move_eliminator", "free_choice"]
    # two players: the extra roll after a turn is a Doom roll too
    journalled = [r["action"] for r in records if r["action"]["kind"] in ("roll", "extra-roll")]
    assert [a["face"] for a in journalled] == rolled


def test_gladiatoren_star_dice_typed(tmp_path):
    from companion.games.kampf_der_gladiatoren import GladiatorenConfig

    def answer(state):
        n = state.dice_for(state.combat.striker)
        return " ".join(["**"] + ["-"] * (n - 1))  # one double, the rest blank

    chance, records, view = play(tmp_path, "gladiatoren", GladiatorenConfig(players=2), answer)
    rolls = [a for a in chance if hasattr(a, "counts")]
    assert len(rolls) == 3 and all(a.doubles == 1 and a.singles == 0 for a in rolls)
    assert sum(r["action"]["kind"] == "roll" for r in records) == 3


def test_skirmish_hit_dice_typed(tmp_path):
    from companion.games.arena_skirmish import SkirmishConfig

    def answer(state):
        attack = state.attack
        return " ".join(["6"] * (attack["dice"] - len(attack["faces"])))

    chance, records, view = play(
        tmp_path, "skirmish", SkirmishConfig(players=2, round_limit=20), answer, rolls=2
    )
    hits = [a.face for a in chance if a.kind == "hit"]
    assert hits and set(hits) == {6}
    assert sum(r["action"]["kind"] == "hit" for r in records) == len(hits)


def test_spartacus_initiative_typed_six_six_is_used(tmp_path):
    """Issue 15: '6-6' at the initiative prompt was thrown away; now it is the roll."""
    from companion.commands.spartacus import parse_fighter
    from companion.games.spartacus import SpartacusConfig

    data = SpartacusConfig().data
    config = SpartacusConfig(
        fight=(parse_fighter("Crixus=4/3/2", data), parse_fighter("Gannicus=4/3/2", data)),
        arena="small",
    )

    def answer(state):
        return "-".join(["6"] * state.pending_roll()["dice"])

    chance, records, view = play(tmp_path, "spartacus", config, answer, rolls=4)
    assert view.typed[:2] == ["6-6", "6-6"]  # both fighters' initiative: 2 blue dice
    assert [a.faces for a in chance[:2]] == [(6, 6), (6, 6)]
    assert [(a.who, a.purpose) for a in chance[:2]] == [("I", "initiative"), ("II", "initiative")]
    rolls = [r["action"] for r in records if r["action"]["kind"] == "roll"]
    assert rolls[0] == {"kind": "roll", "who": "I", "purpose": "initiative", "faces": [6, 6]}


def test_a_wrong_roll_is_refused_with_what_to_type(tmp_path):
    from companion.games.battle_royale import BattleRoyaleConfig

    chance, records, view = play(
        tmp_path,
        "battle-royale",
        BattleRoyaleConfig(players=2, start_player=0),
        lambda state: ["seven", "6-6", "expl"],
        rolls=1,
    )
    assert [a.face for a in chance if hasattr(a, "face")] == ["explosion"]
    refusals = [m for m in view.messages if "is not a face of the Doom die" in m]
    assert len(refusals) == 2 and "explosion, battle royale (br), move eliminator" in refusals[0]


def test_the_doom_die_takes_br_as_the_cards_write_it():
    """Found by a newcomer: 'br' (the cards' 'play 1x2+br') was refused at the roll."""
    from companion.table.battle_royale_table import face_of

    assert face_of("br") == face_of("battle royale") == "battle_royale"
    assert face_of("b") is None and face_of("exp") == "explosion"
