"""core.documents: each bad file gets its one clear error, naming the file, and no text.

Point 4 of the issue: over the size limit, more than 200 pages, an encrypted
PDF, a corrupt DOCX or XLSX, a ZIP bomb disguised as a DOCX or XLSX, a file
whose extension lies about its content, an empty file, a file with no
extractable text; and a scan when Tesseract is not installed.
"""

from __future__ import annotations

import shutil
import struct
import zipfile
from pathlib import Path

import pytest

from core.documents import (
    CorruptDocument,
    DocumentError,
    EmptyDocument,
    EncryptedDocument,
    ExtensionMismatch,
    FileTooLarge,
    Limits,
    NoTextFound,
    OcrUnavailable,
    TooManyPages,
    UnsupportedFormat,
    ZipBomb,
    extract,
)
from core.errors import InputError
from training.documents import writers as w


def no_ocr() -> None:
    return None


def refused(path: Path, error: type[DocumentError], *, limits: Limits | None = None) -> DocumentError:
    """Extract ``path``, expecting ``error``; its message names the file and reads as a sentence."""
    with pytest.raises(error) as info:
        extract(path, limits=limits, find_ocr=no_ocr)
    exc = info.value
    assert type(exc) is error, f"{type(exc).__name__}: {exc}"
    assert isinstance(exc, InputError)  # one boundary in the UI, exit status 2 on the command line
    assert path.name in exc.message
    assert exc.message.endswith(".")
    return exc


def test_over_the_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_text("word " * 50_000, "utf-8")
    exc = refused(path, FileTooLarge, limits=Limits(max_bytes=100_000))
    assert "0.2 MB" in exc.message and "limit" in exc.message and exc.hint


def test_more_than_200_pages(tmp_path: Path) -> None:
    path = w.write_pdf(tmp_path / "long.pdf", [[f"Page {i}"] for i in range(201)])
    exc = refused(path, TooManyPages)
    assert "201 pages" in exc.message and "200" in exc.message


def test_200_pages_are_read(tmp_path: Path) -> None:
    path = w.write_pdf(tmp_path / "long.pdf", [[f"Page {i}"] for i in range(200)])
    assert extract(path).pages == 200


def test_a_docx_declaring_more_pages_than_the_limit(tmp_path: Path) -> None:
    path = w.write_docx(tmp_path / "long.docx", ["One paragraph"])
    _rewrite_member(path, "docProps/app.xml", b"<Properties><Pages>350</Pages></Properties>")
    refused(path, TooManyPages)


def test_a_password_protected_pdf(tmp_path: Path) -> None:
    path = w.write_pdf(tmp_path / "secret.pdf", [["Private line"]], password="s3cret")
    exc = refused(path, EncryptedDocument)
    assert "password" in exc.message


def test_a_pdf_encrypted_only_against_copying_opens_with_no_password(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    path = w.write_pdf(tmp_path / "restricted.pdf", [["Readable line"]])
    writer = PdfWriter(clone_from=PdfReader(path))
    writer.encrypt(user_password="", owner_password="owner", algorithm="AES-128")
    with path.open("wb") as fh:
        writer.write(fh)
    assert extract(path).text == "Readable line"


def _rewrite_member(path: Path, member: str, data: bytes) -> None:
    """Replace one member of a ZIP (the others copied as they are)."""
    tmp = path.with_suffix(".tmp")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename != member:
                dst.writestr(info, src.read(info))
        dst.writestr(member, data)
    tmp.replace(path)


@pytest.mark.parametrize("suffix", [".docx", ".xlsx"])
def test_a_truncated_office_file_is_corrupt(tmp_path: Path, suffix: str) -> None:
    good = tmp_path / f"good{suffix}"
    if suffix == ".docx":
        w.write_docx(good, ["Some text"])
    else:
        w.write_xlsx(good, {"S": [["a", "b"], ["c", "d"]]})
    path = tmp_path / f"broken{suffix}"
    path.write_bytes(good.read_bytes()[:3000])
    exc = refused(path, CorruptDocument)
    assert "damaged" in exc.message


@pytest.mark.parametrize(
    ("suffix", "member"), [(".docx", "word/document.xml"), (".xlsx", "xl/worksheets/sheet1.xml")]
)
def test_an_office_file_with_broken_xml_inside_is_corrupt(tmp_path: Path, suffix: str, member: str) -> None:
    path = tmp_path / f"broken{suffix}"
    if suffix == ".docx":
        w.write_docx(path, ["Some text"])
    else:
        w.write_xlsx(path, {"S": [["a", "b"], ["c", "d"]]})
    _rewrite_member(path, member, b"<w:document><unclosed")
    refused(path, CorruptDocument)


@pytest.mark.parametrize("suffix", [".docx", ".xlsx"])
def test_a_zip_bomb_disguised_as_an_office_file(tmp_path: Path, suffix: str) -> None:
    path = w.write_zip_bomb(tmp_path / f"bomb{suffix}", inflated_mb=16)
    assert path.stat().st_size < 200_000
    exc = refused(path, ZipBomb)
    assert "ZIP bomb" in exc.message


def test_a_zip_with_more_unpacked_bytes_than_the_limit(tmp_path: Path) -> None:
    path = w.write_zip_bomb(tmp_path / "bomb.docx", inflated_mb=3)
    refused(path, ZipBomb, limits=Limits(max_zip_ratio=1e9, max_unzipped_bytes=2 * 1024 * 1024))


def test_a_member_that_inflates_past_its_declared_size_is_cut_and_fails(tmp_path: Path) -> None:
    """The directory says 100 bytes; reading stops there and the CRC check fails the file."""
    path = w.write_docx(tmp_path / "liar.docx", ["A paragraph long enough to be cut short " * 20])
    data = bytearray(path.read_bytes())
    name = b"word/document.xml"
    # Find the central directory entry of the member and lower its uncompressed size.
    at = 0
    while True:
        at = data.index(b"PK\x01\x02", at)
        n = struct.unpack_from("<H", data, at + 28)[0]
        if bytes(data[at + 46 : at + 46 + n]) == name:
            break
        at += 4
    struct.pack_into("<I", data, at + 24, 100)
    path.write_bytes(bytes(data))
    refused(path, CorruptDocument)


@pytest.mark.parametrize(
    ("make", "lie", "says"),
    [
        (lambda p: w.write_pdf(p, [["text"]]), "report.docx", "a PDF"),
        (lambda p: w.write_docx(p, ["text"]), "letter.pdf", "a Word document"),
        (lambda p: w.write_png(p, ["text"]), "notes.txt", "a PNG image"),
        (lambda p: w.write_xlsx(p, {"S": [["a", "b"]]}), "cv.docx", "an Excel workbook"),
        (lambda p: p.write_text("just some text", "utf-8"), "scan.pdf", "a text file"),
        (lambda p: p.write_bytes(b"MZ\x90\x00\x03\x00\x00\x00" * 64), "readme.txt", "not a document"),
    ],
)
def test_a_file_whose_extension_lies(tmp_path: Path, make, lie: str, says: str) -> None:  # type: ignore[no-untyped-def]
    real = tmp_path / "real"
    make(real)
    path = tmp_path / lie
    shutil.copy(real, path)
    exc = refused(path, ExtensionMismatch)
    assert says in exc.message


def test_an_old_office_file_is_not_read_and_a_renamed_one_is_a_lie(tmp_path: Path) -> None:
    from training.documents.msgfile import write_cfb

    streams = {"WordDocument": b"\x00" * 600, "1Table": b"\x00" * 100}
    exc = refused(write_cfb(tmp_path / "letter.doc", streams), UnsupportedFormat)
    assert "old Word document" in exc.message and exc.hint
    exc = refused(write_cfb(tmp_path / "mail.msg", streams), ExtensionMismatch)
    assert "Outlook e-mail" in exc.message and "old Word document" in exc.message


def test_an_outlook_item_that_is_not_an_e_mail(tmp_path: Path) -> None:
    from training.documents.msgfile import write_cfb

    path = write_cfb(
        tmp_path / "contact.msg",
        {
            "__properties_version1.0": bytes(32),
            "__substg1.0_001A001F": "IPM.Contact".encode("utf-16-le"),
            "__substg1.0_3001001F": "Ana Ruiz".encode("utf-16-le"),
        },
    )
    exc = refused(path, UnsupportedFormat)
    assert "not an e-mail" in exc.message


def test_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    exc = refused(path, EmptyDocument)
    assert "0 bytes" in exc.message


def test_a_text_file_of_blank_space(tmp_path: Path) -> None:
    path = tmp_path / "blank.txt"
    path.write_text("  \n\n\t \n", "utf-8")
    refused(path, EmptyDocument)


def test_a_pdf_with_no_text(tmp_path: Path) -> None:
    path = w.write_pdf(tmp_path / "blank.pdf", [[""], [""]])
    refused(path, NoTextFound)


def test_a_docx_with_no_text(tmp_path: Path) -> None:
    path = w.write_docx(tmp_path / "blank.docx", ["", "   "])
    refused(path, NoTextFound)


def test_a_scan_without_tesseract_says_what_to_install(tmp_path: Path) -> None:
    path = w.write_scanned_pdf(tmp_path / "scan.pdf", [["Scanned letter"]])
    exc = refused(path, OcrUnavailable)
    assert exc.hint is not None
    for command in ("apt-get install tesseract-ocr", "dnf install tesseract", "brew install tesseract", "Windows"):
        assert command in exc.hint


def test_an_image_without_tesseract_says_what_to_install(tmp_path: Path) -> None:
    refused(w.write_png(tmp_path / "photo.png", ["Some text"]), OcrUnavailable)


def test_a_pdf_with_text_and_a_scanned_page_without_tesseract_says_which_page_was_not_read(
    tmp_path: Path,
) -> None:
    from pypdf import PdfReader, PdfWriter

    text = w.write_pdf(tmp_path / "text.pdf", [["Typed page"]])
    scan = w.write_scanned_pdf(tmp_path / "scan.pdf", [["Scanned page"]])
    writer = PdfWriter()
    for part in (text, scan):
        for page in PdfReader(part).pages:
            writer.add_page(page)
    path = tmp_path / "mixed.pdf"
    with path.open("wb") as fh:
        writer.write(fh)
    doc = extract(path, find_ocr=no_ocr)
    assert doc.text == "Typed page"
    assert doc.notes == ("page 2 has no text layer and was not read: install Tesseract to read scans",)


def test_a_damaged_pdf(tmp_path: Path) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.7\n" + b"garbage " * 200)
    refused(path, CorruptDocument)


def test_an_e_mail_name_on_a_text_that_is_not_one(tmp_path: Path) -> None:
    path = tmp_path / "note.eml"
    path.write_text("Just a note, no headers at all.", "utf-8")
    refused(path, CorruptDocument)


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("archive.zip", None),
        ("movie.mp4", b"\x00\x00\x00\x18ftypmp42" + bytes(100)),
        ("slides.key", b"plain words"),
    ],
)
def test_formats_not_read(tmp_path: Path, name: str, data: bytes | None) -> None:
    path = tmp_path / name
    if data is None:
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("a.txt", "hello")
    else:
        path.write_bytes(data)
    exc = refused(path, UnsupportedFormat)
    assert exc.hint and "PDF, DOCX" in exc.hint


def test_a_folder_and_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match="folder"):
        extract(tmp_path)
    with pytest.raises(DocumentError, match="does not exist"):
        extract(tmp_path / "nope.pdf")
