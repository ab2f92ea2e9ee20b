"""`sottovoce model list|add|import|use|remove`, against a loopback server that
serves the embedded GGUF."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.main import main
from core.llm import catalog
from core.llm import modelfile as dl
from core.llm.catalog import CatalogEntry
from core.llm.library import Library, models_dir
from core.llm.local import embedded_model_path
from core.settings import Settings
from tests.model_server import ModelServer

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def model_bytes() -> bytes:
    return embedded_model_path().read_bytes()


@pytest.fixture(scope="module")
def model_sha(model_bytes: bytes) -> str:
    return hashlib.sha256(model_bytes).hexdigest()


@pytest.fixture
def server(model_bytes: bytes, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModelServer]:
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    with ModelServer(model_bytes) as s:
        yield s


@pytest.fixture
def smol(server: ModelServer, model_bytes: bytes, model_sha: str, monkeypatch: pytest.MonkeyPatch) -> CatalogEntry:
    """A catalogue entry for the embedded model, served from loopback."""
    entry = replace(
        catalog.CATALOG[0], name="smol-test", filename="smol-test.gguf", size=len(model_bytes), sha256=model_sha
    )
    monkeypatch.setattr(CatalogEntry, "url", property(lambda e: server.url(e.filename)))
    monkeypatch.setattr(catalog, "CATALOG", (entry, *catalog.CATALOG))
    return entry


def test_list_shows_the_catalogue_the_machine_and_the_gpu(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "model", "list")
    assert code == 0
    for e in catalog.CATALOG:
        assert e.name in out and e.license in out
    assert "this machine" in out and "not downloaded" in out
    assert "Local model: the embedded SmolLM2-135M-Instruct." in out
    assert "llama.cpp: built for the CPU only (no GPU offload)." in out
    assert "Layers on the GPU: 0 of 31" in out and "-DGGML_CUDA=on" in out
    code, out2, _ = run(capsys, "model")  # list is the default
    # Free RAM moves between two runs; the rest is the same.
    def stable(text: str) -> list[str]:
        return [line for line in text.splitlines() if not line.startswith("This machine:")]

    assert code == 0 and stable(out2) == stable(out)


def test_list_json_has_what_each_model_needs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "model", "list", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["catalog"]) == 6
    row = data["catalog"][0]
    assert set(row) >= {"name", "url", "size", "sha256", "license", "ram_needed", "vram_needed", "fits", "where", "status", "source"}
    assert row["fits"] in (True, False, None) and row["ram_needed"] > row["size"]
    assert data["machine"]["gpu_offload"] is False and data["gpu"]["layers_total"] == 31
    assert data["local_model"] is None and data["models_dir"] == str(models_dir())


def test_add_from_the_catalogue_use_and_remove(
    capsys: pytest.CaptureFixture[str], smol: CatalogEntry, model_bytes: bytes
) -> None:
    code, out, err = run(capsys, "model", "add", "smol-test", "--use", "--json")
    assert code == 0, err
    info = json.loads(out)
    assert info["name"] == "smol-test" and info["in_use"] is True and info["sha256"] == smol.sha256
    assert Path(info["path"]).read_bytes() == model_bytes
    assert "Done" in err  # the progress went to stderr
    assert Settings.load().local_model_path == str(Path(info["path"]).resolve())

    code, out, _ = run(capsys, "model", "list")
    assert "installed, in use" in out

    code, out, _ = run(capsys, "model", "add", "smol-test")
    assert code == 0 and "Already installed" in out

    code, out, _ = run(capsys, "model", "use", "embedded")
    assert code == 0 and Settings.load().local_model_path is None
    code, out, _ = run(capsys, "model", "use", "smol-test")
    assert code == 0 and Settings.load().local_model_path is not None

    code, out, _ = run(capsys, "model", "remove", "smol-test")
    assert code == 0 and "Deleted" in out and "embedded SmolLM2-135M-Instruct is used again" in out
    assert Settings.load().local_model_path is None and Library().installed() == []


def test_add_a_url_with_its_hash(
    capsys: pytest.CaptureFixture[str], server: ModelServer, model_sha: str
) -> None:
    code, out, err = run(capsys, "model", "add", server.url("Tiny.gguf"), "--sha256", model_sha)
    assert code == 0, err
    assert "Installed tiny:" in out and "`sottovoce model use tiny`" in out


def test_a_url_without_hash_is_not_installed_until_one_is_confirmed(
    capsys: pytest.CaptureFixture[str], server: ModelServer, model_sha: str
) -> None:
    url = server.url("Tiny.gguf")
    code, _, err = run(capsys, "model", "add", url)
    assert code == 1
    assert f"Its sha256 is {model_sha}" in err and "--sha256" in err
    assert Library().installed() == []
    n = len(server.requests)
    code, _, err = run(capsys, "model", "add", url, "--sha256", model_sha)
    assert code == 0, err
    assert len(server.requests) == n  # the bytes already here were checked, not fetched again


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["model", "add", "gpt-5"], 2, "not in the catalogue"),
        (["model", "add", "ftp://example.org/x.gguf"], 1, "not an http(s) URL"),
        (["model", "use", "nothing-here"], 2, "No model called “nothing-here” is installed"),
        (["model", "remove", "nothing-here"], 2, "installed or being downloaded"),
        (["model", "remove", "embedded"], 2, "cannot be removed"),
        (["model", "import", "/no/such/file.gguf"], 1, "does not exist"),
    ],
)
def test_bad_requests_get_one_clear_line(
    capsys: pytest.CaptureFixture[str], args: list[str], code: int, message: str
) -> None:
    got, _, err = run(capsys, *args)
    assert got == code and message in err and err.startswith("sottovoce: ")


def test_a_missing_file_on_the_server(capsys: pytest.CaptureFixture[str], server: ModelServer) -> None:
    server.faults.missing = {"gone.gguf"}
    code, _, err = run(capsys, "model", "add", server.url("gone.gguf"), "--sha256", "0" * 64)
    assert code == 1 and "(HTTP 404)" in err


def test_import_then_use(capsys: pytest.CaptureFixture[str], tmp_path: Path, model_bytes: bytes) -> None:
    src = tmp_path / "mine.gguf"
    src.write_bytes(model_bytes)
    code, out, err = run(capsys, "model", "import", str(src), "--use")
    assert code == 0, err
    assert "Imported mine" in out and "It is now the local model." in out
    assert Settings.load().local_model_path == str(models_dir() / "mine.gguf")
    bad = tmp_path / "bad.gguf"
    bad.write_text("hello")
    code, _, err = run(capsys, "model", "import", str(bad))
    assert code == 1 and "not a GGUF model" in err


_CLI = "import sys; from app.main import main; sys.exit(main(sys.argv[1:]))"


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_pauses_and_the_same_command_resumes(server: ModelServer, model_sha: str, model_bytes: bytes) -> None:
    # The server stops sending after 12 MB until released: Ctrl-C lands
    # in the middle of the download whatever the machine's speed.
    server.hold(12_000_000)
    url = server.url("slow.gguf")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    child = subprocess.Popen(
        [sys.executable, "-c", _CLI, "model", "add", url, "--sha256", model_sha],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # Ctrl-C as in a terminal, however the tests were started (a background
        # job hands SIGINT down ignored, and the child would never hear it).
        preexec_fn=_default_sigint,
    )
    part = dl.partial_path(models_dir(), "slow.gguf")
    deadline = time.monotonic() + 300  # only bounds a hang
    while time.monotonic() < deadline and (not part.exists() or part.stat().st_size < 10_000_000):
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=300)
    server.release()
    assert child.returncode == 130, err
    assert "Paused: what arrived is kept" in err
    kept = part.stat().st_size
    assert 10_000_000 <= kept < len(model_bytes)
    assert not (models_dir() / "slow.gguf").exists()

    server.requests.clear()
    done = subprocess.run(
        [sys.executable, "-c", _CLI, "model", "add", url, "--sha256", model_sha],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert server.requests[0].headers["Range"] == f"bytes={kept}-"
    assert (models_dir() / "slow.gguf").read_bytes() == model_bytes
