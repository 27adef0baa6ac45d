"""What of a Battle Royale game each seat may see (see :mod:`companion.games.core.views`).

- Private to their seat: the hand ("Ziehe 4 Karten - das sind deine Handkarten") and the
  face-down draw pile ("als verdeckten Stapel vor dich"), whose make-up would give the hand
  away (the 10 cards of a colour minus the open discards and the hand). Every screen sees
  how many cards each holds.
- Public: everything else - the arena, the figures, prisoners, the discards ("offen auf
  deinen Ablagestapel"), the card played, and the optional cards, which lie face up
  ("Legt diese Karten offen auf den Tisch", "zieht zufällig 3 davon und legt sie offen").

Assist mode tracks no cards: everything it knows is public (:data:`ASSIST_PRIVACY`).
"""

from __future__ import annotations

from companion.games.core.views import Privacy, Secret

PRIVACY = Privacy(
    secrets={"hands": Secret("hand_sizes"), "draw_piles": Secret("draw_pile_sizes")},
    summary="hands and face-down draw piles are private to their seat (sizes public); "
    "the arena, prisoners, discards and the face-up optional cards are public",
)

ASSIST_PRIVACY = Privacy(
    summary="everything is public: the players hold the cards, the companion tracks none"
)
