from __future__ import annotations

import time

import pytest

from core.segment import Segmenter


def texts(segmenter: Segmenter, text: str) -> list[str]:
    sents = segmenter.segment(text)
    for s in sents:
        assert text[s.start : s.end] == s.text  # offsets are the truth
    return [s.text for s in sents]


@pytest.mark.parametrize("text", ["", "   ", "\n\n\t"])
def test_empty_text_has_no_sentences(segmenter: Segmenter, text: str) -> None:
    assert segmenter.segment(text) == []


def test_two_plain_sentences(segmenter: Segmenter) -> None:
    assert texts(segmenter, "My name is Anna. I live in Lyon.") == ["My name is Anna.", "I live in Lyon."]


def test_text_without_punctuation_is_one_sentence(segmenter: Segmenter) -> None:
    assert texts(segmenter, "hello there how are you doing today") == ["hello there how are you doing today"]


def test_bullet_list_items_are_sentences(segmenter: Segmenter) -> None:
    text = "Things to bring:\n- passport\n- insurance card from Aetna\n* two photos\n1. the form"
    assert texts(segmenter, text) == [
        "Things to bring:",
        "- passport",
        "- insurance card from Aetna",
        "* two photos",
        "1. the form",
    ]


def test_email_greeting_and_signature(segmenter: Segmenter) -> None:
    text = (
        "Hi Anna,\n\nThanks for the call today. The results are attached.\n"
        "Can we meet on Friday?\n\nBest,\nMaria Rossi\nAcme Clinic"
    )
    out = texts(segmenter, text)
    assert out[0] == "Hi Anna,"
    assert "Thanks for the call today." in out
    assert out[-3:] == ["Best,", "Maria Rossi", "Acme Clinic"]


def test_hard_wrapped_prose_is_joined(segmenter: Segmenter) -> None:
    text = (
        "I have been taking the medication every morning since the beginning of\n"
        "the month and the headaches have not improved at all."
    )
    assert len(texts(segmenter, text)) == 1


def test_megabyte_of_text_is_linear(segmenter: Segmenter) -> None:
    unit = "Anna saw the doctor on Monday. She felt better afterwards. "
    small = unit * 200  # ~12 KB
    big = unit * 17000  # ~1 MB
    segmenter.segment("warm up.")
    # CPU time: what the work costs, not how long a busy machine made it wait.
    t0 = time.process_time()
    n_small = len(segmenter.segment(small))
    t_small = time.process_time() - t0
    t0 = time.process_time()
    n_big = len(segmenter.segment(big))
    t_big = time.process_time() - t0
    assert n_big == 85 * n_small
    # 85x the text may cost at most ~10x the proportional time (no quadratic blow-up).
    assert t_big < max(t_small, 0.01) * 85 * 10


# --- German, French, Spanish and Dutch: the rule sentencizer --------------------------------

LOCALE_SENTENCES = [
    (
        "Seit dem 2. Mai habe ich Kopfschmerzen, bzw. Migräne. Frau Dr. Weber sagt, z.B. "
        "Ibuprofen hilft. Ich bin J. Weber! Wie geht es weiter?",
        [
            "Seit dem 2. Mai habe ich Kopfschmerzen, bzw. Migräne.",
            "Frau Dr. Weber sagt, z.B. Ibuprofen hilft.",
            "Ich bin J. Weber!",
            "Wie geht es weiter?",
        ],
    ),
    (
        "Bonjour, je m'appelle M. Dupont. Depuis le 1er janvier j'ai mal au dos. Que faire ?",
        ["Bonjour, je m'appelle M. Dupont.", "Depuis le 1er janvier j'ai mal au dos.", "Que faire ?"],
    ),
    (
        "Hola, buenos días. La Sra. Ruiz y el Sr. García firmaron el contrato de alquiler. ¿Es legal?",
        ["Hola, buenos días.", "La Sra. Ruiz y el Sr. García firmaron el contrato de alquiler.", "¿Es legal?"],
    ),
    (
        "Beste dokter,\nMijn naam is dhr. Jansen. Mevr. de Vries is mijn buurvrouw. Wat nu?",
        ["Beste dokter,", "Mijn naam is dhr. Jansen.", "Mevr. de Vries is mijn buurvrouw.", "Wat nu?"],
    ),
]


@pytest.mark.parametrize(("text", "expected"), LOCALE_SENTENCES)
def test_locale_sentences_by_rule(text: str, expected: list[str]) -> None:
    # No spaCy pipeline is needed (nor used) for these languages.
    assert texts(Segmenter(nlp=object()), text) == expected


def test_fixed_language_uses_its_abbreviations() -> None:
    text = "Treffen mit Hr. Braun um 9 Uhr. Danach Mittagessen."
    assert texts(Segmenter(nlp=object(), language="de"), text) == [
        "Treffen mit Hr. Braun um 9 Uhr.",
        "Danach Mittagessen.",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The senter cut the IBAN after its country group; one code is one sentence.
        ("IBAN:\tNL61 VNVL 8251 0535 56\nAccount number:\t80059517",
         ["IBAN:\tNL61 VNVL 8251 0535 56", "Account number:\t80059517"]),
        ("IBAN: NL61 VNVL 8251 0535 56", ["IBAN: NL61 VNVL 8251 0535 56"]),
        # A sentence that ends with a number and a full stop still ends there.
        ("I moved in 2019. NHS said no.", ["I moved in 2019.", "NHS said no."]),
    ],
)
def test_a_code_in_groups_is_never_cut(segmenter: Segmenter, text: str, expected: list[str]) -> None:
    assert [s.text for s in segmenter.segment(text)] == expected


def test_a_numbered_items_marker_stays_with_its_text(segmenter: Segmenter) -> None:
    text = (
        "We interviewed three people (band 6):\n"
        "1. Lakshmi Venkataraghavan: MSc, 5 years of Spark/Kafka, notice period 3 months\n"
        "2. Tomasz Żółkiewski: BSc, 3 years of dbt and Airflow, available immediately\n"
    )
    got = [s.text for s in segmenter.segment(text)]
    assert "1. Lakshmi Venkataraghavan: MSc, 5 years of Spark/Kafka, notice period 3 months" in got
    assert "2. Tomasz Żółkiewski: BSc, 3 years of dbt and Airflow, available immediately" in got
    assert not any(s.strip() in {"1.", "2", "2."} for s in got)


@pytest.mark.parametrize(
    "text",
    [
        "Dear Claims Team,\n\nRe: income protection claim IP-0093381, policyholder Siobhán Ní Cheallaigh\n\nI have been off.",
        "Can you make this firmer? Re: claim IP-0093381 for Siobhán Ní Cheallaigh. I have been off.",
    ],
)
def test_no_sentence_begins_with_a_colon(segmenter: Segmenter, text: str) -> None:
    got = [s.text for s in segmenter.segment(text)]
    assert not any(s[:1] in ":;," for s in got), got
    assert any(s.startswith("Re: ") for s in got), got


def test_a_short_line_without_sentence_punctuation_is_one_sentence_without_the_senter() -> None:
    class Refusing:
        def pipe(self, texts, batch_size=64):  # type: ignore[no-untyped-def]
            texts = list(texts)
            assert not texts, f"the senter was asked about {texts}"
            return iter(())

    seg = Segmenter(Refusing(), language="en")
    text = "Re-organize this paragraph (Today, I discussed with Prof Wang regard to my paper)"
    assert [s.text for s in seg.segment(text)] == [text]
    # A line of its own ending a block is one sentence too.
    assert [s.text for s in seg.segment("Hi Anna,\n\nthanks for the call")] == ["Hi Anna,", "thanks for the call"]


def test_a_line_with_sentence_punctuation_is_the_senters(segmenter: Segmenter) -> None:
    text = "My name is Ana. I live in Leeds and need help with my claim"
    assert [s.text for s in segmenter.segment(text)] == ["My name is Ana.", "I live in Leeds and need help with my claim"]


def test_a_numbers_abbreviated_label_ends_no_sentence(segmenter: Segmenter) -> None:
    got = texts(segmenter, "My number is (416) 555-0187 ext. 22. Call me after 5.")
    assert got == ["My number is (416) 555-0187 ext. 22.", "Call me after 5."]


def test_a_persons_abbreviated_title_ends_no_sentence(segmenter: Segmenter) -> None:
    got = texts(segmenter, "The room was never cleaned. The manager, Sr. Duarte Pinto, was rude.")
    assert got == ["The room was never cleaned.", "The manager, Sr. Duarte Pinto, was rude."]


def test_a_sentence_never_begins_inside_a_word(segmenter: Segmenter) -> None:
    # The tokenizer reads "hes" as "he's" and the senter may start a sentence at its "s".
    text = "results r hba1c 49 mmol/mol, ldl 4.0, egfr 58, alt 62. hes 66 and takes ramipril 2.5mg. is any of this bad??"
    for s in segmenter.segment(text):
        assert s.start == 0 or not (text[s.start - 1].isalnum() and text[s.start].isalnum()), s
