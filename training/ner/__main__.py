"""``python -m training.ner build|data|agent-eval|add-states``: the shipped NER model, its data, the agent.

``data`` also writes the windows file that ``python -m training.ner.fit`` trains on
anywhere torch runs (a GPU machine); ``build --checkpoint`` then adopts the result.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path

# The base weights are on disk; nothing may be downloaded.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def main(argv: list[str] | None = None) -> int:
    from training.ner import build as build_mod

    parser = argparse.ArgumentParser(prog="python -m training.ner", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="data, training, export, tuning, evaluation, manifest")
    build_mod.add_arguments(b)
    d = sub.add_parser("data", help="build and save the training data and its windows file only")
    build_mod.add_arguments(d)
    a = sub.add_parser("agent-eval", help="cost and gain of the agent view on a small sample")
    build_mod.add_arguments(a)
    a.add_argument("--agent-limit", type=int, default=20, help="queries per data set")
    st = sub.add_parser(
        "add-states",
        help="add the encoder's last hidden states to a built model's outputs (the router "
        "reads them: one encoder pass)",
    )
    st.add_argument("--folder", default="models/ner")
    args = parser.parse_args(argv)
    if args.command == "add-states":
        from training.ner.states import add_states

        manifest = add_states(Path(args.folder))
        print(json.dumps({"outputs": manifest["outputs"], "files": manifest["files"]}, indent=2))
        return 0
    # The manifest records the exact command that made the model.
    args.argv = list(sys.argv[1:] if argv is None else argv)
    # Our progress at INFO; the libraries' chatter (the quantizer logs every tensor) at WARNING.
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    for ours in ("training", "core"):
        logging.getLogger(ours).setLevel(logging.INFO)
    if args.command == "data":
        from training.ner import data

        built = data.build(
            n_synthetic=args.synthetic,
            medpcd=Path(args.medpcd),
            pupa=Path(args.pupa),
            templates=Path(args.templates),
            seed=args.seed,
            limit=args.limit,
            repeat={"pupa": args.pupa_repeat},
            **build_mod.source_options(args),
        )
        from training.ner.fit import save_windows
        from training.ner.labels import LABELS
        from training.ner.train import MAX_LEN, featurize, load_tokenizer

        # What python -m training.ner.fit trains on, on any machine with torch.
        items = featurize(built.fit, load_tokenizer(), MAX_LEN)
        save_windows(Path(args.work) / "windows.jsonl.gz", items, LABELS, MAX_LEN)
        built.stats["windows"] = len(items)
        data.save(built, Path(args.work) / "data")
        print(json.dumps(built.stats, indent=2))
        return 0
    if args.command == "agent-eval":
        from training.ner import agent_eval

        print(json.dumps(agent_eval.run(args), indent=2))
        return 0
    manifest = build_mod.build(args)
    print(
        json.dumps({k: manifest.get(k) for k in ("build_seconds", "decode", "metrics")}, indent=2)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
