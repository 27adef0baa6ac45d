"""companion: a table companion for physical arena board games.

Rules engines (``companion.games``), table dice (``companion.dice``) and the
hardware layer (``companion.hal``) for a Raspberry Pi table.
"""

__version__ = "0.1.0"
