"""Handing a proxied request to the person for approval, and waiting for the answer.

A request that needs approval (the policy ``always``, or ``when_entities``
with private values in it) becomes a :class:`PendingApproval`. An approver
(the desktop window, when it runs the proxy) is attached to the
:class:`ApprovalBroker`; it shows the request like any other approval, with
the calling app's name, and calls :meth:`PendingApproval.resolve`. With no
approver attached the request cannot be approved: it fails at once with
:class:`ApprovalUnavailable`. A request waits at most the settings' timeout,
and is withdrawn (the window closes its view) when the client goes away.

The approval binds bytes: the approver resolves with the prepared turn it
showed last (the one the person's toggles made, through :meth:`PendingApproval.revise`)
and an :class:`~core.turn.Approval` of that turn's digest; the turn and the
egress guard refuse to send a payload whose digest differs
(:class:`~core.errors.PayloadChanged`).
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from core.errors import ApprovalDeclined, Cancelled, SottovoceError
from core.turn import Approval, ApprovalRequest, Decision, PreparedTurn

log = logging.getLogger(__name__)


class ApprovalUnavailable(SottovoceError):
    """The request needs the person's approval and no window is there to ask; nothing was sent."""

    def __init__(self, policy: str) -> None:
        super().__init__(
            f"Not sent: the approval policy ({policy}) asks the person to approve this request, "
            "and no Sottovoce window is running the proxy to ask them.",
            hint="run the proxy from the window (Privacy > Serve other apps), or change "
            "'Ask before sending' in the settings",
        )


class ApprovalTimedOut(SottovoceError):
    """Nobody approved the request in time; nothing was sent."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            f"Not sent: the request waited {seconds:g} s for approval in the Sottovoce window.",
            hint="approve it in the window, or raise the proxy's approval timeout in the settings",
        )


@dataclass(eq=False)
class PendingApproval:
    """One proxied request waiting for the person.

    ``prepared`` is the turn the window shows first; :meth:`revise` rebuilds
    it with values the person chose to send in clear (so the object can stand
    in for the assistant in the approval view's preview).
    """

    client: str
    prepared: PreparedTurn
    reviser: Callable[[PreparedTurn, Iterable[str]], PreparedTurn] = field(repr=False)
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    created: float = field(default_factory=time.monotonic)
    approval: Approval | None = None
    #: The turn the person approved (the one shown last); None until resolved.
    approved: PreparedTurn | None = None
    withdrawn: bool = False
    _done: threading.Event = field(default_factory=threading.Event, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _on_withdrawn: list[Callable[[], None]] = field(default_factory=list, repr=False)

    @property
    def request(self) -> ApprovalRequest:
        assert self.prepared.request is not None
        return self.prepared.request

    def revise(self, prepared: PreparedTurn, send_in_clear: Iterable[str]) -> PreparedTurn:
        """The payload with values sent in clear (for the preview; see ``Assistant.revise``)."""
        return self.reviser(prepared, send_in_clear)

    def resolve(self, approval: Approval, shown: PreparedTurn | None = None) -> bool:
        """The person's answer about ``shown``, the turn they saw last (None: the
        first one). False if the request was withdrawn or already answered."""
        with self._lock:
            if self.withdrawn or self._done.is_set():
                return False
            self.approval = approval
            self.approved = shown if shown is not None else self.prepared
            self._done.set()
        return True

    def withdraw(self) -> None:
        """The client stopped waiting (timeout, disconnect): the approver drops the request."""
        with self._lock:
            if self._done.is_set() or self.withdrawn:
                return
            self.withdrawn = True
            callbacks = list(self._on_withdrawn)
        for cb in callbacks:
            try:
                cb()
            except Exception:  # an approver's failure must not hide the withdrawal
                log.exception("approval withdrawal callback failed")

    def on_withdrawn(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (on the proxy's thread) if the request is withdrawn."""
        with self._lock:
            if not self.withdrawn:
                self._on_withdrawn.append(callback)
                return
        callback()

    def wait(self, timeout: float) -> bool:
        return self._done.wait(timeout)


Approver = Callable[[PendingApproval], None]


class ApprovalBroker:
    """Where proxied requests wait for the person; the window attaches itself as the approver."""

    POLL_S = 0.05

    def __init__(self) -> None:
        self._approver: Approver | None = None
        self._pending: dict[str, PendingApproval] = {}
        self._lock = threading.Lock()

    @property
    def attached(self) -> bool:
        return self._approver is not None

    def attach(self, approver: Approver) -> None:
        """Show each new pending request through ``approver`` (called on a proxy thread)."""
        with self._lock:
            self._approver = approver

    def detach(self) -> None:
        """No approver any more: requests waiting now are withdrawn and fail."""
        with self._lock:
            self._approver = None
            waiting = list(self._pending.values())
        for p in waiting:
            p.withdraw()

    def pending(self) -> list[PendingApproval]:
        with self._lock:
            return list(self._pending.values())

    def ask(
        self,
        pending: PendingApproval,
        *,
        policy: str,
        timeout: float,
        cancel: threading.Event | None = None,
    ) -> Approval:
        """Wait for the person's answer; raises when declined, timed out, cancelled or unattended."""
        with self._lock:
            approver = self._approver
            if approver is not None:
                self._pending[pending.id] = pending
        if approver is None:
            raise ApprovalUnavailable(policy)
        try:
            approver(pending)
            deadline = time.monotonic() + timeout
            while not pending.wait(self.POLL_S):
                if pending.withdrawn:
                    raise ApprovalDeclined()
                if cancel is not None and cancel.is_set():
                    pending.withdraw()
                    raise Cancelled()
                if time.monotonic() >= deadline:
                    pending.withdraw()
                    raise ApprovalTimedOut(timeout)
        finally:
            with self._lock:
                self._pending.pop(pending.id, None)
        approval = pending.approval
        if approval is None or approval.decision is not Decision.SEND:
            raise ApprovalDeclined()
        return approval
