"""PNG and JPEG: read by OCR (Tesseract), the size checked with Pillow first."""

from __future__ import annotations

from collections.abc import Callable, Generator
from pathlib import Path

from core.documents.errors import CorruptDocument, OcrUnavailable
from core.documents.model import Limits, Progress
from core.documents.ocr import Tesseract, check_pixels
from core.documents.reading import Draft


def read_image(
    path: Path, name: str, limits: Limits, find_ocr: Callable[[], Tesseract | None]
) -> Generator[Progress, None, Draft]:
    """The text Tesseract reads in the image."""
    from PIL import Image, UnidentifiedImageError

    try:
        # Opening reads the header only: the pixel count is checked before decoding.
        with Image.open(path) as image:
            width, height = image.size
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as exc:
        raise CorruptDocument(
            f"{name} is a damaged image: it cannot be read. Nothing was read from it."
        ) from exc
    check_pixels(width, height, name, limits.max_pixels)
    engine = find_ocr()
    if engine is None:
        raise OcrUnavailable(name)
    yield Progress(0, 1, f"OCR: {name}", ocr=True)
    text = engine.read_image(path, name=name)
    yield Progress(1, 1, "OCR done", ocr=True)
    return Draft(text, notes=["read by OCR: check names and numbers"], ocr_pages=1)
