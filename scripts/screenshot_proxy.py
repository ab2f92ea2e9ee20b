"""Screenshot of an app's request, sent through `sottovoce proxy`, waiting in the approval view.

    python scripts/screenshot_proxy.py [--out docs/screenshots]

The app starts as `sottovoce` does (app.window.start), in a fresh
SOTTOVOCE_HOME with a passphrase vault, on Qt's offscreen platform (no X
server needed: the dialog is rendered with ``QWidget.grab``). Its cloud is
the loopback echo model of the tests, so nothing leaves the machine. The
window's proxy is switched on (Privacy > Serve other apps), a Python script
(the ``openai`` client, on a thread) sends a request, and the approval view
that shows it is saved as ``12-proxy-approval.png``; then Send is clicked and
the script checks that the answer came back with the real values.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NAME, EMAIL = "Lucy Whitfield", "lucy.whitfield@example.org"
MESSAGES = [
    {"role": "system", "content": "You turn meeting notes into short, friendly follow-up emails."},
    {
        "role": "user",
        "content": f"Draft a follow-up to {NAME} ({EMAIL}) about moving the budget review "
        "to next week. Keep it to three sentences.",
    },
]


def wait(app: Any, condition: Any, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not get there in time")
        app.processEvents()
        time.sleep(0.02)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    home = tempfile.mkdtemp(prefix="sottovoce-screens-")
    os.environ["SOTTOVOCE_HOME"] = home
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
    os.environ["SOTTOVOCE_PASSPHRASE"] = "a long passphrase"
    try:
        import openai
        from PySide6.QtWidgets import QApplication

        from app.window import start
        from core.llm.demo import free_port
        from core.settings import ApprovalPolicy, Settings
        from tests.integration.echo_cloud import EchoCloud
        from ui.proxy_control import ProxyControl

        with EchoCloud() as cloud:
            Settings(
                cloud_base_url=cloud.base_url,
                cloud_model="echo-capable",
                approval_policy=ApprovalPolicy.ALWAYS,
                proxy_port=free_port(),
            ).save()
            app = QApplication([sys.argv[0]])
            started = start(argparse.Namespace(window_demo_cloud=False), app=app)
            if started is None:
                print("the app did not start", file=sys.stderr)
                return 1
            try:
                control = started.window.findChild(ProxyControl, "proxy-control")
                control.action.trigger()  # Privacy > Serve other apps
                wait(app, lambda: started.window.load_label.text() == "Models ready")
                client = openai.OpenAI(
                    base_url=control.base_url,
                    api_key=control.copy_token(),
                    max_retries=0,
                    default_headers={"X-Sottovoce-Client": "meeting-notes.py"},
                )
                answer: dict[str, Any] = {}

                def ask() -> None:
                    r = client.chat.completions.create(model="any", messages=MESSAGES)  # type: ignore[arg-type]
                    answer["text"] = r.choices[0].message.content

                thread = threading.Thread(target=ask)
                thread.start()
                wait(app, lambda: control.dialog is not None and control.dialog.isVisible())
                dlg = control.dialog
                dlg.resize(980, 700)
                wait(app, lambda: True)
                time.sleep(0.3)
                app.processEvents()
                path = out / "12-proxy-approval.png"
                dlg.grab().save(str(path))
                print(f"saved {path}")
                dlg.send_btn.click()
                wait(app, lambda: not thread.is_alive())
                text = answer.get("text") or ""
                if NAME not in text or EMAIL not in text:
                    print(f"unexpected answer: {text!r}", file=sys.stderr)
                    return 1
                print("the script got its answer back with the real values")
                control.stop()
                started.window.close()
            finally:
                started.close()
        return 0
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
