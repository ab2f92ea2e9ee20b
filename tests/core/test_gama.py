from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from core.box import PrivacyBox
from core.gama import DOMAINS, TERMS, PublicSpace, membership_term, parse_ratings, tfidf_relations
from core.settings import Settings


@pytest.mark.parametrize(
    ("task", "domain"),
    [
        ("My doctor changed the dose of my blood pressure medication; what symptoms matter?", "Medicine"),
        ("Write a poem and a short story whose character is a famous author", "Literature"),
        ("Which team won the football league championship cup final?", "Sports"),
        ("Draft a reply email to my manager about the meeting feedback", "Communication"),
    ],
)
def test_tfidf_finds_the_obvious_domain(task: str, domain: str) -> None:
    rel = tfidf_relations(task)
    assert set(rel) == set(DOMAINS) and len(DOMAINS) == 20
    assert max(rel, key=rel.get) == domain  # type: ignore[arg-type]
    assert rel[domain] == 1.0


def test_tfidf_of_unrelated_text_is_zero() -> None:
    assert set(tfidf_relations("zzz qqq").values()) == {0.0}


@pytest.mark.parametrize(("score", "term"), [(0.0, "Extremely Low"), (0.5, "Medium"), (0.99, "Extremely High"), (1.0, "Extremely High")])
def test_membership_terms(score: float, term: str) -> None:
    assert membership_term(score) == term and len(TERMS) == 7


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('Sure! {"Medicine": 9, "Law": 2}', {"Medicine": 0.9, "Law": 0.2}),
        ("Medicine: 8\nFinance - 1", {"Medicine": 0.8, "Finance": 0.1}),
        ("I cannot rate that.", {}),
    ],
)
def test_parse_ratings(text: str, expected: dict[str, float]) -> None:
    assert parse_ratings(text) == pytest.approx(expected)


class ScriptedCloud:
    endpoint, model = "http://fake", "fake"

    def __init__(self, replies: dict[str, list[str]]) -> None:
        self.replies = replies
        self.calls: list[tuple[str, list[dict[str, str]]]] = []

    def stream(self, messages: Sequence[dict[str, str]], *, purpose: str, **kw: object) -> Iterator[str]:
        self.calls.append((purpose, list(messages)))
        key = purpose.split(":")[1]
        queue = self.replies.get(key, ["answer"])
        yield queue.pop(0) if len(queue) > 1 else queue[0]


MSGS = [{"role": "system", "content": "sys"}, {"role": "user", "content": "[PERSON_1] has chest pain and a high dose of medication"}]


def run(settings: Settings, cloud: ScriptedCloud) -> tuple[str, PublicSpace]:
    ps = PublicSpace(settings, cloud)
    return "".join(ps.run(MSGS, box=PrivacyBox(), conversation_id=None)), ps


def test_all_modules_in_order_and_every_call_through_the_door() -> None:
    cloud = ScriptedCloud(
        {
            "domains": ['{"Medicine": 10, "Psychology": 6}'],
            "expert": ["medical view", "psych view"],
            "fusion": ["fused"],
            "disproof": ["CONTRADICTION: dose", "NO CONTRADICTION"],
            "revise": ["revised"],
        }
    )
    s = Settings(gama_auto_prompt=True, gama_domain_rules=True, gama_disproof=True, gama_top_k=2, gama_disproof_rounds=3)
    answer, ps = run(s, cloud)
    assert answer == "revised"
    purposes = [p for p, _ in cloud.calls]
    assert purposes == [
        "gama:domains",
        "gama:expert:Medicine",
        "gama:expert:Psychology",
        "gama:fusion",
        "gama:disproof",
        "gama:revise",
        "gama:disproof",
    ]
    fusion_prompt = "\n".join(m["content"] for m in cloud.calls[3][1])
    assert "Extremely High" in fusion_prompt  # membership terms decided on the machine
    assert ps.trace[0]["domains"][0]["domain"] == "Medicine"


def test_disproof_stops_at_the_round_limit() -> None:
    cloud = ScriptedCloud({"disproof": ["CONTRADICTION: x"], "revise": ["again"]})
    answer, _ = run(Settings(gama_disproof=True, gama_disproof_rounds=2), cloud)
    assert [p for p, _ in cloud.calls].count("gama:disproof") == 2 and answer == "again"


def test_auto_prompt_alone_frames_one_call() -> None:
    cloud = ScriptedCloud({"domains": ['{"Medicine": 10}']})
    run(Settings(gama_auto_prompt=True, gama_top_k=1), cloud)
    assert [p for p, _ in cloud.calls] == ["gama:domains", "gama:answer"]
    assert cloud.calls[1][1][0]["content"].startswith("You are an expert in Medicine")


def test_a_changed_payload_is_refused_before_any_module_sends() -> None:
    from core.errors import PayloadChanged
    from core.outbound import payload_digest

    cloud = ScriptedCloud({"domains": ['{"Medicine": 10}']})
    ps = PublicSpace(Settings(gama_auto_prompt=True, gama_disproof=True), cloud)
    approved = payload_digest(MSGS)
    changed = [MSGS[0], {"role": "user", "content": MSGS[1]["content"] + " today"}]
    with pytest.raises(PayloadChanged):
        ps.run(changed, box=PrivacyBox(), conversation_id=None, approved=approved)
    assert cloud.calls == []
    answer = "".join(ps.run(MSGS, box=PrivacyBox(), conversation_id=None, approved=approved))
    assert answer and cloud.calls
