"""The first-run guide: a person with no keyring reaches a working chat through it alone.

The cloud is a real loopback OpenAI-compatible server (training.stub_cloud)
that requires an API key, so the tests see which key the app sent; the
keyring is the 'fail' backend where a machine has none.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
from keyring.backends.fail import Keyring as FailKeyring
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from core.llm.endpoints import get_api_key
from core.llm.local import embedded_model_path
from core.settings import Settings
from tests.integration.test_answer_preservation import MESSAGE, RESTORED, capable_answer
from training.stub_cloud import StubCloud
from ui.first_run import CloudPage, FirstRunGuide, LocalModelPage, wants_guide

KEY = "sk-test-guide-4711"


@pytest.fixture
def stub() -> Iterator[StubCloud]:
    with StubCloud(capable_answer, api_key=KEY) as s:
        yield s


@pytest.fixture
def no_keyring(hermetic: Any) -> Iterator[None]:
    keyring.set_keyring(FailKeyring())
    yield
    keyring.set_keyring(hermetic)


# --- the cloud page ----------------------------------------------------------------


def test_presets_fill_the_endpoint_and_a_plain_http_remote_is_refused(qtbot: Any) -> None:
    page = CloudPage(Settings(), None)
    qtbot.addWidget(page)
    assert page.base_url() == "https://api.openai.com/v1" and page.isComplete()
    page.choose("Groq")
    assert page.base_url() == "https://api.groq.com/openai/v1" and page.model_name()
    page.choose("Ollama on this computer")
    assert page.base_url() == "http://127.0.0.1:11434/v1" and page.isComplete()
    page.choose("Another OpenAI-compatible server")
    page.url.setText("http://llm.example.com/v1")
    page.model.setEditText("m")
    assert not page.isComplete() and "https" in (page.url_problem() or "")


def test_test_connection_lists_the_models_and_sends_no_text(qtbot: Any, stub: StubCloud) -> None:
    page = CloudPage(Settings(), None)
    qtbot.addWidget(page)
    page.choose("Another OpenAI-compatible server")
    page.url.setText(stub.base_url)
    page.model.setEditText("")
    page.key.setText("sk-wrong")
    page.test()
    qtbot.waitUntil(lambda: page.status.text().startswith("✖"), timeout=20000)
    assert "rejected the API key" in page.status.text() and not page.ok
    page.key.setText(KEY)
    page.test()
    qtbot.waitUntil(lambda: page.ok, timeout=20000)
    assert page.model_name() == stub.model and "1 model" in page.status.text()
    # Only the model list was asked for: no chat request, no text.
    assert [r["path"] for r in stub.requests] == ["/v1/models", "/v1/models"]
    assert all(r["json"] is None for r in stub.requests)


# --- the local model page ----------------------------------------------------------


def test_the_local_page_checks_a_gguf_and_says_what_it_may_do(qtbot: Any, tmp_path: Path) -> None:
    page = LocalModelPage(Settings())
    qtbot.addWidget(page)
    assert page.current() is not None and page.current().key == "embedded" and page.isComplete()
    assert page.model_path() is None
    qtbot.waitUntil(lambda: "parameters" in page.embedded_info.text(), timeout=20000)
    assert "shows the cloud's answer as it is" in page.embedded_info.text()
    bad = tmp_path / "notes.gguf"
    bad.write_text("not a model")
    page.select("file")
    page.path.setText(str(bad))
    page.check_file()
    qtbot.waitUntil(lambda: page.file_info.text().startswith("✖"), timeout=20000)
    assert not page.isComplete()
    page.path.setText(str(embedded_model_path()))
    page.check_file()
    qtbot.waitUntil(lambda: page.file_info.text().startswith("✔"), timeout=20000)
    assert page.isComplete() and page.model_path() == str(embedded_model_path())


def test_more_sources_plug_in(qtbot: Any) -> None:
    from PySide6.QtWidgets import QRadioButton

    page = LocalModelPage(Settings())
    qtbot.addWidget(page)
    page.add_choice("catalog", QRadioButton("From the catalogue"), None, lambda: "/m.gguf", lambda: False)
    page.select("catalog")
    assert not page.isComplete() and page.model_path() == "/m.gguf"


def test_the_guide_shows_on_a_first_run_only() -> None:
    assert wants_guide(Settings(), demo_cloud=False, scripted=False)
    assert not wants_guide(Settings(first_run_done=True), demo_cloud=False, scripted=False)
    assert not wants_guide(Settings(), demo_cloud=True, scripted=False)
    assert not wants_guide(Settings(), demo_cloud=False, scripted=True)


def test_settings_written_before_the_guide_existed_count_as_set_up(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"schema_version": 1, "cloud_model": "m"}', "utf-8")
    assert Settings.load(path).first_run_done
    assert not Settings.load(tmp_path / "none.json").first_run_done


def test_skip_keeps_the_defaults_and_is_remembered(qtbot: Any) -> None:
    from PySide6.QtWidgets import QWizard

    guide = FirstRunGuide(Settings(), None)
    qtbot.addWidget(guide)
    guide.show()
    guide.button(QWizard.WizardButton.CancelButton).click()
    assert guide.skipped and Settings.load().first_run_done
    assert Settings.load().cloud_base_url == Settings().cloud_base_url


# --- a whole first run ----------------------------------------------------------------


class Steps:
    """Runs (condition, action) pairs in order from a timer: modal dialogs run
    their own event loops, so a person's clicks come from inside them."""

    def __init__(self, steps: list[tuple[Callable[[], bool], Callable[[], None]]]) -> None:
        self.steps = list(steps)
        self.error: BaseException | None = None
        self.timer = QTimer()
        self.timer.setInterval(25)
        self.timer.timeout.connect(self.tick)
        self.timer.start()

    def tick(self) -> None:
        while self.steps and self.error is None:
            ready, act = self.steps[0]
            try:
                if not ready():
                    return
                self.steps.pop(0)
                act()
            except BaseException as exc:  # reported by the test
                self.error = exc
                self.timer.stop()
                return
        self.timer.stop()


def visible(kind: type) -> Any:
    return next(
        (w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()), None
    )


@pytest.mark.integration
def test_a_first_run_without_a_keyring_reaches_a_working_chat_through_the_guide(
    qtbot: Any, qapp: Any, stub: StubCloud, no_keyring: None
) -> None:
    from PySide6.QtWidgets import QWizard

    from app.window import start
    from tests.gui.conftest import on_dialog
    from ui.approval import ApprovalDialog
    from ui.errors import uninstall_excepthooks
    from ui.vault_dialog import VaultDialog

    def fill_vault() -> None:
        d = visible(VaultDialog)
        assert not d.use_keyring.isEnabled()  # this machine has no keyring
        d.passphrase.setText("a long passphrase")
        d.confirm.setText("a long passphrase")
        d.submit()

    def cloud_page() -> None:
        g = visible(FirstRunGuide)
        g.cloud.choose("Another OpenAI-compatible server")
        g.cloud.url.setText(stub.base_url)
        g.cloud.model.setEditText("")
        g.cloud.key.setText(KEY)
        assert "encrypted vault" in g.cloud.key.placeholderText()
        g.cloud.test()

    def next_page() -> None:
        visible(FirstRunGuide).next()

    def finish() -> None:
        visible(FirstRunGuide).button(QWizard.WizardButton.FinishButton).click()

    steps = Steps(
        [
            (lambda: visible(VaultDialog) is not None, fill_vault),
            (lambda: visible(FirstRunGuide) is not None, cloud_page),
            (lambda: visible(FirstRunGuide).cloud.ok, next_page),
            (lambda: visible(FirstRunGuide).currentPage() is visible(FirstRunGuide).local, finish),
        ]
    )
    started = start(argparse.Namespace(window_demo_cloud=False), app=qapp)
    assert steps.error is None, steps.error
    assert started is not None
    try:
        w = started.window
        settings = Settings.load()
        assert (settings.cloud_base_url, settings.cloud_model) == (stub.base_url, stub.model)
        assert settings.first_run_done and settings.local_model_path is None
        store = started.engine.store
        # No keyring: the key is in the encrypted vault, and nowhere else.
        assert get_api_key(stub.base_url, store) == KEY
        from core import paths

        assert KEY not in paths.settings_file().read_text("utf-8")
        qtbot.waitUntil(lambda: w.load_label.text() == "Models ready", timeout=180000)
        chat = w.chat
        chat.editor.set_text(MESSAGE)
        qtbot.waitUntil(lambda: chat.editor.analysis is not None, timeout=60000)
        timer = on_dialog(ApprovalDialog, lambda d: d.send_btn.click())
        with qtbot.waitSignal(chat.turns.finished, timeout=120000):
            chat.send()
        timer.stop()
        answer = next(m for m in chat.messages if m.role == "assistant")
        assert answer.text() == RESTORED
        sent = stub.chat_requests[-1]
        headers = {k.lower(): v for k, v in sent["headers"].items()}
        assert headers["authorization"] == f"Bearer {KEY}"
        assert "Lucy Whitfield" not in str(sent["json"])
        w.close()
    finally:
        started.close()
        uninstall_excepthooks()
