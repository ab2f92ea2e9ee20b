"""Tables: XLSX with openpyxl (read-only), CSV with the standard library.

A row becomes one line (:func:`rows_to_lines`, also used for the tables of
DOCX and ODT files). When the first row is a header (text in every cell that
is not empty, and rows below it), each row reads ``header: value; header:
value``, so a value keeps its meaning and the detector sees its label
(``Patient: Jane Roe``); a two-column table reads ``label: value``.
Otherwise the cells of a row are joined with `` | ``.
The first sheets and the first rows are read, with a note saying what was cut.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import io
import re
import zipfile
from collections.abc import Generator, Iterable, Sequence
from pathlib import Path
from typing import Any

from core.documents.errors import CorruptDocument, EmptyDocument
from core.documents.model import Limits, Progress
from core.documents.reading import Draft
from core.documents.safezip import check_zip
from core.documents.text import decode

CELL_SEP = " | "
PAIR_SEP = "; "
_NUMBER = re.compile(r"^[-+]?[\d.,\s%€$£]+$")


def cell_text(value: Any) -> str:
    """A cell's value as a person reads it: dates as dates, 12.0 as 12, no line breaks."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0, 0):
            return value.date().isoformat()
        return value.isoformat(sep=" ", timespec="minutes")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:.10g}"
    return " ".join(str(value).split())


def _is_header(row: Sequence[str], body: Sequence[Sequence[str]]) -> bool:
    filled = [c for c in row if c]
    if len(filled) < 2 or not body:
        return False
    if any(_NUMBER.match(c) for c in filled):
        return False
    # A form laid out as label/value pairs has rows of one or two cells: no header then.
    wide = sum(1 for r in body if sum(1 for c in r if c) >= 2)
    return wide * 2 >= len(body)


def rows_to_lines(rows: Sequence[Sequence[str]]) -> list[str]:
    """The lines of one table.

    Two columns read as ``label: value`` (a form, or a two-column table); a
    header row above wider rows gives ``header: value; header: value``;
    anything else is the cells joined with `` | ``.
    """
    rows = [r for r in rows if any(r)]
    if not rows:
        return []
    filled = [[c for c in r if c] for r in rows]
    if all(len(f) <= 2 for f in filled) and any(len(f) == 2 for f in filled):
        return [
            f"{f[0]}: {f[1]}" if len(f) == 2 and not _NUMBER.match(f[0]) else CELL_SEP.join(f)
            for f in filled
        ]
    head, body = rows[0], rows[1:]
    if not _is_header(head, body):
        return [CELL_SEP.join(f) for f in filled]
    lines = []
    for r in body:
        pairs = []
        for i, value in enumerate(r):
            if not value:
                continue
            label = head[i] if i < len(head) else ""
            pairs.append(f"{label}: {value}" if label else value)
        lines.append(PAIR_SEP.join(pairs))
    return lines


def _take(rows: Iterable[Sequence[Any]], limit: int) -> tuple[list[list[str]], bool]:
    """The first ``limit`` rows as text, and whether more followed."""
    out: list[list[str]] = []
    for row in rows:
        if len(out) == limit:
            return out, True
        cells = [cell_text(v) for v in row]
        while cells and not cells[-1]:
            cells.pop()
        out.append(cells)
    return out, False


def read_xlsx(path: Path, name: str, limits: Limits) -> Generator[Progress, None, Draft]:
    """The first sheets of a workbook, each under a ``Sheet: NAME`` line, rows cut at the limit."""
    from openpyxl import load_workbook

    check_zip(path, limits)
    yield Progress(0, 1, f"Opening {name}")
    try:
        wb = load_workbook(str(path), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, TypeError, OSError, AttributeError) as exc:
        raise _damaged(name) from exc
    except Exception as exc:  # broken XML inside (lxml or ElementTree)
        if type(exc).__module__.startswith(("lxml", "xml.")):
            raise _damaged(name) from exc
        raise
    notes: list[str] = []
    lines: list[str] = []
    try:
        sheets = wb.worksheets
        shown = sheets[: limits.max_sheets]
        if len(sheets) > len(shown):
            notes.append(f"first {len(shown)} of {len(sheets)} sheets read")
        for k, ws in enumerate(shown):
            yield Progress(k, len(shown), f"Reading sheet {k + 1} of {len(shown)}")
            try:
                rows, cut = _take(ws.iter_rows(values_only=True), limits.max_rows)
            except (zipfile.BadZipFile, KeyError, ValueError, TypeError, OSError) as exc:
                raise _damaged(name) from exc
            body = rows_to_lines(rows)
            if not body:
                continue
            if len(shown) > 1 or len(sheets) > 1:
                lines += ["", f"Sheet: {ws.title}"] if lines else [f"Sheet: {ws.title}"]
            lines += body
            if cut:
                notes.append(f"sheet {ws.title!r}: first {limits.max_rows:,} rows read")
    finally:
        wb.close()
    return Draft("\n".join(lines), pages=len(shown) or 1, notes=notes)


def _damaged(name: str) -> CorruptDocument:
    return CorruptDocument(
        f"{name} is a damaged Excel workbook: it cannot be read. Nothing was read from it.",
        hint="open it in its program and save it again",
    )


def read_csv(path: Path, name: str, limits: Limits) -> Generator[Progress, None, Draft]:
    """A CSV (or TSV) file: the delimiter is sniffed, rows cut at the limit."""
    text, notes = decode(path.read_bytes(), name)
    if not text.strip():
        raise EmptyDocument(f"{name} holds only blank space: there is nothing to attach.")
    yield Progress(0, 1, f"Reading {name}")
    dialect: Any = csv.excel_tab if path.suffix.lower() == ".tsv" else csv.excel
    if dialect is csv.excel:
        # One column, or too irregular to tell: commas.
        with contextlib.suppress(csv.Error):
            dialect = csv.Sniffer().sniff(text[:8192], delimiters=",;\t|")
    try:
        rows, cut = _take(csv.reader(io.StringIO(text, newline=""), dialect), limits.max_rows)
    except csv.Error as exc:
        raise CorruptDocument(
            f"{name} cannot be read as CSV: {exc}. Nothing was read from it.",
            hint="attach it as a .txt file to read it as plain text",
        ) from exc
    if cut:
        notes.append(f"first {limits.max_rows:,} rows read")
    return Draft("\n".join(rows_to_lines(rows)), notes=notes)
