"""A model file on its way into the models folder: what is asked for, how far it got, and its checks.

Nothing here touches the network. :mod:`core.llm.download` fetches the bytes
of a :class:`Request` and :mod:`core.llm.library` copies a file the person
imports; both write to the partial file (``<models>/.partial/<file>.part``,
with a JSON sidecar and a lock held by one writer at a time) and both end in
:func:`install_part`: the size and the sha256 are checked, then the GGUF
header (:func:`core.llm.gguf_file.read_gguf`); a mismatch deletes the part and
raises a typed error, and only then is the file fsynced and renamed into the
models folder (``os.replace``, atomic on one file system). :func:`finish`
installs a complete part once the person confirms its hash.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
import time
from collections import deque
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

from core.errors import Cancelled, SottovoceError
from core.llm.base import Cancel, is_cancelled

log = logging.getLogger(__name__)

CHUNK = 1 << 20
PARTIAL_DIR = ".partial"
PART_SUFFIX = ".part"
#: Progress is reported at most this often (plus once at the end of each phase).
PROGRESS_EVERY_S = 0.1
#: Speed is averaged over this window, so the time left does not jump with every chunk.
SPEED_WINDOW_S = 5.0
_NO_ROOM = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*\.gguf$")


# --- errors ---------------------------------------------------------------------------


class DownloadError(SottovoceError):
    """A model download failed; nothing was installed."""


class DownloadNotFound(DownloadError):
    """The server has no file at that URL (HTTP 404 or 410)."""


class DownloadRefused(DownloadError):
    """The server answered with an error, or the URL cannot be downloaded at all."""


class DownloadInterrupted(DownloadError):
    """The connection kept failing; what arrived is kept and the next download resumes."""


class ChecksumMismatch(DownloadError):
    """The file's sha256 is not the expected one; the file was deleted."""


class SizeMismatch(DownloadError):
    """The server offers a file of another size than expected; nothing was kept."""


class DiskFull(DownloadError):
    """No room left for the model file."""


class HashUnconfirmed(DownloadError):
    """The file arrived but no published sha256 confirms it yet; it is not installed.

    ``sha256`` is the file's computed hash, to compare with the one its author
    publishes; :func:`finish` installs it.
    """

    def __init__(self, message: str, *, sha256: str, part: Path, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.sha256 = sha256
        self.part = part


# --- what to fetch, and how far it got ---------------------------------------------------


@dataclass(frozen=True)
class Request:
    """One file to download: where from, under which name, and what it must hash to."""

    url: str
    filename: str
    sha256: str | None = None  # lowercase hex; None = the person must confirm it at the end
    size: int | None = None  # exact bytes when known


@dataclass(frozen=True)
class Progress:
    """Where a download (or an import) stands."""

    done: int
    total: int | None
    speed: float | None = None  # bytes per second, averaged over a few seconds
    eta: float | None = None  # seconds left at that speed
    resumed_from: int = 0
    phase: str = "download"  # "download", "verify", "done"

    @property
    def fraction(self) -> float | None:
        return self.done / self.total if self.total else None

    def describe(self) -> str:
        """A line for a person: ``312.0 of 807.7 MB, 12.3 MB/s, 41 s left``."""
        if self.phase == "verify":
            return "Checking the file (sha256)…"
        if self.phase == "done":
            return f"Done: {megabytes(self.done)}."
        parts = [f"{self.done / 1e6:,.1f} of {megabytes(self.total)}" if self.total else megabytes(self.done)]
        if self.speed:
            parts.append(f"{self.speed / 1e6:.1f} MB/s")
        if self.eta is not None:
            parts.append(f"{_duration(self.eta)} left")
        if self.resumed_from:
            parts.append(f"resumed at {megabytes(self.resumed_from)}")
        return ", ".join(parts)


def megabytes(n: int | None) -> str:
    return "?" if n is None else f"{n / 1e6:,.1f} MB"


def _duration(seconds: float) -> str:
    s = int(seconds + 0.5)
    if s < 90:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


class Meter:
    """Speed over the last few seconds and the time left; throttles reports."""

    def __init__(self, done: int, total: int | None, resumed_from: int) -> None:
        self.samples: deque[tuple[float, int]] = deque([(time.monotonic(), done)])
        self.total = total
        self.resumed_from = resumed_from
        self.last_report = 0.0

    def due(self) -> bool:
        now = time.monotonic()
        if now - self.last_report >= PROGRESS_EVERY_S:
            self.last_report = now
            return True
        return False

    def progress(self, done: int) -> Progress:
        now = time.monotonic()
        self.samples.append((now, done))
        while len(self.samples) > 2 and now - self.samples[0][0] > SPEED_WINDOW_S:
            self.samples.popleft()
        t0, d0 = self.samples[0]
        speed = (done - d0) / (now - t0) if now > t0 and done > d0 else None
        eta = (self.total - done) / speed if speed and self.total else None
        return Progress(done, self.total, speed, eta, self.resumed_from)


# --- the partial file --------------------------------------------------------------------


def partial_path(models_dir: Path, filename: str) -> Path:
    """Where the bytes of ``filename`` collect until they are verified."""
    return models_dir / PARTIAL_DIR / (filename + PART_SUFFIX)


def _meta_path(part: Path) -> Path:
    return part.with_name(part.name + ".json")


def read_meta(part: Path) -> dict[str, Any]:
    """The sidecar of a partial download (empty when missing or damaged)."""
    try:
        data = json.loads(_meta_path(part).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_meta(part: Path, data: dict[str, Any]) -> None:
    fd, tmp = tempfile.mkstemp(dir=part.parent, prefix=".meta-")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh)
    os.replace(tmp, _meta_path(part))


def discard_partial(models_dir: Path, filename: str) -> bool:
    """Delete a partial download and its sidecar; True if there was one."""
    part = partial_path(models_dir, filename)
    found = part.exists()
    for p in (part, _meta_path(part)):
        with contextlib.suppress(FileNotFoundError):
            p.unlink()
    with contextlib.suppress(OSError):  # Windows keeps a held lock file
        part.with_name(part.name + ".lock").unlink()
    return found


def fsync_dir(path: Path) -> None:
    # Makes the rename itself durable; not possible (nor needed) on Windows.
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# --- checks ----------------------------------------------------------------------------


def check_request(req: Request) -> Request:
    """Refuse what cannot be downloaded safely; normalizes the hash to lowercase."""
    parts = urlsplit(req.url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise DownloadRefused(
            f"“{req.url}” is not an http(s) URL.", hint="give the full https:// address of a .gguf file"
        )
    if not _SAFE_NAME.match(req.filename):
        raise DownloadRefused(
            f"“{req.filename}” is not a usable model file name.",
            hint="the URL must end in a .gguf file name (letters, digits, . _ + -)",
        )
    sha = req.sha256.strip().lower() if req.sha256 else None
    if sha is not None and not _SHA256.match(sha):
        raise DownloadRefused(
            "A sha256 is 64 hexadecimal characters.", hint="copy it again from the model's page"
        )
    return Request(req.url, req.filename, sha, req.size)


def filename_from_url(url: str) -> str:
    """The file name at the end of a URL's path."""
    return Path(urlsplit(url).path).name


def ensure_room(path: Path, need: int) -> None:
    free = shutil.disk_usage(path).free
    if need > free:
        raise DiskFull(
            f"Not enough disk space for the model: {need / 1e9:.2f} GB more is needed and "
            f"{free / 1e9:.2f} GB is free at {path}.",
            hint="free some space, then download again (what arrived so far is kept)",
        )


def _no_room(exc: OSError, folder: Path) -> DiskFull:
    return DiskFull(
        f"The disk is full: the model file could not be written to {folder} "
        f"({os.strerror(exc.errno) if exc.errno else exc}).",
        hint="free some space, then download again (what arrived so far is kept)",
    )


def hash_file(path: Path, hasher: Any, cancel: Cancel) -> int:
    n = 0
    with path.open("rb") as fh:
        while block := fh.read(CHUNK):
            if is_cancelled(cancel):
                raise Cancelled()
            hasher.update(block)
            n += len(block)
    return n


@contextlib.contextmanager
def exclusive(part: Path) -> Iterator[None]:
    """Hold the partial file's lock: one writer per file, across processes.

    The lock is the operating system's (released when the process dies, so a
    killed download never leaves a stale lock).
    """
    lock = part.with_name(part.name + ".lock")
    with lock.open("a+b") as fh:
        try:
            _lock_file(fh)
        except OSError:
            raise DownloadRefused(
                f"{part.name.removesuffix(PART_SUFFIX)} is already being downloaded "
                "(by another Sottovoce window or command).",
                hint="wait for that download to finish, or cancel it",
            ) from None
        yield


def _lock_file(fh: IO[bytes]) -> None:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        import msvcrt

        msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        return
    fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def write_chunk(fh: IO[bytes], chunk: bytes, done: int, folder: Path) -> None:
    """Append one chunk; on a write error the part is cut back to its last whole byte."""
    try:
        fh.write(chunk)
        fh.flush()  # a full disk shows here, not later on close
    except OSError as exc:
        with contextlib.suppress(OSError):
            fh.truncate(done)
        if exc.errno in _NO_ROOM:
            raise _no_room(exc, folder) from exc
        raise DownloadError(
            f"The model file could not be written to {folder} ({exc.strerror or exc})."
        ) from exc


def install_part(
    req: Request, part: Path, final: Path, digest: str, done: int, cancel: Cancel
) -> Generator[Progress, None, Path]:
    """Check size, hash and GGUF header of a whole part, then move it into place."""
    if req.size is not None and done != req.size:
        raise DownloadInterrupted(
            f"{req.filename} arrived incomplete ({done:,} of {req.size:,} bytes); the part is kept.",
            hint="download again: it resumes where it stopped",
        )
    yield Progress(done, done, phase="verify")
    if req.sha256 is None:
        raise HashUnconfirmed(
            f"{req.filename} arrived ({done:,} bytes) but has no published sha256 to check it "
            f"against, so it is not installed. Its sha256 is {digest}.",
            sha256=digest,
            part=part,
            hint="compare it with the sha256 on the model's page and confirm it: "
            f"`sottovoce model add {req.url} --sha256 <published sha256>`",
        )
    if digest != req.sha256:
        discard_partial(part.parent.parent, req.filename)
        raise ChecksumMismatch(
            f"{req.filename} is corrupt or not the expected file: its sha256 is {digest}, "
            f"not {req.sha256}. It was deleted.",
            hint="download it again; if it fails again the file changed upstream",
        )
    _check_gguf(part, req, cancel)
    part.replace(final)
    fsync_dir(final.parent)
    discard_partial(final.parent, req.filename)
    yield Progress(done, done, phase="done")
    return final


def _check_gguf(part: Path, req: Request, cancel: Cancel) -> None:
    from core.llm.gguf_file import GGUFError, read_gguf

    if is_cancelled(cancel):
        raise Cancelled()
    try:
        read_gguf(part)
    except GGUFError as exc:
        discard_partial(part.parent.parent, req.filename)
        raise DownloadError(
            f"{req.filename} downloaded and matched its sha256, but it is not a usable GGUF "
            f"model ({exc.message}). It was deleted.",
            hint="choose a .gguf file for llama.cpp",
        ) from exc


def finish(
    models_dir: Path, filename: str, sha256: str, *, cancel: Cancel = None
) -> Generator[Progress, None, Path]:
    """Install a complete partial download whose hash the person now confirms.

    Raises :class:`ChecksumMismatch` (and deletes the part) when ``sha256``
    is not the file's.
    """
    part = partial_path(models_dir, filename)
    meta = read_meta(part)
    if not part.exists() or not meta.get("complete"):
        raise DownloadError(
            f"There is no downloaded copy of {filename} waiting for confirmation.",
            hint="download it first",
        )
    req = check_request(Request(str(meta["url"]), filename, sha256, meta.get("size")))
    final = models_dir / filename
    if final.exists():
        raise DownloadRefused(f"{filename} is already in the models folder.")
    with exclusive(part):
        hasher = hashlib.sha256()
        done = hash_file(part, hasher, cancel)
        return (yield from install_part(req, part, final, hasher.hexdigest(), done, cancel))
