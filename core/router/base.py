"""The router interface and the heuristic router.

A router sees the sentences of one query with the entities found in each and
returns, for each sentence, ``p_remote``: the probability that it may go to
the cloud (anonymized). The pipeline routes a sentence remote when
``p_remote >= 0.5``; the person's overrides come after.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from core.spans import Sentence, Span


@dataclass(frozen=True)
class RouteInput:
    """What a router sees for one query."""

    text: str
    sentences: Sequence[Sentence]
    entities: Sequence[Sequence[Span]]  # per sentence, offsets in ``text``
    risk_lambda: float
    #: The language of each sentence (core.language codes), when the detector told them.
    languages: Sequence[str] = ()


class Router(Protocol):
    name: str

    def route(self, query: RouteInput) -> list[float]: ...


class HeuristicRouter:
    """Sentences with any detected entity stay local; the rest go (Privacy-R1's SFT labels)."""

    name = "heuristic"

    def route(self, query: RouteInput) -> list[float]:
        return [0.0 if ents else 1.0 for ents in query.entities]
