"""The first-run guide's third way to a local model: a recommended model downloaded on
the spot (the embedded GGUF served from loopback as a catalogue entry)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from core.llm import catalog
from core.llm import modelfile as dl
from core.llm.catalog import CatalogEntry
from core.llm.library import models_dir
from core.llm.local import embedded_model_path
from core.settings import Settings
from tests.model_server import ModelServer
from ui.first_run import FirstRunGuide, LocalModelPage

TIMEOUT = 60_000


@pytest.fixture
def smol(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[CatalogEntry, ModelServer]]:
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    data = embedded_model_path().read_bytes()
    with ModelServer(data) as server:
        entry = replace(
            catalog.CATALOG[0],
            name="smol-test",
            title="Smol Test",
            filename="smol-test.gguf",
            size=len(data),
            sha256=hashlib.sha256(data).hexdigest(),
        )
        monkeypatch.setattr(CatalogEntry, "url", property(lambda e: server.url(e.filename)))
        monkeypatch.setattr(catalog, "CATALOG", (entry, *catalog.CATALOG))
        yield entry, server


def test_a_recommended_model_is_ready_once_downloaded_and_checked(qtbot: Any, smol: Any) -> None:
    _, server = smol
    page = LocalModelPage(Settings())
    qtbot.addWidget(page)
    picker = page.catalog
    assert picker.combo.itemData(0) == "smol-test" and picker.combo.count() == 7
    assert not picker.isEnabled()  # live only when its choice is selected
    page.select("recommended")
    assert picker.isEnabled() and not page.isComplete() and page.model_path() is None
    assert "Not downloaded yet" in picker.status.text() and "nothing of yours is sent" in picker.status.text()

    server.faults.delay = 0.002
    with qtbot.waitSignal(page.completeChanged, timeout=TIMEOUT, check_params_cb=lambda *a: page.isComplete()):
        picker.download_btn.click()
        assert not page.isComplete() and picker.cancel_btn.isEnabled()
    path = str((models_dir() / "smol-test.gguf").resolve())
    assert page.model_path() == path
    assert picker.status.text().startswith("✔ Installed and checked")


def test_cancel_leaves_the_choice_unfinished_and_the_guide_uses_the_model_once_it_is_there(
    qtbot: Any, smol: Any
) -> None:
    _, server = smol
    guide = FirstRunGuide(Settings(), None)
    qtbot.addWidget(guide)
    page = guide.local
    page.select("recommended")
    # The server holds the second half until the download is cancelled: the cancel
    # lands in the middle whatever the machine's speed (the next bytes find it).
    server.hold(len(server.data) // 2)
    page.catalog.download_btn.click()
    qtbot.waitUntil(lambda: page.catalog.progress.value() > 100, timeout=TIMEOUT)
    page.catalog.cancel_btn.click()
    server.release()
    qtbot.waitUntil(lambda: page.catalog.job is None, timeout=TIMEOUT)
    assert not page.isComplete()
    assert "Paused; Download resumes it" in page.catalog.status.text()
    assert dl.partial_path(models_dir(), "smol-test.gguf").exists()

    page.catalog.download_btn.click()
    qtbot.waitUntil(lambda: page.isComplete(), timeout=TIMEOUT)
    assert guide.result_settings().local_model_path == str((models_dir() / "smol-test.gguf").resolve())
    guide.reject()
