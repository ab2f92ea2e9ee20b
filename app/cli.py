"""The ``sottovoce`` command line.

Every command runs the same ``core`` objects as the window. Errors of the core
are printed as one line meant for a person and end with a non-zero status;
nothing private is written to the logs.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any

from core.errors import SottovoceError

log = logging.getLogger(__name__)

Handler = Callable[[argparse.Namespace], int]
_COMMANDS: dict[str, Handler] = {}


def command(name: str) -> Callable[[Handler], Handler]:
    def deco(fn: Handler) -> Handler:
        _COMMANDS[name] = fn
        return fn

    return deco


# --- shared wiring ---------------------------------------------------------


def load_settings(args: argparse.Namespace) -> Any:
    from core.settings import Settings

    settings = Settings.load()
    if getattr(args, "risk_lambda", None) is not None:
        settings.risk_lambda = args.risk_lambda
    if getattr(args, "profile", None) is not None:
        settings.privacy_profile = args.profile
    return settings


def _truncate(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def print_table(analysis: Any, out: Any = None) -> None:
    """One row per sentence: where it goes, p(remote), its entities, its text."""
    out = out or sys.stdout
    rows = []
    for p in analysis.plans:
        ents = ", ".join(
            f"{analysis.text[e.start:e.end]!r}:{e.type}" for e in p.entities
        ) or "-"
        flag = "*" if p.overridden else ""
        rows.append((str(p.index + 1), f"{p.route}{flag}", f"{p.p_remote:.2f}", ents, p.sentence.text))
    header = ("#", "route", "p_cloud", "entities", "sentence")
    w0 = max(len(r[0]) for r in [header, *rows])
    w1 = max(len(r[1]) for r in [header, *rows])
    print(f"{header[0]:>{w0}}  {header[1]:<{w1}}  {header[2]:>7}  {header[3]:<40}  {header[4]}", file=out)
    for r in rows:
        print(
            f"{r[0]:>{w0}}  {r[1]:<{w1}}  {r[2]:>7}  {_truncate(r[3], 40):<40}  {_truncate(r[4], 70)}",
            file=out,
        )


# --- commands --------------------------------------------------------------


@command("analyze")
def cmd_analyze(args: argparse.Namespace) -> int:
    from app.io import read_text
    from core.assembly import make_analyzer
    from core.box import PrivacyBox
    from core.outbound.compose import outbound_of

    text = read_text(args.file)
    settings = load_settings(args)
    analyzer = make_analyzer(settings)
    analysis = analyzer.analyze(text, settings.risk_lambda, settings.privacy_profile)
    # A scratch box: analyze never writes the person's store. The outbound is
    # composed and settled exactly as a turn would send it.
    outbound = outbound_of(analysis, PrivacyBox(), analyzer.detector, analyzer.policy).text
    if args.json:
        json.dump(analysis.to_json(outbound), sys.stdout, ensure_ascii=False, indent=1)
        print()
    else:
        print_table(analysis)
        n_local = sum(1 for p in analysis.plans if p.route == "local")
        print(
            f"\n{len(analysis.plans)} sentences: {n_local} stay on this machine, "
            f"{len(analysis.plans) - n_local} may go to the cloud "
            f"(router: {analysis.router}, lambda {analysis.risk_lambda:g}; {analysis.profile_reason})."
        )
        print("\nWhat the cloud would receive:\n")
        print(outbound)
    return 0


def _conversation(store: Any, conv: int | None) -> int:
    if conv is not None:
        store.conversation(conv)
        return conv
    for c in store.conversations():
        if c["kind"] == "cli":
            return int(c["id"])
    return int(store.new_conversation("Command line", kind="cli"))


@command("anonymize")
def cmd_anonymize(args: argparse.Namespace) -> int:
    from app.io import read_text
    from app.vault import open_store
    from core.assembly import make_analyzer
    from core.box import PrivacyBox

    text = read_text(args.file)
    settings = load_settings(args)
    analyzer = make_analyzer(settings)
    spans = analyzer.detector.analyze(text)
    with open_store() as store:
        conv = _conversation(store, args.conversation)
        data = store.load_box(conv)
        box = PrivacyBox.from_json(data) if data else PrivacyBox()
        result = box.anonymize(text, spans)
        store.save_box(conv, box.to_json())
    sys.stdout.write(result.text)
    if not result.text.endswith("\n"):
        sys.stdout.write("\n")
    return 0


@command("box")
def cmd_box(args: argparse.Namespace) -> int:
    from app.vault import open_store
    from core.box import PrivacyBox

    with open_store() as store:
        if args.box_command == "forget":
            if args.conversation is None:
                raise SottovoceError("Say which conversation's box: --conversation N.")
            data = store.load_box(args.conversation)
            box = PrivacyBox.from_json(data) if data else PrivacyBox()
            if args.all:
                box.forget_all()
                print(f"Forgot every entry of conversation {args.conversation}.")
            else:
                if not args.placeholder:
                    raise SottovoceError("Name a placeholder to forget, or use --all.")
                for ph in args.placeholder:
                    if not box.forget(ph):
                        raise SottovoceError(f"{ph} is not in the box of conversation {args.conversation}.")
                print(f"Forgot {', '.join(args.placeholder)}.")
            store.save_box(args.conversation, box.to_json())
            return 0
        boxes = store.boxes()
        if args.conversation is not None:
            boxes = {k: v for k, v in boxes.items() if k == args.conversation}
        rows = [
            {"conversation": conv, **entry}
            for conv, data in sorted(boxes.items())
            for entry in data.get("entries", [])
        ]
        if args.json:
            json.dump(rows, sys.stdout, ensure_ascii=False, indent=1)
            print()
        elif not rows:
            print("The privacy box is empty.")
        else:
            for r in rows:
                print(f"{r['conversation']:>4}  {r['placeholder']:<16}  {r['type']:<10}  {r['value']}")
    return 0


# --- parser ----------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sottovoce",
        description="A privacy assistant: private text stays on this machine, the rest goes "
        "to the cloud anonymized. With no command, opens the window.",
    )
    p.add_argument("--verbose", "-v", action="store_true", help="log progress (never private text)")
    p.add_argument(
        "--demo-cloud",
        dest="window_demo_cloud",
        action="store_true",
        help="with no command: open the window using the loopback demo cloud",
    )
    p.add_argument(
        "--self-test",
        dest="self_test",
        action="store_true",
        help="check this installation headless and offline (models, privacy box, store), then exit",
    )
    sub = p.add_subparsers(dest="command")

    a = sub.add_parser("analyze", help="show how a text would be routed and what would leave")
    a.add_argument("file", nargs="?", default="-", help="a UTF-8 text file, or - for standard input")
    a.add_argument("--json", action="store_true", help="print one JSON object")
    a.add_argument("--lambda", dest="risk_lambda", type=float, help="privacy level, 0 to 10")
    a.add_argument(
        "--profile", choices=["auto", "general", "health", "legal", "hr", "finance"],
        help="privacy profile (default: the setting, auto reads it from the text)",
    )

    an = sub.add_parser("anonymize", help="print the text with private data replaced by placeholders")
    an.add_argument("file", nargs="?", default="-")
    an.add_argument("--conversation", type=int, help="use this conversation's privacy box")

    b = sub.add_parser("box", help="the privacy box: list or forget entries")
    bsub = b.add_subparsers(dest="box_command")
    bl = bsub.add_parser("list", help="list entities and their placeholders")
    bl.add_argument("--conversation", type=int)
    bl.add_argument("--json", action="store_true")
    bf = bsub.add_parser("forget", help="forget one entry (or all) of a conversation's box")
    bf.add_argument("placeholder", nargs="*")
    bf.add_argument("--conversation", type=int)
    bf.add_argument("--all", action="store_true")
    b.set_defaults(box_command="list", conversation=None, json=False)

    for module in _COMMAND_MODULES:
        importlib.import_module(module).register(sub)
    return p


#: Modules that add their own sub-commands: each has ``register(subparsers)``
#: and sets ``handler=`` on its parsers (keeps this file small and lets each
#: part of the app own its commands).
_COMMAND_MODULES = ["app.cmd_cloud", "app.cmd_turn", "app.cmd_eval", "app.cmd_proxy"]
_COMMAND_MODULES += ["app.cmd_model"]


def run(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if args.self_test:
        from app.selftest import run_selftest

        return run_selftest(args)
    if not args.command:
        from app.window import run_window

        return run_window(args)
    handler = getattr(args, "handler", None) or _COMMANDS[args.command]
    try:
        return int(handler(args))
    except SottovoceError as exc:
        print(f"sottovoce: {exc.message}", file=sys.stderr)
        if exc.hint:
            print(f"  hint: {exc.hint}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
