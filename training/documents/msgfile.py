"""A minimal Outlook .msg writer for the dev set and the tests (no library on PyPI writes MSG).

An MSG file is an OLE compound file (MS-CFB) holding MAPI properties as streams
(MS-OXMSG). This writes version 3 of the container: 512-byte sectors, streams
under 4096 bytes in the mini stream, one sector chain per stream, and the
siblings of each storage as a chain in CFB name order (a valid, if unbalanced,
red-black tree: readers walk it and do not rebalance).
"""

from __future__ import annotations

import datetime as dt
import itertools
import struct
from pathlib import Path

SECTOR, MINI, CUTOFF = 512, 64, 4096
FREE, END, FATSECT, NOSTREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF


def _key(name: str) -> tuple[int, str]:
    return (len(name), name.upper())  # MS-CFB's order of siblings


class _Node:
    def __init__(self, name: str, data: bytes | None = None) -> None:
        self.name = name
        self.data = data  # None: a storage
        self.children: list[_Node] = []
        self.sid = 0
        self.start = END
        self.left = self.right = self.child = NOSTREAM


def _tree(streams: dict[str, bytes]) -> _Node:
    root = _Node("Root Entry")
    for path, data in streams.items():
        node = root
        parts = path.split("/")
        for part in parts[:-1]:
            found = next((c for c in node.children if c.name == part and c.data is None), None)
            if found is None:
                found = _Node(part)
                node.children.append(found)
            node = found
        node.children.append(_Node(parts[-1], data))
    return root


def write_cfb(path: Path, streams: dict[str, bytes]) -> Path:
    """Write ``streams`` ("storage/stream" paths to bytes) as an OLE compound file."""
    root = _tree(streams)
    nodes: list[_Node] = []

    def number(node: _Node) -> None:
        node.sid = len(nodes)
        nodes.append(node)
        kids = sorted(node.children, key=lambda n: _key(n.name))
        for kid in kids:
            number(kid)
        if kids:
            node.child = kids[0].sid
            for a, b in itertools.pairwise(kids):
                a.right = b.sid

    number(root)
    # Streams under 4096 bytes live in the mini stream (64-byte mini sectors, their own
    # FAT); larger ones, the mini stream itself, the directory and the FATs in sectors.
    sectors: list[bytes] = []
    fat: list[int] = []

    def place(data: bytes) -> int:
        n = max(1, -(-len(data) // SECTOR))
        first = len(sectors)
        for i in range(n):
            sectors.append(data[i * SECTOR : (i + 1) * SECTOR].ljust(SECTOR, b"\0"))
            fat.append(first + i + 1 if i < n - 1 else END)
        return first

    mini = bytearray()
    minifat: list[int] = []
    for node in nodes:
        if node.data is None or not node.data:
            continue
        if len(node.data) >= CUTOFF:
            node.start = place(node.data)
            continue
        n = -(-len(node.data) // MINI)
        node.start = len(minifat)
        minifat += [node.start + i + 1 if i < n - 1 else END for i in range(n)]
        mini += node.data.ljust(n * MINI, b"\0")
    root.start = place(bytes(mini)) if mini else END
    root_size = len(mini)
    minifat_start, n_minifat = END, 0
    if minifat:
        table = struct.pack(f"<{len(minifat)}I", *minifat)
        table = table.ljust(-(-len(table) // SECTOR) * SECTOR, b"\xff")  # FREE entries
        n_minifat = len(table) // SECTOR
        minifat_start = place(table)
    entries = b""
    for node in nodes:
        name = node.name.encode("utf-16-le") + b"\0\0"
        kind = 5 if node is root else (2 if node.data is not None else 1)
        size = root_size if node is root else (len(node.data) if node.data is not None else 0)
        start = node.start if (size or node is root) else END
        entries += (
            name.ljust(64, b"\0")
            + struct.pack("<HBB3I", len(name), kind, 1, node.left, node.right, node.child)
            + bytes(16 + 4 + 16)
            + struct.pack("<IQ", start if node.data is not None or node is root else 0, size)
        )
    entries = entries.ljust(-(-len(entries) // SECTOR) * SECTOR, b"\0")
    dir_start = place(entries)
    # The FAT describes itself too: grow it until its own sectors are counted.
    n_fat = 1
    while (len(sectors) + n_fat) > n_fat * (SECTOR // 4):
        n_fat += 1
    fat_start = len(sectors)
    fat += [FATSECT] * n_fat
    fat += [FREE] * (n_fat * (SECTOR // 4) - len(fat))
    table = struct.pack(f"<{len(fat)}I", *fat)
    for i in range(n_fat):
        sectors.append(table[i * SECTOR : (i + 1) * SECTOR])
    difat = [fat_start + i for i in range(n_fat)] + [FREE] * (109 - n_fat)
    header = (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
        + bytes(16)
        + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6)
        + bytes(6)
        + struct.pack("<IIIIIIIII", 0, n_fat, dir_start, 0, CUTOFF, minifat_start, n_minifat, END, 0)
        + struct.pack("<109I", *difat)
    )
    path.write_bytes(header + b"".join(sectors))
    return path


def _text(value: str) -> bytes:
    return value.encode("utf-16-le")


def write_msg(
    path: Path,
    *,
    subject: str,
    body: str,
    sender: str,
    to: tuple[str, str],
    cc: tuple[str, str] | None = None,
    sent: dt.datetime | None = None,
    attachments: tuple[tuple[str, bytes], ...] = (),
) -> Path:
    """An e-mail as Outlook saves it: string properties, recipients (name, address), the
    time it was sent, and attachments by name and data."""
    recipients = [(to, 1)] + ([(cc, 2)] if cc else [])
    fixed = b""
    if sent is not None:
        # PR_CLIENT_SUBMIT_TIME (PT_SYSTIME): 100 ns ticks since 1601-01-01 UTC.
        ticks = int((sent - dt.datetime(1601, 1, 1, tzinfo=dt.UTC)).total_seconds() * 10**7)
        fixed += struct.pack("<IIQ", 0x00390040, 6, ticks)
    streams: dict[str, bytes] = {
        # Top-level property stream: a 32-byte header (next ids and counts), then fixed properties.
        "__properties_version1.0": struct.pack(
            "<8xIIII8x", len(recipients), len(attachments), len(recipients), len(attachments)
        )
        + fixed,
        "__substg1.0_001A001F": _text("IPM.Note"),
        "__substg1.0_0037001F": _text(subject),
        "__substg1.0_1000001F": _text(body),
        "__substg1.0_0C1A001F": _text(sender),
        "__substg1.0_0E04001F": _text(to[0]),
        "__nameid_version1.0/__substg1.0_00020102": b"",
        "__nameid_version1.0/__substg1.0_00030102": b"",
        "__nameid_version1.0/__substg1.0_00040102": b"",
    }
    if cc:
        streams["__substg1.0_0E03001F"] = _text(cc[0])
    for i, ((name, address), kind) in enumerate(recipients):
        folder = f"__recip_version1.0_#{i:08X}"
        # 8 reserved bytes, then PR_RECIPIENT_TYPE (PT_LONG: 1 To, 2 Cc) as a fixed property.
        streams[f"{folder}/__properties_version1.0"] = bytes(8) + struct.pack("<IIi4x", 0x0C150003, 6, kind)
        streams[f"{folder}/__substg1.0_3001001F"] = _text(name)
        streams[f"{folder}/__substg1.0_3003001F"] = _text(address)
        streams[f"{folder}/__substg1.0_39FE001F"] = _text(address)
    for i, (name, data) in enumerate(attachments):
        folder = f"__attach_version1.0_#{i:08X}"
        # PR_ATTACH_METHOD (PT_LONG) 1: the data is in the attachment's binary stream.
        streams[f"{folder}/__properties_version1.0"] = bytes(8) + struct.pack("<IIi4x", 0x37050003, 6, 1)
        streams[f"{folder}/__substg1.0_3707001F"] = _text(name)
        streams[f"{folder}/__substg1.0_3704001F"] = _text(name[:8])
        streams[f"{folder}/__substg1.0_37010102"] = data
    return write_cfb(path, streams)
