"""Reading OpenAI chat requests for the proxy, and naming the calling app."""

from __future__ import annotations

from typing import Any

import pytest

from core.proxy import ChatRequest, ProxyMessage, ProxyRequestError, client_name
from core.proxy.protocol import conversation_key


def test_a_plain_request_is_read_with_roles_and_text() -> None:
    req = ChatRequest.from_json(
        {
            "model": "gpt-x",
            "stream": True,
            "messages": [
                {"role": "developer", "content": "Be brief."},
                {"role": "user", "content": "Hi"},
                {"role": "assistant", "content": "Hello!"},
                {"role": "user", "content": [{"type": "text", "text": "Two"}, {"type": "text", "text": "parts"}]},
            ],
        }
    )
    assert req.stream and req.model == "gpt-x"
    assert req.history == (
        ProxyMessage("system", "Be brief."),
        ProxyMessage("user", "Hi"),
        ProxyMessage("assistant", "Hello!"),
    )
    assert req.text == "Two\nparts"


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ([], None),
        ({"messages": []}, "messages"),
        ({"messages": [{"role": "assistant", "content": "x"}]}, "messages[0].role"),
        ({"messages": [{"role": "user", "content": "   "}]}, "messages[0].content"),
        ({"messages": [{"role": "wizard", "content": "x"}]}, "messages[0].role"),
        ({"messages": [{"role": "tool", "content": "x", "tool_call_id": "1"}]}, "messages[0].role"),
        ({"messages": [{"role": "user", "content": "x"}], "tools": [{"type": "function"}]}, "tools"),
        ({"messages": [{"role": "user", "content": "x"}], "n": 2}, "n"),
        ({"messages": [{"role": "user", "content": "x"}], "stream": "yes"}, "stream"),
        (
            {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]},
            "messages[0].content[0]",
        ),
    ],
)
def test_what_the_proxy_cannot_check_is_refused_with_the_field(body: Any, param: str | None) -> None:
    with pytest.raises(ProxyRequestError) as info:
        ChatRequest.from_json(body)
    assert info.value.param == param
    assert info.value.message  # a sentence for a person


def test_images_are_refused_because_they_cannot_be_checked() -> None:
    with pytest.raises(ProxyRequestError, match="cannot be checked for private data"):
        ChatRequest.from_json(
            {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {}}]}]}
        )


@pytest.mark.parametrize(
    ("headers", "name"),
    [
        ({"X-Sottovoce-Client": "Open WebUI"}, "Open WebUI"),
        ({"x-sottovoce-client": "notes\x00 helper\n"}, "notes helper"),
        ({"User-Agent": "OpenAI/Python 1.54.0"}, "OpenAI/Python"),
        ({"user-agent": "curl/8.5.0"}, "curl"),
        ({"User-Agent": "python-httpx/0.28.1"}, "python-httpx"),
        ({"User-Agent": "Python/3.11 aiohttp/3.9.5"}, "aiohttp"),
        ({"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0"}, "Mozilla"),
        ({}, "unknown app"),
        ({"X-Sottovoce-Client": "x" * 200}, "x" * 64),
    ],
)
def test_the_app_is_named_by_its_header_or_user_agent(headers: dict[str, str], name: str) -> None:
    assert client_name(headers) == name


def test_the_conversation_key_is_optional_and_cleaned() -> None:
    assert conversation_key({}) is None
    assert conversation_key({"X-Sottovoce-Conversation": "  chat 42 "}) == "chat 42"
