"""The episodic reward of Privacy-R1: ``R = TaskGain - lambda * Leak^p``.

``Leak`` is the share of the query's located gold units present in the exact
outbound text of the routing (:meth:`Episode.route`: the product's
``compose_outbound`` with a fresh privacy box and the real detected spans);
a query with no located unit has Leak 0. ``p`` is 2 for the paper's
quadratic penalty and 1 for the linear ablation. ``TaskGain`` comes from a
pluggable judge (:mod:`training.router.judge`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from training.router.episodes import Episode
from training.router.judge import TaskGain

PENALTIES = {"quadratic": 2.0, "linear": 1.0}


@dataclass(frozen=True)
class Outcome:
    reward: float
    gain: float
    leak: float  # share of located units leaked
    leaked: int
    remote: int  # sentences sent


def reward(
    ep: Episode,
    remote: Sequence[bool],
    risk_lambda: float,
    judge: TaskGain,
    penalty: str = "quadratic",
) -> Outcome:
    """The reward of one routing of one episode at one lambda."""
    text, leaked = ep.route(remote, risk_lambda)
    leak = leaked / len(ep.units) if ep.units else 0.0
    gain = judge.gain(ep, remote, text)
    r = gain - risk_lambda * leak ** PENALTIES[penalty]
    return Outcome(r, gain, leak, leaked, int(sum(bool(x) for x in remote)))
