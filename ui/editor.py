"""The routing editor: live analysis, tinted sentences, marked entities, one-click flips.

As the person types, the text is analysed in a worker (debounced; the newest
request wins). Each sentence is tinted by where it will go and carries a badge
painted just above its first character (a padlock: stays on this machine; a
cloud: goes to the cloud, anonymized) and, when it stays local, a dotted
underline; each private detail is underlined (solid: it will be replaced by a
placeholder; wavy: the person chose to send it as written). Hovering explains
the decision from the :class:`~core.analyze.Analysis` object (probability,
entities, the views that found them); clicking a badge flips a sentence,
Ctrl+click on a detail toggles its protection. The editor only renders core
objects and records the person's choices (a :class:`~core.turn.Choices`).
"""

from __future__ import annotations

import html
import logging
import time
from bisect import bisect_right
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPoint, QRect, Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QSyntaxHighlighter,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QSizePolicy,
    QTextEdit,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from core.analyze import Analysis, Route, SentencePlan
from core.domain import Profile
from core.entities import DESCRIPTIONS
from core.spans import Span
from core.turn import Choices
from ui.theme import COLORS, cloud_pixmap, lock_pixmap, underline_sample
from ui.workers import LatestOnly

log = logging.getLogger(__name__)

#: Analyze function the editor calls in a worker: (text, risk lambda) -> Analysis.
#: ``analyze(text, risk_lambda)``: an :class:`Analysis`, or a generator that
#: first yields the detected spans (marked at once) and then returns the analysis.
#: Once the person picks a privacy profile here it is passed as a third argument
#: (``analyze(text, risk_lambda, profile)``).
AnalyzeFn = Callable[..., Analysis | Generator[Sequence[Span], None, Analysis]]

#: The profiles the editor offers, with what each applies (core.policy.NORMS).
PROFILES: tuple[tuple[Profile, str], ...] = (
    (Profile.AUTO, "Auto"),
    (Profile.GENERAL, "General"),
    (Profile.HEALTH, "Health: HIPAA Safe Harbor"),
    (Profile.LEGAL, "Legal: GDPR Art. 9, 10"),
    (Profile.HR, "HR: GDPR Art. 9, 88"),
    (Profile.FINANCE, "Finance: PCI DSS"),
)

BADGE = 11  # px
LINE_HEIGHT = 175  # percent; the gap above each line holds the badges


# --- highlighting ---------------------------------------------------------------


def _formats() -> dict[str, QTextCharFormat]:
    local = QTextCharFormat()
    local.setBackground(COLORS.local_bg)
    local.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
    local.setUnderlineColor(COLORS.local_fg)
    cloud = QTextCharFormat()
    cloud.setBackground(COLORS.cloud_bg)
    entity = QTextCharFormat()
    entity.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
    entity.setUnderlineColor(COLORS.entity)
    entity.setForeground(COLORS.entity)
    exposed = QTextCharFormat()
    exposed.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
    exposed.setUnderlineColor(COLORS.exposed)
    exposed.setForeground(COLORS.exposed)
    # Found, but sent as written by the type policy (a public name, a city at this level).
    sent = QTextCharFormat()
    sent.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
    sent.setUnderlineColor(COLORS.sent)
    return {"local": local, "remote": cloud, "entity": entity, "exposed": exposed, "sent": sent}


def entity_mark(plan: SentencePlan, i: int, protected: bool) -> str:
    """How entity ``i`` is marked: protected, sent by the policy, or sent by the person's choice."""
    if protected:
        return "entity"
    by_policy = i < len(plan.decisions) and not plan.decisions[i].protect
    return "sent" if by_policy else "exposed"


class RoutingHighlighter(QSyntaxHighlighter):
    """Paints sentence tints and entity underlines from plain span lists.

    The spans are shifted as the person types (``shift``) so the marks stay on
    the right words until the next analysis arrives.
    """

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)  # owned by the document: both go together
        self.sentences: list[list[object]] = []  # [start, end, route]
        self.entities: list[list[object]] = []  # [start, end, mark]: entity, exposed or sent
        self._fmt = _formats()

    def set_analysis(self, analysis: Analysis | None) -> None:
        self.sentences, self.entities = [], []
        if analysis is not None:
            for p in analysis.plans:
                self.sentences.append([p.sentence.start, p.sentence.end, str(p.route)])
                for i, (e, keep) in enumerate(zip(p.entities, p.protected, strict=True)):
                    self.entities.append([e.start, e.end, entity_mark(p, i, keep)])
        self.rehighlight()

    def set_entities(self, entities: list[list[object]]) -> None:
        """Mark new entities early, keeping the sentence tints until the analysis."""
        self.entities = entities
        self.rehighlight()

    def shift(self, pos: int, removed: int, added: int) -> None:
        """Keep marks aligned after an edit of ``removed`` -> ``added`` chars at ``pos``."""
        delta = added - removed
        if delta == 0 and removed == 0:
            return
        for spans in (self.sentences, self.entities):
            for s in spans:
                a, b = int(s[0]), int(s[1])  # type: ignore[call-overload]
                if b <= pos:
                    continue
                if a >= pos + removed:
                    s[0], s[1] = a + delta, b + delta
                else:  # the edit touches the span: it stretches or shrinks with it
                    s[0] = min(a, pos)
                    s[1] = max(pos + added, b + delta)

    def highlightBlock(self, text: str) -> None:
        if not self.sentences and not self.entities:
            return
        start = self.currentBlock().position()
        end = start + len(text)
        for a, b, route in self.sentences:
            self._paint(int(a), int(b), start, end, self._fmt[str(route)])  # type: ignore[call-overload]
        for a, b, mark in self.entities:
            if isinstance(mark, bool):  # early marks: protected or not
                mark = "entity" if mark else "exposed"
            fmt = QTextCharFormat(self._fmt[str(mark)])
            self._paint(int(a), int(b), start, end, fmt, merge=True)  # type: ignore[call-overload]

    def _paint(
        self, a: int, b: int, start: int, end: int, fmt: QTextCharFormat, merge: bool = False
    ) -> None:
        lo, hi = max(a, start), min(b, end)
        if lo >= hi:
            return
        if merge:  # keep the sentence tint under the entity underline
            for i in range(lo, hi):
                f = QTextCharFormat(self.format(i - start))
                f.merge(fmt)
                self.setFormat(i - start, 1, f)
        else:
            self.setFormat(lo - start, hi - lo, fmt)


# --- the text widget ------------------------------------------------------------


class RoutingTextEdit(QTextEdit):
    """A plain-text editor that paints sentence badges and explains on hover."""

    #: Emitted with a sentence index when its badge is clicked.
    badgeClicked = Signal(int)
    #: Emitted with a document position on Ctrl+click.
    entityClicked = Signal(int)
    #: Emitted on Ctrl+Enter (send).
    submitted = Signal()
    #: Emitted with the document position of a context-menu request and the menu to extend.
    contextRequested = Signal(int, QMenu)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAcceptRichText(False)
        self.setTabChangesFocus(True)
        self.document().setDocumentMargin(14)
        self.explain: Callable[[int, int | None], str] | None = None
        self._badges: list[tuple[int, str, bool]] = []  # (start, route, overridden)
        self._lock = lock_pixmap(BADGE)
        self._cloud = cloud_pixmap(BADGE)
        self._apply_line_height()

    def _apply_line_height(self) -> None:
        # New blocks inherit the format of the block they are split from, so
        # setting it once (and after each setPlainText) covers every block.
        fmt = QTextBlockFormat()
        fmt.setLineHeight(LINE_HEIGHT, QTextBlockFormat.LineHeightTypes.ProportionalHeight.value)
        c = QTextCursor(self.document())
        c.select(QTextCursor.SelectionType.Document)
        c.mergeBlockFormat(fmt)

    def set_plain_text(self, text: str) -> None:
        self.setPlainText(text)
        self._apply_line_height()
        self.document().clearUndoRedoStacks()

    def set_badges(self, badges: list[tuple[int, str, bool]]) -> None:
        self._badges = badges
        self.viewport().update()

    def badge_rects(self) -> list[tuple[int, QRect]]:
        """(sentence index, rectangle in viewport coordinates) of every badge."""
        out = []
        doc_len = self.document().characterCount() - 1
        for i, (start, _route, _o) in enumerate(self._badges):
            if start > doc_len:
                continue
            c = QTextCursor(self.document())
            c.setPosition(start)
            r = self.cursorRect(c)
            out.append((i, QRect(r.left() - 1, r.top() - BADGE - 1, BADGE + 2, BADGE + 2)))
        return out

    def badge_at(self, pos: QPoint) -> int | None:
        for i, rect in self.badge_rects():
            if rect.adjusted(-2, -2, 2, 2).contains(pos):
                return i
        return None

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._badges:
            return
        p = QPainter(self.viewport())
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        for i, rect in self.badge_rects():
            if not rect.intersects(event.rect()):
                continue
            _start, route, overridden = self._badges[i]
            pm = self._lock if route == "local" else self._cloud
            p.drawPixmap(rect.left() + 1, rect.top() + 1, pm)
            if overridden:  # a dot on the badge says "you chose this"
                p.setPen(QColor("white"))
                p.setBrush(COLORS.exposed)
                p.drawEllipse(QPoint(rect.right() + 1, rect.top() + 2), 3, 3)
        p.end()

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and self.explain is not None:
            pos = event.pos()  # type: ignore[attr-defined]
            badge = self.badge_at(pos)
            if badge is not None:
                tip = self.explain(-1, badge)
            else:
                tip = self.explain(self.cursorForPosition(pos).position(), None)
            if tip:
                QToolTip.showText(event.globalPos(), tip, self.viewport())  # type: ignore[attr-defined]
            else:
                QToolTip.hideText()
            return True
        return super().viewportEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            badge = self.badge_at(event.position().toPoint())
            if badge is not None:
                self.badgeClicked.emit(badge)
                return
            if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
                self.entityClicked.emit(
                    self.cursorForPosition(event.position().toPoint()).position()
                )
                return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        over = self.badge_at(event.position().toPoint()) is not None
        self.viewport().setCursor(
            Qt.CursorShape.PointingHandCursor if over else Qt.CursorShape.IBeamCursor
        )
        super().mouseMoveEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (
            event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self.submitted.emit()
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        menu = self.createStandardContextMenu()
        self.contextRequested.emit(self.cursorForPosition(event.pos()).position(), menu)
        # Kept alive by its parent until closed; open() style, never a nested loop.
        menu.setParent(self, menu.windowFlags())
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(event.globalPos())


# --- legend ---------------------------------------------------------------------


class RoutingLegend(QWidget):
    """What the tints, badges and underlines mean (colour is never the only cue)."""

    ITEMS = (
        ("local", "Stays here"),
        ("remote", "To the cloud, anonymized"),
        ("entity", "Private → placeholder"),
        ("sent", "Public or low-risk: sent as written"),
        ("exposed", "Sent as written by your choice"),
    )

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(2, 0, 2, 0)
        lay.setSpacing(6)
        for kind, text in self.ITEMS:
            if kind in ("local", "remote"):
                icon = QLabel()
                icon.setPixmap(lock_pixmap(14) if kind == "local" else cloud_pixmap(14))
                lay.addWidget(icon)
            sample = QLabel()
            sample.setPixmap(underline_sample("cloud" if kind == "remote" else kind))
            lay.addWidget(sample)
            label = QLabel(text)
            label.setObjectName("hint")
            lay.addWidget(label)
            lay.addSpacing(10)
        lay.addStretch(1)
        self.setAccessibleName("Legend of routing marks")
        self.setToolTip(
            "Click a badge (padlock or cloud) to flip a sentence.\n"
            "Ctrl+click a private detail to send it as written or protect it again.\n"
            "Right-click for the same choices."
        )


# --- the composite --------------------------------------------------------------


@dataclass(frozen=True)
class _Request:
    text: str
    risk_lambda: float
    fired: float  # perf_counter when the debounce fired
    profile: str | None = None  # the person's choice in the editor (None: the analyze default)


class RoutingEditor(QWidget):
    """The editor with live routing: text in, an up-to-date :class:`Analysis` out."""

    #: Emitted with the fresh Analysis (the choices applied) whenever it changes.
    analysisChanged = Signal(object)
    #: Emitted with milliseconds from the debounce firing to the highlights painted.
    highlighted = Signal(float)
    #: Emitted with milliseconds from the debounce firing to the entities marked,
    #: before the sentences are routed (analyze functions that yield spans first).
    marked = Signal(float)
    #: Emitted with the exception when the newest analysis failed.
    analysisFailed = Signal(object)
    #: Emitted on Ctrl+Enter.
    submitted = Signal()
    #: Emitted when the text changes (before the analysis).
    textEdited = Signal()
    #: Emitted with the privacy profile the person picked in the editor ("auto", "health"...).
    profileChanged = Signal(str)

    def __init__(
        self,
        analyze: AnalyzeFn | None = None,
        *,
        risk_lambda: float = 5.0,
        read_only: bool = False,
        debounce_ms: int = 250,
        pool: QThreadPool | None = None,
        placeholder: str = "",
        show_legend: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._analyze = analyze
        self.risk_lambda = risk_lambda
        self.read_only = read_only
        self.choices = Choices()
        self._analysis: Analysis | None = None
        self._requested_text: str | None = None

        self.edit = RoutingTextEdit(self)
        self.edit.setPlaceholderText(placeholder)
        self.edit.setReadOnly(read_only)
        self.edit.explain = self.explain
        self.highlighter: RoutingHighlighter
        doc = self.edit.document()
        # Connected before the highlighter sees the document, so spans shift
        # before the changed block is re-highlighted.
        doc.contentsChange.connect(lambda pos, rem, add: self.highlighter.shift(pos, rem, add))
        self.highlighter = RoutingHighlighter(doc)
        self.edit.textChanged.connect(self._on_text_changed)
        self.edit.badgeClicked.connect(self._on_badge)
        self.edit.entityClicked.connect(self._on_entity_click)
        self.edit.submitted.connect(self.submitted)
        self.edit.contextRequested.connect(self._extend_menu)

        self.summary = QLabel("")
        self.summary.setObjectName("summary")
        self.summary.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        # Both may shrink (the full text is in the tooltip): the editor never
        # forces the window wider than the screen.
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.summary.setMinimumWidth(80)
        self.legend = RoutingLegend(self)
        self.legend.setVisible(show_legend)
        # The privacy profile: which norm the level applies (read from the message
        # when auto); the applied one is shown in the first item and the tooltip.
        self._profile: str | None = None
        self.profile_box = QComboBox(self)
        self.profile_box.setObjectName("profile")
        self.profile_box.setAccessibleName("Privacy profile")
        for p, label in PROFILES:
            self.profile_box.addItem(label, str(p))
        self.profile_box.setToolTip("Privacy profile: the norm your level applies to what leaves")
        self.profile_box.setEnabled(not read_only)
        self.profile_box.activated.connect(self._on_profile_picked)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.profile_box)
        top.addWidget(self.summary, 1)
        lay.addLayout(top)
        lay.addWidget(self.edit, 1)
        self.legend.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.legend.setMinimumWidth(120)
        lay.addWidget(self.legend)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(debounce_ms)
        self._timer.timeout.connect(self._fire)
        self._runner = LatestOnly(self._run, pool=pool, parent=self)
        self._runner.result.connect(self._on_result)
        self._runner.partial.connect(self._on_partial)
        self._runner.failed.connect(self._on_failed)

    # --- public API -------------------------------------------------------

    def text(self) -> str:
        return self.edit.toPlainText()

    def set_text(self, text: str) -> None:
        self.edit.set_plain_text(text)

    def set_analyzer(self, analyze: AnalyzeFn | None) -> None:
        """Set (or replace) the analyze function; re-analyses the current text."""
        self._analyze = analyze
        self.refresh()

    def set_risk_lambda(self, value: float) -> None:
        if value != self.risk_lambda:
            self.risk_lambda = value
            self.refresh()

    @property
    def profile(self) -> str:
        """The privacy profile chosen here ("auto" until the person picks one)."""
        return self._profile or str(Profile.AUTO)

    def set_profile(self, value: str) -> None:
        """Analyse with the privacy profile ``value`` from now on (the settings' or the person's)."""
        value = str(Profile(value))
        self.profile_box.setCurrentIndex(max(0, self.profile_box.findData(value)))
        if value != self._profile:
            self._profile = value
            self.refresh()

    def _on_profile_picked(self, index: int) -> None:
        value = str(self.profile_box.itemData(index))
        self.set_profile(value)
        self.profileChanged.emit(value)

    def refresh(self, now: bool = False) -> None:
        """Re-analyse the current text (after the debounce, or at once)."""
        self._requested_text = None
        if now:
            self._fire()
        else:
            self._timer.start()

    @property
    def analysis(self) -> Analysis | None:
        """The analysis of exactly the current text, or None while it is being made."""
        a = self._analysis
        return a if a is not None and a.text == self.text() else None

    @property
    def busy(self) -> bool:
        return self._timer.isActive() or self._runner._running is not None

    def cancel(self) -> None:
        """Stop the debounce and drop any analysis in flight."""
        self._timer.stop()
        self._runner.cancel()

    def flip_sentence(self, index: int) -> None:
        """Send sentence ``index`` the other way (the person's choice)."""
        a = self.analysis
        if a is None or self.read_only or not 0 <= index < len(a.plans):
            return
        plan = a.plans[index]
        new = Route.LOCAL if plan.route is Route.REMOTE else Route.REMOTE
        if new == plan.model_route:
            self.choices.routes.pop(plan.sentence.text, None)
        else:
            self.choices.routes[plan.sentence.text] = new
        plan.route, plan.overridden = new, new != plan.model_route
        self._show(a)

    def set_entity_protected(self, value: str, protect: bool) -> None:
        """Replace ``value`` by a placeholder (True) or send it as written (False).

        A choice that matches the type policy's own decision is forgotten, so
        the value follows the policy again (and the slider) from then on.
        """
        a = self.analysis
        policy = self._policy_decision(value)
        if policy is not None and policy == protect:
            self.choices.protect.pop(value, None)
        else:
            self.choices.protect[value] = protect
        if a is not None:
            self._show(self.choices.apply(a))

    def _policy_decision(self, value: str) -> bool | None:
        """Whether the type policy protects ``value`` in the current analysis (None: not found)."""
        a = self.analysis
        if a is None:
            return None
        for plan in a.plans:
            for e, d in zip(plan.entities, plan.decisions, strict=False):
                if a.text[e.start : e.end] == value:
                    return d.protect
        return None

    def reset_choices(self) -> None:
        self.choices.clear()
        self.refresh(now=True)

    # --- explanation ------------------------------------------------------

    def locate(self, pos: int) -> tuple[SentencePlan | None, int | None]:
        """The plan of the sentence at ``pos`` and the index of the entity there."""
        a = self.analysis
        if a is None:
            return None, None
        starts = [p.sentence.start for p in a.plans]
        i = bisect_right(starts, pos) - 1
        if i < 0 or pos > a.plans[i].sentence.end:
            return None, None
        plan = a.plans[i]
        for j, e in enumerate(plan.entities):
            if e.start <= pos < e.end or (pos == e.end and pos > e.start):
                return plan, j
        return plan, None

    def explain(self, pos: int, sentence: int | None = None) -> str:
        """Rich-text explanation of the decision at ``pos`` (or of a sentence)."""
        a = self.analysis
        if a is None:
            return "<i>Analysing…</i>" if self.text().strip() else ""
        if sentence is not None:
            plan, ent = (a.plans[sentence] if sentence < len(a.plans) else None), None
        else:
            plan, ent = self.locate(pos)
        if plan is None:
            return ""
        return explain_plan(a, plan, ent, read_only=self.read_only)

    # --- internals --------------------------------------------------------

    def _on_text_changed(self) -> None:
        self.textEdited.emit()
        text = self.text()
        if text == self._requested_text:
            return
        if not text.strip():
            self._timer.stop()
            self._runner.cancel()
            self._requested_text = text
            self._analysis = None
            self._show(None)
            return
        self._timer.start()

    def _fire(self) -> None:
        text = self.text()
        if self._analyze is None or not text.strip():
            return
        self._requested_text = text
        self._runner.submit(_Request(text, self.risk_lambda, time.perf_counter(), self._profile))

    def _run(self, req: _Request) -> Generator[Sequence[Span], None, Analysis]:
        assert self._analyze is not None
        if req.profile is None:
            result = self._analyze(req.text, req.risk_lambda)
        else:
            result = self._analyze(req.text, req.risk_lambda, req.profile)
        if isinstance(result, Generator):
            result = yield from result  # the spans first, for the early marks
        return result

    def _on_partial(self, req: _Request, spans: Sequence[Span]) -> None:
        if req.text != self.text():
            return
        text = req.text
        self.highlighter.set_entities(
            [[e.start, e.end, self.choices.protect.get(text[e.start : e.end], True)]
             for e in spans]
        )  # fmt: skip
        self.marked.emit((time.perf_counter() - req.fired) * 1000)

    def _on_result(self, req: _Request, analysis: Analysis) -> None:
        if req.text != self.text():
            return  # typed on since; the newer request is on its way
        self._analysis = self.choices.apply(analysis)
        self._show(self._analysis)
        self.highlighted.emit((time.perf_counter() - req.fired) * 1000)

    def _on_failed(self, req: _Request, exc: BaseException) -> None:
        log.info("analysis failed: %s", type(exc).__name__)
        self.summary.setText("Analysis failed")
        self.analysisFailed.emit(exc)

    def _show(self, analysis: Analysis | None) -> None:
        self.highlighter.set_analysis(analysis)
        if analysis is None:
            self.edit.set_badges([])
            self.summary.setText("")
            self.analysisChanged.emit(None)
            return
        self.edit.set_badges(
            [(p.sentence.start, str(p.route), p.overridden) for p in analysis.plans]
        )
        self.summary.setText(summarize(analysis))
        self.summary.setToolTip(analysis.notice or self.summary.text())
        self._show_profile(analysis)
        self.analysisChanged.emit(analysis)

    def _show_profile(self, analysis: Analysis) -> None:
        """The applied profile in the first item ("Auto: health") and why, in the tooltip."""
        auto = analysis.guess is not None
        self.profile_box.setItemText(0, f"Auto: {analysis.profile}" if auto else "Auto")
        shown = str(Profile.AUTO) if auto else str(analysis.profile)
        self.profile_box.setCurrentIndex(max(0, self.profile_box.findData(shown)))
        self.profile_box.setToolTip(f"Privacy profile: {analysis.profile_reason}")

    def _on_badge(self, index: int) -> None:
        self.flip_sentence(index)

    def _on_entity_click(self, pos: int) -> None:
        plan, ent = self.locate(pos)
        if plan is None or ent is None or self.read_only:
            return
        a = self.analysis
        assert a is not None
        e = plan.entities[ent]
        self.set_entity_protected(a.text[e.start : e.end], not plan.protected[ent])

    def _extend_menu(self, pos: int, menu: QMenu) -> None:
        if self.read_only:
            return
        plan, ent = self.locate(pos)
        a = self.analysis
        if plan is None or a is None:
            return
        menu.addSeparator()
        if plan.route is Route.REMOTE:
            act = menu.addAction(lock_pixmap(16), "Keep this sentence on this machine")
        else:
            act = menu.addAction(cloud_pixmap(16), "Send this sentence to the cloud (anonymized)")
        act.triggered.connect(lambda _=False, i=plan.index: self.flip_sentence(i))
        if ent is not None:
            e = plan.entities[ent]
            value = a.text[e.start : e.end]
            short = value if len(value) <= 30 else value[:29] + "…"
            if plan.protected[ent]:
                act2 = menu.addAction(f"Send “{short}” as written")
            elif entity_mark(plan, ent, False) == "sent":
                act2 = menu.addAction(f"Protect “{short}” (the policy sends it)")
            else:
                act2 = menu.addAction(f"Protect “{short}” again")
            act2.triggered.connect(
                lambda _=False, v=value, keep=not plan.protected[ent]: self.set_entity_protected(
                    v, keep
                )
            )
        if self.choices:
            menu.addAction("Reset my routing choices").triggered.connect(self.reset_choices)


def summarize(analysis: Analysis) -> str:
    n = len(analysis.plans)
    local = sum(1 for p in analysis.plans if p.route is Route.LOCAL)
    ents = sum(len(p.entities) for p in analysis.plans)
    line = (
        f"{n} sentence{'s' * (n != 1)} · {local} stay here · {n - local} to the cloud · "
        f"{ents} private detail{'s' * (ents != 1)}"
    )
    # A language without rules of its own: the English model and the pattern rules judged it.
    return f"{line} · ⚠ language not supported: names may be missed" if analysis.notice else line


def _views(span: Span) -> str:
    if not span.views:
        return "no view recorded"
    return ", ".join(f"{name} {score:.2f}" for name, score in sorted(span.views.items()))


def explain_plan(
    analysis: Analysis, plan: SentencePlan, focus: int | None, read_only: bool = False
) -> str:
    """The hover text for one sentence: where it goes, why, and what is private in it."""
    esc = html.escape
    local = plan.route is Route.LOCAL
    color = COLORS.local_fg if local else COLORS.cloud_fg
    where = "Stays on this machine" if local else "Goes to the cloud, anonymized"
    lines = [
        f"<b style='color:{color.name()}'>{where}</b>",
        f"Sentence {plan.index + 1} of {len(analysis.plans)} · "
        f"p(cloud) = {plan.p_remote:.2f} at λ = {analysis.risk_lambda:g} "
        f"(router: {esc(analysis.router)})",
    ]
    if plan.overridden:
        lines.append(f"<i>You chose this route (the router said {plan.model_route}).</i>")
    else:
        lines.extend(f"<i>Why: {esc(r)}</i>" for r in plan.route_reasons)
    lines.append(f"Privacy profile: {esc(analysis.profile_reason)}")
    if plan.entities:
        lines.append("<br><b>Private details</b>")
        items = []
        for j, (e, keep) in enumerate(zip(plan.entities, plan.protected, strict=True)):
            value = esc(analysis.text[e.start : e.end])
            kind = esc(DESCRIPTIONS.get(e.type, str(e.type)))
            if keep:
                fate = "withheld with the sentence" if local else "replaced by a placeholder"
            elif entity_mark(plan, j, keep) == "sent":
                fate = f"<span style='color:{COLORS.sent.name()}'>sent as written</span>"
            else:
                fate = f"<span style='color:{COLORS.exposed.name()}'>sent as written</span>"
            text = (
                f"“{value}” — {kind} ({esc(str(e.type))}); found by {esc(_views(e))}; "
                f"score {e.score:.2f}; {fate}; <i>{esc(plan.reason(j))}</i>"
            )
            items.append(f"<li>{'<b>' + text + '</b>' if j == focus else text}</li>")
        lines.append("<ul style='margin:0'>" + "".join(items) + "</ul>")
    else:
        lines.append("No private detail found in this sentence.")
    if not read_only:
        lines.append(
            "<span style='color:#6b7280'>Click the badge to flip this sentence"
            + ("; Ctrl+click a detail to toggle it." if plan.entities else ".")
            + "</span>"
        )
    return "<br>".join(lines)


def char_format_at(editor: RoutingEditor, pos: int) -> QTextCharFormat:
    """The highlight format painted at document position ``pos``."""
    block = editor.edit.document().findBlock(pos)
    offset = pos - block.position()
    for r in block.layout().formats():
        if r.start <= offset < r.start + r.length:
            return QTextCharFormat(r.format)
    return QTextCharFormat()


def background_at(editor: RoutingEditor, pos: int) -> QColor:
    return char_format_at(editor, pos).background().color()
