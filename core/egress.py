"""The egress guard: the one door between this machine and a remote model.

Every request for the cloud goes through :class:`EgressGuard`:

1. :meth:`EgressGuard.prepare` builds the exact JSON body, re-scans every
   string in it (system prompt, history, user content) for every value of the
   conversation's privacy box and every entity the detection views find, and
   raises :class:`~core.errors.EgressBlocked` (naming types, never values) on
   a hit. Nothing is sent; no socket is opened.
2. The person sees :attr:`OutboundRequest.payload` and approves it
   (:meth:`OutboundRequest.approve`); a request is approved once and sent
   once. A failed send is never repeated by the guard: sending that content
   again needs a new :meth:`~EgressGuard.prepare` and a new approval. (The
   cloud client does resend the same approved request after a 429 or 5xx.)
3. :meth:`EgressGuard.send_request` / :meth:`EgressGuard.stream_request` scan
   again (the box may have grown since), write a ledger row with the exact
   payload *before* anything leaves, send, and complete the row with the
   answer, the token counts and the outcome.

Callers that obtain the approval themselves (the turn pipeline shows the
messages and asks) use :meth:`EgressGuard.stream` or
:meth:`EgressGuard.complete`: prepare, approve and send in one call, one send
per call.

Matching rule for box values (``normalize`` is NFKC, homoglyph folding,
case folding, accents dropped, every non-alphanumeric character removed; the
scanner keeps where separators were, to place word boundaries):

- values of 1 character are not scanned (a lone letter or digit would block
  every message and identifies no one);
- values of 2-3 characters match as whole words, in their own case or in
  capitals, with only invisible characters allowed inside ("Al", "AL", "A\\u200bl"
  but not "al", "a l" or "Alps"): "May" the month must not block "may";
- values of 4-7 characters match as whole words in any case, with any
  separators, line breaks, zero-width or look-alike characters inside, and a
  possessive ``'s``/``s`` after ("J o h n", "JOHN's", "Jоhn" in Cyrillic);
- values of 8 characters or more match anywhere, even inside longer words or
  numbers ("+1 (555) 123-4567" holds "555.123.4567").

Word boundaries are class changes: a value that ends in a letter may be
followed by a digit ("JohnSmith1987" holds "John Smith"), one that ends in a
digit may be followed by a letter. Values the person explicitly allowed to
leave (``consented``) are not scanned.

The payload is also scanned once its encodings are undone (percent-encoding,
HTML references, JSON/Python escapes, quoted-printable, base64: see
:mod:`core.outbound.decode`), and a person's name is also looked for in its
other forms ("Wielgosz, Tadeusz", "T. Wielgosz", a middle name dropped: see
:mod:`core.outbound.names`), as whole words.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import re
import threading
import unicodedata
import uuid
from collections import OrderedDict
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from core.box import PLACEHOLDER_RE, PrivacyBox
from core.entities import EntityType
from core.errors import Cancelled, CloudError, EgressBlocked, SottovoceError
from core.llm.base import Cancel, Messages, Reply
from core.outbound import InitialsFinder, View, decoded_views, name_variants
from core.spans import Span

log = logging.getLogger(__name__)

# --- normalization ----------------------------------------------------------------

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
# In the cased form (used for short values only) decimal marks stay visible,
# so that "1.42" or "1,420" does not hold the age "42".
_CASED[ord(".")] = "."
_CASED[ord(",")] = ","
_MARKS = str.maketrans("", "", SEP + ZW + BARRIER)


def fold(text: str) -> str:
    """NFKC, homoglyphs, case folding, no accents; separators kept as markers."""
    return text.translate(_FOLD)


def _cased(text: str) -> str:
    # The form short values and initials are matched in: case and marks kept.
    return text.translate(_CASED)


def normalize(text: str) -> str:
    """The comparison form of a value: :func:`fold` with every separator removed."""
    return fold(text).translate(_MARKS)


# Box values are normalized again at every request; they rarely change.
_normalize_cached = functools.lru_cache(maxsize=8192)(normalize)


#: A placeholder exactly as the box writes it (``[PERSON_1]``).
CANONICAL_PLACEHOLDER = re.compile(
    r"\[(?:"
    + "|".join(sorted((t.value for t in EntityType), key=len, reverse=True))
    + r")_\d{1,4}\]"
)

# --- the box matcher ---------------------------------------------------------------

_LETTER = r"[^\W\d_]"
_LETTER_END = rf"(?:(?!{_LETTER})|(?=s(?!{_LETTER})))"  # possessive "Johns" counts
_DIGIT_END = r"(?!\d)(?![.,]\d)"


class _Trie:
    def __init__(self) -> None:
        self.root: dict[str, Any] = {}

    def add(self, word: str, end: str) -> None:
        node = self.root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = end  # "" is never a character of a word

    def pattern(self, joiner: str, left: bool) -> str:
        def rest(node: dict[str, Any]) -> str:
            kids = sorted(k for k in node if k)
            parts = []
            if kids:
                parts.append(
                    joiner + "(?:" + "|".join(re.escape(k) + rest(node[k]) for k in kids) + ")"
                )
            if "" in node:
                parts.append(node[""])
            return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"

        branches = []
        for k in sorted(self.root):
            head = re.escape(k)
            if left:
                # The literal first keeps sre's fast branch check; the lookbehind
                # then looks at the character before it.
                cls = r"\d" if k.isdigit() else _LETTER
                head += f"(?<!{cls}{re.escape(k)})"
                if k.isdigit():
                    head += rf"(?<!\d[.,]{re.escape(k)})"
            branches.append(head + rest(self.root[k]))
        return "(?:" + "|".join(branches) + ")" if branches else ""


class BoxMatcher:
    """Finds box values in a folded payload; built once per box version."""

    def __init__(
        self,
        values: Iterable[tuple[str, str]],
        variants: Iterable[tuple[str, str]] = (),
        initials: InitialsFinder | None = None,
    ) -> None:
        self.types: dict[str, set[str]] = {}  # normalized value -> entity types
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
            if len(norm) <= SHORT_MAX:
                cased = value.translate(_CASED).translate(_MARKS)
                if len(cased) != len(norm):  # a character that folds to several
                    cased = norm
                for form in {cased, cased.upper(), cased[:1].upper() + cased[1:]}:
                    end = _DIGIT_END if form[-1].isdigit() else f"(?!{_LETTER})"
                    short.add(form, end)
                    self.short.setdefault(form, set()).add(type_)
                continue
            self.types.setdefault(norm, set()).add(type_)
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
                bounded.add(norm, r"(?!\d)" if norm[-1].isdigit() else _LETTER_END)
        joiner = f"[{SEP}{ZW}]*"
        parts = [p for p in (bounded.pattern(joiner, True), unbounded.pattern(joiner, False)) if p]
        self.regex = re.compile("|".join(parts)) if parts else None
        short_pattern = short.pattern(f"{ZW}*", True)
        self.short_regex = re.compile(short_pattern) if short_pattern else None

    def find(self, folded: str, cased: str | None) -> set[str]:
        """Entity types of the values found; ``cased`` is needed only for short values."""
        found: set[str] = set()
        if self.regex is not None:
            # A hit is rare: a first match decides, then the rest are listed.
            for m in self.regex.finditer(folded):
                found |= self.types.get(m.group(0).translate(_MARKS), set())
        if self.short_regex is not None and cased is not None:
            for m in self.short_regex.finditer(cased):
                found |= self.short.get(m.group(0).translate(_MARKS), set())
        if self.initials is not None and cased is not None:
            found |= self.initials.find(cased)
        return found

    @property
    def needs_cased(self) -> bool:
        """True when :meth:`find` needs the cased form of the payload."""
        return self.short_regex is not None or self.initials is not None


# --- hits and requests ------------------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    """Private data found in a payload: its type and where it came from (never the value)."""

    type: str
    source: str  # "box" or "detector"


class RequestState(StrEnum):
    CHECKED = "checked"  # scanned, waiting for approval
    APPROVED = "approved"
    SENDING = "sending"
    SENT = "sent"  # an answer came back
    FAILED = "failed"  # the send failed; the content needs a new approval to go again
    CANCELLED = "cancelled"
    BLOCKED = "blocked"  # the scan at send time found private data


class ApprovalRequired(SottovoceError):
    """A request was sent before the person approved it; nothing left the machine."""


class AlreadySent(SottovoceError):
    """A request was sent already (or failed); sending it again needs a new approval."""


@dataclass
class OutboundRequest:
    """A checked request: exactly what would leave the machine, frozen.

    Show :attr:`payload` to the person; call :meth:`approve` when they agree.
    A request is sent at most once.
    """

    endpoint: str
    model: str
    payload_json: str
    conversation_id: int | None
    purpose: str
    stream: bool
    box: PrivacyBox | None = field(repr=False, default=None)
    consented: frozenset[str] = field(repr=False, default=frozenset())
    trusted: tuple[str, ...] = field(repr=False, default=())
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    state: RequestState = RequestState.CHECKED
    ledger_id: int | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def payload(self) -> dict[str, Any]:
        """A copy of the exact JSON body that will be sent."""
        return dict(json.loads(self.payload_json))

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.payload["messages"])

    def approve(self) -> None:
        """The person agrees to send exactly this payload, once."""
        with self._lock:
            if self.state is not RequestState.CHECKED:
                raise AlreadySent(
                    f"This request is {self.state.value}; it cannot be approved again.",
                    hint="prepare the message again and approve the new request",
                )
            self.state = RequestState.APPROVED

    def _take(self) -> None:
        with self._lock:
            if self.state is RequestState.CHECKED:
                raise ApprovalRequired("This request was not approved; nothing was sent.")
            if self.state is not RequestState.APPROVED:
                raise AlreadySent(
                    f"This request was already used ({self.state.value}); nothing was sent again.",
                    hint="prepare the message again and approve it before it is resent",
                )
            self.state = RequestState.SENDING


# --- the ledger ---------------------------------------------------------------------------


class Ledger(Protocol):
    """Where the guard records requests (:class:`core.store.Store` is one)."""

    def add_ledger(
        self,
        *,
        endpoint: str,
        model: str,
        payload: Any,
        purpose: str,
        conversation_id: int | None = None,
        status: str = "sending",
    ) -> int: ...

    def finish_ledger(
        self,
        ledger_id: int,
        *,
        status: str,
        response: str | None = None,
        prompt_tokens: int | None = None,
        completion_tokens: int | None = None,
    ) -> None: ...


class MemoryLedger:
    """A ledger in memory, for tools and tests that have no store."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def add_ledger(
        self,
        *,
        endpoint: str,
        model: str,
        payload: Any,
        purpose: str,
        conversation_id: int | None = None,
        status: str = "sending",
    ) -> int:
        with self._lock:
            self.rows.append(
                {
                    "id": len(self.rows) + 1,
                    "endpoint": endpoint,
                    "model": model,
                    "payload": json.loads(json.dumps(payload)),
                    "purpose": purpose,
                    "conversation_id": conversation_id,
                    "status": status,
                    "response": None,
                    "prompt_tokens": None,
                    "completion_tokens": None,
                }
            )
            return len(self.rows)

    def finish_ledger(
        self,
        ledger_id: int,
        *,
        status: str,
        response: str | None = None,
        prompt_tokens: int | None = None,
        completion_tokens: int | None = None,
    ) -> None:
        with self._lock:
            self.rows[ledger_id - 1].update(
                status=status,
                response=response,
                prompt_tokens=prompt_tokens,
                completion_tokens=completion_tokens,
            )


# --- the guard ----------------------------------------------------------------------------


class CloudTransport(Protocol):
    """What the guard needs of a cloud client (:class:`core.llm.cloud.CloudClient`)."""

    model: str

    @property
    def endpoint(self) -> str: ...

    def build_body(
        self, messages: Messages, *, stream: bool = False, **params: Any
    ) -> dict[str, Any]: ...

    def post(self, body: Mapping[str, Any], *, cancel: Cancel = None) -> Reply: ...

    def post_stream(self, body: Mapping[str, Any], *, cancel: Cancel = None) -> Any: ...


class Analyzer(Protocol):
    """Anything that finds entities in a text (a detection view or a Detector)."""

    def analyze(self, text: str) -> list[Span]: ...


# Titles left around a placeholder ("Dr. [PERSON_1]") are not private.
_TITLES = {"mr", "mrs", "ms", "mx", "dr", "prof", "sir", "madam", "st", "mt"}


def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _strings(
    node: Any, key: str | None = None, role: str | None = None
) -> Iterator[tuple[str | None, str]]:
    """(role, string) for every string of a JSON body that reaches the model.

    ``model`` and ``role`` values are not content; ``role`` is the role of
    the message a string belongs to (None outside messages).
    """
    if isinstance(node, str):
        if key not in ("model", "role"):
            yield role, node
    elif isinstance(node, Mapping):
        inner = node.get("role") if isinstance(node.get("role"), str) else role
        for k, v in node.items():
            yield from _strings(v, str(k), inner)
    elif isinstance(node, list | tuple):
        for v in node:
            yield from _strings(v, key, role)


class EgressGuard:
    """The only way content reaches a remote model.

    ``client`` sends (a :class:`~core.llm.cloud.CloudClient`); ``ledger``
    records (the encrypted :class:`~core.store.Store`; a :class:`MemoryLedger`
    when None); ``detector`` re-finds entities in the outgoing text (a
    :class:`~core.detect.base.Detector` or any view; None scans box values
    only). ``decode`` also scans the decoded views of the payload, and
    ``name_orders`` the other forms of the box's person names (both on by
    default; off only to measure what they add).
    """

    def __init__(
        self,
        client: CloudTransport,
        *,
        ledger: Ledger | None = None,
        detector: Analyzer | None = None,
        cache_size: int = 512,
        decode: bool = True,
        name_orders: bool = True,
    ) -> None:
        self.client = client
        self.decode = decode
        self.name_orders = name_orders
        # What the approval view and the status bar show.
        self.endpoint: str = client.endpoint
        self.model: str = client.model
        self.ledger: Ledger = ledger if ledger is not None else MemoryLedger()
        # Digests of the answers this guard received. An assistant turn that is
        # one of them, verbatim, is the cloud's own text going back to it: it
        # can hold no value the cloud was not already told, even when the model
        # happens to write a word that is also in the box ("British").
        self._received: set[str] = set()
        self.detector = detector
        self._matchers: OrderedDict[tuple[Any, ...], BoxMatcher] = OrderedDict()
        self._spans: OrderedDict[str, list[tuple[str, str]]] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    # --- scanning ---------------------------------------------------------------------

    def matcher(self, box: PrivacyBox | None, consented: Iterable[str] = ()) -> BoxMatcher:
        """The matcher of the box's current entries (cached by their content)."""
        allowed = {normalize(a) for a in consented}
        entries = box.entries() if box is not None else []
        if allowed:
            entries = [e for e in entries if _normalize_cached(e.value) not in allowed]
        # Every form of a value: its aliases ("Tadeusz", "Mr. Wielgosz") are the same person's.
        values = tuple(
            (form, str(e.type))
            for e in entries
            for form in e.forms
            if not allowed or _normalize_cached(form) not in allowed
        )
        with self._lock:
            found = self._matchers.get(values)
            if found is not None:
                self._matchers.move_to_end(values)
                return found
        variants: tuple[tuple[str, str], ...] = ()
        initials = None
        persons = [(e.value, str(e.type)) for e in entries if e.type is EntityType.PERSON]
        if self.name_orders and persons:
            variants = tuple((form, t) for v, t in persons for form in name_variants(v))
            initials = InitialsFinder(persons, sep=SEP, zw=ZW, fold=_cased)
        built = BoxMatcher(values, variants, initials)
        with self._lock:
            self._matchers[values] = built
            while len(self._matchers) > 8:
                self._matchers.popitem(last=False)
        return built

    def scan(
        self,
        body: Mapping[str, Any] | Messages,
        *,
        box: PrivacyBox | None = None,
        consented: Iterable[str] = (),
        trusted: Iterable[str] = (),
    ) -> list[Hit]:
        """Private data in a request body (or a list of messages); empty when clean.

        ``trusted`` lists instruction texts the app itself wrote (prompt
        templates); the detector does not look inside them, box values are
        still looked for everywhere.
        """
        trusted = [t for t in trusted if t]
        consented = list(consented)
        pairs = [
            (role, s)
            for role, s in _strings(body)
            if not (role == "assistant" and self.was_received(s))
        ]
        strings = [s for _, s in pairs]
        # Placeholders are the box's own output: "[MRN_1]" must not match a box
        # value "MRN" (or "Date"). Only the exact bracketed form is dropped: a
        # loose one such as "MRN 004 82913" may be a value in disguise.
        bare = [CANONICAL_PLACEHOLDER.sub(" ", s) for s in strings]
        if self.decode:
            # Each decoded view is one more string of the payload (an encoded
            # placeholder, "%5BPERSON_1%5D", is dropped once decoded).
            bare += [
                CANONICAL_PLACEHOLDER.sub(" ", x)
                for b in bare
                for v in decoded_views(b)
                for x in v.excerpts()
            ]
        matcher = self.matcher(box, consented)
        # Folded one by one: the barrier must survive (fold makes it a space).
        folded = BARRIER.join(fold(s) for s in bare)
        cased = (
            BARRIER.join(s.translate(_CASED) for s in bare)
            if matcher.needs_cased
            else None
        )
        hits = [Hit(t, "box") for t in sorted(matcher.find(folded, cased))]
        if self.detector is not None:
            allowed = {normalize(a) for a in consented}
            pieces = _word_runs(consented)
            seen: set[str] = set()
            # The cloud's own earlier answers cannot leak anything to it, and
            # system prompts are the app's own text: the detector skips both (a
            # name the model invented, or "Finance" in a list of domains, is
            # not private). Box values are still looked for there, in case
            # restored text slipped in.
            for role, s in pairs:
                if role in ("assistant", "system"):
                    continue
                for t in trusted:
                    s = s.replace(t, " ")
                found = self._detect(s)
                if self.decode:
                    # In a decoded view, only what decoding revealed counts:
                    # the rest was in the text as written, judged above.
                    for view in decoded_views(s):
                        if view.changed:
                            found = found + self._detect(view.text, view)
                for type_, norm in found:
                    # A piece of a value sent in clear with consent ("LH" of "LH 401")
                    # is in clear already.
                    if norm in allowed or norm in pieces:
                        continue
                    if type_ not in seen:
                        seen.add(type_)
                        hits.append(Hit(type_, "detector"))
        return hits

    def _detect(self, text: str, view: View | None = None) -> list[tuple[str, str]]:
        key = text if view is None else f"{text}\x00{view.changed}"
        with self._lock:
            cached = self._spans.get(key)
            if cached is not None:
                self._spans.move_to_end(key)
                return cached
        assert self.detector is not None
        out: list[tuple[str, str]] = []
        # Placeholders are located in the whole text, not inside each span: a
        # span may cut one ("see [PERSON" of "see [PERSON_3]").
        covered = [False] * len(text)
        for m in PLACEHOLDER_RE.finditer(text):
            covered[m.start() : m.end()] = [True] * (m.end() - m.start())
        for span in self.detector.analyze(text):
            if view is not None and not view.overlaps_change(span.start, span.end):
                continue
            found = text[span.start : span.end]
            # What is left once placeholders and titles are removed is what
            # would leak; "[PERSON_1]" or "Dr. [PERSON_1]" leak nothing.
            rest = "".join(
                " " if covered[i] else text[i] for i in range(span.start, span.end)
            )
            words = [w for w in re.split(r"\W+", rest) if w and w.casefold() not in _TITLES]
            if words:
                # "Ofcom's" is Ofcom: a possessive adds nothing to the value.
                out.append((str(span.type), normalize(_POSSESSIVE_END.sub("", found))))
        with self._lock:
            self._spans[key] = out
            while len(self._spans) > self._cache_size:
                self._spans.popitem(last=False)
        return out

    def _check(
        self,
        body: Mapping[str, Any],
        box: PrivacyBox | None,
        consented: Iterable[str],
        trusted: Iterable[str] = (),
    ) -> None:
        hits = self.scan(body, box=box, consented=consented, trusted=trusted)
        if hits:
            log.info(
                "egress blocked: %s", ", ".join(sorted({f"{h.type}/{h.source}" for h in hits}))
            )
            err = EgressBlocked([h.type for h in hits])
            err.hits = hits  # type: ignore[attr-defined]
            raise err

    # --- requests -------------------------------------------------------------------------

    def prepare(
        self,
        messages: Messages,
        *,
        box: PrivacyBox | None = None,
        conversation_id: int | None = None,
        purpose: str = "chat",
        consented: Iterable[str] = (),
        trusted: Iterable[str] = (),
        stream: bool = False,
        max_tokens: int | None = None,
        temperature: float | None = None,
        **params: Any,
    ) -> OutboundRequest:
        """Build and check a request; raises :class:`~core.errors.EgressBlocked` on private data.

        ``box`` is the conversation's privacy box (scanned again at send
        time, so values added meanwhile count); ``consented`` lists values
        the person chose to send in clear; ``purpose`` labels the ledger row
        (``chat``, ``draft``, ``gama:disproof``...).
        """
        body = self.client.build_body(
            messages, stream=stream, max_tokens=max_tokens, temperature=temperature, **params
        )
        allowed = frozenset(consented)
        trusted = tuple(trusted)
        self._check(body, box, allowed, trusted)
        return OutboundRequest(
            endpoint=self.client.endpoint,
            model=self.client.model,
            payload_json=json.dumps(body, ensure_ascii=False),
            conversation_id=conversation_id,
            purpose=purpose,
            stream=stream,
            box=box,
            consented=allowed,
            trusted=trusted,
        )

    def _begin(self, request: OutboundRequest) -> tuple[dict[str, Any], int]:
        request._take()
        body = request.payload
        try:
            self._check(body, request.box, request.consented, request.trusted)
        except EgressBlocked:
            request.state = RequestState.BLOCKED
            raise
        try:
            ledger_id = self.ledger.add_ledger(
                endpoint=request.endpoint,
                model=request.model,
                payload=body,
                purpose=request.purpose,
                conversation_id=request.conversation_id,
            )
        except Exception:
            # No ledger row, no request: the ledger must never miss one.
            request.state = RequestState.FAILED
            raise
        request.ledger_id = ledger_id
        return body, ledger_id

    def was_received(self, text: str) -> bool:
        """True when ``text`` is, verbatim, an answer this guard (or its ledger) received."""
        if _digest(text) in self._received:
            return True
        known = getattr(self.ledger, "has_response", None)
        return bool(known is not None and known(text))

    def _finish(
        self, ledger_id: int, status: str, reply: Reply | None = None, text: str | None = None
    ) -> None:
        response = reply.text if reply is not None else text
        if response and status.startswith("ok"):
            self._received.add(_digest(response))
        try:
            self.ledger.finish_ledger(
                ledger_id,
                status=status,
                response=reply.text if reply is not None else text,
                prompt_tokens=reply.prompt_tokens if reply is not None else None,
                completion_tokens=reply.completion_tokens if reply is not None else None,
            )
        except Exception:
            log.exception("could not complete ledger row %s", ledger_id)

    def send_request(self, request: OutboundRequest, *, cancel: Cancel = None) -> Reply:
        """Send an approved, non-streaming request once; returns the cloud's answer."""
        if request.stream:
            raise ValueError("this request streams; use EgressGuard.stream_request()")
        body, ledger_id = self._begin(request)
        try:
            reply = self.client.post(body, cancel=cancel)
        except Cancelled:
            request.state = RequestState.CANCELLED
            self._finish(ledger_id, "cancelled")
            raise
        except CloudError as exc:
            request.state = RequestState.FAILED
            self._finish(ledger_id, _error_status(exc))
            exc.ledger_id = ledger_id  # type: ignore[attr-defined]
            raise
        request.state = RequestState.SENT
        self._finish(ledger_id, _ok_status(reply.attempts), reply)
        return reply

    def stream_request(self, request: OutboundRequest, *, cancel: Cancel = None) -> GuardedStream:
        """Send an approved streaming request once; iterate the result for text pieces."""
        if not request.stream:
            raise ValueError("this request does not stream; use EgressGuard.send_request()")
        body, ledger_id = self._begin(request)
        try:
            raw = self.client.post_stream(body, cancel=cancel)
        except Cancelled:
            request.state = RequestState.CANCELLED
            self._finish(ledger_id, "cancelled")
            raise
        except CloudError as exc:
            request.state = RequestState.FAILED
            self._finish(ledger_id, _error_status(exc))
            exc.ledger_id = ledger_id  # type: ignore[attr-defined]
            raise
        return GuardedStream(self, request, ledger_id, raw)

    # --- one call: for callers that hold the person's approval already -----------------

    def stream(
        self,
        messages: Messages,
        *,
        box: PrivacyBox | None,
        conversation_id: int | None = None,
        purpose: str = "chat",
        consented: Iterable[str] = (),
        cancel: Cancel = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        trusted: Iterable[str] = (),
    ) -> GuardedStream:
        """Check, record and send approved ``messages`` once, streaming the answer.

        The caller (the turn pipeline) has already obtained the person's
        approval of exactly these messages, or the person's settings waive
        it: each call is one send. After a failure, call again only with a
        new approval.
        """
        request = self.prepare(
            messages,
            box=box,
            conversation_id=conversation_id,
            purpose=purpose,
            consented=consented,
            trusted=trusted,
            stream=True,
            max_tokens=max_tokens,
            temperature=temperature,
        )
        request.approve()
        return self.stream_request(request, cancel=cancel)

    def complete(
        self,
        messages: Messages,
        *,
        box: PrivacyBox | None,
        conversation_id: int | None = None,
        purpose: str = "chat",
        consented: Iterable[str] = (),
        cancel: Cancel = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        trusted: Iterable[str] = (),
    ) -> Reply:
        """As :meth:`stream`, without streaming: check, record, send once, return the answer."""
        request = self.prepare(
            messages,
            box=box,
            conversation_id=conversation_id,
            purpose=purpose,
            consented=consented,
            trusted=trusted,
            max_tokens=max_tokens,
            temperature=temperature,
        )
        request.approve()
        return self.send_request(request, cancel=cancel)


def _ok_status(attempts: int) -> str:
    return "ok" if attempts <= 1 else f"ok after {attempts} attempts"


def _error_status(exc: BaseException) -> str:
    code = getattr(exc, "status_code", None)
    return f"error: {type(exc).__name__}" + (f" (HTTP {code})" if code else "")


class GuardedStream(Iterator[str]):
    """A streamed answer that completes its ledger row however it ends.

    Iterate it for text pieces; :attr:`text` keeps what arrived (also after
    an error); :attr:`reply` is the finished answer. Call :meth:`close` when
    abandoning it before the end.
    """

    def __init__(
        self, guard: EgressGuard, request: OutboundRequest, ledger_id: int, raw: Any
    ) -> None:
        self._guard = guard
        self._request = request
        self._raw = raw
        self.ledger_id = ledger_id
        self._finished = False
        self._pieces = self._run()

    @property
    def text(self) -> str:
        return str(self._raw.text)

    @property
    def reply(self) -> Reply:
        return self._raw.reply  # type: ignore[no-any-return]

    def _end(self, state: RequestState, status: str, reply: Reply | None = None) -> None:
        if self._finished:
            return
        self._finished = True
        self._request.state = state
        self._guard._finish(self.ledger_id, status, reply, self.text)

    def _run(self) -> Generator[str, None, None]:
        try:
            yield from self._raw
        except Cancelled:
            self._end(RequestState.CANCELLED, "cancelled")
            raise
        except CloudError as exc:
            self._end(RequestState.FAILED, _error_status(exc))
            exc.ledger_id = self.ledger_id  # type: ignore[attr-defined]
            raise
        except GeneratorExit:
            self._end(RequestState.CANCELLED, "closed")
            raise
        self._end(RequestState.SENT, _ok_status(self._raw.attempts), self._raw.reply)

    def __iter__(self) -> GuardedStream:
        return self

    def __next__(self) -> str:
        return next(self._pieces)

    def close(self) -> None:
        """Stop receiving; the ledger row keeps what arrived."""
        self._pieces.close()
        self._raw.close()
        self._end(RequestState.CANCELLED, "closed")

    def __del__(self) -> None:
        # An abandoned stream still completes its ledger row.
        if not self._finished:
            with contextlib.suppress(Exception):
                self.close()


def blocked_types(hits: Sequence[Hit]) -> list[str]:
    """The entity types of some hits, sorted and unique (for messages)."""
    return sorted({h.type for h in hits})


_POSSESSIVE_END = re.compile(r"['’][sS]?$")


def _word_runs(values: Iterable[str]) -> set[str]:
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
                if len(piece) >= 2:
                    out.add(piece)
    return out
