"""Writers of small documents in each format, for the dev set and the tests.

Each takes a path and plain content (lines, table rows) and writes a real file
with a well-kept library: fpdf2 for PDF, python-docx, odfpy, openpyxl, the
standard library for CSV and e-mail, Pillow for images. No library on PyPI
writes Outlook files (extract-msg only reads them): :mod:`training.documents.msgfile`
writes a minimal MSG by hand.
"""

from __future__ import annotations

import csv
import datetime as dt
import zipfile
from collections.abc import Sequence
from email.message import EmailMessage
from pathlib import Path

#: A block of a word-processing document: a paragraph (str), a list ("list", items)
#: or a table ("table", rows).
_EPOCH = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)

Block = str | tuple[str, Sequence[str] | Sequence[Sequence[str]]]


def write_pdf(path: Path, pages: Sequence[Sequence[str]], *, password: str | None = None) -> Path:
    """A PDF with a text layer: each page's lines in Helvetica (Latin-1 text only)."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_creation_date(_EPOCH)  # a reproducible file
    pdf.set_font("Helvetica", size=11)
    for lines in pages:
        pdf.add_page()
        for line in lines:
            pdf.multi_cell(0, 6, line or " ", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    if password is not None:
        from pypdf import PdfReader, PdfWriter

        writer = PdfWriter(clone_from=PdfReader(path))
        writer.encrypt(user_password=password, owner_password=password + "-owner", algorithm="AES-128")
        with path.open("wb") as fh:
            writer.write(fh)
    return path


def text_image(lines: Sequence[str], *, size: int = 36) -> bytes:
    """PNG bytes of black text on white, large enough for OCR."""
    import io

    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default(size=size)
    height = (size + size // 2) * (len(lines) + 2)
    image = Image.new("L", (1700, height), 255)
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw.text((60, size + i * (size + size // 2)), line, fill=0, font=font)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def write_png(path: Path, lines: Sequence[str]) -> Path:
    path.write_bytes(text_image(lines))
    return path


def write_jpeg(path: Path, lines: Sequence[str]) -> Path:
    import io

    from PIL import Image

    Image.open(io.BytesIO(text_image(lines))).convert("RGB").save(path, format="JPEG", quality=90)
    return path


def write_scanned_pdf(path: Path, pages: Sequence[Sequence[str]]) -> Path:
    """A PDF whose pages are images of text and have no text layer (a scan)."""
    import io

    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_creation_date(_EPOCH)
    for lines in pages:
        pdf.add_page()
        pdf.image(io.BytesIO(text_image(lines)), x=0, y=10, w=210)
    pdf.output(str(path))
    return path


def write_docx(path: Path, blocks: Sequence[Block], *, header: str | None = None) -> Path:
    """A Word document: paragraphs, bulleted lists and tables, in order."""
    import docx

    doc = docx.Document()
    if header:
        doc.sections[0].header.paragraphs[0].text = header
    for block in blocks:
        if isinstance(block, str):
            doc.add_paragraph(block)
        elif block[0] == "list":
            for item in block[1]:
                doc.add_paragraph(str(item), style="List Bullet")
        else:
            rows = [list(r) for r in block[1]]
            table = doc.add_table(rows=len(rows), cols=max(len(r) for r in rows))
            for i, row in enumerate(rows):
                for j, value in enumerate(row):
                    table.cell(i, j).text = value
    doc.save(str(path))
    return path


def write_odt(path: Path, blocks: Sequence[Block]) -> Path:
    """An OpenDocument text: paragraphs, lists and tables, in order."""
    from odf import table, text
    from odf.opendocument import OpenDocumentText

    doc = OpenDocumentText()
    for block in blocks:
        if isinstance(block, str):
            doc.text.addElement(text.P(text=block))
        elif block[0] == "list":
            lst = text.List()
            for item in block[1]:
                li = text.ListItem()
                li.addElement(text.P(text=str(item)))
                lst.addElement(li)
            doc.text.addElement(lst)
        else:
            rows = [list(r) for r in block[1]]
            t = table.Table()
            t.addElement(table.TableColumn(numbercolumnsrepeated=max(len(r) for r in rows)))
            for row in rows:
                tr = table.TableRow()
                for value in row:
                    cell = table.TableCell()
                    cell.addElement(text.P(text=value))
                    tr.addElement(cell)
                t.addElement(tr)
            doc.text.addElement(t)
    doc.save(str(path))
    return path


def write_xlsx(path: Path, sheets: dict[str, Sequence[Sequence[object]]]) -> Path:
    """A workbook with one sheet per entry, rows as given."""
    from openpyxl import Workbook

    wb = Workbook()
    first = True
    for title, rows in sheets.items():
        ws = wb.active if first else wb.create_sheet()
        assert ws is not None
        ws.title = title
        first = False
        for row in rows:
            ws.append(list(row))
    wb.save(str(path))
    return path


def write_csv(path: Path, rows: Sequence[Sequence[object]], *, delimiter: str = ",") -> Path:
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, delimiter=delimiter).writerows(rows)
    return path


def write_eml(
    path: Path,
    headers: dict[str, str],
    body: str,
    *,
    html: str | None = None,
    attachments: Sequence[tuple[str, bytes]] = (),
) -> Path:
    """An e-mail (RFC 5322), with a plain body, an optional HTML one, and attachments."""
    msg = EmailMessage()
    for key, value in headers.items():
        msg[key] = value
    msg.set_content(body)
    if html is not None:
        msg.add_alternative(html, subtype="html")
    for name, data in attachments:
        msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    path.write_bytes(bytes(msg))
    return path


def write_zip_bomb(path: Path, *, inflated_mb: int = 64) -> Path:
    """A DOCX (or, named .xlsx, an XLSX) with a member that inflates about 1000-fold (zeros)."""
    if path.suffix.lower() == ".xlsx":
        write_xlsx(path, {"Sheet": [["An ordinary", "first row"]]})
    else:
        write_docx(path, ["An ordinary first paragraph."])
    with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as z, z.open(
        "word/media/image1.bin", "w", force_zip64=True
    ) as member:
        chunk = bytes(1024 * 1024)
        for _ in range(inflated_mb):
            member.write(chunk)
    return path
