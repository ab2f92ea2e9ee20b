"""The approval view: exactly what would leave the machine, before it leaves.

It renders a :class:`~core.turn.ApprovalRequest`: every message of the
payload verbatim, placeholders visible and marked, the withheld-sentence
markers marked, and one toggle per private value. Unticking a value asks
the turn for a new payload with that value in clear
(:meth:`~core.turn.Assistant.revise`, in a worker: it reads the store and may
run detection); meanwhile Send waits and "Updating…" shows, and the new
payload replaces the one shown. What is shown is what is approved: the answer
is the turn shown last with an :class:`~core.turn.Approval` bound to its
digest. The person answers Send, Edit or Cancel, and may approve every later
turn of the conversation. The privacy profile the type policy applied is shown
with why; choosing another one prepares the turn again with it (in a worker),
and the new payload is the one shown and approved.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Iterable
from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
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
from core.turn import Approval, ApprovalRequest, Decision, PreparedTurn
from ui.editor import PROFILES
from ui.theme import COLORS, cloud_pixmap, std_icon
from ui.workers import LatestOnly

log = logging.getLogger(__name__)


class Reviser(Protocol):
    """What makes a new payload from the approval view's toggles: the
    :class:`~core.turn.Assistant`, or a proxied request standing in for it."""

    def revise(self, prepared: PreparedTurn, send_in_clear: Iterable[str]) -> PreparedTurn: ...


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
    """Send / Edit / Cancel for one prepared turn; :meth:`answer` holds the answer."""

    def __init__(
        self,
        prepared: PreparedTurn,
        assistant: Reviser,
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
        #: The turn as prepared (the table's toggles are relative to it) and
        #: the turn shown now, the one Send approves.
        self.original = prepared
        self.prepared = prepared
        self.assistant = assistant
        self.request: ApprovalRequest = prepared.request
        self.decision = Decision.CANCEL
        self.unprotect: set[str] = set()  # placeholders of ``original`` to send in clear
        self._shown: frozenset[str] = frozenset()  # ``unprotect`` as ``prepared`` was made
        self._revisions = LatestOnly(
            lambda chosen: self.assistant.revise(self.original, sorted(chosen)),
            parent=self,
            name="approval-preview",
        )
        self._revisions.result.connect(self._revised)
        self._revisions.failed.connect(self._revise_failed)
        self._reprofiles = LatestOnly(self._prepare_with, parent=self, name="approval-profile")
        self._reprofiles.result.connect(self._reprofiled)
        self._reprofiles.failed.connect(self._reprofile_failed)

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
        self.where = where
        # The privacy profile: shown always; changeable where the turn can be
        # prepared again here (not for an app's request through the proxy).
        self.profile_box = QComboBox()
        self.profile_box.setObjectName("approval-profile")
        self.profile_box.setAccessibleName("Privacy profile")
        for p, label in PROFILES:
            self.profile_box.addItem(label, str(p))
        self.profile_box.setEnabled(hasattr(assistant, "prepare") and hasattr(assistant, "analyzer"))
        self.profile_box.activated.connect(
            lambda i: self.set_profile(str(self.profile_box.itemData(i)))
        )
        self.profile_reason = QLabel()
        self.profile_reason.setObjectName("hint")
        self.profile_reason.setWordWrap(True)
        profile_row = QHBoxLayout()
        profile_row.addWidget(QLabel("Privacy profile:"))
        profile_row.addWidget(self.profile_box)
        profile_row.addWidget(self.profile_reason, 1)
        self._show_profile(prepared)
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
        col.addLayout(profile_row)
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
        # Why each withheld sentence stays: the plan's reasons, rendered as they are.
        self.kept = QLabel()
        self.kept.setObjectName("approval-kept")
        self.kept.setWordWrap(True)
        self.kept.setTextFormat(Qt.TextFormat.RichText)
        el.addWidget(self.kept)
        self._show_kept(prepared)
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
        self.updating = QLabel("Updating…")
        self.updating.setObjectName("hint")
        self.updating.hide()
        buttons = QHBoxLayout()
        buttons.addWidget(self.always)
        buttons.addStretch(1)
        buttons.addWidget(self.updating)
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
        self._render(self.prepared)

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

    @property
    def busy(self) -> bool:
        """True while a new payload is being made (Send waits for it)."""
        return self.updating.isVisible() or self._shown != self.unprotect

    def _preview(self) -> None:
        chosen = frozenset(self.unprotect)
        if not chosen:
            # Back to the payload as prepared: nothing to compute; a pending one is dropped.
            self._revisions.cancel()
            self._revised(chosen, self.original)
            return
        self._set_busy(True)
        self._revisions.submit(chosen)

    def _revised(self, chosen: frozenset[str], prepared: PreparedTurn) -> None:
        if chosen != self.unprotect:  # an older toggle's payload: a newer one is coming
            return
        self.prepared, self._shown = prepared, chosen
        self._render(prepared)
        self._set_busy(False)

    def _revise_failed(self, chosen: frozenset[str], exc: BaseException) -> None:
        from ui.errors import report

        report(exc, self)
        # The toggles go back to the payload still shown: what is ticked is what is sent.
        self.unprotect = set(self._shown)
        self.table.blockSignals(True)
        for i in range(self.table.rowCount()):
            item = self.table.item(i, 0)
            ph = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
            if item is not None and ph:
                state = Qt.CheckState.Unchecked if ph in self._shown else Qt.CheckState.Checked
                item.setCheckState(state)
        self.table.blockSignals(False)
        self._set_busy(False)

    def _show_kept(self, prepared: PreparedTurn) -> None:
        rows = []
        for plan in prepared.analysis.plans:
            if str(plan.route) != "local":
                continue
            text = " ".join(plan.sentence.text.split())
            short = text if len(text) <= 60 else text[:59] + "…"
            why = "your choice" if plan.overridden else "; ".join(plan.route_reasons)
            rows.append(f"<li>“{html.escape(short)}”: {html.escape(why)}</li>")
        self.kept.setText(
            "<b>Kept on this machine</b><ul style='margin:0'>" + "".join(rows) + "</ul>" if rows else ""
        )
        self.kept.setVisible(bool(rows))

    # --- profile ------------------------------------------------------------

    def _show_profile(self, prepared: PreparedTurn) -> None:
        a = prepared.analysis
        auto = a.guess is not None
        self.profile_box.setItemText(0, f"Auto: {a.profile}" if auto else "Auto")
        shown = "auto" if auto else str(a.profile)
        self.profile_box.setCurrentIndex(max(0, self.profile_box.findData(shown)))
        self.profile_reason.setText(html.escape(a.profile_reason))

    def set_profile(self, profile: str) -> None:
        """Prepare the turn again under ``profile`` (as choosing it in the list does)."""
        if not self.profile_box.isEnabled():
            return
        self._revisions.cancel()
        self._set_busy(True)
        self._reprofiles.submit(profile)

    def _prepare_with(self, profile: str) -> PreparedTurn:
        # In a worker: the same text, choices and history, analysed under ``profile``.
        p, a = self.original, self.assistant
        analysis = a.analyzer.analyze(p.text, p.analysis.risk_lambda, profile)  # type: ignore[attr-defined]
        new: PreparedTurn = a.prepare(  # type: ignore[attr-defined]
            p.text, p.conversation_id, p.kind,
            choices=p.choices, analysis=analysis, replace_from=p.replace_from,
        )
        return new

    def _reprofiled(self, profile: str, prepared: PreparedTurn) -> None:
        self._set_busy(False)
        if prepared.request is None:
            # Every sentence would stay here: there is nothing to approve under it.
            self.profile_reason.setText(
                f"Under the {html.escape(profile)} profile nothing would leave; "
                "the payload shown is unchanged."
            )
            return
        self.original = self.prepared = prepared
        self.request = prepared.request
        self.unprotect.clear()
        self._shown = frozenset()
        r = self.request
        self.where.setText(
            f"To <b>{html.escape(r.model)}</b> at {html.escape(r.endpoint)} · "
            f"{r.remote_sentences} sentence{'s' * (r.remote_sentences != 1)} to the cloud, "
            f"{r.withheld_sentences} kept here"
        )
        self._fill_table()
        self._render(prepared)
        self._show_profile(prepared)
        self._show_kept(prepared)

    def _reprofile_failed(self, profile: str, exc: BaseException) -> None:
        from ui.errors import report

        report(exc, self)
        self._set_busy(False)
        self._show_profile(self.prepared)

    def _set_busy(self, busy: bool) -> None:
        self.updating.setVisible(busy)
        self.send_btn.setEnabled(not busy)

    def _render(self, prepared: PreparedTurn) -> None:
        assert prepared.request is not None
        self.payload.setHtml(render_payload(prepared.request))

    # --- answer -------------------------------------------------------------

    def _finish(self, decision: Decision) -> None:
        if decision is Decision.SEND and self.busy:
            return  # Send approves the payload shown; the new one is not there yet
        self.decision = decision
        if decision is Decision.SEND:
            self.accept()
        else:
            self.reject()

    def done(self, code: int) -> None:
        # However the view closes (a button, Escape, Stop, a withdrawn request),
        # a payload still being made is dropped.
        self._revisions.cancel()
        self._reprofiles.cancel()
        super().done(code)

    def answer(self) -> tuple[PreparedTurn, Approval]:
        """The turn shown last and the person's answer about exactly its payload."""
        if self.decision is Decision.SEND:
            return self.prepared, Approval.send(self.prepared, self.always.isChecked())
        return self.prepared, Approval(self.decision)
