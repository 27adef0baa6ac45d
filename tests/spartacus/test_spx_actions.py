"""Notation, logs, data files and configs: round trips and the errors people see."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from spx_helpers import DATA

from companion.games.spartacus import GAME, ConfigError, FighterSpec, SpartacusConfig
from companion.games.spartacus import actions as A
from companion.games.spartacus.data import DataError, parse_data
from companion.games.spartacus.hexmap import HexMap, HexMapError, distance

DATA_FILE = Path(__file__).resolve().parents[2] / "companion" / "data" / "spartacus.json"

SAMPLES = [
    "roll I attack 6-4-3",
    "roll batiatus heal 4",
    "draw batiatus intrigue wache",
    "host solonius",
    "peek batiatus glaber wache",
    "net I yes",
    "net II no",
    "first II",
    "step NE",
    "attack",
    "quick-attack",
    "end",
    "reroll I 3",
    "keep II",
    "wound I speed",
    "pay",
    "release varro",
    "sell wache",
    "scheme skandal glaber",
    "scheme skandal glaber +solonius +tullius",
    "thwart gefluesterte-geruechte",
    "thwart gefluesterte-geruechte glaber",
    "guard wache table",
    "pass",
    "discard varro",
    "post-guard wache",
    "post-guard wache tullius",
    "exhaust pietros batiatus",
    "react mittellos glaber",
    "react mittellos glaber solonius",
    "house-rule ludus batiatus",
    "house-rule ludus batiatus varro",
    "reveal agron",
    "done",
    "trade batiatus glaber varro 3",
    "sell-bank varro",
    "bid 4",
    "invite glaber",
    "accept varro gladius helm",
    "accept varro",
    "decline",
    "bet winner-II 3",
    "thumbs up",
    "thumbs down",
    "gold batiatus +2",
    "gold batiatus -1",
    "give batiatus glaber 1",
    "gold batiatus glaber 7",
    "influence glaber -1",
    "lose-card glaber varro",
    "exhaust-card glaber varro",
    "ready-card glaber varro",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_notation_and_log_round_trip(text: str) -> None:
    action = A.parse_action(text)
    assert A.parse_action(action.notation) == action
    data = json.loads(json.dumps(action.to_dict()))
    assert A.action_from_dict(data) == action


def test_every_kind_has_a_sample() -> None:
    assert {A.parse_action(t).kind for t in SAMPLES} == set(A.ACTION_TYPES)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty input"),
        ("fly", "unknown action"),
        ("step up", "direction must be one of"),
        ("wound I luck", "attack, defence or speed"),
        ("net III yes", "side must be I or II"),
        ("net I maybe", "yes or no"),
        ("roll I attack 7", "1..6"),
        ("bid lots", "whole number"),
        ("bet place 2", "kind must be one of"),
        ("guard wache pocket", "hand or table"),
        ("first", "takes 1 value"),
    ],
)
def test_parse_errors_say_what_is_expected(text: str, message: str) -> None:
    with pytest.raises(A.ActionFormatError, match=message):
        A.parse_action(text)


def test_action_from_dict_rejects_strangers() -> None:
    with pytest.raises(A.ActionFormatError):
        A.action_from_dict({"kind": "step"})
    with pytest.raises(A.ActionFormatError):
        A.action_from_dict({"kind": "nope"})
    with pytest.raises(A.ActionFormatError):
        A.action_from_dict({"kind": "end", "extra": 1})


def test_hex_map_names_distance_and_errors() -> None:
    m = DATA.arenas["default"]
    assert len(m.hexes) == 37 and [m.name(h) for h in m.starts] == ["D2", "D6"]
    assert distance(*m.starts) == 4
    assert m.hex_named("d2") == m.starts[0]
    with pytest.raises(HexMapError, match="off the grid"):
        HexMap.parse([". I", ". II"])
    with pytest.raises(HexMapError, match="missing"):
        HexMap.parse([". . ."])
    with pytest.raises(HexMapError, match="unknown token"):
        HexMap.parse(["I x II"])
    gap = HexMap.parse([". I - II ."])
    assert len(gap.hexes) == 4 and not gap.in_reach(*gap.starts, 2)  # no hex between


def test_builtin_data_says_where_each_value_comes_from() -> None:
    raw = json.loads(DATA_FILE.read_text("utf-8"))
    for section in ("gladiators", "slaves", "equipment", "intrigue", "houses"):
        for entry in raw[section]:
            assert entry.get("source"), (section, entry["id"])
            assert entry["source"].startswith("rulebook") or entry.get("guessed"), entry["id"]
    assert raw["abilities"][0]["source"].startswith("rulebook: Spartacus")
    assert len(DATA.starters("gladiator")) == 8 == len(DATA.starters("slave"))


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        (lambda d: d["abilities"][0]["trigger"].update(roll="speed"), "trigger.roll"),
        (lambda d: d["abilities"][0].update(effect="ignore_wound"), "effect of a attack"),
        (lambda d: d["equipment"][0].update(type="hat"), "type: must be one of"),
        (lambda d: d["equipment"][0]["effects"].append({"effect": "fly"}), "effects.1..effect"),
        (lambda d: d["gladiators"][0].update(attack=0), "1..8"),
        (lambda d: d["gladiators"][0].update(ability="nope"), "unknown ability"),
        (lambda d: d["intrigue"][0].update(effects=[{"teleport": 1}]), "unknown effect"),
        (lambda d: d["intrigue"][0].update(kind="trap"), "kind: must be one of"),
        (lambda d: d["arenas"]["default"].update(rows=["."]), "start hexes"),
        (lambda d: d.update(houses=d["houses"][:1]), "houses: needs at least 2 entries"),
    ],
)
def test_data_errors_name_the_entry(patch, message: str) -> None:
    raw = json.loads(DATA_FILE.read_text("utf-8"))
    patch(raw)
    with pytest.raises(DataError, match=message):
        parse_data(raw, "test")


def test_config_round_trip_and_errors() -> None:
    for config in (
        SpartacusConfig(players=3, length="long", host=1),
        SpartacusConfig(
            fight=(
                FighterSpec.from_card(DATA, "spartacus", ("gladius",)),
                FighterSpec("Bob", 2, 3, 4),
            )
        ),
    ):
        assert SpartacusConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config
    with pytest.raises(ConfigError, match="players"):
        SpartacusConfig(players=5)
    with pytest.raises(ConfigError, match="unknown house"):
        SpartacusConfig(players=2, houses=("batiatus", "crassus"))
    with pytest.raises(ConfigError, match="unknown arena"):
        SpartacusConfig(arena="colosseum")
    with pytest.raises(ConfigError, match="at most one weapon"):
        SpartacusConfig(
            fight=(FighterSpec("A", 1, 1, 1, ("gladius", "dreizack")), FighterSpec("B", 1, 1, 1))
        )
    with pytest.raises(ConfigError, match="no gladiator or slave card"):
        FighterSpec.from_card(DATA, "gladius")
    with pytest.raises(ConfigError, match="unknown config key"):
        SpartacusConfig.from_dict({"colour": "red"})


def test_registry_entry() -> None:
    import random

    assert GAME.name == "spartacus"
    state = GAME.new_game(GAME.config_from_dict({"players": 2, "host": 0}))
    bot = GAME.bot(random.Random(1))
    while state.is_chance_node:
        state.apply(state.chance_outcomes()[0][0])
    assert GAME.replay(state.config, state.history).snapshot() == state.snapshot()
    assert GAME.parse_action("pass") == GAME.action_from_dict({"kind": "pass"})
    assert hasattr(bot, "choose")
