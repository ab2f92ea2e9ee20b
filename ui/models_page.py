"""The Models page of Settings: recommended models, downloads, imports, the GPU status.

A table lists the embedded model, the catalogue of recommended GGUF models
(:mod:`core.llm.catalog`: download size, RAM and VRAM needed at the current
context size, license, whether it fits this machine) and any other model in
the models folder. Download, Import… and Remove run in a worker with a
progress bar (bytes, speed, time left) and a Cancel button; a cancelled
download keeps what arrived and resumes next time. "Use" does not switch the
running model at once: it sets the Local model field of the dialog, which
takes effect with OK, like every other setting.

Below the table, the GPU offload status (:mod:`core.llm.gpu`): whether
llama.cpp was built with GPU offload, the layers on the GPU, the VRAM in use,
and how to rebuild for CUDA or Metal. Probing the machine (``nvidia-smi``,
free memory) runs in a worker too.

Downloads fetch public files and send nothing else (see
:mod:`core.llm.download`); the page says so.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.errors import Cancelled
from core.llm import catalog
from core.llm.catalog import CatalogEntry, Machine, assess
from core.llm.library import Installed, Library
from core.settings import Settings
from ui.errors import report
from ui.workers import Worker, run_in_thread

log = logging.getLogger(__name__)

COLUMNS = ("Model", "Download", "RAM", "VRAM", "License", "This machine", "Status")
_WHERE = {"gpu": "GPU", "cpu": "CPU", "too_large": "Too large", "unknown": "Unknown"}
EMBEDDED_TITLE = "SmolLM2-135M-Instruct (built in)"


@dataclass(frozen=True)
class Row:
    """What one table row stands for."""

    kind: str  # "embedded", "catalog" or "installed"
    name: str
    entry: CatalogEntry | None = None
    installed: Installed | None = None
    partial: bool = False


def probe(settings: Settings, current: str | None) -> tuple[Machine, Any]:
    """The machine and the GPU status for ``current`` (run in a worker: it may call nvidia-smi)."""
    from core.llm.catalog import probe_machine
    from core.llm.gpu import gpu_status

    return probe_machine(), gpu_status(current, settings.n_gpu_layers, n_ctx=settings.n_ctx)


def _gib(n: int) -> str:
    return f"{n / 2**30:.1f} GiB"


def _mb(n: int) -> str:
    return f"{n / 1e6:,.0f} MB" if n < 1e9 else f"{n / 1e9:.2f} GB"


class ModelsPage(QWidget):
    """Recommended and installed models, with download, import, use and remove."""

    #: Emitted with the chosen model's path (None = the embedded model) when the
    #: person presses Use or removes the chosen model; the dialog applies it on OK.
    modelChosen = Signal(object)

    def __init__(
        self,
        settings: Settings,
        *,
        library: Library | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("models-page")
        self.settings = settings
        self.library = library or Library()
        #: The model the dialog will save (the Local model field); starts as the saved one.
        self.current: str | None = settings.local_model_path
        self.machine: Machine | None = None
        self.job: Worker | None = None
        self._job_name = ""
        self._needs: dict[tuple[str, int], int] = {}

        intro = QLabel(
            "Models that run on this machine. Memory is estimated for the context size in "
            "Local model. Downloads fetch public files from Hugging Face, check their sha256 "
            "and send nothing else: no text of yours ever goes with them."
        )
        intro.setObjectName("hint")
        intro.setWordWrap(True)

        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("models-table")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for i in range(1, len(COLUMNS)):
            header.setSectionResizeMode(i, QHeaderView.ResizeMode.ResizeToContents)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.setAccessibleName("Local models")

        self.download_btn = QPushButton("Download", self)
        self.cancel_btn = QPushButton("Cancel", self)
        self.import_btn = QPushButton("Import…", self)
        self.use_btn = QPushButton("Use", self)
        self.remove_btn = QPushButton("Remove", self)
        self.download_btn.clicked.connect(self.download)
        self.cancel_btn.clicked.connect(self.cancel)
        self.import_btn.clicked.connect(self.import_file)
        self.use_btn.clicked.connect(self.use)
        self.remove_btn.clicked.connect(self.remove)
        buttons = QHBoxLayout()
        for b in (self.download_btn, self.cancel_btn, self.import_btn):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.use_btn)
        buttons.addWidget(self.remove_btn)

        self.progress = QProgressBar(self)
        self.progress.setObjectName("model-progress")
        self.progress.setVisible(False)
        self.status = QLabel("", self)
        self.status.setObjectName("hint")
        self.status.setWordWrap(True)

        gpu_box = QGroupBox("GPU offload", self)
        self.gpu_label = QLabel("Checking the GPU…", gpu_box)
        self.gpu_label.setObjectName("gpu-status")
        self.gpu_label.setWordWrap(True)
        self.gpu_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        gl = QVBoxLayout(gpu_box)
        gl.addWidget(self.gpu_label)

        folder = QLabel(f"Models folder: {self.library.root}", self)
        folder.setObjectName("hint")
        folder.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(16, 14, 16, 14)
        lay.addWidget(intro)
        lay.addWidget(self.table, 1)
        lay.addLayout(buttons)
        lay.addWidget(self.progress)
        lay.addWidget(self.status)
        lay.addWidget(gpu_box)
        lay.addWidget(folder)

        self.refresh()
        self._probe_worker: Worker | None = run_in_thread(
            probe,
            settings,
            self.current,
            on_return=self._probed,
            on_error=self._probe_failed,
            name="models-probe",
        )

    # --- the table -------------------------------------------------------------------

    def _row(self, index: int) -> Row:
        item = self.table.item(index, 0)
        assert item is not None
        row: Row = item.data(Qt.ItemDataRole.UserRole)
        return row

    def rows(self) -> list[Row]:
        """The rows as shown, top to bottom."""
        return [self._row(i) for i in range(self.table.rowCount())]

    def row_of(self, name: str) -> int:
        for i, row in enumerate(self.rows()):
            if row.name == name:
                return i
        raise KeyError(name)

    def select(self, name: str) -> None:
        self.table.selectRow(self.row_of(name))

    def selected(self) -> Row | None:
        rows = self.table.selectionModel().selectedRows()
        return self._row(rows[0].row()) if rows else None

    def _in_use(self, path: Path | None) -> bool:
        if path is None:
            return self.current is None
        return self.current is not None and _same(Path(self.current), path)

    def refresh(self) -> None:
        """Rebuild the table from the catalogue and the models folder."""
        chosen = self.selected()
        installed = self.library.installed()
        partials = {p.filename: p for p in self.library.partials()}
        n_ctx = self.settings.n_ctx
        rows: list[tuple[Row, list[str]]] = []
        from core.llm.local import embedded_model_path

        embedded = embedded_model_path()
        need = self._need(embedded)
        rows.append(
            (
                Row("embedded", "embedded"),
                [EMBEDDED_TITLE, _mb(embedded.stat().st_size), _gib(need), _gib(need), "Apache-2.0",
                 self._fit(need), "In use" if self._in_use(None) else "Built in"],
            )
        )
        for e in catalog.CATALOG:
            have = next((m for m in installed if m.entry is e or m.path.name == e.filename), None)
            part = partials.get(e.filename)
            if have is not None:
                status = "In use" if self._in_use(have.path) else "Installed"
            elif part is not None:
                status = f"Paused at {part.done * 100 // e.size}%"
            else:
                status = "Not downloaded"
            need = e.memory_needed(n_ctx)
            rows.append(
                (
                    Row("catalog", e.name, e, have, part is not None),
                    [f"{e.title} ({e.params}, {e.quant})", _mb(e.size), _gib(need), _gib(need),
                     e.license, self._fit(need), status],
                )
            )
        listed = {e.filename for e in catalog.CATALOG}
        for m in installed:
            if m.entry is None and m.path.name not in listed:
                need = self._need(m.path)
                rows.append(
                    (
                        Row("installed", m.name, None, m),
                        [m.name, _mb(m.size), _gib(need), _gib(need), "", self._fit(need),
                         "In use" if self._in_use(m.path) else f"Installed ({m.source})"],
                    )
                )
        self.table.setRowCount(len(rows))
        for i, (row, cells) in enumerate(rows):
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if j == 0:
                    item.setData(Qt.ItemDataRole.UserRole, row)
                    tip = row.entry.source if row.entry else ""
                    if row.entry:
                        tip = f"{row.entry.url}\nsha256 {row.entry.sha256}\nSource: {tip}"
                    item.setToolTip(tip)
                self.table.setItem(i, j, item)
        if chosen is not None:
            with_name = [i for i, r in enumerate(self.rows()) if r.name == chosen.name]
            if with_name:
                self.table.selectRow(with_name[0])
        self._update_buttons()

    def _need(self, path: Path) -> int:
        """Memory a model file needs at the current context (its header read once)."""
        key = (str(path), self.settings.n_ctx)
        if key not in self._needs:
            from core.errors import ModelLoadError
            from core.llm.gguf_file import read_gguf
            from core.llm.local import memory_needed

            try:
                self._needs[key] = memory_needed(read_gguf(path), self.settings.n_ctx)
            except (ModelLoadError, OSError):  # shown by its size; Use reports the problem
                self._needs[key] = path.stat().st_size if path.exists() else 0
        return self._needs[key]

    def _fit(self, needed: int) -> str:
        if self.machine is None:
            return "…"
        fit = assess(needed, self.machine)
        return _WHERE[str(fit.where)]

    def _update_buttons(self) -> None:
        row = self.selected()
        busy = self.job is not None
        self.download_btn.setEnabled(
            not busy and row is not None and row.kind == "catalog" and row.installed is None
        )
        self.cancel_btn.setEnabled(busy)
        self.import_btn.setEnabled(not busy)
        self.use_btn.setEnabled(
            not busy and row is not None and (row.kind == "embedded" or row.installed is not None)
        )
        self.remove_btn.setEnabled(
            not busy and row is not None and row.kind != "embedded"
            and (row.installed is not None or row.partial)
        )

    # --- probing ------------------------------------------------------------------------

    def _probed(self, result: tuple[Machine, Any]) -> None:
        self.machine, status = result
        self.gpu_label.setText("\n".join(status.lines()))
        self.refresh()

    def _probe_failed(self, exc: BaseException) -> None:
        log.warning("machine probe failed: %s", type(exc).__name__)
        self.gpu_label.setText("The GPU status could not be read.")

    # --- jobs -----------------------------------------------------------------------------

    def _start(self, name: str, fn: Any, *args: Any, **kwargs: Any) -> Worker:
        self._job_name = name
        self.progress.setVisible(True)
        self.progress.setRange(0, 0)
        self.status.setText(f"{name}…")
        self.job = run_in_thread(
            fn,
            *args,
            on_yield=self._progress,
            on_return=functools.partial(self._done, name),
            on_error=functools.partial(self._failed, name),
            on_finish=self._finished,
            name="model-job",
            **kwargs,
        )
        self._update_buttons()
        return self.job

    def _progress(self, p: Any) -> None:
        if p.total:
            # QProgressBar holds an int: per mille keeps 5 GB files in range.
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * p.done / p.total))
        self.status.setText(f"{self._job_name}: {p.describe()}")

    def _done(self, name: str, model: Installed) -> None:
        self.status.setText(f"{name}: done. {model.name} is installed; Use makes it the local model.")

    def _failed(self, name: str, exc: BaseException) -> None:
        if isinstance(exc, Cancelled):
            self.status.setText(f"{name}: cancelled. What arrived is kept; Download resumes it.")
            return
        self.status.setText(f"{name}: failed.")
        report(exc, self)

    def _finished(self) -> None:
        self.job = None
        self.progress.setVisible(False)
        self.refresh()

    def download(self) -> Worker | None:
        """Download the selected catalogue model (resuming a paused download)."""
        row = self.selected()
        if row is None or row.entry is None or self.job is not None:
            return None
        return self._start(f"Downloading {row.entry.title}", self.library.download, row.name)

    def import_file(self, path: str | None = None) -> Worker | None:
        """Copy a GGUF file into the models folder (asks for it when ``path`` is None)."""
        if self.job is not None:
            return None
        if not path:
            path, _ = QFileDialog.getOpenFileName(
                self, "Import a GGUF model", str(Path.home()), "GGUF models (*.gguf);;All files (*)"
            )
        if not path:
            return None
        return self._start(f"Importing {Path(path).name}", self.library.import_file, path)

    def cancel(self) -> None:
        """Stop the running download or import (a download keeps what arrived)."""
        _stop(self.job)

    def shutdown(self) -> None:
        """Stop background work (the dialog is closing)."""
        _stop(self.job, self._probe_worker)

    def use(self) -> None:
        """Choose the selected model as the local model (applied by the dialog's OK)."""
        row = self.selected()
        if row is None:
            return
        try:
            new = self.library.use(row.name, self.settings)
        except Exception as exc:
            report(exc, self)
            return
        self.set_current(new.local_model_path)
        self.modelChosen.emit(new.local_model_path)
        shown = "the built-in model" if row.kind == "embedded" else row.name
        self.status.setText(f"Local model: {shown}. Press OK to switch to it.")

    def set_current(self, path: str | None) -> None:
        """Mark ``path`` as the chosen local model (no signal: the dialog calls this)."""
        if path != self.current:
            self.current = path
            self.refresh()

    def remove(self, confirm: bool = True) -> None:
        """Delete the selected model (or its paused download) after asking."""
        row = self.selected()
        if row is None or row.kind == "embedded":
            return
        saved = self.settings.local_model_path
        if row.installed is not None and saved and _same(Path(saved), row.installed.path):
            QMessageBox.information(
                self,
                "Model in use",
                f"{row.name} is the local model in use. Choose another one and press OK first.",
            )
            return
        if confirm:
            answer = QMessageBox.question(
                self, "Remove model", f"Delete {row.name} from this machine?"
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        try:
            self.library.remove(row.name)
        except Exception as exc:
            report(exc, self)
            return
        if row.installed is not None and self._in_use(row.installed.path):
            self.set_current(None)
            self.modelChosen.emit(None)
        self.status.setText(f"Removed {row.name}.")
        self.refresh()


class CatalogPicker(QWidget):
    """A recommended model to download right here: a list, Download, Cancel, progress.

    The first-run guide offers it as one way to get a local model; it is ready
    once the chosen model is installed (checked against its sha256).
    """

    #: Emitted when :meth:`ready` may have changed (a download ended, another model chosen).
    changed = Signal()

    def __init__(
        self, settings: Settings, *, library: Library | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("catalog-picker")
        self.settings = settings
        self.library = library or Library()
        self.job: Worker | None = None
        self.combo = QComboBox(self)
        self.combo.setAccessibleName("Recommended model")
        self.download_btn = QPushButton("Download", self)
        self.cancel_btn = QPushButton("Cancel", self)
        self.progress = QProgressBar(self)
        self.progress.setVisible(False)
        self.status = QLabel("", self)
        self.status.setObjectName("hint")
        self.status.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.combo, 1)
        row.addWidget(self.download_btn)
        row.addWidget(self.cancel_btn)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(24, 0, 0, 0)
        lay.addLayout(row)
        lay.addWidget(self.progress)
        lay.addWidget(self.status)
        self.machine: Machine | None = None
        self._fill()
        self.combo.currentIndexChanged.connect(self._chosen)
        self.download_btn.clicked.connect(self.download)
        self.cancel_btn.clicked.connect(self.cancel)
        self._chosen()
        self._probe: Worker | None = run_in_thread(
            probe, settings, None, on_return=self._probed, on_error=lambda exc: None,
            name="catalog-probe",
        )

    def _fill(self) -> None:
        keep = self.combo.currentData()
        self.combo.blockSignals(True)
        self.combo.clear()
        for e in catalog.CATALOG:
            fit = ""
            if self.machine is not None:
                where = assess(e.memory_needed(self.settings.n_ctx), self.machine).where
                fit = {"gpu": ", fits the GPU", "cpu": ", runs on the CPU",
                       "too_large": ", too large here", "unknown": ""}[str(where)]
            self.combo.addItem(f"{e.title} ({_mb(e.size)}{fit})", e.name)
        if keep is not None:
            self.combo.setCurrentIndex(max(0, self.combo.findData(keep)))
        self.combo.blockSignals(False)

    def _probed(self, result: tuple[Machine, Any]) -> None:
        self.machine = result[0]
        self._fill()

    def entry(self) -> CatalogEntry:
        return catalog.find(str(self.combo.currentData()))

    def choose(self, name: str) -> None:
        self.combo.setCurrentIndex(self.combo.findData(name))

    def installed(self) -> Installed | None:
        return self.library.find_installed(self.entry().name)

    def path(self) -> str | None:
        """The chosen model's file once it is installed (None before)."""
        have = self.installed()
        return str(have.path.resolve()) if have is not None else None

    def ready(self) -> bool:
        return self.job is None and self.installed() is not None

    def _chosen(self) -> None:
        e = self.entry()
        have = self.installed()
        if have is not None:
            self.status.setText(f"✔ Installed and checked: {have.path.name}.")
        else:
            paused = any(p.filename == e.filename for p in self.library.partials())
            self.status.setText(
                f"{'Paused; Download resumes it' if paused else 'Not downloaded yet'} "
                f"({_mb(e.size)}, {e.license}; needs about "
                f"{_gib(e.memory_needed(self.settings.n_ctx))} of memory). Only the file is "
                "fetched; nothing of yours is sent."
            )
        self._buttons()
        self.changed.emit()

    def _buttons(self) -> None:
        busy = self.job is not None
        self.download_btn.setEnabled(not busy and self.installed() is None)
        self.cancel_btn.setEnabled(busy)
        self.combo.setEnabled(not busy)

    def download(self) -> Worker | None:
        """Download the chosen model in a worker."""
        if self.job is not None or self.installed() is not None:
            return None
        self.progress.setVisible(True)
        self.progress.setRange(0, 0)
        self.job = run_in_thread(
            self.library.download,
            self.entry().name,
            on_yield=self._progress,
            on_error=self._failed,
            on_finish=self._finished,
            name="catalog-download",
        )
        self._buttons()
        self.changed.emit()
        return self.job

    def _progress(self, p: Any) -> None:
        if p.total:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * p.done / p.total))
        self.status.setText(p.describe())

    def _failed(self, exc: BaseException) -> None:
        if not isinstance(exc, Cancelled):
            report(exc, self)

    def _finished(self) -> None:
        self.job = None
        self.progress.setVisible(False)
        self._chosen()

    def cancel(self) -> None:
        """Stop the download; what arrived is kept and Download resumes it."""
        _stop(self.job)

    def shutdown(self) -> None:
        """Stop background work (the guide is closing)."""
        _stop(self.job, self._probe)


def _stop(*workers: Worker | None) -> None:
    for w in workers:
        if w is not None:
            w.cancel()


def _same(a: Path, b: Path) -> bool:
    try:
        return a.expanduser().resolve() == b.resolve()
    except OSError:
        return False
