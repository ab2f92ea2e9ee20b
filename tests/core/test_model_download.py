"""Model downloads against a loopback server that serves the embedded GGUF.

Range requests and resume, a cut connection, a 404, a wrong checksum, a full
disk (a write error injected into the write, and a real full tmpfs where this
machine can mount one), cancel, a download killed midway (power-loss style),
and what goes on the wire. CI never leaves 127.0.0.1.
"""

from __future__ import annotations

import ast
import errno
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.errors import Cancelled
from core.llm import download as dl
from core.llm import modelfile
from core.llm.library import Library, ModelNotInstalled
from core.llm.local import embedded_model_path
from tests.model_server import ModelServer
from tests.model_server import drain as run

ROOT = Path(__file__).resolve().parents[2]
NAME = "smol.gguf"


@pytest.fixture(scope="module")
def model_bytes() -> bytes:
    return embedded_model_path().read_bytes()


@pytest.fixture(scope="module")
def model_sha(model_bytes: bytes) -> str:
    return hashlib.sha256(model_bytes).hexdigest()


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    # A proxy set in the environment must not catch loopback requests.
    for var in ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def server(model_bytes: bytes) -> Iterator[ModelServer]:
    with ModelServer(model_bytes) as s:
        yield s


@pytest.fixture
def request_(server: ModelServer, model_bytes: bytes, model_sha: str) -> modelfile.Request:
    return modelfile.Request(server.url(NAME), NAME, model_sha, len(model_bytes))


def models_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.gguf"))


def range_start(rec: Any) -> int | None:
    value = rec.headers.get("Range")
    return int(value.split("=")[1].split("-")[0]) if value else None


# --- the good path ------------------------------------------------------------------------


def test_a_download_is_verified_then_moved_into_the_models_folder(
    tmp_path: Path, request_: modelfile.Request, model_bytes: bytes
) -> None:
    path, seen = run(dl.download(request_, tmp_path))
    assert path == tmp_path / NAME and path.read_bytes() == model_bytes
    assert models_in(tmp_path) == [NAME]
    assert not list((tmp_path / modelfile.PARTIAL_DIR).iterdir())  # no part, no sidecar left
    phases = [p.phase for p in seen]
    assert phases[-2:] == ["verify", "done"]
    dones = [p.done for p in seen if p.phase == "download"]
    assert dones == sorted(dones) and dones[-1] == len(model_bytes)
    assert all(p.total == len(model_bytes) for p in seen)


def test_progress_reports_bytes_speed_and_time_left(
    tmp_path: Path, server: ModelServer, request_: modelfile.Request
) -> None:
    server.faults.delay = 0.01  # about 25 MB/s: several reports with a measured speed
    _, seen = run(dl.download(request_, tmp_path))
    timed = [p for p in seen if p.phase == "download" and p.speed]
    assert timed, "no report carried a speed"
    mid = timed[len(timed) // 2]
    assert mid.eta is not None and mid.eta > 0
    text = mid.describe()
    assert " of 98.4 MB" in text and "MB/s" in text and " left" in text


@pytest.mark.parametrize(
    ("done", "total", "speed", "eta", "text"),
    [
        (312_000_000, 807_690_656, 12_300_000.0, 41.0, "312.0 of 807.7 MB, 12.3 MB/s, 41 s left"),
        (5_000_000, None, None, None, "5.0 MB"),
        (1_000_000, 4_920_739_232, 2e6, 2459.9, "1.0 of 4,920.7 MB, 2.0 MB/s, 41 min 00 s left"),
        (0, 10**12, 1e6, 10**6, "0.0 of 1,000,000.0 MB, 1.0 MB/s, 277 h 46 min left"),
    ],
)
def test_progress_reads_well(
    done: int, total: int | None, speed: float | None, eta: float | None, text: str
) -> None:
    assert modelfile.Progress(done, total, speed, eta).describe() == text


# --- resume ---------------------------------------------------------------------------------


def test_a_cut_connection_resumes_with_a_range_request(
    tmp_path: Path, server: ModelServer, request_: modelfile.Request, model_bytes: bytes
) -> None:
    server.faults.cut_after = [30_000_000]
    path, _ = run(dl.download(request_, tmp_path, retry_wait=0))
    assert path.read_bytes() == model_bytes
    first, second = server.requests
    assert range_start(first) is None
    start = range_start(second)
    assert start is not None and 0 < start <= 30_000_000  # from what was written, no gap
    assert second.headers.get("Range") == f"bytes={start}-"


def test_a_connection_that_keeps_failing_keeps_the_part_and_the_next_run_resumes(
    tmp_path: Path, server: ModelServer, request_: modelfile.Request, model_bytes: bytes
) -> None:
    server.faults.cut_after = [20_000_000, 0, 0, 0]  # some bytes, then nothing at all
    with pytest.raises(modelfile.DownloadInterrupted, match="keeps failing") as err:
        run(dl.download(request_, tmp_path, retries=2, retry_wait=0))
    assert "resumes" in (err.value.hint or "")
    part = modelfile.partial_path(tmp_path, NAME)
    kept = part.stat().st_size
    assert 0 < kept <= 20_000_000
    assert models_in(tmp_path) == []  # nothing the app could load
    assert Library(tmp_path).installed() == []
    (partial,) = Library(tmp_path).partials()
    assert (partial.done, partial.total) == (kept, len(model_bytes))

    server.requests.clear()
    path, seen = run(dl.download(request_, tmp_path, retry_wait=0))
    assert path.read_bytes() == model_bytes
    assert range_start(server.requests[0]) == kept
    assert seen[0].resumed_from == kept


def test_a_server_that_ignores_ranges_starts_the_file_over(
    tmp_path: Path, server: ModelServer, request_: modelfile.Request, model_bytes: bytes
) -> None:
    server.faults.cut_after = [10_000_000]
    server.faults.ignore_range = True
    path, _ = run(dl.download(request_, tmp_path, retry_wait=0))
    assert path.read_bytes() == model_bytes  # no duplicated bytes from the second 200
    assert len(server.requests) == 3  # cut, 200 to the range (restart), whole file


def test_cancel_stops_between_chunks_and_keeps_what_arrived(
    tmp_path: Path, server: ModelServer, request_: modelfile.Request, model_bytes: bytes
) -> None:
    server.faults.delay = 0.002
    cancel = threading.Event()
    gen = dl.download(request_, tmp_path, cancel=cancel)
    with pytest.raises(Cancelled):
        for p in gen:
            if p.done > 20_000_000:
                cancel.set()
    kept = modelfile.partial_path(tmp_path, NAME).stat().st_size
    assert 20_000_000 < kept < len(model_bytes)
    assert models_in(tmp_path) == []
    server.faults.delay = 0
    path, seen = run(dl.download(request_, tmp_path))
    assert path.read_bytes() == model_bytes and seen[0].resumed_from == kept


def test_a_second_download_of_the_same_file_is_refused_while_one_runs(
    tmp_path: Path, server: ModelServer, request_: modelfile.Request, model_bytes: bytes
) -> None:
    part = modelfile.partial_path(tmp_path, NAME)
    part.parent.mkdir(parents=True)
    with modelfile.exclusive(part), pytest.raises(modelfile.DownloadRefused, match="already being downloaded"):
        run(dl.download(request_, tmp_path))
    assert server.requests == []
    path, _ = run(dl.download(request_, tmp_path))  # the lock went with its holder
    assert path.read_bytes() == model_bytes
    assert list(part.parent.iterdir()) == []


# --- refusals ------------------------------------------------------------------------------


def test_a_404_is_a_clear_error_and_leaves_nothing(
    tmp_path: Path, server: ModelServer, request_: modelfile.Request
) -> None:
    server.faults.missing = {NAME}
    with pytest.raises(modelfile.DownloadNotFound, match=r"no file at .*smol\.gguf \(HTTP 404\)"):
        run(dl.download(request_, tmp_path))
    assert list(tmp_path.rglob("*.gguf*")) == []
    assert Library(tmp_path).partials() == []


def test_a_server_error_is_retried_then_reported(
    tmp_path: Path, server: ModelServer, request_: modelfile.Request
) -> None:
    server.faults.status = 503
    with pytest.raises(modelfile.DownloadInterrupted, match="HTTP 503"):
        run(dl.download(request_, tmp_path, retries=2, retry_wait=0))
    assert len(server.requests) == 3


def test_a_wrong_checksum_deletes_the_file_and_installs_nothing(
    tmp_path: Path, server: ModelServer, request_: modelfile.Request, model_sha: str
) -> None:
    server.faults.corrupt = True
    with pytest.raises(modelfile.ChecksumMismatch, match="corrupt or not the expected file") as err:
        run(dl.download(request_, tmp_path))
    assert model_sha in err.value.message and "deleted" in err.value.message
    assert list(tmp_path.rglob("*.gguf*")) == []


def test_a_file_of_another_size_is_refused_before_its_bytes_arrive(
    tmp_path: Path, server: ModelServer, model_bytes: bytes, model_sha: str
) -> None:
    req = modelfile.Request(server.url(NAME), NAME, model_sha, len(model_bytes) + 1)
    with pytest.raises(modelfile.SizeMismatch, match=f"{len(model_bytes):,} bytes"):
        run(dl.download(req, tmp_path))
    assert list(tmp_path.rglob("*.gguf*")) == []


def test_a_file_that_matches_its_hash_but_is_no_gguf_is_refused(tmp_path: Path) -> None:
    junk = os.urandom(300_000)
    with ModelServer(junk) as srv:
        req = modelfile.Request(srv.url("x.gguf"), "x.gguf", hashlib.sha256(junk).hexdigest(), len(junk))
        with pytest.raises(modelfile.DownloadError, match="not a usable GGUF model"):
            run(dl.download(req, tmp_path))
    assert list(tmp_path.rglob("*.gguf*")) == []


@pytest.mark.parametrize(
    ("url", "filename", "sha", "match"),
    [
        ("ftp://example.org/m.gguf", "m.gguf", None, "not an http"),
        ("file:///etc/passwd", "passwd", None, "not an http"),
        ("https://example.org/m.gguf", "../m.gguf", None, "not a usable model file name"),
        ("https://example.org/m.bin", "m.bin", None, "not a usable model file name"),
        ("https://example.org/m.gguf", "m.gguf", "abc", "64 hexadecimal"),
    ],
)
def test_requests_that_cannot_be_downloaded_safely_are_refused(
    tmp_path: Path, url: str, filename: str, sha: str | None, match: str
) -> None:
    with pytest.raises(modelfile.DownloadRefused, match=match):
        run(dl.download(modelfile.Request(url, filename, sha), tmp_path))
    assert not any(tmp_path.iterdir())


# --- no published hash ----------------------------------------------------------------------


def test_without_a_published_hash_the_file_waits_for_the_person_to_confirm_one(
    tmp_path: Path, server: ModelServer, model_bytes: bytes, model_sha: str
) -> None:
    req = modelfile.Request(server.url(NAME), NAME, None, None)
    with pytest.raises(modelfile.HashUnconfirmed) as err:
        run(dl.download(req, tmp_path))
    assert err.value.sha256 == model_sha and model_sha in err.value.message
    assert models_in(tmp_path) == []
    (partial,) = Library(tmp_path).partials()
    assert partial.complete and partial.done == len(model_bytes)

    wrong = "0" * 64
    with pytest.raises(modelfile.ChecksumMismatch):
        run(modelfile.finish(tmp_path, NAME, wrong))
    assert Library(tmp_path).partials() == []  # a refused file is not kept

    with pytest.raises(modelfile.HashUnconfirmed):
        run(dl.download(req, tmp_path))
    n = len(server.requests)
    # Confirming by downloading again with the hash checks the bytes already here.
    path, _ = run(dl.download(modelfile.Request(req.url, NAME, model_sha.upper(), None), tmp_path))
    assert path.read_bytes() == model_bytes and len(server.requests) == n


# --- disk full ---------------------------------------------------------------------------


def test_a_full_disk_found_before_the_download_refuses_it(
    tmp_path: Path, server: ModelServer, request_: modelfile.Request, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Usage:
        free = 10_000_000

    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage())
    with pytest.raises(modelfile.DiskFull, match="Not enough disk space"):
        run(dl.download(request_, tmp_path))
    assert server.requests == []


def test_a_write_error_mid_download_keeps_the_whole_bytes_and_resumes(
    tmp_path: Path, server: ModelServer, request_: modelfile.Request, model_bytes: bytes,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = modelfile.write_chunk

    class HalfWrite:
        """A file that takes half of a chunk, then reports the disk full."""

        def __init__(self, fh: Any) -> None:
            self.fh = fh

        def write(self, chunk: bytes) -> int:
            self.fh.write(chunk[: len(chunk) // 2])
            self.fh.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def flush(self) -> None:
            self.fh.flush()

        def truncate(self, n: int) -> int:
            return int(self.fh.truncate(n))

    def write_chunk(fh: Any, chunk: bytes, done: int, folder: Path) -> None:
        real(HalfWrite(fh) if done >= 40_000_000 else fh, chunk, done, folder)

    monkeypatch.setattr(dl, "write_chunk", write_chunk)
    with pytest.raises(modelfile.DiskFull, match="The disk is full") as err:
        run(dl.download(request_, tmp_path))
    assert "No space left on device" in err.value.message
    kept = modelfile.partial_path(tmp_path, NAME).read_bytes()
    assert len(kept) >= 40_000_000 and kept == model_bytes[: len(kept)]  # no half chunk
    monkeypatch.setattr(dl, "write_chunk", real)
    path, _ = run(dl.download(request_, tmp_path))
    assert path.read_bytes() == model_bytes


def _mount_tmpfs(where: Path, size: int) -> bool:
    if sys.platform != "linux" or os.geteuid() != 0:
        return False
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


def fill(path: Path) -> None:
    with path.open("wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 2**20)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC


def test_a_really_full_file_system_stops_the_download_and_it_resumes_after_cleanup(
    tmp_path: Path, server: ModelServer, model_bytes: bytes, model_sha: str
) -> None:
    disk = tmp_path / "small-disk"
    if not _mount_tmpfs(disk, len(model_bytes) + 4 * 2**20):
        pytest.skip("cannot mount a small tmpfs here (needs root on Linux)")
    try:
        req = modelfile.Request(server.url(NAME), NAME, model_sha, len(model_bytes))
        filler = disk / "filler"
        with pytest.raises(modelfile.DiskFull, match="The disk is full"):
            for p in dl.download(req, disk):
                if p.done > 30_000_000 and not filler.exists():
                    fill(filler)  # another program takes every free byte
        kept = modelfile.partial_path(disk, NAME).read_bytes()
        assert 30_000_000 < len(kept) < len(model_bytes)
        assert kept == model_bytes[: len(kept)]
        assert models_in(disk) == []
        filler.unlink()
        path, seen = run(dl.download(req, disk))
        assert path.read_bytes() == model_bytes and seen[0].resumed_from == len(kept)
    finally:
        subprocess.run(["umount", str(disk)], check=False)


# --- power loss ----------------------------------------------------------------------------

_CHILD = """
import sys
from pathlib import Path
from core.llm import download as dl
from core.llm import modelfile
req = modelfile.Request(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
for p in dl.download(req, Path(sys.argv[5])):
    pass
"""


def test_a_download_killed_midway_leaves_no_file_the_app_would_use(
    tmp_path: Path, server: ModelServer, request_: modelfile.Request, model_bytes: bytes
) -> None:
    # The server stops sending after 22 MB until released: the kill lands
    # in the middle of the download whatever the machine's speed.
    server.hold(22_000_000)
    models = tmp_path / "models"
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, request_.url, NAME, str(request_.sha256), str(request_.size), str(models)],
        cwd=ROOT,
    )
    part = modelfile.partial_path(models, NAME)
    deadline = time.monotonic() + 300  # only bounds a hang
    while time.monotonic() < deadline and (not part.exists() or part.stat().st_size < 20_000_000):
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)  # no cleanup, no finally: like pulling the plug
    child.wait(300)
    server.release()
    assert child.returncode == -signal.SIGKILL
    assert 20_000_000 <= part.stat().st_size < len(model_bytes)

    library = Library(models)
    assert models_in(models) == [] and library.installed() == []
    with pytest.raises(ModelNotInstalled):
        library.use(NAME, _settings())

    path, _ = run(dl.download(request_, models))
    assert path.read_bytes() == model_bytes


def _settings() -> Any:
    from core.settings import Settings

    return Settings()


# --- what goes on the wire -------------------------------------------------------------------


def test_a_download_sends_a_bare_get_and_nothing_else(
    tmp_path: Path, server: ModelServer, request_: modelfile.Request
) -> None:
    server.faults.cut_after = [5_000_000]
    run(dl.download(request_, tmp_path, retry_wait=0))
    for rec in server.requests:
        assert rec.method == "GET" and rec.body == b""
        assert rec.path == f"/{NAME}"  # no query string
        extra = set(rec.headers) - {"Host", "Accept", "Connection", "User-Agent", "Accept-Encoding", "Range"}
        assert extra == set(), extra
        assert rec.headers["User-Agent"] == dl.USER_AGENT


@pytest.mark.parametrize("module", ["download.py", "modelfile.py"])
def test_the_download_modules_cannot_see_conversation_data(module: str) -> None:
    # The import-linter contract, checked here too so a failure names the rule;
    # imports made inside functions count as well.
    tree = ast.parse((ROOT / "core" / "llm" / module).read_text("utf-8"))
    ours = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "core"
    } | {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name.split(".")[0] == "core"
    }
    assert ours <= {"core", "core.errors", "core.llm.base", "core.llm.modelfile", "core.llm.gguf_file"}
