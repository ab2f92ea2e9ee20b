"""Word processing documents: DOCX with python-docx, ODT with odfpy.

Paragraphs, list items and table rows each become a line, so that a sentence,
an address in a table cell or a value beside its label stays whole for the
segmenter and the detector. List items start with ``- ``; the cells of a row
are joined with `` | `` (the paragraphs of one cell with ``; ``).
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Generator, Iterable
from pathlib import Path
from typing import Any

from core.documents.errors import CorruptDocument, TooManyPages
from core.documents.model import Limits, Progress
from core.documents.reading import Draft
from core.documents.safezip import check_zip
from core.documents.sheets import rows_to_lines

LIST_MARK = "- "


def _damaged(name: str, what: str, exc: BaseException) -> CorruptDocument:
    return CorruptDocument(
        f"{name} is a damaged {what}: it cannot be read. Nothing was read from it.",
        hint="open it in its program and save it again",
    )


def _declared_pages(path: Path) -> int | None:
    """The page count Word (or LibreOffice) wrote in docProps/app.xml, if any."""
    try:
        with zipfile.ZipFile(path) as z:
            info = z.getinfo("docProps/app.xml")
            if info.file_size > 1_000_000:
                return None
            m = re.search(rb"<(?:\w+:)?Pages>(\d+)</", z.read(info))
    except (KeyError, zipfile.BadZipFile, OSError):
        return None
    return int(m.group(1)) if m else None


def _check_pages(name: str, pages: int | None, limits: Limits) -> None:
    if pages is not None and pages > limits.max_pages:
        raise TooManyPages(
            f"{name} has {pages:,} pages; Sottovoce reads documents of up to {limits.max_pages} pages.",
            hint="attach the pages that matter as a smaller document",
        )


# --- DOCX ------------------------------------------------------------------------


def read_docx(path: Path, name: str, limits: Limits) -> Generator[Progress, None, Draft]:
    """Header, body (paragraphs, list items, table rows in document order), footer."""
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    check_zip(path, limits)
    pages = _declared_pages(path)
    _check_pages(name, pages, limits)
    yield Progress(0, 1, f"Reading {name}")
    try:
        doc = docx.Document(str(path))
        lines: list[str] = []
        section = doc.sections[0] if len(doc.sections) else None
        if section is not None:
            lines += _docx_blocks(section.header.iter_inner_content())
        lines += _docx_blocks(doc.iter_inner_content())
        if section is not None:
            lines += _docx_blocks(section.footer.iter_inner_content())
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, AttributeError) as exc:
        raise _damaged(name, "Word document", exc) from exc
    except Exception as exc:  # lxml's XMLSyntaxError and the like: the XML inside is broken
        if type(exc).__module__.startswith("lxml"):
            raise _damaged(name, "Word document", exc) from exc
        raise
    yield Progress(1, 1, f"Read {name}")
    return Draft("\n".join(lines), pages=pages or 1)


def _docx_blocks(blocks: Iterable[Any]) -> list[str]:
    from docx.table import Table

    lines: list[str] = []
    for block in blocks:
        if isinstance(block, Table):
            lines += _docx_table(block)
        else:
            text = block.text
            if not text.strip():
                lines.append("")
                continue
            lines.append(LIST_MARK + text if _is_list_item(block) else text)
    return lines


def _is_list_item(paragraph: Any) -> bool:
    ppr = paragraph._p.pPr
    if ppr is not None and ppr.numPr is not None:
        return True
    style = paragraph.style.name if paragraph.style is not None else ""
    return bool(style) and style.startswith("List")


def _docx_table(table: Any) -> list[str]:
    rows: list[list[str]] = []
    nested_lines: list[str] = []
    for row in table.rows:
        cells: list[str] = []
        seen: set[int] = set()
        for cell in row.cells:
            if id(cell._tc) in seen:  # a merged cell appears once per column it spans
                continue
            seen.add(id(cell._tc))
            inner = [p.text.strip() for p in cell.paragraphs if p.text.strip()]
            cells.append("; ".join(inner))
            for nested in cell.tables:
                nested_lines += _docx_table(nested)
        rows.append(cells)
    return rows_to_lines(rows) + nested_lines


# --- ODT -------------------------------------------------------------------------


def read_odt(path: Path, name: str, limits: Limits) -> Generator[Progress, None, Draft]:
    """The text body of an OpenDocument text: headings, paragraphs, lists, tables."""
    from odf.opendocument import load

    check_zip(path, limits)
    pages = _odt_pages(path)
    _check_pages(name, pages, limits)
    yield Progress(0, 1, f"Reading {name}")
    try:
        doc = load(str(path))
        lines: list[str] = []
        _odt_walk(doc.text, lines, prefix="")
    except (zipfile.BadZipFile, KeyError, ValueError, AttributeError, IndexError) as exc:
        raise _damaged(name, "OpenDocument text", exc) from exc
    except Exception as exc:  # expat's ExpatError/SAXParseException: broken XML
        if type(exc).__module__.startswith(("xml.", "pyexpat")):
            raise _damaged(name, "OpenDocument text", exc) from exc
        raise
    yield Progress(1, 1, f"Read {name}")
    return Draft("\n".join(lines), pages=pages or 1)


def _odt_pages(path: Path) -> int | None:
    try:
        with zipfile.ZipFile(path) as z:
            info = z.getinfo("meta.xml")
            if info.file_size > 1_000_000:
                return None
            m = re.search(rb'meta:page-count="(\d+)"', z.read(info))
    except (KeyError, zipfile.BadZipFile, OSError):
        return None
    return int(m.group(1)) if m else None


def _odt_walk(element: Any, lines: list[str], prefix: str) -> None:
    from odf import teletype
    from odf.namespaces import TABLENS, TEXTNS

    for child in element.childNodes:
        qname = getattr(child, "qname", None)
        if qname in ((TEXTNS, "p"), (TEXTNS, "h")):
            text = teletype.extractText(child)
            lines.append(prefix + text if text.strip() else "")
        elif qname == (TEXTNS, "list"):
            _odt_walk(child, lines, prefix=LIST_MARK)
        elif qname == (TABLENS, "table"):
            _odt_table(child, lines)
        elif qname is not None and qname not in _odt_skip():
            # sections, list items, frames and text boxes: containers of the above
            _odt_walk(child, lines, prefix)


def _odt_skip() -> frozenset[tuple[str, str]]:
    from odf.namespaces import TEXTNS

    # Deleted text of tracked changes is not part of the document as it reads.
    return frozenset({(TEXTNS, "tracked-changes"), (TEXTNS, "sequence-decls"), (TEXTNS, "variable-decls")})


def _odt_table(table: Any, lines: list[str]) -> None:
    from odf import teletype
    from odf.namespaces import TABLENS

    rows: list[list[str]] = []
    for row in _odt_rows(table):
        cells = []
        for cell in row.childNodes:
            if getattr(cell, "qname", None) != (TABLENS, "table-cell"):
                continue
            paras = [teletype.extractText(p).strip() for p in cell.childNodes if getattr(p, "qname", None)]
            cells.append("; ".join(p for p in paras if p))
        rows.append(cells)
    lines += rows_to_lines(rows)


def _odt_rows(element: Any) -> Iterable[Any]:
    from odf.namespaces import TABLENS

    for child in element.childNodes:
        qname = getattr(child, "qname", None)
        if qname == (TABLENS, "table-row"):
            yield child
        elif qname in ((TABLENS, "table-header-rows"), (TABLENS, "table-rows"), (TABLENS, "table-row-group")):
            yield from _odt_rows(child)
