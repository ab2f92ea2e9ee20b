"""Episodes of the router: one query is one episode.

A query of Med-PCD or PUPA is segmented with the project's segmenter, its gold
PII units are located (:mod:`training.metrics`), the real detector runs over
it, and each sentence gets its MiniLM embedding, the embedding of its
anonymized form (what the cloud would read, :func:`core.router.policy.cloud_view`;
the policy's input) and its detection features. The
slow parts are cached under ``runs/router/cache``: detections in a folder
named by the detector's fingerprint (its views, their code and model files,
its thresholds), embeddings by content. When the NER view joins the detector,
only detection and the anonymized embeddings are recomputed.

:func:`outbound` and :func:`leaked_units` are the exact leak of a routing: the
same :func:`core.outbound.compose.compose_outbound`, type policy
(:class:`core.policy.TypePolicy`, at the routing's lambda: which detected
values leave in clear) and :class:`core.box.PrivacyBox` the product uses, and
EVALUATION.md's normalized match of the gold units. Training composes only;
evaluation (``settle=``) also runs the product's settling pass, which
re-detects on the composed text, exactly as a turn does.
"""

from __future__ import annotations

import bisect
import hashlib
import inspect
import json
import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import models
from core.analyze import Analysis, Route, SentencePlan, assign
from core.box import PrivacyBox
from core.detect.base import Detector
from core.entities import EntityType
from core.outbound.compose import compose_outbound, distinctive, settle
from core.policy import PUBLIC_MAX, QUASI_THRESHOLDS, TypePolicy, protection
from core.router.policy import cloud_view
from core.segment import Segmenter
from core.spans import Sentence, Span
from training import metrics
from training.router.features import (
    EmbeddingStore,
    SentenceEmbedder,
    StateFeatures,
    detection_features,
)

log = logging.getLogger(__name__)

CACHE = Path("runs/router/cache")
DATA = {
    "medpcd": Path("../shared/data/med_pcd/med_pcd_train.json"),
    "pupa": Path("../shared/data/pupa/PUPA_New.csv"),
}


@dataclass
class Episode:
    """One query with everything the router and the reward need."""

    id: str
    source: str
    split: str
    text: str
    sentences: list[Sentence]
    entities: list[list[Span]]  # detected, per sentence, offsets in ``text``
    units: list[str]  # located gold units
    occurrences: list[list[tuple[int, int]]]  # per located unit
    not_located: int  # gold units that do not occur in the query
    emb: np.ndarray  # float32[n, 384], the sentences as written (the reward's query side)
    emb_anon: np.ndarray  # float32[n, 384], the sentences anonymized (the policy's input)
    ntok: np.ndarray  # float32[n], word pieces per sentence as written
    ntok_anon: np.ndarray  # float32[n], word pieces per sentence anonymized
    det: np.ndarray  # float32[n, DETECT_DIM]
    target: str | None = None
    _outbound: dict[tuple[Any, ...], tuple[str, int, int]] = field(default_factory=dict, repr=False)
    _protected: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    _words: np.ndarray | None = field(default=None, repr=False)
    _unit_words: np.ndarray | None = field(default=None, repr=False)

    @property
    def gold_sentence(self) -> np.ndarray:
        """bool[n]: the sentence overlaps an occurrence of a located unit."""
        out = np.zeros(len(self.sentences), dtype=bool)
        for occs in self.occurrences:
            for a, b in occs:
                for i, s in enumerate(self.sentences):
                    if s.start < b and a < s.end:
                        out[i] = True
        return out

    @property
    def detected_sentence(self) -> np.ndarray:
        return np.array([bool(e) for e in self.entities], dtype=bool)

    @property
    def words(self) -> np.ndarray:
        """float[n]: the words of each sentence outside every gold unit (its non-private content)."""
        if self._words is None:
            private = np.zeros(len(self.text), dtype=bool)
            for occs in self.occurrences:
                for a, b in occs:
                    private[a:b] = True
            self._words = np.array(
                [
                    sum(
                        not private[s.start + m.start() : s.start + m.end()].all()
                        for m in _WORD.finditer(s.text)
                    )
                    for s in self.sentences
                ],
                dtype=np.float32,
            )
        return self._words

    @property
    def unit_words(self) -> np.ndarray:
        """float[n]: the gold unit occurrences starting in each sentence (the placeholders
        the cloud reads in their place: "Phone: [PHONE_1]" is two words to it)."""
        if self._unit_words is None:
            starts = sorted(a for occs in self.occurrences for a, _b in occs)
            self._unit_words = np.array(
                [
                    bisect.bisect_left(starts, s.end) - bisect.bisect_left(starts, s.start)
                    for s in self.sentences
                ],
                dtype=np.float32,
            )
        return self._unit_words

    def protected(self, risk_lambda: float) -> np.ndarray:
        """bool[units]: which located gold units the type policy protects at ``risk_lambda``.

        See :func:`protected_units`; memoized per band of lambda.
        """
        band = lambda_band(risk_lambda)
        hit = self._protected.get(band)
        if hit is None:
            hit = protected_units(self, risk_lambda)
            self._protected[band] = hit
        return hit

    def route(
        self, remote: Sequence[bool], risk_lambda: float = 5.0, settle_with: Detector | None = None
    ) -> tuple[str, int]:
        """The outbound text of a routing and how many located units it leaks (memoized)."""
        text, leaked, _p = self.route_leaks(remote, risk_lambda, settle_with)
        return text, leaked

    def route_leaks(
        self, remote: Sequence[bool], risk_lambda: float = 5.0, settle_with: Detector | None = None
    ) -> tuple[str, int, int]:
        """The outbound text of a routing, the located units it leaks and the protected ones.

        The type policy's decisions change only where lambda crosses a threshold,
        so the memo is kept per band of lambda.
        """
        key = (*(bool(r) for r in remote), lambda_band(risk_lambda), settle_with is not None)
        hit = self._outbound.get(key)
        if hit is None:
            text = outbound(self, [bool(r) for r in remote], risk_lambda, settle_with)
            prot = self.protected(risk_lambda)
            hit = (
                text,
                leaked_units(self.units, text),
                leaked_units([u for u, p in zip(self.units, prot, strict=True) if p], text),
            )
            if len(self._outbound) < 4096:
                self._outbound[key] = hit
        return hit


_WORD = re.compile(r"\w+")


# --- the exact leak -------------------------------------------------------------------


_POLICY: list[TypePolicy] = []


def type_policy() -> TypePolicy:
    """The product's type policy (the shipped lexicon), built once."""
    if not _POLICY:
        _POLICY.append(TypePolicy())
    return _POLICY[0]


def lambda_band(risk_lambda: float) -> int:
    """Which of the policy's thresholds ``risk_lambda`` has passed (decisions are equal within a band)."""
    return sum(risk_lambda >= t for t in sorted({*QUASI_THRESHOLDS.values(), PUBLIC_MAX}))


def analysis_of(ep: Episode, remote: Sequence[bool], risk_lambda: float = 5.0) -> Analysis:
    """The product's :class:`Analysis` for a given routing of an episode, with the type policy."""
    decisions = protection(ep.text, ep.entities, risk_lambda, type_policy())
    plans = [
        SentencePlan(
            i, s, Route.REMOTE if r else Route.LOCAL, 1.0 if r else 0.0, list(ents), decisions=ds
        )
        for i, (s, ents, r, ds) in enumerate(
            zip(ep.sentences, ep.entities, remote, decisions, strict=True)
        )
    ]
    return Analysis(ep.text, plans, risk_lambda, "training")


def outbound(
    ep: Episode,
    remote: Sequence[bool],
    risk_lambda: float = 5.0,
    settle_with: Detector | None = None,
) -> str:
    """The user content the cloud would receive: remote sentences anonymized by a fresh box."""
    if not any(remote):
        return ""
    policy = type_policy()
    analysis = analysis_of(ep, remote, risk_lambda)
    box = PrivacyBox()
    text = compose_outbound(analysis, box, distinctive(policy.lexicon))
    if settle_with is None:
        return text
    return settle(text, box, settle_with, analysis, policy).text


def outbound_verbatim(ep: Episode) -> str:
    """The whole query sent as written (the all-remote baseline)."""
    return ep.text


def leaked_units(units: Sequence[str], payload: str) -> int:
    """Located gold units present in ``payload`` after normalization (EVALUATION.md)."""
    if not payload:
        return 0
    norm = metrics.normalize_for_leak(payload)
    count = 0
    for u in units:
        nu = metrics.normalize_for_leak(u)
        count += bool(nu) and nu in norm
    return count


#: What a gold unit the detector missed is taken to be, by the lexicon's kind of its text:
#: a public name (protected only at the slider's top), a place (a quasi-identifier), or
#: else a direct identifier (always protected: a missed name or number is what leaks).
_MISSED_PUBLIC = frozenset({"country", "region", "company", "company-word", "brand", "org", "drug"})


def missed_unit_protected(unit: str, risk_lambda: float) -> bool:
    """Whether the type policy would protect ``unit`` had it been detected (see above)."""
    kind = type_policy().lexicon.public_kind(unit)
    if kind in _MISSED_PUBLIC:
        return risk_lambda >= PUBLIC_MAX
    if kind == "place":
        return risk_lambda >= QUASI_THRESHOLDS["place"]
    return True


def protected_units(ep: Episode, risk_lambda: float) -> np.ndarray:
    """bool[units]: the located gold units the type policy protects at ``risk_lambda``.

    A unit overlapped by a detected value takes that value's decision (the
    product's :func:`core.policy.protection` over the whole query, so a value
    protected once is protected everywhere): protected when any overlapping
    value is protected, sent on purpose when all of them are sent in clear. A
    unit no detected value overlaps is judged by :func:`missed_unit_protected`.
    """
    flat = [e for ents in ep.entities for e in ents]
    decisions = [
        d for ds in protection(ep.text, ep.entities, risk_lambda, type_policy()) for d in ds
    ]
    protects = [d.protect for d in decisions]
    out = np.zeros(len(ep.units), dtype=bool)
    for k, (unit, occs) in enumerate(zip(ep.units, ep.occurrences, strict=True)):

        def missed(unit: str = unit) -> bool:
            return missed_unit_protected(unit, risk_lambda)

        out[k] = metrics.unit_protected(occs, flat, protects, missed)
    return out


# --- fingerprints ----------------------------------------------------------------------


def _class_source(cls: type) -> bytes:
    """A class's qualified name and the source of its module (empty when unavailable)."""
    out = f"{cls.__module__}.{cls.__qualname__}".encode()
    module = inspect.getmodule(cls)
    try:
        return out + (inspect.getsource(module).encode() if module else b"")
    except (OSError, TypeError):
        return out


def detector_fingerprint(detector: Detector) -> str:
    """A short hash that changes whenever the detector could find other spans.

    It covers each view's class and module source, any model artifact the
    views load (their manifests), the detector's own code and its thresholds
    and lists. The router's cache of detections and its manifest use it.
    """
    import core.detect.base
    import core.detect.names
    import core.detect.refine
    import core.detect.tokens
    import core.detect.zones
    import core.spans

    h = hashlib.sha256()
    for mod in (
        core.detect.base,
        core.detect.refine,
        core.detect.zones,
        core.detect.names,
        core.detect.tokens,
        core.spans,
    ):
        h.update(inspect.getsource(mod).encode())
    for view in detector.views:
        h.update(_class_source(type(view)))
        h.update(f"{getattr(view, 'name', '')}:{getattr(view, 'version', '')}".encode())
    for name in ("ner", "lexicon"):
        manifest = models.artifact_dir(name) / "manifest.json"
        if manifest.exists():
            h.update(manifest.read_bytes())
    # The detector's own class (plain union, or GAMA's fusion) and its settings.
    h.update(_class_source(type(detector)))
    simple: dict[str, Any] = {"agent": type(getattr(detector, "agent", None)).__name__}
    for k, v in sorted(vars(detector).items()):
        try:  # plain settings only (thresholds, lists); objects would hash their address
            simple[k] = json.loads(json.dumps(sorted(v) if isinstance(v, set) else v))
        except TypeError:
            continue
    h.update(json.dumps(simple, sort_keys=True).encode())
    return h.hexdigest()[:16]


def describe_detector(detector: Detector) -> dict[str, Any]:
    return {
        "class": type(detector).__name__,
        "views": [getattr(v, "name", type(v).__name__) for v in detector.views],
        "min_score": detector.min_score,
        "fingerprint": detector_fingerprint(detector),
    }


# --- building ---------------------------------------------------------------------------


def _span_json(s: Span) -> list[Any]:
    return [s.start, s.end, str(s.type), round(s.score, 6), s.views]


def _span_of(row: list[Any]) -> Span:
    return Span(int(row[0]), int(row[1]), EntityType(row[2]), float(row[3]), dict(row[4]))


def detect_cached(
    records: Sequence[metrics.Record],
    detector: Detector,
    data_key: str,
    cache: Path = CACHE,
) -> list[list[Span]]:
    """Detected spans of every record, from the cache when this detector saw this file."""
    folder = cache / f"det-{detector_fingerprint(detector)}"
    path = folder / f"{data_key}.json"
    if path.exists():
        rows = json.loads(path.read_text("utf-8"))
        if len(rows) == len(records):
            return [[_span_of(r) for r in row] for row in rows]
    out: list[list[Span]] = []
    t0 = time.perf_counter()
    for i, rec in enumerate(records):
        out.append(detector.analyze(rec.text))
        if (i + 1) % 200 == 0:
            log.info("detected %d/%d (%.1fs)", i + 1, len(records), time.perf_counter() - t0)
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([[_span_json(s) for s in spans] for spans in out]), "utf-8")
    return out


def build_episodes(
    path: Path,
    fmt: str,
    detector: Detector,
    segmenter: Segmenter,
    store: EmbeddingStore,
    *,
    split: str = "all",
    limit: int | None = None,
    cache: Path = CACHE,
    source: str | None = None,
    states: StateFeatures | None = None,
) -> list[Episode]:
    """Read a data file and build its episodes (queries with no sentence are skipped).

    ``source`` names them (default: the format). With ``states`` the policy's view of
    each sentence (``emb_anon``) is the NER's pooled token states, not MiniLM's
    embedding of the anonymized sentence."""
    records = metrics.read_records(path, fmt)
    data_key = f"{fmt}-{models.sha256(path)[:12]}"
    spans_all = detect_cached(records, detector, data_key, cache)
    chosen = [
        (r, s)
        for r, s in zip(records, spans_all, strict=True)
        if split == "all" or r.split == split
    ]
    if limit is not None:
        chosen = chosen[:limit]
    t0 = time.perf_counter()
    pre = []
    for rec, spans in chosen:
        sentences = segmenter.segment(rec.text)
        if not sentences:
            continue
        entities = assign(sentences, spans)
        pre.append((rec, sentences, entities, cloud_view(rec.text, sentences, entities)))
    raw_texts = [s.text for _r, sents, _e, _a in pre for s in sents]
    anon_texts = [a for *_x, anon in pre for a in anon]
    emb_all = store.get(raw_texts)
    anon_all = store.get(anon_texts) if states is None else None
    ntok_all = store.embedder.token_counts(raw_texts) if raw_texts else np.zeros(0)
    ntok_anon_all = store.embedder.token_counts(anon_texts) if anon_texts else np.zeros(0)
    store.save()
    episodes = []
    k = 0
    for rec, sentences, entities, _anon in pre:
        n = len(sentences)
        occ = metrics.locate_units(rec.text, rec.units, rec.case_sensitive)
        located = [(u, o) for u, o in zip(rec.units, occ, strict=True) if o]
        episodes.append(
            Episode(
                id=rec.id,
                source=source or fmt,
                split=rec.split,
                text=rec.text,
                sentences=sentences,
                entities=entities,
                units=[u for u, _ in located],
                occurrences=[o for _, o in located],
                not_located=len(rec.units) - len(located),
                emb=emb_all[k : k + n],
                emb_anon=(
                    anon_all[k : k + n]
                    if anon_all is not None
                    else _states(states, rec.text, sentences, entities)
                ),
                ntok=np.maximum(ntok_all[k : k + n], 1.0),
                ntok_anon=np.maximum(ntok_anon_all[k : k + n], 1.0),
                det=detection_features(sentences, entities),
                target=rec.extra.get("target_response"),
            )
        )
        k += n
    log.info("%s: %d episodes in %.1fs", data_key, len(episodes), time.perf_counter() - t0)
    return episodes


def with_missed_entities(
    episodes: Sequence[Episode],
    store: EmbeddingStore,
    rate: float = 0.3,
    seed: int = 0,
    keep_one: bool = False,
    states: StateFeatures | None = None,
) -> list[Episode]:
    """Synthetic episodes: copies where the detector "missed" each entity with probability ``rate``.

    With a good detector almost no training query leaks once anonymized (24
    of 936 with the NER view), so the reward holds almost no example of what
    a miss looks like, and lambda has nothing to act on. These copies show the
    policy sentences whose anonymized text still carries a name or a number,
    and what sending them costs. Gold units are unchanged, so the leak stays
    exact; only episodes with at least one entity are copied.

    ``keep_one`` drops entities only from sentences that keep another: a copy
    then never turns a sentence into one with no entity at all, so "nothing
    detected" does not become evidence of a miss (which taught the policy to
    withhold greetings and everyday requests).
    """
    rng = np.random.default_rng(seed)
    pre = []
    for ep in episodes:
        if not any(ep.entities):
            continue
        kept = [_drop(ents, rate, rng, keep_one) for ents in ep.entities]
        if kept == ep.entities:
            continue
        pre.append((ep, kept, cloud_view(ep.text, ep.sentences, kept)))
    anon = store.get([t for *_x, texts in pre for t in texts]) if states is None else None
    ntok: np.ndarray = store.embedder.token_counts([t for *_x, texts in pre for t in texts])
    store.save()
    out, k = [], 0
    for ep, kept, texts in pre:
        n = len(texts)
        out.append(
            Episode(
                id=f"{ep.id}#missed",
                source=ep.source,
                split=ep.split,
                text=ep.text,
                sentences=ep.sentences,
                entities=kept,
                units=ep.units,
                occurrences=ep.occurrences,
                not_located=ep.not_located,
                emb=ep.emb,
                emb_anon=(
                    anon[k : k + n]
                    if anon is not None
                    else _states(states, ep.text, ep.sentences, kept)
                ),
                ntok=ep.ntok,
                ntok_anon=np.maximum(np.asarray(ntok[k : k + n], dtype=np.float32), 1.0),
                det=detection_features(ep.sentences, kept),
                target=ep.target,
            )
        )
        k += n
    return out


def _states(
    states: StateFeatures | None, text: str, sentences: Sequence[Any], entities: Sequence[Any]
) -> np.ndarray:
    assert states is not None
    return states.sentence_features(text, sentences, entities)


def _drop(ents: list[Any], rate: float, rng: np.random.Generator, keep_one: bool) -> list[Any]:
    """``ents`` less each one with probability ``rate`` (at least one left with ``keep_one``)."""
    if keep_one and len(ents) < 2:
        return ents
    kept = [e for e in ents if rng.random() >= rate]
    if keep_one and not kept:
        kept = [ents[int(rng.integers(len(ents)))]]
    return kept


def default_parts(cache: Path = CACHE) -> tuple[Detector, Segmenter, EmbeddingStore]:
    """The product's default detector and segmenter, and the sentence-embedding cache."""
    from core.assembly import default_detector
    from core.settings import Settings

    return (
        default_detector(Settings.model_validate({})),
        Segmenter(),
        EmbeddingStore(cache, "minilm-256", SentenceEmbedder()),
    )
