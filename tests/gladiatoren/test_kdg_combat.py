"""Ruling 5: combat between two gladiator teams, and the rulebook's example Red vs Yellow."""

from __future__ import annotations

import pytest
from kdg_helpers import first, kinds, play, position_game, team

from companion.games.kampf_der_gladiatoren import IllegalActionError
from companion.games.kampf_der_gladiatoren import actions as A
from companion.games.kampf_der_gladiatoren.rules import KINDS

FAR = [team("R sword", "Q"), team("Y sword", "O")]  # keep both players in the game


def duel(red: str, yellow: str, red_stars: int = 0, yellow_stars: int = 0):
    return position_game(
        [team(f"R {red}", "E", red_stars), team(f"Y {yellow}", "F", yellow_stars), *FAR]
    )


def counts(state, field: str) -> list[int]:
    t = state.team_at(state.arena.index(field))
    return None if t is None else t.counts()


def glad(*names: str) -> list[int]:
    return [names.count(k) for k in KINDS]


def test_rulebook_example_red_challenges_yellow():
    """ "Beispiel: Rot fordert Gelb zum Kampf" step by step."""
    state = duel("net sword sword trident", "spear sword sword shield")
    events = play(state, "challenge E F")
    # Yellow rolls first although Red challenged: more spears
    assert first(events, "first_roller").data["side"] == 1
    # Yellow has no net; Red's net: Red chooses to neutralise one of Yellow's swords
    assert state.phase == "net" and state.current_player == 0
    assert {a.notation for a in state.legal_actions()} == {"net spear", "net sword", "net shield"}
    events = play(state, "net sword")
    yellow = state.team_at(state.arena.index("F"))
    assert yellow.active == glad("spear", "sword", "shield") and yellow.inactive == glad("sword")
    # Yellow takes 2 dice (1 + 1 active sword) and rolls one single star
    assert first(events, "strike").data == {"side": 1, "dice": 2}
    assert sum(p for _, p in state.chance_outcomes()) == 1
    assert {a.counts for a in state.legal_actions()} == {
        (d, s, 2 - d - s) for d in range(3) for s in range(3 - d)
    }
    events = play(state, "roll 0 1 1")
    red = state.team_at(state.arena.index("E"))
    assert red.stars == 1 and red.size == 4  # 1 hit star lies on Red's field, nothing else
    # Red strikes back with 3 dice; more tridents: may reroll
    assert first(events, "strike").data == {"side": 0, "dice": 3}
    play(state, "roll 0 1 2")
    assert state.phase == "reroll" and state.current_player == 0
    play(state, "reroll")
    assert state.phase == "roll"
    events = play(state, "roll 0 3 0")  # the second result must be kept: no second reroll
    assert "reroll_offered" not in kinds(events)
    assert first(events, "shields").data["cancelled"] == 1  # Yellow's shield stops one
    assert first(events, "hit_stars").data["added"] == 2
    # Yellow loses 1 gladiator of its choice for the two stars and gives Red the spear
    assert state.phase == "give_up" and state.current_player == 1
    events = play(state, "give spear")
    assert state.stables[0] == glad("spear")
    assert yellow.stars == 0 and red.stars == 1  # Red's star stays between combats
    assert "combat_ended" in kinds(events)
    # the neutralised sword is back on Yellow's carrier
    assert yellow.active == glad("sword", "sword", "shield") and yellow.inactive == glad()
    assert state.phase == "turn" and state.active == 1


def test_first_roller_by_spears_tie_the_challenger():
    state = duel("spear sword", "spear spear")
    assert first(play(state, "challenge E F"), "first_roller").data["side"] == 1
    state = duel("spear sword", "spear net")
    assert first(play(state, "challenge E F"), "first_roller").data["side"] == 0
    state = duel("sword", "sword")
    assert first(play(state, "challenge E F"), "first_roller").data["side"] == 0


def test_nets_first_rollers_first_then_the_opponents_unneutralised_nets():
    state = duel("spear net sword trident", "net net sword shield")
    play(state, "challenge E F")  # red rolls first (spear)
    assert state.phase == "net" and state.current_player == 0
    play(state, "net net")  # red nets one of yellow's nets
    # yellow's one remaining net: yellow chooses one of red's gladiators
    assert state.phase == "net" and state.current_player == 1
    with pytest.raises(IllegalActionError) as err:
        play(state, "net shield")
    assert err.value.rule == "rule 5 (nets)" and "no active shield" in err.value.reason
    events = play(state, "net sword")
    assert first(events, "strike").data == {"side": 0, "dice": 1}  # base die only
    red = state.team_at(state.arena.index("E"))
    assert red.inactive == glad("sword")


def test_a_net_with_a_single_choice_acts_without_a_question():
    state = duel("spear net", "sword sword")
    events = play(state, "challenge E F")
    assert first(events, "neutralised").data == {"side": 0, "gladiator": "sword", "forced": True}
    assert state.phase == "roll"


def test_nets_cannot_neutralise_more_than_the_team_has():
    state = duel("spear net net net", "sword sword")
    events = play(state, "challenge E F")
    assert [e.data["gladiator"] for e in events if e.kind == "neutralised"] == ["sword", "sword"]
    assert first(events, "strike").data["dice"] == 1  # always 1 base die


def test_reroll_needs_more_active_tridents():
    state = duel("trident sword", "trident sword")  # equal: no reroll
    play(state, "challenge E F", "roll 0 0 2")
    assert state.phase == "roll" and state.combat.striker == 1
    with pytest.raises(IllegalActionError) as err:
        state.apply(A.Reroll())
    assert err.value.rule == "chance"
    # a trident neutralised by a net does not count
    state = duel("spear net sword", "trident sword sword")
    play(state, "challenge E F", "net trident", "roll 0 0 2", "roll 0 0 3")
    assert state.phase == "turn"
    with pytest.raises(IllegalActionError, match="reroll or keep"):
        state.apply(A.Keep())


def test_keep_resolves_the_first_roll():
    state = duel("trident sword", "sword")
    play(state, "challenge E F", "roll 1 0 1")
    assert state.phase == "reroll"
    events = play(state, "keep")
    assert "kept" in kinds(events) and "team_wiped" in kinds(events)
    assert state.team_at(state.arena.index("F")).owner == 0


def test_shields_cancel_single_stars_never_double_stars():
    state = duel("sword sword sword", "shield shield sword sword")
    events = play(state, "challenge E F", "roll 1 2 1")
    assert first(events, "shields").data["cancelled"] == 2
    assert "hit_stars" not in kinds(events)
    assert state.phase == "give_up"  # the double star still costs a gladiator


def test_a_double_star_costs_a_gladiator_of_the_targets_choice_inactive_allowed():
    state = duel("spear net sword", "sword sword shield")
    play(state, "challenge E F", "net sword", "roll 1 0 1")
    assert state.current_player == 1
    assert {a.notation for a in state.legal_actions()} == {
        "give sword",
        "give shield",
        "give sword inactive",
    }
    with pytest.raises(IllegalActionError) as err:
        play(state, "give shield inactive")
    assert err.value.rule == "rule 5 (giving up gladiators)"
    play(state, "give sword inactive")
    assert state.stables[0] == glad("sword")
    # yellow kept both active: it strikes back with 1 + 1 swords... its active sword count
    assert state.combat.striker == 1 and state.dice_for(1) == 2


def test_every_two_hit_stars_cost_a_gladiator_and_one_stays():
    state = duel("sword sword sword", "sword sword trident trident", yellow_stars=1)
    events = play(state, "challenge E F", "roll 0 4 0")
    yellow = state.team_at(state.arena.index("F"))
    assert yellow.stars == 1  # 1 + 4 = 5 stars: 2 gladiators, 1 star stays
    assert state.combat.pending == 2 and state.phase == "give_up"
    assert first(events, "hit_stars").data == {"field": "F", "added": 4, "stars": 1}


def test_the_second_roller_strikes_back_the_same_way():
    state = duel("sword shield", "sword sword")
    play(state, "challenge E F", "roll 0 0 2")
    assert state.combat.striker == 1 and state.dice_for(1) == 3
    events = play(state, "roll 0 2 1")
    assert first(events, "shields").data["cancelled"] == 1
    assert state.team_at(state.arena.index("E")).stars == 1
    assert "combat_ended" in kinds(events) and state.active == 1


def test_losing_the_last_gladiator_ends_the_combat_at_once_and_the_victor_moves_in():
    state = duel("sword sword", "net sword", red_stars=1, yellow_stars=1)
    events = play(state, "challenge E F", "roll 1 1 0")  # yellow's net takes a sword by itself
    assert first(events, "neutralised").data["forced"]
    assert kinds(events).count("gladiator_lost") == 2
    assert "team_wiped" in kinds(events)
    assert not [e for e in events if e.kind == "strike" and e.data["side"] == 1]  # no counter
    assert first(events, "victor_moved").data == {"from": "E", "to": "F"}
    red = state.team_at(state.arena.index("F"))
    assert state.board[state.arena.index("E")] is None
    assert red.stars == 1  # the victor's star moves with it; yellow's stars went back
    assert red.inactive == glad() and red.active == glad("sword", "sword")
    assert state.stables[0] == glad("net", "sword")
    assert len(state.teams_of(1)) == 1  # the carrier left the arena


def test_the_counterstrike_can_wipe_the_challenger_and_the_defender_moves_in():
    state = duel("sword", "sword sword")
    play(state, "challenge E F", "roll 0 0 2")
    events = play(state, "roll 1 0 2")
    assert "team_wiped" in kinds(events)
    assert first(events, "victor_moved").data == {"from": "F", "to": "E"}
    assert state.team_at(state.arena.index("E")).owner == 1
    assert state.stables[1] == glad("sword")
