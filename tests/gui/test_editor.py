"""The routing editor: live highlights, newest request wins, flips, explanations."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCharFormat
from PySide6.QtTest import QTest

from core.analyze import Analysis, Analyzer, Route
from ui.editor import RoutingEditor, background_at, char_format_at
from ui.theme import COLORS

from .conftest import HANG_MS, HANG_S, wait_analysis

TEXT = "Call me at 215-555-4078 tomorrow. What helps against a sore throat?"
PHONE = TEXT.index("215")
QUESTION = TEXT.index("What")


@pytest.fixture
def editor(qtbot: Any, analyzer: Analyzer) -> RoutingEditor:
    ed = RoutingEditor(analyzer.analyze, debounce_ms=30)
    qtbot.addWidget(ed)
    ed.resize(700, 300)
    ed.show()
    return ed


def test_typing_tints_each_sentence_by_route_and_marks_entities(
    qtbot: Any, editor: RoutingEditor
) -> None:
    editor.edit.setFocus()
    QTest.keyClicks(editor.edit, TEXT)
    a = wait_analysis(qtbot, editor)
    assert [str(p.route) for p in a.plans] == ["local", "remote"]
    assert background_at(editor, 2) == COLORS.local_bg
    assert background_at(editor, QUESTION + 2) == COLORS.cloud_bg
    # Not colour only: local sentences are dotted, entities solidly underlined.
    assert char_format_at(editor, 2).underlineStyle() == QTextCharFormat.UnderlineStyle.DotLine
    ent = char_format_at(editor, PHONE + 1)
    assert ent.underlineStyle() == QTextCharFormat.UnderlineStyle.SingleUnderline
    assert ent.underlineColor() == COLORS.entity
    assert [b[1] for b in editor.edit._badges] == ["local", "remote"]
    assert editor.summary.text() == "2 sentences · 1 stay here · 1 to the cloud · 1 private detail"


class GatedAnalyzer:
    """Records every request; holds each until ``release`` is set, so that requests
    overlap however fast or slow the machine is."""

    def __init__(self, inner: Analyzer) -> None:
        self.inner = inner
        self.calls: list[str] = []
        self.lock = threading.Lock()
        self.release = threading.Event()

    def analyze(self, text: str, lam: float) -> Analysis:
        with self.lock:
            self.calls.append(text)
        assert self.release.wait(HANG_S), "the test never released the analysis"
        return self.inner.analyze(text, lam)


def test_newest_request_wins_and_stale_results_are_never_shown(
    qtbot: Any, analyzer: Analyzer
) -> None:
    slow = GatedAnalyzer(analyzer)
    ed = RoutingEditor(slow.analyze, debounce_ms=10)
    qtbot.addWidget(ed)
    shown: list[str] = []
    ed.analysisChanged.connect(lambda a: shown.append(a.text) if a else None)
    first = "First text with 215-555-4078."
    ed.set_text(first)
    qtbot.waitUntil(lambda: bool(slow.calls))  # the first one is running (held)
    final = "Final text. Write to anna.k@example.org."
    for text in [f"Version {i}: nothing private here." for i in range(3)] + [final]:
        ed.set_text(text)
        # The debounce fired: the editor asked for this text while the first runs.
        qtbot.waitUntil(lambda text=text: ed._requested_text == text)
    slow.release.set()
    qtbot.waitUntil(lambda: ed.analysis is not None)
    assert shown == [final]
    # The running request finished; waiting ones were replaced, not queued.
    assert slow.calls == [first, final]


def test_clicking_a_badge_flips_the_sentence_and_the_choice_survives_edits(
    qtbot: Any, editor: RoutingEditor
) -> None:
    editor.set_text(TEXT)
    wait_analysis(qtbot, editor)
    (_, rect), _ = editor.edit.badge_rects()
    QTest.mouseClick(editor.edit.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    plan = editor.analysis.plans[0]
    assert plan.route is Route.REMOTE and plan.overridden
    assert background_at(editor, 2) == COLORS.cloud_bg
    # Typing elsewhere re-analyses; the person's choice is kept.
    cursor = editor.edit.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    cursor.insertText(" Thanks!")
    qtbot.waitUntil(
        lambda: editor.analysis is not None and editor.analysis.text.endswith("Thanks!")
    )
    assert editor.analysis.plans[0].route is Route.REMOTE
    assert editor.choices.routes == {editor.analysis.plans[0].sentence.text: Route.REMOTE}
    # Flipping back returns to the router's choice: no choice left.
    editor.flip_sentence(0)
    assert editor.analysis.plans[0].route is Route.LOCAL
    assert not editor.choices


def test_ctrl_click_on_an_entity_sends_it_as_written(qtbot: Any, editor: RoutingEditor) -> None:
    editor.set_text(TEXT)
    wait_analysis(qtbot, editor)
    cursor = editor.edit.textCursor()
    cursor.setPosition(PHONE + 3)
    pos = editor.edit.cursorRect(cursor).center()
    QTest.mouseClick(
        editor.edit.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, pos
    )
    assert editor.analysis.plans[0].protected == [False]
    assert editor.choices.exposed() == {"215-555-4078"}
    fmt = char_format_at(editor, PHONE + 1)
    assert fmt.underlineStyle() == QTextCharFormat.UnderlineStyle.WaveUnderline
    editor.set_entity_protected("215-555-4078", True)
    assert editor.analysis.plans[0].protected == [True]


@pytest.mark.parametrize(
    ("pos", "expected"),
    [
        (
            PHONE + 2,
            ["Stays on this machine", "p(cloud) = 0.00", "phone number", "rules", "withheld"],
        ),
        (QUESTION + 3, ["Goes to the cloud", "p(cloud) = 1.00", "No private detail"]),
    ],
)
def test_hover_explains_probability_entities_and_views(
    qtbot: Any, editor: RoutingEditor, pos: int, expected: list[str]
) -> None:
    editor.set_text(TEXT)
    wait_analysis(qtbot, editor)
    tip = editor.explain(pos)
    for piece in expected:
        assert piece in tip


def test_marks_follow_the_text_while_the_next_analysis_runs(
    qtbot: Any, editor: RoutingEditor
) -> None:
    editor.set_text(TEXT)
    wait_analysis(qtbot, editor)
    cursor = editor.edit.textCursor()
    cursor.setPosition(0)
    cursor.insertText("Hi. ")
    # Before the new analysis arrives, the phone number is still marked where it moved to.
    assert char_format_at(editor, PHONE + 4 + 1).underlineColor() == COLORS.entity
    assert editor.analysis is None  # stale: no decisions on old offsets


def test_read_only_editor_does_not_flip(qtbot: Any, analyzer: Analyzer) -> None:
    ed = RoutingEditor(analyzer.analyze, read_only=True, debounce_ms=10)
    qtbot.addWidget(ed)
    ed.set_text(TEXT)
    wait_analysis(qtbot, ed)
    ed.flip_sentence(0)
    assert ed.analysis.plans[0].route is Route.LOCAL


def test_ctrl_enter_submits(qtbot: Any, editor: RoutingEditor) -> None:
    with qtbot.waitSignal(editor.submitted, timeout=1000):
        QTest.keyClick(editor.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert editor.text() == ""  # no newline was inserted


def test_badges_sit_above_each_sentence_start(qtbot: Any, editor: RoutingEditor) -> None:
    editor.set_text(TEXT)
    wait_analysis(qtbot, editor)
    rects = editor.edit.badge_rects()
    assert len(rects) == 2
    cursor = editor.edit.textCursor()
    cursor.setPosition(QUESTION)
    start = editor.edit.cursorRect(cursor)
    assert rects[1][1].bottom() <= start.top() + 1
    assert abs(rects[1][1].left() - start.left()) <= 2
    assert editor.edit.badge_at(QPoint(rects[1][1].center())) == 1


def test_a_staged_analyze_marks_the_entities_before_the_sentences_are_routed(
    qtbot: Any, analyzer: Analyzer
) -> None:
    # The window's analyze (Engine.analyze_staged) yields the spans first; the
    # editor underlines them at once and tints the sentences when routing is done.
    release = threading.Event()

    def staged(text: str, lam: float) -> Any:
        yield analyzer.detector.analyze(text)
        release.wait(HANG_S)
        return analyzer.analyze(text, lam)

    ed = RoutingEditor(staged, debounce_ms=10)
    qtbot.addWidget(ed)
    ed.resize(700, 300)
    ed.show()
    marked: list[float] = []
    ed.marked.connect(marked.append)
    ed.set_text(TEXT)
    try:
        qtbot.waitUntil(lambda: bool(marked), timeout=10000)
        ent = char_format_at(ed, PHONE + 1)
        assert ent.underlineStyle() == QTextCharFormat.UnderlineStyle.SingleUnderline
        assert ed.analysis is None  # not routed yet: no tint, no badges
        assert background_at(ed, 2) != COLORS.local_bg and not ed.edit._badges
    finally:
        release.set()
    a = wait_analysis(qtbot, ed)
    assert [str(p.route) for p in a.plans] == ["local", "remote"]
    assert background_at(ed, 2) == COLORS.local_bg
    assert len(marked) == 1 and marked[0] >= 0


def test_the_engine_stages_the_same_analysis_as_analyze() -> None:
    from core.assembly import Parts
    from core.settings import Settings
    from ui.engine import Engine

    engine = Engine(Settings(), None, Parts(), save_settings=False)
    gen = engine.analyze_staged(TEXT, 5.0)
    spans = next(gen)
    with pytest.raises(StopIteration) as stop:
        next(gen)
    staged = stop.value.value
    plain = engine.analyze(TEXT, 5.0)
    assert [(s.start, s.end, s.type) for s in spans] == [
        (e.start, e.end, e.type) for p in plain.plans for e in p.entities
    ]
    assert [(p.sentence.text, p.route, p.p_remote) for p in staged.plans] == [
        (p.sentence.text, p.route, p.p_remote) for p in plain.plans
    ]


def test_a_message_in_an_unsupported_language_says_so_in_the_summary(
    qtbot: Any, analyzer: Analyzer
) -> None:
    from core.language_detector import LanguageDetector

    judged = Analyzer(analyzer.segmenter, LanguageDetector(analyzer.detector))
    ed = RoutingEditor(judged.analyze, debounce_ms=30)
    qtbot.addWidget(ed)
    ed.show()
    ed.edit.setPlainText(
        "Buongiorno, mi chiamo Giulia Ferraro e abito a Bologna. "
        "Vorrei sapere come posso cambiare il mio medico di base, grazie mille."
    )
    a = wait_analysis(qtbot, ed)
    assert a.notice
    assert ed.summary.text().endswith("⚠ language not supported: names may be missed")
    # An English message has no such notice.
    ed.edit.setPlainText("Call me at 215-555-4078 tomorrow. What helps against a sore throat?")
    qtbot.waitUntil(lambda: ed.analysis is not None and ed.analysis.notice is None, timeout=HANG_MS)
    assert "not supported" not in ed.summary.text()
