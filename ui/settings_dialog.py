"""The Settings dialog, built from the metadata of :class:`core.settings.Settings`.

Each field's title, description and bounds come from the pydantic model
(napari's preferences dialog works the same way), so a new setting appears
here without touching this file: it lands on the page its name belongs to, or
on "Other". A few fields get richer editors: the risk slider with a live
preview of the routing of the editor's text, the GGUF picker with validation,
and the API key, which lives in the OS keyring and is never shown in full.
"""

from __future__ import annotations

import functools
import logging
import types
import typing
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from pydantic.fields import FieldInfo
from PySide6.QtCore import QObject, Qt, QThreadPool, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSlider,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from core.settings import Settings
from core.turn import Choices
from ui import keys
from ui.editor import AnalyzeFn, RoutingEditor
from ui.errors import report
from ui.theme import COLORS, field_layout
from ui.workers import Worker, run_in_thread

if TYPE_CHECKING:
    from core.llm.endpoints import SecretVault

log = logging.getLogger(__name__)

#: Which page each field goes on; fields not listed go on "Other".
PAGES: dict[str, list[str]] = {
    "Privacy": ["risk_lambda", "privacy_profile", "approval_policy", "allow_list", "deny_list"],
    "Detection": ["detect_min_score", "fusion_single_view_min", "agent_view"],
    "Local model": ["local_model_path", "n_gpu_layers", "n_ctx", "n_threads"],
    "Cloud": ["cloud_base_url", "cloud_model", "cloud_timeout_s", "cloud_max_retries"],
    "Answers": [
        "chat_integration",
        "draft_integration",
        "capable_model_b",
        "private_note",
        "merge_min_similarity",
    ],
    "GAMA": [
        "gama_auto_prompt",
        "gama_domain_rules",
        "gama_disproof",
        "gama_top_k",
        "gama_balance",
        "gama_disproof_rounds",
    ],
}
HIDDEN = {"schema_version", "first_run_done"}

PREVIEW_SAMPLE = (
    "Hi Dr. Marguerite Okafor,\n\n"
    "Harold Brennan (DOB 03/14/1951) is still short of breath when he climbs stairs. "
    "What questions should we ask at the cardiology follow-up?\n\n"
    "You can reach me at 412-555-0196.\n\nBest,\nTom Brennan"
)


def _bounds(info: FieldInfo) -> tuple[float | None, float | None]:
    lo = hi = None
    for m in info.metadata:
        lo = getattr(m, "ge", lo)
        hi = getattr(m, "le", hi)
    return lo, hi


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """(the inner type, whether None is allowed) of ``X | None``."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and type(None) in args:
        inner = [a for a in args if a is not type(None)]
        return inner[0], True
    return annotation, False


class FieldEditor(QObject):
    """Binds one settings field to its widget: ``value()``, ``set_value()``, ``changed``."""

    #: Emitted when the person changes the value.
    changed = Signal()

    def __init__(self, name: str, info: FieldInfo, parent: QWidget) -> None:
        super().__init__(parent)
        self.name = name
        self.info = info
        self.kind, self.optional = _unwrap(info.annotation)
        self.widget = self._build(parent)
        if info.description:
            self.widget.setToolTip(info.description)
        self.widget.setAccessibleName(info.title or name)

    def _build(self, parent: QWidget) -> QWidget:
        kind = self.kind
        lo, hi = _bounds(self.info)
        if kind is bool:
            w: Any = QCheckBox(parent)
            w.toggled.connect(self.changed)
        elif isinstance(kind, type) and issubclass(kind, Enum):
            w = QComboBox(parent)
            for member in kind:
                w.addItem(str(member.value).replace("_", " ").capitalize(), member)
            w.currentIndexChanged.connect(self.changed)
        elif kind is int:
            w = QSpinBox(parent)
            lo_i = int(lo) if lo is not None else -(10**6)
            w.setRange(lo_i - 1 if self.optional else lo_i, int(hi) if hi is not None else 10**6)
            if self.optional:
                w.setSpecialValueText("Automatic")
            w.valueChanged.connect(self.changed)
        elif kind is float:
            w = QDoubleSpinBox(parent)
            w.setRange(lo if lo is not None else -1e6, hi if hi is not None else 1e6)
            span = (hi or 1) - (lo or 0)
            w.setDecimals(2)
            w.setSingleStep(0.05 if span <= 1 else 1.0)
            w.valueChanged.connect(self.changed)
        elif typing.get_origin(kind) is list:
            w = QPlainTextEdit(parent)
            w.setPlaceholderText("One per line")
            w.setFixedHeight(78)
            w.textChanged.connect(self.changed)
        else:
            w = QLineEdit(parent)
            if self.optional:
                w.setPlaceholderText("Default")
            w.textChanged.connect(self.changed)
        return w

    def value(self) -> Any:
        w = self.widget
        if isinstance(w, QCheckBox):
            return w.isChecked()
        if isinstance(w, QComboBox):
            return w.currentData()
        if isinstance(w, QSpinBox):
            return None if self.optional and w.value() == w.minimum() else w.value()
        if isinstance(w, QDoubleSpinBox):
            return w.value()
        if isinstance(w, QPlainTextEdit):
            return [line.strip() for line in w.toPlainText().splitlines() if line.strip()]
        assert isinstance(w, QLineEdit)
        text = w.text().strip()
        return (text or None) if self.optional else text

    def set_value(self, value: Any) -> None:
        w = self.widget
        if isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        elif isinstance(w, QComboBox):
            w.setCurrentIndex(max(0, w.findData(value)))
        elif isinstance(w, QSpinBox):
            w.setValue(w.minimum() if value is None else int(value))
        elif isinstance(w, QDoubleSpinBox):
            w.setValue(float(value))
        elif isinstance(w, QPlainTextEdit):
            w.setPlainText("\n".join(value or []))
        elif isinstance(w, QLineEdit):
            w.setText("" if value is None else str(value))


class RiskSlider(QWidget):
    """The lambda risk slider: 0 shares what is useful, 10 keeps anything doubtful here."""

    #: Emitted with the new lambda.
    valueChanged = Signal(float)

    def __init__(self, info: FieldInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lo, hi = _bounds(info)
        self._lo, self._hi = float(lo or 0.0), float(hi or 10.0)
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setRange(int(self._lo * 10), int(self._hi * 10))
        self.slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.slider.setTickInterval(10)
        self.slider.setPageStep(10)
        self.slider.setAccessibleName(info.title or "Privacy (lambda)")
        self.slider.setToolTip(info.description or "")
        self.value_label = QLabel()
        self.value_label.setMinimumWidth(60)
        left = QLabel("Share more\n(better answers)")
        right = QLabel("Keep more here\n(more private)")
        right.setAlignment(Qt.AlignmentFlag.AlignRight)
        for lab in (left, right):
            lab.setObjectName("hint")
        lay = field_layout(self, self.slider, [self.value_label])
        ends = QHBoxLayout()
        ends.addWidget(left)
        ends.addStretch(1)
        ends.addWidget(right)
        lay.addLayout(ends)
        self.slider.valueChanged.connect(self._changed)

    def value(self) -> float:
        return self.slider.value() / 10

    def set_value(self, v: float) -> None:
        self.slider.setValue(round(v * 10))
        self._changed()

    def _changed(self, *_: object) -> None:
        self.value_label.setText(f"λ = {self.value():.1f}")
        self.valueChanged.emit(self.value())


class PolicyTable(QWidget):
    """What the type policy protects at the slider's level: a row per kind of value.

    Direct identifiers are always protected; each quasi-identifier has the level
    from which it is protected; public entities leave below the top of the
    slider (see :mod:`core.policy`). The table follows the slider as it moves.
    """

    def __init__(self, risk_lambda: float, parent: QWidget | None = None) -> None:
        from core.policy import PUBLIC_MAX, QUASI_THRESHOLDS

        super().__init__(parent)
        rows: list[tuple[str, float | None, str]] = [
            ("names of people, contact details, ID and account numbers, addresses, "
             "exact dates and dates of birth, credentials", None, "direct identifiers"),
            *((kind, t, "quasi-identifier") for kind, t in sorted(QUASI_THRESHOLDS.items(), key=lambda x: x[1])),
            ("public companies, brands, countries, universities, agencies", PUBLIC_MAX, "public"),
        ]
        self._rows = rows
        self.table = QTableWidget(len(rows), 3, self)
        self.table.setHorizontalHeaderLabels(["Kind of value", "Protected from level", "At this level"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        self.table.setAccessibleName("What is protected at this privacy level")
        for i, (kind, threshold, family) in enumerate(rows):
            item = QTableWidgetItem(kind)
            item.setToolTip(f"{kind}: {family}")
            self.table.setItem(i, 0, item)
            self.table.setItem(i, 1, QTableWidgetItem("always" if threshold is None else f"{threshold:g}"))
        # The kind column takes the room that is left (a long kind is elided, its
        # tooltip whole); the level and the verdict keep their width, so nothing
        # hides behind a scroll bar.
        header = self.table.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        height = self.table.verticalHeader().length() + header.height() + 4
        self.table.setFixedHeight(height)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.table)
        self.set_risk_lambda(risk_lambda)

    def set_risk_lambda(self, value: float) -> None:
        from core.policy import GENERALIZE_UNTIL

        for i, (kind, threshold, _family) in enumerate(self._rows):
            protected = threshold is None or value >= threshold
            text = "protected" if protected else "sent as written"
            if protected and kind in _GENERALIZED and value < GENERALIZE_UNTIL:
                text = f"generalized ({_GENERALIZED[kind]})"
            item = QTableWidgetItem(text)
            item.setForeground(COLORS.entity if protected else COLORS.sent)
            self.table.setItem(i, 2, item)

    def protected_at(self, row: int) -> bool:
        """True when the row's values do not leave as written at the current level."""
        item = self.table.item(row, 2)
        return item is not None and item.text() != "sent as written"


#: Kinds the policy generalizes before it hides them, and how.
_GENERALIZED = {"age": "as a range, e.g. 5-9", "date of an event": "as its month"}


class GgufPicker(QWidget):
    """A GGUF file field with Browse and a validation line (the header is read in a worker)."""

    #: Emitted when the path changes.
    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.line = QLineEdit(self)
        self.line.setPlaceholderText("Embedded SmolLM2-135M-Instruct (default)")
        browse = QPushButton("Browse…", self)
        browse.clicked.connect(self._browse)
        clear = QPushButton("Use default", self)
        clear.clicked.connect(lambda: self.line.setText(""))
        self.status = QLabel("", self)
        self.status.setObjectName("hint")
        self.status.setWordWrap(True)
        field_layout(self, self.line, [browse, clear], self.status)
        self.valid: bool | None = None
        self._worker: Worker | None = None
        self.line.textChanged.connect(self._validate)
        self.line.textChanged.connect(self.changed)

    def value(self) -> str | None:
        return self.line.text().strip() or None

    def set_value(self, v: str | None) -> None:
        self.line.setText(v or "")
        self._validate()

    def _browse(self) -> None:
        current = self.value()
        start = str(Path(current).parent) if current else str(Path.home())
        path, _ = QFileDialog.getOpenFileName(
            self, "Choose a GGUF model", start, "GGUF models (*.gguf);;All files (*)"
        )
        if path:
            self.line.setText(path)

    def _validate(self) -> None:
        path = self.value()
        if path is None:
            self.valid = True
            self.status.setText("The embedded model is used (small, fast, English).")
            return
        self.valid = None
        self.status.setText("Checking the file…")
        if self._worker is not None:
            self._worker.cancel()
        self._worker = run_in_thread(
            check_gguf,
            path,
            on_return=functools.partial(self._checked, path, True),
            on_error=functools.partial(self._failed, path),
            name="gguf-check",
        )

    def _failed(self, path: str, exc: BaseException) -> None:
        self._checked(path, False, getattr(exc, "message", str(exc)))

    def _checked(self, path: str, ok: bool, message: str) -> None:
        if path != self.value():
            return  # the person typed on; a newer check is running
        self.valid = ok
        self.status.setText(("✔ " if ok else "✖ ") + message)
        self.status.setStyleSheet("" if ok else "color: #c0392b;")


def check_gguf(path: str) -> str:
    """Read a GGUF header; returns a one-line description or raises ModelLoadError."""
    from core.llm.gguf_file import read_gguf

    info = read_gguf(path)
    size = info.file_size / 2**20
    ctx = f", context {info.context_length:,}" if info.context_length else ""
    return f"{info.name} ({info.architecture}, {size:,.0f} MiB{ctx})"


def gpu_available() -> bool:
    """Whether llama.cpp was built with GPU offload (CUDA, Metal, Vulkan...)."""
    import llama_cpp

    return bool(llama_cpp.llama_supports_gpu_offload())


class ApiKeyField(QWidget):
    """The cloud API key of an endpoint: shows only a masked form; typing replaces it."""

    def __init__(
        self, base_url: str, parent: QWidget | None = None, vault: SecretVault | None = None
    ) -> None:
        super().__init__(parent)
        self.base_url = base_url
        self.vault = vault  # the open store: holds the key where no keyring exists
        self.line = QLineEdit(self)
        self.line.setEchoMode(QLineEdit.EchoMode.Password)
        self.line.setAccessibleName("Cloud API key")
        self.remove = QPushButton("Remove", self)
        self.remove.clicked.connect(self._remove)
        self.note = QLabel(self)
        self.note.setObjectName("hint")
        field_layout(self, self.line, [self.remove], self.note)
        self.removed = False
        self._refresh()

    def _refresh(self) -> None:
        current = None if self.removed else keys.load_api_key(self.base_url, self.vault)
        where = keys.where_kept(self.vault)
        self.line.clear()
        if current:
            self.line.setPlaceholderText(f"{keys.masked(current)}  (type to replace)")
            self.note.setText(f"Stored in {where}; never written to the settings file.")
        else:
            self.line.setPlaceholderText(f"Paste an API key (kept in {where})")
            self.note.setText("No key stored. Local servers often need none.")
        self.remove.setEnabled(bool(current))

    def _remove(self) -> None:
        self.removed = True
        self._refresh()

    def new_key(self) -> str | None:
        return self.line.text().strip() or None

    def commit(self, base_url: str) -> bool:
        """Write the change to the keyring for ``base_url``; True if the key changed.

        A key typed for an endpoint whose URL was just edited belongs to the new URL.
        """
        new = self.new_key()
        if new:
            keys.save_api_key(base_url, new, self.vault)
            return True
        if self.removed:
            keys.delete_api_key(self.base_url, self.vault)
            return True
        return False


class SettingsDialog(QDialog):
    """Edits a copy of the settings; :meth:`result_settings` gives the validated result."""

    def __init__(
        self,
        settings: Settings,
        *,
        analyze: AnalyzeFn | None = None,
        preview_text: str = "",
        choices: Choices | None = None,
        pool: QThreadPool | None = None,
        cloud_note: str = "",
        parent: QWidget | None = None,
        vault: SecretVault | None = None,
    ) -> None:
        super().__init__(parent)
        self._cloud_note = cloud_note
        self._vault = vault
        self.setWindowTitle("Settings")
        self.setObjectName("settings-dialog")
        self.resize(820, 640)
        self._original = settings
        self.api_key_changed = False
        self.editors: dict[str, FieldEditor] = {}
        fields = {n: f for n, f in Settings.model_fields.items() if n not in HIDDEN}

        self.tabs = QTabWidget(self)
        placed: set[str] = set()
        for page, names in PAGES.items():
            names = [n for n in names if n in fields]
            placed.update(names)
            self.tabs.addTab(
                self._page(page, names, fields, analyze, preview_text, choices, pool), page
            )
        rest = [n for n in fields if n not in placed]
        if rest:
            self.tabs.addTab(self._page("Other", rest, fields, None, "", None, None), "Other")
        # The model manager; "Use" there fills the Local model field, applied on OK.
        from ui.models_page import ModelsPage

        self.models = ModelsPage(settings, parent=self)
        self.tabs.addTab(self.models, "Models")
        self.models.modelChosen.connect(lambda path: self.gguf.set_value(path))
        self.gguf.changed.connect(lambda: self.models.set_current(self.gguf.value()))
        self.finished.connect(self.models.shutdown)

        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok
            | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.RestoreDefaults,
            self,
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        restore = buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults)
        restore.clicked.connect(self.restore_defaults)
        lay = QVBoxLayout(self)
        lay.addWidget(self.tabs, 1)
        lay.addWidget(buttons)
        self._load(settings)

    # --- pages ------------------------------------------------------------

    def _page(
        self,
        page: str,
        names: list[str],
        fields: dict[str, FieldInfo],
        analyze: AnalyzeFn | None,
        preview_text: str,
        choices: Choices | None,
        pool: QThreadPool | None,
    ) -> QWidget:
        inner = QWidget()
        lay = QVBoxLayout(inner)
        lay.setContentsMargins(16, 14, 16, 14)
        lay.setSpacing(10)
        intro = {
            "Privacy": "How much may leave this machine, and when you are asked first.",
            "Detection": "How private details are found. Lower thresholds protect more.",
            "Local model": "The model that answers on this machine and keeps private sentences here.",
            "Cloud": "Any OpenAI-compatible endpoint. Only anonymized text is ever sent to it.",
            "Answers": "How the cloud's answer becomes yours.",
            "GAMA": "Optional reasoning modes on the cloud side (GAMA's public space). Each adds "
            "requests; every one goes through the egress guard and shows in the ledger.",
        }.get(page)
        if intro:
            label = QLabel(intro)
            label.setObjectName("hint")
            label.setWordWrap(True)
            lay.addWidget(label)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        form.setVerticalSpacing(10)
        for name in names:
            info = fields[name]
            if name == "risk_lambda":
                self.risk = RiskSlider(info)
                widget: QWidget = self.risk
            elif name == "local_model_path":
                self.gguf = GgufPicker()
                widget = self.gguf
            else:
                ed = FieldEditor(name, info, inner)
                self.editors[name] = ed
                widget = ed.widget
            form.addRow(self._label(info, name), self._with_description(widget, info, name))
        if page == "Cloud":
            self.api_key = ApiKeyField(self._original.cloud_base_url, vault=self._vault)
            form.addRow(QLabel("API key"), self.api_key)
            if self._cloud_note:
                note = QLabel(self._cloud_note)
                note.setObjectName("banner")
                note.setWordWrap(True)
                lay.addWidget(note)
        if page == "Local model":
            self.gpu_label = QLabel("Checking for a GPU…")
            self.gpu_label.setObjectName("hint")
            form.addRow(QLabel("GPU"), self.gpu_label)
            run_in_thread(
                gpu_available,
                on_return=lambda ok: self.gpu_label.setText(
                    "Found: llama.cpp can offload layers to the GPU."
                    if ok
                    else "None found: this llama.cpp build runs on the CPU."
                ),
                on_error=lambda exc: self.gpu_label.setText("Unknown (llama.cpp not available)."),
                name="gpu-check",
            )
        lay.addLayout(form)
        if page == "Privacy":
            policy_box = QGroupBox("What leaves as written at this level (the type policy)")
            play = QVBoxLayout(policy_box)
            self.policy_table = PolicyTable(self._original.risk_lambda)
            play.addWidget(self.policy_table)
            lay.addWidget(policy_box)
            self.risk.valueChanged.connect(self.policy_table.set_risk_lambda)
            box = QGroupBox("Preview: how the text in the editor would be routed")
            blay = QVBoxLayout(box)
            self.preview = RoutingEditor(
                analyze,
                risk_lambda=self._original.risk_lambda,
                read_only=True,
                debounce_ms=120,
                pool=pool,
            )
            self.preview.setObjectName("settings-preview")
            if choices is not None:
                self.preview.choices = choices.copy()
            self.preview.set_text((preview_text.strip() and preview_text) or PREVIEW_SAMPLE)
            self.preview.setMinimumHeight(220)
            blay.addWidget(self.preview)
            lay.addWidget(box, 1)
            self.risk.valueChanged.connect(self.preview.set_risk_lambda)
            profile = self.editors.get("privacy_profile")
            if profile is not None:
                # The preview follows the profile chosen here, as the slider.
                self.preview.set_profile(str(self._original.privacy_profile))
                profile.changed.connect(lambda: self.preview.set_profile(str(profile.value())))
        else:
            lay.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(inner)
        return scroll

    @staticmethod
    def _label(info: FieldInfo, name: str) -> QLabel:
        label = QLabel(info.title or name.replace("_", " ").capitalize())
        label.setToolTip(info.description or "")
        return label

    @staticmethod
    def _with_description(widget: QWidget, info: FieldInfo, name: str) -> QWidget:
        if not info.description:
            return widget
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(widget)
        desc = QLabel(info.description)
        desc.setObjectName("hint")
        desc.setWordWrap(True)
        lay.addWidget(desc)
        return box

    # --- values -----------------------------------------------------------

    def _load(self, s: Settings) -> None:
        for name, ed in self.editors.items():
            ed.set_value(getattr(s, name))
        self.risk.set_value(s.risk_lambda)
        self.gguf.set_value(s.local_model_path)

    def restore_defaults(self) -> None:
        self._load(Settings.model_construct())

    def values(self) -> dict[str, Any]:
        data = {name: ed.value() for name, ed in self.editors.items()}
        data["risk_lambda"] = self.risk.value()
        data["local_model_path"] = self.gguf.value()
        return data

    def result_settings(self) -> Settings:
        """The edited settings, validated (raises pydantic's ValidationError)."""
        merged = self._original.model_dump()
        merged.update(self.values())
        return Settings.model_validate(merged)

    def accept(self) -> None:
        if self.gguf.valid is False:
            self.tabs.setCurrentIndex(list(PAGES).index("Local model"))
            self.gguf.status.setFocus()
            return
        try:
            self.result_settings()
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"])
            from core.errors import InputError

            report(InputError(f"The setting “{field}” is not valid: {first['msg']}."), self)
            return
        try:
            self.api_key_changed = self.api_key.commit(self.values()["cloud_base_url"])
        except Exception as exc:
            report(exc, self)
            return
        self.preview.cancel()
        super().accept()

    def reject(self) -> None:
        self.preview.cancel()
        super().reject()
