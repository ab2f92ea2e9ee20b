"""The kind of a message (health, legal, HR, finance, general) and who a place is to the person.

Both are read on this machine from word tables (:mod:`core.domain.en`) and the
detected entity types, in one pass over the words: well under a millisecond
for a message. The type policy (:mod:`core.policy`) uses them:

* :func:`detect` names the **profile** whose norm the default level applies
  (HIPAA Safe Harbor for health; see :data:`core.policy.NORMS`). GAMA's domain
  step (:mod:`core.gama`) rates twenty reference domains by TF-IDF for the cloud
  side's prompts; here only the four that carry a privacy norm matter, so a
  table lookup is enough (its Medicine, Law and Finance vocabularies are folded
  into the tables).
* :func:`relation` says whether the words before a name make it the person's own
  place: where they are treated, their child's school, their bank branch, their
  court ("has surgery at", "my son's school", "our bank in").

This module imports nothing of the core (it sits in the lowest layer), so the
settings can name its :class:`Profile`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from types import ModuleType

from core.domain import en, other_languages


class Profile(StrEnum):
    """A privacy profile: the norm of a kind of message (``auto``: read from the message)."""

    AUTO = "auto"
    GENERAL = "general"
    HEALTH = "health"
    LEGAL = "legal"
    HR = "hr"
    FINANCE = "finance"


#: Keyword hits a profile needs before it applies (one word in passing is no topic).
MIN_SCORE = 2.0
#: A detected entity type that names a domain (an MRN) counts as this many keywords.
TYPE_WEIGHT = 2.0
#: When two profiles tie, the stricter norm wins.
_ORDER = (Profile.HEALTH, Profile.LEGAL, Profile.FINANCE, Profile.HR)

#: The tables of each language (one module each); English only so far.
LANGUAGES = {"en": en}


@dataclass(frozen=True, slots=True)
class DomainGuess:
    """The profile read from a message, with the words that decided it (for the UI)."""

    profile: Profile
    score: float
    cues: tuple[str, ...] = ()

    @property
    def reason(self) -> str:
        """One line for a person: which profile and why."""
        if self.profile is Profile.GENERAL:
            return "no health, legal, HR or finance words"
        shown = ", ".join(f"“{c}”" for c in self.cues[:4])
        return f"{self.profile} words: {shown}" if shown else f"{self.profile}"


#: A word: letters of any script, digits inside it ("HbA1c", "T2DM": one word each).
_WORD = re.compile(r"[^\W\d_](?:[^\W_]|[&'\-])*")
#: The languages that write a compound as one word ("Pflegedienstleitung",
#: "huisartsenpraktijk"): there a keyword may begin or end a longer word.
COMPOUNDING = frozenset({"de", "nl"})
#: The fewest letters of a keyword read inside a compound ("huisarts", not "arzt").
COMPOUND_PART = 7
#: Keywords that are function words in another language: German "er" (he), "ob"
#: (whether), Dutch "er" (there) are no emergency room and no obstetrics there.
FUNCTION_WORDS: dict[str, frozenset[str]] = {"de": frozenset({"er", "ob"}), "nl": frozenset({"er"})}
#: An elided article or pronoun before a word (French, Italian): "l'", "d'", "qu'".
_ELIDED = re.compile(r"^(?:[a-z]|qu)'(?=[^\W\d_])")


def typed_plain(phrase: str) -> str:
    """``phrase`` as people type it without accents ("épileptique" -> "epileptique", "sœur"
    -> "soeur", "straße" -> "strasse"): the domain keywords and the locales' word lists
    (:func:`core.locales.base.alternation`) are read this way too."""
    folded = phrase.replace("œ", "oe").replace("Œ", "Oe").replace("æ", "ae").replace("ß", "ss")
    return "".join(c for c in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(c))


class _Tables:
    """A language's tables, turned into sets once."""

    def __init__(self, module: ModuleType, *more_keywords: dict[str, tuple[str, ...]]) -> None:
        self.keywords: dict[str, list[Profile]] = {}
        for table in (module.KEYWORDS, *more_keywords):
            for name, words in table.items():
                for w in words:
                    profiles = self.keywords.setdefault(w, [])
                    if Profile(name) not in profiles:
                        profiles.append(Profile(name))
        self.type_cues = {t: Profile(p) for t, p in module.TYPE_CUES.items()}
        self.diagnoses = frozenset(module.DIAGNOSES)
        # The four other languages' conditions count in their messages only: an English
        # message keeps its own list ("asthma" in a school trip's reply stays general).
        self.other_diagnoses = frozenset(other_languages.DIAGNOSES)
        self.relations = {
            kind: {k: frozenset(v) for k, v in parts.items()}
            for kind, parts in module.RELATIONS.items()
        }
        self.possessives = frozenset(module.POSSESSIVES)
        self.states = frozenset(module.STATES)
        self.state_codes = frozenset(module.US_STATE_CODES)
        self.card_expiry = tuple(module.CARD_EXPIRY)
        self.providers = frozenset(module.WELL_KNOWN_PROVIDERS)
        self.not_places = frozenset(module.NOT_PLACES)
        self.special = frozenset(module.SPECIAL_CATEGORIES)
        # Each keyword and condition as typed without accents too ("médecin" as "medecin",
        # "épileptique" as "epileptique"): chat drops them.
        for w, profiles in list(self.keywords.items()):
            self.keywords.setdefault(typed_plain(w), profiles)
        self.diagnoses |= {typed_plain(w) for w in self.diagnoses}
        self.other_diagnoses |= {typed_plain(w) for w in self.other_diagnoses}
        # Keywords that may begin or end a compound, longest first.
        self.parts = sorted((w for w in self.keywords if len(w) >= COMPOUND_PART), key=len, reverse=True)
        # Longest first, so "live in" is read before "in".
        words = sorted(module.LOCATIVES + other_languages.LOCATIVES, key=len, reverse=True)
        self.locative = re.compile(
            r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\s+(?=[^\W\d_])", re.IGNORECASE
        )


# The other languages with rules say their kind of message too (core.domain.other_languages).
_TABLES = _Tables(en, other_languages.KEYWORDS)


def detect(text: str, entity_types: Iterable[str] = (), language: str = "en") -> DomainGuess:
    """The profile of ``text``: the domain with the most keyword hits (and type cues).

    General when no domain reaches :data:`MIN_SCORE`; on a tie the stricter norm
    (health, then legal, finance, HR). Each distinct word counts once, so a long
    text does not drift into a profile by repetition. ``language`` is the message's
    (:mod:`core.language`): German and Dutch compounds hold keywords, and a keyword
    that is a function word there is none.
    """
    scores: dict[Profile, float] = {}
    cues: dict[Profile, list[str]] = {}
    for w in set(_WORD.findall(text.casefold())):
        w = _ELIDED.sub("", w.strip("'-"))  # "l'hôpital", "d'insuline": the word after
        if w in FUNCTION_WORDS.get(language, ()):
            continue
        if w not in _TABLES.keywords and len(w) >= COMPOUND_PART + 3 and language in COMPOUNDING:
            # "huisartsenpraktijk", "Blutdruckwerte", "Pflegedienstleitung": a keyword
            # begins or ends the compound.
            w = next((k for k in _TABLES.parts if w.startswith(k) or w.endswith(k)), w)
        if w in _TABLES.diagnoses or (language != "en" and w in _TABLES.other_diagnoses):
            # A named diagnosis is health on its own.
            scores[Profile.HEALTH] = scores.get(Profile.HEALTH, 0.0) + TYPE_WEIGHT
            cues.setdefault(Profile.HEALTH, []).append(w)
            continue
        for p in _TABLES.keywords.get(w, ()):
            scores[p] = scores.get(p, 0.0) + 1.0
            cues.setdefault(p, []).append(w)
    for t in set(map(str, entity_types)):
        cued = _TABLES.type_cues.get(t)
        if cued is not None:
            scores[cued] = scores.get(cued, 0.0) + TYPE_WEIGHT
            cues.setdefault(cued, []).append(t)
    best = max(_ORDER, key=lambda p: (scores.get(p, 0.0), -_ORDER.index(p)))
    score = scores.get(best, 0.0)
    if score < MIN_SCORE:
        return DomainGuess(Profile.GENERAL, score)
    return DomainGuess(best, score, tuple(sorted(cues[best], key=text.casefold().find)))


def resolve(
    setting: Profile | str, text: str, entity_types: Iterable[str] = (), language: str = "en"
) -> tuple[Profile, DomainGuess | None]:
    """The profile that applies: the setting, or (``auto``) the one read from the text."""
    chosen = Profile(setting)
    if chosen is not Profile.AUTO:
        return chosen, None
    guess = detect(text, entity_types, language)
    return guess.profile, guess


@dataclass(frozen=True, slots=True)
class Relation:
    """Who a name is to the person, and the words before it that say so."""

    kind: str
    cue: str


_DETERMINERS = frozenset({"the", "a", "an", "this", "that"})


#: The end of a sentence (a full stop, a question or an exclamation mark and a space, not
#: after a title or an initial: "surgery with Dr. Lee at") or a line.
_SENTENCE_END = re.compile(
    r"(?<!\bdr)(?<!\bmr)(?<!\bmrs)(?<!\bms)(?<!\bst)(?<!\bprof)(?<!\bno)(?<!\bco)(?<!\b\w)"
    r"[.!?][\"')\]]?\s+|\n"
)


def relation(text: str, start: int) -> Relation | None:
    """The relation the words before ``start`` give the name there, or None.

    Two shapes, from :data:`core.domain.en.RELATIONS`: a possessive and an owned
    noun right before the name ("my son's school,", "my branch", "our bank in"),
    or a relation word at most four words before the preposition that ends the
    window ("has surgery next week at", "was admitted to"). Words of wanting or
    comparing in the window ("best", "considering") cancel the second shape.
    """
    window = text[max(0, start - 60) : start].casefold().replace("\u2019", "'")
    # Only the name's own sentence: "... an operation quoted at £4,100. Petplan says" has
    # no relation to Petplan.
    ends = [m.end() for m in _SENTENCE_END.finditer(window)]
    if ends:
        window = window[ends[-1] :]
    words = [w for w in _WORD.findall(window) if w != "local"]
    # "at the", "to this": the determiners before the name say nothing.
    while words and words[-1] in _DETERMINERS:
        words.pop()
    if not words:
        return None
    for kind, parts in _TABLES.relations.items():
        found = _owned(words, parts) or _headed(words, parts)
        if found is not None:
            return Relation(kind, found)
    return None


def _headed(words: list[str], parts: dict[str, frozenset[str]]) -> str | None:
    """ "surgery next week at": a relation word, up to three others, the preposition."""
    if len(words) < 2 or words[-1] not in parts["preps"]:
        return None
    before = words[-5:-1]
    for i in range(len(before) - 1, -1, -1):
        if before[i] in parts["heads"]:
            if any(w in parts["unless"] for w in words[-8:]):
                return None
            return " ".join([*before[i:], words[-1]])
    return None


def _owned(words: list[str], parts: dict[str, frozenset[str]]) -> str | None:
    """ "my son's school", "our bank in": a possessive, an owned noun, maybe a preposition."""
    tail = words[-4:]
    prep = tail[-1] if len(tail) > 1 and tail[-1] in parts["preps"] else None
    if prep is not None:
        tail = tail[:-1]
    for n in (2, 1):  # "building society", "branch"
        if len(tail) <= n:
            continue
        noun, owner = " ".join(tail[-n:]), tail[-n - 1]
        if noun in parts["owned"] and (owner in _TABLES.possessives or owner.endswith("'s")):
            return " ".join([owner, noun, *([prep] if prep else [])])
    return None


def state_level(name: str) -> bool:
    """A state or first-level division of a federal country (Safe Harbor lets it stay)."""
    key = " ".join(name.replace("’", "'").split()).strip(" .,")
    return key.casefold() in _TABLES.states or key in _TABLES.state_codes


def after_locatives(text: str) -> Iterable[int]:
    """Where a word starts right after "in", "from", "near"... (a place may start there)."""
    return (m.end() for m in _TABLES.locative.finditer(text))


def special_category(value: str) -> bool:
    """A religion, an ethnic origin, a political view, a union or an orientation (GDPR Art. 9(1))."""
    key = " ".join(value.casefold().replace("\u2019", "'").split()).strip(" .,")
    return key in _TABLES.special or any(w in _TABLES.special for w in key.split())


def not_a_place(word: str) -> bool:
    """A month, a weekday or a common word the gazetteer also lists as a place."""
    return word.casefold() in _TABLES.not_places


def well_known_provider(name: str) -> bool:
    """A health-care institution known to the public ("Mayo Clinic"): public as a subject."""
    key = " ".join(name.casefold().replace("\u2019", "'").split()).strip(" .,")
    return key.removeprefix("the ").removesuffix("'s") in _TABLES.providers


def card_expiry(text: str, start: int) -> bool:
    """True when the words right before ``start`` say a card's expiry ("exp 09/27")."""
    window = text[max(0, start - 20) : start].casefold().rstrip(" \t:.-/=#\"'")
    return window.endswith(_TABLES.card_expiry)
