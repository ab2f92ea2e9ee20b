"""The cloud model: any OpenAI-compatible endpoint through the ``openai`` client.

Only :class:`core.egress.EgressGuard` calls :meth:`CloudClient.post` and
:meth:`CloudClient.post_stream`: the guard checks every payload, writes it to
the ledger and enforces approval, so nothing else in the app may send
content (``tests/core/test_egress_door.py`` checks this).

The API key comes from :mod:`core.llm.endpoints` (the OS keyring, else the
encrypted vault). Retries are done here rather than by the ``openai`` client
(whose own retries are switched off) so that they are visible and testable:
429 and 5xx answers are retried with exponential backoff, honouring ``Retry-After``, and
only ever resend the same, already approved request. Every failure becomes
one of the :class:`~core.errors.CloudError` types.
"""

from __future__ import annotations

import email.utils
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC
from typing import TYPE_CHECKING, Any

from core.errors import (
    Cancelled,
    CloudError,
    CloudMalformedResponse,
    CloudNotFound,
    CloudRateLimited,
    CloudServerError,
    CloudTimeout,
    CloudUnauthorized,
    CloudUnreachable,
)
from core.llm.base import Cancel, Messages, Reply, is_cancelled
from core.llm.endpoints import SecretVault, api_key_for

if TYPE_CHECKING:
    from core.settings import Settings

log = logging.getLogger(__name__)


# --- retry timing ------------------------------------------------------------------


def retry_after_seconds(
    headers: Mapping[str, str] | None, now: float | None = None
) -> float | None:
    """Seconds asked for by ``Retry-After`` (seconds or an HTTP date) or ``retry-after-ms``."""
    if not headers:
        return None
    lower = {k.lower(): v for k, v in headers.items()}
    ms = lower.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = lower.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    now_ts = time.time() if now is None else now
    return max(0.0, when.timestamp() - now_ts)


def _wait(seconds: float, cancel: Cancel) -> None:
    """Sleep, waking early (and raising Cancelled) when ``cancel`` fires."""
    if isinstance(cancel, threading.Event):
        if cancel.wait(seconds):
            raise Cancelled()
        return
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        if is_cancelled(cancel):
            raise Cancelled()
        time.sleep(min(left, 0.1))
    if is_cancelled(cancel):
        raise Cancelled()


@dataclass(frozen=True)
class Retries:
    """When a failed request is sent again: after 429 or 5xx, ``max_retries`` times at most.

    The wait doubles from ``backoff`` up to ``max_backoff`` seconds, unless the
    server asks for one (``Retry-After``); a server asking for more than
    ``max_retry_after`` seconds gets no resend.
    """

    max_retries: int = 3
    backoff: float = 1.0
    max_backoff: float = 30.0
    max_retry_after: float = 60.0

    def delay(self, error: CloudError, attempt: int) -> float | None:
        """Seconds to wait before resending, or None when this error is final."""
        if not isinstance(error, CloudRateLimited | CloudServerError):
            return None
        if attempt > self.max_retries:
            return None
        asked: float | None = getattr(error, "retry_after", None)
        if asked is not None:
            # A server that asks for minutes gets a clear error, not a frozen window.
            return asked if asked <= self.max_retry_after else None
        return float(min(self.max_backoff, self.backoff * 2 ** (attempt - 1)))


# --- the client ----------------------------------------------------------------------


class CloudClient:
    """A chat-completions client for one endpoint and model.

    ``api_key`` None reads the keyring, then ``vault`` (the encrypted store,
    where no keyring exists); a loopback endpoint with no key gets a dummy one.
    ``max_retries`` counts resends of the same request after 429 or 5xx (see
    :class:`Retries`). ``sleep`` replaces the wait between attempts (tests
    record it).
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 60.0,
        connect_timeout: float = 10.0,
        max_retries: int = 3,
        backoff: float = 1.0,
        max_backoff: float = 30.0,
        max_retry_after: float = 60.0,
        sleep: Callable[[float], None] | None = None,
        vault: SecretVault | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.retries = Retries(max_retries, backoff, max_backoff, max_retry_after)
        self._api_key = api_key
        self._vault = vault
        self._sleep = sleep
        self._client: Any = None
        self._client_lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: Any) -> CloudClient:
        """The client the settings describe (endpoint, model, timeout, retries).

        Pass ``vault=`` (the open store) so a key kept there is found."""
        kwargs: dict[str, Any] = {
            "timeout": settings.cloud_timeout_s,
            "max_retries": settings.cloud_max_retries,
        }
        kwargs.update(overrides)
        return cls(settings.cloud_base_url, settings.cloud_model, **kwargs)

    def __repr__(self) -> str:  # never shows the key
        return f"CloudClient({self.base_url!r}, model={self.model!r})"

    @property
    def endpoint(self) -> str:
        """The URL requests go to (recorded in the ledger)."""
        return f"{self.base_url}/chat/completions"

    # --- the openai client ----------------------------------------------------------

    def _key(self) -> str:
        return self._api_key or api_key_for(self.base_url, self._vault)

    def _openai(self) -> Any:
        with self._client_lock:
            if self._client is None:
                import openai

                self._client = openai.OpenAI(
                    base_url=self.base_url,
                    api_key=self._key(),
                    # Our own retry loop (below) is the only one.
                    max_retries=0,
                    timeout=openai.Timeout(self.timeout, connect=self.connect_timeout),
                )
            return self._client

    # --- requests ---------------------------------------------------------------------

    def build_body(
        self,
        messages: Messages,
        *,
        stream: bool = False,
        max_tokens: int | None = None,
        temperature: float | None = None,
        **params: Any,
    ) -> dict[str, Any]:
        """The exact JSON body of a chat request (what the guard checks and records)."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [dict(m) for m in messages],
            "stream": stream,
        }
        if stream:
            # Token counts for the ledger; servers that do not know it ignore it.
            body["stream_options"] = {"include_usage": True}
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        if temperature is not None:
            body["temperature"] = temperature
        body.update({k: v for k, v in params.items() if v is not None})
        return body

    def post(self, body: Mapping[str, Any], *, cancel: Cancel = None) -> Reply:
        """Send one non-streaming chat request; retries 429/5xx. Only the egress guard calls this."""
        if body.get("stream"):
            raise ValueError("post() sends non-streaming requests; use post_stream()")
        client = self._openai()
        raw, attempts = self._attempt(lambda: client.chat.completions.create(**body), cancel)
        return self._parse_reply(raw, attempts)

    def post_stream(self, body: Mapping[str, Any], *, cancel: Cancel = None) -> CloudStream:
        """Open a streaming chat request; retries 429/5xx before the first byte of the answer."""
        if not body.get("stream"):
            raise ValueError("post_stream() sends streaming requests; use post()")
        client = self._openai()
        raw, attempts = self._attempt(lambda: client.chat.completions.create(**body), cancel)
        return CloudStream(self, raw, attempts, cancel)

    def list_models(self) -> list[str]:
        """The model names the endpoint offers (sends no content; used by Settings)."""
        client = self._openai()
        try:
            return [m.id for m in client.models.list()]
        except Exception as exc:
            error = self.map_error(exc)
            log.debug("listing models failed: %s", type(exc).__name__)
        raise error

    def _attempt(self, call: Callable[[], Any], cancel: Cancel) -> tuple[Any, int]:
        attempt = 0
        while True:
            if is_cancelled(cancel):
                raise Cancelled()
            attempt += 1
            try:
                return call(), attempt
            except Exception as exc:
                error = self.map_error(exc)
                log.debug("cloud request failed: %s", type(exc).__name__)
            # Raised outside the except block: the error carries no link to the
            # openai exception, whose request object holds the whole payload.
            delay = self.retries.delay(error, attempt)
            if delay is None:
                asked = getattr(error, "retry_after", None)
                if asked is not None and asked > self.retries.max_retry_after:
                    error.hint = f"the endpoint asks to wait {asked:.0f} s before sending again"
                raise error
            log.info(
                "cloud answered %s; retrying in %.1f s (attempt %d of %d)",
                getattr(error, "status_code", "?"),
                delay,
                attempt + 1,
                self.retries.max_retries + 1,
            )
            if self._sleep is not None:
                self._sleep(delay)
            else:
                _wait(delay, cancel)

    # --- answers and errors -------------------------------------------------------------

    def _parse_reply(self, raw: Any, attempts: int) -> Reply:
        try:
            choice = raw.choices[0]
            text = choice.message.content
            if text is None and not getattr(choice.message, "tool_calls", None):
                raise TypeError("no content")
            usage = getattr(raw, "usage", None)
            return Reply(
                text or "",
                prompt_tokens=getattr(usage, "prompt_tokens", None),
                completion_tokens=getattr(usage, "completion_tokens", None),
                finish_reason=choice.finish_reason,
                model=getattr(raw, "model", None) or self.model,
                attempts=attempts,
            )
        except (AttributeError, IndexError, TypeError, KeyError) as exc:
            raise CloudMalformedResponse(
                "The cloud endpoint answered with something that is not a chat completion.",
                hint="check that the endpoint is OpenAI-compatible",
            ) from exc

    def map_error(self, exc: BaseException, *, streaming: bool = False) -> CloudError:
        """The :class:`~core.errors.CloudError` for an exception of the openai/httpx stack."""
        import openai

        if isinstance(exc, CloudError):
            return exc
        where = self.base_url
        if isinstance(exc, openai.APITimeoutError):
            return CloudTimeout(
                f"The cloud endpoint {where} did not answer within {self.timeout:g} s.",
                hint="try again, or raise the timeout in Settings",
            )
        if isinstance(exc, openai.APIConnectionError):
            if streaming:
                return CloudUnreachable(
                    "The connection to the cloud was cut while the answer was arriving.",
                    hint="the answer is incomplete; send again when the connection is back",
                )
            return CloudUnreachable(
                f"Cannot reach the cloud endpoint {where}.",
                hint="check the network and the endpoint in Settings (is the server running?)",
            )
        if isinstance(exc, openai.APIStatusError):
            return self._status_error(exc)
        if isinstance(exc, json.JSONDecodeError | openai.APIResponseValidationError | ValueError):
            return CloudMalformedResponse(
                f"The cloud endpoint {where} answered with data that is not valid JSON.",
                hint="check that the endpoint is OpenAI-compatible",
            )
        if isinstance(exc, OSError):
            return CloudUnreachable(
                f"Cannot reach the cloud endpoint {where} ({type(exc).__name__})."
            )
        return CloudError(f"The cloud request failed ({type(exc).__name__}).")

    def _status_error(self, exc: Any) -> CloudError:
        status = int(getattr(exc, "status_code", 0) or 0)
        headers = getattr(getattr(exc, "response", None), "headers", None)
        error: CloudError
        if status in (401, 403):
            error = CloudUnauthorized(
                f"The cloud endpoint rejected the API key (HTTP {status}).",
                hint="check the API key in Settings",
            )
        elif status == 404:
            error = CloudNotFound(
                f"The cloud endpoint has no model {self.model!r}, or {self.base_url} is not "
                "an OpenAI-compatible API (HTTP 404).",
                hint="check the endpoint and the model name in Settings",
            )
        elif status == 429:
            error = CloudRateLimited(
                "The cloud endpoint is rate limiting requests (HTTP 429).",
                hint="wait a little and send again",
            )
            error.retry_after = retry_after_seconds(headers)  # type: ignore[attr-defined]
        elif status >= 500:
            error = CloudServerError(
                f"The cloud endpoint failed (HTTP {status}).", hint="try again later"
            )
            error.retry_after = retry_after_seconds(headers)  # type: ignore[attr-defined]
        else:
            # The server's own message may quote the request: it is not shown.
            error = CloudError(f"The cloud endpoint refused the request (HTTP {status}).")
        error.status_code = status  # type: ignore[attr-defined]
        return error


def endpoint_models(
    base_url: str,
    *,
    api_key: str | None = None,
    vault: SecretVault | None = None,
    timeout: float = 15.0,
) -> list[str]:
    """The model names an endpoint offers, sorted: a connection test that sends no
    content (no conversation, no prompt), tried once."""
    client = CloudClient(base_url, "-", api_key=api_key, vault=vault, timeout=timeout, max_retries=0)
    return sorted(client.list_models())


class CloudStream:
    """The pieces of a streamed answer; :attr:`reply` once it is complete.

    Iterating yields text pieces. A connection cut or an answer that stops
    without a finish reason raises :class:`~core.errors.CloudUnreachable`;
    text that is not JSON raises :class:`~core.errors.CloudMalformedResponse`;
    ``cancel`` stops before the next piece with :class:`~core.errors.Cancelled`.
    Whatever arrived stays in :attr:`text`.
    """

    def __init__(self, client: CloudClient, raw: Any, attempts: int, cancel: Cancel) -> None:
        self._client = client
        self._raw = raw
        self._cancel = cancel
        self.attempts = attempts
        self.parts: list[str] = []
        self.finish_reason: str | None = None
        self.prompt_tokens: int | None = None
        self.completion_tokens: int | None = None
        self.model: str | None = None
        self.done = False

    @property
    def text(self) -> str:
        return "".join(self.parts)

    @property
    def reply(self) -> Reply:
        return Reply(
            self.text,
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            finish_reason=self.finish_reason,
            model=self.model or self._client.model,
            attempts=self.attempts,
        )

    def __iter__(self) -> Iterator[str]:
        try:
            for piece in self._pieces():
                yield piece
                if is_cancelled(self._cancel):
                    raise Cancelled()
        finally:
            self.close()

    def _pieces(self) -> Iterator[str]:
        try:
            for chunk in self._raw:
                self.model = getattr(chunk, "model", None) or self.model
                usage = getattr(chunk, "usage", None)
                if usage is not None:
                    self.prompt_tokens = getattr(usage, "prompt_tokens", None)
                    self.completion_tokens = getattr(usage, "completion_tokens", None)
                for choice in getattr(chunk, "choices", None) or []:
                    piece = getattr(choice.delta, "content", None) if choice.delta else None
                    if choice.finish_reason:
                        self.finish_reason = choice.finish_reason
                    if piece:
                        self.parts.append(piece)
                        yield piece
        except Cancelled:
            raise
        except Exception as exc:
            error: CloudError | None = self._client.map_error(exc, streaming=True)
            log.debug("cloud stream failed: %s", type(exc).__name__)
        else:
            error = None
        if error is not None:
            raise error  # outside the except block: no link to the payload
        if self.finish_reason is None and not self.parts:
            # llama_cpp.server, for one, answers a prompt longer than its context
            # with an empty stream.
            raise CloudUnreachable(
                "The cloud endpoint closed the answer without sending any of it.",
                hint="the conversation may be longer than the model's context; "
                "start a new conversation or check the server",
            )
        if self.finish_reason is None:
            # A stream that ends without a finish reason was cut (e.g. a proxy
            # closed it cleanly between events).
            raise CloudUnreachable(
                "The cloud's answer stopped before it was complete.",
                hint="the answer is incomplete; send again when the connection is back",
            )
        self.done = True

    def close(self) -> None:
        """Stop receiving (closes the HTTP response)."""
        close = getattr(self._raw, "close", None)
        if close is not None:
            try:
                close()
            except Exception:  # closing a broken connection may raise again
                log.debug("closing the cloud stream failed", exc_info=True)
