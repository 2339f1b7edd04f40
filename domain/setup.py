"""Setting up a game (R-S01..R-S12): the initial state and the setup's chance prompts and choices."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from domain.catalog import Catalog, natural
from domain.chance import Draws
from domain.errors import InvalidSetup
from domain.kinds.base import Move
from domain.kinds.setup import ChooseStartMove, RevealMove, StackOrderMove
from domain.matcha import expansion as matcha
from domain.prompts import (
    BeginRound,
    BeginStartChoice,
    CheckCastle,
    ChooseStart,
    DealCard,
    DealDieTile,
    DealWellTile,
    Frame,
    RollBridge,
    Seq,
    StackOrder,
)
from domain.state import (
    BASE_RULES,
    MATCHA_RULES,
    OPTION_VALUES,
    Board,
    Bridge,
    DaimyoRoom,
    Decks,
    GameState,
    GardenSlot,
    Options,
    Player,
    Room,
    Space,
    StartPair,
    Well,
    Yard,
    pop,
    push,
    replace,
    replace_in,
    with_board,
    with_player,
)
from domain.vocabulary import Colour, Mode, Phase

MIN_PLAYERS, MAX_PLAYERS = 1, 4
"""R-S01: 1 to 4 players (one player plays the solo game against the rival: `domain.solo.game`)."""
POOLS = (
    "steward",
    "diplomat",
    "daimyo",
    "plant",
    "stone",
    "yard_tiles",
    "starting_resources",
    "starting_actions",
)
"""The decks and piles a `DealCard` draws from (fields of `domain.state.Decks`)."""


def _sorted(items: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(items, key=natural))


def parse_players(players: int | Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, bool) or not isinstance(players, int | Sequence) or isinstance(players, bytes):
        raise InvalidSetup("players is a number of players or a list of names", rule="R-S01")
    if isinstance(players, str):
        raise InvalidSetup("players is a number of players or a list of names, not one string", rule="R-S01")
    if isinstance(players, int):
        names = tuple(f"Player {i + 1}" for i in range(players))
    else:
        names = tuple(players)
        if not all(isinstance(name, str) and name.strip() for name in names):
            raise InvalidSetup("player names must be non-empty strings", rule="R-S01")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InvalidSetup(
            f"The White Castle is played by 1 to 4 players, not {len(names)}",
            rule="R-S01",
            details={"players": len(names)},
        )
    if len(names) == 1:
        raise InvalidSetup(
            "one player plays the solo game against the rival: give its difficulty, solo='easy', 'medium' or "
            "'hard' (R-SO01)",
            rule="R-S01",
            details={"players": 1},
        )
    return names


def parse_options(options: Mapping[str, Any] | None) -> Options:
    if options is None:
        return Options()
    if not isinstance(options, Mapping):
        raise InvalidSetup("options is a mapping of option names to values")
    unknown = sorted(set(options) - set(OPTION_VALUES))
    if unknown:
        raise InvalidSetup(f"unknown setup options {unknown}", details={"known": sorted(OPTION_VALUES)})
    for name, value in options.items():
        allowed = OPTION_VALUES[name]
        if not any(value == choice and type(value) is type(choice) for choice in allowed):
            raise InvalidSetup(
                f"option {name} is one of {list(allowed)}, not {value!r}", details={"option": name}
            )
    return Options(**dict(options))


def initial_state(
    names: tuple[str, ...],
    *,
    mode: Mode,
    seed: int | None,
    options: Options,
    catalog: Catalog,
    rules_version: str,
    expansions: tuple[str, ...] = (),
) -> GameState:
    """The boxes opened: an empty board, full decks (minus ♦ cards at 2 players, R-S02), clans at home
    (R-S10; with Matcha 5 geishas and the whisk cube at 0), and the setup frames on the stack."""
    count = len(names)
    with_matcha = matcha.MATCHA in expansions
    rules = MATCHA_RULES if with_matcha else BASE_RULES
    two_players = count <= 2

    def keep(card: str) -> bool:
        return not (two_players and catalog.cards[card].diamond)

    gardens = catalog.gardens
    decks = Decks(
        steward=_sorted([c for c in catalog.stewards if keep(c)]),
        diplomat=_sorted([c for c in catalog.diplomats if keep(c)]),
        daimyo=_sorted(list(catalog.daimyo)),
        plant=_sorted([g for g in gardens if gardens[g].type == "plant"]),
        stone=_sorted([g for g in gardens if gardens[g].type == "stone"]),
        yard_tiles=_sorted(list(catalog.yard_tiles)),
        starting_resources=_sorted(list(catalog.starting_resources)),
        starting_actions=_sorted(
            [a for a, copies in catalog.starting_actions.items() for _ in range(copies)]
        ),
        die_tiles=tuple(sorted(tile.colour.value for tile in catalog.die_tiles.values())),
    )
    board = Board(
        bridges=tuple(Bridge(colour, None, (), None) for colour in rules.colours),
        rooms=tuple(Room(spec.id, (None,) * spec.tiles, None, (), ()) for spec in catalog.rooms),
        daimyo=DaimyoRoom(None, (), ()),
        gate=(0,) * count,
        outside=tuple(Space(spec.id, ()) for spec in catalog.outside),
        well=Well((), ()),
        yards=tuple(Yard(spec.id, None, None, ()) for spec in catalog.yards),
        gardens=tuple(
            GardenSlot(f"{colour.value}_{kind}", colour, kind, None, ())
            for colour in rules.colours
            if isinstance(colour, Colour)  # the green bridge has the Viewing Platform instead (R-M16)
            for kind in ("plant", "stone")
        ),
        decks=decks,
        offer=(StartPair(None, None),) * (count + 1),
        stamp=0,
        matcha=matcha.initial_board(catalog, count) if with_matcha else None,
    )
    geishas = 5 if with_matcha else 0
    players = tuple(
        Player(name, 0, 0, 0, 0, 0, 0, 0, 0, 5, 5, 5, None, (), (None,) * len(catalog.rows), geishas=geishas)
        for name in names
    )
    state = GameState(
        rules_version=rules_version,
        mode=mode,
        seed=seed,
        chance=0,
        options=options,
        rules=rules,
        catalog=catalog,
        players=players,
        board=board,
        round=1,
        phase=Phase.SETUP,
        turn_order=tuple(range(count)),
        turn_index=0,
        held=None,
        stack=(),
    )
    frames: list[Frame] = []
    if options.first_game:
        state = _first_game_layout(state)
    else:
        frames += [DealCard(_pool_of_room(catalog, room.id), room.id) for room in board.rooms]
        frames += [CheckCastle()]
    frames += [DealCard("daimyo", "daimyo")]
    if not options.first_game:
        frames += [DealDieTile(), DealWellTile()]
    for slot in board.gardens:
        frames += [DealCard(slot.type, slot.id)]
    preset = matcha.first_game_yard(state) if with_matcha and options.first_game else None
    if preset is not None:
        state = _preset_yard_tile(state, *preset)
    for spec in catalog.yards:
        frames += [
            DealCard("yard_tiles", f"{spec.id}:{face}")
            for face in spec.faces
            if preset is None or preset[0] != f"{spec.id}:{face}"
        ]
    frames += [RollBridge(colour) for colour in rules.colours]
    if with_matcha:
        frames += matcha.setup_frames(state)
    frames += [StackOrder()]
    for i in range(count + 1):
        frames += [DealCard("starting_resources", f"offer_{i}:resource")]
        frames += [DealCard("starting_actions", f"offer_{i}:action")]
        if with_matcha:
            frames += [matcha.offer_frame(i)]
    frames += [BeginStartChoice(), BeginRound()]
    return replace(state, stack=tuple(reversed(frames)))


def _preset_yard_tile(state: GameState, target: str, tile: str) -> GameState:
    """Matcha's first game: the rulebook's tile lies on the lower yard (R-M01)."""
    if tile not in state.board.decks.yard_tiles or ":" not in target:
        raise InvalidSetup(
            f"the first-game yard tile {tile} for {target} is not among the yard tiles", rule="R-M01"
        )
    frame = DealCard("yard_tiles", target)
    return place_card(push(state, frame), frame, tile)


def _pool_of_room(catalog: Catalog, room_id: str) -> str:
    return catalog.room(room_id).floor.value


def _first_game_layout(state: GameState) -> GameState:
    """The rulebook's first-game castle cards, die tiles and Well tiles (FR, steps 2 and 4)."""
    layout = state.catalog.first_game
    board = state.board
    decks = board.decks
    stewards, diplomats, bag = list(decks.steward), list(decks.diplomat), list(decks.die_tiles)
    rooms = []
    try:
        for room in board.rooms:
            card = layout["rooms"][room.id]
            pile = stewards if _pool_of_room(state.catalog, room.id) == "steward" else diplomats
            if card not in pile:
                raise InvalidSetup(
                    f"the first-game card {card} for {room.id} is not in the deck "
                    "(♦ cards leave at 2 players)",
                    rule="R-S02",
                )
            pile.remove(card)
            tiles = tuple(Colour(colour) for colour in layout["die_tiles"][room.id])
            if len(tiles) != len(room.tiles) or len(set(tiles)) < 2:
                raise InvalidSetup(f"the first-game tiles of {room.id} break R-S05", rule="R-S05")
            for colour in tiles:
                bag.remove(colour.value)
            rooms.append(replace(room, card=card, tiles=tiles))
        well_tiles = tuple(layout["well_tiles"])
        for tile in well_tiles:
            bag.remove(state.catalog.die_tiles[tile].colour.value)
    except (KeyError, ValueError, TypeError) as error:
        raise InvalidSetup(f"the catalog's first_game layout does not fit this game: {error}") from None
    if bag or len(well_tiles) != state.catalog.well_tiles:
        raise InvalidSetup("the first_game layout must use every die tile exactly once", rule="R-S05")
    decks = replace(decks, steward=tuple(stewards), diplomat=tuple(diplomats), die_tiles=())
    return with_board(state, rooms=tuple(rooms), well=Well((), well_tiles), decks=decks)


# --- dealing a card or tile from a pool (chance) -


def pool(state: GameState, name: str) -> tuple[str, ...]:
    if name in matcha.POOLS:
        return matcha.pool(state, name)
    cards: tuple[str, ...] = getattr(state.board.decks, name)
    return cards


def deal_outcomes(state: GameState, frame: DealCard) -> list[str]:
    if frame.pool in matcha.POOLS:
        return matcha.deal_outcomes(state, frame)
    return sorted(set(pool(state, frame.pool)), key=natural)


def deal_waiting(state: GameState, frame: DealCard) -> bool:
    return len(deal_outcomes(state, frame)) > 1


def deal_auto(state: GameState, frame: DealCard) -> GameState:
    outcomes = deal_outcomes(state, frame)
    return place_card(state, frame, outcomes[0]) if outcomes else pop(state)


def deal_moves(state: GameState, frame: DealCard) -> list[Move]:
    return [RevealMove(frame.pool, card) for card in deal_outcomes(state, frame)]


def deal_draw(state: GameState, frame: DealCard, rng: Draws) -> RevealMove:
    """Each physical card equally likely (two copies of a starting action are twice as likely)."""
    if frame.pool in matcha.POOLS:
        return matcha.deal_draw(state, frame, rng)
    return RevealMove(frame.pool, rng.choice(pool(state, frame.pool)))


def deal_play(state: GameState, frame: DealCard, move: RevealMove) -> GameState:
    return place_card(state, frame, move.card)


def place_card(state: GameState, frame: DealCard, card: str) -> GameState:
    """Take `card` out of its pool and put it where the frame says."""
    if frame.pool in matcha.POOLS:
        return matcha.place_card(state, frame, card)
    board = state.board
    cards = list(pool(state, frame.pool))
    cards.remove(card)
    board = replace(board, decks=replace(board.decks, **{frame.pool: tuple(cards)}))
    target = frame.target
    if target == "daimyo":
        spots = (None,) * len(state.catalog.daimyo[card])
        board = replace(board, daimyo=replace(board.daimyo, card=card, spots=spots))
    elif target.startswith("offer_"):
        slot, _, side = target.partition(":")
        index = int(slot.removeprefix("offer_"))
        pair = board.offer[index]
        pair = replace(pair, resource=card) if side == "resource" else replace(pair, action=card)
        board = replace(board, offer=replace_in(board.offer, index, pair))
    elif ":" in target:
        yard_id, _, face = target.partition(":")
        index = next(i for i, yard in enumerate(board.yards) if yard.id == yard_id)
        yard = board.yards[index]
        yard = replace(yard, blue=card) if face == "blue" else replace(yard, yellow=card)
        board = replace(board, yards=replace_in(board.yards, index, yard))
    else:
        rooms = [i for i, room in enumerate(board.rooms) if room.id == target]
        if rooms:
            board = replace(
                board, rooms=replace_in(board.rooms, rooms[0], replace(board.rooms[rooms[0]], card=card))
            )
        else:
            index = next(i for i, slot in enumerate(board.gardens) if slot.id == target)
            board = replace(
                board, gardens=replace_in(board.gardens, index, replace(board.gardens[index], card=card))
            )
    return replace(state, board=board, stack=state.stack[:-1])


# --- the stack of influence markers (R-S11) -


def stack_moves(state: GameState, frame: StackOrder) -> list[Move]:
    return [StackOrderMove(order) for order in itertools.permutations(range(len(state.players)))]


def stack_draw(state: GameState, frame: StackOrder, rng: Draws) -> StackOrderMove:
    order = list(range(len(state.players)))
    rng.shuffle(order)
    return StackOrderMove(tuple(order))


def stack_waiting(state: GameState, frame: StackOrder) -> bool:
    return True


def stack_play(state: GameState, frame: StackOrder, move: StackOrderMove) -> GameState:
    """The top of the stack plays first; stamps make the top marker the highest (R-S11, R-PT03)."""
    order = move.order
    count = len(order)
    players = list(state.players)
    for rank, seat in enumerate(order):
        players[seat] = replace(players[seat], pot_stamp=count - rank)
    state = replace(state, players=tuple(players), turn_order=order)
    return pop(with_board(state, stamp=count))


# --- starting pairs (R-S12) -


def begin_start_choice_auto(state: GameState, frame: BeginStartChoice) -> GameState:
    """Players choose in reverse turn order: the last player on the track chooses first."""
    return push(pop(state), *(ChooseStart(seat) for seat in state.turn_order))


def choose_start_moves(state: GameState, frame: ChooseStart) -> list[Move]:
    return [
        ChooseStartMove(frame.seat, pair.resource) for pair in state.board.offer if pair.resource is not None
    ]


def choose_start_play(state: GameState, frame: ChooseStart, move: ChooseStartMove) -> GameState:
    """The Action card to the Domain, the resource card (and its Decree) to the Lantern Area, gain its
    items."""
    seat = frame.seat
    board = state.board
    index = next(i for i, pair in enumerate(board.offer) if pair.resource == move.resource)
    pair = board.offer[index]
    assert pair.resource is not None
    card = state.catalog.starting_resources[pair.resource]
    lantern = (card.id,) if card.decree is None else (card.id, card.decree)
    player = replace(state.players[seat], action_card=pair.action, lantern=lantern)
    if pair.token is not None:  # Matcha: the ceremony token under the pair goes to the clan board (R-M01)
        player = replace(player, ceremony=pair.token)
    state = with_player(state, seat, player)
    state = with_board(state, offer=replace_in(board.offer, index, StartPair(None, None)))
    return push(pop(state), Seq(seat, card.gain))
