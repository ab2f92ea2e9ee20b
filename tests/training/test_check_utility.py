"""The utility set checker: shape, occurrence and satisfiability rules, and the dev set itself."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from training.data.check_utility import check_items, main, normalized_with_offsets, summary
from training.metrics import normalize_for_leak

ROOT = Path(__file__).resolve().parents[2]
DEV_SET = ROOT / "training" / "data" / "utility_dev.json"
SHARED_EXAMPLES = ROOT / ".." / "shared" / "data" / "utility" / "dev_examples.json"


def item(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "x-1",
        "text": "Dr Ana Kovač prescribed 5 mg of ramipril for my BP of 150/90.",
        "protect": ["Ana Kovač"],
        "keep": ["5 mg", "150/90"],
        "persons": 1,
    }
    base.update(overrides)
    return base


def messages(data: Any, level: str) -> list[str]:
    return [p.message for p in check_items(data) if p.level == level]


def test_a_clean_item_has_no_problems() -> None:
    assert check_items([item()]) == []


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"id": "x"}, "must be a JSON list"),
        ([], "the list is empty"),
        (["text"], "must be an object"),
        ([{k: v for k, v in item().items() if k != "keep"}], "missing field 'keep'"),
        ([item(persons="1")], "'persons' must be int"),
        ([item(persons=True)], "'persons' must be int"),
        ([item(persons=1.0)], "'persons' must be int"),
        ([item(persons=-1)], "0 or more"),
        ([item(protect="Ana Kovač")], "'protect' must be list"),
        ([item(keep=[5])], "holds a int"),
        ([item(text="  ")], "'text' is empty"),
        ([item(id="")], "'id' is empty"),
        ([item(protect=["Ana Kovač", " "])], "empty string"),
        ([item(protect=["Ana Kovac"])], "does not occur in the text"),
        ([item(keep=["5 MG"])], "does not occur in the text exactly"),
        ([item(keep=["Dr Ana Kovač"])], "keeping it leaks it"),
        ([item(protect=["Ana Kovač", "5 mg"], keep=["5 mg"])], "both protect and keep"),
        ([item(), item()], "id used by 2 items"),
    ],
)
def test_errors(data: Any, fragment: str) -> None:
    assert any(fragment in m for m in messages(data, "error")), check_items(data)


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        # "Ana" also sits inside "banana": the leak test fires whatever is masked.
        ([item(text="Ana ate a banana.", protect=["Ana"], keep=[], persons=1)], "inside a word"),
        (
            [
                item(
                    text="svc_billing failed for user=svc_billing2",
                    protect=["svc_billing"],
                    keep=[],
                )
            ],
            "inside a word",
        ),
        ([item(text="Ask Dyson about it.", protect=["Dyson"], keep=["Dyson"])], "keeping it leaks"),
        (
            [item(text="Mr Ford Prefect", protect=["Ford Prefect"], keep=["Ford"])],
            "only occurs inside protected values",
        ),
        ([item(notes="hi")], "unknown field 'notes'"),
        ([item(protect=["Ana Kovač "])], "whitespace"),
        ([item(protect=["Ana Kovač", "ANA KOVAČ"])], "listed twice"),
        ([item(keep=["5 mg", "5 mg", "150/90"])], "listed twice"),
    ],
)
def test_findings(data: Any, fragment: str) -> None:
    assert any(fragment in p.message for p in check_items(data)), check_items(data)


@pytest.mark.parametrize(
    ("text", "protect", "keep"),
    [
        # Case, NFKC and case folding: the leak test's own normalization.
        ("ANNA WEISS called", ["Anna Weiß"], []),
        ("ＴＯＭ called", ["Tom"], []),
        # A decomposed accent matches a composed label.
        ("Zoe\u0301 Lefe\u0300vre is 15.", ["Zoé Lefèvre"], ["15"]),
        # Aliases inside a longer listed value are covered by it.
        ("Caspian (Cas) was hurt.", ["Caspian", "Cas"], []),
        ("mail chidi.okeke@example.com or Okeke", ["chidi.okeke@example.com", "Okeke"], []),
        # A possessive, a path and a key=value are token boundaries.
        ("Lindqvist's notes in /home/lindq/x and user=lindq", ["Lindqvist", "lindq"], []),
        # Scripts without spaces: a neighbour is no word boundary.
        ("我叫王伟。王伟的血压是150/90。", ["王伟"], ["150/90"]),
        ("คุณสมศรี ไม่คืนเงิน", ["สมศรี"], []),
        # A keep string that is also part of a protected name but occurs alone too.
        ("Kevin Bosch owns a Bosch dishwasher.", ["Kevin Bosch"], ["Bosch"]),
    ],
)
def test_satisfiable_labels_pass(text: str, protect: list[str], keep: list[str]) -> None:
    assert check_items([item(text=text, protect=protect, keep=keep)]) == []


@pytest.mark.parametrize(
    "text",
    [
        "plain text",
        "  leading, trailing  and   inner \n\n whitespace \t",
        "Zoe\u0301 and Ångström (A\u030angstro\u0308m)",
        "zero\u200bwidth and soft\u00adhyphen",
        "ﬁne ＦＵＬＬ width ß ẞ ΣΑΣ",
        "王伟的血压 / محمود / Κωνσταντίνος / Ярослава",
        "",
    ],
)
def test_offsets_follow_the_leak_normalization(text: str) -> None:
    norm, spans = normalized_with_offsets(text)
    assert norm == normalize_for_leak(text)
    assert len(spans) == len(norm)
    for ch, (a, b) in zip(norm, spans, strict=True):
        assert ch == " " or ch in normalize_for_leak(text[a:b])


def test_summary_counts_by_id_prefix() -> None:
    s = summary([item(id="med-a"), item(id="med-b", persons=2), item(id="fin-a")])
    assert s == {
        "texts": 3,
        "protect": 3,
        "keep": 6,
        "persons": 4,
        "by_prefix": {"fin": 1, "med": 2},
    }


def test_the_dev_set_is_clean_and_as_large_as_promised() -> None:
    data = json.loads(DEV_SET.read_text(encoding="utf-8"))
    assert check_items(data) == []
    domains = Counter(d["id"].split("-", 1)[0] for d in data)
    assert len(data) >= 72
    assert sum(n >= 7 for n in domains.values()) >= 9, domains


def test_the_shared_examples_are_clean() -> None:
    if not SHARED_EXAMPLES.is_file():
        pytest.skip("the shared data sets are not available")
    assert check_items(json.loads(SHARED_EXAMPLES.read_text(encoding="utf-8"))) == []


def test_cli_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps([item()]), encoding="utf-8")
    warned = tmp_path / "warned.json"
    warned.write_text(json.dumps([item(notes="x")]), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([item(protect=["nobody"])]), encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text("[{", encoding="utf-8")

    assert main([str(good)]) == 0
    assert main([str(warned)]) == 0
    assert main([str(warned), "--strict"]) == 1
    assert main([str(good), str(bad)]) == 1
    assert main([str(broken)]) == 2
    assert main([str(tmp_path / "missing.json")]) == 2
    out = capsys.readouterr().out
    assert "1 texts, 1 protect, 2 keep, 1 persons named; by id prefix: x 1" in out
    assert "is not valid JSON (line 1" in out
    assert "cannot be read" in out


def test_the_everyday_requests_are_clean_have_nothing_private_and_are_gated() -> None:
    from training.router.gate import DEFAULT_UTILITY

    path = ROOT / "training" / "data" / "generic_dev.json"
    items = json.loads(path.read_text("utf-8"))
    assert check_items(items) == []
    assert len(items) >= 40 and all(not it["protect"] and it["persons"] == 0 for it in items)
    assert "training/data/generic_dev.json" in DEFAULT_UTILITY
