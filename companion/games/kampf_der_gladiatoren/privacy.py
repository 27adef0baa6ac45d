"""What of a Kampf der Gladiatoren game each seat may see: everything.

The gladiators lie "offen neben dem Spielplan", every team stands on the board, animals are
placed "offen" and the rest lie "offen neben dem Spielplan"; the face-down animal stack is
no secret anyone holds (the engine draws from the animals left, a chance node). Stables,
hit stars and scores are on the table.
"""

from __future__ import annotations

from companion.games.core.views import Privacy

PRIVACY = Privacy(summary="everything is public: teams, animals, stables and hit stars")
