"""The pages' words and board targets (DESIGN §5: the pages take their words from the API, the JavaScript holds
no rule and no label table).

- :func:`choices`: each legal move as a page offers it, in the order of the listing: its words (the button),
  its group (the heading it goes under), the board part it acts on (``target``, or null for an answer that has
  no place on the board: a yes or no, a resource to pick, a chance entry) and the icons it shows.
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

from domain.vocabulary import parse_icon, space_text
from domain.words import icon_text, icons_text, seat_text, source_text

# --- icons and cards ------------------------------------------------------------------------------------


def icon_words(text: str) -> str:
    """One icon of the catalog's notation in words ("coin:2" → "2 coins"); a rival's icon too."""
    try:
        return icon_text(parse_icon(text))
    except ValueError:
        return rival_icon_words(text)


def icon_list(icons: Sequence[str] | None) -> str:
    return " + ".join(icon_words(str(icon)) for icon in icons or ()) or "nothing"


def cost_words(cost: Mapping[str, int] | Sequence[Sequence[Any]] | None) -> str:
    """A cost as the catalog ({"seal": 1}) or a prompt ([["seal", 1]]) writes it: "1 seal", "3 coins"."""
    pairs = list(cost.items()) if isinstance(cost, Mapping) else [tuple(pair) for pair in cost or ()]
    return ", ".join(icon_words(f"{name}:{amount}") for name, amount in pairs if amount)


_GEISHA_SYMBOL = {"entrance": 2, "path_1": 3, "path_2": 4}
_GEISHA_STEPS = {
    "entrance": "it loses 3 CP and you advance another of its geishas 1 step",
    "path_1": "a Himeji card is discarded, it loses all its coins and you advance another of its geishas 1 step",
    "path_2": "a Himeji card is discarded and its influence goes 2 spaces back",
}


def rival_icon_words(text: str) -> str:
    """An icon of a solo card (the rival's icons, R-SO05; the Tokugawa's, R-TK02..R-TK07) in words."""
    name, _, arg = str(text).partition(":")
    plural = "" if arg == "1" else "s"
    match name:
        case "gate":
            return "a courtier to the Gate"
        case "ascent":
            return f"the lowest courtier climbs {arg} floor{plural}"
        case "warrior":
            return f"a warrior to the {arg}-iron yard"
        case "gardener":
            return f"a gardener to the {arg} garden scoring least"
        case "cp":
            return f"{arg} CP"
        case "pot":
            return f"Passage of Time +{arg}"
        case "coin":
            return f"{arg} coin{plural}"
        case "geisha":
            symbol = _GEISHA_SYMBOL.get(arg, "?")
            return f"symbol {symbol}: a geisha from its supply to {space_text(arg)}, then {_GEISHA_STEPS.get(arg, '')}"
        case "lose_cp":
            return f"it loses {arg} CP (not below 0)"
        case "lose_coin":
            return "it loses all its coins" if arg == "all" else f"it loses {arg} coin{plural} (not below 0)"
        case "lose_pot":
            return f"its influence goes {arg} space{plural} back"
        case "discard":
            return "the top card of an Ikebana or Calligraphy deck holding 2 cards is discarded"
        case "advance":
            return "you advance one of its geishas 1 step"
    return str(text).replace("_", " ")


def solo_card_words(card: Mapping[str, Any]) -> str:
    icons = ", then ".join(rival_icon_words(str(icon)) for icon in card.get("icons") or ()) or "nothing"
    return (
        f"{card['id']}: the {card.get('bridge')} die at the {card.get('end')} end → "
        f"{space_text(str(card.get('space')))}; {icons}"
    )


_FAMILIES = (
    "stewards",
    "diplomats",
    "starting_actions",
    "starting_resources",
    "decrees",
    "gardens",
    "yard_tiles",
    "die_tiles",
    "daimyo",
    "ikebana",
    "calligraphy",
    "lily_pads",
    "ceremony_faces",
    "solo_cards",
)


def card_words(family: str, card: Mapping[str, Any]) -> str:
    """What a card or tile does, in words: its blocks, gains, spots, curtains, lantern icons and points."""
    if family == "solo_cards":
        return solo_card_words(card)
    parts = []
    for block in card.get("blocks") or ():
        price = f"pay {cost_words(block['cost'])}: " if block.get("cost") else ""
        rows = "/".join(block.get("rows") or ())
        parts.append(
            f"{block.get('background')} background ({rows}): {price}{icon_list(block.get('effects'))}"
        )
    if card.get("gain"):
        parts.append(f"gain {icon_list(card['gain'])}")
    if card.get("spots"):
        parts.append("; ".join(f"spot {i + 1}: {icon_list(spot)}" for i, spot in enumerate(card["spots"])))
    if family == "gardens":
        parts.append(f"{card.get('food')} food to enter, {card.get('cp')} CP at the end")
        if card.get("cost"):
            parts.append(f"then pay {cost_words(card['cost'])}")
        parts.append(f"does {icon_list(card.get('effects'))}")
    if family in ("ikebana", "calligraphy"):
        parts.append(f"yellow curtain: {icon_list(card.get('yellow'))}")
        price = f"pay {cost_words(card['blue_cost'])}: " if card.get("blue_cost") else ""
        parts.append(f"blue curtain: {price}{icon_list(card.get('blue'))}")
    else:
        if card.get("blue"):
            parts.append(f"blue side: {icon_list(card['blue'])}")
        if card.get("yellow"):
            parts.append(f"yellow side: {icon_list(card['yellow'])}")
    if family in ("lily_pads", "ceremony_faces"):
        parts.append(("lily pad: " if family == "lily_pads" else "") + icon_list(card.get("effects")))
    if card.get("reward"):
        parts.append(f"{card.get('colour')} die tile, reward {icon_list(card['reward'])}")
    if card.get("lantern"):
        parts.append(f"lantern: {icon_list(card['lantern'])}")
    if card.get("decree"):
        parts.append(f"with decree {card['decree']}")
    return f"{card['id']}: {'; '.join(parts)}"


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

ROWS = {"courtiers": "courtier", "gardeners": "gardener", "warriors": "warrior"}


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
    for family in _FAMILIES:
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


def _place_target(space: str, seat: int | None) -> str | None:
    if space == "well":
        return "well:"
    if space == "domain":
        return f"domain:{seat}"
    if space.startswith(("steward_", "diplomat_")):
        return f"room:{space}"
    if space.startswith("outside_"):
        return f"outside:{space}"
    if space.startswith("tea_room_"):
        return f"tea_room:{space}"
    if space.startswith("himeji_"):
        return f"himeji:{space}"
    return None


def _garden_place(place: str) -> str:
    return f"tea_house:{place}" if place.startswith("tea_house") else f"tea_garden:{place}"


def target(state: Mapping[str, Any], pending: Mapping[str, Any], move: Mapping[str, Any]) -> str | None:
    """The board part a move acts on (see the module's docstring), or None where the board has no place for
    it."""
    kind = move.get("kind")
    seat = move.get("seat")
    if kind == "take_die":
        return f"bridge:{move['bridge']}:{move['end']}"
    if kind == "place_die":
        return _place_target(str(move["space"]), seat)
    if kind == "choose":
        title = str((pending.get("context") or {}).get("title", ""))
        place, _, where = title.partition(":")
        option = str(move.get("option"))
        if place == "castle" and where:
            return f"room:{where}:{option}"
        if place in ("light", "tile") and ":" in option:
            return f"room:{option}"  # a block of one castle card among several: lit where it lies
        if place == "outside" and where:
            return f"outside:{where}:{option}"
        if place == "domain" and where:
            return f"domain:{seat}:row:{where}"
        if place == "garden" and where:
            return f"garden:{where}"
        if place == "daimyo":
            return "daimyo:"
        return None
    if kind == "audience":
        return "gate:"
    if kind == "ascend":
        to = str(move["to"])
        return "daimyo:" if to == "daimyo" else f"room:{to}"
    if kind in ("warrior",):
        return f"yard:{move['yard']}"
    if kind in ("gardener", "rival_garden"):
        return f"garden:{move['garden']}"
    if kind == "rival_room":
        return f"room:{move['room']}"
    if kind == "domain_row":
        return f"domain:{seat}:row:{move['row']}"
    if kind == "milestone" and move.get("pay"):
        player = (state.get("players") or [])[seat] if isinstance(seat, int) else None
        return f"track:{int(player['pot']) + 1}" if player else None
    if kind == "daimyo_spot":
        return f"daimyo:spot:{move['spot']}"
    if kind == "choose_start":
        offer = (state.get("board") or {}).get("offer") or []
        index = next((i for i, pair in enumerate(offer) if pair.get("resource") == move["resource"]), None)
        return None if index is None else f"offer:{index}"
    if kind == "send_geisha":
        return "tea_garden:entrance"
    if kind in ("advance_geisha", "rival_geisha"):
        return _garden_place(str(move["to"]))
    if kind in ("himeji_card", "rival_discard"):
        return f"himeji:deck:{move['deck']}"
    return None


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _coins(delta: int | None) -> str:
    if not delta:
        return ""
    n = abs(delta)
    return f" (gain {n} coin{'s' * (n > 1)})" if delta > 0 else f" (pay {n} coin{'s' * (n > 1)})"


def _name(state: Mapping[str, Any], seat: Any, names: Sequence[str]) -> str:
    if not isinstance(seat, int):
        return "Chance"
    return names[seat] if seat < len(names) else f"Seat {seat + 1}"


CONVERSIONS = "Convert seals… (free, any time on your turn)"
"""The seal conversions' group: the moves they make affordable are listed with them (rules 0.3.0, each saying how
it is paid), so the page keeps the conversions themselves folded under this heading when anything else is
offered."""


def group(pending: Mapping[str, Any], move: Mapping[str, Any]) -> str:
    """The heading a move's button goes under."""
    kind = move.get("kind")
    if kind == "convert":
        return CONVERSIONS
    if kind in ("done", "rest"):
        return "Finish"
    if kind == "take_die":
        return f"{_capital(str(move['bridge']))} bridge"
    if kind == "place_die":
        space = str(move["space"])
        if space.startswith(("steward_", "diplomat_")):
            return "Castle"
        if space.startswith("outside_"):
            return "Outside the Walls"
        if space.startswith(("tea_room", "himeji")):
            return "Tea Room and Himeji"
        return "Well and Domain"
    return {
        "send_geisha": "Part A",
        "advance_geisha": "Part B",
        "audience": "Audience",
        "ascend": "Ascent",
    }.get(str(kind), "Choices")


def move_words(
    state: Any,
    pending: Mapping[str, Any],
    move: Mapping[str, Any],
    *,
    board_json: Mapping[str, Any],
    catalog: Mapping[str, Any],
    names: Sequence[str],
) -> str:
    """A legal move as a button says it: what it takes, where it goes and what it costs or gains."""
    from domain.turn import reference  # the value a placed die is compared to (R-P02)

    context = pending.get("context") or {}
    board = board_json.get("board") or {}
    cards = _cards(catalog)
    kind = move.get("kind")
    if kind == "take_die":
        bridge: Mapping[str, Any] = next(
            (b for b in board.get("bridges", ()) if b["colour"] == move["bridge"]), {}
        )
        value = bridge.get(move["end"])
        if value is None:
            value = bridge.get("right" if move["end"] == "left" else "left")
        return f"{_capital(str(move['bridge']))} {value}, {move['end']} end" + (
            " (lantern)" if move["end"] == "left" else ""
        )
    if kind == "place_die":
        die = context.get("die")
        delta = None
        if die:
            try:
                delta = int(die["value"]) - reference(state, str(move["space"]))
            except (KeyError, ValueError, IndexError, StopIteration):
                delta = None
        return _capital(space_text(str(move["space"]))) + _coins(delta)
    if kind == "choose":
        option = next((o for o in context.get("options") or () if o.get("id") == move.get("option")), None)
        if option is None:
            return _capital(str(move.get("option")).replace("_", " "))
        if option.get("text"):
            said = _capital(str(option["text"]))
        else:
            words = icon_list(option.get("icons"))
            said = f"Pay {cost_words(option['cost'])}: {words}" if option.get("cost") else _capital(words)
        return said + _block_source(board, str(move.get("option")))
    if kind == "rest":
        return "Take them all"
    if kind == "done":
        return "Done" if pending.get("kind") in ("actions", "courtier", "geisha", "climb") else "Skip"
    if kind == "send_geisha":
        entrance = ((catalog.get("matcha") or {}).get("geisha_action") or {}).get("entrance_cost") or {}
        return f"Part A: a geisha to the Tea Garden entrance ({cost_words(entrance) or 'free'})"
    if kind == "advance_geisha":
        steps = f"{space_text(str(move['from']))} → {space_text(str(move['to']))}"
        return f"Part B: {steps}{_whisks(state, move, bool(context.get('free_step')))}"
    if kind == "himeji_card":
        deck = next(
            (d for d in (board.get("matcha") or {}).get("decks", ()) if d["id"] == move["deck"]), None
        )
        top = deck.get("top") if deck else None
        card = cards.get(str(top)) if top else None
        shown = ""
        if card:
            shown = f": {icon_list(card.get('yellow'))}"
            if context.get("purpose") != "path":
                shown += f" / {icon_list(card.get('blue'))}"
        return f"{_capital(str(move['deck']))}{f' {top}' if top else ''}{shown}"
    if kind == "audience":
        return "Audience: a courtier to the Gate (2 coins)"
    if kind == "ascend":
        return f"Ascent: {space_text(str(move['from']))} → {space_text(str(move['to']))}"
    if kind == "warrior":
        yard = next((y for y in catalog.get("yards") or () if y["id"] == move["yard"]), None)
        return f"Training {space_text(str(move['yard']))}" + (f" ({yard['iron']} iron)" if yard else "")
    if kind in ("gardener", "rival_garden"):
        slot = next((g for g in board.get("gardens", ()) if g["id"] == move["garden"]), None)
        card = cards.get(str(slot.get("card"))) if slot else None
        where = f"The {str(move['garden']).replace('_', ' ')} garden"
        if not card:
            return where
        return (
            f"{where} {card['id']} ({card['food']} food)"
            if kind == "gardener"
            else f"{where} ({card['cp']} CP)"
        )
    if kind == "domain_row":
        row = next((r for r in (catalog.get("domain") or {}).get("rows", ()) if r["id"] == move["row"]), None)
        return f"The {row['colour']} row ({move['row']})" if row else f"The {move['row']} row"
    if kind == "resources":
        gained = ", ".join(f"{move[r]} {r}" for r in ("food", "iron", "pearl") if move.get(r))
        return gained or "nothing"
    if kind == "milestone":
        return "Pay the seals and pass" if move.get("pay") else "Stop before it"
    if kind == "daimyo_spot":
        daimyo = board.get("daimyo") or {}
        card = cards.get(str(daimyo.get("card")))
        spots = card.get("spots") if card else None
        spot = int(move["spot"])
        return f"Favour spot {spot + 1}" + (
            f": {icon_list(spots[spot])}" if spots and spot < len(spots) else ""
        )
    if kind == "choose_start":
        pair = next((p for p in board.get("offer") or () if p.get("resource") == move["resource"]), None)
        resource = cards.get(str(move["resource"]))
        action = cards.get(str(pair["action"])) if pair else None
        gains = icon_list(resource.get("gain")) if resource else str(move["resource"])
        does = icon_list(action["blocks"][0]["effects"]) if action and action.get("blocks") else ""
        return f"{move['resource']} + {pair['action'] if pair else '?'}: {gains}" + (
            f"; action card: {does}" if does else ""
        )
    if kind == "choose_start_cards":
        resource = cards.get(str(move["resource"]))
        action = cards.get(str(move["action"]))
        gains = icon_list(resource.get("gain")) if resource else str(move["resource"])
        does = (
            icon_list(action["blocks"][0]["effects"])
            if action and action.get("blocks")
            else str(move["action"])
        )
        token = cards.get(str(move["token"]))
        return (
            f"{move['resource']} ({gains}) + {move['action']} ({does}) + "
            f"{card_words('ceremony_faces', token) if token else move['token']}"
        )
    if kind == "rival_geisha":
        return f"{_capital(space_text(str(move['from'])))} → {space_text(str(move['to']))}"
    if kind == "rival_discard":
        deck = next(
            (d for d in (board.get("matcha") or {}).get("decks", ()) if d["id"] == move["deck"]), None
        )
        return f"{_capital(str(move['deck']))}" + (
            f": discard {deck['top']}" if deck and deck.get("top") else ""
        )
    if kind == "convert":
        price = 1 if move["to"] == "coin" else 2
        return f"{price} seal{'s' * (price > 1)} → 1 {move['to']}"
    if kind in ("reveal", "well_tile", "solo_card"):
        card_id = str(move.get("card") or move.get("tile"))
        card = cards.get(card_id)
        return card_words(card["family"], card) if card else card_id
    if kind == "die_tile":
        return _capital(str(move["colour"]))
    if kind == "roll":
        return ", ".join(str(value) for value in move["dice"])
    if kind == "stack_order":
        return ", then ".join(_name(board_json, seat, names) for seat in move["order"])
    if kind == "rival_room":
        room = next((r for r in board.get("rooms", ()) if r["id"] == move["room"]), None)
        return _capital(space_text(str(move["room"]))) + (
            f" (its card {room['card']} is discarded)" if room and room.get("card") else ""
        )
    return str(kind).replace("_", " ")


def _block_source(board: Mapping[str, Any], option: str) -> str:
    """Where a castle card's block offered among others' comes from (a light-background action, an action beside
    a die tile): " (steward room 2's card S2, middle block)", "" for an option of one place's own menu."""
    room_id, _, rows = option.partition(":")
    room = next((r for r in board.get("rooms", ()) if r.get("id") == room_id), None)
    if room is None or not rows:
        return ""
    return f" ({space_text(room_id)}'s card {room.get('card')}, {rows.replace('+', ' and ')} block)"


def _whisks(state: Any, move: Mapping[str, Any], free_step: bool) -> str:
    from domain.matcha import tea_garden  # the whisks a geisha's steps cost (R-M08)

    for origin, to, whisks in tea_garden.advances(state, int(move["seat"]), free_step=free_step):
        if origin == move["from"] and to == move["to"]:
            return f" ({whisks} whisks)" if whisks else " (free)"
    return " (free)"


_CARD_INDEX: dict[int, dict[str, Any]] = {}


def _cards(catalog: Mapping[str, Any]) -> dict[str, Any]:
    """The catalog's cards by id, each with its family (kept per catalog object)."""
    known = _CARD_INDEX.get(id(catalog))
    if known is not None and known.get("__catalog") is catalog:
        return known
    index: dict[str, Any] = {"__catalog": catalog}
    for family in _FAMILIES:
        for card in catalog.get(family) or ():
            if isinstance(card, Mapping) and "id" in card:
                index[str(card["id"])] = {**card, "family": family}
    if len(_CARD_INDEX) > 64:
        _CARD_INDEX.clear()
    _CARD_INDEX[id(catalog)] = index
    return index


def choices(
    state: Any,
    pending: Mapping[str, Any],
    moves: Sequence[Mapping[str, Any]],
    *,
    board_json: Mapping[str, Any],
    catalog: Mapping[str, Any],
    names: Sequence[str],
    notes: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """Each legal move as the page offers it, in the listing's order (see the module's docstring). ``notes``, in
    the same order, say how a move listed with the seal conversions it needs is paid (the listing's ``notes``,
    ``domain.payment_text``: "pay 1 coin + 1 seal"); its words end with it: "Steward room 2 (pay 2 coins) — pay
    1 coin + 1 seal"."""
    from domain.engine import conversions_serve  # where a seal conversion can serve the player to play

    serve = conversions_serve(state)
    out = []
    for i, move in enumerate(moves):
        said = move_words(state, pending, move, board_json=board_json, catalog=catalog, names=names)
        note = notes[i] if notes is not None and i < len(notes) else ""
        entry: dict[str, Any] = {
            "words": f"{said} — {note}" if note else said,
            "group": group(pending, move),
            "target": target(board_json, pending, move),
            "icons": _move_icons(pending, move),
        }
        if move.get("kind") == "convert":
            entry["offered"] = serve
        out.append(entry)
    return out


def _move_icons(pending: Mapping[str, Any], move: Mapping[str, Any]) -> list[str]:
    """The icons a move's button shows (a resource picked, a conversion, an option's gains)."""
    kind = move.get("kind")
    if kind == "resources":
        return [f"{r}:{move[r]}" for r in ("food", "iron", "pearl") if move.get(r)]
    if kind == "convert":
        return ["seal:1" if move["to"] == "coin" else "seal:2", f"{move['to']}:1"]
    if kind == "choose":
        option = next(
            (
                o
                for o in (pending.get("context") or {}).get("options") or ()
                if o.get("id") == move.get("option")
            ),
            None,
        )
        return [str(icon) for icon in option.get("icons") or ()] if option else []
    return []


# --- the prompt's hint ----------------------------------------------------------------------------------


def hint(pending: Mapping[str, Any] | None) -> str:
    """How to answer the pending prompt, "" when its question says it all."""
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
        return (
            "Two steps, each once, in any order, or Done: the Audience sends your next courtier to the Gate "
            "(2 coins: tap the Gate); the Ascent moves one courtier up a floor (2 pearl, or 5 for two floors: "
            "tap the room it goes to)."
        )
    if kind == "geisha":
        if context.get("free_step"):
            return "One of your geishas at the entrance or on the path moves 1 step; nothing to pay."
        return (
            "Part A: your leftmost geisha to the entrance (2 coins). Part B: one geisha 1 step (2 whisks) or "
            "2 steps (5 whisks). Each once, in any order."
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


__all__ = [
    "catalog_words",
    "choices",
    "hint",
    "icon_words",
    "icons_text",
    "move_words",
    "parts",
    "seat_text",
    "source_text",
    "target",
]
