"""Detection in the language of each part of a message.

:class:`LanguageDetector` wraps the shipped detector. An English message goes
to it unchanged (same spans, same cost but one language guess). In a part
written in German, French, Spanish or Dutch (:mod:`core.language`):

* the English NER's guesses are judged by that language's rules: a name it
  proposed keeps only its runs of capitalized words that are not the
  language's negatives ("Beste", "mijn", "Onze huisarts", "Mai" are never
  names; "Beste Jan" keeps "Jan"), and the rules view's runs of capitalized
  words (which only widen names) are cut the same way;
* the locale's own spans join the rules view's: formats with checksums, names
  after a title, a relation word, an introduction, a greeting or a closing
  (:class:`core.locales.LocaleView`); a national number found by a locale
  (score 0.95 or more) replaces a weaker English pattern over the same digits
  (a Spanish DNI is no phone number);
* after the fusion, what lies in a locale's zones (laws, money, quantities
  with decimal commas) is taken out of the spans only the models proposed.

In a part of an unknown language, only the rules judge: the models' spans are
dropped. ``mode="rules"`` drops the models' names in every non-English part
too (measured against the default "filter" in the README's Languages section).
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from core.detect.base import DetectionView, Detector, _deny_spans
from core.detect.fusion import Fusion
from core.detect.refine import LEXICON_VIEW, cut_at_table_cells, join_neighbours
from core.detect.rules import MARKER, NAME_EXTENT
from core.detect.rules import NAME as RULES
from core.entities import EntityType
from core.language import ENGLISH, UNKNOWN, Languages, detect
from core.lexicon import is_cased
from core.locales import CODES, Locale, LocaleView, field_keys, locale, view
from core.locales.base import (
    CLOSING_NAME_ZIPF,
    ELIDED_NAME,
    FUNCTION_ZIPF,
    INNER_PARTICLES,
    LOWER_NAME_ZIPF,
    NAME_SCORE,
    NOUN_ZIPF,
    OTHER_NAME_TAIL,
    RARE_NAME_ZIPF,
    SURNAME_AFTER_NAME_ZIPF,
    SURNAME_RARE_ZIPF,
    TITLED_NAME_ZIPF,
    alternation,
    known_given,
    known_surname,
)
from core.spans import Span

log = logging.getLogger(__name__)

#: The types a model proposes from context (the ones a locale's name rules judge).
NAME_TYPES = frozenset(
    {EntityType.PERSON, EntityType.ORG, EntityType.LOCATION, EntityType.NRP, EntityType.OTHER}
)
#: The types whose one-word guesses a common word or an article rules out.
WORD_TYPES = frozenset({EntityType.PERSON, EntityType.OTHER})
#: The views whose spans are a model's guesses.
MODEL_VIEWS = frozenset({"ner", "spacy"})
#: A locale span this sure replaces the English patterns over the same characters.
STRONG = 0.95
MODES = ("filter", "rules")
#: A pattern's score that counts as evidence against a zone (the rules view's
#: single-view threshold: its weaker matches are mostly noise).
EVIDENCE = 0.55
#: A year alone (the model's guess; a date with a day or a month is the locales').
_YEAR = re.compile(r"(?:19|20)\d\d")
#: A number of one or two digits alone: a count, an age, a day without its month.
_SMALL = re.compile(r"\d{1,2}")
_WORD = re.compile(r"[^\W\d_][\w'’-]*|\S+")


class LanguageDetector(Detector):
    """``base`` for English text, ``base`` judged by each part's locale otherwise.

    ``language`` fixes the language ("auto" detects it per message and part).
    Attributes not set here (a fusion's agent, its thresholds) are ``base``'s.
    """

    def __init__(
        self,
        base: Detector,
        *,
        language: str = "auto",
        mode: str = "filter",
        languages_ner: DetectionView | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}")
        super().__init__(
            base.views,
            deny=base.deny,
            min_score=base.min_score,
            lexicon=base._lexicon,
            refine=base.refines,
        )
        self.allow = base.allow
        self.base = base
        self.language = language
        self.mode = mode
        #: A NER trained on the locales' languages: it reads their parts in place of
        #: the base's NER view (same name, so the fusion weighs it the same).
        self.languages_ner = languages_ner

    def __getattr__(self, name: str) -> Any:
        base = self.__dict__.get("base")
        if base is None:
            raise AttributeError(name)
        return getattr(base, name)

    def languages(self, text: str) -> Languages:
        return detect(text, self.language)

    def analyze(self, text: str) -> list[Span]:
        langs = self.languages(text)
        if langs.english_only:
            return self.base.analyze(text)
        proposals = {view_.name: self._propose(view_, text, langs) for view_ in self.views}
        judged = self.judge(text, langs, proposals)
        if isinstance(self.base, Fusion):
            spans = self.base.fuse(text, judged)
        else:
            spans = self._union(text, judged)
        # A locale's format match that the English refinement took for something
        # else ("14.03.1951" read as a version number) comes back.
        _, formats = self._locale_spans(text, langs)
        lost = [f for f in formats if not any(_overlaps(f, s) for s in spans)]
        if lost:
            spans = sorted(spans + _disjoint(lost), key=lambda s: s.start)
        # The lexicon's public names are looked for in English parts only: its list of
        # plain words is English, and a German noun is capitalized like a brand.
        spans = [
            s for s in spans if LEXICON_VIEW not in s.views or langs.at(s.start) in (ENGLISH, UNKNOWN)
        ]
        spans = _persons_named_again(text, self._zones(text, langs, spans))
        spans = _bracketed_names(text, langs, _with_nickname(text, langs, spans, self.lexicon), self.lexicon)
        spans = _other_names_in_brackets(text, langs, spans, self.lexicon)
        spans = _given_names_in_brackets(text, langs, spans, self.lexicon)
        spans = _with_direction(text, _with_house_number(text, _with_suffix(text, spans)))
        spans = _joined_addresses(text, _street_before_postcode(text, langs, _street_from_label(text, spans)))
        spans = _with_unit(text, langs, spans)
        spans = _with_particle_surname(text, langs, spans, self.lexicon)
        spans = _places_named_by_kind(text, langs, spans, self.lexicon)
        spans = _with_initials(text, langs, _people_together(text, langs, spans, self.lexicon))
        spans = _surname_comma_given(text, langs, spans, self.lexicon)
        spans = _lower_initials_surname(text, langs, spans)
        spans = _surnames_again(text, langs, spans, self.lexicon)
        spans = _age_after_person(text, spans)
        return cut_at_table_cells(text, _places_by_article(text, langs, _companies_typed(text, spans)))

    def _propose(self, view_: DetectionView, text: str, langs: Languages) -> list[Span]:
        """``view_``'s spans; the languages NER's in the locales' parts when there is one."""
        other = self.languages_ner
        if other is None or view_.name != other.name:
            return view_.analyze(text)
        ours = set(CODES)
        spans: list[Span] = []
        if any(p.language in ours for p in langs.parts):
            spans += [s for s in other.analyze(text) if langs.at(s.start) in ours]
        if any(p.language not in ours for p in langs.parts):
            spans += [s for s in view_.analyze(text) if langs.at(s.start) not in ours]
        return sorted(spans, key=lambda s: (s.start, s.end))

    def judge(
        self, text: str, langs: Languages, proposals: Mapping[str, Sequence[Span]]
    ) -> dict[str, list[Span]]:
        """The views' proposals judged by each part's locale, plus the locales' own spans."""
        own, formats = self._locale_spans(text, langs)
        strong = [s for s in formats if s.score >= STRONG]
        # A person the locale finds in context (after a title, an introduction, a
        # relation word) types the words it covers: "Je suis Karim Benali, 14 rue ..."
        # is no address however sure a model is of "Benali".
        persons = [o for o in own if o.type is EntityType.PERSON and o.score >= STRONG]
        out: dict[str, list[Span]] = {}
        for name, spans in proposals.items():
            if name in MODEL_VIEWS:
                spans = _rejoined(text, spans)
            kept: list[Span] = []
            for s in spans:
                lang = langs.at(s.start)
                if lang in (ENGLISH, UNKNOWN):
                    # A language without rules of its own is read as before languages
                    # were told apart: a name the English model finds in Korean or Greek
                    # text is kept (dropping them let public and private names out).
                    kept.append(s)
                elif name in MODEL_VIEWS:
                    over = [o for o in formats if _overlaps(s, o)]
                    if over and s.type is EntityType.ADDRESS:
                        # "Berliner Allee 17, 64295" over the locale's "64295 Darmstadt": the
                        # postcode and town are the format's, the street before them stays.
                        # What is left of it in lower case is the word before a name the
                        # format took ("l'hôpital Édouard-Herriot": "hôpital"), no address.
                        kept.extend(
                            r
                            for r in _outside(text, s, [(o.start, o.end) for o in over])
                            if any(c.isalpha() for c in text[r.start : r.end])
                            and not text[r.start : r.end].strip(" \t,.;:").islower()
                            # "Kennzeichen" before the registration the format took: a label.
                            and not _all_negative(text[r.start : r.end], lang)
                        )
                        continue
                    if over and s.type not in NAME_TYPES:
                        continue  # the locale's format is the exact extent (and type)
                    for r in self._judge_model(text, lang, s):
                        if any(_overlaps(r, o) for o in formats):
                            continue
                        other = [(o.start, o.end) for o in persons if _overlaps(r, o) and r.type is not o.type]
                        if not other:
                            kept.append(r)
                            continue
                        # A place the model read over a person the locale found in context
                        # ("gracias\nnere (nerea abad)" read as one place): the person's words
                        # are theirs; what is left of the place must hold a word of 3 letters.
                        kept.extend(
                            p for p in _outside(text, r, other) if re.search(r"[^\W\d_]{3}", text[p.start : p.end])
                        )
                elif NAME_EXTENT in s.views:
                    kept.extend(_runs(text, lang, s))
                elif not any(_overlaps(s, o) and o.type != s.type for o in strong):
                    kept.append(s)
            out[name] = kept
        out.setdefault(RULES, []).extend(own)
        return out

    def _judge_model(self, text: str, lang: str, s: Span) -> list[Span]:
        if lang not in CODES:  # UNKNOWN parts keep the model's spans before this (judge)
            return []
        return [r for r in self._judge_words(text, lang, s) if not _bare_number(text, r)]

    def _judge_words(self, text: str, lang: str, s: Span) -> list[Span]:
        lv = view(lang)
        # The languages NER was trained on these languages with their hard negatives:
        # its extents are judged lightly (see _edges, _common_term). The English
        # model's guesses in these languages are judged strictly.
        light = self.languages_ner is not None
        if s.type in NAME_TYPES:
            if self.mode == "rules" or lv is None:
                return []
            if (
                light
                and s.type is EntityType.LOCATION
                and (
                    s.score >= SURE_MODEL_SCORE
                    # ("der hausarzt in kochel"): a place's preposition before it, the model
                    # less sure suffices
                    or (s.score >= PLACED_MODEL_SCORE and _TOWN_PREPOSITION.search(text, max(0, s.start - 12), s.start) is not None)
                )
                and not is_cased(text)
            ):
                # A small town no list holds, typed in lower case ("sorti de la clinique à
                # cornebarrieu"): the model sure of it, a word neither the language nor English
                # writes (a health message's town is one the norm protects).
                word = text[s.start : s.end]
                if (
                    re.fullmatch(r"[^\W\d_][\w'’-]{3,}", word)
                    and lv.locale.zipf(word) < RARE_NAME_ZIPF
                    and self.lexicon.zipf(word) < RARE_NAME_ZIPF
                    and not lv.locale.is_negative(word)
                ):
                    return [s]
            if s.type not in WORD_TYPES:
                # A place's or an organisation's name may hold lower-case words
                # ("Universität zu Köln"): only its edges are trimmed.
                return [
                    _of_a_person(text, r, lv.locale)
                    for r in _edges(text, lv.locale, s, light=light)
                    if _name_like(text, r, lv.locale)
                    and not _common_term(text, r, lv.locale, light=light)
                ]
            if light and s.type is EntityType.PERSON and s.score >= RELATED_MODEL_SCORE and not is_cased(text):
                related = _related_name(text, s, lv, self.lexicon)
                if related:
                    return related
            if light and s.type is EntityType.PERSON and s.score >= LOWER_MODEL_SCORE and not is_cased(text):
                # A message typed without capitals: the model, sure, and a name people carry.
                lower = _lower_names(text, s, lv.locale, self.lexicon)
                if lower:
                    return lower
            runs = _runs(text, lang, s, foreign=light)
            if light:
                # "au Japon" read as a person: a country or region is a place.
                runs = [_public_place(text, r, lv.locale) for r in runs]
            # "Homeoffice" of "Homeoffice-Pauschale" read as a name: the compound is a noun.
            runs = [
                r
                for r in runs
                if _name_like(text, r, lv.locale)
                and not _compound_noun(_compound(text, r) or "", lv.locale)
            ]
            # "op naam van Wouter Dekker" typed OTHER: a known first name says person.
            return [
                Span(r.start, r.end, EntityType.PERSON, r.score, dict(r.views))
                if r.type is EntityType.OTHER and _has_known_name(text, r, lv.locale)
                else r
                for r in runs
            ]
        if lv is None:
            return [s]
        # Another kind of span loses the words at its edges that are the
        # language's common words ("nach § 622", "kostet es 1.234,56").
        return _edges(text, lv.locale, s)

    def _locale_spans(self, text: str, langs: Languages) -> tuple[list[Span], list[Span]]:
        """All the locales' spans in their parts, and the format matches among them."""
        names: list[Span] = []
        formats: list[Span] = []
        cased = is_cased(text)
        for code in sorted(langs.codes & set(CODES)):
            lv = view(code)
            if lv is None:
                continue
            found = [s for s in lv.formats(text) if langs.at(s.start) == code]
            formats.extend(found)
            # "mijn werkgever, Vermeulen Installatietechniek B.V.": the company's form wins.
            names.extend(
                s
                for s in [
                    *lv.names(text),
                    # (German written with its capitals capitalizes names too: after a
                    # capitalized word, "meine Schwiegermutter grob fahrlässig", a word in
                    # lower case names no one; "ich bin detlef fuchs" still does)
                    *(
                        s
                        for s in lv.lower_names(text, self.lexicon)
                        if not (cased and code == "de" and text[s.start].islower() and _after_capital(text, s.start))
                    ),
                    *lv.lower_given_names(text, self.lexicon, cased),
                    *lv.article_names(text),
                    *lv.lower_places(text, self.lexicon),
                    *lv.inner_names(text, self.lexicon),
                    # (the English zones read "3512 pg" as a quantity: the match is kept whole)
                    *(
                        Span(a.start, a.end, a.type, a.score, {**a.views, MARKER: a.score})
                        for a in lv.lower_addresses(text, self.lexicon, cased)
                    ),
                ]
                if langs.at(s.start) == code
                and not any(
                    _overlaps(s, f)
                    # (a postcode the format matched, its town after it: "1094 HE amsterdam")
                    and not (s.type is f.type is EntityType.ADDRESS and s.start <= f.start and f.end <= s.end)
                    for f in found
                )
            )
        return formats + names, formats

    def _union(self, text: str, proposals: Mapping[str, Sequence[Span]]) -> list[Span]:
        """:meth:`Detector.analyze` over proposals already made."""
        spans = [s for group in proposals.values() for s in group if s.score >= self.min_score]
        spans.extend(_deny_spans(text, self.deny))
        spans = self.refine(text, spans)
        if self.allow:
            spans = [s for s in spans if text[s.start : s.end].casefold() not in self.allow]
        return spans

    def _zones(self, text: str, langs: Languages, spans: list[Span]) -> list[Span]:
        zones: list[tuple[int, int]] = []
        for code in sorted(langs.codes & set(CODES)):
            lv = view(code)
            if lv is not None:
                zones.extend(z for z in lv.zones(text) if langs.at(z[0]) == code)
        if not zones:
            return spans
        out: list[Span] = []
        for s in spans:
            inside = [z for z in zones if z[0] < s.end and s.start < z[1]]
            if not inside:
                out.append(s)
            elif any(
                score >= EVIDENCE
                for name, score in s.views.items()
                if name not in MODEL_VIEWS | {NAME_EXTENT, "agent"}
            ):
                # Evidence of a pattern: only a span wholly inside a zone goes.
                if not any(z[0] <= s.start and s.end <= z[1] for z in inside):
                    out.append(s)
            else:
                out.extend(_outside(text, s, inside))
        return out


#: How rare in the language a name of another language's list must be to count in lower case.
_FOREIGN_NAME_ZIPF = 3.0
_ARABIC_PARTICLES = frozenset({"el", "al", "ben", "bin", "ibn", "abu", "ould", "ait", "bou"})
#: A word this frequent in the language at the start of a model's person is no part of it.
_EDGE_WORD_ZIPF = 4.0
#: How sure the languages NER must be of a person in a text typed without capitals.
LOWER_MODEL_SCORE = 0.9
#: ... of a word no list holds as a town ("cornebarrieu") ...
SURE_MODEL_SCORE = 0.95
#: ... and as a person ("ioana").
SURE_NAME_SCORE = 0.98
#: ... of such a town right after a place's preposition ("in kochel", "à lanester").
PLACED_MODEL_SCORE = 0.8
_TOWN_PREPOSITION = re.compile(r"(?<![\w'’-])(?:in|aus|nach|à|a|en|uit|te|naar|près de|bij)[ \t]+\Z")
_LOWER_NAME_WORD = re.compile(r"[^\W\d_][\w'’-]*")


_OPEN_QUOTES = frozenset('"„“«\'')
_CLOSE_QUOTES = frozenset('"“”»\'')
#: How sure the languages NER must be of a person right after a relation word, in a text
#: typed without capitals: the word itself may be one the language writes now and then.
RELATED_MODEL_SCORE = 0.6


def _related_name(text: str, s: Span, lv: LocaleView, lexicon: Any) -> list[Span]:
    """In a message typed without capitals, the model's person right after a relation word
    ("meine freundin malu", "ma collègue fatou dit que"): its first word when the language
    writes it rarely (Zipf under :data:`CLOSING_NAME_ZIPF`: a nickname no list knows), with
    the names after it. Two kinds of evidence: the model's and the relation's."""
    lc = lv.locale
    words = list(_LOWER_NAME_WORD.finditer(text, s.start, s.end))
    if not words:
        return []
    # A name in quotes after the relation ("beim nachbarn „becker“") is one however often
    # the language writes the word.
    quoted = text[words[0].start() - 1 : words[0].start()] in _OPEN_QUOTES and text[
        words[-1].end() : words[-1].end() + 1
    ] in _CLOSE_QUOTES
    at = words[0].start() - 1 if quoted else words[0].start()
    if not lv.after_relation(text, at):
        return []
    first = words[0].group()
    limit = TITLED_NAME_ZIPF if quoted else CLOSING_NAME_ZIPF
    if len(first) < 3 or not first.islower() or lc.is_negative(first) or lc.zipf(first) >= limit:
        return []
    if lc.zipf(first) >= RARE_NAME_ZIPF and first.endswith(lc.describing_endings):
        return []  # a word of the language that says what the relative is: "jubilada"
    end = words[0].end()
    for m in words[1:]:
        w = m.group()
        if text[end : m.start()].strip() or lc.is_negative(w):
            break
        if not (lc.is_known_name(w) or known_surname(lexicon, w) or lc.zipf(w) < SURNAME_RARE_ZIPF):
            break
        end = m.end()
    score = min(s.score, LOWER_MODEL_SCORE)
    return [Span(words[0].start(), end, EntityType.PERSON, score, {k: min(v, score) for k, v in s.views.items()})]


def _lower_names(text: str, s: Span, lc: Locale, lexicon: Any) -> list[Span]:
    """In a message typed without capitals, the model's person when every word of it is a
    name people carry (the language's list, the lexicon's given names and surnames; its
    particles between them), no frequent word of the language and none the language never
    takes for a name ("2 enfants dont kenza qui a 3 ans"); a span with another word in it
    ("kapsalon haarstudio linda") is left to the other rules."""
    words = list(_LOWER_NAME_WORD.finditer(text, s.start, s.end))
    # A frequent word at an edge is the sentence's, not the name's ("amie anne-sophie").
    while words and lc.zipf(words[0].group()) >= _EDGE_WORD_ZIPF and not lc.is_known_name(words[0].group()):
        words = words[1:]
    # ... and at its end ("piso ioana tambien": "ioana").
    while words and lc.zipf(words[-1].group()) >= _EDGE_WORD_ZIPF and not lc.is_known_name(words[-1].group()):
        words = words[:-1]

    def particle(word: str) -> bool:
        # ("yassine el amrani", "karim ben salah": the particles of Arabic names too)
        return lc.is_particle(word) or word in INNER_PARTICLES or word in _ARABIC_PARTICLES

    parts = [m for m in words if not particle(m.group())]
    if not parts or particle(words[-1].group()):
        return []

    def name(word: str) -> bool:
        # The language's own names as frequent as "julien"; another language's only when the
        # language hardly writes the word ("brett" of "am schwarzen brett" is a board).
        zipf = lc.zipf(word)
        return (
            len(word) >= 3
            and not lc.is_negative(word)
            and (
                (lc.is_known_name(word) and zipf < LOWER_NAME_ZIPF)
                or ((lexicon.is_given(word) or lexicon.is_surname(word)) and zipf < _FOREIGN_NAME_ZIPF)
                # A name no list holds ("ioana"), the model sure of it, a word neither the
                # language nor English writes.
                or (
                    s.score >= SURE_NAME_SCORE
                    and zipf < RARE_NAME_ZIPF
                    and lexicon.zipf(word) < RARE_NAME_ZIPF
                    # (no medicine, no term, no adjective: "augmentin", "agobiadisimos")
                    and lexicon.public_kind(word) is None
                    and not lexicon.is_term(word)
                    and not word.endswith(lc.describing_endings)
                )
            )
        )

    for m in parts:
        word = m.group()
        # (a compound name is names joined: "anne-sophie", "moreau-diallo")
        if not (word.islower() and (name(word) or all(name(w) for w in word.split("-")))):
            return []
    # (under the score of the language's own rules: "kapsalon haarstudio linda" stays the
    # salon its kind names)
    score = min(s.score, LOWER_MODEL_SCORE)
    views = {k: min(v, score) for k, v in s.views.items()}
    return [Span(parts[0].start(), parts[-1].end(), EntityType.PERSON, score, views)]


#: What comes before a sentence's first word: the text's start, a line's, a full stop's
#: (or "?", "!") or a header's colon.
_STARTS_SENTENCE = re.compile(r"(?:\A|\n|[.!?:][ \t]+|\n[ \t]*[-*•][ \t]+)[ \t]*[\"'«„“(]?$")


def _name_like(text: str, run: Span, lc: Locale) -> bool:
    """Can a run of capitalized words the NER proposed be a name in this language?

    Two words or more can. One word can when it is a known first name or
    surname; not when an article or a possessive comes before it (German
    nouns: "die Kündigungsfrist", "nach einem Sturz") or when it is a common
    word of the language ("Kredit", "Ruhestand").
    """
    value = text[run.start : run.end]
    words = value.split()
    if len(words) > 1:
        # Outside German (whose nouns all take capitals), a frequent word capitalized only
        # because a sentence or a subject line starts with it, then words in lower case,
        # is a phrase: "Onderwerp: Voorstel vaststellingsovereenkomst" (read as an
        # organisation once the sender's address had become a placeholder).
        # So is one written in capitals for emphasis ("en el plazo de DIEZ días").
        return not (
            lc.code != "de"
            and all(w.islower() and not lc.is_particle(w) for w in words[1:])
            and (
                _STARTS_SENTENCE.search(text[max(0, run.start - 40) : run.start]) is not None
                or (len(words[0]) > 1 and words[0].isupper())
            )
            and lc.common(words[0])
        )
    if len(value) <= 5 and sum(c.isupper() for c in value) >= 2:
        # A short term or acronym: "IgE", "RH", "MRT", "BGB". An organisation's or a
        # place's acronym that is no term stays: one the lexicon knows ("FBI", "SNCF")
        # or one rare in the language ("ÖMV", "LAPD", "SWAPO": someone's employer).
        return run.type not in WORD_TYPES and _rare_acronym(value, lc)
    if text[run.end : run.end + 2].lstrip(" ").startswith(":"):
        return False  # a field's label: "Localizador:", "Pasajera:"
    if run.type not in WORD_TYPES or lc.is_known_name(value):
        # A place or an organisation is often a frequent word ("Berlin", "Siemens")
        # and follows an article ("die Charité"): frequency and articles say nothing.
        return True
    return not (lc.after_determiner(text, run.start) or lc.common(value))


#: How frequent an acronym may be in the language and still name one organisation
#: ("ÖMV", "LAPD", "RAF", "NEMO", "SGP" are below it). The terms as frequent ("MRT", "BGB",
#: "IRM", "AOW") are each language's listed negatives (core.locales.*.words).
ACRONYM_ZIPF = 3.6


def _rare_acronym(value: str, lc: Locale) -> bool:
    """An acronym of three to five capitals that is no term of the lexicon nor a listed
    negative of the language, and that the lexicon knows as a public name or that is
    rare in the language."""
    from core.lexicon import lexicon

    if not (3 <= len(value) <= 5 and value.isalpha() and value.isupper()):
        return False
    words = lexicon()
    if words.is_term(value.casefold()) or lc.is_listed_negative(value):
        return False
    return words.public_kind(value) is not None or lc.zipf(value.casefold()) < ACRONYM_ZIPF


def _public_place(text: str, run: Span, lc: Locale) -> Span:
    """``run`` typed as a place when it names a country or region in ``lc``'s language."""
    if text[run.start : run.end].casefold() not in lc.public_places:
        return run
    return Span(run.start, run.end, EntityType.LOCATION, run.score, dict(run.views))


def _bare_number(text: str, s: Span) -> bool:
    """A model's bare year ("desde 2020"), count ("après 6 ans") or number read as a name
    or an address: no identifier (the locales' own formats find dates and numbers)."""
    value = text[s.start : s.end]
    if _YEAR.fullmatch(value) or (_SMALL.fullmatch(value) and s.type is not EntityType.AGE):
        return True  # an age stays the model's to find ("Meine Mutter (92)")
    return s.type in NAME_TYPES | {EntityType.ADDRESS} and not any(c.isalpha() for c in value)


#: "van", "von", "de" in lower case, then one capitalized word.
_OF_NAME = re.compile(r"(?:[A-Z]{2,6}[ \t]+)?(?:van|von|de|di|da)[ \t]+([A-ZÀ-Ý][a-zà-ÿ]+)")


def _of_a_person(text: str, run: Span, lc: Locale) -> Span:
    """"BSN van Daan" read as a company: a label's acronym, "of" and a known given name
    say whose the number is; the person is the name ("van Daan" is no organisation)."""
    m = _OF_NAME.fullmatch(text, run.start, run.end)
    if m is None or not lc.is_known_name(m.group(1)):
        return run
    return Span(m.start(1), run.end, EntityType.PERSON, run.score, dict(run.views))


#: A preposition of place and a capitalized word after a word ("en Molina", "in Zwolle").
_BEFORE_PLACE = re.compile(r"[ \t]+(?:en|in|à|a|au|aux|bij|nahe|cerca de|près de)[ \t]+[A-ZÀ-Ý[]")


def _compound(text: str, run: Span) -> str | None:
    """The whole compound of which ``run`` is one part the model's tokens split
    ("Homeoffice" of "Homeoffice-Pauschale"); None when no hyphen touches it."""
    if text[run.end : run.end + 1] != "-" and text[run.start - 1 : run.start] != "-":
        return None
    a, b = run.start, run.end
    while a > 0 and (text[a - 1].isalpha() or text[a - 1] == "-"):
        a -= 1
    while b < len(text) and (text[b].isalpha() or text[b] == "-"):
        b += 1
    return text[a:b].strip("-")


def _compound_noun(value: str, lc: Locale) -> bool:
    """A compound joined by a hyphen whose last part is a noun by its ending
    ("Homeoffice-Pauschale", "Kranken-Versicherung"): a term, unless a known name."""
    from core.lexicon import lexicon

    head, sep, last = value.rpartition("-")
    return bool(
        sep
        and head
        and value.replace("-", "").isalpha()
        and last[:1].isupper()
        and lc.is_negative(last)
        and not lc.is_known_name(value)
        and lexicon().public_kind(value) is None
    )


def _common_term(text: str, run: Span, lc: Locale, *, light: bool = False) -> bool:
    """Is ``run``, proposed as a place or an organisation, one common word of the language?

    German capitalizes every noun, and a NER trained on these languages reads
    some as names ("Notaufnahme", "Vertrieb", "Physiotherapie"). A common word
    that is no known name and no public name of the lexicon ("Berlin",
    "Siemens") is a term, not a name. With ``light`` (the languages NER's guess)
    a country or region of the locale's language is no term ("die Niederlande"), and
    a word after an article is one only when the language uses it ("die
    Notaufnahme"; not "am Sambesi").
    """
    from core.lexicon import lexicon

    value = text[run.start : run.end].strip(".,;:")
    if len(value.split()) > 1:
        return False
    if run.type is EntityType.ORG:
        value = _compound(text, run) or value
    if not value.isalpha():
        # Not a place: "Hermann-Göring-Straße" is a street. But no place ends on a listed
        # term's acronym: "Knie-TEP", "Schädel-CT".
        head, sep, last = value.rpartition("-")
        if run.type is EntityType.LOCATION:
            return bool(sep and head and last.isupper() and lc.is_listed_negative(last))
        return run.type is EntityType.ORG and _compound_noun(value, lc)
    if lc.is_known_name(value) or lexicon().public_kind(value) is not None:
        return False
    if light and value.casefold() in lc.public_places:
        return False
    if (
        run.type is EntityType.LOCATION
        and _SENTENCE_START.search(text, max(0, run.start - 4), run.start)
        and _BEFORE_PLACE.match(text, run.end)
        and lc.common(value.casefold())
    ):
        # "Vivimos en Molina de Segura", "Wij wonen in Zwolle": the sentence's verb before
        # the place it names, a common word of the language, is no place.
        return True
    if run.type is EntityType.LOCATION and text[run.start - 1 : run.start] == "-" and lc.common(value.casefold()):
        # "die Reha-Maßnahme": a common noun ending a compound, no place.
        return True
    if run.type is EntityType.LOCATION:
        # A town takes no article ("in Tübingen", "à Lyon"); a noun does ("in die
        # Notaufnahme"). Countries and regions with one ("die Schweiz") are public.
        if light:
            return lc.after_determiner(text, run.start) and lc.zipf(value) >= NOUN_ZIPF
        return lc.after_determiner(text, run.start)
    # An organisation often does take one ("bei der Charité"): only a common word
    # of the language is a term ("den Vertrieb"), or one noun by its ending ("ich bin
    # Pflegedienstleitung", "die Stadtverwaltung": a role, an office, no one's name).
    return lc.common(value) or lc.is_negative(value)


def _edges(text: str, lc: Locale, s: Span, *, light: bool = False) -> list[Span]:
    """``s`` without the lower-case words and the negatives at its edges.

    With ``light`` (the languages NER's extent, several words): a word of the
    name elided to its article stays ("Université de l'Essex"), only the listed
    negatives go (a noun's ending says nothing inside a name: "Karls-Universität
    Prag"), and outside German a lower-case word ends a name unless it is a
    function word ("Bibliothèque nationale autrichienne"; not "... de").
    """
    tokens = [(m.start(), m.end()) for m in _WORD.finditer(text, s.start, s.end)]
    light = light and len(tokens) > 1

    def common(a: int, b: int, last: bool) -> bool:
        word = text[a:b]
        bare = word.replace("-", "").replace("'", "").replace("’", "")
        if not bare.isalpha():
            # "en CM2": a school year the language lists, letters and a digit.
            return bare.isalnum() and lc.is_listed_negative(word)
        if not light:
            return word[:1].islower() or lc.is_negative(word)
        if ELIDED_NAME.fullmatch(word):
            return False
        if word[:1].islower():
            return not last or lc.code == "de" or lc.zipf(word) >= FUNCTION_ZIPF
        if not last and lc.code != "de" and not _SENTENCE_START.search(text, max(0, a - 8), a):
            # Outside German a capital inside a sentence starts a name, even on a word the
            # language lists as common: "à la Société Générale", "la Société nationale de
            # sauvetage en mer" (someone's employer).
            return False
        return lc.is_listed_negative(word)

    while tokens and common(*tokens[0], last=False):
        tokens.pop(0)
    while tokens and common(*tokens[-1], last=True):
        tokens.pop()
    if light:
        # "El Banco Santander me cobró": after the name's last capitalized word, a function
        # word begins the sentence's rest ("Parti libéral du Canada" has a capital after
        # its "du"; "Bibliothèque nationale autrichienne" has no function word).
        capitals = [k for k, (a, b) in enumerate(tokens) if text[a].isupper()]
        if capitals:
            for k in range(capitals[-1] + 1, len(tokens)):
                word = text[tokens[k][0] : tokens[k][1]]
                # "Frankfurt am Main seit 2019": a lower-case word before a number ends
                # the name too (the number is the sentence's, a year or a count).
                ends = lc.zipf(word) >= FUNCTION_ZIPF or any(text[a:b].isdigit() for a, b in tokens[k + 1 :])
                if word.isalpha() and word.islower() and ends and word not in _JOINERS:
                    tokens = tokens[:k]
                    break
    if not tokens:
        return []
    return [Span(tokens[0][0], tokens[-1][1], s.type, s.score, dict(s.views))]


#: Words that join the words of a name ("Société nationale de sauvetage", "Universität zu Köln").
_JOINERS = frozenset(
    "de du des del della di da der den van von la le les el los las y e et und zu für voor het "
    "of and for the à au aux".split()
)

#: A generation's suffix after a person's name ("Edward D. Wood jr.", "Nancy Swider-Peltz, Jr.").
_SUFFIX = re.compile(r",?[ \t]+(?:[JjSs]r|[Jj]un|[Ss]en)\b")


#: A house number after its street, as these languages write it: "Allee 17", "straat 263-A".
_HOUSE_NUMBER = re.compile(r"[ \t]+\d{1,4}(?:[ \t]?[a-zA-Z]\b|-[A-Za-z0-9]{1,3}\b)?(?!\d|[.,:/]\d)")


def _with_house_number(text: str, spans: list[Span]) -> list[Span]:
    """A street's name with the house number written after it: the model's bare number
    goes as no identifier, so the street's span takes it in ("Berliner Allee" | "17")."""
    street = lambda s: any(c.isalpha() for c in text[s.start : s.end])  # noqa: E731
    return _taking(text, spans, EntityType.ADDRESS, _HOUSE_NUMBER, street)


_UNIT_GAP = r"[ \t]*,?[ \t]*"


@functools.cache
def _unit_after(code: str) -> re.Pattern[str] | None:
    """The parts of a dwelling a street's line goes on with in ``code``'s language."""
    lc = locale(code)
    if lc is None or lc.address_unit is None:
        return None
    unit = lc.address_unit
    return re.compile(rf"{_UNIT_GAP}(?:{unit})(?:{_UNIT_GAP}(?:{unit}))*(?![\w-])", re.IGNORECASE)


def _joined_addresses(text: str, spans: list[Span]) -> list[Span]:
    """Two pieces of one street's line a space apart, one address ("Pieter" | "Calandlaan
    204": a street named after a person, its given name read apart)."""

    def join(prev: Span, s: Span) -> EntityType | None:
        if prev.type is s.type is EntityType.ADDRESS and re.fullmatch(r"[ \t]+", text[prev.end : s.start]):
            return EntityType.ADDRESS
        return None

    return join_neighbours(text, spans, join)


@functools.lru_cache(maxsize=1)
def _address_label() -> re.Pattern[str]:
    """A form's address key at a line's start and the capitalized words after it."""
    keys = [k for k, kind in field_keys().items() if kind == "ADDRESS"]
    return re.compile(
        rf"(?:^|\n)[ \t]*(?i:{alternation(sorted(keys))})[ \t]*:[ \t]*((?:[A-ZÀ-Ý][\w'’.-]*[ \t]+){{1,3}})$"
    )


def _street_from_label(text: str, spans: list[Span]) -> list[Span]:
    """A street's line right after a form's address key, its first words too: "Adres:
    Pieter Calandlaan 204" (a street named after a person, read from "Calandlaan")."""
    out: list[Span] = []
    for s in spans:
        if s.type is EntityType.ADDRESS and (not out or out[-1].end <= s.start):
            line = text.rfind("\n", 0, s.start) + 1
            m = _address_label().search(text, max(0, line - 1), s.start)
            if m is not None and (not out or out[-1].end <= m.start(1)):
                s = Span(m.start(1), s.end, s.type, s.score, dict(s.views))
        out.append(s)
    return out


def _with_unit(text: str, langs: Languages, spans: list[Span]) -> list[Span]:
    """Each street's address with the floor, flat or building written after it ("Gneisenaustr.
    14, 2. OG links", "27 rue Paul-Bert, 3e étage", "Pieter Calandlaan 204, 3 hoog"): part of
    the address (left out, "3e étage" between two placeholders narrows the dwelling down),
    and what the models took of it ("3." | "OG") goes into it."""
    out: list[Span] = []
    k = 0
    while k < len(spans):
        s = spans[k]
        k += 1
        unit = _unit_after(langs.at(s.start)) if s.type is EntityType.ADDRESS else None
        m = unit.match(text, s.end) if unit is not None else None
        if m is None:
            out.append(s)
            continue
        inside = k
        while inside < len(spans) and spans[inside].end <= m.end():
            inside += 1  # a piece of the unit a model or a rule found: inside it now
        if inside < len(spans) and spans[inside].start < m.end():
            out.append(s)  # the unit runs into another value: leave both as they are
            continue
        k = inside
        out.append(Span(s.start, m.end(), s.type, s.score, dict(s.views)))
    return out


#: A street's line right before a postcode, as a form or a letter writes it: "op de
#: Skilpleats 8, 8601 KM Sneek" (a street's name no list knows, its number, the comma).
_STREET_BEFORE = re.compile(
    r"(?<![\w'’-])((?:[A-ZÀ-Ý][\w'’.-]*[ \t]+){0,2}[A-ZÀ-Ý][\w'’-]{2,}[ \t]+\d{1,4}(?:[ \t]?[a-zA-Z]\b|-\w{1,3})?)"
    r"[ \t]*,[ \t]*$"
)


#: A person's age right after the name, set apart: "mevrouw Hendriks, 95, verslikt zich",
#: "Herr Kaya (92)".
#: (with the language's word for years: "Herrn Weber, 94 Jahre.", "Jan Mooij (94 jaar)")
_AGE_APART = re.compile(
    r"[ \t]*(?:,[ \t]*|\([ \t]*)(\d{1,3})[ \t]*(?:(?:Jahre|jahre|J\.|ans|años|anos|jaar)[ \t]*)?(?=[,;)]|\.(?!\d))"
)


def _age_after_person(text: str, spans: list[Span]) -> list[Span]:
    """A number right after a person's name, set apart by commas or brackets, is that
    person's age ("Onze bewoonster mevrouw Hendriks, 95, verslikt zich"): an age the type
    policy decides (90 and over are identifiers), not a number in clear."""
    out = list(spans)
    for s in spans:
        if s.type is not EntityType.PERSON:
            continue
        m = _AGE_APART.match(text, s.end)
        if m is None or not 0 < int(m.group(1)) <= 120:
            continue
        a, b = m.span(1)
        if any(x.start < b and a < x.end for x in out):
            continue
        out.append(Span(a, b, EntityType.AGE, 0.85, {RULES: 0.85}))
    return sorted(out, key=lambda x: (x.start, x.end))


def _street_before_postcode(text: str, langs: Languages, spans: list[Span]) -> list[Span]:
    """The street line before an address that begins with its postcode (see
    :data:`_STREET_BEFORE`), when nothing was found there: part of the same address. In a
    text without capitals, the street in lower case ("op de wâlden 14, 9231 ab
    surhuisterveen"): its words from the first that is no frequent word of the language
    (an article stays, streets begin with one), its name a word the language hardly writes."""
    out = list(spans)
    cased = None
    for k, s in enumerate(spans):
        lc = locale(langs.at(s.start))
        if s.type is not EntityType.ADDRESS or lc is None or lc.postcode is None:
            continue
        if re.match(lc.postcode + r"\b", text[s.start : s.end]) is None:
            continue
        m = _STREET_BEFORE.search(text, max(0, s.start - 60), s.start)
        a = m.start(1) if m is not None else -1
        if m is None:
            cased = is_cased(text) if cased is None else cased
            if cased or (m := _LOWER_STREET_BEFORE.search(text, max(0, s.start - 60), s.start)) is None:
                continue
            words = list(re.finditer(r"\S+", m.group(1)))
            while len(words) > 2 and words[0].group() not in _STREET_ARTICLES and lc.zipf(words[0].group()) >= 4.0:
                words = words[1:]
            name = words[-2].group()
            if lc.zipf(name) >= RARE_NAME_ZIPF + 1.0 or lc.is_negative(name):
                continue
            a = m.start(1) + words[0].start()
        if k and spans[k - 1].end > a:
            continue
        street = text[a : m.end(1)]
        if any(lc.is_negative(w) for w in street.split() if not w[:1].isdigit() and w.casefold() not in _STREET_ARTICLES):
            continue
        out.append(Span(a, m.end(1), EntityType.ADDRESS, s.score, {RULES: s.score}))
    return sorted(out, key=lambda x: (x.start, x.end))


#: The same street's line in a text typed without capitals: "de wâlden 14, ".
_LOWER_STREET_BEFORE = re.compile(
    r"(?<![\w'’-])((?:[a-zà-ÿ][\w'’.-]*[ \t]+){0,2}[a-zà-ÿ][\w'’-]{2,}[ \t]+\d{1,4}(?:[ \t]?[a-z]\b|-\w{1,3})?)"
    r"[ \t]*,[ \t]*$"
)
#: Articles a street's name may begin with ("de wâlden", "la rambla", "am markt").
_STREET_ARTICLES = frozenset("de het 't la le les el los las am an der den zum zur im".split())


def _companies_typed(text: str, spans: list[Span]) -> list[Span]:
    """A company the lexicon knows by name is an organisation, whatever a model typed it
    ("reclamar a Iberdrola" read as a place): the type policy decides a public company as
    one, and the cloud reads "[ORG_1]" as what it is."""
    from core.lexicon import lexicon

    words = lexicon()
    return [
        Span(s.start, s.end, EntityType.ORG, s.score, dict(s.views))
        if s.type is EntityType.LOCATION
        and words.public_kind(text[s.start : s.end]) in ("company", "brand")
        and text[s.start : s.end].casefold() not in _PLACES_TOO
        else s
        for s in spans
    ]


#: A Dutch name that begins with its article, after "op" or "naar" ("zit op De Regenboog",
#: "gaat naar Het Baken"): a school's, a home's or a club's name, not a person's.
_ARTICLE_NAME = re.compile(r"(?:De|Het|'t)[ \t]+([A-Z][a-z]+)")
_PLACE_PREPOSITION = re.compile(r"\b(?:op|naar)[ \t]+$")


def _places_by_article(text: str, langs: Languages, spans: list[Span]) -> list[Span]:
    """A person's span that is a Dutch name with its article after "op" or "naar", and no
    surname ("De Vries" is one), is an organisation: the school a child goes to."""
    from core.lexicon import lexicon

    words = lexicon()
    out = []
    for s in spans:
        m = _ARTICLE_NAME.fullmatch(text, s.start, s.end)
        if (
            s.type is EntityType.PERSON
            and m is not None
            and langs.at(s.start) == "nl"
            and _PLACE_PREPOSITION.search(text, max(0, s.start - 6), s.start)
            and not words.is_surname(m.group(1).lower())
        ):
            s = Span(s.start, s.end, EntityType.ORG, s.score, dict(s.views))
        out.append(s)
    return out


#: Places that also name a company or a brand of the lexicon: a place first.
_PLACES_TOO = frozenset({"amazon", "orange", "phoenix", "santander", "jaguar", "aldi"})


#: A point of the compass closing a name ("Sparkasse Münsterland Ost", "Amsterdam-Zuid" is
#: one word already, "Berlin Mitte"), as these languages write it.
_DIRECTION = re.compile(
    r"[ \t]+(?:Ost|West|Nord|Süd|Mitte|Oost|Noord|Zuid|Est|Ouest|Sud|Este|Oeste|Norte|Sur|Centro)"
    r"(?![\w-]|[ \t]+[A-ZÀ-Ý])"
)


def _with_direction(text: str, spans: list[Span]) -> list[Span]:
    """Each organisation and place with the point of the compass written after it: part
    of its name (the model's tags stop before it, and "Ost" left in clear beside the
    placeholder tells where the bank is)."""
    out = _taking(text, spans, EntityType.ORG, _DIRECTION, lambda s: True)
    return _taking(text, out, EntityType.LOCATION, _DIRECTION, lambda s: True)


#: A nickname in brackets after a given name, and the surname after it: "Cornelis (Kees)
#: van 't Hof", "Encarnación (Encarni) Sánchez Hurtado".
_NICKNAME = re.compile(r"[ \t]*\(([A-ZÀ-ÖØ-Þ][a-zà-öø-ÿß'’-]+)\)")
_SURNAME_AFTER = re.compile(
    r"[ \t]+((?:(?:[a-z]{1,3}|'t)[ \t]+){0,3}[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿß'’-]+(?:[ \t]+[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿß'’-]+)?)"
)
#: A word this rare in its language may be a nickname no list knows ("Encarni").
_NICKNAME_ZIPF = 3.0


#: A person's other name in brackets after the name: what they are really called ("(eig.
#: marie-luise)", "(on l'appelle nanou)"), a nickname in quotes ("(in der Klasse nur
#: „Luki“)"), the full name in lower case ("(daniel ferrer i soler)").
_OTHER_NAME = re.compile(
    r"[ \t]*\((?:(?P<cue>eig\.|eigentlich|genannt|alias|aka|on[ \t]+l['’]appelle|dite?|"
    # (an article of speech before a nickname: "mi sobrino [PERSON_1] (el chiqui)")
    r"llamad[oa]|le[ \t]+dicen|roepnaam|oftewel|el|la|der|die)[ \t]+)?(?:[^()\n„\"“«]{0,40}?(?P<q>[„\"“«]))?"
    r"(?P<name>[^\W\d_][\w'’-]+(?:[ \t]+[^\W\d_][\w'’-]*){0,3}?)"
    # ... or the words after it that say so: "(Purita para todas)", "(Jojo für alle)".
    rf"(?P<tail>[ \t]+{OTHER_NAME_TAIL})?[“\"”»]?\)"
)


def _other_names_in_brackets(text: str, langs: Languages, spans: list[Span], lexicon: Any) -> list[Span]:
    """The other name a person goes by, in brackets right after their name (see
    :data:`_OTHER_NAME`): after a word that says so, in quotes, or made only of names people
    carry (particles between them), and no word the language never takes for a name."""
    out = list(spans)
    for s in spans:
        if s.type is not EntityType.PERSON:
            continue
        m = _OTHER_NAME.match(text, s.end)
        lc = locale(langs.at(s.start)) if m is not None else None
        if m is None or lc is None:
            continue
        a, b = m.span("name")
        inside = [t for t in spans if t.start < b and a < t.end]
        if any(t.type is not EntityType.PERSON or t.start < a or t.end > b for t in inside):
            continue
        words = m.group("name").split()
        if any(
            lc.is_negative(w) and not (lc.is_particle(w) or w.lower() in (*INNER_PARTICLES, "i", "y"))
            for w in words
        ):
            continue
        # ("daniel ferrer i soler": "i" and "y" join a Catalan's and a Spaniard's surnames)
        parts = [w for w in words if not lc.is_particle(w) and w.lower() not in (*INNER_PARTICLES, "i", "y")]
        names = [
            w
            for w in parts
            if lc.is_known_name(w) or lexicon.is_given(w.lower()) or lexicon.is_surname(w.lower())
        ]
        quoted = m.group("q") is not None and len(words) == 1 and lc.zipf(words[0].lower()) < _NICKNAME_ZIPF
        # After a word that says so, each word a name or one the language hardly writes
        # ("(dit le médecin)" names no one).
        told = (
            (m.group("cue") is not None or m.group("tail") is not None)
            and len(words) <= 3
            and all(w in names or lc.zipf(w.lower()) < _NICKNAME_ZIPF for w in parts)
        )
        # (the given names, then a surname that is also a word: "(maria del carmen espejo)")
        surname_last = (
            len(parts) >= 2
            and all(w in names for w in parts[:-1])
            and lc.zipf(parts[-1].lower()) < SURNAME_AFTER_NAME_ZIPF
        )
        # The person's own given name again, with the surname: "ma fille awa (awa sangaré)".
        again = (
            2 <= len(parts) <= 4
            and parts[0].casefold() == text[s.start : s.end].split()[0].casefold()
            and all(lc.zipf(w.lower()) < SURNAME_AFTER_NAME_ZIPF for w in parts[1:])
        )
        # Two or three words the language hardly writes: a full name ("mn teamleider
        # [PERSON_1] (bartłomiej zając)").
        rare = 2 <= len(parts) <= 3 and all(lc.zipf(w.lower()) < RARE_NAME_ZIPF for w in parts)
        if told or quoted or again or rare or (
            (surname_last or (names and len(names) == len(parts))) and m.group("q") is None
        ):
            out = [t for t in out if t not in inside]
            out.append(Span(a, b, EntityType.PERSON, s.score, dict(s.views)))
    return sorted(out, key=lambda x: (x.start, x.end))


#: A name alone in brackets: "die nieuwe jongen (jochem)", "mi compi el rubio (jesus)".
#: A name alone in brackets, or before a comma there ("mon pere (jean-pierre moreau, 78 ans)").
_BRACKETED = re.compile(r"\((?P<name>[^\W\d_][\w'’-]{2,}(?:[ \t]+[^\W\d_][\w'’-]+){0,3})(?:\)|,[ \t])")
#: The view of a name read from its brackets alone.
BRACKETS_SCORE = 0.9


def _given_names_in_brackets(text: str, langs: Languages, spans: list[Span], lexicon: Any) -> list[Span]:
    """In a message typed without capitals, a given name in brackets after a word that is no
    name (a role, a nickname: "die nieuwe jongen (jochem)", "el rubio (jesus)") is the person's:
    its first word a given name people carry that the language writes less often than
    :data:`LOWER_NAME_ZIPF`, the rest names, particles or words the language hardly writes.
    Brackets no view touched only; a name in brackets after a name is
    :func:`_other_names_in_brackets`'s."""
    if "(" not in text or is_cased(text):
        return spans
    out = list(spans)
    for m in _BRACKETED.finditer(text):
        a, b = m.span("name")
        lc = locale(langs.at(a))
        if lc is None:
            continue
        if any(t.start < b + 1 and a - 1 < t.end for t in spans):
            if any(t.type is EntityType.PERSON and (t.start, t.end) == (a, b) and " " in text[a:b] for t in spans):
                out.extend(_nickname_before(text, m.start(), lc, spans, lexicon))
            continue
        first, *rest = m.group("name").split()
        if not (
            first.islower()
            and not lc.is_negative(first)
            and (lexicon.is_given(first) or lc.is_known_name(first))
            # a given name as frequent as a word counts with a surname after it
            # ("schorsch (georg aumüller)": "georg" 4.7)
            and lc.zipf(first) < (TITLED_NAME_ZIPF if rest else LOWER_NAME_ZIPF)
            and all(
                lc.is_particle(w)
                or (
                    not lc.is_negative(w)
                    and (lc.is_known_name(w) or known_surname(lexicon, w) or lc.zipf(w) < SURNAME_RARE_ZIPF)
                )
                for w in rest
            )
        ):
            continue
        out.append(Span(a, b, EntityType.PERSON, BRACKETS_SCORE, {RULES: BRACKETS_SCORE}))
        if rest:
            out.extend(_nickname_before(text, m.start(), lc, spans, lexicon))
    return sorted(out, key=lambda x: (x.start, x.end))


def _nickname_before(text: str, bracket: int, lc: Locale, spans: Sequence[Span], lexicon: Any) -> list[Span]:
    """The word right before a full name in brackets is that person's nickname: "vom
    schorsch (georg aumüller)", "el rubio (jesús lópez)"; not a function word, a relative's
    or a role's word ("die nieuwe jongen (jochem de vries)"), nor a word as frequent as
    :data:`LOWER_NAME_ZIPF`."""
    m = _WORD_BEFORE_BRACKET.search(text, max(0, bracket - 40), bracket)
    if m is None or any(t.start < m.end(1) and m.start(1) < t.end for t in spans):
        return []
    word = m.group(1)
    fold = word.casefold()
    if (
        lc.is_negative(word)
        or lc.is_particle(word)
        or fold in {r.casefold() for r in (*lc.relations, *lc.roles)}
        or lexicon.public_kind(word) is not None
        or not (lc.zipf(word) < LOWER_NAME_ZIPF or lc.is_known_name(word))
    ):
        return []
    return [Span(m.start(1), m.end(1), EntityType.PERSON, BRACKETS_SCORE, {RULES: BRACKETS_SCORE})]


#: A word in lower case right before an opening bracket.
_WORD_BEFORE_BRACKET = re.compile(r"(?<![\w'’-])([a-zà-öø-ÿßā-ž][\w'’-]{2,})[ \t]*$")


def _with_nickname(text: str, langs: Languages, spans: list[Span], lexicon: Any) -> list[Span]:
    """A person's name with the nickname in brackets after it and the surname after that,
    as one name: the English refinement reads "(Kees)" as a word and "van 't Hof" as
    nothing. The nickname is a name people carry or a word the language does not know
    ("Lotta (6)", "Herr Brandt (Vermieter)" take nothing)."""
    spans = sorted(spans, key=lambda x: x.start)
    out: list[Span] = []
    skip_to = -1
    for k, s in enumerate(spans):
        if s.start < skip_to:
            continue
        m = _NICKNAME.match(text, s.end) if s.type is EntityType.PERSON else None
        # A name that already holds its nickname ("Encarnación (Encarni) Sánchez") may
        # still have a surname after it ("Hurtado").
        inside = _NICKNAME.search(text, s.start, s.end) if s.type is EntityType.PERSON else None
        lc = locale(langs.at(s.start)) if (m or inside) is not None else None
        if lc is None:
            out.append(s)
            continue
        if m is None:
            m = inside
            assert m is not None
        nick = m.group(1)
        known = lc.is_known_name(nick) or lexicon.is_given(nick.lower()) or lexicon.is_surname(nick.lower())
        # Between a given name and a surname with its particle ("Wilhelmina (Willeke) de
        # Jong") a capitalized word in brackets is the nickname however often it is written.
        surname = _SURNAME_AFTER.match(text, max(m.end(), s.end))
        framed = surname is not None and surname.group(1).split()[0].lower() in INNER_PARTICLES
        if lc.is_negative(nick) or not (known or framed or lc.zipf(nick.lower()) < _NICKNAME_ZIPF):
            out.append(s)
            continue
        end = max(m.end(), s.end)
        after = _SURNAME_AFTER.match(text, end)
        if after is not None:
            words = after.group(1).split()
            capitals = [w for w in words if w[:1].isupper()]
            particles_ok = all(w[:1].isupper() or w.lower() in INNER_PARTICLES for w in words)
            # ("Wilhelmina (Willeke) de Jong": "jong" is a word, "Jong" a surname the lists know)
            if particles_ok and not any(
                lc.is_negative(w) and not (lc.is_known_name(w) or lexicon.is_surname(w.lower()))
                for w in capitals
            ):
                end = after.end()
        # The spans the widened name now holds (a model's "Sánchez") are part of it.
        for t in spans[k + 1 :]:
            if t.start >= end:
                break
            if t.type is EntityType.PERSON:
                end = max(end, t.end)
        skip_to = end
        out.append(Span(s.start, end, s.type, s.score, dict(s.views)))
    return out


#: A full name in brackets after a name: "el dueño, paco (francisco jimenez), me ha dicho".
_FULL_NAME_AFTER = re.compile(
    r"[ \t]*\((?:(?:eig\.|eigentlich|alias|dit|dite|née?|geb\.)[ \t]+)?"
    r"((?:[^\W\d_][\w'’-]+)(?:[ \t]+[^\W\d_][\w'’-]+){0,3})[ \t]*[),]"
)


def _after_capital(text: str, start: int) -> bool:
    """Whether the word before ``start`` begins with a capital."""
    words = text[max(0, start - 40) : start].split()
    return bool(words) and words[-1][:1].isupper()


def _bracketed_names(text: str, langs: Languages, spans: list[Span], lexicon: Any) -> list[Span]:
    """The full name in brackets after a person's name ("paco (francisco jimenez)") is
    that person's too, in any case, when each of its words is a name people carry (the
    language's list or the lexicon's) and none is a word that is never a name."""
    out = list(spans)
    for s in spans:
        if s.type is not EntityType.PERSON:
            continue
        m = _FULL_NAME_AFTER.match(text, s.end)
        if m is None or any(t.start < m.end(1) and m.start(1) < t.end for t in spans):
            continue
        lc = locale(langs.at(s.start))
        if lc is None:
            continue
        words = m.group(1).split()
        parts = [p for w in words for p in w.split("-")] if len(words) == 1 else words

        def name(w: str, lc: Locale = lc) -> bool:
            return not lc.is_negative(w) and (
                lc.is_known_name(w) or lexicon.is_given(w.lower()) or lexicon.is_surname(w.lower())
            )

        # Each word a name, particles between ("ignacio del río sanz"), two at least
        # (one hyphenated one: "kalle (eig. karl-heinz)"); an age may follow ("(sebastian
        # fuchs, 46)").
        if (
            len(parts) >= 2
            and name(parts[0])
            and name(parts[-1])
            and all(name(w) or lc.is_particle(w) for w in parts)
        ):
            out.append(Span(m.start(1), m.end(1), EntityType.PERSON, s.score, dict(s.views)))
    return sorted(out, key=lambda x: x.start)


#: Particles a surname begins with, in lower case, then the surname with its capital:
#: "ter Haar", "van der Zwaan", "von der Heydt", "del Río".
_PARTICLES = r"(?:[Vv]an|[Vv]on|der|den|[Tt]er|[Tt]en|te|zu|zur|vom|[Dd]e|del|la|du|des)"
_PARTICLE_SURNAME = re.compile(
    rf"[ \t]+(?:{_PARTICLES}[ \t]+){{1,3}}(?P<name>[A-ZÀ-Þ][a-zß-ÿ]+(?:-[A-ZÀ-Þ][a-zß-ÿ]+)?)(?![\w-])"
)
_INITIAL_SCORE = 0.9
#: An initial and a surname with its particles: "W. ter Borg", "J. van Dijk".
_INITIAL_PARTICLE_SURNAME = re.compile(
    rf"(?<![\w.])[A-Z]\.[ \t]*(?:{_PARTICLES}[ \t]+){{1,3}}[A-ZÀ-Þ][a-zß-ÿ]+(?:-[A-ZÀ-Þ][a-zß-ÿ]+)?(?![\w-])"
)


def _with_particle_surname(text: str, langs: Languages, spans: list[Span], lexicon: Any) -> list[Span]:
    """A person's name with the surname after it that begins with particles ("Joost" |
    "ter Haar": the language's words judge "Haar" a word and cut it off), and an initial
    before such a surname ("W. ter Borg"). Not a place the lexicon knows ("Pedro de
    Madrid": from Madrid), not a word of the language that is never a name ("von Montag")."""

    def surname(word: str, at: int, *, initial: bool = False) -> bool:
        lc = locale(langs.at(at))
        if lc is None:
            return False
        # (after an initial it is a name whatever else it may be: "W. ter Borg")
        if not initial and lexicon.public_kind(word) in ("place", "region", "country", "company"):
            return False
        if lc.code == "de":
            # German capitalizes its nouns: "von Montag", "zu Hause" are no surnames.
            return not lc.is_negative(word) and (lc.is_known_name(word) or lc.zipf(word.casefold()) < NOUN_ZIPF)
        # Elsewhere a capital after a particle is a surname's ("ter Haar", "de la Fuente").
        return True

    out = _taking(
        text,
        spans,
        EntityType.PERSON,
        _PARTICLE_SURNAME,
        lambda s: (m := _PARTICLE_SURNAME.match(text, s.end)) is not None and surname(m.group("name"), s.end),
    )
    extra = [
        Span(m.start(), m.end(), EntityType.PERSON, _INITIAL_SCORE, {RULES: _INITIAL_SCORE})
        for m in _INITIAL_PARTICLE_SURNAME.finditer(text)
        if not any(s.start < m.end() and m.start() < s.end for s in out)
        and surname(m.group().split()[-1], m.start(), initial=True)
    ]
    return sorted(out + extra, key=lambda s: s.start) if extra else out


def _with_suffix(text: str, spans: list[Span]) -> list[Span]:
    """Each person's name with the generation's suffix written after it: it is part of
    the name (the words of a language judge it a lower-case word and cut it off)."""
    return _taking(text, spans, EntityType.PERSON, _SUFFIX, lambda s: True)


def _taking(
    text: str,
    spans: list[Span],
    typ: EntityType,
    after: re.Pattern[str],
    takes: Callable[[Span], bool],
) -> list[Span]:
    """Each span of ``typ`` that ``takes`` allows, widened over ``after`` matched right at
    its end when that stops before the next span."""
    out: list[Span] = []
    skip = -1
    for k, s in enumerate(spans):
        if k == skip:
            continue
        m = after.match(text, s.end) if s.type is typ else None
        nxt = spans[k + 1] if k + 1 < len(spans) else None
        if m is not None and (nxt is None or m.end() <= nxt.start) and takes(s):
            s = Span(s.start, m.end(), s.type, s.score, dict(s.views))
        elif (
            m is not None
            and nxt is not None
            and nxt.type is typ
            and s.end <= nxt.start
            and nxt.end <= m.end()
            and takes(s)
        ):
            # The rest found as a name of its own ("Purificación Gil" | "Torre" of "Gil de la
            # Torre"): one name with it.
            s = Span(s.start, m.end(), s.type, max(s.score, nxt.score), {**nxt.views, **s.views})
            skip = k + 1
        out.append(s)
    return out


def _rejoined(text: str, spans: Sequence[Span]) -> list[Span]:
    """A model's organisation or place cut in two at a joining word, one name again.

    The model's tags sometimes begin a new name inside one ("Max-Planck-Institut für
    Dynamik und" | "Selbstorganisation", "Chambre des" | "communes du Canada"): a name
    does not end on "und" or "des", so a span that ends on a joining word and touches
    the next of its type is one name with it. Two names joined by a word ("die Deutsche
    Bank und die Commerzbank") are two spans that do not touch, and stay two.
    """
    out: list[Span] = []
    for s in sorted(spans, key=lambda x: (x.start, x.end)):
        prev = out[-1] if out else None
        typ = _joined_type(prev, s)
        if (
            prev is not None
            and typ is not None
            and prev.end <= s.start
            and text[prev.end : s.start].strip(" ") == ""
            and (
                text[prev.start : prev.end].rsplit(None, 1)[-1] in _JOINERS
                or text[s.start : s.end].split(None, 1)[0] in _JOINERS
            )
        ):
            views = {k: min(v, s.views.get(k, v)) for k, v in prev.views.items()}
            out[-1] = Span(prev.start, s.end, typ, min(prev.score, s.score), views)
            continue
        out.append(s)
    return out


def _joined_type(a: Span | None, b: Span) -> EntityType | None:
    """The type of two touching pieces of one name: theirs when they agree on an
    organisation or a place; a place when a town's name was read half as an address
    ("Alcalá" | "de Henares"); None when they are no pieces of one name."""
    if a is None:
        return None
    if a.type is b.type and b.type in (EntityType.ORG, EntityType.LOCATION):
        return b.type
    if {a.type, b.type} == {EntityType.ADDRESS, EntityType.LOCATION}:
        return EntityType.LOCATION
    return None


#: The start of a text or of a sentence, up to a position (quotes and brackets allowed).
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\n]|^\W)[\s\"'«“(\[]*$")


def _persons_named_again(text: str, spans: list[Span]) -> list[Span]:
    """A single word the model typed an organisation or a place that is a word of a
    person's name found in the same message is that person again ("la madre de Iker
    Goikoetxea ... Iker no podrá ir"): typed as the person, it gets their placeholder."""
    words = {
        w for s in spans if s.type is EntityType.PERSON for w in text[s.start : s.end].split() if len(w) > 2
    }
    if not words:
        return spans
    return [
        Span(s.start, s.end, EntityType.PERSON, s.score, s.views)
        if s.type in (EntityType.ORG, EntityType.LOCATION) and text[s.start : s.end] in words
        else s
        for s in spans
    ]


_PLACEHOLDER = re.compile(r"\[[A-Z]+(?:_[A-Z]+)*_\d+\]")


def _places_named_by_kind(text: str, langs: Languages, spans: list[Span], lexicon: Any) -> list[Span]:
    """A small place's own name after its kind (``LocaleView.cased_places``: "Talleres
    Arriaga", "Pflegedienst „Pflege mit Herz“") is an organisation, whatever a model typed
    the words: what overlaps it gives way, and the kind's word alone, typed an organisation
    ("Pflegedienst"), stays as written."""
    found: list[Span] = []
    for code in sorted(langs.codes & set(CODES)):
        lv = view(code)
        if lv is not None:
            found += [p for p in lv.cased_places(text, lexicon) if langs.at(p.start) == code]
    # (read again once the name is a placeholder: "beim Pflegedienst „[ORG_1]“")
    named = found + [
        Span(m.start(), m.end(), EntityType.ORG, NAME_SCORE, {}) for m in _PLACEHOLDER.finditer(text)
    ]
    if not named:
        return spans
    out = []
    for s in spans:
        over = [p for p in found if s.start < p.end and p.start < s.end]
        lc = locale(langs.at(s.start))
        kinds = {k.casefold() for k in lc.place_kinds} if lc is not None else set()
        if over:
            before = text[s.start : min(p.start for p in over)].casefold().split()
            if s.type is EntityType.ADDRESS and any(w in kinds for w in before):
                continue  # "groep 4 van OBS De Piramide" read as an address: the school's name
            if all(s.start <= p.start and p.end <= s.end for p in over):
                # Found already, with more around it ("Transportes Ruiz S.L.": the legal name
                # with its kind), typed a place: an organisation.
                found = [p for p in found if p not in over]
                typ = EntityType.ORG if s.type is EntityType.LOCATION else s.type
                out.append(Span(s.start, s.end, typ, s.score, dict(s.views)))
            continue
        if text[s.start : s.end].casefold() in kinds and any(
            0 <= p.start - s.end <= 24
            and all(w in _JOINERS or w in kinds for w in text[s.end : p.start].strip(" \t„\"“«").casefold().split())
            for p in named
        ):
            continue  # the kind's word itself ("Pflegedienst" before its name, "Fontanería y Reformas")
        out.append(s)
    out += [p for p in found if not any(p.start < o.end and o.start < p.end for o in out)]
    return sorted(out, key=lambda x: (x.start, x.end))


#: What stands between two people named together: "Wiebke Petersen, Chidi Okafor", "X und Y".
_BETWEEN_PEOPLE = re.compile(r"[ \t]*(?:,|&|/|\+|und|et|y|e|en|and)[ \t]*")
_AND_PEOPLE = re.compile(r"[ \t]+(?:&|und|et|y|e|en|and)[ \t]+")


def _people_together(text: str, langs: Languages, spans: list[Span], lexicon: Any) -> list[Span]:
    """A given name and one more word typed a place or an organisation, named right beside
    a person ("Erziehungsberechtigte: Wiebke Petersen, Chidi Okafor" before an address
    line): the second person, unless the lexicon knows the words as a public name."""
    out = list(spans)
    for k, s in enumerate(spans):
        if s.type not in (EntityType.LOCATION, EntityType.ORG) or langs.at(s.start) not in CODES:
            continue
        words = text[s.start : s.end].split()
        if not 1 <= len(words) <= 2 or not all(w[:1].isupper() and w[1:].islower() for w in words):
            continue
        if not known_given(lexicon, words[0]):
            continue
        # One word ("Alba", a region too) only with a conjunction between the two: "la
        # custodia de Alba y Hugo"; two ("Chidi Okafor") also in a list.
        between = _AND_PEOPLE if len(words) == 1 else _BETWEEN_PEOPLE
        if len(words) == 2 and (
            lexicon.public_kind(text[s.start : s.end]) or lexicon.public_kind(words[1]) or lexicon.public_kind(words[0])
        ):
            continue
        if len(words) == 1 and lexicon.public_kind(words[0]) in ("country", "company", "brand"):
            continue
        prev = spans[k - 1] if k else None
        nxt = spans[k + 1] if k + 1 < len(spans) else None
        beside = (
            prev is not None
            and prev.type is EntityType.PERSON
            and between.fullmatch(text, prev.end, s.start) is not None
        ) or (
            nxt is not None
            and nxt.type is EntityType.PERSON
            and between.fullmatch(text, s.end, nxt.start) is not None
        )
        if beside:
            out[k] = Span(s.start, s.end, EntityType.PERSON, s.score, dict(s.views))
    return out


#: Initials right before a name, a nickname in brackets between them ("H.J. (Henk)
#: Brouwer", "mevr. E.M. (Esther) de Graaf-Pinas", "J. de Wit").
_INITIALS_BEFORE = re.compile(r"(?<![\w.])((?:[A-ZÀ-Ý]\.[ \t]?){1,4})[ \t]*(?:\([^()\n]{1,24}\)[ \t]*)?$")
_ONE_INITIAL_AFTER = re.compile(
    r"(?:^|[\n,:(]|(?<![\w])(?i:dhr|mevr|hr|fr|mme|mr|mrs|ms|sr|sra|dr|dra|herr|frau|meneer|mevrouw|monsieur|"
    r"madame|señor|señora|don|doña)\.?)[ \t]*$"
)
_INITIALS_OPEN = re.compile(r"(?<![\w.])((?:[A-ZÀ-Ý]\.[ \t]?){1,4})[ \t]*\($")


def _with_initials(text: str, langs: Languages, spans: list[Span]) -> list[Span]:
    """Each person's name with the initials written before it: one name (left out, "H.J."
    beside the placeholder is half the person's name; apart, two placeholders). The
    nickname in brackets after initials takes the surname after it ("E.M. (Esther) de
    Graaf-Pinas")."""
    out: list[Span] = []
    skip_to = -1
    for s in spans:
        if s.start < skip_to:
            continue
        if s.type is EntityType.PERSON and langs.at(s.start) in CODES:
            head = max(0, s.start - 40)
            m = _INITIALS_BEFORE.search(text, head, s.start)
            nick = _INITIALS_OPEN.search(text, head, s.start) if m is None else None
            if nick is not None and text[s.end : s.end + 1] == ")":
                after = _SURNAME_AFTER.match(text, s.end + 1)
                end = after.end() if after is not None else s.end + 1
                # (the surname a model found, whole: "Graaf-Pinas")
                end = max([end, *(t.end for t in spans if t.start < end and t.end > end and t.type is EntityType.PERSON)])
                skip_to = end
                m = nick
                s = Span(s.start, end, s.type, s.score, dict(s.views))
            # One initial may be a sentence's last word ("de 2º B. Iker no podrá"): only at a
            # line's start, after a comma, a colon or a title.
            if (
                m is not None
                and sum(c.isalpha() for c in m.group(1)) == 1
                and _ONE_INITIAL_AFTER.search(text, max(0, m.start(1) - 12), m.start(1)) is None
            ):
                m = None
            if m is not None:
                a = m.start(1)
                # What a model found of the initials and the nickname goes into the name.
                while out and out[-1].start >= a and out[-1].type is EntityType.PERSON:
                    out.pop()
                if not out or out[-1].end <= a:
                    s = Span(a, s.end, s.type, s.score, dict(s.views))
        out.append(s)
    return out


#: A form's "Surname, Given name" after its key or at a line's start ("Toeslagpartner:
#: Nowak-Kowalska, Agnieszka").
_SURNAME_COMMA_GIVEN = re.compile(
    r"(?:^|\n|:)[ \t]*([A-ZÀ-Ý][\w'’]+(?:-[A-ZÀ-Ý][\w'’]+)*),[ \t]*([A-ZÀ-Ý][\w'’-]+)(?=[ \t]*(?:$|\n|[,;(]))"
)


def _surname_comma_given(text: str, langs: Languages, spans: list[Span], lexicon: Any) -> list[Span]:
    """A surname, a comma and a given name the lists know, as a form writes a person: one
    person, whatever a model typed the surname (a place: "Nowak-Kowalska")."""
    out = list(spans)
    for m in _SURNAME_COMMA_GIVEN.finditer(text):
        lc = locale(langs.at(m.start(1)))
        if lc is None or not known_given(lexicon, m.group(2)) or lc.is_negative(m.group(1)):
            continue
        if lexicon.public_kind(m.group(1)) in ("country", "region", "place") and "-" not in m.group(1):
            continue  # "Berlin, Anna": a place and a person
        a, b = m.start(1), m.end(2)
        if any(x.start < b and a < x.end and not (a <= x.start and x.end <= b) for x in out):
            continue
        if any(x.type is EntityType.PERSON and (x.start, x.end) == (a, b) for x in out):
            continue
        out = [x for x in out if not (a <= x.start and x.end <= b)]
        out.append(Span(a, b, EntityType.PERSON, NAME_SCORE, {RULES: NAME_SCORE}))
    return sorted(out, key=lambda x: (x.start, x.end))


#: Initials in lower case and a particle surname: "ene k. de boer", "j.p. van dijk".
_LOWER_INITIALS_SURNAME = re.compile(
    r"(?<![\w.])((?:[a-z]\.[ \t]?){1,3})[ \t]*((?:van[ \t]+(?:der|den|de|het)|van|de|der|den|ter|ten|te|von|le|la)"
    r"[ \t]+([a-zà-ÿ]{3,}(?:-[a-zà-ÿ]+)?))(?![\w'’-])"
)


def _lower_initials_surname(text: str, langs: Languages, spans: list[Span]) -> list[Span]:
    """In a text typed without capitals, initials and a surname with its particle ("de
    ontvanger, ene k. de boer"): a person, unless the initials are an abbreviation of the
    language ("t.a.v. de heer") or the word a noun the language never takes for a name."""
    if is_cased(text):
        return spans
    out = list(spans)
    for m in _LOWER_INITIALS_SURNAME.finditer(text):
        lc = locale(langs.at(m.start()))
        if lc is None:
            continue
        initials = m.group(1).replace(" ", "").rstrip(".").casefold()
        word = m.group(3)
        if initials in lc.abbreviations or lc.is_negative(word) or lc.zipf(word) >= TITLED_NAME_ZIPF:
            continue
        a, b = m.start(1), m.end(2)
        if any(x.start < b and a < x.end for x in out if not (a <= x.start and x.end <= b)):
            continue
        out = [x for x in out if not (a <= x.start and x.end <= b)]
        out.append(Span(a, b, EntityType.PERSON, NAME_SCORE, {RULES: NAME_SCORE}))
    return sorted(out, key=lambda x: (x.start, x.end))


def _surnames_again(text: str, langs: Languages, spans: list[Span], lexicon: Any) -> list[Span]:
    """The surname of a person found by their full name, written again where nothing was
    found: that person or one of their family ("Herr Wolf-Dieter Kühn, Sohn des
    verstorbenen Egon Kühn"), with the given name or the title right before it. A surname
    that is also a word ("Kühn", bold; "Koch", cook) is found only when the model saw it
    beside a given name; in the locales' parts, capitalized, outside every other span."""
    surnames = set()
    for s in spans:
        words = text[s.start : s.end].split()
        if s.type is EntityType.PERSON and len(words) >= 2 and langs.at(s.start) in CODES:
            last = words[-1].strip(".,;:()")
            if len(last) >= 3 and last[:1].isupper() and not lexicon.public_kind(last):
                surnames.add(last)
    if not surnames:
        return spans
    out = list(spans)
    pattern = re.compile(rf"(?<![\w'’-])(?:{alternation(sorted(surnames))})(?![\w'’-])")
    for m in pattern.finditer(text):
        a, b = m.span()
        lc = locale(langs.at(a))
        if lc is None or any(s.start < b and a < s.end for s in out):
            continue
        before = re.search(r"([A-ZÀ-Ý][\w'’-]+\.?)[ \t]+$", text[max(0, a - 30) : a])
        if before is not None:
            word = before.group(1)
            title = word.strip(".").casefold() in {t.strip(".").casefold() for t in lc.titles}
            if known_given(lexicon, word.strip(".")) or title:
                a -= len(before.group(0))
        out.append(Span(a, b, EntityType.PERSON, NAME_SCORE, {RULES: NAME_SCORE}))
    return sorted(out, key=lambda x: (x.start, x.end))


def _has_known_name(text: str, run: Span, lc: Locale) -> bool:
    return any(lc.is_known_name(w.strip(".,")) for w in text[run.start : run.end].split())


def _disjoint(spans: Sequence[Span]) -> list[Span]:
    """The longest of each group of overlapping spans."""
    out: list[Span] = []
    for s in sorted(spans, key=lambda s: (s.start, -(s.end - s.start), -s.score)):
        if out and s.start < out[-1].end:
            continue
        out.append(s)
    return out


def _overlaps(a: Span, b: Span) -> bool:
    return a.start < b.end and b.start < a.end


def _runs(text: str, lang: str, s: Span, *, foreign: bool = False) -> list[Span]:
    lv = view(lang)
    if lv is None:
        return []
    return [
        Span(a, b, s.type, s.score, dict(s.views))
        for a, b in lv.name_runs(text, s.start, s.end, leading_particles=False, foreign=foreign)
    ]


def _all_negative(value: str, lang: str) -> bool:
    """Every word of ``value`` is one the language's locale never takes for a name."""
    lc = locale(lang)
    return lc is not None and all(lc.is_negative(w) for w in value.split())


def _outside(text: str, s: Span, zones: Sequence[tuple[int, int]]) -> list[Span]:
    """The pieces of ``s`` outside ``zones`` that still hold a letter or a digit."""
    pieces = [(s.start, s.end)]
    for za, zb in zones:
        nxt = []
        for a, b in pieces:
            if zb <= a or b <= za:
                nxt.append((a, b))
                continue
            if a < za:
                nxt.append((a, za))
            if zb < b:
                nxt.append((zb, b))
        pieces = nxt
    out = []
    for a, b in pieces:
        while a < b and not text[a].isalnum():
            a += 1
        while b > a and not text[b - 1].isalnum():
            b -= 1
        if a < b:
            out.append(Span(a, b, s.type, s.score, dict(s.views)))
    return out
