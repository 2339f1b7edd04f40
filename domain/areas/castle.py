"""The castle: rooms, die tiles, cards and their blocks, a courtier's arrival in a room (R-C, R-CA03, R-S03, R-S05)."""

from __future__ import annotations

import functools
import itertools

from domain.catalog import Block, Card
from domain.chance import Draws
from domain.errors import DomainError, IllegalMove, InvalidMove
from domain.kinds.base import Move
from domain.kinds.setup import DieTileMove
from domain.prompts import Arrive, CheckCastle, DealCard, DealDieTile, Menu, Option
from domain.state import GameState, Room, pop, push, replace, replace_in, room_index, with_board, with_player
from domain.vocabulary import Colour, Floor, Icon


def card_of(state: GameState, room: Room) -> Card | None:
    return state.catalog.cards[room.card] if room.card is not None else None


def block_option(block: Block, prefix: str = "") -> Option:
    return Option(f"{prefix}{block.id}", block.cost, block.icons)


def room_menu(state: GameState, seat: int, room_id: str, colour: Colour) -> Menu:
    """The blocks facing the room's tiles of the die's colour, each optional, any order (R-C03, R-P07)."""
    room = state.board.rooms[room_index(state, room_id)]
    card = card_of(state, room)
    options: list[Option] = []
    if card is not None:
        options = [block_option(card.blocks[pos]) for pos, tile in enumerate(room.tiles) if tile == colour]
    return Menu(seat, f"castle:{room_id}", tuple(options), (), len(options), False)


def light_menu(state: GameState, seat: int) -> Menu:
    """One light-background block of any card in a castle room (the light-background icon)."""
    options: list[Option] = []
    for room in state.board.rooms:
        card = card_of(state, room)
        if card is not None:
            options.extend(block_option(block, f"{room.id}:") for block in card.blocks if not block.dark)
    return Menu(seat, "light", tuple(options), (), 1, False)


def tile_menu(state: GameState, seat: int, colour: str) -> Menu:
    """One block facing a castle die tile of `colour` (or of any colour) (R-C05)."""
    options = []
    for room in state.board.rooms:
        card = card_of(state, room)
        if card is None:
            continue
        for pos, tile in enumerate(room.tiles):
            if tile is not None and colour in ("any", tile):
                options.append(block_option(card.blocks[pos], f"{room.id}:"))
    return Menu(seat, f"tile:{colour}", tuple(options), (), 1, False)


# --- a courtier arrives on floor 1 or 2 (R-CA03) -


def deck_of(state: GameState, room_id: str) -> tuple[str, tuple[str, ...]]:
    """The deck (name, cards) that refills a room."""
    floor = state.catalog.room(room_id).floor
    decks = state.board.decks
    return ("steward", decks.steward) if floor is Floor.STEWARD else ("diplomat", decks.diplomat)


def arrive_auto(state: GameState, frame: Arrive) -> GameState:
    """Swap Action cards, perform one light block of the new card, refill the room; with an empty deck the
    card stays in the room and only its light block is performed (R-CA03)."""
    seat, room_id = frame.seat, frame.room
    state = pop(state)
    index = room_index(state, room_id)
    room = state.board.rooms[index]
    card = card_of(state, room)
    if card is None:  # pragma: no cover - a room is refilled before any later arrival
        return state
    light = Menu(
        seat,
        f"arrival:{room_id}",
        tuple(block_option(block) for block in card.blocks if not block.dark),
        (),
        1,
        False,
    )
    deck, cards = deck_of(state, room_id)
    if not cards:
        return push(state, light)
    player = state.players[seat]
    lantern = player.lantern if player.action_card is None else (*player.lantern, player.action_card)
    state = with_player(state, seat, replace(player, action_card=card.id, lantern=lantern))
    state = with_board(state, rooms=replace_in(state.board.rooms, index, replace(room, card=None)))
    return push(state, DealCard(deck, room_id), light)


# --- setup: castle cards (R-S03) and die tiles (R-S05) -


def dark_action(card: Card) -> tuple[Icon, ...]:
    """A castle card's dark-background action, its icons."""
    return tuple(icon for block in card.blocks if block.dark for icon in block.icons)


def dark_actions(state: GameState) -> list[tuple[Icon, ...]]:
    """The dark-background action of each castle card dealt."""
    return [dark_action(card) for room in state.board.rooms if (card := card_of(state, room)) is not None]


def dealt_again_by(state: GameState, card_id: str) -> bool:
    """Whether revealing ``card_id`` for the castle's last empty room makes it dealt again (R-S03): its five
    cards would then show one dark-background action (the rule `check_castle_auto` applies)."""
    card = state.catalog.cards.get(card_id)
    if card is None:
        return False
    actions = [*dark_actions(state), dark_action(card)]
    return len(actions) == len(state.board.rooms) and len(set(actions)) == 1


def check_castle_auto(state: GameState, frame: CheckCastle) -> GameState:
    """If every castle card shows the same dark-background action, return them, reshuffle, redeal (R-S03)."""
    state = pop(state)
    actions = dark_actions(state)
    if len(set(actions)) > 1:
        return state
    decks = state.board.decks
    stewards, diplomats = list(decks.steward), list(decks.diplomat)
    deals = []
    for room in state.board.rooms:
        if room.card is None:  # pragma: no cover - the deal filled every room
            continue
        if state.catalog.room(room.id).floor is Floor.STEWARD:
            stewards.append(room.card)
            deals.append(DealCard("steward", room.id))
        else:
            diplomats.append(room.card)
            deals.append(DealCard("diplomat", room.id))
    rooms = tuple(replace(room, card=None) for room in state.board.rooms)
    state = with_board(
        state,
        rooms=rooms,
        decks=replace(decks, steward=tuple(sorted(stewards)), diplomat=tuple(sorted(diplomats))),
    )
    return push(state, CheckCastle(frame.redeals + 1), *reversed(deals))


Layout = tuple[tuple[Colour | None, ...], ...]
"""The castle's die tiles, room by room in board order, None where a space is still free."""
Order = tuple[tuple[int, int, bool], ...]
"""Every die-tile space in filling order: (room index, tile position, is a ♦ space) (R-S05)."""

ONE_TILE_AHEAD = frozenset({"0.1.0"})
"""Rules versions (`GameState.rules_version`) whose die-tile deal looked one tile ahead only: a tile went where
it kept its room two colours, but nothing saw that the tiles left could no longer finish the castle so, and
33 seeds of 10,000 ended with a one-colour room (seed 94 first: diplomat room 2 all white). A game recorded
under one of them keeps its deal wherever it is checked or drawn again (an imported log's seed); every later
version deals under decision C.9 (`die_tile_outcomes`)."""


def _order(state: GameState) -> Order:
    catalog = state.catalog
    return _order_of(
        tuple(room.id for room in state.board.rooms), catalog.diamond_spaces, catalog.numbered_spaces
    )


@functools.lru_cache(maxsize=16)
def _order_of(
    rooms: tuple[str, ...], diamonds: tuple[tuple[str, int], ...], numbered: tuple[tuple[str, int], ...]
) -> Order:
    """`_order` of one castle geometry (a game's catalog), computed once: the deal asks for it at every tile."""
    index = {room: i for i, room in enumerate(rooms)}
    return (*((index[r], p, True) for r, p in diamonds), *((index[r], p, False) for r, p in numbered))


def _layout(state: GameState) -> Layout:
    return tuple(room.tiles for room in state.board.rooms)


def tile_spaces(state: GameState) -> list[tuple[int, int, bool]]:
    """Free die-tile spaces in filling order: (room index, tile position, is a diamond space) (R-S05)."""
    layout = _layout(state)
    return [(r, p, d) for r, p, d in _order(state) if layout[r][p] is None]


def _fits(tiles: tuple[Colour | None, ...], position: int, colour: Colour) -> bool:
    """False if the tile would be the last of its room and leave the room one colour only (R-S05)."""
    tiles = replace_in(tiles, position, colour)
    return None in tiles or len(set(tiles)) > 1


def _target(layout: Layout, order: Order, colour: Colour) -> tuple[int, int] | None:
    """Where R-S05 lays a tile of `colour`: the next ♦ space while one is free, else the first free numbered
    space it fits (a last tile that would leave its room one colour goes on to the next space); None when no
    space takes it (or the castle is full)."""
    free = [(r, p, d) for r, p, d in order if layout[r][p] is None]
    if not free:
        return None
    if free[0][2]:  # the diamond spaces come first, one tile of each colour (R-S05)
        return free[0][0], free[0][1]
    for r, p, _ in free:
        if _fits(layout[r], p, colour):
            return r, p
    return None


def _space_for(state: GameState, colour: Colour) -> tuple[int, int] | None:
    return _target(_layout(state), _order(state), colour)


def _fitting(layout: Layout, order: Order, bag: tuple[str, ...]) -> list[str]:
    """The colours of the bag the next tile may show and be laid by R-S05: while a ♦ space is free, one not on
    the ♦ spaces yet; then one that some free space takes (`_target`). Sorted; empty when the castle is full."""
    free = [(r, p, d) for r, p, d in order if layout[r][p] is None]
    if not free:
        return []
    colours = sorted(set(bag))
    if free[0][2]:
        on_diamonds = {layout[r][p] for r, p, d in order if d}
        return [colour for colour in colours if colour not in on_diamonds]
    return [colour for colour in colours if _target(layout, order, Colour(colour)) is not None]


def _can_finish(layout: Layout, order: Order, bag: tuple[str, ...]) -> bool:
    """Whether some order of drawing the tiles of `bag` fills every free space of the castle by R-S05 with every
    room two colours or more (decision C.9).

    That is whether the bag holds such a completion (one colour on each ♦ space): drawn space by space, each
    of its tiles fits the first free space, as R-S05 moves a tile on only when it would leave its room one
    colour. So each room not yet two colours needs one tile of another colour than its own (two tiles of
    different colours when it has none yet), the bag must cover those needs together, and fill the rest."""
    spaces = [0] * len(layout)  # each room's free numbered spaces
    diamonds: list[int] = []  # the rooms of the free ♦ spaces
    on_diamonds = set()
    for r, p, diamond in order:
        tile = layout[r][p]
        if tile is not None:
            if diamond:
                on_diamonds.add(tile.value)
        elif diamond:
            diamonds.append(r)
        else:
            spaces[r] += 1
    if len(bag) < sum(spaces) + len(diamonds):
        return False
    counts = {colour: bag.count(colour) for colour in set(bag)}
    open_colours = sorted(colour for colour in counts if colour not in on_diamonds)
    for faces in itertools.permutations(open_colours, len(diamonds)):
        placed = [{tile.value for tile in tiles if tile is not None} for tiles in layout]
        left = dict(counts)
        for r, colour in zip(diamonds, faces, strict=True):
            placed[r].add(colour)
            left[colour] -= 1
        needs: list[str | None] = []  # a colour: one tile of another; None: two tiles of different colours
        for r, colours in enumerate(placed):
            if len(colours) > 1:
                continue
            if spaces[r] == 0 or (not colours and spaces[r] < 2):
                break
            needs.append(next(iter(colours)) if colours else None)
        else:
            if _covers(needs, left):
                return True
    return False


def _covers(needs: list[str | None], left: dict[str, int]) -> bool:
    """Whether the tiles `left` (colour: count) meet every room's need of `_can_finish`, a tile for one only."""
    if not needs:
        return True
    need, rest = needs[0], needs[1:]
    colours = sorted(colour for colour, count in left.items() if count > 0)
    picks = itertools.combinations(colours, 2) if need is None else ((c,) for c in colours if c != need)
    for pick in picks:
        for colour in pick:
            left[colour] -= 1
        met = _covers(rest, left)
        for colour in pick:
            left[colour] += 1
        if met:
            return True
    return False


def _one_tile_ahead(state: GameState) -> list[str]:
    """The colours the next castle tile can show by R-S05 alone (the deal of `ONE_TILE_AHEAD`): in the bag, one
    of each on the ♦ spaces, and placeable without leaving a room one colour only. If nothing fits (every tile
    left would make the last room one colour), the rule cannot be kept there: any tile."""
    free = tile_spaces(state)
    if not free:
        return []
    bag = state.board.decks.die_tiles
    fitting = _fitting(_layout(state), _order(state), bag)
    return fitting if free[0][2] else fitting or sorted(set(bag))


def _leaves_a_way(state: GameState, colour: str) -> bool:
    """Whether the castle can still be finished with two colours in every room once a tile of `colour` is laid
    (decision C.9)."""
    layout, order = _layout(state), _order(state)
    target = _target(layout, order, Colour(colour))
    if target is None:
        return False
    r, p = target
    rest = list(state.board.decks.die_tiles)
    rest.remove(colour)
    return _can_finish(replace_in(layout, r, replace_in(layout[r], p, Colour(colour))), order, tuple(rest))


def die_tile_outcomes(state: GameState) -> list[str]:
    """Colours the next castle tile can show (R-S05), and under decision C.9 only those that leave a way to
    finish the castle with two colours in every room: a tile that would not goes back into the bag and another
    is drawn (`die_tile_draw`; in table mode the recorder is told so, `explain_die_tile`). From the setup's
    start the castle can always be finished so, and each tile keeps it so; a castle that cannot be (a game of an
    earlier rules version, or a catalog whose bag cannot fill it) deals as R-S05 alone does."""
    ahead = _one_tile_ahead(state)
    if state.rules_version in ONE_TILE_AHEAD:
        return ahead
    return [colour for colour in ahead if _leaves_a_way(state, colour)] or ahead


def die_tile_waiting(state: GameState, frame: DealDieTile) -> bool:
    """A tile is asked (and drawn) whenever R-S05 alone leaves a choice of colours, even when decision C.9
    leaves one: the seeded draws, and so every deal that was never one colour, stay as they were dealt."""
    return len(_one_tile_ahead(state)) > 1


def die_tile_auto(state: GameState, frame: DealDieTile) -> GameState:
    outcomes = _one_tile_ahead(state)
    if not outcomes:
        return pop(state)
    return place_die_tile(state, Colour(outcomes[0]))


def die_tile_moves(state: GameState, frame: DealDieTile) -> list[Move]:
    return [DieTileMove(colour) for colour in die_tile_outcomes(state)]


def die_tile_valid(state: GameState, frame: DealDieTile, move: DieTileMove) -> bool:
    """Whether the move is among `die_tile_moves`, asking about its own colour first (a recorded deal is checked
    tile by tile)."""
    colour = move.colour
    ahead = _one_tile_ahead(state)
    if colour not in ahead:
        return False
    if state.rules_version in ONE_TILE_AHEAD or _leaves_a_way(state, colour):
        return True
    return not any(_leaves_a_way(state, other) for other in ahead)  # no way out: R-S05 alone


def die_tile_draw(state: GameState, frame: DealDieTile, rng: Draws) -> DieTileMove:
    """Draw a tile from the bag (each tile equally likely) among the colours R-S05 can place; a tile that would
    leave no way to finish the castle with two colours in every room goes back and another is drawn (decision
    C.9). The first draw is the one `ONE_TILE_AHEAD` made: a deal that never needed a redraw is unchanged."""
    allowed = set(_one_tile_ahead(state))
    bag = [colour for colour in state.board.decks.die_tiles if colour in allowed]
    colour = rng.choice(bag)
    if state.rules_version in ONE_TILE_AHEAD or _leaves_a_way(state, colour):
        return DieTileMove(colour)
    finishing = set(die_tile_outcomes(state))
    while colour not in finishing:
        colour = rng.choice(bag)
    return DieTileMove(colour)


def _tiles_text(bag: tuple[str, ...]) -> str:
    counts = [(bag.count(colour.value), colour.value) for colour in Colour if colour.value in bag]
    return ", ".join(f"{count} {colour}" for count, colour in counts) or "no tile"


def explain_die_tile(state: GameState, frame: DealDieTile, move: DieTileMove) -> DomainError:
    """Why a die tile's colour is refused (R-S05; decision C.9 for a tile that would leave no way to finish)."""
    colour = move.colour
    colours = [c.value for c in Colour]
    if colour not in colours:
        return InvalidMove(
            f"die tiles are {', '.join(colours)}, not {colour!r}", details={"colours": colours}
        )
    bag = state.board.decks.die_tiles
    details = {"colour": colour, "allowed": die_tile_outcomes(state)}
    if colour not in bag:
        return IllegalMove(
            f"no {colour} die tile is left in the bag (it holds {_tiles_text(bag)})",
            rule="R-S05",
            details=details,
        )
    free = tile_spaces(state)
    if free and free[0][2]:
        return IllegalMove(
            f"the 3 ♦ spaces hold one die tile of each colour, and a {colour} one lies on one already",
            rule="R-S05",
            details=details,
        )
    if colour not in _one_tile_ahead(state):
        return IllegalMove(
            f"a {colour} die tile would leave its room one colour on every free space of the castle",
            rule="R-S05",
            details=details,
        )
    rest = list(bag)
    rest.remove(colour)
    return IllegalMove(
        f"a {colour} die tile now would leave no way to finish the castle with two colours in every room (the "
        f"bag would then hold {_tiles_text(tuple(rest))} for the {len(free) - 1} castle space"
        f"{'s' * (len(free) != 2)} left): put it back into the bag and draw another (decision C.9)",
        rule="R-S05",
        details=details,
    )


def die_tile_play(state: GameState, frame: DealDieTile, move: DieTileMove) -> GameState:
    return place_die_tile(state, Colour(move.colour))


def die_tile_space(state: GameState, colour: Colour | None = None) -> tuple[str, int] | None:
    """Where the next die tile goes, as (room id, tile position): the first free space a tile of `colour`
    fits; with no colour (still to be drawn), the next free space in the filling order (R-S05). None when the
    castle is full."""
    target = _tile_target(state, colour)
    return None if target is None else (state.board.rooms[target[0]].id, target[1])


def _tile_target(state: GameState, colour: Colour | None) -> tuple[int, int] | None:
    """`die_tile_space` as (room index, tile position)."""
    free = tile_spaces(state)
    if not free:
        return None
    target = _space_for(state, colour) if colour is not None else None
    if target is None:  # no space keeps the two-colour rule (or no colour yet): the first free space
        target = (free[0][0], free[0][1])
    return target


def place_die_tile(state: GameState, colour: Colour) -> GameState:
    """Lay a tile die side up on the first free space it fits (R-S05)."""
    target = _tile_target(state, colour)
    assert target is not None  # a tile is drawn only while a space is free (die_tile_outcomes)
    r, p = target
    board = state.board
    room = board.rooms[r]
    bag = list(board.decks.die_tiles)
    bag.remove(colour)
    return with_board(
        state,
        rooms=replace_in(board.rooms, r, replace(room, tiles=replace_in(room.tiles, p, colour))),
        decks=replace(board.decks, die_tiles=tuple(bag)),
    )
