"""``sottovoce eval detect``: span matching, presidio-evaluator scores, the results file."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from core.entities import EntityType as E
from core.spans import Span
from training.eval_detect import SpanScores, Tally, presidio_evaluator_scores, token_rows
from training.metrics import GoldSpan, Record

TEXT = "Call Ann Lee at 555-201-3344 in Paris."
GOLD = [(5, 12, "PERSON"), (16, 28, "PHONE"), (32, 37, "LOCATION")]


@pytest.mark.parametrize(
    ("pred", "matching", "mode", "tp", "fp", "fn"),
    [
        (GOLD, "strict", "typed", 3, 0, 0),
        ([(5, 8, "PERSON"), (16, 28, "PHONE")], "strict", "typed", 1, 1, 2),
        ([(5, 8, "PERSON"), (16, 28, "PHONE")], "overlap", "typed", 2, 0, 1),
        ([(5, 12, "ORG"), (16, 28, "PHONE"), (32, 37, "LOCATION")], "strict", "typed", 2, 1, 1),
        ([(5, 12, "ORG"), (16, 28, "PHONE"), (32, 37, "LOCATION")], "strict", "untyped", 3, 0, 0),
        ([(4, 12, "PERSON")], "iou90", "typed", 1, 0, 2),  # a leading space is trimmed
    ],
)
def test_span_scores_count_matches_per_matching(pred, matching, mode, tp, fp, fn):
    scores = SpanScores()
    scores.add(TEXT, GOLD, pred)
    cell = scores.to_json()[matching][mode]
    assert (cell["tp"], cell["fp"], cell["fn"]) == (tp, fp, fn)


def test_presidio_evaluator_scores_perfect_and_empty_predictions():
    perfect = presidio_evaluator_scores(token_rows(0, TEXT, GOLD, GOLD))
    assert perfect["span_f2"] == 1.0 and perfect["span_precision"] == 1.0
    empty = presidio_evaluator_scores(token_rows(0, TEXT, GOLD, []))
    assert empty["span_recall"] == 0.0


def test_tally_reports_units_precision_and_latency():
    record = Record("r1", TEXT, ["Ann Lee", "555-201-3344", "Bob"], case_sensitive=True)
    tally = Tally(with_spans=False)
    spans = [Span(5, 12, E.PERSON, 0.9), Span(0, 4, E.OTHER, 0.9)]
    tally.add(record, spans, 12.0)
    out = tally.to_json()
    assert out["unit_recall"] == 0.5 and out["units_not_located"] == 1
    assert out["span_precision"] == 0.5  # one of two spans touches a unit
    assert out["latency_ms_p50"] == 12.0
    assert tally.misses == [{"id": "r1", "missed": ["555-201-3344"]}]


@pytest.mark.integration
def test_eval_detect_writes_results_and_report(tmp_path: Path):
    from training.eval_detect import run

    data = tmp_path / "med.json"
    data.write_text(
        json.dumps(
            [
                {
                    "id": f"m{i}",
                    "query": f"hi, i am maria lopez, call 215-555-01{i:02d} please.",
                    "pii_units": ["maria lopez", f"215-555-01{i:02d}"],
                }
                for i in range(4)
            ]
        )
    )
    out = tmp_path / "out"
    args = argparse.Namespace(data=str(data), format="medpcd", out=str(out), limit=3, split="all")
    assert run(args) == 0
    results = json.loads((out / "results.json").read_text())
    for key in (
        "unit_recall",
        "units",
        "units_not_located",
        "span_f1",
        "span_f2",
        "span_precision",
        "latency_ms_p50",
        "latency_ms_p95",
    ):
        assert key in results and key in results["presidio"]
    assert results["records"] == 3 and results["units"] == 6
    assert (out / "report.md").read_text().startswith("# Detection")


def test_gold_spans_survive_to_typed_scores():
    record = Record("p", TEXT, ["Ann Lee"], spans=[GoldSpan(5, 12, "PERSON")])
    tally = Tally(with_spans=True)
    tally.add(record, [Span(5, 12, E.PERSON, 0.9)], None)
    out = tally.to_json()
    assert out["span_f2"] == 1.0 and out["spans"]["strict"]["typed"]["tp"] == 1


def test_recall_by_label_counts_each_gold_span_whatever_type_we_gave():
    text = "met anna lee at wipro in noida"
    record = Record(
        "c",
        text,
        ["anna lee", "wipro", "noida"],
        spans=[GoldSpan(4, 12, "person"), GoldSpan(16, 21, "corporation"), GoldSpan(25, 30, "location")],
    )
    tally = Tally(with_spans=True)
    # "anna lee" caught in two pieces (the space needs no cover), wipro typed wrongly, noida missed.
    tally.add(record, [Span(4, 8, E.PERSON, 0.9), Span(9, 12, E.PERSON, 0.9), Span(16, 21, E.PERSON, 0.9)], None)
    by_label = tally.to_json()["recall_by_label"]
    assert by_label["person"] == {"gold": 1, "caught": 1, "recall": 1.0}
    assert by_label["corporation"]["recall"] == 1.0
    assert by_label["location"] == {"gold": 1, "caught": 0, "recall": 0.0}


def test_gold_type_maps_conll_labels_before_other_vocabularies():
    from training.eval_detect import gold_type

    assert gold_type("corporation") == "ORG" and gold_type("group") == "ORG"
    assert gold_type("LOC") == "LOCATION" and gold_type("PER") == "PERSON"
    assert gold_type("ORGANIZATION") == "ORG"  # Presidio's
    assert gold_type("product") == "OTHER"


@pytest.mark.integration
def test_eval_detect_on_a_conll_file_reports_recall_per_label(tmp_path: Path):
    from training.eval_detect import run

    data = tmp_path / "dev.conll"
    data.write_text(
        "my\tO\nfriend\tO\nMaria\tB-person\nLopez\tI-person\nworks\tO\nat\tO\nGoogle\tB-corporation\n"
        "in\tO\nBerlin\tB-location\n\nnothing\tO\nhere\tO\n\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    args = argparse.Namespace(data=str(data), format="conll", out=str(out), limit=None, split="all")
    assert run(args) == 0
    results = json.loads((out / "results.json").read_text())
    assert results["records"] == 2 and results["units"] == 3
    assert set(results["recall_by_label"]) == {"person", "corporation", "location"}
    assert results["recall_by_label"]["person"]["gold"] == 1
    assert "recall_by_label" in results["presidio"]
    assert results["span_precision"] is not None
    assert "Recall by gold label" in (out / "report.md").read_text()


def test_recall_by_case_splits_units_by_how_they_are_written():
    text = "ask maria lopez or Anna Berg"
    record = Record("k", text, ["maria lopez", "Anna Berg"], case_sensitive=True)
    tally = Tally(with_spans=False)
    tally.add(record, [Span(19, 28, E.PERSON, 0.9)], None)
    by_case = tally.to_json()["recall_by_case"]
    assert by_case == {
        "cased": {"units": 1, "caught": 1, "recall": 1.0},
        "lower": {"units": 1, "caught": 0, "recall": 0.0},
    }


def test_lowercased_records_keep_offsets_and_spans():
    from training.eval_detect import lowercased

    record = Record("p", TEXT, ["Ann Lee"], spans=[GoldSpan(5, 12, "PERSON")])
    (low,) = lowercased([record])
    assert low.text == TEXT.lower() and low.units == ["ann lee"]
    assert low.text[5:12] == "ann lee" and low.spans == record.spans
