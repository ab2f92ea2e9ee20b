"""The documents' dev set: enough documents in every format, labels that hold after extraction."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from core.documents import Kind, extract
from training.data.check_utility import check_items
from training.documents.evaluate import load_documents
from training.documents.make import DOCS, MANIFEST, make


def test_the_script_writes_15_documents_or_more_in_the_formats_asked(tmp_path: Path) -> None:
    manifest = make(tmp_path)
    entries = json.loads(manifest.read_text("utf-8"))
    assert manifest.name == MANIFEST and len(entries) == len(DOCS) >= 15
    kinds = Counter(extract(tmp_path / e["file"]).kind for e in entries)
    for kind in (Kind.PDF, Kind.DOCX, Kind.ODT, Kind.XLSX, Kind.CSV, Kind.EML, Kind.TEXT):
        assert kinds[kind] >= 1, kind
    assert kinds[Kind.PDF] >= 4  # discharge letter, lab report, court letter, invoice
    assert set(entries[0]) == {"id", "file", "protect", "keep", "persons"}


def test_every_label_occurs_in_the_extracted_text_as_the_utility_format_requires(tmp_path: Path) -> None:
    make(tmp_path)
    items = load_documents(tmp_path)
    assert all(i["text"].startswith("Attached: ") for i in items)
    errors = [p for p in check_items(items) if p.level == "error"]
    assert errors == []


def test_eval_utility_reads_the_documents_through_extraction(tmp_path: Path) -> None:
    from app.cli import build_parser

    args = build_parser().parse_args(["eval", "utility", "--documents", "--out", str(tmp_path)])
    assert args.documents == "" and args.data is None
    args = build_parser().parse_args(["eval", "utility", "--documents", "DIR", "--out", "o"])
    assert args.documents == "DIR"
