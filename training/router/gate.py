"""The router's gate: a candidate policy against the shipped one, on the same detector.

``python -m training.router gate --candidate DIR --candidate-eval DIR --baseline-eval DIR``
``[--baseline DIR] [--data FILE ...] [--out DIR]``

The evaluation folders are what ``python -m training.router build --eval-out`` (or
``--eval-only``) wrote for each router, on the same detector (their fingerprints
must agree; evaluate the shipped router again after a detector change). The gate
reads, per fold (PUPA and Med-PCD eval), the learned policy's figures at lambda 5
(protected-unit Leak%, the share of queries with a catastrophic leak, semantic
retention, needless withheld sentences) and its protected-unit Leak% at lambda 10,
and runs each utility set through the real prepare path with both routers
(leaks per text, keep rate, needless withheld sentences; ``training.router.utility``).
The verdict is the detector gate's (:mod:`training.gate.verdict`): SHIP only when no
utility text leaks a value it did not leak before and no figure loses more than its
noise margin (one binomial standard error for a proportion, ``sqrt(count)`` for a count).

The all-unit Leak% (the paper's figure) is shown but not judged: it counts the
values the type policy sends on purpose (countries, public companies), which a
router that withholds less sends more of, by design.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from training.gate.verdict import Figure, compare, markdown

SYSTEM = "transformer-quadratic"
FOLDS = ("pupa", "medpcd")
#: The utility sets the gate runs: our dev set, the shared examples, and everyday requests
#: with nothing private in them (``generic_dev.json``: a router that withholds those
#: leaves the cloud nothing to answer; three rebuilds that passed the two others did).
#: The forms dev set too: a router that sends more exposes more of the detector's splits
#: and mistyped values in what leaves (a candidate on the NER's states passed this gate
#: without it and was held by the detector gate on person splits and the forms' types).
DEFAULT_UTILITY = (
    "training/data/utility_dev.json",
    "../shared/data/utility/dev_examples.json",
    "training/data/generic_dev.json",
    "training/data/forms_dev.json",
)


def fold_figures(details: Mapping[str, Any], fold: str) -> dict[str, Figure]:
    """The judged figures of one fold's ``details.json`` (see the module docstring)."""
    s = details["systems"][SYSTEM]
    extra = s.get("_extra", {})
    queries = int(details["queries"])
    units = int(extra.get("protected_units", details["units_located"]))
    out = {
        f"{fold}.protected_leak@5": Figure(s["protected_leak_pct"] / 100, units, "rate", False),
        f"{fold}.catastrophic@5": Figure(s["catastrophic_rate"], queries, "rate", False),
        f"{fold}.retention@5": Figure(s["semantic_retention"], queries, "rate", True),
        f"{fold}.needless_withheld@5": Figure(
            float(extra.get("needless_withheld", 0)), queries, "count", False
        ),
    }
    for row in details.get("lambda_sweep", ()):
        if float(row["lambda"]) == 10.0:
            n10 = int(row.get("_extra", {}).get("protected_units", units))
            out[f"{fold}.protected_leak@10"] = Figure(
                row["protected_leak_pct"] / 100, n10, "rate", False
            )
    return out


def shown(details: Mapping[str, Any], fold: str) -> str:
    s = details["systems"][SYSTEM]
    return f"{fold}: all-unit Leak% {s['leak_pct']:.2f}, remote share {s['remote_share']:.3f}"


def utility_figures(name: str, summary: Mapping[str, Any]) -> dict[str, Figure]:
    texts = int(summary["texts"])
    return {
        f"{name}.leaks": Figure(float(summary["leaks"]), texts, "count", False),
        f"{name}.keep_rate": Figure(summary["keep_rate"], int(summary["keep_total"]), "rate", True),
        f"{name}.needless_withheld": Figure(
            float(summary["needless_withheld"]), texts, "count", False
        ),
        # One person under two placeholders in what leaves, and placeholders glued to a
        # word: the detector's faults, shown as often as the router lets their sentences go.
        f"{name}.person_splits": Figure(
            float(summary.get("person_splits", 0)),
            int(summary.get("person_scored", texts)),
            "count",
            False,
        ),
        f"{name}.glued": Figure(float(summary.get("glued", 0)), texts, "count", False),
    }


def _details(folder: Path, fold: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / fold / "details.json").read_text("utf-8"))
    return data


def run_gate(
    baseline_eval: Path,
    candidate_eval: Path,
    candidate: Path,
    *,
    baseline: Path | None = None,
    data: Sequence[str] = DEFAULT_UTILITY,
    local_use: float = 0.0,
) -> tuple[str, dict[str, Any]]:
    """The gate's Markdown table and its JSON (verdict, figures, new leaks)."""
    from training.router.utility import evaluate

    before: dict[str, Figure] = {}
    after: dict[str, Figure] = {}
    notes = []
    for fold in FOLDS:
        b, a = _details(baseline_eval, fold), _details(candidate_eval, fold)
        fb, fa = b["detector"].get("fingerprint"), a["detector"].get("fingerprint")
        if fb != fa:
            raise SystemExit(
                f"{fold}: the two evaluations ran on other detectors ({fb} and {fa}); "
                "evaluate the baseline again: python -m training.router build --eval-only "
                "--out COPY_OF_THE_ROUTER --eval-out DIR"
            )
        before.update(fold_figures(b, fold))
        after.update(fold_figures(a, fold))
        notes.append(f"not judged: before {shown(b, fold)}; after {shown(a, fold)}")
    leaks_before: dict[str, dict[str, list[str]]] = {}
    leaks_after: dict[str, dict[str, list[str]]] = {}
    for file in data:
        name = Path(file).stem
        sb = evaluate(Path(file), None, router_dir=baseline, local_use=local_use)
        sa = evaluate(Path(file), None, router_dir=candidate, local_use=local_use)
        before.update(utility_figures(name, sb))
        after.update(utility_figures(name, sa))
        leaks_before[name], leaks_after[name] = sb["leaked"], sa["leaked"]
    c = compare(before, after, leaks_before, leaks_after)
    text = markdown(c, str(baseline or "models/router"), str(candidate), notes, title="Router gate")
    result = {
        "verdict": c.verdict,
        "reasons": c.reasons,
        "rows": [r.__dict__ for r in c.rows],
        "new_leaks": c.new_leaks,
        "local_use": local_use,
    }
    return text, result


def run(args: argparse.Namespace) -> int:
    text, result = run_gate(
        Path(args.baseline_eval),
        Path(args.candidate_eval),
        Path(args.candidate),
        baseline=Path(args.baseline) if args.baseline else None,
        data=args.data or DEFAULT_UTILITY,
        local_use=args.local_use,
    )
    print(text)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "gate.md").write_text(text, "utf-8")
        (out / "gate.json").write_text(json.dumps(result, indent=1) + "\n", "utf-8")
    return 0 if result["verdict"] == "SHIP" else 1
