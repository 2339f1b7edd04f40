"""A game's setup layout as one JSON object: read it off a board (`layout_of`), lay a new game out from it
(`lay_out`), and the rulebook's first-game layout (`first_game_layout`) (docs/engine/chance.md#a-setup-layout).

A table deals its whole setup at once, so it is entered at once, every entry checked by the rules as if the
recorder had answered each chance prompt.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.areas import castle
from domain.areas.bridges import dice_per_colour
from domain.chance import rng_for
from domain.engine import Step, draw_chance, legal, play, validate
from domain.errors import DomainError, InvalidLayout, InvalidSetup
from domain.kinds.base import Move
from domain.kinds.bridges import RollMove
from domain.kinds.setup import DieTileMove, RevealMove, StackOrderMove, WellTileMove
from domain.names import pool_text, target_text
from domain.prompts import CHANCE_FRAMES, DealCard, DealDieTile, DealWellTile, RollBridge, StackOrder
from domain.state import GameState, StartPair
from domain.vocabulary import Colour, Phase

Path = tuple[str, ...]
"""Where an entry lies in the layout: ``("castle", "steward_2")``, ``("offer", "1", "resource")``."""

SECTIONS = ("castle", "daimyo", "die_tiles", "well", "gardens", "yards", "dice", "stack", "offer", "matcha")
"""The layout's top-level fields, in the order the setup deals them."""

_RULES = {
    "castle": "R-S03",
    "daimyo": "R-S04",
    "die_tiles": "R-S05",
    "well": "R-S05",
    "gardens": "R-S08",
    "yards": "R-S09",
    "dice": "R-S07",
    "stack": "R-S11",
    "offer": "R-S12",
    "matcha": "R-M01",
}
"""The rule that deals each section (the number an error about its entries cites)."""

MAX_REDEALS = 20
"""How often the castle may be dealt again (R-S03) while drawing the rest, before the layout is refused: a
layout whose given cards leave almost no other deal would otherwise draw on and on."""
DIE_TILE_SEARCH = 20_000
"""How many die tiles the search for an order of draws may lay before it gives up (R-S05): a whole castle
takes 13, and the search goes back only where a layout leaves a space free."""


def field_name(path: Path) -> str:
    """A path as an error's ``details.field`` says it: ``castle.steward_2``."""
    return ".".join(path)


@dataclass
class Problems:
    """The problems found in a layout, each under its field with the rule's number."""

    items: list[dict[str, Any]] = field(default_factory=list)

    def add(self, path: Path, message: str, rule: str | None) -> None:
        name = field_name(path)
        if not any(item["field"] == name for item in self.items):  # the first problem of a field says it
            self.items.append({"field": name, "rule": rule, "message": message})

    def raise_any(self) -> None:
        if not self.items:
            return
        first = self.items[0]
        count = len(self.items)
        more = f" (and {count - 1} more problem{'s' * (count > 2)}: see details.errors)" if count > 1 else ""
        raise InvalidLayout(
            f"{first['field']}: {first['message']}{more}",
            rule=first["rule"],
            details={"field": first["field"], "errors": list(self.items)},
        )


# --- reading a board's layout -


def setup_dealt(state: GameState) -> bool:
    """Whether every chance prompt of the setup is answered (the players' starting choices may still be
    pending): the moment a layout describes."""
    return state.phase is not Phase.SETUP or not any(isinstance(f, CHANCE_FRAMES) for f in state.stack)


def layout_of(state: GameState) -> dict[str, Any]:
    """The setup layout as it lies on this board (what is dealt so far; every section once `setup_dealt`).

    Read it from the state the setup's chance prompts left: later moves take castle cards, dice and starting
    pairs away."""
    board = state.board
    layout: dict[str, Any] = {}
    cards = {room.id: room.card for room in board.rooms if room.card is not None}
    if cards:
        layout["castle"] = cards
    if board.daimyo.card is not None:
        layout["daimyo"] = board.daimyo.card
    tiles = {
        room.id: [tile.value if tile is not None else None for tile in room.tiles]
        for room in board.rooms
        if any(tile is not None for tile in room.tiles)
    }
    if tiles:
        layout["die_tiles"] = tiles
    if board.well.tiles:
        layout["well"] = list(board.well.tiles)
    gardens = {slot.id: slot.card for slot in board.gardens if slot.card is not None}
    if gardens:
        layout["gardens"] = gardens
    yards: dict[str, dict[str, str]] = {}
    for yard in board.yards:
        faces = {
            face: tile for face, tile in (("blue", yard.blue), ("yellow", yard.yellow)) if tile is not None
        }
        if faces:
            yards[yard.id] = faces
    if yards:
        layout["yards"] = yards
    dice = {
        bridge.colour.value: sorted(
            [value for value in (bridge.left, *bridge.middle, bridge.right) if value is not None]
        )
        for bridge in board.bridges
        if bridge.count()
    }
    if dice:
        layout["dice"] = dice
    if state.solo is None and not any(isinstance(frame, StackOrder) for frame in state.stack):
        layout["stack"] = list(state.turn_order)
    offer = []
    for pair in _dealt_pairs(state):
        entry = {"resource": pair.resource, "action": pair.action}
        if pair.token is not None:
            entry["token"] = pair.token
        offer.append({key: value for key, value in entry.items() if value is not None})
    if any(offer):
        layout["offer"] = offer
    matcha = board.matcha
    if matcha is not None:
        part: dict[str, Any] = {}
        if any(pad is not None for pad in matcha.pond):
            part["pond"] = list(matcha.pond)
        tops = {deck.id: deck.top for deck in matcha.decks if deck.top is not None}
        if tops:
            part["himeji"] = tops
        tokens = {room.id: room.token for room in matcha.tea_house if room.token is not None}
        if tokens:
            part["tea_house"] = tokens
        if matcha.platform_token is not None:
            part["platform"] = matcha.platform_token
        if part:
            layout["matcha"] = part
    return layout


def _dealt_pairs(state: GameState) -> tuple[StartPair, ...]:
    """The starting pairs dealt. The base solo game's one pair is taken as soon as it is dealt, with no choice
    (R-SO01): it is read back from the player's Lantern Area and Domain, where it went."""
    board = state.board
    if state.solo is None or board.matcha is not None or any(p.resource for p in board.offer):
        return board.offer
    player = state.players[1 - state.solo.rival]
    if not player.lantern or player.action_card is None:
        return board.offer
    return (StartPair(player.lantern[0], player.action_card),)


def first_game_layout(state: GameState) -> dict[str, Any]:
    """The rulebook's first-game castle cards, die tiles and Well tiles (the catalog's ``first_game``, FR steps
    2 and 4), as a layout's sections; with Matcha the rulebook's tile on the lower yard (R-M01)."""
    layout = state.catalog.first_game
    result: dict[str, Any] = {
        "castle": dict(layout.get("rooms", {})),
        "die_tiles": {room: list(colours) for room, colours in layout.get("die_tiles", {}).items()},
        "well": list(layout.get("well_tiles", [])),
    }
    spec = state.catalog.matcha
    if spec is not None and spec.first_game_yard is not None:
        target, tile = spec.first_game_yard
        yard, _, face = target.partition(":")
        result["yards"] = {yard: {face: tile}}
    return result


# --- laying a game out -


def path_of(state: GameState, frame: DealCard) -> Path:
    """The layout field a setup deal fills."""
    target = frame.target
    place, _, part = target.partition(":")
    if frame.pool in ("steward", "diplomat"):
        return ("castle", target)
    if target == "daimyo":
        return ("daimyo",)
    if place.startswith("offer_"):
        return ("offer", place.removeprefix("offer_"), part)
    if frame.pool == "yard_tiles":
        return ("yards", place, part)
    if frame.pool in ("plant", "stone"):
        return ("gardens", target)
    if frame.pool == "lily_pads":
        return ("matcha", "pond", str(int(target.removeprefix("pond_")) - 1))
    if place == "himeji":
        return ("matcha", "himeji", part)
    matcha = state.board.matcha
    if matcha is not None and any(room.id == target for room in matcha.tea_house):
        return ("matcha", "tea_house", target)
    return ("matcha", "platform")


def _entries(layout: Any, problems: Problems) -> dict[Path, Any]:
    """Every entry of the layout by its path (None for an entry left out), its shape checked: ids are text,
    dice and seats whole numbers."""
    found: dict[Path, Any] = {}
    if not isinstance(layout, Mapping):
        problems.add(("layout",), "a layout is a JSON object of sections", None)
        return found

    def walk(path: Path, value: Any) -> None:
        if isinstance(value, Mapping):
            for key, item in value.items():
                walk((*path, str(key)), item)
        elif isinstance(value, list) and path[0] not in ("dice", "stack", "die_tiles"):
            for index, item in enumerate(value):
                walk((*path, str(index)), item)
        elif _whole(path) or value is None or isinstance(value, str):
            found[path] = value
        else:
            problems.add(
                path, f"{value!r} is not the id of a card or tile (a text such as 'S4')", _rule(path)
            )

    for key, value in layout.items():
        if key not in SECTIONS:
            problems.add((str(key),), f"a layout has no section {key!r} (it has {', '.join(SECTIONS)})", None)
            continue
        walk((key,), value)
    return found


def read_entries(layout: Any) -> dict[Path, Any]:
    """Every entry of a layout by its path, its shape checked (`InvalidLayout` lists what is wrong)."""
    problems = Problems()
    found = _entries(layout, problems)
    problems.raise_any()
    return found


def _whole(path: Path) -> bool:
    """Entries that are lists as a whole: a bridge's dice, a room's die tiles, the stack."""
    return path[0] in ("dice", "die_tiles", "stack") and len(path) == (1 if path[0] == "stack" else 2)


def _rule(path: Path) -> str | None:
    if path[0] == "offer" and path[-1] == "token":
        return "R-M01"  # the ceremony token under a starting pair
    return _RULES.get(path[0])


@dataclass
class _Walk:
    """One layout being laid: its entries, what was used of them, the problems found."""

    entries: dict[Path, Any]
    draw_rest: bool
    problems: Problems
    used: set[Path] = field(default_factory=set)
    moves: list[Move] = field(default_factory=list)
    stopped: bool = False
    """The walk stopped before the setup's end (a castle it cannot finish): later entries are not judged."""
    stand_ins: set[str] = field(default_factory=set)
    """The sections where a stand-in took a refused or missing entry's place: what follows from them (the bag's
    tiles after another castle, the castle dealt again) is not the layout's fault."""

    def given(self, path: Path) -> Any:
        self.used.add(path)
        return self.entries.get(path)

    def named(self) -> set[str]:
        """Every card or tile id the layout names (a stand-in avoids them)."""
        return {value for value in self.entries.values() if isinstance(value, str)}


def lay_out(state: GameState, layout: Mapping[str, Any], *, draw_rest: bool = False) -> Step:
    """The game laid out as `layout` says, and the chance moves that did it (what a recorder would have entered
    one by one), up to the first prompt that is not the setup's chance: the players' starting choices.

    Raises `InvalidLayout` with every problem under its field (``details.errors``). With ``draw_rest``, what
    the layout leaves out is drawn from the game's seed and chance counter (`domain.engine.draw_chance`, as a
    seeded game draws), so a layout with nothing in it lays out the board a seeded game of that seed deals."""
    problems = Problems()
    if draw_rest and state.seed is None:
        raise InvalidSetup("drawing what the layout leaves out needs the game's seed")
    run = _Walk(_entries(layout, problems), draw_rest, problems)
    asked: dict[Path, int] = {}
    redeals = 0
    while state.phase is Phase.SETUP and state.stack and isinstance(state.stack[-1], CHANCE_FRAMES):
        frame = state.stack[-1]
        if isinstance(frame, DealDieTile):
            state = _die_tiles(state, run)
            continue
        if isinstance(frame, DealCard):
            path = path_of(state, frame)
            asked[path] = asked.get(path, 0) + 1
            if path[0] == "castle" and asked[path] > 1:  # the castle is dealt again (R-S03)
                redeals += 1
                if not _redeal_allowed(run, state, redeals):
                    run.stopped = True
                    break
            move = _card_move(run, state, frame, path)
        elif isinstance(frame, DealWellTile):
            path = ("well", str(len(state.board.well.tiles)))
            move = _well_move(run, state, path)
        elif isinstance(frame, RollBridge):
            path = ("dice", frame.bridge.value)
            move = _checked(run, state, path, _roll_move(run, state, frame, path))
        elif isinstance(frame, StackOrder):
            path = ("stack",)
            given = run.given(path)
            move = _checked(run, state, path, _stack_move(run, given, path))
        else:  # pragma: no cover - no other chance prompt belongs to the setup
            break
        run.moves.append(move)
        state = play(state, move)
    _compare(run, state)
    problems.raise_any()
    return Step(state, tuple(move.as_json() for move in run.moves))


def _redeal_allowed(run: _Walk, state: GameState, redeals: int) -> bool:
    """A castle dealt again (R-S03) is refused when the layout gave every card of it (the same five would come
    back for ever), or after `MAX_REDEALS` deals drawn."""
    if "castle" in run.stand_ins:
        return False  # a stand-in for a refused card made this castle: its problem is reported already
    given = [run.entries.get(("castle", room.id)) for room in state.board.rooms]
    if all(card is not None for card in given) or redeals > MAX_REDEALS:
        for room in state.board.rooms:
            run.problems.add(
                ("castle", room.id),
                "the castle's cards would all show the same dark-background action: the rules deal the castle "
                "again (R-S03), so this is not a castle the setup ends with",
                "R-S03",
            )
        return False
    return True


def _card_move(run: _Walk, state: GameState, frame: DealCard, path: Path) -> Move:
    given = run.given(path)
    move = None if given is None else RevealMove.form(pool=frame.pool, card=given)
    return _checked(run, state, path, move)


def _roll_move(run: _Walk, state: GameState, frame: RollBridge, path: Path) -> dict[str, Any] | None:
    given = run.given(path)
    if given is None:
        return None
    count = dice_per_colour(state)
    if (
        not isinstance(given, list)
        or len(given) != count
        or not all(
            isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6 for value in given
        )
    ):
        run.problems.add(
            path,
            f"the {frame.bridge} bridge holds {count} dice (one more than the players, R-S07): give {count} "
            "values from 1 to 6, in any order",
            "R-S07",
        )
        return RollMove.form(bridge=frame.bridge.value, dice=[])
    return RollMove.form(bridge=frame.bridge.value, dice=sorted(given))


def _stack_move(run: _Walk, given: Any, path: Path) -> dict[str, Any] | None:
    if given is None:
        return None
    if not isinstance(given, list) or not all(
        isinstance(seat, int) and not isinstance(seat, bool) for seat in given
    ):
        run.problems.add(path, "the stack is a list of seats (0, 1, ...), top first", "R-S11")
        return StackOrderMove.form(order=[])
    return StackOrderMove.form(order=list(given))


def _well_move(run: _Walk, state: GameState, path: Path) -> Move:
    """The Well tile the layout gives, with the bag's words for one that cannot be there (R-S05)."""
    given = run.given(path)
    if "die_tiles" in run.stand_ins:
        return _stand_in(run, state)  # another castle stood in for the layout's: its bag is not the layout's
    if given is None:
        return _checked(run, state, path, None)
    tile = state.catalog.die_tiles.get(given)
    bag = state.board.decks.die_tiles
    if tile is None:
        known = ", ".join(state.catalog.die_tiles)
        run.problems.add(path, f"there is no die tile {given!r} (the die tiles are {known})", "R-S05")
        return _stand_in(run, state)
    if given in state.board.well.tiles:
        run.problems.add(path, f"die tile {given} lies at the Well already", "R-S05")
        return _stand_in(run, state)
    if tile.colour.value not in bag:
        run.problems.add(
            path,
            f"die tile {given} shows a {tile.colour.value} die on its back, and the castle took every "
            f"{tile.colour.value} tile (the bag holds {', '.join(sorted(bag)) or 'none'})",
            "R-S05",
        )
        return _stand_in(run, state)
    return _checked(run, state, path, WellTileMove.form(tile=given))


def _checked(run: _Walk, state: GameState, path: Path, move: dict[str, Any] | None) -> Move:
    """The layout's move for this prompt (its JSON form, read as a client's move is) if the rules take it; a
    move drawn for an entry left out (with ``draw_rest``); otherwise the problem is noted and a stand-in keeps
    the walk going, so that later fields are checked too."""
    if move is None:
        if run.draw_rest:
            return draw_chance(state)
        rule = _rule(path)
        run.problems.add(path, f"missing: {_missing_words(state, path)}", rule)
        run.stand_ins.add(path[0])
        return _stand_in(run, state)
    try:
        return validate(state, move)
    except DomainError as error:
        rule = error.rule or _rule(path)
        run.problems.add(path, _refusal_words(state, path, error), rule)
        run.stand_ins.add(path[0])
        return _stand_in(run, state)


def _missing_words(state: GameState, path: Path) -> str:
    frame = state.stack[-1]
    if isinstance(frame, DealCard):
        return f"which {pool_text(frame.pool)} lies on {target_text(state, frame.target)}?"
    if isinstance(frame, DealWellTile):
        return "which die tile lies at the Well?"
    if isinstance(frame, RollBridge):
        return f"what did the {frame.bridge} dice roll?"
    if isinstance(frame, StackOrder):
        return "the stack of influence markers, top first (the turn order)"
    return "which die tiles lie in the castle?"


def _refusal_words(state: GameState, path: Path, error: DomainError) -> str:
    """The engine's refusal, said about the layout's entry (a pool named for an unknown id)."""
    frame = state.stack[-1]
    if isinstance(frame, StackOrder):
        seats = len(state.players)
        return f"the stack lists every seat once, 0 to {seats - 1}, top first (the turn order)"
    if isinstance(frame, DealCard) and error.code == "illegal_move" and "left" in error.details:
        return (
            f"{error.message} (the {pool_text(frame.pool)}s that may lie on {target_text(state, frame.target)}"
            f": {', '.join(error.details['left'])})"
        )
    return error.message


def _stand_in(run: _Walk, state: GameState) -> Move:
    """A legal outcome for a prompt the layout got wrong, preferring cards the layout does not name (so that
    its other entries are judged as they would be)."""
    chance = [move for move in legal(state) if move.chance]
    named = run.named()
    free = [move for move in chance if move.as_json().get("card", move.as_json().get("tile")) not in named]
    return (free or chance)[0]


# --- the die tiles (R-S05, decision C.9) -


def _die_tiles(state: GameState, run: _Walk) -> GameState:
    """Lay the castle's die tiles as the layout shows them, by finding an order of draws R-S05 lays so."""
    wanted: dict[tuple[str, int], Colour] = {}
    rooms = {room.id: room for room in state.board.rooms}
    given_any = False
    for room_id, room in rooms.items():
        path = ("die_tiles", room_id)
        given = run.given(path)
        if given is None:
            continue
        colours = _room_tiles(run, path, given, len(room.tiles))
        if colours is None:
            run.stand_ins.add("die_tiles")  # reported: the castle is laid by a stand-in below
        for position, colour in enumerate(colours or ()):
            if colour is not None:
                wanted[(room_id, position)] = colour
                given_any = True
    for key in run.entries:
        if key[0] == "die_tiles" and len(key) == 2 and key[1] not in rooms:
            run.used.add(key)
            run.problems.add(key, f"the castle has no room {key[1]!r}", "R-S05")
    if not given_any and run.draw_rest:  # the whole castle drawn: exactly as a seeded game draws it
        while isinstance(state.stack[-1], DealDieTile):
            move = draw_chance(state)
            run.moves.append(move)
            state = play(state, move)
        return state
    seed = state.seed if run.draw_rest else None
    found = None if "die_tiles" in run.stand_ins else _search(state, wanted, seed)
    if found is None and "die_tiles" not in run.stand_ins:
        _die_tile_problem(run, state, wanted)
        run.stand_ins.add("die_tiles")
    if found is None:
        found = _search(state, {}, None)
        assert found is not None  # decision C.9: a castle can always be finished from the start
    after, moves = found
    run.moves.extend(moves)
    return after


def _room_tiles(run: _Walk, path: Path, given: Any, size: int) -> list[Colour | None] | None:
    names = [colour.value for colour in Colour]
    if not isinstance(given, list) or len(given) != size:
        run.problems.add(path, f"this room holds {size} die tiles: give {size} colours in order", "R-S05")
        return None
    colours: list[Colour | None] = []
    for item in given:
        if item is None:
            colours.append(None)
        elif item in names:
            colours.append(Colour(item))
        else:
            run.problems.add(path, f"die tiles are {', '.join(names)}, not {item!r}", "R-S05")
            return None
    known = [colour for colour in colours if colour is not None]
    if len(known) == size and len(set(known)) < 2:
        run.problems.add(path, "every room shows at least two colours of die tiles", "R-S05")
        return None
    return colours


def _search(
    state: GameState, wanted: Mapping[tuple[str, int], Colour], seed: int | None
) -> tuple[GameState, list[Move]] | None:
    """An order of die-tile draws that lays every tile `wanted` where it is wanted (depth first; with a seed,
    the spaces the layout leaves free are filled in an order drawn from it, else they must all be given)."""
    budget = [DIE_TILE_SEARCH]

    def fits(current: GameState) -> bool:
        for room in current.board.rooms:
            for position, tile in enumerate(room.tiles):
                want = wanted.get((room.id, position))
                if tile is not None and want is not None and tile != want:
                    return False
        return True

    def go(current: GameState, moves: list[Move]) -> tuple[GameState, list[Move]] | None:
        if not fits(current):
            return None
        if not (current.stack and isinstance(current.stack[-1], DealDieTile)):
            return current, moves
        options = castle.die_tile_outcomes(current)
        ranked: list[str] = []
        free: list[str] = []
        for colour in options:
            space = castle.die_tile_space(current, Colour(colour))
            want = wanted.get(space) if space is not None else None
            if want is not None:
                if want == colour:
                    ranked.append(colour)
            elif wanted or seed is None:
                free.append(colour)
        if seed is not None:
            rng_for(current.rules_version, seed, current.chance, "tiles").shuffle(free)
        elif wanted:
            free = []  # a space left free with nothing to draw it from: not this way
        for colour in ranked + free:
            if budget[0] <= 0:
                return None
            budget[0] -= 1
            move = DieTileMove(colour)
            found = go(play(current, move), [*moves, move])
            if found is not None:
                return found
        return None

    return go(state, [])


def _die_tile_problem(run: _Walk, state: GameState, wanted: Mapping[tuple[str, int], Colour]) -> None:
    """Why no order of draws lays the castle's tiles so (R-S05), said about the first room that cannot be."""
    bag = list(state.board.decks.die_tiles)
    counts = {colour.value: bag.count(colour.value) for colour in Colour}
    asked = {colour.value: 0 for colour in Colour}
    for colour in wanted.values():
        asked[colour.value] += 1
    over = [colour for colour in asked if asked[colour] > counts[colour]]
    if over:
        run.problems.add(
            ("die_tiles",),
            f"the castle holds more {over[0]} die tiles than the bag's {counts[over[0]]}",
            "R-S05",
        )
        return
    diamonds = [wanted.get(space) for space in state.catalog.diamond_spaces]
    if len({c for c in diamonds if c is not None}) < len([c for c in diamonds if c is not None]):
        room = state.catalog.diamond_spaces[0][0]
        run.problems.add(
            ("die_tiles", room),
            "the 3 ♦ spaces hold one die tile of each colour (the first tile of each steward room)",
            "R-S05",
        )
        return
    if not run.draw_rest and len(wanted) < len(state.catalog.diamond_spaces) + len(
        state.catalog.numbered_spaces
    ):
        free = [
            room.id
            for room in state.board.rooms
            if any((room.id, p) not in wanted for p in range(len(room.tiles)))
        ]
        run.problems.add(("die_tiles", free[0]), "missing: which colours do its die tiles show?", "R-S05")
        return
    run.problems.add(
        ("die_tiles",),
        "no order of drawing the die tiles lays them so: the ♦ spaces are filled first, then spaces 1 to 10 in "
        "order, and a room's last tile that would leave it one colour goes on to the next space",
        "R-S05",
    )


# --- what the walk left -


def _compare(run: _Walk, state: GameState) -> None:
    """Entries the setup laid by itself (a deck's last card, the first-game layout) must be what the layout
    says, and an entry the setup never asked for is a place this game does not have."""
    if run.stopped:
        return
    dealt = layout_of(state)
    reported = {item["field"] for item in run.problems.items}
    # the Well's tiles come from the bag the castle left: after a stand-in castle they are not the layout's
    after_stand_in = {"well"} if "die_tiles" in run.stand_ins else set()
    for path, value in run.entries.items():
        if value is None or field_name(path) in reported or path[0] in after_stand_in:
            continue
        if path[0] == "die_tiles" and path in run.used:
            continue  # laid by the search, or reported by it
        actual = _lookup(dealt, path)
        if actual is not None and _same(path, actual, value):
            continue
        if actual is None:
            run.problems.add(path, "this game has no such place to lay out", _rule(path))
        elif path in run.used:
            run.problems.add(path, f"the setup laid {_shown(actual)} here, not {_shown(value)}", _rule(path))
        else:
            why = "the first-game layout lays" if state.options.first_game else "the setup laid"
            run.problems.add(path, f"{why} {_shown(actual)} here, not {_shown(value)}", _rule(path))


def _same(path: Path, actual: Any, value: Any) -> bool:
    """Whether an entry is what the board shows: a bridge's dice in any order (they are laid ascending)."""
    if path[0] == "dice" and isinstance(actual, list) and isinstance(value, list):
        return sorted(map(str, actual)) == sorted(map(str, value))
    return bool(actual == value)


def _shown(value: Any) -> str:
    return " ".join(map(str, value)) if isinstance(value, list) else str(value)


def _lookup(layout: Mapping[str, Any], path: Path) -> Any:
    value: Any = layout
    for key in path:
        if isinstance(value, Mapping):
            value = value.get(key)
        elif isinstance(value, Sequence) and not isinstance(value, str) and key.isdigit():
            index = int(key)
            value = value[index] if index < len(value) else None
        else:
            return None
        if value is None:
            return None
    return value
