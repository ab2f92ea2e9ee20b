"""Bounded decompression for the zipped formats (DOCX, XLSX, ODT).

Before a reader opens the archive, its central directory is checked: the
number of members, the total unpacked size and each large member's ratio of
unpacked to packed size. A ZIP bomb disguised as a DOCX or XLSX is refused
from a few hundred bytes of directory, before anything is inflated.

A directory can lie about sizes. Python's ``zipfile`` (which python-docx,
openpyxl and odfpy use to read members) stops inflating a member at the size
its directory entry declares and then checks the CRC, so a member that
inflates past its declared size fails as a damaged file instead of filling
memory: the check below bounds what is read, not only what is claimed.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from core.documents.errors import CorruptDocument, ZipBomb
from core.documents.model import MB, Limits

#: Members smaller than this are not checked for their ratio: tiny XML parts
#: of runs of spaces compress 1000:1 and are harmless.
_RATIO_FROM = 1 * MB


def check_zip(path: Path, limits: Limits) -> None:
    """Refuse an archive that would unpack to too much; a damaged one is :class:`CorruptDocument`."""
    name = path.name
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise CorruptDocument(
            f"{name} is damaged: its ZIP structure cannot be read. Nothing was read from it.",
            hint="open it in its program and save it again",
        ) from exc
    if len(infos) > limits.max_zip_members:
        raise ZipBomb(
            f"{name} holds {len(infos):,} parts (the limit is {limits.max_zip_members:,}); "
            "it is not read, as a safety measure.",
            hint="a real document has far fewer; check where the file came from",
        )
    total = 0
    for info in infos:
        total += info.file_size
        packed = max(info.compress_size, 1)
        if info.file_size >= _RATIO_FROM and info.file_size / packed > limits.max_zip_ratio:
            raise ZipBomb(
                f"{name} would unpack to {info.file_size / packed:,.0f} times its packed size "
                f"(a part of it alone to {info.file_size / MB:,.0f} MB). It is not read: "
                "this is how a ZIP bomb looks.",
                hint="check where the file came from; open it in its program and save it again",
            )
    if total > limits.max_unzipped_bytes:
        raise ZipBomb(
            f"{name} would unpack to {total / MB:,.0f} MB (the limit is "
            f"{limits.max_unzipped_bytes / MB:,.0f} MB). It is not read, as a safety measure.",
            hint="split the document, or save its text as a smaller file",
        )
