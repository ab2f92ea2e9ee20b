"""The detector gate's verdict, noise margins, table and alignment, on tiny fixtures."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from training.gate.forms import WITHHELD, Stretch, align, summarize_forms
from training.gate.measures import detect_figures, sample, utility_figures
from training.gate.verdict import Figure, compare, margin, markdown, new_leaks, to_json

# --- margins -------------------------------------------------------------------------


def test_a_proportion_has_one_binomial_standard_error_as_margin() -> None:
    assert margin(Figure(0.8, 400)) == pytest.approx(math.sqrt(0.8 * 0.2 / 400))  # 0.02


def test_a_proportion_margin_is_at_least_one_item() -> None:
    assert margin(Figure(1.0, 50)) == pytest.approx(1 / 50)
    assert margin(Figure(0.0, 8)) == pytest.approx(1 / 8)


def test_a_count_margin_is_its_square_root_at_least_one() -> None:
    assert margin(Figure(0.0, 85, "count", False)) == 1.0
    assert margin(Figure(16.0, 85, "count", False)) == 4.0


@given(st.floats(0, 1), st.integers(1, 100_000))
def test_a_proportion_margin_is_between_one_item_and_half_over_root_n(p: float, n: int) -> None:
    m = margin(Figure(p, n))
    assert 1 / n - 1e-12 <= m <= max(1 / n, 0.5 / math.sqrt(n)) + 1e-12


# --- the verdict -------------------------------------------------------------------------


def rates(**values: float) -> dict[str, Figure]:
    return {k.replace("__", "."): Figure(v, 400) for k, v in values.items()}


def test_the_same_figures_ship_with_zero_differences() -> None:
    fig = rates(pupa__unit_recall=0.85, forms__type_accuracy=0.9)
    c = compare(fig, dict(fig), {"forms": {"a": ["x"]}}, {"forms": {"a": ["x"]}})
    assert c.verdict == "SHIP"
    assert [r.difference for r in c.rows] == [0.0, 0.0]
    assert {r.status for r in c.rows} == {"="}


def test_a_loss_within_the_noise_ships() -> None:
    # margin of 0.8 over 400: 0.02; a loss of 0.015 is noise.
    c = compare(rates(a=0.8), rates(a=0.785), {}, {})
    assert c.verdict == "SHIP"
    assert c.rows[0].status == "="


def test_a_loss_beyond_the_margin_holds() -> None:
    c = compare(rates(a=0.8), rates(a=0.77), {}, {})
    assert c.verdict == "HOLD"
    assert c.rows[0].status == "worse"
    assert "a lost 0.03" in c.reasons[0]


def test_a_gain_beyond_the_margin_is_better_and_ships() -> None:
    c = compare(rates(a=0.8), rates(a=0.9), {}, {})
    assert (c.verdict, c.rows[0].status) == ("SHIP", "better")


def test_a_count_that_grows_beyond_its_margin_holds() -> None:
    before = {"utility.glued": Figure(4.0, 85, "count", False)}
    within = {"utility.glued": Figure(6.0, 85, "count", False)}  # +2 <= sqrt(4)
    beyond = {"utility.glued": Figure(7.0, 85, "count", False)}
    assert compare(before, within, {}, {}).verdict == "SHIP"
    assert compare(before, beyond, {}, {}).verdict == "HOLD"


def test_a_new_leak_holds_even_when_the_total_falls() -> None:
    before = {"utility": {"t1": ["Ana Berg", "0612"], "t2": ["x"]}}
    after = {"utility": {"t1": ["Ana Berg"], "t3": ["INV-1"]}}
    c = compare({}, {}, before, after)
    assert c.verdict == "HOLD"
    assert c.new_leaks == [{"set": "utility", "id": "t3", "value": "INV-1"}]


def test_a_leak_that_moves_to_another_text_is_new() -> None:
    assert new_leaks({"forms": {"a": ["v"]}}, {"forms": {"b": ["v"]}}) == [
        {"set": "forms", "id": "b", "value": "v"}
    ]


def test_a_figure_missing_on_one_side_holds() -> None:
    c = compare(rates(a=0.8, b=0.5), rates(a=0.8), {}, {})
    assert c.verdict == "HOLD"
    assert c.rows[1].status == "missing"


# --- the table ---------------------------------------------------------------------------


def test_the_table_has_every_column_and_the_verdict() -> None:
    before = {**rates(a=0.8), "s.leaks": Figure(0.0, 6, "count", False)}
    after = {**rates(a=0.75), "s.leaks": Figure(0.0, 6, "count", False)}
    c = compare(before, after, {}, {})
    md = markdown(c, "HEAD (abc)", "working tree", ["Wall time of this gate run: 1 s."])
    lines = md.splitlines()
    assert lines[0] == "# Detector gate: HOLD"
    header = "| figure | n | before | after | difference | noise margin | verdict |"
    assert header in lines
    assert "| a | 400 | 0.8000 | 0.7500 | -0.0500 | 0.0200 | worse |" in lines
    assert "| s.leaks | 6 | 0 | 0 | 0 | 1 | = |" in lines
    assert "binomial standard error" in md and "Wall time" in md
    data = json.loads(to_json(c, {"name": "HEAD"}, {"name": "tree"}))
    assert data["verdict"] == "HOLD" and data["rows"][0]["margin"] == pytest.approx(0.02)
    assert set(data) >= {"reasons", "margin_rule", "before", "after", "new_leaks", "rows"}


# --- figures of the measures ------------------------------------------------------------------


def test_conll_figures_are_recall_per_label_and_precision() -> None:
    r = {
        "recall_by_label": {"person": {"gold": 10, "caught": 9, "recall": 0.9}},
        "spans": {"overlap": {"untyped": {"precision": 0.5, "tp": 3, "fp": 3}}},
    }
    figs = detect_figures("wnut17", r)
    assert figs["wnut17.recall.person"] == Figure(0.9, 10).to_json()
    assert figs["wnut17.precision"] == Figure(0.5, 6).to_json()


def test_utility_figures_count_over_texts_and_rate_over_strings() -> None:
    r = {"n": 6, "leaks": 1, "keep_rate": 0.5, "keep_total": 26, "lost_withheld": 2,
         "keep_rate_sent": 0.6, "glued": 0, "person_splits": 0, "person_scored": 5, "blocked": 0}
    figs = utility_figures("shared", r)
    assert figs["shared.leaks"] == Figure(1.0, 6, "count", False).to_json()
    assert figs["shared.keep_rate_sent"]["n"] == 24
    assert figs["shared.person_splits"]["n"] == 5
    assert figs["shared.partial_leaks"] == Figure(0.0, 6, "count", False).to_json()
    figs = utility_figures("shared", {**r, "partial_leaks": 2})
    assert figs["shared.partial_leaks"] == Figure(2.0, 6, "count", False).to_json()


def test_the_quick_sample_is_fixed_and_in_file_order() -> None:
    xs = list(range(10_000))
    a, b = sample(xs, 1000), sample(xs, 1000)
    assert a == b and len(a) == 1000 and a == sorted(a)
    assert sample(xs, None) == xs and sample(xs[:5], 1000) == xs[:5]


# --- alignment of the outbound with the text ----------------------------------------------------


def test_alignment_finds_each_placeholders_stretch() -> None:
    text = "NHS number 943 476 5919. HbA1c 8.4%"
    out = "NHS number [ID_1]. HbA1c 8.4%"
    got = align(text, out, {"[ID_1]": ["943 476 5919"]}, {"[ID_1]": "ID"})
    assert got == [Stretch(11, 23, "[ID_1]", "ID")]


def test_alignment_of_a_label_swallowed_with_its_value() -> None:
    text = "CVV: 123\n"
    got = align(text, "[ID_1]", {"[ID_1]": ["CVV: 123"]}, {"[ID_1]": "ID"})
    assert got == [Stretch(0, 8, "[ID_1]", "ID")]


def test_alignment_of_a_withheld_run_and_a_value_the_box_knows_otherwise() -> None:
    text = "Hi. I am Ana Berg, call 0612 345 678.\nThanks"
    out = f"Hi. {WITHHELD}\n[PERSON_1]s"
    got = align(
        text.replace("Thanks", "Anas"), out, {"[PERSON_1]": ["Ana"]}, {"[PERSON_1]": "PERSON"}
    )
    assert got is not None
    assert got[0].placeholder == WITHHELD
    assert text[got[0].start : got[0].end] == " I am Ana Berg, call 0612 345 678."
    assert got[1] == Stretch(38, 41, "[PERSON_1]", "PERSON")


def test_a_withheld_line_after_a_blank_line_is_the_line_not_nothing() -> None:
    # The composer trims the whitespace around a withheld run: the run must still stand
    # for the sentence, not for the empty stretch before the blank line's second newline.
    text = "Translate this:\n\nLori Whitney · Solicitor\nFrancis-Martin · 139 Thompson Plaza"
    out = f"Translate this:\n\n{WITHHELD}\n[ORG_1] · [ADDRESS_1]"
    got = align(
        text, out, {"[ORG_1]": ["Francis-Martin"], "[ADDRESS_1]": ["139 Thompson Plaza"]},
        {"[ORG_1]": "ORG", "[ADDRESS_1]": "ADDRESS"},
    )
    assert got is not None
    assert text[got[0].start : got[0].end].strip() == "Lori Whitney · Solicitor"
    assert [text[s.start : s.end] for s in got[1:]] == ["Francis-Martin", "139 Thompson Plaza"]


def test_an_outbound_that_is_not_the_text_does_not_align() -> None:
    assert align("a b c", "a [ID_1] d", {"[ID_1]": ["b"]}, {"[ID_1]": "ID"}) is None


def test_placeholder_like_text_the_box_does_not_know_is_literal() -> None:
    got = align("see [PERSON_9] and Bo", "see [PERSON_9] and [PERSON_1]",
                {"[PERSON_1]": ["Bo"]}, {"[PERSON_1]": "PERSON"})
    assert got == [Stretch(19, 21, "[PERSON_1]", "PERSON")]


@given(
    st.lists(
        st.tuples(st.text("ab :\n", min_size=1, max_size=6), st.text("xyz0", min_size=1, max_size=5)),
        min_size=1,
        max_size=5,
    )
)
def test_alignment_recovers_every_replacement(parts: list[tuple[str, str]]) -> None:
    text, out, forms, types, want = "", "", {}, {}, []
    for i, (lit, value) in enumerate(parts, 1):
        ph = f"[ID_{i}]"
        text += lit
        out += lit
        want.append(Stretch(len(text), len(text) + len(value), ph, "ID"))
        text += value
        out += ph
        forms[ph], types[ph] = [value], "ID"
    got = align("_" + text + "_", "_" + out + "_", forms, types)
    assert got == [Stretch(s.start + 1, s.end + 1, s.placeholder, s.type) for s in want]


def test_forms_totals() -> None:
    rows = [
        {
            "leaks": ["x"],
            "labels_kept": 3,
            "labels_lost": ["CVV:"],
            "labels_withheld": [],
            "aligned": True,
            "spans": [
                {"gold": "SSN", "got": "SSN", "outcome": "right"},
                {"gold": "CREDIT_CARD", "got": "PHONE", "outcome": "wrong type"},
                {"gold": "ID", "got": "", "outcome": "withheld"},
            ],
        }
    ]
    s = summarize_forms(rows)
    assert (s["leaks"], s["labels_kept"], s["type_accuracy"]) == (1, 0.75, 0.5)
    assert (s["spans_scored"], s["spans_withheld"]) == (2, 1)
    assert s["errors"] == {"CREDIT_CARD -> PHONE": 1}


# --- fingerprints and the cache ----------------------------------------------------------------


def test_the_fingerprint_follows_the_measured_code_and_the_cache_finds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from training.gate import baseline as bl

    tree = tmp_path / "tree"
    (tree / "core").mkdir(parents=True)
    (tree / "models").mkdir()
    (tree / "core" / "rules.py").write_text("A = 1\n")
    (tree / "models" / "m.json").write_text("{}\n")
    subprocess.run(["git", "init", "-q", str(tree)], check=True)
    data = tmp_path / "set.json"
    data.write_text("[]\n")

    fp = bl.fingerprint(tree, [data], quick=True)
    assert fp == bl.fingerprint(tree, [data], quick=True)
    assert fp != bl.fingerprint(tree, [data], quick=False)
    (tree / "core" / "rules.py").write_text("A = 2\n")  # untracked files count too
    changed = bl.fingerprint(tree, [data], quick=True)
    assert changed != fp
    data.write_text("[1]\n")
    assert bl.fingerprint(tree, [data], quick=True) != changed

    monkeypatch.setattr(bl, "CACHE", tmp_path / "cache")
    assert bl.cached(fp, True) is None
    path = bl.store("a" * 40, fp, True, {"figures": {}, "leaks": {}})
    assert path.name.startswith("aaaaaaaaaaaa-")
    hit = bl.cached(fp, True)
    assert hit is not None and hit["commit"] == "a" * 40
    assert bl.cached(fp, False) is None


def test_a_count_margin_is_written_short() -> None:
    before = {"f.leaks": Figure(18.0, 52, "count", False)}
    md = markdown(compare(before, dict(before), {}, {}), "a", "b")
    assert "| f.leaks | 52 | 18 | 18 | 0 | 4.24 | = |" in md.splitlines()


def test_alignment_takes_the_whitespace_beside_a_withheld_run_from_the_text() -> None:
    # The composer wrote "Cc [withheld]" for "Cc: Dale Phillips <d@x.com>": the space is its own.
    text = "To: a@b.co\nCc: Dale Phillips <d@x.com>\nHi Norman"
    out = f"To: [EMAIL_1]\nCc {WITHHELD}\nHi [PERSON_1]"
    forms = {"[EMAIL_1]": ["a@b.co"], "[PERSON_1]": ["Norman"]}
    got = align(text, out, forms, {"[EMAIL_1]": "EMAIL", "[PERSON_1]": "PERSON"})
    assert got is not None
    assert [text[s.start : s.end] for s in got] == ["a@b.co", ": Dale Phillips <d@x.com>\n", "Norman"]
