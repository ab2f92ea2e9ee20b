"""``sottovoce eval route``: the privacy-utility frontier of every routing baseline.

Every system routes the same queries with the same segmentation and the same
detected spans (the product's default detector), and every figure is computed
on the exact outbound user content the product would send
(:func:`core.outbound.compose.compose_outbound` with a fresh privacy box, the type policy at the
system's lambda, and the settling pass of a real turn). Learned
policies run the way the app runs them: the ONNX encoder and the ONNX policy
through :class:`core.router.policy.PolicyRouter`, decision ``p_remote >= 0.5``, and the
sentences its rules send whatever the policy says (:func:`core.router.policy.rules_send`:
courtesy, header rows, lines of values, common words around detected values), at the
slider's top the sentences it holds (:func:`core.router.policy.top_holds`), and the
sentences in a language the policy never saw, judged by their own rules, that go
anonymized (:func:`core.router.policy.ruled_routes`).

Systems (EVALUATION.md): all-local, all-remote (verbatim), redact-all,
heuristic, the stateless MLP, the Transformer trained with a linear and with a
quadratic penalty (the quadratic one is the shipped policy), policies trained
at a fixed lambda (when shipped), all at lambda 5, and the shipped policy over
a lambda sweep.

Metrics and how an empty outbound (everything stayed local) counts:

* ``protected_leak_pct``: leaked protected units / protected units, in percent:
  only the located units the type policy protects at the system's lambda
  (:func:`training.router.episodes.protected_units`: direct identifiers
  always, quasi-identifiers from their levels); what the router answers for.
* ``leak_pct``: leaked located units / located units, in percent (a unit leaks
  when it occurs in the outbound after NFKC, case folding and whitespace
  collapsing); an empty outbound leaks nothing. The papers' figure: it counts
  the values the policy sends on purpose (a country, a public company) too.
* ``needless_withheld``: sentences kept on the machine that, sent alone and
  anonymized (the compose path, without the settling pass), would carry no
  protected unit; each costs the answer a sentence for nothing.
* ``query_leak_rate``: share of queries with at least one leaked unit.
* ``catastrophic_rate``: share of queries that leak at least half of their
  located units (queries with no located unit never count as catastrophic).
* ``remote_share``: share of the query's non-PII, non-space characters that
  reach the cloud as written (characters of remote sentences outside gold
  units and outside detected spans, which become placeholders); 0 when empty.
* ``semantic_retention`` (proxy): cosine similarity of the MiniLM embeddings
  (sentence-transformers, 512 word pieces) of the outbound content and of the
  query; 0 when empty (nothing of the query reached the cloud).
* ``bleu`` (proxy): sacrebleu's sentence BLEU of the outbound against the
  query, 0-100; 0 when empty.
* ``quality``: PAPILLON's pairwise LLM judge pass rate in percent, when a judge
  endpoint is given (the endpoint also plays the cloud model and answers the
  outbound content); ``null`` otherwise. An empty outbound fails.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from core.router.base import HeuristicRouter, RouteInput
from training import metrics
from training.router.episodes import (
    CACHE,
    Episode,
    build_episodes,
    default_parts,
    describe_detector,
    outbound,
)
from training.router.features import EmbeddingStore, SentenceEmbedder
from training.router.judge import ExactRetention, LLMJudge, PooledRetention

log = logging.getLogger(__name__)

DEFAULT_LAMBDA = 5.0
SWEEP = (0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)
KEYS = (
    "protected_leak_pct",
    "leak_pct",
    "query_leak_rate",
    "catastrophic_rate",
    "remote_share",
    "semantic_retention",
    "bleu",
    "quality",
)
#: Learned systems: name -> policy file in models/router (skipped when not shipped).
LEARNED = {
    "mlp": "mlp.onnx",
    "transformer-linear": "transformer_linear.onnx",
    "transformer-quadratic": "policy.onnx",
}
CATASTROPHIC = "a query is a catastrophic leak when at least half of its located PII units leak"
EMPTY = (
    "an empty outbound (everything stayed local) leaks nothing and scores 0 on semantic "
    "retention, BLEU, remote share and quality"
)


@dataclass
class Row:
    """The per-query outcome of one system."""

    leaked: int
    leaked_fuzzy: int
    located: int
    retention: float
    pooled: float
    bleu: float
    remote_chars: int
    clear_chars: int
    remote_sentences: int
    quality: float | None
    protected: int = 0
    leaked_protected: int = 0
    needless_withheld: int = 0


def _nonpii_chars(ep: Episode) -> np.ndarray:
    """bool[len(text)]: non-space characters outside every gold unit occurrence."""
    keep = np.array([not c.isspace() for c in ep.text], dtype=bool)
    for occs in ep.occurrences:
        for a, b in occs:
            keep[a:b] = False
    return keep


def remote_chars(ep: Episode, remote: np.ndarray, clear: np.ndarray) -> int:
    """Non-PII characters of the remote sentences that are sent as written (not placeholders)."""
    sent = np.zeros(len(ep.text), dtype=bool)
    for s, r in zip(ep.sentences, remote, strict=True):
        if r:
            sent[s.start : s.end] = True
    for ents, r in zip(ep.entities, remote, strict=True):
        if r:
            for e in ents:
                sent[e.start : e.end] = False
    return int((sent & clear).sum())


class Evaluator:
    """Scores routings of a list of episodes; caches what the systems share."""

    def __init__(
        self,
        episodes: Sequence[Episode],
        exact: ExactRetention,
        pooled: PooledRetention,
        judge: LLMJudge | None = None,
        fuzzy: bool = True,
    ) -> None:
        import sacrebleu

        self.episodes = list(episodes)
        self.exact = exact
        self.pooled = pooled
        self.judge = judge
        self.fuzzy = fuzzy
        self._bleu = sacrebleu.sentence_bleu
        self._clear = [_nonpii_chars(e) for e in self.episodes]
        self._memo: dict[tuple[int, str, int], Row] = {}

    def rows(
        self, payloads: Sequence[tuple[str, np.ndarray]], risk_lambda: float = DEFAULT_LAMBDA
    ) -> list[Row]:
        """Score one system at ``risk_lambda``: for each episode, its outbound text and routing."""
        from training.router.episodes import lambda_band

        band = lambda_band(risk_lambda)
        todo = [
            (i, text)
            for i, (text, _r) in enumerate(payloads)
            if (i, text, band) not in self._memo and text.strip()
        ]
        # One batched encoder call for every new outbound text.
        self.exact.store.get([t for _i, t in todo] + [self.episodes[i].text for i, _t in todo])
        out = []
        for i, (text, remote) in enumerate(payloads):
            key = (i, text, band)
            if key not in self._memo:
                self._memo[key] = self._row(i, text, remote, risk_lambda)
            out.append(self._memo[key])
        self.exact.store.save()
        return out

    def _row(self, i: int, text: str, remote: np.ndarray, risk_lambda: float) -> Row:
        from training.router.episodes import leaked_units

        ep = self.episodes[i]
        empty = not text.strip()
        leaked = 0 if empty else leaked_units(ep.units, text)
        protected = [u for u, p in zip(ep.units, ep.protected(risk_lambda), strict=True) if p]
        leaked_protected = 0 if empty else leaked_units(protected, text)
        fuzzy = leaked
        if self.fuzzy and not empty:
            fuzzy = sum(metrics.unit_leaked_fuzzy(u, text) for u in ep.units)
        quality = None
        if self.judge is not None:
            quality = self.judge.gain(ep, remote.tolist(), text)
        verbatim = text == ep.text
        return Row(
            leaked=leaked,
            leaked_fuzzy=fuzzy,
            located=len(ep.units),
            retention=self.exact.similarity(ep.text, text),
            pooled=1.0 if verbatim else self.pooled.gain(ep, remote.tolist(), text),
            bleu=0.0 if empty else float(self._bleu(text, [ep.text]).score),
            remote_chars=int(self._clear[i].sum())
            if verbatim
            else remote_chars(ep, remote, self._clear[i]),
            clear_chars=int(self._clear[i].sum()),
            remote_sentences=int(remote.sum()),
            quality=quality,
            protected=len(protected),
            leaked_protected=leaked_protected,
            needless_withheld=0
            if verbatim
            else needless_withheld(ep, remote.tolist(), risk_lambda),
        )


def summarize(rows: Sequence[Row]) -> dict[str, Any]:
    """The schema's figures (and a few extra ones) over a system's rows."""
    n = max(len(rows), 1)
    located = sum(r.located for r in rows)
    leaked = sum(r.leaked for r in rows)
    out: dict[str, Any] = {
        "protected_leak_pct": metrics.protected_leak_pct(
            sum(r.leaked_protected for r in rows), sum(r.protected for r in rows)
        ),
        "leak_pct": round(100.0 * leaked / located, 3) if located else 0.0,
        "query_leak_rate": round(sum(r.leaked > 0 for r in rows) / n, 4),
        "catastrophic_rate": round(
            sum(r.located > 0 and 2 * r.leaked >= r.located for r in rows) / n, 4
        ),
        "remote_share": round(
            sum(r.remote_chars for r in rows) / max(sum(r.clear_chars for r in rows), 1), 4
        ),
        "semantic_retention": round(float(np.mean([r.retention for r in rows])), 4),
        "bleu": round(float(np.mean([r.bleu for r in rows])), 2),
        "quality": (
            round(100.0 * float(np.mean([r.quality for r in rows])), 2)
            if rows and rows[0].quality is not None
            else None
        ),
    }
    extra = {
        "leak_pct_fuzzy": round(100.0 * sum(r.leaked_fuzzy for r in rows) / located, 3)
        if located
        else 0.0,
        "semantic_retention_pooled": round(float(np.mean([r.pooled for r in rows])), 4),
        "protected_units": sum(r.protected for r in rows),
        "needless_withheld": sum(r.needless_withheld for r in rows),
        "sentences_remote_share": round(
            sum(r.remote_sentences for r in rows) / max(sum(1 for _ in rows), 1), 3
        ),
    }
    return {**out, "_extra": extra}


def needless_withheld(ep: Episode, remote: Sequence[bool], risk_lambda: float) -> int:
    """Sentences routed local that, sent alone and anonymized, would carry no protected unit."""
    n = len(ep.sentences)
    count = 0
    for i, r in enumerate(remote):
        if r:
            continue
        count += ep.route_leaks([j == i for j in range(n)], risk_lambda)[2] == 0
    return count


# --- the systems ---------------------------------------------------------------------------


def run_systems(
    episodes: Sequence[Episode],
    evaluator: Evaluator,
    models_dir: Path | None = None,
    sweep: Sequence[float] = SWEEP,
    detector: Any | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """Every baseline at lambda 5 and the shipped policy over ``sweep``.

    Payloads are the product's: the type policy at each system's lambda, and,
    with ``detector``, the settling pass a turn runs before anything leaves.
    """
    from core.router.encoder import SentenceEncoder, load_artifact
    from core.router.policy import (
        STATE_POOLS,
        PolicyRouter,
        cloud_view,
        ruled_routes,
        rules_send,
        top_holds,
    )

    systems: dict[str, Any] = {}
    heuristic = HeuristicRouter()

    def fixed(
        fn: Callable[[Episode], np.ndarray], lam: float = DEFAULT_LAMBDA
    ) -> list[tuple[str, np.ndarray]]:
        return [(outbound(e, fn(e).tolist(), lam, detector), fn(e)) for e in episodes]

    t0 = time.perf_counter()
    systems["all-local"] = summarize(
        evaluator.rows([("", np.zeros(len(e.sentences), bool)) for e in episodes])
    )
    systems["all-remote"] = summarize(
        evaluator.rows([(e.text, np.ones(len(e.sentences), bool)) for e in episodes])
    )
    systems["redact-all"] = summarize(
        evaluator.rows(fixed(lambda e: np.ones(len(e.sentences), bool)))
    )
    # Redact-all at the slider's top, where the type policy protects every quasi-identifier.
    systems["redact-all-lambda-10"] = summarize(
        evaluator.rows(fixed(lambda e: np.ones(len(e.sentences), bool), 10.0), 10.0)
    )
    systems["redact-all-lambda-10"]["_extra"]["lambda"] = 10.0

    def heur(e: Episode) -> np.ndarray:
        p = heuristic.route(RouteInput(e.text, e.sentences, e.entities, DEFAULT_LAMBDA))
        return np.asarray(p) >= 0.5

    systems["heuristic"] = summarize(evaluator.rows(fixed(heur)))
    log.info("baselines scored (%.0fs)", time.perf_counter() - t0)

    _folder, manifest = load_artifact("router", models_dir)
    encoder = SentenceEncoder(threads=1)
    t1 = time.perf_counter()
    if manifest.get("sentence_features") in STATE_POOLS:
        from training.router.features import StateFeatures

        states = StateFeatures(pool=STATE_POOLS[manifest["sentence_features"]])
        embeddings = [states.sentence_features(e.text, e.sentences, e.entities) for e in episodes]
    else:
        embeddings = [encoder.encode(cloud_view(e.text, e.sentences, e.entities)) for e in episodes]
    embed_s = time.perf_counter() - t1
    dets = [e.det for e in episodes]
    files = {
        **LEARNED,
        **{
            f"transformer-fixed-lambda-{k}": v
            for k, v in manifest.get("fixed_lambda_files", {}).items()
        },
    }
    shipped_files = set(manifest.get("files", {}))
    routers: dict[str, Any] = {}
    for name, fname in files.items():
        if fname not in shipped_files:
            log.warning("%s is not shipped in models/router; skipped", fname)
            continue
        routers[name] = PolicyRouter(models_dir, model_file=fname, encoder=encoder).load()

    # The sentences that go whatever the policy says, as in the product (PolicyRouter.route).
    ruled = [rules_send(e.text, e.sentences, e.entities) for e in episodes]
    # Each sentence's language, as the analyzer hands it to the router (core.analyze).
    languages = getattr(detector, "languages", None)
    codes = [
        [langs.at(s.start) for s in e.sentences]
        if callable(languages) and (langs := languages(e.text)) is not None
        else []
        for e in episodes
    ]

    def decisions(router: Any, lam: float) -> list[tuple[str, np.ndarray]]:
        out = []
        for e, emb, det, go, langs in zip(episodes, embeddings, dets, ruled, codes, strict=True):
            elsewhere = [router.judged_elsewhere(c) for c in langs] or [False] * len(go)
            rules = ruled_routes(go, top_holds(e.entities, lam), elsewhere)
            p = router.route_features(emb, det, lam)
            r = np.asarray([q >= 0.5 if d is None else d >= 0.5 for d, q in zip(rules, p, strict=True)], bool)
            out.append((outbound(e, r.tolist(), lam, detector), r))
        return out

    for name, router in routers.items():
        lam = DEFAULT_LAMBDA
        if name.startswith("transformer-fixed-lambda-"):
            lam = float(name.rsplit("-", 1)[1])
        systems[name] = summarize(evaluator.rows(decisions(router, lam), lam))
        systems[name]["_extra"]["lambda"] = lam
    sweep_rows = []
    shipped = routers.get("transformer-quadratic")
    if shipped is not None:
        for lam in sweep:
            point = summarize(evaluator.rows(decisions(shipped, lam), lam))
            sweep_rows.append({"lambda": lam, **point})
    timing = {
        "encoder_seconds_per_query": round(embed_s / max(len(episodes), 1), 4),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    return systems, sweep_rows, timing


# --- reports -----------------------------------------------------------------------------------


def _public(d: dict[str, Any]) -> dict[str, Any]:
    return {k: d[k] for k in KEYS}


MATCH_TOL = 0.005


def frontier_check(
    systems: dict[str, Any], sweep: list[dict[str, Any]], key: str = "semantic_retention"
) -> dict[str, Any]:
    """Does the shipped sweep dominate or match heuristic and redact-all at their leak level?

    For each baseline, the best sweep point whose Leak% is at most the
    baseline's is compared on ``key``: ``dominates`` when higher by more than
    :data:`MATCH_TOL`, ``matches`` within it, ``below`` otherwise (or when no
    sweep point leaks that little).
    """
    out: dict[str, Any] = {}
    for name in ("heuristic", "redact-all"):
        base = systems.get(name)
        if base is None or not sweep or base.get(key) is None:
            continue
        ok = [p for p in sweep if p["leak_pct"] <= base["leak_pct"] + 1e-9]
        best = max(ok, key=lambda p: p[key]) if ok else None
        verdict = "below"
        if best is not None:
            gap = best[key] - base[key]
            verdict = (
                "dominates" if gap > MATCH_TOL else "matches" if gap >= -MATCH_TOL else "below"
            )
        out[name] = {
            "baseline_leak_pct": base["leak_pct"],
            f"baseline_{key}": base[key],
            "sweep_lambda": None if best is None else best["lambda"],
            "sweep_leak_pct": None if best is None else best["leak_pct"],
            f"sweep_{key}": None if best is None else best[key],
            "verdict": verdict,
        }
    return out


def targets(systems: dict[str, Any], sweep: list[dict[str, Any]]) -> dict[str, Any]:
    """The router's targets (issue 23): against redact-all at lambda 5 and at lambda 10.

    At 5: protected Leak% at most redact-all's, semantic retention within 0.01
    of it; at 10: protected Leak% at most half of redact-all's; protected
    Leak% never rises with lambda along the sweep.
    """
    at = {p["lambda"]: p for p in sweep}
    out: dict[str, Any] = {}
    base5, base10 = systems.get("redact-all"), systems.get("redact-all-lambda-10")
    if base5 is not None and 5.0 in at:
        p = at[5.0]
        out["lambda_5"] = {
            "protected_leak_pct": p["protected_leak_pct"],
            "redact_all_protected_leak_pct": base5["protected_leak_pct"],
            "semantic_retention": p["semantic_retention"],
            "redact_all_semantic_retention": base5["semantic_retention"],
            "met": p["protected_leak_pct"] <= base5["protected_leak_pct"]
            and p["semantic_retention"] >= base5["semantic_retention"] - 0.01,
        }
    if base10 is not None and 10.0 in at:
        p = at[10.0]
        out["lambda_10"] = {
            "protected_leak_pct": p["protected_leak_pct"],
            "redact_all_protected_leak_pct": base10["protected_leak_pct"],
            "met": p["protected_leak_pct"] <= base10["protected_leak_pct"] / 2,
        }
    leaks = [p["protected_leak_pct"] for p in sweep]
    out["monotonic"] = all(b <= a + 1e-9 for a, b in itertools.pairwise(leaks))
    return out


def write_results(
    out: Path,
    judge_name: str,
    systems: dict[str, Any],
    sweep: list[dict[str, Any]],
    info: dict[str, Any],
) -> dict[str, Any]:
    """``results.json`` in the issue's schema, ``details.json``, ``report.md``, ``frontier.png``."""
    out.mkdir(parents=True, exist_ok=True)
    info = {
        **info,
        "frontier_check": frontier_check(systems, sweep),
        "targets": targets(systems, sweep),
    }
    results = {
        "judge": judge_name,
        "systems": {k: _public(v) for k, v in systems.items()},
        "lambda_sweep": [{"lambda": p["lambda"], **_public(p)} for p in sweep],
    }
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    details = {
        **info,
        "judge": judge_name,
        "systems": systems,
        "lambda_sweep": sweep,
        "definitions": {"catastrophic": CATASTROPHIC, "empty_outbound": EMPTY},
    }
    (out / "details.json").write_text(json.dumps(details, indent=2) + "\n", "utf-8")
    plot_frontier(out / "frontier.png", systems, sweep, judge_name, info.get("title", ""))
    (out / "report.md").write_text(report_md(judge_name, systems, sweep, info), "utf-8")
    return results


def report_md(
    judge_name: str, systems: dict[str, Any], sweep: list[dict[str, Any]], info: dict[str, Any]
) -> str:
    judge_line = (
        "**Judge: proxy** (no LLM judge was given: TaskGain and the utility figures are the "
        "offline proxies, semantic retention and BLEU; `quality` is null)."
        if judge_name == "proxy"
        else f"**Judge: {judge_name}** (PAPILLON's pairwise prompt, asked twice with the order "
        "swapped against the data set's target response; a tie passes)."
    )
    header = [
        "| system | protected Leak% | Leak% | Leak% fuzzy | query leak | catastrophic | "
        "remote share | semantic retention (proxy) | pooled retention | BLEU (proxy) | quality "
        "| needless withheld |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines = [
        f"# Routing frontier: {info.get('title', '')}",
        "",
        judge_line,
        "",
        f"- data: `{info.get('data')}` (format {info.get('format')}, split {info.get('split')}), "
        f"{info.get('queries')} queries, {info.get('units_located')} located PII units "
        f"({info.get('units_not_located')} units could not be located in their query and are "
        "not counted)",
        f"- detector: {', '.join(info.get('detector', {}).get('views', []))} "
        f"(fingerprint {info.get('detector', {}).get('fingerprint')})",
        f"- learned policies: ONNX encoder + ONNX policy from `models/router` "
        f"(decision p_remote >= 0.5); systems other than the sweep at lambda {DEFAULT_LAMBDA:g}",
        f"- catastrophic leak rate: {CATASTROPHIC}.",
        "- protected Leak%: only the units the type policy protects at the system's lambda "
        "(what the router answers for); Leak%: every located unit (the papers' figure).",
        "- needless withheld: sentences kept here that, sent alone and anonymized, would carry "
        "no protected unit.",
        f"- {EMPTY}.",
        "- semantic retention and BLEU are **proxies** of utility (EVALUATION.md), not a "
        "judge's verdict; the pooled retention is the cheaper form the training reward uses.",
        "",
        *header,
    ]

    def row(name: str, d: dict[str, Any]) -> str:
        x = d["_extra"]
        q = "n/a" if d["quality"] is None else f"{d['quality']:.1f}"
        return (
            f"| {name} | {d['protected_leak_pct']:.2f} | {d['leak_pct']:.2f} | "
            f"{x['leak_pct_fuzzy']:.2f} | "
            f"{d['query_leak_rate']:.3f} | {d['catastrophic_rate']:.3f} | {d['remote_share']:.3f} | "
            f"{d['semantic_retention']:.3f} | {x['semantic_retention_pooled']:.3f} | "
            f"{d['bleu']:.1f} | {q} | {x['needless_withheld']} |"
        )

    for name, d in systems.items():
        lines.append(row(name, d))
    lines += ["", "Shipped policy over lambda:", "", header[0], header[1]]
    for p in sweep:
        lines.append(row(f"lambda {p['lambda']:g}", p))
    checks = info.get("frontier_check", {})
    if checks:
        lines += [
            "",
            "Frontier check (best sweep point whose Leak% is at most the baseline's, on "
            f"semantic retention; 'matches' = within {MATCH_TOL}):",
            "",
        ]
        for name, c in checks.items():
            if c["sweep_lambda"] is None:
                lines.append(f"- {name}: **below** (no lambda leaks as little as {name})")
                continue
            lines.append(
                f"- {name} (Leak% {c['baseline_leak_pct']:.2f}, retention "
                f"{c['baseline_semantic_retention']:.3f}): **{c['verdict']}** by lambda "
                f"{c['sweep_lambda']:g} (Leak% {c['sweep_leak_pct']:.2f}, retention "
                f"{c['sweep_semantic_retention']:.3f})"
            )
    tg = info.get("targets", {})
    if tg:
        lines += ["", "Targets (protected Leak%, against redact-all at the same lambda):", ""]
        for key in ("lambda_5", "lambda_10"):
            if key in tg:
                lines.append(f"- {key}: {json.dumps(tg[key])}")
        lines.append(f"- protected Leak% never rises with lambda: {tg.get('monotonic')}")
    lines += ["", "![frontier](frontier.png)", ""]
    t = info.get("timing", {})
    if t:
        lines.append(
            f"Encoder time (ONNX, all sentences of a query, 1 thread): "
            f"{1000 * t.get('encoder_seconds_per_query', 0):.1f} ms per query on average."
        )
        lines.append("")
    return "\n".join(lines)


def plot_frontier(
    path: Path, systems: dict[str, Any], sweep: list[dict[str, Any]], judge_name: str, title: str
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [("semantic_retention", "semantic retention (proxy)")]
    if sweep and sweep[0].get("quality") is not None:
        panels.append(("quality", f"quality % ({judge_name})"))
    fig, axes = plt.subplots(1, len(panels), figsize=(6.5 * len(panels), 5), squeeze=False)
    for ax, (key, label) in zip(axes[0], panels, strict=True):
        if sweep:
            xs = [p["leak_pct"] for p in sweep]
            ys = [p[key] for p in sweep]
            ax.plot(xs, ys, "-o", color="tab:blue", label="shipped policy (lambda sweep)")
            for p in sweep:
                ax.annotate(
                    f"{p['lambda']:g}",
                    (p["leak_pct"], p[key]),
                    fontsize=7,
                    textcoords="offset points",
                    xytext=(3, 3),
                )
        markers = iter("sD^v<>pXh*")
        for name, d in systems.items():
            if d.get(key) is None:
                continue
            ax.scatter([d["leak_pct"]], [d[key]], marker=next(markers, "o"), s=45, label=name)
        # Symmetric log: all-remote sits at 100%, the systems that matter below 10%.
        ax.set_xscale("symlog", linthresh=1.0)
        ax.set_xlabel("Leak % (located PII units in the outbound; symlog scale)")
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
    fig.suptitle(f"Privacy-utility frontier {title} (judge: {judge_name})")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


# --- entry points --------------------------------------------------------------------------------


def evaluate_file(
    data: Path,
    fmt: str,
    out: Path,
    *,
    split: str = "all",
    limit: int | None = None,
    judge: LLMJudge | None = None,
    models_dir: Path | None = None,
    cache: Path = CACHE,
) -> dict[str, Any]:
    """Evaluate every system on one data file; write the reports into ``out``."""
    t0 = time.perf_counter()
    detector, segmenter, store = default_parts(cache)
    episodes = build_episodes(
        data, fmt, detector, segmenter, store, split=split, limit=limit, cache=cache
    )
    exact = ExactRetention(
        EmbeddingStore(cache, "minilm-512", SentenceEmbedder(max_tokens=512, batch_size=16))
    )
    evaluator = Evaluator(episodes, exact, PooledRetention(store), judge)
    systems, sweep, timing = run_systems(episodes, evaluator, models_dir, detector=detector)
    judge_name = judge.name if judge is not None else "proxy"
    info = {
        "title": f"{data.name} ({split})",
        "data": str(data),
        "format": fmt,
        "split": split,
        "queries": len(episodes),
        "units_located": sum(len(e.units) for e in episodes),
        "units_not_located": sum(e.not_located for e in episodes),
        "detector": describe_detector(detector),
        "timing": {**timing, "total_seconds": round(time.perf_counter() - t0, 1)},
    }
    info["targets"] = targets(systems, sweep)
    write_results(out, judge_name, systems, sweep, info)
    return {"judge": judge_name, "systems": systems, "lambda_sweep": sweep, "info": info}


def run(args: argparse.Namespace) -> int:
    """``sottovoce eval route --data FILE --format medpcd|pupa --out DIR [--judge-url ...]``."""
    from core.errors import InputError

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    data = Path(args.data)
    if not data.exists():
        raise InputError(f"The data file {data} does not exist.")
    judge = None
    if getattr(args, "judge_url", None):
        if not getattr(args, "judge_model", None):
            raise InputError("--judge-url needs --judge-model too.")
        judge = LLMJudge(args.judge_url, args.judge_model)
    router = getattr(args, "router", None)
    result = evaluate_file(
        data,
        args.format,
        Path(args.out),
        split=args.split,
        limit=args.limit,
        judge=judge,
        models_dir=Path(router) if router else None,
    )
    s = result["systems"]
    for name, d in s.items():
        print(
            f"{name:28s} protected leak% {d['protected_leak_pct']:6.2f}  "
            f"leak% {d['leak_pct']:6.2f}  catastrophic {d['catastrophic_rate']:.3f}  "
            f"retention {d['semantic_retention']:.3f}  bleu {d['bleu']:5.1f}  "
            f"needless withheld {d['_extra']['needless_withheld']}"
        )
    for p in result["lambda_sweep"]:
        print(
            f"sweep lambda {p['lambda']:4g}  protected leak% {p['protected_leak_pct']:6.2f}  "
            f"leak% {p['leak_pct']:6.2f}  retention {p['semantic_retention']:.3f}  "
            f"needless withheld {p['_extra']['needless_withheld']}"
        )
    print("targets:", json.dumps(result["info"].get("targets", {})))
    print(f"judge: {result['judge']}; reports in {args.out}")
    return 0
