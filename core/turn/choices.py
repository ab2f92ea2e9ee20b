"""The person's choices for one text: routes per sentence, protection per value.

The editor makes a :class:`Choices`; it is applied once, when the turn is
prepared (:meth:`core.turn.Assistant.prepare`). Choices are keyed by content
(a sentence's text, a value as written) so they survive edits elsewhere in
the text; the approval view's toggles are a copy with values sent in clear
(:meth:`Choices.sending`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from core.analyze import Analysis, Route


@dataclass
class Choices:
    """What the person decided, by content: ``routes`` maps a sentence's text to
    its route, ``protect`` maps a value as written to protect (True) or send in
    clear (False). What is not listed follows the router and the type policy."""

    routes: dict[str, Route] = field(default_factory=dict)
    protect: dict[str, bool] = field(default_factory=dict)

    def apply(self, analysis: Analysis) -> Analysis:
        """Write the choices into ``analysis``'s plans (in place) and return it."""
        text = analysis.text
        for plan in analysis.plans:
            chosen = self.routes.get(plan.sentence.text)
            model = plan.model_route
            plan.route = chosen if chosen is not None else model
            plan.overridden = chosen is not None and chosen != model
            plan.protected = [
                self.protect.get(text[e.start : e.end], by_policy)
                for e, by_policy in zip(plan.entities, plan.policy_protects, strict=True)
            ]
        return analysis

    def sending(self, values: Iterable[str]) -> Choices:
        """A copy in which ``values`` are sent in clear (the approval view's toggles)."""
        out = self.copy()
        out.protect.update(dict.fromkeys(values, False))
        return out

    @classmethod
    def routing(cls, analysis: Analysis, route: Route) -> Choices:
        """Every sentence of ``analysis`` on ``route`` (tests, tools, "send all")."""
        return cls(routes={p.sentence.text: route for p in analysis.plans})

    def exposed(self) -> set[str]:
        """Values the person chose to send as written."""
        return {v for v, keep in self.protect.items() if not keep}

    def copy(self) -> Choices:
        return Choices(dict(self.routes), dict(self.protect))

    def clear(self) -> None:
        self.routes.clear()
        self.protect.clear()

    def __bool__(self) -> bool:
        return bool(self.routes or self.protect)
