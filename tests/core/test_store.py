from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from core.errors import StoreBusyError, StoreError, VaultLockedError, WrongKeyError
from core.store import SCHEMA_VERSION, KeyInfo, Store

ROOT = Path(__file__).resolve().parents[2]
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


def _other_program_sqlcipher(path: Path) -> None:
    """An encrypted database of another program: right format, a key we do not have."""
    from sqlcipher3 import dbapi2 as sqlcipher

    conn = sqlcipher.connect(str(path))
    conn.execute("PRAGMA key = 'another program'")
    conn.execute("CREATE TABLE t (x)")
    conn.executemany("INSERT INTO t VALUES (?)", [("y" * 200,)] * 50)
    conn.commit()
    conn.close()


@pytest.mark.parametrize(
    ("kind", "error", "message"),
    [
        ("wrong-passphrase", WrongKeyError, "wrong passphrase or key"),
        ("foreign", WrongKeyError, "is a PDF document, not a Sottovoce store"),
        ("zip", WrongKeyError, "is a ZIP archive"),
        ("text", WrongKeyError, "is a text file, not a Sottovoce store"),
        ("empty", WrongKeyError, "is empty; it is not a Sottovoce store"),
        ("plain-sqlite", WrongKeyError, "is an unencrypted SQLite database"),
        ("other-sqlcipher", WrongKeyError, "wrong passphrase or key, or not a Sottovoce store"),
        ("truncated", StoreError, "was cut short"),
        ("truncated-pages", StoreError, "is damaged"),
    ],
)
def test_foreign_or_damaged_file_is_refused_with_one_clear_message_untouched(
    tmp_path: Path, kind: str, error: type[Exception], message: str
) -> None:
    path = tmp_path / "s.db"
    with Store.create(path, "pw") as store:
        fill(store)
        conv = store.new_conversation("more")
        for _ in range(40):  # a few pages, so that half of them can go missing
            store.add_message(conv, "user", "a longer message " * 40)
    passphrase = "pw"
    if kind == "wrong-passphrase":
        passphrase = "not the passphrase"
    elif kind == "foreign":
        path.write_bytes(b"%PDF-1.7 not a database at all" * 100)
    elif kind == "zip":
        path.write_bytes(b"PK\x03\x04" + bytes(range(256)) * 16)
    elif kind == "text":
        path.write_text("These are my notes, not a database.\n" * 200, "utf-8")
    elif kind == "truncated":
        path.write_bytes(path.read_bytes()[:1000])
    elif kind == "truncated-pages":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2 // 4096 * 4096])
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "other-sqlcipher":
        path.unlink()
        _other_program_sqlcipher(path)
    else:
        import sqlite3

        path.unlink()
        sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
    before = {p.name: digest(p) for p in tmp_path.iterdir()}
    with pytest.raises(StoreError) as caught:
        Store.open(path, passphrase)
    assert type(caught.value) is error
    assert message in caught.value.message
    assert "\n" not in str(caught.value)  # one line, for a person
    # Byte-identical, and nothing added beside it (no journal, no temporary file).
    assert {p.name: digest(p) for p in tmp_path.iterdir()} == before


def test_a_wrong_key_in_the_keyring_is_refused_untouched(tmp_path: Path, hermetic) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "k.db"
    with Store.create(path) as store:
        fill(store)
    (entry,) = hermetic.items
    hermetic.items[entry] = "00" * 32
    before = digest(path)
    with pytest.raises(WrongKeyError, match="wrong passphrase or key"):
        Store.open(path)
    assert digest(path) == before


def test_opening_and_reading_leave_the_store_byte_identical(tmp_path: Path) -> None:
    """A store at the current schema is only read when opened: nothing is written."""
    path = tmp_path / "s.db"
    with Store.create(path, "pw") as store:
        fill(store)
    before = {p.name: digest(p) for p in tmp_path.iterdir()}
    with Store.open(path, "pw") as store:
        conv = store.conversations()[0]["id"]
        store.messages(conv), store.load_box(conv), store.ledger(), store.boxes()
    assert {p.name: digest(p) for p in tmp_path.iterdir()} == before


# --- permissions ------------------------------------------------------------------------


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
@pytest.mark.parametrize("kind", ["passphrase", "keyring"])
def test_store_files_are_created_owner_only(tmp_path: Path, kind: str) -> None:
    folder = tmp_path / "new" / "data"
    path = folder / "s.db"
    old = os.umask(0o022)  # a usual umask: files would be world-readable by default
    try:
        store = Store.create(path, "pw" if kind == "passphrase" else None)
    finally:
        os.umask(old)
    try:
        assert _mode(path) == 0o600
        assert _mode(KeyInfo.path_for(path)) == 0o600
        assert _mode(folder) == 0o700
        # The write-ahead log and its index get the same mode.
        store.new_conversation("t")
        for suffix in ("-wal", "-shm"):
            assert _mode(path.with_name(path.name + suffix)) == 0o600
    finally:
        store.close()
    assert sorted(p.name for p in folder.iterdir()) == ["s.db", "s.db.key.json"]


# --- a full disk --------------------------------------------------------------------------


def test_a_full_store_is_a_clear_error_and_loses_nothing(tmp_path: Path) -> None:
    """SQLite's own "disk is full" (its page limit reached): the change is rolled back."""
    path = tmp_path / "s.db"
    with Store.create(path, "pw") as store:
        fill(store)
    store = Store.open(path, "pw")
    conv = store.conversations()[0]["id"]
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {pages}")
    before = digest(path)
    with pytest.raises(StoreError, match="The disk is full: the last change was not saved"):
        store.add_message(conv, "user", "x" * 50_000)
    assert digest(path) == before
    # Still usable; nothing of the failed write is there.
    assert len(store.messages(conv)) == 1
    store.close()
    assert digest(path) == before
    with Store.open(path, "pw") as again:
        assert len(again.messages(conv)) == 1


_WRITER = """
import json, resource, signal, sys
from pathlib import Path
from core.store import Store
from core.errors import StoreError

path = Path(sys.argv[1])
store = Store.open(path, "pw")
size = path.stat().st_size
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails instead
resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
result = {"error": None}
try:
    store.add_message(1, "user", "x" * 200_000)
except StoreError as exc:
    result["error"] = exc.message
result["messages"] = len(store.messages(1))
store.close()
print(json.dumps(result))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource limits")
def test_a_write_the_disk_refuses_is_a_clear_error_and_loses_nothing(tmp_path: Path) -> None:
    """The operating system refuses to grow the file (a file size limit): rolled back.

    Here the journal could still be written, so SQLite had begun to write
    pages in place before the file could not grow; the rollback puts the same
    content back, re-encrypted (SQLCipher gives every page write a fresh IV),
    so the check is on content and integrity, not on bytes. (On a disk that
    is really full the journal fails first and the bytes stay the same: see
    the tests above and below.)
    """
    path = tmp_path / "s.db"
    with Store.create(path, "pw") as store:
        fill(store)
    out = subprocess.run(
        [sys.executable, "-c", _WRITER, str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["error"] == "s.db could not be written (a disk error): the last change was not saved."
    assert result["messages"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.db", "s.db.key.json"]
    with Store.open(path, "pw") as store:
        assert store.db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert store.db.execute("PRAGMA cipher_integrity_check").fetchall() == []
        assert len(store.messages(1)) == 1 and store.ledger()[0]["payload"] == [{"content": SECRETS[3]}]


_FULL_DISK = """
import hashlib, json, os, sys
from pathlib import Path
from core.store import Store
from core.errors import StoreError

folder = Path(sys.argv[1])
out = {}
# Fill the disk with a store of many messages until a write fails.
path = folder / "s.db"
store = Store.create(path, "pw")
conv = store.new_conversation("t")
before = None
for i in range(10_000):
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    try:
        store.add_message(conv, "user", os.urandom(6_000).hex())
    except StoreError as exc:
        out["write_error"] = exc.message
        out["written"] = i
        break
# The database file, right after the write that failed (the log holds the rest).
out["same"] = hashlib.sha256(path.read_bytes()).hexdigest() == before
out["still_usable"] = len(store.messages(conv))
store.close()
reopened = Store.open(path, "pw")
out["messages"] = len(reopened.messages(conv))
out["integrity"] = reopened.db.execute("PRAGMA integrity_check").fetchall()
reopened.close()
# A new store on the full disk: one message, nothing left half-made.
try:
    Store.create(folder / "second.db", "pw")
except StoreError as exc:
    out["create_error"] = exc.message
out["left"] = sorted(p.name for p in folder.iterdir())
print(json.dumps(out))
"""


@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare for a private tmpfs")
def test_a_really_full_disk_is_a_clear_error_and_loses_nothing(tmp_path: Path) -> None:
    """A 192 KiB tmpfs filled by the store itself (ENOSPC from the kernel)."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    script = tmp_path / "full_disk.py"
    script.write_text(_FULL_DISK, "utf-8")
    cmd = (
        f"mount -t tmpfs -o size=192k tmpfs {shlex.quote(str(folder))} && "
        f"exec {shlex.quote(sys.executable)} {shlex.quote(str(script))} {shlex.quote(str(folder))}"
    )
    run = subprocess.run(
        ["unshare", "-rm", "sh", "-c", cmd], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    if run.returncode != 0 and "mount" in run.stderr + run.stdout and not run.stdout.strip():
        pytest.skip(f"no private tmpfs here: {run.stderr.strip()[:200]}")
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["write_error"].startswith("The disk is full: the last change was not saved")
    assert out["same"] is True
    assert out["still_usable"] == out["messages"] == out["written"]
    assert out["integrity"] == [["ok"]]
    assert out["create_error"].startswith("The disk is full: the store second.db could not be created")
    # Nothing of the store that could not be made (the first one's log stays
    # while the full disk keeps it from being folded into the database).
    assert [f for f in out["left"] if not f.startswith("s.db")] == []
    assert {"s.db", "s.db.key.json"} <= set(out["left"])


# --- the passphrase in the environment ----------------------------------------------------


@pytest.mark.parametrize("exists", [False, True])
def test_the_passphrase_is_taken_out_of_the_environment_once_read(
    monkeypatch: pytest.MonkeyPatch, exists: bool
) -> None:
    from app import vault
    from core import paths

    if exists:
        Store.create(paths.store_file(), "env passphrase").close()
    monkeypatch.setenv(vault.PASSPHRASE_ENV, "env passphrase")
    with vault.open_store() as store:
        assert store.path == paths.store_file()
    assert vault.PASSPHRASE_ENV not in os.environ
    # A process started afterwards does not inherit it.
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.environ.get('SOTTOVOCE_PASSPHRASE'))"],
        capture_output=True, text=True, check=True,
    )
    assert child.stdout.strip() == "None"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/PID/environ")
def test_the_passphrase_is_not_left_in_the_memory_the_process_started_with() -> None:
    """``/proc/PID/environ`` (readable by the same user's processes) no longer shows it."""
    code = (
        "from app.vault import take_env_passphrase\n"
        "assert take_env_passphrase() == 'a passphrase to scrub'\n"
        "print(b'a passphrase to scrub' in open('/proc/self/environ', 'rb').read())\n"
    )
    env = {**os.environ, "SOTTOVOCE_PASSPHRASE": "a passphrase to scrub", "PYTHONPATH": str(ROOT)}
    child = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert child.stdout.strip() == "False"


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
        # With the write-ahead log, reading goes on while another one writes;
        # a write waits for the lock, then is a clear error.
        second = Store.open(path, "pw")
        assert second.conversations()[0]["id"] == conv
        with pytest.raises(StoreBusyError, match="in use"):
            second.add_message(conv, "user", "blocked")
        second.close()
    finally:
        first._conn.execute("ROLLBACK")
    first.add_message(conv, "user", "still works")
    assert [m["content"] for m in first.messages(conv)] == ["still works"]
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


@pytest.mark.parametrize("first", [b"{", b"[", b"<", b"\x1f\x8b"])
def test_a_store_whose_salt_begins_like_text_still_opens(first: bytes) -> None:
    """A store begins with random bytes: one in 85 begins with "{", "[" or "<"."""
    from core.store.files import looks_like_text

    rng = __import__("random").Random(7)
    for _ in range(200):
        head = first + bytes(rng.randrange(256) for _ in range(63))
        assert not looks_like_text(head)
    assert looks_like_text('{"notes": "mine", "city": "Zürich"}'.encode())
    assert looks_like_text("<html><body>Grüße".encode()[:-2])  # "ß" cut in half at the end


def test_a_store_of_the_first_schema_gains_the_ledgers_digest_column(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with Store.create(path, "pw") as store:
        store.add_ledger(endpoint="e", model="m", payload={"x": 1}, purpose="chat")
        # As a store written before the digest existed: no column, schema 1.
        with store.transaction() as db:
            db.execute("ALTER TABLE ledger DROP COLUMN digest")
            db.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    with Store.open(path, "pw") as store:
        assert store.schema_version == SCHEMA_VERSION == 2
        (old,) = store.ledger()
        assert old["digest"] == "" and old["payload"] == {"x": 1}
        lid = store.add_ledger(endpoint="e", model="m", payload={}, purpose="chat", digest="ab12")
        assert store.ledger_entry(lid)["digest"] == "ab12"
