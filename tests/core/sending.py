"""One way for end-to-end detection tests to send a message: every sentence routed
remote, so that the outbound checks detection, the type policy and anonymization, not
the router; no placeholder glued to a word."""

from __future__ import annotations

import re

from core.analyze import Analyzer, Route
from core.assembly import default_detector
from core.box import PrivacyBox
from core.entities import EntityType
from core.outbound.compose import outbound_of
from core.router.base import HeuristicRouter
from core.settings import Settings

GLUED = re.compile(r"[A-Za-z0-9]\[[A-Z_]+_\d+\]|\[[A-Z_]+_\d+\][A-Za-z0-9]")


def shipped_analyzer() -> Analyzer:
    """The shipped detector with the heuristic router (the routes are overridden anyway)."""
    return Analyzer(detector=default_detector(Settings()), router=HeuristicRouter())


def send_all(analyzer: Analyzer, text: str, risk_lambda: float = 5.0) -> str:
    """The exact outbound text when every sentence of ``text`` leaves."""
    analysis = analyzer.analyze(text, risk_lambda)
    for plan in analysis.plans:
        plan.route = Route.REMOTE
    out = outbound_of(analysis, PrivacyBox(), analyzer.detector, analyzer.policy).text
    assert not GLUED.search(out), out
    return out


def found(analyzer: Analyzer, text: str) -> dict[str, EntityType]:
    """What the detector finds in ``text``, each value with its type."""
    return {text[s.start : s.end]: s.type for s in analyzer.detector.analyze(text)}
