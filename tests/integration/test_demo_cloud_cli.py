"""`sottovoce demo-cloud` serves the embedded model on 127.0.0.1 until Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from core.llm.demo import DEMO_MODEL, free_port

ROOT = Path(__file__).resolve().parents[2]
HANG = 300  # seconds: every limit here only bounds a hang (a busy machine loads the model slowly)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child needs a console group")
@pytest.mark.parametrize("inherited", ["default", "ignored"])
def test_demo_cloud_command_serves_until_interrupted(tmp_path: Path, inherited: str) -> None:
    # "ignored": started by a parent that hands SIGINT down ignored (a script's
    # background job, some launchers); Ctrl-C must still stop the server.
    port = free_port()
    env = {**os.environ, "SOTTOVOCE_HOME": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.main", "demo-cloud", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Set either way: a suite run as a background job would hand "default" down ignored.
        preexec_fn=_ignore_sigint if inherited == "ignored" else _default_sigint,
    )
    # Drain stderr all along: a child blocked on a full pipe would look like a hang.
    assert proc.stderr is not None
    err: list[str] = []
    drain = threading.Thread(target=lambda: err.extend(proc.stderr), daemon=True)  # type: ignore[arg-type]
    drain.start()
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + HANG
        line = ""
        while time.monotonic() < deadline and "ready" not in line:
            line = proc.stdout.readline()
            if not line and proc.poll() is not None:
                break
        assert f"http://127.0.0.1:{port}/v1" in line, "".join(err)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=HANG) as resp:
            models = json.load(resp)
        assert [m["id"] for m in models["data"]] == [DEMO_MODEL]
        proc.send_signal(signal.SIGINT)
        try:
            status = proc.wait(timeout=HANG)
        except subprocess.TimeoutExpired:
            pytest.fail(f"demo-cloud did not stop within {HANG} s of Ctrl-C; stderr: {''.join(err)[-3000:]}")
        assert status == 0, "".join(err)[-3000:]
        # The server went with it.
        with pytest.raises(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_demo_cloud_settings_point_at_the_demo_and_leave_the_file_alone() -> None:
    from app.cmd_cloud import demo_cloud_settings
    from core.llm.cloud import CloudClient
    from core.settings import Settings

    settings = Settings()
    with demo_cloud_settings(settings) as s:
        assert s.cloud_base_url.startswith("http://127.0.0.1:") and s.cloud_model == DEMO_MODEL
        client = CloudClient.from_settings(s)
        assert client.list_models() == [DEMO_MODEL]
    assert settings.cloud_base_url == "https://api.openai.com/v1"
