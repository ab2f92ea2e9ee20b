"""core.documents with Tesseract: images and scanned PDF pages read by OCR, page by page.

These tests need the Tesseract program (a system package); where it is not
installed they are skipped with the command that installs it. ``.ci/run``
installs it where it can (apt-get, as root).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.documents import Kind, OcrFailed, Tesseract, extract, extract_steps, find_tesseract
from training.documents import writers as w

pytestmark = pytest.mark.skipif(
    find_tesseract() is None,
    reason="Tesseract is not installed: apt-get install tesseract-ocr (Debian/Ubuntu), "
    "dnf install tesseract (Fedora), brew install tesseract (macOS), or the Windows installer",
)

LINES = ["Patient: Rosalind Achterberg", "Ferritin 9 ug/L (reference 30-400)", "Hospital number: NGH-4471902"]


@pytest.mark.parametrize("write", [w.write_png, w.write_jpeg], ids=["png", "jpeg"])
def test_an_image_is_read_line_by_line(tmp_path: Path, write) -> None:  # type: ignore[no-untyped-def]
    doc = extract(write(tmp_path / "photo.img", LINES))
    assert doc.kind in (Kind.PNG, Kind.JPEG)
    assert doc.text.split("\n") == LINES
    assert doc.ocr and doc.ocr_pages == 1
    assert doc.notes == ("read by OCR: check names and numbers",)


def test_a_scanned_pdf_is_read_by_ocr_a_step_per_page(tmp_path: Path) -> None:
    path = w.write_scanned_pdf(tmp_path / "scan.pdf", [LINES[:2], LINES[2:]])
    steps = []
    doc = extract(path, on_progress=steps.append)
    assert doc.text.split("\n") == [*LINES[:2], "", *LINES[2:]]
    assert doc.pages == 2 and doc.ocr_pages == 2
    assert [(s.done, s.total) for s in steps if s.ocr] == [(0, 2), (1, 2), (2, 2)]
    assert doc.notes == ("pages 1, 2 read by OCR: check names and numbers",)


def test_only_the_pages_without_a_text_layer_go_to_ocr(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for part in (
        w.write_pdf(tmp_path / "typed.pdf", [["Typed page"]]),
        w.write_scanned_pdf(tmp_path / "scan.pdf", [["Scanned page"]]),
    ):
        for page in PdfReader(part).pages:
            writer.add_page(page)
    path = tmp_path / "mixed.pdf"
    with path.open("wb") as fh:
        writer.write(fh)
    doc = extract(path)
    assert doc.text == "Typed page\n\nScanned page"
    assert doc.ocr_pages == 1 and doc.notes == ("page 2 read by OCR: check names and numbers",)


def test_cancel_between_pages_stops_ocr(tmp_path: Path) -> None:
    path = w.write_scanned_pdf(tmp_path / "scan.pdf", [["One"], ["Two"], ["Three"]])
    steps = extract_steps(path)
    ocr_steps = 0
    for step in steps:
        if step.ocr:
            ocr_steps += 1
            break
    steps.close()  # a worker's Cancel: the generator is closed at its yield
    assert ocr_steps == 1
    with pytest.raises(StopIteration):
        next(steps)


def test_a_missing_language_pack_is_a_clear_error(tmp_path: Path) -> None:
    engine = find_tesseract()
    assert engine is not None
    path = w.write_png(tmp_path / "photo.png", ["Some text"])
    with pytest.raises(OcrFailed, match=r"photo\.png") as info:
        extract(path, find_ocr=lambda: Tesseract(engine.binary, lang="zzz"))
    assert info.value.hint is not None and "zzz" in info.value.hint
