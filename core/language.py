"""The language of a message, and of each of its sentences where a message mixes them.

Detection is local: py3langid (a fork of langid.py, a naive Bayes model over
byte n-grams, 4.5 MB, shipped inside the wheel: nothing is downloaded at run
time) ranks about 200 languages. Sottovoce judges five of them with rules of
their own (:data:`SUPPORTED`); a text whose probability mass lies on another
language is :data:`UNKNOWN`: the rules alone judge it, never the English NER's
guesses, and the editor says so. A text too short to tell (a greeting, a name)
is taken as English, the language every part of Sottovoce was built for.

On WikiANN's dev sentences that hold four lower-case words or more (500 per
language: de, fr, nl, en) and the Spanish utility dev set's sentences of more
than 30 characters (107), ``guess`` names the right language for 97.2% of them
(Spanish 79%: its short sentences are the hard ones; ``python
benchmarks/bench_language.py`` prints the figures).

``Settings.language`` fixes the language ("auto" detects it).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

ENGLISH = "en"
#: The languages with rules of their own (English plus the locales of core.locales).
SUPPORTED = ("en", "de", "fr", "es", "nl")
#: A language Sottovoce has no rules for.
UNKNOWN = "und"
#: Human names, for notices.
NAMES = {
    "en": "English",
    "de": "German",
    "fr": "French",
    "es": "Spanish",
    "nl": "Dutch",
}
#: Fewer letters than this and a text is not judged (it is taken as English or
#: as the message's language).
MIN_LETTERS = 20
#: The probability mass on SUPPORTED that makes a text one of them.
SUPPORTED_MASS = 0.5
#: The probability another language needs for a text to be UNKNOWN.
OTHER_MIN = 0.5
#: How many times the next language's probability a supported language needs to be
#: the text's when the mass decides nothing. On the sentences of the five utility dev
#: sets it names 46 more: 45 rightly, one Spanish sentence with an e-mail address as
#: French (a sentence's own guess changes its part only from PART_MIN).
LEAD = 3.0
#: The confidence a sentence's own language needs to differ from its message's.
PART_MIN = 0.9
#: A message longer than this is judged as a whole only (per-sentence
#: detection would cost linear time in classifier calls).
MAX_MIXED_CHARS = 50_000

_PIECE_END = re.compile(r"(?<=[.!?…])[\"')\]]*\s+|\n\s*\n|\n(?=\s*(?:[-*\u2022]|\d{1,3}[.)])\s)")

_lock = threading.Lock()
_identifier: Any = None


def _model() -> Any:
    global _identifier
    if _identifier is None:
        with _lock:
            if _identifier is None:
                import py3langid.langid as langid

                _identifier = langid.LanguageIdentifier.from_model_file(
                    langid.MODEL_FILE, norm_probs=True
                )
    return _identifier


@dataclass(frozen=True)
class Guess:
    """A classifier's answer for one text: a code of SUPPORTED, UNKNOWN, or None (cannot tell)."""

    language: str | None
    #: The most likely language of all (for a notice about an UNKNOWN one).
    top: str
    confidence: float


def _letters(text: str) -> int:
    return sum(c.isalpha() for c in text)


@lru_cache(maxsize=64)
def guess(text: str) -> Guess:
    """The language of ``text``; ``language`` is None when the text is too short to tell.
    Remembered (a frozen answer): a message's language and its parts ask for the same text."""
    if _letters(text) < MIN_LETTERS:
        return Guess(None, "", 0.0)
    ranked: list[tuple[str, float]] = _model().rank(text)
    top, top_p = ranked[0]
    mass = 0.0
    best, best_p = ENGLISH, -1.0
    for code, p in ranked:
        if code in SUPPORTED:
            mass += p
            if p > best_p:
                best, best_p = code, p
    if mass >= SUPPORTED_MASS:
        return Guess(best, top, best_p)
    if top_p >= OTHER_MIN:
        return Guess(UNKNOWN, top, top_p)
    if top in SUPPORTED and len(ranked) > 1 and top_p >= LEAD * ranked[1][1]:
        # Names of other languages spread the mass ("Meine Kollegin Wanjiru Kamau ist
        # krank.": German 0.41, Javanese 0.11): a supported language far ahead of the
        # rest is the text's.
        return Guess(top, top, top_p)
    return Guess(None, top, top_p)


@dataclass(frozen=True)
class Part:
    """A stretch of a message in one language."""

    start: int
    end: int
    language: str


@dataclass(frozen=True)
class Languages:
    """The language of a message and of each of its parts (in order, covering the text)."""

    message: str
    parts: tuple[Part, ...]
    #: The most likely language when ``message`` is UNKNOWN ("it", "ru"...).
    top: str = ""

    @property
    def codes(self) -> frozenset[str]:
        return frozenset(p.language for p in self.parts) | {self.message}

    @property
    def english_only(self) -> bool:
        return self.codes == {ENGLISH}

    def at(self, pos: int) -> str:
        """The language at character ``pos``."""
        for p in self.parts:
            if p.start <= pos < p.end:
                return p.language
        return self.message

    def notice(self) -> str | None:
        """A line for the editor when some of the text is in a language without rules."""
        if UNKNOWN not in self.codes:
            return None
        which = f" ({self.top})" if self.top else ""
        supported = ", ".join(NAMES[c] for c in SUPPORTED)
        return (
            f"Language not supported{which}: the English model and the pattern rules (numbers, "
            f"addresses, e-mails...) checked this text; names may be missed. Supported: {supported}."
        )


def _pieces(text: str) -> Iterator[tuple[int, int]]:
    pos = 0
    for m in _PIECE_END.finditer(text):
        yield pos, m.start()
        pos = m.end()
    yield pos, len(text)


@lru_cache(maxsize=16)
def message_language(text: str, fixed: str = "auto") -> str:
    """The language of ``text`` as a whole (one classifier call; no parts)."""
    if fixed != "auto":
        return fixed
    return guess(text).language or ENGLISH


def _stretches(text: str) -> Iterator[tuple[int, int]]:
    """Sentence-like pieces, a short one joined to the next (a last short one to the one before)."""
    start: int | None = None
    end = 0
    for a, b in _pieces(text):
        if start is None:
            start = a
        end = b
        if _letters(text[start:end]) >= MIN_LETTERS:
            yield start, end
            start = None
    if start is not None:
        yield start, end


@lru_cache(maxsize=16)
def detect(text: str, fixed: str = "auto") -> Languages:
    """The languages of ``text``; ``fixed`` (a code of SUPPORTED) skips detection."""
    if fixed != "auto":
        return Languages(fixed, (Part(0, len(text), fixed),))
    whole = guess(text)
    message = message_language(text)
    if len(text) > MAX_MIXED_CHARS:
        return Languages(message, (Part(0, len(text), message),), whole.top)
    parts: list[Part] = []
    for a, b in _stretches(text):
        g = guess(text[a:b])
        lang = g.language if g.language is not None and g.confidence >= PART_MIN else message
        if parts and parts[-1].language == lang:
            parts[-1] = Part(parts[-1].start, b, lang)
        else:
            # The gap between pieces belongs to the part before.
            if parts:
                parts[-1] = Part(parts[-1].start, a, parts[-1].language)
            parts.append(Part(a if parts else 0, b, lang))
    if parts:
        parts[-1] = Part(parts[-1].start, len(text), parts[-1].language)
    return Languages(message, tuple(parts), whole.top)
