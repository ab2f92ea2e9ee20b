"""Crash consistency: a writer killed with SIGKILL at random moments loses nothing it committed.

A child process (``crash_writer.py``) writes conversations, messages, privacy
boxes and ledger rows to a real SQLCipher vault as fast as it can, reporting
each write before it starts and once it has committed; it is killed at least
20 times, continuing the same vault each time. After every kill the vault must
open, pass ``PRAGMA integrity_check`` and SQLCipher's own page check, hold
every write reported committed, hold the write that was under way either whole
or not at all, and nothing else (no message without its conversation, no
half-deleted conversation).

Where the kills land does not depend on how busy the machine is: two thirds of
them are made by the writer itself from inside a write (at a step of it drawn
at random, after a number of committed writes drawn at random), so they land
in a write by construction; the others are sent by this test at a random
moment (while the writer opens the vault, or at any time once it writes), and
reach what the writer's own kills cannot (the middle of SQLite's commit, the
key derivation), wherever they happen to land.

The same for the settings file: a writer saving settings over and over is
killed in the middle of a save (or at a random moment); the file must always
read back as one whole version that was written (the save is a write to a
temporary file and an atomic rename).
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
HANG = 300  # seconds: only a writer that hangs takes this long


def plan(rng: random.Random) -> list[str]:
    """How each run ends: killed by the writer inside a write (``inside``), by this
    test while the writer opens the file (``opening``) or once it writes (``anytime``).

    Two thirds inside, the first run included (the vault is made whole once);
    the order of the rest drawn at random.
    """
    rest = ["inside"] * (KILLS * 2 // 3 - 1) + ["opening"] * (KILLS // 6) + ["anytime"] * (KILLS // 6)
    rest += ["inside"] * (KILLS - 1 - len(rest))
    rng.shuffle(rest)
    return ["inside", *rest]


def run_and_kill(
    kind: str, path: Path, run: int, rng: random.Random, how: str, writes: int = 0
) -> list[dict[str, Any]]:
    """Start a writer, have it killed as ``how`` says, return the events it reported in full.

    ``inside``: the writer kills itself inside the write after ``writes`` committed ones.
    """
    trap = str(writes) if how == "inside" else "none"
    proc = subprocess.Popen(
        [sys.executable, str(WRITER), kind, str(path), str(run), str(rng.randrange(10**9)), trap],
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
    try:
        assert proc.stdin is not None
        proc.stdin.write(PASSPHRASE + "\n")
        proc.stdin.flush()
        if how == "opening":
            # While it opens the vault (recovery of the last crash included), or
            # later on a fast machine: where it lands is not counted on.
            time.sleep(rng.uniform(0.0, 0.6))
            proc.send_signal(signal.SIGKILL)
        elif how == "anytime":
            # The timeouts here and below only bound a hang.
            assert ready.wait(HANG), "the writer did not start"
            time.sleep(rng.uniform(0.01, 0.35))
            proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(timeout=HANG)
    # Killed, not ended by an error of its own.
    assert proc.returncode == -signal.SIGKILL, proc.returncode
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
    in_transaction_kills = 0
    for run, how in enumerate(plan(rng)):
        # Enough writes before each of its own kills that the writes are many.
        events = run_and_kill("vault", path, run, rng, how, writes=rng.randint(16, 48))
        pending: dict[str, Any] | None = None
        for ev in events:
            if "done" in ev:
                model.apply(ev)
                pending = None
            elif "do" in ev:
                pending = ev
        if how == "inside":
            assert pending is not None, "the writer's own kill landed outside a write"
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
    # The kills did land while writing, and the writes were many (both by
    # construction: 16 of the 24 kills are the writer's own, each after 16
    # committed writes or more).
    assert in_transaction_kills >= KILLS // 2, in_transaction_kills
    assert model.committed > 10 * KILLS, model.committed


def test_settings_killed_while_saving_always_read_back_whole(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    rng = random.Random(15)
    written: dict[str, int] = {}  # tag -> number of allow-list entries
    mid_save = 0
    for run, how in enumerate(plan(rng)):
        events = run_and_kill("settings", path, run, rng, how, writes=rng.randint(1, 4))
        last_done = None
        pending = None
        for ev in events:
            if "done" in ev:
                written[ev["tag"]] = ev["n"]
                last_done, pending = ev, None
            elif "do" in ev:
                pending = ev
        if how == "inside":
            assert pending is not None, "the writer's own kill landed outside a save"
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
    # By construction: 16 of the 24 kills are the writer's own, inside a save.
    assert mid_save >= KILLS // 2, mid_save
