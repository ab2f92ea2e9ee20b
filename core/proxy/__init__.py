"""The proxy's headless logic: what `sottovoce proxy` does with one OpenAI request.

Other apps reach the cloud through a local OpenAI-compatible server (the HTTP
part lives in ``app/proxy_server.py``). Everything that decides something is
here, without HTTP, so it can be tested on its own:

* :mod:`core.proxy.protocol`: reading an OpenAI chat request (typed errors for
  what the proxy cannot take) and naming the calling app;
* :mod:`core.proxy.sessions`: recognising a conversation from the message
  history a client resends (or from the ``X-Sottovoce-Conversation`` header),
  so placeholders stay stable across turns;
* :mod:`core.proxy.approvals`: handing a request that needs approval to the
  window, and waiting for the person's answer;
* :mod:`core.proxy.service`: one request as a turn of the
  :class:`~core.turn.Assistant` (prepare, approval bound to the exact
  payload, execute), yielding the restored answer;
* :mod:`core.proxy.token`: the bearer token clients authenticate with.
"""

from __future__ import annotations

from core.proxy.approvals import (
    ApprovalBroker,
    ApprovalTimedOut,
    ApprovalUnavailable,
    PendingApproval,
)
from core.proxy.protocol import ChatRequest, ProxyMessage, ProxyRequestError, client_name
from core.proxy.service import ProxyResult, ProxyService
from core.proxy.token import TOKEN_ENV, proxy_token

__all__ = [
    "TOKEN_ENV",
    "ApprovalBroker",
    "ApprovalTimedOut",
    "ApprovalUnavailable",
    "ChatRequest",
    "PendingApproval",
    "ProxyMessage",
    "ProxyRequestError",
    "ProxyResult",
    "ProxyService",
    "client_name",
    "proxy_token",
]
