"""GAMA fusion of detection views and the privacy-identifying agent (core.detect.fusion/agent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.detect.agent import AgentView, parse_answer
from core.detect.fusion import Fusion, fused_detector
from core.entities import EntityType as E
from core.settings import Settings
from core.spans import Span

TEXT = "Ask Jane Austen and my sister Mary Poe at 555-201-3344 in Paris."
JANE = (4, 15)
MARY = (30, 38)
PHONE = (42, 54)
PARIS = (58, 63)


def span(bounds, type_, view, score):
    return Span(bounds[0], bounds[1], type_, score, {view: score})


class StaticView:
    def __init__(self, name, spans):
        self.name = name
        self._spans = spans

    def analyze(self, text):
        return list(self._spans)


class FakeJudge:
    name = "agent"

    def __init__(self, verdicts):
        self.verdicts = verdicts  # value -> 1.0 / 0.0 / None
        self.asked = []

    def judge(self, text, s):
        value = text[s.start : s.end]
        self.asked.append(value)
        return self.verdicts.get(value)


def found(spans):
    return {TEXT[s.start : s.end] for s in spans}


@pytest.mark.parametrize(
    ("proposals", "expected"),
    [
        # Agreement keeps a span whatever its scores.
        (
            {
                "ner": [span(MARY, E.PERSON, "ner", 0.3)],
                "spacy": [span(MARY, E.PERSON, "spacy", 0.3)],
            },
            {"Mary Poe"},
        ),
        # One view alone needs the single-view threshold (0.5).
        ({"ner": [span(MARY, E.PERSON, "ner", 0.45)]}, set()),
        ({"ner": [span(MARY, E.PERSON, "ner", 0.55)]}, {"Mary Poe"}),
        # The rules view has its own, lower threshold here.
        ({"rules": [span(PHONE, E.PHONE, "rules", 0.4)]}, {"555-201-3344"}),
        # Below min_score a proposal does not count, not even for agreement.
        (
            {
                "ner": [span(MARY, E.PERSON, "ner", 0.1)],
                "spacy": [span(MARY, E.PERSON, "spacy", 0.6)],
            },
            {"Mary Poe"},
        ),
    ],
)
def test_fusion_keeps_agreement_and_confident_single_views(proposals, expected):
    fusion = Fusion([], single_view_min=0.5, view_min={"rules": 0.35}, min_score=0.2)
    assert found(fusion.fuse(TEXT, proposals)) == expected


def test_fused_span_is_the_union_and_records_every_view_and_score():
    fusion = Fusion([])
    (out,) = fusion.fuse(
        TEXT,
        {
            "ner": [Span(30, 38, E.PERSON, 0.9, {"ner": 0.9})],
            "spacy": [Span(23, 34, E.PERSON, 0.6, {"spacy": 0.6})],
        },
    )
    # The union is "sister Mary Poe"; refinement then cuts the word in lower case at its
    # head (in a text written with capitals a name has them): "Mary Poe".
    assert (out.start, out.end) == (30, 38)
    assert out.views == {"ner": 0.9, "spacy": 0.6}
    assert out.type is E.PERSON


@pytest.mark.parametrize(
    ("verdicts", "expected"),
    [
        ({"Jane Austen": 0.0, "Mary Poe": 1.0}, {"Mary Poe", "555-201-3344"}),  # public dropped
        ({"Mary Poe": 1.0}, {"Jane Austen", "Mary Poe", "555-201-3344"}),  # no answer: no change
        ({}, {"Jane Austen", "555-201-3344"}),  # low-score Mary stays out without the agent's word
    ],
)
def test_agent_drops_public_names_and_adds_private_ones(verdicts, expected):
    judge = FakeJudge(verdicts)
    views = [
        StaticView("ner", [span(JANE, E.PERSON, "ner", 0.9), span(MARY, E.PERSON, "ner", 0.4)]),
        StaticView("rules", [span(PHONE, E.PHONE, "rules", 0.9)]),
    ]
    spans = Fusion(views, agent=judge).analyze(TEXT)
    assert found(spans) == expected
    assert "555-201-3344" not in judge.asked  # only people, organizations and places
    for s in spans:
        if TEXT[s.start : s.end] in verdicts:
            assert s.views["agent"] == verdicts[TEXT[s.start : s.end]]


def test_allow_and_deny_lists_win_over_the_views():
    views = [
        StaticView("ner", [span(JANE, E.PERSON, "ner", 0.9), span(PARIS, E.LOCATION, "ner", 0.9)])
    ]
    fusion = Fusion(views, allow=["jane austen"], deny=["sister"])
    spans = fusion.analyze(TEXT)
    assert found(spans) == {"Paris", "sister"}
    (deny,) = [s for s in spans if TEXT[s.start : s.end] == "sister"]
    assert "deny-list" in deny.views


def test_fusion_is_a_detector_with_views():
    from core.detect.base import Detector

    assert isinstance(Fusion([]), Detector)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("Private", 1.0),
        (" public.", 0.0),
        ("It is private, not public", 1.0),
        ("maybe", None),
        ("", None),
    ],
)
def test_parse_answer_reads_the_first_verdict(answer, verdict):
    assert parse_answer(answer) == verdict


def test_agent_view_asks_once_per_candidate_in_context_and_survives_failures():
    prompts = []

    def generate(prompt):
        prompts.append(prompt)
        return "private"

    agent = AgentView(generate, context_chars=40)
    mary = span(MARY, E.PERSON, "ner", 0.9)
    assert agent.judge(TEXT, mary) == 1.0
    assert agent.judge(TEXT, mary) == 1.0
    assert len(prompts) == 1 and '"Mary Poe"' in prompts[0] and "sister Mary Poe" in prompts[0]
    assert agent.judge(TEXT, span(PHONE, E.PHONE, "rules", 0.9)) is None  # not asked

    def broken(prompt):
        raise RuntimeError("model gone")

    assert AgentView(broken).judge(TEXT, mary) is None


def test_agent_context_is_cut_at_word_boundaries():
    agent = AgentView(lambda p: "", context_chars=20)
    ctx = agent.context(TEXT, span(MARY, E.PERSON, "ner", 0.9))
    assert "Mary Poe" in ctx and len(ctx) <= 24
    assert all(word in TEXT.split() or word.strip(".") in TEXT for word in ctx.split())


def test_fused_detector_needs_the_ner_model(tmp_path: Path):
    assert fused_detector(Settings(), ner_folder=tmp_path) is None


def test_agent_is_not_asked_about_pattern_matches():
    judge = FakeJudge({"Mary Poe": 0.0})
    views = [StaticView("rules", [span(MARY, E.PERSON, "rules", 0.9)])]
    assert found(Fusion(views, agent=judge).analyze(TEXT)) == {"Mary Poe"}
    assert judge.asked == []


def test_a_models_span_run_into_a_matched_email_keeps_what_lies_outside_it():
    text = "E: snelson@fraserphillips.co.uk\n224 Moore Roads, North Julieport IV3 2TN"
    email = (3, 31)
    model = span((29, 47), E.ADDRESS, "ner", 0.99)  # "uk\n224 Moore Roads"
    rules = span(email, E.EMAIL, "rules", 1.0)
    out = Fusion([StaticView("ner", [model]), StaticView("rules", [rules])], refine=False).analyze(text)
    assert [(text[s.start : s.end], s.type) for s in out] == [
        ("snelson@fraserphillips.co.uk", E.EMAIL),
        ("224 Moore Roads", E.ADDRESS),
    ]


def test_two_links_and_the_next_sentence_a_model_ran_together_stay_apart():
    text = "Candidate: Ana Lee, github.com/ana-lee, linkedin.com/in/ana-lee-07b2. 6 years of Go."
    github = text.index("github.com/ana-lee")
    linkedin = text.index("linkedin.com/in/ana-lee-07b2")
    model = [
        span((github + 11, github + 14), E.ORG, "ner", 0.98),  # "ana"
        span((github + 15, linkedin + 19), E.URL, "ner", 0.91),  # "lee, linkedin.com/in/ana"
        span((linkedin + 20, text.index(" of Go")), E.ID, "ner", 0.79),  # "lee-07b2. 6 years"
    ]
    rules = [
        span((github, github + 18), E.URL, "rules", 0.5),
        span((linkedin, linkedin + 28), E.URL, "rules", 0.5),
    ]
    out = Fusion([StaticView("ner", model), StaticView("rules", rules)], refine=False).analyze(text)
    got = [(text[s.start : s.end], s.type) for s in out]
    # Each link whole and typed a link, held by the model's evidence inside it; the
    # model's "6 years" outside the link is what is left of its span.
    assert ("github.com/ana-lee", E.URL) in got and ("linkedin.com/in/ana-lee-07b2", E.URL) in got
    assert all("," not in value and ". " not in value for value, _ in got)


def test_a_models_span_of_terms_only_joins_no_name_to_the_next_line():
    text = "Dr. Anneliese Vukovic MBBS MRCGP\nGP Partner, Castlegate Health Centre"
    person = span((0, 21), E.PERSON, "ner", 1.0)
    terms = span((text.index("MRCGP"), text.index(" Partner")), E.ORG, "ner", 0.92)  # "MRCGP\nGP"
    role = span((text.index("GP Partner"), text.index(",")), E.PERSON, "name-extent", 0.4)
    out = Fusion([StaticView("ner", [person, terms]), StaticView("rules", [role])]).analyze(text)
    assert [(text[s.start : s.end], s.type) for s in out] == [("Dr. Anneliese Vukovic", E.PERSON)]


def test_a_names_extent_stops_before_of_and_a_homes_word():
    # "Mr Kwame Asante of Flat 3": the rules' run of capitals went on over "of Flat" and
    # joined the person to the address; the person ends before "of".
    from core.detect.rules import NAME_EXTENT

    text = "Write to our tenant, Mr Kwame Asante of Flat 3, 27 Elmfield Road, Leeds."
    person = (text.index("Mr"), text.index(" of"))
    flat = (text.index("Flat"), text.index(", 27"))
    extent = Span(person[0], text.index(" 3,"), E.OTHER, 0.4, {NAME_EXTENT: 0.4})
    model = [span(person, E.PERSON, "ner", 0.98), span(flat, E.ADDRESS, "ner", 0.91)]
    out = Fusion([StaticView("ner", model), StaticView("rules", [extent])], refine=False).analyze(text)
    assert [(text[s.start : s.end], s.type) for s in out] == [
        ("Mr Kwame Asante", E.PERSON),
        ("Flat 3", E.ADDRESS),
    ]


def test_a_names_extent_stops_before_of_between_a_person_and_a_firm():
    # "Sunil Mehta of Mehta & Co Chartered Accountants": the rules' run of capitals joined
    # the person to the firm; the model's person ends before "of" and its firm begins after.
    from core.detect.rules import NAME_EXTENT

    text = "My accountant, Sunil Mehta of Mehta & Co Chartered Accountants, says I owe tax."
    person = (text.index("Sunil"), text.index(" of"))
    firm = (text.index("Mehta &"), text.index(", says"))
    extent = Span(person[0], firm[1], E.OTHER, 0.4, {NAME_EXTENT: 0.4})
    model = [span(person, E.PERSON, "ner", 1.0), span(firm, E.ORG, "ner", 0.97)]
    out = Fusion([StaticView("ner", model), StaticView("rules", [extent])], refine=False).analyze(text)
    assert [(text[s.start : s.end], s.type) for s in out] == [
        ("Sunil Mehta", E.PERSON),
        ("Mehta & Co Chartered Accountants", E.ORG),
    ]
    # One name with "of" in it stays whole: "Bank of England".
    text = "The Bank of England raised rates."
    bank = (text.index("Bank"), text.index(" raised"))
    out = Fusion(
        [StaticView("ner", [span(bank, E.ORG, "ner", 0.99)]),
         StaticView("rules", [Span(*bank, E.OTHER, 0.4, {NAME_EXTENT: 0.4})])],
        refine=False,
    ).analyze(text)
    assert [(text[s.start : s.end], s.type) for s in out] == [("Bank of England", E.ORG)]


def test_a_span_ends_before_the_next_lines_setting() -> None:
    # A model's "harriet\n      POSTGRES" in a compose file's block: the first value keeps
    # its own span and the key of the next line is no part of it.
    text = "    environment:\n      POSTGRES_USER: harriet\n      POSTGRES_PASSWORD: Tr0ub4dor&3\n"
    run_on = (text.index("harriet"), text.index("_PASSWORD"))
    secret = (text.index("Tr0ub4dor"), text.index("&3") + 2)
    out = Fusion(
        [StaticView("ner", [span(run_on, E.PERSON, "ner", 0.94), span(secret, E.ID, "ner", 0.75)])],
        refine=False,
    ).analyze(text)
    assert [(text[s.start : s.end], s.type) for s in out] == [("harriet", E.PERSON), ("Tr0ub4dor&3", E.ID)]
    # A name over two lines of prose stays whole.
    text = "Dear Anna\nMaria, thanks."
    both = (0 + 5, text.index(","))
    out = Fusion([StaticView("ner", [span(both, E.PERSON, "ner", 0.9)])], refine=False).analyze(text)
    assert [(text[s.start : s.end], s.type) for s in out] == [("Anna\nMaria", E.PERSON)]
