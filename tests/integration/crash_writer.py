"""A process that writes to a real vault (or the settings file) until it is killed.

Run by ``test_crash.py``, never by pytest itself. It reports on stdout, one
JSON line per event, flushed at once:

- ``{"do": ...}`` before a write (it may or may not reach the file);
- ``{"done": ...}`` once the write's transaction has committed.

It is killed with SIGKILL, in one of two ways, and the parent then checks that
every ``done`` write is in the file, and that what is there beyond them is at
most the one write that was under way:

- ``TRAP`` ``none``: it writes until the parent kills it, at a moment the
  parent picks (while it opens the vault, in a write, between two);
- ``TRAP`` a number W: once W writes have committed it kills itself from
  inside the next write, at a step of that write drawn at random (see
  :class:`Trap`). Such a kill lands in a write by construction, however busy
  the machine is.

    python tests/integration/crash_writer.py vault PATH RUN SEED TRAP   (passphrase on stdin)
    python tests/integration/crash_writer.py settings PATH RUN SEED TRAP
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def say(**event: Any) -> None:
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


class Trap:
    """Kills this process with SIGKILL at a step, drawn at random, inside a write.

    A step is a point where the writing code can be stopped: ``is_step`` says
    which profiling events count (for the vault, every call into or return from
    the SQLCipher connection and its cursors: execute, commit...; for the
    settings, every call and return of the save, Python or C: the temporary
    file made, written, closed, renamed), and ``tick`` is called from anywhere
    else (the vault's SQLite progress handler, while a statement runs).

    Every write is counted, so the kill can be placed anywhere in a write of
    its kind, its last step included (after the commit or the rename, before
    the write is reported done). If the write it was set in ends sooner than
    the last of its kind, it fires at the first step of the next write.
    """

    def __init__(
        self, after: int | None, rng: random.Random, is_step: Callable[[str, Any], bool]
    ) -> None:
        self.after = after  # writes to commit before the kill; None: never
        self.rng = rng
        self.is_step = is_step
        self.writes = 0
        self.steps = 0
        self.kill_at = 0  # the step of the current write to die at; 0: none
        self.inside = False
        self.longest: dict[str, int] = {}  # op -> most steps seen in one write of it

    def run(self, op: str, write: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``write(*args, **kwargs)``, a write of kind ``op``, which may be killed."""
        armed = self.after is not None and self.writes >= self.after
        if armed and self.longest.get(op, 0) > 0 and not self.kill_at:
            self.kill_at = self.rng.randint(1, self.longest[op])
        self.steps = 0
        self.inside = True
        sys.setprofile(self._profile)
        try:
            result = write(*args, **kwargs)
        finally:
            sys.setprofile(None)
            self.inside = False
        self.longest[op] = max(self.longest.get(op, 0), self.steps)
        self.writes += 1
        if self.kill_at:
            self.kill_at = 1  # it did not fire: the first step of the next write
        return result

    def tick(self) -> None:
        if not self.inside:
            return
        self.steps += 1
        if self.steps == self.kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    def _profile(self, frame: Any, event: str, arg: Any) -> None:
        if self.is_step(event, arg):
            self.tick()


def vault(path: Path, run: int, seed: int, after: int | None) -> None:
    from sqlcipher3 import dbapi2

    from core.store import Store

    passphrase = sys.stdin.readline().rstrip("\n")
    store = Store.open(path, passphrase) if path.exists() else Store.create(path, passphrase)
    rng = random.Random(seed)
    sql = (dbapi2.Connection, dbapi2.Cursor)
    trap = Trap(
        after,
        rng,
        lambda event, arg: (
            event in ("c_call", "c_return") and isinstance(getattr(arg, "__self__", None), sql)
        ),
    )

    def progress() -> int:
        trap.tick()
        return 0  # go on

    store._conn.set_progress_handler(progress, 1)
    say(ready=True)
    convs: list[int] = [int(c["id"]) for c in store.conversations()]
    ledger: list[int] = []
    seq = 0
    while True:
        seq += 1
        tag = f"r{run}-{seq}"
        op = rng.choice(["conv", "msg", "msg", "msg", "box", "ledger", "finish", "delete"])
        if op == "conv" or not convs:
            say(do="conv", tag=tag)
            conv = trap.run("conv", store.new_conversation, f"conversation {tag}")
            convs.append(conv)
            say(done="conv", tag=tag, id=conv)
        elif op == "msg":
            conv = rng.choice(convs)
            content = f"message {tag} " + "x" * rng.randint(0, 3000)
            say(do="msg", tag=tag, conv=conv, content=content)
            mid = trap.run(
                "msg", store.add_message, conv, "user", content, cloud_content=f"cloud {tag}"
            )
            say(done="msg", tag=tag, id=mid, conv=conv, content=content)
        elif op == "box":
            conv = rng.choice(convs)
            data = {"entries": [{"placeholder": "[PERSON_1]", "value": f"value {tag}"}]}
            say(do="box", tag=tag, conv=conv, data=data)
            trap.run("box", store.save_box, conv, data)
            say(done="box", tag=tag, conv=conv, data=data)
        elif op == "ledger":
            payload = {"messages": [{"role": "user", "content": f"payload {tag}"}]}
            say(do="ledger", tag=tag, payload=payload)
            lid = trap.run(
                "ledger",
                store.add_ledger,
                endpoint="http://x",
                model="m",
                payload=payload,
                purpose="chat",
            )
            ledger.append(lid)
            say(done="ledger", tag=tag, id=lid, payload=payload)
        elif op == "finish" and ledger:
            lid = rng.choice(ledger)
            say(do="finish", tag=tag, id=lid, response=f"answer {tag}")
            trap.run(
                "finish",
                store.finish_ledger,
                lid,
                status="ok",
                response=f"answer {tag}",
                prompt_tokens=seq,
            )
            say(done="finish", tag=tag, id=lid, response=f"answer {tag}")
        elif op == "delete" and len(convs) > 3:
            conv = convs.pop(rng.randrange(len(convs)))
            say(do="delete", tag=tag, conv=conv)
            trap.run("delete", store.delete_conversation, conv)
            say(done="delete", tag=tag, conv=conv)


def settings(path: Path, run: int, seed: int, after: int | None) -> None:
    from core.settings import Settings

    rng = random.Random(seed)
    trap = Trap(after, rng, lambda event, arg: True)
    say(ready=True)
    seq = 0
    while True:
        seq += 1
        tag = f"r{run}-{seq}"
        # A list long enough that a write takes a while (and many blocks).
        allow = [f"{tag}-{i}-" + "y" * rng.randint(0, 60) for i in range(rng.randint(50, 1500))]
        say(do="settings", tag=tag, n=len(allow))
        trap.run("settings", Settings(allow_list=allow).save, path)  # type: ignore[call-arg]
        say(done="settings", tag=tag, n=len(allow))


if __name__ == "__main__":
    kind, where, run, seed = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    after = None if sys.argv[5] == "none" else int(sys.argv[5])
    (vault if kind == "vault" else settings)(where, run, seed, after)
