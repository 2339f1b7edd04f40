"""The frames of the prompt stack: what the engine is waiting for, and the automatic steps between prompts."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.vocabulary import OPTIONAL, Cost, DieColour, Icon

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

    redeals: int = field(default=0, metadata=OPTIONAL)
    """How many times the castle was dealt again before the deal this frame checks (its words: the prompts of
    that deal say it is dealt again, and why: `words.prompt_help`)."""


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

    bridge: DieColour


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


def bundle(seat: int, title: str, icons: tuple[Icon, ...]) -> Menu | Seq:
    """Icons to resolve in any order: a mandatory menu of single icons (it resolves itself if order is
    free)."""
    if len(icons) <= 1:
        return Seq(seat, icons)
    options = []
    seen: dict[str, int] = {}
    for icon in icons:
        name = str(icon)
        seen[name] = seen.get(name, 0) + 1
        options.append(Option(name if seen[name] == 1 else f"{name}#{seen[name]}", (), (icon,)))
    return Menu(seat, title, tuple(options), (), len(options), True)


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


# --- the Tokugawa clan: the solo rival with Matcha (R-TK01..R-TK07) -


@dataclass(frozen=True, slots=True)
class ChooseStartCards:
    """Prompt: the player of a Tokugawa game chooses 1 of the 2 Starting Resource cards, 1 of the 2 Starting
    Action cards and 1 of the 2 ceremony tokens dealt (R-TK01)."""

    seat: int


@dataclass(frozen=True, slots=True)
class RivalGeisha:
    """Prompt: the player advances one of the rival's geishas 1 step (R-TK05 (2), R-TK06 (2)), not the geisha the
    symbol has just sent to `sent` (a place; empty when none was sent); into the Tea House only to the rooms that
    score it the most (R-TK03). With one way to do it, it is done; with none, the rival gains CP equal to the
    round (R-TK03)."""

    seat: int
    rival: int
    sent: str


@dataclass(frozen=True, slots=True)
class RivalDiscard:
    """Prompt: the player chooses the Ikebana or Calligraphy deck whose top card is discarded for a rival geisha
    stopping on a path space; only decks holding 2 cards or more qualify (R-TK03, R-TK06)."""

    seat: int
    rival: int


# --- the Matcha expansion (R-M) -


@dataclass(frozen=True, slots=True)
class GeishaAction:
    """Prompt: the Geisha action, Part A (the leftmost geisha to the Tea Garden entrance, 2 coins) and/or Part B
    (advance one geisha 1 step for 2 whisks or 2 steps for 5), each at most once, in any order (R-M06..R-M09).
    ``free_step``: one step without whisks and no Part A (ceremony token CT13)."""

    seat: int
    entrance_done: bool
    advance_done: bool
    free_step: bool = False


@dataclass(frozen=True, slots=True)
class HimejiCard:
    """Prompt: choose the Ikebana or the Calligraphy card lying in the Himeji Principality: on the first path
    space (``purpose="path"``) to perform its yellow curtain and take it (R-M11), for the two-card symbol
    (``purpose="both"``) to perform both its curtains (R-M17)."""

    seat: int
    purpose: str


@dataclass(frozen=True, slots=True)
class TakeCurtainCard:
    """Automatic: the card whose yellow curtain was performed on the first path space goes to the Lantern Area
    and the deck's next card is revealed; the last card of a deck stays in Himeji (R-M11)."""

    seat: int
    deck: str


@dataclass(frozen=True, slots=True)
class Climb:
    """Prompt: move one of your courtiers at the Gate or in the castle 1 floor up without pearl (token CT15)."""

    seat: int


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
    | ChooseStartCards
    | RivalGeisha
    | RivalDiscard
    | GeishaAction
    | HimejiCard
    | TakeCurtainCard
    | Climb
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
    ChooseStartCards: "choose_start_cards",
    RivalGeisha: "rival_geisha",
    RivalDiscard: "rival_discard",
    GeishaAction: "geisha",
    HimejiCard: "himeji_card",
    TakeCurtainCard: "take_curtain_card",
    Climb: "climb",
}
"""The name of every frame type, as shown in prompts and stored in state dictionaries."""

FRAME_TYPES: dict[str, type] = {name: cls for cls, name in KIND.items()}

CHANCE_FRAMES = (DealCard, DealDieTile, DealWellTile, StackOrder, RollBridge, RevealSoloCard)
"""Frames answered by chance (seat None)."""


def seat_of(frame: Frame) -> int | None:
    """The seat a frame waits on, or None for chance and automatic frames."""
    seat = getattr(frame, "seat", None)
    return seat if isinstance(seat, int) else None
