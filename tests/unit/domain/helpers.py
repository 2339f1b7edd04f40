"""Helpers for the domain tests: build exact situations through the public API (table mode) or by editing a
state (frozen dataclasses, `dataclasses.replace`), play moves, and the checks that every variant's tests (base
game, solo, Matcha, Tokugawa) share: a state's JSON round trip and the docs' examples."""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import domain
from domain.areas.bridges import lay
from domain.prompts import EndTurn, TakeDie
from domain.scoring import courtiers_by_floor
from domain.state import Die, GameState, bridge_index, room_index
from domain.vocabulary import Colour, Phase

Move = dict[str, Any]

DOCS = Path(__file__).resolve().parents[3] / "docs"


def table_game(
    players: int | list[str] = 3,
    *,
    answers: Mapping[str, Any] | None = None,
    choose: Iterable[str] = (),
    options: Mapping[str, Any] | None = None,
    catalog: Mapping[str, Any] | None = None,
    expansions: Iterable[str] = (),
    fallback: Callable[[GameState], Move] | None = None,
) -> GameState:
    """A table-mode game set up to its first turn. `answers` maps a chance target to its outcome:
    a room id / "daimyo" / garden slot / "yard_1:blue" / "offer_0:resource" -> card id; "dice:coral" -> list;
    "order" -> list; "tiles" -> list of castle tile colours in drawing order; "well" -> list of tile ids.
    Anything not given takes the first legal outcome. `choose` lists starting resource cards in choosing
    order. `fallback` answers the rest (the first legal answer by default); `expansions` as in new_game."""
    answers = dict(answers or {})
    picks = list(choose)

    def stack_order_or_choice(prompt: Mapping[str, Any]) -> Move | None:
        """The answers only a multiplayer setup asks for: the stacking order and the starting cards."""
        if prompt["kind"] == "stack_order" and "order" in answers:
            return {"kind": "stack_order", "seat": None, "order": answers["order"]}
        if prompt["kind"] == "choose_start" and picks:
            return {"kind": "choose_start", "seat": prompt["seat"], "resource": picks.pop(0)}
        return None

    state = domain.new_game(
        players, mode="table", options=options, catalog=catalog, expansions=list(expansions)
    )
    return set_up(state, answers, fallback or default_answer, stack_order_or_choice)


def set_up(
    state: GameState,
    answers: Mapping[str, Any],
    fallback: Callable[[GameState], Move],
    more: Callable[[Mapping[str, Any]], Move | None] | None = None,
) -> GameState:
    """Answer every setup prompt of a table-mode `state` up to its first turn, as the recorder would: the
    chance outcomes that `answers` scripts (reveals by target, "dice:<colour>", "tiles", "well", as in
    `table_game`), else what `more` answers to the prompt (the moves a variant adds), else `fallback`. Every
    variant's known game (table_game, matcha_game, solo_game, tokugawa_game) is set up through here, so that a
    script means the same in each."""
    answers = dict(answers)
    tiles = list(answers.pop("tiles", []))
    wells = list(answers.pop("well", []))
    while state.phase is Phase.SETUP:
        prompt = domain.prompt_of(state)
        move = scripted(prompt, answers, tiles, wells)
        if move is None and more is not None:
            move = more(prompt)
        state = domain.apply(state, fallback(state) if move is None else move)
    return state


def scripted(
    prompt: Mapping[str, Any], answers: Mapping[str, Any], tiles: list[str], wells: list[str]
) -> Move | None:
    """The chance move that `answers` scripts for `prompt`, None where it says nothing; a castle tile or a Well
    tile is taken from the front of `tiles` or `wells`."""
    kind = prompt["kind"]
    if kind == "reveal" and prompt["target"] in answers:
        return {"kind": "reveal", "seat": None, "pool": prompt["pool"], "card": answers[prompt["target"]]}
    if kind == "roll" and f"dice:{prompt['bridge']}" in answers:
        return {
            "kind": "roll",
            "seat": None,
            "bridge": prompt["bridge"],
            "dice": answers[f"dice:{prompt['bridge']}"],
        }
    if kind == "die_tile" and tiles:
        return {"kind": "die_tile", "seat": None, "colour": tiles.pop(0)}
    if kind == "well_tile" and wells:
        return {"kind": "well_tile", "seat": None, "tile": wells.pop(0)}
    return None


def default_answer(state: GameState) -> Move:
    """A setup answer that always makes progress: the last card of a pile (the first would deal S1, S2, S3,
    D1, D2, all with a dark Courtier action, and the castle would be redealt forever, R-S03), else the
    first."""
    legal = domain.legal_moves(state)
    return legal[-1] if legal[0]["kind"] == "reveal" else legal[0]


def advance_to(state: GameState, kind: str) -> GameState:
    """Answer setup prompts with `default_answer` until a prompt of `kind`."""
    while domain.prompt_of(state)["kind"] != kind:
        state = domain.apply(state, default_answer(state))
    return state


def play(state: GameState, *moves: Move) -> GameState:
    for move in moves:
        state = domain.apply(state, move)
    return state


def plain_moves(state: GameState) -> list[Move]:
    """The legal moves that need no seal converted first (rules 0.3.0 list the others with their ``convert``)."""
    return [move for move in domain.legal_moves(state) if "convert" not in move]


def kinds(state: GameState) -> set[str]:
    """The kinds of the moves legal as the player holds things now (no seal converted first)."""
    return {move["kind"] for move in plain_moves(state)}


def answers_of(state: GameState, kind: str) -> list[Move]:
    return [move for move in plain_moves(state) if move["kind"] == kind]


def seat_now(state: GameState) -> int:
    seat = domain.prompt_of(state)["seat"]
    assert isinstance(seat, int)
    return seat


def with_player(state: GameState, seat: int, **changes: Any) -> GameState:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def with_bridge(state: GameState, colour: str, dice: list[int] | None = None, **slots: Any) -> GameState:
    """Set a bridge from ascending dice, or from explicit left/middle/right slots."""
    index = bridge_index(state, colour)
    bridge = lay(Colour(colour), dice) if dice is not None else replace(state.board.bridges[index], **slots)
    bridges = list(state.board.bridges)
    bridges[index] = bridge
    return replace(state, board=replace(state.board, bridges=tuple(bridges)))


def with_room(state: GameState, room_id: str, **changes: Any) -> GameState:
    index = room_index(state, room_id)
    rooms = list(state.board.rooms)
    rooms[index] = replace(rooms[index], **changes)
    return replace(state, board=replace(state.board, rooms=tuple(rooms)))


def with_board(state: GameState, **changes: Any) -> GameState:
    return replace(state, board=replace(state.board, **changes))


def with_decks(state: GameState, **changes: Any) -> GameState:
    return with_board(state, decks=replace(state.board.decks, **changes))


def die(colour: str, value: int, seat: int = 0) -> Die:
    return Die(Colour(colour), value, seat)


def finish_turn(state: GameState) -> GameState:
    """Answer 'done'/'rest' (else the first legal move) until the next take_die or the end of the round."""
    start = state.turn_index
    while (
        not domain.is_over(state)
        and state.phase is Phase.TURNS
        and not (state.turn_index != start and domain.prompt_of(state)["kind"] == "take_die")
    ):
        legal = domain.legal_moves(state)
        pick = next((m for m in legal if m["kind"] in ("done", "rest")), None)
        state = domain.apply(state, pick or next(m for m in legal if m["kind"] != "convert"))
    return state


def eager(rng: random.Random, moves: list[Move], bias: float = 0.85) -> Move:
    """Uniform over the legal moves, but acting (not declining, not converting) with probability `bias`."""
    acting = [m for m in moves if m["kind"] not in ("done", "convert")]
    return rng.choice(acting if acting and rng.random() < bias else moves)


def random_playout(players: int, seed: int, check: bool = True) -> tuple[GameState, list[Move]]:
    """A complete seeded game with uniformly random legal moves; returns the end state and every move, chance
    moves included, in order."""
    rng = random.Random(seed)
    step = domain.resolve_chance(domain.new_game(players, seed=seed, draw=False))
    record: list[Move] = list(step.chance)
    state = step.state
    while not domain.is_over(state):
        move = rng.choice(domain.legal_moves(state))
        step = domain.step(state, move, check=check)
        record.append(move)
        record.extend(step.chance)
        state = step.state
    return state, record


STANDARD_TILES = [
    "coral",
    "black",
    "white",
    "coral",
    "black",
    "coral",
    "white",
    "black",
    "coral",
    "white",
    "black",
    "coral",
]
"""Castle tiles giving steward_1 = coral/white/black, steward_2 = black/coral/coral, steward_3 =
white/black/white, diplomat_1 = coral/black, diplomat_2 = white/coral; the Well gets T6 (1 iron) and T11 (1
coin)."""

STANDARD = {
    "steward_1": "S2",
    "steward_2": "S4",
    "steward_3": "S7",
    "diplomat_1": "D2",
    "diplomat_2": "D7",
    "daimyo": "Dm1",
    "tiles": STANDARD_TILES,
    "well": ["T6", "T11"],
    "coral_plant": "PG2",
    "coral_stone": "SG1",
    "black_plant": "PG1",
    "black_stone": "SG3",
    "white_plant": "PG4",
    "white_stone": "SG5",
    "yard_1:blue": "Y1",
    "yard_1:yellow": "Y2",
    "yard_2:blue": "Y6",
    "yard_3:yellow": "Y3",
    "dice:coral": [1, 3, 5, 6],
    "dice:black": [2, 2, 4, 6],
    "dice:white": [1, 1, 1, 6],
    "order": [0, 1, 2],
    "offer_0:resource": "SR3",
    "offer_0:action": "A1",
    "offer_1:resource": "SR9",
    "offer_1:action": "A2",
    "offer_2:resource": "SR6",
    "offer_2:action": "A3",
    "offer_3:resource": "SR8",
    "offer_3:action": "A1",
}


def standard(**changes: Any) -> GameState:
    """A known 3-player table game at seat 0's first turn (see STANDARD): seat 0 holds SR3 + A1 (Courtier),
    seat 1 SR9 + A2 (Warrior), seat 2 SR6 + A3 (Gardener). `changes` override STANDARD's answers."""
    answers = {**STANDARD, **changes}
    return table_game(3, answers=answers, choose=["SR6", "SR9", "SR3"])


def at_turn(state: GameState, seat: int, turn_index: int, round_: int | None = None) -> GameState:
    """The same board, with `seat` about to take a die as the round's `turn_index`-th turn (0-based)."""
    changes: dict[str, Any] = {"turn_index": turn_index, "stack": (EndTurn(seat), TakeDie(seat))}
    if round_ is not None:
        changes["round"] = round_
    return replace(state, **changes)


def end_tallies(state: GameState, seat: int) -> dict[str, Any]:
    """A seat's end position as the score sheet's tallies, as players would type them in: the golden games'
    independent path to their final scores (the expansions add their own tallies to these)."""
    player, board = state.players[seat], state.board
    return {
        "name": player.name,
        "cp": player.cp,
        "coins": player.coins,
        "seals": player.seals,
        "food": player.food,
        "iron": player.iron,
        "pearl": player.pearl,
        "pot": player.pot,
        "courtiers": {floor.value: count for floor, count in courtiers_by_floor(state, seat).items()},
        "warriors": {yard.id: yard.warriors.count(seat) for yard in board.yards},
        "gardeners": [slot.card for slot in board.gardens if seat in slot.gardeners],
        "turn_order": state.turn_order.index(seat) + 1,
    }


def assert_rejected_unchanged(state: GameState, move: Move) -> None:
    """`move`, not a legal move of `state`, is refused with a rules error of a known code whose answer is
    JSON, and `state` is left as it was."""
    before = domain.state_to_dict(state)
    try:
        domain.apply(state, move)
    except domain.DomainError as error:
        assert error.code in ("invalid_move", "illegal_move", "not_your_turn", "game_over")
        json.dumps(error.to_dict())
    else:
        raise AssertionError(f"{move} is not among the legal moves but applied")
    assert domain.state_to_dict(state) == before


def table_or_seeded(seed: int, table: bool) -> dict[str, Any]:
    """new_game's arguments for a random game: table mode (every chance outcome a legal move), or seeded mode
    drawing from `seed`."""
    return {"mode": "table"} if table else {"mode": "seeded", "seed": seed}


def assert_round_trips_through_json(state: GameState) -> dict[str, Any]:
    """`state` comes back equal from its JSON form and its prompt is JSON; returns that form for more checks."""
    data: dict[str, Any] = json.loads(json.dumps(domain.state_to_dict(state)))
    assert domain.state_from_dict(data) == state, "the state does not come back equal from its JSON form"
    json.dumps(domain.prompt_of(state))
    return data


def docs_examples(page: str, fence: str) -> list[str]:
    """The code blocks fenced ```<fence> (python, py) of one page of the docs site (``engine/index.md``)."""
    text = (DOCS / page).read_text(encoding="utf-8")
    blocks: list[str] = re.findall(rf"```{fence}\n(.*?)```", text, re.S)
    return blocks


def run_examples(blocks: list[str]) -> tuple[list[str], dict[str, object]]:
    """Run code blocks in order in one namespace, as a reader pasting them would: the lines they printed and
    the namespace they left."""
    out = io.StringIO()
    namespace: dict[str, object] = {}
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(block, namespace)
    return out.getvalue().splitlines(), namespace


STANDARD_LIGHT_BLOCKS = [
    "steward_1:middle",
    "steward_1:bottom",
    "steward_2:middle",
    "steward_2:bottom",
    "steward_3:top",
    "steward_3:bottom",
    "diplomat_1:middle+bottom",
    "diplomat_2:top",
]
"""The light-background blocks of :func:`standard`'s castle (S2, S4, S7, D2, D7), room by room (R-C05)."""
