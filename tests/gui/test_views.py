"""Privacy box and ledger views, the first-run vault dialog, window state, the start-up."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from core.box import PrivacyBox
from core.entities import EntityType
from core.store import Store
from ui.store_views import LedgerView, PrivacyBoxView, format_payload
from ui.vault_dialog import VaultDialog, open_vault

from .conftest import on_dialog


def fill_box(store: Store) -> int:
    conv = store.new_conversation("Visit", kind="chat")
    box = PrivacyBox()
    box.placeholder_for("Harold Brennan", EntityType.PERSON)
    box.placeholder_for("412-555-0196", EntityType.PHONE)
    store.save_box(conv, box.to_json())
    return conv


def test_box_view_lists_entries_hides_values_and_forgets_one_or_all(
    qtbot: Any, store: Store
) -> None:
    conv = fill_box(store)
    view = PrivacyBoxView(store)
    qtbot.addWidget(view)
    qtbot.waitUntil(lambda: view.table.rowCount() == 2)
    cells = [view.table.item(r, c).text() for r in range(2) for c in range(4)]
    assert "[PERSON_1]" in cells and "Visit" in cells
    assert "Harold Brennan" not in cells  # hidden until asked
    view.show_values.setChecked(True)
    assert "Harold Brennan" in [view.table.item(r, 2).text() for r in range(2)]
    row = next(r for r in range(2) if view.table.item(r, 0).text() == "[PHONE_1]")
    view.table.selectRow(row)
    view.forget_selected()
    qtbot.waitUntil(lambda: view.table.rowCount() == 1)
    assert [e["placeholder"] for e in store.load_box(conv)["entries"]] == ["[PERSON_1]"]
    view.forget_all(confirm=False)
    qtbot.waitUntil(lambda: not view.rows)
    assert store.load_box(conv)["entries"] == []
    assert view.empty.isVisibleTo(view)


def test_ledger_view_shows_each_request_verbatim(qtbot: Any, store: Store) -> None:
    payload = {
        "model": "demo",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Symptoms of [PERSON_1]'s cough?"},
        ],
    }
    lid = store.add_ledger(
        endpoint="http://127.0.0.1:8080/v1/chat/completions",
        model="demo",
        payload=payload,
        purpose="chat",
    )
    store.finish_ledger(
        lid, status="ok", response="Rest, [PERSON_1].", prompt_tokens=20, completion_tokens=5
    )
    view = LedgerView(store)
    qtbot.addWidget(view)
    qtbot.waitUntil(lambda: view.table.rowCount() == 1)
    row = [view.table.item(0, c).text() for c in range(view.table.columnCount())]
    assert row[2].startswith("http://127.0.0.1:8080") and row[3] == "demo" and row[5] == "ok"
    assert row[6] == "20 → 5"
    assert "Symptoms of [PERSON_1]'s cough?" in view.payload.toPlainText()
    assert view.response.toPlainText() == "Rest, [PERSON_1]."
    view.raw.setChecked(True)
    assert '"role": "system"' in view.payload.toPlainText()


def test_format_payload_keeps_the_content_verbatim() -> None:
    text = "line one\n  indented [DATE_2]\t<tab>"
    assert text in format_payload({"messages": [{"role": "user", "content": text}]})


def test_first_run_creates_a_passphrase_vault_and_later_runs_unlock_it(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("ui.vault_dialog.keyring_available", lambda: False)
    path = tmp_path / "v.db"
    dlg = VaultDialog(path, "create")
    qtbot.addWidget(dlg)
    assert not dlg.use_keyring.isEnabled() and dlg.use_passphrase.isChecked()
    assert str(path) in " ".join(lab.text() for lab in dlg.findChildren(type(dlg.note)))
    dlg.passphrase.setText("short")
    dlg.confirm.setText("short")
    dlg.submit()
    assert "at least" in dlg.error.text() and not path.exists()
    dlg.passphrase.setText("correct horse battery")
    dlg.confirm.setText("correct horse battery")
    with qtbot.waitSignal(dlg.accepted, timeout=10000):
        dlg.submit()
    dlg.store.close()
    again = VaultDialog(path, "unlock")
    qtbot.addWidget(again)
    again.passphrase.setText("wrong horse")
    again.submit()
    qtbot.waitUntil(lambda: again.error.isVisibleTo(again), timeout=10000)
    assert "does not open" in again.error.text()
    again.passphrase.setText("correct horse battery")
    with qtbot.waitSignal(again.accepted, timeout=10000):
        again.submit()
    assert again.store is not None
    again.store.close()


def test_keyring_vault_is_created_then_opened_without_a_question(
    qtbot: Any, tmp_path: Path
) -> None:
    path = tmp_path / "k.db"

    def create(d: VaultDialog) -> None:
        assert d.use_keyring.isChecked()  # the in-memory test keyring counts as one
        d.submit()

    on_dialog(VaultDialog, create)
    opened: list[Store | None] = []
    dlg = open_vault(path, done=opened.append)
    assert dlg is not None and opened == []  # the dialog is open; nothing blocked
    qtbot.waitUntil(lambda: bool(opened), timeout=10000)
    store = opened[0]
    assert store is not None
    store.close()
    assert open_vault(path, done=opened.append) is None  # no dialog this time
    store = opened[1]
    assert store is not None
    store.close()


def test_window_state_persists(qtbot: Any, make_engine: Any) -> None:
    from ui.main_window import MainWindow

    w = MainWindow(make_engine(), load_models=False)
    qtbot.addWidget(w)
    w.resize(700, 500)
    w.new_conversation("draft")
    w.split.setSizes([300, 700])
    w.close()
    again = MainWindow(make_engine(), load_models=False)
    qtbot.addWidget(again)
    assert again.stack.currentWidget() is again.draft
    assert again.size().width() == 700
    again.close()


def test_models_load_with_progress_in_the_status_bar(qtbot: Any, make_engine: Any) -> None:
    from ui.main_window import MainWindow

    w = MainWindow(make_engine(), load_models=False)
    qtbot.addWidget(w)
    steps: list[str] = []
    w.load_label.setText("")
    w.modelsReady.connect(lambda ok: steps.append(f"ready:{ok}"))
    with qtbot.waitSignal(w.modelsReady, timeout=20000):
        w.load_models()
    assert steps == ["ready:True"] and w.load_label.text() == "Models ready"
    w.close()


def test_no_command_opens_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.main import main

    seen: list[argparse.Namespace] = []
    monkeypatch.setattr("app.window.run_window", lambda args: seen.append(args) or 0)
    assert main([]) == 0
    assert main(["--demo-cloud"]) == 0
    assert [a.window_demo_cloud for a in seen] == [False, True]


def test_sidebar_lists_conversations_with_their_kind(qtbot: Any, window: Any, store: Store) -> None:
    store.new_conversation("A chat", kind="chat")
    store.new_conversation("Draft: landlord", kind="draft")
    window.refresh_conversations()
    qtbot.waitUntil(lambda: window.sidebar.list.count() == 2)
    kinds = {
        window.sidebar.list.item(i).text(): window.sidebar.list.item(i).data(
            Qt.ItemDataRole.UserRole + 1
        )
        for i in range(2)
    }
    assert kinds == {"A chat": "chat", "Draft: landlord": "draft"}
