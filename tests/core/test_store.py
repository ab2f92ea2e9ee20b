from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from core.errors import StoreBusyError, StoreError, VaultLockedError, WrongKeyError
from core.store import SCHEMA_VERSION, KeyInfo, Store

SECRETS = ["Marguerite Okafor", "KDH-774219", "412-555-0196", "harold.brennan.jr@example.com"]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fill(store: Store) -> None:
    conv = store.new_conversation("Visit with Marguerite Okafor")
    store.add_message(conv, "user", f"{SECRETS[0]} MRN {SECRETS[1]}", cloud_content="[PERSON_1] MRN [MRN_1]")
    store.save_box(conv, {"entries": [{"placeholder": "[PHONE_1]", "value": SECRETS[2]}]})
    store.add_ledger(endpoint="http://x", model="m", payload=[{"content": SECRETS[3]}], purpose="chat")


def test_passphrase_store_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with Store.create(path, "correct horse") as store:
        fill(store)
        assert store.schema_version == SCHEMA_VERSION
    with Store.open(path, "correct horse") as store:
        conv = store.conversations()[0]
        assert conv["title"].endswith("Okafor")
        assert store.messages(conv["id"])[0]["content"].startswith(SECRETS[0])
        assert store.ledger()[0]["payload"] == [{"content": SECRETS[3]}]


def test_keyring_store_round_trip(tmp_path: Path, hermetic) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "k.db"
    with Store.create(path) as store:
        fill(store)
    assert KeyInfo.read(path) == KeyInfo("keyring")
    assert len(hermetic.items) == 1  # the key went to the (test) keyring only
    with Store.open(path) as store:
        assert len(store.conversations()) == 1


def test_file_at_rest_holds_no_plaintext(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with Store.create(path, "pw") as store:
        fill(store)
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    for value in [*SECRETS, "Visit with", "schema_version", "CREATE TABLE"]:
        assert value.encode() not in raw
        assert value.lower().encode() not in raw.lower()


def test_wrong_passphrase_is_clear_and_leaves_file_untouched(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with Store.create(path, "right") as store:
        fill(store)
    before = digest(path)
    with pytest.raises(WrongKeyError, match="wrong passphrase"):
        Store.open(path, "wrong")
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.db", "s.db.key.json"]


@pytest.mark.parametrize("kind", ["foreign", "truncated", "empty", "plain-sqlite"])
def test_foreign_or_damaged_file_is_refused_untouched(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "s.db"
    with Store.create(path, "pw") as store:
        fill(store)
    if kind == "foreign":
        path.write_bytes(b"%PDF-1.7 not a database at all" * 100)
    elif kind == "truncated":
        path.write_bytes(path.read_bytes()[:1000])
    elif kind == "empty":
        path.write_bytes(b"")
    else:
        import sqlite3

        path.unlink()
        sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
    before = digest(path)
    with pytest.raises(WrongKeyError):
        Store.open(path, "pw")
    assert digest(path) == before


def test_missing_key_description_and_directory(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="directory"):
        Store.open(tmp_path, "pw")
    (tmp_path / "x.db").write_bytes(b"x")
    with pytest.raises(WrongKeyError, match="not a Sottovoce store"):
        Store.open(tmp_path / "x.db", "pw")


def test_passphrase_required(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    Store.create(path, "pw").close()
    with pytest.raises(VaultLockedError):
        Store.open(path)


def test_locked_by_another_process_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    first = Store.create(path, "pw")
    conv = first.new_conversation("t")
    first._conn.execute("BEGIN EXCLUSIVE")  # what another process's write looks like
    try:
        with pytest.raises(StoreBusyError, match="in use"):
            Store.open(path, "pw")
    finally:
        first._conn.execute("ROLLBACK")
    first.add_message(conv, "user", "still works")
    first.close()


def test_messages_ledger_and_deletion(tmp_path: Path) -> None:
    with Store.create(tmp_path / "s.db", "pw") as store:
        conv = store.new_conversation("c")
        m1 = store.add_message(conv, "user", "a")
        store.add_message(conv, "assistant", "b")
        store.delete_messages_from(conv, m1)
        assert store.messages(conv) == []
        lid = store.add_ledger(endpoint="e", model="m", payload={"x": 1}, purpose="chat", conversation_id=conv)
        store.finish_ledger(lid, status="ok", response="r", prompt_tokens=3, completion_tokens=4)
        row = store.ledger_entry(lid)
        assert (row["status"], row["prompt_tokens"], row["response"]) == ("ok", 3, "r")
        store.add_disclosed(conv, 2)
        assert store.conversation(conv)["disclosed"] == 2
        store.delete_conversation(conv)
        assert store.conversations() == []
