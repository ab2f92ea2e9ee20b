"""What a locale is: word tables, pattern rules with validators, keep zones, abbreviations.

A locale is data: each language's folder (``core/locales/de``...) builds one
:class:`Locale` from its tables and its own recognizers, and
:class:`LocaleView` turns it into spans. Adding a language is adding a folder
and one line in :mod:`core.locales`.

The spans a locale proposes:

* **formats** (:attr:`Locale.rules` and presidio-analyzer's country-specific
  recognizers): national and tax numbers with their checksums, phone numbers,
  postcodes, street addresses, dates with month names, IBANs;
* **names in context**: a title ("Frau Dr.", "le docteur", "señora", "mevrouw"),
  a relation word ("Vater", "mon fils", "mi jefe", "huisarts"), an introduction
  ("ich heiße", "je m'appelle", "me llamo", "mijn naam is"), a greeting or a
  closing followed by capitalized words, with the surname particles of the
  language kept inside the name ("van der Berg", "de Vries", "Ruiz Delgado").

And what it rules out: :meth:`Locale.is_negative` words (greetings, function
words, months, relation words, titles) are never names, and
:attr:`Locale.zones` (laws and their articles, money, quantities with decimal
commas) are never private.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from core.domain import typed_plain
from core.entities import EntityType
from core.spans import Span

#: The ``Span.views`` key of every locale span: it is the rules view's evidence.
VIEW = "rules"
#: A name found in context (after a title, a relation word, an introduction):
#: above the NER's scores, so that the merged span is a person.
NAME_SCORE = 0.97

#: A word at least this frequent (Zipf) in its language is a common word: a
#: one-word guess of the English NER that is a common word and no known name
#: is dropped ("Kredit" 4.2, "Sturz" 4.0; "Weber" 4.4 is a known name).
COMMON_ZIPF = 4.0
#: A word at least this frequent is one of the language's function words ("und",
#: "de", "voor"; "nationale" 5.2 and "stad" 5.7 are not): the end of a name that
#: holds lower-case words ("Parti libéral du Canada") is never one.
FUNCTION_ZIPF = 6.0
#: A word this frequent after an article is a noun of the language, not a place
#: ("in die Notaufnahme" 3.5; "am Sambesi" 2.2).
NOUN_ZIPF = 3.0
#: Surname particles of every locale: a name inside a text of another language
#: keeps them ("Daniel Muñoz de la Nava" in a Dutch text). Conjunctions ("y", "i")
#: and words that are particles in one language only ("op", "te", "het") are not here.
INNER_PARTICLES = frozenset(
    {"von", "van", "der", "den", "zu", "zur", "vom", "de", "di", "da", "del", "du", "des",
     "la", "las", "los", "le", "ter", "ten", "'t", "dos", "das", "do"}
)
#: The words that elide before a vowel ("l'article", "J'habite", "qu'il", "dell'anno"); a
#: name's own apostrophe is none ("Eto'o", "Ng'ang'a").
ELISIONS = frozenset(
    "l d j m n s t c qu jusqu lorsqu puisqu quoiqu presqu quelqu un dell all dall nell sull "
    "quell quest".split()
)
#: A lower-case prefix joined to a capitalized name word: "d'Agincourt", "al-Maschani".
ELIDED_NAME = re.compile(r"[a-zà-ÿ]{1,3}['’-][A-ZÀ-ÖØ-Þ]\w*")


def unaccented(word: str) -> str:
    """A word without its accents ("wójcik" -> "wojcik"): the lexicon's lists of names
    are mostly written in ASCII."""
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def known_given(lexicon: Any, word: str) -> bool:
    """Whether the lexicon holds ``word`` as a given name, with its accents or without."""
    return bool(lexicon.is_given(word) or lexicon.is_given(unaccented(word)))


def known_surname(lexicon: Any, word: str) -> bool:
    """Whether the lexicon holds ``word`` as a surname, with its accents or without."""
    return bool(lexicon.is_surname(word) or lexicon.is_surname(unaccented(word)))


#: One capitalized word of a name (hyphenated first names and surnames too), with the
#: letters of Latin Extended-A inside it ("Oğuz", "Aydın", "Wiśniewska", "Dvořák").
NAME_WORD = (
    r"[A-ZÀ-ÖØ-Þ\u0100-\u017e][a-zà-öø-ÿß\u0100-\u017f]+"
    r"(?:[-'’][A-ZÀ-ÖØ-Þa-zà-öø-ÿß\u0100-\u017f]+)*"
)
#: A word in lower case, and one with the spaces after it (for names typed in lower case).
#: A capitalized word inside a sentence: a letter or a comma and a space before it.
_INNER_CAPITAL = re.compile(
    r"(?<![\w'’-])(?P<before>[a-zà-öø-ÿ]+)[ \t]([A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ]{2,})(?![\w'’-])(?![ \t]+[A-ZÀ-ÖØ-Þ])"
)
#: Words after which a capitalized word is a place or a firm as often as a person ("chez
#: Dupont", "in Ede", "de Getafe", "bij Albert").
_PLACE_WORDS = frozenset(
    "chez à a au aux en in de del du des d van bij op te uit naar la le les el los las het der den "
    "aan voor sur dans por para con y et und und of from at to near bei nach aus von zu".split()
)
#: Such a name is no word of the language this frequent.
INNER_NAME_ZIPF = 4.5
#: A word after a postcode this rare in the language is its town ("clisson" 2.7; "12000
#: euros", "10000 schritte" 3.3, "50000 visiteurs" 3.4 are counts).
TOWN_ZIPF = 3.0
#: Titles written as abbreviations, never a word of their language ("mme", "sr.", "mevr.").
_ABBREVIATED_TITLES = frozenset("mme mlle dr dra sr sra srta mevr dhr hr fr prof".split())
#: Articles that begin a town's name ("A Coruña", "Le Havre", "Den Haag").
_TOWN_ARTICLES = frozenset("a la le el les los den 's".split())
#: The words after a nickname in brackets that say whom it is for: "(Purita para todas)",
#: "(Jojo für alle)", "(Nanou pour les intimes)", "(Kees voor vrienden)".
OTHER_NAME_TAIL = (
    r"(?:para[ \t]+(?:todos|todas|los[ \t]+amigos|la[ \t]+familia)|"
    r"pour[ \t]+(?:les[ \t]+intimes|tout[ \t]+le[ \t]+monde|les[ \t]+amis)|"
    r"für[ \t]+(?:alle|freunde)|voor[ \t]+(?:iedereen|vrienden))"
)
#: Words before a place's own name that belong to it: a saint's ("residencia san anton"),
#: a house's ("bar casa fermin", "restaurant can roca").
_NAME_LEADS = frozenset("san santa sant santo saint sainte st ste sankt sint casa can".split())
#: The words of a family firm's name ("hermanos ortega", "gebroeders bos", "frères martin").
_FAMILY_FIRM = frozenset("hermanos hnos hijos frères freres gebrüder gebr gebroeders zonen fils".split())
#: A word of a place's own name with its capital ("Pins", "d'Or", "Croix-Rousse").
_CASED_WORD = r"(?:[A-ZÀ-ÖØ-Þ][\w-]*(?:['’][A-ZÀ-ÖØ-Þ][\w-]*)?|d['’][A-ZÀ-ÖØ-Þ][\w-]*)"
#: The small words between the words of such a name ("Fontanería y Reformas Quiles").
_CASED_JOIN = r"(?:de[ \t]+la|de|del|du|des|la|las|los|el|y|e|et|und|mit|van|der|den|het|'t)"
LOWER_WORD = r"(?:[a-zà-öø-ÿßā-ž]{2,}|[a-zà-öø-ÿßā-ž](?=['’][a-zà-öø-ÿßā-ž]))(?:[-'’][a-zà-öø-ÿßā-ž]+)*"
_LOWER_TOKEN = re.compile(rf"({LOWER_WORD})([ \t]+)?")
#: A second writer's name after the first's at a message's end: " en jelmer", " & tom".
_SECOND_SIGNER = re.compile(
    r"[ \t]*(?:&|\+|en|und|u\.|et|y|and|e)[ \t]+([a-zà-öø-ÿßā-ž]{2,})(?=(?:[ \t]+[a-zà-öø-ÿßā-ž'’-]{2,}){0,2}[ \t]*[.!]?[ \t]*\Z)"
)
#: A word in lower case this frequent in the language is a word there, not a name
#: ("laufen", "piso"); a given name as frequent as "sergio" (4.3) or "kees" still counts.
LOWER_NAME_ZIPF = 4.5
#: After a title a name may be this frequent a word ("dr. kaiser" 4.7, "la doctora paz" 5.3;
#: "will" 6.0 is German's "wants"); a surname after a given name this frequent ("wolf" 4.6).
TITLED_NAME_ZIPF = 5.5
SURNAME_AFTER_NAME_ZIPF = 5.0
#: ... and one set apart after its title ("dr petit,").
TITLED_APART_ZIPF = 6.5
_APART = re.compile(r"[ \t]*(?:[,;)]|\Z)")
#: A word and an age in brackets after it: "pip (2)", "léo (4 ans)", "mia (7 jahre)".
_AGED_AFTER = re.compile(rf"({LOWER_WORD})[ \t]*\([ \t]*\d{{1,2}}(?:[ \t]*[^\W\d_]{{1,5}})?[ \t]*\)")
#: A name closed by a comma with more of the sentence after it.
_CLOSED = re.compile(r"[ \t]*,[ \t]+[^\W\d_]")
#: A word this rare in the language after a relation word is a name ("conchi" 2.2).
RARE_NAME_ZIPF = 2.5
#: The part after "n'" or "d'" of a surname after a title is rarer than this ("diaye" 0,
#: "souza" 2.7); the nouns and verbs an elision comes before are not ("astreinte" 3.05).
_ELIDED_SURNAME_ZIPF = 3.0
#: ... and after a closing at the message's end ("vg jojo" 3.2), or set apart by commas
#: after a relation word ("meine kollegin, die jacky," 3.05).
CLOSING_NAME_ZIPF = 3.5
#: Words between a relation word and an apposition's comma are this frequent at least
#: ("del consultorio"; not a surname: "docteur benaïm, rhumatologue").
QUALIFIER_ZIPF = 3.0
#: ... and none of these: a conjunction or a pronoun ends the relative's phrase ("mi novio
#: y yo, localizador").
_NOT_QUALIFIERS = frozenset(
    "y e o u und oder et ou en of and yo ich je ik moi mij me él ella er sie il elle hij zij "
    "wir nous nosotros we".split()
)
#: "Is" and "is called" between a relation word or a role and a name, in the four
#: languages as people type them ("c" for "c'est" in a text message).
_COPULAS = (
    "c'est", "c’est", "c", "est", "s'appelle", "s’appelle", "ist", "heißt", "heisst", "hoaßt",
    "es", "se llama", "is", "heet",
)
#: A word this rare after a given name is its surname ("johanna brüggemann" 2.9).
SURNAME_RARE_ZIPF = 3.0
#: A given name alone in a lower-case message counts when the language writes it this
#: rarely as a word ("sandra" 4.0, "nathan" 4.0; not "paz" 5.3, "rose" 4.7, "jan" 5.1).
LOWER_GIVEN_ZIPF = 4.2
#: A name in lower case after a spoken article ("a la encarni" 1.6, "vom schorsch" 2.8) is
#: one the language writes at most this often as a word.
ARTICLE_NAME_ZIPF = 3.0
_LOWER_WORD_ALONE = re.compile(rf"(?<![\w'’-]){LOWER_WORD}(?![\w'’-])")
#: A title this frequent as a word ("me" 6.3, "m" 6.3; "frau" 5.7, "dr" 4.6) needs its dot.
TITLE_WORD_ZIPF = 6.0
#: A word after a place's kind this rare in the language is its name ("barbastro", "vaart").
PLACE_NAME_ZIPF = 3.5
PLACE_AFTER_ARTICLE_ZIPF = 5.0
_TOKEN = re.compile(r"[\w'’.-]+|\S")
#: A word with its capital.
_CAPITALIZED = re.compile(r"(?<![\w'’-])[A-ZÀ-Ý][\w'’-]*")


@dataclass(frozen=True)
class Rule:
    """A pattern whose ``group`` is the private part; ``validate`` checks the group's text."""

    type: EntityType
    pattern: str
    group: int = 0
    score: float = 0.9
    flags: int = re.IGNORECASE
    validate: Callable[[str], bool] | None = None


def words(text: str) -> frozenset[str]:
    """A word table from whitespace-separated words (case-folded)."""
    return frozenset(w.casefold() for w in text.split())


def alternation(items: Iterable[str], *, elongated: bool = False) -> str:
    """A regex alternation of literal phrases, longest first (spaces match any whitespace).
    Each phrase of four letters or more also as typed without its accents ("pere" for
    "père"): chat drops them. ``elongated``: each letter may be typed again and again, as
    chat stretches a closing ("graciaas", "merciii")."""
    phrases = {i.strip() for i in items if i.strip()}
    phrases |= {u for u in map(typed_plain, phrases) if len(u) >= 4}
    ordered = sorted(phrases, key=len, reverse=True)
    if elongated:
        return "(?:" + "|".join(
            "".join(re.escape(c) + "+" if c.isalpha() else r"\s+" if c == " " else re.escape(c) for c in i)
            for i in ordered
        ) + ")"
    return "(?:" + "|".join(re.escape(i).replace(r"\ ", r"\s+") for i in ordered) + ")"


@dataclass
class Locale:
    """One language's tables and rules (see the module docstring)."""

    code: str
    #: Words that are never (part of) a name, case-folded: greetings, function
    #: words, months and days, relation words, common nouns of the domains.
    negatives: frozenset[str]
    #: Titles that lead a name ("Frau", "Dr", "mevrouw"), without their dot.
    titles: Sequence[str]
    #: Relation words after which a name follows ("Vater", "fils", "jefe", "huisarts").
    relations: Sequence[str]
    #: Lower-case particles inside surnames ("van", "der", "de", "del").
    particles: Sequence[str]
    #: Phrases after which the writer's name follows ("ich heiße", "me llamo").
    intros: Sequence[str]
    #: Greetings that open a letter ("Liebe", "Beste", "Bonjour", "Hola").
    greetings: Sequence[str]
    #: Closings after which the signature follows on the next line.
    closings: Sequence[str]
    #: Month names (full and abbreviated), for dates (the full names are among
    #: the negatives; "Jan" is a first name too).
    months: Sequence[str]
    #: Format rules of this language and country.
    rules: Sequence[Rule]
    #: Stretches that are never private (laws, money, quantities); matched with
    #: case (use ``(?i:...)`` where case does not matter).
    zones: Sequence[str]
    #: Abbreviations that a dot does not end a sentence after (case-folded, no dot).
    abbreviations: frozenset[str]
    #: Endings of common nouns (German capitalizes every noun), never a one-word name.
    noun_suffixes: tuple[str, ...] = ()
    #: presidio-analyzer recognizers of the country (built on first use).
    presidio: Callable[[], list[Any]] = field(default=lambda: [])
    #: A file of first names and surnames, one a line (``#`` starts a comment).
    names_file: Path | None = None
    #: Words before a noun ("die", "einen", "im"): a capitalized word after one
    #: of them (adjectives may come between) is a noun, not a name. German only:
    #: elsewhere nouns are not capitalized, and "de" starts Dutch surnames.
    determiners: Sequence[str] = ()
    #: Kinds of a small place of care or business whose own name follows, as typed in lower
    #: case ("centro de salud", "gezondheidscentrum", "maison de santé", "kapsalon").
    place_kinds: Sequence[str] = ()
    #: Words between such a kind and its name ("de", "du", "van", "het").
    place_links: Sequence[str] = ()
    #: Those of them that are articles: the name follows ("apotheek het witte kruis"), and
    #: may be a word of the language as frequent as "vaart".
    place_articles: Sequence[str] = ()
    #: A postcode of the country ("\\d{5}", "\\d{4} ?[A-Za-z]{2}"): before a town any list
    #: knows it is an address in any case ("24105 kiel", "15003 A Coruña").
    postcode: str | None = None
    #: A street line as typed in lower case, the house number with it ("12 allee des pins",
    #: "lange nieuwstraat 44-bis"): read only in a text without capitals, where the
    #: rules' capitals are missing.
    lower_street: str | None = None
    #: Which of those lines are streets in a text written with capitals too, typed lower
    #: ("in der schmiedgasse 9", "au 38 bd de la padouane"): the street's kind is no word
    #: people write before or after a number otherwise (matched at the line's start).
    cased_street: str | None = None
    #: Words a town follows as people type them, lower case and unaccented too ("a" for
    #: "à", "de"): in a health message a town there is one the norm protects
    #: (:meth:`core.policy.TypePolicy.sweep`).
    town_before: Sequence[str] = ()
    #: Particles the language writes only inside surnames ("van der", "ter", "ten" in
    #: Dutch; "von der" is also "from the" in German): a word after them and a title is
    #: a surname however often the language writes it ("meneer van der poel").
    name_particles: frozenset[str] = frozenset()
    #: Endings of the language's adjectives and participles: a word with one after a
    #: relation word describes the relative ("mi suegra jubilada", "ma mère âgée").
    describing_endings: tuple[str, ...] = ()
    #: A part of a dwelling written beside its street as this language writes it (a floor,
    #: a flat, a building, a staircase: "2. OG links", "3e étage", "3 hoog", "4º B"): part
    #: of the address, case-insensitive.
    address_unit: str | None = None
    #: Articles people put before a given name in speech ("die jacky", "la yoana", "el
    #: rubio"): after a relation word and a comma the name may follow one
    #: ("meine kollegin, die jacky,").
    person_articles: Sequence[str] = ()
    #: A preposition joined with the article a name may follow in speech ("vom schorsch",
    #: "beim sepp"), beside :attr:`person_articles`.
    name_contractions: Sequence[str] = ()
    #: People named by their role or kin without a possessive ("kollegin", "enfermera",
    #: "eigenaar", "patron"): with the relation words, before a name set apart by a comma.
    roles: Sequence[str] = ()
    #: The country's public bodies by name ("Guardia Civil", "Belastingdienst"): they name
    #: no one and stay as written, in any case (a zone of their own).
    public_bodies: Sequence[str] = ()

    def __post_init__(self) -> None:
        titles = {t.casefold() for t in self.titles}
        self.negatives = (
            self.negatives
            | titles
            | {w.casefold() for phrase in self.relations for w in phrase.split()}
            | {w.casefold() for phrase in self.greetings for w in phrase.split()}
        )
        self._particles = frozenset(p.casefold() for p in self.particles)
        self._determiner = (
            re.compile(
                rf"(?<![\w-])(?i:{alternation(self.determiners)})\s+(?:[a-zäöüßàâçéèêëîïôûùüÿñæœ]+\s+){{0,2}}$"
            )
            if self.determiners
            else None
        )

    @cached_property
    def names(self) -> frozenset[str]:
        """First names and surnames of the language (case-folded)."""
        if self.names_file is None:
            return frozenset()
        lines = self.names_file.read_text("utf-8").splitlines()
        return frozenset(n.strip().casefold() for n in lines if n.strip() and not n.startswith("#"))

    def is_known_name(self, word: str) -> bool:
        return word.casefold() in self.names

    def common(self, word: str) -> bool:
        """Is ``word`` a common word of the language (Zipf frequency :data:`COMMON_ZIPF` or more)?"""
        return self.zipf(word) >= COMMON_ZIPF

    def after_determiner(self, text: str, start: int) -> bool:
        """Does an article or a possessive (and adjectives) come right before ``start``?"""
        if self._determiner is None:
            return False
        return self._determiner.search(text, max(0, start - 60), start) is not None

    def is_negative(self, word: str) -> bool:
        """Is ``word`` never a name (or the start of one) in this language?"""
        w = word.strip(".,;:!?'’\"()").casefold()
        if w in self.negatives:
            return True
        # An elided article or pronoun before a common word: "J'habite", "l'article".
        head, sep, tail = word.replace("’", "'").rpartition("'")
        if sep and head.casefold() in ELISIONS and tail[:1].islower():
            return True
        return (
            bool(self.noun_suffixes)
            and len(w) > 6
            # a genitive's "s" or "es" after the ending too: "wegen eines Arzttermins"
            and any(v.endswith(self.noun_suffixes) for v in (w, w[:-1] if w.endswith("s") else w, w[:-2] if w.endswith("es") else w))
            and w not in self.names  # "Albrecht" ends like "Recht" but is a name
        )

    def is_particle(self, word: str) -> bool:
        return word.casefold() in self._particles

    def is_listed_negative(self, word: str) -> bool:
        """Is ``word`` one of the listed negatives (no endings, no elision rule)?"""
        return word.strip(".,;:!?'’\"()").casefold() in self.negatives

    def zipf(self, word: str) -> float:
        from wordfreq import zipf_frequency

        return float(zipf_frequency(word, self.code))

    @cached_property
    def public_places(self) -> frozenset[str]:
        """Countries and their subdivisions named in this language (case-folded).

        From pycountry's ISO 3166 names and their translations ("Niederlande",
        "Argentinië", "Bayern"): a public place, never a common noun.
        """
        import gettext

        import pycountry

        def names(domain: str, records: Any, attrs: Sequence[str]) -> set[str]:
            try:
                tr: gettext.NullTranslations = gettext.translation(
                    domain, pycountry.LOCALES_DIR, languages=[self.code]
                )
            except OSError:
                tr = gettext.NullTranslations()
            out: set[str] = set()
            for rec in records:
                for attr in attrs:
                    value = getattr(rec, attr, None)
                    if value:
                        out.add(value.casefold())
                        out.add(tr.gettext(value).casefold())
            return out

        return frozenset(
            names("iso3166-1", pycountry.countries, ("name", "common_name", "official_name"))
            | names("iso3166-2", pycountry.subdivisions, ("name",))
        )

    @property
    def name_pattern(self) -> str:
        """A name: capitalized words, surname particles allowed between and before them."""
        part = rf"(?:(?i:{alternation(self.particles)})\s+)"
        return rf"(?:{part}{{0,2}}{NAME_WORD}(?:[ \t]+{part}{{0,3}}{NAME_WORD}){{0,3}})"


class LocaleView:
    """The spans one :class:`Locale` proposes for a text (see the module docstring)."""

    def __init__(self, locale: Locale) -> None:
        self.locale = locale
        self._lock = threading.Lock()
        self._recognizers: list[Any] | None = None
        lc = locale
        name = lc.name_pattern
        title = rf"(?i:{alternation(lc.titles)})\.?"
        cased = re.MULTILINE
        self._rules = [(r, re.compile(r.pattern, r.flags | re.MULTILINE)) for r in lc.rules]
        self._names = [
            # A title (or two) before a name: "Frau Dr. Weber", "mevrouw De Vries".
            re.compile(rf"(?<![\w-]){title}(?:\s+{title})*\s+({name})", cased),
            # A relation word before a name: "mein Vater Klaus", "mi jefe, Javier Ortega".
            re.compile(
                rf"(?<![\w-])(?i:{alternation(lc.relations)})\s*,?\s+(?:{title}\s+)*({name})",
                cased,
            ),
            re.compile(
                rf"(?<![\w-])(?i:{alternation(lc.intros)})\s+(?:{title}\s+)*({name})", cased
            ),
            # A role set apart by a comma before a name: "volgens de eigenaar, Kees Verhoef:".
            *(
                [re.compile(rf"(?<![\w-])(?i:{alternation(lc.roles)})\s*,\s+(?:{title}\s+)*({name})", cased)]
                if lc.roles
                else []
            ),
            # A greeting at the start of a line: "Beste Jan,", "Liebe Frau Schmidt,".
            re.compile(
                rf"^[ \t]*(?i:{alternation(lc.greetings)})[ \t]+(?:{title}[ \t]+)*({name})", cased
            ),
            # The signature on the line after a closing, or after its comma at the end.
            re.compile(
                rf"(?i:{alternation(lc.closings)})[ \t]*(?:[,.!]?[ \t]*\r?\n|,)[ \t]*({name})[ \t]*$",
                cased,
            ),
        ]
        bodies = [rf"(?<![\w-])(?i:{alternation(lc.public_bodies)})(?![\w-])"] if lc.public_bodies else []
        self._zones = [re.compile(z, re.MULTILINE) for z in [*lc.zones, *bodies]]
        #: Another name joined to one: ", Léa", " et Léa", " und Mia", " y Lucía", " en Daan".
        self._joined_name = re.compile(rf"(?:[ \t]*,[ \t]*|[ \t]+(?:et|und|y|e|en|and|&)[ \t]+)({NAME_WORD})")
        self._place_kinds = (
            re.compile(
                rf"(?<![\w-]){alternation(lc.place_kinds)}[ \t]+"
                rf"(?:{alternation(lc.place_links)}[ \t]+)?(?={LOWER_WORD})"
                if lc.place_links
                else rf"(?<![\w-]){alternation(lc.place_kinds)}[ \t]+(?={LOWER_WORD})"
            )
            if lc.place_kinds
            else None
        )
        # A postcode and the words after it that may be its town ("45879 gelsenkirchen",
        # "15003 A Coruña", "3512 pg utrecht").
        self._postcode = (
            re.compile(
                rf"(?<![\w.,/-])(?:{lc.postcode})[ \t]+(?P<town>(?:(?:a|la|le|el|les|los|den|'s)[ \t]+)?"
                r"[^\W\d_][\w'’-]*(?:[ \t][^\W\d_][\w'’-]*){0,2})",
                re.IGNORECASE,
            )
            if lc.postcode
            else None
        )
        self._lower_street = re.compile(lc.lower_street) if lc.lower_street else None
        self._cased_street = re.compile(lc.cased_street) if lc.cased_street else None
        articles = [*lc.person_articles, *lc.name_contractions]
        self._article_name = (
            re.compile(rf"(?<![\w'’-])(?i:{alternation(articles)})[ \t]+({LOWER_WORD})(?![\w'’-])")
            if articles
            else None
        )
        # The same contexts before a name written in lower case ("mon patron m. garnier",
        # "mijn buurman kees van der laan"): see :meth:`lower_names`.
        self._cased_places = (
            re.compile(
                rf"(?<![\w-])(?i:{alternation(lc.place_kinds)})"
                rf"(?:[ \t]+(?P<link>(?i:{alternation(lc.place_links)})))?[ \t]+"
                rf"(?:[„\"“«][ \t]*(?P<quoted>[^\"“”„«»\n]{{2,40}}?)[ \t]*[“\"”»]"
                rf"|(?P<name>{_CASED_WORD}(?:[ \t]+(?:{_CASED_JOIN}[ \t]+)?{_CASED_WORD}){{0,3}}))"
            )
            if lc.place_kinds
            else None
        )
        relation = rf"(?<![\w-])(?i:{alternation(lc.relations)})\s*,?\s+(?:{title}\s+)*"
        # A name in apposition: the relation word (a compound's last part too:
        # "azubi-kollegin"), up to four words that say more of the relative, a comma, an
        # article of speech: "la enfermera del consultorio, rocio,", "de eigenaar, gert-jan,",
        # "meine azubi-kollegin, die jacky,".
        article = (
            rf"(?:(?i:{alternation(lc.person_articles)})[ \t]+)?" if lc.person_articles else ""
        )
        apposition = (
            rf"(?<![\w])(?:[^\W\d_]+-)?(?i:{alternation([*lc.relations, *lc.roles])})"
            rf"(?P<qual>(?:[ \t]+[^\W\d_][\w'’-]*){{0,4}}?)[ \t]*,[ \t]+{article}(?:{title}\s+)*"
        )
        self._relation_before = re.compile(rf"(?:{relation}|{apposition})$")
        self._lower_contexts = [
            re.compile(rf"(?<![\w-]){title}(?:\s+{title})*\s+(?={LOWER_WORD})"),
            re.compile(rf"{relation}(?={LOWER_WORD})"),
            re.compile(rf"(?<![\w-])(?i:{alternation(lc.intros)})\s+(?:{title}\s+)*(?={LOWER_WORD})"),
            # A closing typed in lower case, the writer's name after it at the message's end:
            # "mvg bart", "lg anna & tom", "saludos, maite".
            re.compile(
                # (the name on the next line: "gracias\nnere (nerea abad)")
                rf"(?<![\w-])(?i:{alternation(lc.closings, elongated=True)})[ \t]*[,.!]{{0,3}}(?:[ \t]*\n[ \t]*|[ \t]+)"
                rf"(?={LOWER_WORD}(?:[ \t]+{LOWER_WORD})?[ \t]*(?:(?:&|\+|en|und|u\.|et|y|and)[^\n]{{0,40}})?"
                # (a full name in brackets after a nickname: "vg jojo (johanna brüggemann)")
                rf"(?:\([^()\n]{{1,40}}\))?[.!]?[ \t]*\Z)"
            ),
            re.compile(rf"{apposition}(?={LOWER_WORD})"),
            # A relation word or a role, then "is" or "is called": "le patron c pierre le
            # goff", "mein kollege ist der georg", "mi jefe se llama paco".
            re.compile(
                rf"(?<![\w])(?:[^\W\d_]+-)?(?i:{alternation([*lc.relations, *lc.roles])})[ \t]+"
                rf"(?i:{alternation(_COPULAS)})[ \t]+{article}(?:{title}\s+)*(?={LOWER_WORD})"
            ),
            # A greeting typed in lower case at a line's start, the name closed by a comma,
            # a "!" or the line's end: "servus moni, kurz wega oma", "hola paco!".
            re.compile(
                rf"^[ \t]*(?i:{alternation(lc.greetings)})[ \t]+(?:{title}[ \t]+)*"
                rf"(?={LOWER_WORD}(?:[ \t]+{LOWER_WORD}){{0,2}}[ \t]*(?:[,!]|$))",
                re.MULTILINE,
            ),
        ]

    def cased_places(self, text: str, lexicon: Any) -> list[Span]:
        """A small place of care or business by its kind and its own name written with
        capitals or in quotes ("Pflegedienst „Pflege mit Herz“", "camping Les Pins d'Or",
        "la pharmacie du Port", "Talleres Arriaga"): the name (with the word that links it
        to the kind, "du Port") is an organisation, the kind stays as written. Not a name
        the lexicon knows as public (a town: "pharmacie de Concarneau"; a brand: "garage
        Renault"), not a word the language never takes for a name."""
        if self._cased_places is None:
            return []
        lc = self.locale
        out: list[Span] = []
        for m in self._cased_places.finditer(text):
            group = "quoted" if m.group("quoted") is not None else "name"
            a, b = m.span(group)
            value = m.group(group).strip()
            words = value.split()
            if not words or len(words) > 5:
                continue
            if group == "name":
                # A sentence's next word after the name's ("Talleres Arriaga, en ..." stops at
                # the comma); the name's own words only: no listed negative, nothing public.
                # ("Reformas Cordero e Hijos": a family firm's last words are its name's)
                own = words[:-2] if len(words) > 2 and words[-1].casefold() in _FAMILY_FIRM else words
                if any(lc.is_listed_negative(w) for w in own) or lexicon.public_kind(value):
                    continue
                if lexicon.public_kind(words[0].strip("'’")) in ("place", "country", "region", "brand", "company"):
                    continue
            link = m.group("link")
            if link is not None and group == "name" and (link.casefold() not in lc.place_articles or link[:1].isupper()):
                # "du Port" (the link is the name's), "Les Pins d'Or" (an article with its capital)
                a = m.start("link")
            out.append(Span(a, b, EntityType.ORG, NAME_SCORE, {VIEW: NAME_SCORE}))
        return out

    def after_relation(self, text: str, pos: int) -> bool:
        """Does a relation word of the language ("meine freundin", "ma collègue") end right
        before ``pos``?"""
        m = self._relation_before.search(text, max(0, pos - 80), pos)
        return m is not None and self._plain_qualifier(m.group("qual"))

    def _plain_qualifier(self, qual: str | None) -> bool:
        """The words between a relation word and the comma of an apposition say more of the
        relative ("la enfermera del consultorio, rocio"): words the language writes often,
        none a name, a conjunction or a pronoun ("el doctor benaïm, reumatólogo", "mi novio y
        yo, localizador": the comma ends another thing)."""
        if not qual:
            return True
        lc = self.locale
        return all(
            w.islower()
            and w.casefold() not in _NOT_QUALIFIERS
            and not lc.is_known_name(w)
            and lc.zipf(w) >= QUALIFIER_ZIPF
            for w in qual.split()
        )

    def _presidio(self) -> list[Any]:
        if self._recognizers is None:
            with self._lock:
                if self._recognizers is None:
                    self._recognizers = self.locale.presidio()
        return self._recognizers

    def formats(self, text: str) -> list[Span]:
        """Format matches: this locale's rules and the country's presidio recognizers."""
        out: list[Span] = []
        for rule, rx in self._rules:
            for m in rx.finditer(text):
                a, b = m.span(rule.group)
                if a >= b or (rule.validate is not None and not rule.validate(m.group(rule.group))):
                    continue
                if rule.type is EntityType.ORG:
                    rest = self._skip_negatives(text, a, b)
                    if rest >= b and len(_CAPITALIZED.findall(text, a, b)) < 2:
                        continue
                    # A name of common words, each with its capital, stays whole after its
                    # institution's word: "l'hôpital Femme Mère Enfant".
                    a = rest if rest < b else a
                elif rule.type is EntityType.ADDRESS:
                    # "in der Wohnung Lindenstraße 12": the word for the home before the
                    # street stays as written; a street's name is left whole.
                    rest = self._skip_negatives(text, a, b)
                    if rest < b and any(c.isalpha() for c in text[rest:b]) and text[rest].isupper():
                        a = rest
                out.append(Span(a, b, rule.type, rule.score, {VIEW: rule.score}))
        for rec in self._presidio():
            for r in rec.analyze(text=text, entities=rec.supported_entities, nlp_artifacts=None):
                if r.score < 0.5 or r.end <= r.start:
                    continue
                typ = PRESIDIO_TYPES.get(r.entity_type, EntityType.ID)
                out.append(Span(r.start, r.end, typ, float(r.score), {VIEW: float(r.score)}))
        return out

    def _skip_negatives(self, text: str, start: int, end: int) -> int:
        """``start`` moved past the leading words that are never names ("Die Firma ...")."""
        for m in _TOKEN.finditer(text, start, end):
            if not self.locale.is_negative(m.group()):
                return m.start()
        return end

    def names(self, text: str) -> list[Span]:
        """Names found in context, trimmed of words that are never names."""
        out: list[Span] = []
        for k, rx in enumerate(self._names):
            for m in rx.finditer(text):
                ends = [m.span(1)]
                if k == 1:
                    # "nos filles Inès et Léa", "unsere Kinder Ben und Mia": the names joined
                    # to the one after a relation word are the relatives too.
                    pos = m.end(1)
                    while (more := self._joined_name.match(text, pos)) is not None:
                        ends.append(more.span(1))
                        pos = more.end(1)
                for a, b in (r for span in ends for r in self.name_runs(text, *span)):
                    out.append(Span(a, b, EntityType.PERSON, NAME_SCORE, {VIEW: NAME_SCORE}))
        return out

    def lower_names(self, text: str, lexicon: Any) -> list[Span]:
        """Names written in lower case after a title, a relation or an introduction, as
        people type in chat ("meine nachbarin frau kowalski", "mi compañero sergio
        navarro"): the words that follow, each a name people carry (the language's list
        or the lexicon's given names and surnames) and no frequent word of the language,
        particles allowed between them."""
        out: list[Span] = []
        for k, rx in enumerate(self._lower_contexts):
            for m in rx.finditer(text):
                # After a title ("dr. kaiser", "la doctora paz") a name as frequent as a word
                # of the language still counts: no one writes "Dr." before a noun.
                title = m.group().split()[-1] if k == 0 and m.group().split() else ""
                # "me payer" (French "me", a pronoun; "Me" is a lawyer's title): a title
                # that is one of the language's most frequent words, written without its
                # dot, is no evidence.
                titled = k == 0 and (title.endswith(".") or self.locale.zipf(title.casefold()) < TITLE_WORD_ZIPF)
                # "la cpe mme petit", "sr. paz": a title's abbreviation is nothing else, so
                # a name after it may be as frequent a word as one set apart by commas.
                strong = titled and title.casefold().rstrip(".") in _ABBREVIATED_TITLES
                if k == 4 and not self._plain_qualifier(m.group("qual")):
                    continue
                run = self._lower_run(
                    text, m.end(), lexicon, titled=titled, related=k in (1, 3, 4, 5, 6), strong=strong, closing=k in (3, 4), apposed=k == 4
                )
                if run is None and k in (1, 4) and (aged := _AGED_AFTER.match(text, m.end())) is not None:
                    # A child's age in brackets after the word: "onze dochter pip (2)", "mon
                    # fils léo (4 ans)": a name, however often the language writes the word.
                    word = aged.group(1)
                    if not (self.locale.is_negative(word) or self.locale.is_particle(word)):
                        run = aged.span(1)
                if run is not None:
                    out.append(Span(*run, EntityType.PERSON, NAME_SCORE, {VIEW: NAME_SCORE}))
                    if k == 3 and (more := _SECOND_SIGNER.match(text, run[1])) is not None:
                        # "gr sanne en jelmer": the second writer's name after the first's
                        second = self._lower_run(text, more.start(1), lexicon, related=True, closing=True)
                        if second is not None:
                            out.append(Span(*second, EntityType.PERSON, NAME_SCORE, {VIEW: NAME_SCORE}))
        return out

    def _lower_run(
        self,
        text: str,
        pos: int,
        lexicon: Any,
        *,
        titled: bool = False,
        related: bool = False,
        strong: bool = False,
        closing: bool = False,
        apposed: bool = False,
    ) -> tuple[int, int] | None:
        lc = self.locale
        start = end = None
        pending_particle = False
        surname_particle = False
        particle_start: int | None = None
        given_before = False
        for m in _LOWER_TOKEN.finditer(text, pos):
            if m.start() != pos:  # words follow each other with spaces only
                break
            word = m.group(1)
            pos = m.end()
            if lc.is_particle(word):
                if start is None and not pending_particle:
                    particle_start = m.start(1)
                pending_particle = True
                surname_particle = surname_particle or word.casefold() in lc.name_particles
                continue
            named = self._named(word, lexicon)
            # A surname after a given name ("oma luise wolf") and a name after a title may
            # be a word of the language too, though not one as frequent as "will" or "hat";
            # after a title a word no list knows is a name too ("frau sonne", "dr. kranich").
            if titled and start is None:
                # "la dentiste, dr petit, au cabinet": a title's word set apart by commas is
                # a name however common the word is.
                apart = strong or _APART.match(text, m.end(1)) is not None
                limit = TITLED_APART_ZIPF if apart else TITLED_NAME_ZIPF
                # After a particle ("herr von der heydt") a word no list knows is a name
                # when the language hardly writes it.
                named = named or (
                    len(word) >= 3
                    and (not pending_particle or surname_particle or lc.zipf(word) < RARE_NAME_ZIPF + 0.5)
                    and not self._abbreviated(text, m, word)
                )
            elif start is not None and (lc.is_known_name(word) or known_surname(lexicon, word)):
                # ("la profe dolores paz, no le deja": set apart, "paz" is her surname)
                limit = TITLED_APART_ZIPF if _APART.match(text, m.end(1)) else SURNAME_AFTER_NAME_ZIPF
                if given_before and lc.is_known_name(word):
                    # a compound given name: "rosa maría", "josé luis", "anne-marie"
                    limit = max(limit, TITLED_NAME_ZIPF)
            elif lc.is_known_name(word):
                # the language's own given name: "mein mann jürgen"; right after a relation
                # word, as frequent as "josé" ("el encargado, josé luis, me dijo")
                limit = TITLED_NAME_ZIPF if related and start is None else SURNAME_AFTER_NAME_ZIPF
            else:
                limit = LOWER_NAME_ZIPF
                # A word the language hardly writes, right after the relation word, is the
                # relative's name no list knows ("mi suegra conchi").
                # The writer's name after a closing at the message's end may be a word the
                # language writes now and then ("vg jojo"), and a surname after a given name
                # one it hardly writes ("johanna brüggemann", "lucía fdez").
                rare = CLOSING_NAME_ZIPF if closing else RARE_NAME_ZIPF
                if apposed and start is None and _CLOSED.match(text, m.end(1)) is not None:
                    # set apart by commas after the relative's word: "de verzorgende, bloem,
                    # zei" (a word as frequent as "claro" or "natürlich" is no name there)
                    rare = LOWER_NAME_ZIPF
                named = named or (
                    len(word) >= 3
                    # "Dr. med.": a title's part (not "mn vriendin kasia. ze werkt ...")
                    and not self._abbreviated(text, m, word)
                    and (
                        (related and start is None and lc.zipf(word) < rare)
                        or (
                            start is not None
                            and lc.zipf(word) < SURNAME_RARE_ZIPF
                            # ("dokter brouwer van gezondheidscentrum de hoven": a place's kind)
                            and not (self._place_kinds is not None and self._place_kinds.match(text, m.start(1)))
                        )
                    )
                )
            if not named or (lc.is_negative(word) and not self._elided_surname(word, titled and start is None)):
                break
            if not pending_particle and lc.zipf(word) >= limit:
                break
            given_before = lc.is_known_name(word) and not pending_particle
            if start is None:
                # After a title the particles are the surname's ("meneer van der poel").
                start = particle_start if titled and pending_particle and particle_start is not None else m.start(1)
            end = m.end(1)
            # A double surname whose second part begins with its particle goes on after it
            # ("el amrani-de jong": "jong" is a frequent word, and the surname's end).
            pending_particle = "-" in word and lc.is_particle(word.rsplit("-", 1)[1])
            if m.group(2) is None:
                break
        return (start, end) if start is not None and end is not None else None

    def _abbreviated(self, text: str, m: re.Match[str], word: str) -> bool:
        """A word with a dot after it that is an abbreviation ("Dr. med.", "Dipl.") or as
        short as one; a longer word before a full stop ends a sentence ("kasia. ze werkt")."""
        if text[m.end(1) : m.end(1) + 1] != ".":
            return False
        return len(word) <= 4 or word.casefold() in self.locale.abbreviations

    def _elided_surname(self, word: str, titled: bool) -> bool:
        """After a title, a surname written with an apostrophe after its first letter
        ("dr n'diaye", "m. d'souza"): the part after it a word the language hardly writes,
        where an elided "ne" or "de" comes before a verb or a noun ("le dr n'a pas")."""
        head, sep, tail = word.replace("’", "'").partition("'")
        return (
            titled
            and bool(sep)
            and len(head) == 1
            and len(tail) >= 3
            and "'" not in tail
            and self.locale.zipf(tail) < _ELIDED_SURNAME_ZIPF
        )

    def lower_given_names(self, text: str, lexicon: Any, cased: bool) -> list[Span]:
        """In a message written all in lower case, a given name the language's list and
        the lexicon both know and the language rarely writes as a word ("sandra aus der
        lohnbuchhaltung", "2 enfants lou 9 ans et nathan 6 ans"), with the surname after
        it: no context word is needed where no capital can show a name. ``cased`` says the
        text uses capitals the ordinary way (``core.lexicon.is_cased``): then none is found."""
        if cased:
            return []
        lc = self.locale
        out: list[Span] = []
        # A place named after a person is the place's kind's ("l'hôpital edouard herriot").
        after_kind = {k.end() for k in self._place_kinds.finditer(text)} if self._place_kinds else set()
        for m in _LOWER_WORD_ALONE.finditer(text):
            word = m.group()
            if (
                len(word) < 3
                or m.start() in after_kind
                or not lc.is_known_name(word)
                or not lexicon.is_given(word)
                or lc.is_negative(word)
            ):
                continue
            frequent = lc.zipf(word) >= LOWER_GIVEN_ZIPF
            if frequent and not self._surname_after(text, m.end(), lexicon) and not (
                # a second given name before the surname: "antonio josé fernández-trujillo"
                (second := re.compile(rf"[ \t]+({LOWER_WORD})").match(text, m.end())) is not None
                and lc.is_known_name(second.group(1))
                and lexicon.is_given(second.group(1))
                and self._surname_after(text, second.end(), lexicon)
            ):
                # A given name the language writes often ("rafael" 4.6) is one when a
                # surname follows it: "rafael jiménez de las cuevas".
                continue
            run = self._lower_run(text, m.start(), lexicon, titled=True)
            if run is not None and (not frequent or run[1] > m.end()):
                out.append(Span(*run, EntityType.PERSON, NAME_SCORE, {VIEW: NAME_SCORE}))
        return out

    def article_names(self, text: str) -> list[Span]:
        """A given name or nickname in lower case after the article people put before one in
        speech ("hay q decirselo a la encarni", "hinterm hof vom schorsch"): a name the
        language's list knows and hardly writes as a word (Zipf below
        :data:`ARTICLE_NAME_ZIPF`), no function or relation word."""
        lc = self.locale
        if self._article_name is None:
            return []
        out = []
        for m in self._article_name.finditer(text):
            word = m.group(1)
            if (
                len(word) >= 4
                and lc.is_known_name(word)
                and not lc.is_negative(word)
                and not lc.is_particle(word)
                and lc.zipf(word) < ARTICLE_NAME_ZIPF
            ):
                out.append(Span(*m.span(1), EntityType.PERSON, NAME_SCORE, {VIEW: NAME_SCORE}))
        return out

    def _surname_after(self, text: str, pos: int, lexicon: Any) -> bool:
        """A surname right after ``pos`` (a space between): one the lexicon or the
        language's list knows and the language hardly writes as a word."""
        m = re.compile(rf"[ \t]+({LOWER_WORD})").match(text, pos)
        if m is None:
            return False
        word = m.group(1)
        parts = word.split("-")
        return (
            (known_surname(lexicon, word) or (len(parts) > 1 and all(known_surname(lexicon, p) for p in parts)))
            and not self.locale.is_negative(word)
            and not self.locale.is_particle(word)
            and self.locale.zipf(word) < SURNAME_AFTER_NAME_ZIPF - 0.5
        )

    def lower_places(self, text: str, lexicon: Any) -> list[Span]:
        """A small place of care or business by its kind and its name, typed in lower case
        ("centro de salud de barbastro", "gezondheidscentrum de vaart", "kapsalon haarstudio
        linda"): the kind and up to three words after it, each a rare word of the language
        (Zipf below :data:`PLACE_NAME_ZIPF`) or a name people carry, and no word that is
        never a name ("la doctora del centro de salud no tiene cita" names none)."""
        if self._place_kinds is None:
            return []
        lc = self.locale
        out: list[Span] = []
        articles = {a.casefold() for a in lc.place_articles}
        for m in self._place_kinds.finditer(text):
            end = None
            pos = m.end()
            before = m.group().split()
            limit = PLACE_AFTER_ARTICLE_ZIPF if before and before[-1].casefold() in articles else PLACE_NAME_ZIPF
            for k, w in enumerate(_LOWER_TOKEN.finditer(text, pos)):
                if w.start() != pos or k >= 3:
                    break
                word = w.group(1)
                if word.casefold() in _SURNAME_PARTICLES and w.group(2) is not None:
                    # A surname's particle between the name's words ("bakkerij ten brinke"):
                    # part of the name only when a name's word follows it.
                    pos = w.end()
                    continue
                if word.casefold() in _NAME_LEADS and w.group(2) is not None:
                    # A saint's word before the name ("residencia san anton", "ehpad sainte
                    # marthe"): the name's when a name's word follows it.
                    pos = w.end()
                    continue
                if k == 0 and word.casefold() in _FAMILY_FIRM and w.group(2) is not None:
                    # A family firm's word is its name's ("logística hermanos ortega"): the
                    # name's when a name's word follows it.
                    pos = w.end()
                    continue
                if lc.is_negative(word) or lc.is_particle(word) or not (
                    lc.zipf(word) < limit
                    # a name people carry, unless the language writes it as often as "día"
                    # (a given name "Dia" without its accent: "hospital de día")
                    or lc.is_known_name(word)
                    or (self._named(word, lexicon) and lc.zipf(word) < SURNAME_AFTER_NAME_ZIPF)
                ):
                    break
                end = w.end(1)
                pos = w.end()
                if w.group(2) is None:
                    break
            if end is not None:
                # The kind stays as written ("ehpad [ORG_1]"): it says what the place is.
                out.append(Span(m.end(), end, EntityType.ORG, NAME_SCORE, {VIEW: NAME_SCORE}))
        return out

    def inner_names(self, text: str, lexicon: Any) -> list[Span]:
        """A given name or surname of the language's list written with its capital inside
        a sentence ("le informo de que Consuelo se ha caído"), in a language that writes its
        nouns in lower case: no word of the language is capitalized there. Not German, not
        a word the language writes often ("Rosa" the colour is, "Consuelo" is not), not a
        place or a company the lexicon knows."""
        lc = self.locale
        if lc.code == "de":
            return []
        out: list[Span] = []
        for m in _INNER_CAPITAL.finditer(text):
            word = m.group(2)
            if (
                m.group("before") not in _PLACE_WORDS
                and lc.is_known_name(word)
                and not lc.is_negative(word)
                and lc.zipf(word.casefold()) < INNER_NAME_ZIPF
                and lexicon.public_kind(word) is None
            ):
                out.append(Span(m.start(2), m.end(2), EntityType.PERSON, NAME_SCORE, {VIEW: NAME_SCORE}))
        return out

    def lower_addresses(self, text: str, lexicon: Any, cased: bool) -> list[Span]:
        """A postcode before a town the lexicon knows, in any case ("wir wohnen in 45879
        gelsenkirchen", "3512 pg utrecht"), and in a text without capitals a street line
        of :attr:`Locale.lower_street` ("on habite au 12 allee des pins"); in a text with
        capitals only those of :attr:`Locale.cased_street`."""
        out: list[Span] = []
        if self._postcode is not None:
            for m in self._postcode.finditer(text):
                words = list(re.finditer(r"\S+", m.group("town")))
                for n in range(len(words), 0, -1):
                    end = m.start("town") + words[n - 1].end()
                    town = text[m.start("town") : end]
                    if lexicon.public_kind(town) in ("place", "region") or lexicon.is_named_town(town):
                        out.append(Span(m.start(), end, EntityType.ADDRESS, 0.85, {VIEW: 0.85}))
                        break
                else:
                    # A town no list holds (the lists leave out towns named like people,
                    # "Kiel"): a word the language hardly writes, after an article or not
                    # ("15003 A Coruña"; "12000 euros", "10000 schritte" are words).
                    k = 1 if len(words) > 1 and words[0].group().casefold() in _TOWN_ARTICLES else 0
                    if k < len(words):
                        word = words[k].group().strip(",.;:!?")
                        # A postcode with letters ("9231 ab") is no count of anything: its
                        # town may be one the language writes now and then ("surhuisterveen").
                        lettered = any(c.isalpha() for c in text[m.start() : m.start("town")])
                        if (
                            word.replace("-", "").isalpha()
                            and not self.locale.is_negative(word)
                            # a compound's frequency is its parts' ("saint-romain-en-gal" 3.2)
                            and self.locale.zipf(word.casefold()) < TOWN_ZIPF + ("-" in word) + lettered
                        ):
                            end = m.start("town") + words[k].start() + len(word)
                            out.append(Span(m.start(), end, EntityType.ADDRESS, 0.85, {VIEW: 0.85}))
        if self._lower_street is not None and (not cased or self._cased_street is not None):
            for m in self._lower_street.finditer(text):
                a, b = m.span(1)
                if cased and (self._cased_street is None or not self._cased_street.match(text, a, b)):
                    continue
                out.append(Span(a, b, EntityType.ADDRESS, 0.85, {VIEW: 0.85}))
        return out

    def _named(self, word: str, lexicon: Any) -> bool:
        """A name people carry: the language's list or the lexicon's given names and
        surnames; a hyphenated one when each part is ("jana-marie", "sommer-kaiser")."""
        lc = self.locale
        parts = re.split(r"[-'’]", word) if "-" in word else [word]
        if all(
            p and (lc.is_known_name(p) or known_given(lexicon, p) or known_surname(lexicon, p))
            for p in parts
        ):
            return True
        # A compound given name whose other part the lists miss ("jean-eudes"): the first
        # part a given name, the others words the language hardly writes.
        return (
            len(parts) > 1
            and lc.is_known_name(parts[0])
            and all(p and not lc.is_negative(p) and lc.zipf(p) < RARE_NAME_ZIPF + 1 for p in parts[1:])
        )

    def name_runs(
        self,
        text: str,
        start: int,
        end: int,
        *,
        leading_particles: bool = True,
        foreign: bool = False,
    ) -> list[tuple[int, int]]:
        """The parts of ``text[start:end]`` that can be a name: runs of capitalized
        words (particles inside) split at negatives and lower-case words; without
        ``leading_particles`` a run starts at a capital ("op naam van Wouter Dekker"
        keeps "Wouter Dekker"; "De Vries" stays whole). With ``foreign`` (a model's
        guess, which may be a name from anywhere) a run also keeps the particles of
        the other locales and elided prefixes inside it ("Daniel Muñoz de la Nava",
        "Jean Seroux d'Agincourt", "Mazun al-Maschani")."""
        runs: list[tuple[int, int]] = []
        cur: list[tuple[int, int, str]] = []

        def particle(tok: str) -> bool:
            return self.locale.is_particle(tok) or (
                foreign and bool(cur) and tok.casefold() in INNER_PARTICLES
            )

        def flush() -> None:
            while cur and particle(cur[-1][2]):
                cur.pop()
            if cur:
                runs.append((cur[0][0], cur[-1][1]))
            cur.clear()

        tokens = list(_TOKEN.finditer(text, start, end))
        for i, m in enumerate(tokens):
            tok = m.group().rstrip(".")
            b = m.start() + len(tok)
            if not tok or not any(c.isalpha() for c in tok):
                flush()
                continue
            if particle(tok):
                if (
                    cur
                    and tok.islower()
                    and tok.casefold() not in INNER_PARTICLES
                    and i + 1 < len(tokens)
                    and tokens[i + 1].group()[:1].isupper()
                ):
                    # "juf Marloes op De Regenboog": a particle of one language only, in
                    # lower case before a capital, is the preposition ("at"); a name's own
                    # particles stay in lower case after a given name ("Jan op den Akker").
                    flush()
                    continue
                if cur or tok[:1].isupper() or (leading_particles and not self._of_a_full_name(tokens, i)):
                    cur.append((m.start(), b, tok))
                continue
            elided = foreign and bool(cur) and ELIDED_NAME.fullmatch(tok) is not None
            if elided or (tok[:1].isupper() and not self.locale.is_negative(tok)):
                cur.append((m.start(), b, tok))
            else:
                flush()
        flush()
        return runs

    def _of_a_full_name(self, tokens: Sequence[re.Match[str]], i: int) -> bool:
        """Whether the particle ``tokens[i]``, in lower case, says "of" before a given name
        and a surname ("la profesora de Martina López"): a surname's own particle comes
        before the surname alone ("mevrouw de Vries", "M. de Villepin")."""
        rest = [t.group().rstrip(".") for t in tokens[i + 1 : i + 3]]
        return (
            len(rest) == 2
            and all(w[:1].isupper() and not self.locale.is_negative(w) for w in rest)
            and self.locale.is_known_name(rest[0])
        )

    def zones(self, text: str) -> list[tuple[int, int]]:
        """The stretches of ``text`` that are never private in this language."""
        return [m.span() for z in self._zones for m in z.finditer(text) if m.end() > m.start()]


#: presidio-analyzer's country-specific entity names -> ours.
PRESIDIO_TYPES: dict[str, EntityType] = {
    "DE_TAX_ID": EntityType.SSN,
    "DE_TAX_NUMBER": EntityType.ID,
    "DE_SOCIAL_SECURITY": EntityType.SSN,
    "DE_ID_CARD": EntityType.ID,
    "DE_PASSPORT": EntityType.ID,
    "DE_HEALTH_INSURANCE": EntityType.ID,
    "DE_PLZ": EntityType.ADDRESS,
    "DE_VAT_ID": EntityType.ID,
    "ES_NIF": EntityType.SSN,
    "ES_NIE": EntityType.SSN,
    "ES_PASSPORT": EntityType.ID,
}


def numeric_date_rule() -> Rule:
    """A date written with numbers: "14.03.1951", "03-07-1946", "12/09/1958"."""
    return Rule(
        EntityType.DATE,
        r"(?<![\d.,/-])(\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2}))(?![\d/-]|[.,]\d)",
        1,
        0.9,
    )


def month_date_rules(months: Sequence[str], *, day: str, year: str = r"\d{4}") -> list[Rule]:
    """Dates with month names: "2. Mai 2024", "1er janvier", "3 de marzo de 2024", "mei 2023"."""
    m = alternation(months)
    return [
        numeric_date_rule(),
        Rule(EntityType.DATE, rf"(?<![\w.])({day}\s*{m}(?:\.?,?\s+{year})?)(?!\w)", 1, 0.9),
        Rule(EntityType.DATE, rf"(?<![\w.])({m}\.?\s+{year})(?!\w)", 1, 0.85),
    ]


def mod97(value: str) -> int:
    return int(value) % 97


def digits_of(value: str) -> str:
    return re.sub(r"\D", "", value)


#: A code after its name: digits (in groups), or capitals and digits holding a digit.
_CODE = (
    r"((?:[A-Z]{1,5}[-\s]?)?\d[\d/-]*(?:\s\d+)*\d(?:[-\s]?[A-Z]{1,2}\b)?"
    r"|(?=[A-Z0-9/-]*\d)[A-Z0-9][A-Z0-9/-]{3,24}[A-Z0-9]"
    # typed in lower case, letters and digits mixed: "localizador k7qzpm"
    r"|(?=[a-z]*\d)(?=\d*[a-z])[a-z0-9]{5,12}(?![\w-]))"
)


#: An age of 90 or more (Safe Harbor names it; a younger one is the policy's to weigh).
_OLD_AGE = r"(9\d|1[01]\d)"


#: Particles that only surnames carry after a business's kind ("bakkerij ten brinke",
#: "spedition von der heydt"); "de" and "la" are also "of" and "the" ("la farmacia de la
#: plaza" names no one).
_SURNAME_PARTICLES = frozenset({"ten", "ter", "van", "von", "der", "den"})


def old_age_rules(before: str, unit: str, adjective: str = "") -> list[Rule]:
    """An age of 90 or more told with the language's words ("de 90 años", "elle a 93 ans",
    "(91 ans)", "92 Jahre alt", "is 90 jaar"): ``before`` the words before the number,
    ``unit`` the word for years after it, ``adjective`` the word that makes the number an
    adjective of age after a hyphen ("jarige", "jährige"); the number is the value."""
    return [
        Rule(EntityType.AGE, rf"(?<![\w-])(?:{before})[ \t]+{_OLD_AGE}[ \t]*(?:{unit})(?![\w-])", 1, 0.9),
        Rule(EntityType.AGE, rf"\({_OLD_AGE}[ \t]*(?:{unit})\)", 1, 0.9),
        # The adjective of age: "op 90-jarige leeftijd", "der 92-jährige", "la 91-year-old".
        *([Rule(EntityType.AGE, rf"(?<![\w-]){_OLD_AGE}-(?:{adjective})(?![\w-])", 1, 0.9)] if adjective else []),
    ]


def code_after(words: str, verbs: str) -> Rule:
    """An identifier after the words that name it ("Kundennummer 5531207", "n° 4471-8820-13",
    "localizador: ZK8P2Q"); ``words`` and ``verbs`` ("ist", "est") are regex alternations."""
    return Rule(
        EntityType.ACCOUNT,
        rf"(?i:\b(?:{words}))[\s:#.]*(?:(?i:{verbs})\s+)?{_CODE}(?![\w])",
        1,
        0.85,
        flags=0,
        validate=_code_like,
    )


def case_number_after(words: str) -> Rule:
    """A court case's number, a number and its year ("412/2022"), within five words after
    the words that name a case ("procedimiento de divorcio 412/2022", "affaire n° 21/04567",
    "Procedimiento: Despido/ceses en general 587/2025")."""
    return Rule(
        EntityType.ID,
        rf"(?i:\b(?:{words}))(?:[\s:.]+(?:n[º°o.]*|[^\W\d]+(?:/[^\W\d]+)?)){{0,5}}[\s:.]+(\d{{1,6}}/(?:19|20)\d{{2}})(?![\w/])",
        1,
        0.85,
        flags=0,
    )


def phone_after(words: str, verbs: str) -> Rule:
    """A phone number after the words that name it ("Mijn telefoonnummer is 06-12345678",
    "Mi número de teléfono es 612 345 678"): a phone's, never a record's, whatever number
    word the label holds."""
    return Rule(
        EntityType.PHONE,
        rf"(?i:\b(?:{words}))[\s:#.]*(?:(?i:{verbs})\s+)?(\+?\(?\d[\d ().\-/]{{5,18}}\d)(?![\w])",
        1,
        0.9,
        flags=0,
        validate=lambda v: 7 <= len(digits_of(v)) <= 15,
    )


def record_after(words: str, verbs: str) -> Rule:
    """A patient's record number after the words that name it ("Su NHC es 2049381",
    "IPP 88120934", "Fallnummer 4471902"): a medical record number, not a phone."""
    return Rule(
        EntityType.MRN,
        rf"(?i:\b(?:{words}))[\s:#.]*(?:(?i:{verbs})\s+)?{_CODE}(?![\w])",
        1,
        0.9,
        flags=0,
        validate=_code_like,
    )


def _code_like(value: str) -> bool:
    """Four digits or more, or a code of five characters or more mixing capitals and digits."""
    digits = sum(c.isdigit() for c in value)
    return digits >= 4 or (digits >= 1 and len(value) >= 5 and any(c.isalpha() for c in value))


def lower_company_rule(forms: str) -> Rule:
    """A company named with its legal form, typed in lower case ("holzbau brückner gmbh",
    "transports morel sarl"): one to three words before the form. ``forms`` are the forms no
    one writes as a word ("gmbh", "sarl", "b.v."; not "sa", "ag", "kg")."""
    word = r"[a-zà-öø-ÿß][\w&'’.-]*"
    return Rule(
        EntityType.ORG,
        rf"(?<![\w-])((?:{word}[ \t]+){{1,3}}(?:{forms}))(?![\w])",
        1,
        0.85,
        flags=0,
    )


def company_rule(forms: str) -> Rule:
    """A company named with its legal form: "Hollmann Logistik GmbH", "Talleres Ebro S.A.",
    "Vermeulen Installatietechniek B.V.", "Wellner & Söhne KG"; ``forms`` is a regex alternation of the forms.
    Leading words that are never names ("Die Firma") are cut off by :class:`LocaleView`."""
    word = r"[A-ZÀ-ÖØ-Þ][\w&'’.-]*"
    return Rule(
        EntityType.ORG,
        # "Wellner & Söhne KG", "Janssen en Zonen B.V.": an ampersand or an "and" inside.
        rf"(?<![\w-])({word}[ \t]+(?:(?:{word}|&|und|en|et|y)[ \t]+){{0,4}}(?:{forms}))(?![\w])",
        1,
        0.9,
        flags=0,
    )
