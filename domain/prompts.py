"""The frames of the prompt stack: what the engine is waiting for, and the automatic steps between prompts.

A frame is a small frozen dataclass. Three sorts exist:
- **player prompts** (`seat` is an int): a choice the rulebook gives a player (take a die, place it, pick
  among a space's actions, answer a choice inside an effect);
- **chance prompts** (`CHANCE_FRAMES`, no seat): a deal, a draw, a roll; in seeded mode the engine draws them;
- **automatic steps**: consequences with no choice (end of turn, end of round, ...), run inside `apply`.
A frame whose choice turns out to have no real alternative resolves itself (`domain.engine`).
`KIND` names each frame in `prompt_of` and in `state_to_dict`.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.vocabulary import Colour, Cost, Icon

# --- setup (R-S01..R-S12) -


@dataclass(frozen=True, slots=True)
class DealCard:
    """Chance: reveal one card or tile from `pool` and put it at `target`: the setup deals (R-S03, R-S04,
    R-S08, R-S09, R-S12) and the refill of a castle room after a courtier took its card (R-CA03 c)."""

    pool: str
    target: str


@dataclass(frozen=True, slots=True)
class CheckCastle:
    """Automatic: if every castle card shows the same dark-background action, reshuffle and redeal (R-S03)."""


@dataclass(frozen=True, slots=True)
class DealDieTile:
    """Chance: the colour of the next die tile drawn for the castle (R-S05)."""


@dataclass(frozen=True, slots=True)
class DealWellTile:
    """Chance: a die tile laid reward side up at the Well (R-S05)."""


@dataclass(frozen=True, slots=True)
class StackOrder:
    """Chance: the random stack of influence markers, top first, which is also the turn order (R-S11)."""


@dataclass(frozen=True, slots=True)
class BeginStartChoice:
    """Automatic: players choose starting pairs in reverse turn order (R-S12)."""


@dataclass(frozen=True, slots=True)
class ChooseStart:
    """Prompt: choose one starting pair (R-S12)."""

    seat: int


@dataclass(frozen=True, slots=True)
class BeginRound:
    """Automatic: the first player of the round takes the first turn (R-T01)."""


# --- a turn (R-T, R-P) -


@dataclass(frozen=True, slots=True)
class RollBridge:
    """Chance: roll the bridge's dice and lay them ascending from the lantern end (R-S07, R-E04)."""

    bridge: Colour


@dataclass(frozen=True, slots=True)
class TakeDie:
    """Prompt: take a die from an end of a bridge (R-T03)."""

    seat: int


@dataclass(frozen=True, slots=True)
class PlaceDie:
    """Prompt: place the held die on a space and settle the coins (R-P01..R-P06)."""

    seat: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Automatic: the turn is over; the next player takes a die, or the round ends (R-E01)."""

    seat: int


# --- effects -


@dataclass(frozen=True, slots=True)
class Option:
    """One entry of a `Menu`: a stable id, what it costs, and the icons it resolves."""

    id: str
    cost: Cost
    icons: tuple[Icon, ...]


@dataclass(frozen=True, slots=True)
class Menu:
    """Prompt: resolve entries of a list in any order, each at most once.

    `picks` is how many entries may still be taken. A `mandatory` menu (the Lantern Reward, the Well's gains,
    a block's icons) must take every entry and offers ``rest`` (the remaining ones in a sensible order); an
    optional one (the actions of a space, R-P07) offers ``done``. `title` says where the entries come from.
    """

    seat: int
    title: str
    options: tuple[Option, ...]
    used: tuple[str, ...]
    picks: int
    mandatory: bool


@dataclass(frozen=True, slots=True)
class Seq:
    """Automatic: resolve icons in this order (each may push its own prompt)."""

    seat: int
    icons: tuple[Icon, ...]


@dataclass(frozen=True, slots=True)
class AnyRes:
    """Prompt: choose `amount` resources among food, iron and pearl (R-R07)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class Pot:
    """Move `steps` spaces on the Passage of Time; a prompt only at a milestone the player can pay
    (R-PT02)."""

    seat: int
    steps: int


@dataclass(frozen=True, slots=True)
class CourtierAction:
    """Prompt: the Courtier action, Audience and/or Ascent, each at most once, any order (R-CA01)."""

    seat: int
    audience_done: bool
    ascent_done: bool


@dataclass(frozen=True, slots=True)
class WarriorAction:
    """Prompt: send the leftmost warrior to a yard, paying its iron (R-WA01, R-WA02)."""

    seat: int


@dataclass(frozen=True, slots=True)
class GardenerAction:
    """Prompt: send the leftmost gardener to a garden card, paying its food (R-GA01)."""

    seat: int


@dataclass(frozen=True, slots=True)
class DomainAction:
    """Prompt: the Personal Domain action icon, activate one row as if a die were placed (R-D03)."""

    seat: int


@dataclass(frozen=True, slots=True)
class DomainRow:
    """Automatic: resolve a Personal Domain row: its visible rewards, then its Action card block (R-D02)."""

    seat: int
    row: str


@dataclass(frozen=True, slots=True)
class Arrive:
    """Automatic: a courtier stopped in a room of floor 1 or 2 (R-CA03)."""

    seat: int
    room: str


@dataclass(frozen=True, slots=True)
class DaimyoSpot:
    """Prompt: choose a free favour spot of the Daimyo card for the courtier who arrived (R-CA04)."""

    seat: int


# --- end of round (R-E) -


@dataclass(frozen=True, slots=True)
class EndOfRound:
    """Automatic: new turn order, garden activation, preparation or final scoring (R-E01..R-E05)."""


@dataclass(frozen=True, slots=True)
class ClearDice:
    """Automatic: clear every placed die before the reroll (R-E04)."""


@dataclass(frozen=True, slots=True)
class NextRound:
    """Automatic: advance the round marker and start the next round (R-E04)."""


# --- the solo rival (R-SO01..R-SO06) -


@dataclass(frozen=True, slots=True)
class SoloStart:
    """Automatic: the player takes the one starting pair dealt, with no choice (R-SO01, R-S12)."""

    seat: int


@dataclass(frozen=True, slots=True)
class RevealSoloCard:
    """Chance: the next solo card the rival reveals in its search for a die (R-SO03). Its field is `rival`,
    not `seat`: chance waits on no seat."""

    rival: int


@dataclass(frozen=True, slots=True)
class RivalIcons:
    """Automatic: the rival resolves the icons of its last two revealed cards, in order (R-SO03, R-SO05)."""

    rival: int
    icons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RivalGarden:
    """Prompt: the player chooses, among the gardens that tie as the cheapest-scoring, where the rival's
    gardener goes (R-SO05, "en cas d'égalité, choisissez")."""

    seat: int
    rival: int
    gardens: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RivalRoom:
    """Prompt: the rival's courtier climbs from `origin` to the `floor`; the player chooses the room there,
    whose card is discarded and replaced (R-SO05, "la salle de votre choix")."""

    seat: int
    rival: int
    origin: str
    floor: str


Frame = (
    DealCard
    | CheckCastle
    | DealDieTile
    | DealWellTile
    | StackOrder
    | BeginStartChoice
    | ChooseStart
    | BeginRound
    | RollBridge
    | TakeDie
    | PlaceDie
    | EndTurn
    | Menu
    | Seq
    | AnyRes
    | Pot
    | CourtierAction
    | WarriorAction
    | GardenerAction
    | DomainAction
    | DomainRow
    | Arrive
    | DaimyoSpot
    | EndOfRound
    | ClearDice
    | NextRound
    | SoloStart
    | RevealSoloCard
    | RivalIcons
    | RivalGarden
    | RivalRoom
)

KIND: dict[type, str] = {
    DealCard: "reveal",
    CheckCastle: "check_castle",
    DealDieTile: "die_tile",
    DealWellTile: "well_tile",
    StackOrder: "stack_order",
    BeginStartChoice: "begin_start_choice",
    ChooseStart: "choose_start",
    BeginRound: "begin_round",
    RollBridge: "roll",
    TakeDie: "take_die",
    PlaceDie: "place_die",
    EndTurn: "end_turn",
    Menu: "actions",
    Seq: "sequence",
    AnyRes: "resources",
    Pot: "milestone",
    CourtierAction: "courtier",
    WarriorAction: "warrior",
    GardenerAction: "gardener",
    DomainAction: "domain",
    DomainRow: "domain_row",
    Arrive: "arrive",
    DaimyoSpot: "daimyo_spot",
    EndOfRound: "end_of_round",
    ClearDice: "clear_dice",
    NextRound: "next_round",
    SoloStart: "solo_start",
    RevealSoloCard: "solo_card",
    RivalIcons: "rival_icons",
    RivalGarden: "rival_garden",
    RivalRoom: "rival_room",
}
"""The name of every frame type, as shown in prompts and stored in state dictionaries."""

FRAME_TYPES: dict[str, type] = {name: cls for cls, name in KIND.items()}

CHANCE_FRAMES = (DealCard, DealDieTile, DealWellTile, StackOrder, RollBridge, RevealSoloCard)
"""Frames answered by chance (seat None)."""


def seat_of(frame: Frame) -> int | None:
    """The seat a frame waits on, or None for chance and automatic frames."""
    seat = getattr(frame, "seat", None)
    return seat if isinstance(seat, int) else None
