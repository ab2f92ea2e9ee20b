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
   part is kept and :class:`~core.llm.modelfile.DownloadInterrupted` says the
   next run resumes.
3. Cancelling keeps the part too (the next download of the same file resumes).
4. At the end (:mod:`core.llm.modelfile`) the size and the sha256 are
   checked, then the GGUF header (:func:`core.llm.gguf_file.read_gguf`); a
   mismatch deletes the part and raises a typed error. Only then is the file
   fsynced and renamed into the models folder (``os.replace``, atomic on one
   file system), so a power cut at any moment leaves either no model or a
   complete, verified one.

A file with no known hash (a URL the person typed) is downloaded but not
installed: :class:`~core.llm.modelfile.HashUnconfirmed` carries the computed
sha256 and :func:`~core.llm.modelfile.finish` installs the part once the
person supplies a matching hash.

:func:`download` is a generator of :class:`~core.llm.modelfile.Progress`
(bytes, speed, time left), so the window runs it in a worker and the command
line prints it; both cancel between chunks.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
import time
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any, TypedDict
from urllib.parse import urlsplit

from core import __version__
from core.errors import Cancelled
from core.llm.base import Cancel, is_cancelled
from core.llm.modelfile import (
    CHUNK,
    DownloadError,
    DownloadInterrupted,
    DownloadNotFound,
    DownloadRefused,
    Meter,
    Progress,
    Request,
    SizeMismatch,
    check_request,
    discard_partial,
    ensure_room,
    exclusive,
    hash_file,
    install_part,
    megabytes,
    partial_path,
    read_meta,
    write_chunk,
    write_meta,
)

log = logging.getLogger(__name__)

USER_AGENT = f"sottovoce/{__version__} (model download)"
#: The part is flushed to disk this often, bounding what a power cut can lose.
FSYNC_EVERY = 64 * CHUNK


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


class Fetch(TypedDict, total=False):
    """How :func:`download` fetches: an httpx ``client``, ``retries``, ``retry_wait``."""

    client: Any
    retries: int
    retry_wait: float


class Transfer(Fetch, total=False):
    """:class:`Fetch` and the ``cancel`` that stops it between chunks."""

    cancel: Cancel


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
    done = hash_file(part, hasher, cancel) if part.exists() else 0
    if old.get("complete") and done == old.get("bytes"):
        # Every byte arrived in an earlier run (it waited for a hash): check it, no network.
        return (yield from install_part(req, part, final, hasher.hexdigest(), done, cancel))
    write_meta(part, meta)
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
                        f"{megabytes(done)} of {megabytes(total)} arrived and is kept.",
                        hint="check the connection, then download again: it resumes where it stopped",
                    ) from exc
                log.info("download interrupted (%s); retry %d of %d", _why(exc), failures, retries)
                _wait(cancel, retry_wait * 2 ** (failures - 1))
        yield meter.progress(done)
    finally:
        if own_client:
            client.close()
    write_meta(part, {**meta, "complete": True, "bytes": done})
    return (yield from install_part(req, part, final, hasher.hexdigest(), done, cancel))


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
