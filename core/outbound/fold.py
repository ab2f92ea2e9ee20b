"""Text folding: the comparison form in which box values are looked for.

``fold`` applies NFKC, folds look-alike letters (Cyrillic, Greek, small
capitals) to Latin, folds case and drops accents, and writes every other
character as a marker: :data:`SEP` for a visible separator, :data:`ZW` for an
invisible one. :func:`normalize` is the same with the markers removed (the
form of a value); :func:`cased` keeps case and decimal marks (the form short
values and initials are matched in). Each character folds on its own, so a
text's fold is the concatenation of its characters' folds.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable

from core.entities import EntityType

SEP = " "  # any visible separator: space, punctuation, symbol, line break
ZW = "\x01"  # an invisible character: zero-width space/joiner, BOM, bidi controls
BARRIER = "\x02"  # between two strings of a payload: nothing matches across it

MIN_LEN = 2
SHORT_MAX = 3
LONG_MIN = 8

#: Look-alikes folded to Latin, applied before and after case folding (so
#: uppercase Cyrillic "Н" is "h" while lowercase Greek "η" is "n").
HOMOGLYPHS: dict[str, str] = {
    # Cyrillic capitals and small letters
    "А": "a", "В": "b", "Е": "e", "К": "k", "М": "m", "Н": "h", "О": "o", "Р": "p",
    "С": "c", "Т": "t", "Х": "x", "У": "y", "Ѕ": "s", "І": "i", "Ј": "j", "Ԛ": "q",
    "Ԝ": "w", "Ү": "y", "Һ": "h", "Ӏ": "l", "а": "a", "е": "e", "о": "o", "р": "p",
    "с": "c", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "һ": "h", "ԛ": "q",
    "ԝ": "w", "ӏ": "l", "ү": "y", "к": "k", "м": "m", "н": "h", "т": "t", "в": "b",
    "г": "r", "п": "n", "ԁ": "d", "ɡ": "g",
    # Greek capitals and small letters
    "Α": "a", "Β": "b", "Ε": "e", "Ζ": "z", "Η": "h", "Ι": "i", "Κ": "k", "Μ": "m",
    "Ν": "n", "Ο": "o", "Ρ": "p", "Τ": "t", "Υ": "y", "Χ": "x", "α": "a", "β": "b",
    "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
    "χ": "x", "ω": "w", "γ": "y", "η": "n",
    # Armenian
    "օ": "o", "ս": "u", "հ": "h", "ո": "n", "ց": "g",
    # Latin variants and small capitals
    "ı": "i", "ȷ": "j", "ɑ": "a", "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e",
    "ꜰ": "f", "ɢ": "g", "ʜ": "h", "ɪ": "i", "ᴊ": "j", "ᴋ": "k", "ʟ": "l", "ᴍ": "m",
    "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ʀ": "r", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v",
    "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
}  # fmt: skip


def _glyph(ch: str, casefold: bool) -> str:
    mapped = HOMOGLYPHS.get(ch)
    if mapped is None:
        return ch
    return mapped if casefold or ch.islower() else mapped.upper()


def _fold_char(c: str, casefold: bool) -> str:
    """One character's comparison form (several characters for ligatures, "" for accents)."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFKC", c):
        ch = _glyph(ch, casefold)
        for ch2 in ch.casefold() if casefold else ch:
            for ch3 in unicodedata.normalize("NFD", ch2):
                cat = unicodedata.category(ch3)
                if cat in ("Mn", "Me"):
                    continue  # accents: "Jöhn" is "John"
                if cat == "Cf":
                    out.append(ZW)
                elif cat == "Nd":
                    out.append(str(unicodedata.digit(ch3)))  # Arabic-Indic, Devanagari... digits
                elif cat[0] in "LN":
                    out.append(_glyph(ch3, casefold))
                else:
                    out.append(SEP)
    return "".join(out)


class _FoldTable(dict[int, str]):
    """A ``str.translate`` table that computes and remembers each character's fold."""

    def __init__(self, casefold: bool) -> None:
        super().__init__()
        self.casefold = casefold

    def __missing__(self, code: int) -> str:
        out = _fold_char(chr(code), self.casefold)
        self[code] = out
        return out


_FOLD = _FoldTable(casefold=True)
_CASED = _FoldTable(casefold=False)
# In the cased form (used for short values only) decimal marks and the clock's colon stay
# visible, so that "1.42" or "1,420" does not hold the age "42", nor "at 14:20" the room "14".
_CASED[ord(".")] = "."
_CASED[ord(",")] = ","
_CASED[ord(":")] = ":"
_MARKS = str.maketrans("", "", SEP + ZW + BARRIER)


def fold(text: str) -> str:
    """NFKC, homoglyphs, case folding, no accents; separators kept as markers."""
    return text.translate(_FOLD)


def cased(text: str) -> str:
    """The form short values and initials are matched in: case and decimal marks kept."""
    return text.translate(_CASED)


def strip_marks(folded: str) -> str:
    """A folded or cased text without its separator, invisible and barrier markers."""
    return folded.translate(_MARKS)


def origins(text: str, form: Callable[[str], str]) -> list[int] | None:
    """For each character of ``form(text)``, the index in ``text`` of the character it
    comes from; None when every character gives exactly one (the usual case).

    ``form`` is :func:`fold` or :func:`cased`: each character is folded on its own
    (an ASCII character always gives one, which spares the check for most texts).
    """
    if text.isascii() or all(len(form(c)) == 1 for c in set(text)):
        return None
    return [i for i, c in enumerate(text) for _ in form(c)]


def normalize(text: str) -> str:
    """The comparison form of a value: :func:`fold` with every separator removed."""
    return fold(text).translate(_MARKS)


#: :func:`normalize`, remembered: box values are normalized again at every
#: request, and they rarely change.
normalize_cached = functools.lru_cache(maxsize=8192)(normalize)


#: A placeholder exactly as the box writes it (``[PERSON_1]``).
CANONICAL_PLACEHOLDER = re.compile(
    r"\[(?:"
    + "|".join(sorted((t.value for t in EntityType), key=len, reverse=True))
    + r")_\d{1,4}\]"
)
