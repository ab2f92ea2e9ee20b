"""The learned router of Privacy-R1, run by onnxruntime.

For each sentence of a query the policy sees a 384-dimensional view of the
sentence: the MiniLM embedding (from the ONNX encoder) of the sentence *as the
cloud would read it* (its detected entities replaced by placeholders,
:func:`cloud_view`), or, for a policy built with ``--sentence-features
ner-states``, the detector's own NER states pooled over the sentence's tokens
outside its entities (:func:`state_features`: the text is encoded once). Beside
it the policy sees a few detection
features (how many entities of each type the detector found in it, the
highest score, how much of it they cover, its length), the person's
lambda and, for policies that take it, ``local_use``: 1 when a capable local
model merges what stays on the machine into the answer, 0 when nothing local
can use it (a basic model passes the cloud's answer through, so a withheld
sentence is simply lost to the answer); a Transformer over the sentences of the query returns ``p_remote``
for each. One policy serves the whole risk slider: lambda is an input, not a
retraining (DESIGN.md).

Why the anonymized sentence: what leaks is what the placeholders missed, and
that is what this embedding shows (a clinic name the detector did not catch
is still there; a caught one is ``[ORG_1]``). On the development data it cut
the leak at lambda 5 from 3.4% to 1.5% against raw-sentence embeddings, at the
same utility.

The same :func:`detection_features` feeds training (``training/router``) and
run time, so the two cannot drift apart. ``python -m training.router build``
produces the artifact in ``models/router/``.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from core.entities import EntityType
from core.language import ENGLISH, SUPPORTED
from core.lexicon import is_cased
from core.router.base import RouteInput
from core.router.courtesy import is_courtesy, is_form_label, is_plain_remainder, is_values_only
from core.router.encoder import SentenceEncoder, load_artifact, ort_session
from core.spans import Sentence, Span

if TYPE_CHECKING:
    from core.settings import Settings

log = logging.getLogger(__name__)

NAME = "router"
TYPES: tuple[EntityType, ...] = tuple(EntityType)
#: Bumped whenever :func:`detection_features` changes meaning; the manifest
#: records it and the router refuses a policy trained on other features.
FEATURES_VERSION = 2
EXTRA_FEATURES = ("max_score", "any_entity", "covered_share", "log_length")
DETECT_DIM = len(TYPES) + len(EXTRA_FEATURES)
LAMBDA_MAX = 10.0
#: The policy's inputs; ``local_use`` is the fourth, absent from policies built before it.
INPUTS = ("embeddings", "detect", "risk_lambda", "local_use")
OUTPUT = "p_remote"

_TYPE_INDEX = {t: i for i, t in enumerate(TYPES)}
#: The manifest's ``sentence_features`` of a policy trained on the NER's token states
#: pooled by their mean.
NER_STATES = "ner-states"
#: ... by their mean and their maximum, each normalized, summed and normalized again: a
#: token the NER nearly took for a name stands out of a long sentence.
NER_STATES_MAX = "ner-states-max"
#: Every ``sentence_features`` that reads the NER's token states, with its pooling.
STATE_POOLS = {NER_STATES: "mean", NER_STATES_MAX: "mean+max"}
#: A text's token offsets and states (``core.detect.ner.NerView.token_states``).
StatesFn = Callable[[str], "tuple[list[tuple[int, int]], npt.NDArray[np.float32]] | None"]


def detection_features(
    sentences: Sequence[Sentence], entities: Sequence[Sequence[Span]]
) -> npt.NDArray[np.float32]:
    """Per-sentence detection features, ``float32[n, DETECT_DIM]``.

    Columns: ``log1p(count)`` of the entities of each :class:`EntityType` (in
    enum order), the highest entity score, 1 if any entity was found, the share
    of the sentence's characters inside entities, and ``log1p(length) / 7``.
    ``entities`` hold offsets in the query's text (as :class:`RouteInput` does).
    """
    out = np.zeros((len(sentences), DETECT_DIM), dtype=np.float32)
    k = len(TYPES)
    for i, (sent, ents) in enumerate(zip(sentences, entities, strict=True)):
        length = max(sent.end - sent.start, 1)
        covered = 0
        for e in ents:
            out[i, _TYPE_INDEX[e.type]] += 1.0
            covered += max(0, min(e.end, sent.end) - max(e.start, sent.start))
        out[i, :k] = np.log1p(out[i, :k])
        out[i, k] = max((e.score for e in ents), default=0.0)
        out[i, k + 1] = 1.0 if ents else 0.0
        out[i, k + 2] = min(covered / length, 1.0)
        out[i, k + 3] = math.log1p(length) / 7.0
    return out


def state_features(
    sentences: Sequence[Sentence],
    entities: Sequence[Sequence[Span]],
    offsets: Sequence[tuple[int, int]],
    states: npt.NDArray[np.float32],
    pool: str = "mean",
) -> npt.NDArray[np.float32]:
    """Each sentence as the NER read it, ``float32[n, dim]``: the mean of the detector's
    token states over the sentence's tokens outside its entities (what would leave in
    clear), L2-normalized; zeros for a sentence with no such token.

    The states are the NER's last hidden states (its ``hidden`` output); ``offsets`` are
    their tokens' characters in the query's text. The entities' own tokens are left out
    for the reason :func:`cloud_view` replaces them: what the policy must judge is what
    the placeholders would miss. ``pool="mean+max"`` (:data:`NER_STATES_MAX`) adds the
    normalized maximum to the normalized mean before the last normalization.
    """
    dim = states.shape[1] if states.ndim == 2 else 0
    out = np.zeros((len(sentences), dim), dtype=np.float32)
    if not len(offsets) or not dim:
        return out
    starts = np.array([a for a, _ in offsets], dtype=np.int64)
    ends = np.array([b for _, b in offsets], dtype=np.int64)
    for i, (sent, ents) in enumerate(zip(sentences, entities, strict=True)):
        keep = (starts >= sent.start) & (ends <= sent.end) & (ends > starts)
        for e in ents:
            keep &= ~((starts < e.end) & (e.start < ends))
        if keep.any():
            v = _unit(states[keep].mean(axis=0))
            if pool == "mean+max":
                v = _unit(v + _unit(states[keep].max(axis=0)))
            out[i] = v
    return out


def _unit(v: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def cloud_view(
    text: str, sentences: Sequence[Sentence], entities: Sequence[Sequence[Span]]
) -> list[str]:
    """Each sentence as the cloud would read it if it went, entities replaced by placeholders.

    One fresh privacy box numbers the placeholders over the query in order, so
    the policy sees the same text at training and at run time whatever the
    conversation's own box holds.
    """
    from core.box import PrivacyBox

    box = PrivacyBox()
    out = []
    for s, ents in zip(sentences, entities, strict=True):
        local = [Span(e.start - s.start, e.end - s.start, e.type, e.score) for e in ents]
        out.append(box.anonymize(s.text, local).text if local else s.text)
    return out


def reads_states(folder: Path | None = None) -> bool:
    """Whether the router artifact's policy reads the NER's token states (its manifest)."""
    import json

    import models

    path = (folder or models.artifact_dir(NAME)) / "manifest.json"
    try:
        manifest = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):  # loading the router reports a bad artifact itself
        return False
    return manifest.get("sentence_features") in STATE_POOLS


def ner_mismatch(manifest: dict[str, Any]) -> tuple[str, str] | None:
    """``(trained, shipped)`` NER model hashes when a policy on the NER's states was trained
    on another NER than the shipped one; None when they agree (or there is nothing to say)."""
    import models

    trained = manifest.get("ner", {}).get("sha256")
    try:
        ner = models.load_manifest("ner", models.artifact_dir("ner"))
    except Exception:  # the detector reports a missing NER itself
        return None
    shipped = ner.get("files", {}).get("model.onnx")
    if trained and shipped and trained != shipped:
        return str(trained), str(shipped)
    return None


def _check_ner(folder: Path, manifest: dict[str, Any]) -> None:
    """Refuse a policy trained on another NER's states than the shipped one."""
    from core.errors import ArtifactError

    mismatch = ner_mismatch(manifest)
    if mismatch is not None:
        trained, shipped = mismatch
        raise ArtifactError(
            f"The router in {folder} was trained on the states of another NER model "
            f"({trained[:12]}, shipped {shipped[:12]}).",
            hint="rebuild it with: python -m training.router build --sentence-features ner-states",
        )


def local_use_for(settings: Settings) -> float:
    """The router's ``local_use`` for these settings: 1.0 when a capable local model merges chat
    answers, else 0.0.

    Capable is :class:`core.llm.local.Capability`'s rule on the model's GGUF header
    (the embedded 135M model is not); a model that cannot be read counts as basic,
    and chat answers set to pass through use nothing local.
    """
    from core.llm.gguf_file import read_gguf
    from core.llm.local import capability_of, embedded_model_path
    from core.settings import Integration

    if settings.chat_integration is not Integration.LOCAL:
        return 0.0
    try:
        info = read_gguf(settings.local_model_path or embedded_model_path())
    except Exception:  # a missing or unreadable model uses nothing withheld
        log.debug("local model unreadable; local_use 0", exc_info=True)
        return 0.0
    return 1.0 if capability_of(info, settings.capable_model_b).capable else 0.0


def rules_send(
    text: str, sentences: Sequence[Sentence], entities: Sequence[Sequence[Span]]
) -> list[bool]:
    """The sentences that go anonymized whatever the policy says (core.router.courtesy): a
    greeting, a thank-you or a closing, a table's header row or a lone key, a line of
    values and their keys, and a sentence of common words and small numbers around its
    detected values. :meth:`PolicyRouter.route` and the evaluation (``eval route``) both
    apply them, so the figures are the product's."""
    values = {text[e.start : e.end] for ents in entities for e in ents}
    cased = is_cased(text)
    return [
        is_courtesy(s.text, ents)
        or is_form_label(s.text, ents)
        or is_values_only(s, ents, values, keys=True)
        or is_plain_remainder(s, ents, cased, values)
        for s, ents in zip(sentences, entities, strict=True)
    ]


#: From this lambda on (the slider's top), a sentence with a detected value leaves only
#: when the rules above send it: the rest of it is common words, small numbers, keys.
TOP_LAMBDA = 9.5


def top_holds(entities: Sequence[Sequence[Span]], risk_lambda: float) -> list[bool]:
    """The sentences kept on this machine whatever the policy says: at the slider's top
    (:data:`TOP_LAMBDA`), every one with a detected value that :func:`rules_send` does not
    send. There every type is protected, so what can still leave is a value the detector
    missed, and it hides among the uncommon words of such a sentence: on PUPA's eval fold
    at lambda 10, sending every sentence anonymized leaks 9.7% of the protected units, the
    policy alone 8.1%, the policy with this rule 3.3% (semantic retention 0.79 -> 0.48:
    what the top of the slider costs). :meth:`PolicyRouter.route` and the evaluation
    (``eval route``) both apply it; a sentence the rules send is never held."""
    top = risk_lambda >= TOP_LAMBDA
    return [top and bool(ents) for ents in entities]


def ruled_routes(
    sent: Sequence[bool], held: Sequence[bool], elsewhere: Sequence[bool]
) -> list[float | None]:
    """What the rules decide for each sentence, in their order; None where the policy
    decides. A sentence the rules send (:func:`rules_send`) goes; one the slider's top
    holds (:func:`top_holds`) stays; one in a language the policy never saw and judged
    by its own rules goes anonymized (:meth:`PolicyRouter.judged_elsewhere`: the policy's
    guess there is untested). :meth:`PolicyRouter.route` and ``eval route`` share it."""
    return [
        1.0 if go else 0.0 if hold else 1.0 if other else None
        for go, hold, other in zip(sent, held, elsewhere, strict=True)
    ]


class PolicyRouter:
    """Routes each sentence with the shipped ONNX policy.

    ``model_file`` picks another policy of the same artifact (the ablations
    shipped beside the main one); ``encoder`` may be shared with other parts.
    Thread-safe after the lazy load.
    """

    name = "policy"

    def __init__(
        self,
        folder: Path | None = None,
        *,
        model_file: str | None = None,
        encoder: SentenceEncoder | None = None,
        threads: int | None = 1,
        local_use: float = 0.0,
        states: StatesFn | None = None,
    ) -> None:
        self._folder = folder
        #: The detector's token states of a text (``NerView.token_states``), for a policy
        #: trained on them (manifest ``sentence_features``: ``ner-states``).
        self._states = states
        #: 1.0 when a capable local model merges the withheld sentences, else 0.0.
        self.local_use = local_use
        self._model_file = model_file
        self._threads = threads
        self.encoder = encoder or SentenceEncoder(threads=threads)
        self._lock = threading.Lock()
        self._session: Any = None
        self._inputs: set[str] = set()
        self.manifest: dict[str, Any] = {}

    def load(self) -> PolicyRouter:
        """Verify and load the policy now (it is otherwise loaded on first use)."""
        with self._lock:
            if self._session is not None:
                return self
            folder, manifest = load_artifact(NAME, self._folder)
            version = int(manifest.get("features_version", -1))
            if version != FEATURES_VERSION:
                from core.errors import ArtifactError

                raise ArtifactError(
                    f"The router in {folder} was trained on other features (version {version}, "
                    f"this build uses {FEATURES_VERSION}).",
                    hint="rebuild it with: python -m training.router build",
                )
            if manifest.get("sentence_features") in STATE_POOLS:
                _check_ner(folder, manifest)
            model_file = self._model_file or str(manifest.get("model_file", "policy.onnx"))
            self.manifest = manifest
            self._session = ort_session(folder / model_file, self._threads)
            self._inputs = {i.name for i in self._session.get_inputs()}
        return self

    def route(self, query: RouteInput) -> list[float]:
        """``p_remote`` for each sentence of ``query``."""
        if not query.sentences:
            return []
        n = len(query.sentences)
        # A greeting, a thank-you, a closing or a table's header row identifies no one, and
        # a line of values only carries what the type policy decides value by value: it
        # goes (core.router.courtesy).
        # So does a sentence with nothing but common words and small numbers outside its
        # detected values: nothing in it can be a value the detector missed.
        sent = rules_send(query.text, query.sentences, query.entities)
        langs = list(query.languages[:n]) + [""] * (n - len(query.languages))
        out = ruled_routes(
            sent,
            top_holds(query.entities, query.risk_lambda),
            [bool(lang) and self.judged_elsewhere(lang) for lang in langs],
        )
        if any(p is None for p in out):
            # The policy decides the rest; with nothing left for it, its pass (and the NER
            # states it reads) would change no decision.
            emb = self.sentence_features(query)
            det = detection_features(query.sentences, query.entities)
            probs = self.route_features(emb, det, query.risk_lambda)
            return [float(q) if p is None else p for p, q in zip(out, probs, strict=True)]
        return [float(p) for p in out if p is not None]

    @property
    def reads_states(self) -> bool:
        """Whether the policy reads the NER's token states (else MiniLM's embeddings)."""
        self.load()
        return self.manifest.get("sentence_features") in STATE_POOLS

    def sentence_features(self, query: RouteInput) -> npt.NDArray[np.float32]:
        """The policy's view of each sentence: the NER's token states pooled
        (:func:`state_features`), or MiniLM's embedding of its :func:`cloud_view`."""
        if not self.reads_states:
            return self.encoder.encode(cloud_view(query.text, query.sentences, query.entities))
        got = self._states(query.text) if self._states is not None else None
        if got is None:
            from core.errors import ArtifactError

            raise ArtifactError(
                "The router reads the NER's token states, and the detector gives none "
                "(no NER view, or models/ner without its 'hidden' output).",
                hint="add it with: python -m training.ner add-states",
            )
        offsets, states = got
        pool = STATE_POOLS[str(self.manifest.get("sentence_features"))]
        return state_features(query.sentences, query.entities, offsets, states, pool)

    def judged_elsewhere(self, language: str) -> bool:
        """True for a language the policy was not trained on that has rules of its own
        (German, French, Spanish, Dutch with a policy trained on English only).

        The policy reads a sentence through an English encoder and was trained on
        English episodes; in the four languages with rules it withheld sentences with
        figures it would have sent in English, and on their dev sets sending every
        sentence anonymized leaked nothing more (0 leaks either way) while the keep rate
        rose from 0.84-0.92 to 0.97-0.99. A language without rules (``und``) stays with
        the policy: there the detector is weaker and the policy's caution is all there is.
        """
        self.load()
        trained = self.manifest.get("languages") or [ENGLISH]
        return language in SUPPORTED and language not in trained

    def route_features(
        self,
        embeddings: npt.NDArray[np.float32],
        detect: npt.NDArray[np.float32],
        risk_lambda: float,
        local_use: float | None = None,
    ) -> npt.NDArray[np.float32]:
        """The policy alone, on precomputed features: ``float32[n]`` of ``p_remote``.

        ``local_use`` defaults to the router's; a policy without that input ignores it.
        """
        if len(embeddings) == 0:
            return np.zeros(0, dtype=np.float32)
        self.load()
        lam = min(max(float(risk_lambda), 0.0), LAMBDA_MAX)
        feeds = {
            INPUTS[0]: embeddings[None].astype(np.float32, copy=False),
            INPUTS[1]: detect[None].astype(np.float32, copy=False),
            INPUTS[2]: np.array([lam], dtype=np.float32),
        }
        if INPUTS[3] in self._inputs:
            use = self.local_use if local_use is None else local_use
            feeds[INPUTS[3]] = np.array([min(max(float(use), 0.0), 1.0)], dtype=np.float32)
        out: npt.NDArray[np.float32] = self._session.run([OUTPUT], feeds)[0][0]
        return out
