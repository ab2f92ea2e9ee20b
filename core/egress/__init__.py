"""The egress guard: the one door between this machine and a remote model.

- :mod:`core.egress.guard`: :class:`EgressGuard`, which checks every payload
  for the privacy box's values and what the detector finds, records it in the
  ledger, and sends it once;
- :mod:`core.egress.stream`: :class:`GuardedStream`, a streamed answer that
  completes its ledger row however it ends;
- :mod:`core.egress.ledger`: the :class:`Ledger` protocol and :class:`MemoryLedger`.

The matching of box values lives in :mod:`core.outbound`.
"""

from __future__ import annotations

from core.egress.guard import CloudTransport, EgressGuard, Sending, SpanFinder
from core.egress.ledger import Ledger, MemoryLedger
from core.egress.stream import GuardedStream

__all__ = [
    "CloudTransport",
    "EgressGuard",
    "GuardedStream",
    "Ledger",
    "MemoryLedger",
    "Sending",
    "SpanFinder",
]
