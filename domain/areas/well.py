"""The Well: any colour, any number of dice side by side, value always 1 (R-W01, R-P06), and its reward (R-W02)."""

from __future__ import annotations

from domain.chance import Draws
from domain.kinds.base import Move
from domain.kinds.setup import WellTileMove
from domain.prompts import DealWellTile, Menu, Option
from domain.state import GameState, pop, replace, with_board


def well_menu(state: GameState, seat: int) -> Menu:
    """The Well's reward as a mandatory menu: its printed seal, then each tile's reward (R-W02)."""
    catalog = state.catalog
    options = [Option("seal", (), catalog.well_icons)]
    options.extend(Option(tile, (), catalog.die_tiles[tile].reward) for tile in state.board.well.tiles)
    return Menu(seat, "well", tuple(options), (), len(options), True)


# --- setup: the Well tiles (R-S05) -


def well_tile_outcomes(state: GameState) -> list[str]:
    """Tiles that can still come out of the bag: any tile of a colour still in it, not already at the Well."""
    bag = set(state.board.decks.die_tiles)
    placed = set(state.board.well.tiles)
    return [
        tile.id for tile in state.catalog.die_tiles.values() if tile.colour in bag and tile.id not in placed
    ]


def well_tile_waiting(state: GameState, frame: DealWellTile) -> bool:
    return len(state.board.well.tiles) < state.catalog.well_tiles and len(well_tile_outcomes(state)) > 1


def well_tile_auto(state: GameState, frame: DealWellTile) -> GameState:
    if len(state.board.well.tiles) >= state.catalog.well_tiles:
        return pop(state)
    return place_well_tile(state, well_tile_outcomes(state)[0])


def well_tile_moves(state: GameState, frame: DealWellTile) -> list[Move]:
    return [WellTileMove(tile) for tile in well_tile_outcomes(state)]


def well_tile_draw(state: GameState, frame: DealWellTile, rng: Draws) -> WellTileMove:
    """Every tile left in the bag is equally likely: draw its colour by count, then one tile of that
    colour."""
    colour = rng.choice(state.board.decks.die_tiles)
    tiles = [t for t in well_tile_outcomes(state) if state.catalog.die_tiles[t].colour == colour]
    return WellTileMove(rng.choice(tiles))


def well_tile_play(state: GameState, frame: DealWellTile, move: WellTileMove) -> GameState:
    return place_well_tile(state, move.tile)


def place_well_tile(state: GameState, tile: str) -> GameState:
    board = state.board
    bag = list(board.decks.die_tiles)
    bag.remove(state.catalog.die_tiles[tile].colour)
    return with_board(
        state,
        well=replace(board.well, tiles=(*board.well.tiles, tile)),
        decks=replace(board.decks, die_tiles=tuple(bag)),
    )
