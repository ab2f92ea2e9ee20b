"""Colours, painted badges and the application style.

The routing colours are never the only cue: a sentence that stays on the
machine also carries a padlock badge and a dotted underline, a sentence bound
for the cloud a cloud badge; a protected private detail a solid underline, one
the person chose to send as written a wavy one. The badges are painted here
(not loaded from files) so they stay crisp at any scale and ship with no
assets.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QIcon,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QPixmap,
)
from PySide6.QtWidgets import QApplication, QHBoxLayout, QStyle, QVBoxLayout, QWidget


@dataclass(frozen=True)
class Palette:
    local_bg: QColor
    local_fg: QColor  # badge and dotted underline
    cloud_bg: QColor
    cloud_fg: QColor
    entity: QColor  # protected entity underline
    exposed: QColor  # entity sent as written (the person's choice)
    sent: QColor  # entity sent as written by the type policy (public, or low-risk at this level)
    placeholder_bg: QColor
    muted: QColor


COLORS = Palette(
    local_bg=QColor("#fdebc8"),
    local_fg=QColor("#a0620b"),
    cloud_bg=QColor("#dcebfb"),
    cloud_fg=QColor("#2364aa"),
    entity=QColor("#6b3fa0"),
    exposed=QColor("#c0392b"),
    sent=QColor("#6b7280"),
    placeholder_bg=QColor("#ece3f7"),
    muted=QColor("#6b7280"),
)


def _painted(
    size: int, draw: Callable[[QPainter, float], None], height: int | None = None
) -> QPixmap:
    """A transparent pixmap, ``size`` wide (and high, unless ``height``), painted
    by ``draw(painter, scale)``: icons are drawn on a 16-unit grid, ``scale``
    pixels to the unit."""
    pm = QPixmap(size, height or size)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    draw(p, size / 16)
    p.end()
    return pm


def _outline(p: QPainter, color: QColor, width: float) -> None:
    p.setPen(QPen(color, width))
    p.setBrush(Qt.BrushStyle.NoBrush)


def _filled(p: QPainter, color: QColor) -> None:
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(color))


def lock_pixmap(size: int = 16, color: QColor | None = None) -> QPixmap:
    """A padlock: the badge of a sentence that stays on this machine."""
    c = color or COLORS.local_fg

    def draw(p: QPainter, s: float) -> None:
        _outline(p, c, 1.6 * s)
        p.drawArc(QRectF(4.5 * s, 1.5 * s, 7 * s, 9 * s), 0, 180 * 16)
        p.drawLine(QPointF(4.5 * s, 6 * s), QPointF(4.5 * s, 7.5 * s))
        p.drawLine(QPointF(11.5 * s, 6 * s), QPointF(11.5 * s, 7.5 * s))
        _filled(p, c)
        p.drawRoundedRect(QRectF(2.5 * s, 7 * s, 11 * s, 8 * s), 1.5 * s, 1.5 * s)
        p.setBrush(QBrush(QColor("white")))
        p.drawEllipse(QPointF(8 * s, 10.6 * s), 1.3 * s, 1.3 * s)

    return _painted(size, draw)


def cloud_pixmap(size: int = 16, color: QColor | None = None) -> QPixmap:
    """A cloud: the badge of a sentence that goes to the cloud, anonymized."""
    c = color or COLORS.cloud_fg

    def draw(p: QPainter, s: float) -> None:
        _filled(p, c)
        # Overlapping shapes in one colour; a single path would leave even-odd holes.
        p.drawEllipse(QPointF(5 * s, 10 * s), 3.5 * s, 3.5 * s)
        p.drawEllipse(QPointF(8.8 * s, 7.2 * s), 4.3 * s, 4.3 * s)
        p.drawEllipse(QPointF(12 * s, 10.2 * s), 3.3 * s, 3.3 * s)
        p.drawRoundedRect(QRectF(5 * s, 9 * s, 7 * s, 4.5 * s), 1 * s, 1 * s)

    return _painted(size, draw)


def shield_pixmap(size: int = 16, color: QColor | None = None) -> QPixmap:
    """A shield: the application's mark and the privacy box."""
    c = color or COLORS.entity

    def draw(p: QPainter, s: float) -> None:
        path = QPainterPath()
        path.moveTo(8 * s, 1 * s)
        path.lineTo(14 * s, 3.5 * s)
        path.cubicTo(14 * s, 9 * s, 11.5 * s, 13 * s, 8 * s, 15 * s)
        path.cubicTo(4.5 * s, 13 * s, 2 * s, 9 * s, 2 * s, 3.5 * s)
        path.closeSubpath()
        _filled(p, c)
        p.drawPath(path)
        p.setPen(QPen(QColor("white"), 1.6 * s))
        p.drawLine(QPointF(5.2 * s, 8 * s), QPointF(7.3 * s, 10.2 * s))
        p.drawLine(QPointF(7.3 * s, 10.2 * s), QPointF(11 * s, 5.8 * s))

    return _painted(size, draw)


def bubble_pixmap(size: int = 16, color: QColor | None = None) -> QPixmap:
    """A speech bubble: a chat conversation."""

    def draw(p: QPainter, s: float) -> None:
        _outline(p, color or COLORS.cloud_fg, 1.5 * s)
        p.drawRoundedRect(QRectF(1.5 * s, 2 * s, 13 * s, 9.5 * s), 3 * s, 3 * s)
        path = QPainterPath(QPointF(4.5 * s, 11.5 * s))
        path.lineTo(4 * s, 14.5 * s)
        path.lineTo(8 * s, 11.5 * s)
        p.drawPath(path)

    return _painted(size, draw)


def envelope_pixmap(size: int = 16, color: QColor | None = None) -> QPixmap:
    """An envelope: an email draft."""

    def draw(p: QPainter, s: float) -> None:
        _outline(p, color or COLORS.entity, 1.5 * s)
        p.drawLine(QPointF(2 * s, 4.5 * s), QPointF(8 * s, 9 * s))  # the flap
        p.drawLine(QPointF(8 * s, 9 * s), QPointF(14 * s, 4.5 * s))
        p.drawRoundedRect(QRectF(1.5 * s, 3.5 * s, 13 * s, 9.5 * s), 1.5 * s, 1.5 * s)

    return _painted(size, draw)


def icon_from(pixmap_fn: object) -> QIcon:
    """An icon from one of the painters above, at the usual sizes."""
    icon = QIcon()
    for size in (16, 24, 32):
        icon.addPixmap(pixmap_fn(size))  # type: ignore[operator]
    return icon


def app_icon() -> QIcon:
    icon = QIcon()
    for size in (16, 24, 32, 48, 64, 128, 256):
        icon.addPixmap(shield_pixmap(size))
    return icon


def field_layout(
    host: QWidget,
    field: QWidget,
    buttons: Sequence[QWidget] = (),
    below: QWidget | None = None,
    indent: int = 0,
) -> QVBoxLayout:
    """Lay out ``host``: ``field`` (taking the room) and its ``buttons`` on one
    row, ``below`` (a hint or status line) under it; returns the layout."""
    lay = QVBoxLayout(host)
    lay.setContentsMargins(indent, 0, 0, 0)
    row = QHBoxLayout()
    row.addWidget(field, 1)
    for b in buttons:
        row.addWidget(b)
    lay.addLayout(row)
    if below is not None:
        lay.addWidget(below)
    return lay


def std_icon(widget: QWidget | None, name: str) -> QIcon:
    """One of Qt's standard icons by its short name (``"SP_MediaStop"``)."""
    style = widget.style() if widget is not None else QApplication.style()
    return style.standardIcon(getattr(QStyle.StandardPixmap, name))


def underline_sample(kind: str, width: int = 34, height: int = 16) -> QPixmap:
    """A small "Abc" with the underline used for ``kind`` (legend swatches)."""

    def draw(p: QPainter, _s: float) -> None:
        font = QFont()
        font.setPixelSize(int(height * 0.7))
        p.setFont(font)
        if kind == "local":
            p.fillRect(QRectF(0, 0, width, height), COLORS.local_bg)
            color, style = COLORS.local_fg, "dot"
        elif kind == "cloud":
            p.fillRect(QRectF(0, 0, width, height), COLORS.cloud_bg)
            color, style = COLORS.cloud_fg, "none"
        elif kind == "entity":
            color, style = COLORS.entity, "solid"
        elif kind == "sent":
            color, style = COLORS.sent, "dash"
        else:
            color, style = COLORS.exposed, "wave"
        p.setPen(QPen(QColor("#222222")))
        p.drawText(QRectF(0, -2, width, height), Qt.AlignmentFlag.AlignCenter, "Abc")
        y = height - 2.0
        if style == "solid":
            p.setPen(QPen(color, 2))
            p.drawLine(QPointF(3, y), QPointF(width - 3, y))
        elif style == "dot":
            p.setPen(QPen(color, 1.5, Qt.PenStyle.DotLine))
            p.drawLine(QPointF(3, y), QPointF(width - 3, y))
        elif style == "dash":
            p.setPen(QPen(color, 1.5, Qt.PenStyle.DashLine))
            p.drawLine(QPointF(3, y), QPointF(width - 3, y))
        elif style == "wave":
            p.setPen(QPen(color, 1.3))
            path = QPainterPath(QPointF(3, y))
            x, up = 3.0, True
            while x < width - 3:
                path.quadTo(QPointF(x + 1.5, y - 2 if up else y + 1), QPointF(x + 3, y - 0.5))
                x += 3
                up = not up
            p.drawPath(path)

    return _painted(width, draw, height)


STYLESHEET = """
QListWidget#conversations { border: none; background: palette(base); }
QListWidget#conversations::item { padding: 7px 6px; border-radius: 6px; }
QListWidget#conversations::item:selected { background: #dcebfb; color: #102a43; }
QFrame#sidebar { background: palette(window); border-right: 1px solid palette(mid); }
QLabel#viewTitle { font-size: 15pt; font-weight: 600; }
QLabel#hint, QLabel#summary { color: #6b7280; }
QFrame#message-user { background: #eef4fb; border-radius: 10px; }
QFrame#message-assistant { background: palette(base); border: 1px solid #e3e6ea; border-radius: 10px; }
QFrame#message-error { background: #fdecea; border: 1px solid #f5c2bd; border-radius: 10px; }
QLabel#role { color: #4b5563; font-weight: 600; }
QFrame#banner { background: #fff7e6; border: 1px solid #f3d19e; border-radius: 6px; padding: 6px; }
QPushButton#primary { background: #2364aa; color: white; border: none; border-radius: 5px;
                      padding: 6px 16px; font-weight: 600; }
QPushButton#primary:disabled { background: #9db8d6; }
QPushButton#primary:hover { background: #1d5390; }
QPlainTextEdit, QTextEdit, QTextBrowser { selection-background-color: #9cc3ea; }
"""


def apply_style(app: QApplication) -> None:
    """The Fusion style with a light palette and a small stylesheet."""
    app.setStyle("Fusion")
    pal = app.palette()
    pal.setColor(QPalette.ColorRole.Window, QColor("#f5f6f8"))
    pal.setColor(QPalette.ColorRole.Base, QColor("#ffffff"))
    pal.setColor(QPalette.ColorRole.AlternateBase, QColor("#f7f8fa"))
    pal.setColor(QPalette.ColorRole.Highlight, QColor("#2364aa"))
    pal.setColor(QPalette.ColorRole.Mid, QColor("#d7dbe0"))
    app.setPalette(pal)
    app.setStyleSheet(STYLESHEET)
    app.setWindowIcon(app_icon())
