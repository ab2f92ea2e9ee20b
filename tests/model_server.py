"""A loopback HTTP server that serves one model file the way a model host does.

It answers ``GET /<name>`` with the bytes given (the embedded GGUF in the
tests), honours ``Range: bytes=N-`` with ``206 Partial Content``, and can
misbehave on demand: a 404 for chosen paths, a connection cut after some
bytes, ranges ignored, a corrupted byte, a slow trickle, a pause after some
bytes until the test releases it (so that a download is stopped in the middle
by construction, however fast or slow the machine is). Every request is
recorded (method, path, headers, body) so tests can check what the
downloader sent. It binds 127.0.0.1 only.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CHUNK = 256 * 1024
HOLD_MAX = 600.0  # seconds a held response waits at most (a bound for a test that never releases it)


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Faults:
    missing: set[str] = field(default_factory=set)  # paths answered with 404
    cut_after: list[int] = field(default_factory=list)  # per response: close after N body bytes
    ignore_range: bool = False  # always 200 with the whole file
    corrupt: bool = False  # flip one byte in the middle
    delay: float = 0.0  # seconds to sleep after each chunk
    status: int | None = None  # answer every request with this status (e.g. 503)
    # per response: after N body bytes (rounded up to a chunk), send nothing more until
    # ``release`` is set (the server sets it when it closes)
    hold_after: list[int] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)


def drain(gen: Any) -> tuple[Any, list[Any]]:
    """Run a download (or import) generator to its end: (its return value, what it yielded)."""
    seen: list[Any] = []
    while True:
        try:
            seen.append(next(gen))
        except StopIteration as stop:
            return stop.value, seen


class ModelServer:
    """Serves ``data`` at ``/<any name>`` on 127.0.0.1 until :meth:`close`."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.faults = Faults()
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet test output
                pass

            def do_GET(self) -> None:
                server._handle(self)

            def do_POST(self) -> None:
                server._handle(self)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    def hold(self, after: int) -> None:
        """Stop the next response after ``after`` body bytes until :meth:`release`, and
        hold the downloader's retries of it (after its read timeout) from their first byte.

        Give ``after`` a megabyte beyond what the test waits for on disk: the
        downloader writes whole chunks of its own size.
        """
        self.faults.release.clear()
        self.faults.hold_after = [after] + [0] * 20

    def release(self) -> None:
        """Let the held responses go on; the next ones are not held."""
        self.faults.hold_after = []
        self.faults.release.set()

    def url(self, name: str = "model.gguf") -> str:
        return f"http://127.0.0.1:{self.port}/{name}"

    def close(self) -> None:
        self.faults.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(5)

    def __enter__(self) -> ModelServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- serving -------------------------------------------------------------------------

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        body = h.rfile.read(length) if length else b""
        with self._lock:
            self.requests.append(Recorded(h.command, h.path, dict(h.headers.items()), body))
            f = self.faults
            cut = f.cut_after.pop(0) if f.cut_after else None
            hold = f.hold_after.pop(0) if f.hold_after else None
        if f.status is not None:
            self._empty(h, f.status)
            return
        if h.path.lstrip("/") in f.missing or h.path.lstrip("/").split("?")[0] in f.missing:
            self._empty(h, 404)
            return
        data = self.data
        if f.corrupt:
            mid = len(data) // 2
            data = data[:mid] + bytes([data[mid] ^ 0xFF]) + data[mid + 1 :]
        start = 0
        rng = h.headers.get("Range")
        if rng and not f.ignore_range:
            first = rng.split("=", 1)[1].split("-", 1)[0]
            start = int(first)
            if start >= len(data):
                h.send_response(416)
                h.send_header("Content-Range", f"bytes */{len(data)}")
                h.send_header("Content-Length", "0")
                h.end_headers()
                return
            h.send_response(206)
            h.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            h.send_response(200)
        h.send_header("Content-Type", "application/octet-stream")
        h.send_header("Accept-Ranges", "bytes")
        h.send_header("Content-Length", str(len(data) - start))
        h.end_headers()
        sent = 0
        pos = start
        try:
            while pos < len(data):
                if hold is not None and sent >= hold:
                    h.wfile.flush()
                    f.release.wait(HOLD_MAX)
                    hold = None
                piece = data[pos : pos + CHUNK]
                if cut is not None and sent + len(piece) > cut:
                    piece = piece[: cut - sent]
                    h.wfile.write(piece)
                    h.wfile.flush()
                    h.connection.shutdown(socket.SHUT_RDWR)
                    h.close_connection = True
                    return
                h.wfile.write(piece)
                sent += len(piece)
                pos += len(piece)
                if f.delay:
                    time.sleep(f.delay)
        except (BrokenPipeError, ConnectionResetError, OSError):
            h.close_connection = True

    @staticmethod
    def _empty(h: BaseHTTPRequestHandler, status: int) -> None:
        h.send_response(status)
        h.send_header("Content-Length", "0")
        h.end_headers()
