"""The approval view: exactly what would leave the machine, before it leaves.

It renders a :class:`~core.pipeline.ApprovalRequest`: every message of the
payload verbatim, placeholders visible and marked, the withheld-sentence
markers marked, and one toggle per private value. Unticking a value asks the
pipeline to rebuild the payload with that value in clear
(:meth:`~core.pipeline.Assistant.apply_approval`), so what is shown is always
what would be sent. The person answers Send, Edit or Cancel, and may approve
every later turn of the conversation.
"""

from __future__ import annotations

import html
import logging
import re
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from core.box import PLACEHOLDER_RE
from core.entities import DESCRIPTIONS, EntityType
from core.outbound.compose import WITHHELD
from core.pipeline import Approval, ApprovalRequest, Decision, PreparedTurn
from ui.theme import COLORS, cloud_pixmap, std_icon

log = logging.getLogger(__name__)


def render_payload(request: ApprovalRequest) -> str:
    """The payload as HTML: each message verbatim, placeholders and markers highlighted."""
    # Values the person chose to send stand out; those the type policy sends are marked quietly.
    chosen = [e.value for e in request.entities if not e.protected and e.value and _by_person(e.reason)]
    policy = [e.value for e in request.entities if not e.protected and e.value and not _by_person(e.reason)]
    parts = []
    for m in request.messages:
        role = html.escape(m.get("role", "?"))
        body = _mark(m.get("content", ""), chosen, policy)
        parts.append(
            f"<div style='margin-bottom:10px'>"
            f"<div style='color:{COLORS.muted.name()};font-weight:600'>{role}</div>"
            f"<div style='white-space:pre-wrap;font-family:monospace'>{body}</div></div>"
        )
    return "".join(parts)


def _by_person(reason: str) -> bool:
    return not reason or reason.startswith("your choice")


def _mark(text: str, chosen: list[str], policy: list[str] | None = None) -> str:
    marks: list[tuple[int, int, str]] = []
    for m in PLACEHOLDER_RE.finditer(text):
        marks.append((m.start(), m.end(), "ph"))
    for m in re.finditer(re.escape(WITHHELD), text):
        marks.append((m.start(), m.end(), "withheld"))
    for kind, values in (("clear", chosen), ("policy", policy or [])):
        for v in values:
            for m in re.finditer(re.escape(v), text):
                marks.append((m.start(), m.end(), kind))
    marks.sort()
    out, pos = [], 0
    styles = {
        "ph": f"background:{COLORS.placeholder_bg.name()};color:{COLORS.entity.name()};font-weight:600",
        "withheld": f"background:{COLORS.local_bg.name()};color:{COLORS.local_fg.name()}",
        "clear": f"background:#fbe3e0;color:{COLORS.exposed.name()};font-weight:600",
        "policy": f"color:{COLORS.sent.name()};text-decoration:underline",
    }
    for a, b, kind in marks:
        if a < pos:
            continue
        out.append(html.escape(text[pos:a]))
        out.append(f"<span style='{styles[kind]}'>{html.escape(text[a:b])}</span>")
        pos = b
    out.append(html.escape(text[pos:]))
    return "".join(out)


class ApprovalDialog(QDialog):
    """Send / Edit / Cancel for one prepared turn; ``approval()`` holds the answer."""

    def __init__(
        self,
        prepared: PreparedTurn,
        assistant: Any,
        parent: QWidget | None = None,
        *,
        source: str = "",
    ) -> None:
        """``source`` names the app whose request this is (a request through the proxy)."""
        super().__init__(parent)
        assert prepared.request is not None
        self.setObjectName("approval-dialog")
        self.setWindowTitle(f"Review before sending: {source}" if source else "Review before sending")
        self.resize(900, 640)
        self.source = source
        self.prepared = prepared
        self.assistant = assistant
        self.request: ApprovalRequest = prepared.request
        self.decision = Decision.CANCEL
        self.unprotect: set[str] = set()

        icon = QLabel()
        icon.setPixmap(cloud_pixmap(32))
        title = QLabel("This is exactly what will leave this machine")
        title.setObjectName("viewTitle")
        r = self.request
        where = QLabel(
            f"To <b>{html.escape(r.model)}</b> at {html.escape(r.endpoint)} · "
            f"{r.remote_sentences} sentence{'s' * (r.remote_sentences != 1)} to the cloud, "
            f"{r.withheld_sentences} kept here"
        )
        where.setObjectName("hint")
        head = QHBoxLayout()
        head.addWidget(icon)
        col = QVBoxLayout()
        col.addWidget(title)
        if source:
            self.source_label = QLabel(
                f"Request from <b>{html.escape(source)}</b>, through Sottovoce's proxy"
            )
            self.source_label.setObjectName("approval-source")
            col.addWidget(self.source_label)
        col.addWidget(where)
        head.addLayout(col, 1)

        self.payload = QTextBrowser()
        self.payload.setObjectName("approval-payload")
        self.payload.setOpenLinks(False)

        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(["Protect", "Placeholder", "What it is", "Value", "Why"])
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setShowGrid(False)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.itemChanged.connect(self._toggled)
        ents = QWidget()
        el = QVBoxLayout(ents)
        el.setContentsMargins(0, 0, 0, 0)
        lab = QLabel("<b>Private values in this request</b> — untick one to send it as written")
        el.addWidget(lab)
        el.addWidget(self.table)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.payload)
        split.addWidget(ents)
        split.setSizes([400, 180])

        self.always = QCheckBox("Always approve in this conversation")
        self.always.setToolTip("Later requests of this conversation are sent without this review.")
        self.send_btn = QPushButton("Send")
        self.send_btn.setObjectName("primary")
        self.send_btn.setDefault(True)
        self.edit_btn = QPushButton(std_icon(self, "SP_FileDialogBack"), "Edit")
        self.edit_btn.setToolTip("Go back to the text; nothing is sent.")
        self.cancel_btn = QPushButton(std_icon(self, "SP_DialogCancelButton"), "Cancel")
        self.cancel_btn.setToolTip("Nothing is sent.")
        self.send_btn.clicked.connect(lambda: self._finish(Decision.SEND))
        self.edit_btn.clicked.connect(lambda: self._finish(Decision.EDIT))
        self.cancel_btn.clicked.connect(lambda: self._finish(Decision.CANCEL))
        send_key = QShortcut(QKeySequence("Ctrl+Return"), self)
        send_key.activated.connect(lambda: self._finish(Decision.SEND))
        buttons = QHBoxLayout()
        buttons.addWidget(self.always)
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_btn)
        buttons.addWidget(self.edit_btn)
        buttons.addWidget(self.send_btn)
        # An app's text cannot be edited here; the app sends it again if it wants.
        self.edit_btn.setVisible(not source)

        lay = QVBoxLayout(self)
        lay.setSpacing(10)
        lay.addLayout(head)
        lay.addWidget(split, 1)
        lay.addLayout(buttons)
        self._fill_table()
        self._render(self.request)

    # --- entities -----------------------------------------------------------

    def _fill_table(self) -> None:
        self.table.blockSignals(True)
        ents = self.request.entities
        self.table.setRowCount(len(ents))
        for i, e in enumerate(ents):
            check = QTableWidgetItem()
            flags = Qt.ItemFlag.ItemIsEnabled
            if e.placeholder:  # values cleared in the editor are already consented
                flags |= Qt.ItemFlag.ItemIsUserCheckable
            check.setFlags(flags)
            check.setCheckState(Qt.CheckState.Checked if e.protected else Qt.CheckState.Unchecked)
            check.setData(Qt.ItemDataRole.UserRole, e.placeholder)
            try:
                what = DESCRIPTIONS[EntityType(e.type)]
            except ValueError:
                what = e.type
            why = e.reason or "a private detail: replaced by its placeholder"
            cells = [
                check,
                QTableWidgetItem(e.placeholder or "(as written)"),
                QTableWidgetItem(what),
                QTableWidgetItem(e.value),
                QTableWidgetItem(why),
            ]
            cells[4].setToolTip(why)
            if not e.placeholder:
                # Sent in clear by the type policy or by a choice in the editor; the
                # editor is where it can be protected (the payload is rebuilt there).
                cells[1].setToolTip(f"Sent as written: {why}. Protect it in the editor.")
            for j, c in enumerate(cells):
                if j:
                    c.setFlags(Qt.ItemFlag.ItemIsEnabled)
                self.table.setItem(i, j, c)
        self.table.blockSignals(False)

    def set_protected(self, placeholder: str, protect: bool) -> None:
        """Toggle one value (as the checkbox does)."""
        for i in range(self.table.rowCount()):
            item = self.table.item(i, 0)
            if item is not None and item.data(Qt.ItemDataRole.UserRole) == placeholder:
                item.setCheckState(Qt.CheckState.Checked if protect else Qt.CheckState.Unchecked)

    def _toggled(self, item: QTableWidgetItem) -> None:
        if item.column() != 0:
            return
        ph = item.data(Qt.ItemDataRole.UserRole)
        if not ph:
            return
        if item.checkState() == Qt.CheckState.Checked:
            self.unprotect.discard(ph)
        else:
            self.unprotect.add(ph)
        self._preview()

    def _preview(self) -> None:
        if not self.unprotect:
            self._render(self.request)
            return
        try:
            # apply_approval works on a copy: self.prepared stays as it was.
            again = self.assistant.apply_approval(self.prepared, Approval.send(sorted(self.unprotect)))
        except Exception as exc:
            from ui.errors import report

            report(exc, self)
            return
        if again.request is not None:
            self._render(again.request)

    def _render(self, request: ApprovalRequest) -> None:
        self.shown = request
        self.payload.setHtml(render_payload(request))

    # --- answer -------------------------------------------------------------

    def _finish(self, decision: Decision) -> None:
        self.decision = decision
        if decision is Decision.SEND:
            self.accept()
        else:
            self.reject()

    def approval(self) -> Approval:
        return Approval(
            self.decision,
            frozenset(self.unprotect) if self.decision is Decision.SEND else frozenset(),
            self.always.isChecked() and self.decision is Decision.SEND,
        )
