"""The privacy box view and the egress ledger view, over the encrypted store.

The privacy box view lists every private value that has a placeholder, by
conversation, with its type and how often it was used; one entry or all can be
forgotten (the placeholder is then never reused). Values are hidden until the
person asks to see them. The ledger view lists every request that left the
machine, verbatim, with its time, endpoint and model. Reads and writes of the
store run in workers.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.box import PrivacyBox
from core.entities import DESCRIPTIONS, EntityType
from core.store import Store
from ui.theme import shield_pixmap, std_icon
from ui.workers import run_in_thread

log = logging.getLogger(__name__)


def _item(text: str, data: Any = None) -> QTableWidgetItem:
    it = QTableWidgetItem(text)
    it.setFlags(it.flags() & ~Qt.ItemFlag.ItemIsEditable)
    if data is not None:
        it.setData(Qt.ItemDataRole.UserRole, data)
    return it


def _table(headers: tuple[str, ...]) -> QTableWidget:
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.setAlternatingRowColors(True)
    t.verticalHeader().setVisible(False)
    t.setShowGrid(False)
    t.horizontalHeader().setStretchLastSection(True)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    return t


# --- privacy box ----------------------------------------------------------------


def box_rows(store: Store) -> tuple[list[dict[str, Any]], dict[int, str]]:
    """Every box entry with its conversation; and conversation titles."""
    titles = {int(c["id"]): str(c["title"]) for c in store.conversations()}
    rows = []
    for conv, data in sorted(store.boxes().items()):
        for e in data.get("entries", []):
            rows.append({"conversation": conv, **e})
    return rows, titles


def forget(store: Store, conversation: int, placeholders: list[str] | None) -> int:
    """Forget some placeholders of one conversation's box (all when None)."""
    data = store.load_box(conversation)
    if not data:
        return 0
    box = PrivacyBox.from_json(data)
    if placeholders is None:
        n = len(box)
        box.forget_all()
    else:
        n = sum(1 for ph in placeholders if box.forget(ph))
    store.save_box(conversation, box.to_json())
    return n


class PrivacyBoxView(QDialog):
    """Entities, types, placeholders and where they are used; forget one or all."""

    COLUMNS = ("Placeholder", "Type", "Value", "Conversation", "Uses", "Added")

    def __init__(self, store: Store, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Privacy box")
        self.setObjectName("privacy-box")
        self.setWindowIcon(shield_pixmap(32))
        self.resize(820, 480)
        self.store = store
        self.rows: list[dict[str, Any]] = []
        self.titles: dict[int, str] = {}

        intro = QLabel(
            "Each private value that was replaced before leaving this machine, and the "
            "placeholder the cloud saw instead. Forgetting an entry removes the value from "
            "the vault; its placeholder is never given to another value."
        )
        intro.setWordWrap(True)
        intro.setObjectName("hint")
        self.filter = QComboBox()
        self.filter.currentIndexChanged.connect(self._fill)
        self.show_values = QCheckBox("Show values")
        self.show_values.toggled.connect(self._fill)
        self.table = _table(self.COLUMNS)
        self.table.itemSelectionChanged.connect(self._selection)
        self.empty = QLabel(
            "The privacy box is empty: nothing private has left this machine "
            "in placeholder form yet."
        )
        self.empty.setObjectName("hint")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)

        self.forget_one = QPushButton(std_icon(self, "SP_TrashIcon"), "Forget selected")
        self.forget_one.clicked.connect(self.forget_selected)
        self.forget_all_btn = QPushButton("Forget all shown")
        self.forget_all_btn.clicked.connect(self.forget_all)
        refresh = QPushButton(std_icon(self, "SP_BrowserReload"), "Refresh")
        refresh.clicked.connect(self.reload)

        top = QHBoxLayout()
        top.addWidget(QLabel("Conversation:"))
        top.addWidget(self.filter, 1)
        top.addWidget(self.show_values)
        bottom = QHBoxLayout()
        bottom.addWidget(refresh)
        bottom.addStretch(1)
        bottom.addWidget(self.forget_one)
        bottom.addWidget(self.forget_all_btn)
        lay = QVBoxLayout(self)
        lay.addWidget(intro)
        lay.addLayout(top)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.empty)
        lay.addLayout(bottom)
        self.reload()

    def reload(self) -> None:
        run_in_thread(box_rows, self.store, on_return=self._loaded, name="box-load")

    def _loaded(self, result: tuple[list[dict[str, Any]], dict[int, str]]) -> None:
        self.rows, self.titles = result
        current = self.filter.currentData()
        self.filter.blockSignals(True)
        self.filter.clear()
        self.filter.addItem("All conversations", None)
        for conv in sorted({r["conversation"] for r in self.rows}):
            self.filter.addItem(self.titles.get(conv, f"Conversation {conv}"), conv)
        self.filter.setCurrentIndex(max(0, self.filter.findData(current)))
        self.filter.blockSignals(False)
        self._fill()

    def shown_rows(self) -> list[dict[str, Any]]:
        conv = self.filter.currentData()
        return [r for r in self.rows if conv is None or r["conversation"] == conv]

    def _fill(self) -> None:
        rows = self.shown_rows()
        reveal = self.show_values.isChecked()
        self.table.setRowCount(len(rows))
        for i, r in enumerate(rows):
            kind = str(r["type"])
            try:
                desc = DESCRIPTIONS[EntityType(kind)]
            except ValueError:
                desc = kind
            value = str(r["value"]) if reveal else "•" * min(12, max(4, len(str(r["value"]))))
            cells = [
                _item(str(r["placeholder"]), r),
                _item(f"{kind} · {desc}"),
                _item(value),
                _item(self.titles.get(r["conversation"], f"Conversation {r['conversation']}")),
                _item(str(r.get("uses", 0))),
                _item(str(r.get("created", ""))[:16].replace("T", " ")),
            ]
            mono = QFont("monospace")
            mono.setStyleHint(QFont.StyleHint.Monospace)
            cells[0].setFont(mono)
            for j, c in enumerate(cells):
                self.table.setItem(i, j, c)
        self.table.setVisible(bool(rows))
        self.empty.setVisible(not rows)
        self.forget_all_btn.setEnabled(bool(rows))
        self._selection()

    def _selection(self) -> None:
        self.forget_one.setEnabled(bool(self.selected()))

    def selected(self) -> list[dict[str, Any]]:
        rows = sorted({i.row() for i in self.table.selectedIndexes()})
        items = [self.table.item(r, 0) for r in rows]
        return [i.data(Qt.ItemDataRole.UserRole) for i in items if i is not None]

    def forget_selected(self) -> None:
        chosen = self.selected()
        if not chosen:
            return
        by_conv: dict[int, list[str]] = {}
        for r in chosen:
            by_conv.setdefault(int(r["conversation"]), []).append(str(r["placeholder"]))
        self._forget(by_conv)

    def forget_all(self, confirm: bool = True) -> None:
        rows = self.shown_rows()
        if not rows:
            return
        if confirm:
            answer = QMessageBox.question(
                self,
                "Forget all",
                f"Forget all {len(rows)} entries shown? The placeholders already sent stay "
                "in the ledger, but their values will no longer be restored in answers.",
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        convs = {int(r["conversation"]) for r in rows}
        self._forget(dict.fromkeys(convs))

    def _forget(self, by_conv: dict[int, Any]) -> None:
        def work() -> int:
            return sum(forget(self.store, c, phs) for c, phs in by_conv.items())

        run_in_thread(work, on_return=lambda _n: self.reload(), name="box-forget")


# --- egress ledger --------------------------------------------------------------


def format_payload(payload: Any) -> str:
    """The payload as sent: each message's role and content, verbatim."""
    messages = payload.get("messages") if isinstance(payload, dict) else payload
    if isinstance(messages, list) and all(isinstance(m, dict) for m in messages):
        parts = []
        for m in messages:
            parts.append(f"── {m.get('role', '?')} ──\n{m.get('content', '')}")
        return "\n\n".join(parts)
    return json.dumps(payload, ensure_ascii=False, indent=2)


class LedgerView(QDialog):
    """Every request that left the machine, verbatim, with time, endpoint and model."""

    COLUMNS = ("#", "Time", "Endpoint", "Model", "Purpose", "Status", "Tokens")

    def __init__(self, store: Store, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Egress ledger")
        self.setObjectName("egress-ledger")
        self.setWindowIcon(std_icon(self, "SP_FileDialogDetailedView"))
        self.resize(960, 600)
        self.store = store
        self.rows: list[dict[str, Any]] = []
        intro = QLabel(
            "Every request that left this machine, exactly as it was sent, recorded before "
            "sending. Nothing reaches the cloud without a line here."
        )
        intro.setWordWrap(True)
        intro.setObjectName("hint")
        self.table = _table(self.COLUMNS)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.itemSelectionChanged.connect(self._show_selected)
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.Monospace)
        self.payload = QPlainTextEdit(readOnly=True)
        self.payload.setFont(mono)
        self.payload.setPlaceholderText("Select a request to see what was sent.")
        self.raw = QCheckBox("Show the raw JSON")
        self.raw.toggled.connect(self._show_selected)
        self.response = QPlainTextEdit(readOnly=True)
        self.response.setFont(mono)
        self.response.setPlaceholderText("The answer received (anonymized).")
        self.empty = QLabel("Nothing has left this machine yet.")
        self.empty.setObjectName("hint")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)

        detail = QWidget()
        dl = QVBoxLayout(detail)
        dl.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(QLabel("<b>Sent</b>"))
        head.addStretch(1)
        head.addWidget(self.raw)
        dl.addLayout(head)
        dl.addWidget(self.payload, 2)
        dl.addWidget(QLabel("<b>Received</b>"))
        dl.addWidget(self.response, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(detail)
        split.setSizes([220, 380])
        refresh = QPushButton(std_icon(self, "SP_BrowserReload"), "Refresh")
        refresh.clicked.connect(self.reload)
        bottom = QHBoxLayout()
        bottom.addWidget(refresh)
        bottom.addStretch(1)
        lay = QVBoxLayout(self)
        lay.addWidget(intro)
        lay.addWidget(self.empty)
        lay.addWidget(split, 1)
        lay.addLayout(bottom)
        self.reload()

    def reload(self) -> None:
        run_in_thread(self.store.ledger, on_return=self._loaded, name="ledger-load")

    def _loaded(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows
        self.table.setRowCount(len(rows))
        for i, r in enumerate(rows):
            tokens = ""
            if r.get("prompt_tokens") is not None:
                tokens = f"{r['prompt_tokens']} → {r.get('completion_tokens') or 0}"
            cells = [
                _item(str(r["id"]), r),
                _item(str(r["time"])[:19].replace("T", " ")),
                _item(str(r["endpoint"])),
                _item(str(r["model"])),
                _item(str(r["purpose"])),
                _item(str(r["status"])),
                _item(tokens),
            ]
            for j, c in enumerate(cells):
                self.table.setItem(i, j, c)
        self.empty.setVisible(not rows)
        if rows:
            self.table.selectRow(0)

    def _show_selected(self) -> None:
        items = self.table.selectedItems()
        if not items:
            self.payload.clear()
            self.response.clear()
            return
        first = self.table.item(items[0].row(), 0)
        if first is None:
            return
        r = first.data(Qt.ItemDataRole.UserRole)
        if self.raw.isChecked():
            self.payload.setPlainText(json.dumps(r["payload"], ensure_ascii=False, indent=2))
        else:
            self.payload.setPlainText(format_payload(r["payload"]))
        self.response.setPlainText(str(r.get("response") or ""))
