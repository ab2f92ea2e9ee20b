"""The episodic reward of Privacy-R1: ``R = TaskGain - lambda * Leak^p``.

``Leak`` is the share of the query's *protected* gold units present in the
exact outbound text of the routing (:meth:`Episode.route_leaks`: the product's
``compose_outbound`` with a fresh privacy box, the real detected spans and the
type policy at the episode's lambda). A unit is protected when the type policy
protects it at that lambda (:func:`training.router.episodes.protected_units`:
direct identifiers always, quasi-identifiers from their levels); a unit the
policy sends on purpose (a country, a public company) is not the router's
leak, and a value the policy replaces by a placeholder is no leak at all. A
query with no protected unit has Leak 0. ``p`` is 2 for the paper's quadratic
penalty and 1 for the linear ablation. ``TaskGain`` comes from a pluggable
judge (:mod:`training.router.judge`); ``local_use`` tells it whether a capable
local model merges what stays on the machine.
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
    leak: float  # share of protected units leaked
    leaked: int  # protected units leaked
    remote: int  # sentences sent
    leaked_all: int = 0  # located units leaked, protected or not (the papers' count)


def reward(
    ep: Episode,
    remote: Sequence[bool],
    risk_lambda: float,
    judge: TaskGain,
    penalty: str = "quadratic",
    local_use: float = 0.0,
) -> Outcome:
    """The reward of one routing of one episode at one lambda."""
    text, leaked_all, leaked = ep.route_leaks(remote, risk_lambda)
    n_protected = int(ep.protected(risk_lambda).sum())
    leak = leaked / n_protected if n_protected else 0.0
    gain = judge.gain(ep, remote, text, local_use)
    r = gain - risk_lambda * leak ** PENALTIES[penalty]
    return Outcome(r, gain, leak, leaked, int(sum(bool(x) for x in remote)), leaked_all)
