"""GAMA's privacy-identifying agent view: the local model judges names in context.

A NER model tags every name; whether a name is *private* depends on context and
common sense: "Jane Austen" in a question about novels is public, "Jane" in
"my sister Jane" is not. For each person, organization or place candidate the
fusion step (:mod:`core.detect.fusion`) asks this agent, which asks the local
model one short question and reads "private" or "public" from the answer.

The model is injected as a plain ``generate(prompt) -> str`` callable, so any
local model wrapper (or a fake in tests) fits. Answers are cached per
(context, value) for the life of the object. Off by default
(``Settings.agent_view``): with the embedded 135M model it costs one model
call per candidate and gains little (see ``docs/data-card-ner.md``).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from typing import ClassVar

from core.entities import EntityType
from core.spans import Span

log = logging.getLogger(__name__)

NAME = "agent"

_KIND = {
    EntityType.PERSON: "person",
    EntityType.ORG: "organization",
    EntityType.LOCATION: "place",
}

PROMPT = (
    "You protect people's privacy. Read the text and decide whether the {kind} "
    '"{value}" is private or public.\n'
    "Private: the writer, their family, friends, colleagues, doctors, employers, "
    "their own address, or anyone not famous.\n"
    "Public: a famous person, a well-known company or brand, a country, a big city "
    "or a landmark.\n\n"
    "Text: {context}\n\n"
    'Is "{value}" private or public? Answer with one word.\nAnswer:'
)

_ANSWER = re.compile(r"\b(private|public)\b", re.IGNORECASE)


class AgentView:
    """Asks the local model whether each candidate entity is private in its context.

    ``generate`` takes a prompt and returns the model's text. ``context_chars``
    bounds how much text around the entity goes into the prompt (the small
    local models have short contexts and are slow per token).
    """

    name = NAME
    types: ClassVar[frozenset[EntityType]] = frozenset(_KIND)

    def __init__(self, generate: Callable[[str], str], *, context_chars: int = 400) -> None:
        self._generate = generate
        self.context_chars = context_chars
        self._cache: dict[tuple[str, str], float | None] = {}
        self._lock = threading.Lock()
        self.calls = 0

    def context(self, text: str, span: Span) -> str:
        """The text around ``span``, cut at word boundaries to ``context_chars``."""
        half = max(0, (self.context_chars - (span.end - span.start)) // 2)
        a, b = max(0, span.start - half), min(len(text), span.end + half)
        left, right = text[a : span.start], text[span.end : b]
        # Drop the words the cut went through.
        if a > 0 and not text[a - 1].isspace():
            left = left.split(None, 1)[1] if len(left.split(None, 1)) > 1 else ""
        if b < len(text) and not text[b].isspace():
            right = right.rsplit(None, 1)[0] if len(right.rsplit(None, 1)) > 1 else ""
        return " ".join((left + text[span.start : span.end] + right).split())

    def prompt(self, text: str, span: Span) -> str:
        kind = _KIND.get(span.type, "name")
        value = " ".join(text[span.start : span.end].split())
        return PROMPT.format(kind=kind, value=value, context=self.context(text, span))

    def judge(self, text: str, span: Span) -> float | None:
        """1.0 when the model says private, 0.0 for public, None otherwise (or not asked)."""
        if span.type not in self.types:
            return None
        value = text[span.start : span.end]
        key = (self.context(text, span), value)
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        try:
            answer = self._generate(self.prompt(text, span))
            self.calls += 1
        except Exception as exc:  # a failing local model must not stop detection
            log.warning(
                "agent view failed (%s); the candidate is left to the other views",
                type(exc).__name__,
            )
            return None
        verdict = parse_answer(answer)
        with self._lock:
            self._cache[key] = verdict
        return verdict


def parse_answer(answer: str) -> float | None:
    """The first "private" or "public" in ``answer`` as 1.0 / 0.0; None when neither."""
    m = _ANSWER.search(answer or "")
    if m is None:
        return None
    return 1.0 if m.group(1).lower() == "private" else 0.0
