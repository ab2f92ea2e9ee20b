"""A cloud you can run here: ``llama_cpp.server`` on 127.0.0.1 with the embedded model.

:class:`DemoCloud` starts the OpenAI-compatible server of
``llama-cpp-python[server]`` as a child process on a free loopback port,
waits until ``/v1/models`` answers, and stops it on exit. The command line's
``demo-cloud`` command and ``--demo-cloud`` option, the test fixtures and the
app use it. It only ever talks to 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO

from core.errors import CloudUnreachable, ModelLoadError
from core.llm.gguf_file import read_gguf
from core.llm.local import embedded_model_path

log = logging.getLogger(__name__)

DEMO_MODEL = "sottovoce-demo"
HOST = "127.0.0.1"


def free_port(host: str = HOST) -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


class DemoCloud:
    """The loopback OpenAI-compatible server, as a context manager.

    ``port`` None picks a free one. llama_cpp.server answers a prompt longer
    than ``n_ctx`` with an empty stream, and an answer with no ``max_tokens``
    runs until the context is full (minutes on a CPU): callers should cap
    ``max_tokens``. ``base_url`` and ``model`` are what a
    :class:`~core.llm.cloud.CloudClient` needs. The server's own output goes
    to a log file (``log_path``), shown in the error when it fails to start.
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        port: int | None = None,
        n_ctx: int = 4096,
        n_threads: int = 1,
        startup_timeout: float = 90.0,
        model_alias: str = DEMO_MODEL,
    ) -> None:
        self.model_path = Path(model_path) if model_path else embedded_model_path()
        self.port = port or free_port()
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.startup_timeout = startup_timeout
        self.model = model_alias
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path: Path | None = None
        self._log: IO[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}/v1"

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(self.model_path),
            "--model_alias",
            self.model,
            "--host",
            HOST,
            "--port",
            str(self.port),
            "--n_ctx",
            str(self.n_ctx),
            "--n_threads",
            str(self.n_threads),
            "--n_threads_batch",
            str(self.n_threads),
            # mlock needs privileges most accounts lack; it only warns, noisily.
            "--use_mlock",
            "False",
            "--verbose",
            "False",
        ]

    def start(self) -> DemoCloud:
        """Start the server and wait until it answers; raises when it does not."""
        read_gguf(self.model_path)  # a clear error before a child process dies on it
        fd, name = tempfile.mkstemp(prefix="sottovoce-demo-cloud-", suffix=".log")
        os.close(fd)
        self.log_path = Path(name)
        self._log = self.log_path.open("wb")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            self.command(), stdout=self._log, stderr=subprocess.STDOUT, env=env
        )
        log.info("demo cloud starting on %s (pid %d)", self.base_url, self.process.pid)
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_ready(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ModelLoadError(
                    f"The demo cloud server stopped at start (exit {self.process.returncode}): "
                    f"{self.log_tail()}",
                    hint="pip install 'llama-cpp-python[server]'",
                )
            if self.ready():
                log.info("demo cloud ready on %s", self.base_url)
                return
            time.sleep(0.1)
        raise CloudUnreachable(
            f"The demo cloud server did not answer within {self.startup_timeout:g} s.",
            hint=f"see {self.log_path}",
        )

    def ready(self) -> bool:
        """True when ``/v1/models`` answers 200."""
        try:
            with urllib.request.urlopen(f"{self.base_url}/models", timeout=2) as resp:
                return bool(resp.status == 200)
        except (urllib.error.URLError, OSError, ValueError):
            return False

    def log_tail(self, lines: int = 8) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        text = self.log_path.read_text("utf-8", errors="replace").strip().splitlines()
        return " | ".join(text[-lines:])

    def wait(self) -> int:
        """Block until the server exits (the ``demo-cloud`` command); returns its status."""
        assert self.process is not None
        return self.process.wait()

    def stop(self) -> None:
        """Stop the server (terminate, then kill after 5 s) and remove its log."""
        proc, self.process = self.process, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
        if self._log is not None:
            self._log.close()
            self._log = None
        if self.log_path is not None:
            with contextlib.suppress(OSError):
                self.log_path.unlink()
            self.log_path = None

    def __enter__(self) -> DemoCloud:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
