"""The application services of the game log: one purpose each, over one repository of games.

Each service reads a game (:mod:`replay.services.repository`), asks :mod:`replay.decisions` (or
:mod:`replay.annotations`, :mod:`replay.access`) what happens, and saves the events in one atomic write:

* :mod:`~replay.services.recording`: moves, with the seat check inside;
* :mod:`~replay.services.history`: undo, redo, amend and abandon (the one place amendments are decided from);
* :mod:`~replay.services.tokens`: who holds a token, seat tokens issued and withdrawn;
* :mod:`~replay.services.annotating`: comments anchored to versions;
* :mod:`~replay.services.creation`: new games, created or forked, each with its owner;
* :mod:`~replay.services.exchange`: exports and imports;
* :mod:`~replay.services.queries`: states, timeline, layout, changes and the list of games;
* :mod:`~replay.services.rules_versions`: a game checked, or moved, under other rules;
* :mod:`~replay.services.players`: players across games, and who sat in each seat.

:class:`replay.application.GameLog` builds them over one repository and does nothing else.
"""
