"""Reading an OpenAI chat-completions request, and naming the app that sent it.

The proxy takes what it can check: text messages from a system (or
``developer``), the user and the assistant, the last one from the user. It
refuses, with a :class:`ProxyRequestError` that says why, what would pass
through unchecked or cannot be answered by a turn: images, audio and files
(the detectors read text), tool calls, several choices (``n`` > 1).
Sampling parameters (``temperature``, ``max_tokens``...) are not forwarded:
the person's settings decide what the cloud is asked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.errors import InputError

#: The header a client may send to name itself in the approval view and the ledger.
CLIENT_HEADER = "x-sottovoce-client"
#: The header a client may send to name its conversation (see core.proxy.sessions).
CONVERSATION_HEADER = "x-sottovoce-conversation"
MAX_NAME = 64
MAX_KEY = 200

_ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant"}
_TEXT_PARTS = {"text", "input_text"}


class ProxyRequestError(InputError):
    """A request the proxy cannot take as it is; nothing was analysed or sent.

    ``param`` names the offending field in OpenAI's error format.
    """

    def __init__(self, message: str, *, param: str | None = None, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.param = param


@dataclass(frozen=True)
class ProxyMessage:
    """One message as the client sent it: ``system``, ``user`` or ``assistant``, and its text."""

    role: str
    content: str


@dataclass(frozen=True)
class ChatRequest:
    """What the proxy uses of a chat-completions request."""

    messages: tuple[ProxyMessage, ...]
    stream: bool = False
    model: str | None = None

    @property
    def history(self) -> tuple[ProxyMessage, ...]:
        """Every message before the last one (the client's view of the conversation so far)."""
        return self.messages[:-1]

    @property
    def text(self) -> str:
        """The new user message: the text of this turn."""
        return self.messages[-1].content

    @classmethod
    def from_json(cls, body: Any) -> ChatRequest:
        """Validate a decoded JSON body; raises :class:`ProxyRequestError`."""
        if not isinstance(body, Mapping):
            raise ProxyRequestError("The request body must be a JSON object.")
        raw = body.get("messages")
        if not isinstance(raw, list) or not raw:
            raise ProxyRequestError("`messages` must be a non-empty list.", param="messages")
        if body.get("tools") or body.get("functions") or body.get("tool_choice") not in (None, "none"):
            raise ProxyRequestError(
                "Tool and function calls are not supported through Sottovoce's proxy.",
                param="tools",
                hint="send plain chat messages",
            )
        n = body.get("n")
        if n is not None and n != 1:
            raise ProxyRequestError("Only one answer per request (`n` = 1) is supported.", param="n")
        stream = body.get("stream", False)
        if not isinstance(stream, bool):
            raise ProxyRequestError("`stream` must be true or false.", param="stream")
        model = body.get("model")
        messages = tuple(_message(m, i) for i, m in enumerate(raw))
        if messages[-1].role != "user":
            raise ProxyRequestError(
                "The last message must come from the user.", param=f"messages[{len(raw) - 1}].role"
            )
        if not messages[-1].content.strip():
            raise ProxyRequestError(
                "The last user message is empty: there is nothing to send.",
                param=f"messages[{len(raw) - 1}].content",
            )
        return cls(messages, stream, model if isinstance(model, str) else None)


def _message(m: Any, i: int) -> ProxyMessage:
    where = f"messages[{i}]"
    if not isinstance(m, Mapping):
        raise ProxyRequestError(f"{where} must be an object.", param=where)
    role = m.get("role")
    if role in ("tool", "function") or m.get("tool_calls") or m.get("function_call"):
        raise ProxyRequestError(
            "Tool and function calls are not supported through Sottovoce's proxy.",
            param=f"{where}.role",
        )
    if role not in _ROLES:
        raise ProxyRequestError(f"{where} has an unknown role {str(role)[:20]!r}.", param=f"{where}.role")
    return ProxyMessage(_ROLES[str(role)], _content(m.get("content"), where))


def _content(content: Any, where: str) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for j, part in enumerate(content):
            kind = part.get("type") if isinstance(part, Mapping) else None
            if kind in _TEXT_PARTS and isinstance(part.get("text"), str):
                texts.append(part["text"])
            else:
                raise ProxyRequestError(
                    "Only text can go through Sottovoce: images, audio and files cannot be "
                    "checked for private data.",
                    param=f"{where}.content[{j}]",
                )
        return "\n".join(texts)
    raise ProxyRequestError(f"{where}.content must be text.", param=f"{where}.content")


def _lower(headers: Mapping[str, str]) -> dict[str, str]:
    return {str(k).lower(): str(v) for k, v in headers.items()}


def _clean(text: str, limit: int) -> str:
    text = "".join(c for c in text if c.isprintable())
    return " ".join(text.split())[:limit]


_VERSION = re.compile(r"/v?\d[\w.\-+]*$")


def client_name(headers: Mapping[str, str]) -> str:
    """The calling app's name for the approval view and the ledger.

    ``X-Sottovoce-Client`` when the client sends it, else the first product of
    its ``User-Agent`` without the version (``curl/8.5.0`` is ``curl``,
    ``OpenAI/Python 1.54`` is ``OpenAI/Python``, ``Python/3.11 aiohttp/3.9``
    is ``aiohttp``).
    """
    h = _lower(headers)
    named = _clean(h.get(CLIENT_HEADER, ""), MAX_NAME)
    if named:
        return named
    products = [_clean(_VERSION.sub("", p), MAX_NAME) for p in h.get("user-agent", "").split()]
    products = [p for p in products if p and not p.startswith("(")]
    # "Python/3.11 aiohttp/3.9" names the runtime first; the library says more.
    if len(products) > 1 and products[0].casefold() == "python":
        return products[1]
    if products:
        return products[0]
    return "unknown app"


def conversation_key(headers: Mapping[str, str]) -> str | None:
    """The client's own name for its conversation (``X-Sottovoce-Conversation``), if any."""
    key = _clean(_lower(headers).get(CONVERSATION_HEADER, ""), MAX_KEY)
    return key or None
