"""The Matcha expansion: what it adds to the setup, the dice spaces and the effect vocabulary (R-M01..R-M19).

Matcha is data and effects on the base engine: the shared modules call in here through small hooks, each behind a
test of `state.board.matcha is not None` (the board has a Matcha part only in a game with the expansion).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.catalog import HIMEJI_DECKS, Catalog, natural
from domain.chance import Draws
from domain.errors import InvalidSetup
from domain.kinds.setup import RevealMove
from domain.matcha.ceremony import dark_menu, light_menu, own_token, stone_menu, yard_blue_menu, yard_yellow
from domain.matcha.himeji import (
    blue_curtains_menu,
    both_yellow_curtains,
    deck,
    space_menu,
    yellow_curtain_menu,
)
from domain.matcha.tea_garden import lily_icons, pond_menu
from domain.prompts import Climb, DealCard, Frame, GeishaAction, HimejiCard, Menu, Option, bundle
from domain.state import (
    Board,
    Die,
    GameState,
    HimejiDeck,
    MatchaBoard,
    Space,
    StartPair,
    TeaHouseRoom,
    matcha_board,
    matcha_spec,
    pop,
    replace,
    replace_in,
    with_board,
)
from domain.vocabulary import Icon, IconKind, parse_icon

MATCHA = "matcha"
EXPANSIONS = (MATCHA,)
"""The expansions this engine plays."""
POOLS = frozenset({"lily_pads", "ikebana", "calligraphy", "ceremony"})
"""The piles Matcha's chance prompts draw from (`DealCard.pool`)."""
ICONS = frozenset(
    {
        IconKind.GEISHA,
        IconKind.SLASH,
        IconKind.LILY,
        IconKind.POND,
        IconKind.DARK,
        IconKind.CURTAIN,
        IconKind.YARD,
        IconKind.STONE,
        IconKind.ADVANCE,
        IconKind.CLIMB,
        IconKind.TOKEN,
    }
)
"""The Matcha symbols (R-M17, R-M18); a light-background icon for 2 cards (CT6) comes here too."""


def parse_expansions(expansions: Sequence[str] | None) -> tuple[str, ...]:
    """The expansions of a new game, checked (InvalidSetup for anything unknown or repeated)."""
    if expansions is None:
        return ()
    if isinstance(expansions, str) or not isinstance(expansions, Sequence):
        raise InvalidSetup('expansions is a list of expansion names, such as ["matcha"]')
    names = tuple(expansions)
    unknown = [name for name in names if name not in EXPANSIONS]
    if unknown or len(set(names)) != len(names):
        raise InvalidSetup(
            f"unknown or repeated expansions {list(names)}", details={"known": list(EXPANSIONS)}
        )
    return names


# --- setup (R-M01, R-S12) -


def initial_board(catalog: Catalog, players: int) -> MatchaBoard:
    """The expansion board before its deals: empty spaces, full piles (without the ♦ Himeji cards at 2
    players, R-S02)."""
    spec = catalog.matcha
    if spec is None:
        raise InvalidSetup("the catalog has no Matcha section: load it with expansions=('matcha',)")
    needed = len(spec.tea_house) + 1 + players + 1
    if len(spec.tokens) < needed:
        raise InvalidSetup(
            f"{players} players need {needed} ceremony tokens (Tea House, Viewing Platform, one per starting "
            f"pair); the catalog has {len(spec.tokens)}",
            rule="R-M01",
        )
    two_players = players <= 2
    decks = tuple(
        HimejiDeck(
            name,
            None,
            tuple(sorted(c for c in spec.deck(name) if not (two_players and spec.curtains[c].diamond))),
        )
        for name in HIMEJI_DECKS
    )
    if any(not d.rest for d in decks):
        raise InvalidSetup("each Himeji deck needs at least one card", rule="R-M01")
    return MatchaBoard(
        tea_room=tuple(Space(s.id, ()) for s in spec.tea_room),
        himeji=tuple(Space(s.id, ()) for s in spec.himeji),
        decks=decks,
        pond=(None,) * spec.pond_spaces,
        entrance=(),
        path=((),) * len(spec.path),
        platform=(),
        platform_token=None,
        tea_house=tuple(TeaHouseRoom(room, None, ()) for room, _ in spec.tea_house),
        lily_pads=tuple(sorted(spec.lily_pads)),
        tokens=tuple(sorted(spec.tokens)),
    )


def setup_frames(state: GameState) -> list[Frame]:
    """The expansion board's deals, in the rulebook's order (R-M01): 3 lily pads, the top card of each Himeji
    deck, a ceremony token yellow side up in each Tea House room, one blue side up at the Viewing Platform."""
    spec, board = matcha_spec(state), matcha_board(state)
    frames: list[Frame] = [DealCard("lily_pads", f"pond_{i + 1}") for i in range(len(board.pond))]
    frames += [DealCard(name, f"himeji:{name}") for name in HIMEJI_DECKS]
    frames += [DealCard("ceremony", room.id) for room in board.tea_house]
    frames += [DealCard("ceremony", spec.platform)]
    return frames


def offer_frame(index: int) -> DealCard:
    """The ceremony token, blue side up, under starting pair `index` (R-S12, R-M01)."""
    return DealCard("ceremony", f"offer_{index}:token")


def first_game_yard(state: GameState) -> tuple[str, str] | None:
    """(yard target, tile) of the first-game Matcha tile on the lower yard (R-M01), if the catalog names one."""
    return matcha_spec(state).first_game_yard


# --- Matcha's chance prompts (R-M01, R-M11) -


def _side(state: GameState, target: str) -> str:
    """Ceremony tokens lie yellow side up in the Tea House, blue side up elsewhere (R-M01)."""
    return "yellow" if target in {room.id for room in matcha_board(state).tea_house} else "blue"


def pool(state: GameState, name: str) -> tuple[str, ...]:
    board = matcha_board(state)
    if name == "lily_pads":
        return board.lily_pads
    if name == "ceremony":
        return board.tokens
    return deck(state, name).rest


def deal_outcomes(state: GameState, frame: DealCard) -> list[str]:
    """What may be revealed: a lily pad or a Himeji card left in its pile, or the face shown by a ceremony token
    still in the box (its yellow face in the Tea House, its blue face elsewhere)."""
    items = pool(state, frame.pool)
    if frame.pool == "ceremony":
        side = 0 if _side(state, frame.target) == "blue" else 1
        tokens = matcha_spec(state).tokens
        items = tuple(tokens[token][side] for token in items)
    return sorted(set(items), key=natural)


def deal_draw(state: GameState, frame: DealCard, rng: Draws) -> RevealMove:
    """Each token, lily pad or card left equally likely."""
    item = rng.choice(pool(state, frame.pool))
    if frame.pool == "ceremony":
        item = matcha_spec(state).tokens[item][0 if _side(state, frame.target) == "blue" else 1]
    return RevealMove(frame.pool, item)


def place_card(state: GameState, frame: DealCard, card: str) -> GameState:
    """Take the item out of its pile and put it where the frame says."""
    board = matcha_board(state)
    target = frame.target
    if frame.pool == "lily_pads":
        pads = list(board.lily_pads)
        pads.remove(card)
        index = int(target.removeprefix("pond_")) - 1
        board = replace(board, lily_pads=tuple(pads), pond=replace_in(board.pond, index, card))
        return pop(with_board(state, matcha=board))
    if frame.pool in HIMEJI_DECKS:
        index = next(i for i, d in enumerate(board.decks) if d.id == frame.pool)
        current = board.decks[index]
        rest = list(current.rest)
        rest.remove(card)
        board = replace(
            board, decks=replace_in(board.decks, index, replace(current, top=card, rest=tuple(rest)))
        )
        return pop(with_board(state, matcha=board))
    tokens = matcha_spec(state).tokens
    token = next(t for t in board.tokens if card in tokens[t])
    board = replace(board, tokens=tuple(t for t in board.tokens if t != token))
    if target == matcha_spec(state).platform:
        board = replace(board, platform_token=card)
    elif target.startswith("offer_"):
        index = int(target.removeprefix("offer_").partition(":")[0])
        offer = state.board.offer
        state = replace(
            state, board=replace(state.board, offer=replace_in(offer, index, _with_token(offer[index], card)))
        )
    else:
        index = next(i for i, room in enumerate(board.tea_house) if room.id == target)
        board = replace(
            board, tea_house=replace_in(board.tea_house, index, replace(board.tea_house[index], token=card))
        )
    return pop(with_board(state, matcha=board))


def _with_token(pair: StartPair, face: str) -> StartPair:
    return replace(pair, token=face)


# --- the Tea Room and the Himeji Principality (R-M03..R-M05) -


def space_ids(state: GameState) -> list[str]:
    board = matcha_board(state)
    return [space.id for space in (*board.tea_room, *board.himeji)]


def find_space(state: GameState, space_id: str) -> tuple[Space, int] | None:
    """A Matcha die space and its printed value, or None if `space_id` is not one."""
    board = state.board.matcha
    if board is None:
        return None
    for space in (*board.tea_room, *board.himeji):
        if space.id == space_id:
            spec = matcha_spec(state).space(space_id)
            assert spec is not None
            return space, spec.value
    return None


def put_die(state: GameState, space_id: str, die: Die) -> GameState:
    """Lay a die on a Tea Room or Himeji space, nothing more (the solo rival's placement, R-SO02)."""
    board = matcha_board(state)
    for group in ("tea_room", "himeji"):
        spaces: tuple[Space, ...] = getattr(board, group)
        for i, space in enumerate(spaces):
            if space.id == space_id:
                board = replace(
                    board, **{group: replace_in(spaces, i, replace(space, dice=(*space.dice, die)))}
                )
                return with_board(state, matcha=board)
    raise KeyError(space_id)


def place(state: GameState, seat: int, space_id: str, die: Die) -> tuple[GameState, Frame]:
    """Put the die on a Tea Room or Himeji space; what follows is the Geisha action (R-M04) or the curtains the
    space faces (R-M05)."""
    state = put_die(state, space_id, die)
    if space_id in {space.id for space in matcha_board(state).tea_room}:
        return state, bundle(seat, f"tea_room:{space_id}", matcha_spec(state).tea_room_icons)
    return state, space_menu(state, seat, space_id)


def clear_dice(board: Board) -> Board:
    """The Tea Room and Himeji dice are gathered for the reroll with the others (R-E04)."""
    matcha = board.matcha
    if matcha is None:
        return board
    return replace(
        board,
        matcha=replace(
            matcha,
            tea_room=tuple(replace(space, dice=()) for space in matcha.tea_room),
            himeji=tuple(replace(space, dice=()) for space in matcha.himeji),
        ),
    )


# --- Matcha's symbols (R-M17, R-M18) -


def icon_frame(state: GameState, seat: int, icon: Icon) -> Frame:
    """The frame resolving one of Matcha's symbols."""
    kind = icon.kind
    if kind is IconKind.GEISHA:
        return GeishaAction(seat, False, False)
    if kind is IconKind.ADVANCE:
        return GeishaAction(seat, True, False, True)
    if kind is IconKind.SLASH:
        shown = parse_icon(icon.colour)
        options = (Option(icon.colour, (), (shown,)), Option("geisha", (), (Icon(IconKind.GEISHA),)))
        return Menu(seat, "slash", options, (), 1, False)
    if kind is IconKind.LILY:
        return bundle(seat, "lily_pads", lily_icons(state))
    if kind is IconKind.POND:
        return pond_menu(state, seat)
    if kind is IconKind.DARK:
        return dark_menu(state, seat)
    if kind is IconKind.LIGHT:
        return light_menu(state, seat, icon.amount)
    if kind is IconKind.CURTAIN:
        if icon.colour == "yellow":
            return yellow_curtain_menu(state, seat)
        if icon.colour == "blue":
            return blue_curtains_menu(state, seat, "blue_curtain", free=True)
        if icon.colour == "both":
            return HimejiCard(seat, "both")
        return both_yellow_curtains(state, seat)
    if kind is IconKind.YARD:
        return yard_blue_menu(state, seat) if icon.colour == "blue" else yard_yellow(state, seat)
    if kind is IconKind.STONE:
        return stone_menu(state, seat, icon.amount)
    if kind is IconKind.CLIMB:
        return Climb(seat)
    if kind is IconKind.TOKEN:
        return own_token(state, seat)
    raise AssertionError(f"no Matcha frame for {icon}")  # pragma: no cover - effects routes only ICONS here
