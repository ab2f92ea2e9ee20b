"""core.documents: each format's text extracted with its lines, and how it joins a message."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.documents import (
    Extracted,
    Kind,
    Limits,
    extract,
    extract_steps,
    limits_from,
    with_attachments,
)
from core.documents.sheets import rows_to_lines
from core.documents.text import tidy
from core.settings import Settings
from training.documents import writers as w


def no_ocr() -> None:
    return None


def lines_of(doc: Extracted) -> list[str]:
    return doc.text.split("\n")


# --- each format ---------------------------------------------------------------------


def test_pdf_keeps_each_line_and_page(tmp_path: Path) -> None:
    path = w.write_pdf(
        tmp_path / "letter.pdf",
        [["Dear Dr. Ada Quill,", "apixaban 5 mg twice daily"], ["Page two line"]],
    )
    doc = extract(path, find_ocr=no_ocr)
    assert doc.kind is Kind.PDF and doc.pages == 2 and not doc.ocr
    assert lines_of(doc) == ["Dear Dr. Ada Quill,", "apixaban 5 mg twice daily", "", "Page two line"]


def test_pdf_columns_set_apart_by_wide_gaps_read_as_cells(tmp_path: Path) -> None:
    path = w.write_pdf(tmp_path / "invoice.pdf", [["Boiler service        GBP 95.00"]])
    assert extract(path).text == "Boiler service | GBP 95.00"


def test_docx_paragraphs_list_items_tables_header_in_order(tmp_path: Path) -> None:
    path = w.write_docx(
        tmp_path / "contract.docx",
        [
            "Service Agreement",
            ("list", ["Delivery within 60 days.", "Fee GBP 4,500."]),
            ("table", [["Item", "Qty", "Price"], ["Boiler", "1", "95"], ["Valve", "2", "48"]]),
            ("table", [["Employee", "Ingrid Thorvaldsen"], ["Manager", "Rupert Allardyce"]]),
            "Signed.",
        ],
        header="Calloway Digital Ltd",
    )
    doc = extract(path)
    assert doc.kind is Kind.DOCX
    assert lines_of(doc) == [
        "Calloway Digital Ltd",
        "Service Agreement",
        "- Delivery within 60 days.",
        "- Fee GBP 4,500.",
        "Item: Boiler; Qty: 1; Price: 95",
        "Item: Valve; Qty: 2; Price: 48",
        "Employee: Ingrid Thorvaldsen",
        "Manager: Rupert Allardyce",
        "Signed.",
    ]


def test_odt_paragraphs_list_items_and_table_rows(tmp_path: Path) -> None:
    path = w.write_odt(
        tmp_path / "cv.odt",
        [
            "Curriculum Vitae",
            ("list", ["Staff nurse", "Ward sister"]),
            ("table", [["Degree", "Year", "Grade"], ["BSc Nursing", "2017", "First"]]),
            ("table", [["Phone", "07700 455 310"]]),
        ],
    )
    doc = extract(path)
    assert doc.kind is Kind.ODT
    assert lines_of(doc) == [
        "Curriculum Vitae",
        "- Staff nurse",
        "- Ward sister",
        "Degree: BSc Nursing; Year: 2017; Grade: First",
        "Phone: 07700 455 310",
    ]


def test_xlsx_rows_under_a_header_read_as_labelled_values(tmp_path: Path) -> None:
    path = w.write_xlsx(
        tmp_path / "invoice.xlsx",
        {"Lines": [["Item", "Quantity", "Amount"], ["Boiler service", 1, 95.0], ["Valve", 2, 42.5]]},
    )
    doc = extract(path)
    assert doc.kind is Kind.XLSX
    assert lines_of(doc) == [
        "Item: Boiler service; Quantity: 1; Amount: 95",
        "Item: Valve; Quantity: 2; Amount: 42.5",
    ]


def test_xlsx_reads_the_first_sheets_and_rows_and_says_what_it_cut(tmp_path: Path) -> None:
    rows = [["a", "b", "c"]] + [[f"x{i}", f"y{i}", f"z{i}"] for i in range(30)]
    path = w.write_xlsx(tmp_path / "big.xlsx", {f"S{k}": rows for k in range(5)})
    doc = extract(path, limits=Limits(max_rows=10, max_sheets=2))
    assert doc.pages == 2
    assert "Sheet: S0" in doc.text and "Sheet: S1" in doc.text and "Sheet: S2" not in doc.text
    assert "a: x8; b: y8; c: z8" in doc.text and "x9" not in doc.text  # 10 rows: the header and 9
    assert "first 2 of 5 sheets read" in doc.notes
    assert "sheet 'S0': first 10 rows read" in doc.notes


def test_csv_delimiter_is_sniffed_and_rows_are_cut_with_a_note(tmp_path: Path) -> None:
    rows = [["patient", "test", "result"]] + [["Wilhelmina Strand", "HbA1c", str(50 + i)] for i in range(5)]
    path = w.write_csv(tmp_path / "lab.csv", rows, delimiter=";")
    doc = extract(path, limits=Limits(max_rows=3))
    assert doc.kind is Kind.CSV
    assert lines_of(doc) == [
        "patient: Wilhelmina Strand; test: HbA1c; result: 50",
        "patient: Wilhelmina Strand; test: HbA1c; result: 51",
    ]
    assert doc.notes == ("first 3 rows read",)


@pytest.mark.parametrize("suffix", [".txt", ".md"])
def test_text_and_markdown_lines_as_they_are(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"notes{suffix}"
    path.write_text("# Notes\r\n\r\n- Blood pressure 162/98 mmHg   \r\n- Started amlodipine\r\n", "utf-8")
    doc = extract(path)
    assert doc.kind is Kind.TEXT
    assert lines_of(doc) == ["# Notes", "", "- Blood pressure 162/98 mmHg", "- Started amlodipine"]


def test_text_not_in_utf8_is_read_in_the_charset_found_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "legacy.txt"
    path.write_bytes("Bonjour Ms. Hélène Dufrêne, le rendez-vous du médecin est à 9 h.\n".encode("cp1252"))
    doc = extract(path)
    assert "Hélène Dufrêne" in doc.text
    assert doc.notes == ("not UTF-8: read as Windows-1252 (Western European); check accented letters",)


def test_eml_headers_body_and_attachments_listed_not_opened(tmp_path: Path) -> None:
    path = w.write_eml(
        tmp_path / "ticket.eml",
        {
            "From": "Leopold Brannigan <leopold@example.com>",
            "To": "Support <support@example.com>",
            "Cc": "Ana Ruiz <ana@example.com>",
            "Date": "Tue, 04 Mar 2025 09:12:00 +0000",
            "Subject": "Router keeps dropping",
            "X-Internal": "not shown",
        },
        "Hello,\n\nmy router AX-3000 drops every 20 minutes.\n",
        attachments=[("scan.pdf", b"%PDF-1.4 secret inside"), ("photo.jpg", b"\xff\xd8\xff")],
    )
    doc = extract(path)
    assert doc.kind is Kind.EML
    assert lines_of(doc) == [
        "From: Leopold Brannigan <leopold@example.com>",
        "To: Support <support@example.com>",
        "Cc: Ana Ruiz <ana@example.com>",
        "Date: Tue, 04 Mar 2025 09:12:00 +0000",
        "Subject: Router keeps dropping",
        "",
        "Hello,",
        "",
        "my router AX-3000 drops every 20 minutes.",
        "",
        "Attachments (not opened): scan.pdf, photo.jpg",
    ]
    assert doc.notes == ("2 attachments listed, not opened",)
    assert "secret inside" not in doc.text


def test_eml_with_only_an_html_body_reads_its_text(tmp_path: Path) -> None:
    msg = (
        "From: a@example.com\nTo: b@example.com\nSubject: Hi\nMIME-Version: 1.0\n"
        "Content-Type: text/html; charset=utf-8\n\n"
        "<html><head><style>p{}</style></head><body><p>First line</p>"
        "<table><tr><td>Ferritin</td><td>9 ug/L</td></tr></table><script>x()</script></body></html>\n"
    )
    path = tmp_path / "html.eml"
    path.write_text(msg, "utf-8")
    text = extract(path).text
    assert "First line" in text and "Ferritin | 9 ug/L" in text
    assert "p{}" not in text and "x()" not in text


def test_msg_headers_body_and_attachments_listed_not_opened(tmp_path: Path) -> None:
    import datetime as dt

    from training.documents.msgfile import write_msg

    path = write_msg(
        tmp_path / "ticket.msg",
        subject="Router keeps dropping",
        body="Hello,\r\nmy router AX-3000 drops every 20 minutes.\r\n",
        sender="Leopold Brannigan",
        to=("Support Desk", "support@example.com"),
        cc=("Ana Ruiz", "ana@example.com"),
        sent=dt.datetime(2025, 3, 4, 9, 12, tzinfo=dt.UTC),
        # One attachment small (in the mini stream), one large (in sectors).
        attachments=(("scan.pdf", b"%PDF-1.4 secret inside"), ("photo.jpg", b"\xff\xd8\xff" * 2000)),
    )
    doc = extract(path)
    assert doc.kind is Kind.MSG
    assert lines_of(doc) == [
        "From: Leopold Brannigan",
        "To: Support Desk <support@example.com>",
        "Cc: Ana Ruiz <ana@example.com>",
        "Date: 2025-03-04 09:12:00+00:00",
        "Subject: Router keeps dropping",
        "",
        "Hello,",
        "my router AX-3000 drops every 20 minutes.",
        "",
        "Attachments (not opened): scan.pdf, photo.jpg",
    ]
    assert doc.notes == ("2 attachments listed, not opened",)
    assert "secret inside" not in doc.text


def test_a_file_without_extension_is_read_as_its_content_says(tmp_path: Path) -> None:
    path = w.write_pdf(tmp_path / "scan", [["A line"]])
    doc = extract(path)
    assert doc.kind is Kind.PDF and doc.text == "A line"


# --- how the text joins a message ----------------------------------------------------


def test_the_block_is_a_header_line_naming_the_file_then_the_text() -> None:
    doc = Extracted("discharge_letter.pdf", Kind.PDF, "Line one\nLine two")
    assert doc.block() == "Attached: discharge_letter.pdf\n\nLine one\nLine two"
    joined = with_attachments("Summarize this.\n", [doc, Extracted("b.txt", Kind.TEXT, "B")])
    assert joined == (
        "Summarize this.\n\nAttached: discharge_letter.pdf\n\nLine one\nLine two\n\nAttached: b.txt\n\nB"
    )
    assert with_attachments("  ", [doc]) == doc.block()


def test_the_shown_name_may_differ_from_the_path(tmp_path: Path) -> None:
    path = tmp_path / "tmp123.txt"
    path.write_text("hello", "utf-8")
    assert extract(path, name="letter.txt").block().startswith("Attached: letter.txt\n")


def test_the_size_limit_comes_from_the_settings() -> None:
    assert limits_from(Settings(document_max_mb=1.5)).max_bytes == int(1.5 * 1024 * 1024)
    assert limits_from(Settings()).max_bytes == 20 * 1024 * 1024


def test_progress_is_a_step_per_page_and_closing_the_steps_stops_reading(tmp_path: Path) -> None:
    path = w.write_pdf(tmp_path / "pages.pdf", [[f"Page {i}"] for i in range(5)])
    steps = extract_steps(path)
    first = next(steps)
    assert (first.done, first.total) == (0, 5)
    steps.close()  # what a worker's Cancel does between pages
    with pytest.raises(StopIteration):
        next(steps)
    seen = []
    doc = extract(path, on_progress=seen.append)
    assert [(s.done, s.total) for s in seen] == [(i, 5) for i in range(5)]
    assert doc.pages == 5


def test_rows_to_lines_forms_tables_and_plain_rows() -> None:
    assert rows_to_lines([["Name", "Jane Roe"], ["", ""], ["DOB", "1980-01-02"]]) == [
        "Name: Jane Roe",
        "DOB: 1980-01-02",
    ]
    assert rows_to_lines([["1", "2", "3"], ["4", "5", "6"]]) == ["1 | 2 | 3", "4 | 5 | 6"]
    assert rows_to_lines([["12", "34"]]) == ["12 | 34"]
    assert rows_to_lines([]) == []


# --- property: any text round-trips through a TXT file -------------------------------

_LINE = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\ufeff"
    ),
    max_size=40,
).map(lambda s: unicodedata.normalize("NFC", s).rstrip())


def _as_written(lines: list[str]) -> str:
    """Lines as a person writes them: no blank runs, no blank first or last line."""
    out: list[str] = []
    for line in lines:
        if not line.strip() and (not out or not out[-1].strip()):
            continue
        out.append(line if line.strip() else "")
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_LINE, min_size=1, max_size=12), crlf=st.booleans())
def test_random_text_round_trips_through_a_txt_file(
    tmp_path: Path, lines: list[str], crlf: bool
) -> None:
    text = _as_written(lines)
    if not text.strip():
        return
    path = tmp_path / "random.txt"
    path.write_bytes(text.replace("\n", "\r\n" if crlf else "\n").encode("utf-8"))
    doc = extract(path, find_ocr=no_ocr)
    assert doc.text == text
    assert tidy(doc.text) == doc.text
