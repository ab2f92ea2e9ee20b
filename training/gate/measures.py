"""Every development measure of one detector, as gate figures.

:func:`measure` runs one detector (the shipped one, or any object with
``analyze(text) -> spans`` and ``views``) over

* the PUPA and Med-PCD eval folds: unit recall, span precision
  (:func:`training.eval_detect.evaluate`);
* the Presidio research set's held-out templates (its eval fold, split by
  template): span precision, recall and F2 (presidio-evaluator's SpanEvaluator);
* WNUT-17 dev and WikiANN-en dev: entity recall per gold label and precision
  (the share of detected spans that overlap a gold entity; a lower bound, as
  these sets tag names only);
* the utility dev set and the shared utility examples: leaks (a word of a protected
  value that left alone counts as one for the verdict), keep rate (all, and among
  strings whose sentence left), glued, person splits, guard blocks
  (:func:`training.eval_utility.score_items`);
* the forms dev set: leaks, labels kept, type accuracy (:mod:`training.gate.forms`), and
  the same measure on ``forms_check.json``, its layouts with other values.

and returns a JSON-able *measurement*: ``figures`` (name -> :class:`Figure`
as JSON), ``leaks`` (set -> text id -> leaked values), ``seconds`` per set and
``details`` (the forms errors). ``quick`` measures WikiANN dev on a fixed
sample of :data:`QUICK_WIKIANN` sentences (``random.Random(QUICK_SEED)``).

Run as a module it writes one measurement to a file; the gate runs it so in a
worktree of a baseline commit (``python -m training.gate.measures --out FILE``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from training.gate.verdict import Figure

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATA = ROOT.parent / "shared" / "data"
QUICK_WIKIANN = 1000
QUICK_SEED = 22


@dataclass(frozen=True)
class DetectSet:
    """A detection data set of ``training.eval_detect``'s formats."""

    name: str
    title: str
    path: str  # relative to the shared data folder
    fmt: str
    split: str
    quick_sample: int | None = None


DETECT_SETS = (
    DetectSet("pupa", "PUPA eval fold", "pupa/PUPA_New.csv", "pupa", "eval"),
    DetectSet("medpcd", "Med-PCD eval fold", "med_pcd/med_pcd_train.json", "medpcd", "eval"),
    DetectSet(
        "presidio",
        "Presidio research held-out templates",
        "presidio_research/synth_dataset_v2.json",
        "presidio",
        "eval",
    ),
    DetectSet("wnut17", "WNUT-17 dev", "wnut17/emerging.dev.conll", "conll", "all"),
    DetectSet("wikiann", "WikiANN-en dev", "wikiann_en/dev", "conll", "all", QUICK_WIKIANN),
)
#: Utility sets: name -> path (relative to the project root, or to the shared data folder).
UTILITY_SETS = {
    "utility": ("root", "training/data/utility_dev.json"),
    "shared": ("data", "utility/dev_examples.json"),
}
FORMS = ("root", "training/data/forms_dev.json")
#: The same layouts with other values (``make_forms --seed 5150``), never tuned on: the
#: forms dev set's own values had been, and names in tables and a signature's street
#: leaked from other seeds' forms while it showed none of it.
FORMS_CHECK = ("root", "training/data/forms_check.json")


def data_files(data: Path, root: Path = ROOT) -> dict[str, Path]:
    """Every file the measures read, by set name."""
    base = {"root": root, "data": data}
    out = {s.name: data / s.path for s in DETECT_SETS}
    out.update({k: base[w] / p for k, (w, p) in UTILITY_SETS.items()})
    out["forms"] = base[FORMS[0]] / FORMS[1]
    out["forms_check"] = base[FORMS_CHECK[0]] / FORMS_CHECK[1]
    return out


def _rate(value: float | None, n: int) -> dict[str, Any]:
    return Figure(value, n).to_json()


def _count(value: float, texts: int) -> dict[str, Any]:
    """A count (fewer is better) over ``texts`` texts; the margin does not use ``texts``."""
    return Figure(float(value), texts, "count", higher_is_better=False).to_json()


def detect_figures(name: str, r: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The gate's figures of one ``Tally.to_json()`` result of set ``name``."""
    out: dict[str, dict[str, Any]] = {}
    if name in ("pupa", "medpcd"):
        out[f"{name}.unit_recall"] = _rate(r["unit_recall"], r["units_located"])
        out[f"{name}.span_precision"] = _rate(r["span_precision"], r["detected_spans"])
    elif name == "presidio":
        u = r["spans"]["iou90"]["untyped"]
        n_p, n_r = u["tp"] + u["fp"], u["tp"] + u["fn"]
        out[f"{name}.span_precision"] = _rate(r["span_precision"], n_p)
        out[f"{name}.span_recall"] = _rate(r["span_recall"], n_r)
        out[f"{name}.span_f2"] = _rate(r["span_f2"], min(n_p, n_r))
    else:
        for label, c in (r.get("recall_by_label") or {}).items():
            out[f"{name}.recall.{label}"] = _rate(c["recall"], c["gold"])
        o = r["spans"]["overlap"]["untyped"]
        out[f"{name}.precision"] = _rate(o["precision"], o["tp"] + o["fp"])
    return out


def utility_figures(name: str, r: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The gate's figures of one utility set's totals."""
    sent, n = r["keep_total"] - r["lost_withheld"], r["n"]
    return {
        f"{name}.leaks": _count(r["leaks"], n),
        # Words of a protected value that left without the rest ("Flat" of "Flat 3, ...").
        f"{name}.partial_leaks": _count(r.get("partial_leaks", 0), n),
        f"{name}.keep_rate": _rate(r["keep_rate"], r["keep_total"]),
        f"{name}.keep_rate_sent": _rate(r["keep_rate_sent"], sent),
        f"{name}.glued": _count(r["glued"], n),
        f"{name}.person_splits": _count(r["person_splits"], r["person_scored"]),
        f"{name}.blocked": _count(r["blocked"], n),
    }


def forms_figures(r: Mapping[str, Any], name: str = "forms") -> dict[str, dict[str, Any]]:
    return {
        f"{name}.leaks": _count(r["leaks"], r["n"]),
        f"{name}.labels_kept": _rate(r["labels_kept"], r["labels_scored"]),
        f"{name}.type_accuracy": _rate(r["type_accuracy"], r["spans_scored"]),
    }


def sample(records: Sequence[Any], k: int | None, seed: int = QUICK_SEED) -> list[Any]:
    """A fixed seeded sample of ``k`` records, in file order (all of them when ``k`` is None)."""
    if k is None or k >= len(records):
        return list(records)
    keep = sorted(random.Random(seed).sample(range(len(records)), k))
    return [records[i] for i in keep]


def measure(
    detector: Any = None,
    *,
    data: Path = DEFAULT_DATA,
    root: Path = ROOT,
    quick: bool = False,
    only: Sequence[str] | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Every measure of ``detector`` (the shipped one when None); see the module docstring.

    ``only`` restricts the sets by name (tests); ``progress`` is told each set's
    name and time as it finishes.
    """
    from training.data.check_utility import load
    from training.eval_detect import evaluate, our_detector, read_eval_records
    from training.eval_utility import load_items, score_items
    from training.gate.forms import score_forms
    from training.metrics import select_split

    if detector is None:
        detector = our_detector()
    files = data_files(data, root)
    figures: dict[str, dict[str, Any]] = {}
    leaks: dict[str, dict[str, list[str]]] = {}
    seconds: dict[str, float] = {}
    details: dict[str, Any] = {}
    sizes: dict[str, int] = {}

    def wanted(name: str) -> bool:
        return only is None or name in only

    for s in DETECT_SETS:
        if not wanted(s.name):
            continue
        t0 = time.perf_counter()
        records = select_split(read_eval_records(files[s.name], s.fmt), s.split)
        if quick:
            records = sample(records, s.quick_sample)
        sizes[s.name] = len(records)
        tally = evaluate(
            records, {"x": detector.analyze}, with_spans=s.fmt in ("presidio", "conll")
        )["x"]
        figures.update(detect_figures(s.name, tally.to_json()))
        seconds[s.name] = round(time.perf_counter() - t0, 1)
        if progress:
            progress(f"{s.name}: {len(records)} texts, {seconds[s.name]} s")
    for name in UTILITY_SETS:
        if not wanted(name):
            continue
        t0 = time.perf_counter()
        items = load_items(files[name])
        sizes[name] = len(items)
        r = score_items(items, detector=detector)
        figures.update(utility_figures(name, r))
        # A word of a protected value that left alone is a leak for the verdict too.
        leaks[name] = {
            t["id"]: [*t["leaks"], *(f"(a word of) {w}" for w in t.get("partial_leaks") or ())]
            for t in r["texts"]
            if t["leaks"] or t.get("partial_leaks")
        }
        seconds[name] = round(time.perf_counter() - t0, 1)
        if progress:
            progress(f"{name}: {len(items)} texts, {seconds[name]} s")
    for name in ("forms", "forms_check"):
        if not wanted(name) or not files[name].is_file():
            continue
        t0 = time.perf_counter()
        items = load(files[name])
        sizes[name] = len(items)
        r = score_forms(items, detector=detector)
        figures.update(forms_figures(r, name))
        leaks[name] = {t["id"]: list(t["leaks"]) for t in r["texts"] if t["leaks"]}
        details[name] = {k: v for k, v in r.items() if k != "texts"}
        details[f"{name}_texts"] = [
            {k: t[k] for k in ("id", "leaks", "labels_lost", "spans", "outbound")}
            for t in r["texts"]
        ]
        seconds[name] = round(time.perf_counter() - t0, 1)
        if progress:
            progress(f"{name}: {len(items)} texts, {seconds[name]} s")
    return {
        "system": " + ".join(v.name for v in getattr(detector, "views", ()))
        + f" ({type(detector).__name__})",
        "quick": quick,
        "sizes": sizes,
        "figures": figures,
        "leaks": leaks,
        "seconds": seconds,
        "details": details,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Write one measurement of the detector of this tree (or of ``--ner``) to ``--out``."""
    parser = argparse.ArgumentParser(prog="python -m training.gate.measures")
    parser.add_argument("--out", required=True)
    parser.add_argument("--data", default=str(DEFAULT_DATA))
    parser.add_argument("--root", default=str(ROOT), help="where the dev sets are read from")
    parser.add_argument("--ner", default=None, help="another NER model folder")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default=None, help="comma-separated set names")
    args = parser.parse_args(argv)
    import core

    # The gate relies on this process measuring the core beside it (a worktree's).
    print(f"measuring {Path(core.__file__).parent}", file=sys.stderr, flush=True)
    from training.eval_detect import our_detector

    detector = our_detector(Path(args.ner) if args.ner else None)
    result = measure(
        detector,
        data=Path(args.data),
        root=Path(args.root),
        quick=args.quick,
        only=args.only.split(",") if args.only else None,
        progress=lambda s: print(s, file=sys.stderr, flush=True),
    )
    result["core"] = str(Path(core.__file__).parent)
    Path(args.out).write_text(json.dumps(result, ensure_ascii=False) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
