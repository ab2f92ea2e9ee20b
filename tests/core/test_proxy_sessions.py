"""Recognising a proxied conversation from its history: digests and the index."""

from __future__ import annotations

from core.proxy import ProxyMessage
from core.proxy.sessions import PROXY_KIND, ConversationIndex, chain, step_digest
from core.store import Store

U1 = ProxyMessage("user", "My phone is 215-555-4078.")
A1 = ProxyMessage("assistant", "Noted.\n\nAnything else?")


def test_digests_chain_message_by_message() -> None:
    digests = chain([U1, A1])
    assert digests[0] == step_digest("", "user", U1.content)
    assert digests[1] == step_digest(digests[0], "assistant", A1.content)


def test_whitespace_does_not_matter_but_text_and_roles_do() -> None:
    base = chain([U1, A1])[-1]
    assert chain([U1, ProxyMessage("assistant", "  Noted. Anything   else?\n")])[-1] == base
    assert chain([U1, ProxyMessage("assistant", "Noted. Anything else!")])[-1] != base
    assert chain([U1, ProxyMessage("user", A1.content)])[-1] != base
    assert chain([A1, U1])[-1] != chain([U1, A1])[-1]


def test_the_longest_known_prefix_wins(store: Store) -> None:
    index = ConversationIndex(store)
    conv = index.new_conversation("t", "app")
    mid = store.add_message(conv, "user", U1.content)
    aid = store.add_message(conv, "assistant", A1.content)
    digests = chain([U1, A1, ProxyMessage("user", "more"), ProxyMessage("assistant", "ok")])
    index.record(conv, digests[0], mid)
    index.record(conv, digests[1], aid)
    known = index.longest_known(digests)
    assert known is not None and (known.conversation_id, known.message_id, known.length) == (conv, aid, 2)
    assert known.holds(store.messages(conv)[-1]) and not known.holds(store.messages(conv)[0])
    assert index.longest_known(digests, conversation_id=conv + 1) is None
    assert index.longest_known(chain([ProxyMessage("user", "other")])) is None


def test_the_index_survives_a_restart_and_keeps_other_settings(store: Store) -> None:
    index = ConversationIndex(store)
    conv = index.new_conversation("t", "app", key="k1")
    aid = store.add_message(conv, "assistant", "x")
    index.record(conv, "d" * 64, aid)
    index.record(conv, "e" * 64, aid + 99)  # not a message of this conversation: ignored
    assert store.conversation(conv)["kind"] == PROXY_KIND
    assert again_none(store)
    again = ConversationIndex(store)
    assert again.by_key("k1") == conv
    known = again.longest_known(["d" * 64])
    assert known is not None and known.message_id == aid
    # A branch inherits the conversation's own settings, not its states.
    import json

    with store.transaction() as db:
        data = json.loads(store.conversation(conv)["settings"])
        data["always_approve"] = True
        db.execute("UPDATE conversations SET settings = ? WHERE id = ?", [json.dumps(data), conv])
    fork = again.new_conversation("t", "app", inherit=conv)
    data = json.loads(store.conversation(fork)["settings"])
    assert data["always_approve"] is True and data["proxy"]["states"] == {}


def again_none(store: Store) -> bool:
    return ConversationIndex(store).longest_known(["e" * 64]) is None


def test_old_states_are_dropped_beyond_the_limit(store: Store) -> None:
    index = ConversationIndex(store, max_states=3)
    conv = index.new_conversation("t", "app")
    ids = [store.add_message(conv, "user", str(i)) for i in range(5)]
    for i, mid in enumerate(ids):
        index.record(conv, f"{i:064d}", mid)
    import json

    states = json.loads(store.conversation(conv)["settings"])["proxy"]["states"]
    assert [v[0] for v in states.values()] == ids[2:]


def test_a_key_whose_conversation_was_deleted_is_forgotten(store: Store) -> None:
    index = ConversationIndex(store)
    conv = index.new_conversation("t", "app", key="k")
    store.delete_conversation(conv)
    other = store.new_conversation("window chat")  # may get the same id back
    assert index.by_key("k") is None
    assert store.conversation(other)["kind"] == "chat"
