"""The Tokugawa clan: the solo rival of a game with Matcha (R-TK01..R-TK07).

The base solo rules hold; this module adds the starting choice, the losses, the rival's geishas and symbols 1 to 4
of the Tokugawa cards (docs/rules/solo.md).
"""

from __future__ import annotations

import itertools

from domain.catalog import HIMEJI_DECKS, natural
from domain.errors import IllegalMove
from domain.kinds.base import Move
from domain.kinds.tokugawa import ChooseStartCardsMove, RivalDiscardMove, RivalGeishaMove
from domain.matcha.himeji import deck
from domain.matcha.tea_garden import (
    ENTRANCE,
    geishas_at,
    has_room,
    members_placed,
    place_geisha,
    places,
    steps_from,
)
from domain.prompts import ChooseStartCards, DealCard, RivalDiscard, RivalGeisha, RivalIcons, Seq
from domain.solo.cards import ALL, RivalIcon, RivalIconKind
from domain.solo.game import human_of, impossible, note
from domain.state import (
    GameState,
    StartPair,
    matcha_spec,
    pop,
    push,
    replace,
    replace_in,
    with_board,
    with_player,
)
from domain.vocabulary import space_text

SYMBOLS = {"entrance": 2, "path_1": 3, "path_2": 4}
"""MA's solo symbol of each place a geisha is sent to (R-TK05..R-TK07)."""
STEPS: dict[str, tuple[str, ...]] = {
    "entrance": ("lose_cp:3", "advance"),
    "path_1": ("discard", "lose_coin:all", "advance"),
    "path_2": ("discard", "lose_pot:2"),
}
"""What follows the geisha of symbols 2, 3 and 4, in MA's order (R-TK05 (1)-(2), R-TK06, R-TK07); the
``discard`` is R-TK03's, for a geisha stopping on a path space."""


# --- setup (R-TK01) -


def start_offer(state: GameState) -> tuple[list[str], list[str], list[str]]:
    """The Starting Resource cards, Starting Action cards and ceremony tokens dealt to choose from."""
    offer = state.board.offer
    resources = sorted({pair.resource for pair in offer if pair.resource is not None}, key=natural)
    actions = sorted({pair.action for pair in offer if pair.action is not None}, key=natural)
    tokens = sorted({pair.token for pair in offer if pair.token is not None}, key=natural)
    return resources, actions, tokens


def start_moves(state: GameState, frame: ChooseStartCards) -> list[Move]:
    resources, actions, tokens = start_offer(state)
    return [
        ChooseStartCardsMove(frame.seat, r, a, t) for r, a, t in itertools.product(resources, actions, tokens)
    ]


def start_play(state: GameState, frame: ChooseStartCards, move: ChooseStartCardsMove) -> GameState:
    """The Action card to the clan board, the resource card (and its Decree) to the Lantern Area, the token to
    the clan board, and the resource card's items gained (R-TK01, R-S12); the cards and token not chosen go
    back to the box."""
    seat = frame.seat
    card = state.catalog.starting_resources[move.resource]
    lantern = (card.id,) if card.decree is None else (card.id, card.decree)
    player = replace(state.players[seat], action_card=move.action, lantern=lantern, ceremony=move.token)
    state = with_player(state, seat, player)
    state = with_board(state, offer=tuple(StartPair(None, None) for _ in state.board.offer))
    return push(pop(state), Seq(seat, card.gain))


def explain_start(state: GameState, frame: ChooseStartCards, move: ChooseStartCardsMove) -> IllegalMove:
    """Which of the three choices was not dealt (R-TK01)."""
    resources, actions, tokens = start_offer(state)
    kinds = (
        ("resource", "Starting Resource cards", resources),
        ("action", "Starting Action cards", actions),
        ("token", "ceremony tokens", tokens),
    )
    for field, noun, dealt in kinds:
        chosen = getattr(move, field)
        if chosen not in dealt:
            return IllegalMove(
                f"{chosen} is not among the {noun} dealt to choose from: {', '.join(dealt)}",
                rule="R-TK01",
                details={field: chosen, "dealt": dealt},
            )
    return IllegalMove("choose 1 of each kind among what was dealt", rule="R-TK01")  # pragma: no cover


# --- the rival's icons (R-TK02..R-TK07) -


def resolve(state: GameState, rival: int, icon: RivalIcon) -> GameState:
    """One Tokugawa icon: a geisha symbol, a loss, a discard or the advance of another geisha."""
    kind = icon.kind
    if kind is RivalIconKind.GEISHA:
        return symbol(state, rival, icon.type)
    if kind is RivalIconKind.DISCARD:
        return push(state, RivalDiscard(human_of(state), rival))
    if kind is RivalIconKind.ADVANCE:
        return push(state, RivalGeisha(human_of(state), rival, icon.type))
    return lose(state, rival, icon)


def symbol(state: GameState, rival: int, place: str) -> GameState:
    """Symbols 2-4: a geisha of the rival's supply to `place`, then the symbol's steps (R-TK05..R-TK07); with
    an empty supply the rival gains CP equal to the round instead of the geisha (R-TK03)."""
    number = SYMBOLS[place]
    steps = STEPS[place]
    if state.players[rival].geishas == 0:
        state = impossible(state, rival, f"send a geisha to {space_text(place)} (symbol {number}: none left)")
        steps = tuple(step for step in steps if step != "discard")
    else:
        state = place_geisha(state, rival, place)
        state = note(state, f"symbol {number}: a geisha from its supply to {space_text(place)}")
        steps = tuple(f"advance:{place}" if step == "advance" else step for step in steps)
    return push(state, RivalIcons(rival, steps))


def lose(state: GameState, rival: int, icon: RivalIcon) -> GameState:
    """R-TK02: the rival loses as much as it can of what the icon names, and nothing if it has nothing."""
    player = state.players[rival]
    kind = icon.kind
    if kind is RivalIconKind.LOSE_POT:
        return lose_influence(state, rival, icon.amount)
    if kind is RivalIconKind.LOSE_CP:
        lost = min(icon.amount, player.cp)
        state = with_player(state, rival, replace(player, cp=player.cp - lost))
        unit, asked = "CP", f"{icon.amount} CP"
    else:
        lost = player.coins if icon.type == ALL else min(icon.amount, player.coins)
        state = with_player(state, rival, replace(player, coins=player.coins - lost))
        unit = "coin" if lost == 1 else "coins"
        asked = "all its coins" if icon.type == ALL else f"{icon.amount} coins"
    if lost == 0:
        return note(state, f"loses {asked}: it has none")
    short = " (all it had)" if icon.type != ALL and lost < icon.amount else ""
    return note(state, f"loses {lost} {unit}{short}")


def lose_influence(state: GameState, rival: int, steps: int) -> GameState:
    """The rival's influence marker moves `steps` spaces back, no further than the start (R-TK02); where it lands
    on a marker, it lies on top of it (R-TK07, R-PT03)."""
    player = state.players[rival]
    to = max(0, player.pot - steps)
    if to == player.pot:
        return note(state, f"influence -{steps}: the marker is at the start of the track")
    stamp = state.board.stamp + 1
    state = with_board(state, stamp=stamp)
    state = with_player(state, rival, replace(player, pot=to, pot_stamp=stamp))
    human = state.players[human_of(state)]
    top = f", on top of {human.name}'s marker" if human.pot == to else ""
    return note(state, f"influence -{player.pot - to} (Passage of Time {to}{top})")


# --- a rival geisha on a path space: a Himeji card discarded (R-TK03, R-TK06) -


def discard_decks(state: GameState) -> list[str]:
    """The Ikebana and Calligraphy decks holding at least 2 cards (the top card and one under it)."""
    return [name for name in HIMEJI_DECKS if deck(state, name).top is not None and deck(state, name).rest]


def discard_moves(state: GameState, frame: RivalDiscard) -> list[Move]:
    return [RivalDiscardMove(frame.seat, name) for name in discard_decks(state)]


def discard_waiting(state: GameState, frame: RivalDiscard) -> bool:
    return len(discard_decks(state)) > 1


def discard_auto(state: GameState, frame: RivalDiscard) -> GameState:
    decks = discard_decks(state)
    if not decks:
        return note(pop(state), "no Ikebana or Calligraphy deck holds 2 cards: nothing is discarded")
    return discard(pop(state), decks[0])


def discard_play(state: GameState, frame: RivalDiscard, move: RivalDiscardMove) -> GameState:
    return discard(pop(state), move.deck)


def discard(state: GameState, name: str) -> GameState:
    """The deck's top card leaves the game; its next card is revealed (a chance prompt)."""
    matcha = state.board.matcha
    assert matcha is not None
    index = next(i for i, d in enumerate(matcha.decks) if d.id == name)
    card = matcha.decks[index].top
    decks = replace_in(matcha.decks, index, replace(matcha.decks[index], top=None))
    state = with_board(state, matcha=replace(matcha, decks=decks))
    state = note(state, f"the {name.capitalize()} card {card} is discarded")
    return push(state, DealCard(name, f"himeji:{name}"))


# --- the player advances a rival geisha 1 step (R-TK05 (2), R-TK06 (2), R-TK03) -


def best_rooms(state: GameState, rival: int) -> list[str]:
    """The Tea House rooms with room for a rival geisha that score it the most CP now (R-TK03, R-F08)."""
    spec = matcha_spec(state)
    points = {
        room: spec.points_per_member * members_placed(state, rival, member)
        for room, member in spec.tea_house
        if has_room(state, rival, room)
    }
    best = max(points.values(), default=0)
    return [room for room, value in points.items() if value == best]


def advance_options(state: GameState, rival: int, sent: str) -> list[tuple[str, str]]:
    """(from, to) of every 1-step advance of a rival geisha other than the one just sent to `sent`: to the
    Viewing Platform if it has room, along the path, into the best Tea House rooms."""
    spec = matcha_spec(state)
    rooms = {room for room, _ in spec.tea_house}
    best = best_rooms(state, rival)
    options = []
    for origin in (ENTRANCE, *(space for space, _ in spec.path)):
        if geishas_at(state, origin).count(rival) - (origin == sent) <= 0:
            continue
        for to, steps in steps_from(state, origin).items():
            if steps == 1 and has_room(state, rival, to) and (to not in rooms or to in best):
                options.append((origin, to))
    return options


def advance_moves(state: GameState, frame: RivalGeisha) -> list[Move]:
    return [
        RivalGeishaMove(frame.seat, origin, to)
        for origin, to in advance_options(state, frame.rival, frame.sent)
    ]


def advance_waiting(state: GameState, frame: RivalGeisha) -> bool:
    return len(advance_options(state, frame.rival, frame.sent)) > 1


def advance_auto(state: GameState, frame: RivalGeisha) -> GameState:
    options = advance_options(state, frame.rival, frame.sent)
    if not options:
        which = "another" if frame.sent else "a"
        return impossible(pop(state), frame.rival, f"advance {which} geisha 1 step (none can)")
    origin, to = options[0]
    return advance(pop(state), frame.rival, origin, to)


def advance_play(state: GameState, frame: RivalGeisha, move: RivalGeishaMove) -> GameState:
    return advance(pop(state), frame.rival, move.origin, move.to)


def advance(state: GameState, rival: int, origin: str, to: str) -> GameState:
    """The geisha moves; on a path space it discards a Himeji card, in the Tea House it earns nothing now, and
    nothing else acts (R-SO02, R-TK03)."""
    state = place_geisha(state, rival, to, origin)
    text = f"a geisha advances from {space_text(origin)} to {space_text(to)}"
    spec = matcha_spec(state)
    rooms = dict(spec.tea_house)
    if to in rooms:
        points = spec.points_per_member * members_placed(state, rival, rooms[to])
        text += f" (the room scoring it the most: {points} CP for its {rooms[to]}s placed)"
    state = note(state, text)
    if to in dict(spec.path):
        return push(state, RivalDiscard(human_of(state), rival))
    return state


def explain_advance(state: GameState, frame: RivalGeisha, move: RivalGeishaMove) -> IllegalMove:
    """Why an advance of a rival geisha is not legal now (R-TK03, R-TK05, R-M09)."""
    origin, to = move.origin, move.to
    rival = frame.rival
    rooms = {room for room, _ in matcha_spec(state).tea_house}
    count = geishas_at(state, origin).count(rival) if origin in places(state) else 0
    if count - (origin == frame.sent) <= 0:
        text = f"no rival geisha on {origin} can advance"
        if count:
            text += ": the geisha the symbol has just sent there is not the one you advance"
        return IllegalMove(text, rule="R-TK05", details={"from": origin})
    if steps_from(state, origin).get(to) != 1:
        return IllegalMove(f"the rival's geisha advances 1 step, from {origin} not to {to}", rule="R-TK05")
    if to in rooms and has_room(state, rival, to):
        return IllegalMove(
            f"a rival geisha enters the Tea House room scoring it the most: {', '.join(best_rooms(state, rival))}",
            rule="R-TK03",
            details={"rooms": best_rooms(state, rival)},
        )
    return IllegalMove(f"{to} has no room for another rival geisha", rule="R-M09", details={"to": to})
