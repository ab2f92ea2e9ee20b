"""Other ways to write a person's name: the order of its parts, a middle name dropped, initials.

A name the box holds as "Tadeusz Wielgosz" identifies the same person as
"Wielgosz Tadeusz", "Wielgosz, Tadeusz", "T. Wielgosz" or "Wielgosz T.", and
"Anna Maria Kowalska" the same one as "Anna Kowalska" or "Kowalska, A. M.".
:func:`name_variants` lists those forms for the egress guard, which matches
them as whole words (a variant is never looked for inside a longer word).

Which part is the surname is not known (the box may hold "Wielgosz
Tadeusz"), so every part is treated as a possible surname. Particles stay
with the part they introduce ("van Beethoven"); titles and suffixes
("Dr.", "Jr.") are not parts.

Forms of whole parts (:func:`name_variants`) are matched like box values.
Forms with initials (:func:`initial_forms`) are matched by
:class:`InitialsFinder` only where an initial looks like one (a capital, or a
letter with a period), so that "I'm Maria" is not "M. Maria" and "Maria's"
is not "Maria S."; they need at least :data:`MIN_INITIAL_FORM` letters ("J.
Li" is too little to block on).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

#: Words before a name that are not part of it.
TITLES = frozenset(
    {"mr", "mrs", "ms", "mx", "miss", "dr", "prof", "sir", "dame", "madam", "rev", "fr", "hon"}
)
#: Words after a name that are not part of it.
SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv", "phd", "md", "esq"})
#: Lower-case words that belong to the part after them ("van Beethoven").
PARTICLES = frozenset(
    {"de", "da", "del", "della", "di", "du", "dos", "das", "do", "la", "le", "van", "von",
     "der", "den", "ter", "ten", "bin", "ibn", "al", "el", "ben", "af", "av", "zu"}
)  # fmt: skip
#: Fewest letters and digits in a form with an initial.
MIN_INITIAL_FORM = 4
#: Names with more parts than this get only the forms built from pairs of parts.
MAX_PERMUTED_PARTS = 3
#: At most this many forms per name (a long name would otherwise make hundreds).
MAX_VARIANTS = 40

_WORD = re.compile(r"[^\s,;]+")


def _letters(s: str) -> int:
    return sum(c.isalnum() for c in s)


#: Function words in lower case inside a span read as a name: never a part of it.
_FUNCTION_WORDS = frozenset("the of and for to in on at a an or with".split())


def name_parts(value: str) -> list[str]:
    """The parts of a person's name, titles and suffixes left out, particles attached."""
    words = _WORD.findall(value)
    while words and words[0].rstrip(".").casefold() in TITLES:
        words.pop(0)
    while words and words[-1].rstrip(".").casefold() in SUFFIXES:
        words.pop()
    parts: list[str] = []
    pending: list[str] = []
    for w in words:
        if w in _FUNCTION_WORDS:
            continue  # "Re the Estate of Harold Beaumont": "the" and "of" are no part
        if w.casefold() in PARTICLES and w[:1].islower():
            pending.append(w)
            continue
        parts.append(" ".join([*pending, w]))
        pending = []
    if pending:  # a trailing particle belongs to the last part
        if parts:
            parts[-1] = " ".join([parts[-1], *pending])
        else:
            parts = [" ".join(pending)]
    return parts


def _initial(part: str) -> str:
    main = part.split(" ")[-1]  # "van Beethoven" -> "B"
    for c in main:
        if c.isalnum():
            return c
    return ""


@functools.lru_cache(maxsize=4096)
def name_variants(value: str) -> tuple[str, ...]:
    """Forms of the person name ``value`` made of whole parts, other than itself.

    Every order of the parts (of every pair of parts, for long names); the
    guard ignores separators, so "Wielgosz, Tadeusz" is "Wielgosz Tadeusz".
    Empty for a one-part name. Forms with initials are :func:`initial_forms`.
    """
    parts = name_parts(value)
    if len(parts) < 2:
        return ()
    forms: list[str] = []
    if len(parts) <= MAX_PERMUTED_PARTS:
        forms += [" ".join(p) for p in itertools.permutations(parts)]
    for a, b in itertools.permutations(parts, 2):
        forms.append(f"{a} {b}")  # a middle name dropped, either order
    own = _key(value)
    out: list[str] = []
    seen = {own}
    for f in forms:
        k = _key(f)
        if k not in seen:
            seen.add(k)
            out.append(f)
    return tuple(out[:MAX_VARIANTS])


#: One form with initials: (the initials, the part written in full, initials first).
InitialForm = tuple[tuple[str, ...], str, bool]


@functools.lru_cache(maxsize=4096)
def initial_forms(value: str) -> tuple[InitialForm, ...]:
    """The forms of ``value`` with initials: "T. Wielgosz", "Wielgosz, T.", "Kowalska A. M.".

    Each part written in full with the initials of the others (all of them,
    or one) before or after it. Initials are lower case here; see
    :class:`InitialsFinder` for how they must be written to count.
    """
    parts = name_parts(value)
    if len(parts) < 2:
        return ()
    out: list[InitialForm] = []
    for i, part in enumerate(parts):
        others = tuple(_initial(p).casefold() for j, p in enumerate(parts) if j != i)
        if not all(others) or _letters(part) < 2:
            continue
        choices = {others} | {(o,) for o in others}
        for initials in sorted(choices):
            for first in (True, False):
                form = (initials, part, first)
                if _letters(part) + len(initials) >= MIN_INITIAL_FORM and form not in out:
                    out.append(form)
    return tuple(out[:MAX_VARIANTS])


class InitialsFinder:
    """Finds the box's person names written with initials, in case-kept folded text.

    A form with initials is a guess, so it must look like one: each initial
    is a capital ("T Wielgosz", "Wielgosz T") or is followed by a period
    ("t. wielgosz"), and a separator or a period stands between it and the
    part written in full. "I'm Maria" ("M Maria"), "Maria's" ("Maria S") or
    "Mariam" ("Maria M") are not forms of "Maria Mensah".

    ``names`` are (value, type) pairs; ``sep`` and ``zw`` are the characters
    the folding writes for a separator and an invisible character; ``fold``
    is that case-keeping folding, applied to the parts as to the payload (it
    keeps periods and commas).
    """

    def __init__(
        self,
        names: Iterable[tuple[str, str]],
        *,
        sep: str,
        zw: str,
        fold: Callable[[str], str],
    ) -> None:
        self._before: dict[tuple[tuple[str, ...], str], set[str]] = {}
        self._after: dict[tuple[tuple[str, ...], str], set[str]] = {}
        self._sep = re.escape(sep + zw)
        self._strip = str.maketrans("", "", sep + zw + ".,")
        self._fold = fold
        letters: set[str] = set()
        parts: set[str] = set()
        for value, type_ in names:
            for initials, part, first in initial_forms(value):
                key = self._key(part)
                if len(key) < 2:
                    continue
                parts.add(key)
                letters.update(initials)
                table = self._before if first else self._after
                table.setdefault((initials, key), set()).add(type_)
        self.before = self.after = None
        if not parts:
            return
        s = self._sep
        up = "".join(sorted({c.upper() for c in letters if c.upper() != c}))
        low = "".join(sorted({c for c in letters}))
        initial = (
            rf"(?:[{re.escape(up)}](?![^\W\d_])|[{re.escape(low)}](?=\.))" if up
            else rf"[{re.escape(low)}](?=\.)"
        )
        # Each pattern begins with a character class (an initial, or the first
        # letter of a part), so that sre can skip ahead to where a match may
        # start; the look back at the character before it comes second.
        left = r"(?<![^\W\d_].)"
        gap = rf"[.,{s}]+"
        trie = _trie_pattern(sorted(parts), rf"[{s}.,]*", left)
        end = r"(?:(?![^\W\d_])|(?=s(?![^\W\d_])))"
        self.before = re.compile(
            rf"(?P<ini>{initial}{left}(?:{gap}{initial})*){gap}(?P<part>(?i:{trie})){end}"
        )
        # "Wielgosz, T.": found in the reversed text, where the initial comes
        # first (a part first would make every word a place to try).
        rup = rf"[{re.escape(up)}](?<![^\W\d_].)" if up else None
        rlow = rf"(?<=\.)[{re.escape(low)}]"
        rinitial = f"(?:{rup}|{rlow})" if rup else rlow
        rtrie = _trie_pattern(sorted(p[::-1] for p in parts), rf"[{s}.,]*")
        self.after = re.compile(
            rf"(?P<ini>{rinitial}(?:{gap}{rinitial})*){gap}(?P<part>(?i:{rtrie}))(?![^\W\d_])"
        )

    def _key(self, text: str) -> str:
        return self._fold(text).translate(self._strip).casefold()

    def find(self, cased: str) -> set[str]:
        """Entity types of the forms found in ``cased`` (the payload, folded keeping case)."""
        found: set[str] = set()
        if self.before is None or self.after is None:
            return found
        for regex, table, text, reverse in (
            (self.before, self._before, cased, False),
            (self.after, self._after, cased[::-1], True),
        ):
            pos = 0
            while (m := regex.search(text, pos)) is not None:
                ini = tuple(c.casefold() for c in m["ini"] if c.isalpha())
                part = m["part"].translate(self._strip).casefold()
                if reverse:
                    ini, part = ini[::-1], part[::-1]
                # "A. T. Wielgosz", "Wielgosz T. A.": the initials next to the
                # part are the form's.
                cuts = [ini[k:] for k in range(len(ini))] if not reverse else [
                    ini[:k] for k in range(len(ini), 0, -1)
                ]
                for cut in cuts:
                    found |= table.get((cut, part), set())
                # A near miss may hide a form that starts inside it.
                pos = m.start() + 1
        return found


def _trie_pattern(words: Sequence[str], joiner: str, left: str = "") -> str:
    """A regex matching any of ``words``, ``joiner`` between their characters (a trie).

    ``left`` follows the first character (a look back at what precedes it).
    """
    root: dict[str, Any] = {}
    for w in words:
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def rest(node: dict[str, Any], first: bool) -> str:
        kids = sorted(k for k in node if k)
        alts = [
            (re.escape(k) + left if first else joiner + re.escape(k)) + rest(node[k], False)
            for k in kids
        ]
        if "" in node:
            alts.append("")
        if len(alts) == 1:
            return alts[0]
        return "(?:" + "|".join(alts) + ")"

    return rest(root, True)


def _key(form: str) -> str:
    # Separators and case do not tell two forms apart for the guard.
    return "".join(c for c in form.casefold() if c.isalnum())
