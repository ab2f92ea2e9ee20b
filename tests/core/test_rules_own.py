"""Our own PatternRecognizers in the rules view: user paths, credentials, proper-name extents.

Synthetic text only.
"""

from __future__ import annotations

import pytest

from core.detect.fusion import Fusion, fusion_options
from core.detect.rules import NAME_EXTENT, RulesView
from core.entities import EntityType
from core.settings import Settings
from core.spans import Span


@pytest.fixture(scope="module")
def extents_view() -> RulesView:
    return RulesView(name_extents=True)


def _texts(view: RulesView, text: str, etype: EntityType | None = None) -> set[str]:
    return {text[s.start : s.end] for s in view.analyze(text) if etype is None or s.type is etype}


# --- user paths -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            r"open C:\Users\Jane Roe\Desktop\notes.txt and read",
            r"C:\Users\Jane Roe\Desktop\notes.txt",
        ),
        (r"at c:\users\jroe\app\main.js:12:7 in", r"c:\users\jroe\app\main.js:12:7"),
        ("thrown in /home/jroe/www/login.php(25) today", "/home/jroe/www/login.php(25)"),
        ("saved to /Users/jroe/Documents/plan.md", "/Users/jroe/Documents/plan.md"),
    ],
)
def test_user_paths(rules_view: RulesView, text: str, value: str) -> None:
    assert value in _texts(rules_view, text, EntityType.ID)


@pytest.mark.parametrize(
    "text",
    [
        r"the config lives in C:\Program Files\Tool\tool.ini",
        "logs go to /var/log/syslog and /usr/local/bin",
        "see https://example.com/home/page for details",
    ],
)
def test_paths_outside_a_home_folder_are_not_user_paths(rules_view: RulesView, text: str) -> None:
    ids = _texts(rules_view, text, EntityType.ID)
    assert not any("/" in v or "\\" in v for v in ids), ids


# --- credentials -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('db_password = "Sunset@2024" in the file', 'db_password = "Sunset@2024'),
        ("curl -d refresh_token=1000.abc123def456 -X POST", "refresh_token=1000.abc123def456"),
        ('{"api_key": "sk-test-0000aaaa1111"}', 'api_key": "sk-test-0000aaaa1111'),
        ("Authorization: Bearer abcdefghijklmnop1234567890", "Bearer abcdefghijklmnop1234567890"),
    ],
)
def test_credentials(rules_view: RulesView, text: str, value: str) -> None:
    assert value in _texts(rules_view, text, EntityType.ID)


@pytest.mark.parametrize(
    "text",
    [
        "client.chat(max_tokens=256, temperature=0.2)",
        "self.password = password",
        'url = f"{base}?token={token}"',
        "I forgot my password again, can you help me reset it?",
        "debug = true; secret = none",
    ],
)
def test_code_and_prose_are_not_credentials(rules_view: RulesView, text: str) -> None:
    assert _texts(rules_view, text, EntityType.ID) == set()


# --- proper-name extents -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("we stayed at the Brightwater Concept Hotel last week", "Brightwater Concept Hotel"),
        ("she studies at the Institute of Marine Studies in town", "Institute of Marine Studies"),
        ("the team from the TU Wien won", "TU Wien"),
        ('include "Oakridge Valley Farm" as an option', "Oakridge Valley Farm"),
    ],
)
def test_proper_name_extents(extents_view: RulesView, text: str, value: str) -> None:
    spans = [s for s in extents_view.analyze(text) if text[s.start : s.end] == value]
    assert spans, extents_view.analyze(text)
    assert all(set(s.views) == {NAME_EXTENT} for s in spans)


@pytest.mark.parametrize(
    "text",
    [
        "Brightwater Hotel is lovely.",  # the sentence's first capital is left out
        "Summary: Service Desk",  # so is the one after a colon
        "we met Anna and Ben at noon",  # "and" joins two names, it is not part of one
        "nothing capitalized here at all",
    ],
)
def test_no_proper_name_extent(extents_view: RulesView, text: str) -> None:
    assert _texts(extents_view, text, EntityType.OTHER) == set()


def test_extents_are_off_unless_asked(rules_view: RulesView) -> None:
    assert (
        _texts(rules_view, "we stayed at the Brightwater Concept Hotel", EntityType.OTHER) == set()
    )


def _ner(text: str, value: str) -> Span:
    a = text.index(value)
    return Span(a, a + len(value), EntityType.ORG, 0.9, {"ner": 0.9})


def test_fusion_widens_a_name_to_its_extent(extents_view: RulesView) -> None:
    text = "we stayed at the Brightwater Concept Hotel last week"
    fusion = Fusion([], **fusion_options(Settings()))
    proposals = {"ner": [_ner(text, "Brightwater")], "rules": extents_view.analyze(text)}
    spans = fusion.fuse(text, proposals)
    assert [text[s.start : s.end] for s in spans] == ["Brightwater Concept Hotel"]
    assert spans[0].type is EntityType.ORG


def test_fusion_drops_an_extent_no_other_view_found(extents_view: RulesView) -> None:
    text = "please read the Customer Service Coordinator handbook"
    fusion = Fusion([], **fusion_options(Settings()))
    assert fusion.fuse(text, {"ner": [], "rules": extents_view.analyze(text)}) == []


class _Judge:
    name = "judge"

    def __init__(self) -> None:
        self.asked: list[str] = []

    def judge(self, text: str, span: Span) -> float | None:
        self.asked.append(text[span.start : span.end])
        return 0.0  # "public"


def test_the_agent_still_judges_a_widened_name(extents_view: RulesView) -> None:
    text = "we stayed at the Brightwater Concept Hotel last week"
    judge = _Judge()
    fusion = Fusion([], agent=judge, **fusion_options(Settings()))
    proposals = {"ner": [_ner(text, "Brightwater")], "rules": extents_view.analyze(text)}
    assert fusion.fuse(text, proposals) == []
    assert judge.asked == ["Brightwater Concept Hotel"]
