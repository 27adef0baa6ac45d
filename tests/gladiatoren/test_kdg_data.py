"""Ruling 1: the arena graph, carriers, supply and animals come from a validated data file."""

from __future__ import annotations

import json

import pytest

from companion.games.kampf_der_gladiatoren import ConfigError, GladiatorenConfig, new_game
from companion.games.kampf_der_gladiatoren.data import DataError, default_data, load_data

DEFAULT = json.loads(
    __import__("importlib.resources", fromlist=["files"])
    .files("companion.data")
    .joinpath("gladiatoren.json")
    .read_text("utf-8")
)


def write(tmp_path, data) -> str:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data), "utf-8")
    return str(path)


def test_default_arena_has_17_connected_fields_with_symmetric_adjacency():
    data = default_data()
    arena = data.arena
    assert len(arena) == 17
    assert arena.ids == tuple("ABCDEFGHIJKLMNOPQ")
    for a, ns in enumerate(arena.neighbours):
        assert a not in ns
        for b in ns:
            assert a in arena.neighbours[b]
    assert "default" in arena.source  # the board picture is not in our text: labelled


def test_carriers_and_supply_follow_the_rulebook():
    data = default_data()
    assert data.carriers == {2: 4, 3: 4, 4: 3, 5: 3}
    assert data.supply == (8, 8, 28, 8, 8)  # spear, net, sword, trident, shield
    for players, carriers in data.carriers.items():
        assert GladiatorenConfig(players=players).carriers == carriers


def test_twelve_animals_and_the_rulebooks_lion():
    data = default_data()
    assert len(data.animals) == 12
    lion = data.animal("lion")
    # 2 tridents: "einen Zweizack mehr als das Team" of Red, who holds a trident (issue 15)
    assert (lion.hits, lion.swords, lion.shields, lion.tridents, lion.spears) == (2, 1, 1, 2, 0)
    assert "rulebook" in lion.source
    for animal in data.animals:
        assert animal.source.startswith("default") or animal.id == "lion"


def test_hit_stars_are_not_limited_to_twelve():
    """The 12 wooden stars are a component limit the companion does not enforce."""
    from kdg_helpers import position_game, team

    teams = [team(f"{'RY'[i % 2]} sword", f) for i, f in enumerate("ABCDFGHIJKLMNOPQ")]
    state = position_game([*teams, team("R sword", "E")])
    for t in state.teams.values():
        t.stars = 1  # 17 stars lie in the arena at once
    assert sum(t.stars for t in state.teams.values()) == 17 > 12
    assert state.legal_actions()


def test_a_user_data_file_replaces_the_defaults(tmp_path):
    data = json.loads(json.dumps(DEFAULT))
    data["animals"]["tiles"][0]["hits"] = 5
    config = GladiatorenConfig(players=2, data_file=write(tmp_path, data))
    assert config.data.animal("lion").hits == 5
    assert new_game(config).phase == "entry"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["arena"]["fields"][0]["neighbours"].remove("B"), "symmetric"),
        (lambda d: d["arena"]["fields"][0].update(neighbours=["Z"]), "unknown neighbour"),
        (lambda d: d["carriers"]["per_player"].pop("5"), "per_player"),
        (lambda d: d["supply"]["gladiators"].update(sword=-1), "supply of sword"),
        (lambda d: d["supply"]["gladiators"].update(sword=5), "need"),
        (lambda d: d["animals"]["tiles"][1].update(id="lion"), "used twice"),
        (lambda d: d["animals"]["tiles"][1].update(nets=1), "no nets"),
        (lambda d: d["animals"]["tiles"][1].update(hits=0), "'hits'"),
    ],
)
def test_bad_data_is_refused_with_a_message_naming_the_entry(tmp_path, change, message):
    data = json.loads(json.dumps(DEFAULT))
    change(data)
    with pytest.raises(DataError, match=message):
        load_data(write(tmp_path, data))
    with pytest.raises(ConfigError, match=message):
        GladiatorenConfig(data_file=write(tmp_path, data))


def test_a_disconnected_arena_is_refused(tmp_path):
    data = json.loads(json.dumps(DEFAULT))
    fields = data["arena"]["fields"]
    for f in fields:
        if f["id"] == "A":
            f["neighbours"] = []
        else:
            f["neighbours"] = [n for n in f["neighbours"] if n != "A"]
    with pytest.raises(DataError, match="connected"):
        load_data(write(tmp_path, data))


def test_unreadable_files_say_so(tmp_path):
    with pytest.raises(DataError, match="cannot read"):
        load_data(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{", "utf-8")
    with pytest.raises(DataError, match="not valid JSON"):
        load_data(bad)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 1},
        {"players": 6},
        {"colours": ("red", "red")},
        {"colours": ("red", "pink")},
        {"start_player": 3},
        {"die": "doom"},
        {"die": "nope"},
    ],
)
def test_bad_configs_are_refused(kwargs):
    with pytest.raises(ConfigError):
        GladiatorenConfig(**{"players": 2, **kwargs})


def test_config_round_trips_through_its_dict():
    config = GladiatorenConfig(players=4, start_player=2, colours=("blue", "red", "green", "white"))
    assert GladiatorenConfig.from_dict(config.to_dict()) == config
    pos = GladiatorenConfig(
        players=2,
        position={
            "teams": [
                {"owner": 0, "field": "a", "gladiators": ["sword"]},
                {"owner": 1, "field": "B", "gladiators": ["net"]},
            ]
        },
    )
    again = GladiatorenConfig.from_dict(pos.to_dict())
    assert again == pos and hash(again) == hash(pos)
    with pytest.raises(ConfigError, match="unknown config key"):
        GladiatorenConfig.from_dict({"players": 2, "layout": "x"})


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ({"teams": [{"owner": 0, "field": "A", "gladiators": []}]}, "gladiators"),
        ({"teams": [{"owner": 5, "field": "A", "gladiators": ["net"]}]}, "seat"),
        ({"teams": [{"owner": 0, "field": "Z", "gladiators": ["net"]}]}, "no field"),
        (
            {
                "teams": [{"owner": 0, "field": "A", "gladiators": ["net"]}],
                "animals": [{"animal": "lion", "field": "A"}],
            },
            "both on field",
        ),
        ({"animals": [{"animal": "lion", "field": "A", "stars": 2}]}, "stars must be 0..1"),
        ({"animals": [{"animal": "unicorn", "field": "A"}]}, "no animal"),
        ({"stables": {"0": {"spear": 9}}}, "supply has 8"),
        ({"teams": [], "colour": 1}, "unknown position key"),
    ],
)
def test_bad_positions_are_refused(position, message):
    with pytest.raises(ConfigError, match=message):
        GladiatorenConfig(players=2, position=position)
