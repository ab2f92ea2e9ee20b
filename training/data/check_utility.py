"""Validate a utility set: the JSON list of ``{id, text, protect[], keep[], persons}``.

The format is EVALUATION.md's ("Utility of what leaves"): ``protect`` are values
that must not leave the machine, ``keep`` are task-critical strings that must
leave verbatim, ``persons`` is how many different people the text names. The
metrics read a protect value as leaked when it occurs in the outbound text after
:func:`training.metrics.normalize_for_leak` (NFKC, case folding), and a keep
string as kept when it occurs there exactly; so the labels must occur in the text
in the same sense, or the figures measure the labels instead of the anonymizer.

Problems come in two levels:

* **errors**: the file cannot be scored as intended (not a list, a missing or
  mistyped field, a duplicate id, a label that does not occur in its text, a keep
  string that contains a protected value, so that keeping it leaks it);
* **warnings**: labels that can be scored but that no whole-token anonymizer
  could satisfy: a protect value that also occurs inside a longer word ("Ana" in
  "banana" leaks whatever the anonymizer does), a keep string that only occurs
  inside protected values, duplicates, stray whitespace, unknown fields.

Command line (exit status 0 when every file is clean, 1 when one has errors, or
warnings under ``--strict``, 2 when a file cannot be read)::

    python -m training.data.check_utility training/data/utility_dev.json [--strict]
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from core.errors import InputError
from training.metrics import normalize_for_leak

FIELDS = {"id": str, "text": str, "protect": list, "keep": list, "persons": int}
#: Fields a set may add (the forms set, ``training/data/make_forms.py``): gold spans
#: ``[{start, end, type}]`` of the private values and label strings to keep verbatim.
OPTIONAL = {"spans": list, "labels": list}

Level = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding: its level, the item it is about (id, or ``#index``), and what is wrong."""

    level: Level
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.level:<7} [{self.where}] {self.message}"


# --- positions in the normalized text --------------------------------------------


def _clusters(text: str) -> list[tuple[int, int]]:
    """Raw ``(start, end)`` of each base character with the combining marks after it."""
    out: list[tuple[int, int]] = []
    for i, ch in enumerate(text):
        if out and unicodedata.combining(ch):
            out[-1] = (out[-1][0], i + 1)
        else:
            out.append((i, i + 1))
    return out


def normalized_with_offsets(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``normalize_for_leak(text)`` built cluster by cluster, with each char's raw span.

    Normalizing clusters one at a time gives the same string as normalizing the
    whole text except for rare cross-cluster compositions (conjoining Hangul
    jamo); the offsets are used only to place words and overlaps, never to
    decide whether a label occurs.
    """
    chars: list[str] = []
    spans: list[tuple[int, int]] = []
    for a, b in _clusters(text):
        piece = normalize_for_leak(text[a:b]) if not text[a:b].isspace() else " "
        if piece == " " and (not chars or chars[-1] == " "):
            continue  # whitespace runs collapse to one space; leading space is dropped
        for c in piece:
            chars.append(c)
            spans.append((a, b))
    if chars and chars[-1] == " ":
        chars.pop()
        spans.pop()
    return "".join(chars), spans


def _unspaced(ch: str) -> bool:
    # Scripts written without spaces between words: any neighbour is a boundary.
    name = unicodedata.name(ch, "")
    return name.startswith(("CJK", "HIRAGANA", "KATAKANA", "THAI", "LAO", "KHMER", "MYANMAR"))


def _wordchar(ch: str) -> bool:
    return (ch.isalnum() or ch == "_") and not _unspaced(ch)


def _occurrences(haystack: str, needle: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    if not needle:
        return out
    pos = haystack.find(needle)
    while pos >= 0:
        out.append((pos, pos + len(needle)))
        pos = haystack.find(needle, pos + 1)
    return out


def _whole_token(norm: str, start: int, end: int) -> bool:
    """Whether ``norm[start:end]`` neither starts nor ends inside a word."""
    first, last = norm[start], norm[end - 1]
    before = start > 0 and _wordchar(norm[start - 1]) and _wordchar(first)
    after = end < len(norm) and _wordchar(norm[end]) and _wordchar(last)
    return not (before or after)


# --- the checks ----------------------------------------------------------------------


def _check_fields(item: Any, where: str, problems: list[Problem]) -> bool:
    if not isinstance(item, dict):
        problems.append(
            Problem("error", where, f"an item must be an object, not {type(item).__name__}")
        )
        return False
    ok = True
    for name, kind in FIELDS.items():
        if name not in item:
            problems.append(Problem("error", where, f"missing field {name!r}"))
            ok = False
            continue
        value = item[name]
        # bool is an int subclass; a persons of `true` is a labelling slip, not a count.
        if not isinstance(value, kind) or isinstance(value, bool):
            problems.append(
                Problem(
                    "error", where, f"{name!r} must be {kind.__name__}, not {type(value).__name__}"
                )
            )
            ok = False
    for name in sorted(set(item) - set(FIELDS) - set(OPTIONAL)):
        problems.append(Problem("warning", where, f"unknown field {name!r}"))
    for name, kind in OPTIONAL.items():
        if name in item and not isinstance(item[name], kind):
            problems.append(
                Problem(
                    "error", where, f"{name!r} must be {kind.__name__}, not {type(item[name]).__name__}"
                )
            )
            ok = False
    if not ok:
        return False
    if not item["text"].strip():
        problems.append(Problem("error", where, "'text' is empty"))
        ok = False
    if item["persons"] < 0:
        problems.append(Problem("error", where, "'persons' must be 0 or more"))
        ok = False
    for name in ("protect", "keep"):
        for value in item[name]:
            if not isinstance(value, str):
                problems.append(
                    Problem(
                        "error", where, f"{name!r} holds a {type(value).__name__}, not a string"
                    )
                )
                ok = False
            elif not value.strip():
                problems.append(Problem("error", where, f"{name!r} holds an empty string"))
                ok = False
            elif value != value.strip():
                problems.append(
                    Problem(
                        "warning", where, f"{name} {value!r} has leading or trailing whitespace"
                    )
                )
    return ok


def _check_labels(item: dict[str, Any], where: str, problems: list[Problem]) -> None:
    text: str = item["text"]
    protect: list[str] = item["protect"]
    keep: list[str] = item["keep"]
    norm, offsets = normalized_with_offsets(text)
    official = normalize_for_leak(text)

    for name, values, key in (
        ("protect", protect, normalize_for_leak),
        ("keep", keep, lambda s: s),
    ):
        seen: set[str] = set()
        for value in values:
            if key(value) in seen:
                problems.append(Problem("warning", where, f"{name} {value!r} is listed twice"))
            seen.add(key(value))

    # Occurrence: protect in the leak test's sense, keep exactly.
    for value in protect:
        if normalize_for_leak(value) not in official:
            problems.append(
                Problem(
                    "error",
                    where,
                    f"protect {value!r} does not occur in the text (case-insensitively)",
                )
            )
    for value in keep:
        if value not in text:
            problems.append(
                Problem("error", where, f"keep {value!r} does not occur in the text exactly")
            )

    # Contradictions: keeping a string verbatim must not leak a protected value.
    folded_protect = {p: normalize_for_leak(p) for p in protect}
    for k in keep:
        nk = normalize_for_leak(k)
        for p, np_ in folded_protect.items():
            if np_ and np_ in nk:
                problems.append(
                    Problem(
                        "error", where, f"keep {k!r} contains protect {p!r}: keeping it leaks it"
                    )
                )
            if np_ == nk:
                problems.append(Problem("error", where, f"{p!r} is both protect and keep"))

    # Whole-token satisfiability of the protect values.
    bounded: list[tuple[int, int]] = []
    for np_ in folded_protect.values():
        bounded += [o for o in _occurrences(norm, np_) if _whole_token(norm, *o)]
    for p, np_ in folded_protect.items():
        for s, e in _occurrences(norm, np_):
            if not any(bs <= s and e <= be for bs, be in bounded):
                lo, hi = max(0, s - 12), min(len(norm), e + 12)
                problems.append(
                    Problem(
                        "warning",
                        where,
                        f"protect {p!r} also occurs inside a word (...{norm[lo:hi]}...): "
                        "it leaks unless the whole word is masked",
                    )
                )
                break

    # Keep strings need one occurrence outside every protected value.
    raw_protected = [(offsets[s][0], offsets[e - 1][1]) for s, e in bounded]
    for k in keep:
        occ = _occurrences(text, k)
        if occ and all(any(a < pe and ps < b for ps, pe in raw_protected) for a, b in occ):
            problems.append(
                Problem("warning", where, f"keep {k!r} only occurs inside protected values")
            )


def _check_spans(item: dict[str, Any], where: str, problems: list[Problem]) -> None:
    """Gold spans inside the text, of a known type, not overlapping, each a protected value;
    labels present in the text exactly and free of protected values."""
    from core.entities import EntityType

    text: str = item["text"]
    protect = {normalize_for_leak(p) for p in item["protect"] if isinstance(p, str)}
    types = {str(t) for t in EntityType}
    valid: list[tuple[int, int, Any]] = []
    for span in item.get("spans", []):
        start = span.get("start") if isinstance(span, dict) else None
        end = span.get("end") if isinstance(span, dict) else None
        if type(start) is not int or type(end) is not int or not 0 <= start < end <= len(text):
            problems.append(Problem("error", where, f"span {span} is not inside the text"))
            continue
        valid.append((start, end, span.get("type")))
    last_end = -1
    for start, end, type_ in sorted(valid, key=lambda s: (s[0], s[1])):
        if type_ not in types:
            problems.append(Problem("error", where, f"span at {start} has an unknown type {type_!r}"))
        if start < last_end:
            problems.append(Problem("error", where, f"span at {start} overlaps the one before it"))
        last_end = max(last_end, end)
        if normalize_for_leak(text[start:end]) not in protect:
            problems.append(
                Problem("error", where, f"span value {text[start:end]!r} is not in 'protect'")
            )
    for label in item.get("labels", []):
        if not isinstance(label, str) or not label.strip():
            problems.append(Problem("error", where, f"label {label!r} is not a non-empty string"))
        elif label not in text:
            problems.append(
                Problem("error", where, f"label {label!r} does not occur in the text exactly")
            )
        elif any(p and p in normalize_for_leak(label) for p in protect):
            problems.append(Problem("error", where, f"label {label!r} contains a protected value"))


def check_items(data: Any) -> list[Problem]:
    """Every problem of a parsed utility set, in file order (empty: the set is clean)."""
    if not isinstance(data, list):
        return [
            Problem(
                "error", "file", f"the top level must be a JSON list, not {type(data).__name__}"
            )
        ]
    if not data:
        return [Problem("error", "file", "the list is empty")]
    problems: list[Problem] = []
    ids: Counter[str] = Counter()
    for index, item in enumerate(data):
        where = f"#{index}"
        if isinstance(item, dict) and isinstance(item.get("id"), str) and item["id"].strip():
            where = item["id"]
            ids[item["id"]] += 1
        elif isinstance(item, dict) and isinstance(item.get("id"), str):
            problems.append(Problem("error", where, "'id' is empty"))
        if _check_fields(item, where, problems):
            _check_labels(item, where, problems)
            _check_spans(item, where, problems)
    for item_id, count in sorted(ids.items()):
        if count > 1:
            problems.append(Problem("error", item_id, f"id used by {count} items"))
    return problems


def load(path: str | Path) -> Any:
    """The parsed JSON of ``path``; :class:`InputError` when it cannot be read or parsed."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise InputError(f"{p} cannot be read ({exc.strerror or exc}).") from exc
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(f"{p} is not UTF-8 text.") from exc
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{p} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})."
        ) from exc


def summary(data: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Counts of a (checked) set: texts, labels, persons, and texts per id prefix (domain)."""
    items = [d for d in data if isinstance(d, dict)]
    prefixes = Counter(str(d.get("id", "")).split("-", 1)[0] for d in items)
    return {
        "texts": len(items),
        "protect": sum(
            len(d.get("protect", [])) for d in items if isinstance(d.get("protect"), list)
        ),
        "keep": sum(len(d.get("keep", [])) for d in items if isinstance(d.get("keep"), list)),
        "persons": sum(d["persons"] for d in items if type(d.get("persons")) is int),
        "by_prefix": dict(sorted(prefixes.items())),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Check each file given and print its counts and problems; see the module docstring."""
    parser = argparse.ArgumentParser(
        prog="python -m training.data.check_utility", description="Validate utility set files."
    )
    parser.add_argument("files", nargs="+", help="utility set JSON files")
    parser.add_argument("--strict", action="store_true", help="warnings fail the check too")
    args = parser.parse_args(argv)
    status = 0
    for path in args.files:
        try:
            data = load(path)
        except InputError as exc:
            print(f"{path}: {exc}")
            status = max(status, InputError.exit_code)
            continue
        problems = check_items(data)
        errors = sum(p.level == "error" for p in problems)
        warnings = len(problems) - errors
        if isinstance(data, list):
            s = summary(data)
            prefixes = ", ".join(f"{k} {v}" for k, v in s["by_prefix"].items())
            print(
                f"{path}: {s['texts']} texts, {s['protect']} protect, {s['keep']} keep, "
                f"{s['persons']} persons named; by id prefix: {prefixes}"
            )
        else:
            print(f"{path}:")
        for problem in problems:
            print(f"  {problem}")
        print(f"  {errors} errors, {warnings} warnings")
        if errors or (args.strict and warnings):
            status = max(status, 1)
    return status


if __name__ == "__main__":
    sys.exit(main())
