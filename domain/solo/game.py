"""The solo game against the automated rival: its setup, its end of round and its score (R-SO01, R-SO04, R-SO06)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.catalog import natural
from domain.errors import InvalidSetup
from domain.kinds.setup import ChooseStartMove
from domain.matcha.tea_garden import platform_options
from domain.prompts import (
    BeginStartChoice,
    ChooseStart,
    ChooseStartCards,
    DealCard,
    Frame,
    SoloStart,
    StackOrder,
)
from domain.setup import choose_start_play
from domain.state import GameState, Solo, StartPair, replace, replace_in, with_board, with_player

RIVAL_NAME = "Rival"
"""The rival's name: FR calls it "le rival" and names it nothing more (docs/rules/disagreements.md E13)."""
RIVAL_SEAT = 1
DIFFICULTIES: dict[str, tuple[int, int, int]] = {"easy": (0, 1, 0), "medium": (3, 0, 1), "hard": (8, 0, 3)}
"""R-SO01: the rival's starting CP, its place in the turn order (0 = first) and its Passage of Time space."""
SCORING = ("sheet", "cp_only")
"""The values of the ``rival_scoring`` setup option (the first is the default)."""
ENDS = ("left", "right")


def is_automatic(state: GameState, seat: int | None) -> bool:
    """Whether a seat is played by the engine (the solo rival)."""
    return seat is not None and 0 <= seat < len(state.players) and state.players[seat].automatic


def parse_solo(
    solo: Any, players: int | Sequence[str], options: Mapping[str, Any] | None
) -> tuple[tuple[str, ...], str, str, dict[str, Any]]:
    """Check a solo setup: the player's name and the rival's, the difficulty, the rival's scoring, and the
    options left for the base game (InvalidSetup otherwise)."""
    if solo not in DIFFICULTIES:
        raise InvalidSetup(
            f"solo is the rival's difficulty, one of {list(DIFFICULTIES)}, not {solo!r}",
            rule="R-SO01",
            details={"solo": repr(solo)},
        )
    if (
        isinstance(players, bool)
        or not isinstance(players, int | Sequence)
        or isinstance(players, str | bytes)
    ):
        raise InvalidSetup("players is 1 or a list of one name in a solo game", rule="R-S01")
    names = tuple(f"Player {i + 1}" for i in range(players)) if isinstance(players, int) else tuple(players)
    if len(names) != 1:
        raise InvalidSetup(
            f"a solo game has one player and the rival, not {len(names)} players",
            rule="R-S01",
            details={"players": len(names)},
        )
    if not all(isinstance(name, str) and name.strip() for name in names):
        raise InvalidSetup("player names must be non-empty strings", rule="R-S01")
    rest = dict(options or {})
    scoring = rest.pop("rival_scoring", SCORING[0])
    if scoring not in SCORING:
        raise InvalidSetup(
            f"option rival_scoring is one of {list(SCORING)}, not {scoring!r}",
            details={"option": "rival_scoring"},
        )
    if rest.get("stacking") == "any_player_count":
        raise InvalidSetup("solo dice never stack (R-P05)", rule="R-SO06", details={"option": "stacking"})
    return (*names, RIVAL_NAME), solo, scoring, rest


def check_deck(state: GameState) -> None:
    """Every end of every bridge must be wanted by some solo card, or a search could go on for ever (R-SO03)."""
    cards = state.catalog.solo_cards
    wanted = {(card.bridge, card.end) for card in cards.values()}
    missing = [
        f"{bridge.colour.value} {end}"
        for bridge in state.board.bridges
        for end in ENDS
        if (bridge.colour, end) not in wanted
    ]
    if missing:
        raise InvalidSetup(
            "the solo deck must want a die at every end of every bridge",
            rule="R-SO03",
            details={"unwanted": missing},
        )


def solo_setup(state: GameState, difficulty: str, scoring: str) -> GameState:
    """Turn a fresh 2-player setup into the solo setup (R-SO01): the rival's seat, CP, turn order and Passage
    of Time; one starting pair dealt for the player, taken with no choice; the solo deck. With Matcha (the
    Tokugawa clan, R-TK01): two of each starting card and two ceremony tokens dealt, the player choosing 1 of
    each, and the 3 Tokugawa cards in the deck (the catalog's)."""
    check_deck(state)
    tokugawa = state.board.matcha is not None
    dealt = ("offer_0:", "offer_1:") if tokugawa else ("offer_0:",)
    cp, place, pot = DIFFICULTIES[difficulty]
    human = 1 - RIVAL_SEAT
    order = (RIVAL_SEAT, human) if place == 0 else (human, RIVAL_SEAT)
    players = list(state.players)
    players[RIVAL_SEAT] = replace(players[RIVAL_SEAT], cp=cp, pot=pot, automatic=True)
    # R-S11, R-PT03: the marker of the first player lies on top of a shared space.
    for rank, seat in enumerate(order):
        players[seat] = replace(players[seat], pot_stamp=len(order) - rank)
    frames: list[Frame] = []
    for frame in state.stack:
        if isinstance(frame, StackOrder):
            continue
        if (
            isinstance(frame, DealCard)
            and frame.target.startswith("offer_")
            and not frame.target.startswith(dealt)
        ):
            continue
        if isinstance(frame, BeginStartChoice):
            frames.append(ChooseStartCards(human) if tokugawa else SoloStart(human))
            continue
        frames.append(frame)
    deck = tuple(sorted(state.catalog.solo_cards, key=natural))
    state = replace(
        state,
        players=tuple(players),
        turn_order=order,
        stack=tuple(frames),
        solo=Solo(difficulty, RIVAL_SEAT, scoring, deck, (), (), 0),
    )
    return with_board(state, offer=(StartPair(None, None),) * len(dealt), stamp=len(order))


def solo_start_auto(state: GameState, frame: SoloStart) -> GameState:
    """The player takes the one pair dealt: no choice in the solo game (R-SO01)."""
    pair = state.board.offer[0]
    assert pair.resource is not None
    return choose_start_play(state, ChooseStart(frame.seat), ChooseStartMove(frame.seat, pair.resource))


def end_of_round(state: GameState) -> GameState:
    """R-SO04, once the new turn order is set: coins into CP by turn position, activated gardeners (rounds 1
    and 2), then the solo deck reshuffled."""
    solo = state.solo
    assert solo is not None
    rival = solo.rival
    player = state.players[rival]
    first = state.turn_order[0] == rival
    rate = 3 if first else 5
    lots = player.coins // rate
    place = "1st" if first else "2nd"
    if lots:
        kept = f", keeps {player.coins - lots * rate}" if player.coins > lots * rate else ""
        converted = f"converts {lots * rate} coins into {lots * state.round} CP ({rate} coins each){kept}"
    else:
        converted = f"keeps its {player.coins} coin{'s' * (player.coins != 1)} (fewer than {rate})"
    notes = [f"end of round {state.round}, {place} in the turn order: {converted}"]
    player = replace(player, coins=player.coins - lots * rate, cp=player.cp + lots * state.round)
    if state.round < state.rules.rounds:
        active = {bridge.colour for bridge in state.board.bridges if bridge.count() > 0}
        gardens = [
            slot.id for slot in state.board.gardens if slot.bridge in active and rival in slot.gardeners
        ]
        player = replace(player, cp=player.cp + len(gardens) * state.round)
        if gardens:
            notes.append(
                f"{len(gardens)} activated gardener{'s' * (len(gardens) > 1)}: +{len(gardens) * state.round} CP"
            )
        if state.board.matcha is not None and platform_options(state, rival):
            # Tokugawa (decision): the Viewing Platform is one more garden of the green bridge (R-M16), and a
            # rival geisha there counts as an activated gardener does (R-SO04).
            player = replace(player, cp=player.cp + state.round)
            notes.append(f"its geisha on the activated Viewing Platform: +{state.round} CP")
    deck = tuple(sorted((*solo.deck, *solo.line), key=natural))
    notes.append("the solo deck is reshuffled")
    state = replace(state, players=replace_in(state.players, rival, player))
    return replace(
        state,
        solo=replace(solo, deck=deck, line=(), notes=(*solo.notes, *notes), noted=solo.noted + len(notes)),
    )


def rival_lines(state: GameState, seat: int, lines: list[int]) -> list[int]:
    """The rival's score lines under option ``rival_scoring="cp_only"``: its Clan Points alone (the first line;
    a Tokugawa rival's geisha line, given last, scores nothing either)."""
    solo = state.solo
    if solo is None or seat != solo.rival or solo.scoring != "cp_only":
        return lines
    return [lines[0]] + [0] * (len(lines) - 1)


# --- the rival's bookkeeping (R-SO03), shared by its turn (`domain.solo.rival`) and the Tokugawa clan's
# (`domain.solo.tokugawa`), which both build on it -


def solo_of(state: GameState) -> Solo:
    assert state.solo is not None, "a solo game only"
    return state.solo


def human_of(state: GameState) -> int:
    """The player's seat: the one seat that is not the rival."""
    rival = solo_of(state).rival
    return next(seat for seat in range(len(state.players)) if seat != rival)


def with_solo(state: GameState, **changes: Any) -> GameState:
    return replace(state, solo=replace(solo_of(state), **changes))


def note(state: GameState, *texts: str) -> GameState:
    """Add lines to what the rival did this turn (``solo.notes``)."""
    solo = solo_of(state)
    return replace(state, solo=replace(solo, notes=(*solo.notes, *texts), noted=solo.noted + len(texts)))


def gain(state: GameState, seat: int, **amounts: int) -> GameState:
    player = state.players[seat]
    return with_player(
        state, seat, replace(player, **{name: getattr(player, name) + n for name, n in amounts.items()})
    )


def impossible(state: GameState, rival: int, what: str) -> GameState:
    """R-SO03: an action the rival cannot perform gives it as many CP as the round's number."""
    state = gain(state, rival, cp=state.round)
    return note(state, f"cannot {what}: +{state.round} CP")
