"""The shipped word lists (``models/lexicon``): common words, public names, terms, currencies.

Built by ``python -m training.lexicon build`` (the sources are listed in the
artifact's manifest and in :mod:`training.lexicon`). Loaded once per process,
on first use, and checked against the manifest like every other artifact. The
detector uses it to drop what is not an identifier; the type policy uses it to
let public entities leave; the privacy box uses it to decide which parts of a
name are distinctive enough to stand for the whole.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import ArtifactError

#: Breeds and kinds of animal no one calls a person ("a 6 year old labrador", "a mare").
BREED = (
    r"(?:labrador|spaniel|cockapoo|cavapoo|cavachon|terrier|retriever|collie|greyhound|"
    r"whippet|lurcher|dachshund|pug|beagle|poodle|husky|alsatian|bulldog|schnauzer|staffie|"
    r"staffy|rottweiler|chihuahua|corgi|tabby|moggy|mare|gelding|stallion|foal|hamster|"
    r"gerbil|guinea[ \t]+pig|budgie|cockatiel|tortoise|ferret|chinchilla|kitten|puppy)"
)
#: The animals people name: pets, horses, their breeds (English and the locales' words).
PET = (
    rf"(?:{BREED}|dog|pup|cat|kitty|rabbit|bunny|horse|pony|donkey|parrot|turtle|lizard|"
    r"gecko|snake|lab|"
    r"hund|hündin|katze|kater|pferd|stute|kaninchen|meerschweinchen|welpe|"
    r"chien|chienne|chat|chatte|chiot|chaton|lapin|cheval|jument|"
    r"perro|perra|perrito|gato|gata|gatito|cachorro|conejo|caballo|yegua|"
    r"hond|hondje|kat|poes|konijn|paard)"
)
#: A possessive, up to two words ("our old", "their 3-year-old") and the animal, before
#: its name: "our dog Biscuit", "their rescue greyhound, Pickle", "unser Hund Bello".
PET_BEFORE = re.compile(
    rf"\b(?:my|our|their|his|her|your|the|unser|unsere|unseren|mein|meine|meinen|"
    rf"notre|mon|ma|nuestro|nuestra|mi|onze|ons|mijn)[ \t]+(?:[\w'’-]+[ \t]+){{0,2}}{PET}"
    rf"(?:s|es|en|e)?[ \t]*[,:(]?[ \t]*$",
    re.IGNORECASE,
)
#: An animal's word or breed ("cocker spaniel"): the router's plain words.
PET_WORD = re.compile(rf"(?:cocker|springer|king[ \t]+charles|{PET})s?", re.IGNORECASE)

#: A connection string with a password: "postgres://app_user:Tr0ub4dor@pg-main.int.example:5432/ledger".
CONNECTION = re.compile(
    r"\b[a-z][a-z0-9+.\-]{1,20}://(?P<user>[^\s:/@\"'<>]+):(?P<password>[^\s@/\"'<>]+)@"
    r"(?P<host>\[[0-9a-f:.]+\]|[^\s/:\"'<>?#@,;]+)",
    re.IGNORECASE,
)

#: A program's part named in CamelCase by what it is ("AuthService", "PaymentGateway",
#: "UserRepository"): a word of code in a log line or a stack trace, no one's name.
COMPONENT_NAME = re.compile(
    r"(?<![\w])(?:[A-Z][a-z]+){1,3}(?:Service|Manager|Controller|Handler|Client|Server|Worker|Provider|"
    r"Factory|Repository|Exception|Error|Module|Component|Gateway|Adapter|Listener|Helper|"
    r"Utils?|Api|API|Job|Task|Queue|Scheduler|Resolver|Validator|Middleware)(?![\w])"
)

#: A program's, a configuration's or a data file's name by its extension ("app.py",
#: "pg_hba.conf", "salaries_2026.csv"): code to the detector and common words to the router.
#: A hospital's service named by its kind: "Fracture Clinic", "Heart Failure Unit".
CLINICAL_SERVICE = re.compile(
    r"(?i:accident and emergency|a&e|acute medical|allergy|anticoagulation|antenatal|audiology|"
    r"breast|cardiac|cardiology|chest pain|colorectal|dermatology|diabetes|diabetic|dietetics|"
    r"ent|endocrine|endocrinology|endoscopy|epilepsy|eye|falls|fertility|fracture|"
    r"gastroenterology|genetics|gynaecology|gynecology|haematology|hematology|hand|headache|"
    r"hearing|heart failure|hepatology|hypertension|infusion|lipid|maternity|memory|menopause|"
    r"minor injuries|neurology|obstetric|oncology|ophthalmology|orthopaedic|orthopedic|pain|"
    r"paediatric|pediatric|phlebotomy|physiotherapy|podiatry|pre-?assessment|pre-?op|"
    r"psychiatry|radiology|renal|respiratory|rheumatology|sexual health|sleep|spinal|stroke|"
    r"TIA|thyroid|transplant|urgent care|urology|vascular|wound care|day surgery|outpatients?)"
    r"[ \t]+(?i:clinic|clinics|unit|department|dept\.?|ward|service|team|centre|center|suite)"
)
CODE_FILE = (
    r"(?<![\w@/.\\\-])[\w\-]{2,}(?:\.min)?\.(?:py|pyc|js|mjs|ts|tsx|jsx|sh|bash|ps1|bat|java|"
    r"class|jar|c|h|cc|cpp|hpp|cs|go|rs|rb|php|pl|swift|kt|scala|sql|json|yaml|yml|toml|ini|cfg|"
    r"conf|xml|html?|css|scss|md|rst|txt|csv|tsv|log|lock|env|dll|so|dylib|exe|msi|apk|dmg|whl|"
    r"tar|gz|zip|ipynb|pem|crt|cer|csr|p12|pfx|jks|keystore)(?![\w]|\.\w)"
)

ARTIFACT = "lexicon"
REBUILD = "python -m training.lexicon build"

_SPACES = re.compile(r"\s+")
_EDGE = re.compile(r"^(?:the\s+)|['’]s$")


def normalize_name(name: str) -> str:
    """The key a name is looked up by: NFKC, case-folded, single spaces, no leading "the"."""
    key = _SPACES.sub(" ", unicodedata.normalize("NFKC", name).casefold()).strip(" .,;:")
    return _EDGE.sub("", key).strip()


@dataclass
class Lexicon:
    """The lists, ready for lookups (see the module's docstring)."""

    common: dict[str, float] = field(default_factory=dict)  # word -> Zipf frequency
    public: dict[str, str] = field(default_factory=dict)  # normalized name -> kind
    terms: frozenset[str] = frozenset()
    currencies: frozenset[str] = frozenset()
    plain: frozenset[str] = frozenset()  # common words that are nobody's name
    given: frozenset[str] = frozenset()  # people's given names
    surnames: frozenset[str] = frozenset()
    word_names: frozenset[str] = frozenset()  # names that are also everyday words ("hope")
    public_people: frozenset[str] = frozenset()  # full names of people in public life
    named_towns: frozenset[str] = frozenset()  # towns people carry the name of ("kiel")

    def zipf(self, word: str) -> float:
        """The word's Zipf frequency in English (0 when rare or unknown)."""
        return self.common.get(word.casefold(), 0.0)

    def public_kind(self, name: str) -> str | None:
        """``company``, ``country``, ``org``, ``place``, ``brand``, ``drug``... or None."""
        return self.public.get(normalize_name(name))

    def is_term(self, word: str) -> bool:
        return word.casefold() in self.terms

    def is_plain(self, word: str) -> bool:
        """Whether a word is a common English word a dictionary writes in lower case and
        nobody's given name or surname ("Notice", "Attachments"; not "Grace", "Caspian")."""
        return word.casefold() in self.plain

    def is_public_person(self, name: str) -> bool:
        """Whether a full name is a person in public life's ("Keir Starmer", "Serena
        Williams"); one word never is."""
        return normalize_name(name) in self.public_people

    def is_given(self, word: str) -> bool:
        """Whether a word is a given name people carry ("Inès", "Oliver")."""
        return word.casefold() in self.given

    def is_surname(self, word: str) -> bool:
        """Whether a word is a surname people carry ("Bertrand", "Okafor")."""
        return word.casefold() in self.surnames

    def is_named_town(self, name: str) -> bool:
        """Whether a name is a town's that people carry too ("Kiel", "Lindau", "Tyler"):
        no public place wherever a name may stand, a town where only a town can."""
        return normalize_name(name) in self.named_towns

    def is_word_name(self, word: str) -> bool:
        """Whether a name is also an everyday word, far more often the word in lower case
        ("hope", "will", "grace"; not "anna")."""
        return word.casefold() in self.word_names

    @classmethod
    def load(cls, folder: Path) -> Lexicon:
        common = {}
        for line in (folder / "common_en.tsv").read_text("utf-8").splitlines():
            word, _, z = line.partition("\t")
            common[word] = float(z)
        public = {}
        for line in (folder / "public.tsv").read_text("utf-8").splitlines():
            name, kind, _source = line.split("\t")
            public[name] = kind
        terms = frozenset((folder / "terms.txt").read_text("utf-8").split())
        money = frozenset((folder / "currencies.txt").read_text("utf-8").split())
        plain = frozenset((folder / "plain_en.txt").read_text("utf-8").split())
        given = frozenset((folder / "given.txt").read_text("utf-8").split())
        surnames = frozenset((folder / "surnames.txt").read_text("utf-8").split())
        names_file = folder / "word_names.txt"
        word_names = frozenset(names_file.read_text("utf-8").split()) if names_file.exists() else frozenset()
        people_file = folder / "public_people.tsv"
        people = frozenset(
            line.partition("\t")[0] for line in people_file.read_text("utf-8").splitlines() if line
        ) if people_file.exists() else frozenset()
        towns_file = folder / "named_towns.txt"
        towns = frozenset(towns_file.read_text("utf-8").splitlines()) if towns_file.exists() else frozenset()
        return cls(common, public, terms, money, plain, given, surnames, word_names, people, towns)


_lock = threading.Lock()
_loaded: dict[Path, Lexicon] = {}


def lexicon(folder: Path | None = None) -> Lexicon:
    """The shipped lexicon (or the one in ``folder``), loaded once and verified."""
    import models

    folder = folder or models.artifact_dir(ARTIFACT)
    with _lock:
        found = _loaded.get(folder)
        if found is not None:
            return found
        try:
            models.verify(ARTIFACT, folder)
            loaded = Lexicon.load(folder)
        except models.ArtifactMissing as exc:
            raise ArtifactError(
                f"The word lists are missing: {exc}", hint=f"rebuild them with: {REBUILD}"
            ) from exc
        except (models.ArtifactCorrupt, ValueError, OSError) as exc:
            raise ArtifactError(
                f"The word lists are damaged: {exc}", hint=f"rebuild them with: {REBUILD}"
            ) from exc
        _loaded[folder] = loaded
        return loaded


def is_cased(text: str) -> bool:
    """True when the text uses capitals the ordinary way (so a lower-case word is no name)."""
    # The pipeline asks this of one text many times; only its first 4000 characters count
    # (and a shorter text's slice is the text itself, whose hash is kept).
    return _is_cased(text[:4000])


_POSTCODE_LETTERS = re.compile(r"(?<![\w])\d{4}[ \t]?[A-Z]{2}(?![\w])")


@functools.lru_cache(maxsize=64)
def _is_cased(head: str) -> bool:
    """:func:`is_cased` of a text's first 4000 characters (pure, so cached)."""
    words = re.findall(r"[^\W\d_]+", head)
    if len(words) < 6:
        return False
    # A Dutch postcode's two capitals ("1094 HE amsterdam") are a code's, no sign of
    # ordinary casing in a message typed in lower case.
    codes = len(_POSTCODE_LETTERS.findall(head))
    capital = sum(1 for w in words if w[0].isupper()) - codes
    return capital / len(words) >= 0.06 and not all(w.isupper() for w in words)
