"""The HTTP side of `sottovoce proxy`: an OpenAI-compatible server on this machine.

Starlette and uvicorn serve ``GET /v1/models`` and ``POST /v1/chat/completions``
(streamed as server-sent events, or not) in the OpenAI format; every
decision is taken by :class:`core.proxy.ProxyService`, which runs each
request as a turn of the person's assistant on a worker thread. This module
only speaks HTTP:

* every request must carry the bearer token; without it the answer is 401
  and nothing else happens (the body is not even read);
* errors come back in OpenAI's error format with a fitting status (see
  :func:`openai_error`): the guard's block names entity types, never values;
  a rate limit carries ``Retry-After``;
* a client that goes away cancels its turn: a wait for approval is withdrawn,
  and the streamed answer from the cloud is closed at the next piece;
* a streamed answer starts only once the first restored piece is there, so a
  failure before it (a block, an approval, the cloud) gets its own status.

It listens on loopback only, unless ``allow_remote`` is given together with a
TLS certificate and key (:func:`check_bind`).
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import logging
import math
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from core.errors import (
    ApprovalDeclined,
    Cancelled,
    CloudError,
    CloudNotFound,
    CloudRateLimited,
    CloudServerError,
    CloudTimeout,
    CloudUnauthorized,
    CloudUnreachable,
    EgressBlocked,
    InputError,
    ModelLoadError,
    PayloadChanged,
    SottovoceError,
    StoreError,
)
from core.proxy import (
    ApprovalTimedOut,
    ApprovalUnavailable,
    ChatRequest,
    ProxyRequestError,
    ProxyResult,
    ProxyService,
    client_name,
)
from core.proxy.protocol import conversation_key

log = logging.getLogger(__name__)

DEFAULT_HOST = "127.0.0.1"
#: Seconds a client is told to wait after a rate limit when the cloud did not say.
DEFAULT_RETRY_AFTER_S = 10
MAX_WORKERS = 64

# --- errors in OpenAI's format ------------------------------------------------------


def openai_error(exc: BaseException) -> tuple[int, dict[str, Any], dict[str, str]]:
    """(status, body, headers) of the OpenAI-format error for an exception."""
    headers: dict[str, str] = {}
    param = None
    status, kind, code = 500, "api_error", "internal_error"
    if isinstance(exc, ProxyRequestError):
        status, kind, code, param = 400, "invalid_request_error", "invalid_request", exc.param
    elif isinstance(exc, InputError):
        status, kind, code = 400, "invalid_request_error", "invalid_input"
    elif isinstance(exc, EgressBlocked):
        status, kind, code = 403, "permission_error", "egress_blocked"
    elif isinstance(exc, ApprovalUnavailable):
        status, kind, code = 403, "permission_error", "approval_required"
    elif isinstance(exc, ApprovalTimedOut):
        status, kind, code = 403, "permission_error", "approval_timeout"
    elif isinstance(exc, PayloadChanged):
        # Not 409: OpenAI clients retry 409, and each retry would ask the person again.
        status, kind, code = 403, "permission_error", "approval_mismatch"
    elif isinstance(exc, ApprovalDeclined):
        status, kind, code = 403, "permission_error", "approval_declined"
    elif isinstance(exc, Cancelled):
        status, kind, code = 499, "cancelled", "cancelled"
    elif isinstance(exc, CloudRateLimited):
        status, kind, code = 429, "rate_limit_error", "rate_limited"
        wait = getattr(exc, "retry_after", None)
        headers["Retry-After"] = str(
            max(1, math.ceil(wait)) if wait is not None else DEFAULT_RETRY_AFTER_S
        )
    elif isinstance(exc, CloudTimeout):
        status, kind, code = 504, "api_error", "cloud_timeout"
    elif isinstance(exc, CloudUnreachable):
        status, kind, code = 502, "api_error", "cloud_unreachable"
    elif isinstance(exc, CloudUnauthorized):
        # The cloud refused Sottovoce's own key; the client's token was fine.
        status, kind, code = 502, "api_error", "cloud_unauthorized"
    elif isinstance(exc, CloudNotFound):
        status, kind, code = 502, "api_error", "cloud_not_found"
    elif isinstance(exc, CloudServerError):
        status, kind, code = 502, "api_error", "cloud_server_error"
    elif isinstance(exc, CloudError):
        status, kind, code = 502, "api_error", "cloud_error"
    elif isinstance(exc, StoreError):
        status, kind, code = 503, "api_error", "vault_unavailable"
    elif isinstance(exc, ModelLoadError):
        status, kind, code = 503, "api_error", "model_unavailable"
    elif isinstance(exc, SottovoceError):
        status, kind, code = 500, "api_error", "not_sent"
    if isinstance(exc, SottovoceError):
        message = str(exc)
    else:
        message = f"Sottovoce's proxy failed ({type(exc).__name__}); see its log."
    body = {"error": {"message": message, "type": kind, "param": param, "code": code}}
    return status, body, headers


def _error_response(exc: BaseException) -> Any:
    from starlette.responses import JSONResponse

    status, body, headers = openai_error(exc)
    return JSONResponse(body, status_code=status, headers=headers)


UNAUTHORIZED = {
    "error": {
        "message": "Missing or wrong token. Send `Authorization: Bearer <token>`; "
        "`sottovoce proxy token` prints it.",
        "type": "invalid_request_error",
        "param": None,
        "code": "invalid_api_key",
    }
}

# --- one turn between a worker thread and the event loop ---------------------------


class _Turn:
    """Runs ``ProxyService.run`` on a worker thread, handing its items to the event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, executor: ThreadPoolExecutor) -> None:
        self.loop = loop
        self.executor = executor
        self.queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.cancel = threading.Event()
        self.done = False
        self.model = ""

    def start(self, items: Callable[[], Iterator[Any]]) -> None:
        self.executor.submit(self._work, items)

    def _put(self, kind: str, value: Any) -> None:
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, (kind, value))
        except RuntimeError:  # the server is gone: stop the turn
            self.cancel.set()

    def _work(self, items: Callable[[], Iterator[Any]]) -> None:
        try:
            for item in items():
                if isinstance(item, tuple):
                    self._put(*item)
                elif isinstance(item, ProxyResult):
                    self._put("result", item)
                elif isinstance(item, str):
                    self._put("piece", item)
        except BaseException as exc:  # every failure goes back to the client
            if not isinstance(exc, SottovoceError):
                # Only the type by default: an unexpected error's text may quote the request.
                log.warning("proxy turn failed: %s", type(exc).__name__)
                log.debug("proxy turn failed", exc_info=exc)
            self._put("error", exc)

    def ready(self) -> tuple[list[str], tuple[str, Any] | None]:
        """The pieces already queued, and the item after them if one is there too."""
        pieces: list[str] = []
        while True:
            try:
                item = self.queue.get_nowait()
            except asyncio.QueueEmpty:
                return pieces, None
            if item[0] == "model":
                self.model = str(item[1])
            elif item[0] == "piece":
                pieces.append(item[1])
            else:
                self.done = True
                return pieces, item

    async def get(self) -> tuple[str, Any]:
        """The next piece, result or error (the model name is kept aside)."""
        while True:
            item = await self.queue.get()
            if item[0] == "model":
                self.model = str(item[1])
                continue
            if item[0] in ("result", "error"):
                self.done = True
            return item


async def _watch_disconnect(receive: Callable[[], Any], cancel: threading.Event) -> None:
    """Cancel the turn when the client goes away."""
    while True:
        message = await receive()
        if message.get("type") == "http.disconnect":
            cancel.set()
            return


def _sse(data: Any) -> bytes:
    return f"data: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


class ProxyApp:
    """The ASGI application and the worker threads its turns run on."""

    def __init__(self, service: ProxyService, token: str, *, max_workers: int = MAX_WORKERS) -> None:
        if not token:
            raise InputError("The proxy needs a token.")
        self.service = service
        self._token = token.encode()
        self.executor = ThreadPoolExecutor(max_workers, thread_name_prefix="proxy-turn")
        self._active: set[threading.Event] = set()
        self._lock = threading.Lock()
        self.asgi = self._build()

    def close(self) -> None:
        """Cancel running turns; their threads end at the next piece (or the cloud's timeout)."""
        with self._lock:
            for cancel in self._active:
                cancel.set()
        # Not waited for: a turn blocked on a silent cloud must not freeze the window.
        self.executor.shutdown(wait=False, cancel_futures=True)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not self._authorized(scope):
            data = json.dumps(UNAUTHORIZED).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(data)).encode()),
                        (b"www-authenticate", b'Bearer realm="sottovoce"'),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": data})
            return
        await self.asgi(scope, receive, send)

    def _authorized(self, scope: Any) -> bool:
        for name, value in scope.get("headers", []):
            if name == b"authorization":
                scheme, _, given = value.partition(b" ")
                return scheme.lower() == b"bearer" and hmac.compare_digest(
                    given.strip(), self._token
                )
        return False

    # --- routes ---------------------------------------------------------------------

    def _build(self) -> Any:
        from starlette.applications import Starlette
        from starlette.responses import JSONResponse
        from starlette.routing import Route

        async def not_found(request: Any, exc: Exception) -> Any:
            status = getattr(exc, "status_code", 404)
            body = {
                "error": {
                    "message": f"{request.method} {request.url.path} is not served here; "
                    "use /v1/models and /v1/chat/completions.",
                    "type": "invalid_request_error",
                    "param": None,
                    "code": "not_found" if status == 404 else "method_not_allowed",
                }
            }
            return JSONResponse(body, status_code=status)

        routes = []
        for prefix in ("/v1", ""):
            routes.append(Route(f"{prefix}/models", self.models, methods=["GET"]))
            routes.append(Route(f"{prefix}/chat/completions", self.chat, methods=["POST"]))
        return Starlette(routes=routes, exception_handlers={404: not_found, 405: not_found})

    async def models(self, request: Any) -> Any:
        from starlette.responses import JSONResponse

        loop = asyncio.get_running_loop()
        try:
            names = await loop.run_in_executor(self.executor, self.service.models)
        except Exception as exc:
            return _error_response(exc)
        data = [{"id": n, "object": "model", "created": 0, "owned_by": "sottovoce"} for n in names]
        return JSONResponse({"object": "list", "data": data})

    async def chat(self, request: Any) -> Any:
        from starlette.responses import JSONResponse

        try:
            body = json.loads(await request.body())
        except (ValueError, UnicodeDecodeError):
            return _error_response(ProxyRequestError("The request body is not valid JSON."))
        try:
            req = ChatRequest.from_json(body)
        except ProxyRequestError as exc:
            return _error_response(exc)
        client = client_name(request.headers)
        key = conversation_key(request.headers)
        turn = _Turn(asyncio.get_running_loop(), self.executor)
        with self._lock:
            self._active.add(turn.cancel)
        watcher = asyncio.ensure_future(_watch_disconnect(request.receive, turn.cancel))
        def items() -> Iterator[Any]:
            yield ("model", self.service.models()[0])
            yield from self.service.run(req, client=client, key=key, cancel=turn.cancel)

        turn.start(items)
        started = time.perf_counter()

        def finish(outcome: str) -> None:
            watcher.cancel()
            with self._lock:
                self._active.discard(turn.cancel)
            log.info(
                "proxy: %s request from %s: %s in %.0f ms",
                "streamed" if req.stream else "plain",
                client,
                outcome,
                (time.perf_counter() - started) * 1000,
            )

        ident = f"chatcmpl-sv{uuid.uuid4().hex[:24]}"
        created = int(time.time())
        try:
            item = await turn.get()
        except BaseException:
            turn.cancel.set()
            finish("cancelled")
            raise
        if item[0] == "error":
            finish(type(item[1]).__name__)
            return _error_response(item[1])
        if not req.stream:
            try:
                while item[0] == "piece":
                    item = await turn.get()
            except BaseException:
                turn.cancel.set()
                finish("cancelled")
                raise
            if item[0] == "error":
                finish(type(item[1]).__name__)
                return _error_response(item[1])
            result: ProxyResult = item[1]
            finish("ok")
            return JSONResponse(
                {
                    "id": ident,
                    "object": "chat.completion",
                    "created": created,
                    "model": result.model,
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": result.answer},
                            "finish_reason": "stop",
                        }
                    ],
                },
                headers={"X-Sottovoce-Conversation-Id": str(result.conversation_id)},
            )
        model = turn.model or req.model or ""

        def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> bytes:
            return _sse(
                {
                    "id": ident,
                    "object": "chat.completion.chunk",
                    "created": created,
                    "model": model,
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
                }
            )

        async def events(first: tuple[str, Any]) -> AsyncIterator[bytes]:
            nonlocal model
            item = first
            outcome = "client gone"
            try:
                yield chunk({"role": "assistant", "content": ""})
                while True:
                    kind, value = item
                    if kind == "piece":
                        # Pieces that queued up while the last one was sent go as one
                        # event: fewer writes when many clients stream at once.
                        more, after = turn.ready()
                        yield chunk({"content": value + "".join(more)})
                        if after is not None:
                            item = after
                            continue
                    elif kind == "result":
                        model = value.model or model
                        yield chunk({}, "stop")
                        yield b"data: [DONE]\n\n"
                        outcome = "ok"
                        return
                    else:
                        # Headers are gone: the error travels as an event, as OpenAI does.
                        outcome = type(value).__name__
                        yield _sse(openai_error(value)[1])
                        return
                    item = await turn.get()
            finally:
                if not turn.done:
                    turn.cancel.set()
                finish(outcome)

        return _EventStream(events(item))


class _EventStream:
    """A server-sent-event response that stops quietly when the client has gone."""

    def __init__(self, events: AsyncIterator[bytes]) -> None:
        self.events = events

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [
                        (b"content-type", b"text/event-stream; charset=utf-8"),
                        (b"cache-control", b"no-cache"),
                        (b"x-accel-buffering", b"no"),
                    ],
                }
            )
            async for data in self.events:
                await send({"type": "http.response.body", "body": data, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            log.debug("proxy: client went away during a streamed answer")
        finally:
            await self.events.aclose()  # type: ignore[attr-defined]


# --- where it listens --------------------------------------------------------------------


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses; any other name counts as reachable.

    Names are not resolved here (this module opens no connection of its own):
    a name other than ``localhost`` is treated as one other machines could reach.
    """
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(
    host: str, *, allow_remote: bool = False, tls_cert: str | None = None, tls_key: str | None = None
) -> None:
    """Refuse a listening address that other machines could reach, unless allowed and with TLS."""
    if bool(tls_cert) != bool(tls_key):
        raise InputError("TLS needs both a certificate and its key (--tls-cert and --tls-key).")
    for path in (tls_cert, tls_key):
        if path and not Path(path).is_file():
            raise InputError(f"The TLS file {path} does not exist.")
    if is_loopback(host):
        return
    if not allow_remote:
        raise InputError(
            f"Refusing to listen on {host}: other machines could reach the proxy there.",
            hint="use 127.0.0.1, or add --allow-remote with --tls-cert and --tls-key",
        )
    if not tls_cert:
        raise InputError(
            f"Listening on {host} (--allow-remote) needs TLS: the token and your conversations "
            "would otherwise cross the network in clear.",
            hint="give --tls-cert FILE and --tls-key FILE",
        )


class ProxyServer:
    """uvicorn serving a :class:`ProxyApp` on a background thread (port 0 picks a free one)."""

    def __init__(
        self,
        app: ProxyApp,
        host: str = DEFAULT_HOST,
        port: int = 8765,
        *,
        allow_remote: bool = False,
        tls_cert: str | None = None,
        tls_key: str | None = None,
        log_level: str = "warning",
    ) -> None:
        if not 0 <= port <= 65535:
            raise InputError(f"{port} is not a TCP port.")
        check_bind(host, allow_remote=allow_remote, tls_cert=tls_cert, tls_key=tls_key)
        self.app = app
        self.host = host
        self.tls = bool(tls_cert)
        self._port = port
        import uvicorn

        config = uvicorn.Config(
            app,
            host=host.strip("[]"),
            port=port,
            log_level=log_level,
            log_config=None,  # the app's logging stays as it is
            access_log=False,  # paths only, but nothing here needs them
            lifespan="off",
            ssl_certfile=tls_cert,
            ssl_keyfile=tls_key,
            timeout_graceful_shutdown=3,
        )
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None
        self._failed = False

    @property
    def port(self) -> int:
        """The port it listens on (the one the system chose, for port 0)."""
        for server in getattr(self._server, "servers", None) or []:
            for sock in server.sockets:
                return int(sock.getsockname()[1])
        return self._port

    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'https' if self.tls else 'http'}://{host}:{self.port}/v1"

    def start(self, timeout: float = 10.0) -> ProxyServer:
        """Serve on a background thread; returns once it accepts connections."""
        self._thread = threading.Thread(target=self._run, name="sottovoce-proxy", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if self._failed or not self._thread.is_alive():
                raise InputError(
                    f"Cannot listen on {self.host}:{self._port}.",
                    hint="another program may use that port; choose one with --port",
                )
            if time.monotonic() > deadline:
                raise SottovoceError("The proxy did not start in time.", hint="see the log (-v)")
            time.sleep(0.02)
        return self

    def _run(self) -> None:
        try:
            self._server.run()
        except SystemExit:  # uvicorn's answer to an address it cannot bind
            self._failed = True

    def wait(self, poll: float = 0.5) -> None:
        """Block until the server stops (Ctrl-C raises KeyboardInterrupt here)."""
        while self._thread is not None and self._thread.is_alive():
            self._thread.join(poll)

    def stop(self) -> None:
        """Stop serving, cancel running turns, release the port."""
        self._server.should_exit = True
        self.app.close()
        if self._thread is not None:
            self._thread.join(10)

    def __enter__(self) -> ProxyServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve_in_thread(service: ProxyService, token: str, host: str, port: int) -> ProxyServer:
    """Start the proxy for ``service`` on a background thread (the window's switch uses it)."""
    return ProxyServer(ProxyApp(service, token), host, port).start()
