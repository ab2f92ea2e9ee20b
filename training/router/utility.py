"""The router on a utility set: keep rate, leaks and needless withheld sentences.

``python -m training.router utility --data FILE --out DIR [--router DIR] [--local-use 0|1]``
runs ``sottovoce eval utility``'s real prepare path (:func:`training.eval_utility.run_utility`)
with a chosen router artifact and ``local_use`` setting, and adds the count
EVALUATION.md calls *needless withheld sentences*: sentences the router kept on
the machine that, sent alone through the real compose path (the detector's
values, the type policy's decisions at the run's lambda, a fresh privacy box),
would have carried none of the text's gold protected values. Each one costs the
answer a whole sentence for nothing; the target is 0.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from core.analyze import Analysis, Route
from core.box import PrivacyBox
from core.outbound.compose import compose_outbound, distinctive
from training.metrics import normalize_for_leak


def alone(analysis: Analysis, index: int) -> Analysis:
    """``analysis`` with sentence ``index`` sent and every other one kept here."""
    plans = [
        dataclasses.replace(p, route=Route.REMOTE if p.index == index else Route.LOCAL)
        for p in analysis.plans
    ]
    return dataclasses.replace(analysis, plans=plans)


def needless_withheld(analysis: Analysis, protect: Sequence[str], lexicon: Any) -> list[int]:
    """Indices of the sentences kept here whose anonymized form would carry no value of ``protect``."""
    values = [normalize_for_leak(v) for v in protect if normalize_for_leak(v)]
    out = []
    for p in analysis.plans:
        if p.route is not Route.LOCAL:
            continue
        text = normalize_for_leak(
            compose_outbound(alone(analysis, p.index), PrivacyBox(), distinctive(lexicon))
        )
        if not any(v in text for v in values):
            out.append(p.index)
    return out


@contextmanager
def router_in_assembly(router: Any) -> Iterator[None]:
    """Make :func:`core.assembly.default_router` return ``router`` while the block runs."""
    import core.assembly

    saved = core.assembly.default_router

    def fixed(_settings: Any, _detector: Any = None) -> Any:
        return router

    core.assembly.default_router = fixed  # type: ignore[assignment]
    try:
        yield
    finally:
        core.assembly.default_router = saved  # type: ignore[assignment]


def evaluate(
    data: Path,
    out: Path | None,
    *,
    router_dir: Path | None = None,
    local_use: float = 0.0,
    risk_lambda: float = 5.0,
    limit: int | None = None,
) -> dict[str, Any]:
    """Utility figures of one router and ``local_use`` setting, with the needless withheld ones."""
    from core.analyze import Analyzer
    from core.assembly import default_detector, ner_states
    from core.router.policy import PolicyRouter
    from core.settings import Settings
    from training.eval_utility import load_items, run_utility

    settings = Settings()
    detector = default_detector(settings)
    # A policy on the NER's token states reads them from this detector's NER view (the
    # run below uses a detector of its own: the view then makes its own pass).
    router = PolicyRouter(router_dir, local_use=local_use, states=ner_states(detector))
    with router_in_assembly(router):
        results = run_utility(data, out, risk_lambda=risk_lambda, limit=limit)
    analyzer = Analyzer(detector=detector, router=router)
    needless = []
    withheld = 0
    for item in load_items(data)[:limit]:
        analysis = analyzer.analyze(item["text"], risk_lambda)
        withheld += sum(p.route is Route.LOCAL for p in analysis.plans)
        for i in needless_withheld(analysis, item["protect"], analyzer.policy.lexicon):
            needless.append({"id": item["id"], "sentence": analysis.plans[i].sentence.text})
    summary = {
        "data": str(data),
        "router": str(router_dir or "models/router"),
        "local_use": local_use,
        "risk_lambda": risk_lambda,
        "texts": results["n"],
        "leaks": results["leaks"],
        "keep_rate": results["keep_rate"],
        "kept": results["kept"],
        "keep_total": results["keep_total"],
        "lost_withheld": results["lost_withheld"],
        "person_splits": results["person_splits"],
        "person_scored": results["person_scored"],
        "glued": results["glued"],
        "withheld_sentences": withheld,
        "needless_withheld": len(needless),
        "needless": needless,
        "leaked": {t["id"]: list(t["leaks"]) for t in results["texts"] if t["leaks"]},
    }
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "withheld.json").write_text(
            json.dumps(summary, indent=1, ensure_ascii=False) + "\n", "utf-8"
        )
    return summary


def run(args: argparse.Namespace) -> int:
    s = evaluate(
        Path(args.data),
        Path(args.out) if args.out else None,
        router_dir=Path(args.router) if args.router else None,
        local_use=args.local_use,
        risk_lambda=args.risk_lambda,
        limit=args.limit,
    )
    print(
        f"{s['texts']} texts, router {s['router']}, local_use {s['local_use']:g}, lambda "
        f"{s['risk_lambda']:g}: {s['leaks']} leaks, keep rate {s['keep_rate']} "
        f"({s['kept']}/{s['keep_total']}; {s['lost_withheld']} lost to withheld sentences), "
        f"{s['withheld_sentences']} sentences withheld, {s['needless_withheld']} needless"
    )
    for n in s["needless"]:
        print(f"  needless: {n['id']}: {n['sentence']!r}")
    return 0
