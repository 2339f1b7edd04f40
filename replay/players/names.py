"""Who a name is: a player's key (names that look the same are one player) and the id the API and pages name it by."""

from __future__ import annotations

from uuid import NAMESPACE_URL, UUID, uuid5

from replay.text import checked, name_key

NAME_MAX = 40
"""A player's name has at most this many characters, as a seat's (docs/api/limits.md#text)."""


def key_of(name: str) -> str:
    """A player's key: names with one key look the same on screen (case, blanks, invisible characters and
    lookalike letters do not count: :func:`replay.text.name_key`), so they are one player."""
    return name_key(name)


def player_id(key: str) -> str:
    """The id of the player whose key is ``key``: the same in every process and after every rebuild."""
    return str(uuid5(NAMESPACE_URL, "heronlog:player:" + key))


def id_of(name: str) -> str:
    """The id of the player a name makes."""
    return player_id(key_of(name))


def parse_id(text: str) -> str | None:
    """A player id as the API takes it (a UUID, any case), or None when ``text`` is not one."""
    try:
        return str(UUID(text))
    except (ValueError, AttributeError, TypeError):
        return None


def checked_name(value: object) -> str:
    """A new player's name as a seat's is kept (one line of plain text, at most :data:`NAME_MAX` characters), or
    ``invalid_request`` naming the character refused."""
    return checked(value, "a player's name", max_length=NAME_MAX)
