"""Screens of a first run on a machine with no keyring, and of an answer whose
private sentence stayed on the machine.

    python scripts/screenshots_first_run.py [--out docs/screenshots]

The app runs as `sottovoce` does (app.window.start) in a fresh SOTTOVOCE_HOME
with no keyring backend, against a loopback stub cloud (training.stub_cloud)
that needs an API key and answers the fever question of
docs/screenshots/02 correctly. The walk types what a person would: a
passphrase, the stub's URL and key in the guide, then the message. It uses the
offscreen platform and grabs each widget (no X server needed).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

KEY = "sk-stub-0000-1111"


def grab(widget: Any, out: Path, name: str) -> None:
    path = out / f"{name}.png"
    widget.grab().save(str(path))
    print(f"saved {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}", flush=True)


def walk(out: Path, app: Any, state: dict[str, Any]) -> Any:
    from PySide6.QtWidgets import QWizard
    from screenshots import CHAT, visible

    from core.analyze import Route
    from ui.approval import ApprovalDialog
    from ui.first_run import FirstRunGuide
    from ui.vault_dialog import VaultDialog

    stub = state["stub"]
    yield lambda: visible(VaultDialog) is not None
    dlg = visible(VaultDialog)
    dlg.passphrase.setText("a long passphrase")
    dlg.confirm.setText("a long passphrase")
    dlg.submit()

    yield lambda: visible(FirstRunGuide) is not None
    guide = visible(FirstRunGuide)
    guide.resize(760, 560)
    page = guide.cloud
    page.choose("Another OpenAI-compatible server")
    page.url.setText(stub.base_url)
    page.model.setEditText("")
    page.key.setText(KEY)
    page.test()
    yield lambda: page.ok
    yield 0.4
    grab(guide, out, "13-first-run-cloud")
    guide.next()
    yield lambda: "parameters" in guide.local.embedded_info.text()
    yield 0.4
    grab(guide, out, "14-first-run-local-model")
    guide.button(QWizard.WizardButton.FinishButton).click()

    yield lambda: state.get("window") is not None and state["window"].isVisible()
    w = state["window"]
    w.resize(1360, 860)
    yield lambda: w.load_label.text() == "Models ready"
    w.chat.editor.set_text(CHAT)
    yield lambda: w.chat.editor.analysis is not None
    # The person keeps the pediatrician's sentence here (the router sends it anonymized):
    # the answer then names it as a sentence the cloud did not see.
    second = w.chat.editor.analysis.plans[1]
    if second.route is not Route.LOCAL:
        w.chat.editor.flip_sentence(second.index)
    yield lambda: w.chat.editor.analysis.plans[1].route is Route.LOCAL
    w.chat.split.setSizes([560, 200])
    w.chat.send()
    yield lambda: visible(ApprovalDialog) is not None
    visible(ApprovalDialog).send_btn.click()
    yield lambda: not w.chat.turns.running and len(w.chat.messages) >= 2
    yield 0.6
    grab(w, out, "15-answer-private-sentence-kept")
    w.close()
    app.quit()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    home = tempfile.mkdtemp(prefix="sottovoce-first-run-")
    os.environ["SOTTOVOCE_HOME"] = home
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
    os.environ.pop("SOTTOVOCE_PASSPHRASE", None)
    try:
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication

        from app.main import keep_training_stack_out

        keep_training_stack_out([])
        from screenshots import Walk

        from app.window import start
        from tests.integration.test_answer_preservation import capable_answer
        from training.stub_cloud import StubCloud

        with StubCloud(capable_answer, api_key=KEY) as stub:
            app = QApplication([sys.argv[0]])
            state: dict[str, Any] = {"stub": stub}
            runner = Walk(walk(out, app, state), app)
            QTimer.singleShot(0, runner.start)
            started = start(argparse.Namespace(window_demo_cloud=False), app=app)
            if started is None:
                print("the app did not start", file=sys.stderr)
                return 1
            state["window"] = started.window
            code = app.exec()
            started.close()
            if runner.error is not None:
                raise runner.error
            return int(code)
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
