"""What each seat sees of Spartacus: hands, secret bids, gold while the auctions run and
peeked cards stay with their seat (privacy.py; docs/architecture.md)."""

from __future__ import annotations

from spx_helpers import draw_all, fight, give_hand, play, set_property, setup_game, spec

from companion.games.spartacus import GAME
from companion.games.spartacus import actions as A

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3  # batiatus, solonius, glaber, tullius


def views(state) -> dict:
    return {seat: GAME.view(state, seat) for seat in (None, PETE, SALLY, JOHN, LIZ)}


def to_auction(state, card: str) -> None:
    draw_all(state)
    state._start_market()  # test setup: skip the intrigue turns
    for _ in range(state.players):
        play(state, "done")
    state.apply(A.DrawCard("auction", "market", card))


def test_hands_are_private_their_sizes_public() -> None:
    state = setup_game()
    draw_all(state)
    seen = views(state)
    assert "hands" not in seen[None]["public"]
    assert seen[None]["public"]["hand_sizes"] == {"0": 3, "1": 3, "2": 3, "3": 3}
    for seat in (PETE, LIZ):
        assert seen[seat]["private"]["hands"] == dict(sorted(state.hands[seat].items()))
    assert seen[None]["public"]["intrigue_deck_size"] == sum(state.intrigue_deck.values())
    assert "intrigue_deck" not in seen[None]["public"]


def test_a_peeked_card_is_in_the_peekers_view_only() -> None:
    """R6: Indus shows Liz a random card of Pete's hand; before issue 15 nobody's view held it."""
    state = setup_game(host=LIZ)
    draw_all(state)
    for seat in range(4):
        state.hands[seat] = {}
    set_property(state, LIZ, gladiators=1, extra=("indus",))
    give_hand(state, PETE, "wache", "skandal")
    play(state, "exhaust indus batiatus")
    events = play(state, "peek tullius batiatus skandal")
    seen = views(state)
    peek = {"house": "batiatus", "card": "skandal", "round": state.round}
    assert seen[LIZ]["private"]["peeked"] == [peek]
    assert all(seen[s]["private"]["peeked"] == [] for s in (PETE, SALLY, JOHN))
    assert "peeked" not in seen[None]["public"] and seen[None]["private"] == {}
    event = next(e for e in events if e.kind == "peeked")
    assert GAME.event_view(event, LIZ)["data"]["card"] == "skandal"
    for seat in (None, PETE, SALLY, JOHN):
        shown = GAME.event_view(event, seat)
        assert "card" not in shown["data"] and "skandal" not in shown["text"].lower()


def test_secret_bids_and_hidden_gold_until_the_bids_are_revealed() -> None:
    """R17: "nimmt jeder Spieler seinen Einsatz verdeckt in die Hand"; R16: gold is hidden
    from the auctions until the host is decided."""
    state = setup_game()
    market = views(state)  # before the auctions gold is on the table
    to_auction(state, "agron")
    play(state, "bid 2")  # Pete's secret bid
    seen = views(state)
    table = seen[None]["public"]
    assert "bids" not in table and table["bids_entered"] == {"0": True}
    assert "gold" not in table and "bank" not in table
    assert seen[PETE]["private"]["bids"] == 2 and seen[SALLY]["private"]["bids"] is None
    assert all(seen[s]["private"]["gold"] == state.gold[s] for s in (PETE, SALLY, JOHN, LIZ))
    assert "gold" in market[None]["public"]
    play(state, "bid 0", "bid 3", "bid 1")  # revealed: John wins and pays
    after = views(state)[None]["public"]
    assert state.phase == "auction_reveal" and "gold" not in after  # the next auction
    assert after["bids"] == {"0": 2, "1": 0, "2": 3, "3": 1}  # shown openly once revealed


def test_a_card_drawn_is_shown_only_to_its_house() -> None:
    state = setup_game()
    events = []
    while state.phase == "draw":
        events += state.apply(state.chance_outcomes()[0][0])
    drawn = [e for e in events if e.kind == "card_drawn"]
    assert drawn and all(e.private_to == e.data["seat"] for e in drawn)
    for event in drawn:
        other = (event.private_to + 1) % 4
        assert "card" not in GAME.event_view(event, other)["data"]
        assert GAME.event_view(event, other)["text"] == event.public_text


def test_a_net_declared_stays_with_its_seat_until_every_net_is_declared() -> None:
    """Ruling C2a: nothing is revealed until every net is declared. The fight's public part
    held the first declaration (``nets``), so every screen could read whether fighter I
    throws before fighter II's owner declared."""
    state = fight(spec("A", equipment=("netz",)), spec("B", equipment=("netz",)))
    owner_i, owner_ii = (state.fight.fighters[s].owner for s in ("I", "II"))
    assert owner_i != owner_ii
    play(state, "net I yes")
    assert state.fight.phase == "net"
    table, i_seat, ii_seat = (GAME.view(state, s) for s in (None, owner_i, owner_ii))
    for seen in (table, ii_seat):
        assert "nets" not in seen["public"]["fight"]
        assert "net_declarations" not in seen["public"]
        assert "yes" not in str(seen).lower() and "true" not in str(seen["private"]).lower()
    assert table["public"]["nets_declared"] == {str(owner_i): ["I"], str(owner_ii): []}
    assert i_seat["private"]["net_declarations"] == {"I": True}
    assert ii_seat["private"]["net_declarations"] == {}
    play(state, "net II no")  # every net declared: the nets are public again
    seen = GAME.view(state, None)
    assert seen["public"]["fight"]["nets"] == {"I": True, "II": False}
    assert "nets_declared" not in seen["public"]


def test_a_seats_view_says_what_its_own_cards_do_and_nobody_elses() -> None:
    """What each card of a hand does (id -> printed name and effect, from the data) is in
    its seat's private view only, so a phone shows it to its holder alone."""
    state = setup_game()
    draw_all(state)
    state.hands[PETE] = {"schwarzmarkt": 2}
    state.hands[SALLY] = {"wache": 1}
    seen = views(state)
    assert seen[PETE]["private"]["cards"] == {
        "schwarzmarkt": "Gewinn vom Schwarzmarkt: scheme, 7 influence; the target gains 5 gold"
    }
    assert list(seen[SALLY]["private"]["cards"]) == ["wache"]
    assert "cards" not in seen[None]["private"] and "cards" not in seen[None]["public"]
    for seat in (None, SALLY, JOHN, LIZ):
        assert "Gewinn vom Schwarzmarkt" not in str(seen[seat])
