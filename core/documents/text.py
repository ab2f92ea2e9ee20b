"""Plain text: decoding bytes into text, HTML into lines, and tidying extracted lines."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Generator
from html.parser import HTMLParser
from pathlib import Path

from core.documents.errors import CorruptDocument, EmptyDocument
from core.documents.model import Limits, Progress
from core.documents.reading import Draft

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_BLANKS = re.compile(r"\n{3,}")


def decode(data: bytes, name: str) -> tuple[str, list[str]]:
    """``data`` as text and the notes about how it was read.

    UTF-8 (with or without a byte-order mark) and UTF-16 with its mark are read
    as they are. Other bytes are read as Windows-1252 (Western European: what
    Notepad and Excel write on most Windows machines in the languages this
    product serves), and a note says so, so the person can check accented
    letters. Bytes that are not Windows-1252 either are refused. A statistical
    guess (charset-normalizer) was tried and rejected: on a short French letter
    it chose Central European and turned "Hélène" into "Hélčne", a name the
    person would not recognize and the detector might not either.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), ["read as UTF-16"]
        except UnicodeDecodeError as exc:
            raise _not_text(name, exc.start) from exc
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            raise _not_text(name, exc.start) from exc
        return text, ["not UTF-8: read as Windows-1252 (Western European); check accented letters"]


def _not_text(name: str, at: int) -> CorruptDocument:
    return CorruptDocument(
        f"{name} is not valid UTF-8 text (bad byte at position {at}), nor Windows-1252. "
        "Nothing was read from it.",
        hint="save it as UTF-8 text and attach it again",
    )


def tidy(text: str) -> str:
    """Lines as extracted, with what would only disturb detection taken out.

    Line breaks are unified, control characters become spaces, trailing blanks
    go, runs of blank lines shrink to one, and the text is NFC-composed (a
    letter and its accent as one character, as typed text has them).
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n")
    text = _CONTROL.sub(" ", unicodedata.normalize("NFC", text))
    lines = [line.rstrip() for line in text.split("\n")]
    return _BLANKS.sub("\n\n", "\n".join(lines)).strip("\n")


def read_text(path: Path, name: str, limits: Limits) -> Generator[Progress, None, Draft]:
    """A TXT or Markdown file: its lines as they are."""
    data = path.read_bytes()
    text, notes = decode(data, name)
    if not text.strip():
        raise EmptyDocument(f"{name} holds only blank space: there is nothing to attach.")
    yield Progress(1, 1, f"Read {name}")
    return Draft(text, notes=notes)


class _HtmlText(HTMLParser):
    _BLOCK = frozenset(
        "p br div tr li ul ol h1 h2 h3 h4 h5 h6 table blockquote pre hr section article".split()
    )
    _SKIP = frozenset({"script", "style", "head", "title"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._SKIP:
            self._skip += 1
        elif tag in self._BLOCK:
            self.parts.append("\n")
        elif tag in ("td", "th"):
            self.parts.append(" | ")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag in self._BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(re.sub(r"\s+", " ", data))


def html_to_text(html: str) -> str:
    """The visible text of an HTML body, a line per paragraph, row or list item."""
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    lines = (line.strip().removeprefix("| ").strip() for line in "".join(parser.parts).split("\n"))
    return _BLANKS.sub("\n\n", "\n".join(lines)).strip()
