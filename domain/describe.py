"""The game's log: one readable line per move (`describe(state, move)`, with the state before the move),
saying what the move did as well as what it was, and ending, in a solo game, with what the rival did because
of the move.

What a move did is read from the states before and after it (and the automatic steps between, the engine's
trace): what the player gained and paid beyond what the move's own words say (the Lantern Reward, the Well's
seal and tiles, a Personal Domain row's rewards, a starting pair's resources), how far their influence marker
went and which milestones it passed (R-PT02), and, when something could not be done at all, why (no yard's iron
within reach, nothing of a room's blocks affordable...): a turn never ends without the log saying why. A move
that seals were converted for (``convert``, rules 0.3.0) says so, and how it was paid ("2 coins + 1 seal").
Moves of the end of a round (the gardens' activation, the new dice) say so (R-E03, R-E04).

The words for things and questions (places, piles, icons, seats, the pending prompt's question) are
`domain.words`, below the engine; this module sits above it, as telling what a move did means applying it."""

from __future__ import annotations

from typing import Any

from domain.areas import courtier
from domain.areas.castle import dark_action, dealt_again_by
from domain.effects import WORKER_ACTIONS, futile, remaining, why_futile, why_no_action
from domain.engine import Trace, apply, play
from domain.matcha import tea_garden
from domain.moves import CONVERT
from domain.prompts import (
    KIND,
    CheckCastle,
    CourtierAction,
    DaimyoSpot,
    DealCard,
    DomainRow,
    GardenerAction,
    GeishaAction,
    HimejiCard,
    Menu,
    Option,
    Pot,
    WarriorAction,
)
from domain.resources import FIELD, affordable, conversions, convert, cost_text
from domain.state import GameState, Player, bridge_index
from domain.turn import reference
from domain.vocabulary import Colour, Icon, IconKind, Phase, space_text
from domain.words import QUESTIONS, die_tile_text, icons_text, pool_text, source_text, target_text


def _coins(delta: int) -> str:
    if delta > 0:
        return f", gaining {delta} coin{'s' * (delta > 1)}"
    if delta < 0:
        return f", paying {-delta} coin{'s' * (delta < -1)}"
    return ""


def describe(state: GameState, move: dict[str, Any]) -> str:
    """One line for the log; `state` is the state before the move. In a solo game the line ends with what the
    rival did because of the move, if anything (its turn, its end of round: ``solo.notes``)."""
    text = _with_what_it_did(state, move)
    if state.solo is None:
        return text
    done = rival_notes(state, move)
    if not done:
        return text
    rival = state.players[state.solo.rival].name
    if move.get("kind") == "solo_card":
        return f"{rival} (automatic) " + "; ".join(done)
    return f"{text}; then {rival} (automatic): " + "; ".join(done)


def rival_notes(state: GameState, move: dict[str, Any]) -> tuple[str, ...]:
    """What the solo rival did because of `move` (and the automatic steps after it, up to the next prompt)."""
    assert state.solo is not None
    after = apply(state, move, check=False, draw=False).solo
    if after is None:
        return ()
    added = after.noted - state.solo.noted
    return after.notes[len(after.notes) - added :] if added > 0 else ()


# --- what a move did -

_COUNTERS = (
    ("coins", "coin", "coins"),
    ("seals", "seal", "seals"),
    ("food", "food", "food"),
    ("iron", "iron", "iron"),
    ("pearl", "pearl", "pearl"),
    ("whisks", "whisk", "whisks"),
    ("cp", "CP", "CP"),
)
"""The counters a move may change, with their words (one, several)."""


def _amount(amount: int, one: str, many: str) -> str:
    return f"{amount} {one if amount == 1 else many}"


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _traced(state: GameState, move: dict[str, Any]) -> tuple[GameState, Trace] | None:
    """The state after the move and the automatic steps it ran through; None for a move that does not apply
    here (the log of a move is written after it was judged legal: this is only a safeguard)."""
    trace: Trace = []
    try:
        return play(state, dict(move), trace), trace
    except Exception:  # words must never break recording: the plain sentence is said then
        return None


def _with_what_it_did(state: GameState, move: dict[str, Any]) -> str:
    """The move's sentence (said on the state its conversions leave, for a move listed with them, and saying
    them first), the end of a round named, then what it did and why a question was never asked."""
    seat = move.get("seat")
    plain = {name: value for name, value in move.items() if name != CONVERT}
    conversions_made = move.get(CONVERT) if isinstance(move.get(CONVERT), list) else []
    converted = state
    if isinstance(seat, int) and 0 <= seat < len(state.players) and conversions_made:
        try:
            for to in conversions_made:
                converted = convert(converted, seat, str(to))
        except (KeyError, ValueError):
            converted, conversions_made = state, []
    text = _describe(converted, plain)
    if conversions_made and isinstance(seat, int):
        who = state.players[seat].name
        rest = text[len(who) + 1 :] if text.startswith(f"{who} ") else text
        text = f"{who} {_conversion_words(state, conversions_made)} and {rest}"
    if state.phase is Phase.END_OF_ROUND and isinstance(seat, int):
        text = f"End of round {state.round}, garden activation: {text}"
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        return text
    traced = _traced(state, move)
    if traced is None:
        return text
    after, trace = traced
    clause = _what_it_did(converted, plain, after, trace)
    why = _why_nothing(trace, seat)
    return text + clause + why


def _conversion_words(state: GameState, made: list[Any]) -> str:
    """ "converts 1 seal into 1 coin", "converts 4 seals into 2 pearl" (R-R02)."""
    rates = conversions(state)
    parts = []
    for to in dict.fromkeys(made):
        count = made.count(to)
        seals = count * rates.get(str(to), 1)
        bought = f"{count} {to}{'s' * (count > 1 and to in ('coin', 'whisk'))}"
        parts.append(f"{_amount(seals, 'seal', 'seals')} into {bought}")
    return "converts " + _listed(parts)


def payment_text(state: GameState, move: dict[str, Any]) -> str:
    """How a move listed with seal conversions (``convert``, rules 0.3.0) is paid, in words: "pay 2 coins + 1
    seal" (what the player holds of the resource, all of it, and the seals converted for the rest); "" for a move
    without conversions."""
    made = move.get(CONVERT)
    seat = move.get("seat")
    if not made or not isinstance(seat, int) or not 0 <= seat < len(state.players):
        return ""
    player = state.players[seat]
    rates = conversions(state)
    parts = []
    for to in dict.fromkeys(made):
        count = made.count(to)
        held = getattr(player, _HELD.get(str(to), str(to)), 0)
        noun = {"coin": ("coin", "coins"), "whisk": ("whisk", "whisks")}.get(str(to), (str(to), str(to)))
        seals = count * rates.get(str(to), 1)
        paid = f"{_amount(held, *noun)} + " if held else ""
        parts.append(f"{paid}{_amount(seals, 'seal', 'seals')}")
    return "pay " + " and ".join(parts)


_HELD = {"coin": "coins", "whisk": "whisks"}
"""The Player field of what a conversion buys, where it is not the same word."""


def _stated(state: GameState, move: dict[str, Any]) -> tuple[dict[str, int], bool]:
    """What the move's own words already say it changed (so the rest is said after them), and whether they say
    every gain (a chosen entry of plain gains, a favour spot)."""
    kind = move.get("kind")
    seat = move["seat"]
    stated: dict[str, int] = {}
    complete = False
    frame = state.stack[-1] if state.stack else None
    if kind == "place_die" and state.held is not None:
        stated["coins"] = state.held.value - reference(state, move["space"])
    elif kind == "choose" and isinstance(frame, Menu):
        option = next((o for o in frame.options if o.id == move["option"]), None)
        if option is not None:
            for resource, amount in option.cost:
                stated[FIELD[resource]] = stated.get(FIELD[resource], 0) - amount
            complete = all(icon.kind.value in _GAIN_KINDS for icon in option.icons)
            if not complete and any(icon.kind.value in _GAIN_KINDS for icon in option.icons):
                stated["listed"] = 1  # its words name some gains: the rest is said as the whole
    elif kind in ("audience", "send_geisha"):
        stated["coins"] = -2
    elif kind == "warrior":
        stated["iron"] = -state.catalog.yard(move["yard"]).iron
    elif kind == "gardener":
        slot = next((s for s in state.board.gardens if s.id == move["garden"]), None)
        if slot is not None and slot.card is not None:
            stated["food"] = -state.catalog.gardens[slot.card].food
    elif kind == "ascend":
        stated["pearl"] = -_ascent_pearl(state, move)
    elif kind == "advance_geisha":
        stated["whisks"] = -_geisha_whisks(state, move)
    elif kind == "milestone" and move.get("pay"):
        stated["seals"] = -state.catalog.milestones.get(state.players[seat].pot + 1, 0)
    elif kind == "resources":
        stated = {name: move[name] for name in ("food", "iron", "pearl")}
        complete = True
    elif kind == "daimyo_spot":
        complete = True
    elif kind == "convert":
        return {}, True
    return stated, complete


_GAIN_KINDS = frozenset({"coin", "seal", "food", "iron", "pearl", "cp", "whisk"})


def _ascent_pearl(state: GameState, move: dict[str, Any]) -> int:
    found = [p for f, t, p in courtier.ascents(state, move["seat"]) if f == move["from"] and t == move["to"]]
    return found[0] if found else 0


def _geisha_whisks(state: GameState, move: dict[str, Any]) -> int:
    frame = state.stack[-1] if state.stack else None
    free = isinstance(frame, GeishaAction) and frame.free_step
    if free:
        return 0
    steps = tea_garden.steps_from(state, move["from"]).get(move["to"])
    spec = state.catalog.matcha
    return spec.whisks_per_steps.get(steps, 0) if spec is not None and steps else 0


def _sources(trace: Trace, seat: int) -> list[str]:
    """What gave the player something by itself in the move's automatic steps: a list of gains that resolved
    itself (the Lantern Reward, R-T05; the Well, R-W02; a room's or space's free blocks) and a Personal Domain
    row's rewards (R-D02), in the order they came."""
    found: list[str] = []
    for frame, state in trace:
        if getattr(frame, "seat", None) != seat:
            continue
        if isinstance(frame, DomainRow):
            words = f"their {frame.row} row"
        elif (isinstance(frame, Menu) and frame.title in _GIVERS) or (
            isinstance(frame, Menu)
            and frame.title.partition(":")[0] in ("castle", "outside", "tea_room", "himeji")
        ):
            left = remaining(frame)
            if not left or not (frame.mandatory or _takes_free(state, frame, left)):
                continue
            words = _GIVERS.get(frame.title) or source_text(frame.title)
        else:
            continue
        if words not in found:
            found.append(words)
    return found


_GIVERS = {"lantern": "the Lantern Reward", "well": "the Well"}
"""Lists of gains named in the log by what they are, when they resolve themselves."""


def _what_it_did(state: GameState, move: dict[str, Any], after: GameState, trace: Trace) -> str:
    """ "; with the Lantern Reward: gains 1 pearl and 1 coin; Passage of Time 4 → 7, past the milestone of space 6
    (1 seal)": what the move changed for its player beyond what its own words say."""
    seat = move["seat"]
    before, now = state.players[seat], after.players[seat]
    if move.get("kind") == "convert":
        return ""  # its words say it all
    stated, complete = _stated(state, move)
    milestones = _milestones(state, before, now)
    paid_at_milestones = sum(cost for _, cost in milestones) if move.get("kind") != "milestone" else 0
    gains: list[str] = []
    pays: list[str] = []
    lost: list[str] = []
    for field, one, many in _COUNTERS:
        change = getattr(now, field) - getattr(before, field) - stated.get(field, 0)
        if field == "seals":
            change += paid_at_milestones
        if change < 0 and stated.get(field, 0) > 0:
            lost.append(_amount(min(-change, stated[field]), one, many))  # a gain its words said, over a cap
            change += min(-change, stated[field])
        if change > 0 and not complete:
            gains.append(_amount(change, one, many))
        elif change < 0:
            pays.append(_amount(-change, one, many))
    parts = []
    if gains:
        parts.append(f"{'in all, ' if stated.get('listed') else ''}gains {_listed(gains)}")
    if pays:
        parts.append(f"pays {_listed(pays)}")
    if lost:
        parts.append(f"{_listed(lost)} lost over the cap (R-R01, R-R03)")
    if now.pot != before.pot and move.get("kind") != "milestone":
        passed = "".join(
            f", past the milestone of space {space} ({_amount(cost, 'seal', 'seals')})"
            for space, cost in milestones
        )
        parts.append(f"Passage of Time {before.pot} → {now.pot}{passed}")
    elif move.get("kind") == "milestone" and now.pot != before.pot:
        parts.append(f"Passage of Time {before.pot} → {now.pot}")
    if not parts:
        return ""
    sources = _sources(trace, seat)
    via = f"with {_listed(sources)}: " if sources and (gains or now.pot != before.pot) else ""
    return "; " + via + "; ".join(parts)


def _milestones(state: GameState, before: Player, now: Player) -> list[tuple[int, int]]:
    """The milestones a marker passed from `before` to `now`, with their seals (R-PT02)."""
    return [
        (space, cost)
        for space, cost in sorted(state.catalog.milestones.items())
        if before.pot < space <= now.pot
    ]


# --- why nothing was done (rules 0.3.0 close what cannot be done; every version says why) -


def _why_action(state: GameState, seat: int, kind: IconKind) -> str | None:
    """Why a worker action could do nothing now, with its rule; None when it could do something."""
    found = why_no_action(state, seat, kind)
    return None if found is None else f"{found[0]} ({found[1]})"


_ACTION_WORDS = {
    WarriorAction: IconKind.WARRIOR,
    GardenerAction: IconKind.GARDENER,
    CourtierAction: IconKind.COURTIER,
    GeishaAction: IconKind.GEISHA,
}


def _option_reason(state: GameState, seat: int, option: Option) -> str:
    if not affordable(state, seat, option.cost):
        return f"{icons_text(option.icons)} (it costs {cost_text(option.cost)})"
    reasons = [f"{words} ({rule})" for words, rule in why_futile(state, seat, option)]
    return f"{icons_text(option.icons)} ({'; '.join(reasons)})" if reasons else icons_text(option.icons)


def _why_nothing(trace: Trace, seat: int) -> str:
    """Why a question of the player's was never asked: an action with nothing it could do, a menu with nothing
    that could be paid or done, a milestone that could not be paid, a Daimyo with no free spot."""
    said: list[str] = []
    for frame, state in trace:
        if getattr(frame, "seat", None) != seat:
            continue
        if type(frame) in _ACTION_WORDS:
            if isinstance(frame, CourtierAction) and (frame.audience_done or frame.ascent_done):
                continue  # one part was done: the rest was simply not possible, nothing was lost
            if isinstance(frame, GeishaAction) and (
                frame.entrance_done or frame.advance_done or frame.free_step
            ):
                continue
            reason = _why_action(state, seat, _ACTION_WORDS[type(frame)])
            if reason is not None:
                said.append(f"{icons_text((Icon(_ACTION_WORDS[type(frame)]),))} does nothing: {reason}")
        elif isinstance(frame, Menu) and not frame.mandatory and frame.picks > 0:
            left = remaining(frame)
            if not left or len(left) < len(frame.options) or _takes_free(state, frame, left):
                continue  # an entry was taken, or they were all taken by themselves
            reasons = [_option_reason(state, seat, option) for option in left]
            said.append(f"nothing more at {source_text(frame.title)}: {', '.join(reasons)}")
        elif isinstance(frame, Pot):
            player = state.players[seat]
            cost = state.catalog.milestones.get(player.pot + 1)
            if cost is not None and player.seals < cost:
                said.append(
                    f"the influence marker stops before the milestone of space {player.pot + 1}, which costs "
                    f"{_amount(cost, 'seal', 'seals')} (R-PT02)"
                )
        elif isinstance(frame, DaimyoSpot) and all(spot is not None for spot in state.board.daimyo.spots):
            said.append("no favour spot of the Daimyo is free: the courtier stays with no bonus (R-CA04)")
    return "".join(f"; {line}" for line in said)


def _takes_free(state: GameState, frame: Menu, left: list[Option]) -> bool:
    """Whether a menu that did not wait took its entries by itself (free gains) rather than closing."""
    return (
        all(not option.cost for option in left)
        and all(not any(icon.kind in WORKER_ACTIONS for icon in option.icons) for option in left)
        and not any(futile(state, frame.seat, option) for option in left)
    )


def _describe(state: GameState, move: dict[str, Any]) -> str:
    kind = move.get("kind")
    seat = move.get("seat")
    who = state.players[seat].name if isinstance(seat, int) and 0 <= seat < len(state.players) else "Chance"
    frame = state.stack[-1] if state.stack else None
    if kind == "take_die":
        bridge = state.board.bridges[bridge_index(state, move["bridge"])]
        value = bridge.left if move["end"] == "left" else bridge.right
        if value is None:
            value = bridge.right if move["end"] == "left" else bridge.left
        lantern = " (lantern end)" if move["end"] == "left" else ""
        return f"{who} takes the {move['bridge']} {value} from the {move['end']} end{lantern}"
    if kind == "place_die":
        held = state.held
        if held is None:
            return f"{who} places a die on {space_text(move['space'])}"
        delta = held.value - reference(state, move["space"])
        return f"{who} places the {held.colour} {held.value} on {space_text(move['space'])}{_coins(delta)}"
    if kind == "choose" and isinstance(frame, Menu):
        option = next((o for o in frame.options if o.id == move["option"]), None)
        if option is None:
            return f"{who} chooses {move['option']}"
        cost = f"pays {cost_text(option.cost)} for " if option.cost else "takes "
        return f"{who} {cost}{icons_text(option.icons)} ({source_text(frame.title, option.id)})"
    if kind == "rest" and isinstance(frame, Menu):
        return f"{who} takes the rest of {source_text(frame.title)} in the usual order"
    if kind == "done" and isinstance(frame, HimejiCard):
        return f"{who} declines the card of path space 1"
    if kind == "done":
        title = (
            source_text(frame.title)
            if isinstance(frame, Menu)
            else QUESTIONS.get(KIND[type(frame)], KIND[type(frame)].replace("_", " "))
            if frame
            else "the prompt"
        )
        return f"{who} declines the rest ({title})"
    if kind == "audience":
        return f"{who} sends a courtier to the Gate for 2 coins"
    if kind == "ascend":
        pearl = _ascent_pearl(state, move) if isinstance(seat, int) else 0
        paid = f" for {pearl} pearl" if pearl else ""
        return f"{who}'s courtier climbs from {space_text(move['from'])} to {space_text(move['to'])}{paid}"
    if kind == "warrior":
        spec = state.catalog.yard(move["yard"])
        return f"{who} sends a warrior to {move['yard'].replace('_', ' ')} for {spec.iron} iron"
    if kind == "gardener":
        slot = next(s for s in state.board.gardens if s.id == move["garden"])
        food = state.catalog.gardens[slot.card].food if slot.card else 0
        garden = move["garden"].replace("_", " ")
        return f"{who} sends a gardener to the {garden} garden ({slot.card}) for {food} food"
    if kind == "domain_row":
        return f"{who} activates the {move['row']} row of their Domain"
    if kind == "resources":
        gained = ", ".join(f"{move[r]} {r}" for r in ("food", "iron", "pearl") if move[r])
        return f"{who} gains {gained or 'nothing'}"
    if kind == "milestone":
        space = state.players[seat].pot + 1 if isinstance(seat, int) else 0
        if move["pay"]:
            seals = state.catalog.milestones.get(space, 0)
            return f"{who} pays {_amount(seals, 'seal', 'seals')} to pass the milestone of space {space}"
        return f"{who} stops before the milestone of space {space}"
    if kind == "daimyo_spot":
        card = state.board.daimyo.card
        icons = state.catalog.daimyo[card][move["spot"]] if card else ()
        return f"{who}'s courtier takes favour spot {move['spot'] + 1} of the Daimyo ({icons_text(icons)})"
    if kind == "choose_start":
        pair = next((p for p in state.board.offer if p.resource == move["resource"]), None)
        action = pair.action if pair else "?"
        token = f" with ceremony token {pair.token}" if pair and pair.token else ""
        return f"{who} chooses the starting pair {move['resource']} + {action}{token}"
    if kind == "send_geisha":
        return f"{who} sends a geisha to the Tea Garden entrance for 2 coins"
    if kind == "advance_geisha":
        whisks = _geisha_whisks(state, move) if isinstance(seat, int) else 0
        paid = f" for {whisks} whisks" if whisks else ""
        return f"{who}'s geisha goes from {space_text(move['from'])} to {space_text(move['to'])}{paid}"
    if kind == "himeji_card":
        return f"{who} chooses the {move['deck'].capitalize()} card"
    if kind == "convert":
        price = 1 if move["to"] == "coin" else 2
        return f"{who} converts {price} seal{'s' * (price > 1)} into 1 {move['to']}"
    if kind == "reveal":
        where = target_text(state, frame.target) if isinstance(frame, DealCard) else "the table"
        return f"Chance: {pool_text(move['pool'])} {move['card']} is revealed for {where}{_redeal_words(state, move)}"
    if kind == "die_tile":
        return (
            f"Chance: a {move['colour']} die tile is drawn for {die_tile_text(state, Colour(move['colour']))}"
        )
    if kind == "well_tile":
        tile = state.catalog.die_tiles.get(move["tile"])
        reward = icons_text(tile.reward) if tile else "?"
        return f"Chance: die tile {move['tile']} ({reward}) is laid at the Well"
    if kind == "roll":
        new_round = f" for round {state.round + 1}" if state.phase is Phase.END_OF_ROUND else ""
        return f"Chance: the {move['bridge']} dice roll {', '.join(map(str, move['dice']))}{new_round}"
    if kind == "stack_order":
        names = ", ".join(state.players[s].name for s in move["order"] if 0 <= s < len(state.players))
        return f"Chance: the influence stack, top first (turn order): {names}"
    if kind == "solo_card":
        return f"Chance: the solo card {move['card']} is revealed"
    if kind == "rival_garden":
        return f"{who} chooses the {move['garden'].replace('_', ' ')} garden for the rival's gardener (a tie)"
    if kind == "rival_room":
        return f"{who} chooses {space_text(move['room'])} for the rival's courtier"
    if kind == "choose_start_cards":
        return (
            f"{who} chooses the starting cards {move['resource']} + {move['action']} "
            f"and ceremony token {move['token']}"
        )
    if kind == "rival_geisha":
        return f"{who} advances a geisha of the rival from {space_text(move['from'])} to {space_text(move['to'])}"
    if kind == "rival_discard":
        return f"{who} chooses the {move['deck'].capitalize()} deck to discard from, for the rival's geisha"
    return f"{who}: {kind}"


def _redeal_words(state: GameState, move: dict[str, Any]) -> str:
    """After the last card of the castle's deal: why the castle is dealt again, if it is (R-S03), else ""."""
    if len(state.stack) < 2 or not isinstance(state.stack[-2], CheckCastle):
        return ""
    if not dealt_again_by(state, move["card"]):
        return ""
    dark = dark_action(state.catalog.cards[move["card"]])
    return (
        f"; all {len(state.board.rooms)} castle cards show the same dark-background action "
        f"({icons_text(dark)}): they go back into their decks, shuffled, and the castle is dealt again (R-S03)"
    )
