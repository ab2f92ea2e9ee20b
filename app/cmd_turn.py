"""``sottovoce ask`` and ``sottovoce draft``: one turn from the command line.

Both print the route table, the exact payload that would leave, ask
``send / edit / cancel`` (unless ``--yes`` or the approval policy says not to),
then stream the restored answer. ``--json`` prints one object instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from core.errors import SottovoceError


def register(sub: Any) -> None:
    for name, help_ in [
        ("ask", "ask a question: private sentences stay here, the rest goes anonymized"),
        ("draft", "draft an email from a situation, with real names restored on this machine"),
    ]:
        p = sub.add_parser(name, help=help_)
        p.add_argument("file", nargs="?", default="-", help="a UTF-8 text file, or - for standard input")
        p.add_argument(
            "--attach", action="append", metavar="FILE", default=[],
            help="a document whose text joins the message (PDF, DOCX, ODT, XLSX, CSV, TXT, "
            "Markdown, EML, MSG, PNG, JPEG); repeat for more files",
        )
        p.add_argument("--yes", "-y", action="store_true", help="approve the payload without asking")
        p.add_argument("--json", action="store_true", help="print one JSON object")
        p.add_argument("--lambda", dest="risk_lambda", type=float, help="privacy level, 0 to 10")
        p.add_argument("--conversation", type=int, help="continue this conversation")
        p.add_argument("--demo-cloud", action="store_true", help="start and use the loopback demo cloud")
        p.add_argument("--no-local", action="store_true", help="do not load the local model (pass the cloud's answer through)")
        p.add_argument("--max-tokens", type=int, help=argparse.SUPPRESS)
        p.set_defaults(handler=run_turn, turn_kind=name)


def _interactive_approve(assistant: Any, prepared: Any, out: Any) -> tuple[Any, Any]:
    """Show the payload, let the person send values in clear (a new payload, shown
    again), and return the turn they approved with the approval of its digest."""
    from core.turn import Approval

    while True:
        request = prepared.request
        print("\nThis will leave your machine:", file=out)
        for m in request.messages:
            print(f"--- {m['role']} ---\n{m['content']}", file=out)
        print("---", file=out)
        if request.entities:
            print("Protected values (placeholder = value):", file=out)
            for e in request.entities:
                state = "protected" if e.protected else "SENT IN CLEAR"
                print(f"  {e.placeholder or '(clear)'} = {e.value!r} [{e.type}, {state}]", file=out)
        if not sys.stdin.isatty():
            print("No terminal to ask for approval: not sent (use --yes to approve).", file=sys.stderr)
            return prepared, Approval.cancel()
        answer = input("send / edit / cancel? ").strip().lower()
        if answer in ("s", "send", "y", "yes"):
            return prepared, Approval.send(prepared)
        if answer in ("e", "edit"):
            names = input("Placeholders to send in clear (space-separated; empty to keep all): ")
            clear = [n.strip() for n in names.split() if n.strip()]
            if clear:
                prepared = assistant.revise(prepared, clear)
            continue
        return prepared, Approval.cancel()


def run_turn(args: argparse.Namespace) -> int:
    from app.cli import load_settings, print_table
    from app.vault import open_store
    from core.assembly import cloud_endpoint, make_assistant
    from core.errors import ApprovalDeclined
    from core.turn import Approval, Finished, TurnKind

    settings = load_settings(args)
    text = _message(args, settings)
    kind = TurnKind.DRAFT if args.turn_kind == "draft" else TurnKind.CHAT
    human = sys.stderr if args.json else sys.stdout
    with cloud_endpoint(args.demo_cloud) as (base_url, model), open_store() as store:
        if args.demo_cloud:
            settings = settings.model_copy(update={"cloud_base_url": base_url, "cloud_model": model})
        assistant = make_assistant(settings, store, local=not args.no_local)
        conv = args.conversation or assistant.new_conversation(_title(text), kind)
        prepared = assistant.prepare(text, conv, kind)
        if not args.json:
            print_table(prepared.analysis)
        approval = None
        if prepared.request is not None:
            if args.yes or not prepared.needs_approval:
                approval = Approval.send(prepared)
            else:
                prepared, approval = _interactive_approve(assistant, prepared, human)
        try:
            if not args.json:
                print("\nOutbound payload (user content):\n" + (prepared.outbound or "(nothing leaves this machine)"))
                print("\nAnswer:\n")
            result = None
            for ev in assistant.execute(prepared, approval):
                if isinstance(ev, Finished):
                    result = ev.result
                elif not args.json:
                    _show(ev)
        except ApprovalDeclined:
            print("Not sent: nothing left the machine.", file=sys.stderr)
            return 3
        assert result is not None
        if args.json:
            json.dump(
                {
                    **prepared.analysis.to_json(prepared.outbound),
                    "conversation": conv,
                    "answer": result.answer,
                    "cloud_answer": result.cloud_answer,
                    "unresolved": result.unresolved,
                    "local_only": result.local_only,
                    "disclosed": result.disclosed,
                    "integration": result.integration.to_json() if result.integration else None,
                    "cloud": {"endpoint": base_url, "model": model} if not result.local_only else None,
                },
                sys.stdout,
                ensure_ascii=False,
                indent=1,
            )
            print()
        else:
            print()
            if result.unresolved:
                print(
                    "\nUnresolved placeholders (the cloud invented them; fill them in yourself): "
                    + ", ".join(result.unresolved)
                )
            print(f"\n(conversation {conv}; `sottovoce ledger` lists what left the machine)")
    return 0


def _show(ev: Any) -> None:
    """Print one turn event: the cloud's answer as it streams, then what the person must know."""
    import textwrap

    from core.turn import Notice, Token

    if isinstance(ev, Token):
        if ev.source == "note":
            # Marked apart: the local model's own words, not the cloud's answer.
            print("\n\nNote from the local model (written on this machine, not part of the "
                  f"cloud's answer):\n{ev.text}", flush=True)
        elif ev.source == "merged":
            print("\n\nFinal answer, merged on this machine with what the cloud did not see "
                  f"(checked against the cloud's answer):\n{ev.text}", flush=True)
        else:
            print(ev.text, end="", flush=True)
    elif isinstance(ev, Notice):
        print("\n\n" + textwrap.fill(ev.text, width=100), flush=True)


def _message(args: argparse.Namespace, settings: Any) -> str:
    """The message to send: the text given, then each ``--attach`` file's text under its name.

    With attachments the text may be left out (no file and no piped input): the
    documents are then the whole message.
    """
    from app.io import read_text

    if not args.attach:
        return read_text(args.file)
    from core.documents import extract, limits_from, with_attachments

    message = "" if args.file == "-" and sys.stdin.isatty() else read_text(args.file)
    limits = limits_from(settings)
    docs = []
    for path in args.attach:
        doc = extract(path, limits=limits, on_progress=_progress)
        facts = [f"{doc.pages} page{'s' if doc.pages != 1 else ''}", *doc.notes]
        print(f"Attached {doc.name} ({'; '.join(facts)})", file=sys.stderr)
        docs.append(doc)
    return with_attachments(message, docs)


def _progress(step: Any) -> None:
    # Only OCR is slow enough to report; the lines name pages, never their text.
    if step.ocr:
        print(f"  {step.what}", file=sys.stderr, flush=True)


def _title(text: str) -> str:
    first = " ".join(text.split())[:60]
    return first or "Untitled"


__all__ = ["SottovoceError", "register"]
