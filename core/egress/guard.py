"""The egress guard: the one door between this machine and a remote model.

Every request for the cloud goes through :class:`EgressGuard`:

1. :meth:`EgressGuard.check` builds the exact JSON body, scans every
   string in it (system prompt, history, user content) for every value of the
   conversation's privacy box and every entity the detection views find, and
   raises :class:`~core.errors.EgressBlocked` (naming types, never values) on
   a hit. Nothing is sent; no socket is opened.
2. :meth:`EgressGuard.stream` and :meth:`EgressGuard.complete` are called
   once the person approved the messages (the turn shows them and asks):
   they check again (the box may have grown since), write a ledger row with
   the exact payload *before* anything leaves, send once, and complete the
   row with the answer, the token counts and the outcome. A failed send is
   never repeated by the guard: sending that content again needs a new call
   and a new approval. (The cloud client does resend the same request after
   a 429 or 5xx.)

Matching rule for box values (:class:`core.outbound.matcher.BoxMatcher`;
``normalize`` is NFKC, homoglyph folding, case folding, accents dropped,
every non-alphanumeric character removed; the scanner keeps where separators
were, to place word boundaries):

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

import hashlib
import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Protocol, Required, TypedDict, TypeVar, Unpack

from core.box import PLACEHOLDER_RE, PrivacyBox
from core.egress.ledger import Ledger, MemoryLedger
from core.egress.stream import GuardedStream, error_status, ok_status
from core.errors import Cancelled, CloudError, EgressBlocked, PayloadChanged
from core.llm.base import Cancel, Messages, Reply
from core.outbound import View, decoded_views, payload_digest
from core.outbound.fold import (
    BARRIER,
    CANONICAL_PLACEHOLDER,
    cased,
    fold,
    normalize,
)
from core.outbound.matcher import TITLES, BoxMatchers, Hit, word_runs
from core.spans import Span

log = logging.getLogger("core.egress")
_T = TypeVar("_T")


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


class Sending(TypedDict, total=False):
    """The options of one send (:meth:`EgressGuard.stream`, :meth:`EgressGuard.complete`).

    ``box`` is the conversation's privacy box (checked again at send time, so
    values added meanwhile count); ``consented`` lists values the person chose
    to send in clear; ``trusted`` the app's own instruction texts, which the
    detector skips; ``purpose`` labels the ledger row (``chat``, ``draft``,
    ``gama:disproof``...); ``approved`` is the digest of the messages the
    person approved (:func:`core.outbound.payload_digest`).
    """

    box: Required[PrivacyBox | None]
    conversation_id: int | None
    purpose: str
    consented: Iterable[str]
    cancel: Cancel
    max_tokens: int | None
    temperature: float | None
    trusted: Iterable[str]
    approved: str | None


class SpanFinder(Protocol):
    """Anything that finds entities in a text (a detection view or a Detector)."""

    def analyze(self, text: str) -> list[Span]: ...


def _digest(text: str) -> str:
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

    #: How many strings' detections are remembered (a conversation's history
    #: is scanned again at every turn).
    DETECTIONS_KEPT = 512

    def __init__(
        self,
        client: CloudTransport,
        *,
        ledger: Ledger | None = None,
        detector: SpanFinder | None = None,
        decode: bool = True,
        name_orders: bool = True,
    ) -> None:
        # What the approval view and the status bar show.
        self.endpoint: str = client.endpoint
        self.model: str = client.model
        self.client = client
        self.ledger: Ledger = ledger if ledger is not None else MemoryLedger()
        self.matchers = BoxMatchers(name_orders=name_orders)
        self.decode = decode
        # Digests of the answers this guard received. An assistant turn that is
        # one of them, verbatim, is the cloud's own text going back to it: it
        # can hold no value the cloud was not already told, even when the model
        # happens to write a word that is also in the box ("British").
        self._received: set[str] = set()
        self.detector = detector
        self._spans: OrderedDict[str, list[tuple[str, str, tuple[str, ...]]]] = OrderedDict()
        self._lock = threading.Lock()

    # --- scanning ---------------------------------------------------------------------

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
        matcher = self.matchers.of(box, consented)
        # Folded one by one: the barrier must survive (fold makes it a space).
        folded = BARRIER.join(fold(s) for s in bare)
        own_case = BARRIER.join(cased(s) for s in bare) if matcher.needs_cased else None
        hits = [Hit(t, "box") for t in sorted(matcher.find(folded, own_case))]
        if self.detector is not None:
            allowed = {normalize(a) for a in consented}
            pieces = word_runs(consented)
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
                for type_, norm, words in found:
                    # A piece of a value sent in clear with consent ("LH" of "LH 401")
                    # is in clear already; so are two such values side by side, read
                    # as one ("payroll administrator": "administrator" sent as a job
                    # title, "payroll" as a word settling left as written).
                    if norm in allowed or norm in pieces or _pieced(words, allowed | pieces):
                        continue
                    if type_ not in seen:
                        seen.add(type_)
                        hits.append(Hit(type_, "detector"))
        return hits

    def _detect(
        self, text: str, view: View | None = None
    ) -> list[tuple[str, str, tuple[str, ...]]]:
        key = text if view is None else f"{text}\x00{view.changed}"
        with self._lock:
            cached = self._spans.get(key)
            if cached is not None:
                self._spans.move_to_end(key)
                return cached
        assert self.detector is not None
        out: list[tuple[str, str, tuple[str, ...]]] = []
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
            words = [w for w in re.split(r"\W+", rest) if w and w.casefold() not in TITLES]
            if not words:
                continue
            # Around a placeholder, each stretch in clear is a value of its own ("[PERSON_1]
            # Operations Manager": the title the person consented to send is "Operations
            # Manager"); "Ofcom's" is Ofcom: a possessive adds nothing to the value.
            pieces = [found] if rest == found else _clear_stretches(text, covered, span.start, span.end)
            for piece in pieces:
                piece = _POSSESSIVE_END.sub("", piece).strip("'’")
                if any(w.casefold() not in TITLES for w in re.split(r"\W+", piece) if w):
                    parts = tuple(normalize(w) for w in re.findall(r"\w+", piece))
                    out.append((str(span.type), normalize(piece), parts))
        with self._lock:
            self._spans[key] = out
            while len(self._spans) > self.DETECTIONS_KEPT:
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

    # --- sending: for callers that hold the person's approval ---------------------------

    def check(
        self,
        messages: Messages,
        *,
        box: PrivacyBox | None = None,
        consented: Iterable[str] = (),
        trusted: Iterable[str] = (),
        stream: bool = False,
        max_tokens: int | None = None,
        temperature: float | None = None,
        **params: Any,
    ) -> dict[str, Any]:
        """The exact JSON body ``messages`` would leave as; raises
        :class:`~core.errors.EgressBlocked` when it holds private data.

        ``box`` is the conversation's privacy box; ``consented`` lists values
        the person chose to send in clear. Nothing is sent or recorded.
        """
        body = self.client.build_body(
            messages, stream=stream, max_tokens=max_tokens, temperature=temperature, **params
        )
        self._check(body, box, frozenset(consented), tuple(trusted))
        return body

    def stream(self, messages: Messages, **send: Unpack[Sending]) -> GuardedStream:
        """Check, record and send approved ``messages`` once, streaming the answer.

        The caller (the turn) has already obtained the person's approval of
        exactly these messages, or the person's settings waive it: each call
        is one send. After a failure, call again only with a new approval.
        See :class:`Sending` for the options; with ``approved``, messages that
        differ from the approved ones raise :class:`~core.errors.PayloadChanged`
        and nothing is sent or recorded.
        """
        body, ledger_id = self._begin(messages, send, stream=True)
        cancel = send.get("cancel")
        raw = self._sending(ledger_id, lambda: self.client.post_stream(body, cancel=cancel))
        return GuardedStream(self._finish, ledger_id, raw)

    def complete(self, messages: Messages, **send: Unpack[Sending]) -> Reply:
        """As :meth:`stream`, without streaming: check, record, send once, return the answer."""
        body, ledger_id = self._begin(messages, send, stream=False)
        cancel = send.get("cancel")
        reply = self._sending(ledger_id, lambda: self.client.post(body, cancel=cancel))
        self._finish(ledger_id, ok_status(reply.attempts), reply)
        return reply

    def _begin(
        self, messages: Messages, send: Sending, *, stream: bool
    ) -> tuple[dict[str, Any], int]:
        """The checked body and its ledger row, written before anything leaves."""
        digest = _bound(messages, send.get("approved"))
        body = self.check(
            messages,
            box=send["box"],
            consented=send.get("consented", ()),
            trusted=send.get("trusted", ()),
            stream=stream,
            max_tokens=send.get("max_tokens"),
            temperature=send.get("temperature"),
        )
        return body, self._record(
            body, send.get("purpose", "chat"), send.get("conversation_id"), digest
        )

    def _record(
        self, body: dict[str, Any], purpose: str, conversation_id: int | None, digest: str
    ) -> int:
        # The row is written before anything leaves; no row, no request.
        return self.ledger.add_ledger(
            endpoint=self.client.endpoint,
            model=self.client.model,
            payload=body,
            purpose=purpose,
            conversation_id=conversation_id,
            digest=digest,
        )

    def _sending(self, ledger_id: int, send: Callable[[], _T]) -> _T:
        """Send once; a cancel or a cloud error completes the row and goes on up."""
        try:
            return send()
        except Cancelled:
            self._finish(ledger_id, "cancelled")
            raise
        except CloudError as exc:
            self._finish(ledger_id, error_status(exc))
            exc.ledger_id = ledger_id  # type: ignore[attr-defined]
            raise

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
                response=response,
                prompt_tokens=reply.prompt_tokens if reply is not None else None,
                completion_tokens=reply.completion_tokens if reply is not None else None,
            )
        except Exception:
            log.exception("could not complete ledger row %s", ledger_id)


def _pieced(words: tuple[str, ...], consented: set[str]) -> bool:
    """Whether ``words`` (normalized) are a run of consented values and pieces, each
    made of whole words."""
    if not words:
        return False
    ok = [True] + [False] * len(words)
    for j in range(1, len(words) + 1):
        ok[j] = any(ok[i] and "".join(words[i:j]) in consented for i in range(max(0, j - 8), j))
    return ok[-1]


def _clear_stretches(text: str, covered: list[bool], start: int, end: int) -> list[str]:
    """The stretches of ``text[start:end]`` outside its placeholders (``covered``),
    trimmed of the spaces and punctuation at their ends."""
    out, i = [], start
    while i < end:
        if covered[i]:
            i += 1
            continue
        j = i
        while j < end and not covered[j]:
            j += 1
        piece = text[i:j].strip(" \t\n,;:.()[]\"")
        if piece:
            out.append(piece)
        i = j
    return out


def _bound(messages: Messages, approved: str | None) -> str:
    """The digest of ``messages``; raises PayloadChanged when it is not the one approved."""
    digest = payload_digest(messages)
    if approved is not None and digest != approved:
        log.info("egress refused: the payload is not the one approved")
        raise PayloadChanged()
    return digest


_POSSESSIVE_END = re.compile(r"['’][sS]?$")
