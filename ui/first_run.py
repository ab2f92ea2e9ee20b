"""The first-run guide, after the vault: connect a cloud, then choose the local model.

Two pages of a :class:`QWizard`:

* **Connect a cloud**: a preset (OpenAI, OpenRouter, Mistral, Groq, a local
  Ollama or LM Studio server) or any OpenAI-compatible base URL, the model and
  the API key. *Test connection* lists the endpoint's models through the real
  :class:`~core.llm.cloud.CloudClient` in a worker: it sends no text at all,
  so nothing private can leave. The key is stored when the guide finishes: in
  the system keyring, or in the encrypted vault where there is none.
* **Choose the local model**: the embedded model, a GGUF file (checked in a
  worker, with what it may do with the cloud's answers, see
  :class:`core.llm.local.Capability`), or a recommended model downloaded on
  the spot (:class:`ui.models_page.CatalogPicker`). Other sources plug in
  with :meth:`LocalModelPage.add_choice`.

Errors go through :mod:`ui.errors`. "Skip for now" keeps the defaults and
does not show the guide again; closing the window shows it at the next start.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from core.llm.endpoints import CLOUD_PRESETS, CloudPreset, is_loopback
from core.settings import Settings
from ui import keys
from ui.errors import describe, report
from ui.theme import field_layout
from ui.workers import run_in_thread

if TYPE_CHECKING:
    from core.store import Store

log = logging.getLogger(__name__)

#: How long "Test connection" waits for an answer (seconds).
TEST_TIMEOUT_S = 15.0


def list_models(base_url: str, api_key: str | None, vault: Store | None) -> list[str]:
    """The endpoint's model names (runs in a worker; sends no content)."""
    from core.llm.cloud import endpoint_models

    return endpoint_models(base_url, api_key=api_key, vault=vault, timeout=TEST_TIMEOUT_S)


def describe_gguf(path: str, min_params_b: float) -> str:
    """A line about a GGUF file and what it may do with the cloud's answers (a worker)."""
    from core.llm.gguf_file import read_gguf
    from core.llm.local import capability_of

    info = read_gguf(path)
    return f"{capability_of(info, min_params_b).describe()} ({info.file_size / 2**20:,.0f} MiB)"


def embedded_capability(min_params_b: float) -> str:
    from core.llm.gguf_file import read_gguf
    from core.llm.local import capability_of, embedded_model_path

    return capability_of(read_gguf(embedded_model_path()), min_params_b).describe()


class CloudPage(QWizardPage):
    """Where the anonymized requests go: a preset or any OpenAI-compatible URL."""

    #: Emitted with the model names after a successful connection test.
    tested = Signal(list)

    def __init__(self, settings: Settings, vault: Store | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle("Connect a cloud model")
        self.setSubTitle(
            "Sottovoce sends the parts of your messages that may leave, with private details "
            "replaced by placeholders, to an OpenAI-compatible service you choose."
        )
        self.vault = vault
        self.ok = False  # the last test succeeded for the URL and key now entered
        self.preset = QComboBox()
        self.preset.setAccessibleName("Cloud service")
        for p in CLOUD_PRESETS:
            self.preset.addItem(p.name, p)
        self.url = QLineEdit()
        self.url.setAccessibleName("Base URL")
        self.url.setPlaceholderText("https://…/v1")
        self.model = QComboBox()
        self.model.setEditable(True)
        self.model.setAccessibleName("Model")
        self.key = QLineEdit()
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setAccessibleName("API key")
        self.key_help = QLabel()
        self.key_help.setObjectName("hint")
        self.key_help.setWordWrap(True)
        self.key_where = QLabel(
            f"Kept in {keys.where_kept(vault)}; never in the settings file or the ledger."
        )
        self.key_where.setObjectName("hint")
        self.key_where.setWordWrap(True)
        self.test_btn = QPushButton("Test connection")
        self.test_btn.setToolTip("Asks the service which models it offers; sends none of your text")
        self.test_btn.clicked.connect(self.test)
        self.status = QLabel("Not tested yet. The test sends none of your text.")
        self.status.setObjectName("hint")
        self.status.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Service:", self.preset)
        form.addRow("Base URL:", self.url)
        form.addRow("Model:", self.model)
        form.addRow("API key:", self.key)
        form.addRow("", self.key_help)
        form.addRow("", self.key_where)
        row = QHBoxLayout()
        row.addWidget(self.test_btn)
        row.addWidget(self.status, 1)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addLayout(row)
        self.preset.currentIndexChanged.connect(self._preset_chosen)
        for w in (self.url, self.key):
            w.textChanged.connect(self._changed)
        self.model.editTextChanged.connect(lambda _t: self.completeChanged.emit())
        # Start from what the settings hold (the OpenAI preset on a fresh install).
        index = next(
            (i for i, p in enumerate(CLOUD_PRESETS) if p.base_url == settings.cloud_base_url.rstrip("/")),
            len(CLOUD_PRESETS) - 1,
        )
        self.preset.setCurrentIndex(index)
        self._preset_chosen(index)
        self.url.setText(settings.cloud_base_url)
        self.model.setEditText(settings.cloud_model)

    def choose(self, name: str) -> None:
        """Select the preset called ``name`` (tests and the screenshot script)."""
        self.preset.setCurrentIndex(self.preset.findText(name))

    def _preset_chosen(self, index: int) -> None:
        p: CloudPreset = self.preset.itemData(index)
        if p.base_url or not self.url.text():
            self.url.setText(p.base_url)
        self.model.clear()
        self.model.setEditText(p.model)
        where = keys.where_kept(self.vault)
        self.key.setPlaceholderText(
            f"Paste your API key (kept in {where})" if p.needs_key else "Not needed"
        )
        self.key_help.setText(p.key_help)

    def _changed(self) -> None:
        self.ok = False
        self.status.setText("Not tested yet. The test sends none of your text.")
        self.status.setStyleSheet("")
        self.completeChanged.emit()

    def base_url(self) -> str:
        return self.url.text().strip().rstrip("/")

    def model_name(self) -> str:
        return self.model.currentText().strip()

    def api_key(self) -> str:
        return self.key.text().strip()

    def url_problem(self) -> str | None:
        parts = urlsplit(self.base_url())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return "Enter the service's base URL, starting with https:// (or http:// on this computer)."
        if parts.scheme == "http" and not is_loopback(self.base_url()):
            return "Use https:// for a service on another computer: http:// would send in clear."
        return None

    def isComplete(self) -> bool:
        return self.url_problem() is None and bool(self.model_name())

    def test(self) -> None:
        """List the endpoint's models in a worker; shows the result here."""
        problem = self.url_problem()
        if problem:
            self._show(False, problem)
            return
        self.test_btn.setEnabled(False)
        self.status.setStyleSheet("")
        self.status.setText("Connecting…")
        url, key = self.base_url(), self.api_key() or None
        run_in_thread(
            list_models,
            url,
            key,
            self.vault,
            on_return=lambda names: self._tested(url, names),
            on_error=self._failed,
            on_finish=lambda: self.test_btn.setEnabled(True),
            name="cloud-test",
        )

    def _tested(self, url: str, names: list[str]) -> None:
        if url != self.base_url():
            return  # the person typed another URL meanwhile
        current = self.model_name()
        self.model.clear()
        self.model.addItems(names)
        # Keep the model the person (or the preset) named; else offer the first one.
        self.model.setEditText(current or (names[0] if names else ""))
        known = "" if not current or current in names else f" ({current} is not among them)"
        self._show(True, f"Connected: the service offers {len(names)} model(s){known}.")
        self.ok = True
        self.tested.emit(names)

    def _failed(self, exc: BaseException) -> None:
        d = describe(exc)
        self._show(False, d.text + (f" Try: {d.hint}." if d.hint else ""))
        if not d.expected:
            report(exc, self)

    def _show(self, ok: bool, text: str) -> None:
        self.status.setText(("✔ " if ok else "✖ ") + text)
        self.status.setStyleSheet("" if ok else "color: #c0392b;")


@dataclass
class LocalChoice:
    """One way to get a local model (the embedded one, a file, a catalogue entry)."""

    key: str
    button: QRadioButton
    value: Callable[[], str | None]  # the settings' local_model_path; None = embedded
    ready: Callable[[], bool]


class LocalModelPage(QWizardPage):
    """Which model runs on this machine: the embedded one, a GGUF file, or more sources."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle("Choose the local model")
        self.setSubTitle("It runs on this computer, handles what stays private, and sends nothing.")
        self.min_params_b = settings.capable_model_b
        self.choices: list[LocalChoice] = []
        self.group = QButtonGroup(self)
        self.group.buttonToggled.connect(lambda *_: self.completeChanged.emit())
        lay = QVBoxLayout(self)
        about = QLabel(
            f"A model of at least {settings.capable_model_b:g} B parameters may merge the "
            "cloud's answer with the sentences that stayed here, and the merge is checked "
            "before you see it. A smaller model never rewrites the cloud's answer: you see "
            "it as the cloud wrote it, and which sentences the cloud did not see."
        )
        about.setWordWrap(True)
        lay.addWidget(about)
        self.lay = QVBoxLayout()  # the choices, in the order they were added
        lay.addLayout(self.lay)
        lay.addStretch(1)

        embedded = QRadioButton("The embedded model (SmolLM2-135M): built in, works offline")
        self.embedded_info = QLabel("Reading the model…")
        self.embedded_info.setObjectName("hint")
        self.embedded_info.setWordWrap(True)
        self.add_choice("embedded", embedded, self.embedded_info, lambda: None, lambda: True)
        run_in_thread(
            embedded_capability,
            self.min_params_b,
            on_return=self.embedded_info.setText,
            on_error=lambda exc: self.embedded_info.setText(describe(exc).text),
            name="embedded-capability",
        )

        self.file_btn = QRadioButton("A GGUF file on this computer")
        self.path = QLineEdit()
        self.path.setAccessibleName("GGUF file")
        self.path.setPlaceholderText("/path/to/model.gguf")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        self.file_info = QLabel("")
        self.file_info.setObjectName("hint")
        self.file_info.setWordWrap(True)
        self.file_ok = False
        box = QWidget()
        field_layout(box, self.path, [browse], self.file_info, indent=24)
        self.add_choice(
            "file", self.file_btn, box, lambda: self.path.text().strip() or None, lambda: self.file_ok
        )
        self.path.editingFinished.connect(self.check_file)
        self.path.textChanged.connect(self._path_changed)

        # A recommended model from the catalogue, downloaded and checked here.
        from ui.models_page import CatalogPicker

        self.catalog = CatalogPicker(settings)
        self.catalog.changed.connect(self.completeChanged)
        self.add_choice(
            "recommended",
            QRadioButton("A recommended model, downloaded now (checked against its published hash)"),
            self.catalog,
            self.catalog.path,
            self.catalog.ready,
        )
        start = "file" if settings.local_model_path else "embedded"
        if settings.local_model_path:
            self.path.setText(settings.local_model_path)
            self.check_file()
        self.select(start)

    def add_choice(
        self,
        key: str,
        button: QRadioButton,
        detail: QWidget | None,
        value: Callable[[], str | None],
        ready: Callable[[], bool],
    ) -> LocalChoice:
        """Offer one more way to get a local model (a catalogue, for one).

        ``value`` gives the settings' ``local_model_path`` (None: the embedded
        model); ``ready`` says whether the choice can be finished now (call
        :meth:`QWizardPage.completeChanged` when it changes).
        """
        choice = LocalChoice(key, button, value, ready)
        self.choices.append(choice)
        self.group.addButton(button)
        self.lay.addWidget(button)
        if detail is not None:
            if isinstance(detail, QLabel):
                detail.setContentsMargins(24, 0, 0, 0)
            else:  # inputs are live only while their choice is selected
                detail.setEnabled(button.isChecked())
                button.toggled.connect(detail.setEnabled)
            self.lay.addWidget(detail)
        return choice

    def select(self, key: str) -> None:
        next(c for c in self.choices if c.key == key).button.setChecked(True)

    def current(self) -> LocalChoice | None:
        return next((c for c in self.choices if c.button.isChecked()), None)

    def isComplete(self) -> bool:
        choice = self.current()
        return choice is not None and choice.ready()

    def model_path(self) -> str | None:
        choice = self.current()
        return choice.value() if choice is not None else None

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Choose a GGUF model", "", "GGUF models (*.gguf)")
        if path:
            self.path.setText(path)
            self.select("file")
            self.check_file()

    def _path_changed(self) -> None:
        self.file_ok = False
        self.file_info.setText("")
        self.completeChanged.emit()

    def check_file(self) -> None:
        """Read the GGUF header in a worker and say what the model may do."""
        path = self.path.text().strip()
        if not path:
            return
        self.file_info.setStyleSheet("")
        self.file_info.setText("Checking…")
        run_in_thread(
            describe_gguf,
            path,
            self.min_params_b,
            on_return=lambda text: self._checked(path, True, text),
            on_error=lambda exc: self._checked(path, False, describe(exc).text),
            name="gguf-check",
        )

    def _checked(self, path: str, ok: bool, text: str) -> None:
        if path != self.path.text().strip():
            return
        self.file_ok = ok
        self.file_info.setText(("✔ " if ok else "✖ ") + text)
        self.file_info.setStyleSheet("" if ok else "color: #c0392b;")
        self.completeChanged.emit()


class FirstRunGuide(QWizard):
    """The guide; :meth:`apply` writes the choices (settings file, key) when it finishes."""

    def __init__(self, settings: Settings, vault: Store | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("first-run-guide")
        self.setWindowTitle("Set up Sottovoce")
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setMinimumSize(680, 520)
        self.settings = settings
        self.vault = vault
        self.cloud = CloudPage(settings, vault)
        self.local = LocalModelPage(settings)
        self.addPage(self.cloud)
        self.addPage(self.local)
        self.finished.connect(self.local.catalog.shutdown)  # a download stops with the guide
        self.setButtonText(QWizard.WizardButton.CancelButton, "Skip for now")
        self.setButtonText(QWizard.WizardButton.FinishButton, "Start")
        self.skipped = False
        self.chosen: Settings | None = None

    def result_settings(self) -> Settings:
        """The settings with the guide's choices (validated)."""
        data = self.settings.model_dump()
        data.update(
            cloud_base_url=self.cloud.base_url(),
            cloud_model=self.cloud.model_name(),
            local_model_path=self.local.model_path(),
            first_run_done=True,
        )
        return Settings.model_validate(data)

    def accept(self) -> None:
        try:
            new = self.result_settings()
            if self.cloud.api_key():
                keys.save_api_key(new.cloud_base_url, self.cloud.api_key(), self.vault)
            new.save()
        except Exception as exc:  # the key store or the settings file refused
            report(exc, self)
            return
        self.chosen = new
        super().accept()

    def reject(self) -> None:
        if self.sender() is self.button(QWizard.WizardButton.CancelButton):
            # "Skip for now" is a choice: keep the defaults and do not ask again.
            self.skipped = True
            try:
                self.chosen = self.settings.model_copy(update={"first_run_done": True})
                self.chosen.save()
            except Exception as exc:
                report(exc, self)
        super().reject()


def wants_guide(settings: Settings, *, demo_cloud: bool, scripted: bool) -> bool:
    """Whether this start shows the guide: a person's first run, not a scripted or demo run."""
    return not settings.first_run_done and not demo_cloud and not scripted


def run_guide(
    settings: Settings,
    vault: Store | None,
    parent: QWidget | None = None,
    *,
    done: Callable[[Settings], None],
) -> FirstRunGuide:
    """Open the guide (application-modal, not blocking); when it closes, ``done``
    gets the settings to start with (the guide's, or ``settings`` unchanged)."""
    guide = FirstRunGuide(settings, vault, parent)
    guide.setWindowModality(Qt.WindowModality.ApplicationModal)

    def finished(_code: int) -> None:
        guide.deleteLater()
        done(guide.chosen or settings)

    guide.finished.connect(finished)
    guide.show()
    return guide
