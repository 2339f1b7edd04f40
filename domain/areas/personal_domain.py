"""The Personal Domain: one row per die colour, its rewards and the Action card (R-D01..R-D03, R-S10)."""

from __future__ import annotations

from domain.catalog import ROW_POSITIONS
from domain.kinds.actions import DoneMove
from domain.kinds.base import Move
from domain.kinds.personal_domain import DomainRowMove
from domain.matcha.ceremony import green_row_menu
from domain.prompts import DomainAction, DomainRow, Menu, Option
from domain.state import GameState, Player, pop, push
from domain.vocabulary import Icon

MEMBERS_PER_ROW = 5
"""Members of each kind on a Domain at the start (R-S10)."""


def home(player: Player, member: str) -> int:
    """How many members of a kind are still on the Domain."""
    count: int = getattr(player, member + "s")
    return count


def visible_rewards(state: GameState, seat: int, row_id: str) -> list[tuple[Icon, ...]]:
    """The rewards uncovered by the members who left the row, leftmost first (R-D02 step 1)."""
    spec = state.catalog.row(row_id)
    gone = MEMBERS_PER_ROW - home(state.players[seat], spec.member)
    return list(spec.rewards[:gone])


def row_auto(state: GameState, frame: DomainRow) -> GameState:
    """Resolve a row: rewards first (mandatory), then the card block facing the row (optional)."""
    seat, row_id = frame.seat, frame.row
    state = pop(state)
    spec = state.catalog.row(row_id)
    player = state.players[seat]
    frames: list[Menu] = []
    if spec.position not in ROW_POSITIONS:  # Matcha's green row faces no Action card block (R-M14)
        frames.append(green_row_menu(state, seat))
    elif player.action_card is not None:
        card = state.catalog.cards[player.action_card]
        blocks = tuple(
            Option(block.id, block.cost, block.icons) for block in card.blocks if spec.position in block.rows
        )
        frames.append(Menu(seat, f"card:{row_id}", blocks, (), 1, False))
    rewards = tuple(
        Option(f"space_{i + 1}", (), icons) for i, icons in enumerate(visible_rewards(state, seat, row_id))
    )
    frames.append(Menu(seat, f"domain:{row_id}", rewards, (), len(rewards), True))
    return push(state, *frames)


def domain_action_moves(state: GameState, frame: DomainAction) -> list[Move]:
    moves: list[Move] = [
        DomainRowMove(frame.seat, spec.id)
        for spec in state.catalog.rows
        if spec.position in ROW_POSITIONS  # the icon's die has no green face: never the geisha row (R-D03)
    ]
    moves.append(DoneMove(frame.seat))
    return moves


def domain_action_play(state: GameState, frame: DomainAction, move: DomainRowMove | DoneMove) -> GameState:
    state = pop(state)
    if isinstance(move, DoneMove):
        return state
    return push(state, DomainRow(frame.seat, move.row))
