"""Matcha's Tea Garden: geishas, the Geisha action and the places it leads to (R-M06..R-M13, R-M16, R-F08)."""

from __future__ import annotations

from domain.kinds.actions import DoneMove
from domain.kinds.base import Move
from domain.kinds.matcha import AdvanceGeishaMove, SendGeishaMove, entrance_cost
from domain.matcha.himeji import blue_curtains_menu
from domain.prompts import Frame, GeishaAction, HimejiCard, Menu, Option, bundle
from domain.resources import affordable, can_pay, pay
from domain.state import (
    GameState,
    MatchaBoard,
    TeaHouseRoom,
    matcha_board,
    matcha_spec,
    pop,
    replace,
    replace_in,
    swap_top,
    with_board,
    with_player,
)
from domain.vocabulary import Cost, Icon, IconKind, Resource

ENTRANCE = "entrance"
"""The Tea Garden entrance, where Part A puts a geisha (R-M07)."""


def places(state: GameState) -> list[str]:
    """Every place of the Tea Garden, in walking order: the entrance, the Viewing Platform, the path spaces,
    the Tea House rooms."""
    spec = matcha_spec(state)
    return [
        ENTRANCE,
        spec.platform,
        *(space for space, _ in spec.path),
        *(room for room, _ in spec.tea_house),
    ]


def geishas_at(state: GameState, place: str) -> tuple[int, ...]:
    """The seats of the geishas standing on a place of the Tea Garden."""
    spec, board = matcha_spec(state), matcha_board(state)
    if place == ENTRANCE:
        return board.entrance
    if place == spec.platform:
        return board.platform
    for i, (space, _) in enumerate(spec.path):
        if space == place:
            return board.path[i]
    for room in board.tea_house:
        if room.id == place:
            return room.geishas
    raise KeyError(place)


def place_geisha(state: GameState, seat: int, place: str, origin: str | None = None) -> GameState:
    """Put one of the seat's geishas on `place`, taken from `origin` (a place), or from the clan board when
    `origin` is None. Nothing is paid or checked: the callers are the rules below (and a solo rival)."""
    board = matcha_board(state)
    if origin is None:
        player = state.players[seat]
        state = with_player(state, seat, replace(player, geishas=player.geishas - 1))
    else:
        board = _moved(state, board, origin, seat, remove=True)
    board = _moved(state, board, place, seat, remove=False)
    return with_board(state, matcha=board)


def _moved(state: GameState, board: MatchaBoard, place: str, seat: int, *, remove: bool) -> MatchaBoard:
    def change(seats: tuple[int, ...]) -> tuple[int, ...]:
        if remove:
            items = list(seats)
            items.remove(seat)
            return tuple(items)
        return tuple(sorted((*seats, seat)))

    spec = matcha_spec(state)
    if place == ENTRANCE:
        return replace(board, entrance=change(board.entrance))
    if place == spec.platform:
        return replace(board, platform=change(board.platform))
    for i, (space, _) in enumerate(spec.path):
        if space == place:
            return replace(board, path=replace_in(board.path, i, change(board.path[i])))
    for i, room in enumerate(board.tea_house):
        if room.id == place:
            return replace(
                board, tea_house=replace_in(board.tea_house, i, replace(room, geishas=change(room.geishas)))
            )
    raise KeyError(place)


def has_room(state: GameState, seat: int, place: str) -> bool:
    """The Viewing Platform takes one geisha per clan, a Tea House room two (R-M09, R-M13)."""
    spec = matcha_spec(state)
    if place == spec.platform:
        return geishas_at(state, place).count(seat) < spec.platform_per_clan
    if place in {room for room, _ in spec.tea_house}:
        return geishas_at(state, place).count(seat) < spec.tea_house_per_clan
    return True


def steps_from(state: GameState, origin: str) -> dict[str, int]:
    """Where a geisha on `origin` can go, and how many steps it takes (R-M09): from the entrance 1 step left to
    the Viewing Platform, or along the path; a path space leads on toward the Tea House."""
    spec = matcha_spec(state)
    path = [space for space, _ in spec.path]
    rooms = [room for room, _ in spec.tea_house]
    if origin == ENTRANCE:
        line = path
        reach = {spec.platform: 1}
    elif origin in path:
        line = path[path.index(origin) + 1 :]
        reach = {}
    else:
        return {}
    for steps, place in enumerate(line, start=1):
        reach[place] = steps
    after = len(line) + 1
    for room in rooms:
        reach[room] = after
    return {place: steps for place, steps in reach.items() if steps in (1, 2)}


def advances(state: GameState, seat: int, *, free_step: bool = False) -> list[tuple[str, str, int]]:
    """(from, to, whisks) of every advance the seat's geishas can make now, affordable or not (R-M08, R-M09);
    a free step (CT13) is one step, no whisks."""
    spec = matcha_spec(state)
    result: list[tuple[str, str, int]] = []
    origins = [ENTRANCE, *(space for space, _ in spec.path)]
    for origin in origins:
        if seat not in geishas_at(state, origin):
            continue
        for place, steps in steps_from(state, origin).items():
            if free_step and steps != 1:
                continue
            if has_room(state, seat, place):
                result.append((origin, place, 0 if free_step else spec.whisks_per_steps[steps]))
    return result


def _whisks(amount: int) -> Cost:
    return ((Resource.WHISK, amount),) if amount else ()


# --- the Geisha action (R-M06..R-M09) -


def geisha_waiting(state: GameState, frame: GeishaAction) -> bool:
    """Ask only if some part could still be done, counting seal conversions (R-R02, R-M15)."""
    seat = frame.seat
    if (
        not frame.entrance_done
        and state.players[seat].geishas > 0
        and affordable(state, seat, entrance_cost(state))
    ):
        return True
    if not frame.advance_done:
        return any(
            affordable(state, seat, _whisks(w))
            for _, _, w in advances(state, seat, free_step=frame.free_step)
        )
    return False


def geisha_moves(state: GameState, frame: GeishaAction) -> list[Move]:
    seat = frame.seat
    player = state.players[seat]
    moves: list[Move] = []
    if not frame.entrance_done and player.geishas > 0 and can_pay(player, entrance_cost(state)):
        moves.append(SendGeishaMove(seat))
    if not frame.advance_done:
        moves.extend(
            AdvanceGeishaMove(seat, origin, to)
            for origin, to, whisks in advances(state, seat, free_step=frame.free_step)
            if player.whisks >= whisks
        )
    moves.append(DoneMove(seat))
    return moves


def geisha_play(
    state: GameState, frame: GeishaAction, move: SendGeishaMove | AdvanceGeishaMove | DoneMove
) -> GameState:
    seat = frame.seat
    if isinstance(move, DoneMove):
        return pop(state)
    if isinstance(move, SendGeishaMove):
        state = with_player(state, seat, pay(state.players[seat], entrance_cost(state)))
        state = place_geisha(state, seat, ENTRANCE)
        return _continue(state, replace(frame, entrance_done=True))
    origin, to = move.origin, move.to
    whisks = next(w for o, t, w in advances(state, seat, free_step=frame.free_step) if (o, t) == (origin, to))
    state = with_player(state, seat, pay(state.players[seat], _whisks(whisks)))
    state = place_geisha(state, seat, to, origin)
    return _continue(state, replace(frame, advance_done=True), arrival(state, seat, to))


def _continue(state: GameState, frame: GeishaAction, *above: Frame) -> GameState:
    """Keep the action open for its other part (unless both are done), with `above` resolved first."""
    below = () if frame.entrance_done and frame.advance_done else (frame,)
    return swap_top(state, *below, *above)


def arrival(state: GameState, seat: int, place: str) -> Frame:
    """What the place where a geisha stopped gives (R-M09..R-M13); the entrance gives nothing."""
    spec = matcha_spec(state)
    if place == spec.platform:
        return pond_menu(state, seat)
    path = [space for space, _ in spec.path]
    if place == path[0]:
        return HimejiCard(seat, "path")
    if place in path:
        return blue_curtains_menu(state, seat, "path_2", free=False)
    room = next(room for room in matcha_board(state).tea_house if room.id == place)
    return tea_house_token(state, seat, room)


def tea_house_token(state: GameState, seat: int, room: TeaHouseRoom) -> Frame:
    """The room's ceremony token, yellow side up, in any order of its icons (R-M13)."""
    icons = matcha_spec(state).faces[room.token] if room.token is not None else ()
    return bundle(seat, f"ceremony:{room.id}", icons)


# --- the Viewing Platform and the pond (R-M10, R-M16, R-M17) -


def lily_icons(state: GameState) -> tuple[Icon, ...]:
    """The rewards of the lily pads lying in the pond (the lily pad symbol, R-M17)."""
    spec, board = matcha_spec(state), matcha_board(state)
    return tuple(icon for pad in board.pond if pad is not None for icon in spec.lily_pads[pad])


def pond_menu(state: GameState, seat: int) -> Menu:
    """The Pond action: the 3 lily pads, or 3 coins for the Viewing Platform's ceremony token (R-M10)."""
    spec, board = matcha_spec(state), matcha_board(state)
    token = spec.faces[board.platform_token] if board.platform_token is not None else ()
    options = (
        Option("lily_pads", (), (Icon(IconKind.LILY),)),
        Option("ceremony", spec.pond_cost, token),
    )
    return Menu(seat, "pond", options, (), 1, False)


def platform_options(state: GameState, seat: int) -> tuple[Option, ...]:
    """At the end of rounds 1 and 2, the Viewing Platform is one more garden of the green bridge: a player with
    a geisha on it may take the Pond action if the green bridge still holds a die (R-M16)."""
    spec, board = matcha_spec(state), matcha_board(state)
    if seat not in board.platform:
        return ()
    if not any(bridge.count() for bridge in state.board.bridges if bridge.colour == "green"):
        return ()
    return (Option(spec.platform, (), (Icon(IconKind.POND),)),)


# --- scoring (R-F08) -


def members_placed(state: GameState, seat: int, member: str) -> int:
    """A seat's members of a kind on the board: gardeners on garden cards, warriors in the yards, courtiers at
    the Gate, in the castle rooms and at the Daimyo (R-F08: courtiers at the Gate count)."""
    board = state.board
    if member == "gardener":
        return sum(slot.gardeners.count(seat) for slot in board.gardens)
    if member == "warrior":
        return sum(yard.warriors.count(seat) for yard in board.yards)
    return (
        board.gate[seat]
        + sum(room.courtiers.count(seat) for room in board.rooms)
        + board.daimyo.spots.count(seat)
        + board.daimyo.extra.count(seat)
    )


def geisha_points(state: GameState, seat: int) -> int:
    """R-F08: Viewing Platform 2, entrance 1, path space 1 2, path space 2 3; in the Tea House each geisha 2
    points per member of its room's kind that the seat has placed on the board."""
    spec, board = matcha_spec(state), matcha_board(state)
    points = board.entrance.count(seat) * spec.entrance_points
    points += board.platform.count(seat) * spec.platform_points
    for (_, value), seats in zip(spec.path, board.path, strict=True):
        points += seats.count(seat) * value
    scores = dict(spec.tea_house)
    for room in board.tea_house:
        count = room.geishas.count(seat)
        if count:
            points += count * spec.points_per_member * members_placed(state, seat, scores[room.id])
    return points
