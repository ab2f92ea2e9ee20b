"""Render sottovoce.svg to the icon files the installers use (run after editing the SVG).

    .venv/bin/python installers/assets/make_icons.py

Writes sottovoce.png (256 px, Linux desktop entry and window icon),
sottovoce.ico (Windows, 16-256 px) and sottovoce.icns (macOS). Needs PySide6
(QtSvg) and Pillow, both in the development environment.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ICO_SIZES = [16, 24, 32, 48, 64, 128, 256]


def render(size: int) -> bytes:
    """The SVG as PNG bytes, ``size`` pixels square, transparent background."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(HERE / "sottovoce.svg"))
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, "PNG")
    return bytes(data.data())


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PIL import Image
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication(sys.argv[:1])  # noqa: F841 - QImage painting needs one
    (HERE / "sottovoce.png").write_bytes(render(256))
    big = Image.open(io.BytesIO(render(1024))).convert("RGBA")
    big.resize((256, 256), Image.Resampling.LANCZOS).save(
        HERE / "sottovoce.ico", sizes=[(s, s) for s in ICO_SIZES]
    )
    big.save(HERE / "sottovoce.icns")
    for name in ("sottovoce.png", "sottovoce.ico", "sottovoce.icns"):
        print(f"{name}: {(HERE / name).stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
