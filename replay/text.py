"""What text a game may hold: the rules for names, titles, colours, reasons and annotations, in one place
(docs/api/limits.md#text).

Texts are shown again on pages, in exports and in terminals, so control characters and bidirectional overrides are
refused and names that look alike are one name.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from domain.errors import DomainError
from replay.errors import ReplayError


class InvalidText(ReplayError):
    """A text a client sent that no game may hold (see the module docstring)."""

    code = "invalid_request"


BIDI_CONTROLS = frozenset(chr(code) for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
"""Embeddings, overrides and isolates: they reorder the text after them on screen."""

_IGNORABLE_RANGES = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): characters shown as nothing."""


def _class(ranges: tuple[tuple[int, int], ...]) -> str:
    """A regular expression's character class of these code point ranges."""
    return "".join(f"{re.escape(chr(low))}-{re.escape(chr(high))}" for low, high in ranges)


# The per-character rules below as regular expressions: a text is scanned in C, once, however long it is (a
# Python loop over a 2 MiB name cost a fifth of a second).
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_CONTROL_CLASS = r"\x00-\x1f\x7f-\x9f" + _class(((0x202A, 0x202E), (0x2066, 0x2069), (0x2028, 0x2029)))
_ONE_LINE_REFUSED = re.compile(f"[{_CONTROL_CLASS}]")
_LINES_REFUSED = re.compile(rf"(?![\n\t])[{_CONTROL_CLASS}]")
_INVISIBLE = re.compile(f"[{_class(_IGNORABLE_RANGES)}]")
_ENDS = re.compile(rf"[\s{_class(_IGNORABLE_RANGES)}]+")
"""A run of blanks and invisible characters (what :func:`tidy` trims at either end)."""


def invisible(char: str) -> bool:
    """Whether ``char`` is drawn as nothing at all (a Default_Ignorable_Code_Point)."""
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE_RANGES)


def control(char: str) -> bool:
    """Whether ``char`` is a control character (C0, DEL or C1)."""
    return unicodedata.category(char) == "Cc"


def surrogate(char: str) -> bool:
    """Whether ``char`` is half of a UTF-16 pair on its own: not a character, and not writable as UTF-8."""
    return 0xD800 <= ord(char) <= 0xDFFF


def has_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate (a quick test first: nearly every text is valid UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def describe(char: str) -> str:
    """A character named as people can look it up: ``U+001B (ESCAPE)``."""
    name = unicodedata.name(char, "") if not surrogate(char) else "a lone surrogate"
    return f"U+{ord(char):04X}" + (f" ({name})" if name else "")


def _strip(text: str) -> str:
    """``text`` without blanks or invisible characters at either end (the end's run is found in the text
    reversed: a search for a run that ends the text would try every run in it)."""
    leading = _ENDS.match(text)
    start = leading.end() if leading else 0
    trailing = _ENDS.match(text[::-1])
    end = len(text) - trailing.end() if trailing else len(text)
    return text[start:end] if start < end else ""


def tidy(text: str) -> str:
    """``text`` in the form a game keeps it: composed (NFC), without blanks or invisible characters at either
    end (what :func:`checked` returns for a text it accepts)."""
    return _strip(unicodedata.normalize("NFC", text))


def checked(
    value: object,
    what: str,
    *,
    max_length: int,
    multiline: bool = False,
    allow_empty: bool = False,
    error: Callable[..., DomainError] = InvalidText,
    **details: object,
) -> str:
    """``value`` as a game keeps it (NFC, without blanks or invisible characters at its ends), or ``error``
    naming ``what`` and the first character refused (see the module docstring). ``multiline``: line breaks
    and tabs are kept (CR LF and CR read as LF). ``max_length`` counts characters after trimming."""
    if not isinstance(value, str):
        raise error(f"{what} must be a text", **details)
    lone = _SURROGATE.search(value) if has_surrogate(value) else None
    if lone is not None:
        raise error(
            f"{what} holds {describe(lone.group())}, which is not a character: send valid Unicode", **details
        )
    if multiline:
        text = value.replace("\r\n", "\n").replace("\r", "\n").replace("\u2028", "\n").replace("\u2029", "\n")
    else:
        text = value
    refused = (_LINES_REFUSED if multiline else _ONE_LINE_REFUSED).search(text)
    if refused is not None:
        char = refused.group()
        raise error(
            f"{what} holds the control character {describe(char)}: "
            + ("only line breaks and tabs are kept" if multiline else "it must be one line of plain text"),
            character=f"U+{ord(char):04X}",
            **details,
        )
    text = tidy(text)
    if not text and not allow_empty:
        raise error(f"{what} must not be empty", **details)
    if len(text) > max_length:
        raise error(
            f"{what} has at most {max_length} characters ({len(text)} sent)", length=len(text), **details
        )
    return text


# Letters of the Cyrillic and Greek alphabets drawn like Latin ones (Unicode's confusables.txt, the lowercase
# forms that case folding leaves): "Аnn" with a Cyrillic А reads as "Ann".
_LOOKALIKES = str.maketrans(
    {
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "ë",
        "һ": "h",
        "н": "h",
        "і": "i",
        "ї": "ï",
        "ј": "j",
        "к": "k",
        "ӏ": "l",
        "м": "m",
        "о": "o",
        "р": "p",
        "ԛ": "q",
        "ѕ": "s",
        "т": "t",
        "у": "y",
        "ү": "y",
        "х": "x",
        "ԝ": "w",
        "ԁ": "d",
        "с": "c",
        "α": "a",
        "β": "b",
        "ε": "e",
        "ζ": "z",
        "η": "h",
        "ι": "i",
        "κ": "k",
        "μ": "m",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "y",
        "χ": "x",
    }
)


def name_key(name: str) -> str:
    """How names compare: two names with one key look the same on screen. Compatibility forms are folded
    (NFKC: ``ﬁ`` is ``fi``, a full-width ``Ａ`` is ``A``), case is ignored, invisible characters are dropped,
    runs of blanks count as one, and Cyrillic and Greek letters drawn like Latin ones count as those."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    visible = _INVISIBLE.sub("", folded)
    spaced = " ".join(visible.split())
    return unicodedata.normalize("NFKC", spaced).translate(_LOOKALIKES)


def printable(text: str) -> str:
    """``text`` as a text export writes it: every control character, bidirectional control and line separator
    written as an escape (``\\x1b``, ``\\u202e``), never raw, so a record is read as it is, in any terminal."""
    if not any(_raw_unsafe(char) for char in text):
        return text
    out = []
    for char in text:
        if not _raw_unsafe(char):
            out.append(char)
        elif ord(char) < 0x100:
            out.append(f"\\x{ord(char):02x}")
        elif ord(char) < 0x10000:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    return "".join(out)


def _raw_unsafe(char: str) -> bool:
    """Whether a text export must not write ``char`` as it is."""
    return control(char) or char in BIDI_CONTROLS or char in "\u2028\u2029" or surrogate(char)
