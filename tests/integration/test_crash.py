"""Crash consistency: a writer killed with SIGKILL at random moments loses nothing it committed.

A child process (``crash_writer.py``) writes conversations, messages, privacy
boxes and ledger rows to a real SQLCipher vault as fast as it can, reporting
each write before it starts and once it has committed; this test kills it at
a random moment (while it opens the vault, in a transaction, between two) at
least 20 times, continuing the same vault each time. After every kill the
vault must open, pass ``PRAGMA integrity_check`` and SQLCipher's own page
check, hold every write reported committed, hold the write that was under way
either whole or not at all, and nothing else (no message without its
conversation, no half-deleted conversation).

The same for the settings file: a writer saving settings over and over is
killed at random; the file must always read back as one whole version that
was written (the save is a write to a temporary file and an atomic rename).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from core.settings import Settings
from core.store import Store

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL"),
]

ROOT = Path(__file__).resolve().parents[2]
WRITER = Path(__file__).with_name("crash_writer.py")
PASSPHRASE = "crash test passphrase"
KILLS = 24


def run_and_kill(kind: str, path: Path, run: int, rng: random.Random) -> list[dict[str, Any]]:
    """Start a writer, kill it at a random moment, return the events it reported in full."""
    proc = subprocess.Popen(
        [sys.executable, str(WRITER), kind, str(path), str(run), str(rng.randrange(10**9))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
    )
    lines: list[str] = []
    ready = threading.Event()

    def drain() -> None:
        # Read all along: a writer blocked on a full pipe would be killed
        # while waiting to print, never while writing.
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if line.startswith('{"ready"'):
                ready.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    assert proc.stdin is not None
    proc.stdin.write(PASSPHRASE + "\n")
    proc.stdin.flush()
    if rng.random() < 0.2:
        # Sometimes while it opens the vault (recovery of the last crash included).
        time.sleep(rng.uniform(0.0, 0.6))
    else:
        assert ready.wait(60), "the writer did not start"
        time.sleep(rng.uniform(0.01, 0.35))
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    reader.join(timeout=30)
    # A line cut by the kill was never reported whole.
    return [json.loads(line) for line in lines if line.endswith("\n")]


class Model:
    """What the vault must hold, from the writers' reports."""

    def __init__(self) -> None:
        self.convs: dict[int, str] = {}  # id -> title
        self.messages: dict[int, tuple[int, str]] = {}  # id -> (conversation, content)
        self.boxes: dict[int, Any] = {}  # conversation -> data
        self.ledger: dict[int, Any] = {}  # id -> payload
        self.responses: dict[int, str] = {}  # ledger id -> response
        self.committed = 0

    def apply(self, ev: dict[str, Any]) -> None:
        kind = ev["done"]
        self.committed += 1
        if kind == "conv":
            self.convs[ev["id"]] = f"conversation {ev['tag']}"
        elif kind == "msg":
            self.messages[ev["id"]] = (ev["conv"], ev["content"])
        elif kind == "box":
            self.boxes[ev["conv"]] = ev["data"]
        elif kind == "ledger":
            self.ledger[ev["id"]] = ev["payload"]
        elif kind == "finish":
            self.responses[ev["id"]] = ev["response"]
        elif kind == "delete":
            self.drop(ev["conv"])

    def drop(self, conv: int) -> None:
        self.convs.pop(conv, None)
        self.boxes.pop(conv, None)
        self.messages = {k: v for k, v in self.messages.items() if v[0] != conv}

    def settle(self, pending: dict[str, Any] | None, db: dict[str, Any]) -> None:
        """The write under way at the kill: whole in the vault, or not at all."""
        if pending is None:
            return
        kind, tag = pending["do"], pending["tag"]
        if kind == "conv":
            found = [i for i, t in db["convs"].items() if t == f"conversation {tag}"]
            assert len(found) <= 1
            if found:
                self.convs[found[0]] = f"conversation {tag}"
        elif kind == "msg":
            found = [i for i, m in db["messages"].items() if m == (pending["conv"], pending["content"])]
            assert len(found) <= 1
            if found:
                self.messages[found[0]] = (pending["conv"], pending["content"])
        elif kind == "box":
            if db["boxes"].get(pending["conv"]) == pending["data"]:
                self.boxes[pending["conv"]] = pending["data"]
        elif kind == "ledger":
            found = [i for i, p in db["ledger"].items() if p == pending["payload"] and i not in self.ledger]
            assert len(found) <= 1
            if found:
                self.ledger[found[0]] = pending["payload"]
        elif kind == "finish":
            if db["responses"].get(pending["id"]) == pending["response"]:
                self.responses[pending["id"]] = pending["response"]
        elif kind == "delete" and pending["conv"] not in db["convs"]:
            self.drop(pending["conv"])


def read_vault(path: Path) -> dict[str, Any]:
    """Open the vault as a person would, check it, and read everything in it."""
    with Store.open(path, PASSPHRASE) as store:
        db = store.db
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert db.execute("PRAGMA cipher_integrity_check").fetchall() == []
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        convs = {int(r["id"]): (r["title"], r["updated"]) for r in store.conversations()}
        messages: dict[int, tuple[int, str]] = {}
        for conv, (_title, updated) in convs.items():
            rows = store.messages(conv)
            for m in rows:
                messages[int(m["id"])] = (conv, m["content"])
                assert m["cloud_content"] == "cloud " + m["content"].split(" ")[1]
            # add_message writes the message and the conversation's time together.
            if rows:
                assert updated >= max(m["created"] for m in rows)
        # Nothing belongs to a conversation that is gone.
        orphans = db.execute(
            "SELECT count(*) FROM messages WHERE conversation_id NOT IN (SELECT id FROM conversations)"
        ).fetchone()[0]
        orphan_boxes = db.execute(
            "SELECT count(*) FROM boxes WHERE conversation_id NOT IN (SELECT id FROM conversations)"
        ).fetchone()[0]
        assert (orphans, orphan_boxes) == (0, 0)
        rows = store.ledger()
        return {
            "convs": {i: t for i, (t, _u) in convs.items()},
            "messages": messages,
            "boxes": store.boxes(),
            "ledger": {int(r["id"]): r["payload"] for r in rows},
            "responses": {int(r["id"]): r["response"] for r in rows if r["response"] is not None},
        }


def test_a_vault_killed_at_random_moments_keeps_every_committed_write(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    rng = random.Random(14)
    model = Model()
    started = time.monotonic()
    in_transaction_kills = 0
    for run in range(KILLS):
        events = run_and_kill("vault", path, run, rng)
        pending: dict[str, Any] | None = None
        for ev in events:
            if "done" in ev:
                model.apply(ev)
                pending = None
            elif "do" in ev:
                pending = ev
        in_transaction_kills += pending is not None
        if not path.exists():
            assert model.committed == 0  # killed before the vault was made
            continue
        db = read_vault(path)
        model.settle(pending, db)
        assert db["convs"] == model.convs
        assert db["messages"] == model.messages
        assert db["boxes"] == model.boxes
        assert db["ledger"] == model.ledger
        assert db["responses"] == model.responses
    # The kills did land while writing, and the writes were many.
    assert in_transaction_kills >= KILLS // 2, in_transaction_kills
    assert model.committed > 10 * KILLS, model.committed
    assert time.monotonic() - started < 120


def test_settings_killed_while_saving_always_read_back_whole(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    rng = random.Random(15)
    written: dict[str, int] = {}  # tag -> number of allow-list entries
    mid_save = 0
    for run in range(KILLS):
        events = run_and_kill("settings", path, run, rng)
        last_done = None
        pending = None
        for ev in events:
            if "done" in ev:
                written[ev["tag"]] = ev["n"]
                last_done, pending = ev, None
            elif "do" in ev:
                pending = ev
        mid_save += pending is not None
        if not path.exists():
            assert not written
            continue
        # Never a half-written file: it parses, and is one whole version.
        data = json.loads(path.read_text("utf-8"))
        loaded = Settings.load(path)
        assert not path.with_suffix(".json.bad").exists()
        tag = loaded.allow_list[0].rsplit("-", 2)[0]
        expected = {last_done["tag"]} if last_done else set()
        if pending is not None:
            expected.add(pending["tag"])
            written.setdefault(pending["tag"], pending["n"])
        if last_done is None and pending is None:
            expected = set(written)  # killed before it saved anything this time
        assert tag in expected or (last_done is None and tag in written)
        assert len(data["allow_list"]) == written[tag]
    assert mid_save >= KILLS // 2, mid_save
