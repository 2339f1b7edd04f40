"""The immutable game state: board, players, round and turn, and the stack of pending prompts.

Everything is a frozen dataclass holding tuples, so a state is shared freely and compared with ``==``; its last
frame is the prompt being answered.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from domain.catalog import Catalog, MatchaCatalog
from domain.vocabulary import OPTIONAL, Colour, DieColour, MatchaColour, Mode, Phase

if TYPE_CHECKING:
    from domain.prompts import Frame

Record = TypeVar("Record")
_KEEP: Any = object()
_REPLACERS: dict[type, Any] = {}


def _replacer(cls: type) -> Any:
    """Compile ``replace`` for one record class: each field is the given value or the record's own, stored
    into a fresh instance through the slots' own descriptors, as the frozen ``__init__`` of `dataclasses` does
    through ``object.__setattr__`` (records have no ``__post_init__``), at half its cost."""
    names = [field.name for field in dataclasses.fields(cls)]
    namespace: dict[str, Any] = {"_KEEP": _KEEP, "_cls": cls, "_new": cls.__new__}
    lines = [
        f"def replace(record, /, *, {', '.join(f'{name}=_KEEP' for name in names)}):",
        "    new = _new(_cls)",
    ]
    for i, name in enumerate(names):
        namespace[f"_set{i}"] = cls.__dict__[name].__set__
        lines.append(f"    _set{i}(new, record.{name} if {name} is _KEEP else {name})")
    lines.append("    return new")
    exec("\n".join(lines), namespace)
    return namespace["replace"]


def replace(record: Record, /, **changes: Any) -> Record:
    """A copy of a frozen record with some fields changed: `dataclasses.replace` for the engine's records (no
    ``__post_init__``, no ``init=False`` fields), compiled once per class and several times faster than the
    generic one; the engine builds thousands of records per game (bench/bench_domain.py)."""
    function = _REPLACERS.get(type(record))
    if function is None:
        function = _REPLACERS[type(record)] = _replacer(type(record))
    result: Record = function(record, **changes)
    return result


@dataclass(frozen=True, slots=True)
class Die:
    """A die placed on a space: its colour, value and the seat that placed it."""

    colour: DieColour
    value: int
    seat: int


@dataclass(frozen=True, slots=True)
class Bridge:
    """A bridge: a left (lantern) end slot, the middle dice in order, a right end slot (R-T04, decision
    C.1)."""

    colour: DieColour
    left: int | None
    middle: tuple[int, ...]
    right: int | None

    def count(self) -> int:
        """How many dice are still on the bridge."""
        return len(self.middle) + (self.left is not None) + (self.right is not None)


@dataclass(frozen=True, slots=True)
class Room:
    """A castle room (R-C01): its die tiles, its card, the dice placed this round, and the courtiers in it."""

    id: str
    tiles: tuple[Colour | None, ...]
    card: str | None
    dice: tuple[Die, ...]
    courtiers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DaimyoRoom:
    """The Daimyo's quarters (R-CA04): the favour card, who holds each spot, and courtiers with no spot."""

    card: str | None
    spots: tuple[int | None, ...]
    extra: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Space:
    """A shared die space with no other content: Outside the Walls (R-O01), and in a Matcha game the Tea Room
    and Himeji Principality spaces (R-M04, R-M05)."""

    id: str
    dice: tuple[Die, ...]


@dataclass(frozen=True, slots=True)
class Well:
    """The Well (R-W01, R-W02): dice side by side, and its two die tiles lying reward side up."""

    dice: tuple[Die, ...]
    tiles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Yard:
    """A training yard (R-WA02..R-WA04): its blue and yellow tiles (None if the yard has no such face)."""

    id: str
    blue: str | None
    yellow: str | None
    warriors: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GardenSlot:
    """A garden card under a bridge (R-S08): the bridge, its type (plant/stone), the card and its
    gardeners."""

    id: str
    bridge: Colour
    type: str
    card: str | None
    gardeners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class StartPair:
    """A Starting Resource card with the Starting Action card under it (R-S12); None until dealt."""

    resource: str | None
    action: str | None
    token: str | None = field(default=None, metadata=OPTIONAL)
    """Matcha: the ceremony token under the pair, blue side up (the face shown, CT1-CT20) (R-S12, R-M01)."""


@dataclass(frozen=True, slots=True)
class Decks:
    """What is still in each deck, pile or bag, sorted (chance draws from them; the order is never known)."""

    steward: tuple[str, ...]
    diplomat: tuple[str, ...]
    daimyo: tuple[str, ...]
    plant: tuple[str, ...]
    stone: tuple[str, ...]
    yard_tiles: tuple[str, ...]
    starting_resources: tuple[str, ...]
    starting_actions: tuple[str, ...]
    die_tiles: tuple[str, ...]
    """The colours of the die tiles still in the bag (castle tiles are seen die side up only)."""


@dataclass(frozen=True, slots=True)
class Board:
    """Everything on the main board."""

    bridges: tuple[Bridge, ...]
    rooms: tuple[Room, ...]
    daimyo: DaimyoRoom
    gate: tuple[int, ...]
    """Courtiers at the Gates of the Castle, per seat."""
    outside: tuple[Space, ...]
    well: Well
    yards: tuple[Yard, ...]
    gardens: tuple[GardenSlot, ...]
    decks: Decks
    offer: tuple[StartPair, ...]
    """The starting pairs still on offer during setup (R-S12)."""
    stamp: int
    """The last arrival stamp given to an influence marker: a higher stamp lies higher in a stack (R-PT03)."""
    matcha: MatchaBoard | None = field(default=None, metadata=OPTIONAL)
    """The Matcha expansion board below the main board (None in a base game) (R-M01)."""


# --- the Matcha expansion board (R-M01..R-M19) -


@dataclass(frozen=True, slots=True)
class HimejiDeck:
    """An Ikebana or Calligraphy deck lying face up in the Himeji Principality (R-M01): the card on top (the only
    one seen) and the cards under it (their order is unknown, so they are kept sorted)."""

    id: str
    top: str | None
    rest: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TeaHouseRoom:
    """A room of the Tea House: its ceremony token (the yellow face shown) and the geishas in it (R-M13)."""

    id: str
    token: str | None
    geishas: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchaBoard:
    """The Matcha expansion board: the Tea Room and the Himeji Principality (die spaces), the Ikebana and
    Calligraphy decks, the pond's lily pads, and the Tea Garden (the entrance, the two path spaces, the Viewing
    Platform with its ceremony token, the Tea House rooms). Geishas are listed by seat."""

    tea_room: tuple[Space, ...]
    himeji: tuple[Space, ...]
    decks: tuple[HimejiDeck, ...]
    pond: tuple[str | None, ...]
    """The lily pads in the pond's spaces (R-M01)."""
    entrance: tuple[int, ...]
    """Geishas at the Tea Garden entrance: no limit (R-M07)."""
    path: tuple[tuple[int, ...], ...]
    """Geishas on the path spaces 1 and 2 toward the Tea House: no limit (R-M09)."""
    platform: tuple[int, ...]
    """Geishas on the Viewing Platform: at most one per clan (R-M09)."""
    platform_token: str | None
    """The Viewing Platform's ceremony token, blue side up (the face shown) (R-M01, R-M10)."""
    tea_house: tuple[TeaHouseRoom, ...]
    lily_pads: tuple[str, ...]
    """Lily pads still in the box (the pond's are drawn from them)."""
    tokens: tuple[str, ...]
    """Ceremony tokens still in the box (ids, each with a blue and a yellow face)."""


@dataclass(frozen=True, slots=True)
class Player:
    """One seat's clan: supplies, tracks, members at home, Action card, Lantern Area, dice on the Domain."""

    name: str
    coins: int
    seals: int
    food: int
    iron: int
    pearl: int
    cp: int
    pot: int
    """Space of the influence marker on the Passage of Time (0-20)."""
    pot_stamp: int
    """Arrival stamp of the marker: among markers on one space, the highest stamp is on top (R-PT03)."""
    courtiers: int
    """Courtiers still on the Personal Domain (the leftmost leaves first)."""
    gardeners: int
    warriors: int
    action_card: str | None
    lantern: tuple[str, ...]
    """The cards of the Lantern Area, in the order they arrived (R-L02)."""
    domain: tuple[Die | None, ...]
    """The die on each Personal Domain row this round, in the catalog's row order (R-D01); a Matcha clan board
    has a fourth row, the green (geisha) row."""
    automatic: bool = field(default=False, metadata=OPTIONAL)
    """True for the solo game's rival: the engine plays its turns (R-SO03); it has no Domain and holds coins
    only (R-SO02)."""
    whisks: int = field(default=0, metadata=OPTIONAL)
    """Matcha: the whisk track, 0-7 (R-S10, R-M15)."""
    geishas: int = field(default=0, metadata=OPTIONAL)
    """Matcha: geishas still on the clan board (the leftmost leaves first, R-M07)."""
    ceremony: str | None = field(default=None, metadata=OPTIONAL)
    """Matcha: the face (CT1-CT20) of the ceremony token attached to the clan board at setup (R-S12, R-M14)."""


@dataclass(frozen=True, slots=True)
class Held:
    """The die a player has taken and not yet placed (R-T02): where it came from decides the Lantern
    Reward."""

    colour: DieColour
    value: int
    end: str


@dataclass(frozen=True, slots=True)
class Options:
    """Setup options: the first-game layout and one named option per project decision (docs/rules/decisions.md).

    - ``first_game``: the rulebook's fixed castle cards and die tiles (FR steps 2 and 4), default False.
    - ``bridge_ends`` (C.1): ``"slots"`` (default) or ``"lone_die_both_ends"`` (a lone die may be taken from
      either end, and counts as the left end when taken from the left).
    - ``seal_conversions`` (C.2): ``"when_waited_on"`` (default: on your turn and in your part of the garden
      activation) or ``"own_turn"``.
    - ``milestones`` (C.3): ``"may_decline"`` (default) or ``"must_pay"`` (a player who can pay must).
    - ``passing`` (C.5): ``"never"``, the only value: a pass would break the end-of-round count (R-E01).
    - ``stacking`` (C.6): ``"3_4_players"`` (default), ``"never"`` or ``"any_player_count"``.
    - ``blue_curtain_seals`` (C.7, Matcha only): ``"pay_printed"`` (default: a blue curtain's printed seal
      cost is paid unless the effect says "without spending seals") or ``"free"`` (never paid).
    - ``tie_break`` (C.8): ``"turn_order"`` (default) or ``"shared"`` (tied players share the rank).
    The printed contents (C.4) are not an option: they are the game's catalog.
    """

    first_game: bool = False
    bridge_ends: str = "slots"
    seal_conversions: str = "when_waited_on"
    milestones: str = "may_decline"
    passing: str = "never"
    stacking: str = "3_4_players"
    blue_curtain_seals: str = "pay_printed"
    tie_break: str = "turn_order"


OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "first_game": (False, True),
    "bridge_ends": ("slots", "lone_die_both_ends"),
    "seal_conversions": ("when_waited_on", "own_turn"),
    "milestones": ("may_decline", "must_pay"),
    "passing": ("never",),
    "stacking": ("3_4_players", "never", "any_player_count"),
    "blue_curtain_seals": ("pay_printed", "free"),
    "tie_break": ("turn_order", "shared"),
}


@dataclass(frozen=True, slots=True)
class Rules:
    """The shape of the game, kept as data so that Matcha can change it: colours (one bridge each), rounds,
    turns per player per round, how many dice left on the bridges end a round (R-T01, R-E01), and the
    expansions in play."""

    colours: tuple[DieColour, ...]
    rounds: int
    turns_per_round: int
    dice_left_at_round_end: int
    expansions: tuple[str, ...] = field(default=(), metadata=OPTIONAL)
    """The expansions in play: ``("matcha",)`` or none."""


BASE_RULES = Rules(
    colours=(Colour.CORAL, Colour.BLACK, Colour.WHITE), rounds=3, turns_per_round=3, dice_left_at_round_end=3
)

MATCHA_RULES = Rules(
    colours=(Colour.CORAL, Colour.BLACK, Colour.WHITE, MatchaColour.GREEN),
    rounds=3,
    turns_per_round=4,
    dice_left_at_round_end=4,
    expansions=("matcha",),
)
"""Matcha: the green bridge, 4 turns per player per round, the round ends at 4 dice left (R-M01, R-M02)."""


@dataclass(frozen=True, slots=True)
class Solo:
    """The solo game (R-SO01..R-SO06): the rival's seat, its difficulty and deck; None in a multiplayer game."""

    difficulty: str
    """easy, medium or hard (R-SO01)."""
    rival: int
    """The rival's seat (1: the seat after the player's)."""
    scoring: str
    """How the rival scores at the end: ``sheet`` (the whole score sheet, the default) or ``cp_only``."""
    deck: tuple[str, ...]
    """The solo cards still in the deck, sorted (the order is never known, R-SO01)."""
    line: tuple[str, ...]
    """The solo cards revealed since the last reshuffle, in the line they form, left to right (R-SO03)."""
    notes: tuple[str, ...]
    """What the rival did in its latest turn and end of round, in words, for the log and the pages."""
    noted: int
    """How many notes were ever written: the notes a move added are the last (after - before) of them."""


@dataclass(frozen=True, slots=True)
class GameState:
    """One moment of one game."""

    rules_version: str
    mode: Mode
    seed: int | None
    chance: int
    """How many chance moves have been applied; a seeded draw comes from (seed, chance) alone, with the
    generator of the game's rules version (`domain.chance.rng_for`)."""
    options: Options
    rules: Rules
    catalog: Catalog
    players: tuple[Player, ...]
    board: Board
    round: int
    phase: Phase
    turn_order: tuple[int, ...]
    """Seats in turn-order-track order, first player first (R-S11, R-E02)."""
    turn_index: int
    """Turns already completed in this round (all players together)."""
    held: Held | None
    stack: tuple[Frame, ...]
    """Pending frames; the last one is the prompt being answered (empty once the game is over)."""
    solo: Solo | None = field(default=None, metadata=OPTIONAL)
    """The solo game's rival and deck (R-SO01); None (and absent from the state JSON) in a multiplayer game."""

    @property
    def top(self) -> Frame | None:
        return self.stack[-1] if self.stack else None


# Small helpers used by every area module: a state is never mutated, these build the next one.


def with_player(state: GameState, seat: int, player: Player) -> GameState:
    players = state.players
    return replace(state, players=(*players[:seat], player, *players[seat + 1 :]))


def with_board(state: GameState, **changes: Any) -> GameState:
    return replace(state, board=replace(state.board, **changes))


def matcha_board(state: GameState) -> MatchaBoard:
    """The Matcha part of the board: asked for only by the expansion's rules, in a game that has it."""
    board = state.board.matcha
    assert board is not None
    return board


def matcha_spec(state: GameState) -> MatchaCatalog:
    """The Matcha part of the catalog, likewise."""
    spec = state.catalog.matcha
    assert spec is not None
    return spec


def push(state: GameState, *frames: Frame) -> GameState:
    """Push frames; the last one given ends on top (it is answered first)."""
    return replace(state, stack=state.stack + frames)


def pop(state: GameState) -> GameState:
    return replace(state, stack=state.stack[:-1])


def swap_top(state: GameState, *frames: Frame) -> GameState:
    """Replace the top frame by `frames` (none removes it)."""
    return replace(state, stack=state.stack[:-1] + frames)


def replace_in(items: tuple[Any, ...], index: int, item: Any) -> tuple[Any, ...]:
    return (*items[:index], item, *items[index + 1 :])


def room_index(state: GameState, room_id: str) -> int:
    for i, room in enumerate(state.board.rooms):
        if room.id == room_id:
            return i
    raise KeyError(room_id)


def bridge_index(state: GameState, colour: str) -> int:
    for i, bridge in enumerate(state.board.bridges):
        if bridge.colour == colour:
            return i
    raise KeyError(colour)
