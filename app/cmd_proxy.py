"""``sottovoce proxy``: other apps reach the cloud through Sottovoce's protection.

- ``sottovoce proxy [--host 127.0.0.1] [--port 8765]``: serve an OpenAI-compatible
  API (``/v1/models``, ``/v1/chat/completions``) until Ctrl-C. Each request is
  a turn of the same pipeline as the window (detect, route, anonymize, the
  egress guard and its ledger, restore). Without a window nobody can approve:
  with the approval policy ``always`` (or ``when_entities`` and private values)
  a request fails with a clear error; the window's Privacy menu runs the same
  proxy with approvals.
- ``sottovoce proxy token [--rotate]``: print the bearer token clients send
  (made on first use; kept in the keyring or the vault).

Listening anywhere but this machine needs ``--allow-remote`` and TLS
(``--tls-cert``, ``--tls-key``).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(sub: Any) -> None:
    """Add ``proxy`` to the `sottovoce` parser."""
    p = sub.add_parser(
        "proxy",
        help="serve other apps: a local OpenAI-compatible server with the same protection",
        description="Serve an OpenAI-compatible API on this machine; every request goes through "
        "Sottovoce's privacy pipeline, egress guard and ledger.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (default: the settings' proxy port, 8765)")
    p.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow an address other machines can reach (needs --tls-cert and --tls-key)",
    )
    p.add_argument("--tls-cert", help="TLS certificate file (PEM)")
    p.add_argument("--tls-key", help="TLS private key file (PEM)")
    p.add_argument("--lambda", dest="risk_lambda", type=float, help="privacy level, 0 to 10")
    p.add_argument("--demo-cloud", action="store_true", help="start and use the loopback demo cloud")
    p.add_argument(
        "--no-local",
        action="store_true",
        help="do not load the local model (answers pass through; all-private requests fail)",
    )
    psub = p.add_subparsers(dest="proxy_command")
    t = psub.add_parser("token", help="print the token apps authenticate with")
    t.add_argument("--rotate", action="store_true", help="replace it with a new one first")
    p.set_defaults(handler=cmd_proxy, proxy_command="serve")


def cmd_proxy(args: argparse.Namespace) -> int:
    if args.proxy_command == "token":
        return _token(args)
    return _serve(args)


def _token(args: argparse.Namespace) -> int:
    from app.vault import open_store
    from core.proxy.token import proxy_token, token_source

    with open_store() as store:
        token = proxy_token(store, rotate=args.rotate)
        source = token_source(store) if not args.rotate else "the keyring or vault (new)"
    print(token)
    print(f"(from {source}; apps send it as their API key)", file=sys.stderr)
    return 0


def _serve(args: argparse.Namespace) -> int:
    from app.cli import load_settings
    from app.cmd_cloud import _stop_on_ctrl_c
    from app.proxy_server import ProxyApp, ProxyServer, check_bind
    from app.vault import open_store
    from core.assembly import cloud_endpoint, make_assistant
    from core.proxy import ProxyService
    from core.proxy.token import proxy_token, token_source
    from core.settings import ApprovalPolicy

    settings = load_settings(args)
    port = settings.proxy_port if args.port is None else args.port
    # Refused before anything is opened or loaded.
    check_bind(args.host, allow_remote=args.allow_remote, tls_cert=args.tls_cert, tls_key=args.tls_key)
    _stop_on_ctrl_c()
    with cloud_endpoint(args.demo_cloud) as (base_url, model), open_store() as store:
        if args.demo_cloud:
            settings = settings.model_copy(update={"cloud_base_url": base_url, "cloud_model": model})
        print("Loading the privacy models...", file=sys.stderr, flush=True)
        assistant = make_assistant(settings, store, local=not args.no_local)
        token = proxy_token(store)
        server = ProxyServer(
            ProxyApp(ProxyService(assistant), token),
            args.host,
            port,
            allow_remote=args.allow_remote,
            tls_cert=args.tls_cert,
            tls_key=args.tls_key,
        )
        server.start()
        try:
            print(f"Sottovoce proxy: {server.base_url}", flush=True)
            print(
                f"Cloud: {settings.cloud_model} at {settings.cloud_base_url}; "
                f"privacy lambda {settings.risk_lambda:g}; ask before sending: "
                f"{settings.approval_policy}.",
                flush=True,
            )
            print(
                f"Apps send a bearer token as their API key: `sottovoce proxy token` prints it "
                f"(kept in {token_source(store)}). Ctrl-C stops.",
                flush=True,
            )
            if settings.approval_policy is not ApprovalPolicy.NEVER:
                print(
                    "No window runs this proxy, so nobody can approve: requests that need "
                    "approval fail (set 'Ask before sending' to never, or serve apps from the "
                    "window: Privacy > Serve other apps).",
                    file=sys.stderr,
                    flush=True,
                )
            server.wait()
        except KeyboardInterrupt:
            print("\nStopping the proxy.", file=sys.stderr)
        finally:
            server.stop()
    return 0
