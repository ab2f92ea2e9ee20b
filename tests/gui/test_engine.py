"""The engine: live analysis through the paragraph cache, settings that rebuild parts."""

from __future__ import annotations

from typing import Any

from core.analyze import Analyzer
from core.assembly import Parts
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
    # The first analyzer has the rules only; the deny list rebuilds the real detector.
    parts = Parts(analyzer=lambda s: Analyzer(analyzer.segmenter, analyzer.detector, analyzer.router))
    engine = Engine(Settings(), None, parts, save_settings=False)
    text = "Project Falcon ships in spring. What should the launch email say?"
    assert engine.analyze(text, 5.0).entities == []
    engine.update_settings(Settings(deny_list=["Project Falcon"]))
    ents = engine.analyze(text, 5.0).entities
    assert "Project Falcon" in [text[e.start : e.end] for e in ents]


class Built:
    """Parts whose factories count what they build (no model is loaded)."""

    def __init__(self, analyzer: Analyzer) -> None:
        self.count: dict[str, int] = {}
        self.analyzer_ = analyzer

    def _built(self, part: str, value: Any) -> Any:
        self.count[part] = self.count.get(part, 0) + 1
        return value

    def parts(self) -> Parts:
        return Parts(
            detector=lambda s: self._built("detector", Detector([RulesView()], deny=s.deny_list)),
            analyzer=lambda s: self._built("analyzer", self.analyzer_),
            cloud=lambda s, st, det: self._built("cloud", object()),
            local=lambda s: self._built("local", object()),
        )


def test_a_settings_change_rebuilds_only_the_parts_declared_beside_its_field(
    analyzer: Analyzer, store: Any
) -> None:
    built = Built(analyzer)
    engine = Engine(Settings(), store, built.parts(), save_settings=False)

    def build_all() -> dict[str, int]:
        engine.analyzer()
        engine.cloud_door()
        engine.local_model()
        return dict(built.count)

    assert build_all() == {"analyzer": 1, "cloud": 1, "local": 1}
    settings = Settings(risk_lambda=2.0)  # read at each turn: nothing is rebuilt
    engine.update_settings(settings)
    assert build_all() == {"analyzer": 1, "cloud": 1, "local": 1}
    settings.n_ctx = 8192
    engine.update_settings(settings)
    assert build_all() == {"analyzer": 1, "cloud": 1, "local": 2}
    settings.cloud_model = "m2"
    engine.update_settings(settings)
    assert build_all() == {"analyzer": 1, "cloud": 2, "local": 2}
    # A new detector: the door that re-scans with it is rebuilt too; the models are kept.
    settings.deny_list = ["Falcon"]
    engine.update_settings(settings)
    assert build_all() == {"analyzer": 1, "detector": 1, "cloud": 3, "local": 2}
    assert engine.settings.deny_list == ["Falcon"] and engine.settings.n_ctx == 8192
