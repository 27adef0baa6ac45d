"""What of an arena skirmish game each seat may see: everything.

The rulebook hides nothing: teams are picked from the open profile table, every gladiator
stands on the map with its facing and values, and all dice are rolled in the open.
"""

from __future__ import annotations

from companion.games.core.views import Privacy

PRIVACY = Privacy(summary="everything is public: teams, profiles, positions, values, dice")
