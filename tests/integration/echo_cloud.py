"""A loopback OpenAI-compatible server that answers like a capable model: it uses the
placeholders it was given.

The answer names every placeholder of the last user message, in order, so a
test can check that each client gets exactly its own values back; streamed
answers come in pieces of ``piece`` characters, so placeholders are split
across chunks. ``delay`` slows each piece (for cancellation); ``endless`` streams
pieces after the answer until the client hangs up (``MAX_PIECES`` at most), so that
a client that leaves is always seen to leave however slowly it does; ``aborted``
counts the streamed answers the client hung up on. Put a
:class:`~tests.integration.recording_proxy.RecordingProxy` in front of it to
record requests and inject faults. Used by the proxy tests and its benchmark.
"""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from training.stub_cloud import QuietServer

MAX_PIECES = 100_000  # of an endless answer: a bound for a client that never hangs up
PLACEHOLDER = re.compile(r"\[[A-Z][A-Z_]*_\d+\]")
MODEL = "echo-capable"


def answer_for(messages: list[dict[str, Any]]) -> str:
    """The answer to a request: its placeholders, in order, in a short calm reply."""
    user = str(messages[-1].get("content", "")) if messages else ""
    found = list(dict.fromkeys(PLACEHOLDER.findall(user)))
    about = ", ".join(found) if found else "nothing private"
    return f"Noted about {about}. Rest, drink water and check again tomorrow."


class EchoCloud:
    """Start with :meth:`start`; ``base_url`` is the ``/v1`` URL."""

    def __init__(self, *, piece: int = 3, delay: float = 0.0, endless: bool = False) -> None:
        self.piece = piece
        self.delay = delay
        self.endless = endless
        self.requests = 0
        #: Streamed answers the client hung up on before the end.
        self.aborted = 0
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> EchoCloud:
        handler = type("Handler", (_Handler,), {"cloud": self})
        self._server = QuietServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(5)

    def __enter__(self) -> EchoCloud:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"


class _Handler(BaseHTTPRequestHandler):
    cloud: EchoCloud
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if self.path.endswith("/models"):
            self._json(200, {"object": "list", "data": [{"id": MODEL, "object": "model"}]})
        else:
            self._json(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        self.cloud.requests += 1
        text = answer_for(body.get("messages", []))
        model = body.get("model", MODEL)
        if not body.get("stream"):
            self._json(
                200,
                {
                    "id": "chatcmpl-echo",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": model,
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": text},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
                },
            )
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        n = self.cloud.piece
        try:
            pieces = [text[i : i + n] for i in range(0, len(text), n)]
            if self.cloud.endless:
                pieces += [" more"] * MAX_PIECES
            for piece in pieces:
                if self.cloud.delay:
                    time.sleep(self.cloud.delay)
                self._event(model, {"content": piece}, None)
            self._event(model, {}, "stop")
            self._chunk(b"data: [DONE]\n\n")
            self._chunk(b"")
        except OSError:
            self.cloud.aborted += 1  # the client went away

    def _event(self, model: str, delta: dict[str, Any], finish: str | None) -> None:
        event = {
            "id": "chatcmpl-echo",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        self._chunk(f"data: {json.dumps(event)}\n\n".encode())

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()
