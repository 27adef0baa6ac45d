"""Shared helpers for the Spartacus tests: fights and games driven action by action."""

from __future__ import annotations

from companion.games.spartacus import FighterSpec, SpartacusConfig, SpartacusState, new_game
from companion.games.spartacus import actions as A
from companion.games.spartacus.data import builtin_data

DATA = builtin_data()


def spec(
    name: str = "A",
    a: int = 3,
    d: int = 3,
    s: int = 3,
    equipment: tuple[str, ...] = (),
    abilities: tuple[str, ...] = (),
) -> FighterSpec:
    return FighterSpec(name, a, d, s, tuple(equipment), tuple(abilities))


def fight(
    i: FighterSpec | None = None, ii: FighterSpec | None = None, arena: str = "small"
) -> SpartacusState:
    """A combat-assistant game: fighter I against fighter II."""
    return new_game(SpartacusConfig(fight=(i or spec("A"), ii or spec("B")), arena=arena))


def play(state: SpartacusState, *texts: str) -> list:
    """Apply actions given in notation; returns all events."""
    events = []
    for text in texts:
        events += state.apply(A.parse_action(text))
    return events


def initiative(state: SpartacusState, winner: str = "I", first: str | None = None) -> None:
    """Roll the initiative so that ``winner`` wins, and let it name ``first`` (default itself)."""
    f = state.fight
    assert f is not None and f.phase == "initiative"
    n1, n2 = f.fighters["I"].speed, f.fighters["II"].speed
    r1 = "-".join(["6" if winner == "I" else "1"] * n1)
    r2 = "-".join(["6" if winner == "II" else "1"] * n2)
    play(state, f"roll I initiative {r1}", f"roll II initiative {r2}")
    assert f.init_winner == winner, f.init_rolls
    play(state, f"first {first or winner}")


def kinds(state: SpartacusState) -> set[str]:
    return {a.kind for a in state.legal_actions()}


def setup_game(players: int = 4, host: int = 0, **kw) -> SpartacusState:
    """A full game after the deal (first outcome of every chance node): round 1's upkeep done
    (every house has 2 gladiators, 2 slaves: upkeep even) and the intrigue draw pending."""
    state = new_game(SpartacusConfig(players=players, host=host, **kw))
    while state.phase == "deal":
        state.apply(state.chance_outcomes()[0][0])
    return state


def draw_all(state: SpartacusState) -> None:
    """Resolve pending intrigue draws with the first outcome each."""
    while state.phase == "draw":
        state.apply(state.chance_outcomes()[0][0])


def give_hand(state: SpartacusState, seat: int, *cards: str) -> None:
    """Test setup: put intrigue cards into a hand (taken from the deck)."""
    for c in cards:
        state.intrigue_deck[c] -= 1
        state.hands[seat][c] = state.hands[seat].get(c, 0) + 1
    state._legal = None


def give_card(state: SpartacusState, seat: int, card: str) -> None:
    """Test setup: a market card into a house's property (from the deck)."""
    state.market_deck.pop(card, None)
    state.property[seat].append(card)
    state.owner[card] = seat
    state._legal = None


def set_property(
    state: SpartacusState,
    seat: int,
    gladiators: int = 0,
    slaves: int = 0,
    extra: tuple[str, ...] = (),
) -> list[str]:
    """Test setup: replace a house's property with unused fighters (no abilities) and
    ``extra`` cards. Returns the new property list."""
    for c in list(state.property[seat]):
        state.property[seat].remove(c)
        state.owner.pop(c)
    taken = set(state.owner)
    cards: list[str] = []
    for kind, n in (("gladiator", gladiators), ("slave", slaves)):
        pool = [
            c.id
            for c in DATA.market.values()
            if c.kind == kind
            and c.id not in taken
            and not c.ability
            and not c.exhaust
            and c.id not in cards
        ]
        cards += pool[:n]
    for c in (*cards, *extra):
        give_card(state, seat, c)
    return list(state.property[seat])


def lead_fight(state: SpartacusState, leader: str) -> bool:
    """One action of a fight steered for ``leader``: no nets, ``leader`` wins the
    initiative and goes first, walks to the foe and attacks once per turn; the other side
    only ends its turns. False when the fight waits for something else (dice, a choice)."""
    from companion.games.spartacus.hexmap import distance, step

    f = state.fight
    assert f is not None
    p = f.phase
    if p == "net":
        state.apply(A.UseNet(f.decider(), False))
    elif p == "initiative":
        side = "I" if "I" not in f.init_rolls else "II"
        n = f.fighters[side].speed
        state.apply(A.DiceRoll(side, "initiative", (6 if side == leader else 1,) * n))
    elif p == "first":
        state.apply(A.ChooseFirst(leader))
    elif p == "turn":
        if f.active.side != leader or f.attacked:
            state.apply(A.EndTurn())
        elif f.in_reach(leader):
            state.apply(A.Attack())
        else:
            foe = f.fighters[f.other(leader)].pos
            steps = [a for a in state.legal_actions() if isinstance(a, A.Step)]
            state.apply(min(steps, key=lambda a: distance(step(f.active.pos, a.direction), foe)))
    else:
        return False
    return True


def finish_fight(state: SpartacusState, winner: str, level: str) -> None:
    """Drive the fight under way so that ``winner`` wins with defeat ``level`` (the attacks
    are all sixes against distinct low defence dice; the loser only ends its turns)."""
    need = {"yield": 1, "injury": 2, "decapitation": 3}[level]
    f = state.fight
    assert f is not None
    loser = f.other(winner)
    while state.phase == "fight":
        p = f.phase
        if lead_fight(state, winner):
            continue
        if p == "attack_roll":
            life = f.fighters[loser].life
            n = f.fighters[winner].attack
            k = min(n, life - 3 if life > 3 else need)
            state.apply(A.DiceRoll(winner, "attack", (6,) * k + (1,) * (n - k)))
        elif p == "defence_roll":
            n = f.fighters[loser].defence
            state.apply(A.DiceRoll(loser, "defence", tuple(range(n, 0, -1))))
        elif p == "reroll_choice":
            state.apply(A.KeepRoll(f.decider()))
        elif p == "wound":
            state.apply(next(a for a in state.legal_actions() if isinstance(a, A.Wound)))
        else:  # pragma: no cover
            raise AssertionError(p)


def upkeep_example() -> SpartacusState:
    """The rulebook's example: 'In der Unterhaltungsphase hat Sally nur 2 Gold, welches sie
    komplett benoetigt, um ihr Konto auszugleichen und verbleibt ohne Gold. John kann nun
    die Reaktionskarte "Mittellos!" spielen' - round 2's upkeep, Sally owes 2 and has 2,
    Liz pays after her; John holds Mittellos!. Seats: Pete 0 (batiatus), Sally 1
    (solonius), John 2 (glaber), Liz 3 (tullius)."""
    state = setup_game(host=0)
    draw_all(state)
    for seat in range(4):
        state.hands[seat] = {}
    give_hand(state, 2, "mittellos", "skandal")
    give_hand(state, 0, "wache")  # Pete may react too by what everyone sees
    set_property(state, 1, gladiators=2)
    set_property(state, 3, gladiators=3, slaves=2)
    state.bank += state.gold[1] - 2
    state.gold[1] = 2
    state._start_round()
    assert state.phase == "upkeep_pay" and state.current_player == 1
    return state
