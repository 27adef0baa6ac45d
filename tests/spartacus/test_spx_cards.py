"""The card data a group can complete: the schema's checks, `companion spartacus cards check`,
house rules as data or manual steps, and scheme costs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from spx_helpers import draw_all, give_hand, play

from companion.cli import main
from companion.games.spartacus import IllegalActionError, SpartacusConfig, new_game
from companion.games.spartacus.cards import GUESS, INVALID, MISSING, check, schema
from companion.games.spartacus.data import builtin_data, parse_data

DATA_FILE = Path(__file__).resolve().parents[2] / "companion" / "data" / "spartacus.json"
PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3


def shipped() -> dict:
    return json.loads(DATA_FILE.read_text("utf-8"))


def write(tmp_path: Path, document: dict, name: str = "cards.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(document), "utf-8")
    return path


def complete_document() -> dict:
    """The shipped file with the box's counts reached and nothing labelled as a guess."""
    doc = shipped()
    for entries in [doc["arenas"].values(), [doc["hand_limit"]]] + [
        doc[s] for s in ("houses", "abilities", "gladiators", "slaves", "equipment", "intrigue")
    ]:
        for entry in entries:
            entry.pop("guessed", None)
    for house in doc["houses"]:
        house["rules"] = []
    doc["intrigue"][0]["count"] += 25  # 80 in all
    for entry in doc["equipment"]:
        entry["count"] = 3  # 20 more market cards
    doc["gladiators"][0]["count"] = 3  # 62 in all
    return doc


# -- the schema --------------------------------------------------------------------------------


def test_the_shipped_file_is_valid_but_incomplete_and_says_what_is_missing() -> None:
    report = check(shipped())
    assert report.valid and not report.complete
    missing = [str(p) for p in report.at(MISSING)]
    assert "intrigue cards: 55 of the box's 80 in the file (25 to add)" in missing
    assert "market cards: 40 of the box's 62 in the file (22 to add)" in missing
    assert sum("no 'rules' yet" in m for m in missing) == 4  # the four house cards
    guesses = {p.where: p.message for p in report.at(GUESS)}
    assert guesses["intrigue[0] (insiderinformation)"] == "guessed: value, count"
    assert "influence" in guesses["intrigue[12] (mittellos)"]


def test_every_unknown_value_of_the_shipped_file_is_labelled() -> None:
    """The rulebook gives few values: every entry either quotes the rulebook for all its values
    or lists its guesses, and nothing the rulebook gives is listed as a guess."""
    doc = shipped()
    for section in ("houses", "gladiators", "slaves", "equipment", "intrigue"):
        for entry in doc[section]:
            assert entry.get("guessed") or entry["source"].startswith("rulebook"), entry["id"]
            assert not entry.get("label")  # the old free text is now source + guessed
    by_id = {e["id"]: e for e in doc["intrigue"]}
    assert "influence" not in by_id["insiderinformation"]["guessed"]  # rulebook: 6
    assert "influence" not in by_id["schwarzmarkt"]["guessed"]  # rulebook: 7
    agron = next(e for e in doc["gladiators"] if e["id"] == "agron")
    assert "defence" not in agron["guessed"]  # rulebook: 4 defence dice
    assert doc["hand_limit"]["guessed"] == ["by_influence"]


def test_a_complete_transcription_is_complete() -> None:
    report = check(complete_document())
    assert report.valid and report.complete, [str(p) for p in report.problems]


@pytest.mark.parametrize(
    ("patch", "where", "message"),
    [
        (lambda d: d["intrigue"][3].update(influence="x"), "influence", "whole number 0..20"),
        (lambda d: d["intrigue"][3].update(kind="plot"), "kind", "one of scheme, reaction"),
        (lambda d: d["intrigue"][3].update(colour="red"), "besucher", "unknown field 'colour'"),
        (lambda d: d["intrigue"][3].update(effects=[{"teleport": 1}]), "effects", "unknown effect"),
        (lambda d: d["intrigue"][3].update(guessed=["colour"]), "guessed", "not a field here"),
        (lambda d: d["intrigue"][3].update(id="besucher aus rom"), "id", "without spaces"),
        (lambda d: d["intrigue"][4].update(id="besucher-aus-rom"), "intrigue[4]", "used twice"),
        (lambda d: d["gladiators"][0].update(speed=9), "speed", "1..8"),
        (lambda d: d["gladiators"][0].update(ability="nope"), "ability", "unknown ability"),
        (lambda d: d["gladiators"][8].update(id="agron"), "gladiators[8]", "also gladiators[1]"),
        (lambda d: d["equipment"][0].update(type="hat"), "type", "weapon, armour, special"),
        (lambda d: d["houses"][0].update(rules=[{"id": "x"}]), "rules[0]", "either an 'ability'"),
        (lambda d: d["houses"][0].update(gold=-1), "gold", "0..50"),
        (lambda d: d.pop("intrigue"), "", "needs 'intrigue'"),
        (lambda d: d["intrigue"].pop(), "intrigue", "needs guard cards"),
    ],
)
def test_each_problem_is_one_clear_line_naming_the_entry(patch, where: str, message: str) -> None:
    doc = shipped()
    patch(doc)
    invalid = check(doc).at(INVALID)
    assert len(invalid) == 1, [str(p) for p in invalid]
    assert where in invalid[0].where and message in invalid[0].message, str(invalid[0])


def test_every_field_the_rulebook_describes_is_declared() -> None:
    fields = schema()["fields"]
    intrigue = fields["intrigue"]["fields"]
    assert {"kind", "influence", "value", "cost", "count", "effects", "condition"} <= set(intrigue)
    for section in ("gladiators", "slaves"):
        assert {"attack", "defence", "speed", "value", "count", "starter", "exhaust"} <= set(
            fields[section]["fields"]
        )
    assert {"type", "value", "effects", "count"} <= set(fields["equipment"]["fields"])
    house = fields["houses"]["fields"]
    assert {"gladiators", "slaves", "guards", "gold", "rules", "hand_limit"} <= set(house)
    assert schema()["box"]["intrigue"]["cards"] == 80 and schema()["box"]["market"]["cards"] == 62


def test_market_counts_are_copies_with_their_own_ids() -> None:
    data = builtin_data()
    assert [c for c in data.market if c.startswith("haussklave")] == [
        "haussklave-1",
        "haussklave-2",
        "haussklave-3",
        "haussklave-4",
    ]
    assert len(data.starters("gladiator")) == 8 == len(data.starters("slave"))


def test_an_older_file_with_labels_still_loads() -> None:
    doc = shipped()
    for entry in doc["intrigue"]:
        entry["label"] = entry.pop("source")
        entry.pop("guessed")
    doc["houses"][0]["rule"] = "house rule applied by hand"
    assert parse_data(doc, "old").intrigue["wache"].count == 16


# -- companion spartacus cards check ----------------------------------------------------------


def test_cards_check_exit_codes(tmp_path: Path, capsys) -> None:
    assert main(["spartacus", "cards", "check", "builtin"]) == 1  # valid but incomplete
    out = capsys.readouterr().out
    assert "missing: intrigue cards: 55 of the box's 80" in out
    assert "guess: intrigue[0] (insiderinformation): guessed: value, count" in out
    assert out.strip().endswith("valid but incomplete: 6 missing, 55 entries with guessed values")
    assert main(["spartacus", "cards", "check", str(write(tmp_path, complete_document()))]) == 0
    assert "valid and complete" in capsys.readouterr().out
    bad = shipped()
    bad["intrigue"][3]["influence"] = "x"
    bad["gladiators"][0]["speed"] = 9
    assert main(["spartacus", "cards", "check", str(write(tmp_path, bad))]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and err[-1].endswith("invalid: 2 problems")
    assert "gladiators[0] (spartacus).speed: must be a whole number 1..8, got 9" in err[0]


def test_cards_check_unreadable_input_is_one_message_and_exit_2(tmp_path: Path, capsys) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{", "utf-8")
    for path in (broken, tmp_path / "nope.json"):
        assert main(["spartacus", "cards", "check", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("companion: error:") and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1


def test_a_game_refuses_an_invalid_file_naming_the_first_problem(tmp_path: Path) -> None:
    bad = shipped()
    bad["intrigue"][3]["influence"] = "x"
    bad["gladiators"][0]["speed"] = 9
    with pytest.raises(Exception, match=r"speed: must be .* \(and 1 more: 'companion spartacus"):
        SpartacusConfig(data_file=str(write(tmp_path, bad)))


# -- house rules and costs --------------------------------------------------------------------


def house_rules_file(tmp_path: Path) -> str:
    doc = shipped()
    doc["houses"][0]["rules"] = [
        {
            "id": "ludus",
            "title": "Ludus",
            "text": "an example, not the real card",
            "ability": {"exhaust": "slave", "effects": [{"gain_gold": 2}]},
        }
    ]
    doc["houses"][1]["rules"] = [
        {"id": "patron", "title": "Patron", "manual": "take 1 gold from a house that bids"}
    ]
    doc["houses"][2]["rules"] = []  # a house card without special rules
    doc["intrigue"][4]["cost"] = 3  # skandal costs 3 gold to the bank when it succeeds
    return str(write(tmp_path, doc))


def test_r6a_a_house_rule_as_data_once_per_intrigue_turn(tmp_path: Path) -> None:
    state = new_game(SpartacusConfig(host=PETE, data_file=house_rules_file(tmp_path)))
    while state.phase == "deal":
        state.apply(state.chance_outcomes()[0][0])
    draw_all(state)
    slaves = state.ready(PETE, "slave")
    rules = [a for a in state.decisions() if a.kind == "house-rule"]
    assert {a.card for a in rules} == set(slaves) and {a.target for a in rules} == {"batiatus"}
    gold = state.gold[PETE]
    play(state, f"house-rule ludus batiatus {slaves[0]}")
    assert state.gold[PETE] == gold + 2 and slaves[0] in state.exhausted
    assert state.phase == "intrigue_turn" and state.manual_steps() == []
    with pytest.raises(IllegalActionError, match="once per intrigue turn"):
        play(state, f"house-rule ludus batiatus {slaves[1]}")


def test_r6a_manual_house_rules_are_named_steps_the_table_prompts_for(tmp_path: Path) -> None:
    state = new_game(SpartacusConfig(host=PETE, data_file=house_rules_file(tmp_path)))
    while state.phase == "deal":
        state.apply(state.chance_outcomes()[0][0])
    draw_all(state)
    events = play(state, "done")  # Sally's turn
    step = next(e for e in events if e.kind == "manual_step")
    assert step.data["id"] == "solonius:patron" and "bids" in step.data["text"]
    assert [s["id"] for s in state.manual_steps()] == ["solonius:patron"]
    play(state, "done")  # John: a house card without special rules
    assert state.manual_steps() == []
    play(state, "done")  # Liz: rules not transcribed: one stand-in step
    assert [s["id"] for s in state.manual_steps()] == ["tullius:house-card"]
    assert "not in the data file" in state.manual_steps()[0]["text"]


def test_r10_a_schemes_cost_must_be_payable_and_is_paid_on_success(tmp_path: Path) -> None:
    state = new_game(SpartacusConfig(host=PETE, data_file=house_rules_file(tmp_path)))
    while state.phase == "deal":
        state.apply(state.chance_outcomes()[0][0])
    draw_all(state)
    state.hands[PETE] = {}
    give_hand(state, PETE, "skandal")
    state.bank += state.gold[PETE] - 2
    state.gold[PETE] = 2
    state._legal = None
    with pytest.raises(IllegalActionError, match="costs 3 gold"):
        play(state, "scheme skandal glaber")
    state.gold[PETE], state.bank = 3, state.bank - 1
    state._legal = None
    play(state, "scheme skandal glaber", "pass", "pass", "pass")
    assert state.gold[PETE] == 0 and state.total_gold() == 0
