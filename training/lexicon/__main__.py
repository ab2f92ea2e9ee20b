"""``python -m training.lexicon build [--out DIR]``: build ``models/lexicon``."""

from __future__ import annotations

import argparse
import sys

from training.lexicon.build import build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.lexicon")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the lexicon artifact from the offline sources")
    b.add_argument("--out", help="output folder (default: models/lexicon)")
    b.add_argument("--data", default="../shared/data", help="the shared data folder")
    args = parser.parse_args(argv)
    manifest = build(args.out, args.data)
    counts = manifest["metrics"]
    print(
        f"lexicon: {counts['common_words']} common words, {counts['public_names']} public "
        f"names, {counts['terms']} terms, {counts['currencies']} currencies"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
