"""The approval hand-off of proxied requests: broker, pending requests, digest binding."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from core.errors import ApprovalDeclined, Cancelled
from core.outbound import payload_digest
from core.proxy import (
    ApprovalBroker,
    ApprovalTimedOut,
    ApprovalUnavailable,
    PendingApproval,
)
from core.turn import Approval, Decision

HANG = 120  # seconds: a timeout that only bounds a hang (the answers come from timers)


def pending() -> PendingApproval:
    # The broker never looks inside the prepared turn; the service and the window do.
    return PendingApproval("app", prepared=object(), reviser=lambda p, a: p)  # type: ignore[arg-type]


def test_without_an_approver_a_request_fails_at_once() -> None:
    with pytest.raises(ApprovalUnavailable, match="no Sottovoce window"):
        ApprovalBroker().ask(pending(), policy="always", timeout=5)


@pytest.mark.parametrize("decision", [Decision.SEND, Decision.CANCEL, Decision.EDIT])
def test_the_approvers_answer_comes_back(decision: Decision) -> None:
    broker = ApprovalBroker()
    seen: list[PendingApproval] = []

    def approver(p: PendingApproval) -> None:
        seen.append(p)
        assert broker.pending() == [p]
        # Answered later, from another thread, as the window does.
        threading.Timer(0.05, lambda: p.resolve(Approval(decision))).start()

    broker.attach(approver)
    p = pending()
    if decision is Decision.SEND:
        assert broker.ask(p, policy="always", timeout=HANG).decision is Decision.SEND
    else:
        with pytest.raises(ApprovalDeclined):
            broker.ask(p, policy="always", timeout=HANG)
    assert seen == [p] and broker.pending() == []


def test_a_request_nobody_answers_times_out_and_is_withdrawn() -> None:
    broker = ApprovalBroker()
    withdrawn: list[str] = []
    broker.attach(lambda p: p.on_withdrawn(lambda: withdrawn.append(p.id)))
    p = pending()
    t0 = time.monotonic()
    with pytest.raises(ApprovalTimedOut):
        broker.ask(p, policy="always", timeout=0.2)
    assert time.monotonic() - t0 >= 0.2  # not before its time (how much later depends on the load)
    assert withdrawn == [p.id] and p.withdrawn
    assert not p.resolve(Approval(Decision.SEND))  # a late answer changes nothing


def test_a_client_that_leaves_withdraws_its_request() -> None:
    broker = ApprovalBroker()
    broker.attach(lambda p: None)
    cancel = threading.Event()
    threading.Timer(0.05, cancel.set).start()
    p = pending()
    with pytest.raises(Cancelled):
        broker.ask(p, policy="always", timeout=HANG, cancel=cancel)
    assert p.withdrawn


def test_detaching_withdraws_what_waits() -> None:
    broker = ApprovalBroker()
    # The window closes once the request waits in it (a timer started before the
    # request could fire first on a busy machine: then nobody is there to ask).
    broker.attach(lambda p: threading.Thread(target=broker.detach).start())
    p = pending()
    with pytest.raises(ApprovalDeclined):
        broker.ask(p, policy="always", timeout=HANG)
    assert p.withdrawn and not broker.attached


def test_the_digest_binds_roles_contents_and_order() -> None:
    a: list[dict[str, Any]] = [{"role": "system", "content": "s"}, {"role": "user", "content": "[PERSON_1] hi"}]
    assert payload_digest(a) == payload_digest([dict(m) for m in a])
    assert payload_digest(a) != payload_digest([a[0], {"role": "user", "content": "Anna hi"}])
    assert payload_digest(a) != payload_digest(list(reversed(a)))
    assert payload_digest(a) != payload_digest([{"role": "user", "content": "s"}, a[1]])


def test_the_turn_shown_last_is_the_one_approved() -> None:
    p = pending()
    shown = object()
    assert p.resolve(Approval(Decision.SEND, "d"), shown) and p.approved is shown  # type: ignore[arg-type]
    assert not p.resolve(Approval(Decision.SEND, "e"))  # one answer per request
    q = pending()
    assert q.resolve(Approval(Decision.SEND, "d")) and q.approved is q.prepared
