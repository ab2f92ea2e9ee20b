"""Which TaskGain weighting the build uses: a small comparison on the development episodes.

``python -m training.router taskgain-weights [--weights 0,0.5,0.8]`` scores, for
each weight ``w`` of :class:`training.router.judge.ShareRetention`
(``w = 0`` is the old proxy, pooled retention alone), two things the reward
must get right, on the development part of the training fold (never the
evaluation fold):

* **a needless withholding must cost**: for every sentence that, sent alone and
  anonymized, leaks no protected unit at lambda 5, the drop of TaskGain when it
  alone is withheld from an all-remote routing (mean, mean over sentences of at
  most 3 words, and the share of such sentences whose withholding costs less
  than 0.005 or even raises TaskGain: there the reward cannot tell the router
  to send them);
* **a leak must still outweigh it**: for every sentence that alone leaks a
  protected unit, whether the reward at lambda 2, 5 and 10 prefers withholding
  it (the all-remote routing minus that sentence) over sending everything.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from training.router.episodes import Episode
from training.router.judge import ShareRetention
from training.router.reward import reward

FREE = 0.005


def compare(
    episodes: Sequence[Episode], judge_for: dict[float, ShareRetention]
) -> dict[str, dict[str, Any]]:
    """The comparison table, one row per weight."""
    out: dict[str, dict[str, Any]] = {}
    for w, judge in judge_for.items():
        costs: list[float] = []
        short: list[float] = []
        prefer: dict[float, list[bool]] = {2.0: [], 5.0: [], 10.0: []}
        for ep in episodes:
            n = len(ep.sentences)
            everything = [True] * n
            g_all = reward(ep, everything, 5.0, judge).gain
            for i in range(n):
                without = [j != i for j in range(n)]
                leaks_alone = ep.route_leaks([j == i for j in range(n)], 5.0)[2] > 0
                if not leaks_alone:
                    cost = g_all - reward(ep, without, 5.0, judge).gain
                    costs.append(cost)
                    if ep.words[i] <= 3:
                        short.append(cost)
                    continue
                for lam, bucket in prefer.items():
                    keep = reward(ep, without, lam, judge).reward
                    send = reward(ep, everything, lam, judge).reward
                    bucket.append(keep > send)
        c, s = np.asarray(costs), np.asarray(short)
        out[f"{w:g}"] = {
            "needless_sentences": len(c),
            "needless_cost_mean": round(float(c.mean()), 4) if len(c) else None,
            "needless_cost_mean_short": round(float(s.mean()), 4) if len(s) else None,
            "short_sentences": len(s),
            "needless_nearly_free_share": round(float((c < FREE).mean()), 4) if len(c) else None,
            "needless_gainful_share": round(float((c < 0).mean()), 4) if len(c) else None,
            "leaky_sentences": len(prefer[5.0]),
            **{
                f"leaky_withheld_share_at_{lam:g}": round(float(np.mean(b)), 4) if b else None
                for lam, b in prefer.items()
            },
        }
    return out


def run(args: argparse.Namespace) -> int:
    from training.metrics import split_of
    from training.router.episodes import DATA, build_episodes, default_parts

    cache = Path(args.cache)
    detector, segmenter, store = default_parts(cache)
    dev: list[Episode] = []
    formats = args.formats.split(",") if getattr(args, "formats", None) else list(DATA)
    for fmt, path in DATA.items():
        if fmt in formats and path.exists():
            eps = build_episodes(path, fmt, detector, segmenter, store, split="train", cache=cache)
            dev += [e for e in eps if split_of("dev:" + e.id) == "eval"]
    weights = [float(x) for x in args.weights.split(",") if x.strip()]
    table = compare(dev, {w: ShareRetention(store, share_weight=w) for w in weights})
    text = json.dumps({"episodes": len(dev), "weights": table}, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", "utf-8")
    return 0
