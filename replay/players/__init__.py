"""Players across games: a club's people, their records, ratings and rivalries (docs/api/players.md).

A player is a name within this heronlog, matched as names are compared (:func:`replay.text.name_key`). Every
seat of every game counts for the player its name makes, unless the game's owner linked the seat to another
(:mod:`replay.players.links`, an event of its own stream); :mod:`replay.players.facts` reads what a game says
of its seats, :mod:`replay.players.record` turns that into counters, :mod:`replay.players.rating` into ratings,
and :mod:`replay.players.projection` keeps them on the store (:mod:`replay.views`).
"""
