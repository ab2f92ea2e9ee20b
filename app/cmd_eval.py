"""``sottovoce eval ...``: the evaluation commands.

The work lives in ``training/`` (it reuses the core's segmentation, box and
metrics); these parsers only describe the options and import lazily.
"""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path
from typing import Any

from core.errors import InputError, SottovoceError


def _lazy(target: str) -> Any:
    module, func = target.split(":")

    def handler(args: argparse.Namespace) -> int:
        try:
            target = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name is None or exc.name.split(".")[0] != "training":
                raise
            # The desktop bundle ships the app without training/ and its torch stack.
            raise SottovoceError(
                "The evaluation tools are not part of this installation.",
                hint="run `sottovoce eval` from a source checkout with the training extra",
            ) from exc
        data = getattr(args, "data", None)
        if data is not None and not Path(data).is_file():
            raise InputError(f"{data} is not a data file.", hint="give the path of a data file")
        return int(getattr(target, func)(args))

    return handler


def _utility(args: argparse.Namespace) -> int:
    """``eval utility``: a utility set (``--data``) or the documents' dev set (``--documents``)."""
    if (args.documents is None) == (args.data is None):
        raise InputError("Give one of --data FILE (a utility set) or --documents [DIR].")
    if args.documents is not None:
        return int(_lazy("training.documents.evaluate:run")(args))
    return int(_lazy("training.eval_utility:run")(args))


def _judge_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--judge-url", help="OpenAI-compatible base URL of an LLM judge")
    p.add_argument("--judge-model", help="model name of the LLM judge")


def register(sub: Any) -> None:
    ev = sub.add_parser("eval", help="evaluate detection, routing and the cloud-side modules")
    esub = ev.add_subparsers(dest="eval_command", required=True)

    d = esub.add_parser("detect", help="detection: unit recall and span F1/F2 against Presidio")
    d.add_argument("--data", required=True, help="a data file")
    d.add_argument("--format", required=True, choices=["medpcd", "pupa", "presidio", "conll"],
                   help="conll: token/BIO-tag lines (WNUT-17, WikiANN); adds recall per label")
    d.add_argument("--out", required=True, help="output folder")
    d.add_argument("--limit", type=int, help="evaluate only the first N records")
    d.add_argument("--split", choices=["all", "eval", "train"], default="all",
                   help="which part of the fixed split to use (default: all records; "
                   "a held-out CoNLL file is used whole)")
    d.add_argument("--ner", help="another NER artifact folder (default: the shipped models/ner)")
    d.add_argument(
        "--languages-ner",
        help="another languages NER folder (default: the shipped models/ner_languages)",
    )
    d.add_argument("--lowercase", action="store_true",
                   help="evaluate on lower-cased copies of the texts (reliance on capitals)")
    d.set_defaults(handler=_lazy("training.eval_detect:run"))

    r = esub.add_parser("route", help="routing: the privacy-utility frontier of every baseline")
    r.add_argument("--data", required=True)
    r.add_argument("--format", required=True, choices=["medpcd", "pupa"])
    r.add_argument("--out", required=True)
    r.add_argument("--limit", type=int)
    r.add_argument("--split", choices=["all", "eval", "train"], default="all")
    r.add_argument("--router", help="another router artifact folder (default: the shipped models/router)")
    _judge_options(r)
    r.set_defaults(handler=_lazy("training.router.eval_route:run"))

    g = esub.add_parser("gama", help="GAMA's public-space modules on TCW or LGP (ablation)")
    g.add_argument("--task", required=True, choices=["tcw", "lgp"])
    g.add_argument("--data", required=True)
    g.add_argument("--out", required=True)
    g.add_argument("--limit", type=int, default=10)
    g.add_argument("--cloud-url", help="OpenAI-compatible base URL (default: settings)")
    g.add_argument("--cloud-model", help="model name (default: settings)")
    g.add_argument("--demo-cloud", action="store_true", help="start and use the loopback demo cloud")
    g.add_argument("--max-tokens", type=int, default=256, help="cap on each cloud answer")
    g.set_defaults(handler=_lazy("training.eval_gama:run_gama"))

    an = esub.add_parser(
        "answers", help="answer preservation with a stub cloud; how often the merge guard fires"
    )
    an.add_argument("--data", required=True, help="a data file")
    an.add_argument("--format", choices=["utility", "medpcd", "pupa"], default="utility")
    an.add_argument("--out", required=True, help="output folder")
    an.add_argument("--limit", type=int, help="evaluate only the first N texts")
    an.add_argument("--configs", default="default,merge",
                    help="comma-separated: default (the settings' defaults), merge (any model merges)")
    an.set_defaults(handler=_lazy("training.eval_answers:run"))

    u = esub.add_parser(
        "utility", help="utility of what leaves: leaks, keep rate, glued placeholders, person splits"
    )
    u.add_argument("--data", help="a utility set (JSON: id, text, protect, keep, persons)")
    u.add_argument("--documents", nargs="?", const="", metavar="DIR",
                   help="instead of --data: the documents' dev set read as attachments; DIR holds "
                   "documents.json and its files (python -m training.documents.make DIR); "
                   "without DIR the set is written to a temporary folder")
    u.add_argument("--out", required=True, help="output folder")
    u.add_argument("--lambda", dest="risk_lambda", type=float, default=5.0,
                   help="the privacy level (0-10, default 5)")
    u.add_argument("--limit", type=int, help="evaluate only the first N texts")
    u.set_defaults(handler=_utility)

    pl = esub.add_parser("privacylens", help="leak rate of drafted final actions on PrivacyLens")
    pl.add_argument("--data", required=True)
    pl.add_argument("--out", required=True)
    pl.add_argument("--limit", type=int, default=10)
    pl.add_argument("--cloud-url")
    pl.add_argument("--cloud-model")
    pl.add_argument("--demo-cloud", action="store_true")
    pl.add_argument("--max-tokens", type=int, default=384, help="cap on each cloud answer")
    _judge_options(pl)
    pl.set_defaults(handler=_lazy("training.eval_gama:run_privacylens"))
