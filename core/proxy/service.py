"""One proxied request as a turn of the :class:`~core.turn.Assistant`.

:meth:`ProxyService.run` finds the request's conversation
(:mod:`core.proxy.sessions`), prepares the turn exactly as the window does
(segment, detect, route by the settings' lambda, anonymize through the
conversation's privacy box), asks for approval when the policy says so
(:mod:`core.proxy.approvals`), and executes it through the egress guard,
yielding the restored answer piece by piece. Sentences that stay on the
machine are withheld or answered by the local model, as the settings say.

Two things are the proxy's own:

* the approval binds bytes: :class:`ProxyDoor` stands in front of the
  egress guard for one turn, is told the digest of the payload that was
  approved (or that the policy let go), and refuses to send anything else;
* the ledger names the calling app (``purpose`` is ``proxy: <app>``).

A client's earlier messages that the proxy has not seen (a conversation begun
elsewhere, a system prompt, an edited message) are adopted into the stored
conversation before the turn, each anonymized through the same prepare step,
so the cloud gets the context in its anonymized form only. GAMA's
public-space modes are not used for proxied requests: their extra requests
would not be the payload the person approved.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Unpack

from core.egress import Sending
from core.errors import Cancelled, EgressBlocked, PayloadChanged, SottovoceError
from core.proxy.approvals import ApprovalBroker, ApprovalUnavailable, PendingApproval
from core.proxy.protocol import ChatRequest, ProxyMessage
from core.proxy.sessions import ConversationIndex, KnownState, chain, step_digest
from core.store import Store
from core.turn import (
    Approval,
    Assistant,
    CloudDoor,
    Finished,
    Message,
    PreparedTurn,
    Token,
    TurnKind,
)

log = logging.getLogger(__name__)

#: How long a request waits for approval when the settings do not say.
DEFAULT_APPROVAL_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class ProxyResult:
    """How a proxied turn ended (the last item :meth:`ProxyService.run` yields)."""

    conversation_id: int
    answer: str  # exactly what the client received
    model: str
    local_only: bool


class ProxyDoor:
    """The egress guard for one proxied turn: sends one approved payload, once.

    It is what the turn's :class:`Assistant` sees as its cloud door; the
    guard behind it checks the payload against the approved digest, scans,
    records and sends.
    """

    def __init__(self, inner: CloudDoor, purpose: str) -> None:
        self.inner = inner
        self.purpose = purpose
        self.endpoint = inner.endpoint
        self.model = inner.model
        self._used = False
        self._opened: list[Any] = []
        self._lock = threading.Lock()

    def stream(self, messages: Sequence[Message], **send: Unpack[Sending]) -> Iterator[str]:
        """Send ``messages`` through the guard, once, bound to the ``approved`` digest
        (the ledger row names the calling app: this door's ``purpose``)."""
        with self._lock:
            used, self._used = self._used, True
        if used or send.get("approved") is None:
            log.warning("proxy: a payload that was not approved was refused")
            raise PayloadChanged()
        send["purpose"] = self.purpose
        stream = self.inner.stream(messages, **send)
        self._opened.append(stream)
        return stream

    def close(self) -> None:
        """Close the cloud's answer if the turn stopped reading it (the upstream call ends now,
        not when the garbage collector gets to it); its ledger row records how it ended."""
        for stream in self._opened:
            close = getattr(stream, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:  # a broken connection may fail to close again
                    log.debug("closing a proxied cloud stream failed", exc_info=True)
        self._opened.clear()

    def scan(self, body: Any, **kw: Any) -> list[Any]:
        """The guard's scan of a body (empty when the door behind has none)."""
        scan = getattr(self.inner, "scan", None)
        return list(scan(body, **kw)) if scan is not None else []


class ProxyService:
    """Turns proxied requests into turns of the person's assistant.

    ``assistant`` is the :class:`Assistant` (the command line) or a callable
    that returns the current one (the window, whose assistant is rebuilt when
    settings change). ``approvals`` is where requests wait for the person;
    None means no window: a request that needs approval fails.
    """

    def __init__(
        self,
        assistant: Assistant | Callable[[], Assistant],
        *,
        approvals: ApprovalBroker | None = None,
    ) -> None:
        self._assistant = assistant
        self.approvals = approvals
        self._index: ConversationIndex | None = None
        self._lock = threading.Lock()

    # --- parts --------------------------------------------------------------

    def assistant(self) -> Assistant:
        """The person's assistant as it is now."""
        a = self._assistant
        return a if isinstance(a, Assistant) else a()

    def index(self, store: Store | None = None) -> ConversationIndex:
        """The conversation index of the store (loaded on first use)."""
        store = store or self.assistant().store
        with self._lock:
            if self._index is None or self._index.store is not store:
                self._index = ConversationIndex(store)
            return self._index

    def models(self) -> list[str]:
        """The model names to list: the configured cloud model."""
        base = self.assistant()
        return [str(getattr(base.cloud, "model", "") or base.settings.cloud_model)]

    # --- one request ----------------------------------------------------------

    def run(
        self,
        request: ChatRequest,
        *,
        client: str,
        key: str | None = None,
        cancel: threading.Event | None = None,
    ) -> Iterator[str | ProxyResult]:
        """Run one request: yields the restored answer in pieces, then a :class:`ProxyResult`.

        Raises typed errors (:class:`~core.errors.EgressBlocked`, approval
        errors, :class:`~core.errors.CloudError`...) with nothing sent or
        stored beyond what the turn pipeline itself records.
        """
        cancel = cancel or threading.Event()
        base = self.assistant()
        door = ProxyDoor(base.cloud, f"proxy: {client}") if base.cloud is not None else None
        # The person's parts, with this turn's door in front of the guard.
        shared: dict[str, Any] = {}
        if getattr(base, "integrator", None) is not None:
            shared["integrator"] = base.integrator
        assistant = Assistant(
            base.settings,
            base.store,
            cloud=door,
            local=base.local,
            analyzer=base.analyzer,
            public_space=None,
            **shared,
        )
        index = self.index(base.store)
        digests = chain(request.history)
        try:
            yield from self._turn(assistant, door, index, request, digests, client, key, cancel)
        finally:
            if door is not None:
                door.close()

    def _turn(
        self,
        assistant: Assistant,
        door: ProxyDoor | None,
        index: ConversationIndex,
        request: ChatRequest,
        digests: list[str],
        client: str,
        key: str | None,
        cancel: threading.Event,
    ) -> Iterator[str | ProxyResult]:
        with self._conversation(index, assistant, door, request, digests, client, key) as conv:
            if cancel.is_set():
                raise Cancelled()
            prepared = assistant.prepare(request.text, conv, TurnKind.CHAT)
            prepared, approval = self._approve(assistant, prepared, client, cancel)
            pieces: list[str] = []
            merged: str | None = None
            result = None
            for ev in assistant.execute(prepared, approval, cancel):
                if isinstance(ev, Token) and ev.text:
                    if ev.source == "merged":
                        # A merge replaces an answer that has already streamed:
                        # only a client that waits for the whole answer gets it.
                        merged = ev.text
                        continue
                    text = "\n\n" + ev.text.strip() if ev.source == "note" and pieces else ev.text
                    pieces.append(text)
                    yield text
                elif isinstance(ev, Finished):
                    result = ev.result
            if result is None:  # pragma: no cover - execute finishes or raises
                raise SottovoceError("The turn ended without an answer.")
            answer = "".join(pieces)
            if not request.stream and merged:
                answer = merged
            elif not answer.strip() and result.answer.strip():
                answer = result.answer
                yield answer
            if result.answer_message_id is not None:
                before = digests[-1] if digests else ""
                state = step_digest(step_digest(before, "user", request.text), "assistant", answer)
                index.record(conv, state, result.answer_message_id, client)
            yield ProxyResult(conv, answer, door.model if door is not None else "", result.local_only)

    def _approve(
        self,
        assistant: Assistant,
        prepared: PreparedTurn,
        client: str,
        cancel: threading.Event,
    ) -> tuple[PreparedTurn, Approval | None]:
        if prepared.request is None:
            return prepared, None  # nothing leaves: no approval needed
        if not prepared.needs_approval:
            return prepared, Approval.send(prepared)
        policy = str(assistant.settings.approval_policy)
        if self.approvals is None:
            raise ApprovalUnavailable(policy)
        pending = PendingApproval(client, prepared, reviser=assistant.revise)
        timeout = float(
            getattr(assistant.settings, "proxy_approval_timeout_s", DEFAULT_APPROVAL_TIMEOUT_S)
        )
        approval = self.approvals.ask(pending, policy=policy, timeout=timeout, cancel=cancel)
        # The turn the person saw last is what may leave, byte for byte: the
        # approval carries its digest, and execute and the guard check it.
        return pending.approved or prepared, approval

    # --- conversations ----------------------------------------------------------

    @contextmanager
    def _conversation(
        self,
        index: ConversationIndex,
        assistant: Assistant,
        door: ProxyDoor | None,
        request: ChatRequest,
        digests: list[str],
        client: str,
        key: str | None,
    ) -> Iterator[int]:
        """The conversation of a request, its lock held, the client's unseen history adopted."""
        history = request.history
        title = _title(client, request)
        if key is not None:
            conv = index.by_key(key)
            if conv is None:
                conv = index.new_conversation(title, client, key)
                with index.lock(conv), _dropped_if_empty(assistant.store, conv):
                    self._adopt(index, assistant, door, conv, history, 0, digests)
                    yield conv
                return
            with index.lock(conv):
                # The key names the conversation; only history after what it
                # already holds is new (a client may also send no history at all).
                known = index.longest_known(digests, conv)
                if known is not None:
                    self._adopt(index, assistant, door, conv, history, known.length, digests)
                yield conv
            return
        while True:
            known = index.longest_known(digests)
            if known is None:
                conv = index.new_conversation(title, client)
                with index.lock(conv), _dropped_if_empty(assistant.store, conv):
                    self._adopt(index, assistant, door, conv, history, 0, digests)
                    yield conv
                return
            with index.lock(known.conversation_id):
                msgs = assistant.store.messages(known.conversation_id)
                at = next((i for i, m in enumerate(msgs) if known.holds(m)), None)
                if at is None:
                    index.forget(known)  # deleted in the window meanwhile
                    continue
                if at == len(msgs) - 1:
                    self._adopt(
                        index, assistant, door, known.conversation_id, history, known.length, digests
                    )
                    yield known.conversation_id
                    return
                # The client goes on from an earlier point (a regenerated or edited
                # answer, or a second request on the same history): a branch.
                fork = self._fork(index, assistant, known, msgs[: at + 1], client)
            with index.lock(fork):
                self._adopt(index, assistant, door, fork, history, known.length, digests)
                yield fork
            return

    def _fork(
        self,
        index: ConversationIndex,
        assistant: Assistant,
        known: KnownState,
        messages: Sequence[dict[str, Any]],
        client: str,
    ) -> int:
        """A new conversation holding ``messages`` (a prefix of another) and its box."""
        store = assistant.store
        src = known.conversation_id
        fork = index.new_conversation(str(store.conversation(src)["title"]), client, inherit=src)
        last = None
        for m in messages:
            last = store.add_message(fork, m["role"], m["content"], m["cloud_content"], m["meta"])
        box = store.load_box(src)
        if box:
            store.save_box(fork, box)
        if last is not None:
            index.record(fork, known.digest, last)
        return fork

    def _adopt(
        self,
        index: ConversationIndex,
        assistant: Assistant,
        door: ProxyDoor | None,
        conv: int,
        history: Sequence[ProxyMessage],
        start: int,
        digests: Sequence[str],
    ) -> None:
        """Store ``history[start:]`` in the conversation, each message's cloud side anonymized."""
        store = assistant.store
        last = None
        for m in history[start:]:
            if not m.content.strip():
                continue
            prepared = assistant.prepare(m.content, conv, TurnKind.CHAT)
            cloud = prepared.outbound or None
            if cloud and m.role == "system" and door is not None:
                # The guard's detector trusts system prompts (they are ours);
                # a client's is not, so it is scanned here as user text.
                hits = door.scan([{"role": "user", "content": cloud}], box=prepared.box)
                if hits:
                    raise EgressBlocked([str(h.type) for h in hits])
            store.save_box(conv, prepared.box.to_json())
            last = store.add_message(conv, m.role, m.content, cloud, {"proxy": "adopted"})
        if last is not None and len(history) > start:
            index.record(conv, digests[len(history) - 1], last)


def _title(client: str, request: ChatRequest) -> str:
    first = next((m.content for m in request.messages if m.role == "user"), request.text)
    words = " ".join(first.split())
    return f"{client}: {words[:48]}" + ("…" if len(words) > 48 else "")


@contextmanager
def _dropped_if_empty(store: Store, conversation_id: int) -> Iterator[None]:
    """Delete a conversation made for a request that failed before anything was stored."""
    try:
        yield
    except BaseException:
        try:
            if not store.messages(conversation_id):
                store.delete_conversation(conversation_id)
        except SottovoceError:
            log.debug("could not drop an empty proxied conversation", exc_info=True)
        raise

