"""One turn end to end: Privacy-R1 delegation joined with GAMA's public space.

``text -> segment -> detect -> route (+ the person's overrides) -> anonymize the
cloud-bound sentences -> approval -> egress guard -> cloud model -> restore ->
the local model integrates (or passes the answer through) -> store``.

The work is split in two so a window can show the approval on its own thread:

* :meth:`Assistant.prepare` analyzes the text, applies the person's
  :class:`~core.turn.Choices` once, and builds the exact payload that would
  leave, with an :class:`~core.turn.ApprovalRequest` and the payload's digest;
  nothing is sent and nothing is stored. :meth:`Assistant.revise` makes a new
  prepared turn from the approval view's toggles.
* :meth:`Assistant.execute` takes the person's :class:`~core.turn.Approval`,
  which binds the digest of the payload they saw, and runs the rest as a
  generator of :class:`~core.turn.TurnEvent` objects; each yielded token is a
  point where a cancel takes effect. The egress guard checks the digest again
  on the bytes it sends.

:meth:`Assistant.run` joins them with an approval callback for the command line.

The cloud side of a conversation is kept in its anonymized form
(``messages.cloud_content``) and only that is ever re-sent; restored text
never goes back out. A failed or cancelled turn stores nothing and leaves the
conversation's privacy box as it was.
"""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import KW_ONLY, dataclass, field
from enum import StrEnum
from typing import Any, Protocol, Unpack

from core import prompts
from core.analyze import Analysis, Analyzer
from core.box import PrivacyBox
from core.egress import Sending
from core.errors import ApprovalDeclined, Cancelled, PayloadChanged, SottovoceError
from core.integrate import Integrator, Mode, Notice, Outcome, kept_sentences
from core.outbound import payload_digest
from core.outbound.compose import outbound_of
from core.settings import Integration, Settings
from core.store import Store
from core.turn.approval import Approval, ApprovalEntity, ApprovalRequest, Approvals, Decision
from core.turn.choices import Choices
from core.turn.events import Finished, Stage, Token, TurnEvent, TurnResult

log = logging.getLogger(__name__)

Message = dict[str, str]


ApproveCallback = Callable[["PreparedTurn"], tuple["PreparedTurn", Approval]]


class TurnKind(StrEnum):
    CHAT = "chat"
    DRAFT = "draft"


# --- the parts a turn needs ---------------------------------------------------


class CloudDoor(Protocol):
    """The egress guard as the pipeline sees it: the only way to the cloud."""

    endpoint: str
    model: str

    def stream(self, messages: Sequence[Message], **send: Unpack[Sending]) -> Iterator[str]:
        """Check the payload against the ``approved`` digest, scan it, record it in
        the ledger, send it once and stream the answer's text (see :class:`Sending`)."""
        ...


class LocalChat(Protocol):
    """The local model as the pipeline sees it."""

    def stream_chat(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int = 512,
        cancel: threading.Event | None = None,
    ) -> Iterator[str]: ...


# --- the prepared turn ----------------------------------------------------------


@dataclass
class PreparedTurn:
    conversation_id: int
    kind: TurnKind
    text: str
    analysis: Analysis
    box: PrivacyBox  # a working copy: committed to the store only on success
    messages: list[Message]  # the exact payload, when anything leaves
    request: ApprovalRequest | None  # None: nothing leaves (all sentences local)
    needs_approval: bool
    outbound: str
    replace_from: int | None = None  # edit and resend / regenerate: replace from this message
    #: Earlier user turns as the cloud already received them: checked and sent
    #: with consent then, so the detector does not judge them again (box
    #: values are still looked for in them).
    history: tuple[str, ...] = ()
    #: The person's choices this payload was made with.
    choices: Choices = field(default_factory=Choices)
    #: The digest of ``messages`` (:func:`core.outbound.payload_digest`), "" when nothing leaves.
    digest: str = ""

    @property
    def local_only(self) -> bool:
        return self.request is None


@dataclass
class Assistant:
    """Runs turns for one person: the same object serves the window and the command line.

    Parts are injected (:mod:`core.assembly` builds them from the settings):
    ``analyzer`` segments, detects and routes, ``cloud`` is the egress guard
    (the only door out), ``local`` the local model, ``public_space`` GAMA's
    modules (optional), ``integrator`` what the local model may do with the
    cloud's answer (by default its guard embeds with the router's MiniLM
    encoder when there is one).
    """

    settings: Settings
    store: Store
    _: KW_ONLY
    cloud: CloudDoor | None
    local: LocalChat | None
    analyzer: Analyzer
    public_space: Any | None = None
    integrator: Integrator | None = None

    def __post_init__(self) -> None:
        if self.integrator is None:
            self.integrator = Integrator(
                self.settings,
                encoder=getattr(self.analyzer.router, "encoder", None),
                detector=self.analyzer.detector,
            )

    # --- conversations ------------------------------------------------------

    def new_conversation(self, title: str, kind: TurnKind = TurnKind.CHAT) -> int:
        return self.store.new_conversation(title[:80] or "New conversation", kind=str(kind))

    def box_for(self, conversation_id: int) -> PrivacyBox:
        data = self.store.load_box(conversation_id)
        return PrivacyBox.from_json(data) if data else PrivacyBox()

    def cloud_history(self, conversation_id: int, before: int | None = None) -> list[Message]:
        """The cloud's view of earlier turns: anonymized user contents and answers only.

        ``before`` (a message id) stops the history there (edit and resend).
        """
        out: list[Message] = []
        for m in self.store.messages(conversation_id):
            if before is not None and m["id"] >= before:
                break
            cloud = m.get("cloud_content")
            if cloud:  # turns that never left have no cloud side
                out.append({"role": m["role"], "content": cloud})
        return out

    # --- phase 1 ------------------------------------------------------------

    def prepare(
        self,
        text: str,
        conversation_id: int,
        kind: TurnKind = TurnKind.CHAT,
        *,
        choices: Choices | None = None,
        analysis: Analysis | None = None,
        replace_from: int | None = None,
    ) -> PreparedTurn:
        """Analyze ``text`` and build what would leave; sends and stores nothing.

        ``choices`` are the person's routes and protections (applied here, once).
        A window that has already analyzed the text may pass its ``analysis``
        (same text; it is copied, never changed). ``replace_from`` (a message
        id) prepares an edit and resend or a regeneration: that message and the
        later ones are left out of the history now and replaced only when the
        new turn succeeds.
        """
        choices = choices.copy() if choices is not None else Choices()
        if analysis is None or analysis.text != text:
            analysis = self.analyzer.analyze(
                text, self.settings.risk_lambda, self.settings.privacy_profile
            )
        else:
            analysis = copy.deepcopy(analysis)
        choices.apply(analysis)
        box = self.box_for(conversation_id)
        earlier = self.cloud_history(conversation_id, before=replace_from)
        for m in earlier:
            if m["role"] == "assistant":
                box.reserve(m["content"])  # answers saved before guesses were reserved
        remote = analysis.remote()
        if not remote:
            return PreparedTurn(
                conversation_id, kind, text, analysis, box, [], None, False, "",
                replace_from, choices=choices,
            )
        settled = outbound_of(analysis, box, self.analyzer.detector, self.analyzer.policy)
        system = prompts.DRAFT_SYSTEM if kind is TurnKind.DRAFT else prompts.CHAT_SYSTEM
        messages = [{"role": "system", "content": system}]
        history: tuple[str, ...] = ()
        if kind is TurnKind.CHAT:
            messages += earlier
            history = tuple(m["content"] for m in earlier if m["role"] == "user")
        messages.append({"role": "user", "content": settled.text})
        request = ApprovalRequest(
            endpoint=getattr(self.cloud, "endpoint", ""),
            model=getattr(self.cloud, "model", ""),
            messages=messages,
            entities=_entities(analysis, box, messages, settled.sent),
            withheld_sentences=len(analysis.plans) - len(remote),
            remote_sentences=len(remote),
        )
        needs = Approvals(self.store, self.settings.approval_policy).needed(conversation_id, request)
        return PreparedTurn(
            conversation_id, kind, text, analysis, box, messages, request, needs, settled.text,
            replace_from, history, choices, payload_digest(messages),
        )

    def revise(self, prepared: PreparedTurn, send_in_clear: Iterable[str]) -> PreparedTurn:
        """A new prepared turn in which the values behind the placeholders
        ``send_in_clear`` leave as written (the approval view's toggles).

        ``prepared`` is not changed; the new payload has a new digest and must
        be shown and approved before it is sent.
        """
        chosen = set(send_in_clear)
        text = prepared.text
        values = {e.value for e in prepared.box.entries() if e.placeholder in chosen}
        for plan in prepared.analysis.remote():
            for e in plan.entities:
                value = text[e.start : e.end]
                if prepared.box.placeholder_of(value) in chosen:
                    values.add(value)
        return self.prepare(
            text,
            prepared.conversation_id,
            prepared.kind,
            choices=prepared.choices.sending(values),
            analysis=prepared.analysis,
            replace_from=prepared.replace_from,
        )

    def set_always_approve(self, conversation_id: int, value: bool = True) -> None:
        Approvals(self.store, self.settings.approval_policy).set_always(conversation_id, value)

    # --- phase 2 ------------------------------------------------------------

    def execute(
        self,
        prepared: PreparedTurn,
        approval: Approval | None = None,
        cancel: threading.Event | None = None,
    ) -> Iterator[TurnEvent]:
        """Run the approved turn; yields stages, restored tokens, then :class:`Finished`.

        Raises :class:`ApprovalDeclined` when the payload needed approval and did
        not get it, :class:`PayloadChanged` when the approval was given to
        another payload (or the payload changed since); cloud errors propagate
        as typed :class:`CloudError`. In every case nothing is sent or stored
        and the conversation's box is unchanged.
        """
        cancel = cancel or threading.Event()
        if prepared.request is not None:
            self._check_approval(prepared, approval)
            if approval is not None and approval.always_in_conversation:
                self.set_always_approve(prepared.conversation_id)
        if prepared.local_only:
            yield from self._local_only(prepared, cancel)
            return
        assert prepared.request is not None
        consented = [e.value for e in prepared.request.entities if not e.protected]
        if self.cloud is None:
            raise SottovoceError("No cloud model is configured.", hint="set one in Settings")
        yield Stage("sending")
        restorer = prepared.box.stream()
        cloud_parts: list[str] = []
        restored_parts: list[str] = []
        integration = (
            self.settings.draft_integration
            if prepared.kind is TurnKind.DRAFT
            else self.settings.chat_integration
        )
        if self.public_space is not None and self.public_space.enabled():
            chunks: Iterator[str] = self.public_space.run(
                prepared.messages, box=prepared.box, conversation_id=prepared.conversation_id,
                consented=consented, cancel=cancel, trusted=prepared.history,
                approved=prepared.digest,
            )
        else:
            chunks = self.cloud.stream(
                prepared.messages,
                box=prepared.box,
                conversation_id=prepared.conversation_id,
                purpose=str(prepared.kind),
                consented=consented,
                cancel=cancel,
                max_tokens=self.settings.cloud_max_tokens,
                trusted=prepared.history,
                approved=prepared.digest,
            )
        first = True
        # The cloud's answer always streams as it arrives: a merge, if any, is
        # made and checked afterwards and replaces it only when the guard agrees.
        for chunk in chunks:
            if cancel.is_set():
                raise Cancelled()
            if first:
                yield Stage("receiving")
                first = False
            cloud_parts.append(chunk)
            piece = restorer.feed(chunk)
            restored_parts.append(piece)
            if piece:
                yield Token(piece, "cloud")
        tail = restorer.flush()
        restored_parts.append(tail)
        if tail:
            yield Token(tail, "cloud")
        cloud_answer = "".join(cloud_parts)
        # Placeholders the cloud invented keep their numbers out of later turns.
        prepared.box.reserve(cloud_answer)
        restored = "".join(restored_parts)
        outcome = yield from self._integrate(prepared, restored, integration, cancel)
        if outcome.mode is not Mode.NONE:
            yield Notice(outcome.notice(), str(outcome.mode))
        yield Stage("saving")
        result = self._save(
            prepared,
            answer=outcome.answer,
            cloud_answer=cloud_answer,
            unresolved=list(dict.fromkeys(restorer.unresolved)),
            disclosed=len(consented),
            integration=outcome,
        )
        yield Finished(result)

    @staticmethod
    def _check_approval(prepared: PreparedTurn, approval: Approval | None) -> None:
        """The approval, when there is one or one is needed, is for exactly this payload."""
        if approval is None:
            if prepared.needs_approval:
                raise ApprovalDeclined()
        elif approval.decision is not Decision.SEND:
            raise ApprovalDeclined()
        elif approval.digest != prepared.digest:
            raise PayloadChanged()
        if payload_digest(prepared.messages) != prepared.digest:
            raise PayloadChanged()  # the messages changed after they were prepared

    def _integrate(
        self, prepared: PreparedTurn, restored: str, integration: Integration, cancel: threading.Event
    ) -> Generator[TurnEvent, None, Outcome]:
        """The local model's part: pass the answer through (with an optional marked
        note), or merge under the guard (see :mod:`core.integrate`)."""
        kept = kept_sentences(prepared.analysis.plans)
        if not kept:
            return Outcome(Mode.NONE, restored, cloud=restored)
        integrator = self.integrator
        assert integrator is not None  # made in __post_init__
        plan = integrator.plan(self.local, integration, kept)
        note = ""
        if plan.note or plan.merge:
            yield Stage("integrating")
            note = integrator.write_note(self.local, kept, restored, cancel)
        if not plan.merge:
            if note:
                yield Token(note, "note")
            return Outcome(
                Mode.PASS_THROUGH, restored, kept, plan.reason, note, plan.model, cloud=restored
            )
        merged = integrator.merge(self.local, prepared.text, restored, note, cancel)
        outcome = integrator.judge(merged, restored, prepared.text, plan, kept, note)
        if outcome.mode is Mode.MERGED:
            yield Token(merged, "merged")
        elif note:
            yield Token(note, "note")
        return outcome

    def _local_only(self, prepared: PreparedTurn, cancel: threading.Event) -> Iterator[TurnEvent]:
        if self.local is None:
            raise SottovoceError(
                "Every sentence is private and no local model is available to answer it."
            )
        yield Stage("local")
        parts = []
        system = prompts.LOCAL_ONLY_SYSTEM
        for piece in self.local.stream_chat(
            [{"role": "system", "content": system}, {"role": "user", "content": prepared.text}],
            cancel=cancel,
        ):
            if cancel.is_set():
                raise Cancelled()
            parts.append(piece)
            yield Token(piece, "local")
        yield Stage("saving")
        yield Finished(
            self._save(prepared, answer="".join(parts).strip(), cloud_answer="", unresolved=[], disclosed=0)
        )

    def _save(
        self,
        prepared: PreparedTurn,
        *,
        answer: str,
        cloud_answer: str,
        unresolved: list[str],
        disclosed: int,
        integration: Outcome | None = None,
    ) -> TurnResult:
        conv = prepared.conversation_id
        replace_from = prepared.replace_from
        if replace_from is not None:
            self.store.delete_messages_from(conv, replace_from)
        meta = {
            "kind": str(prepared.kind),
            "routes": [str(p.route) for p in prepared.analysis.plans],
            "risk_lambda": prepared.analysis.risk_lambda,
            "unresolved": unresolved,
        }
        uid = self.store.add_message(conv, "user", prepared.text, prepared.outbound or None, meta)
        answer_meta: dict[str, Any] = {"unresolved": unresolved}
        if integration is not None and integration.mode is not Mode.NONE:
            answer_meta["integration"] = integration.meta()
        aid = self.store.add_message(conv, "assistant", answer, cloud_answer or None, answer_meta)
        self.store.save_box(conv, prepared.box.to_json())
        if disclosed:
            self.store.add_disclosed(conv, disclosed)
        return TurnResult(
            conv,
            answer,
            cloud_answer,
            prepared.outbound,
            unresolved,
            prepared.local_only,
            disclosed,
            uid,
            aid,
            integration,
        )

    # --- both phases ----------------------------------------------------------

    def run(
        self, text: str, conversation_id: int, kind: TurnKind = TurnKind.CHAT, *,
        approve: ApproveCallback | None = None, choices: Choices | None = None,
        cancel: threading.Event | None = None,
    ) -> Iterator[TurnEvent]:
        """Prepare, ask ``approve`` when the policy says so, then execute.

        ``approve`` gets the prepared turn and returns the turn the person
        approved (the same, or one :meth:`revise` made) with the approval.
        """
        prepared = self.prepare(text, conversation_id, kind, choices=choices)
        approval: Approval | None = None
        if prepared.request is not None and prepared.needs_approval:
            if approve is None:
                raise ApprovalDeclined()
            prepared, approval = approve(prepared)
        yield from self.execute(prepared, approval, cancel)

    def resend_text(self, conversation_id: int, user_message_id: int) -> str:
        """The text of a user message, to edit and resend or regenerate.

        Nothing is deleted here: pass ``replace_from=user_message_id`` to
        :meth:`prepare`, and the old messages are replaced only when the new
        turn succeeds (a cancelled or failed resend keeps them).
        """
        msgs = [m for m in self.store.messages(conversation_id) if m["id"] == user_message_id]
        if not msgs or msgs[0]["role"] != "user":
            raise SottovoceError("That message no longer exists.")
        return str(msgs[0]["content"])


def _entities(
    analysis: Analysis, box: PrivacyBox, messages: Sequence[Message], settled: Iterable[Any]
) -> list[ApprovalEntity]:
    """The private values a payload mentions: the box's placeholders in it, then
    the values sent in clear (by the type policy or the person's choice), each
    with its reason, and what settling found and the policy let through."""
    payload = "\n".join(m["content"] for m in messages)
    entities = [
        ApprovalEntity(e.placeholder, str(e.type), e.value)
        for e in box.entries()
        if e.placeholder in payload
    ]
    for plan in analysis.remote():
        for i, (ent, keep) in enumerate(zip(plan.entities, plan.protected, strict=True)):
            if not keep:
                entities.append(
                    ApprovalEntity(
                        "", str(ent.type), analysis.text[ent.start : ent.end], protected=False,
                        reason=plan.reason(i),
                    )
                )
    listed = {e.value.casefold() for e in entities}
    for sv in settled:
        if sv.value.casefold() not in listed:
            entities.append(ApprovalEntity("", str(sv.type), sv.value, protected=False, reason=sv.reason))
    return entities
