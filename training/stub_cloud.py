"""A loopback OpenAI-compatible server that answers like a capable cloud model.

It answers ``POST /v1/chat/completions`` (streamed or not) with a text chosen
by a function of the request's messages, and ``GET /v1/models`` with one
model, on 127.0.0.1 only. It stands in for a strong remote model whose answer
is known to be good, so what the pipeline does to a good answer can be
measured (``sottovoce eval answers``) and tested (the window and ``sottovoce
ask`` talk to it through the real egress guard and ``openai`` client).

With ``api_key`` set it answers 401 to any request without that bearer
token, so a test can prove which key the app sent. It records every request
(path, headers, JSON body) in :attr:`StubCloud.requests`.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Messages = Sequence[dict[str, Any]]
Answer = str | Callable[[Messages], str]

_PLACEHOLDER = re.compile(r"\[[A-Z][A-Z_]*_\d+\]")


def capable_answer(messages: Messages) -> str:
    """A calm, correct-sounding generic answer that uses the request's placeholders.

    The answer refers to up to three placeholders of the last user message (so
    restoring them can be checked), carries a figure (so a merge that drops or
    changes figures can be caught), and has four distinct sentences.
    """
    user = str(messages[-1].get("content", "")) if messages else ""
    found = list(dict.fromkeys(_PLACEHOLDER.findall(user)))[:3]
    about = f"the situation with {', '.join(found)}" if found else "your situation"
    return (
        f"Thank you for explaining {about}. "
        "The sensible next step is to act on it within 24 hours and keep a short written "
        "note of what you decide. "
        "If things get worse or you are unsure, contact a professional who can look at the "
        "details with you. "
        "Keep any message you send short, friendly and factual."
    )


class StubCloud:
    """Start with :meth:`start` (or ``with``); give clients :attr:`base_url`."""

    def __init__(
        self, answer: Answer = capable_answer, *, model: str = "stub-strong", api_key: str | None = None
    ) -> None:
        self.answer = answer
        self.model = model
        self.api_key = api_key
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> StubCloud:
        handler = type("Handler", (_Handler,), {"stub": self})
        self._server = QuietServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="stub-cloud", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> StubCloud:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        assert self._server is not None, "start() the stub first"
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return [r for r in self.requests if r["path"].endswith("/chat/completions")]

    def reply_for(self, messages: Messages) -> str:
        return self.answer if isinstance(self.answer, str) else self.answer(messages)

    def _record(self, entry: dict[str, Any]) -> None:
        with self._lock:
            self.requests.append(entry)


class QuietServer(ThreadingHTTPServer):
    """A threading HTTP server on loopback for stand-in clouds.

    Its listen backlog holds many clients at once (the default, 5, refuses
    connections when 20 arrive together on a busy machine), and clients that
    hang up (they read all they wanted, timed out, or cancelled a stream) are
    not reported as errors.
    """

    request_queue_size = 128

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    stub: StubCloud
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: request bodies are not for the console

    def do_GET(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else None
        self.stub._record({"method": self.command, "path": self.path,
                           "headers": dict(self.headers.items()), "json": body})
        if self.stub.api_key is not None and (
            self.headers.get("Authorization") != f"Bearer {self.stub.api_key}"
        ):
            self._json(401, {"error": {"message": "invalid api key", "type": "auth"}})
            return
        if self.path.endswith("/models"):
            self._json(200, {"object": "list",
                             "data": [{"id": self.stub.model, "object": "model", "owned_by": "stub"}]})
            return
        if not self.path.endswith("/chat/completions") or not isinstance(body, dict):
            self._json(404, {"error": {"message": "not found"}})
            return
        text = self.stub.reply_for(body.get("messages") or [])
        if body.get("stream"):
            self._stream(text, str(body.get("model") or self.stub.model))
        else:
            self._json(200, _completion(text, str(body.get("model") or self.stub.model)))

    def _json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _stream(self, text: str, model: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        # Word by word, as a real server streams tokens (placeholders split too).
        pieces = re.findall(r"\S+\s*|\s+", text)
        for piece in pieces:
            self._event(_chunk(model, {"content": piece}, None))
        self._event(_chunk(model, {}, "stop"))
        self._send(b"data: [DONE]\n\n")
        self._send(b"")

    def _event(self, payload: dict[str, Any]) -> None:
        self._send(f"data: {json.dumps(payload)}\n\n".encode())

    def _send(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()


def _chunk(model: str, delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def _completion(text: str, model: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
        "usage": {"prompt_tokens": 0, "completion_tokens": len(text.split()), "total_tokens": 0},
    }
