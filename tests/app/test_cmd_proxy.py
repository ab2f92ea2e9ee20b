"""`sottovoce proxy token` and the proxy's refusals on the command line (no server started).

Serving, end to end in a child process, is in tests/integration/test_proxy_cli.py.
"""

from __future__ import annotations

import os

import keyring
import pytest
from keyring.backends import fail

from app.main import main
from core.proxy.token import TOKEN_ENV


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    # Given again for every command: the vault may take it out of the environment.
    os.environ["SOTTOVOCE_PASSPHRASE"] = "a test passphrase"
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def passphrase(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOTTOVOCE_PASSPHRASE", "a test passphrase")  # removed after the test


@pytest.mark.parametrize("where", ["keyring", "vault"])
def test_the_token_is_made_once_kept_and_rotated(
    capsys: pytest.CaptureFixture[str], where: str
) -> None:
    if where == "vault":
        keyring.set_keyring(fail.Keyring())  # no keyring: the encrypted vault holds it
    code, first, err = run(capsys, "proxy", "token")
    assert code == 0 and first.startswith("svp-") and len(first.strip()) > 40
    assert ("keyring" if where == "keyring" else "vault") in err
    _, again, err = run(capsys, "proxy", "token")
    assert again == first, err  # stderr says why when it is not
    code, rotated, err = run(capsys, "proxy", "token", "--rotate")
    assert code == 0 and rotated != first, err
    _, again, err = run(capsys, "proxy", "token")
    assert again == rotated, err


def test_the_environment_token_wins(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TOKEN_ENV, "svp-from-the-environment")
    code, out, err = run(capsys, "proxy", "token")
    assert code == 0 and out.strip() == "svp-from-the-environment" and TOKEN_ENV in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--host", "0.0.0.0"], "--allow-remote"),
        (["--host", "0.0.0.0", "--allow-remote"], "needs TLS"),
        (["--tls-cert", "cert.pem"], "both a certificate and its key"),
        (["--host", "127.0.0.1", "--tls-cert", "nope.pem", "--tls-key", "nope.key"], "does not exist"),
    ],
)
def test_unsafe_or_broken_listening_is_refused_before_anything_starts(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run(capsys, "proxy", *argv)
    assert code == 2 and message in err
    assert "Loading" not in err  # refused before the vault or any model was touched
