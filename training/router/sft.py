"""Supervised warm-up of the router (Privacy-R1's SFT stage), on the product's meaning of a leak.

Label of a sentence at a lambda: local (0) when the sentence, sent alone and
anonymized by the real detector and type policy (the exact compose path of
:meth:`Episode.route_leaks`), would still carry a gold unit the policy
protects at that lambda; remote (1) otherwise. Containing PII is not a reason
to stay: "Name is John Doe." leaves as "Name is [PERSON_1]." and leaks
nothing. Binary cross-entropy on ``p_remote`` with Adam at lr 3e-4 (the
paper's). Lambda is drawn per episode from the training range (the labels
depend on it only through which quasi-identifiers are protected), and
``local_use`` at random (the labels do not depend on it; PPO gives it its
meaning). Labels are smoothed a little
so the warm-up does not saturate the softmax: PPO's small learning rate
(1e-5) could not move a saturated policy.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import torch
from torch import nn

from training.router.episodes import Episode
from training.router.features import batch
from training.router.policy import p_remote
from training.router.ppo import length_chunks, sample_lambdas

log = logging.getLogger(__name__)


@dataclass
class SFTConfig:
    lr: float = 3e-4
    epochs: int = 4
    batch_size: int = 32
    label_smoothing: float = 0.1  # targets 0.05 / 0.95
    lambda_range: tuple[float, float] = (0.0, 10.0)
    lambda_power: float = 1.0
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def sft_labels(ep: Episode, risk_lambda: float = 5.0) -> np.ndarray:
    """float[n]: 1 = remote (sent anonymized, it leaks no protected unit), 0 = local."""
    n = len(ep.sentences)
    out = np.ones(n, dtype=np.float32)
    if not ep.protected(risk_lambda).any():
        return out
    for i in range(n):
        alone = [j == i for j in range(n)]
        if ep.route_leaks(alone, risk_lambda)[2] > 0:
            out[i] = 0.0
    return out


def train_sft(
    policy: nn.Module, episodes: Sequence[Episode], cfg: SFTConfig | None = None
) -> dict[str, Any]:
    """Fit ``policy`` to the heuristic labels; return the loss history."""
    cfg = cfg or SFTConfig()
    rng = np.random.default_rng(cfg.seed)
    torch.manual_seed(cfg.seed)
    opt = torch.optim.Adam(policy.parameters(), lr=cfg.lr)
    eps = cfg.label_smoothing / 2
    history = []
    t0 = time.perf_counter()
    policy.train()
    for epoch in range(cfg.epochs):
        # Batches of similar lengths (little padding), visited in random order.
        pool = length_chunks([len(e.sentences) for e in episodes], cfg.batch_size, rng)
        total, count = 0.0, 0
        for c in rng.permutation(len(pool)):
            idx = pool[c]
            lams = sample_lambdas(rng, len(idx), *cfg.lambda_range, power=cfg.lambda_power)
            emb, det, lam, mask = batch([episodes[i] for i in idx], lams)
            local = torch.from_numpy((rng.random(len(idx)) < 0.5).astype(np.float32))
            target = torch.zeros(mask.shape)
            for j, i in enumerate(idx):
                target[j, : len(episodes[i].sentences)] = torch.from_numpy(
                    sft_labels(episodes[i], float(lams[j]))
                )
            target = target * (1 - 2 * eps) + eps
            p = p_remote(policy(emb, det, lam, mask, local)).clamp(1e-6, 1 - 1e-6)
            loss = nn.functional.binary_cross_entropy(p[mask], target[mask])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * int(mask.sum())
            count += int(mask.sum())
        history.append(total / max(count, 1))
        log.info("sft epoch %d: bce %.4f (%.1fs)", epoch + 1, history[-1], time.perf_counter() - t0)
    policy.eval()
    return {"bce": history, "seconds": round(time.perf_counter() - t0, 1)}
