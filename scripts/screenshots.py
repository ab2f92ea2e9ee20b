"""Start the real app under Xvfb, walk through its main screens, save a PNG of each.

    python scripts/screenshots.py [--out docs/screenshots] [--cloud-url URL --cloud-model M]

The app runs exactly as `sottovoce --demo-cloud` does (app.window.start), in
a fresh SOTTOVOCE_HOME, with no keyring backend (so the first-run dialog asks
for a passphrase). Xvfb is started on a free display unless --display is
given. The walk is driven from timers inside the app's own event loop, so the
dialogs (vault, approval) are shown and answered like a person would.
Needs Xvfb (``apt-get install xvfb``) and the xcb libraries of Qt.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WIDTH, HEIGHT = 1360, 860

CHAT = (
    "My daughter Lucy Whitfield, 7, has had a fever of 39.2 °C since 03/02/2024. "
    "Her pediatrician is Dr. Anand Krishnan at Riverside Clinic. "
    "What fever is too high for a child of that age? "
    "When should we go to the emergency room instead of waiting?"
)
DRAFT = (
    "Write to my landlord Gerald Moss (gerald.moss@example.net): the heating in flat 4B has "
    "been broken since January 12, 2025 and I need it fixed this week.\n\n"
    "Ask him to reply by Friday. I am Priya Raman, phone 412-555-0196."
)

FOLLOW_UP = "Thanks. Which fever reducer should Lucy take, and how often?"

GERMAN = (
    "Guten Tag, mein Vater Klaus Brenner (geb. 14.03.1951) wohnt in der Hauptstraße 5, "
    "69117 Heidelberg. Sein Hausarzt Dr. Jörg Lindemann hat ihm Metformin 1000 mg zweimal "
    "täglich verschrieben. Sein HbA1c liegt bei 7,8 %. Ist das die übliche Dosis?"
)
FRENCH = (
    "Bonjour, je m'appelle Claire Dubois, née le 12/09/1958, numéro de sécurité sociale "
    "2 58 09 75 113 042 87. Mon employeur, la société Garnier Transports SAS, refuse mes "
    "congés payés en août. L'article L3141-16 du Code du travail le permet-il ?"
)


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    if shutil.which("Xvfb") is None:
        sys.exit("Xvfb is not installed (apt-get install xvfb).")
    for n in range(99, 140):
        if not Path(f"/tmp/.X{n}-lock").exists():
            display = f":{n}"
            proc = subprocess.Popen(
                ["Xvfb", display, "-screen", "0", f"{WIDTH}x{HEIGHT}x24", "-nolisten", "tcp"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for _ in range(50):
                if Path(f"/tmp/.X11-unix/X{n}").exists():
                    return proc, display
                time.sleep(0.1)
            proc.kill()
    sys.exit("could not start Xvfb")


Step = Generator[Callable[[], bool] | float, None, None]


class Walk:
    """Runs a generator of steps on a timer; a step yields a condition or a delay."""

    def __init__(self, steps: Step, app: Any) -> None:
        from PySide6.QtCore import QTimer

        self.steps = steps
        self.app = app
        self.wait: Callable[[], bool] | None = None
        self.until = 0.0
        self.deadline = 0.0
        self.timer = QTimer()
        self.timer.setInterval(50)
        self.timer.timeout.connect(self.tick)
        self.error: BaseException | None = None

    def start(self) -> None:
        self.timer.start()

    def tick(self) -> None:
        now = time.monotonic()
        if now < self.until:
            return
        if self.wait is not None:
            if not self.wait():
                if now > self.deadline:
                    self.fail(TimeoutError("a step waited too long"))
                return
            self.wait = None
        try:
            step = next(self.steps)
        except StopIteration:
            self.timer.stop()
            return
        except BaseException as exc:  # reported after the app quits
            self.fail(exc)
            return
        if callable(step):
            self.wait, self.deadline = step, now + 240
        else:
            self.until = now + float(step)

    def fail(self, exc: BaseException) -> None:
        self.error = exc
        self.timer.stop()
        self.app.exit(3)


def shot(widget: Any, out: Path, name: str, margin: int = 0, extra: Any = None) -> None:
    """Grab the screen area of ``widget`` (and of ``extra``, e.g. a tooltip) to a PNG."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QGuiApplication

    rect = widget.frameGeometry()
    if extra is not None and extra.isVisible():
        rect = rect.united(extra.frameGeometry())
    rect = rect.adjusted(-margin, -margin, margin, margin).intersected(QRect(0, 0, WIDTH, HEIGHT))
    pm = QGuiApplication.primaryScreen().grabWindow(
        0, rect.x(), rect.y(), rect.width(), rect.height()
    )
    path = out / f"{name}.png"
    pm.save(str(path))
    print(f"saved {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}", flush=True)


def visible(kind: type) -> Any:
    from PySide6.QtWidgets import QApplication

    for w in QApplication.topLevelWidgets():
        if isinstance(w, kind) and w.isVisible():
            return w
    return None


def walk(out: Path, app: Any, state: dict[str, Any]) -> Step:
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QToolTip

    from core.analyze import Route
    from ui.approval import ApprovalDialog
    from ui.vault_dialog import VaultDialog

    # 1. First run: the vault dialog (no keyring here, so a passphrase).
    yield lambda: visible(VaultDialog) is not None
    dlg = visible(VaultDialog)
    dlg.move(WIDTH // 2 - dlg.width() // 2, 120)
    dlg.passphrase.setText("a long passphrase")
    dlg.confirm.setText("a long passphrase")
    yield 0.5
    shot(dlg, out, "01-first-run-vault", margin=0)
    dlg.submit()
    yield lambda: state.get("window") is not None and state["window"].isVisible()
    w = state["window"]
    w.move(0, 0)
    w.resize(WIDTH, HEIGHT)

    # 2. The chat composer: live routing of a message, one sentence flipped.
    yield lambda: w.load_label.text() == "Models ready"
    editor = w.chat.editor
    editor.set_text(CHAT)
    yield lambda: editor.analysis is not None
    plans = editor.analysis.plans
    local = [p for p in plans if p.route is Route.LOCAL]
    if len(local) > 1:
        editor.flip_sentence(local[-1].index)  # "Her pediatrician is ..." goes, anonymized
    w.chat.split.setSizes([300, 460])
    yield 0.8
    shot(w, out, "02-chat-routing-editor")

    # 3. Hover: the explanation of a decision.
    a = editor.analysis
    # A decision in a sentence kept here when there is one, else the first entity.
    ent = next(
        (e for p in a.plans for e in p.entities if p.route is Route.LOCAL),
        next(e for p in a.plans for e in p.entities),
    )
    cursor = editor.edit.textCursor()
    cursor.setPosition(ent.start + 1)
    pos = editor.edit.cursorRect(cursor).center()
    tip = editor.explain(ent.start + 1)
    QToolTip.showText(
        editor.edit.viewport().mapToGlobal(pos + QPoint(0, 8)), tip, editor.edit.viewport()
    )
    yield 0.8
    shot(w, out, "03-hover-explains")
    QToolTip.hideText()

    # 4. The approval view, then the streamed answer.
    yield lambda: "sottovoce-demo" in w.cloud_label.text() or state["external"]
    w.chat.send()
    yield lambda: visible(ApprovalDialog) is not None
    ap = visible(ApprovalDialog)
    ap.resize(980, 700)
    ap.move(WIDTH // 2 - 490, 70)
    yield 0.6
    shot(ap, out, "04-approval")
    ap.send_btn.click()
    yield lambda: not w.chat.turns.running
    yield 0.5
    shot(w, out, "05-chat-answer")

    # 4b. A follow-up: its "Thanks." identifies no one and goes with the question.
    w.chat.editor.set_text(FOLLOW_UP)
    yield lambda: (
        w.chat.editor.analysis is not None and w.chat.editor.analysis.text == FOLLOW_UP
    )
    yield 0.8
    shot(w, out, "16-follow-up-thanks-goes")
    w.chat.editor.set_text("")

    # 5. Email drafting.
    w.new_conversation("draft")
    d = w.draft
    d.editor.set_text(DRAFT)
    yield lambda: d.editor.analysis is not None
    for p in d.editor.analysis.plans:
        if p.route is Route.LOCAL:
            d.editor.flip_sentence(p.index)
    d.write()
    yield lambda: visible(ApprovalDialog) is not None
    visible(ApprovalDialog).send_btn.click()
    yield lambda: not d.turns.running
    yield 0.5
    shot(w, out, "06-email-draft")

    # 6. Settings: the risk slider with its preview, the local model, the cloud.
    w.chat.editor.set_text(CHAT)
    w.new_conversation("chat")
    w.chat.editor.set_text(CHAT)
    w.stack.setCurrentWidget(w.chat)
    s = w.open_settings()
    s.resize(900, 780)
    s.move(WIDTH // 2 - 450, 30)
    s.risk.set_value(2.0)
    yield lambda: s.preview.analysis is not None and s.preview.analysis.risk_lambda == 2.0
    yield 0.5
    shot(s, out, "07-settings-privacy")
    s.tabs.setCurrentIndex(2)
    yield lambda: "Checking" not in s.gpu_label.text()
    yield 0.5
    shot(s, out, "08-settings-local-model")
    s.tabs.setCurrentIndex(3)
    yield 0.4
    shot(s, out, "09-settings-cloud")
    s.reject()

    # 7. The privacy box and the egress ledger.
    box = w.open_privacy_box()
    box.move(WIDTH // 2 - box.width() // 2, 80)
    yield lambda: box.table.rowCount() > 0
    box.table.selectRow(0)
    yield 0.4
    shot(box, out, "10-privacy-box")
    box.close()
    led = w.open_ledger()
    led.move(WIDTH // 2 - led.width() // 2, 60)
    yield lambda: led.table.rowCount() > 0
    led.table.selectRow(led.table.rowCount() - 1)
    yield 0.4
    shot(led, out, "11-egress-ledger")
    led.close()

    # 8. A document attached: its text in the editor, then in the approval view.
    from training.documents.make import DOCS

    letter = Path(tempfile.mkdtemp(prefix="sottovoce-shot-")) / DOCS[0].file
    DOCS[0].write(letter)  # the dev set's synthetic discharge letter (PDF)
    w.new_conversation("chat")
    w.stack.setCurrentWidget(w.chat)
    w.chat.editor.set_text("What does this letter ask my GP to do, and by when?")
    w.chat.composer.attach_files([letter])
    yield lambda: not w.chat.composer.attaching and "Attached:" in w.chat.editor.text()
    yield lambda: w.chat.editor.analysis is not None and w.chat.editor.analysis.text == w.chat.editor.text()
    w.chat.split.setSizes([120, 640])
    yield 0.8
    shot(w, out, "20-document-editor")
    w.chat.send()
    yield lambda: visible(ApprovalDialog) is not None
    ap = visible(ApprovalDialog)
    ap.resize(980, 760)
    ap.move(WIDTH // 2 - 490, 50)
    yield 0.6
    shot(ap, out, "21-document-approval")
    ap.cancel_btn.click()
    yield lambda: not w.chat.turns.running
    yield 0.2

    # 9. A German and a French message in the editor, each judged by its language's rules.
    for name, text in (("22-german-editor", GERMAN), ("23-french-editor", FRENCH)):
        w.new_conversation("chat")
        w.stack.setCurrentWidget(w.chat)
        w.chat.editor.set_text(text)
        yield lambda text=text: (
            w.chat.editor.analysis is not None and w.chat.editor.analysis.text == text
        )
        w.chat.split.setSizes([300, 460])
        yield 0.8
        shot(w, out, name)
    w.close()
    app.quit()


def main() -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    p.add_argument("--display", help="use this X display instead of starting Xvfb")
    p.add_argument("--cloud-url", help="an OpenAI-compatible endpoint instead of the demo cloud")
    p.add_argument("--cloud-model", default="gpt-4o-mini")
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    xvfb = None
    if args.display:
        os.environ["DISPLAY"] = args.display
    else:
        xvfb, display = start_xvfb()
        os.environ["DISPLAY"] = display
    home = tempfile.mkdtemp(prefix="sottovoce-screens-")
    os.environ["SOTTOVOCE_HOME"] = home
    os.environ["QT_QPA_PLATFORM"] = "xcb"
    # Never the developer's keyring: with none, the first run asks for a passphrase.
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
    os.environ.pop("SOTTOVOCE_PASSPHRASE", None)
    if args.cloud_url:
        from core.settings import Settings

        Settings(cloud_base_url=args.cloud_url, cloud_model=args.cloud_model).save()
    try:
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication

        from app.window import start

        app = QApplication([sys.argv[0]])
        state: dict[str, Any] = {"external": bool(args.cloud_url)}
        runner = Walk(walk(out, app, state), app)
        QTimer.singleShot(0, runner.start)  # the start-up loop (vault dialog) runs the walk
        started = start(argparse.Namespace(window_demo_cloud=not args.cloud_url), app=app)
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
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(10)


if __name__ == "__main__":
    raise SystemExit(main())
