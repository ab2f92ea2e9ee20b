"""OCR with Tesseract, a system program, called as a subprocess.

Tesseract is not a Python package: it is installed with the system's package
manager (README names the command per platform). Sottovoce calls the binary
directly with the image on standard input and the text on standard output, so
no rendered page is ever written to disk. (pytesseract does the same through
temporary files and would add nothing here.)

PDF pages without a text layer are rendered with pypdfium2, a wheel on every
platform that bundles PDFium, so scanned PDFs need no second system package
(``pdftoppm`` would need poppler, which Windows does not have).
"""

from __future__ import annotations

import io
import logging
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from core.documents.errors import FileTooLarge, OcrFailed

log = logging.getLogger(__name__)

#: Where the Windows installer puts the program when it is not on PATH.
_WINDOWS_DEFAULT = Path(r"C:\Program Files\Tesseract-OCR\tesseract.exe")

#: The resolution pages are rendered at for OCR (Tesseract's documented sweet spot).
RENDER_DPI = 300


@dataclass(frozen=True)
class Tesseract:
    """The Tesseract program and how it is called."""

    binary: str
    lang: str = "eng"
    timeout_s: float = 120.0

    def read_image(self, image: bytes | Path, *, name: str, dpi: int | None = None) -> str:
        """The text of one image (PNG or JPEG bytes, or a path), lines as Tesseract finds them."""
        args = [self.binary, "stdin", "stdout", "-l", self.lang]
        if dpi:
            args += ["--dpi", str(dpi)]
        data = image.read_bytes() if isinstance(image, Path) else image
        env = {**os.environ, "OMP_THREAD_LIMIT": "1"}  # one page at a time; keeps the GUI responsive
        try:
            done = subprocess.run(
                args, input=data, capture_output=True, timeout=self.timeout_s, env=env, check=False
            )
        except subprocess.TimeoutExpired as exc:
            raise OcrFailed(
                f"OCR of {name} took longer than {self.timeout_s:.0f} s and was stopped.",
                hint="attach a smaller or clearer scan",
            ) from exc
        except OSError as exc:
            raise OcrFailed(f"Tesseract could not be started to read {name}.") from exc
        if done.returncode != 0:
            # Tesseract's own message (a missing language pack, say) holds no document text.
            why = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise OcrFailed(
                f"Tesseract could not read {name}: {why[-1] if why else 'no reason given'}.",
                hint=f"check that the language pack '{self.lang}' is installed",
            )
        return done.stdout.decode("utf-8", "replace")


def find_tesseract(lang: str = "eng") -> Tesseract | None:
    """The installed Tesseract, or None. ``SOTTOVOCE_TESSERACT`` may name the program."""
    named = os.environ.get("SOTTOVOCE_TESSERACT")
    if named is not None:
        # Set but empty: behave as if Tesseract were absent (tests, or a person who wants no OCR).
        found = shutil.which(named) if named else None
    else:
        found = shutil.which("tesseract")
        if found is None and os.name == "nt" and _WINDOWS_DEFAULT.exists():
            found = str(_WINDOWS_DEFAULT)
    return Tesseract(found, lang) if found else None


def check_pixels(width: int, height: int, name: str, max_pixels: int) -> None:
    """Refuse an image too large to read (a decompression bomb looks like this)."""
    if width * height > max_pixels:
        raise FileTooLarge(
            f"{name} is an image of {width:,} x {height:,} pixels, more than can be read "
            f"safely ({max_pixels:,} pixels). Nothing was read from it.",
            hint="scale the image down and attach it again",
        )


def render_page(pdf: object, index: int, name: str, max_pixels: int) -> bytes:
    """Page ``index`` of an open pypdfium2 document as PNG bytes, at up to 300 dpi."""
    import pypdfium2 as pdfium

    assert isinstance(pdf, pdfium.PdfDocument)
    page = pdf[index]
    try:
        w, h = page.get_size()  # in points, 1/72 inch
        scale = RENDER_DPI / 72
        # A huge page is rendered at a lower resolution rather than refused.
        if w * h * scale * scale > max_pixels:
            scale = (max_pixels / max(w * h, 1.0)) ** 0.5
        bitmap = page.render(scale=scale, grayscale=True)
        image = bitmap.to_pil()
        out = io.BytesIO()
        image.save(out, format="PNG")
        return out.getvalue()
    finally:
        page.close()
