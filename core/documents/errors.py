"""The typed errors of document extraction, each with a message for a person.

Every one is an :class:`~core.errors.InputError` (exit status 2 on the command
line, one dialog in the window) and names the file, never its content: a
message may be logged or shown over another window.
"""

from __future__ import annotations

from core.errors import InputError

#: What to run to install Tesseract, per platform (README says the same).
TESSERACT_INSTALL = {
    "Debian / Ubuntu": "sudo apt-get install tesseract-ocr",
    "Fedora": "sudo dnf install tesseract",
    "macOS (Homebrew)": "brew install tesseract",
    "Windows": "the installer from https://github.com/UB-Mannheim/tesseract/wiki",
}


class DocumentError(InputError):
    """A file cannot be attached; nothing of it was read into the message."""


class UnsupportedFormat(DocumentError):
    """The file is of a kind Sottovoce does not read (a .doc, a .zip, a video...)."""


class ExtensionMismatch(DocumentError):
    """The file's name says one format and its content is another."""


class FileTooLarge(DocumentError):
    """The file is over the size limit (a setting), or unpacks to too much."""


class TooManyPages(DocumentError):
    """More pages (or sheets' rows) than a message can reasonably carry."""


class EncryptedDocument(DocumentError):
    """A password protects the file; Sottovoce does not ask for it."""


class CorruptDocument(DocumentError):
    """The file is damaged or not what its format says it is inside."""


class ZipBomb(FileTooLarge):
    """A zipped format (DOCX, XLSX, ODT) would unpack to far more than it weighs."""


class EmptyDocument(DocumentError):
    """The file has no content at all."""


class NoTextFound(DocumentError):
    """The file has content but no text could be extracted from it."""


class OcrUnavailable(DocumentError):
    """The file needs OCR (a scan, an image) and Tesseract is not installed."""

    def __init__(self, name: str) -> None:
        ways = "; ".join(f"{k}: {v}" for k, v in TESSERACT_INSTALL.items())
        super().__init__(
            f"{name} is a scan or an image: reading it needs the OCR program Tesseract, "
            "which is not installed. Nothing was read from it.",
            hint=f"install Tesseract ({ways}), then attach the file again",
        )


class OcrFailed(DocumentError):
    """Tesseract was found but could not read a page."""
