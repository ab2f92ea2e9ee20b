"""What a file is, from its content: magic bytes, the members of a ZIP, the streams of an OLE file.

The name's extension says what the person believes the file is; the content
decides how it is read. When the two disagree the file is refused (a renamed
file may be an attempt to slip something past a reader, and reading it as the
wrong format would give garbage or nothing).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from core.documents.errors import CorruptDocument, ExtensionMismatch, UnsupportedFormat
from core.documents.model import Kind

_PDF = b"%PDF-"
_ZIP = (b"PK\x03\x04", b"PK\x05\x06")
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_PNG = b"\x89PNG\r\n\x1a\n"
_JPEG = b"\xff\xd8\xff"

#: The extensions read, and the kind each promises.
EXTENSIONS: dict[str, Kind] = {
    ".pdf": Kind.PDF,
    ".docx": Kind.DOCX,
    ".odt": Kind.ODT,
    ".xlsx": Kind.XLSX,
    ".xlsm": Kind.XLSX,
    ".txt": Kind.TEXT,
    ".text": Kind.TEXT,
    ".md": Kind.TEXT,
    ".markdown": Kind.TEXT,
    ".csv": Kind.CSV,
    ".tsv": Kind.CSV,
    ".eml": Kind.EML,
    ".msg": Kind.MSG,
    ".png": Kind.PNG,
    ".jpg": Kind.JPEG,
    ".jpeg": Kind.JPEG,
}

#: Kinds that are plain text inside: their content has no signature, so any of
#: them may carry any of these names (a .md that is a CSV is still text).
_TEXTUAL = {Kind.TEXT, Kind.CSV, Kind.EML}

#: Formats recognized by their signature that Sottovoce does not read, with advice.
_OTHER = {
    "doc": "an old Word document (.doc): save it as DOCX or PDF and attach that",
    "xls": "an old Excel workbook (.xls): save it as XLSX or CSV and attach that",
    "ppt": "a PowerPoint file: save it as PDF and attach that",
    "zip": "a ZIP archive: unpack it and attach the documents inside one by one",
    "ods": "an OpenDocument spreadsheet (ODS): save it as XLSX or CSV and attach that",
    "odp": "an OpenDocument presentation: save it as PDF and attach that",
    "pptx": "a PowerPoint file: save it as PDF and attach that",
    "ole": "an Office file of an old format: save it as DOCX, XLSX or PDF and attach that",
    "binary": "not a document Sottovoce can read",
}

SUPPORTED = "PDF, DOCX, ODT, XLSX, CSV, TXT, Markdown, EML, MSG, PNG and JPEG"


def kind_of_name(name: str) -> Kind | None:
    """The kind a file's extension promises; None when the extension is not one we read."""
    return EXTENSIONS.get(Path(name).suffix.lower())


def sniff(path: Path, head: bytes) -> Kind | str:
    """The file's kind from its content; a string (a key of the unsupported formats) otherwise.

    ``head`` is the file's first bytes (a few KB). A text without a signature is
    :attr:`Kind.TEXT`; the name then says whether it is read as CSV or e-mail.
    """
    if head.startswith(_PNG):
        return Kind.PNG
    if head.startswith(_JPEG):
        return Kind.JPEG
    if _PDF in head[:1024]:  # PDF readers accept a little junk before the header
        return Kind.PDF
    if head.startswith(_ZIP):
        return _zip_kind(path)
    if head.startswith(_OLE):
        return _ole_kind(path)
    if _looks_binary(head):
        return "binary"
    return Kind.TEXT


def check(path: Path, head: bytes) -> Kind:
    """The kind to read ``path`` as, or an error saying why it is not read.

    The extension must agree with the content: a PDF renamed to .docx, or a
    program renamed to .txt, is refused.
    """
    name = path.name
    promised = kind_of_name(name)
    found = sniff(path, head)
    if not isinstance(found, Kind):
        if promised is not None:
            raise ExtensionMismatch(
                f"{name} is named like {promised.label}, but its content is "
                f"{_OTHER[found].split(':')[0]}. Nothing was read from it.",
                hint="check that this is the file you meant; Sottovoce reads " + SUPPORTED,
            )
        raise UnsupportedFormat(
            f"{name} is {_OTHER[found]}.", hint="Sottovoce reads " + SUPPORTED
        )
    if promised is None:
        if Path(name).suffix and found is Kind.TEXT:
            raise UnsupportedFormat(
                f"{name}: Sottovoce does not read {Path(name).suffix} files.",
                hint="Sottovoce reads " + SUPPORTED,
            )
        return found  # no extension: the content decides
    if found is Kind.TEXT and promised in _TEXTUAL:
        return promised
    if found is not promised:
        raise ExtensionMismatch(
            f"{name} is named like {promised.label}, but its content is {found.label}. "
            "Nothing was read from it.",
            hint=f"if it is {found.label}, rename it to {_suffix_for(found)} and attach it again",
        )
    return found


def _suffix_for(kind: Kind) -> str:
    return next(ext for ext, k in EXTENSIONS.items() if k is kind)


def _looks_binary(head: bytes) -> bool:
    if b"\x00" in head:
        # UTF-16 text has NULs too; its byte-order mark says so.
        return not head.startswith((b"\xff\xfe", b"\xfe\xff"))
    return False


def _zip_kind(path: Path) -> Kind | str:
    try:
        with zipfile.ZipFile(path) as z:
            names = set(z.namelist())
            if "word/document.xml" in names:
                return Kind.DOCX
            if "xl/workbook.xml" in names:
                return Kind.XLSX
            if "ppt/presentation.xml" in names:
                return "pptx"
            if "mimetype" in names:
                info = z.getinfo("mimetype")
                mime = z.read(info).decode("ascii", "replace").strip() if info.file_size < 200 else ""
                if mime == "application/vnd.oasis.opendocument.text":
                    return Kind.ODT
                if mime.startswith("application/vnd.oasis.opendocument.spreadsheet"):
                    return "ods"
                if mime.startswith("application/vnd.oasis.opendocument.presentation"):
                    return "odp"
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise CorruptDocument(
            f"{path.name} is damaged: its ZIP structure cannot be read. Nothing was read from it.",
            hint="open it in its program and save it again",
        ) from exc
    return "zip"


def _ole_kind(path: Path) -> Kind | str:
    import olefile

    try:
        with olefile.OleFileIO(str(path)) as ole:
            streams = {"/".join(s) for s in ole.listdir(streams=True, storages=True)}
    except (OSError, ValueError) as exc:
        raise CorruptDocument(
            f"{path.name} is damaged: its Office structure cannot be read.",
            hint="open it in its program and save it again",
        ) from exc
    if any(s.startswith("__substg1.0_") for s in streams):
        return Kind.MSG
    if "WordDocument" in streams:
        return "doc"
    if "Workbook" in streams or "Book" in streams:
        return "xls"
    if "PowerPoint Document" in streams:
        return "ppt"
    return "ole"
