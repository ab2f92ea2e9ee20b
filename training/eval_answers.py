"""``sottovoce eval answers``: does the answer the person reads keep a good cloud answer?

EVALUATION.md, "Answer preservation": a loopback stub cloud
(:mod:`training.stub_cloud`) returns a fixed, correct answer that uses the
request's placeholders; the answer shown to the person must contain that
answer's content, restored, and repeat no sentence more than twice.

Each text of a data file runs through the product's turn pipeline (the real
analyzer, privacy box, egress guard and ``openai`` client over loopback, and
the embedded local model), in these configurations:

* ``default``: the settings' defaults. The embedded 135M model is below the
  capability threshold, so answers pass through with a notice.
* ``merge``: the threshold set to 0, so the embedded model merges every turn
  that kept a sentence private, and :class:`core.integrate.AnswerGuard`
  decides. The share of merges it refuses is how often the guard fires.

It also calibrates the guard's similarity on the file's reference answers
(Med-PCD and PUPA ``target_response``; the stub's answers for a utility file):
MiniLM similarity of each answer against edits that keep it (a preamble, an
added sentence, two sentences swapped) and edits that do not (a sentence
dropped, half of it, another item's answer, a loop).

    sottovoce eval answers --data FILE [--format utility|medpcd|pupa] --out DIR [--limit N]

Writes ``results.json`` (counts and scores, no text) and ``report.md``.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import EgressBlocked
from core.integrate import AnswerGuard, GuardReport, sentence_repeats, split_sentences
from core.settings import ApprovalPolicy, Settings
from core.store import Store
from training.stub_cloud import StubCloud

log = logging.getLogger(__name__)

#: name -> settings that differ from the defaults.
CONFIGS: dict[str, dict[str, Any]] = {
    "default": {},
    "merge": {"capable_model_b": 0.0},
}


@dataclass
class Item:
    id: str
    text: str
    reference: str | None = None  # a reference answer, for the calibration


def read_items(path: str | Path, fmt: str, limit: int | None) -> list[Item]:
    """Texts of a utility set (``[{id, text, ...}]``), Med-PCD or PUPA file."""
    if fmt == "utility":
        rows = json.loads(Path(path).read_text("utf-8"))
        items = [Item(str(r.get("id") or i), str(r["text"])) for i, r in enumerate(rows)]
    else:
        from training.metrics import read_records

        items = [
            Item(r.id, r.text, (r.extra or {}).get("target_response") or None)
            for r in read_records(path, fmt)
        ]
    return items[:limit] if limit else items


def _norm(text: str) -> str:
    return " ".join("".join(c if c.isalnum() else " " for c in text.casefold()).split())


def preserved(shown: str, cloud: str) -> bool:
    """True when every sentence of the (restored) cloud answer is in the shown answer."""
    body = _norm(shown)
    return all(_norm(s) in body for s in split_sentences(cloud))


def categories(report: GuardReport, min_similarity: float) -> list[str]:
    """Why the guard refused a merge, as fixed category names (no text)."""
    out: list[str] = []
    if not report.reasons:
        return out
    if report.max_repeats > 2:
        out.append("repeated a sentence")
    if report.loop is not None:
        out.append("loop")
    if report.new_numbers:
        out.append("new figures")
    if report.lost_numbers:
        out.append("lost figures")
    if report.new_names:
        out.append("new names")
    if any("added more than" in r for r in report.reasons):
        out.append("added too much")
    if report.kept_sentences is not None and report.kept_sentences < 1.0:
        out.append("left out a sentence")
    if report.similarity is not None and report.similarity < min_similarity:
        out.append("similarity below threshold")
    if any("wrote nothing" in r for r in report.reasons):
        out.append("empty")
    return out


def run_config(
    name: str, items: list[Item], stub: StubCloud, local: Any, workdir: Path
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Every item through the pipeline with the settings of ``CONFIGS[name]``."""
    from core.assembly import make_assistant
    from core.turn import collect

    settings = Settings(
        approval_policy=ApprovalPolicy.NEVER,
        cloud_base_url=stub.base_url,
        cloud_model=stub.model,
        **CONFIGS[name],
    )
    store = Store.create(workdir / f"{name}.db", "evaluation store")
    rows: list[dict[str, Any]] = []
    answers: list[tuple[str, str]] = []
    t0 = time.perf_counter()
    try:
        assistant = make_assistant(settings, store, local=local)
        for item in items:
            conv = assistant.new_conversation(item.id)
            try:
                result = collect(assistant.run(item.text, conv))
            except EgressBlocked:
                rows.append({"id": item.id, "blocked": True})
                continue
            if result.local_only:
                rows.append({"id": item.id, "local_only": True})
                continue
            outcome = result.integration
            cloud_restored = outcome.cloud if outcome is not None else result.answer
            report = outcome.guard if outcome is not None else None
            mode = str(outcome.mode) if outcome is not None else "none"
            repeats, _ = sentence_repeats(result.answer)
            rows.append(
                {
                    "id": item.id,
                    "mode": mode,
                    "kept_private": len(outcome.kept) if outcome is not None else 0,
                    "note": bool(outcome and outcome.note),
                    "preserved": preserved(result.answer, cloud_restored),
                    "max_sentence_repeats": repeats,
                    "guard": report.to_json() if report is not None else None,
                    "guard_categories": categories(report, settings.merge_min_similarity)
                    if report is not None
                    else [],
                }
            )
            answers.append((cloud_restored, item.text))
    finally:
        store.close()
    turns = [r for r in rows if "mode" in r]
    tried = [r for r in turns if r["mode"] in ("merged", "fallback")]
    fired = [r for r in tried if r["mode"] == "fallback"]
    summary = {
        "config": name,
        "settings": CONFIGS[name],
        "items": len(items),
        "turns": len(turns),
        "blocked_by_egress_guard": sum(1 for r in rows if r.get("blocked")),
        "local_only": sum(1 for r in rows if r.get("local_only")),
        "with_private_sentences": sum(1 for r in turns if r["kept_private"]),
        "modes": dict(Counter(r["mode"] for r in turns)),
        "merges_tried": len(tried),
        "guard_fired": len(fired),
        "guard_firing_rate": round(len(fired) / len(tried), 4) if tried else None,
        "guard_reasons": dict(Counter(c for r in fired for c in r["guard_categories"])),
        "answer_preserved": sum(1 for r in turns if r["preserved"]),
        "answer_preserved_rate": round(sum(1 for r in turns if r["preserved"]) / len(turns), 4)
        if turns
        else None,
        "max_sentence_repeats": max((r["max_sentence_repeats"] for r in turns), default=0),
        "notes_written": sum(1 for r in turns if r["note"]),
        "seconds": round(time.perf_counter() - t0, 1),
        "rows": rows,
    }
    return summary, answers


#: Word-for-word substitutions: a crude paraphrase that keeps the meaning.
SYNONYMS = {
    "should": "ought to", "doctor": "physician", "important": "essential", "may": "might",
    "can": "could", "help": "assist", "also": "as well", "however": "but", "symptoms": "signs",
    "consult": "see", "recommend": "suggest", "immediately": "at once", "usually": "generally",
    "because": "since", "contact": "reach", "keep": "maintain", "avoid": "stay away from",
    "common": "frequent", "next": "following", "short": "brief",
}


def reword(text: str) -> str:
    """``text`` with the words of :data:`SYNONYMS` replaced (case of the first letter kept)."""
    import re

    def swap(m: re.Match[str]) -> str:
        word = m.group(0)
        new = SYNONYMS[word.lower()]
        return new[0].upper() + new[1:] if word[0].isupper() else new

    pattern = r"\b(" + "|".join(SYNONYMS) + r")\b"
    return re.sub(pattern, swap, text, flags=re.IGNORECASE)


def calibrate(pairs: list[tuple[str, str]], guard: AnswerGuard) -> dict[str, Any]:
    """Similarity of reference answers against edits that keep them and edits that do not."""
    kinds: dict[str, list[tuple[float, float, int]]] = {}
    usable = [(a, q) for a, q in pairs if len(split_sentences(a)) >= 3]
    for i, (answer, query) in enumerate(usable):
        s = split_sentences(answer)
        other = usable[(i + 1) % len(usable)][0] if len(usable) > 1 else ""
        first_of_query = (split_sentences(query) or [""])[0]
        variants = {
            "keeps: verbatim": answer,
            "keeps: preamble added": "Here is what I would suggest. " + answer,
            "keeps: a sentence added": answer + "\n\nYou also mentioned this: " + first_of_query,
            "keeps: two sentences swapped": "\n".join([s[1], s[0], *s[2:]]),
            "keeps: words replaced by synonyms": reword(answer),
            "loses: a middle sentence dropped": "\n".join(s[: len(s) // 2] + s[len(s) // 2 + 1 :]),
            "loses: first half only": "\n".join(s[: len(s) // 2]),
            "loses: another item's answer": other,
            "loses: a loop": " ".join([s[0]] * 4),
        }
        for kind, text in variants.items():
            if text:
                kinds.setdefault(kind, []).append(guard.similarity(text, answer))
    out: dict[str, Any] = {"answers": len(usable), "variants": {}}
    for kind, values in kinds.items():
        sims = sorted(v[0] for v in values)
        out["variants"][kind] = {
            "n": len(values),
            "similarity_min": round(sims[0], 4),
            "similarity_p10": round(sims[int(0.1 * (len(sims) - 1))], 4),
            "similarity_median": round(statistics.median(sims), 4),
            "similarity_p90": round(sims[int(0.9 * (len(sims) - 1))], 4),
            "similarity_max": round(sims[-1], 4),
            "a_sentence_missing": round(sum(1 for v in values if v[1] < 1.0) / len(values), 4),
            "added_sentences_max": max(v[2] for v in values),
        }
    return out


def run(args: argparse.Namespace) -> int:
    from core.assembly import make_local
    from core.router.encoder import SentenceEncoder

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    items = read_items(args.data, args.format, args.limit)
    names = [n.strip() for n in (args.configs or "default,merge").split(",") if n.strip()]
    unknown = [n for n in names if n not in CONFIGS]
    if unknown:
        raise SystemExit(f"unknown configuration {unknown}; expected some of {sorted(CONFIGS)}")
    defaults = Settings.model_validate({})
    local = make_local(defaults)
    results: dict[str, Any] = {
        "data": Path(args.data).name,
        "format": args.format,
        "items": len(items),
        "local_model": local.capability(defaults.capable_model_b).to_json(),
        "cloud": "training.stub_cloud.StubCloud (capable_answer) on 127.0.0.1",
        "configs": {},
    }
    pairs: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory(prefix="sottovoce-eval-answers-") as tmp, StubCloud() as stub:
        for name in names:
            summary, answers = run_config(name, items, stub, local, Path(tmp))
            results["configs"][name] = summary
            pairs = pairs or answers
            log.info("answers %s: %s", name, {k: v for k, v in summary.items() if k != "rows"})
    local.close()
    references = [(i.reference, i.text) for i in items if i.reference]
    guard = AnswerGuard(SentenceEncoder(), None, min_similarity=defaults.merge_min_similarity)
    results["calibration"] = {
        "on": "reference answers of the file" if references else "the stub cloud's answers",
        "threshold": guard.min_similarity,
        **calibrate(references or pairs, guard),
    }
    (out / "results.json").write_text(json.dumps(results, indent=1), "utf-8")
    (out / "report.md").write_text(report_md(results), "utf-8")
    print(json.dumps({k: v for k, v in results.items() if k != "configs"} | {
        "configs": {n: {k: v for k, v in c.items() if k != "rows"} for n, c in results["configs"].items()}
    }, indent=1))
    return 0


def report_md(results: dict[str, Any]) -> str:
    lm = results["local_model"]
    lines = [
        f"# Answer preservation on {results['data']} ({results['items']} texts)",
        "",
        f"Cloud: {results['cloud']}. Local model: {lm['name']} "
        f"({lm['parameters'] / 1e9:.2f} B parameters, {lm['level']} at the default threshold).",
        "",
        "| configuration | turns | with private sentences | merges tried | guard fired | "
        "firing rate | answer preserved | max repeats of a sentence | blocked by egress guard |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, c in results["configs"].items():
        rate = "-" if c["guard_firing_rate"] is None else f"{c['guard_firing_rate']:.0%}"
        kept = "-" if c["answer_preserved_rate"] is None else f"{c['answer_preserved_rate']:.0%}"
        lines.append(
            f"| {name} | {c['turns']} | {c['with_private_sentences']} | {c['merges_tried']} | "
            f"{c['guard_fired']} | {rate} | {kept} | {c['max_sentence_repeats']} | "
            f"{c['blocked_by_egress_guard']} |"
        )
    for name, c in results["configs"].items():
        if c["guard_reasons"]:
            reasons = ", ".join(f"{k} {v}" for k, v in sorted(c["guard_reasons"].items()))
            lines += ["", f"Why the guard fired ({name}; a refusal may have several reasons): {reasons}."]
    cal = results["calibration"]
    lines += [
        "",
        f"## Guard calibration ({cal['answers']} {cal['on']}; threshold {cal['threshold']})",
        "",
        "| edit of the answer | n | similarity min | p10 | median | p90 | max | a sentence missing |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for kind, v in cal["variants"].items():
        lines.append(
            f"| {kind} | {v['n']} | {v['similarity_min']:.3f} | {v['similarity_p10']:.3f} | "
            f"{v['similarity_median']:.3f} | {v['similarity_p90']:.3f} | {v['similarity_max']:.3f} | "
            f"{v['a_sentence_missing']:.0%} |"
        )
    return "\n".join(lines) + "\n"
