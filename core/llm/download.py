"""Model downloads: resumable, checked against a sha256, moved into place atomically.

**Not a door to the cloud.** The design's rule is that only the egress guard
reaches a remote *model*. A model download is a different path: it fetches a
public file and sends nothing but an HTTP ``GET`` for a URL that came from the
catalogue (:mod:`core.llm.catalog`) or was typed by the person, with a
``Range`` header when it resumes and a fixed ``User-Agent``. It takes no
settings, store, privacy box, conversation or prompt, so no private text can
reach it; an import-linter contract in ``pyproject.toml`` keeps it that way
(this module imports nothing from the privacy path, and the privacy path does
not import it), and a test checks the exact request headers on the wire.

How a download goes:

1. Bytes are appended to ``<models>/.partial/<file>.part``, with a small JSON
   sidecar naming the URL and the expected hash. The app never loads a
   ``.part`` file: only ``<models>/*.gguf`` are models.
2. A cut connection is retried from where it stopped (HTTP ``Range``); a
   server that ignores ranges restarts the file; after repeated failures the
   part is kept and :class:`DownloadInterrupted` says the next run resumes.
3. Cancelling keeps the part too (the next download of the same file resumes).
4. At the end the size and the sha256 are checked, then the GGUF header
   (:func:`core.llm.gguf_file.read_gguf`); a mismatch deletes the part and
   raises a typed error. Only then is the file fsynced and renamed into the
   models folder (``os.replace``, atomic on one file system), so a power cut
   at any moment leaves either no model or a complete, verified one.

A file with no known hash (a URL the person typed) is downloaded but not
installed: :class:`HashUnconfirmed` carries the computed sha256 and
:func:`finish` installs the part once the person supplies a matching hash.

:func:`download` is a generator of :class:`Progress` (bytes, speed, time
left), so the window runs it in a worker and the command line prints it;
both cancel between chunks.
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
import threading
import time
from collections import deque
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

from core import __version__
from core.errors import Cancelled, SottovoceError
from core.llm.base import Cancel, is_cancelled

log = logging.getLogger(__name__)

USER_AGENT = f"sottovoce/{__version__} (model download)"
CHUNK = 1 << 20
PARTIAL_DIR = ".partial"
PART_SUFFIX = ".part"
#: Progress is reported at most this often (plus once at the end of each phase).
PROGRESS_EVERY_S = 0.1
#: Speed is averaged over this window, so the time left does not jump with every chunk.
SPEED_WINDOW_S = 5.0
#: The part is flushed to disk this often, bounding what a power cut can lose.
FSYNC_EVERY = 64 * CHUNK
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
            return f"Done: {_mb(self.done)}."
        parts = [f"{self.done / 1e6:,.1f} of {_mb(self.total)}" if self.total else _mb(self.done)]
        if self.speed:
            parts.append(f"{self.speed / 1e6:.1f} MB/s")
        if self.eta is not None:
            parts.append(f"{_duration(self.eta)} left")
        if self.resumed_from:
            parts.append(f"resumed at {_mb(self.resumed_from)}")
        return ", ".join(parts)


def _mb(n: int | None) -> str:
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


def _write_meta(part: Path, data: dict[str, Any]) -> None:
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


def _hash_file(path: Path, hasher: Any, cancel: Cancel) -> int:
    n = 0
    with path.open("rb") as fh:
        while block := fh.read(CHUNK):
            if is_cancelled(cancel):
                raise Cancelled()
            hasher.update(block)
            n += len(block)
    return n


def _content_range(value: str) -> tuple[int, int | None] | None:
    """(first byte, total) of ``bytes 100-199/1000`` (total None for ``*``)."""
    m = re.match(r"bytes\s+(\d+)-(\d+)/(\d+|\*)", value.strip())
    if not m:
        return None
    return int(m.group(1)), None if m.group(3) == "*" else int(m.group(3))


def _wait(cancel: Cancel, seconds: float) -> None:
    if isinstance(cancel, threading.Event):
        cancel.wait(seconds)
    else:
        end = time.monotonic() + seconds
        while time.monotonic() < end and not is_cancelled(cancel):
            time.sleep(min(0.05, seconds))
    if is_cancelled(cancel):
        raise Cancelled()


class _Restart(Exception):
    """The server ignored or mangled the range: start the file over."""


# --- the download ----------------------------------------------------------------------


def make_client(timeout: float = 30.0) -> Any:
    """An httpx client for downloads: follows redirects (Hugging Face uses a CDN), no auth."""
    import httpx

    return httpx.Client(
        follow_redirects=True,
        timeout=httpx.Timeout(timeout, connect=15.0),
        headers={"User-Agent": USER_AGENT, "Accept-Encoding": "identity"},
    )


def download(
    req: Request,
    models_dir: Path,
    *,
    cancel: Cancel = None,
    client: Any = None,
    retries: int = 5,
    retry_wait: float = 1.0,
) -> Generator[Progress, None, Path]:
    """Download ``req`` into ``models_dir``; yields :class:`Progress`, returns the model's path.

    ``retries`` is how many failed attempts in a row (no byte gained) are
    retried, waiting ``retry_wait`` seconds, doubling each time. Another
    download of the same file (a second window, the command line) is refused
    while this one runs.
    """
    req = check_request(req)
    models_dir.mkdir(parents=True, exist_ok=True)
    final = models_dir / req.filename
    if final.exists():
        raise DownloadRefused(
            f"{req.filename} is already in the models folder.",
            hint="remove it first (`sottovoce model remove`) to download it again",
        )
    part = partial_path(models_dir, req.filename)
    part.parent.mkdir(exist_ok=True)
    with exclusive(part):
        return (
            yield from _download(req, models_dir, final, part, cancel, client, retries, retry_wait)
        )


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


def _download(
    req: Request,
    models_dir: Path,
    final: Path,
    part: Path,
    cancel: Cancel,
    client: Any,
    retries: int,
    retry_wait: float,
) -> Generator[Progress, None, Path]:
    meta = {"url": req.url, "size": req.size}
    old = read_meta(part)
    if part.exists() and {k: old.get(k) for k in meta} != meta:
        discard_partial(models_dir, req.filename)  # left by another URL: not these bytes
        old = {}
    hasher = hashlib.sha256()
    done = _hash_file(part, hasher, cancel) if part.exists() else 0
    if old.get("complete") and done == old.get("bytes"):
        # Every byte arrived in an earlier run (it waited for a hash): check it, no network.
        return (yield from _install(req, part, final, hasher.hexdigest(), done, cancel))
    _write_meta(part, meta)
    if req.size is not None and done > req.size:
        part.write_bytes(b"")
        hasher, done = hashlib.sha256(), 0
    if req.size is not None:
        ensure_room(part.parent, req.size - done)

    own_client = client is None
    client = client or make_client()
    try:
        meter = Meter(done, req.size, done)
        yield meter.progress(done)
        failures = restarts = 0
        total = req.size
        while True:
            before = done
            try:
                for got, total in _fetch(client, req, part, hasher, done, cancel):
                    done = got
                    meter.total = total
                    if meter.due():
                        yield meter.progress(done)
                break  # the whole file is here
            except _Restart as exc:
                restarts += 1
                if restarts > 2:
                    raise DownloadRefused(
                        f"The server does not serve {req.filename} consistently ({exc}).",
                        hint="try again later, or download it elsewhere and import it",
                    ) from None
                log.info("starting the file over: %s", exc)
                part.write_bytes(b"")
                hasher, done = hashlib.sha256(), 0
                meter = Meter(0, total, 0)
            except SizeMismatch:
                discard_partial(models_dir, req.filename)
                raise
            except DownloadError:
                if done == 0:
                    discard_partial(models_dir, req.filename)  # nothing arrived: leave no trace
                raise
            except _transient() as exc:
                if done > before:
                    failures = 0
                failures += 1
                if failures > retries:
                    raise DownloadInterrupted(
                        f"The download of {req.filename} keeps failing ({_why(exc)}); "
                        f"{_mb(done)} of {_mb(total)} arrived and is kept.",
                        hint="check the connection, then download again: it resumes where it stopped",
                    ) from exc
                log.info("download interrupted (%s); retry %d of %d", _why(exc), failures, retries)
                _wait(cancel, retry_wait * 2 ** (failures - 1))
        yield meter.progress(done)
    finally:
        if own_client:
            client.close()
    _write_meta(part, {**meta, "complete": True, "bytes": done})
    return (yield from _install(req, part, final, hasher.hexdigest(), done, cancel))


def _transient() -> tuple[type[BaseException], ...]:
    import httpx

    return (httpx.TransportError, _ServerBusy)


class _ServerBusy(Exception):
    """A 5xx or 429 answer: worth another try."""


def _why(exc: BaseException) -> str:
    if isinstance(exc, _ServerBusy):
        return str(exc)
    return {
        "ReadTimeout": "the server stopped sending",
        "ConnectTimeout": "the server did not answer",
        "ConnectError": "no connection to the server",
        "RemoteProtocolError": "the connection was cut",
        "ReadError": "the connection was cut",
    }.get(type(exc).__name__, type(exc).__name__)


def _fetch(
    client: Any, req: Request, part: Path, hasher: Any, done: int, cancel: Cancel
) -> Iterator[tuple[int, int | None]]:
    """One HTTP attempt: append to ``part`` from byte ``done``; yields (done, total)."""
    headers = {"Range": f"bytes={done}-"} if done else {}
    with client.stream("GET", req.url, headers=headers) as resp:
        status = resp.status_code
        if urlsplit(req.url).scheme == "https" and resp.url.scheme != "https":
            raise DownloadRefused(f"The server redirected {req.filename} to an insecure address.")
        if status in (404, 410):
            raise DownloadNotFound(
                f"The server has no file at {req.url} (HTTP {status}).",
                hint="check the URL; `sottovoce model list` shows the catalogue's",
            )
        if status == 416 and done and req.size == done:
            yield done, done  # asked for bytes past the end: the part is already whole
            return
        if status == 416:
            raise _Restart("it refused the byte range of a partial file")
        if status == 429 or status >= 500:
            raise _ServerBusy(f"the server answered HTTP {status}")
        if status >= 400:
            raise DownloadRefused(
                f"The server refused the download of {req.filename} (HTTP {status}).",
                hint="the file may need a sign-in on its site; download it there and use "
                "`sottovoce model import FILE`",
            )
        total: int | None
        length = resp.headers.get("Content-Length")
        if status == 206:
            span = _content_range(resp.headers.get("Content-Range", ""))
            if span is None or span[0] != done:
                raise _Restart("it answered another byte range than asked")
            total = span[1]
        else:
            if done:
                # 200 to a range request: the whole file again, from its first byte.
                raise _Restart("it ignores byte ranges")
            total = int(length) if length and length.isdigit() else None
        if req.size is not None and total is not None and total != req.size:
            raise SizeMismatch(
                f"The server offers {req.filename} with {total:,} bytes; {req.size:,} were "
                "expected. It is not the file the catalogue describes; nothing was kept.",
                hint="the file may have been replaced upstream; report it, or choose another model",
            )
        yield done, total
        unsynced = 0
        with part.open("ab") as fh:
            for chunk in resp.iter_raw(CHUNK):
                if is_cancelled(cancel):
                    raise Cancelled()
                write_chunk(fh, chunk, done, part.parent)
                hasher.update(chunk)
                done += len(chunk)
                unsynced += len(chunk)
                if req.size is not None and done > req.size:
                    raise SizeMismatch(
                        f"The server sent more than the {req.size:,} bytes of {req.filename}.",
                        hint="the file may have been replaced upstream; choose another model",
                    )
                if unsynced >= FSYNC_EVERY:
                    fh.flush()
                    os.fsync(fh.fileno())
                    unsynced = 0
                yield done, total
            fh.flush()
            os.fsync(fh.fileno())
        if total is not None and done < total:
            import httpx

            raise httpx.RemoteProtocolError("the server closed the connection early")


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


def _install(
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
        done = _hash_file(part, hasher, cancel)
        return (yield from _install(req, part, final, hasher.hexdigest(), done, cancel))
