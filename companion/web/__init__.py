"""The web view: every player's phone at the table, with private seats.

A presentation layer beside :mod:`companion.ui`: it reads games only through their seat
views (``game.view(state, seat)``, ``game.event_view(event, seat)``) and acts only
through the table (its agents and its input queue). Nothing here is imported unless
``--web`` is given (the web stack is an optional extra: ``pip install
'arena-table-companion[web]'``).

- :mod:`.hub`: what the table publishes (frames) and the phones' input queues;
- :mod:`.agent`: a seat played from a phone; physical dice entry;
- :mod:`.buttons`: ROLL/SELECT/CONFIRM from a phone (never the red button);
- :mod:`.pairing`: the tokens; :mod:`.site`, :mod:`.app`, :mod:`.server`: the server;
- :mod:`.pages`, :mod:`.boards`: the HTML and each game's board as SVG;
- :mod:`.driver`: a table of phones without hardware.
"""
