"""TaskGain, the utility term of the router's reward, behind one small interface.

Two kinds, chosen by the caller and named in every report:

* ``proxy``: semantic retention, the cosine similarity of MiniLM embeddings
  of the outbound content and the original query (GAMA's BERT similarity;
  EVALUATION.md's offline proxy). :class:`PooledRetention` is the cheap form
  used as the training reward: a text's embedding is the token-weighted mean
  of its sentences' embeddings, so a routing's value needs no new encoder
  pass. :class:`ExactRetention` embeds the two whole texts (512 word pieces,
  the model's limit) and is what the evaluation reports.
* ``llm:<model>``: PAPILLON's pairwise judge over any OpenAI-compatible
  endpoint (:class:`LLMJudge`). The endpoint answers the outbound content;
  the judge asks "is response A at least as good as response B?" twice with
  the order swapped against the reference answer (the data set's
  ``target_response``, else the endpoint's answer to the whole query), and a
  tie counts as a pass.

An empty outbound (everything stayed local) gains 0 under every judge: the
cloud received nothing, so it contributed nothing.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from core.outbound.compose import WITHHELD

if TYPE_CHECKING:
    from training.router.episodes import Episode
    from training.router.features import EmbeddingStore

log = logging.getLogger(__name__)


class TaskGain(Protocol):
    """The utility of one routing of one episode, in [0, 1]."""

    name: str

    def gain(
        self, ep: Episode, remote: Sequence[bool], outbound: str, local_use: float = 0.0
    ) -> float: ...


def _normalize(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else v


class PooledRetention:
    """Semantic retention with sentence-pooled embeddings (the training reward's proxy).

    query = normalize(sum_i ntok_i * e_i) over every sentence as written;
    outbound = normalize(sum over remote sentences of ntok_i * a_i, plus one
    withheld marker per run of local sentences), where ``a_i`` is the
    embedding of the anonymized sentence. Gain = max(0, cos(outbound, query)).
    """

    name = "proxy"

    def __init__(self, store: EmbeddingStore) -> None:
        self.withheld = store.get([WITHHELD])[0]
        self.withheld_tokens = float(store.embedder.token_counts([WITHHELD])[0])

    def gain(
        self, ep: Episode, remote: Sequence[bool], outbound: str = "", local_use: float = 0.0
    ) -> float:
        r = np.asarray(remote, dtype=bool)
        if not r.any():
            return 0.0
        q = _normalize((ep.emb * ep.ntok[:, None]).sum(0))
        o = (ep.emb_anon[r] * ep.ntok_anon[r][:, None]).sum(0)
        # One marker per run of local sentences, as compose_outbound writes it.
        runs = int(np.sum(~r & np.concatenate([[True], r[:-1]])))
        o = o + runs * self.withheld_tokens * self.withheld
        return max(0.0, float(_normalize(o) @ q))


def remote_word_share(ep: Episode, remote: Sequence[bool], placeholders: bool = False) -> float:
    """Share of the query's non-private words (outside gold units) in the remote sentences.

    With ``placeholders`` each gold unit counts as one word too (the placeholder the cloud
    reads in its place): a pasted form's line "Phone: 07700 900614" is two words of the
    request, not one. A query with no such word counts its sentences instead.
    """
    r = np.asarray(remote, dtype=bool)
    w = ep.words + ep.unit_words if placeholders else ep.words
    total = float(w.sum())
    if total <= 0:
        return float(r.mean()) if len(r) else 0.0
    return float(w[r].sum()) / total


class ShareRetention:
    """TaskGain that charges for every withheld word (the training reward's proxy).

    ``gain = share_weight * share + (1 - share_weight) * pooled retention`` where
    ``share`` is :func:`remote_word_share` (every non-private word kept from the
    cloud costs the same, so a withheld "Thanks." costs a word where pooled
    retention barely moves) and the retention term is :class:`PooledRetention`
    (the cloud still needs the query's meaning). ``local_use`` (0 or 1) says
    whether a capable local model merges the withheld sentences into the
    answer: then a withheld word still earns ``local_credit`` of its value;
    with a basic model it earns nothing (core.integrate: the answer passes
    through and the person is told what the cloud did not see).
    """

    name = "proxy"

    def __init__(
        self,
        store: EmbeddingStore,
        share_weight: float = 0.5,
        local_credit: float = 0.5,
        placeholders: bool = False,
    ) -> None:
        self.pooled = PooledRetention(store)
        self.share_weight = share_weight
        self.local_credit = local_credit
        self.placeholders = placeholders

    def gain(
        self, ep: Episode, remote: Sequence[bool], outbound: str = "", local_use: float = 0.0
    ) -> float:
        share = remote_word_share(ep, remote, self.placeholders)
        share += local_use * self.local_credit * (1.0 - share)
        retention = self.pooled.gain(ep, remote, outbound) if self.share_weight < 1 else 0.0
        return self.share_weight * share + (1.0 - self.share_weight) * retention


class ExactRetention:
    """Semantic retention of the whole outbound text against the whole query (the report's figure)."""

    name = "proxy"

    def __init__(self, store: EmbeddingStore) -> None:
        self.store = store

    def gain(
        self, ep: Episode, remote: Sequence[bool], outbound: str, local_use: float = 0.0
    ) -> float:
        return self.similarity(ep.text, outbound)

    def similarity(self, query: str, outbound: str) -> float:
        if not outbound.strip():
            return 0.0
        q, o = self.store.get([query, outbound])
        return max(0.0, float(q @ o))


# PAPILLON's JudgeQuality signature (Columbia-NLP-Lab/PAPILLON, llm_judge.py), written
# out as a chat prompt since we do not use DSPy.
JUDGE_INSTRUCTIONS = (
    "You are comparing the quality of two responses, given a user query.\n"
    "Is response A at least as good as response B?"
)
JUDGE_TEMPLATE = (
    "{instructions}\n\n"
    "User query (the user's request to be fulfilled):\n{query}\n\n"
    "Response A:\n{a}\n\n"
    "Response B:\n{b}\n\n"
    "Answer with one word, yes or no: is response A at least as good as response B?"
)
_YES = re.compile(r"\b(yes|true)\b", re.IGNORECASE)
_NO = re.compile(r"\b(no|false)\b", re.IGNORECASE)


def parse_verdict(text: str) -> bool:
    """A judge's yes/no (the first of the two words that occurs); unreadable counts as no."""
    y, n = _YES.search(text or ""), _NO.search(text or "")
    return bool(y and (not n or y.start() < n.start()))


class LLMJudge:
    """PAPILLON's pairwise judge over an OpenAI-compatible endpoint (``llm:<model>``).

    ``client`` may be any object with the ``openai`` client's
    ``chat.completions.create`` (tests pass a fake).
    """

    def __init__(
        self,
        base_url: str | None = None,
        model: str = "",
        *,
        api_key: str = "not-needed",
        client: Any = None,
        max_tokens: int = 512,
        timeout: float = 120.0,
    ) -> None:
        if client is None:
            from openai import OpenAI

            client = OpenAI(base_url=base_url, api_key=api_key, timeout=timeout)
        self.client = client
        self.model = model
        self.name = f"llm:{model}"
        self.max_tokens = max_tokens
        self._answers: dict[str, str] = {}

    def _chat(self, prompt: str, max_tokens: int) -> str:
        resp = self.client.chat.completions.create(
            model=self.model,
            messages=[{"role": "user", "content": prompt}],
            max_tokens=max_tokens,
            temperature=0.0,
        )
        return str(resp.choices[0].message.content or "")

    def answer(self, prompt: str) -> str:
        """The endpoint's answer to ``prompt`` (memoized)."""
        if prompt not in self._answers:
            self._answers[prompt] = self._chat(prompt, self.max_tokens)
        return self._answers[prompt]

    def at_least_as_good(self, query: str, a: str, b: str) -> bool:
        prompt = JUDGE_TEMPLATE.format(instructions=JUDGE_INSTRUCTIONS, query=query, a=a, b=b)
        return parse_verdict(self._chat(prompt, 8))

    def passes(self, query: str, candidate: str, reference: str) -> bool:
        """PAPILLON's rule: pass when A >= B, or when the judge is inconsistent (a tie)."""
        first = self.at_least_as_good(query, candidate, reference)
        second = self.at_least_as_good(query, reference, candidate)
        return first or first == second

    def gain(
        self, ep: Episode, remote: Sequence[bool], outbound: str, local_use: float = 0.0
    ) -> float:
        if not outbound.strip():
            return 0.0
        reference = ep.target or self.answer(ep.text)
        return 1.0 if self.passes(ep.text, self.answer(outbound), reference) else 0.0
