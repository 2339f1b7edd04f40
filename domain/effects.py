"""The effect interpreter: icons become gains or prompts, and menus resolve entries in any order.

Components are data: a card's effects are icons in a small vocabulary, so adding a card never needs a function.
"""

from __future__ import annotations

from domain.areas import courtier, gardens, yards
from domain.areas.castle import light_menu, tile_menu
from domain.areas.lantern import lantern_items, lantern_menu
from domain.areas.passage_of_time import milestone_reachable
from domain.areas.well import well_menu
from domain.kinds.actions import ChooseMove, DoneMove, RestMove
from domain.kinds.base import Move
from domain.matcha import expansion as matcha
from domain.matcha import tea_garden
from domain.matcha.ceremony import DISTINCT_LIGHT
from domain.matcha.tea_garden import lily_icons
from domain.names import cost_text
from domain.prompts import (
    AnyRes,
    CourtierAction,
    DomainAction,
    Frame,
    GardenerAction,
    GeishaAction,
    Menu,
    Option,
    Pot,
    Seq,
    WarriorAction,
    bundle,
)
from domain.resources import affordable, can_pay, caps, convert, gain_icon, pay, paying_conversions
from domain.state import GameState, pop, replace, replace_in, swap_top, with_player
from domain.vocabulary import GAINS, Icon, IconKind

PURE = GAINS | {IconKind.POT, IconKind.ANY}
"""Icons that only give: resolving them never needs the player to hold anything."""

# What an icon may read or change, for deciding whether the order of two entries can matter.
_ALL = frozenset({"coin", "seal", "food", "iron", "pearl", "whisk", "pot", "spend", "board"})
_WRITES = {
    IconKind.COIN: frozenset({"coin"}),
    IconKind.SEAL: frozenset({"seal"}),
    IconKind.FOOD: frozenset({"food"}),
    IconKind.IRON: frozenset({"iron"}),
    IconKind.PEARL: frozenset({"pearl"}),
    IconKind.CP: frozenset(),
    IconKind.ANY: frozenset({"food", "iron", "pearl"}),
    IconKind.WHISK: frozenset({"whisk"}),
}


def icon_frame(state: GameState, seat: int, icon: Icon) -> Frame:
    """The frame that resolves a non-gain icon."""
    kind = icon.kind
    if kind in matcha.ICONS or (kind is IconKind.LIGHT and icon.amount > 1):
        return matcha.icon_frame(state, seat, icon)
    if kind is IconKind.POT:
        return Pot(seat, icon.amount)
    if kind is IconKind.ANY:
        return AnyRes(seat, icon.amount)
    if kind is IconKind.LANTERN:
        return lantern_menu(state, seat)
    if kind is IconKind.COURTIER:
        return CourtierAction(seat, False, False)
    if kind is IconKind.WARRIOR:
        return WarriorAction(seat)
    if kind is IconKind.GARDENER:
        return GardenerAction(seat)
    if kind is IconKind.WELL:
        return well_menu(state, seat)
    if kind is IconKind.DOMAIN:
        return DomainAction(seat)
    if kind is IconKind.LIGHT:
        return light_menu(state, seat)
    if kind is IconKind.TILE:
        return tile_menu(state, seat, icon.colour)
    raise AssertionError(f"no frame for {icon}")  # pragma: no cover - gains never reach here


def run_seq(state: GameState, frame: Seq) -> GameState:
    """Resolve icons in order until one needs its own frame."""
    seat = frame.seat
    player = state.players[seat]
    stack = state.stack[:-1]
    icons = frame.icons
    limits = caps(state)
    for i, icon in enumerate(icons):
        if icon.kind in GAINS:
            player = gain_icon(player, icon, limits)
            continue
        state = replace(state, players=replace_in(state.players, seat, player), stack=stack)
        rest = icons[i + 1 :]
        nested = icon_frame(state, seat, icon)
        return replace(state, stack=(*stack, Seq(seat, rest), nested) if rest else (*stack, nested))
    return replace(state, players=replace_in(state.players, seat, player), stack=stack)


# --- can the order of entries matter? -


def _expand(state: GameState, seat: int, icons: tuple[Icon, ...]) -> list[Icon]:
    """Icons with the Lantern Reward, the Well and the lily pads replaced by what they give (all are plain
    bundles)."""
    result: list[Icon] = []
    for icon in icons:
        if icon.kind is IconKind.LILY:
            result.extend(_expand(state, seat, lily_icons(state)))
        elif icon.kind is IconKind.LANTERN:
            for _, items in lantern_items(state, seat):
                result.extend(_expand(state, seat, items))
        elif icon.kind is IconKind.WELL:
            menu = well_menu(state, seat)
            for option in menu.options:
                result.extend(_expand(state, seat, option.icons))
        else:
            result.append(icon)
    return result


def _effects(icons: list[Icon], pot_reads_seals: bool) -> tuple[frozenset[str], frozenset[str]]:
    reads: set[str] = set()
    writes: set[str] = set()
    for icon in icons:
        kind = icon.kind
        if kind in _WRITES:
            writes |= _WRITES[kind]
        elif kind is IconKind.POT:
            writes |= {"pot", "spend"}
            if pot_reads_seals:
                reads.add("seal")
        else:
            reads |= _ALL
            writes |= _ALL
    return frozenset(reads), frozenset(writes)


def order_free(state: GameState, seat: int, groups: list[tuple[Icon, ...]]) -> bool:
    """True when resolving the groups in any order gives the same result: plain gains commute (caps are
    symmetric), a Passage of Time move depends on seals only when it can reach a milestone, and any action may
    read or change anything."""
    if len(groups) <= 1:
        return True
    expanded = [_expand(state, seat, group) for group in groups]
    steps = sum(icon.amount for group in expanded for icon in group if icon.kind is IconKind.POT)
    pot_reads_seals = steps > 0 and milestone_reachable(state, seat, steps)
    effects = [_effects(group, pot_reads_seals) for group in expanded]
    for i, (reads_a, writes_a) in enumerate(effects):
        for reads_b, writes_b in effects[i + 1 :]:
            if writes_a & reads_b or reads_a & writes_b:
                return False
    return True


def is_free_gain(state: GameState, seat: int, option: Option) -> bool:
    """No cost, and only gains (the Lantern Reward and the Well expand to gains)."""
    return not option.cost and all(icon.kind in PURE for icon in _expand(state, seat, option.icons))


# --- nothing for nothing (rules 0.3.0) -

FUTILE_OFFERED = frozenset({"0.1.0", "0.2.0"})
"""Rules versions under which an entry whose action could do nothing is still offered (and taken: its cost paid,
nothing done). From 0.3.0 such an entry is not offered, and a menu left with nothing that can be done closes
itself (`futile`): a game keeps the version it was recorded under."""


def _can_act(state: GameState, seat: int, icon: Icon) -> bool:
    """Whether the worker action of `icon` could do anything at all in `state` (its own prompt would ask)."""
    kind = icon.kind
    if kind is IconKind.WARRIOR:
        return yards.warrior_waiting(state, WarriorAction(seat))
    if kind is IconKind.GARDENER:
        return gardens.gardener_waiting(state, GardenerAction(seat))
    if kind is IconKind.COURTIER:
        return courtier.courtier_waiting(state, CourtierAction(seat, False, False))
    return tea_garden.geisha_waiting(state, GeishaAction(seat, False, False))


WORKER_ACTIONS = frozenset({IconKind.WARRIOR, IconKind.GARDENER, IconKind.COURTIER, IconKind.GEISHA})
"""The actions that may find nothing to do: no member left, nothing the player could pay for (R-WA01, R-WA02,
R-GA01, R-CA01, R-M06)."""


def _coins(amount: int) -> str:
    return f"{amount} coin{'s' * (amount != 1)}"


def why_no_action(state: GameState, seat: int, kind: IconKind) -> tuple[str, str] | None:
    """Why a worker action could do nothing now, and the rule that says so; None when it could do something.
    (The log says it when a question is never asked, the engine when such an entry is asked for.)"""
    player = state.players[seat]
    if kind is IconKind.WARRIOR:
        if _can_act(state, seat, Icon(kind)):
            return None
        if player.warriors == 0:
            return "no warrior left", "R-WA01"
        cheapest = min(spec.iron for spec in state.catalog.yards)
        return (
            f"no yard they can pay for: the cheapest costs {cheapest} iron, they hold {player.iron}",
            "R-WA02",
        )
    if kind is IconKind.GARDENER:
        if _can_act(state, seat, Icon(kind)):
            return None
        if player.gardeners == 0:
            return "no gardener left", "R-GA01"
        return f"no garden they can pay for: they hold {player.food} food", "R-GA01"
    if kind is IconKind.COURTIER:
        if _can_act(state, seat, Icon(kind)):
            return None
        catalog = state.catalog
        return (
            f"neither the Gate ({cost_text(catalog.audience_cost)}) nor a climb ({catalog.ascent_pearl.get(1)} "
            f"pearl a floor): they hold {_coins(player.coins)}, {player.pearl} pearl",
            "R-CA01",
        )
    if kind is IconKind.GEISHA:
        if _can_act(state, seat, Icon(kind)):
            return None
        spec = state.catalog.matcha
        entrance = cost_text(spec.entrance_cost) if spec is not None else ""
        step = spec.whisks_per_steps.get(1) if spec is not None else None
        return (
            f"neither the entrance ({entrance or 'free'}) nor a step ({step} whisks): they hold "
            f"{_coins(player.coins)}, {player.whisks} whisk{'s' * (player.whisks != 1)}",
            "R-M06",
        )
    return None


def _paid(state: GameState, seat: int, option: Option) -> GameState | None:
    """The state once the entry's cost is paid, after the seal conversions it needs; None when it cannot be."""
    if not option.cost:
        return state
    needed = paying_conversions(state, seat, option.cost)
    if needed is None:
        return None
    for to in needed:
        state = convert(state, seat, to)
    return with_player(state, seat, pay(state.players[seat], option.cost))


def futile(state: GameState, seat: int, option: Option) -> bool:
    """Whether taking this entry of an optional menu could do nothing (rules 0.3.0): it is worker actions only,
    and none of them could be done once its cost is paid (after the seal conversions that cost needs). A Gardener
    action with no garden's food within reach, a Warrior action with no yard's iron: what it costs would be
    spent for nothing, and the pick with it. (A mandatory menu's entries are all resolved anyway, R-L01.)"""
    if state.rules_version in FUTILE_OFFERED or not option.icons:
        return False
    if any(icon.kind not in WORKER_ACTIONS for icon in option.icons):
        return False
    paid = _paid(state, seat, option)
    if paid is None:
        return False  # not affordable at all: refused as such, not as futile
    return not any(_can_act(paid, seat, icon) for icon in option.icons)


def why_futile(state: GameState, seat: int, option: Option) -> list[tuple[str, str]]:
    """Why each worker action of an entry could do nothing, with its rule: as things stand, or, when only paying
    the entry's cost (and the conversions it needs) leaves it nothing, that paying does."""
    paid = _paid(state, seat, option) or state
    reasons = []
    for icon in option.icons:
        if icon.kind not in WORKER_ACTIONS:
            continue
        found = why_no_action(state, seat, icon.kind)
        if found is None and (found := why_no_action(paid, seat, icon.kind)) is not None:
            seals = paid.players[seat].seals
            left = f", {seals} seal{'s' * (seals != 1)} left" if seals != state.players[seat].seals else ""
            found = (f"paying its {cost_text(option.cost)} leaves {found[0]}{left}", found[1])
        if found is not None:
            reasons.append(found)
    return reasons


# --- menus -


def remaining(frame: Menu) -> list[Option]:
    used = frame.used
    return [option for option in frame.options if option.id not in used]


def _spends_milestone_seals(state: GameState, seat: int, options: list[Option]) -> bool:
    """Whether taking these options' influence would have to pay a milestone: under decision C.3's option
    ``milestones="must_pay"`` a marker that can pay must, so influence reaching a milestone costs seals."""
    if state.options.milestones != "must_pay":
        return False
    steps = sum(
        icon.amount
        for option in options
        for icon in _expand(state, seat, option.icons)
        if icon.kind is IconKind.POT
    )
    if steps == 0 or not milestone_reachable(state, seat, steps):
        return False
    position = state.players[seat].pot
    first = min(space for space in state.catalog.milestones if space > position)
    return state.players[seat].seals >= state.catalog.milestones[first]  # who cannot pay just stops (R-PT02)


def _takes_itself(state: GameState, frame: Menu, left: list[Option]) -> bool:
    groups = [option.icons for option in left]
    if frame.mandatory:
        return order_free(state, frame.seat, groups)
    # An optional entry may be declined (R-P07): it is taken unasked only when taking it cannot cost anything,
    # and influence that must pay a milestone's seals does (C.3, ``must_pay``).
    return (
        frame.picks >= len(left)
        and all(is_free_gain(state, frame.seat, option) for option in left)
        and not _spends_milestone_seals(state, frame.seat, left)
        and order_free(state, frame.seat, groups)
    )


def menu_waiting(state: GameState, frame: Menu) -> bool:
    left = remaining(frame)
    if not left or frame.picks <= 0 or _takes_itself(state, frame, left):
        return False
    if frame.mandatory:
        return True
    return any(
        affordable(state, frame.seat, option.cost) and not futile(state, frame.seat, option)
        for option in left
    )


def menu_auto(state: GameState, frame: Menu) -> GameState:
    left = remaining(frame)
    if left and frame.picks > 0 and _takes_itself(state, frame, left):
        return swap_top(state, Seq(frame.seat, tuple(icon for option in left for icon in option.icons)))
    return pop(state)


def menu_moves(state: GameState, frame: Menu) -> list[Move]:
    seat = frame.seat
    player = state.players[seat]
    left = remaining(frame)
    moves: list[Move] = [
        ChooseMove(seat, option.id)
        for option in left
        if can_pay(player, option.cost) and (frame.mandatory or not futile(state, seat, option))
    ]
    if frame.mandatory:
        if len(left) > 1:
            moves.append(RestMove(seat))
    else:
        moves.append(DoneMove(seat))
    return moves


def menu_play(state: GameState, frame: Menu, move: ChooseMove | RestMove | DoneMove) -> GameState:
    seat = frame.seat
    if isinstance(move, DoneMove):
        return pop(state)
    left = remaining(frame)
    if isinstance(move, RestMove):
        ordered = default_order(state, seat, left)
        return swap_top(state, Seq(seat, tuple(icon for option in ordered for icon in option.icons)))
    option = next(option for option in left if option.id == move.option)
    if option.cost:
        state = with_player(state, seat, pay(state.players[seat], option.cost))
    picks = frame.picks - 1
    used = (*frame.used, option.id)
    if frame.title == DISTINCT_LIGHT:  # CT6: one block on each of 2 different cards, so the card is spent
        card = option.id.partition(":")[0]
        used += tuple(o.id for o in frame.options if o.id.partition(":")[0] == card and o.id not in used)
    keep = picks > 0 and len(used) < len(frame.options)
    rest = (Menu(seat, frame.title, frame.options, used, picks, frame.mandatory),) if keep else ()
    return swap_top(state, *rest, bundle(seat, frame.title, option.icons))


def default_order(state: GameState, seat: int, options: list[Option]) -> list[Option]:
    """The order ``rest`` uses: plain gains, then seals, then influence (seals help pay milestones), then
    actions; but influence before seals when the seals would overflow the cap of 5 anyway."""
    player = state.players[seat]
    seal_gain = sum(
        icon.amount
        for option in options
        for icon in _expand(state, seat, option.icons)
        if icon.kind is IconKind.SEAL
    )
    overflow = player.seals + seal_gain > 5

    def rank(option: Option) -> int:
        kinds = {icon.kind for icon in _expand(state, seat, option.icons)}
        if not kinds <= PURE:
            return 4
        if IconKind.POT in kinds:
            return 1 if overflow else 3
        if IconKind.SEAL in kinds:
            return 2
        return 0

    return sorted(options, key=rank)
