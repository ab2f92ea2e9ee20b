"""The one matcher of box values: where a text holds a value of the privacy box.

:class:`BoxMatcher` is built once per box version from the values (and the
other forms of person names) and finds them in a payload's folded form (see
:mod:`core.outbound.fold`) by the egress guard's rules (see
:mod:`core.egress`): short values as whole words in their own case or in
capitals, middle ones as whole words with any separators inside, long ones
anywhere. :meth:`BoxMatcher.locate` finds them, by the same rules, in a text as written,
with their positions: composing the outbound (:mod:`core.outbound.compose`)
replaces what the guard would find.
:data:`TITLES` are the words around a name that name no one.
"""

from __future__ import annotations

import functools
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from core.box import PrivacyBox
from core.entities import EntityType
from core.lexicon import lexicon
from core.outbound.fold import (
    LONG_MIN,
    MIN_LEN,
    SEP,
    SHORT_MAX,
    ZW,
    cased,
    fold,
    normalize,
    normalize_cached,
    origins,
    strip_marks,
)
from core.outbound.names import InitialsFinder, name_variants

#: Words next to a name or a placeholder that identify no one ("Dr. [PERSON_1]",
#: "Dear [PERSON_1]"); what the detector finds there leaks nothing. (One list
#: for the guard and the settling step: the union of the two they had.)
TITLES = frozenset(
    {"mr", "mrs", "ms", "mx", "miss", "dr", "prof", "sir", "madam", "st", "mt", "dear", "hi",
     "hello"}
)  # fmt: skip

def _word_name(value: str) -> bool:
    """A value that is one capitalized name that is also an everyday word ("Hope", "Will",
    "Grace" of a protected name; :meth:`core.lexicon.Lexicon.is_word_name`): matched, like
    the short values, in its own case or in capitals only, so that "I hope" and "we will"
    neither leave as a name's placeholder nor block the message. A name that is rarely a
    word ("Anna", "Lucas") and one written in lower case stay matched in any case."""
    if not (value.isalpha() and value[:1].isupper() and value[1:].islower()):
        return False
    try:
        return lexicon().is_word_name(value)
    except Exception:
        return False


_LETTER = r"[^\W\d_]"
_LETTER_END = rf"(?:(?!{_LETTER})|(?=s(?!{_LETTER})))"  # possessive "Johns" counts
_DIGIT_END = r"(?!\d)(?![.,:]\d)"  # "14" is no value of "14.5", "14,500" or "14:20"


class _Trie:
    def __init__(self) -> None:
        self.root: dict[str, Any] = {}

    def add(self, word: str, end: str) -> None:
        node = self.root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = end  # "" is never a character of a word

    def pattern(self, joiner: str, left: bool) -> str:
        """One alternation of every word: shared prefixes once, ``joiner`` between
        characters, each word's end pattern after it.

        Built with an explicit stack, not recursion: a value is a path of one node per
        character, and a pasted key or certificate is thousands of characters long. A
        run of nodes with one child and no end is written flat (no group per character).
        """
        out: list[str] = []
        # Work items: a str is written as it is, a dict is a node whose rest is written.
        work: list[str | dict[str, Any]] = []
        branches = []
        for k in sorted(self.root):
            head = re.escape(k)
            if left:
                # The literal first keeps sre's fast branch check; the lookbehind
                # then looks at the character before it.
                cls = r"\d" if k.isdigit() else _LETTER
                head += f"(?<!{cls}{re.escape(k)})"
                if k.isdigit():
                    head += rf"(?<!\d[.,:]{re.escape(k)})"
            branches.append((head, self.root[k]))
        if not branches:
            return ""
        work.append(")")
        for i, (head, node) in reversed(list(enumerate(branches))):
            work.append(node)
            work.append(head if i == 0 else "|" + head)
        work.append("(?:")
        while work:
            item = work.pop()
            if isinstance(item, str):
                out.append(item)
                continue
            kids = sorted(k for k in item if k)
            if not kids:
                out.append(item[""])
                continue
            end = "" in item
            if end:  # (?:<kids>|<end>)
                work.append("|" + item[""] + ")")
            if len(kids) == 1:
                work.append(item[kids[0]])
                work.append(joiner + re.escape(kids[0]))
            else:
                work.append(")")
                for i, k in reversed(list(enumerate(kids))):
                    work.append(item[k])
                    work.append(re.escape(k) if i == 0 else "|" + re.escape(k))
                work.append(joiner + "(?:")
            if end:
                work.append("(?:")
        return "".join(out)


class BoxMatcher:
    """Finds box values in a folded payload; built once per box version."""

    def __init__(
        self,
        values: Iterable[tuple[str, str]],
        variants: Iterable[tuple[str, str]] = (),
        initials: InitialsFinder | None = None,
    ) -> None:
        self.types: dict[str, set[str]] = {}  # normalized value -> entity types
        self.values: dict[str, str] = {}  # normalized or short form -> the value as given
        self.initials = initials  # names written with initials, found in the cased form
        self.short: dict[str, set[str]] = {}  # cased short form -> types
        self.placeholders: dict[str, set[str]] = {}
        bounded, unbounded, short = _Trie(), _Trie(), _Trie()
        self.skipped = 0
        for value, type_ in values:
            norm = normalize(value)
            if len(norm) < MIN_LEN:
                self.skipped += 1
                continue
            if len(norm) <= SHORT_MAX or _word_name(value):
                own = strip_marks(cased(value))
                if len(own) != len(norm):  # a character that folds to several
                    own = norm
                forms = {own, own.upper(), own[:1].upper() + own[1:]}
                for form in forms:
                    end = _DIGIT_END if form[-1].isdigit() else f"(?!{_LETTER})"
                    short.add(form, end)
                    self.short.setdefault(form, set()).add(type_)
                    self.values.setdefault(form, value)
                continue
            self.types.setdefault(norm, set()).add(type_)
            self.values.setdefault(norm, value)
            if len(norm) >= LONG_MIN:
                unbounded.add(norm, "")
            else:
                bounded.add(norm, r"(?!\d)" if norm[-1].isdigit() else _LETTER_END)
        # Other forms of a value ("Wielgosz, T." for "Tadeusz Wielgosz") match as
        # whole words whatever their length: a form is a guess, the value is not.
        for form, type_ in variants:
            norm = normalize(form)
            if len(norm) > SHORT_MAX:
                self.types.setdefault(norm, set()).add(type_)
                self.values.setdefault(norm, form)
                bounded.add(norm, r"(?!\d)" if norm[-1].isdigit() else _LETTER_END)
        joiner = f"[{SEP}{ZW}]*"
        self._parts = [
            p for p in (bounded.pattern(joiner, True), unbounded.pattern(joiner, False)) if p
        ]
        short_pattern = short.pattern(f"{ZW}*", True)
        self.short_regex = re.compile(short_pattern) if short_pattern else None

    # Compiling a large alternation costs milliseconds: each form is compiled when it is
    # first used (the guard's find, the composer's locate), not both for every box.
    @functools.cached_property
    def regex(self) -> re.Pattern[str] | None:
        """All the values (but the short ones) in one pattern, for :meth:`find`."""
        return re.compile("|".join(self._parts)) if self._parts else None

    @functools.cached_property
    def _apart(self) -> list[re.Pattern[str]]:
        """The whole-word and the anywhere values apart, for :meth:`locate`: at one place,
        the longer of the two must win ("Maria" is whole-word, "Maria Gonzalez" anywhere)."""
        return [re.compile(p) for p in self._parts]

    def find(self, folded: str, cased: str | None) -> set[str]:
        """Entity types of the values found; ``cased`` is needed only for short values."""
        found: set[str] = set()
        if self.regex is not None:
            # A hit is rare: a first match decides, then the rest are listed.
            for m in self.regex.finditer(folded):
                found |= self.types.get(strip_marks(m.group(0)), set())
        if self.short_regex is not None and cased is not None:
            for m in self.short_regex.finditer(cased):
                found |= self.short.get(strip_marks(m.group(0)), set())
        if self.initials is not None and cased is not None:
            found |= self.initials.find(cased)
        return found

    def locate(self, text: str) -> list[Located]:
        """Where values are in ``text`` as written, with their types and the value
        each is a form of ("L u c y" is a form of "Lucy").

        The same rules as :meth:`find` (the other forms of names are found,
        initials are not). Where found values overlap, the longest is kept
        ("Maria Gonzalez", not "Maria" inside it).
        """
        found: list[Located] = []
        searches = [(r, fold, self.types) for r in self._apart]
        if self.short_regex is not None:
            searches.append((self.short_regex, cased, self.short))
        views: dict[Callable[[str], str], tuple[str, list[int] | None]] = {}
        for regex, form, table in searches:
            if form not in views:  # each form of the text is made once
                views[form] = (form(text), origins(text, form))
            formed, back = views[form]
            for m in regex.finditer(formed):
                key = strip_marks(m.group(0))
                types = table.get(key)
                if types:
                    a, b = m.start(), m.end() - 1
                    if back is not None:
                        a, b = back[a], back[b]
                    found.append(Located(a, b + 1, frozenset(types), self.values[key]))
        found.sort(key=lambda f: (f.start, f.start - f.end))
        out: list[Located] = []
        for hit in found:
            if not out or hit.start >= out[-1].end:
                out.append(hit)
        return out

    @property
    def needs_cased(self) -> bool:
        """True when :meth:`find` needs the cased form of the payload."""
        return self.short_regex is not None or self.initials is not None


@dataclass(frozen=True)
class Located:
    """A value found in a text as written: where, its entity types, and the value
    (as the matcher was given it) that the text there is a form of."""

    start: int
    end: int
    types: frozenset[str]
    value: str


@dataclass(frozen=True)
class Hit:
    """Private data found in a payload: its type and where it came from (never the value)."""

    type: str
    source: str  # "box" or "detector"


class BoxMatchers:
    """The matcher of a box's current entries, built once per version of them.

    Every form of a value is matched (its aliases are the same person's);
    values the person consented to send in clear are not; with
    ``name_orders``, a person's name is also matched in its other orders and
    with initials. The last ``keep`` matchers are kept.
    """

    def __init__(self, *, name_orders: bool = True, keep: int = 8) -> None:
        self.name_orders = name_orders
        self._keep = keep
        self._built: OrderedDict[tuple[tuple[str, str], ...], BoxMatcher] = OrderedDict()
        self._lock = threading.Lock()

    def clear(self) -> None:
        """Forget the matchers built so far."""
        with self._lock:
            self._built.clear()

    def of(self, box: PrivacyBox | None, consented: Iterable[str] = ()) -> BoxMatcher:
        """The matcher of the box's current entries, but the values in ``consented``."""
        allowed = {normalize(a) for a in consented}
        entries = box.entries() if box is not None else []
        if allowed:
            entries = [e for e in entries if normalize_cached(e.value) not in allowed]
        # Every form of a value: its aliases ("Tadeusz", "Mr. Wielgosz") are the same person's.
        values = tuple(
            (form, str(e.type))
            for e in entries
            for form in e.forms
            if not allowed or normalize_cached(form) not in allowed
        )
        with self._lock:
            found = self._built.get(values)
            if found is not None:
                self._built.move_to_end(values)
                return found
        variants: tuple[tuple[str, str], ...] = ()
        initials = None
        persons = [(e.value, str(e.type)) for e in entries if e.type is EntityType.PERSON]
        if self.name_orders and persons:
            variants = tuple((form, t) for v, t in persons for form in name_variants(v))
            initials = InitialsFinder(persons, sep=SEP, zw=ZW, fold=cased)
        built = BoxMatcher(values, variants, initials)
        with self._lock:
            self._built[values] = built
            while len(self._built) > self._keep:
                self._built.popitem(last=False)
        return built


@functools.lru_cache(maxsize=16)
def matcher_of(values: tuple[tuple[str, str], ...]) -> BoxMatcher:
    """The matcher of these (value, entity type) pairs, kept for the next call with the same."""
    return BoxMatcher(values)


def word_runs(values: Iterable[str]) -> set[str]:
    """Every run of whole words of each value, normalized ("LH 401": "lh", "401", "lh401").

    A piece of a value sent in clear with consent is in clear already; a run of
    whole words, never a part of one ("anna" of "Joanna" is no piece).
    """
    out: set[str] = set()
    for value in values:
        words = re.findall(r"\w+", value)
        for i in range(len(words)):
            for j in range(i + 1, min(len(words), i + 8) + 1):
                piece = normalize(" ".join(words[i:j]))
                if len(piece) >= MIN_LEN:
                    out.add(piece)
    return out
