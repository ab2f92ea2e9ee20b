"""A process that writes to a real vault (or the settings file) until it is killed.

Run by ``test_crash.py``, never by pytest itself. It reports on stdout, one
JSON line per event, flushed at once:

- ``{"do": ...}`` before a write (it may or may not reach the file);
- ``{"done": ...}`` once the write's transaction has committed.

The parent kills it with SIGKILL at a random moment and then checks that every
``done`` write is in the file, and that what is there beyond them is at most
the one write that was under way.

    python tests/integration/crash_writer.py vault PATH RUN SEED   (passphrase on stdin)
    python tests/integration/crash_writer.py settings PATH RUN SEED
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any


def say(**event: Any) -> None:
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def vault(path: Path, run: int, seed: int) -> None:
    from core.store import Store

    passphrase = sys.stdin.readline().rstrip("\n")
    store = Store.open(path, passphrase) if path.exists() else Store.create(path, passphrase)
    rng = random.Random(seed)
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
            conv = store.new_conversation(f"conversation {tag}")
            convs.append(conv)
            say(done="conv", tag=tag, id=conv)
        elif op == "msg":
            conv = rng.choice(convs)
            content = f"message {tag} " + "x" * rng.randint(0, 3000)
            say(do="msg", tag=tag, conv=conv, content=content)
            mid = store.add_message(conv, "user", content, cloud_content=f"cloud {tag}")
            say(done="msg", tag=tag, id=mid, conv=conv, content=content)
        elif op == "box":
            conv = rng.choice(convs)
            data = {"entries": [{"placeholder": "[PERSON_1]", "value": f"value {tag}"}]}
            say(do="box", tag=tag, conv=conv, data=data)
            store.save_box(conv, data)
            say(done="box", tag=tag, conv=conv, data=data)
        elif op == "ledger":
            payload = {"messages": [{"role": "user", "content": f"payload {tag}"}]}
            say(do="ledger", tag=tag, payload=payload)
            lid = store.add_ledger(endpoint="http://x", model="m", payload=payload, purpose="chat")
            ledger.append(lid)
            say(done="ledger", tag=tag, id=lid, payload=payload)
        elif op == "finish" and ledger:
            lid = rng.choice(ledger)
            say(do="finish", tag=tag, id=lid, response=f"answer {tag}")
            store.finish_ledger(lid, status="ok", response=f"answer {tag}", prompt_tokens=seq)
            say(done="finish", tag=tag, id=lid, response=f"answer {tag}")
        elif op == "delete" and len(convs) > 3:
            conv = convs.pop(rng.randrange(len(convs)))
            say(do="delete", tag=tag, conv=conv)
            store.delete_conversation(conv)
            say(done="delete", tag=tag, conv=conv)


def settings(path: Path, run: int, seed: int) -> None:
    from core.settings import Settings

    rng = random.Random(seed)
    say(ready=True)
    seq = 0
    while True:
        seq += 1
        tag = f"r{run}-{seq}"
        # A list long enough that a write takes a while (and many blocks).
        allow = [f"{tag}-{i}-" + "y" * rng.randint(0, 60) for i in range(rng.randint(50, 1500))]
        say(do="settings", tag=tag, n=len(allow))
        Settings(allow_list=allow).save(path)  # type: ignore[call-arg]
        say(done="settings", tag=tag, n=len(allow))


if __name__ == "__main__":
    kind, where, run, seed = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    (vault if kind == "vault" else settings)(where, run, seed)
