"""Commands about what leaves the machine: the ledger, the demo cloud, the API key.

- ``sottovoce ledger [--json] [--limit N]``: every request that left, newest first.
- ``sottovoce ledger show N [--json]``: one request verbatim (the exact JSON sent)
  and the answer.
- ``sottovoce demo-cloud [--port P]``: run the loopback OpenAI-compatible server
  (``llama_cpp.server`` with the embedded model) until Ctrl-C.
- ``sottovoce api-key set|clear [--endpoint URL]``: the cloud API key, kept in
  the system keyring.

:func:`demo_cloud_settings` is what ``--demo-cloud`` options use: it starts the
demo cloud and yields settings pointed at it, leaving the settings file alone.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from core.errors import InputError


def register(sub: Any) -> None:
    """Add this module's sub-commands to the `sottovoce` parser."""
    led = sub.add_parser("ledger", help="what left the machine: every request, verbatim")
    lsub = led.add_subparsers(dest="ledger_command")
    ll = lsub.add_parser("list", help="list the requests, newest first")
    ll.add_argument("--json", action="store_true", help="print JSON (with payloads and answers)")
    ll.add_argument("--limit", type=int, help="only the N newest")
    ls = lsub.add_parser("show", help="print one request verbatim")
    ls.add_argument("id", type=int, help="the request's number (see `sottovoce ledger`)")
    ls.add_argument("--json", action="store_true", help="print the ledger row as JSON")
    led.add_argument("--json", action="store_true", help="print JSON (with payloads and answers)")
    led.add_argument("--limit", type=int, help="only the N newest")
    led.set_defaults(handler=cmd_ledger, ledger_command="list")

    demo = sub.add_parser(
        "demo-cloud",
        help="run a loopback OpenAI-compatible server with the embedded model (Ctrl-C stops)",
    )
    demo.add_argument("--port", type=int, help="port on 127.0.0.1 (default: a free one)")
    demo.add_argument("--model", help="a GGUF file to serve instead of the embedded model")
    demo.set_defaults(handler=cmd_demo_cloud)

    key = sub.add_parser(
        "api-key", help="set or clear the cloud API key (kept in the keyring, else in the vault)"
    )
    ksub = key.add_subparsers(dest="key_command", required=True)
    for name, text in (("set", "read a key from the terminal or stdin"), ("clear", "forget it")):
        k = ksub.add_parser(name, help=text)
        k.add_argument("--endpoint", help="base URL (default: the one in Settings)")
    key.set_defaults(handler=cmd_api_key)


# --- ledger --------------------------------------------------------------------------


def _short_endpoint(url: str) -> str:
    parts = urlsplit(url)
    return parts.netloc or url


def _chars(payload: Any) -> int:
    messages = payload.get("messages", []) if isinstance(payload, dict) else []
    return sum(len(str(m.get("content", ""))) for m in messages if isinstance(m, dict))


def cmd_ledger(args: argparse.Namespace) -> int:
    from app.vault import open_store

    with open_store() as store:
        if args.ledger_command == "show":
            row = store.ledger_entry(args.id)
            if args.json:
                json.dump(row, sys.stdout, ensure_ascii=False, indent=1)
                print()
            else:
                print_entry(row)
            return 0
        rows = store.ledger(limit=args.limit)
    if args.json:
        json.dump(rows, sys.stdout, ensure_ascii=False, indent=1)
        print()
        return 0
    if not rows:
        print("Nothing has left this machine.")
        return 0
    header = (
        "#",
        "time (UTC)",
        "status",
        "purpose",
        "conv",
        "model",
        "endpoint",
        "chars",
        "tokens",
    )
    table = [header]
    for r in rows:
        tokens = (
            f"{r['prompt_tokens']}/{r['completion_tokens']}"
            if r["prompt_tokens"] is not None
            else "-"
        )
        table.append(
            (
                str(r["id"]),
                str(r["time"])[:19].replace("T", " "),
                str(r["status"]),
                str(r["purpose"]),
                str(r["conversation_id"] or "-"),
                str(r["model"]),
                _short_endpoint(str(r["endpoint"])),
                str(_chars(r["payload"])),
                tokens,
            )
        )
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for line in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())
    print(f"\n{len(rows)} request(s). `sottovoce ledger show N` prints one verbatim.")
    return 0


def print_entry(row: dict[str, Any], out: Any = None) -> None:
    """One ledger row for a person: the exact JSON that was sent, then the answer."""
    out = out or sys.stdout
    print(f"Request {row['id']}  {row['time']}  {row['status']}", file=out)
    print(f"Endpoint:     {row['endpoint']}", file=out)
    print(f"Model:        {row['model']}", file=out)
    print(f"Purpose:      {row['purpose']}", file=out)
    print(
        f"Conversation: {row['conversation_id'] if row['conversation_id'] is not None else '-'}",
        file=out,
    )
    if row.get("prompt_tokens") is not None:
        print(f"Tokens:       {row['prompt_tokens']} in, {row['completion_tokens']} out", file=out)
    print("\n--- sent (exact JSON) ---", file=out)
    print(json.dumps(row["payload"], ensure_ascii=False, indent=2), file=out)
    print("\n--- answer ---", file=out)
    print(row["response"] if row.get("response") is not None else "(none)", file=out)


# --- demo cloud ------------------------------------------------------------------------


@contextmanager
def demo_cloud_settings(settings: Any, enabled: bool = True) -> Iterator[Any]:
    """Start the demo cloud (when ``enabled``) and yield settings that point at it.

    The settings object returned is a copy: the file and the person's
    endpoint stay as they are.
    """
    if not enabled:
        yield settings
        return
    from core.llm.demo import DemoCloud

    print("Starting the demo cloud (the embedded model on 127.0.0.1)...", file=sys.stderr)
    with DemoCloud() as demo:
        yield settings.model_copy(
            update={"cloud_base_url": demo.base_url, "cloud_model": demo.model}
        )


def _stop_on_ctrl_c() -> None:
    """Ctrl-C (and a polite kill) stop the server, however this process was started.

    A parent may hand SIGINT down ignored or blocked (a background job of a
    script, some launchers and test runners); Python then raises no
    KeyboardInterrupt and "Ctrl-C stops it" would not hold.
    """
    import signal

    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)


def cmd_demo_cloud(args: argparse.Namespace) -> int:
    from core.llm.demo import DemoCloud

    if args.port is not None and not 1 <= args.port <= 65535:
        raise InputError(f"{args.port} is not a TCP port.")
    demo = DemoCloud(args.model, port=args.port)
    _stop_on_ctrl_c()
    print("Starting llama_cpp.server with the embedded model...", file=sys.stderr)
    with demo:
        # Ctrl-C may come as soon as the ready line is out: the prints are inside.
        try:
            print(f"Demo cloud ready: {demo.base_url}  (model: {demo.model})")
            print(
                "Use it with `sottovoce --demo-cloud`, or set Settings > Cloud endpoint to this "
                "URL. Ctrl-C stops it.",
                flush=True,
            )
            status = demo.wait()
        except KeyboardInterrupt:
            print("\nStopping the demo cloud.", file=sys.stderr)
            return 0
    print(f"The demo cloud stopped on its own (exit {status}).", file=sys.stderr)
    return 1


# --- API key -----------------------------------------------------------------------------


def cmd_api_key(args: argparse.Namespace) -> int:
    from core.llm.endpoints import api_key_location, delete_api_key, set_api_key
    from core.settings import Settings

    endpoint = (args.endpoint or Settings.load().cloud_base_url).rstrip("/")
    if args.key_command == "clear":
        if api_key_location() == "keyring":
            delete_api_key(endpoint)
        else:
            from app.vault import open_store

            with open_store() as store:
                delete_api_key(endpoint, store)
        print(f"Forgot the API key for {endpoint}.")
        return 0
    if sys.stdin.isatty():
        key = getpass.getpass(f"API key for {endpoint}: ")
    else:
        key = sys.stdin.readline()
    key = key.strip()
    if not key:
        raise InputError("The API key is empty; nothing was stored.")
    if api_key_location() == "keyring":
        set_api_key(endpoint, key)
        print(f"Stored the API key for {endpoint} in the system keyring.")
        return 0
    # No keyring here: the key goes into the encrypted vault (locked by the passphrase).
    from app.vault import open_store

    with open_store() as store:
        set_api_key(endpoint, key, store)
    print(f"Stored the API key for {endpoint} in the encrypted vault (this machine has no keyring).")
    return 0
