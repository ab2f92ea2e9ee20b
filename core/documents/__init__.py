"""Documents: the text of a file, extracted on this machine, ready to join a message.

A PDF with a text layer (pypdf), DOCX (python-docx), ODT (odfpy), TXT and
Markdown, CSV and XLSX (openpyxl), EML (the standard library's ``email``),
MSG (extract-msg), and through OCR (Tesseract, when installed) PNG, JPEG and
PDF pages without a text layer. Paragraphs, list items and table rows become
lines, so sentences and values stay whole.

The file's content decides its format; a name that lies about it is refused.
Every refusal is a :class:`~core.documents.errors.DocumentError` whose message
names the file, never its content. The text enters the message as a block
headed by a line ``Attached: NAME`` (:meth:`Extracted.block`); from there it is
text like any other, analyzed, shown and approved before anything leaves.

:func:`extract_steps` is a generator of :class:`Progress` (a page at a time)
that returns the :class:`Extracted`; a worker stops it between pages, which is
how Cancel works. :func:`extract` runs it to the end.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from pathlib import Path
from typing import TYPE_CHECKING

from core.documents.errors import (
    CorruptDocument,
    DocumentError,
    EmptyDocument,
    EncryptedDocument,
    ExtensionMismatch,
    FileTooLarge,
    NoTextFound,
    OcrFailed,
    OcrUnavailable,
    TooManyPages,
    UnsupportedFormat,
    ZipBomb,
)
from core.documents.model import MB, Extracted, Kind, Limits, Progress, header, with_attachments
from core.documents.ocr import Tesseract, find_tesseract
from core.documents.reading import Draft
from core.documents.sniff import EXTENSIONS, SUPPORTED, check
from core.documents.text import tidy

if TYPE_CHECKING:
    from core.settings import Settings

__all__ = [
    "EXTENSIONS",
    "SUPPORTED",
    "CorruptDocument",
    "DocumentError",
    "EmptyDocument",
    "EncryptedDocument",
    "ExtensionMismatch",
    "Extracted",
    "FileTooLarge",
    "Kind",
    "Limits",
    "NoTextFound",
    "OcrFailed",
    "OcrUnavailable",
    "Progress",
    "Tesseract",
    "TooManyPages",
    "UnsupportedFormat",
    "ZipBomb",
    "extract",
    "extract_steps",
    "find_tesseract",
    "header",
    "limits_from",
    "with_attachments",
]

#: Bytes read to recognize a file's format.
_HEAD = 8192

FindOcr = Callable[[], Tesseract | None]


def limits_from(settings: Settings) -> Limits:
    """The limits the person's settings set (the size limit), the others as they are."""
    return Limits(max_bytes=int(settings.document_max_mb * MB))


def extract_steps(
    path: str | Path,
    *,
    limits: Limits | None = None,
    find_ocr: FindOcr = find_tesseract,
    name: str | None = None,
) -> Generator[Progress, None, Extracted]:
    """Extract the text of ``path``, yielding progress; returns the :class:`Extracted`.

    ``find_ocr`` is asked for Tesseract only when a page or an image needs it.
    ``name`` is the name shown and written in the header line (default: the
    file's). Raises a :class:`DocumentError` with a message for a person when
    the file cannot be attached.
    """
    limits = limits or Limits()
    path = Path(path)
    name = name or path.name
    if path.is_dir():
        raise DocumentError(f"{name} is a folder; attach the files in it one by one.")
    try:
        size = path.stat().st_size
        if size == 0:
            raise EmptyDocument(f"{name} is empty (0 bytes): there is nothing to attach.")
        if size > limits.max_bytes:
            raise FileTooLarge(
                f"{name} is {size / MB:,.1f} MB; the limit for an attached file is "
                f"{limits.max_bytes / MB:,.0f} MB. Nothing was read from it.",
                hint="attach a smaller part of it, or raise the limit in Settings",
            )
        with path.open("rb") as fh:
            head = fh.read(_HEAD)
    except FileNotFoundError as exc:
        raise DocumentError(f"{name} does not exist.") from exc
    except PermissionError as exc:
        raise DocumentError(f"{name} cannot be opened: permission denied.") from exc
    except OSError as exc:
        raise DocumentError(f"{name} cannot be read ({exc.strerror or 'input/output error'}).") from exc
    kind = check(path, head)
    draft = yield from _read(kind, path, name, limits, find_ocr)
    text = tidy(draft.text)
    if not text.strip():
        if draft.ocr_pages:
            raise NoTextFound(f"OCR found no text in {name}. Nothing was attached.")
        raise NoTextFound(
            f"{name} has no text that can be extracted (a scan without a text layer, "
            "or only images). Nothing was attached.",
        )
    if len(text) > limits.max_chars:
        raise FileTooLarge(
            f"{name} holds {len(text):,} characters of text, more than one message can carry "
            f"({limits.max_chars:,}). Nothing was attached.",
            hint="attach the part that matters",
        )
    return Extracted(name, kind, text, draft.pages, tuple(draft.notes), draft.ocr_pages)


def _read(
    kind: Kind, path: Path, name: str, limits: Limits, find_ocr: FindOcr
) -> Generator[Progress, None, Draft]:
    from core.documents import images, mail, office, pdf, sheets, text

    if kind is Kind.PDF:
        return (yield from pdf.read_pdf(path, name, limits, find_ocr))
    if kind in (Kind.PNG, Kind.JPEG):
        return (yield from images.read_image(path, name, limits, find_ocr))
    readers = {
        Kind.DOCX: office.read_docx,
        Kind.ODT: office.read_odt,
        Kind.XLSX: sheets.read_xlsx,
        Kind.CSV: sheets.read_csv,
        Kind.TEXT: text.read_text,
        Kind.EML: mail.read_eml,
        Kind.MSG: mail.read_msg,
    }
    return (yield from readers[kind](path, name, limits))


def extract(
    path: str | Path,
    *,
    limits: Limits | None = None,
    find_ocr: FindOcr = find_tesseract,
    name: str | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> Extracted:
    """:func:`extract_steps` run to its end (``on_progress`` sees each step)."""
    steps = extract_steps(path, limits=limits, find_ocr=find_ocr, name=name)
    while True:
        try:
            step = next(steps)
        except StopIteration as done:
            result: Extracted = done.value
            return result
        if on_progress is not None:
            on_progress(step)
