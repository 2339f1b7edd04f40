"""The game's log: one readable line per move (`describe(state, move)`, with the state before the move),
ending, in a solo game, with what the rival did because of the move.

The words for things and questions (places, piles, icons, seats, the pending prompt's question) are
`domain.words`, below the engine; this module sits above it, as telling what the rival did means applying the
move (`rival_notes`)."""

from __future__ import annotations

from typing import Any

from domain.areas.castle import dark_action, dealt_again_by
from domain.engine import apply
from domain.prompts import KIND, CheckCastle, DealCard, Menu
from domain.resources import cost_text
from domain.state import GameState, bridge_index
from domain.turn import reference
from domain.vocabulary import Colour, space_text
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
    text = _describe(state, move)
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
        return f"{who}'s courtier climbs from {space_text(move['from'])} to {space_text(move['to'])}"
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
            return f"{who} pays {seals} seals to pass the milestone of space {space}"
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
        return f"{who}'s geisha goes from {space_text(move['from'])} to {space_text(move['to'])}"
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
        return f"Chance: the {move['bridge']} dice roll {', '.join(map(str, move['dice']))}"
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
