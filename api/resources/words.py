"""The pages' words and board targets: the pages take their words from the API, and the JavaScript holds no
rule and no label table (docs/pages/index.md).

- :func:`choices`: each legal move as a page offers it, in the order of the listing, said by its kind
  (`domain.kinds`): its words (the button), its group (the heading it goes under), the board part it acts on
  (``target``, or null for an answer that has no place on the board: a yes or no, a resource to pick, a chance
  entry) and the icons it shows.
- :func:`catalog_words`: every card, tile and icon of a game's catalog in words, and every part of its board
  named (``parts``, keyed by the same ids as the targets): served once with the catalog.
- :func:`hint`: how to answer the pending prompt, under its question.

A target is a board part's id, ``kind:id`` as an annotation names it (``room:steward_1``, ``bridge:coral``,
``well:``), or a part inside one (``bridge:coral:left``, ``room:steward_2:top``, ``daimyo:spot:1``,
``domain:0:row:courtiers``, ``track:11``, ``tea_garden:path_1``). The page draws each part with its id and
finds a move's target by it, without knowing why the move goes there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import domain
from domain.card_words import FAMILIES, card_words, icon_words
from domain.catalog import Catalog
from domain.names import cost_text
from domain.state import GameState
from domain.vocabulary import parse_icon, space_text

# --- icons and cards ------------------------------------------------------------------------------------


def _icons_in(value: Any, found: set[str]) -> None:
    """Every text of the catalog that reads as an icon (effects, gains, rewards, spots, curtains...)."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key not in ("source", "id", "text"):
                _icons_in(item, found)
    elif isinstance(value, list | tuple):
        for item in value:
            if isinstance(item, str):
                try:
                    parse_icon(item)
                except ValueError:
                    continue
                found.add(item)
            else:
                _icons_in(item, found)


# --- the board's parts ----------------------------------------------------------------------------------


def parts(catalog: Mapping[str, Any], state: Mapping[str, Any], players: Sequence[str]) -> dict[str, str]:
    """Every part of a game's board the page draws, by id, in words (its accessible name when no move acts on
    it, and an annotation's part); `state` is the board JSON (present.board)."""
    board = state.get("board") or {}
    colours = (state.get("rules") or {}).get("colours") or [
        bridge["colour"] for bridge in board.get("bridges", ())
    ]
    named: dict[str, str] = {
        "passage_of_time:": "the Passage of Time",
        "daimyo:": "the Daimyo",
        "well:": "the Well",
        "gate:": "the Gate of the castle",
    }
    pot = catalog.get("passage_of_time") or {}
    milestones = pot.get("milestones") or {}
    for space in range(int(pot.get("last_space", 20)) + 1):
        seals = milestones.get(str(space))
        toll = f", a milestone: pay {seals} seal{'s' * (seals > 1)} to pass" if seals else ""
        named[f"track:{space}"] = f"Passage of Time space {space}{toll}"
    for spot in range(3):
        named[f"daimyo:spot:{spot}"] = f"favour spot {spot + 1} of the Daimyo"
    for room in (catalog.get("castle") or {}).get("rooms") or board.get("rooms") or ():
        named[f"room:{room['id']}"] = space_text(room["id"])
    for colour in colours:
        named[f"bridge:{colour}"] = f"the {colour} bridge"
        named[f"bridge:{colour}:left"] = f"the left (lantern) end of the {colour} bridge"
        named[f"bridge:{colour}:right"] = f"the right end of the {colour} bridge"
    for slot in board.get("gardens") or ():
        named[f"garden:{slot['id']}"] = f"the {slot['bridge']} {slot['type']} garden"
    for yard in catalog.get("yards") or ():
        named[f"yard:{yard['id']}"] = f"training {space_text(yard['id'])} ({yard.get('iron')} iron)"
    for space in catalog.get("outside_the_walls") or ():
        named[f"outside:{space['id']}"] = space_text(space["id"])
    rows = (catalog.get("domain") or {}).get("rows") or ()
    for seat, name in enumerate(players):
        named[f"domain:{seat}"] = f"{name}'s domain"
        named[f"lantern:{seat}"] = f"{name}'s Lantern Area"
        for row in rows:
            named[f"domain:{seat}:row:{row['id']}"] = (
                f"{name}'s {row['colour']} row ({row.get('member', '')}s) of the Personal Domain"
            )
    for index in range(4):
        named[f"offer:{index}"] = f"starting pair {index + 1}"
    matcha = board.get("matcha")
    if matcha:
        for item in (*matcha.get("tea_room", ()), *matcha.get("himeji", ())):
            kind = "tea_room" if item["id"].startswith("tea_room") else "himeji"
            named[f"{kind}:{item['id']}"] = space_text(item["id"])
        for deck in matcha.get("decks") or ():
            named[f"himeji:deck:{deck['id']}"] = f"the {deck['id'].capitalize()} deck in Himeji"
        places = [
            "entrance",
            "viewing_platform",
            *(f"path_{i + 1}" for i in range(len(matcha.get("path", ())))),
        ]
        for place in places:
            named[f"tea_garden:{place}"] = space_text(place)
        for room in matcha.get("tea_house") or ():
            named[f"tea_house:{room['id']}"] = space_text(room["id"])
        named["pond:"] = "the Pond"
    return named


# The icon of the pages' one icon set (templates/_icons.html) each kind of part shows beside its name, where a
# page names a part (an annotation's target); a bridge's and a garden's take their colour or type.
_PART_ICONS = {
    "passage_of_time": "pot",
    "daimyo": "daimyo",
    "well": "well",
    "gate": "gate",
    "room": "courtier",
    "yard": "warrior",
    "outside": "gate",
    "domain": "domain",
    "lantern": "lantern",
    "tea_room": "geisha",
    "himeji": "curtain",
    "tea_garden": "pond",
    "tea_house": "token",
    "track": "pot",
}


def part_icon(key: str) -> str:
    """The icon a part's name is shown with (``bridge:coral`` → ``tile:coral``, ``garden:white_stone`` →
    ``stone``, ``well:`` → ``well``); ``any`` for a kind without one."""
    kind, _, ident = key.partition(":")
    if kind == "bridge":
        return f"tile:{ident.split(':')[0]}"
    if kind == "garden":
        return "stone" if ident.endswith("stone") else "plant"
    return _PART_ICONS.get(kind, "any")


# The score pad's lines (domain.ScoreSheet's fields, R-F01..R-F08) as icons: what each line counts.
_SHEET_ICONS = {
    "in_game_cp": ["cp"],
    "coins_seals": ["coin", "seal"],
    "resources": ["food", "iron", "pearl"],
    "passage_of_time": ["pot"],
    "courtiers": ["courtier"],
    "warriors": ["warrior"],
    "gardeners": ["gardener"],
    "geishas": ["geisha"],
}


def sheet_icons(line: str, matcha: bool = False) -> list[str]:
    """The icons a score sheet line shows beside its words (the resources line counts whisks with Matcha)."""
    icons = list(_SHEET_ICONS.get(line, ()))
    if line == "resources" and matcha:
        icons.append("whisk")
    return icons


def catalog_words(
    catalog: Mapping[str, Any], state: Mapping[str, Any], players: Sequence[str]
) -> dict[str, Any]:
    """A game's words, served once with its catalog: ``cards`` (id → what it does), ``icons`` (the catalog's
    icon notation → words) and ``parts`` (board part id → its name)."""
    cards = {}
    for family in FAMILIES:
        for card in catalog.get(family) or ():
            if isinstance(card, Mapping) and "id" in card:
                cards[str(card["id"])] = card_words(family, card)
    found: set[str] = set()
    _icons_in(catalog, found)
    for rows in (catalog.get("domain") or {}).get("rows") or ():
        _icons_in(rows.get("rewards"), found)
    icons = {icon: icon_words(icon) for icon in sorted(found)}
    return {"cards": cards, "icons": icons, "parts": parts(catalog, state, players)}


# --- the legal moves as choices -------------------------------------------------------------------------


def choices(
    state: GameState,
    moves: Sequence[Mapping[str, Any] | domain.Move],
    *,
    payments: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """Each legal move as the page offers it, in the listing's order (see the module's docstring): each move's
    kind says its words, group, target and icons (`domain.choice`). A move comes typed (as the engine listed it)
    or in its JSON form. ``payments``, in the same order, say how a move listed with the seal conversions it
    needs is paid (the listing's ``notes``, ``domain.payment_text``: "pay 1 coin + 1 seal"); its words end with
    it: "Steward room 2 (pay 2 coins) — pay 1 coin + 1 seal"."""
    out = []
    for i, move in enumerate(moves):
        said = domain.choice(state, move if isinstance(move, domain.Move) else dict(move))
        paid = payments[i] if payments is not None and i < len(payments) else ""
        if paid:
            said["words"] = f"{said['words']} — {paid}"
        out.append(said)
    return out


# --- the prompt's hint ----------------------------------------------------------------------------------


def hint(pending: Mapping[str, Any] | None, catalog: Catalog) -> str:
    """How to answer the pending prompt, "" when its question says it all; the prices it names are the game's
    catalog's."""
    if not pending:
        return ""
    context = pending.get("context") or {}
    kind = pending.get("kind")
    if kind == "take_die":
        return "Choose a die at the end of a bridge; one from the left (lantern) end also gives the Lantern Reward."
    if kind == "place_die":
        return "Choose the space for the die."
    if kind == "actions":
        if context.get("mandatory"):
            return "Take each of them; the order is yours."
        picks = context.get("picks")
        return f"Any of them, in any order{f' ({picks} left)' if picks else ''}; Done ends them."
    if kind == "courtier":
        pearl = catalog.ascent_pearl
        return (
            "Two steps, each once, in any order, or Done: the Audience sends your next courtier to the Gate "
            f"({cost_text(catalog.audience_cost)}: tap the Gate); the Ascent moves one courtier up a floor "
            f"({pearl.get(1)} pearl, or {pearl.get(2)} for two floors: tap the room it goes to)."
        )
    if kind == "geisha":
        if context.get("free_step"):
            return "One of your geishas at the entrance or on the path moves 1 step; nothing to pay."
        spec = catalog.matcha
        entrance = cost_text(spec.entrance_cost) if spec else ""
        whisks = spec.whisks_per_steps if spec else {}
        return (
            f"Part A: your leftmost geisha to the entrance ({entrance or 'free'}). Part B: one geisha 1 step "
            f"({whisks.get(1)} whisks) or 2 steps ({whisks.get(2)} whisks). Each once, in any order."
        )
    if kind == "himeji_card":
        if context.get("purpose") == "path":
            return (
                "Its yellow curtain now, then the card goes to your Lantern Area (a deck's last card stays)."
            )
        return "Then its yellow and blue curtains, in any order."
    if kind == "roll":
        if len(context.get("bridges") or ()) > 1:
            dice = context.get("dice", "")
            return f"Type each bridge's {dice} dice, in any order: a full bridge hands on to the next."
        return f"Enter the {context.get('dice', '')} values shown, in any order."
    if kind == "solo_card":
        return "Reveal the top card of the solo deck and enter it: the rival plays the rest of its turn by itself."
    if kind == "rival_garden":
        return "The gardens tie as the cheapest for the rival: the rules let you choose (R-SO05)."
    if kind == "rival_room":
        return "That room's card is discarded and replaced; the rules let you choose the room (R-SO05)."
    if kind == "choose_start_cards":
        return "Tokugawa: 2 of each were dealt; take 1 of each, in any combination (R-TK01)."
    if kind == "rival_geisha":
        return (
            "Not the geisha its symbol has just sent; the Viewing Platform only if it has none there; into the "
            "Tea House only the room scoring it the most (R-TK03, R-TK05)."
        )
    if kind == "rival_discard":
        return (
            "A rival geisha stopped on a path space: the top card of a deck holding 2 cards or more leaves the "
            "game (R-TK03)."
        )
    return "The rival's turn: the engine plays it." if context.get("automatic") else ""


__all__ = ["catalog_words", "choices", "hint", "icon_words", "parts"]
