"""The Models page of Settings: the catalogue with fits and the GPU status, a download
with progress and Cancel in a worker (the embedded GGUF served from loopback),
import, use (through the dialog's OK) and remove."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from core.llm import catalog
from core.llm import modelfile as dl
from core.llm.catalog import CatalogEntry
from core.llm.library import Library, models_dir
from core.llm.local import embedded_model_path
from core.settings import Settings
from tests.model_server import ModelServer
from ui.errors import ERROR_BOX_NAME
from ui.models_page import EMBEDDED_TITLE, ModelsPage
from ui.settings_dialog import SettingsDialog

from .conftest import find_dialog

TIMEOUT = 60_000


@pytest.fixture(scope="module")
def model_bytes() -> bytes:
    return embedded_model_path().read_bytes()


@pytest.fixture
def server(model_bytes: bytes, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModelServer]:
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    with ModelServer(model_bytes) as s:
        yield s


@pytest.fixture
def smol(server: ModelServer, model_bytes: bytes, monkeypatch: pytest.MonkeyPatch) -> CatalogEntry:
    entry = replace(
        catalog.CATALOG[0],
        name="smol-test",
        title="Smol Test",
        filename="smol-test.gguf",
        size=len(model_bytes),
        sha256=hashlib.sha256(model_bytes).hexdigest(),
    )
    monkeypatch.setattr(CatalogEntry, "url", property(lambda e: server.url(e.filename)))
    monkeypatch.setattr(catalog, "CATALOG", (entry, *catalog.CATALOG))
    return entry


@pytest.fixture
def page(qtbot: Any) -> Iterator[ModelsPage]:
    p = ModelsPage(Settings())
    qtbot.addWidget(p)
    p.show()
    qtbot.waitUntil(lambda: p.machine is not None, timeout=TIMEOUT)
    yield p
    p.shutdown()


def cell(page: ModelsPage, name: str, column: str) -> str:
    from ui.models_page import COLUMNS

    item = page.table.item(page.row_of(name), COLUMNS.index(column))
    assert item is not None
    return item.text()


def test_the_page_lists_the_catalogue_with_what_each_needs(page: ModelsPage) -> None:
    names = [r.name for r in page.rows()]
    assert names[0] == "embedded" and names[1:7] == [e.name for e in catalog.CATALOG]
    assert cell(page, "embedded", "Model") == EMBEDDED_TITLE and cell(page, "embedded", "Status") == "In use"
    assert cell(page, "embedded", "RAM") == "0.2 GiB" and cell(page, "embedded", "This machine") == "CPU"
    e = catalog.find("qwen2.5-7b-instruct")
    assert cell(page, e.name, "Download") == "4.68 GB"
    assert cell(page, e.name, "RAM") == cell(page, e.name, "VRAM") == "4.8 GiB"
    assert cell(page, e.name, "License") == "Apache-2.0"
    assert cell(page, e.name, "This machine") in ("CPU", "Too large")  # the probe ran
    assert cell(page, e.name, "Status") == "Not downloaded"
    gpu = page.gpu_label.text()
    assert "built for the CPU only" in gpu and "0 of 31" in gpu and "-DGGML_CUDA=on" in gpu


def test_buttons_follow_the_selection(page: ModelsPage) -> None:
    page.select("embedded")
    assert page.use_btn.isEnabled() and not page.download_btn.isEnabled() and not page.remove_btn.isEnabled()
    page.select("llama-3.2-1b-instruct")
    assert page.download_btn.isEnabled() and not page.use_btn.isEnabled() and not page.cancel_btn.isEnabled()


def test_download_with_progress_in_a_worker_then_use(
    qtbot: Any, smol: CatalogEntry, server: ModelServer, page: ModelsPage, monkeypatch: pytest.MonkeyPatch
) -> None:
    page.refresh()
    threads: list[threading.Thread] = []
    real = page.library.download

    def download(*a: Any, **kw: Any) -> Any:
        threads.append(threading.current_thread())
        return (yield from real(*a, **kw))

    monkeypatch.setattr(page.library, "download", download)
    server.faults.delay = 0.003
    values: list[int] = []
    page.progress.valueChanged.connect(values.append)
    page.select("smol-test")
    page.download_btn.click()
    assert page.cancel_btn.isEnabled() and not page.download_btn.isEnabled()
    assert page.progress.isVisible()
    qtbot.waitUntil(lambda: page.job is None, timeout=TIMEOUT)
    assert threads and threads[0] is not threading.main_thread()
    assert values and values == sorted(values) and max(values) == 1000
    assert "is installed" in page.status.text()
    assert cell(page, "smol-test", "Status") == "Installed"
    assert (models_dir() / "smol-test.gguf").exists()

    with qtbot.waitSignal(page.modelChosen) as chosen:
        page.select("smol-test")
        page.use_btn.click()
    assert chosen.args == [str((models_dir() / "smol-test.gguf").resolve())]
    assert cell(page, "smol-test", "Status") == "In use"
    assert cell(page, "embedded", "Status") == "Built in"


def test_cancel_keeps_what_arrived_and_download_resumes(
    qtbot: Any, smol: CatalogEntry, server: ModelServer, page: ModelsPage
) -> None:
    page.refresh()
    # The server holds the second half until the download is cancelled: the cancel
    # lands in the middle whatever the machine's speed (the next bytes find it).
    server.hold(len(server.data) // 2)
    page.select("smol-test")
    page.download_btn.click()
    qtbot.waitUntil(lambda: page.progress.value() > 50, timeout=TIMEOUT)
    page.cancel_btn.click()
    server.release()
    qtbot.waitUntil(lambda: page.job is None, timeout=TIMEOUT)
    assert "cancelled" in page.status.text() and "resumes" in page.status.text()
    assert cell(page, "smol-test", "Status").startswith("Paused at ")
    kept = dl.partial_path(models_dir(), "smol-test.gguf").stat().st_size
    assert 0 < kept < len(server.data) and not (models_dir() / "smol-test.gguf").exists()

    server.requests.clear()
    page.select("smol-test")
    page.download_btn.click()
    qtbot.waitUntil(lambda: page.job is None, timeout=TIMEOUT)
    assert server.requests[0].headers["Range"] == f"bytes={kept}-"
    assert cell(page, "smol-test", "Status") == "Installed"


def test_a_failed_download_is_shown_and_leaves_nothing(
    qtbot: Any, smol: CatalogEntry, server: ModelServer, page: ModelsPage
) -> None:
    page.refresh()
    server.faults.missing = {"smol-test.gguf"}
    page.select("smol-test")
    page.download_btn.click()
    qtbot.waitUntil(lambda: page.job is None, timeout=TIMEOUT)
    box = find_dialog(QMessageBox)
    assert box is not None and box.objectName() == ERROR_BOX_NAME
    assert "HTTP 404" in box.informativeText()
    box.close()
    assert cell(page, "smol-test", "Status") == "Not downloaded"


def test_import_then_remove(qtbot: Any, page: ModelsPage, tmp_path: Path, model_bytes: bytes) -> None:
    src = tmp_path / "Mine.gguf"
    src.write_bytes(model_bytes)
    page.import_file(str(src))
    qtbot.waitUntil(lambda: page.job is None, timeout=TIMEOUT)
    assert cell(page, "mine", "Status") == "Installed (import)"
    page.select("mine")
    page.remove(confirm=False)
    assert "mine" not in [r.name for r in page.rows()]
    assert Library().installed() == []


def test_use_in_the_dialog_is_applied_by_ok(qtbot: Any, tmp_path: Path, model_bytes: bytes) -> None:
    src = tmp_path / "mine.gguf"
    src.write_bytes(model_bytes)
    from tests.model_server import drain

    drain(Library().import_file(src))
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.show()
    tabs = [dialog.tabs.tabText(i) for i in range(dialog.tabs.count())]
    assert tabs[-1] == "Models" and tabs.index("Local model") == 2  # other tabs keep their places
    dialog.models.select("mine")
    dialog.models.use_btn.click()
    path = str((models_dir() / "mine.gguf").resolve())
    assert dialog.gguf.value() == path
    assert dialog.result_settings().local_model_path == path
    dialog.gguf.set_value(None)  # the Local model field, changed by hand, shows on the page
    assert dialog.models.current is None
    dialog.reject()


def test_the_model_in_use_cannot_be_removed_under_the_running_app(
    qtbot: Any, tmp_path: Path, model_bytes: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.model_server import drain

    m, _ = drain(Library().import_file(_write(tmp_path / "m.gguf", model_bytes)))
    p = ModelsPage(Settings(local_model_path=str(m.path)))
    qtbot.addWidget(p)
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda parent, title, text: shown.append(text))
    p.select("m")
    p.remove(confirm=False)
    assert shown and "in use" in shown[0] and m.path.exists()
    qtbot.waitUntil(lambda: p.machine is not None, timeout=TIMEOUT)
    p.shutdown()


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_the_window_worker_hands_its_cancel_to_a_library_download() -> None:
    # ui.workers.Worker passes its cancel event only to a parameter named "cancel";
    # hidden in **transfer, a Cancel reached the download only at its next progress
    # report (a few per second), so a fast download could finish first.
    import inspect

    from core.llm.library import Library

    assert "cancel" in inspect.signature(Library.download).parameters
    assert "cancel" in inspect.signature(Library.import_file).parameters
