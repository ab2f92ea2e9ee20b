"""Recognising a conversation from the history an OpenAI client resends.

OpenAI clients are stateless: every request carries the whole conversation
so far. The proxy keeps each conversation in the store (its privacy box, its
anonymized cloud side) and finds it again from that history: after each
turn it records a digest of the conversation as the client now sees it (the
client's messages and the answer it received), and a later request whose
history has that digest continues the same conversation, with the same
placeholders. The digests chain message by message, so the longest known
prefix of any history is found in one pass; whitespace is collapsed first,
since clients trim what they store.

A client may instead name its conversation with the ``X-Sottovoce-Conversation``
header; the key is then enough, whatever history it sends.

The digests are kept with their conversation in the encrypted store (the
``proxy`` entry of the conversation's settings), so a restarted proxy still
recognises its conversations.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from core.errors import SottovoceError
from core.proxy.protocol import ProxyMessage
from core.store import Store

log = logging.getLogger(__name__)

#: The store's conversation kind for conversations that came through the proxy.
PROXY_KIND = "proxy"
_ENTRY = "proxy"


def step_digest(previous: str, role: str, content: str) -> str:
    """The digest of a conversation state: the state before, plus one message."""
    text = " ".join(content.split())
    data = f"{previous}\x1e{role}\x1f{text}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()


def chain(messages: Sequence[ProxyMessage], start: str = "") -> list[str]:
    """The digest of the state after each message (``out[j - 1]`` covers ``messages[:j]``)."""
    out: list[str] = []
    h = start
    for m in messages:
        h = step_digest(h, m.role, m.content)
        out.append(h)
    return out


@dataclass(frozen=True)
class KnownState:
    """A prefix of a client's history that the proxy has seen end in a stored message."""

    conversation_id: int
    message_id: int  # the stored message that ends this state
    created: str  # that message's creation time: SQLite reuses the ids of deleted rows
    length: int  # how many of the client's messages the state covers
    digest: str

    def holds(self, message: dict[str, Any]) -> bool:
        """True when ``message`` (a stored row) is the one this state ends in."""
        return int(message["id"]) == self.message_id and str(message["created"]) == self.created


class ConversationIndex:
    """Digests of conversation states and client keys, mapped to stored conversations.

    Thread-safe. :meth:`lock` gives one lock per conversation: the service
    holds it for a whole turn, so two requests never interleave in one box.
    """

    def __init__(self, store: Store, *, max_states: int = 256) -> None:
        self.store = store
        self.max_states = max_states
        self._states: dict[str, tuple[int, int, str]] = {}
        self._keys: dict[str, int] = {}
        self._locks: dict[int, threading.Lock] = {}
        self._lock = threading.Lock()
        self._load()

    def _load(self) -> None:
        for conv in self.store.conversations():
            entry = _settings(conv).get(_ENTRY)
            if not isinstance(entry, dict):
                continue
            cid = int(conv["id"])
            for digest, where in (entry.get("states") or {}).items():
                if isinstance(where, list) and len(where) == 2:
                    self._states[str(digest)] = (cid, int(where[0]), str(where[1]))
            if entry.get("key"):
                self._keys[str(entry["key"])] = cid

    # --- lookups ------------------------------------------------------------

    def lock(self, conversation_id: int) -> threading.Lock:
        """The lock of one conversation (a turn holds it from lookup to save)."""
        with self._lock:
            return self._locks.setdefault(conversation_id, threading.Lock())

    def longest_known(
        self, digests: Sequence[str], conversation_id: int | None = None
    ) -> KnownState | None:
        """The longest prefix of a history whose state is known (in one conversation, if given)."""
        with self._lock:
            for j in range(len(digests), 0, -1):
                hit = self._states.get(digests[j - 1])
                if hit is not None and conversation_id in (None, hit[0]):
                    return KnownState(hit[0], hit[1], hit[2], j, digests[j - 1])
        return None

    def by_key(self, key: str) -> int | None:
        """The conversation a client named ``key`` (checked in the store: ids of deleted
        conversations are reused)."""
        with self._lock:
            conv = self._keys.get(key)
        if conv is None:
            return None
        try:
            entry = _settings(self.store.conversation(conv)).get(_ENTRY)
        except SottovoceError:
            entry = None
        if isinstance(entry, dict) and entry.get("key") == key:
            return conv
        with self._lock:
            self._keys.pop(key, None)
        return None

    def forget(self, state: KnownState) -> None:
        """Drop a state whose conversation or message no longer exists (deleted in the window)."""
        with self._lock:
            self._states.pop(state.digest, None)

    # --- changes ------------------------------------------------------------

    def new_conversation(
        self, title: str, client: str, key: str | None = None, *, inherit: int | None = None
    ) -> int:
        """A new stored conversation for ``client`` (under ``key`` when the client named it).

        ``inherit`` copies another conversation's settings (a branch keeps
        "always approve in this conversation").
        """
        conv = self.store.new_conversation(title[:80] or "Proxied conversation", kind=PROXY_KIND)
        inherited: dict[str, Any] = {}
        if inherit is not None:
            inherited = {
                k: v
                for k, v in _settings(self.store.conversation(inherit)).items()
                if k != _ENTRY
            }

        def fill(db: Any, data: dict[str, Any]) -> None:
            data.update(inherited)
            data[_ENTRY] = {"client": client, "key": key, "states": {}}

        # Without a key or inherited settings the entry is written with the first
        # state (:meth:`record`): one write less per new conversation.
        if key or inherited:
            self._change(conv, fill)
        if key:
            with self._lock:
                self._keys[key] = conv
        return conv

    def record(
        self, conversation_id: int, digest: str, message_id: int, client: str | None = None
    ) -> None:
        """The client's view of the conversation now ends in ``message_id``."""
        created: list[str] = []

        def add(db: Any, data: dict[str, Any]) -> None:
            row = db.execute(
                "SELECT created FROM messages WHERE id = ? AND conversation_id = ?",
                [message_id, conversation_id],
            ).fetchone()
            if row is None:
                return
            created.append(str(row[0]))
            entry = data.get(_ENTRY)
            entry = dict(entry) if isinstance(entry, dict) else {"key": None}
            if client is not None:
                entry.setdefault("client", client)
            states = dict(entry.get("states") or {})
            states.pop(digest, None)
            states[digest] = [message_id, created[0]]
            # Oldest first: old branches are forgotten before the live one.
            while len(states) > self.max_states:
                states.pop(next(iter(states)))
            entry["states"] = states
            data[_ENTRY] = entry

        self._change(conversation_id, add)
        if created:
            with self._lock:
                self._states[digest] = (conversation_id, message_id, created[0])

    def _change(self, conversation_id: int, change: Callable[[Any, dict[str, Any]], None]) -> None:
        # The store's transaction serializes this read-modify-write with every other writer.
        with self.store.transaction() as db:
            row = db.execute(
                "SELECT settings FROM conversations WHERE id = ?", [conversation_id]
            ).fetchone()
            if row is None:
                return
            data = _loads(row[0])
            change(db, data)
            db.execute(
                "UPDATE conversations SET settings = ? WHERE id = ?",
                [json.dumps(data), conversation_id],
            )


def _loads(text: Any) -> dict[str, Any]:
    try:
        data = json.loads(text or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _settings(conv: dict[str, Any]) -> dict[str, Any]:
    return _loads(conv.get("settings"))
