"""``sottovoce eval utility --documents [DIR]``: the utility of what leaves, for attached files.

Each document of ``DIR/documents.json`` (written by ``python -m
training.documents.make``) is read through :func:`core.documents.extract`, as
the window and ``sottovoce ask --attach`` read an attachment, and becomes the
text ``Attached: NAME``, a blank line and its text. The resulting utility set is written to
``OUT/documents_utility.json`` and scored by :mod:`training.eval_utility`
(leaks, keep rate, glued placeholders, person splits) on the real prepare path.
Without ``DIR`` the dev set is written to a temporary folder first.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from core.documents import extract
from core.errors import InputError
from training.documents.make import MANIFEST, make


def load_documents(folder: str | Path) -> list[dict[str, Any]]:
    """The documents of ``folder`` as utility items: ``text`` is the attachment's block."""
    folder = Path(folder)
    manifest = folder / MANIFEST
    if not manifest.is_file():
        raise InputError(
            f"{folder} has no {MANIFEST}.",
            hint="write the dev set with `python -m training.documents.make DIR`",
        )
    items = []
    for entry in json.loads(manifest.read_text("utf-8")):
        doc = extract(folder / entry["file"])
        item = {k: v for k, v in entry.items() if k != "file"}
        items.append({"id": item.pop("id"), "text": doc.block(), **item})
    return items


def run(args: argparse.Namespace) -> int:
    from training import eval_utility

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="sottovoce-documents-") as tmp:
        folder = Path(args.documents) if args.documents else Path(tmp)
        if not args.documents:
            make(folder)
        items = load_documents(folder)
    data = out / "documents_utility.json"
    data.write_text(json.dumps(items, indent=1, ensure_ascii=False) + "\n", "utf-8")
    scored = argparse.Namespace(
        data=str(data), out=str(out), risk_lambda=args.risk_lambda, limit=args.limit
    )
    return eval_utility.run(scored)
