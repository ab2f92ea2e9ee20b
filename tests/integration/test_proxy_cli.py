"""`sottovoce proxy` as a person starts it: a child process serving until Ctrl-C.

The child uses the real models and vault, with the settings taken from the
environment and a loopback echo cloud; the test talks to it with the ``openai``
client.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import openai
import pytest

from tests.integration.echo_cloud import EchoCloud

ROOT = Path(__file__).resolve().parents[2]
HANG = 300  # seconds: every limit here only bounds a hang (the proxy starts slowly on a busy machine)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child needs a console group")
def test_proxy_command_serves_with_the_policy_until_interrupted(tmp_path: Path) -> None:
    with EchoCloud() as cloud:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("SOTTOVOCE_")},
            "SOTTOVOCE_HOME": str(tmp_path),
            "SOTTOVOCE_PASSPHRASE": "a test passphrase",
            "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
            "SOTTOVOCE_CLOUD_BASE_URL": cloud.base_url,
            "SOTTOVOCE_CLOUD_MODEL": "echo-capable",
            "SOTTOVOCE_CLOUD_MAX_RETRIES": "0",
            "SOTTOVOCE_APPROVAL_POLICY": "when_entities",
            "SOTTOVOCE_CHAT_INTEGRATION": "pass_through",
            "SOTTOVOCE_PROXY_TOKEN": "svp-cli-test",
        }
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.main", "proxy", "--port", "0", "--no-local"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stderr is not None and proc.stdout is not None
        err: list[str] = []
        drain = threading.Thread(target=lambda: err.extend(proc.stderr), daemon=True)  # type: ignore[arg-type]
        drain.start()
        try:
            out: list[str] = []
            deadline = time.monotonic() + HANG
            while time.monotonic() < deadline:
                line = proc.stdout.readline()
                if not line and proc.poll() is not None:
                    break
                out.append(line)
                if "Ctrl-C stops" in line:
                    break
            text = "".join(out)
            m = re.search(r"Sottovoce proxy: (http://127\.0\.0\.1:\d+/v1)", text)
            assert m, text + "".join(err)
            assert "sottovoce proxy token" in text and "when_entities" in text
            client = openai.OpenAI(base_url=m.group(1), api_key="svp-cli-test", max_retries=0)
            # No private value: the policy lets it go without a window.
            r = client.chat.completions.create(
                model="x", messages=[{"role": "user", "content": "How long should I boil an egg?"}]
            )
            assert "Noted about nothing private" in (r.choices[0].message.content or "")
            # A private value needs approval, and no window is there to give it.
            with pytest.raises(openai.PermissionDeniedError, match="no Sottovoce window"):
                client.chat.completions.create(
                    model="x",
                    messages=[{"role": "user", "content": "Email lucy.whitfield@example.org the notes."}],
                )
            assert cloud.requests == 1
            proc.send_signal(signal.SIGINT)
            try:
                status = proc.wait(timeout=HANG)
            except subprocess.TimeoutExpired:
                pytest.fail(f"the proxy did not stop within {HANG} s of Ctrl-C: " + "".join(err)[-3000:])
            assert status == 0, "".join(err)[-3000:]
            drain.join(HANG)  # all of stderr read (it ends when the pipe closes)
            assert "nobody can approve" in "".join(err)
            assert "lucy.whitfield" not in "".join(err) + text  # nothing private in its output
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
