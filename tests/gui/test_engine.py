"""The engine: live analysis through the paragraph cache, settings that rebuild parts."""

from __future__ import annotations

from typing import Any

from core.analyze import Analyzer
from core.detect.base import Detector
from core.detect.rules import RulesView
from core.settings import Settings
from ui.engine import Engine, ParagraphCache

TEXT = (
    "Hi Anna,\n\nMy number is 215-555-4078 and my email is anna.k@example.org.\n"
    "I was born on 03/14/1951.\n\n  \n\nCall me at 412-555-0196 before 5 May.\n"
)


class Counting:
    def __init__(self, inner: Detector) -> None:
        self.inner = inner
        self.calls: list[str] = []

    def analyze(self, text: str) -> Any:
        self.calls.append(text)
        return self.inner.analyze(text)


def test_paragraph_cache_finds_the_same_spans_as_the_whole_text(rules_view: RulesView) -> None:
    detector = Detector([rules_view])
    whole = detector.analyze(TEXT)
    cached = ParagraphCache(detector).analyze(TEXT)
    assert [(s.start, s.end, s.type) for s in cached] == [(s.start, s.end, s.type) for s in whole]
    for s in cached:
        assert TEXT[s.start : s.end] in TEXT


def test_only_the_edited_paragraph_is_detected_again(rules_view: RulesView) -> None:
    inner = Counting(Detector([rules_view]))
    cache = ParagraphCache(inner)
    cache.analyze(TEXT)
    first = len(inner.calls)
    assert first == 3
    edited = TEXT.replace("before 5 May", "before 6 May")
    spans = cache.analyze(edited)
    assert len(inner.calls) == first + 1 and "6 May" in inner.calls[-1]
    assert any(edited[s.start : s.end] == "412-555-0196" for s in spans)


def test_a_deny_list_change_applies_to_the_next_live_analysis(analyzer: Analyzer) -> None:
    engine = Engine(Settings(), None, save_settings=False)
    engine._analyzer = Analyzer(analyzer.segmenter, analyzer.detector, analyzer.router)
    text = "Project Falcon ships in spring. What should the launch email say?"
    assert engine.analyze(text, 5.0).entities == []
    engine.update_settings(Settings(deny_list=["Project Falcon"]))
    ents = engine.analyze(text, 5.0).entities
    assert "Project Falcon" in [text[e.start : e.end] for e in ents]
