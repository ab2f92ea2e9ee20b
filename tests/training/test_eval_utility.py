"""``sottovoce eval utility`` on a small synthetic set, through the real prepare path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.errors import InputError
from training.eval_utility import GLUED, run_utility

ITEMS = [
    {
        "id": "t-asthma",
        "text": "My son Elias Brandt (9) uses 2 puffs up to 4 times a day. His peak flow is 180 L/min. "
        "Should I take him to A&E now?",
        "protect": ["Elias Brandt"],
        "keep": ["2 puffs", "4 times a day", "180 L/min", "A&E"],
        "persons": 1,
    },
    {
        "id": "t-alias",
        "text": "Margarethe Lindqvist joined in March. Margarethe is great with clients, but "
        "Ms. Lindqvist keeps missing the Monday stand-up. How do I raise this with Margarethe?",
        "protect": ["Margarethe", "Lindqvist"],
        "keep": ["Monday stand-up", "clients"],
        "persons": 1,
    },
]


def test_utility_figures_on_the_exact_outbound(tmp_path: Path) -> None:
    data = tmp_path / "set.json"
    data.write_text(json.dumps(ITEMS), "utf-8")
    out = tmp_path / "report"
    r = run_utility(data, out, risk_lambda=5.0)
    assert r["n"] == 2 and r["keep_total"] == 6
    for row in r["texts"]:
        # The figures are recomputed here from the outbound the tool recorded.
        assert row["kept"] == sum(k in row["outbound"] for k in ITEMS[r["texts"].index(row)]["keep"])
        assert row["glued"] == GLUED.findall(row["outbound"])
        assert not any(v.lower() in row["outbound"].lower() for v in ITEMS[r["texts"].index(row)]["protect"])
    assert r["leaks"] == 0
    withheld = sum(1 for row in r["texts"] for x in row["lost"] if x["why"] == "withheld")
    assert r["lost_withheld"] == withheld
    assert r["keep_rate_sent"] == round(r["kept"] / (r["keep_total"] - withheld), 4)
    assert (out / "results.json").exists() and "keep rate" in (out / "report.md").read_text("utf-8")


def test_a_leak_is_counted(tmp_path: Path) -> None:
    # "Tuesday" is no identifier: labelled protected, it leaks, and the tool must say so.
    item = {"id": "t-leak", "text": "We meet on Tuesday at noon.", "protect": ["Tuesday"], "keep": [], "persons": 0}
    data = tmp_path / "leak.json"
    data.write_text(json.dumps([item]), "utf-8")
    assert run_utility(data, None)["leaks"] == 1


def test_an_invalid_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"id": "x", "text": "hello"}]), "utf-8")
    with pytest.raises(InputError):
        run_utility(bad, None)


def test_a_word_of_a_protected_value_that_leaves_alone_is_a_partial_leak() -> None:
    from training.eval_utility import partial_leaks

    text = (
        "The name is MAHMOUD EL-SAYED (محمود عبد الرحمن السيد). I drive a Mercedes; "
        "my lawyer is Mercedes Oyarzún."
    )
    protect = ["MAHMOUD EL-SAYED", "محمود عبد الرحمن السيد", "Mercedes Oyarzún"]
    payload = "The name is [PERSON_1] (محمود عبد الرحمن [PERSON_2]). I drive a Mercedes; my lawyer is [PERSON_3]."
    # The Arabic given names left; "Mercedes" is the car, written apart from the name.
    assert partial_leaks(text, protect, payload) == ["محمود", "الرحمن"]
    assert partial_leaks(text, protect, "The name is [PERSON_1] ([PERSON_2]).") == []
