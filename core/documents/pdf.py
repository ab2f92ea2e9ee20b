"""PDF: the text layer with pypdf, page by page; pages without one read by OCR."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

from core.documents.errors import (
    CorruptDocument,
    EncryptedDocument,
    NoTextFound,
    OcrUnavailable,
    TooManyPages,
)
from core.documents.model import Limits, Progress
from core.documents.ocr import RENDER_DPI, Tesseract, render_page
from core.documents.reading import Draft

log = logging.getLogger(__name__)


def _open(path: Path, name: str) -> Any:
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError

    try:
        reader = PdfReader(path, strict=False)
        # Many PDFs are encrypted only to restrict printing or copying, with an
        # empty password to open them: those are read. A real password is not asked for.
        if reader.is_encrypted and not reader.decrypt(""):
            raise EncryptedDocument(
                f"{name} is protected by a password. Sottovoce does not open "
                "password-protected files; nothing was read from it.",
                hint="save a copy without the password and attach that",
            )
        _ = len(reader.pages)  # reads the page tree: a damaged one fails here
    except (FileNotDecryptedError, DependencyError) as exc:
        raise EncryptedDocument(
            f"{name} is encrypted in a way Sottovoce cannot open; nothing was read from it.",
            hint="save a copy without the password and attach that",
        ) from exc
    except EncryptedDocument:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, OSError, RecursionError) as exc:
        raise CorruptDocument(
            f"{name} is a damaged PDF: its structure cannot be read. Nothing was read from it.",
            hint="open it in a PDF reader and save or print it to a new PDF",
        ) from exc
    return reader


def _has_images(page: Any) -> bool:
    """True when the page draws an image or a form (what a scan is made of)."""
    try:
        resources = page.get("/Resources")
        resources = resources.get_object() if resources is not None else None
        xobjects = resources.get("/XObject") if resources is not None else None
        return bool(xobjects is not None and len(xobjects.get_object()) > 0)
    except (AttributeError, KeyError, TypeError, ValueError):
        return True  # unsure: try OCR rather than drop a page silently


def read_pdf(
    path: Path, name: str, limits: Limits, find_ocr: Callable[[], Tesseract | None]
) -> Generator[Progress, None, Draft]:
    """Each page's text layer in order; scanned pages by OCR when Tesseract is installed."""
    reader = _open(path, name)
    n = len(reader.pages)
    if n > limits.max_pages:
        raise TooManyPages(
            f"{name} has {n:,} pages; Sottovoce reads documents of up to {limits.max_pages} pages.",
            hint="attach the pages that matter as a smaller PDF",
        )
    if n == 0:
        raise NoTextFound(f"{name} has no pages: there is nothing to attach.")
    texts: list[str] = []
    scans: list[int] = []
    for i, page in enumerate(reader.pages):
        yield Progress(i, n, f"Reading page {i + 1} of {n}")
        try:
            text = page.extract_text() or ""
        except Exception as exc:  # pypdf raises many kinds on a damaged content stream
            log.warning("page %d of a PDF could not be read (%s)", i + 1, type(exc).__name__)
            text = ""
        texts.append(text)
        if not text.strip() and _has_images(page):
            scans.append(i)
    notes: list[str] = []
    ocr_pages = 0
    if scans:
        engine = find_ocr()
        if engine is None:
            if len(scans) == n or not any(t.strip() for t in texts):
                raise OcrUnavailable(name)
            one = len(scans) == 1
            notes.append(
                f"{_pages(scans)} {'has' if one else 'have'} no text layer and "
                f"{'was' if one else 'were'} not read: install Tesseract to read scans"
            )
        else:
            yield from _ocr_pages(path, name, limits, engine, scans, texts)
            ocr_pages = len(scans)
            notes.append(f"{_pages(scans)} read by OCR: check names and numbers")
    joined = "\n\n".join(_columns(t.strip("\n")) for t in texts if t.strip())
    return Draft(joined, pages=n, notes=notes, ocr_pages=ocr_pages)


def _ocr_pages(
    path: Path, name: str, limits: Limits, engine: Tesseract, scans: list[int], texts: list[str]
) -> Generator[Progress, None, None]:
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        raise CorruptDocument(
            f"{name} cannot be rendered for OCR: the PDF is damaged.",
            hint="open it in a PDF reader and save or print it to a new PDF",
        ) from exc
    try:
        for k, i in enumerate(scans):
            # Each yield is where Cancel takes effect: between pages, never mid-page.
            yield Progress(k, len(scans), f"OCR: page {i + 1} ({k + 1} of {len(scans)})", ocr=True)
            png = render_page(pdf, i, name, limits.max_pixels)
            texts[i] = engine.read_image(png, name=f"page {i + 1} of {name}", dpi=RENDER_DPI)
        yield Progress(len(scans), len(scans), "OCR done", ocr=True)
    finally:
        pdf.close()


_GAP = re.compile(r"(?<=\S)[ \t]{3,}(?=\S)")


def _columns(text: str) -> str:
    """Wide gaps inside a line (columns laid out by position) become `` | ``, as table cells do.

    A description and its amount in an invoice's columns are two values, not
    one phrase; joined by a plain space they would read (and be detected) as one.
    """
    return _GAP.sub(" | ", text)


def _pages(indexes: list[int]) -> str:
    numbers = [str(i + 1) for i in indexes]
    if len(numbers) == 1:
        return f"page {numbers[0]}"
    shown = ", ".join(numbers[:10]) + (f" and {len(numbers) - 10} more" if len(numbers) > 10 else "")
    return f"pages {shown}"
