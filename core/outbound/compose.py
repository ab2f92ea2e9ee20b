"""Composing the outbound: what of an analysed text leaves, and in what form.

:func:`compose_outbound` keeps the sentences routed to the cloud, writes one
``[private sentence withheld]`` marker for each run of local ones, and
replaces protected values by their placeholders (or by a coarser form the
type policy chose). :func:`settle` then anonymizes what the guard's detector
would still find in the result; :func:`outbound_of` does both and lists the
values that leave in clear by policy.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.analyze import Analysis, Route, SentencePlan, detector_lexicon
from core.box import PLACEHOLDER_RE, PrivacyBox
from core.detect.base import Detector
from core.detect.fields import label_before
from core.detect.refine import csv_tables, ner_only_unsure
from core.detect.tokens import Atoms, atoms, cut_at_cells
from core.entities import EntityType
from core.language import message_language
from core.lexicon import is_cased
from core.locales import locale
from core.locales.base import OTHER_NAME_TAIL
from core.outbound.matcher import TITLES, Located, matcher_of
from core.policy import Family, TypePolicy
from core.spans import Span

#: What stands for a run of sentences kept on this machine.
WITHHELD = "[private sentence withheld]"
#: The reason of a value settling left in clear (see :func:`settle`).
WEAK_REREAD = "read again without its context, only an unsure guess of the model"
CLEAR_TAIL = "read again without its context, common words after a public name sent as written"
LABEL_REREAD = "read again without its value, the label of a value already replaced"


def compose_outbound(
    analysis: Analysis,
    box: PrivacyBox,
    distinctive: Callable[[str], bool] | None = None,
) -> str:
    """The user content the cloud would receive: remote sentences, anonymized.

    Each run of sentences kept local becomes one ``[private sentence withheld]``
    marker, so the cloud knows that context is missing. Protected entities of
    remote sentences are replaced by their placeholders (the box is updated);
    an entity sent in clear (by the type policy or the person's choice) is left
    as it is. Nothing else of the text changes: the whitespace between
    sentences is the original's.

    A value is private wherever it occurs: every other occurrence of a
    protected value (found in this text or already in the box) in a remote
    sentence is replaced too, even where no view flagged it there, as a whole
    token. With ``distinctive`` (a test that a word is rare enough to name
    someone), so is each distinctive part of a protected person's name: a later
    bare "Mabry" of "Trent Mabry" becomes Trent Mabry's placeholder. A name
    given in brackets or with "aka" right after another ("Дмитрий Волков
    (Dmitri Volkov)") is the same person's, and shares the placeholder.
    """
    text = analysis.text
    clear = {
        text[e.start : e.end]
        for p in analysis.plans
        for e, keep in zip(p.entities, p.protected, strict=True)
        if not keep
    }
    protected = [
        e for p in analysis.plans for e, keep in zip(p.entities, p.protected, strict=True) if keep
    ]
    generalized = {
        text[p.entities[i].start : p.entities[i].end]
        for p in analysis.plans
        for i in generalizations(p)
    }
    known: dict[str, EntityType] = {
        text[e.start : e.end]: e.type for e in protected if text[e.start : e.end] not in generalized
    }
    _link_appositions(text, protected, box)
    for entry in box.entries():
        for form in entry.forms:
            known.setdefault(form, entry.type)
    common: dict[str, str] = {}
    if distinctive is not None:
        for part in _person_parts(text, protected, box, distinctive):
            known.setdefault(part, EntityType.PERSON)
        common = _common_parts(text, protected, distinctive)
    # The box's own forms first: a form of this text that matches one of them
    # ("LucyWhitfield" for "Lucy Whitfield") is recorded as its alias.
    order = dict.fromkeys([f for e in box.entries() for f in e.forms] + list(known))
    matcher = matcher_of(tuple((v, str(known[v])) for v in order if v in known and v not in clear))
    cells = [(a, b) for a, b, _ in csv_tables(text).cells]
    pieces: list[str] = []
    prev_end: int | None = None
    withheld = False
    for plan in analysis.plans:
        s = plan.sentence
        gap = text[prev_end : s.start] if prev_end is not None else ""
        if plan.route is Route.LOCAL:
            if not withheld:
                if pieces:
                    pieces.append(gap or " ")
                pieces.append(WITHHELD)
                withheld = True
            prev_end = s.end
            continue
        if pieces:
            # Sentences are contiguous, so the gap is the original whitespace.
            pieces.append(gap or (" " if withheld else ""))
        withheld = False
        coarse = generalizations(plan)
        spans = [
            Span(e.start - s.start, e.end - s.start, e.type, e.score, e.views)
            for i, (e, keep) in enumerate(zip(plan.entities, plan.protected, strict=True))
            if keep and i not in coarse
        ]
        found = matcher.locate(s.text)
        if found:
            # A table's cells are tokens of their own ("2024-02-11,pro": a date and a plan).
            table = cut_at_cells(
                atoms(s.text),
                [(a - s.start, b - s.start) for a, b in cells if s.start <= a and b <= s.end],
            )
            for hit in found:
                # Whole tokens only: a value inside a longer token hides that
                # token, as an identifier of its own ("s3://haverford-quilts").
                a, b = table.covering(hit.start, hit.end)
                widened = s.text[a : hit.start] + s.text[hit.end : b]
                if not any(c.isalnum() for c in widened):
                    # The whole token, or it with a sign the match skips ("+49 30 ...").
                    type_ = _alias(box, s.text[a:b], hit, known)
                else:
                    type_ = EntityType.ID
                spans.append(Span(a, b, type_, 1.0, {"box": 1.0}))
        gens = [
            (plan.entities[i].start - s.start, plan.entities[i].end - s.start, g)
            for i, g in coarse.items()
        ]
        # Overlaps merge into one placeholder (never half a name in clear).
        piece = _anonymize_generalized(box, s.text, spans, gens)
        if common:
            piece = _replace_common_parts(piece, common, box)
        pieces.append(piece)
        prev_end = s.end
    return "".join(pieces)


#: Words a name's part never stands for alone: titles, months and days ("June Ashby", "in June").
_NOT_ALONE = frozenset(
    "mr mrs ms miss mx dr prof sir dame lord lady rev revd fr sr jr st the and of van von de "
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday".split()
)
#: A question's or a wish's word at a sentence's start, then its subject: "Will you", "Hope you".
_CLAUSE_END = re.compile(r"(?:[.!?:]|\n)\s*$")
_VERB_START = re.compile(r"[ \t]+(?:you|u|I|we|they|he|she|it|this|that|to|everyone|all)\b")


def _common_parts(
    text: str, protected: Sequence[Span], distinctive: Callable[[str], bool]
) -> dict[str, str]:
    """The parts of protected persons' names that are also common words ("Hope" of "Hope
    Adeyemi-Clarke", "Will", "Summer"), each of one person only, with that person's name.

    A distinctive part is replaced wherever it is written (:func:`_person_parts`); a common
    one only where it is written as in the name, with its capital (:func:`_replace_common_parts`):
    "Hope is brilliant" names her, "I hope" does not."""
    owners: dict[str, set[str]] = {}
    for e in protected:
        if e.type is not EntityType.PERSON:
            continue
        name = text[e.start : e.end]
        for part in _name_words(name):
            if (
                part[:1].isupper()
                and not part.isupper()
                and not distinctive(part)
                and part.casefold() not in _NOT_ALONE
            ):
                owners.setdefault(part, set()).add(name)
    return {part: next(iter(who)) for part, who in owners.items() if len(who) == 1}


def _replace_common_parts(piece: str, common: Mapping[str, str], box: PrivacyBox) -> str:
    """``piece`` (one sentence, anonymized) with each capitalized common part of a
    protected name replaced by that person's placeholder, not where it begins a question
    or a wish ("Will you ...", "Hope you are well"). The part is no alias in the box: the
    guard would then look for "hope" in any case and block "I hope"."""
    for part, name in common.items():
        placeholder = box.placeholder_of(name)
        if placeholder is None:
            continue

        def swap(m: re.Match[str], placeholder: str = placeholder) -> str:
            before = m.string[: m.start()]
            if (not before.strip() or _CLAUSE_END.search(before)) and _VERB_START.match(m.string, m.end()):
                return m.group()
            return placeholder

        piece = re.sub(rf"(?<![\w\[]){re.escape(part)}(?![\w\]\-])", swap, piece)
    return piece


def generalizations(plan: SentencePlan) -> dict[int, str]:
    """Entity index -> the coarser form that leaves instead of it ("5-9", "October").

    Only where the type policy generalizes and the person did not choose
    otherwise (a value the person protects by hand gets a placeholder).
    """
    out = {}
    for i, (keep, d) in enumerate(zip(plan.protected, plan.decisions, strict=False)):
        if keep and d.protect and d.generalized is not None:
            out[i] = d.generalized
    return out


def _anonymize_generalized(
    box: PrivacyBox, text: str, spans: Sequence[Span], gens: Sequence[tuple[int, int, str]]
) -> str:
    """Anonymize ``text``, writing each generalized value's coarse form in its place."""
    if not gens:
        return box.anonymize(text, spans).text
    parts, pos = [], 0
    for a, b, coarse in sorted(gens):
        inside = [
            Span(x.start - pos, x.end - pos, x.type, x.score, x.views)
            for x in spans
            if pos <= x.start and x.end <= a
        ]
        parts += [box.anonymize(text[pos:a], inside).text, coarse]
        pos = b
    tail = [
        Span(x.start - pos, x.end - pos, x.type, x.score, x.views) for x in spans if x.start >= pos
    ]
    parts.append(box.anonymize(text[pos:], tail).text)
    return "".join(parts)


_APPOSITION = re.compile(
    r"^[\"”’']?\s*(?:\((?:[a-z][a-z ]{0,24}\s|(?:(?:eig\.|eigentl\.)\s*|[a-z' ]{0,12}[\"„“«]|dite?\s|aka\s))?|"
    r",?\s*(?:aka|a\.k\.a\.|also known as|known as|n[ée]e|called|alias)\s+)$"
)
#: What may close the brackets after the other name: nothing, or the words that say whom
#: it is for ("(Purita para todas)", "(Jojo für alle)").
_APPOSITION_END = re.compile(rf"[\"”“»]?\s*(?:{OTHER_NAME_TAIL}\s*)?\)")


def _link_appositions(text: str, protected: Sequence[Span], box: PrivacyBox) -> None:
    """Make a name in brackets (or after "aka") right after another one its alias."""
    persons = sorted((e for e in protected if e.type is EntityType.PERSON), key=lambda e: e.start)
    for first, second in itertools.pairwise(persons):
        between = text[first.end : second.start]
        if _APPOSITION.match(between) and (
            "(" not in between or _APPOSITION_END.match(text, second.end)
        ):
            # "Дмитрий Волков (Dmitri Volkov)", '"Tank" (real name Rhys Lowe)', not
            # "Rachel (Tobi's mum)".
            box.add_alias(text[second.start : second.end], text[first.start : first.end])


def _person_parts(
    text: str, protected: Sequence[Span], box: PrivacyBox, distinctive: Callable[[str], bool]
) -> list[str]:
    """Distinctive words of protected names that belong to one person only."""
    owners: dict[str, set[str]] = {}
    names = [text[e.start : e.end] for e in protected if e.type is EntityType.PERSON]
    names += [e.value for e in box.entries() if e.type is EntityType.PERSON]
    for name in names:
        for part in _name_words(name):
            if distinctive(part):
                owners.setdefault(part.casefold(), set()).add(box_key(box, name))
    return [part for part, who in owners.items() if len(who) == 1]


def _name_words(name: str) -> list[str]:
    """The words of a person's name of three letters or more, without a possessive "'s"."""
    return [
        w
        for w in re.findall(r"[^\W\d_][\w'’\-]*[^\W\d_]", re.sub(r"['’]s\b", "", name))
        if len(w) >= 3
    ]


def box_key(box: PrivacyBox, name: str) -> str:
    """The placeholder a name has (or the name itself when it has none yet)."""
    return box.placeholder_of(name) or name


@dataclass(frozen=True)
class SentValue:
    """A value the type policy lets leave in clear, with its reason."""

    value: str
    type: EntityType
    reason: str


@dataclass(frozen=True)
class Outbound:
    """The user content that would leave, and the values it carries in clear by policy."""

    text: str
    sent: tuple[SentValue, ...] = ()


def outbound_of(
    analysis: Analysis, box: PrivacyBox, detector: Detector | None = None,
    policy: TypePolicy | None = None,
) -> Outbound:
    """The user content the cloud would receive: composed, then settled (see :func:`settle`)."""
    if detector is None:
        return Outbound(compose_outbound(analysis, box))
    lexicon = getattr(detector, "lexicon", None)
    text = compose_outbound(
        analysis, box, distinctive(lexicon, analysis.text) if lexicon is not None else None
    )
    settled = settle(text, box, detector, analysis, policy or TypePolicy(detector_lexicon(detector)))
    coarse = tuple(
        SentValue(g, plan.entities[i].type, plan.decisions[i].reason)
        for plan in analysis.remote()
        for i, g in generalizations(plan).items()
    )
    return Outbound(settled.text, settled.sent + coarse)


def distinctive(lexicon: Any, text: str | None = None) -> Callable[[str], bool]:
    """A word rare enough in English to name someone on its own ("Mabry", not "Grant"),
    and no function word of ``text``'s language when it is one of the four with rules
    ("Haar" of "Femke Ter Haar" is "her" in Dutch: a bare "haar" is no one's name there)."""
    lc = locale(message_language(text)) if text is not None else None

    def test(word: str) -> bool:
        return bool(
            lexicon.zipf(word) < 3.5
            and not lexicon.is_term(word)
            # (only the language's function words: "Vogt", "Sommer" still name the person)
            and (lc is None or lc.zipf(word.casefold()) < 6.0)
        )

    return test


def settle(
    outbound: str,
    box: PrivacyBox,
    detector: Detector,
    analysis: Analysis,
    policy: TypePolicy,
    passes: int = 3,
) -> Outbound:
    """Anonymize what the detector still finds in the composed outbound text.

    Detection depends on context: once names become placeholders, a view may
    flag a word it passed over before. The egress guard runs the same detector
    on the payload and blocks on any find, so the pipeline looks first: each
    new find outside placeholders is decided by the type policy like any other
    entity (whole tokens only). Protected ones are replaced; the others leave
    in clear and are returned in :attr:`Outbound.sent`, so the approval shows
    them and the guard treats them as consented. A find that is only the model's
    unsure guess (:func:`~core.detect.refine.ner_only_unsure`) made only of common
    words that name no one is not decided again: the reading of the whole message, with
    its context, found nothing there, and "payroll" or "card" leaves as written (listed,
    consented). Every other occurrence of a box value goes too (the guard looks for box
    values everywhere). What is still found after ``passes`` rounds is left for the
    guard, which then blocks: fail closed.
    """
    text = analysis.text
    clear = {
        text[e.start : e.end].casefold()
        for p in analysis.plans
        for e, keep in zip(p.entities, p.protected, strict=True)
        if not keep
    }
    # Public names sent in clear ("Redis"): lower-case words after one are what it is.
    public = {
        text[e.start : e.end].casefold()
        for p in analysis.plans
        for e, d in zip(p.entities, p.decisions, strict=False)
        if not d.protect and d.family is Family.PUBLIC
    }
    # What generalizing wrote ("5-9", "October") is the policy's own output.
    clear |= {g.casefold() for p in analysis.plans for g in generalizations(p).values()}
    sent: dict[str, SentValue] = {}
    # Each value sent in clear, as whole words ("BA" in clear is not the "ba" of "bag"),
    # compiled once for every pass.
    clear_values = [v for v in clear if len(v) >= 2]
    clear_patterns = [
        re.compile(rf"(?<!\w){re.escape(v)}(?!\w)" if v[:1].isalnum() else re.escape(v), re.IGNORECASE)
        for v in clear_values
    ]
    public_patterns = [p for p, v in zip(clear_patterns, clear_values, strict=True) if v in public]
    for _ in range(passes):
        covered = [False] * len(outbound)
        labels = [False] * len(outbound)
        for m in PLACEHOLDER_RE.finditer(outbound):
            covered[m.start() : m.end()] = [True] * (m.end() - m.start())
            # The label of the value a placeholder replaced stays as written ("My NIF is
            # [ID_1]"): read again without its value, a model may take it for a name.
            label = label_before(outbound, m.start())
            if label is not None:  # the label and what joins it to the value ("is", ":")
                labels[label[0] : m.start()] = [True] * (m.start() - label[0])
        for m in re.finditer(re.escape(WITHHELD), outbound):
            covered[m.start() : m.end()] = [True] * (m.end() - m.start())
        # A value sent in clear is not judged again in pieces ("LH" of the flight
        # "LH 401", which the type policy let through whole), nor what touches it
        # ("'s" of "Ofcom's").
        in_clear = _mask(outbound, clear_patterns)
        covered = [c or k for c, k in zip(covered, in_clear, strict=True)]
        in_public = _mask(outbound, public_patterns)
        table = cut_at_cells(atoms(outbound), [(a, b) for a, b, _ in csv_tables(outbound).cells])
        runs: list[tuple[int, int, EntityType]] = []
        for span in detector.analyze(outbound):
            weak = ner_only_unsure(span)
            numbers = span.type is not EntityType.AGE
            # The model, unsure, read a value sent in clear and what follows it as one
            # name ("Garmin Forerunner 265" where "Garmin" was sent as a public brand):
            # the message's reading judged that name already.
            extends_clear = any(in_clear[span.start : span.end])
            extends_public = any(in_public[span.start : span.end])
            for a, b in _uncovered_runs(outbound, table, span, covered):
                if (a > 0 and in_clear[a - 1]) or (b < len(outbound) and in_clear[b]):
                    continue
                value = outbound[a:b]
                key = value.casefold()
                if key in clear or key in sent or key.strip(".") in TITLES:
                    continue
                if all(labels[a:b]):
                    # Listed for the approval and consented for the guard, which reads the
                    # payload again the same way.
                    sent[key] = SentValue(value, span.type, LABEL_REREAD)
                    continue
                if (
                    (extends_clear and weak and _model_tail(value))
                    or ((weak or extends_public) and _plain_words(value, policy.lexicon, numbers))
                    # In the four other languages, a frequent word of the message's language
                    # in lower case ("in haar tabletten": "her", read again as a town).
                    or (weak and value.islower() and _frequent_words(value, text))
                    # ... or capitalized, each word a common one of it and no name it knows
                    # ("100 % Santé", "HR-adviseur"), as the message's first reading judges:
                    # a model sure of it there is still reading a text its placeholders
                    # changed, and the first reading, which found nothing, had the context.
                    or (len(value.split()) <= 2 and _common_words(value, text, policy.lexicon))
                    # In a text written with capitals, lower-case words after a public name
                    # are what it is, not a name ("Redis sidecar").
                    or (extends_public and value.islower() and is_cased(outbound))
                ):
                    # Only the model, unsure, on a text its placeholders changed, or a
                    # name that runs on from a public one sent in clear ("Redis sidecar"),
                    # and only common words that name no one ("payroll", "card", "ID"): the
                    # message's own reading, in its whole context, found nothing here.
                    # It leaves as written, listed for the approval and consented for
                    # the guard. A name ("byron"), an unknown word or another script is
                    # replaced as before.
                    sent[key] = SentValue(value, span.type, WEAK_REREAD if weak else CLEAR_TAIL)
                    continue
                decision = policy.decide(
                    outbound, Span(a, b, span.type, span.score, span.views), analysis.risk_lambda,
                    analysis.profile,
                )
                if decision.protect:
                    runs.append((a, b, span.type))
                else:
                    sent[key] = SentValue(value, span.type, decision.reason)
        values = tuple(
            (f, str(e.type)) for e in box.entries() for f in e.forms if f.casefold() not in clear
        )
        for hit in matcher_of(values).locate(outbound):
            a, b = table.covering(hit.start, hit.end)
            if not any(covered[a:b]):
                whole = (a, b) == (hit.start, hit.end)
                runs.append((a, b, _alias(box, outbound[a:b], hit) if whole else _type(hit.types)))
        if not runs:
            break
        parts, pos = [], 0
        for a, b, type_ in sorted(set(runs)):
            if a < pos:
                continue
            parts += [outbound[pos:a], box.placeholder_for(outbound[a:b], type_)]
            pos = b
        outbound = "".join(parts) + outbound[pos:]
    return Outbound(outbound, tuple(sent.values()))


def _mask(text: str, patterns: Sequence[re.Pattern[str]]) -> list[bool]:
    """For each character of ``text``, whether one of ``patterns`` matches over it."""
    mask = [False] * len(text)
    for pattern in patterns:
        for m in pattern.finditer(text):
            mask[m.start() : m.end()] = [True] * (m.end() - m.start())
    return mask


#: What follows a public brand in its product's name: a word and a model's number
#: ("Forerunner 265", "Domane SL 6", "WH-1000XM5").
_MODEL_TAIL = re.compile(r"(?=.*[A-Za-z]{2})(?=.*\d)[\w\- ]{1,40}")


def _model_tail(value: str) -> bool:
    """A product's name and model after its brand, with six digits at most (no account's
    or card's number)."""
    return bool(_MODEL_TAIL.fullmatch(value)) and sum(c.isdigit() for c in value) <= 6


def _frequent_words(value: str, text: str) -> bool:
    """Whether every word of ``value`` is a frequent word of ``text``'s language, when that
    is one of the four with rules of their own (a word that common names no one there)."""
    lc = locale(message_language(text))
    words = re.findall(r"\w+", value)
    return lc is not None and bool(words) and all(lc.zipf(w) >= 4.5 for w in words)


def _common_words(value: str, text: str, lexicon: Any) -> bool:
    """Whether every word of ``value`` is, in ``text``'s language (one of the four with
    rules of their own), a word that names no one: one of its never-names, a term of the
    lexicon, or a word it writes often (Zipf 4.0 or more) that its list of names lacks."""
    lc = locale(message_language(text))
    words = re.findall(r"[^\W\d_]+", value)
    return (
        lc is not None
        and bool(words)
        # (a code's letters are no word: "A26814392", "CHA2DS2")
        and not any(c.isdigit() for c in value)
        and all(len(w) >= 3 for w in words)
        and all(
            lc.is_negative(w) or lexicon.is_term(w) or (lc.zipf(w) >= 4.0 and not lc.is_known_name(w))
            for w in words
        )
    )


def _plain_words(value: str, lexicon: Any, numbers: bool = False) -> bool:
    """Whether every word of ``value`` is a common word that names no one: a dictionary
    word or a generic term of the lexicon, or a frequent word that is nobody's given
    name ("card" and "worth" are surnames too; "Grace" and "Will" are given names)."""
    words = re.findall(r"\w+", value)
    return bool(words) and all(
        lexicon.is_plain(w)
        or lexicon.is_term(w)
        or (lexicon.zipf(w) >= 4.0 and not lexicon.is_given(w))
        # With ``numbers``, a number of one to three digits ("9" of "size 9 uk") counts
        # something and identifies no one (an age is never read so).
        or (numbers and w.isdigit() and len(w) <= 3)
        for w in words
    )


def _uncovered_runs(
    text: str, table: Atoms, span: Span, covered: Sequence[bool]
) -> list[tuple[int, int]]:
    """Runs of whole atoms of ``span`` outside placeholders (spaces between atoms allowed)."""
    runs: list[tuple[int, int]] = []
    cur: tuple[int, int] | None = None
    for a, b in zip(table.starts, table.ends, strict=True):
        if b <= span.start:
            continue
        if a >= span.end:
            break
        if any(covered[a:b]):
            if cur is not None:
                runs.append(cur)
            cur = None
            continue
        cur = (cur[0], b) if cur is not None else (a, b)
    if cur is not None:
        runs.append(cur)
    return [(a, b) for a, b in runs if any(c.isalnum() for c in text[a:b])]


def _alias(
    box: PrivacyBox, written: str, hit: Located, known: dict[str, EntityType] | None = None
) -> EntityType:
    """The type of a value found as ``written``; a form written otherwise
    ("L u c y  W h i t f i e l d") is recorded as an alias of the value it
    matched, so it gets that value's placeholder (one person, one placeholder)."""
    type_ = known.get(hit.value, _type(hit.types)) if known else _type(hit.types)
    if written != hit.value and box.placeholder_of(written) is None:
        box.add_alias(written, hit.value, type_)
    return type_


def _type(types: frozenset[str]) -> EntityType:
    # Two values that read alike but have different types are rare: any one
    # hides the place, the same one each time.
    return EntityType(min(types))

