"""What extraction returns and the limits it works under."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

MB = 1024 * 1024


class Kind(StrEnum):
    """The formats Sottovoce reads, as found from the content (not the name)."""

    PDF = "pdf"
    DOCX = "docx"
    ODT = "odt"
    XLSX = "xlsx"
    TEXT = "text"  # TXT and Markdown
    CSV = "csv"
    EML = "eml"
    MSG = "msg"
    PNG = "png"
    JPEG = "jpeg"

    @property
    def label(self) -> str:
        """A name for the format a person recognizes."""
        return _LABELS[self]


_LABELS = {
    Kind.PDF: "a PDF",
    Kind.DOCX: "a Word document (DOCX)",
    Kind.ODT: "an OpenDocument text (ODT)",
    Kind.XLSX: "an Excel workbook (XLSX)",
    Kind.TEXT: "a text file",
    Kind.CSV: "a CSV table",
    Kind.EML: "an e-mail (EML)",
    Kind.MSG: "an Outlook e-mail (MSG)",
    Kind.PNG: "a PNG image",
    Kind.JPEG: "a JPEG image",
}


@dataclass(frozen=True)
class Limits:
    """How much of a file extraction accepts; each limit is an error with its own message.

    ``max_bytes`` comes from the settings (``document_max_mb``); the others are
    fixed here because they protect the machine rather than express a choice.
    """

    max_bytes: int = 20 * MB
    max_pages: int = 200
    #: Rows read from each sheet of a workbook or from a CSV file; more are cut, with a note.
    max_rows: int = 1000
    #: Sheets of a workbook read, in order; more are left out, with a note.
    max_sheets: int = 3
    #: Characters of extracted text; more is an error (the message would be unusable).
    max_chars: int = 1_000_000
    # Zipped formats (DOCX, XLSX, ODT): checked from the archive's directory before
    # anything is unpacked.
    max_unzipped_bytes: int = 200 * MB
    max_zip_ratio: float = 100.0
    max_zip_members: int = 10_000
    #: Pixels of one image or rendered page (a decompression bomb in a PNG is refused).
    max_pixels: int = 60_000_000
    #: Seconds Tesseract may spend on one page.
    ocr_timeout_s: float = 120.0


@dataclass(frozen=True)
class Progress:
    """One step of an extraction: ``done`` of ``total`` units (pages), what is being done."""

    done: int
    total: int
    what: str
    ocr: bool = False


@dataclass(frozen=True)
class Extracted:
    """The text of one file, ready to become part of a message.

    ``notes`` say what a person should know about the extraction (rows cut,
    attachments listed but not opened, the charset a text was read in, pages
    read by OCR); they never contain the file's content.
    """

    name: str
    kind: Kind
    text: str
    pages: int = 1
    notes: tuple[str, ...] = field(default_factory=tuple)
    ocr_pages: int = 0

    @property
    def ocr(self) -> bool:
        """True when some of the text was read by OCR (it may hold reading errors)."""
        return self.ocr_pages > 0

    def block(self) -> str:
        """The text as it enters the message: a header line naming the file, a blank line, the text.

        The header goes through detection like the rest: a file named after a
        person is protected like the person. It is a line of its own (the blank
        line ends the segmenter's block), and it has no square brackets, which
        the segmenter splits off as a sentence and which read like a placeholder.
        """
        return f"{header(self.name)}\n\n{self.text}"


def header(name: str) -> str:
    """The line that attributes the text after it to the file ``name``."""
    return f"Attached: {name}"


_HEADER = re.compile("^" + re.escape(header("")) + r"(?P<name>[^\n]+)$", re.MULTILINE)


def attached_names(text: str) -> list[tuple[int, int]]:
    """Where the names of attached files stand in ``text`` (their header lines)."""
    if header("") not in text:
        return []
    return [m.span("name") for m in _HEADER.finditer(text)]


def with_attachments(message: str, documents: list[Extracted]) -> str:
    """``message`` followed by each document's block, separated by blank lines."""
    parts = [message.rstrip()] if message.strip() else []
    parts += [d.block() for d in documents]
    return "\n\n".join(parts)
