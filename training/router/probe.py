"""Is the router still the one its figures describe? Its decisions on a fixed probe set.

The router reads what the detector found in each sentence (counts per type, the NER's
states pooled outside the entities) and the rules around it decide some sentences
before it is asked. A detector fingerprint (:func:`training.router.episodes.detector_fingerprint`)
moves with every line of the rules' code, also when no decision of the router changes,
so a router checked by fingerprint alone was stale after every release. This module
asks the question the check is for: does the program, with this router, route the
probe set's sentences as it did when the router was built and evaluated?

At build time (``python -m training.router build``, or ``python -m training.router
probe --record`` run on the detector the router was trained on) the program routes
every :data:`STRIDE`-th text of the English utility dev set at the :data:`POINTS`
(lambda, local_use) and writes each sentence's ``p_remote`` to ``probe.json`` beside
the policy. ``python -m training.router check`` routes the same texts again with the
program's detector and counts the sentences whose decision (``p_remote >= 0.5``) flipped.
Texts added to the dev set later, or whose text changed, are not compared; a text the
program now cuts into other sentences counts every sentence of it as flipped.

The router is stale when more than :data:`TOLERANCE` of the probe's decisions flipped
at any point, or when its NER or encoder is another (checked exactly, elsewhere).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PROBE_DATA = ROOT / "training" / "data" / "utility_dev.json"
PROBE_FILE = "probe.json"
#: Every STRIDE-th text of the probe data (350 of the 1,400 English dev texts): about a
#: minute on two cores for the three points below.
STRIDE = 4
#: (lambda, local_use): the default level with and without a capable local model, and a
#: cautious level where the policy withholds most.
POINTS: tuple[tuple[float, float], ...] = ((5.0, 0.0), (5.0, 1.0), (8.0, 0.0))
#: The largest share of the probe's decisions that may flip before the router is stale.
#: Two builds of the same recipe and seed (c1 and c2, made on the detectors of 3 and 4
#: December) disagree on 0.37%, 0.67% and 0.44% of the probe's 1,351 sentences at the
#: three points, on the same detector: what a rebuild itself changes. A drift under
#: about half of the smallest of those is less than a rebuild would move.
TOLERANCE = 0.002


def text_key(text: str) -> str:
    """A short hash of a text: a probe text edited since the record is not compared."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def probe_texts(path: Path = PROBE_DATA, stride: int = STRIDE) -> list[tuple[str, str]]:
    """``(id, text)`` of every ``stride``-th item of a utility-format file."""
    items = json.loads(path.read_text("utf-8"))
    return [(str(it["id"]), str(it["text"])) for it in items[::stride]]


def route_probe(
    texts: Sequence[tuple[str, str]],
    router: Path | None = None,
    points: Sequence[tuple[float, float]] = POINTS,
    detector: Any = None,
) -> dict[str, dict[str, Any]]:
    """``{id: {"key": text_key, "p": [[p_remote per sentence] per point]}}`` as the
    program routes each text with the router in ``router`` (default: the shipped one) and
    ``detector`` (default: the program's)."""
    from core.analyze import Analyzer
    from core.assembly import default_detector, ner_states
    from core.router.policy import PolicyRouter, reads_states
    from core.segment import Segmenter
    from core.settings import Settings

    settings = Settings()
    detector = detector if detector is not None else default_detector(settings)
    states = ner_states(detector) if reads_states(router) else None
    policy = PolicyRouter(router, states=states)
    analyzer = Analyzer(
        segmenter=Segmenter(language=str(settings.language)), detector=detector, router=policy
    )
    out: dict[str, dict[str, Any]] = {}
    for tid, text in texts:
        rows = []
        for risk_lambda, local_use in points:
            policy.local_use = local_use
            analysis = analyzer.analyze(text, risk_lambda)
            rows.append([round(float(p.p_remote), 4) for p in analysis.plans])
        out[tid] = {"key": text_key(text), "p": rows}
    return out


def record(
    router: Path | None = None, data: Path = PROBE_DATA, stride: int = STRIDE
) -> dict[str, Any]:
    """The probe record of the router in ``router`` on the program's detector now."""
    from core.assembly import default_detector
    from core.settings import Settings
    from training.router.episodes import detector_fingerprint

    t0 = time.perf_counter()
    detector = default_detector(Settings())
    routed = route_probe(probe_texts(data, stride), router, detector=detector)
    try:
        where = str(data.resolve().relative_to(ROOT))
    except ValueError:
        where = str(data)
    return {
        "what": "p_remote of every sentence of the probe texts, as the program routed them "
        "with this router when it was built (training.router.probe)",
        "data": where,
        "stride": stride,
        "points": [list(p) for p in POINTS],
        "detector": detector_fingerprint(detector),
        "seconds": round(time.perf_counter() - t0, 1),
        "texts": routed,
    }


def write(folder: Path, rec: dict[str, Any]) -> None:
    """Write ``rec`` as the router's probe and name it in its manifest with its hash.

    It is not one of the manifest's ``files``: the policy routes without it, so a
    damaged probe makes the router stale, not unloadable."""
    import models

    path = folder / PROBE_FILE
    path.write_text(json.dumps(rec, ensure_ascii=False) + "\n", "utf-8")
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    manifest["probe"] = {
        "file": PROBE_FILE,
        "sha256": models.sha256(path),
        "detector": rec["detector"],
        "texts": len(rec["texts"]),
        "points": rec["points"],
        "tolerance": TOLERANCE,
    }
    models.write_manifest(folder, manifest)


def compare(before: dict[str, Any], now: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """How the decisions in ``now`` differ from the record ``before`` (same points)."""
    points = [tuple(p) for p in before["points"]]
    flips = [0] * len(points)
    sentences = 0
    texts = resegmented = 0
    moved = 0.0
    for tid, old in before["texts"].items():
        new = now.get(tid)
        if new is None or new["key"] != old["key"]:
            continue
        texts += 1
        n = len(old["p"][0])
        sentences += n
        for k, (a, b) in enumerate(zip(old["p"], new["p"], strict=True)):
            if len(a) != len(b):  # cut otherwise: every sentence of it counts as flipped
                resegmented += k == 0
                flips[k] += n
                moved += n
                continue
            flips[k] += sum((x >= 0.5) != (y >= 0.5) for x, y in zip(a, b, strict=True))
            moved += sum(abs(x - y) for x, y in zip(a, b, strict=True))
    denom = max(sentences, 1)
    return {
        "texts": texts,
        "sentences": sentences,
        "resegmented_texts": resegmented,
        "points": [list(p) for p in points],
        "flips": flips,
        "flip_rates": [round(f / denom, 4) for f in flips],
        "mean_abs_change": round(moved / (denom * len(points)), 4),
    }


def staleness(folder: Path, router: Path | None = None) -> tuple[list[str], dict[str, Any]]:
    """Why the router's decisions on its probe are no longer its own (empty: they are),
    and the comparison; ``router`` routes (default ``folder``)."""
    import models

    path = folder / PROBE_FILE
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    if not path.exists() or models.sha256(path) != manifest.get("probe", {}).get("sha256"):
        return [f"probe: {path} is missing or does not match its manifest"], {}
    rec = json.loads(path.read_text("utf-8"))
    data = ROOT / rec["data"] if not Path(rec["data"]).is_absolute() else Path(rec["data"])
    texts = [(t, x) for t, x in probe_texts(data, 1) if t in rec["texts"]]
    now = route_probe(texts, router or folder, [tuple(p) for p in rec["points"]])
    cmp = compare(rec, now)
    tolerance = TOLERANCE
    out = []
    worst = max(cmp["flip_rates"], default=0.0)
    if cmp["sentences"] == 0:
        out.append("probe: none of its texts is in the probe data any more")
    elif worst > tolerance:
        out.append(
            f"decisions: {max(cmp['flips'])} of {cmp['sentences']} probe sentences "
            f"({worst:.1%}) route otherwise than when it was built (tolerance {tolerance:.1%})"
        )
    return out, cmp
