"""A recording, fault-injecting HTTP proxy for OpenAI-compatible servers.

It sits between a client and an upstream server (the loopback
``llama_cpp.server``), records the body of every request it receives (what
"the cloud" saw), and can replace the next responses with faults: an HTTP
error status (401, 404, 429 with ``Retry-After``, 500...), a body that is not
JSON, a connection cut in the middle of a streamed answer, a server that
never answers, a connection closed without a reply. With no upstream it
answers chat requests itself with a short canned completion, so unit tests of
the client need no model.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from training.stub_cloud import QuietServer

CANNED_ANSWER = "Hello from the fake cloud."


@dataclass(frozen=True)
class Fault:
    """What to do instead of a normal answer to one request.

    ``kind``: ``status`` (reply ``status`` with an OpenAI-style error body,
    and ``Retry-After: retry_after`` when given), ``malformed`` (200 with a
    body that is not valid JSON; for a stream, an event that is not JSON),
    ``cut`` (forward, then close the connection after ``after_events`` events
    of a stream, or half-way through a plain body), ``hang`` (answer nothing
    until the proxy is cleared or stopped, so longer than any client's
    timeout however slow the machine, then close; ``delay`` seconds at most,
    a bound for a proxy never cleared), ``drop`` (close at once),
    ``empty`` (a stream with no event: what llama_cpp.server sends for a
    prompt longer than its context).
    """

    kind: str
    status: int = 500
    retry_after: str | None = None
    after_events: int = 2
    delay: float = 600.0


@dataclass
class Recorded:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    fault: Fault | None = None
    time: float = field(default_factory=time.monotonic)

    @property
    def json(self) -> Any:
        return json.loads(self.body) if self.body else None

    def strings(self) -> list[str]:
        """Every string value of the JSON body (how text reaches the model)."""
        out: list[str] = []

        def walk(node: Any) -> None:
            if isinstance(node, str):
                out.append(node)
            elif isinstance(node, dict):
                for v in node.values():
                    walk(v)
            elif isinstance(node, list):
                for v in node:
                    walk(v)

        if self.body:
            walk(self.json)
        return out


class RecordingProxy:
    """Start with :meth:`start`; ``base_url`` is the ``/v1`` URL to give clients."""

    def __init__(self, upstream: str | None = None) -> None:
        self.upstream = urlsplit(upstream) if upstream else None
        self.requests: list[Recorded] = []
        self._faults: deque[Fault] = deque()
        self._lock = threading.Lock()
        self._release = threading.Event()  # set: the hanging requests close
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- control -------------------------------------------------------------

    def start(self) -> RecordingProxy:
        handler = type("Handler", (_Handler,), {"proxy": self})
        self._server = QuietServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="recording-proxy", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._release.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def inject(self, *faults: Fault) -> None:
        """Apply these faults, in order, to the next chat requests."""
        with self._lock:
            self._faults.extend(faults)

    def clear(self) -> None:
        """Forget the requests and faults; requests left hanging close now."""
        with self._lock:
            self.requests.clear()
            self._faults.clear()
            self._release.set()
            self._release = threading.Event()

    # --- what was received ---------------------------------------------------

    @property
    def chat_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def received_text(self) -> str:
        """All string values of all chat request bodies, one per line."""
        return "\n".join(s for r in self.chat_requests for s in r.strings())

    def _record(self, rec: Recorded) -> tuple[Fault | None, threading.Event]:
        with self._lock:
            if rec.path.endswith("/chat/completions") and self._faults:
                rec.fault = self._faults.popleft()
            self.requests.append(rec)
            return rec.fault, self._release


class _Handler(BaseHTTPRequestHandler):
    proxy: RecordingProxy
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: bodies may hold test secrets

    def do_GET(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()

    # --- dispatch ----------------------------------------------------------------

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        rec = Recorded(self.command, self.path, dict(self.headers.items()), body)
        fault, release = self.proxy._record(rec)
        stream = bool(rec.path.endswith("/chat/completions") and body and rec.json.get("stream"))
        if fault is None or fault.kind == "cut":
            if self.proxy.upstream is None:
                self._canned(rec, stream, fault)
            else:
                self._forward(rec, stream, fault)
        elif fault.kind == "status":
            self._error(fault)
        elif fault.kind == "malformed":
            self._malformed(stream)
        elif fault.kind == "empty":
            self._start_chunked()
            self._chunk(b"")
        elif fault.kind == "hang":
            release.wait(fault.delay)
            self._drop()
        elif fault.kind == "drop":
            self._drop()
        else:  # pragma: no cover - a typo in a test
            raise ValueError(fault.kind)

    def _drop(self) -> None:
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

    def _send_json(self, status: int, payload: Any, extra: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def _error(self, fault: Fault) -> None:
        extra = {"Retry-After": fault.retry_after} if fault.retry_after is not None else {}
        body = {
            "error": {
                "message": f"injected {fault.status}",
                "type": "injected",
                "code": str(fault.status),
            }
        }
        self._send_json(fault.status, body, extra)

    def _malformed(self, stream: bool) -> None:
        if stream:
            self._start_chunked()
            self._chunk(b'data: {"id": "x", "choices": [{"delta": {"content": "Hel\n\n')
            self._chunk(b"data: [DONE]\n\n")
            self._chunk(b"")
            return
        data = b'{"id": "chatcmpl-x", "object": "chat.completion", "choices": [{"mess'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _start_chunked(self, status: int = 200, ctype: str = "text/event-stream") -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    # --- canned answers (no upstream) ---------------------------------------------

    def _canned(self, rec: Recorded, stream: bool, fault: Fault | None) -> None:
        if rec.path.endswith("/models"):
            self._send_json(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})
            return
        if not rec.path.endswith("/chat/completions"):
            self._send_json(404, {"error": {"message": "not found"}})
            return
        model = rec.json.get("model", "fake")
        words = CANNED_ANSWER.split(" ")
        if not stream:
            if fault is not None:  # cut a plain body half-way
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "4096")
                self.end_headers()
                self.wfile.write(b'{"id": "chatcmpl-x", "choices": [')
                self._drop()
                return
            self._send_json(
                200,
                {
                    "id": "chatcmpl-fake",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": model,
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": CANNED_ANSWER},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 7, "completion_tokens": 6, "total_tokens": 13},
                },
            )
            return
        self._start_chunked()
        for i, word in enumerate(words):
            if fault is not None and i == fault.after_events:
                self._drop()
                return
            piece = word if i == 0 else " " + word
            event = {
                "id": "chatcmpl-fake",
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}],
            }
            self._chunk(f"data: {json.dumps(event)}\n\n".encode())
        last = {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
        }
        self._chunk(f"data: {json.dumps(last)}\n\n".encode())
        self._chunk(b"data: [DONE]\n\n")
        self._chunk(b"")

    # --- forwarding -------------------------------------------------------------

    def _forward(self, rec: Recorded, stream: bool, fault: Fault | None) -> None:
        up = self.proxy.upstream
        assert up is not None and up.hostname is not None
        conn = http.client.HTTPConnection(up.hostname, up.port or 80, timeout=120)
        headers = {
            k: v
            for k, v in rec.headers.items()
            if k.lower() in ("content-type", "authorization", "accept")
        }
        try:
            conn.request(rec.method, rec.path, body=rec.body or None, headers=headers)
            resp = conn.getresponse()
            ctype = resp.getheader("Content-Type", "application/json")
            if not stream or "event-stream" not in ctype:
                data = resp.read()
                if fault is not None:  # cut a plain body half-way
                    self.send_response(resp.status)
                    self.send_header("Content-Type", ctype)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data[: len(data) // 2])
                    self._drop()
                    return
                self.send_response(resp.status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            self._start_chunked(resp.status, ctype)
            events = 0
            while True:
                line = resp.readline()
                if not line:
                    break
                self._chunk(line)
                if line.strip() == b"":  # a blank line ends one event
                    events += 1
                    if fault is not None and events >= fault.after_events:
                        self._drop()
                        return
            self._chunk(b"")
        finally:
            conn.close()
