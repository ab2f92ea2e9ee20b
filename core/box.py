"""The privacy box: typed, numbered, stable placeholders, and their way back.

Each private value that would leave the machine is replaced by a placeholder
such as ``[PERSON_1]``. The same value keeps its placeholder for the whole
conversation; numbers count per type.

One person, one placeholder: the forms a text uses for one person ("Tadeusz
Wielgosz", "Tadeusz", "Mr. Wielgosz", "TADEUSZ", "T. Wielgosz") are linked to
one entry as its *aliases*, and so are an organisation's case variants and the
acronym of its name ("Okeke & Partners Ltd", "OPL"). A form that could belong
to two entries ("Anna" with "Anna Berg" and "Anna Holm" in the box) links to
neither and gets its own placeholder. Restoring writes the surname after a
title ("Ms. [PERSON_1]" -> "Ms. Lindqvist") and the longest form elsewhere;
a text this box anonymized itself is restored exactly, form by form, so
``deanonymize(anonymize(x)) == x`` holds for every text.

Restoring tolerates the forms models write (``PERSON_1``, ``Person 1``,
``<PERSON_1>``, ``[PERSON_1]'s``, a placeholder split across streamed chunks)
and never touches a placeholder-like string that is not in the box. When a
text already contains placeholder-like strings (the person may literally
write ``[PERSON_1]``), their numbers are reserved so that the box never hands
them out: the literal text then round-trips untouched.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from core.entities import EntityType
from core.spans import Span, merge_spans


def _type_pattern(t: EntityType) -> str:
    # CREDIT_CARD is also written "Credit Card" or "credit-card".
    return r"[ _\-]?".join(re.escape(part) for part in t.value.split("_"))


_TYPES_RE = "|".join(
    sorted((_type_pattern(t) for t in EntityType), key=len, reverse=True)
)
#: Every form of a placeholder a model may write. Case-insensitive. Either
#: bracketed (``[PERSON_1]``, ``<Person 1>``) or bare (``PERSON_1``), the bare
#: form only between word boundaries.
PLACEHOLDER_RE = re.compile(
    rf"(?P<open>[\[<{{(])\s?(?P<btype>{_TYPES_RE})[ _\-]?(?P<bnum>\d{{1,4}})\s?[\]>}})]"
    rf"|(?<![A-Za-z0-9_])(?P<type>{_TYPES_RE})[ _\-]?(?P<num>\d{{1,4}})(?![A-Za-z0-9_])",
    re.IGNORECASE,
)
# Anything that could read as a placeholder, boundaries ignored: used to
# reserve numbers that occur literally in a text (over-reserving is harmless).
_LOOSE_RE = re.compile(rf"(?P<type>{_TYPES_RE})[ _\-]?(?P<num>\d{{1,4}})", re.IGNORECASE)


#: How many anonymized texts the box remembers for exact restoring.
MEMO_SIZE = 64

_TITLES = r"(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam|dame)"
_TITLE_START = re.compile(rf"^{_TITLES}\.?\s+", re.IGNORECASE)
#: A title right before a placeholder in an answer ("Ms. [PERSON_1]").
_TITLE_END = re.compile(rf"\b{_TITLES}\.?\s*\Z", re.IGNORECASE)
#: How far back from a placeholder a title is looked for.
_TITLE_REACH = 32
_POSSESSIVE = re.compile(r"['’]s$", re.IGNORECASE)
#: Words of an organisation's name that its acronym leaves out.
_ORG_FILLER = frozenset({"&", "and", "of", "the", "for", "ltd", "llc", "inc", "plc", "gmbh", "co", "corp"})


def _strip_title(name: str) -> str:
    return _TITLE_START.sub("", name.strip())


def _strip_possessive(name: str) -> str:
    return _POSSESSIVE.sub("", name)


def _is_initial(part: str) -> bool:
    return len(part.rstrip(".")) == 1 and part[0].isalpha()


def _name_parts(name: str) -> list[str]:
    """A name's words, without a title or a possessive, case-folded ("T." stays an initial)."""
    # "QUARTEY-MENSAH, E." is the surname and an initial: commas separate parts.
    return [
        p.casefold() for p in re.split(r"[\s,]+", _strip_possessive(_strip_title(name))) if p.strip(".")
    ]


def _same_person(value: str, forms: Sequence[str]) -> bool:
    """True when ``value`` is another form of the person named by ``forms``.

    Its words are all words of the known forms, or the known words are all its
    words (a fuller form); an initial matches a word it begins. At least one
    full word must be shared: "T." alone links to nobody.
    """
    parts = _name_parts(value)
    known = {p for f in forms for p in _name_parts(f)}
    words = {p for p in parts if not _is_initial(p)}
    if not words or not known:
        return False
    full_known = {p for p in known if not _is_initial(p)}
    if not words & full_known:
        return False
    initials = [p[0] for p in parts if _is_initial(p)]
    if words <= full_known:
        return all(any(k.startswith(i) for k in full_known - words) for i in initials)
    # A fuller form: every known word is in it.
    return full_known <= words


def _short_form(value: str, forms: Sequence[str]) -> bool:
    """True when ``value`` is one word that shortens the given name of ``forms``: its
    start ("Cas" of "Caspian", "Kate" of "Katherine Moss") or, four letters or more, its
    end ("Lupe" of "Guadalupe"). Only tried when no person shares a whole word with it."""
    parts = _name_parts(value)
    if len(parts) != 1 or len(parts[0]) < 3 or not parts[0].isalpha():
        return False
    word = parts[0]
    for f in forms:
        known = _name_parts(f)
        given = known[0] if known else ""
        if len(given) > len(word) and (
            given.startswith(word) or (len(word) >= 4 and given.endswith(word))
        ):
            return True
    return False


def _same_org(value: str, form: str) -> bool:
    """True when ``value`` is ``form`` with another case or "the", or its acronym."""
    a, b = _org_key(value), _org_key(form)
    if a == b:
        return True
    for short, long in ((value, form), (form, value)):
        s = short.strip()
        if 2 <= len(s) <= 6 and s.isupper() and s.isalpha():
            words = re.findall(r"\w+", long)
            every = "".join(w[0] for w in words if w.casefold() not in ("and", "of", "the"))
            significant = "".join(w[0] for w in words if w.casefold() not in _ORG_FILLER)
            if s in (every.upper(), significant.upper()):
                return True
    return False


def _org_key(name: str) -> str:
    key = re.sub(r"\s+", " ", name.casefold()).strip(" .,")
    return key.removeprefix("the ")


def _type_key(raw: str) -> str:
    return re.sub(r"[ _\-]", "_", raw).upper()


def _match_key(m: re.Match[str]) -> tuple[str, int]:
    if m["btype"] is not None:
        return _type_key(m["btype"]), int(m["bnum"])
    return _type_key(m["type"]), int(m["num"])


@dataclass
class BoxEntry:
    """One private value and its placeholder."""

    placeholder: str  # "[PERSON_1]"
    type: EntityType
    number: int
    value: str
    created: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    uses: int = 0
    #: Other forms of the same value in this conversation ("Tadeusz" for "Tadeusz Wielgosz").
    aliases: list[str] = field(default_factory=list)

    @property
    def forms(self) -> list[str]:
        """The value and its aliases: every text this placeholder stands for."""
        return [self.value, *self.aliases]

    @property
    def full(self) -> str:
        """The fullest form (most words; the first written on a tie), for restoring."""
        return max(self.forms, key=lambda f: len(_name_parts(f)))

    def restore_form(self, after_title: bool) -> str:
        """The text a placeholder is restored to; after a title, a person's surname."""
        if after_title and self.type is EntityType.PERSON:
            parts = [p for p in _strip_title(self.full).split() if not _is_initial(p)]
            if len(parts) >= 2:
                return _strip_possessive(parts[-1])
        return _strip_title(self.full) if after_title else self.full

    def to_json(self) -> dict[str, object]:
        return {
            "placeholder": self.placeholder,
            "type": str(self.type),
            "number": self.number,
            "value": self.value,
            "aliases": list(self.aliases),
            "created": self.created,
            "uses": self.uses,
        }


@dataclass(frozen=True)
class Replacement:
    """Where one span of the original went in the anonymized text."""

    start: int  # in the original
    end: int
    new_start: int  # in the anonymized text
    new_end: int
    placeholder: str
    type: EntityType


@dataclass(frozen=True)
class Anonymized:
    """An anonymized text and the map back to the original offsets."""

    text: str
    replacements: tuple[Replacement, ...]


@dataclass(frozen=True)
class Restored:
    """The result of :meth:`PrivacyBox.deanonymize`."""

    text: str
    restored: tuple[str, ...]  # placeholders that were restored
    unresolved: tuple[str, ...]  # bracketed placeholders not in the box


class PrivacyBox:
    """Maps private values to placeholders for one conversation, and back.

    Thread-safe. ``on_change`` callbacks run after any entry is added or
    forgotten (the UI's box view subscribes).
    """

    def __init__(self, entries: Iterable[BoxEntry] = (), reserved: Iterable[str] = ()) -> None:
        self._lock = threading.RLock()
        self._by_form: dict[str, BoxEntry] = {}  # every value and alias, exactly
        self._by_key: dict[tuple[str, int], BoxEntry] = {}
        # Texts this box anonymized -> their originals (exact restoring, most recent last).
        self._memo: OrderedDict[str, str] = OrderedDict()
        self._reserved: set[tuple[str, int]] = set()
        self._next: dict[EntityType, int] = {}
        self.on_change: list[Callable[[], None]] = []
        for e in entries:
            self._add(e)
        for ph in reserved:
            self._reserve_in(ph)

    # --- entries ----------------------------------------------------------

    def __len__(self) -> int:
        return len(self._by_key)

    def __contains__(self, value: object) -> bool:
        with self._lock:
            return value in self._by_form

    def entries(self) -> list[BoxEntry]:
        with self._lock:
            return sorted(self._by_key.values(), key=lambda e: (e.type.value, e.number))

    def values(self) -> list[str]:
        """Every value and alias of the box."""
        return [f for e in self.entries() for f in e.forms]

    def reserved(self) -> list[str]:
        """Placeholder keys the box will never hand out (they occur literally in texts)."""
        with self._lock:
            return [f"[{t}_{n}]" for t, n in sorted(self._reserved)]

    def placeholder_for(self, value: str, type_: EntityType) -> str:
        """Return the placeholder of ``value``, creating one if it is new.

        A new form of a value already in the box (an alias, see the module's
        docstring) gets that value's placeholder and is recorded as its alias.
        """
        with self._lock:
            found = self._by_form.get(value)
            if found is None:
                found = self._link(value, type_)
                if found is not None:
                    found.aliases.append(value)
                    self._by_form[value] = found
            if found is not None:
                found.uses += 1
                return found.placeholder
            n = self._next.get(type_, 1)
            while (type_.value, n) in self._reserved or (type_.value, n) in self._by_key:
                n += 1
            entry = BoxEntry(f"[{type_.value}_{n}]", type_, n, value, uses=1)
            self._add(entry)
        self._changed()
        return entry.placeholder

    def add_alias(self, alias: str, of: str, type_: EntityType = EntityType.PERSON) -> str:
        """Record ``alias`` as another form of ``of`` (created if new); return the placeholder.

        An alias already bound to another entry stays where it is.
        """
        placeholder = self.placeholder_for(of, type_)
        with self._lock:
            if alias not in self._by_form:
                entry = self._by_form[of]
                entry.aliases.append(alias)
                self._by_form[alias] = entry
        return placeholder

    def placeholder_of(self, value: str) -> str | None:
        """The placeholder ``value`` already has (exactly or as an alias), without creating one."""
        with self._lock:
            entry = self._by_form.get(value)
            return entry.placeholder if entry is not None else None

    def _link(self, value: str, type_: EntityType) -> BoxEntry | None:
        """The one entry ``value`` is another form of, or None (none, or ambiguous)."""
        folded = value.casefold()
        same = [e for e in self._by_key.values() if any(f.casefold() == folded for f in e.forms)]
        if len(same) == 1:
            return same[0]
        if type_ is EntityType.PERSON:
            matches = [
                e
                for e in self._by_key.values()
                if e.type is EntityType.PERSON and _same_person(value, e.forms)
            ]
            if not matches:
                matches = [
                    e
                    for e in self._by_key.values()
                    if e.type is EntityType.PERSON and _short_form(value, e.forms)
                ]
        elif type_ is EntityType.ORG:
            matches = [
                e
                for e in self._by_key.values()
                if e.type is EntityType.ORG and any(_same_org(value, f) for f in e.forms)
            ]
        else:
            return None
        return matches[0] if len(matches) == 1 else None

    def _add(self, entry: BoxEntry) -> None:
        for form in entry.forms:
            self._by_form[form] = entry
        self._by_key[(entry.type.value, entry.number)] = entry
        self._next[entry.type] = max(self._next.get(entry.type, 1), entry.number + 1)

    def forget(self, placeholder: str) -> bool:
        """Drop one entry; its placeholder is never reused in this box."""
        m = PLACEHOLDER_RE.fullmatch(placeholder.strip())
        if not m:
            return False
        key = _match_key(m)
        with self._lock:
            entry = self._by_key.pop(key, None)
            if entry is None:
                return False
            for form in entry.forms:
                self._by_form.pop(form, None)
            self._memo.clear()
            self._reserved.add(key)
        self._changed()
        return True

    def forget_all(self) -> None:
        with self._lock:
            self._reserved.update(self._by_key)
            self._by_key.clear()
            self._by_form.clear()
            self._memo.clear()
        self._changed()

    def _changed(self) -> None:
        for callback in list(self.on_change):
            callback()

    def reserve(self, text: str) -> None:
        """Never hand out a placeholder number written in ``text`` that the box does not hold.

        A cloud's answer may name a placeholder it was never sent (a guess at
        a withheld value: "call [PERSON_2]"). Were that number later given to
        a real value, the history the cloud reads would say the guess was that
        value, and restoring the answer again would write it there.
        """
        with self._lock:
            self._reserve_in(text)

    def _reserve_in(self, text: str) -> None:
        for m in _LOOSE_RE.finditer(text):
            key = (_type_key(m["type"]), int(m["num"]))
            if key not in self._by_key:
                self._reserved.add(key)

    # --- text -------------------------------------------------------------

    def anonymize(self, text: str, spans: Sequence[Span]) -> Anonymized:
        """Replace every span of ``text`` by its placeholder.

        Overlapping and touching spans are merged first. Placeholder-like
        strings already in ``text`` are reserved before any number is handed
        out, so they survive a round trip untouched.
        """
        with self._lock:
            self._reserve_in(text)
            # A literal that reads as a placeholder already handed out (the
            # person wrote "PERSON1" in a later turn) would be ambiguous in the
            # answer: it goes through the box like any private value. Only one the
            # answer's restoring would read as such, a whole word or in brackets:
            # "id 1" of "arbeid 1,8 u" is part of a word.
            spans = list(spans) + [
                Span(m.start(), m.end(), EntityType.OTHER, 0.0, {"box": 1.0})
                for m in PLACEHOLDER_RE.finditer(text)
                if (_type_key(m["type"] or m["btype"]), int(m["num"] or m["bnum"])) in self._by_key
            ]
            parts: list[str] = []
            reps: list[Replacement] = []
            pos = 0
            out_len = 0
            for span in merge_spans(spans):
                if span.end > len(text):
                    raise ValueError("span outside the text")
                chunk = text[pos : span.start]
                parts.append(chunk)
                out_len += len(chunk)
                ph = self.placeholder_for(text[span.start : span.end], span.type)
                parts.append(ph)
                reps.append(
                    Replacement(span.start, span.end, out_len, out_len + len(ph), ph, span.type)
                )
                out_len += len(ph)
                pos = span.end
            parts.append(text[pos:])
            out = "".join(parts)
            if reps:
                self._memo[out] = text
                self._memo.move_to_end(out)
                while len(self._memo) > MEMO_SIZE:
                    self._memo.popitem(last=False)
        return Anonymized(out, tuple(reps))

    def deanonymize(self, text: str) -> Restored:
        """Restore every placeholder of this box in ``text`` (any written form).

        A text this box anonymized itself (the outbound, as it left) comes back
        exactly as it was written, every alias in its own form.
        """
        with self._lock:
            original = self._memo.get(text)
        out, restored, unresolved = self._restore(text, len(text))
        if original is not None:
            out = original
        return Restored(out, tuple(restored), tuple(unresolved))

    def _restore(
        self, text: str, limit: int, start: int = 0
    ) -> tuple[str, list[str], list[str]]:
        """Restore the matches of ``text[start:]`` that end by ``limit``; return ``text[start:limit]`` restored.

        Matching runs on the whole of ``text`` so that what follows ``limit``
        still decides where a placeholder ends (``PERSON_1`` vs ``PERSON_12``),
        and what precedes ``start`` (text already restored) whether one begins
        there (``xPERSON_1`` is not one) or follows a title.
        """
        parts: list[str] = []
        restored: list[str] = []
        unresolved: list[str] = []
        pos = start
        with self._lock:
            for m in PLACEHOLDER_RE.finditer(text, start):
                if m.end() > limit:
                    break
                entry = self._by_key.get(_match_key(m))
                if entry is None:
                    if m["open"]:
                        unresolved.append(m.group(0))
                    continue
                parts.append(text[pos : m.start()])
                # A title is a few characters back: looking further would make
                # an answer of many placeholders cost quadratic time.
                lo = max(0, m.start() - _TITLE_REACH)
                parts.append(entry.restore_form(bool(_TITLE_END.search(text, lo, m.start()))))
                restored.append(entry.placeholder)
                pos = m.end()
        parts.append(text[pos:limit])
        return "".join(parts), restored, unresolved

    def stream(self) -> StreamRestorer:
        """A restorer for text that arrives in chunks."""
        return StreamRestorer(self)

    # --- persistence ------------------------------------------------------

    def to_json(self) -> dict[str, object]:
        return {"entries": [e.to_json() for e in self.entries()], "reserved": self.reserved()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PrivacyBox:
        """The box :meth:`to_json` wrote (JSON read back: its values are checked here)."""
        entries = [
            BoxEntry(
                placeholder=str(e["placeholder"]),
                type=EntityType(str(e["type"])),
                number=int(e["number"]),
                value=str(e["value"]),
                created=str(e.get("created", "")),
                uses=int(e.get("uses", 0)),
                aliases=[str(a) for a in e.get("aliases", [])],
            )
            for e in data.get("entries", [])
        ]
        return cls(entries, reserved=[str(r) for r in data.get("reserved", [])])


class StreamRestorer:
    """Restores placeholders in streamed text, holding back a short tail.

    A placeholder may arrive split across chunks (``[PERS`` + ``ON_1]``); the
    restorer holds back the last few characters until the next chunk (or
    :meth:`flush`) settles whether they begin a placeholder.
    """

    HOLD = 24
    #: Characters of already emitted text kept as context: what precedes a
    #: placeholder decides whether it is one and whether a title comes first.
    CONTEXT = _TITLE_REACH

    def __init__(self, box: PrivacyBox) -> None:
        self.box = box
        self._buf = ""
        self._ctx = ""
        self.restored: list[str] = []
        self.unresolved: list[str] = []

    def feed(self, chunk: str) -> str:
        self._buf += chunk
        full = self._ctx + self._buf
        start = len(self._ctx)
        cut = max(start, len(full) - self.HOLD)
        for m in PLACEHOLDER_RE.finditer(full, start):
            if m.start() < cut < m.end() or (m.start() < cut and m.end() == len(full)):
                cut = m.start()
                break
            if m.start() >= cut:
                break
        # Never split a match: a cut that lands inside one moves to its start.
        return self._emit(full, start, cut)

    def flush(self) -> str:
        full = self._ctx + self._buf
        return self._emit(full, len(self._ctx), len(full))

    def _emit(self, full: str, start: int, cut: int) -> str:
        text, restored, unresolved = self.box._restore(full, cut, start)
        self._ctx = full[max(0, cut - self.CONTEXT) : cut]
        self._buf = full[cut:]
        self.restored.extend(restored)
        self.unresolved.extend(unresolved)
        return text
