"""Seals, resources, coins and Clan Points: gaining, paying, caps and seal conversions (R-R01..R-R07, C.2).

Seals are capped at 5 and food, iron and pearl at 7; gains above a cap are lost (R-R01, R-R03). Nothing is
ever paid that is not held (R-P04, R-R03, R-R04). Seal conversions (R-R02) are free moves: 1 seal -> 1 coin,
2 seals -> 1 food, iron or pearl.
"""

from __future__ import annotations

import itertools
from typing import Any

from domain.prompts import AnyRes
from domain.state import GameState, Player, pop, replace, with_player
from domain.vocabulary import Cost, Icon, IconKind, Phase, Resource

CAPS: dict[str, int] = {"seals": 5, "food": 7, "iron": 7, "pearl": 7}
"""The cap of each capped counter (R-R01, R-R03)."""

FIELD = {
    Resource.COIN: "coins",
    Resource.SEAL: "seals",
    Resource.FOOD: "food",
    Resource.IRON: "iron",
    Resource.PEARL: "pearl",
}
"""The Player field holding each resource."""

CONVERSIONS: dict[str, int] = {"coin": 1, "food": 2, "iron": 2, "pearl": 2}
"""Seals spent per unit gained by a conversion (R-R02)."""

RAW = ("food", "iron", "pearl")
"""The resources an "any resource" icon may give, never a whisk (R-R07)."""


def add(player: Player, field: str, amount: int) -> Player:
    """Add `amount` to a counter, losing what goes over its cap (R-R01, R-R03)."""
    value = getattr(player, field) + amount
    cap = CAPS.get(field)
    if cap is not None and value > cap:
        value = cap
    return replace(player, **{field: value})


def gain_icon(player: Player, icon: Icon) -> Player:
    """Apply a plain gain icon (coin, seal, food, iron, pearl, cp)."""
    kind = icon.kind
    if kind is IconKind.CP:
        return replace(player, cp=player.cp + icon.amount)
    if kind is IconKind.COIN:
        return replace(player, coins=player.coins + icon.amount)
    return add(player, kind.value if kind is not IconKind.SEAL else "seals", icon.amount)


def can_pay(player: Player, cost: Cost) -> bool:
    """Whether the player holds everything `cost` asks for (R-P04, R-R03, R-R04)."""
    return all(getattr(player, FIELD[resource]) >= amount for resource, amount in cost)


def could_pay(player: Player, cost: Cost) -> bool:
    """Whether the player could pay `cost` after converting seals (R-R02): is the choice worth asking?"""
    seals = player.seals
    for resource, amount in cost:
        if resource is Resource.SEAL:
            seals -= amount
    if seals < 0:
        return False
    for resource, amount in cost:
        if resource is Resource.SEAL:
            continue
        missing = amount - getattr(player, FIELD[resource])
        if missing > 0:
            seals -= missing * (1 if resource is Resource.COIN else 2)
    return seals >= 0


def active_seat(state: GameState) -> int | None:
    """The player whose turn it is (None outside the turns)."""
    if state.phase is not Phase.TURNS:
        return None
    return state.turn_order[state.turn_index % len(state.players)]


def conversions_allowed(state: GameState, seat: int) -> bool:
    """Decision C.2: whenever the engine waits on that player; option ``own_turn``: only on their own turn
    (R-T07). Never during the solo rival's turn: what the player answers there is chosen for the rival."""
    if state.solo is not None and active_seat(state) == state.solo.rival:
        return False
    if state.options.seal_conversions == "own_turn":
        return active_seat(state) == seat
    return True


def affordable(state: GameState, seat: int, cost: Cost) -> bool:
    """Whether the seat holds `cost`, or could once it converts seals where conversions are allowed: a choice
    worth asking about."""
    player = state.players[seat]
    return can_pay(player, cost) or (conversions_allowed(state, seat) and could_pay(player, cost))


def pay(player: Player, cost: Cost) -> Player:
    """Pay `cost`; the caller has checked `can_pay`."""
    changes = {FIELD[resource]: getattr(player, FIELD[resource]) - amount for resource, amount in cost}
    return replace(player, **changes) if changes else player


def cost_text(cost: Cost) -> str:
    """A cost in words: "3 coins", "1 seal"."""
    plural = {Resource.COIN: "coins", Resource.SEAL: "seals"}
    return ", ".join(
        f"{amount} {plural[resource] if amount > 1 and resource in plural else resource.value}"
        for resource, amount in cost
    )


# --- seal conversions (R-R02, decision C.2) -


def conversion_moves(state: GameState, seat: int) -> list[dict[str, Any]]:
    """The seal conversions the player can afford now."""
    seals = state.players[seat].seals
    return [
        {"kind": "convert", "seat": seat, "to": to} for to, price in CONVERSIONS.items() if seals >= price
    ]


def convert(state: GameState, seat: int, to: str) -> GameState:
    """Convert seals into one coin or one resource (R-R02); a resource over 7 is lost (R-R03)."""
    player = state.players[seat]
    player = replace(player, seals=player.seals - CONVERSIONS[to])
    player = replace(player, coins=player.coins + 1) if to == "coin" else add(player, to, 1)
    return with_player(state, seat, player)


# --- "any resource" choices (R-R07) -


def _splits(amount: int) -> list[tuple[int, int, int]]:
    return [
        (combo.count("food"), combo.count("iron"), combo.count("pearl"))
        for combo in itertools.combinations_with_replacement(RAW, amount)
    ]


def _after(player: Player, split: tuple[int, int, int]) -> tuple[int, int, int]:
    return (min(7, player.food + split[0]), min(7, player.iron + split[1]), min(7, player.pearl + split[2]))


def any_res_waiting(state: GameState, frame: AnyRes) -> bool:
    """Ask only when the choices lead to different holdings (all tracks full: nothing to choose)."""
    player = state.players[frame.seat]
    return len({_after(player, split) for split in _splits(frame.amount)}) > 1


def any_res_auto(state: GameState, frame: AnyRes) -> GameState:
    return _take(pop(state), frame.seat, _splits(frame.amount)[0])


def any_res_moves(state: GameState, frame: AnyRes) -> list[dict[str, Any]]:
    return [
        {"kind": "resources", "seat": frame.seat, "food": f, "iron": i, "pearl": p}
        for f, i, p in _splits(frame.amount)
    ]


def any_res_play(state: GameState, frame: AnyRes, move: dict[str, Any]) -> GameState:
    return _take(pop(state), frame.seat, (move["food"], move["iron"], move["pearl"]))


def _take(state: GameState, seat: int, split: tuple[int, int, int]) -> GameState:
    player = state.players[seat]
    food, iron, pearl = _after(player, split)
    return with_player(state, seat, replace(player, food=food, iron=iron, pearl=pearl))
