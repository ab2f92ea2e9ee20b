"""The gate's comparison: figures before and after, their noise margins, SHIP or HOLD.

A *figure* is one number of one measure on one set (``pupa.unit_recall``), with
the size of the sample it was counted on (``n``), whether it is a proportion
(``rate``) or a count (``count``), and which way is better.

**The noise margin** of a figure is how far it may move on another sample of
texts of the same kind, so that a smaller move is no evidence either way:

* a proportion ``p`` counted over ``n`` items (a recall over gold spans, a
  precision over detected spans, a keep rate over keep strings, a type accuracy
  over gold spans): one binomial standard error at the baseline's value,
  ``sqrt(p (1 - p) / n)``, and at least one item, ``1 / n``. An F-score is not
  a proportion of one denominator; it is given the ``n`` of the smaller of its
  two denominators (predicted and gold spans), the wider margin;
* a count (glued placeholders, person splits, guard blocks, leaks; its ``n`` is
  the number of texts it is counted over, for the table only): the Poisson
  standard error at the baseline's value, ``sqrt(count)``, and at least 1.

The verdict is **SHIP** only when (1) no text leaks a protected value that it
did not leak before (per text and per value, on every set with leaks: the
utility sets and the forms set; a moved leak is a new leak) and (2) no figure
loses more than its margin; any figure missing on one side is a HOLD too.
A difference within the margin is shown as ``=``; beyond it as ``better`` or
``worse``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Kind = Literal["rate", "count"]

MARGIN_RULE = (
    "noise margin: a proportion p over n items, one binomial standard error "
    "sqrt(p(1-p)/n) at the baseline's p, at least 1/n (an F-score takes the n of its "
    "smaller denominator); a count c, sqrt(c), at least 1. SHIP when no text leaks a value "
    "it did not leak before and no figure loses more than its margin."
)


@dataclass(frozen=True)
class Figure:
    """One number of one measure: its sample size, kind and better direction."""

    value: float | None
    n: int
    kind: Kind = "rate"
    higher_is_better: bool = True

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Figure:
        return cls(
            None if data["value"] is None else float(data["value"]),
            int(data["n"]),
            data.get("kind", "rate"),
            bool(data.get("higher_is_better", True)),
        )


def margin(before: Figure) -> float:
    """The noise margin of a figure, from its baseline value (see the module docstring)."""
    if before.value is None:
        return 0.0
    if before.kind == "count":
        return max(1.0, math.sqrt(max(0.0, before.value)))
    if before.n <= 0:
        return 0.0
    p = min(1.0, max(0.0, before.value))
    return max(1.0 / before.n, math.sqrt(p * (1.0 - p) / before.n))


@dataclass
class Row:
    """One line of the table."""

    name: str
    kind: Kind
    n: int
    before: float | None
    after: float | None
    difference: float | None
    margin: float
    status: Literal["=", "better", "worse", "missing"]


@dataclass
class Comparison:
    """The table, the new leaks, and the verdict with its reasons."""

    rows: list[Row]
    new_leaks: list[dict[str, str]]
    reasons: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        return "HOLD" if self.reasons else "SHIP"


def _row(name: str, b: Figure | None, a: Figure | None) -> Row:
    if b is None or a is None or b.value is None or a.value is None:
        known = b if b is not None else a
        return Row(
            name,
            known.kind if known is not None else "rate",
            known.n if known is not None else 0,
            None if b is None else b.value,
            None if a is None else a.value,
            None,
            0.0,
            "missing",
        )
    m = margin(b)
    diff = a.value - b.value
    loss = -diff if b.higher_is_better else diff
    eps = 1e-9
    status: Literal["=", "better", "worse", "missing"]
    if loss > m + eps:
        status = "worse"
    elif -loss > m + eps:
        status = "better"
    else:
        status = "="
    return Row(name, b.kind, b.n, b.value, a.value, diff, m, status)


def new_leaks(
    before: Mapping[str, Mapping[str, Sequence[str]]],
    after: Mapping[str, Mapping[str, Sequence[str]]],
) -> list[dict[str, str]]:
    """Leaks of ``after`` that ``before`` does not have: ``{set, id, value}`` per text and value.

    Both map a set's name to ``{text id: [leaked values]}``. A set missing from
    ``before`` had no leaks measured, so every leak of it is new.
    """
    out = []
    for set_name, texts in sorted(after.items()):
        old = before.get(set_name, {})
        for text_id, values in sorted(texts.items()):
            for value in values:
                if value not in old.get(text_id, ()):
                    out.append({"set": set_name, "id": text_id, "value": value})
    return out


def compare(
    before: Mapping[str, Figure],
    after: Mapping[str, Figure],
    leaks_before: Mapping[str, Mapping[str, Sequence[str]]],
    leaks_after: Mapping[str, Mapping[str, Sequence[str]]],
) -> Comparison:
    """Every figure of either side compared, and the verdict (module docstring)."""
    names = list(before) + [k for k in after if k not in before]
    rows = [_row(k, before.get(k), after.get(k)) for k in names]
    leaks = new_leaks(leaks_before, leaks_after)
    reasons = []
    for leak in leaks:
        reasons.append(f"new leak in {leak['set']} {leak['id']}: {leak['value']!r}")
    for r in rows:
        if r.status == "worse":
            reasons.append(
                f"{r.name} lost {abs(r.difference or 0):.4g} "
                f"({r.before:.4g} -> {r.after:.4g}; margin {r.margin:.4g})"
            )
        elif r.status == "missing":
            reasons.append(f"{r.name} is missing on one side")
    return Comparison(rows, leaks, reasons)


def _fmt(x: float | None, kind: Kind, sign: str = "") -> str:
    if x is None:
        return "n/a"
    if kind == "count":
        return f"{x:{sign}g}"
    return f"{x:{sign}.4f}"


def markdown(
    c: Comparison,
    before_name: str,
    after_name: str,
    notes: Sequence[str] = (),
    *,
    title: str = "Detector gate",
) -> str:
    """The table in Markdown, then the verdict, its reasons and the margin rule."""
    lines = [
        f"# {title}: {c.verdict}",
        "",
        f"before: {before_name}  ",
        f"after: {after_name}",
        "",
        "| figure | n | before | after | difference | noise margin | verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in c.rows:
        diff = "0" if r.difference == 0 else _fmt(r.difference, r.kind, "+")
        noise = f"{r.margin:.3g}" if r.kind == "count" else f"{r.margin:.4f}"
        lines.append(
            f"| {r.name} | {r.n} | {_fmt(r.before, r.kind)} | {_fmt(r.after, r.kind)} | "
            f"{diff} | {noise} | {r.status} |"
        )
    lines += ["", f"**{c.verdict}**" + (":" if c.reasons else " (no new leak, no loss beyond noise)")]
    lines += [f"- {reason}" for reason in c.reasons]
    lines += ["", MARGIN_RULE, *[f"\n{n}" for n in notes], ""]
    return "\n".join(lines)


def to_json(c: Comparison, before_meta: Mapping[str, Any], after_meta: Mapping[str, Any]) -> str:
    return json.dumps(
        {
            "verdict": c.verdict,
            "reasons": c.reasons,
            "margin_rule": MARGIN_RULE,
            "before": before_meta,
            "after": after_meta,
            "new_leaks": c.new_leaks,
            "rows": [asdict(r) for r in c.rows],
        },
        indent=1,
        ensure_ascii=False,
    ) + "\n"
