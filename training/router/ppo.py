"""PPO on the episodic reward ``R = TaskGain - lambda * Leak^p`` (Privacy-R1's RL stage).

Each episode is also played with or without a capable local model
(``local_use`` 1 or 0, half each by default): the policy sees it as an input
and TaskGain credits a withheld word only when a local model can use it.

An episode is one query; the action is the routing of all its sentences
(each sampled from the policy's softmax over local/remote); the reward comes
once, at the end. Hence gamma = 1 and no GAE: the return is the reward, and
the advantage is ``R - V(query, lambda)`` from a feed-forward critic,
normalized over the batch.

The clipped surrogate is computed per sentence (each sentence's probability
ratio, the episode's advantage), as token-level PPO does for language models;
the product of 20 sentences' ratios would almost always be clipped.

Hyperparameters (every one is in :class:`PPOConfig` and in the manifest):
actor lr 1e-5 (the paper's); critic lr 1e-3 (it starts from scratch and must
follow the returns within 256 steps) after ``critic_warmup`` critic-only
steps on the warm-started policy's rollouts; 64 episodes per step, 4 epochs
per step over minibatches of 16 episodes; clip 0.2; entropy coefficient
0.01; gradient norm clipped at 1.0; lambda drawn per episode as
``10 * u ** lambda_power`` with ``u ~ U[0, 1]`` (the build uses power 2:
a third of the episodes below lambda 1, where the proxy's trade-off turns),
or fixed, for the fixed-lambda comparison.

The build departs from the paper's actor learning rate (1e-5): at 1e-5 the
policy barely moved from its SFT warm-up within 256 steps on this data
(development Leak% at lambda 5 went from 6.8 to 6.5 in 64 steps, and lambda
changed almost nothing), so the build uses 3e-4; ``--ppo-lr 1e-5`` reproduces
the paper's setting.
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
from training.router.judge import TaskGain
from training.router.reward import reward

log = logging.getLogger(__name__)


@dataclass
class PPOConfig:
    lr: float = 1e-5
    critic_lr: float = 1e-3
    steps: int = 256
    episodes_per_step: int = 64
    epochs: int = 4
    minibatch: int = 16
    clip: float = 0.2
    entropy_coef: float = 0.01
    gamma: float = 1.0  # one reward per episode, at its end
    max_grad_norm: float = 1.0
    critic_warmup: int = 16
    lambda_range: tuple[float, float] = (0.0, 10.0)
    lambda_power: float = 1.0  # lambda = lo + (hi - lo) * u ** power
    fixed_lambda: float | None = None
    penalty: str = "quadratic"
    leak_oversample: float = 0.0  # extra sampling weight of episodes that redact-all would leak
    #: Share of episodes played with a capable local model (local_use = 1); the rest 0.
    local_share: float = 0.5
    seed: int = 0
    log_every: int = 16

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def length_chunks(
    lengths: Sequence[int], size: int, rng: np.random.Generator | None = None
) -> list[np.ndarray]:
    """Indices cut into chunks of ``size`` after sorting by length, so padding stays small.

    Ties are broken at random when ``rng`` is given, so equal lengths mix across calls.
    """
    keys = rng.random(len(lengths)) if rng is not None else np.arange(len(lengths))
    order = np.lexsort((keys, np.asarray(lengths)))
    return [order[a : a + size] for a in range(0, len(order), size)]


def sample_lambdas(
    rng: np.random.Generator, n: int, lo: float, hi: float, power: float = 1.0
) -> np.ndarray:
    """``lo + (hi - lo) * u ** power`` with ``u ~ U[0, 1]``; power 1 is uniform.

    A power above 1 puts more episodes at small lambda, where the trade-off
    actually turns: with a retention proxy as TaskGain, one more sentence is
    worth about 0.01-0.05 while leaking one unit of five costs 0.04 * lambda.
    """
    return lo + (hi - lo) * rng.random(n) ** power


def _lambdas(cfg: PPOConfig, rng: np.random.Generator, n: int) -> np.ndarray:
    if cfg.fixed_lambda is not None:
        return np.full(n, cfg.fixed_lambda)
    return sample_lambdas(rng, n, *cfg.lambda_range, power=cfg.lambda_power)


def train_ppo(
    policy: nn.Module,
    critic: nn.Module,
    episodes: Sequence[Episode],
    judge: TaskGain,
    cfg: PPOConfig | None = None,
) -> dict[str, Any]:
    """Improve ``policy`` in place with PPO; return the training curves."""
    cfg = cfg or PPOConfig()
    rng = np.random.default_rng(cfg.seed)
    torch.manual_seed(cfg.seed)
    opt_pi = torch.optim.Adam(policy.parameters(), lr=cfg.lr)
    opt_v = torch.optim.Adam(critic.parameters(), lr=cfg.critic_lr)
    curves: dict[str, list[float]] = {
        k: [] for k in ("reward", "gain", "leak", "remote", "value_loss")
    }
    weights = None
    if cfg.leak_oversample > 0:
        # Episodes where anonymizing everything still leaks carry the signal lambda must
        # learn from, and they are rare once detection is good: draw them more often.
        risky = np.array(
            [ep.route_leaks([True] * len(ep.sentences), 5.0)[2] > 0 for ep in episodes]
        )
        weights = 1.0 + cfg.leak_oversample * risky
        weights = weights / weights.sum()
        log.info("ppo: %d of %d episodes leak when all is anonymized", risky.sum(), len(episodes))
    order = rng.permutation(len(episodes))
    cursor = 0
    t0 = time.perf_counter()
    for step in range(cfg.critic_warmup + cfg.steps):
        if weights is not None:
            idx = rng.choice(len(episodes), cfg.episodes_per_step, replace=False, p=weights)
        else:
            # Episodes are drawn without replacement, epoch after epoch.
            if cursor + cfg.episodes_per_step > len(order):
                order, cursor = rng.permutation(len(episodes)), 0
            idx = order[cursor : cursor + cfg.episodes_per_step]
            cursor += cfg.episodes_per_step
        eps = [episodes[i] for i in idx]
        lams = _lambdas(cfg, rng, len(eps))
        emb, det, lam, mask = batch(eps, lams)
        local = torch.from_numpy((rng.random(len(eps)) < cfg.local_share).astype(np.float32))
        with torch.no_grad():
            logits = policy(emb, det, lam, mask, local)
            dist = torch.distributions.Categorical(logits=logits)
            actions = dist.sample()
            old_logp = dist.log_prob(actions)
        outs = [
            reward(
                ep,
                actions[j, : len(ep.sentences)].bool().tolist(),
                float(lams[j]),
                judge,
                cfg.penalty,
                float(local[j]),
            )
            for j, ep in enumerate(eps)
        ]
        returns = torch.tensor([o.reward for o in outs], dtype=torch.float32)
        warm = step < cfg.critic_warmup
        with torch.no_grad():
            adv_all = returns - critic(emb, det, lam, mask, local)
            adv_all = (adv_all - adv_all.mean()) / (adv_all.std() + 1e-8)
        v_losses = []
        chunks = length_chunks([len(e.sentences) for e in eps], cfg.minibatch, rng)
        for _epoch in range(cfg.epochs):
            for c in rng.permutation(len(chunks)):
                mb = torch.from_numpy(chunks[c])
                m = mask[mb]
                n = int(m.sum(1).max())  # drop the columns that are padding for the whole chunk
                m = m[:, :n]
                e_mb, d_mb, l_mb, u_mb = emb[mb, :n], det[mb, :n], lam[mb], local[mb]
                value = critic(e_mb, d_mb, l_mb, m, u_mb)
                v_loss = nn.functional.mse_loss(value, returns[mb])
                opt_v.zero_grad()
                v_loss.backward()
                nn.utils.clip_grad_norm_(critic.parameters(), cfg.max_grad_norm)
                opt_v.step()
                v_losses.append(float(v_loss))
                if warm:
                    continue
                adv = adv_all[mb][:, None]
                dist = torch.distributions.Categorical(logits=policy(e_mb, d_mb, l_mb, m, u_mb))
                logp = dist.log_prob(actions[mb, :n])
                ratio = torch.exp(logp - old_logp[mb, :n])
                surrogate = torch.min(ratio * adv, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * adv)
                pi_loss = -(surrogate[m]).mean() - cfg.entropy_coef * dist.entropy()[m].mean()
                opt_pi.zero_grad()
                pi_loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), cfg.max_grad_norm)
                opt_pi.step()
        n_sent = float(mask.sum())
        curves["reward"].append(float(returns.mean()))
        curves["gain"].append(float(np.mean([o.gain for o in outs])))
        curves["leak"].append(float(np.mean([o.leak for o in outs])))
        curves["remote"].append(sum(o.remote for o in outs) / n_sent)
        curves["value_loss"].append(float(np.mean(v_losses)))
        if (step + 1) % cfg.log_every == 0:
            k = cfg.log_every
            log.info(
                "ppo step %d%s: reward %.3f gain %.3f leak %.3f remote %.2f vloss %.4f (%.0fs)",
                step + 1 - cfg.critic_warmup,
                " (critic warm-up)" if warm else "",
                np.mean(curves["reward"][-k:]),
                np.mean(curves["gain"][-k:]),
                np.mean(curves["leak"][-k:]),
                np.mean(curves["remote"][-k:]),
                np.mean(curves["value_loss"][-k:]),
                time.perf_counter() - t0,
            )
    policy.eval()
    return {"curves": curves, "seconds": round(time.perf_counter() - t0, 1)}
