"""One turn end to end: Privacy-R1 delegation joined with GAMA's public space.

``text -> segment -> detect -> route (+ the person's overrides) -> anonymize the
cloud-bound sentences -> approval -> egress guard -> cloud model -> restore ->
the local model integrates (or passes the answer through) -> store``.

The work is split in two so a window can show the approval on its own thread:

* :meth:`Assistant.prepare` analyzes the text and builds the exact payload that
  would leave, with an :class:`ApprovalRequest`; nothing is sent and nothing is
  stored.
* :meth:`Assistant.execute` takes the person's :class:`Approval` and runs the
  rest as a generator of :class:`TurnEvent` objects; each yielded token is a
  point where a cancel takes effect.

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
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from core import prompts
from core.analyze import Analysis, Analyzer, Route
from core.box import PrivacyBox
from core.errors import ApprovalDeclined, Cancelled, SottovoceError
from core.integrate import Integrator, Mode, Notice, Outcome, kept_sentences
from core.outbound.compose import outbound_of
from core.settings import ApprovalPolicy, Integration, Settings
from core.store import Store

log = logging.getLogger(__name__)

Message = dict[str, str]


class TurnKind(StrEnum):
    CHAT = "chat"
    DRAFT = "draft"


# --- the parts a turn needs ---------------------------------------------------


class CloudDoor(Protocol):
    """The egress guard as the pipeline sees it: the only way to the cloud."""

    endpoint: str
    model: str

    def stream(
        self,
        messages: Sequence[Message],
        *,
        box: PrivacyBox,
        conversation_id: int | None,
        purpose: str,
        consented: Sequence[str] = (),
        cancel: threading.Event | None = None,
        max_tokens: int | None = None,
        trusted: Sequence[str] = (),
    ) -> Iterator[str]:
        """Check the payload, record it in the ledger, stream the answer's text.

        ``trusted`` are instruction texts the app wrote itself, which the
        detector need not re-read (box values are still looked for in them).
        """
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


# --- approval -------------------------------------------------------------------


@dataclass
class ApprovalEntity:
    """One private value the payload mentions, with the person's toggle."""

    placeholder: str
    type: str
    value: str  # shown only on this machine, in the approval view
    protected: bool = True
    reason: str = ""  # why it is sent in clear (the type policy's or the person's choice)


@dataclass
class ApprovalRequest:
    """What would leave the machine, exactly, for the person to approve."""

    endpoint: str
    model: str
    messages: list[Message]
    entities: list[ApprovalEntity]
    withheld_sentences: int
    remote_sentences: int

    @property
    def user_content(self) -> str:
        return self.messages[-1]["content"] if self.messages else ""


class Decision(StrEnum):
    SEND = "send"
    EDIT = "edit"
    CANCEL = "cancel"


@dataclass
class Approval:
    """The person's answer to an :class:`ApprovalRequest`."""

    decision: Decision
    #: Placeholders the person chose to send in clear (consent per entity).
    unprotect: frozenset[str] = frozenset()
    #: Approve every later turn of this conversation without asking.
    always_in_conversation: bool = False

    @classmethod
    def send(cls, unprotect: Sequence[str] = (), always: bool = False) -> Approval:
        return cls(Decision.SEND, frozenset(unprotect), always)


ApproveCallback = Callable[[ApprovalRequest], Approval]


# --- events ------------------------------------------------------------------


@dataclass
class Stage:
    """The turn moved on (``sending``, ``receiving``, ``integrating``, ``saving``)."""

    name: str


@dataclass
class Token:
    """A piece of the answer, already restored; ``source`` is ``cloud`` or ``local``."""

    text: str
    source: str


@dataclass
class TurnResult:
    """What a finished turn produced."""

    conversation_id: int
    answer: str  # what the person reads (restored)
    cloud_answer: str  # what the cloud wrote (anonymized), "" when nothing left
    outbound: str  # the user content that left, "" when nothing left
    unresolved: list[str]  # placeholders the cloud invented that are not in the box
    local_only: bool
    disclosed: int  # values sent in clear with consent in this turn
    user_message_id: int | None = None
    answer_message_id: int | None = None
    #: How the answer was made from the cloud's (passed through, merged, or the
    #: merge refused) and what the person must be told; None for a local-only turn.
    integration: Outcome | None = None


@dataclass
class Finished:
    result: TurnResult


TurnEvent = Stage | Token | Notice | Finished


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
    extra: dict[str, Any] = field(default_factory=dict)
    #: Earlier user turns as the cloud already received them: checked and sent
    #: with consent then, so the detector does not judge them again (box
    #: values are still looked for in them).
    history: tuple[str, ...] = ()

    @property
    def local_only(self) -> bool:
        return self.request is None


class Assistant:
    """Runs turns for one person: the same object serves the window and the command line.

    Parts are injected; ``analyzer`` defaults to the shipped detector and router.
    ``cloud`` is the egress guard (the only door out), ``local`` the local model.
    """

    def __init__(
        self,
        settings: Settings,
        store: Store,
        *,
        cloud: CloudDoor | None,
        local: LocalChat | None,
        analyzer: Analyzer | None = None,
        public_space: Any | None = None,
        integrator: Integrator | None = None,
    ) -> None:
        if analyzer is None:
            from core.defaults import default_detector, default_router

            analyzer = Analyzer(detector=default_detector(settings), router=default_router(settings))
        self.settings = settings
        self.store = store
        self.cloud = cloud
        self.local = local
        self.analyzer = analyzer
        self.public_space = public_space
        # What the local model may do with the cloud's answer (core.integrate);
        # its guard embeds with the router's MiniLM encoder when there is one.
        self.integrator = integrator or Integrator(
            settings,
            encoder=getattr(analyzer.router, "encoder", None),
            detector=analyzer.detector,
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
        overrides: Mapping[int, Route] | None = None,
        unprotect: Sequence[tuple[int, int]] = (),
        protect: Sequence[tuple[int, int]] = (),
        analysis: Analysis | None = None,
        replace_from: int | None = None,
    ) -> PreparedTurn:
        """Analyze ``text`` and build what would leave; sends and stores nothing.

        ``overrides`` flips sentences (index -> route); ``unprotect`` lists entity
        spans (start, end) the person chose to send in clear, ``protect`` those the
        type policy would send that the person chose to protect. A window that has
        already analyzed the text may pass its ``analysis`` (same text; it is
        copied, never changed). ``replace_from`` (a message id) prepares an edit
        and resend or a regeneration: that message and the later ones are left
        out of the history now and replaced only when the new turn succeeds.
        """
        if analysis is None or analysis.text != text:
            analysis = self.analyzer.analyze(text, self.settings.risk_lambda, overrides)
        else:
            analysis = copy.deepcopy(analysis)
        if overrides:
            for plan in analysis.plans:
                if plan.index in overrides:
                    plan.route, plan.overridden = overrides[plan.index], True
        clear, guarded = set(unprotect), set(protect)
        for plan in analysis.plans:
            policy = (
                [d.protect for d in plan.decisions]
                if len(plan.decisions) == len(plan.entities)
                else [True] * len(plan.entities)
            )
            # The person's choices win over the type policy, one entity at a time.
            plan.protected = [
                False if (e.start, e.end) in clear else (e.start, e.end) in guarded or by_policy
                for e, by_policy in zip(plan.entities, policy, strict=True)
            ]
        box = self.box_for(conversation_id)
        remote = analysis.remote()
        extra = {"replace_from": replace_from} if replace_from is not None else {}
        if not remote:
            return PreparedTurn(
                conversation_id, kind, text, analysis, box, [], None, False, "", extra
            )
        settled = outbound_of(analysis, box, self.analyzer.detector, self.analyzer.policy)
        outbound = settled.text
        system = prompts.DRAFT_SYSTEM if kind is TurnKind.DRAFT else prompts.CHAT_SYSTEM
        messages = [{"role": "system", "content": system}]
        history: tuple[str, ...] = ()
        if kind is TurnKind.CHAT:
            earlier = self.cloud_history(conversation_id, before=replace_from)
            messages += earlier
            history = tuple(m["content"] for m in earlier if m["role"] == "user")
        messages.append({"role": "user", "content": outbound})
        payload = "\n".join(m["content"] for m in messages)
        entities = [
            ApprovalEntity(e.placeholder, str(e.type), e.value)
            for e in box.entries()
            if e.placeholder in payload
        ]
        # Values sent in clear (by the type policy or the person's choice) are
        # consented disclosures, each with its reason.
        for plan in remote:
            for i, (ent, keep) in enumerate(zip(plan.entities, plan.protected, strict=True)):
                if not keep:
                    entities.append(
                        ApprovalEntity(
                            "", str(ent.type), text[ent.start : ent.end], protected=False,
                            reason=plan.reason(i),
                        )
                    )
        # What settling found and the policy let through is a disclosure too.
        listed = {e.value.casefold() for e in entities}
        for sv in settled.sent:
            if sv.value.casefold() not in listed:
                entities.append(
                    ApprovalEntity("", str(sv.type), sv.value, protected=False, reason=sv.reason)
                )
        request = ApprovalRequest(
            endpoint=getattr(self.cloud, "endpoint", ""),
            model=getattr(self.cloud, "model", ""),
            messages=messages,
            entities=entities,
            withheld_sentences=len(analysis.plans) - len(remote),
            remote_sentences=len(remote),
        )
        return PreparedTurn(
            conversation_id,
            kind,
            text,
            analysis,
            box,
            messages,
            request,
            self._needs_approval(conversation_id, request),
            outbound,
            extra,
            history,
        )

    def _needs_approval(self, conversation_id: int, request: ApprovalRequest) -> bool:
        policy = self.settings.approval_policy
        if policy is ApprovalPolicy.NEVER:
            return False
        if self._always_approved(conversation_id):
            return False
        if policy is ApprovalPolicy.WHEN_ENTITIES:
            return bool(request.entities)
        return True

    def _always_approved(self, conversation_id: int) -> bool:
        import json

        conv = self.store.conversation(conversation_id)
        return bool(json.loads(conv.get("settings") or "{}").get("always_approve"))

    def set_always_approve(self, conversation_id: int, value: bool = True) -> None:
        import json

        conv = self.store.conversation(conversation_id)
        data = json.loads(conv.get("settings") or "{}")
        data["always_approve"] = value
        with self.store.transaction() as db:
            db.execute(
                "UPDATE conversations SET settings = ? WHERE id = ?",
                [json.dumps(data), conversation_id],
            )

    def apply_approval(self, prepared: PreparedTurn, approval: Approval) -> PreparedTurn:
        """Fold the person's per-entity toggles into the payload (re-prepares if needed)."""
        if not approval.unprotect:
            return prepared
        spans = []
        for entry in prepared.box.entries():
            if entry.placeholder in approval.unprotect:
                for plan in prepared.analysis.remote():
                    for e in plan.entities:
                        if prepared.text[e.start : e.end] == entry.value:
                            spans.append((e.start, e.end))
        already = [
            (e.start, e.end)
            for p in prepared.analysis.plans
            for e, keep in zip(p.entities, p.protected, strict=True)
            if not keep
        ]
        return self.prepare(
            prepared.text,
            prepared.conversation_id,
            prepared.kind,
            unprotect=[*already, *spans],
            analysis=prepared.analysis,
            replace_from=prepared.extra.get("replace_from"),
        )

    # --- phase 2 ------------------------------------------------------------

    def execute(
        self,
        prepared: PreparedTurn,
        approval: Approval | None = None,
        cancel: threading.Event | None = None,
    ) -> Iterator[TurnEvent]:
        """Run the approved turn; yields stages, restored tokens, then :class:`Finished`.

        Raises :class:`ApprovalDeclined` when the payload needed approval and did
        not get it; cloud errors propagate as typed :class:`CloudError`. Either
        way nothing is stored and the conversation's box is unchanged.
        """
        cancel = cancel or threading.Event()
        if prepared.request is not None:
            if prepared.needs_approval and (approval is None or approval.decision is not Decision.SEND):
                raise ApprovalDeclined()
            if approval is not None and approval.unprotect:
                prepared = self.apply_approval(prepared, approval)
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

    def _integrate(
        self, prepared: PreparedTurn, restored: str, integration: Integration, cancel: threading.Event
    ) -> Generator[TurnEvent, None, Outcome]:
        """The local model's part: pass the answer through (with an optional marked
        note), or merge under the guard (see :mod:`core.integrate`)."""
        kept = kept_sentences(prepared.analysis.plans)
        if not kept:
            return Outcome(Mode.NONE, restored, cloud=restored)
        plan = self.integrator.plan(self.local, integration, kept)
        note = ""
        if plan.note or plan.merge:
            yield Stage("integrating")
            note = self.integrator.write_note(self.local, kept, restored, cancel)
        if not plan.merge:
            if note:
                yield Token(note, "note")
            return Outcome(
                Mode.PASS_THROUGH, restored, kept, plan.reason, note, plan.model, cloud=restored
            )
        merged = self.integrator.merge(self.local, prepared.text, restored, note, cancel)
        outcome = self.integrator.judge(merged, restored, prepared.text, plan, kept, note)
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
        replace_from = prepared.extra.get("replace_from")
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
        self,
        text: str,
        conversation_id: int,
        kind: TurnKind = TurnKind.CHAT,
        *,
        approve: ApproveCallback | None = None,
        overrides: Mapping[int, Route] | None = None,
        cancel: threading.Event | None = None,
    ) -> Iterator[TurnEvent]:
        """Prepare, ask ``approve`` when the policy says so, then execute."""
        prepared = self.prepare(text, conversation_id, kind, overrides=overrides)
        approval: Approval | None = None
        if prepared.request is not None:
            if prepared.needs_approval:
                if approve is None:
                    raise ApprovalDeclined()
                approval = approve(prepared.request)
                if approval.decision is not Decision.SEND:
                    raise ApprovalDeclined()
            else:
                approval = Approval.send()
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


def collect(events: Iterator[TurnEvent]) -> TurnResult:
    """Run a turn to the end and return its result (for tests and scripts)."""
    result = None
    for ev in events:
        if isinstance(ev, Finished):
            result = ev.result
    if result is None:  # pragma: no cover - execute always finishes or raises
        raise SottovoceError("The turn ended without a result.")
    return result
