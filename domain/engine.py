"""The state machine: legal moves, applying a move, automatic steps and seeded chance.

Each frame type of `domain.prompts` has a `Handler`; a move is legal exactly when it is in `legal_moves`, and a
handler's `explain` only finds the best error, with its rule, for a move that is not.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from domain.areas import (
    bridges,
    castle,
    courtier,
    gardens,
    passage_of_time,
    personal_domain,
    well,
    yards,
)
from domain.chance import Draws, rng_for
from domain.effects import futile, menu_auto, menu_moves, menu_play, menu_waiting, run_seq, why_futile
from domain.end_of_round import begin_round_auto, clear_dice_auto, end_of_round_auto, next_round_auto
from domain.errors import DomainError, GameOver, IllegalMove, InvalidMove, NotYourTurn
from domain.kinds import CONVERT, KINDS, Move, parse
from domain.kinds.action_spaces import PlaceDieMove
from domain.kinds.actions import ChooseMove, DoneMove, RestMove
from domain.kinds.bridges import RollMove, TakeDieMove
from domain.kinds.courtier import (
    AscendMove,
    AudienceMove,
    DaimyoSpotMove,
    audience_cost,
)
from domain.kinds.gardener import GardenerMove
from domain.kinds.matcha import (
    AdvanceGeishaMove,
    HimejiCardMove,
    SendGeishaMove,
    entrance_cost,
)
from domain.kinds.passage_of_time import MilestoneMove
from domain.kinds.personal_domain import DomainRowMove
from domain.kinds.resources import ConvertMove, ResourcesMove
from domain.kinds.setup import (
    ChooseStartMove,
    DieTileMove,
    RevealMove,
    StackOrderMove,
    WellTileMove,
)
from domain.kinds.solo import RivalGardenMove, RivalRoomMove, SoloCardMove
from domain.kinds.tokugawa import ChooseStartCardsMove, RivalDiscardMove, RivalGeishaMove
from domain.kinds.warrior import WarriorMove
from domain.matcha import ceremony, himeji, tea_garden
from domain.names import cost_text, pool_text, seat_text, source_text, target_text
from domain.prompts import (
    CHANCE_FRAMES,
    KIND,
    AnyRes,
    Arrive,
    BeginRound,
    BeginStartChoice,
    CheckCastle,
    ChooseStart,
    ChooseStartCards,
    ClearDice,
    Climb,
    CourtierAction,
    DaimyoSpot,
    DealCard,
    DealDieTile,
    DealWellTile,
    DomainAction,
    DomainRow,
    EndOfRound,
    EndTurn,
    Frame,
    GardenerAction,
    GeishaAction,
    HimejiCard,
    Menu,
    NextRound,
    PlaceDie,
    Pot,
    RevealSoloCard,
    RivalDiscard,
    RivalGarden,
    RivalGeisha,
    RivalIcons,
    RivalRoom,
    RollBridge,
    Seq,
    SoloStart,
    StackOrder,
    TakeCurtainCard,
    TakeDie,
    WarriorAction,
    seat_of,
)
from domain.resources import (
    active_seat,
    any_res_auto,
    any_res_moves,
    any_res_play,
    any_res_waiting,
    conversion_moves,
    conversions,
    conversions_allowed,
    convert,
    could_pay,
    paying_conversions,
)
from domain.setup import (
    begin_start_choice_auto,
    choose_start_moves,
    choose_start_play,
    deal_auto,
    deal_draw,
    deal_moves,
    deal_outcomes,
    deal_play,
    deal_waiting,
    stack_draw,
    stack_moves,
    stack_play,
    stack_waiting,
)
from domain.solo import game as solo
from domain.solo import rival, tokugawa
from domain.state import GameState, pop, replace
from domain.turn import (
    check_space_name,
    end_turn_auto,
    place_moves,
    place_play,
    refusal,
    space_ids,
    why_not_place,
)
from domain.vocabulary import Mode, Phase, a, space_text
from domain.words import prompt_text

Moves = list[Move]


def _never(state: GameState, frame: Any) -> bool:
    return False


def _always(state: GameState, frame: Any) -> bool:
    return True


@dataclass(frozen=True)
class Handler:
    """How the engine treats one frame type."""

    waiting: Callable[[GameState, Any], bool]
    auto: Callable[[GameState, Any], GameState] | None = None
    moves: Callable[[GameState, Any], Moves] | None = None
    play: Callable[[GameState, Any, Any], GameState] | None = None
    kinds: tuple[type[Move], ...] = ()
    """The move kinds that answer the frame."""
    rule: str | None = None
    draw: Callable[[GameState, Any, Draws], Move] | None = None
    valid: Callable[[GameState, Any, Any], bool] | None = None
    explain: Callable[[GameState, Any, Any], DomainError | None] | None = None


def _close(state: GameState, frame: Any) -> GameState:
    """A worker's action with nothing left that it could still do (its ``waiting`` said so) closes by itself."""
    return pop(state)


def _automatic(auto: Callable[[GameState, Any], GameState]) -> Handler:
    return Handler(waiting=_never, auto=auto)


def _player_takes(state: GameState, frame: TakeDie) -> bool:
    """A player takes their own die; the solo rival's turn runs by itself (R-SO03)."""
    return not state.players[frame.seat].automatic


# --- explanations: the best error for a move that is not legal -


def _explain_take(state: GameState, frame: TakeDie, move: TakeDieMove) -> DomainError | None:
    colours = [bridge.colour.value for bridge in state.board.bridges]
    if move.bridge not in colours:
        return InvalidMove(f"unknown bridge {move.bridge!r}", details={"bridges": colours})
    if move.end not in bridges.ENDS:
        return InvalidMove("end is left or right", details={"end": move.end})
    return IllegalMove(
        f"there is no die at the {move.end} end of the {move.bridge} bridge; middle dice cannot be taken",
        rule="R-T03",
        details={"bridge": move.bridge, "end": move.end},
    )


def _place_is_valid(state: GameState, frame: PlaceDie, move: PlaceDieMove) -> bool:
    """Whether the move is among `place_moves`, asking only about its own space (a move's seat is checked
    before, and a normalized place_die has no other field)."""
    assert state.held is not None
    space = move.space
    return space in space_ids(state) and refusal(state, frame.seat, state.held, space) is None


def _explain_place(state: GameState, frame: PlaceDie, move: PlaceDieMove) -> DomainError | None:
    check_space_name(state, move.space)
    assert state.held is not None
    return why_not_place(state, frame.seat, state.held, move.space)


_SHOWN_ONLY = {
    "outside": ("R-O02", "{place} gives one of the two actions shown on it ({shown}), not {option}"),
    "castle": (
        "R-C03",
        "in {place} the die performs only the blocks facing a tile of its colour, not {option}",
    ),
}
"""Menus whose entries are what the board shows for the die placed (a space's actions, the blocks facing a
room's tiles of its colour): an entry not among them is refused under the rule that says so."""


def _explain_menu(
    state: GameState, frame: Menu, move: ChooseMove | RestMove | DoneMove
) -> DomainError | None:
    if isinstance(move, RestMove):
        return IllegalMove("rest resolves two or more entries of a mandatory list", rule="R-P07")
    if isinstance(move, DoneMove):
        return IllegalMove(
            f"every entry of {source_text(frame.title)} must be resolved (it is not optional)",
            rule="R-L01" if frame.title == "lantern" else "R-P07",
        )
    option = next((o for o in frame.options if o.id == move.option), None)
    rule_of_shown = _SHOWN_ONLY.get(frame.title.partition(":")[0])
    if option is None and rule_of_shown is not None:  # the entries this place shows, and no other
        rule, words = rule_of_shown
        shown = " or ".join(o.id for o in frame.options)
        return IllegalMove(
            words.format(place=source_text(frame.title), shown=shown, option=repr(move.option)),
            rule=rule,
            details={"options": [o.id for o in frame.options]},
        )
    if option is None:
        return InvalidMove(
            f"{move.option!r} is not an entry of {source_text(frame.title)}",
            details={"options": [o.id for o in frame.options]},
        )
    if option.id in frame.used:
        return IllegalMove(
            f"{source_text(frame.title, option.id)} was already resolved",
            rule="R-P07",
            details={"option": option.id},
        )
    if not frame.mandatory and futile(state, frame.seat, option):
        reasons = why_futile(state, frame.seat, option)
        words, rule = reasons[0] if reasons else ("it could do nothing now", "R-P07")
        return IllegalMove(
            f"{source_text(frame.title, option.id)} would do nothing: {words} (rules {state.rules_version}: "
            "nothing is spent for nothing)",
            rule=rule,
            details={"option": option.id},
        )
    # A cost seals pay only when converted into two kinds is listed with no conversions (a listed move converts
    # into one kind): say how it can be paid. One kind: the listed move is named below (`_converted_listed`).
    seat = frame.seat
    convertible = (
        conversions_allowed(state, seat)
        and could_pay(state.players[seat], option.cost, conversions(state))
        and paying_conversions(state, seat, option.cost) is None
    )
    return IllegalMove(
        f"{source_text(frame.title, option.id)} costs {cost_text(option.cost)}, more than you hold"
        + ("; seals converted first, as moves of their own, can pay it" if convertible else ""),
        rule="R-C04" if frame.title.startswith("castle") else "R-R05",
        details={"option": option.id},
    )


def _explain_courtier(
    state: GameState, frame: CourtierAction, move: AudienceMove | AscendMove | DoneMove
) -> DomainError | None:
    player = state.players[frame.seat]
    if isinstance(move, AudienceMove):
        if frame.audience_done:
            return IllegalMove("Audience is done at most once per Courtier action", rule="R-CA01")
        if player.courtiers == 0:
            return IllegalMove("no courtier is left on your Domain", rule="R-CA01")
        return IllegalMove(
            f"Audience costs {cost_text(audience_cost(state))}",
            rule="R-CA01",
            details={"coins": player.coins},
        )
    assert isinstance(move, AscendMove)  # done is always legal
    if frame.ascent_done:
        return IllegalMove("Ascent is done at most once per Courtier action", rule="R-CA01")
    found = [
        (f, t, p) for f, t, p in courtier.ascents(state, frame.seat) if f == move.origin and t == move.to
    ]
    if not found:
        return IllegalMove(
            f"no courtier of yours can go from {space_text(move.origin)} to "
            f"{space_text(move.to)}: one or two floors up only",
            rule="R-CA02",
        )
    return IllegalMove(
        f"this ascent costs {found[0][2]} pearl", rule="R-CA01", details={"pearl": player.pearl}
    )


def _explain_warrior(
    state: GameState, frame: WarriorAction, move: WarriorMove | DoneMove
) -> DomainError | None:
    assert isinstance(move, WarriorMove)  # done is always legal
    player = state.players[frame.seat]
    ids = [spec.id for spec in state.catalog.yards]
    if move.yard not in ids:
        return InvalidMove(f"unknown yard {move.yard!r}", details={"yards": ids})
    if player.warriors == 0:
        return IllegalMove("no warrior is left on your Domain", rule="R-WA01")
    return IllegalMove(
        f"{space_text(move.yard)} costs {state.catalog.yard(move.yard).iron} iron",
        rule="R-WA02",
        details={"iron": player.iron},
    )


def _explain_gardener(
    state: GameState, frame: GardenerAction, move: GardenerMove | DoneMove
) -> DomainError | None:
    assert isinstance(move, GardenerMove)  # done is always legal
    player = state.players[frame.seat]
    slot = next((s for s in state.board.gardens if s.id == move.garden), None)
    if slot is None or slot.card is None:
        return InvalidMove(
            f"unknown garden {move.garden!r}", details={"gardens": [s.id for s in state.board.gardens]}
        )
    if player.gardeners == 0:
        return IllegalMove("no gardener is left on your Domain", rule="R-GA01")
    if frame.seat in slot.gardeners:
        return IllegalMove(
            f"{target_text(state, slot.id)} already holds one of your gardeners", rule="R-GA01"
        )
    food = state.catalog.gardens[slot.card].food
    return IllegalMove(
        f"{target_text(state, slot.id)} costs {food} food",
        rule="R-GA01",
        details={"food": player.food},
    )


def _explain_pot(state: GameState, frame: Pot, move: MilestoneMove) -> DomainError | None:
    return IllegalMove("the milestone costs more seals than you hold", rule="R-PT02")


def _explain_geisha(
    state: GameState, frame: GeishaAction, move: SendGeishaMove | AdvanceGeishaMove | DoneMove
) -> DomainError | None:
    """The Geisha action's errors (R-M06..R-M09, R-M13; CT13 is R-M18)."""
    player = state.players[frame.seat]
    spec = state.catalog.matcha
    assert spec is not None
    if isinstance(move, SendGeishaMove):
        if frame.entrance_done:
            text = (
                "this step costs no whisks and sends no geisha" if frame.free_step else "Part A is done once"
            )
            return IllegalMove(f"{text} per Geisha action", rule="R-M18" if frame.free_step else "R-M06")
        if player.geishas == 0:
            return IllegalMove("no geisha is left on your clan board", rule="R-M07")
        return IllegalMove(
            f"sending a geisha to the entrance costs {cost_text(entrance_cost(state))}",
            rule="R-M07",
            details={"coins": player.coins},
        )
    assert isinstance(move, AdvanceGeishaMove)  # done is always legal
    origin, to = move.origin, move.to
    where = tea_garden.places(state)
    if origin not in where or to not in where:
        return InvalidMove(
            f"unknown Tea Garden place {origin if origin not in where else to!r}", details={"places": where}
        )
    if frame.advance_done:
        return IllegalMove("Part B is done once per Geisha action", rule="R-M06")
    if frame.seat not in tea_garden.geishas_at(state, origin) or (
        origin != tea_garden.ENTRANCE and origin not in dict(spec.path)
    ):
        return IllegalMove(f"no geisha of yours can advance from {space_text(origin)}", rule="R-M08")
    steps = tea_garden.steps_from(state, origin).get(to)
    if steps is None:
        return IllegalMove(
            f"a geisha on {space_text(origin)} cannot reach {space_text(to)}: 1 or 2 steps, "
            "the Viewing Platform only from the entrance, "
            "and never back",
            rule="R-M09",
        )
    if frame.free_step and steps != 1:
        return IllegalMove("this free advance is 1 step", rule="R-M18")
    if to == spec.platform:
        return IllegalMove("the Viewing Platform holds one geisha per clan", rule="R-M09")
    if (
        to in dict(spec.tea_house)
        and tea_garden.geishas_at(state, to).count(frame.seat) >= spec.tea_house_per_clan
    ):
        return IllegalMove(f"{space_text(to)} already holds 2 of your geishas", rule="R-M13")
    return IllegalMove(
        f"advancing {steps} step{'s' * (steps > 1)} costs {spec.whisks_per_steps[steps]} whisks",
        rule="R-M08",
        details={"whisks": player.whisks},
    )


def _explain_climb(state: GameState, frame: Climb, move: AscendMove | DoneMove) -> DomainError | None:
    assert isinstance(move, AscendMove)  # done is always legal
    return IllegalMove(
        f"this free climb is 1 floor up for one of your courtiers, not {space_text(move.origin)} "
        f"to {space_text(move.to)}",
        rule="R-M18",
    )


def _explain_deal(state: GameState, frame: DealCard, move: RevealMove) -> DomainError | None:
    rule = {"steward": "R-S03", "diplomat": "R-S03", "daimyo": "R-S04", "plant": "R-S08", "stone": "R-S08"}
    rule |= {"lily_pads": "R-M01", "ikebana": "R-M11", "calligraphy": "R-M11", "ceremony": "R-M01"}
    if move.pool != frame.pool:
        return IllegalMove(
            f"the card revealed now is a {pool_text(frame.pool)}, not a {pool_text(move.pool)}",
            details={"pool": frame.pool},
        )
    return IllegalMove(
        f"{move.card} is not among the {pool_text(frame.pool)}s left to reveal",
        rule=rule.get(frame.pool, "R-S09" if frame.pool == "yard_tiles" else "R-S12"),
        details={"left": deal_outcomes(state, frame)},
    )


def _explain_roll(state: GameState, frame: RollBridge, move: RollMove) -> DomainError | None:
    return IllegalMove(
        f"the {frame.bridge} bridge needs {bridges.dice_per_colour(state)} dice, "
        "values 1-6, in ascending order",
        rule="R-S07",
        details={"bridge": frame.bridge.value},
    )


HANDLERS: dict[type, Handler] = {
    DealCard: Handler(
        deal_waiting,
        deal_auto,
        deal_moves,
        deal_play,
        (RevealMove,),
        "R-S03",
        draw=deal_draw,
        explain=_explain_deal,
    ),
    CheckCastle: _automatic(castle.check_castle_auto),
    DealDieTile: Handler(
        castle.die_tile_waiting,
        castle.die_tile_auto,
        castle.die_tile_moves,
        castle.die_tile_play,
        (DieTileMove,),
        "R-S05",
        draw=castle.die_tile_draw,
        valid=castle.die_tile_valid,
        explain=castle.explain_die_tile,
    ),
    DealWellTile: Handler(
        well.well_tile_waiting,
        well.well_tile_auto,
        well.well_tile_moves,
        well.well_tile_play,
        (WellTileMove,),
        "R-S05",
        draw=well.well_tile_draw,
    ),
    StackOrder: Handler(
        stack_waiting,
        None,
        stack_moves,
        stack_play,
        (StackOrderMove,),
        "R-S11",
        draw=stack_draw,
        valid=lambda s, f, m: sorted(m.order) == list(range(len(s.players))),
    ),
    BeginStartChoice: _automatic(begin_start_choice_auto),
    ChooseStart: Handler(_always, None, choose_start_moves, choose_start_play, (ChooseStartMove,), "R-S12"),
    BeginRound: _automatic(begin_round_auto),
    RollBridge: Handler(
        _always,
        None,
        bridges.roll_moves,
        bridges.roll_play,
        (RollMove,),
        "R-S07",
        draw=bridges.roll_draw,
        valid=bridges.roll_is_valid,
        explain=_explain_roll,
    ),
    TakeDie: Handler(
        _player_takes,
        rival.begin_turn,
        bridges.take_moves,
        bridges.take_play,
        (TakeDieMove,),
        "R-T03",
        explain=_explain_take,
    ),
    PlaceDie: Handler(
        _always,
        None,
        place_moves,
        place_play,
        (PlaceDieMove,),
        "R-P01",
        valid=_place_is_valid,
        explain=_explain_place,
    ),
    EndTurn: _automatic(end_turn_auto),
    Menu: Handler(
        menu_waiting,
        menu_auto,
        menu_moves,
        menu_play,
        (ChooseMove, RestMove, DoneMove),
        "R-P07",
        explain=_explain_menu,
    ),
    Seq: _automatic(run_seq),
    AnyRes: Handler(
        any_res_waiting,
        any_res_auto,
        any_res_moves,
        any_res_play,
        (ResourcesMove,),
        "R-R07",
    ),
    Pot: Handler(
        passage_of_time.pot_waiting,
        passage_of_time.pot_auto,
        passage_of_time.pot_moves,
        passage_of_time.pot_play,
        (MilestoneMove,),
        "R-PT02",
        explain=_explain_pot,
    ),
    CourtierAction: Handler(
        courtier.courtier_waiting,
        _close,
        courtier.courtier_moves,
        courtier.courtier_play,
        (AudienceMove, AscendMove, DoneMove),
        "R-CA01",
        explain=_explain_courtier,
    ),
    WarriorAction: Handler(
        yards.warrior_waiting,
        _close,
        yards.warrior_moves,
        yards.warrior_play,
        (WarriorMove, DoneMove),
        "R-WA02",
        explain=_explain_warrior,
    ),
    GardenerAction: Handler(
        gardens.gardener_waiting,
        _close,
        gardens.gardener_moves,
        gardens.gardener_play,
        (GardenerMove, DoneMove),
        "R-GA01",
        explain=_explain_gardener,
    ),
    DomainAction: Handler(
        _always,
        None,
        personal_domain.domain_action_moves,
        personal_domain.domain_action_play,
        (DomainRowMove, DoneMove),
        "R-D03",
    ),
    DomainRow: _automatic(personal_domain.row_auto),
    Arrive: _automatic(castle.arrive_auto),
    DaimyoSpot: Handler(
        courtier.spot_waiting,
        courtier.spot_auto,
        courtier.spot_moves,
        courtier.spot_play,
        (DaimyoSpotMove,),
        "R-CA04",
    ),
    EndOfRound: _automatic(end_of_round_auto),
    ClearDice: _automatic(clear_dice_auto),
    NextRound: _automatic(next_round_auto),
    SoloStart: _automatic(solo.solo_start_auto),
    RevealSoloCard: Handler(
        _always,
        None,
        rival.reveal_moves,
        rival.reveal_play,
        (SoloCardMove,),
        "R-SO03",
        draw=rival.reveal_draw,
    ),
    RivalIcons: _automatic(rival.icons_auto),
    RivalGarden: Handler(_always, None, rival.garden_moves, rival.garden_play, (RivalGardenMove,), "R-SO05"),
    RivalRoom: Handler(_always, None, rival.room_moves, rival.room_play, (RivalRoomMove,), "R-SO05"),
    # the Tokugawa clan, the solo rival with Matcha (R-TK)
    ChooseStartCards: Handler(
        _always,
        None,
        tokugawa.start_moves,
        tokugawa.start_play,
        (ChooseStartCardsMove,),
        "R-TK01",
        explain=tokugawa.explain_start,
    ),
    RivalGeisha: Handler(
        tokugawa.advance_waiting,
        tokugawa.advance_auto,
        tokugawa.advance_moves,
        tokugawa.advance_play,
        (RivalGeishaMove,),
        "R-TK05",
        explain=tokugawa.explain_advance,
    ),
    RivalDiscard: Handler(
        tokugawa.discard_waiting,
        tokugawa.discard_auto,
        tokugawa.discard_moves,
        tokugawa.discard_play,
        (RivalDiscardMove,),
        "R-TK03",
    ),
    # the Matcha expansion (R-M)
    GeishaAction: Handler(
        tea_garden.geisha_waiting,
        _close,
        tea_garden.geisha_moves,
        tea_garden.geisha_play,
        (SendGeishaMove, AdvanceGeishaMove, DoneMove),
        "R-M06",
        explain=_explain_geisha,
    ),
    HimejiCard: Handler(
        himeji.card_waiting,
        himeji.card_auto,
        himeji.card_moves,
        himeji.card_play,
        (HimejiCardMove, DoneMove),
        "R-M11",
        explain=himeji.explain_card,
    ),
    TakeCurtainCard: _automatic(himeji.take_card_auto),
    Climb: Handler(
        ceremony.climb_waiting,
        _close,
        ceremony.climb_moves,
        ceremony.climb_play,
        (AscendMove, DoneMove),
        "R-M18",
        explain=_explain_climb,
    ),
}


class Step(NamedTuple):
    """The result of `step`: the new state and the seeded chance moves drawn after the move, in order."""

    state: GameState
    chance: tuple[dict[str, Any], ...]


Trace = list[tuple[Frame, GameState]]
"""The automatic frames a move's consequences ran through, each with the state it was resolved on: what the log
reads to say why a question was never asked (`domain.describe`)."""


def settle(state: GameState, trace: Trace | None = None) -> GameState:
    """Run automatic frames until one waits for a move (or the game is over); `trace` collects them."""
    handlers = HANDLERS
    while state.stack:
        frame = state.stack[-1]
        handler = handlers[type(frame)]
        if handler.waiting(state, frame):
            return state
        assert handler.auto is not None
        if trace is not None:
            trace.append((frame, state))
        state = handler.auto(state, frame)
    return state


def is_over(state: GameState) -> bool:
    """Whether the game has ended (R-E05)."""
    return state.phase is Phase.OVER


CONVERSIONS_APART = frozenset({"0.1.0", "0.2.0"})
"""Rules versions under which a seal conversion is only ever a move of its own: from 0.3.0 a move that the
conversions make affordable is listed with them (``convert``)."""
PAYING_FRAMES = (PlaceDie, Menu, CourtierAction, WarriorAction, GardenerAction, GeishaAction)
"""The prompts whose answers may cost coins or resources that seals convert into (R-P04, R-C04, R-CA01,
R-WA02, R-GA01, R-M07, R-M08)."""


def conversions_serve(state: GameState) -> bool:
    """Whether a seal conversion offered now can serve the player whose turn it is: on that player's own question
    in the turns (R-T07), one whose answers may cost what seals convert into (`PAYING_FRAMES`). The engine lists
    conversions more widely (decision C.2); a page offers them here only."""
    if not state.stack or state.phase is not Phase.TURNS:
        return False
    frame = state.stack[-1]
    return isinstance(frame, PAYING_FRAMES) and seat_of(frame) == active_seat(state)


def converted_moves(state: GameState, frame: Frame, listed: Moves) -> Moves:
    """The answers that seal conversions make affordable (rules 0.3.0), each with the fewest conversions into one
    resource that allow it (``"convert": ["coin", "coin"]``), in the order they are found: coins first."""
    seat = seat_of(frame)
    if seat is None or not isinstance(frame, PAYING_FRAMES) or state.rules_version in CONVERSIONS_APART:
        return []
    seals = state.players[seat].seals
    if not seals:
        return []
    handler = HANDLERS[type(frame)]
    assert handler.moves is not None
    seen = set(listed)
    found: Moves = []
    for to, price in conversions(state).items():
        converted = state
        for count in range(1, seals // price + 1):
            before = converted.players[seat]
            converted = convert(converted, seat, to)
            if converted.players[seat] == replace(before, seals=before.seals - price):
                break  # that track is full: converting more buys nothing (R-R03)
            for move in handler.moves(converted, frame):
                if move not in seen:
                    seen.add(move)
                    found.append(move.converting((to,) * count))
    return found


_LISTED: list[tuple[GameState, tuple[Move, ...]]] = []
"""The last state `answers` listed, with its answers: one entry at most."""


def answers(state: GameState) -> tuple[Move, ...]:
    """The answers to the pending prompt, as its handler lists them (without the seal conversions). The last
    state's are remembered: a state never changes, so the state whose moves a client was just given is the one
    its move is checked against next (`validate`), and listing them again cost as much as the check itself."""
    for last, listed in _LISTED:
        if last is state:
            return listed
    frame = state.stack[-1]
    handler = HANDLERS[type(frame)]
    assert handler.moves is not None
    listed = tuple(handler.moves(state, frame))
    _LISTED[:] = [
        (state, listed)
    ]  # replaced whole, in one step: another thread sees the old entry or this one
    return listed


def legal(state: GameState) -> Moves:
    """`legal_moves` as the engine's own typed moves (`domain.kinds`)."""
    if not state.stack:
        return []
    frame = state.stack[-1]
    moves = list(answers(state))
    seat = seat_of(frame)
    if seat is not None and conversions_allowed(state, seat):
        moves.extend(converted_moves(state, frame, moves))
        moves.extend(conversion_moves(state, seat))
    return moves


def legal_moves(state: GameState) -> list[dict[str, Any]]:
    """Every legal answer to the pending prompt (with rules 0.3.0, also those that seal conversions make
    affordable, listed with them), then the free moves of the seat being waited on: the conversions. Each in its
    JSON form (`domain.kinds`)."""
    return [move.as_json() for move in legal(state)]


def prompt_name(frame: Frame) -> str:
    return KIND[type(frame)]


def _whose_turn(state: GameState, seat: int) -> str:
    """The turn errors' words for the seat that is waited on: "Ben's turn (seat 2)"."""
    return seat_text(state, seat, "'s turn")


def validate(state: GameState, move: Any) -> Move:
    """The move, typed, if it is legal now; otherwise the precise error (InvalidMove for a malformed one,
    NotYourTurn, IllegalMove with its rule, GameOver)."""
    return _validate(state, move, hint=True)


def _validate(state: GameState, move: Any, *, hint: bool) -> Move:
    """`validate`; with `hint`, the refusal of a move listed with seal conversions says so."""
    if not state.stack:
        raise GameOver("the game is over: no move applies any more", rule="R-E05")
    checked = move if isinstance(move, Move) else parse(move)
    frame = state.stack[-1]
    handler = HANDLERS[type(frame)]
    waited = seat_of(frame)
    name = prompt_name(frame)
    if checked.chance:
        if not isinstance(frame, CHANCE_FRAMES):
            raise IllegalMove(
                f"it is {_whose_turn(state, waited)}, not chance's: {prompt_text(state)}"
                if waited is not None
                else f"no chance outcome is awaited now: {prompt_text(state)}",
                details={"prompt": name, "seat": waited},
            )
    else:
        seat = checked.seat
        assert seat is not None
        if seat >= len(state.players):
            raise InvalidMove(
                f"there is no seat {seat + 1}: this game has {len(state.players)}",
                details={"seats": len(state.players)},
            )
        if waited is None:
            raise NotYourTurn(
                f"chance decides now, not {seat_text(state, seat)}: {prompt_text(state)}",
                details={"prompt": name, "seat": seat},
            )
        if seat != waited:
            mover = seat_text(state, seat, "'s")
            raise NotYourTurn(
                f"it is {_whose_turn(state, waited)}, not {mover}",
                details={"waiting_for": waited, "seat": seat},
            )
        if isinstance(checked, ConvertMove):
            return _validate_conversion(state, checked)
        if checked.convert:
            return _validate_converted(state, checked)
    if type(checked) not in handler.kinds:
        rule = "R-T02" if state.phase is Phase.TURNS else handler.rule
        raise IllegalMove(
            f"this move does not answer what the game asks now: {prompt_text(state)}",
            rule=rule,
            details={"prompt": name, "expected": sorted(kind.kind for kind in handler.kinds)},
        )
    legal = handler.valid(state, frame, checked) if handler.valid is not None else checked in answers(state)
    if not legal:
        explained = handler.explain(state, frame, checked) if handler.explain is not None else None
        error = explained or IllegalMove(
            f"this answer is not among the legal ones now: {prompt_text(state)}",
            rule=handler.rule,
            details={"prompt": name, "move": checked.as_json()},
        )
        raise _converted_listed(state, frame, checked, error) if hint else error
    return checked


def _converted_listed(state: GameState, frame: Frame, move: Move, error: DomainError) -> DomainError:
    """The refusal of a move that seal conversions make affordable, saying that it is listed with them (R-P04:
    seals converted into coins included)."""
    seat = seat_of(frame)
    if not isinstance(error, IllegalMove) or seat is None or not conversions_allowed(state, seat):
        return error
    plain = move.converting(()) if move.convert else move
    found = next(
        (m for m in converted_moves(state, frame, list(answers(state))) if m.converting(()) == plain), None
    )
    if found is None:
        return error
    return IllegalMove(
        f'{error.message}; with seals converted first it is listed: "{CONVERT}": {json.dumps(list(found.convert))}',
        rule=error.rule,
        details={**error.details, "listed": list(found.convert)},
    )


def _validate_converted(state: GameState, move: Move) -> Move:
    """A move with the seal conversions made just before it (rules 0.3.0): each conversion checked as a move of
    its own would be, then the move on the state they leave."""
    seat = move.seat
    assert seat is not None
    if state.rules_version in CONVERSIONS_APART:
        raise IllegalMove(
            f"this game is played under rules {state.rules_version}, where a seal conversion is a move of its own: "
            "convert first, then play the move",
            rule="R-T07",
            details={"rules_version": state.rules_version},
        )
    converted = state
    for to in move.convert:
        _validate_conversion(converted, ConvertMove(seat, to))
        converted = convert(converted, seat, to)
    plain = move.converting(())
    frame = state.stack[-1]
    listed = list(answers(state))
    # Legal exactly when listed: with the fewest conversions that make it affordable, and only then. A move
    # already affordable is refused as such first, even where the conversions would spend the seal it costs.
    if plain in listed:
        raise IllegalMove(
            "this move needs no seal converted: play it as it is (a conversion is also a move of its own)",
            rule="R-R02",
            details={CONVERT: list(move.convert)},
        )
    offered = converted_moves(state, frame, listed)
    if move in offered:
        return move
    needed = next((m.convert for m in offered if m.converting(()) == plain), None)
    if needed is not None:
        raise IllegalMove(
            f"this move is listed with the fewest seal conversions that make it affordable: {', '.join(needed)}",
            rule="R-R02",
            details={CONVERT: list(move.convert), "listed": list(needed)},
        )
    try:  # not listed with any conversions: why the move is refused once these are made
        _validate(converted, plain, hint=False)
    except DomainError as error:
        error.details.setdefault(CONVERT, list(move.convert))
        raise
    raise IllegalMove(
        "this move needs seals converted into more than one kind, and a listed move converts into one only: "
        "make the conversions as moves of their own, then play it",
        rule="R-R02",
        details={CONVERT: list(move.convert), "listed": None},
    )


def _validate_conversion(state: GameState, move: ConvertMove) -> ConvertMove:
    seat, to = move.seat, move.to
    rates = conversions(state)
    if to not in rates:
        if to == "whisk":
            raise IllegalMove("seals convert to whisks only with Matcha", rule="R-M15", details={"to": to})
        raise InvalidMove(f"seals convert to {', '.join(rates)}", details={"to": to})
    if not conversions_allowed(state, seat):
        raise IllegalMove("seal conversions are made during your own turn", rule="R-T07")
    price = rates[to]
    if state.players[seat].seals < price:
        raise IllegalMove(
            f"{a(to)} costs {price} seal{'s' * (price != 1)}",
            rule="R-R02",
            details={"seals": state.players[seat].seals},
        )
    return move


def play(state: GameState, move: Move, trace: Trace | None = None) -> GameState:
    """Apply a legal move (no validation) and run the automatic steps that follow (`trace` collects them)."""
    frame = state.stack[-1]
    if isinstance(move, ConvertMove):
        return settle(convert(state, move.seat, move.to), trace)
    if move.convert:  # the conversions made just before the move (rules 0.3.0)
        seat = move.seat
        assert seat is not None
        for to in move.convert:
            state = convert(state, seat, to)
        move = move.converting(())
    handler = HANDLERS[type(frame)]
    assert handler.play is not None
    state = handler.play(state, frame, move)
    if move.chance:
        state = replace(state, chance=state.chance + 1)
    return settle(state, trace)


def waiting_for_chance(state: GameState) -> bool:
    return bool(state.stack) and isinstance(state.stack[-1], CHANCE_FRAMES)


def draw_chance(state: GameState) -> Move:
    """The seeded outcome of the pending chance prompt, drawn from the game's seed and its chance counter alone
    (so a replay, or a redraw after an amendment, draws the same), with its rules version's generator
    (`domain.chance`)."""
    frame = state.stack[-1]
    handler = HANDLERS[type(frame)]
    assert handler.draw is not None
    return handler.draw(state, frame, rng_for(state.rules_version, state.seed, state.chance))


def resolve_chance(state: GameState) -> Step:
    """Draw every pending chance prompt (seeded mode; nothing happens in table mode)."""
    drawn: list[dict[str, Any]] = []
    if state.mode is not Mode.SEEDED:
        return Step(state, ())
    while waiting_for_chance(state):
        move = draw_chance(state)
        drawn.append(move.as_json())
        state = play(state, move)
    return Step(state, tuple(drawn))


def step(state: GameState, move: Any, *, check: bool = True) -> Step:
    """Apply a move, then draw the chance prompts that follow (seeded mode) and return them with the state."""
    state = apply(state, move, check=check, draw=False)
    return resolve_chance(state)


def typed(move: Any) -> Move:
    """A move known to be well formed (a recorded one), typed without the checks of `domain.kinds.parse`."""
    return move if isinstance(move, Move) else KINDS[move["kind"]].trusted(move)


def apply(state: GameState, move: Any, *, check: bool = True, draw: bool = True) -> GameState:
    """The state after `move` (its JSON form, or its typed value). With check=False the move is trusted
    (re-applying recorded moves); with draw=True in seeded mode the chance prompts that follow are drawn."""
    state = play(state, validate(state, move) if check else typed(move))
    if draw and state.mode is Mode.SEEDED:
        state = resolve_chance(state).state
    return state
