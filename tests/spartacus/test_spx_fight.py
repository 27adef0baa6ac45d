"""Rules C1-C13 as a state machine: initiative, nets, movement, attacks, rerolls, wounds."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from spx_helpers import (
    DATA,
    draw_all,
    fight,
    initiative,
    kinds,
    lead_fight,
    play,
    set_property,
    setup_game,
    spec,
)

from companion.games.spartacus import IllegalActionError, replay
from companion.games.spartacus import actions as A


def test_c2_rulebook_initiative_example_sally_waits_john_begins() -> None:
    state = fight(spec("John", s=3), spec("Sally", s=4))
    play(state, "roll I initiative 4-3-1", "roll II initiative 5-3-2-1")  # 8 against 11
    f = state.fight
    assert f.phase == "first" and f.init_winner == "II"
    assert state.current_player == 1  # Sally decides
    play(state, "first I")  # "Sally entscheidet sich abzuwarten, John beginnt"
    assert f.order == ["I", "II"] and f.active.name == "John"


def test_c2_initiative_tie_rolls_again() -> None:
    state = fight(spec(s=1), spec(s=1))
    events = play(state, "roll I initiative 3", "roll II initiative 3")
    assert any(e.kind == "initiative_tie" for e in events)
    assert state.fight.phase == "initiative" and state.is_chance_node
    play(state, "roll I initiative 2", "roll II initiative 5")
    assert state.fight.init_winner == "II"


def test_initiative_chance_node_is_exact() -> None:
    state = fight(spec(s=2), spec(s=3))
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 21 and sum(p for _, p in outcomes) == 1
    assert all(len(a.faces) == 2 for a, _ in outcomes)
    p = dict((a.faces, p) for a, p in outcomes)
    assert p[(6, 6)] * 36 == 1 and p[(6, 5)] * 36 == 2


def test_c2_net_wins_the_initiative_without_a_roll_and_is_exhausted() -> None:
    state = fight(spec("Net", equipment=("netz",)), spec("B"))
    assert state.fight.phase == "net" and kinds(state) == {"net"}
    play(state, "net I yes")
    f = state.fight
    assert f.phase == "first" and f.init_winner == "I" and "netz" in f.fighters["I"].used
    play(state, "first I", "end", "end")  # round 2: no net left to throw
    assert f.round == 2 and f.phase == "initiative"


def test_c2_both_nets_cancel_and_the_dice_decide() -> None:
    state = fight(spec("A", equipment=("netz",)), spec("B", equipment=("netz",)))
    play(state, "net I yes")
    assert state.fight.phase == "net" and state.current_player == 1
    events = play(state, "net II yes")
    assert any(e.kind == "nets_cancel" for e in events)
    assert state.fight.phase == "initiative"
    assert state.fight.fighters["I"].used == {"netz"} == state.fight.fighters["II"].used


def test_c2_a_net_kept_stays_for_a_later_round() -> None:
    state = fight(spec("A", equipment=("netz",)), spec("B"))
    play(state, "net I no")
    assert state.fight.phase == "initiative"
    initiative(state, "II")
    play(state, "end", "end")
    assert state.fight.phase == "net"


def test_c3_movement_up_to_speed_never_onto_the_opponent_or_off_the_arena() -> None:
    state = fight(spec("A", s=2), spec("B"))
    initiative(state, "I")
    f = state.fight
    legal = {a.direction for a in state.legal_actions() if isinstance(a, A.Step)}
    assert legal == {"E", "W", "NE", "NW", "SE", "SW"}
    play(state, "step E")  # C2 -> C3, next to II on C4
    assert f.arena.name(f.fighters["I"].pos) == "C3"
    with pytest.raises(IllegalActionError, match="opponent stands there"):
        play(state, "step E")
    play(state, "step NE")  # C3 -> B3, still next to C4
    assert f.steps == 2 and "attack" in kinds(state)
    with pytest.raises(IllegalActionError, match="speed dice"):
        play(state, "step W")


def test_c3_off_the_arena_is_refused() -> None:
    state = fight(spec("A", s=3), spec("B"))
    initiative(state, "I")
    play(state, "step W")  # C2 -> C1, the west edge
    assert "W" not in {a.direction for a in state.legal_actions() if isinstance(a, A.Step)}
    with pytest.raises(IllegalActionError, match="leaves the arena"):
        play(state, "step W")


def test_c3_attack_needs_an_adjacent_opponent() -> None:
    state = fight(spec("A"), spec("B"))
    initiative(state, "I")
    with pytest.raises(IllegalActionError, match=r"C3 \(attack\).*2 hexes away"):
        play(state, "attack")


def test_c3a_move_then_attack_ends_the_movement() -> None:
    state = fight(spec("A", a=1, s=3), spec("B", d=1))
    initiative(state, "I")
    play(state, "step E", "attack", "roll I attack 1", "roll II defence 6")
    # moved before the attack: nothing left to do, the turn passed to II by itself
    assert state.fight.order[state.fight.acting] == "II"


def test_c3a_attack_then_move_the_full_speed() -> None:
    state = fight(spec("A", a=1, s=2), spec("B", d=1), arena="small")
    initiative(state, "II")  # II comes to I first
    play(state, "step W", "end")
    f = state.fight
    assert f.active.side == "I"
    play(state, "attack", "roll I attack 1", "roll II defence 6")
    assert f.phase == "turn" and f.steps_left() == 2
    play(state, "step NW", "step NE")
    assert f.round == 2  # turn over by itself: no step, no attack left


def test_c8a_reach_two_attacks_over_a_free_hex() -> None:
    state = fight(spec("A", equipment=("dreizack",)), spec("B"))
    initiative(state, "I")
    assert "attack" in kinds(state)  # C2 to C4 over the free C3


def test_c8b_quick_attack_rolls_the_speed_dice() -> None:
    state = fight(spec("A", a=2, s=4, equipment=("wurfspeer",)), spec("B"))
    initiative(state, "I")
    play(state, "step E")
    assert {"attack", "quick-attack"} <= kinds(state)
    play(state, "quick-attack")
    assert {len(a.faces) for a, _ in state.chance_outcomes()} == {4}
    events = play(state, "roll I attack 6-6-6-6")
    assert events[0].data["die"] == "blue"


def test_c7_rerolls_are_chosen_by_both_before_either_is_rolled() -> None:
    state = fight(spec("A", equipment=("gladius",)), spec("B", equipment=("helm",)))
    initiative(state, "I")
    play(state, "step E", "attack", "roll I attack 6-4-3", "roll II defence 6-4-2")
    f = state.fight
    assert f.phase == "reroll_choice" and state.current_player == 0
    assert set(state.legal_actions()) == {
        A.KeepRoll("I"),
        A.Reroll("I", 6),
        A.Reroll("I", 4),
        A.Reroll("I", 3),
    }
    play(state, "reroll I 3")
    assert f.phase == "reroll_choice" and state.current_player == 1  # nothing rolled yet
    play(state, "reroll II 2")
    assert f.phase == "reroll_roll"
    play(state, "roll I reroll 5")  # the sword example: 6-5-4
    assert f.rolls["I"] == (6, 5, 4)
    events = play(state, "roll II reroll 1")
    resolved = next(e for e in events if e.kind == "attack_resolved")
    assert resolved.data["attack"] == [6, 5, 4] and resolved.data["defence"] == [6, 4, 1]
    assert resolved.data["to_defender"] == 2


def test_c7_reroll_only_a_die_that_was_rolled() -> None:
    state = fight(spec("A", equipment=("gladius",)), spec("B"))
    initiative(state, "I")
    play(state, "step E", "attack", "roll I attack 6-4-3", "roll II defence 6-4-2")
    with pytest.raises(IllegalActionError, match="no die showing 5"):
        play(state, "reroll I 5")
    with pytest.raises(IllegalActionError, match="fighter I chooses"):
        play(state, "keep II")


def test_c11_wounds_are_the_owners_choice_under_the_rule_of_one() -> None:
    # the rulebook's Sally: attack 2, defence 2, speed 1, two more wounds
    state = fight(spec("A", a=2), spec("Sally", a=2, d=2, s=1))
    initiative(state, "I")
    play(state, "step E", "attack", "roll I attack 6-6", "roll II defence 1-1")
    f = state.fight
    assert f.phase == "wound" and state.current_player == 1
    with pytest.raises(IllegalActionError, match=r"C12 \(rule of one\)"):
        play(state, "wound II speed")
    play(state, "wound II attack")
    assert f.phase == "turn"  # the last wound had one choice: defence, applied by itself
    assert f.fighters["II"].dice == [1, 1, 1] and not state.is_terminal
    # "Sollte der Gladiator noch eine Wunde kassieren, dann ist er besiegt."
    play(state, "attack", "roll II attack 1", "roll I defence 6-6-6", "end")
    play(
        state,
        "roll I initiative 6-6-6",
        "roll II initiative 1",
        "first I",
        "attack",
        "roll I attack 6-1",
        "roll II defence 1",
    )
    assert state.is_terminal and f.level == "yield" and f.winner == "I"
    assert state.winners == [0]


@pytest.mark.parametrize(("wounds", "level"), [(3, "yield"), (4, "injury"), (5, "decapitation")])
def test_c13_defeat_level_by_how_many_attributes_fall(wounds: int, level: str) -> None:
    state = fight(spec("A", a=6), spec("B", a=1, d=1, s=3))  # life 5: 2 spare dice
    initiative(state, "I")
    attack = "-".join(["6"] * wounds + ["1"] * (6 - wounds))
    play(state, "step E", "attack", f"roll I attack {attack}", "roll II defence 2")
    assert state.is_terminal and state.fight.level == level
    assert state.winners == [0] and level.split("-")[0][:3] in state.end_reason


def test_c12b_forced_wounds_are_applied_without_asking() -> None:
    state = fight(spec("A", a=3), spec("B", a=1, d=1, s=4))
    initiative(state, "I")
    events = play(state, "step E", "attack", "roll I attack 6-6-1", "roll II defence 1")
    assert [e.data["attr"] for e in events if e.kind == "wounded"] == ["speed", "speed"]
    assert state.fight.fighters["II"].dice == [1, 1, 2]


def test_c10b_agron_counter_wound_can_defeat_the_attacker() -> None:
    agron = spec("Agron", d=4, abilities=("defence-triple-counter",))
    state = fight(spec("A", a=1, d=1, s=1), agron)
    initiative(state, "I")
    play(state, "step E", "attack", "roll I attack 1", "roll II defence 3-3-3-2")
    f = state.fight
    assert state.is_terminal and f.winner == "II" and f.loser == "I" and f.level == "yield"


def test_c10b_a_defeated_agron_still_deals_his_counter_wound() -> None:
    # "Unabhängig vom Angriffswurf seines Gegners verursacht Agron automatisch eine Wunde"
    state = fight(
        spec("A", a=6, d=1, s=1),
        spec("Agron", a=1, d=3, s=1, abilities=("defence-triple-counter",)),
    )
    initiative(state, "I")
    play(state, "step E")  # speed 1: one step, then the attack ends the turn
    events = play(state, "attack", "roll I attack 6-6-6-6-6-6", "roll II defence 3-3-3")
    f = state.fight
    assert f.winner == "I" and f.level == "decapitation"
    assert f.fighters["I"].dice == [5, 1, 1]  # placed without a question: the fight is over
    over = next(e for e in events if e.kind == "fight_over")
    assert over.data["winner_level"] is None and state.winners == [0]


def test_c10b_counter_wounds_after_the_deciding_attack_can_defeat_the_winner_too() -> None:
    state = fight(
        spec("A", a=2, d=1, s=1, equipment=("axt",)),
        spec("Agron", a=1, d=3, s=1, abilities=("defence-triple-counter",)),
    )
    # test setup: an Agron whose triple deals 2 wounds (a house's own ability data)
    state.fight.fighters["II"].abilities = (
        replace(DATA.abilities["defence-triple-counter"], amount=2),
    )
    initiative(state, "I")
    play(state, "step E")
    events = play(state, "attack", "roll I attack 6-6", "roll II defence 3-3-3")
    f = state.fight
    # 2 wounds + the axe's extra wound defeat Agron (life 5); A (life 4) takes 2 back
    assert f.winner == "I" and f.loser == "II" and f.level == "yield"
    assert f.fighters["I"].dice == [0, 1, 1] and f.winner_level() == "yield"
    over = next(e for e in events if e.kind == "fight_over")
    assert over.data["winner_level"] == "yield" and "counter wounds" in over.text
    assert state.winners == [0] and "the winner yields" in state.end_reason


def test_c8c_once_per_fight_ignore_is_spent_once() -> None:
    state = fight(spec("A", a=2), spec("B", d=1, s=1, equipment=("segen",)))
    initiative(state, "I")
    events = play(state, "step E", "attack", "roll I attack 6-1", "roll II defence 1")
    resolved = next(e for e in events if e.kind == "attack_resolved")
    assert resolved.data["ignored"] == 1 and resolved.data["to_defender"] == 0
    assert "segen" in state.fight.fighters["II"].used
    assert state.fight.modifiers("I").ignore_defender == 0


def test_shield_ignores_a_wound_on_every_attack() -> None:
    state = fight(spec("A", a=2), spec("B", d=1, equipment=("schild",)))
    assert state.fight.modifiers("I").ignore_defender == 1
    initiative(state, "I")
    play(state, "step E", "attack", "roll I attack 6-6", "roll II defence 1")
    assert state.fight.modifiers("I").ignore_defender == 1


def test_a_fighter_with_nothing_left_to_do_ends_by_itself() -> None:
    state = fight(spec("A", s=1), spec("B", s=1))
    initiative(state, "I")
    play(state, "step E", "attack", "roll I attack 1-1-1", "roll II defence 6-6-6")
    assert state.fight.active.side == "II"


def test_chance_and_choice_mixups_are_refused_with_reasons() -> None:
    state = fight()
    with pytest.raises(IllegalActionError, match="chance"):
        play(state, "first I")
    initiative(state, "I")
    with pytest.raises(IllegalActionError, match="die or card outcome"):
        play(state, "roll I attack 6")
    with pytest.raises(IllegalActionError, match="no corrections"):
        state.apply(A.AdjustGold("I", 1))


def test_replay_and_snapshot() -> None:
    state = fight(spec("A", equipment=("gladius", "netz")), spec("B", equipment=("helm",)))
    play(state, "net I no")
    initiative(state, "I")
    play(
        state,
        "step E",
        "attack",
        "roll I attack 6-4-3",
        "roll II defence 6-4-2",
        "keep I",
        "reroll II 2",
        "roll II reroll 6",
    )
    again = replay(state.config, state.history)
    assert again.snapshot() == state.snapshot()
    json.dumps(state.snapshot())


def test_c2a_net_declarations_stay_hidden_until_both_are_in() -> None:
    state = fight(spec("A", equipment=("netz",)), spec("B", equipment=("netz",)))
    events = play(state, "net I yes")
    assert [e.kind for e in events] == ["net_declared"] and "yes" not in events[0].text
    assert "netz" not in state.fight.fighters["I"].used
    events = play(state, "net II no")
    assert [e.kind for e in events][0] == "net" and state.fight.init_winner == "I"


def test_c3d_speed_lost_to_a_counter_wound_shortens_the_movement_to_come() -> None:
    state = fight(
        spec("A", a=1, d=2, s=3), spec("Agron", s=1, d=3, abilities=("defence-triple-counter",))
    )
    initiative(state, "II")
    play(state, "step W", "end")  # Agron comes next to A
    play(state, "attack", "roll I attack 1", "roll II defence 3-3-3")
    assert state.fight.phase == "wound" and state.current_player == 0
    play(state, "wound I speed")  # A takes Agron's counter wound from its speed
    assert state.fight.steps_left() == 2


def test_c7c_c9b_a_quick_attack_rerolls_and_triggers_like_an_attack() -> None:
    state = fight(
        spec("A", a=1, s=4, equipment=("wurfspeer", "gladius"), abilities=("pair-extra-wound",)),
        spec("B", d=4),
    )
    initiative(state, "I")
    play(state, "step E", "quick-attack", "roll I attack 5-2-2-1", "roll II defence 6-6-6-6")
    assert state.fight.phase == "reroll_choice"  # the sword rerolls a speed die too
    events = play(state, "reroll I 1", "roll I reroll 5")
    resolved = next(e for e in events if e.kind == "attack_resolved")
    assert resolved.data["attack"] == [5, 5, 2, 2] and resolved.data["ability"] == 2
    assert resolved.data["die"]["attack"] == "blue"


def _attack_in_the_arena(state, attacker: str) -> None:
    """Drive an arena fight until ``attacker`` is about to roll its attack."""
    while state.fight.phase != "attack_roll":
        assert lead_fight(state, attacker)


@pytest.mark.parametrize(("counter", "fate"), [(3, "injury"), (4, "decapitation")])
def test_c10b_r28_a_winner_felled_by_counter_wounds_suffers_its_level(counter, fate) -> None:
    pete, sally, john = 0, 1, 2
    state = setup_game()
    fighter = set_property(state, pete, gladiators=1, extra=("axt",))[0]
    draw_all(state)
    state.host = john
    state._start_arena()  # test setup: skip intrigue and market
    f_sally = state.property[sally][0]
    play(state, "invite batiatus", f"accept {fighter} axt", "invite solonius", f"accept {f_sally}")
    play(state, "done", "done", "done", "done")  # no bets
    _attack_in_the_arena(state, "I")
    f = state.fight
    # test setup: the dice of a long fight, and an ability of a house's own data
    f.fighters["I"].dice = [2, 1, 1]
    f.fighters["II"].dice = [1, 3, 1]
    f.fighters["II"].abilities = (
        replace(DATA.abilities["defence-triple-counter"], amount=counter),
    )
    state._legal = None
    influence = state.influence[pete]
    play(state, "roll I attack 6-6", "roll II defence 3-3-3")  # 2 wounds + the axe: yield
    assert state.influence[pete] == influence + 1  # the victory stands (rule R25)
    if fate == "injury":
        assert fighter in state.injured and fighter in state.exhausted
        assert state.favours[fighter] == 1
    else:
        assert fighter not in state.owner and fighter not in state.favours
        assert "axt" in state.property[pete]  # the equipment stays with the house
    assert state.phase == "thumbs" and f_sally not in state.injured


def test_the_initiative_names_the_winners_sum_first() -> None:
    """Found in the tmux game: 'II Retiarius wins the initiative (6 against 13)'."""
    from spx_helpers import fight, play, spec

    state = fight(spec("A", s=1), spec("B", s=2))
    events = play(state, "roll I initiative 2", "roll II initiative 6-5")
    won = next(e for e in events if e.kind == "initiative")
    assert won.text.endswith("wins the initiative (11 against 2)") and won.data["sums"] == [2, 11]
