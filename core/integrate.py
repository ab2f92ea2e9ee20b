"""What the local model may do with the cloud's answer: never make it worse.

After the cloud has answered the anonymized part of a message and the answer's
placeholders are restored, some sentences of the message may still be private
(routed local: the cloud never saw them). Privacy-R1 has the local model answer
those sentences and integrate the result into the final answer. With a small
local model that destroys good answers (the embedded 135M model turned a calm
answer about a child's fever into one alarming sentence repeated 23 times), so
this module decides, per turn, among:

* **pass through**: the person reads the cloud's restored answer, told plainly
  which sentences stayed on the machine and that the cloud did not see them.
  The local model may add a short *note* about those sentences, shown apart
  from the answer and marked as its own; it never edits the answer. This is
  what a model below the capability threshold does (see
  :class:`core.llm.local.Capability`).
* **merge**: a capable model first answers the private sentences (the
  intermediate output of Privacy-R1's local path), then writes the final answer
  from the cloud's answer and that output. The merge is used only when
  :class:`AnswerGuard` finds that it keeps the cloud answer's content (MiniLM
  similarity, every figure kept), adds no number or name that is in neither
  the message nor the cloud's answer, repeats no sentence more than twice and
  does not loop; otherwise the cloud's restored answer is shown and the person
  is told why (**fallback**).

Everything here runs on the machine; nothing is sent anywhere.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from core import prompts
from core.entities import EntityType
from core.errors import Cancelled

if TYPE_CHECKING:
    from core.llm.local import Capability
    from core.settings import Integration, Settings

log = logging.getLogger(__name__)

#: A sentence may occur at most this often in an answer (a list may say "Call a
#: doctor." once in two places; three times is a loop).
MAX_SENTENCE_REPEATS = 2
#: A run of this many words seen three times or more is a generation loop.
LOOP_NGRAM = 6
#: A cloud sentence counts as kept by the merge when some merged sentence is this similar.
SENTENCE_KEPT = 0.70
#: A merge may add this many sentences of its own (or half the cloud's, if more).
MAX_ADDED_SENTENCES = 2
#: Shorter pieces of an answer (list numbers, headings) are not checked one by one.
MIN_SENTENCE_WORDS = 4
NOTE_MAX_TOKENS = 120
#: Entity types whose values count as names for the guard (numbers are checked apart).
NAME_TYPES = frozenset(
    {EntityType.PERSON, EntityType.ORG, EntityType.LOCATION, EntityType.ADDRESS, EntityType.NRP}
)
_NOTHING = re.compile(r"^\W*nothing (?:to add|more to add)\W*$", re.IGNORECASE)


class Mode(StrEnum):
    NONE = "none"  # every sentence went to the cloud: its answer is the answer
    PASS_THROUGH = "pass_through"  # private sentences stayed here; the cloud's answer as it is
    MERGED = "merged"  # a capable local model merged, and the guard accepted it
    FALLBACK = "fallback"  # a merge was tried and refused by the guard


# --- the guard ---------------------------------------------------------------------


_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"')\]]*\s+|\n+")
_NUMBER = re.compile(r"\d+(?:[.,:/]\d+)*")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
_CAPITALIZED = re.compile(r"\b[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)*\b")


_TITLES = frozenset({"dr", "mr", "mrs", "ms", "miss", "prof", "sir", "madam", "st"})
_ABBREVIATION = re.compile(
    r"\b(?:Dr|Mr|Mrs|Ms|Prof|St|Mt|Jr|Sr|vs|etc|e\.g|i\.e|approx|No)\.$", re.IGNORECASE
)


def split_sentences(text: str) -> list[str]:
    """Sentences of an answer (a cheap split: answers are checked, not routed)."""
    out: list[str] = []
    for piece in _SENTENCE_END.split(text):
        piece = piece.strip() if piece else ""
        if not piece:
            continue
        if out and _ABBREVIATION.search(out[-1]):
            out[-1] = f"{out[-1]} {piece}"  # "Dr. Moreau" is one sentence
        else:
            out.append(piece)
    return out


def _norm_sentence(s: str) -> str:
    return " ".join(_WORD.findall(s.casefold()))


def numbers_in(text: str) -> set[str]:
    """The figures of ``text``, thousands separators removed (``3,850.00`` = ``3850.00``)."""
    out = set()
    for m in _NUMBER.finditer(text):
        value = re.sub(r"(?<=\d),(?=\d{3}\b)", "", m.group(0))
        out.add(value)
    return out


def sentence_repeats(text: str) -> tuple[int, str]:
    """The largest number of times one sentence occurs, and that sentence."""
    counts = Counter(n for n in (_norm_sentence(s) for s in split_sentences(text)) if n)
    if not counts:
        return 0, ""
    sentence, n = counts.most_common(1)[0]
    return n, sentence


def loop_in(text: str, n: int = LOOP_NGRAM) -> str | None:
    """A run of ``n`` words that occurs three times or more (a generation loop), or None."""
    words = _WORD.findall(text.casefold())
    grams = Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))
    if not grams:
        return None
    gram, count = grams.most_common(1)[0]
    return " ".join(gram) if count >= 3 else None


@dataclass
class GuardReport:
    """What :class:`AnswerGuard` found in a merged answer; ``ok`` when it may be shown."""

    ok: bool
    reasons: list[str] = field(default_factory=list)  # for the person, one phrase each
    similarity: float | None = None
    kept_sentences: float | None = None  # share of the cloud's sentences found in the merge
    added_sentences: int = 0  # sentences of the merge that match none of the cloud's
    new_numbers: list[str] = field(default_factory=list)
    new_names: list[str] = field(default_factory=list)
    lost_numbers: list[str] = field(default_factory=list)
    max_repeats: int = 0
    loop: str | None = None

    def to_json(self) -> dict[str, Any]:
        # Counts, never the words themselves: this may end up in a report file.
        return {
            "ok": self.ok,
            "reasons": self.reasons,
            "similarity": None if self.similarity is None else round(self.similarity, 4),
            "kept_sentences": None
            if self.kept_sentences is None
            else round(self.kept_sentences, 4),
            "added_sentences": self.added_sentences,
            "new_numbers": len(self.new_numbers),
            "new_names": len(self.new_names),
            "lost_numbers": len(self.lost_numbers),
            "max_repeats": self.max_repeats,
            "loop": self.loop is not None,
        }


class AnswerGuard:
    """Checks that a merged answer keeps the cloud's answer and invents nothing.

    ``encoder`` embeds sentences (the router's MiniLM encoder; any object with
    ``encode(list[str]) -> float32[n, d]`` of normalized rows); ``detector``
    finds names (``analyze(text) -> spans``). Either may be None: that check is
    then skipped (unit tests), the others still run.
    """

    def __init__(
        self,
        encoder: Any | None = None,
        detector: Any | None = None,
        *,
        min_similarity: float = 0.85,
        max_repeats: int = MAX_SENTENCE_REPEATS,
        require_similarity: bool = False,
    ) -> None:
        self.encoder = encoder
        self.detector = detector
        self.min_similarity = min_similarity
        self.max_repeats = max_repeats
        self.require_similarity = require_similarity

    def similarity(self, a: str, b: str) -> tuple[float, float, int]:
        """How much of answer ``b`` answer ``a`` keeps, by MiniLM.

        Returns (similarity, kept share, added sentences). Each sentence of
        ``b`` is matched to its most similar sentence of ``a`` (cosine of MiniLM
        embeddings); the similarity is the mean of those best matches, the kept
        share the part of ``b``'s sentences whose best match reaches
        :data:`SENTENCE_KEPT`, and the added sentences those of ``a`` that match
        none of ``b``'s. Measured this way, what a merge adds about the private
        sentences costs no similarity, and what it drops or changes of the
        cloud's answer does (a whole answer is also longer than the encoder's
        256 word pieces).
        """
        import numpy as np

        sa, sb = split_sentences(a), split_sentences(b)
        if not sa or not sb or self.encoder is None:
            return 0.0, 0.0, len(sa)
        # Fragments ("1.", "Note:") carry no point of their own.
        sa = [t for t in sa if len(_WORD.findall(t)) >= MIN_SENTENCE_WORDS] or sa
        sb = [t for t in sb if len(_WORD.findall(t)) >= MIN_SENTENCE_WORDS] or sb
        ea = np.asarray(self.encoder.encode(sa), dtype=np.float32)
        eb = np.asarray(self.encoder.encode(sb), dtype=np.float32)
        sims = eb @ ea.T
        best = sims.max(axis=1)
        added = int((sims.max(axis=0) < SENTENCE_KEPT).sum())
        return float(best.mean()), float((best >= SENTENCE_KEPT).mean()), added

    def check(self, merged: str, cloud: str, sources: Sequence[str]) -> GuardReport:
        """Judge ``merged`` against the restored ``cloud`` answer and the inputs.

        ``sources`` are the texts a value may come from besides the cloud's
        answer (the person's whole message).
        """
        report = GuardReport(ok=True)
        if not merged.strip():
            report.reasons.append("it wrote nothing")
            report.ok = False
            return report
        inputs = [cloud, *sources]
        report.max_repeats, _ = sentence_repeats(merged)
        if report.max_repeats > self.max_repeats:
            report.reasons.append(f"it repeated a sentence {report.max_repeats} times")
        report.loop = loop_in(merged)
        if report.loop is not None and report.max_repeats <= self.max_repeats:
            report.reasons.append("it went round in a loop")
        known = set().union(*(numbers_in(t) for t in inputs))
        report.new_numbers = sorted(numbers_in(merged) - known)
        if report.new_numbers:
            report.reasons.append(
                f"it added figures that are in neither your message nor the cloud's answer "
                f"({', '.join(report.new_numbers[:4])})"
            )
        report.lost_numbers = sorted(numbers_in(cloud) - numbers_in(merged))
        if report.lost_numbers:
            report.reasons.append(
                f"it left out figures of the cloud's answer ({', '.join(report.lost_numbers[:4])})"
            )
        report.new_names = self._new_names(merged, inputs)
        if report.new_names:
            report.reasons.append(
                f"it added names that are in neither your message nor the cloud's answer "
                f"({', '.join(report.new_names[:3])})"
            )
        if self.encoder is None and self.require_similarity:
            # Fail closed: a merge that cannot be compared is not shown.
            report.reasons.append("the sentence encoder that checks a merge is not available")
        if self.encoder is not None:
            report.similarity, report.kept_sentences, report.added_sentences = self.similarity(
                merged, cloud
            )
            allowed = max(MAX_ADDED_SENTENCES, len(split_sentences(cloud)) // 2)
            if report.added_sentences > allowed:
                report.reasons.append(
                    f"it added more than the private sentences call for "
                    f"({report.added_sentences} sentences of its own)"
                )
            if report.kept_sentences < 1.0:
                report.reasons.append(
                    f"it left out part of the cloud's answer (kept "
                    f"{report.kept_sentences:.0%} of its sentences)"
                )
            if report.similarity < self.min_similarity:
                report.reasons.append(
                    f"it changed the cloud's answer too much (similarity "
                    f"{report.similarity:.2f}, at least {self.min_similarity:.2f} needed)"
                )
        report.ok = not report.reasons
        return report

    def _new_names(self, merged: str, inputs: Sequence[str]) -> list[str]:
        haystack = "\n".join(inputs).casefold()
        words = set(_WORD.findall(haystack))
        found: list[str] = []
        if self.detector is not None:
            for span in self.detector.analyze(merged):
                value = merged[span.start : span.end].strip()
                if span.type in NAME_TYPES and value.casefold() not in haystack:
                    found.append(value)
        # Capitalized words inside a sentence are names too (the detector may
        # pass over a brand or a town); a sentence's first word is not.
        for sentence in split_sentences(merged):
            for m in _CAPITALIZED.finditer(sentence):
                name = re.sub(r"['’]s$", "", m.group(0))  # "Lucy's" is Lucy
                parts = re.split(r"[-'’]", name.casefold())  # "Adebayo-Lindgren"
                if m.start() == 0 or all(p in words | _TITLES for p in parts):
                    continue
                if sentence[: m.start()].rstrip().endswith((":", "-", "•", "*")):
                    continue  # the start of a list item
                found.append(name)
        return list(dict.fromkeys(found))


# --- what the person is told ------------------------------------------------------


@dataclass
class Outcome:
    """How the answer the person reads was made, and what to tell them about it."""

    mode: Mode
    answer: str  # what the person reads (restored)
    kept: list[str] = field(default_factory=list)  # sentences that never left the machine
    reason: str = ""  # why this mode, for the person
    note: str = ""  # the local model's own note about the kept sentences ("" = none)
    model: str = ""  # the local model that merged or wrote the note
    guard: GuardReport | None = None
    cloud: str = ""  # the cloud's answer, restored (what the answer was made from)

    def notice(self) -> str:
        """The plain-language notice shown under the answer (window and command line)."""
        if self.mode is Mode.NONE:
            return ""
        n = len(self.kept)
        it = "it" if n == 1 else "them"
        quoted = " ".join(f"“{s}”" for s in self.kept)
        unseen = (
            f"{n} sentence{'' if n == 1 else 's'} of your message stayed on this machine and "
            f"the cloud did not see {it}: {quoted}"
        )
        if self.mode is Mode.MERGED:
            return (
                f"{unseen} {self.model} merged the cloud's answer with {it} here; the merge "
                "was checked against the cloud's answer before it was shown."
            )
        if self.mode is Mode.FALLBACK:
            return (
                f"{unseen} This is the cloud's answer, with your values restored: the local "
                f"model's merge was not used because {self.reason}."
            )
        why = f" {self.reason[0].upper()}{self.reason[1:]}." if self.reason else ""
        return (
            f"{unseen} This is the cloud's answer, with your values restored; it does not "
            f"take {'that sentence' if n == 1 else 'those sentences'} into account.{why}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": str(self.mode),
            "kept_sentences": list(self.kept),
            **self._outcome(),
            "notice": self.notice(),
            "guard": self.guard.to_json() if self.guard is not None else None,
        }

    def meta(self) -> dict[str, Any]:
        """What the store keeps with the answer (the kept sentences are in the user message)."""
        return {"mode": str(self.mode), "kept": len(self.kept), **self._outcome()}

    def _outcome(self) -> dict[str, Any]:
        return {"reason": self.reason, "note": self.note, "model": self.model}


@dataclass
class Notice:
    """A turn event: what the person must be told about the answer, shown beside it."""

    text: str
    mode: str


# --- the decision and the local model's two jobs -------------------------------------


@dataclass(frozen=True)
class Plan:
    """What the local model will do this turn."""

    merge: bool
    note: bool
    reason: str  # why it will not merge ("" when it merges)
    model: str = ""


class Integrator:
    """Runs the local model's part of a turn under the settings' rules.

    ``guard`` defaults to an :class:`AnswerGuard` with ``encoder`` and
    ``detector`` (the router's MiniLM encoder and the turn's detector) and the
    settings' similarity threshold, read at each turn.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        encoder: Any | None = None,
        detector: Any | None = None,
        guard: AnswerGuard | None = None,
    ) -> None:
        self.settings = settings
        self.encoder = encoder
        self.detector = detector
        self._guard = guard

    @property
    def guard(self) -> AnswerGuard:
        if self._guard is not None:
            return self._guard
        if self.encoder is None:
            self.encoder = _shipped_encoder()
        return AnswerGuard(
            self.encoder,
            self.detector,
            min_similarity=self.settings.merge_min_similarity,
            require_similarity=True,
        )

    def capability(self, local: Any) -> Capability | None:
        """The local model's capability, or None when it cannot say (an unknown model)."""
        fn = getattr(local, "capability", None)
        if fn is None:
            return None
        try:
            cap: Capability = fn(self.settings.capable_model_b)
        except Exception:  # a model that cannot describe itself is treated as basic
            log.debug("capability unknown", exc_info=True)
            return None
        return cap

    def plan(self, local: Any, integration: Integration, kept: Sequence[str]) -> Plan:
        """Decide whether the local model merges, writes a note, or stays silent."""
        from core.settings import Integration, NoteMode

        if not kept:
            return Plan(False, False, "")
        if local is None:
            return Plan(False, False, "no local model is loaded")
        cap = self.capability(local)
        name = cap.name if cap is not None else "the local model"
        capable = cap is not None and cap.capable
        mode = self.settings.private_note
        note = mode is NoteMode.ON or (mode is NoteMode.AUTO and capable)
        if integration is Integration.PASS_THROUGH:
            return Plan(False, note, "Settings show the cloud's answer as it is", name)
        if cap is None:
            return Plan(False, note, "the local model's size is unknown, so it does not rewrite answers", name)
        if not capable:
            return Plan(
                False,
                note,
                f"the local model ({cap.name}) does not rewrite answers: "
                + "; ".join(cap.shortfalls()),
                name,
            )
        return Plan(True, True, "", name)

    # --- the local model's jobs ---------------------------------------------------

    def write_note(
        self, local: Any, kept: Sequence[str], restored: str, cancel: threading.Event
    ) -> str:
        """The local model's short answer about the private sentences ("" when it has none).

        This is Privacy-R1's intermediate output of the local path. A note that
        loops or repeats itself is dropped rather than shown.
        """
        text = _generate(
            local,
            [
                {"role": "system", "content": prompts.LOCAL_NOTE_SYSTEM},
                {"role": "user", "content": prompts.local_note_user(kept, restored)},
            ],
            NOTE_MAX_TOKENS,
            cancel,
        ).strip()
        if _NOTHING.match(text):
            return ""
        repeats, _ = sentence_repeats(text)
        if repeats > 1 or loop_in(text) is not None:
            log.info("the local note repeated itself; dropped")
            return ""
        return text

    def merge(
        self,
        local: Any,
        message: str,
        restored: str,
        note: str,
        cancel: threading.Event,
    ) -> str:
        """The local model's final answer from the cloud's answer and its own note."""
        # Room for the whole cloud answer and a little more; never an endless run.
        budget = max(128, min(2048, len(restored) // 3 + 160))
        return _generate(
            local,
            [
                {"role": "system", "content": prompts.MERGE_SYSTEM},
                {"role": "user", "content": prompts.merge_user(message, restored, note)},
            ],
            budget,
            cancel,
        ).strip()

    def judge(
        self, merged: str, restored: str, message: str, plan: Plan, kept: Sequence[str], note: str
    ) -> Outcome:
        """The merged answer when the guard accepts it, else the cloud's with the reasons."""
        report = self.guard.check(merged, restored, [message])
        if report.ok:
            return Outcome(Mode.MERGED, merged, list(kept), "", note, plan.model, report, restored)
        log.info("merge refused by the guard: %d reasons", len(report.reasons))
        return Outcome(
            Mode.FALLBACK,
            restored,
            list(kept),
            "; ".join(report.reasons),
            note,
            plan.model,
            report,
            restored,
        )


def _shipped_encoder() -> Any | None:
    """The MiniLM encoder of ``models/encoder``, or None when it cannot be loaded."""
    from core.errors import SottovoceError
    from core.router.encoder import SentenceEncoder

    enc = SentenceEncoder()
    try:
        enc.encode(["warm-up"])
    except SottovoceError:
        log.warning("the sentence encoder is not available; merges will not be shown")
        return None
    return enc


def _generate(local: Any, messages: list[dict[str, str]], max_tokens: int, cancel: threading.Event) -> str:
    parts: list[str] = []
    for piece in _stream(local, messages, max_tokens, cancel):
        parts.append(piece)
    return "".join(parts)


def _stream(
    local: Any, messages: list[dict[str, str]], max_tokens: int, cancel: threading.Event
) -> Iterator[str]:
    for piece in local.stream_chat(messages, max_tokens=max_tokens, cancel=cancel):
        if cancel.is_set():
            raise Cancelled()
        yield piece


def kept_sentences(plans: Iterable[Any]) -> list[str]:
    """The text of every sentence routed local (they never left the machine)."""
    from core.analyze import Route

    return [p.sentence.text.strip() for p in plans if p.route is Route.LOCAL]
