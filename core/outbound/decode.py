"""Decoded views of outgoing text: what a payload says once its encodings are undone.

Pasted text carries encodings a reader sees through at once: a link holds
``Tadeusz%20Wielgosz``, e-mail source holds ``&#84;&#97;...`` or
``=C5=81ukasz``, a code snippet holds ``"\\u0054adeusz"``, an attachment holds
base64. The egress guard matches box values on the text as written *and* on
these views, so an encoding is no way around it.

:func:`decoded_views` returns the distinct texts obtained by undoing, in
place (the text around an encoded run stays as it is):

- ``percent``: ``%XX`` runs (UTF-8, else Latin-1) and ``%uXXXX``;
- ``html``: character references, named, decimal and hexadecimal;
- ``escape``: JSON, Python and JavaScript escapes (``\\uXXXX`` with surrogate
  pairs, ``\\UXXXXXXXX``, ``\\u{X}``, ``\\xXX`` runs as UTF-8 bytes,
  ``\\N{NAME}``, ``\\n``, ``\\\\``...);
- ``qp``: quoted-printable (``=XX`` runs, soft line breaks) and MIME
  encoded-words (``=?utf-8?B?...?=``, ``=?utf-8?Q?...?=``);
- ``base64``: runs of 16 or more base64 characters (standard or URL-safe,
  line-wrapped or not) that decode to text.

The views come from applying every decoder in turn, round after round, until
nothing changes (nested encodings: base64 of a percent-encoded name), keeping
the text after each round; where several decoders touched the text, the same
chain without the quoted-printable or the HTML decoder gives more views, in
case they misread a URL (``?name=742%20...`` reads as quoted-printable
``=74`` too).
Text with nothing encoded in it gives no view at all, which keeps the common
case nearly free: each decoder first checks for the one character its
encoding needs.

Each view records where decoding revealed something (:attr:`View.changed`):
letters or digits, or a separator inside what read as one word
(``Ola%20Nowak``). A detector run on a view should report only what overlaps
those places; everything else it could have found in the original.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

#: How many rounds the chained view may take (an encoding inside an encoding...).
MAX_ROUNDS = 4
#: The shortest run of base64 characters that is decoded.
BASE64_MIN = 16

# (old_start, old_end, new_start, new_end, revealed something)
_Rep = tuple[int, int, int, int, bool]
_Decoder = Callable[[str], tuple[str, list[_Rep]] | None]


@dataclass(frozen=True)
class View:
    """A decoded form of a text.

    ``families`` names the decoders that made it, in order; ``changed``
    holds the spans of :attr:`text` where decoding revealed something: a
    letter or a digit, or a separator inside what read as one word.
    """

    text: str
    families: tuple[str, ...]
    changed: tuple[tuple[int, int], ...]
    touched: tuple[tuple[int, int], ...] = ()  # every span decoding replaced

    def overlaps_change(self, start: int, end: int) -> bool:
        """True when ``text[start:end]`` touches a place that decoding produced."""
        return any(a < end and start < b for a, b in self.changed)

    def excerpts(self, margin: int = 256) -> list[str]:
        """The parts of :attr:`text` around what decoding replaced, ``margin`` characters each side.

        The rest of the view is the text as written, scanned already: a
        scanner that looks at the excerpts only pays for what decoding made.
        """
        out: list[str] = []
        start = end = -1
        for a, b in self.touched:
            if start >= 0 and a - margin <= end:
                end = max(end, b + margin)
                continue
            if start >= 0:
                out.append(self.text[start:end])
            start, end = max(0, a - margin), b + margin
        if start >= 0:
            out.append(self.text[start:end])
        return out


def _substantive(s: str) -> bool:
    return any(c.isalnum() for c in s)


def _replace(
    text: str,
    matches: Iterable[re.Match[str]],
    decode: Callable[[re.Match[str]], str | None],
    splits: Callable[[re.Match[str]], bool] = lambda m: True,
) -> tuple[str, list[_Rep]] | None:
    """Replace each match by its decoding (None keeps it); None when nothing changed.

    ``splits`` says whether a match that decodes to a separator between two
    letters reveals something ("Ola%20Nowak"), or only spells one out
    ("C:\\new" is a path, not "C:" and "ew").
    """
    parts: list[str] = []
    reps: list[_Rep] = []
    pos = 0
    out = 0
    for m in matches:
        if m.start() < pos:
            continue  # overlapping candidates (two base64 alphabets): the first one won
        new = decode(m)
        if new is None or new == m.group(0):
            continue
        kept = text[pos : m.start()]
        parts.append(kept)
        out += len(kept)
        parts.append(new)
        # What decoding revealed: letters or digits, or a separator that
        # splits what read as one word ("Ola%20Nowak").
        glued = (
            m.start() > 0
            and m.end() < len(text)
            and text[m.start() - 1].isalnum()
            and text[m.end()].isalnum()
        )
        revealed = _substantive(new) or (glued and _substantive(m.group(0)) and splits(m))
        reps.append((m.start(), m.end(), out, out + len(new), revealed))
        out += len(new)
        pos = m.end()
    if not reps:
        return None
    parts.append(text[pos:])
    return "".join(parts), reps


def _controls(s: str) -> bool:
    return any(unicodedata.category(c) == "Cc" and c not in "\t\n\r" for c in s)


def _bytes_to_text(raw: bytes, latin1: bool = True) -> str | None:
    """UTF-8 when the bytes are UTF-8, else Latin-1 (the other common page encoding).

    None when the result holds control characters: escaped binary (``\\x00``)
    or a chance look-alike (``timeout=10`` is not quoted-printable) says
    nothing a person could read.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        if not latin1:
            return None
        text = raw.decode("latin-1")
    return None if _controls(text) else text


# --- percent-encoding -----------------------------------------------------------------

_PERCENT_RE = re.compile(r"(?:%[0-9A-Fa-f]{2})+|%[uU][0-9A-Fa-f]{4}")


def _percent_one(m: re.Match[str]) -> str | None:
    s = m.group(0)
    if s[1] in "uU":
        return chr(int(s[2:], 16))
    return _bytes_to_text(bytes.fromhex(s.replace("%", "")))


def _percent(text: str) -> tuple[str, list[_Rep]] | None:
    if "%" not in text:
        return None
    return _replace(text, _PERCENT_RE.finditer(text), _percent_one)


# --- HTML character references -----------------------------------------------------------

# Runs of references decode in one call ("&#84;&#97;...": one name, one step).
_HTML_RE = re.compile(r"(?:&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});?)+")


def _html(text: str) -> tuple[str, list[_Rep]] | None:
    if "&" not in text:
        return None
    return _replace(text, _HTML_RE.finditer(text), lambda m: html.unescape(m.group(0)))


# --- JSON / Python / JavaScript escapes ------------------------------------------------------

_ESCAPE_RE = re.compile(
    r"(?P<x>(?:\\x[0-9A-Fa-f]{2})+)"
    r"|(?P<u>(?:\\u[0-9A-Fa-f]{4})+)"
    r"|\\U(?P<U>[0-9A-Fa-f]{8})"
    r"|\\u\{(?P<cp>[0-9A-Fa-f]{1,6})\}"
    r"|\\N\{(?P<name>[A-Za-z0-9 \-]{2,80})\}"
    r"|\\(?P<simple>[nrtbfv0/\\\"'])"
)
_SIMPLE = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", "v": "\v", "0": "\x00"}


def _escape_one(m: re.Match[str]) -> str | None:
    if m["x"] is not None:
        return _bytes_to_text(bytes.fromhex(m["x"].replace("\\x", "")))
    if m["u"] is not None:
        units = bytes.fromhex(m["u"].replace("\\u", ""))
        # UTF-16 code units: surrogate pairs join, a lone one becomes U+FFFD.
        return units.decode("utf-16-be", errors="replace")
    code = m["U"] or m["cp"]
    if code is not None:
        n = int(code, 16)
        return chr(n) if n <= 0x10FFFF and not 0xD800 <= n <= 0xDFFF else None
    if m["name"] is not None:
        try:
            return unicodedata.lookup(m["name"])
        except KeyError:
            return None
    s = m["simple"]
    return _SIMPLE.get(s, s)


def _escapes(text: str) -> tuple[str, list[_Rep]] | None:
    if "\\" not in text:
        return None
    return _replace(
        text, _ESCAPE_RE.finditer(text), _escape_one, lambda m: m["simple"] is None
    )


# --- quoted-printable and MIME encoded-words --------------------------------------------------

_QP_RE = re.compile(
    r"=\?(?P<charset>[A-Za-z0-9_\-]{1,40})(?:\*[A-Za-z0-9\-]{1,20})?\?(?P<enc>[QqBb])\?"
    r"(?P<data>[^?\s]{0,2000})\?="
    # A soft line break may fall inside the bytes of one character.
    r"|(?P<hex>(?:=[0-9A-Fa-f]{2}|=[ \t]*\r?\n)+)"
)
_SOFT_RE = re.compile(r"=[ \t]*\r?\n")


def _charset_text(raw: bytes, charset: str) -> str:
    try:
        codecs.lookup(charset)
    except LookupError:
        charset = "utf-8"
    return raw.decode(charset, errors="replace")


def _qp_one(m: re.Match[str]) -> str | None:
    if m["hex"] is not None:
        run = _SOFT_RE.sub("", m["hex"])
        # Bare "=XX" runs carry no charset, and "debugMode=False" is not one:
        # only UTF-8 text counts.
        text = _bytes_to_text(bytes.fromhex(run.replace("=", "")), latin1=False) if run else ""
        if text is None:
            return run if run != m["hex"] else None
        return text
    data = m["data"]
    if m["enc"] in "Bb":
        try:
            raw = base64.b64decode(data + "=" * (-len(data) % 4), validate=True)
        except (binascii.Error, ValueError):
            return None
    else:
        raw = re.sub(
            rb"=([0-9A-Fa-f]{2})",
            lambda h: bytes([int(h.group(1), 16)]),
            data.replace("_", " ").encode("latin-1", errors="replace"),
        )
    return _charset_text(raw, m["charset"])


def _qp(text: str) -> tuple[str, list[_Rep]] | None:
    if "=" not in text:
        return None
    return _replace(text, _QP_RE.finditer(text), _qp_one)


# --- base64 -----------------------------------------------------------------------------------

_B64_CHARS = r"[A-Za-z0-9+/_\-]"
# A run of either alphabet (standard, URL-safe); MIME wraps long base64 at 76
# characters, so wrapped lines are one run.
_BASE64_RE = re.compile(
    rf"(?:{_B64_CHARS}{{{BASE64_MIN},}}\r?\n)+{_B64_CHARS}{{2,}}={{0,2}}"
    rf"|{_B64_CHARS}{{{BASE64_MIN},}}={{0,2}}"
)
_STD_SPLIT = re.compile(r"([_\-])")
_URL_SPLIT = re.compile(r"([+/])")


def _texty(raw: bytes) -> str | None:
    """The text ``raw`` encodes, or None when it is not text (binary, or a chance decoding).

    Ordinary words of base64 characters ("internationalization") decode to
    bytes that are almost never valid UTF-8 without control characters; real
    encoded text always is.
    """
    try:
        s = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not s.strip():
        return None
    for c in s:
        cat = unicodedata.category(c)
        if cat[0] == "C" and cat != "Cf" and c not in "\t\n\r":
            return None
    if sum(c.isalnum() for c in s) * 2 < len(s.strip()):
        return None
    return s


def _b64_decode(run: str, urlsafe: bool) -> str | None:
    body = run.rstrip("=")
    alphabet = b"-_" if urlsafe else b"+/"
    # A run may start with a few characters that belong to the word before
    # it ("idVGFk..."): try the alignments a decoder could have meant.
    for shift in range(4):
        part = body[shift:]
        if len(part) % 4 == 1:
            part = part[:-1]
        if len(part) < BASE64_MIN - 3:
            return None
        try:
            raw = base64.b64decode(part + "=" * (-len(part) % 4), altchars=alphabet, validate=True)
        except (binascii.Error, ValueError):
            continue
        text = _texty(raw)
        if text is not None:
            return body[:shift] + text
    return None


def _decode_run(run: str) -> str | None:
    std = "+" in run or "/" in run
    url = "-" in run or "_" in run
    if not (std and url):
        return _b64_decode(run, urlsafe=url)
    # Both alphabets: a token after a path ("/share/<url-safe>"), or base64
    # next to a hyphenated word. Decode the pieces of one alphabet.
    for splitter, urlsafe in ((_URL_SPLIT, True), (_STD_SPLIT, False)):
        pieces = splitter.split(run)
        out = [
            (_b64_decode(p, urlsafe) if len(p) >= BASE64_MIN else None) or p for p in pieces
        ]
        if out != pieces:
            return "".join(out)
    return None


def _base64_one(m: re.Match[str]) -> str | None:
    run = m.group(0)
    if "\n" not in run:
        return _decode_run(run)
    # Wrapped: one payload across the lines, else each line on its own.
    joined = _decode_run(run.replace("\r", "").replace("\n", ""))
    if joined is not None:
        return joined
    lines = run.split("\n")
    decoded = [_decode_run(line.rstrip("\r")) for line in lines]
    if all(d is None for d in decoded):
        return None
    return "\n".join(d if d is not None else line for d, line in zip(decoded, lines, strict=True))


def _base64(text: str) -> tuple[str, list[_Rep]] | None:
    # A run holds no space: prose, whose words are short, is passed over at C speed.
    if len(text) < BASE64_MIN or max(map(len, text.split()), default=0) < BASE64_MIN:
        return None
    return _replace(text, _BASE64_RE.finditer(text), _base64_one)


# --- views ------------------------------------------------------------------------------------

DECODERS: tuple[tuple[str, _Decoder], ...] = (
    ("percent", _percent),
    ("html", _html),
    ("escape", _escapes),
    ("qp", _qp),
    ("base64", _base64),
)
FAMILIES: tuple[str, ...] = tuple(name for name, _ in DECODERS)
#: Decoders whose patterns also occur in text that is not encoded (URL queries).
SPOILERS: tuple[str, ...] = ("html", "qp")


def _remap(spans: Sequence[tuple[int, int]], reps: Sequence[_Rep]) -> list[tuple[int, int]]:
    """Move spans of the text before a decoding step to the text after it."""
    if not spans:
        return []
    starts = [r[0] for r in reps]

    def move(p: int, is_end: bool) -> int:
        i = bisect_right(starts, p) - 1  # the last replacement that starts at or before p
        if i < 0:
            return p
        a, b, na, nb, _ = reps[i]
        if p >= b:
            return p - b + nb
        if p == a:
            return na
        # Inside a replaced run: the span grows to cover all it became.
        return nb if is_end else na

    return [(move(a, False), move(b, True)) for a, b in spans]


def _step(view: View, name: str, decoder: _Decoder) -> View | None:
    result = decoder(view.text)
    if result is None:
        return None
    text, reps = result
    changed = _remap(view.changed, reps) + [(na, nb) for _, _, na, nb, alnum in reps if alnum]
    touched = _remap(view.touched, reps) + [(na, nb) for _, _, na, nb, _ in reps]
    return View(
        text, (*view.families, name), tuple(sorted(set(changed))), tuple(sorted(set(touched)))
    )


def _chain(view: View, decoders: Sequence[tuple[str, _Decoder]]) -> list[View]:
    """Apply every decoder in turn, round after round, until nothing changes.

    Returns the view after each round that changed something: a later round
    may undo what looks like an encoding but was not one ("?id==37=34" is
    "742" after one round, and "t2" after two).
    """
    rounds: list[View] = []
    for _ in range(MAX_ROUNDS):
        before = view.text
        for name, decoder in decoders:
            stepped = _step(view, name, decoder)
            if stepped is not None:
                view = stepped
        if view.text == before:
            break
        rounds.append(view)
    return rounds


def decoded_views(text: str, families: Iterable[str] = FAMILIES) -> list[View]:
    """The distinct decoded forms of ``text`` (empty when nothing in it is encoded)."""
    wanted = set(families)
    chosen = [(n, d) for n, d in DECODERS if n in wanted]
    original = View(text, (), ())
    candidates = _chain(original, chosen)
    # Two decoders may claim the same characters ("?name=742%20..." reads as
    # quoted-printable "=74" too, "&not=1" as HTML "¬=1"): the chain without
    # each of those two keeps what it would have spoilt.
    used = {f for v in candidates for f in v.families}
    if len(used) > 1:
        for name in sorted(used & set(SPOILERS)):
            candidates += _chain(original, [(n, d) for n, d in chosen if n != name])
    views: list[View] = []
    seen = {text}
    for view in candidates:
        if view.text not in seen:
            seen.add(view.text)
            views.append(view)
    return views
