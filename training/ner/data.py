"""Training data for the privacy NER: synthetic sentences plus weak labels from real prompts.

Sources (see ``docs/data-card-ner.md``):

* **Synthetic**: presidio-evaluator's Faker-based sentence generator over its
  templates, restricted to the templates of the *train* fold
  (:func:`template_split`), so the other templates stay unseen and Presidio's
  published set can be scored on a fold of templates never trained on. We
  generate our own sentences; ``synth_dataset_v2.json`` itself is never read here.
* **Weak labels**: the PII units of Med-PCD and PUPA records of the *train* fold
  (:func:`training.metrics.split_of`), located in their queries as spans and
  typed by :func:`type_unit` (rules of its own, then the rules view, then spaCy).
* **Mentions**: WNUT-17 train and WikiANN-en train (:mod:`training.ner.conll`):
  what a name looks like in noisy, lower-case and rare text. Their dev files
  are never read here (they are evaluation sets).
* **Chat-style prompts and hard negatives** (:mod:`training.ner.chat`).

Records of the train fold are further cut into ``fit`` and ``dev`` (a second
salted hash); the decoding threshold is tuned on ``dev``, never on ``eval``.
"""

from __future__ import annotations

import json
import logging
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.entities import EntityType
from training.metrics import Record, locate_unit, read_medpcd, read_pupa, split_of
from training.ner.labels import to_type

log = logging.getLogger(__name__)

DATA = Path("../shared/data")
MEDPCD = DATA / "med_pcd" / "med_pcd_train.json"
PUPA = DATA / "pupa" / "PUPA_New.csv"
TEMPLATES = DATA / "presidio_research" / "templates.txt"

#: Share of train-fold records held back for tuning the decoder.
DEV_SHARE = 0.15
#: Longer queries are cut here for training (a few PUPA prompts run to 14k characters).
MAX_TRAIN_CHARS = 6000


@dataclass
class Example:
    """A text with typed entity spans ``(start, end, type)``."""

    text: str
    spans: list[tuple[int, int, EntityType]]
    source: str
    id: str = ""
    units: list[str] = field(default_factory=list)
    #: Character ranges the model is taught nothing about (no loss on their tokens).
    ignore: list[tuple[int, int]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "source": self.source,
            "text": self.text,
            "spans": [[s, e, str(t)] for s, e, t in self.spans],
        }
        if self.ignore:
            out["ignore"] = [list(r) for r in self.ignore]
        return out


def template_split(template_id: int) -> str:
    """The fold of a Presidio template (by its line number), as for Presidio's records."""
    return split_of(f"template-{template_id}")


def dev_of(record_id: str) -> bool:
    """Whether a train-fold record is held back for tuning (``dev``) rather than fitted."""
    return split_of(f"dev:{record_id}", DEV_SHARE) == "eval"


# --- synthetic sentences ------------------------------------------------------------


def synthetic_examples(
    n: int,
    seed: int = 13,
    templates_path: Path = TEMPLATES,
    fold: str = "train",
    lower_case_ratio: float = 0.1,
) -> list[Example]:
    """``n`` sentences from presidio-evaluator's generator over the templates of ``fold``."""
    from presidio_evaluator.data_generator.faker_extensions import (
        AddressProviderNew,
        AgeProvider,
        IpAddressProvider,
        NationalityProvider,
        OrganizationProvider,
        PhoneNumberProviderNew,
        ReligionProvider,
        UsDriverLicenseProvider,
    )
    from presidio_evaluator.data_generator.presidio_sentence_faker import (
        PresidioSentenceFaker,
    )

    lines = [ln.strip() for ln in templates_path.read_text("utf-8").splitlines()]
    chosen = [(i, t) for i, t in enumerate(lines) if t and template_split(i) == fold]
    # The default provider list also has HospitalProvider, which queries WikiData
    # over the network; no template uses it, so it is left out.
    providers = [
        IpAddressProvider,
        NationalityProvider,
        OrganizationProvider,
        UsDriverLicenseProvider,
        AgeProvider,
        AddressProviderNew,
        PhoneNumberProviderNew,
        ReligionProvider,
    ]
    faker = PresidioSentenceFaker(
        "en_US",
        lower_case_ratio=lower_case_ratio,
        sentence_templates=[t for _, t in chosen],
        entity_providers=providers,  # type: ignore[arg-type]
        random_seed=seed,
    )
    out = []
    for k, sample in enumerate(faker.generate_new_fake_sentences(n)):
        text = sample.full_text
        spans = []
        for s in sample.spans:
            a, b = int(s.start_position), int(s.end_position)
            # Trim whitespace so spans start and end on a character of the value.
            while a < b and text[a].isspace():
                a += 1
            while b > a and text[b - 1].isspace():
                b -= 1
            if a < b:
                spans.append((a, b, to_type(s.entity_type)))
        tid = chosen[sample.template_id][0] if sample.template_id is not None else -1
        out.append(Example(text, _resolve(spans), "synthetic", f"synth-{seed}-{k}-t{tid}"))
    return out


def pack(examples: Sequence[Example], max_chars: int = 400, seed: int = 0) -> list[Example]:
    """Join short examples into texts of about ``max_chars`` (fewer, fuller training windows)."""
    rng = random.Random(seed)
    items = list(examples)
    rng.shuffle(items)
    out: list[Example] = []
    text, spans, ids, ignore = "", [], [], []  # type: ignore[var-annotated]
    for ex in items:
        if text and len(text) + 1 + len(ex.text) > max_chars:
            out.append(Example(text, spans, ex.source, "+".join(ids), ignore=ignore))
            text, spans, ids, ignore = "", [], [], []
        offset = len(text) + (1 if text else 0)
        text = f"{text}\n{ex.text}" if text else ex.text
        spans.extend((a + offset, b + offset, t) for a, b, t in ex.spans)
        ignore.extend((a + offset, b + offset) for a, b in ex.ignore)
        ids.append(ex.id)
    if text:
        out.append(Example(text, spans, items[-1].source, "+".join(ids), ignore=ignore))
    return out


# --- entity mentions from CoNLL sets ------------------------------------------------


_UNTAGGED = re.compile(r"@\w|https?://|www\.", re.IGNORECASE)
_DIGIT = re.compile(r"\d")


def conll_examples(
    path: Path,
    source: str,
    limit: int | None = None,
    seed: int = 13,
    public: Callable[[str], bool] | None = None,
) -> list[Example]:
    """One example per sentence, mentions typed by :data:`training.ner.conll.LABEL_TYPES`.

    Untyped mentions (WNUT-17's product and creative-work), @-handles, links
    and tokens with a digit outside a mention become ``ignore`` ranges: these
    sets tag only names, so their phone numbers, postcodes, dates and order
    numbers are ``O`` there, a lesson that would teach the model to let them out. ``limit`` keeps a seeded random sample of that many sentences.
    With ``public``, a mention it calls public ("United States", "Microsoft": a name
    the lexicon knows, that the type policy lets out) is ignored too: these sets tag
    every named entity, and the product asks the model for the private ones; the
    model learns names from them without learning to mark every public one.
    """
    from training.ner.conll import entity_spans, label_type, read_conll, sentence_text

    sentences = read_conll(path)
    order = list(range(len(sentences)))
    if limit is not None and limit < len(order):
        order = sorted(random.Random(seed).sample(order, limit))
    out = []
    for i in order:
        s = sentences[i]
        text, offsets = sentence_text(s.tokens)
        spans, ignore = [], []
        # The sets tag @-handles and links O, we protect them: no lesson either way.
        ignore += [o for tok, o in zip(s.tokens, offsets, strict=True) if _UNTAGGED.match(tok)]
        for a, b, label in entity_spans(s.tags, offsets):
            t = label_type(label)
            if t is None or (public is not None and public(text[a:b])):
                ignore.append((a, b))
            else:
                spans.append((a, b, t))
        ignore += [
            o
            for tok, o in zip(s.tokens, offsets, strict=True)
            if _DIGIT.search(tok) and not any(a < o[1] and o[0] < b for a, b, _ in spans)
        ]
        out.append(Example(text, spans, source, f"{source}-{i:05d}", ignore=ignore))
    return out


#: The lexicon's kinds of public name a CoNLL mention may be ignored for.
PUBLIC_KINDS = frozenset({"country", "company", "brand", "org", "nationality"})


def public_mention(mention: str) -> bool:
    """Whether a CoNLL mention is a public name the product lets out: one the shipped
    lexicon knows as a country, a company, a brand or a public body, the way
    the type policy reads it (:meth:`core.lexicon.Lexicon.public_kind`). Towns,
    cities and regions stay lessons: in a patient's or a person's record a town is an identifier."""
    from core.lexicon import lexicon

    return lexicon().public_kind(mention) in PUBLIC_KINDS


def lower_copies(examples: Sequence[Example], share: float, seed: int = 13) -> list[Example]:
    """Lower-cased copies of a seeded ``share`` of ``examples`` (same spans)."""
    rng = random.Random(seed)
    out = []
    for ex in examples:
        low = ex.text.lower()
        if rng.random() < share and low != ex.text and len(low) == len(ex.text):
            out.append(Example(low, ex.spans, ex.source, ex.id + "-lower", ignore=ex.ignore))
    return out


def tokenizer_is_cased() -> bool:
    """Whether the base model's tokenizer tells ``Paris`` from ``paris``."""
    from training.ner.train import load_tokenizer

    tok = load_tokenizer()
    return bool(tok.encode("Paris").ids != tok.encode("paris").ids)


# --- weak labels from the units of real prompts ------------------------------------------

_MARKER = re.compile(r"<?presidio_anonymized_([a-z_]+)>?", re.IGNORECASE)
_EMAIL = re.compile(r"^\S+@\S+\.\w+$")
_URL = re.compile(
    r"^(https?://|www\.)\S+$|^[\w-]+(\.[\w-]+)*\.(com|org|net|io|ai|gov|edu|co|uk|de|ht|me)(/\S*)?$",
    re.IGNORECASE,
)
_TITLE = re.compile(r"^(dr|mr|mrs|ms|miss|prof|sir|mx)\.?\s+\S", re.IGNORECASE)
_MRN = re.compile(r"\b(mrn|medical record|chart)\b", re.IGNORECASE)
_PHONE = re.compile(r"^\+?[\d\s().-]{7,}\d$")
_DATE = re.compile(
    r"^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}$|^\d{4}-\d{2}-\d{2}$|"
    r"^(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}",
    re.IGNORECASE,
)
_AGE = re.compile(r"\b\d{1,3}[- ]?(years?|yrs?|y/?o|months?)\b|\b(aged?)\s+\d", re.IGNORECASE)
_STREET = re.compile(
    r"\b(st|street|ave|avenue|rd|road|blvd|boulevard|dr|drive|ln|lane|way|ct|court|pl|"
    r"place|hwy|pkwy|apt|suite|ste)\b\.?",
    re.IGNORECASE,
)
_ACCOUNT = re.compile(
    r"#|\b(id|policy|member|account|acct|plan|ppo|hmo|epo|insurance|group|claim|"
    r"invoice|order|case|ticket)\b",
    re.IGNORECASE,
)
_ORG = re.compile(
    r"\b(clinic|hospital|health|medical|center|centre|pharmacy|cvs|walgreens|rite aid|"
    r"university|college|school|academy|institute|company|co|corp|corporation|inc|llc|"
    r"ltd|group|bank|practice|pediatrics|dental|lab|labs|fitness|care|associates|"
    r"partners|services|foundation|church|agency|department|dept|office|store|market|"
    r"restaurant|cafe|hotel|gym|insurance|aetna|cigna|kaiser|blue cross|medicare|"
    r"medicaid)\b",
    re.IGNORECASE,
)
_MARKER_TYPES = {
    "person": EntityType.PERSON,
    "phone_number": EntityType.PHONE,
    "email_address": EntityType.EMAIL,
    "url": EntityType.URL,
}


def heuristic_type(unit: str) -> EntityType | None:
    """Type a unit from its own text with rules we document in the data card (else None)."""
    u = unit.strip()
    m = _MARKER.fullmatch(u)
    if m:
        return _MARKER_TYPES.get(m.group(1).lower(), to_type(m.group(1)))
    if _EMAIL.match(u):
        return EntityType.EMAIL
    if _URL.match(u):
        return EntityType.URL
    if _TITLE.match(u):
        return EntityType.PERSON
    if _MRN.search(u):
        return EntityType.MRN
    if _DATE.match(u):
        return EntityType.DATE
    if _PHONE.match(u) and sum(c.isdigit() for c in u) >= 7:
        return EntityType.PHONE
    if _AGE.search(u):
        return EntityType.AGE
    has_digit = any(c.isdigit() for c in u)
    if has_digit and u[:1].isdigit() and _STREET.search(u):
        return EntityType.ADDRESS
    if has_digit and _ACCOUNT.search(u):
        return EntityType.ACCOUNT
    if _ORG.search(u):
        return EntityType.ORG
    if has_digit and sum(c.isdigit() for c in u) >= 3:
        return EntityType.ID
    return None


class UnitTyper:
    """Types located units: :func:`heuristic_type`, then the rules view, then spaCy, then a default."""

    def __init__(self) -> None:
        import spacy

        from core.detect.rules import RulesView
        from core.segment import SPACY_PACKAGE

        self.rules = RulesView()
        self.nlp = spacy.load(SPACY_PACKAGE, exclude=["parser", "lemmatizer"])
        self.nlp.max_length = 2_000_000
        self.sources: Counter[str] = Counter()

    def spans_of(
        self, text: str, units: Sequence[str], case_sensitive: bool
    ) -> list[tuple[int, int, EntityType]]:
        """Every occurrence of every unit, typed; overlaps resolved in favour of longer units."""
        occurrences = []
        for unit in units:
            for a, b in locate_unit(text, unit, case_sensitive):
                occurrences.append((a, b, unit))
        if not occurrences:
            return []
        rules = self.rules.analyze(text)
        doc = self.nlp(text)
        typed = []
        for a, b, unit in occurrences:
            typed.append((a, b, self.type_of(text, a, b, unit, rules, doc)))
        return _resolve(typed)

    def type_of(
        self, text: str, a: int, b: int, unit: str, rules: Sequence[Any], doc: Any
    ) -> EntityType:
        t = heuristic_type(unit)
        if t is not None:
            self.sources["heuristic"] += 1
            return t
        best = _best_overlap(a, b, [(s.start, s.end, s.type) for s in rules])
        if best is not None:
            self.sources["rules"] += 1
            return best
        ents = [
            (e.start_char, e.end_char, to_type(e.label_))
            for e in doc.ents
            if e.label_ not in _SPACY_SKIP
        ]
        best = _best_overlap(a, b, ents)
        if best is not None and best is not EntityType.OTHER:
            self.sources["spacy"] += 1
            return best
        # Untyped names of a few words are, in these data sets, mostly people.
        words = unit.split()
        if 1 <= len(words) <= 3 and all(
            w.replace("-", "").replace("'", "").isalpha() for w in words
        ):
            self.sources["default-person"] += 1
            return EntityType.PERSON
        self.sources["default-other"] += 1
        return EntityType.OTHER


_SPACY_SKIP = {
    "CARDINAL",
    "ORDINAL",
    "QUANTITY",
    "PERCENT",
    "MONEY",
    "LANGUAGE",
    "LAW",
    "WORK_OF_ART",
    "EVENT",
    "PRODUCT",
}


def _best_overlap(
    a: int, b: int, spans: Iterable[tuple[int, int, EntityType]]
) -> EntityType | None:
    best, best_len = None, 0
    for s, e, t in spans:
        n = min(b, e) - max(a, s)
        # At least half of the unit must be inside the other view's span.
        if n > best_len and n * 2 >= b - a:
            best, best_len = t, n
    return best


def _resolve(spans: Iterable[tuple[int, int, EntityType]]) -> list[tuple[int, int, EntityType]]:
    """Drop spans that overlap a longer one (a unit inside another unit)."""
    taken: list[tuple[int, int, EntityType]] = []
    for s in sorted(spans, key=lambda x: (-(x[1] - x[0]), x[0])):
        if all(s[1] <= t[0] or t[1] <= s[0] for t in taken):
            taken.append(s)
    return sorted(taken)


def weak_examples(records: Sequence[Record], source: str, typer: UnitTyper) -> list[Example]:
    """Examples from records whose units are located and typed (records with none are kept as negatives)."""
    out = []
    for r in records:
        text = r.text[:MAX_TRAIN_CHARS]
        spans = typer.spans_of(text, r.units, r.case_sensitive)
        out.append(Example(text, spans, source, r.id, list(r.units)))
    return out


# --- the whole set ------------------------------------------------------------------------------


@dataclass
class NerData:
    fit: list[Example]
    dev: list[Example]
    stats: dict[str, Any]


def build(
    n_synthetic: int = 4000,
    medpcd: Path = MEDPCD,
    pupa: Path = PUPA,
    templates: Path = TEMPLATES,
    seed: int = 13,
    limit: int | None = None,
    repeat: dict[str, int] | None = None,
    wnut: Path | None = None,
    wikiann: Path | None = None,
    wikiann_limit: int | None = None,
    n_chat: int = 0,
    n_negatives: int = 0,
    lower_share: float = 0.5,
    n_forms: int = 0,
    wikiann_languages: dict[str, Path] | None = None,
    n_foreign: int = 0,
    ignore_public: bool = False,
    n_foreign_negatives: int = 0,
) -> NerData:
    """Build the fit and dev sets from every source (train folds only).

    ``repeat`` oversamples a source's fit records (``{"pupa": 2}``). ``wnut``
    and ``wikiann`` are the *train* files of those sets (their dev files are
    evaluation sets); ``wikiann_limit`` samples that many WikiANN sentences, from
``wikiann`` and from each train file of ``wikiann_languages`` (``{"de": path}``).
    ``n_chat`` chat-style prompts and ``n_negatives`` hard negatives are
    generated, ``n_forms`` pasted forms (``Label: value`` lines) and ``n_foreign``
messages in German, French, Spanish and Dutch. ``lower_share`` of the CoNLL sentences get a lower-cased copy
    when the tokenizer is cased (an uncased one would see the same input twice).
    ``n_foreign_negatives`` everyday questions of frequent words in those languages
    are all ``O``. ``ignore_public`` leaves the CoNLL sets' mentions of public names out of the loss
    (:func:`conll_examples`).
    """
    if limit is not None:
        n_foreign_negatives = min(n_foreign_negatives, limit)
        n_chat, n_negatives = min(n_chat, limit), min(n_negatives, limit)
        n_forms, n_foreign = min(n_forms, limit), min(n_foreign, limit)
        wikiann_limit = limit if wikiann_limit is None else min(wikiann_limit, limit)
    typer = UnitTyper()
    fit: list[Example] = []
    dev: list[Example] = []
    stats: dict[str, Any] = {"sources": {}}
    for name, reader, path in (("medpcd", read_medpcd, medpcd), ("pupa", read_pupa, pupa)):
        records = [r for r in reader(path) if r.split == "train"][:limit]
        examples = weak_examples(records, name, typer)
        f = [e for e in examples if not dev_of(e.id)]
        d = [e for e in examples if dev_of(e.id)]
        fit += f * max(1, (repeat or {}).get(name, 1))
        dev += d
        stats["sources"][name] = {
            "file": str(path),
            "train_fold_records": len(records),
            "fit_records": len(f),
            "fit_repeat": max(1, (repeat or {}).get(name, 1)),
            "dev_records": len(d),
            "spans": sum(len(e.spans) for e in examples),
        }
    stats["weak_typing"] = dict(typer.sources)
    synth = synthetic_examples(n_synthetic, seed=seed, templates_path=templates)
    sf = [e for e in synth if not dev_of(e.id)]
    sd = [e for e in synth if dev_of(e.id)]
    fit += pack(sf, seed=seed)
    dev += sd
    stats["sources"]["synthetic"] = {
        "generator": "presidio-evaluator PresidioSentenceFaker",
        "templates": str(templates),
        "train_fold_templates": sum(
            1
            for i, t in enumerate(templates.read_text("utf-8").splitlines())
            if t.strip() and template_split(i) == "train"
        ),
        "sentences": len(synth),
        "fit_sentences": len(sf),
        "dev_sentences": len(sd),
        "spans": sum(len(e.spans) for e in synth),
    }
    conll: list[Example] = []
    sources: list[tuple[str, Path | None, int | None]] = [
        ("wnut17", wnut, limit),
        ("wikiann", wikiann, wikiann_limit),
        *((f"wikiann_{lang}", p, wikiann_limit) for lang, p in (wikiann_languages or {}).items()),
    ]
    for name, conll_path, cap in sources:
        if conll_path is None:
            continue
        examples = conll_examples(
            conll_path, name, limit=cap, seed=seed, public=public_mention if ignore_public else None
        )
        if name == "wnut17":
            # Noisy text like real prompts: a held-back part tunes the decoder too.
            f = [e for e in examples if not dev_of(e.id)]
            dev += [e for e in examples if dev_of(e.id)]
        else:
            f = examples
        conll += f
        stats["sources"][name] = {
            "file": str(conll_path),
            "sentences": len(examples),
            "fit_sentences": len(f),
            "dev_sentences": len(examples) - len(f),
            "spans": sum(len(e.spans) for e in examples),
            "ignored_mentions": sum(len(e.ignore) for e in examples),
        }
    if conll:
        cased = tokenizer_is_cased()
        copies = lower_copies(conll, lower_share, seed) if cased else []
        fit += pack(conll + copies, seed=seed)
        stats["lower_case_copies"] = (
            len(copies) if cased else "none: the tokenizer is uncased, a copy would be the same input"
        )
    if n_chat or n_negatives or n_forms or n_foreign or n_foreign_negatives:
        from training.ner.chat import (
            chat_examples,
            foreign_examples,
            foreign_negative_examples,
            form_examples,
            hard_negative_examples,
        )

        foreign_negatives = foreign_negative_examples(n_foreign_negatives, seed=seed)
        fit += foreign_negatives
        if foreign_negatives:
            stats["sources"]["foreign_negatives"] = {
                "generator": "training.ner.chat.foreign_negative_examples (frames of our own, "
                "frequent words of each language from wordfreq, names left out; all O)",
                "texts": len(foreign_negatives),
            }

        foreign = foreign_examples(n_foreign, seed=seed)
        fit += foreign
        if foreign:
            stats["sources"]["foreign_chat"] = {
                "generator": "training.ner.chat.foreign_examples (de, fr, es, nl templates of our own)",
                "messages": len(foreign),
                "spans": sum(len(e.spans) for e in foreign),
            }

        forms = form_examples(n_forms, seed=seed)
        fit += forms
        stats["sources"]["forms"] = {
            "generator": "training.ner.chat.form_examples (field labels of our own, Faker values)",
            "forms": len(forms),
            "spans": sum(len(e.spans) for e in forms),
        }
        chat = chat_examples(n_chat, seed=seed)
        negatives = hard_negative_examples(n_negatives, seed=seed)
        fit += chat + pack(negatives, seed=seed)
        stats["sources"]["chat"] = {
            "generator": "training.ner.chat (templates of our own, Faker values)",
            "messages": len(chat),
            "spans": sum(len(e.spans) for e in chat),
        }
        stats["sources"]["hard_negatives"] = {
            "generator": "training.ner.chat.hard_negative_examples",
            "texts": len(negatives),
            "spans": sum(len(e.spans) for e in negatives),
        }
    types: Counter[str] = Counter(str(t) for e in fit for _, _, t in e.spans)
    stats["fit_span_types"] = dict(types.most_common())
    stats["fit_examples"] = len(fit)
    stats["dev_examples"] = len(dev)
    return NerData(fit, dev, stats)


def save(data: NerData, folder: Path) -> None:
    """Write fit.jsonl, dev.jsonl and stats.json (for inspection; nothing reads them back)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, items in (("fit", data.fit), ("dev", data.dev)):
        with (folder / f"{name}.jsonl").open("w", encoding="utf-8") as fh:
            for ex in items:
                fh.write(json.dumps(ex.to_json(), ensure_ascii=False) + "\n")
    (folder / "stats.json").write_text(json.dumps(data.stats, indent=2) + "\n", "utf-8")
