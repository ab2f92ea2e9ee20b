"""The digest that binds a person's approval to the exact bytes that leave.

The turn computes it over the payload the person was shown; the egress guard
computes it again over what it is about to send and refuses on any difference.
The ledger records it, so an entry can be matched to the approval it had.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence


def payload_digest(messages: Sequence[Mapping[str, str]]) -> str:
    """SHA-256 of the messages' roles and contents, in order (hex)."""
    canonical = json.dumps(
        [[m["role"], m["content"]] for m in messages], ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()
