"""Whole tokens: the atoms a span may cover, and snapping spans onto them.

What leaves the machine must stay readable, so a placeholder replaces whole
tokens only: never the tail of ``Could``, the ``400`` of ``$2,400`` or the
``billing`` of ``svc_billing`` (the damage each of these did to a real
outbound is in the project's history). An **atom** is what a span may start or
end on:

* a run of non-space characters, without the punctuation that only wraps it
  (brackets, angle brackets, quotes, a sentence's full stop or comma): ``8.4%``, ``$2,400``,
  ``mmol/L``, ``psycopg2.OperationalError``, ``chidi.okeke@example.co.uk`` and
  ``A&E`` are one atom each; ``(9)`` holds the atom ``9``;
* a possessive ending (``'s``, ``’s``) is an atom of its own, so a name span may
  stop before it (``[PERSON_1]'s``); so is an elided article or preposition written
  onto a word in French or Italian, in lower case (``d'`` of ``d'Airbus``, ``l'`` of
  ``l'Oréal``), so a name span may start after it;
* in scripts written without spaces (Chinese, Japanese, Thai...) every
  character is an atom: a run of them can be a whole sentence;
* a single ``=`` separates a key from its value (``API_KEY=abc123`` is two
  atoms, so a secret's value can go without its name); ``==``, ``>=`` and the
  like do not;
* a connection string's user, password and host are atoms of their own
  (``postgres://app_user:pw@db.example:5432/app``);
* an IPv4 address and its port are two atoms (``10.4.2.17`` and ``:6379``), so the
  address can go without the port that says which service it is;
* a comma or a semicolon separates the cells of a CSV row
  (``C532742,Gina Brown,gina.brown@yahoo.com,+1 703-745-5012`` is a code, a
  name, an address and a number), except a comma inside a number (``$2,400``,
  ``1.234,56``; ``ORD-045687,2024-09-17`` is two cells; no number has a
  semicolon: ``NL05NWBC1316982991;185,00`` is an account and an amount).

:func:`snap` widens a span to the atoms it touches (widening is the safe side:
it may hide a little more, never a little less) and cuts it at paragraph
breaks, which a value never crosses.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from core.lexicon import CONNECTION
from core.spans import Span

#: Punctuation that wraps a token without belonging to it.
_WRAP_LEFT = "([{<\"'“‘«‹¿¡*_`"
_WRAP_RIGHT = ")]}>\"'”’»›.,;:!?…*_`"
#: Quotes, which also wrap a value inside a token ('value="Sarah Connolly"').
_QUOTES_LEFT = "\"'“‘«‹"
_QUOTES_RIGHT = "\"'”’»›"
_POSSESSIVE = re.compile(r"['’][sS]$")
#: An elided article or preposition written onto the next word, in French and Italian
#: ("d'Airbus", "l'Oréal", "dell'Università"), in lower case only ("D'Angelo" is a name).
ELIDED = r"(?:d|l|qu|jusqu|lorsqu|puisqu|dell|nell|all|dall|sull|un)['’]"
_ELISION = re.compile(rf"{ELIDED}(?=[^\W\d_])")
#: An elided article that ends a span, as a word of its own.
_ELIDED_END = re.compile(rf"(?<![^\W\d_]){ELIDED}$", re.IGNORECASE)
_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {v: k for k, v in _OPENERS.items()}
#: A blank line (possibly with spaces on it): a paragraph break.
PARAGRAPH = re.compile(r"\n[ \t\r\f\v]*\n")


def _unspaced(ch: str) -> bool:
    """True for characters of scripts written without spaces between words."""
    o = ord(ch)
    return (
        0x2E80 <= o <= 0x9FFF  # CJK radicals, kana, CJK unified ideographs
        or 0xAC00 <= o <= 0xD7AF  # Hangul syllables
        or 0xF900 <= o <= 0xFAFF  # CJK compatibility ideographs
        or 0xFF66 <= o <= 0xFF9F  # half-width katakana
        or 0x0E00 <= o <= 0x0EFF  # Thai, Lao
        or 0x1000 <= o <= 0x109F  # Myanmar
        or 0x1780 <= o <= 0x17FF  # Khmer
        or 0x20000 <= o <= 0x2FA1F  # CJK extensions
    )


@dataclass(frozen=True, slots=True)
class Atoms:
    """The atoms of one text, as sorted, disjoint ``(start, end)`` pairs."""

    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def covering(self, start: int, end: int) -> tuple[int, int]:
        """The smallest run of whole atoms that contains ``[start, end)``.

        Characters outside every atom (spaces, wrapping punctuation) stay as
        they are at the edges: only an edge that falls inside an atom moves.
        """
        i = bisect.bisect_right(self.starts, start) - 1
        if i >= 0 and self.ends[i] > start:
            start = self.starts[i]
        j = bisect.bisect_left(self.ends, end)
        if j < len(self.starts) and self.starts[j] < end:
            end = self.ends[j]
        return start, end

    def inside(self, pos: int) -> bool:
        """True when ``pos`` falls strictly inside an atom (between two of its characters)."""
        i = bisect.bisect_right(self.starts, pos) - 1
        return i >= 0 and self.starts[i] < pos < self.ends[i]


_TOKEN = re.compile(r"\S+")


def atoms(text: str) -> Atoms:
    """Cut ``text`` into atoms (see the module's docstring)."""
    starts: list[int] = []
    ends: list[int] = []
    for m in _TOKEN.finditer(text):
        for a, b in _between_tags(text, m.start(), m.end()):
            _add_atoms(text, a, b, starts, ends)
    return Atoms(tuple(starts), tuple(ends))


#: An HTML tag written against words ("<label>Eircode</label><input"): a tag whole, or
#: the start of one whose attributes follow after a space. Tags are written in lower case;
#: "<John>" and "<dvolkov@example.com>" are a name and an address in brackets.
_TAG = re.compile(r"</?[a-z][a-z0-9:\-]*[ \t]*/?>|<[a-z][a-z0-9:\-]*$")


def cut_at(pattern: re.Pattern[str], text: str, a: int, b: int) -> list[tuple[int, int]]:
    """``[a, b)`` cut at each match of ``pattern`` inside it (the matches dropped), the
    empty pieces left out."""
    pieces, pos = [], a
    for m in pattern.finditer(text, a, b):
        pieces.append((pos, m.start()))
        pos = m.end()
    pieces.append((pos, b))
    return [(x, y) for x, y in pieces if x < y]


def _between_tags(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """``text[a:b]`` without the tags written in it: the words between them."""
    if "<" not in text[a:b]:
        return [(a, b)]
    return cut_at(_TAG, text, a, b)


def _unwrapped(text: str, a: int, b: int, left: str, right: str) -> tuple[int, int]:
    """``[a, b)`` without the characters of ``left`` at its start and ``right`` at its end."""
    while a < b and text[a] in left:
        a += 1
    while b > a and text[b - 1] in right:
        close = text[b - 1]
        opener = _CLOSERS.get(close, close)
        opened = text.rfind(opener, a, b - 1)
        if (
            close in _CLOSERS
            and opened > a
            and text.count(opener, a, b - 1) > text.count(close, a, b - 1)
            and not re.search(r"[\"'`]", text[opened : b - 1])
        ):
            break  # "401(k)", "403(b)": a bracket opened inside the token closes it
        b -= 1
    return a, b


def _add_atoms(text: str, a: int, b: int, starts: list[int], ends: list[int]) -> None:
    """The atoms of ``text[a:b]``, one run of non-space characters (or a piece of one)."""
    a, b = _unwrapped(text, a, b, _WRAP_LEFT, _WRAP_RIGHT)
    if a >= b:
        return
    for x, y in _split_assign(text, a, b):
        # A quote an assignment's sign left at the value's edge wraps it too: the quote of
        # 'value="Sarah' is no part of the name ("_mongodb._tcp" keeps its underscore).
        x, y = _unwrapped(text, x, y, _QUOTES_LEFT, _QUOTES_RIGHT)
        if x >= y:
            continue
        link = CONNECTION.match(text, x, y)
        if link is not None:
            # "postgres://app_user:pw@db.example:5432/app": the user, the password and the
            # host are atoms of their own, so each can go without the scheme and the port.
            cuts = [x, *(i for g in ("user", "password", "host") for i in link.span(g)), y]
            for c, d in itertools.pairwise(cuts):
                if c < d:
                    starts.append(c)
                    ends.append(d)
            continue
        port = _IPV4_PORT.fullmatch(text, x, y)
        if port is not None:
            # The colon is neither's: a port taken for a value keeps it ("0.0.0.0:[ID_1]").
            starts += [x, port.start(1) + 1]
            ends += [port.start(1), y]
            continue
        elided = _ELISION.match(text, x, y)
        if elided is not None and elided.end() < y:
            starts.append(x)
            ends.append(elided.end())
            x = elided.end()
        poss = _POSSESSIVE.search(text, x, y)
        if poss is not None and poss.start() > x:
            starts += [x, poss.start()]
            ends += [poss.start(), y]
        else:
            starts.append(x)
            ends.append(y)


def cut_at_cells(table: Atoms, cells: Sequence[tuple[int, int]]) -> Atoms:
    """``table`` with every atom that runs over a table's cell separator cut at the cells'
    bounds: in "2024-02-11,pro" the date and the plan are two cells, so two atoms (a value
    snapped to its atom never takes the next cell with it). ``cells`` are sorted, disjoint
    ``(start, end)`` pairs."""
    if not cells:
        return table
    starts: list[int] = []
    ends: list[int] = []
    cell_starts = [a for a, _ in cells]
    for x, y in zip(table.starts, table.ends, strict=True):
        i = max(bisect.bisect_right(cell_starts, x) - 1, 0)
        pieces = []
        while i < len(cells) and cells[i][0] < y:
            a, b = max(x, cells[i][0]), min(y, cells[i][1])
            if a < b:
                pieces.append((a, b))
            i += 1
        if len(pieces) < 2:
            starts.append(x)
            ends.append(y)
            continue
        for a, b in pieces:
            starts.append(a)
            ends.append(b)
    return Atoms(tuple(starts), tuple(ends))


#: An IPv4 address and its port ("10.4.2.17:6379"): group 1 is the colon and the port.
_IPV4_PORT = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}(:\d{1,5})")
_ASSIGN = re.compile(r"(?<![=!<>~:])=(?![=>])")


#: A cell separator: a semicolon (no number is written with one), or a comma unless a
#: number's group or decimal part follows it after a digit ("2,400", "1.234,56",
#: "3,5 mg"), and only before
#: what starts a cell of data after a comma (a capital, a digit, "+", "(", a quote,
#: an e-mail address, the comma of an empty cell): a lower-case word after a comma is code's
#: ("c1_0.id,c1_0.customer_ref") or a typo's.
_CELL = re.compile(
    r"(?:(?<!\d),|,(?!\d{1,3}(?!\d)))(?=[A-Z0-9+(\"'£$€]|[\w.+\-]+@)|,(?=,)|;"
)


#: Between a JSON key and its value or two quoted items, written without spaces
#: (``"hostname":"db-1.corp.lan"``): the quotes go with the separator. So between a key
#: and a number, a literal or a nested value (``"HomeNo":null,"Sex":1``, ``"Data":[{"Sid"``),
#: and after those before the next key.
_JSON_SEP = re.compile(
    r'"\s*[:,]\s*"|"[ \t]*:[ \t]*[\[{]+[ \t]*"'
    r'|"[ \t]*:[ \t]*(?=[\-\d\[{]|null\b|true\b|false\b)'
    r'|(?:(?<=[\d\]}])|(?<=\bnull)|(?<=\btrue)|(?<=\bfalse))[ \t]*,[ \t]*"'
)

#: A call's or a subscript's opening bracket and quote, written against a name or a
#: subscript before it (``smtp.login("billing@acme.co"``, ``row['email']``,
#: ``users["m.khan"]["email"]``), and a quote and closing bracket before the next
#: subscript or call: the value is an atom of its own.
_CALL = re.compile(r"(?<=[\w\])])[(\[][\"']|[\"'][)\]](?=[\[(.])")

#: A cloud account's twelve digits between an ARN's colons
#: ("arn:aws:iam::493817260115:role/billing-uploader"): an atom of their own.
_ARN_ACCOUNT = re.compile(r"(?<=:)(?=\d{12}:)|(?<=:\d{12})(?=:)")

#: Where an atom ends inside a run of non-space characters: an assignment, a JSON
#: separator, a cell separator, a call's bracket or an ARN's account.
_INNER = re.compile(
    f"{_ASSIGN.pattern}|{_JSON_SEP.pattern}|{_CELL.pattern}|{_CALL.pattern}|{_ARN_ACCOUNT.pattern}"
)


def _split_assign(text: str, a: int, b: int) -> Iterable[tuple[int, int]]:
    """Split ``text[a:b]`` at single ``=`` signs, JSON separators, cell separators and a
    mount's colon, then at characters of unspaced scripts."""
    pos = a
    for m in _INNER.finditer(text, a, b):
        if pos < m.start():
            yield from _split_mount(text, pos, m.start())
        pos = m.end()
    if pos < b:
        yield from _split_mount(text, pos, b)


def _split_mount(text: str, a: int, b: int) -> Iterable[tuple[int, int]]:
    """Split ``text[a:b]`` at the colon between two paths of a mount
    ("/home/harriet/pgdata:/var/lib/postgresql/data", "./data:/data:ro"): the host's folder
    and the container's are two atoms. A drive's colon ("C:\\Users") and a link's
    ("https://", "host:/srv") have no folder before them."""
    pos = a
    colon = text.find(":", a, b)
    while colon != -1:
        after = text[colon + 1 : colon + 3]
        if "/" in text[pos:colon] and after[:1] in ("/", "~") and after != "//":
            if pos < colon:
                yield from _split_unspaced(text, pos, colon)
            pos = colon + 1
        colon = text.find(":", colon + 1, b)
    if pos < b:
        yield from _split_unspaced(text, pos, b)


def _split_unspaced(text: str, a: int, b: int) -> Iterable[tuple[int, int]]:
    """Split ``text[a:b]`` so that each character of an unspaced script is its own atom."""
    if not any(_unspaced(c) for c in text[a:b]):
        yield a, b
        return
    run = a
    for k in range(a, b):
        if _unspaced(text[k]):
            if run < k:
                yield run, k
            yield k, k + 1
            run = k + 1
    if run < b:
        yield run, b


def snap(text: str, spans: Iterable[Span], table: Atoms | None = None) -> list[Span]:
    """Widen each span to whole atoms and cut it at paragraph breaks.

    Pieces that hold no letter or digit, or only a possessive's "'s", are dropped; each piece keeps its
    span's type, score and views. The result is not merged: callers merge.
    """
    spans = list(spans)
    if not spans:
        return []
    table = table or atoms(text)
    out: list[Span] = []
    for span in spans:
        for k, (a, b) in enumerate(_paragraph_pieces(text, span.start, span.end)):
            if k > 0 and not _holds_whole_atom(table, a, b):
                # A model's span that ran past a blank line into part of a word
                # ("Co" of "Could") carries nothing of the value.
                continue
            a, b = table.covering(a, b)
            # Whitespace and wrapping punctuation at the edges carry nothing.
            while a < b and not text[a].isalnum() and not _atom_starts_at(table, a):
                if text[a] in _OPENERS and _OPENERS[text[a]] in text[a + 1 : b]:
                    break  # "(37) 788-063": a bracket the value closes is part of it
                a += 1
            while b > a and not text[b - 1].isalnum() and not _atom_ends_at(table, b):
                if text[b - 1] in _CLOSERS and _CLOSERS[text[b - 1]] in text[a : b - 1]:
                    break  # "[2023] EWHC 123 (KB)": a bracket the value opened is part of it
                b -= 1
            a, b = _without_bare_signs(text, table, a, b)
            elided = _ELIDED_END.search(text, a, b)
            if elided is not None and b < len(text) and _ELISION.match(text, elided.start()):
                # An article elided before a word outside the span ("l'" of "l'Avenue")
                # is no part of the value; its word is another atom.
                b = elided.start()
                while b > a and text[b - 1].isspace():
                    b -= 1
            if (
                a > 0
                and text[a - 1].isalnum()
                and b > a + 2
                and _POSSESSIVE.fullmatch(text, a, a + 2)
                and not text[a + 2 : a + 3].isalnum()
            ):
                # A span that begins on the "'s" of the word before it ("0's 0"): the
                # possessive is that word's, the span starts after it.
                a += 2
                while a < b and not text[a].isalnum():
                    a += 1
            if _POSSESSIVE.fullmatch(text, a, b):
                # A possessive's "'s" alone is no value: its word is another atom ("0's").
                continue
            if a < b and any(c.isalnum() for c in text[a:b]):
                out.append(Span(a, b, span.type, span.score, dict(span.views)))
    return out


def _without_bare_signs(text: str, table: Atoms, a: int, b: int) -> tuple[int, int]:
    """``[a, b)`` less the atoms at its edges that hold no letter or digit: the dash of
    "City - Leeds" or the bar of "Phone | 0113..." separates a label from its value and
    belongs to neither."""
    while True:
        i = bisect.bisect_left(table.starts, a)
        if i < len(table.starts) and table.starts[i] == a and table.ends[i] < b:
            end = table.ends[i]
            if not any(c.isalnum() for c in text[a:end]) and text[end].isspace():
                a = end
                while a < b and text[a].isspace():
                    a += 1
                continue
        break
    while True:
        j = bisect.bisect_left(table.ends, b)
        if j < len(table.ends) and table.ends[j] == b and table.starts[j] > a:
            start = table.starts[j]
            if not any(c.isalnum() for c in text[start:b]) and text[start - 1].isspace():
                b = start
                while b > a and text[b - 1].isspace():
                    b -= 1
                continue
        break
    return a, b


def _holds_whole_atom(table: Atoms, a: int, b: int) -> bool:
    i = bisect.bisect_left(table.starts, a)
    return i < len(table.starts) and table.ends[i] <= b


def _atom_starts_at(table: Atoms, pos: int) -> bool:
    i = bisect.bisect_left(table.starts, pos)
    return i < len(table.starts) and table.starts[i] == pos


def _atom_ends_at(table: Atoms, pos: int) -> bool:
    i = bisect.bisect_left(table.ends, pos)
    return i < len(table.ends) and table.ends[i] == pos


def _paragraph_pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
    pieces = []
    pos = start
    for m in PARAGRAPH.finditer(text, start, end):
        pieces.append((pos, m.start()))
        pos = m.end()
    pieces.append((pos, end))
    return [(a, b) for a, b in pieces if a < b]


def cuts_token(text: str, start: int, end: int, table: Atoms | None = None) -> bool:
    """True when ``[start, end)`` starts or ends strictly inside an atom of ``text``."""
    table = table or atoms(text)
    return table.inside(start) or table.inside(end)
