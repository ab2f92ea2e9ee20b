"""The language of a message and of its parts (core.language)."""

from __future__ import annotations

import pytest

from core.language import ENGLISH, UNKNOWN, detect, guess

CASES = [
    ("Can you help me understand my employment contract and the notice period?", "en"),
    ("Seit dem 2. Mai habe ich jeden Morgen Kopfschmerzen und nehme Ibuprofen.", "de"),
    ("Mon fils a de la fièvre depuis le 1er janvier, faut-il aller aux urgences ?", "fr"),
    ("Mi jefe me ha despedido sin preaviso después de seis años en la empresa.", "es"),
    ("Beste dokter, mijn naam is Jan en ik heb sinds gisteren koorts.", "nl"),
    ("Ciao, come stai? Ho bisogno di aiuto con il contratto di lavoro.", UNKNOWN),
    ("Привет, как дела? Мне нужна помощь с договором аренды квартиры.", UNKNOWN),
]


@pytest.mark.parametrize(("text", "code"), CASES)
def test_language_of_a_message(text: str, code: str) -> None:
    assert detect(text).message == code


@pytest.mark.parametrize("text", ["Hallo", "Klaus Becker", "ok!", "12345"])
def test_too_short_to_tell_is_english(text: str) -> None:
    assert guess(text).language is None
    assert detect(text).message == ENGLISH
    assert detect(text).english_only


@pytest.mark.parametrize(
    ("text", "code"),
    [
        # Names of other languages spread the classifier's mass below one half.
        ("Meine Kollegin Wanjiru Kamau ist krank.", "de"),
        ("Meine Kollegin Wanjiru Kamau hat Fieber.", "de"),
        ("Account e-mail: kitchenqueen_88@example.com", "en"),
        ("Is this RIDDOR reportable", "en"),
    ],
)
def test_a_short_text_far_ahead_in_one_language_is_that_language(text: str, code: str) -> None:
    assert guess(text).language == code
    assert detect(text).message == code


def test_fixed_language_skips_detection() -> None:
    got = detect("Can you help me with my contract?", "de")
    assert got.message == "de"
    assert got.at(0) == "de"


def test_mixed_message_has_a_part_per_language() -> None:
    text = (
        "Seit dem 2. Mai habe ich jeden Morgen starke Kopfschmerzen und Übelkeit.\n\n"
        "Could you explain in English what the doctor might be looking for?"
    )
    got = detect(text)
    assert got.message in {"de", "en"}
    assert got.at(5) == "de"
    assert got.at(len(text) - 5) == "en"
    # The parts cover the text in order, without gaps.
    assert got.parts[0].start == 0 and got.parts[-1].end == len(text)
    for a, b in zip(got.parts, got.parts[1:], strict=False):
        assert a.end == b.start


def test_notice_only_for_unknown_languages() -> None:
    assert detect(CASES[1][0]).notice() is None
    notice = detect(CASES[5][0]).notice()
    assert notice is not None and "not supported" in notice and "(it)" in notice


def test_analysis_carries_a_notice_for_an_unknown_language() -> None:
    from core.analyze import Analyzer, rules_detector
    from core.language_detector import LanguageDetector
    from core.segment import Segmenter

    analyzer = Analyzer(segmenter=Segmenter(nlp=object(), language="de"), detector=LanguageDetector(rules_detector()))
    italian = analyzer.analyze(CASES[5][0])
    assert italian.notice is not None and italian.to_json()["notice"] == italian.notice
    german = analyzer.analyze(CASES[1][0])
    assert german.notice is None and "notice" not in german.to_json()


def test_the_cloud_is_told_to_answer_in_the_messages_language() -> None:
    from core import prompts

    for system in (prompts.CHAT_SYSTEM, prompts.DRAFT_SYSTEM):
        assert prompts.LANGUAGE_RULE in system
        assert "placeholder" in system.lower()
