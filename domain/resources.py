"""Seals, resources, coins and Clan Points: gaining, paying, caps and seal conversions (R-R01..R-R07, C.2).

Gains over a cap are lost; nothing is paid that is not held; seal conversions are free moves at the catalog's
prices (with Matcha, also into whisks: R-M15).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from domain.kinds.base import Move
from domain.kinds.resources import ConvertMove, ResourcesMove
from domain.prompts import AnyRes
from domain.state import GameState, Player, pop, replace, with_player
from domain.vocabulary import FIELD, Cost, Icon, IconKind, Phase, Resource

CAPS: Mapping[str, int] = {"seals": 5, "food": 7, "iron": 7, "pearl": 7, "whisks": 7}
"""The cap of each capped counter (R-R01, R-R03). The whisk track's is the catalog's (`caps`), 7 unless a game
sets it lower: its printed maximum is not known (docs/rules/components.md §1.12), and R-F03's "7 -> 2 CP" implies 7."""


_GAIN_FIELD = {IconKind.SEAL: "seals", IconKind.WHISK: "whisks"}

RAW = ("food", "iron", "pearl")
"""The resources an "any resource" icon may give, never a whisk (R-R07)."""


def caps(state: GameState) -> Mapping[str, int]:
    """The caps of this game's counters: `CAPS`, with the whisk track's top from the Matcha catalog."""
    matcha = state.catalog.matcha
    if matcha is None or matcha.whisk_max == CAPS["whisks"]:
        return CAPS
    return {**CAPS, "whisks": matcha.whisk_max}


def add(player: Player, field: str, amount: int, limits: Mapping[str, int] = CAPS) -> Player:
    """Add `amount` to a counter, losing what goes over its cap (R-R01, R-R03; `limits`: the game's `caps`)."""
    value = getattr(player, field) + amount
    cap = limits.get(field)
    if cap is not None and value > cap:
        value = cap
    return replace(player, **{field: value})


def gain_icon(player: Player, icon: Icon, limits: Mapping[str, int] = CAPS) -> Player:
    """Apply a plain gain icon (coin, seal, food, iron, pearl, whisk, cp), within the game's caps (`caps`)."""
    kind = icon.kind
    if kind is IconKind.CP:
        return replace(player, cp=player.cp + icon.amount)
    if kind is IconKind.COIN:
        return replace(player, coins=player.coins + icon.amount)
    return add(player, _GAIN_FIELD.get(kind, kind.value), icon.amount, limits)


def can_pay(player: Player, cost: Cost) -> bool:
    """Whether the player holds everything `cost` asks for (R-P04, R-R03, R-R04)."""
    return all(getattr(player, FIELD[resource]) >= amount for resource, amount in cost)


def could_pay(player: Player, cost: Cost, prices: Mapping[str, int]) -> bool:
    """Whether the player could pay `cost` after converting seals at these `prices` (the catalog's, R-R02): is
    the choice worth asking?"""
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
            if resource.value not in prices:
                return False  # seals do not convert into it (whisks without Matcha)
            seals -= missing * prices[resource.value]
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
    return can_pay(player, cost) or (
        conversions_allowed(state, seat) and could_pay(player, cost, conversions(state))
    )


def pay(player: Player, cost: Cost) -> Player:
    """Pay `cost`; the caller has checked `can_pay`."""
    changes = {FIELD[resource]: getattr(player, FIELD[resource]) - amount for resource, amount in cost}
    return replace(player, **changes) if changes else player


# --- seal conversions (R-R02, decision C.2) -


def conversions(state: GameState) -> Mapping[str, int]:
    """What seals convert to in this game, and the seals each costs: the catalog's (R-R02; Matcha adds whisks,
    R-M15)."""
    return state.catalog.conversions


def conversion_moves(state: GameState, seat: int) -> list[Move]:
    """The seal conversions the player can afford now."""
    seals = state.players[seat].seals
    return [ConvertMove(seat, to) for to, price in conversions(state).items() if seals >= price]


def paying_conversions(state: GameState, seat: int, cost: Cost) -> tuple[str, ...] | None:
    """The fewest conversions after which the seat can pay `cost` (R-R02): () when it can already, None when no
    conversion helps. Only one resource is converted into: every printed cost asks for one resource besides seals
    (a seal cost itself is never converted into)."""
    player = state.players[seat]
    if can_pay(player, cost):
        return ()
    missing: list[tuple[Resource, int]] = [
        (resource, amount - int(getattr(player, FIELD[resource])))
        for resource, amount in cost
        if getattr(player, FIELD[resource]) < amount
    ]
    if len(missing) != 1 or missing[0][0] is Resource.SEAL:
        return None
    resource, short = missing[0]
    to: str = "coin" if resource is Resource.COIN else str(resource.value)
    price = conversions(state).get(to)
    seals_kept = sum(amount for r, amount in cost if r is Resource.SEAL)
    if price is None or player.seals - seals_kept < price * short:
        return None
    return (to,) * short


def convert(state: GameState, seat: int, to: str) -> GameState:
    """Convert seals into one coin, one resource or one whisk (R-R02, R-M15); over a cap is lost (R-R03)."""
    player = state.players[seat]
    player = replace(player, seals=player.seals - conversions(state)[to])
    if to == "coin":
        player = replace(player, coins=player.coins + 1)
    else:
        player = add(player, FIELD[Resource(to)], 1, caps(state))
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


def any_res_moves(state: GameState, frame: AnyRes) -> list[Move]:
    return [ResourcesMove(frame.seat, f, i, p) for f, i, p in _splits(frame.amount)]


def any_res_play(state: GameState, frame: AnyRes, move: ResourcesMove) -> GameState:
    return _take(pop(state), frame.seat, (move.food, move.iron, move.pearl))


def _take(state: GameState, seat: int, split: tuple[int, int, int]) -> GameState:
    player = state.players[seat]
    food, iron, pearl = _after(player, split)
    return with_player(state, seat, replace(player, food=food, iron=iron, pearl=pearl))
