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

from collections.abc import Mapping
from typing import Any

from domain.effects import WORKER_ACTIONS, futile, remaining, why_futile, why_no_action
from domain.engine import Trace, apply, play
from domain.errors import InvalidMove
from domain.kinds import Move, parse
from domain.names import cost_text, icons_text, source_text
from domain.prompts import (
    CourtierAction,
    DaimyoSpot,
    DomainRow,
    GardenerAction,
    GeishaAction,
    Menu,
    Option,
    Pot,
    WarriorAction,
)
from domain.resources import affordable, conversions, convert
from domain.state import GameState, Player
from domain.table import GameTable
from domain.vocabulary import Icon, IconKind, Phase


def _coins(delta: int) -> str:
    if delta > 0:
        return f", gaining {delta} coin{'s' * (delta > 1)}"
    if delta < 0:
        return f", paying {-delta} coin{'s' * (delta < -1)}"
    return ""


def _typed(move: Move | Mapping[str, Any]) -> Move | None:
    """The typed move (None for a malformed one: words must never break recording)."""
    if isinstance(move, Move):
        return move
    try:
        return parse(move)
    except InvalidMove:
        return None


def describe(state: GameState, move: Move | Mapping[str, Any]) -> str:
    """One line for the log; `state` is the state before the move (its JSON form, or its typed value). In a
    solo game the line ends with what the rival did because of the move, if anything (its turn, its end of
    round: ``solo.notes``)."""
    typed = _typed(move)
    if typed is None:
        seat = move.get("seat") if isinstance(move, Mapping) else None
        players = state.players
        who = players[seat].name if isinstance(seat, int) and 0 <= seat < len(players) else "Chance"
        return f"{who}: {move.get('kind') if isinstance(move, Mapping) else move}"
    text = _with_what_it_did(state, typed)
    if state.solo is None:
        return text
    done = rival_notes(state, typed)
    if not done:
        return text
    rival = state.players[state.solo.rival].name
    if typed.rival_plays:
        return f"{rival} (automatic) " + "; ".join(done)
    return f"{text}; then {rival} (automatic): " + "; ".join(done)


def rival_notes(state: GameState, move: Move) -> tuple[str, ...]:
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


def _traced(state: GameState, move: Move) -> tuple[GameState, Trace] | None:
    """The state after the move and the automatic steps it ran through; None for a move that does not apply
    here (the log of a move is written after it was judged legal: this is only a safeguard)."""
    trace: Trace = []
    try:
        return play(state, move, trace), trace
    except Exception:  # words must never break recording: the plain sentence is said then
        return None


def _with_what_it_did(state: GameState, move: Move) -> str:
    """The move's sentence (said on the state its conversions leave, for a move listed with them, and saying
    them first), the end of a round named, then what it did and why a question was never asked."""
    seat = move.seat
    plain = move.converting(()) if move.convert else move
    conversions_made: list[Any] = list(move.convert)
    converted = state
    if isinstance(seat, int) and 0 <= seat < len(state.players) and conversions_made:
        try:
            for to in conversions_made:
                converted = convert(converted, seat, str(to))
        except (KeyError, ValueError):
            converted, conversions_made = state, []
    text = plain.said(GameTable(converted))
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


def payment_text(state: GameState, move: Move | Mapping[str, Any]) -> str:
    """How a move listed with seal conversions (``convert``, rules 0.3.0) is paid, in words: "pay 2 coins + 1
    seal" (what the player holds of the resource, all of it, and the seals converted for the rest); "" for a move
    without conversions."""
    typed = _typed(move)
    if typed is None:
        return ""
    made, seat = list(typed.convert), typed.seat
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


def _what_it_did(state: GameState, move: Move, after: GameState, trace: Trace) -> str:
    """ "; with the Lantern Reward: gains 1 pearl and 1 coin; Passage of Time 4 → 7, past the milestone of space 6
    (1 seal)": what the move changed for its player beyond what its own words say."""
    seat = move.seat
    assert seat is not None
    before, now = state.players[seat], after.players[seat]
    if move.says_all:
        return ""
    stated, complete = move.stated(GameTable(state))
    milestones = _milestones(state, before, now)
    paid_at_milestones = sum(cost for _, cost in milestones) if not move.pays_milestone else 0
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
    if now.pot != before.pot and not move.pays_milestone:
        passed = "".join(
            f", past the milestone of space {space} ({_amount(cost, 'seal', 'seals')})"
            for space, cost in milestones
        )
        parts.append(f"Passage of Time {before.pot} → {now.pot}{passed}")
    elif move.pays_milestone and now.pot != before.pot:
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
