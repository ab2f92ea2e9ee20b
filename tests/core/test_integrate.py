"""The local model never makes the cloud's answer worse: capability, guard, pipeline.

The guard runs on the shipped MiniLM encoder (models/encoder); the capability
on GGUF headers (the embedded model's, and synthetic ones whose weights are a
sparse file). The pipeline tests use small fakes for the two models; the
real embedded model and a loopback cloud are in
tests/integration/test_answer_preservation.py.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from core.analyze import Analyzer, Route
from core.detect.base import Detector
from core.detect.rules import RulesView
from core.integrate import (
    AnswerGuard,
    Integrator,
    Mode,
    Notice,
    loop_in,
    numbers_in,
    sentence_repeats,
)
from core.llm.gguf_file import read_gguf
from core.llm.local import Capability, capability_of, embedded_model_path, parse_size_label
from core.settings import Integration, NoteMode, Settings
from core.store import Store
from core.turn import Approval, Assistant, Choices, Token, collect

CLOUD = (
    "For a 7-year-old like Lucy Whitfield, a fever of 39.2 °C is common with infections and "
    "is not dangerous by itself. Seek urgent care if the fever reaches 40 °C or more, lasts "
    "more than 3 days, or comes with a stiff neck, a rash that does not fade when pressed, "
    "trouble breathing or unusual drowsiness. Meanwhile give plenty of fluids and "
    "paracetamol or ibuprofen at the dose on the pack."
)
MESSAGE = (
    "My daughter Lucy Whitfield, 7, has had a fever of 39.2 °C since 03/02/2024. "
    "Her pediatrician is Dr. Anand Krishnan at Riverside Clinic. "
    "What fever is too high for a child of that age?"
)
#: What the embedded 135M model wrote when it "integrated" this answer (the issue).
LOOP = (
    "The child should be treated at the emergency room immediately. If the child is 7 years "
    "old, the child should be treated at the emergency room immediately. "
) * 23


# --- the guard's pieces --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("£3,850.00 net 30", {"3850.00", "30"}),
        ("39.2 °C on 03/02/2024", {"39.2", "03/02/2024"}),
        ("no figures", set()),
    ],
)
def test_numbers_are_compared_without_thousands_separators(text: str, expected: set[str]) -> None:
    assert numbers_in(text) == expected


def test_sentence_repeats_and_loops_are_counted() -> None:
    assert sentence_repeats(LOOP)[0] == 23
    assert sentence_repeats(CLOUD)[0] == 1
    assert loop_in(LOOP) is not None
    assert loop_in(CLOUD) is None


@pytest.fixture(scope="module")
def guard() -> AnswerGuard:
    from core.router.encoder import SentenceEncoder

    return AnswerGuard(
        SentenceEncoder(), Detector([RulesView()]), min_similarity=Settings().merge_min_similarity
    )


@pytest.mark.parametrize(
    ("merged", "reason"),
    [
        (CLOUD, None),
        ("Here is what I would do. " + CLOUD, None),
        (CLOUD + " Dr. Anand Krishnan at Riverside Clinic can see her first.", None),
        (CLOUD + " Keep Lucy Whitfield's temperature chart for Dr. Krishnan.", None),
        (CLOUD + " Ask Dr. Whitfield-Krishnan first.", None),
        (LOOP, "repeated a sentence 23 times"),
        (CLOUD.replace("40 °C", "38 °C"), "added figures"),
        (CLOUD.replace("40 °C or more, ", ""), "left out figures"),
        (CLOUD + " Ask Dr. Moreau at Lakeside Hospital.", "added names"),
        (CLOUD.replace(" Meanwhile give plenty of fluids and paracetamol or ibuprofen at the "
                       "dose on the pack.", ""), "left out part of the cloud's answer"),
        ("To reset a router, hold its button until the lights blink.", "changed the cloud's answer"),
        ("", "wrote nothing"),
    ],
    ids=["verbatim", "preamble", "private-detail-added", "possessive-and-title", "hyphenated-known-names", "loop", "changed-figure",
         "dropped-figure", "invented-name", "dropped-sentence", "other-answer", "empty"],
)
def test_the_guard_keeps_only_merges_that_keep_the_cloud_answer(
    guard: AnswerGuard, merged: str, reason: str | None
) -> None:
    report = guard.check(merged, CLOUD, [MESSAGE])
    if reason is None:
        assert report.ok, report.reasons
    else:
        assert not report.ok
        assert any(reason in r for r in report.reasons), report.reasons


def test_without_an_encoder_a_required_similarity_fails_closed() -> None:
    report = AnswerGuard(None, None, require_similarity=True).check(CLOUD, CLOUD, [MESSAGE])
    assert not report.ok and "encoder" in report.reasons[0]


# --- capability from the GGUF header ----------------------------------------------------


def _gguf(tmp: Path, params: int, *, template: bool = True, ctx: int = 8192) -> Path:
    """A GGUF v3 file with one Q4_0 tensor of ``params`` weights (a sparse file)."""

    def s(text: str) -> bytes:
        raw = text.encode()
        return struct.pack("<Q", len(raw)) + raw

    kv = [
        s("general.architecture") + struct.pack("<I", 8) + s("llama"),
        s("general.name") + struct.pack("<I", 8) + s("Synthetic"),
        s("llama.context_length") + struct.pack("<I", 4) + struct.pack("<I", ctx),
    ]
    if template:
        kv.append(s("tokenizer.chat_template") + struct.pack("<I", 8) + s("{{ messages }}"))
    rows = params // 4096
    tensor = s("blk.0.w") + struct.pack("<I", 2) + struct.pack("<QQ", 4096, rows)
    tensor += struct.pack("<I", 2) + struct.pack("<Q", 0)  # Q4_0 at offset 0
    head = b"GGUF" + struct.pack("<IQQ", 3, 1, len(kv)) + b"".join(kv) + tensor
    data_offset = -(-len(head) // 32) * 32
    path = tmp / f"m{params}.gguf"
    with path.open("wb") as fh:
        fh.write(head)
        fh.truncate(data_offset + 4096 * rows // 32 * 18)
    return path


def test_the_embedded_model_is_below_the_default_threshold() -> None:
    info = read_gguf(embedded_model_path())
    cap = capability_of(info, Settings().capable_model_b)
    assert 130e6 < cap.parameters < 140e6
    assert info.size_label == "135M" and parse_size_label(info.size_label) == 135_000_000
    assert cap.chat_template and cap.context_length == 8192
    assert not cap.capable and cap.level == "basic"
    assert "0.13 B parameters, below the 1.00 B" in cap.shortfalls()[0]
    assert capability_of(info, 0.1).capable  # the threshold is the person's setting


@pytest.mark.parametrize(
    ("params", "template", "ctx", "capable"),
    [
        (1_236_000_768, True, 131072, True),
        (494_000_128, True, 32768, False),
        (1_236_000_768, False, 131072, False),
        (1_236_000_768, True, 1024, False),
    ],
    ids=["1.2B", "0.5B", "no-template", "short-context"],
)
def test_capability_comes_from_the_tensors_and_the_template(
    tmp_path: Path, params: int, template: bool, ctx: int, capable: bool
) -> None:
    info = read_gguf(_gguf(tmp_path, params, template=template, ctx=ctx))
    cap = capability_of(info, 1.0)
    assert cap.parameters == params // 4096 * 4096
    assert cap.capable is capable


@pytest.mark.parametrize(
    ("label", "value"),
    [("135M", 135_000_000), ("1.5B", 1_500_000_000), ("8x7B", 56_000_000_000), ("big", None)],
)
def test_size_labels(label: str, value: int | None) -> None:
    assert parse_size_label(label) == value


# --- the pipeline ------------------------------------------------------------------


class FakeCloud:
    endpoint = "http://fake"
    model = "fake-model"

    def __init__(self, answer: str) -> None:
        self.answer = answer

    def stream(self, messages: Sequence[dict[str, str]], **kw: object) -> Iterator[str]:
        for i in range(0, len(self.answer), 5):
            yield self.answer[i : i + 5]


class FakeLocal:
    """Answers the note prompt with ``note`` and the merge prompt with ``merged``."""

    def __init__(self, merged: str, note: str = "Nothing to add.", params: int | None = None) -> None:
        self.merged, self.note, self.params = merged, note, params
        self.prompts: list[str] = []

    def capability(self, min_params_b: float) -> Capability:
        if self.params is None:
            raise AttributeError("no header")
        return Capability("fake", self.params, 8192, True, int(min_params_b * 1e9))

    def stream_chat(self, messages: Sequence[dict[str, str]], **kw: Any) -> Iterator[str]:
        self.prompts.append(messages[0]["content"])
        yield self.merged if "Final answer" in messages[-1]["content"] else self.note


TEXT = "Call me on 215-555-4078. What helps against a fever of 39 °C?"


def run_turn(store: Store, segmenter: Any, local: FakeLocal, answer: str, **settings: Any) -> Any:
    analyzer = Analyzer(segmenter, Detector([RulesView()]))
    from core.router.encoder import SentenceEncoder

    a = Assistant(
        Settings(**settings), store, cloud=FakeCloud(answer), local=local, analyzer=analyzer,
    )
    a.integrator.encoder = SentenceEncoder()
    conv = a.new_conversation("t")
    plans = analyzer.analyze(TEXT).plans
    routes = {plans[0].sentence.text: Route.LOCAL, plans[1].sentence.text: Route.REMOTE}
    prepared = a.prepare(TEXT, conv, choices=Choices(routes=routes))
    events = list(a.execute(prepared, Approval.send(prepared)))
    return events, collect(iter(events))


ANSWER = (
    "A fever of 39 °C is common and usually not dangerous. Give fluids and rest. "
    "See a doctor if it lasts more than 3 days."
)


def test_a_basic_model_passes_the_answer_through_and_says_what_stayed_here(
    store: Store, segmenter: Any
) -> None:
    local = FakeLocal(merged="anything", params=135_000_000)
    events, result = run_turn(store, segmenter, local, ANSWER)
    assert result.answer == ANSWER and local.prompts == []  # no note by default below the threshold
    notice = next(e for e in events if isinstance(e, Notice))
    assert notice.mode == "pass_through"
    assert "Call me on 215-555-4078." in notice.text and "cloud did not see it" in notice.text
    assert "below the 1.00 B" in result.integration.reason
    stored = store.messages(result.conversation_id)[-1]
    assert stored["content"] == ANSWER and stored["meta"]["integration"]["mode"] == "pass_through"


def test_a_note_is_separate_and_never_changes_the_answer(store: Store, segmenter: Any) -> None:
    local = FakeLocal(merged="x", note="You can ask them to call you back.", params=135_000_000)
    events, result = run_turn(store, segmenter, local, ANSWER, private_note=NoteMode.ON)
    assert result.answer == ANSWER
    assert result.integration.note == "You can ask them to call you back."
    assert [e.source for e in events if isinstance(e, Token)][-1] == "note"


def test_a_model_of_unknown_size_does_not_rewrite(store: Store, segmenter: Any) -> None:
    _, result = run_turn(store, segmenter, FakeLocal(merged="rewritten"), ANSWER)
    assert result.answer == ANSWER and result.integration.mode is Mode.PASS_THROUGH


def test_a_capable_model_merges_when_the_guard_agrees(store: Store, segmenter: Any) -> None:
    merged = ANSWER + " Keep your phone at hand so the doctor can call you back."
    local = FakeLocal(merged=merged, note="Keep your phone at hand.", params=3_000_000_000)
    events, result = run_turn(store, segmenter, local, ANSWER)
    assert result.answer == merged and result.integration.mode is Mode.MERGED
    assert result.integration.guard.ok and result.integration.cloud == ANSWER
    assert any(isinstance(e, Token) and e.source == "merged" for e in events)


def test_a_capable_model_that_loops_falls_back_with_the_reason(store: Store, segmenter: Any) -> None:
    local = FakeLocal(merged=LOOP, params=3_000_000_000)
    events, result = run_turn(store, segmenter, local, ANSWER)
    assert result.answer == ANSWER and result.integration.mode is Mode.FALLBACK
    notice = next(e for e in events if isinstance(e, Notice)).text
    assert "merge was not used" in notice and "repeated a sentence" in notice


def test_pass_through_setting_never_merges(store: Store, segmenter: Any) -> None:
    local = FakeLocal(merged=ANSWER + " More.", params=3_000_000_000)
    _, result = run_turn(
        store, segmenter, local, ANSWER, chat_integration=Integration.PASS_THROUGH
    )
    assert result.answer == ANSWER and result.integration.mode is Mode.PASS_THROUGH


def test_plan_without_private_sentences_does_nothing() -> None:
    plan = Integrator(Settings()).plan(FakeLocal("x", params=10**10), Integration.LOCAL, [])
    assert not plan.merge and not plan.note
