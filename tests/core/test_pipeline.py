"""Unit tests of the turn pipeline with small fakes for the two models.

The end-to-end versions against the real loopback cloud live in
tests/integration/test_turns.py.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

import pytest

from core.analyze import Analyzer, Route
from core.box import PrivacyBox
from core.detect.base import Detector
from core.detect.rules import RulesView
from core.entities import EntityType
from core.errors import ApprovalDeclined, Cancelled, CloudServerError, PayloadChanged
from core.outbound import payload_digest
from core.settings import ApprovalPolicy, Integration, Settings
from core.store import Store
from core.turn import (
    Approval,
    Assistant,
    Choices,
    Decision,
    Finished,
    PreparedTurn,
    Token,
    TurnKind,
    collect,
)

TEXT = (
    "My number is 215-555-4078. What are the early signs of dehydration in toddlers? "
    "Email me at anna.k@example.org."
)


class FakeCloud:
    endpoint = "http://fake"
    model = "fake-model"

    def __init__(self, answer: str | None = None, fail: bool = False) -> None:
        self.answer = answer
        self.fail = fail
        self.received: list[list[dict[str, str]]] = []

    def stream(self, messages: Sequence[dict[str, str]], **kw: object) -> Iterator[str]:
        self.received.append([dict(m) for m in messages])
        if self.fail:
            raise CloudServerError("The cloud failed.")
        user = messages[-1]["content"]
        answer = self.answer if self.answer is not None else f"About [PHONE_1]: you wrote {user!r}."
        for i in range(0, len(answer), 3):  # small chunks split placeholders
            yield answer[i : i + 3]


class FakeLocal:
    def __init__(self) -> None:
        self.seen: list[str] = []

    def stream_chat(self, messages: Sequence[dict[str, str]], **kw: object) -> Iterator[str]:
        self.seen.append(messages[-1]["content"])
        yield from ["local ", "answer"]


@pytest.fixture
def analyzer(segmenter) -> Analyzer:  # type: ignore[no-untyped-def]
    # A rules-only detector keeps these unit tests fast and predictable.
    return Analyzer(segmenter, Detector([RulesView()]))


def make(store: Store, analyzer: Analyzer, cloud: FakeCloud, **settings: object) -> Assistant:
    s = Settings(**settings)  # type: ignore[arg-type]
    return Assistant(s, store, cloud=cloud, local=FakeLocal(), analyzer=analyzer)


def approve_all(p: PreparedTurn) -> tuple[PreparedTurn, Approval]:
    return p, Approval.send(p)


def send_clear(a: Assistant, p: PreparedTurn, *placeholders: str) -> tuple[PreparedTurn, Approval]:
    """The approval view's toggles: a new payload, approved as it is shown."""
    revised = a.revise(p, placeholders)
    return revised, Approval.send(revised)


def routes(a: Assistant, text: str, by_index: dict[int, Route]) -> Choices:
    """The person's routes for sentences of ``text`` given by index."""
    plans = a.analyzer.analyze(text).plans
    return Choices(routes={plans[i].sentence.text: r for i, r in by_index.items()})


def test_prepare_sends_nothing_and_stores_nothing(store: Store, analyzer: Analyzer) -> None:
    cloud = FakeCloud()
    a = make(store, analyzer, cloud)
    conv = a.new_conversation("t")
    p = a.prepare(TEXT, conv, choices=routes(a, TEXT, {0: Route.REMOTE}))
    assert cloud.received == [] and store.messages(conv) == [] and store.load_box(conv) is None
    assert p.request is not None and p.needs_approval
    assert "[PHONE_1]" in p.request.user_content and "215-555-4078" not in p.request.user_content
    assert "[private sentence withheld]" in p.request.user_content
    assert [e.placeholder for e in p.request.entities] == ["[PHONE_1]"]


def test_chat_turn_restores_values_and_saves(store: Store, analyzer: Analyzer) -> None:
    cloud = FakeCloud()
    a = make(store, analyzer, cloud, chat_integration=Integration.PASS_THROUGH)
    conv = a.new_conversation("t")
    events = list(a.run(TEXT, conv, approve=approve_all, choices=routes(a, TEXT, {0: Route.REMOTE})))
    tokens = "".join(e.text for e in events if isinstance(e, Token))
    result = next(e.result for e in events if isinstance(e, Finished))
    assert "215-555-4078" in tokens and "[PHONE_1]" not in tokens
    assert result.answer == tokens and "[PHONE_1]" in result.cloud_answer
    msgs = store.messages(conv)
    assert [m["role"] for m in msgs] == ["user", "assistant"]
    assert msgs[0]["content"] == TEXT and "215-555-4078" not in msgs[0]["cloud_content"]
    assert PrivacyBox.from_json(store.load_box(conv) or {}).values() == ["215-555-4078"]


def test_second_turn_history_is_anonymized(store: Store, analyzer: Analyzer) -> None:
    cloud = FakeCloud()
    a = make(store, analyzer, cloud, chat_integration=Integration.PASS_THROUGH)
    conv = a.new_conversation("t")
    collect(a.run(TEXT, conv, approve=approve_all, choices=routes(a, TEXT, {0: Route.REMOTE})))
    collect(a.run("And what about 215-555-4078 again?", conv, approve=approve_all, choices=routes(a, "And what about 215-555-4078 again?", {0: Route.REMOTE})))
    second = cloud.received[1]
    payload = "\n".join(m["content"] for m in second)
    assert "215-555-4078" not in payload and "anna.k@example.org" not in payload
    assert payload.count("[PHONE_1]") >= 2  # stable placeholder across turns
    assert [m["role"] for m in second] == ["system", "user", "assistant", "user"]


def test_cancel_at_approval_sends_nothing(store: Store, analyzer: Analyzer) -> None:
    cloud = FakeCloud()
    a = make(store, analyzer, cloud)
    conv = a.new_conversation("t")
    with pytest.raises(ApprovalDeclined):
        collect(a.run(TEXT, conv, approve=lambda p: (p, Approval.cancel()), choices=routes(a, TEXT, {0: Route.REMOTE})))
    assert cloud.received == [] and store.messages(conv) == []


def test_policy_never_asks(store: Store, analyzer: Analyzer) -> None:
    cloud = FakeCloud()
    a = make(store, analyzer, cloud, approval_policy=ApprovalPolicy.NEVER)
    conv = a.new_conversation("t")
    collect(a.run(TEXT, conv, approve=None))
    assert len(cloud.received) == 1


def test_policy_when_entities(store: Store, analyzer: Analyzer) -> None:
    a = make(store, analyzer, FakeCloud(), approval_policy=ApprovalPolicy.WHEN_ENTITIES)
    conv = a.new_conversation("t")
    assert not a.prepare(TEXT, conv).needs_approval  # heuristic keeps PII local
    assert a.prepare(TEXT, conv, choices=routes(a, TEXT, {0: Route.REMOTE})).needs_approval


def test_always_approve_in_conversation(store: Store, analyzer: Analyzer) -> None:
    cloud = FakeCloud()
    a = make(store, analyzer, cloud)
    conv = a.new_conversation("t")
    collect(a.run(TEXT, conv, approve=lambda p: (p, Approval.send(p, always=True))))
    p = a.prepare(TEXT, conv)
    assert not p.needs_approval


def test_consented_entity_is_sent_in_clear_and_counted(store: Store, analyzer: Analyzer) -> None:
    cloud = FakeCloud(answer="ok")
    a = make(store, analyzer, cloud, chat_integration=Integration.PASS_THROUGH)
    conv = a.new_conversation("t")
    r = collect(
        a.run(TEXT, conv, approve=lambda p: send_clear(a, p, "[PHONE_1]"), choices=routes(a, TEXT, {0: Route.REMOTE}))
    )
    assert "215-555-4078" in cloud.received[0][-1]["content"]
    assert r.disclosed == 1 and store.conversation(conv)["disclosed"] == 1


def test_cloud_failure_keeps_box_and_stores_nothing(store: Store, analyzer: Analyzer) -> None:
    ok = make(store, analyzer, FakeCloud(), chat_integration=Integration.PASS_THROUGH)
    conv = ok.new_conversation("t")
    collect(ok.run(TEXT, conv, approve=approve_all, choices=routes(ok, TEXT, {0: Route.REMOTE})))
    box_before = store.load_box(conv)
    n_before = len(store.messages(conv))
    bad = make(store, analyzer, FakeCloud(fail=True))
    with pytest.raises(CloudServerError):
        collect(bad.run("Call 610-555-0199 about Lyon.", conv, approve=approve_all, choices=routes(bad, "Call 610-555-0199 about Lyon.", {0: Route.REMOTE})))
    assert store.load_box(conv) == box_before and len(store.messages(conv)) == n_before


def test_cancel_mid_stream(store: Store, analyzer: Analyzer) -> None:
    cancel = threading.Event()
    a = make(store, analyzer, FakeCloud(answer="x" * 300), chat_integration=Integration.PASS_THROUGH)
    conv = a.new_conversation("t")
    events = a.run(TEXT, conv, approve=approve_all, cancel=cancel, choices=routes(a, TEXT, {0: Route.REMOTE}))
    with pytest.raises(Cancelled):
        for ev in events:
            if isinstance(ev, Token):
                cancel.set()
    assert store.messages(conv) == []


def test_local_only_turn_never_reaches_cloud(store: Store, analyzer: Analyzer) -> None:
    cloud = FakeCloud()
    a = make(store, analyzer, cloud)
    conv = a.new_conversation("t")
    r = collect(a.run("Call me at 215-555-4078.", conv, approve=approve_all))
    assert r.local_only and cloud.received == [] and r.answer == "local answer"


def test_a_local_model_of_unknown_size_never_rewrites_the_answer(
    store: Store, analyzer: Analyzer
) -> None:
    # core.integrate decides; tests/core/test_integrate.py covers merging and the guard.
    a = make(store, analyzer, FakeCloud(answer="Drink water, [PHONE_1]."), private_note="on")
    conv = a.new_conversation("t")
    r = collect(a.run(TEXT, conv, approve=approve_all, choices=routes(a, TEXT, {0: Route.LOCAL})))
    # The cloud's answer as it came (its [PHONE_1] was never sent, so stays unresolved).
    assert r.answer == "Drink water, [PHONE_1]." and r.unresolved == ["[PHONE_1]"]
    assert r.integration is not None and r.integration.note == "local answer"
    # The note is written on this machine from the sentence the cloud did not see.
    assert "My number is 215-555-4078." in a.local.seen[0]  # type: ignore[union-attr]


def test_draft_reports_invented_placeholders(store: Store, analyzer: Analyzer) -> None:
    cloud = FakeCloud(answer="Dear [PERSON_9],\nPlease call [PHONE_1].\nBest,\nMe")
    a = make(store, analyzer, cloud)
    conv = a.new_conversation("d", TurnKind.DRAFT)
    r = collect(a.run(TEXT, conv, TurnKind.DRAFT, approve=approve_all, choices=routes(a, TEXT, {0: Route.REMOTE})))
    assert "215-555-4078" in r.answer and "[PERSON_9]" in r.answer
    assert r.unresolved == ["[PERSON_9]"]
    assert cloud.received[0][0]["content"].startswith("You write emails")


def test_prepare_never_changes_the_analysis_it_is_given(store: Store, analyzer: Analyzer) -> None:
    a = make(store, analyzer, FakeCloud())
    conv = a.new_conversation("t")
    analysis = analyzer.analyze(TEXT)
    before = [(p.route, list(p.protected)) for p in analysis.plans]
    choices = routes(a, TEXT, {0: Route.REMOTE}).sending(["215-555-4078"])
    p = a.prepare(TEXT, conv, choices=choices, analysis=analysis)
    a.revise(p, ["[PHONE_1]"])
    assert [(p.route, list(p.protected)) for p in analysis.plans] == before


def test_resend_replaces_history_only_when_the_new_turn_succeeds(store: Store, analyzer: Analyzer) -> None:
    cloud = FakeCloud(answer="first")
    a = make(store, analyzer, cloud, chat_integration=Integration.PASS_THROUGH)
    conv = a.new_conversation("t")
    first = collect(a.run("What is a fever?", conv, approve=approve_all))
    text = a.resend_text(conv, first.user_message_id or 0)
    # A cancelled resend keeps the old turn.
    p = a.prepare(text + " In adults?", conv, replace_from=first.user_message_id)
    with pytest.raises(ApprovalDeclined):
        collect(a.execute(p, Approval(Decision.CANCEL)))
    assert [m["content"] for m in store.messages(conv)] == ["What is a fever?", "first"]
    # The old turn is not in the resend's history, and is replaced on success.
    cloud.answer = "second"
    p = a.prepare(text + " In adults?", conv, replace_from=first.user_message_id)
    assert [m["role"] for m in p.messages] == ["system", "user"]
    collect(a.execute(p, Approval.send(p)))
    assert [m["content"] for m in store.messages(conv)] == ["What is a fever? In adults?", "second"]


def test_every_occurrence_of_a_protected_value_is_replaced(store: Store, analyzer: Analyzer) -> None:
    from core.box import PrivacyBox
    from core.outbound.compose import compose_outbound

    text = "Call 215-555-4078 now. The number 215-555-4078 is mine; ask al, AL or user_al."
    analysis = analyzer.analyze(text)
    for p in analysis.plans:
        p.route = Route.REMOTE
    # Only the first occurrence is detected: the second must still be replaced.
    analysis.plans[1].entities, analysis.plans[1].protected = [], []
    box = PrivacyBox()
    box.placeholder_for("al", EntityType.PERSON)  # a short value: own case or capitals only
    out = compose_outbound(analysis, box)
    assert "215-555-4078" not in out and out.count("[PHONE_1]") == 2
    # Whole tokens only: "user_al" is hidden whole, never glued ("user_[PERSON_1]");
    # "AL" is a case variant of the same value and shares its placeholder.
    assert out.endswith("is mine; ask [PERSON_1], [PERSON_1] or [ID_1].")


# --- the approval binds the exact bytes ------------------------------------------


def test_a_payload_changed_after_approval_is_refused_and_nothing_is_sent(
    store: Store, analyzer: Analyzer
) -> None:
    cloud = FakeCloud()
    a = make(store, analyzer, cloud)
    conv = a.new_conversation("t")
    p = a.prepare(TEXT, conv, choices=routes(a, TEXT, {0: Route.REMOTE}))
    approval = Approval.send(p)
    p.messages[-1]["content"] += " And 215-555-4078."  # changed after it was shown
    with pytest.raises(PayloadChanged):
        collect(a.execute(p, approval))
    assert cloud.received == [] and store.messages(conv) == [] and store.load_box(conv) is None


def test_an_approval_of_another_payload_sends_nothing(store: Store, analyzer: Analyzer) -> None:
    cloud = FakeCloud()
    a = make(store, analyzer, cloud)
    conv = a.new_conversation("t")
    shown = a.prepare(TEXT, conv, choices=routes(a, TEXT, {0: Route.REMOTE}))
    revised = a.revise(shown, ["[PHONE_1]"])
    assert revised.digest != shown.digest and shown.digest
    # The person approved the first payload; the revised one (the number in
    # clear) was never shown to them.
    with pytest.raises(PayloadChanged):
        collect(a.execute(revised, Approval.send(shown)))
    with pytest.raises(ApprovalDeclined):
        collect(a.execute(revised, None))
    assert cloud.received == [] and store.messages(conv) == []


def test_the_toggled_payload_is_the_one_sent_byte_for_byte(store: Store, analyzer: Analyzer) -> None:
    cloud = FakeCloud(answer="ok")
    a = make(store, analyzer, cloud, chat_integration=Integration.PASS_THROUGH)
    conv = a.new_conversation("t")
    shown = a.prepare(TEXT, conv, choices=routes(a, TEXT, {0: Route.REMOTE}))
    revised = a.revise(shown, ["[PHONE_1]"])
    assert "[PHONE_1]" in shown.outbound and "215-555-4078" in revised.outbound
    assert "215-555-4078" not in shown.outbound  # revising made a new turn, not a change
    collect(a.execute(revised, Approval.send(revised)))
    assert cloud.received == [revised.messages]
    assert payload_digest(cloud.received[0]) == revised.digest


def test_the_door_is_given_the_approved_digest(store: Store, analyzer: Analyzer) -> None:
    seen: list[object] = []

    class Door(FakeCloud):
        def stream(self, messages: Sequence[dict[str, str]], **kw: object) -> Iterator[str]:
            seen.append(kw.get("approved"))
            return super().stream(messages, **kw)

    a = make(store, analyzer, Door(answer="ok"), chat_integration=Integration.PASS_THROUGH)
    conv = a.new_conversation("t")
    p = a.prepare(TEXT, conv, choices=routes(a, TEXT, {0: Route.REMOTE}))
    collect(a.execute(p, Approval.send(p)))
    assert seen == [p.digest]


def test_choices_are_applied_once_and_keyed_by_content(store: Store, analyzer: Analyzer) -> None:
    a = make(store, analyzer, FakeCloud())
    conv = a.new_conversation("t")
    choices = routes(a, TEXT, {0: Route.REMOTE}).sending(["215-555-4078"])
    p = a.prepare(TEXT, conv, choices=choices)
    assert "215-555-4078" in p.outbound and p.choices == choices and p.choices is not choices
    # The same choices hold when the sentence moves: they follow the text.
    moved = "Hello there. " + TEXT
    q = a.prepare(moved, conv, choices=choices)
    assert "215-555-4078" in q.outbound


@pytest.mark.parametrize(
    "invented",
    ["[PHONE_2]", "PHONE_2", "Phone 2", "<phone_2>"],
    ids=["bracketed", "bare", "spelled", "angled"],
)
def test_a_placeholder_the_cloud_invented_is_never_given_to_a_later_value(
    store: Store, analyzer: Analyzer, invented: str
) -> None:
    # The cloud guessed at a value it never saw ("call [PHONE_2]"); the person
    # names the real one in the next turn: it must get a number of its own, or
    # the history would say the guess was that value, and restoring the first
    # answer again would write it where the cloud had guessed.
    cloud = FakeCloud(answer=f"Please call {invented} about [PHONE_1].")
    a = make(store, analyzer, cloud, chat_integration=Integration.PASS_THROUGH)
    conv = a.new_conversation("t")
    first = collect(a.run(TEXT, conv, approve=approve_all, choices=routes(a, TEXT, {0: Route.REMOTE})))
    assert invented in first.answer  # shown unresolved, as it should be
    follow = "The clinic's number is 617-555-0199."
    second = collect(a.run(follow, conv, approve=approve_all, choices=routes(a, follow, {0: Route.REMOTE})))
    box = PrivacyBox.from_json(store.load_box(conv) or {})
    new = box.placeholder_of("617-555-0199")
    assert new is not None and new not in ("[PHONE_1]", "[PHONE_2]")
    assert "[PHONE_2]" in box.reserved()
    # Restoring the first answer again still leaves the guess unresolved.
    assert box.deanonymize(first.cloud_answer).text == first.answer
    assert "617-555-0199" not in box.deanonymize(first.cloud_answer).text
    assert second.outbound.count(new) == 1


def test_placeholders_of_answers_stored_before_are_reserved_too(
    store: Store, analyzer: Analyzer
) -> None:
    # A vault written by an earlier release holds answers whose guesses were
    # never reserved: the history itself reserves them when a turn is prepared.
    cloud = FakeCloud(answer="Call [PHONE_2].")
    a = make(store, analyzer, cloud, chat_integration=Integration.PASS_THROUGH)
    conv = a.new_conversation("t")
    collect(a.run(TEXT, conv, approve=approve_all, choices=routes(a, TEXT, {0: Route.REMOTE})))
    data = store.load_box(conv) or {}
    store.save_box(conv, {**data, "reserved": []})  # as an older release saved it
    follow = "The clinic's number is 617-555-0199."
    p = a.prepare(follow, conv, choices=routes(a, follow, {0: Route.REMOTE}))
    assert p.box.placeholder_of("617-555-0199") == "[PHONE_3]"
