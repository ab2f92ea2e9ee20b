"""The router's torch modules: the Transformer policy, the stateless MLP, the critic.

Inputs, for a batch of ``B`` queries padded to ``N`` sentences:
``emb`` float[B, N, 384] (MiniLM), ``det`` float[B, N, DETECT_DIM] (see
:func:`core.router.policy.detection_features`), ``lam`` float[B] (lambda in
[0, 10]), ``mask`` bool[B, N] (True for real sentences) and ``local``
float[B] (1 when a capable local model merges what stays on the machine, 0
when nothing local can use it; zeros when not given). Every policy returns
logits float[B, N, 2] over (local, remote). ``local`` joins every sentence's
input, so the policy learns how much a withheld sentence is still worth.

Lambda enters through the head (:class:`LambdaHead`): the shared linear head
gives each sentence a preference ``u`` for the cloud and a sensitivity
``s = softplus(v) >= 0``, and the remote logit is ``u - s * lambda / 10``
against a local logit of 0. Raising lambda can therefore only move a sentence
towards local (the slider means what it says, for every input), and each
sentence has a lambda at which it flips, ``10 * u / s``, which is an
explanation the editor can show.

The attention is written out by hand (not ``nn.MultiheadAttention``) so the
ONNX export is a plain graph with no fused fast path to trip over.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import torch
from torch import nn

from core.router.encoder import DIM as EMB_DIM
from core.router.policy import DETECT_DIM, LAMBDA_MAX


@dataclass
class PolicyConfig:
    """Architecture of a policy; saved with its weights and in the manifest."""

    kind: str = "transformer"  # "transformer" | "mlp"
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 2
    d_ff: int = 128
    max_positions: int = 512
    sensitivity_init: float = 0.0  # bias of the head's lambda-sensitivity output

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def sinusoidal(n_pos: int, d: int) -> torch.Tensor:
    """The fixed positional encoding of "Attention is all you need", float[n_pos, d]."""
    pos = torch.arange(n_pos, dtype=torch.float32)[:, None]
    div = torch.exp(torch.arange(0, d, 2, dtype=torch.float32) * (-math.log(10000.0) / d))
    pe = torch.zeros(n_pos, d)
    pe[:, 0::2] = torch.sin(pos * div)
    pe[:, 1::2] = torch.cos(pos * div)
    return pe


def _inputs(emb: torch.Tensor, det: torch.Tensor, local: torch.Tensor | None) -> torch.Tensor:
    if local is None:
        local = torch.zeros(emb.shape[0], dtype=emb.dtype)
    col = local.to(emb.dtype)[:, None, None].expand(emb.shape[0], emb.shape[1], 1)
    return torch.cat([emb, det, col], dim=-1)


IN_DIM = EMB_DIM + DETECT_DIM + 1


class LambdaHead(nn.Module):
    """One linear head shared by all sentences, conditioned on lambda; see the module doc."""

    def __init__(self, d: int, sensitivity_init: float = 0.0) -> None:
        super().__init__()
        self.linear = nn.Linear(d, 2)
        # softplus(bias) is every sentence's starting sensitivity to lambda.
        with torch.no_grad():
            self.linear.bias[1] = sensitivity_init

    def forward(self, h: torch.Tensor, lam: torch.Tensor) -> torch.Tensor:
        uv = self.linear(h)
        scale = (lam / LAMBDA_MAX)[:, None]
        remote = uv[..., 0] - nn.functional.softplus(uv[..., 1]) * scale
        return torch.stack([torch.zeros_like(remote), remote], dim=-1)


class EncoderLayer(nn.Module):
    """A pre-norm Transformer encoder layer with a key-padding mask."""

    def __init__(self, d: int, heads: int, d_ff: int) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.norm1 = nn.LayerNorm(d)
        self.norm2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, d_ff), nn.GELU(), nn.Linear(d_ff, d))

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        b, n, d = x.shape
        h = self.heads
        q, k, v = self.qkv(self.norm1(x)).reshape(b, n, 3, h, d // h).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-1, -2)) / math.sqrt(d // h) + bias  # [b, h, n, n]
        y = (att.softmax(-1) @ v).transpose(1, 2).reshape(b, n, d)
        x = x + self.out(y)
        return x + self.ff(self.norm2(x))


class TransformerPolicy(nn.Module):
    """Privacy-R1's router: input projection, positional encoding, 2-layer encoder, shared head."""

    pe: torch.Tensor

    def __init__(self, cfg: PolicyConfig | None = None) -> None:
        super().__init__()
        self.cfg = cfg = cfg or PolicyConfig()
        self.proj = nn.Linear(IN_DIM, cfg.d_model)
        self.register_buffer("pe", sinusoidal(cfg.max_positions, cfg.d_model), persistent=False)
        self.layers = nn.ModuleList(
            EncoderLayer(cfg.d_model, cfg.n_heads, cfg.d_ff) for _ in range(cfg.n_layers)
        )
        self.norm = nn.LayerNorm(cfg.d_model)
        self.head = LambdaHead(cfg.d_model, cfg.sensitivity_init)  # shared by every sentence

    def forward(
        self,
        emb: torch.Tensor,
        det: torch.Tensor,
        lam: torch.Tensor,
        mask: torch.Tensor | None = None,
        local: torch.Tensor | None = None,
    ) -> torch.Tensor:
        n = emb.shape[1]
        # Positions past the table reuse the last one (queries that long are rare).
        idx = torch.arange(n).clamp(max=self.cfg.max_positions - 1)
        x = self.proj(_inputs(emb, det, local)) + self.pe[idx][None]
        if mask is None:
            bias = torch.zeros(emb.shape[0], 1, 1, n, dtype=x.dtype)
        else:
            bias = (~mask)[:, None, None, :].to(x.dtype) * -1e9
        for layer in self.layers:
            x = layer(x, bias)
        logits: torch.Tensor = self.head(self.norm(x), lam)
        return logits


class MLPPolicy(nn.Module):
    """The stateless ablation: each sentence decided alone from its own features and lambda."""

    def __init__(self, cfg: PolicyConfig | None = None) -> None:
        super().__init__()
        self.cfg = cfg = cfg or PolicyConfig(kind="mlp")
        self.net = nn.Sequential(
            nn.Linear(IN_DIM, cfg.d_ff),
            nn.GELU(),
            nn.Linear(cfg.d_ff, cfg.d_model),
            nn.GELU(),
        )
        self.head = LambdaHead(cfg.d_model, cfg.sensitivity_init)

    def forward(
        self,
        emb: torch.Tensor,
        det: torch.Tensor,
        lam: torch.Tensor,
        mask: torch.Tensor | None = None,
        local: torch.Tensor | None = None,
    ) -> torch.Tensor:
        logits: torch.Tensor = self.head(self.net(_inputs(emb, det, local)), lam)
        return logits


class ValueCritic(nn.Module):
    """A feed-forward critic: the expected episodic reward of a query at a lambda.

    It sees the masked mean of the sentence features, the maximum of the
    detection features, lambda and the number of sentences.
    """

    def __init__(self, hidden: int = 128) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(EMB_DIM + 2 * DETECT_DIM + 3, hidden),
            nn.Tanh(),
            nn.Linear(hidden, hidden),
            nn.Tanh(),
            nn.Linear(hidden, 1),
        )

    def forward(
        self,
        emb: torch.Tensor,
        det: torch.Tensor,
        lam: torch.Tensor,
        mask: torch.Tensor,
        local: torch.Tensor | None = None,
    ) -> torch.Tensor:
        if local is None:
            local = torch.zeros(emb.shape[0], dtype=emb.dtype)
        m = mask[..., None].to(emb.dtype)
        count = m.sum(1).clamp(min=1.0)
        mean = torch.cat([emb, det], -1).mul(m).sum(1) / count
        dmax = det.masked_fill(~mask[..., None], 0.0).amax(1)
        x = torch.cat(
            [mean, dmax, (lam / LAMBDA_MAX)[:, None], torch.log1p(count) / 4.0, local[:, None]], -1
        )
        value: torch.Tensor = self.net(x).squeeze(-1)
        return value


def make_policy(cfg: PolicyConfig) -> nn.Module:
    """Build the policy a config names."""
    if cfg.kind == "transformer":
        return TransformerPolicy(cfg)
    if cfg.kind == "mlp":
        return MLPPolicy(cfg)
    raise ValueError(f"unknown policy kind {cfg.kind!r}")


def p_remote(logits: torch.Tensor) -> torch.Tensor:
    """Softmax over (local, remote), the remote column."""
    return logits.softmax(-1)[..., 1]


class ExportWrapper(nn.Module):
    """What the ONNX graph computes: one query (batch 1 or more, no padding) to p_remote."""

    def __init__(self, policy: nn.Module) -> None:
        super().__init__()
        self.policy = policy

    def forward(
        self, emb: torch.Tensor, det: torch.Tensor, lam: torch.Tensor, local: torch.Tensor
    ) -> torch.Tensor:
        return p_remote(
            self.policy(emb, det, lam.clamp(0.0, LAMBDA_MAX), None, local.clamp(0.0, 1.0))
        )
