"""The table a move's words are said at: the state before the move and its pending prompt, with what the move
kinds' words need to know of the rules (`domain.kinds.Table`), answered here, above the board's areas: a die
space's reference value (R-P02), an ascent's pearl (R-CA01), a geisha's whisks (R-M08), where a die tile goes
(R-S05), a castle dealt again (R-S03).

`choice` is a legal move as a page offers it: its button's words, its heading, its board target and its icons,
each the move's kind saying it (`domain.kinds`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.areas import courtier
from domain.areas.castle import dark_action, dealt_again_by
from domain.engine import conversions_serve
from domain.kinds import Move, parse
from domain.kinds.resources import ConvertMove
from domain.matcha import tea_garden
from domain.names import icons_text
from domain.prompts import CheckCastle, Frame, GeishaAction
from domain.state import GameState
from domain.turn import reference
from domain.vocabulary import Colour
from domain.words import die_tile_text, moved_on_text


@dataclass(frozen=True, slots=True)
class GameTable:
    """`domain.kinds.Table` for one state."""

    state: GameState

    @property
    def frame(self) -> Frame | None:
        return self.state.stack[-1] if self.state.stack else None

    def reference(self, space: str) -> int:
        return reference(self.state, space)

    def ascent_pearl(self, seat: int, origin: str, to: str) -> int:
        found = [p for f, t, p in courtier.ascents(self.state, seat) if f == origin and t == to]
        return found[0] if found else 0

    def _free_step(self) -> bool:
        frame = self.frame
        return isinstance(frame, GeishaAction) and frame.free_step

    def geisha_whisks(self, origin: str, to: str) -> int:
        if self._free_step():
            return 0
        steps = tea_garden.steps_from(self.state, origin).get(to)
        spec = self.state.catalog.matcha
        return spec.whisks_per_steps.get(steps, 0) if spec is not None and steps else 0

    def advance_whisks(self, seat: int, origin: str, to: str) -> int | None:
        for start, end, whisks in tea_garden.advances(self.state, seat, free_step=self._free_step()):
            if start == origin and end == to:
                return whisks
        return None

    def die_tile_place(self, colour: str) -> str:
        return die_tile_text(self.state, Colour(colour))

    def die_tile_moved(self, colour: str) -> str:
        return moved_on_text(self.state, Colour(colour))

    def redeal(self, card: str) -> str:
        state = self.state
        if len(state.stack) < 2 or not isinstance(state.stack[-2], CheckCastle):
            return ""
        if not dealt_again_by(state, card):
            return ""
        dark = dark_action(state.catalog.cards[card])
        return (
            f"; all {len(state.board.rooms)} castle cards show the same dark-background action "
            f"({icons_text(dark)}): they go back into their decks, shuffled, and the castle is dealt again (R-S03)"
        )


def choice(state: GameState, move: Move | dict[str, Any]) -> dict[str, Any]:
    """A legal move as a page offers it: its ``words`` (the button), its ``group`` (the heading it goes under),
    its ``target`` (the board part it acts on, or None) and its ``icons``; a seal conversion also says whether
    a page offers it now (``offered``)."""
    typed = move if isinstance(move, Move) else parse(move)
    table = GameTable(state)
    said: dict[str, Any] = {
        "words": typed.words(table),
        "group": typed.group(),
        "target": typed.target(table),
        "icons": typed.icons(table),
    }
    if isinstance(typed, ConvertMove):  # listed widely (C.2); offered where it can serve the player to play
        said["offered"] = conversions_serve(state)
    return said
