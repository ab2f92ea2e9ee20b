"""EVALUATION.md "Answer preservation", end to end.

A loopback stub cloud (training.stub_cloud, a real OpenAI-compatible HTTP
server) answers like a capable model: a fixed, correct answer that uses the
request's placeholder for the child. With the default settings and the
embedded SmolLM2-135M as the local model, the person must read that answer
intact, restored, with no sentence more than twice, in `sottovoce ask` and in
the window; and must be told which sentences stayed on the machine.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from core.integrate import sentence_repeats, split_sentences
from core.settings import Settings
from training.stub_cloud import StubCloud

#: The message of the issue's reproduction.
MESSAGE = (
    "My daughter Lucy Whitfield, 7, has had a fever of 39.2 °C since 03/02/2024. "
    "Her pediatrician is Dr. Anand Krishnan at Riverside Clinic. "
    "What fever is too high for a child of that age? "
    "When should we go to the emergency room instead of waiting?"
)
ANSWER = (
    "For a 7-year-old like {child}, a fever of 39.2 °C is common with infections and is not "
    "dangerous by itself. Seek urgent care if the fever reaches 40 °C or more, lasts more "
    "than 3 days, or comes with a stiff neck, a rash that does not fade when pressed, "
    "trouble breathing or unusual drowsiness. Meanwhile give plenty of fluids and "
    "paracetamol or ibuprofen at the dose on the pack."
)
RESTORED = ANSWER.format(child="Lucy Whitfield")


def capable_answer(messages: Sequence[dict[str, Any]]) -> str:
    """The fixed answer, with the placeholder the request used for the child."""
    user = str(messages[-1]["content"])
    found = re.search(r"\[PERSON_\d+\]", user)
    return ANSWER.format(child=found.group(0) if found else "[PERSON_1]")


@pytest.fixture
def stub() -> Iterator[StubCloud]:
    with StubCloud(capable_answer) as s:
        yield s


def assert_intact(shown: str) -> None:
    assert RESTORED in shown, shown
    assert sentence_repeats(shown)[0] <= 2
    for sentence in split_sentences(RESTORED):
        assert shown.count(sentence) == 1


def test_ask_shows_the_cloud_answer_intact_with_default_settings(
    stub: StubCloud, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.main import main

    Settings(cloud_base_url=stub.base_url, cloud_model=stub.model).save()
    monkeypatch.setenv("SOTTOVOCE_PASSPHRASE", "a test passphrase")
    path = tmp_path / "fever.txt"
    path.write_text(MESSAGE, "utf-8")
    assert main(["ask", str(path), "--yes", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert_intact(data["answer"])
    assert data["answer"] == RESTORED
    # The cloud saw the child only as a placeholder.
    sent = json.dumps(stub.chat_requests[-1]["json"])
    assert "Lucy Whitfield" not in sent and "[PERSON_" in sent
    integration = data["integration"]
    kept = [s["text"].strip() for s in data["sentences"] if s["route"] == "local"]
    assert integration["kept_sentences"] == kept
    # The shipped router sends every sentence of this message anonymized: the doctor and
    # the clinic leave as placeholders (the cloud can say whom to call), nothing is lost
    # to the answer. A sentence kept here is tested below (the person's choice).
    assert kept == []
    assert "Riverside Clinic" not in sent and "Krishnan" not in sent
    assert "pediatrician is [PERSON_" in sent and "[ORG_" in sent
    assert not integration.get("notice")

    # The same turn as a person reads it on the terminal.
    assert main(["ask", str(path), "--yes"]) == 0
    out = capsys.readouterr().out
    assert_intact(out)
    assert "did not see" not in out


def _turn_keeping_the_second_sentence(settings: Settings, store: Any) -> tuple[str, Any]:
    """One turn of MESSAGE whose second sentence the person keeps here: (that sentence,
    the turn's result)."""
    from core.analyze import Route
    from core.assembly import make_assistant
    from core.turn import Approval, Choices, collect

    assistant = make_assistant(settings, store)
    try:
        conv = assistant.new_conversation("fever")
        second = assistant.analyzer.analyze(MESSAGE).plans[1].sentence.text
        prepared = assistant.prepare(MESSAGE, conv, choices=Choices(routes={second: Route.LOCAL}))
        return second, collect(assistant.execute(prepared, Approval.send(prepared)))
    finally:
        assistant.local.close()


def test_a_sentence_kept_here_is_named_and_the_answer_stays_intact(
    stub: StubCloud, store: Any
) -> None:
    """With the default settings (the embedded model, below the merge threshold), a
    sentence the person keeps on the machine is named in the notice, and the cloud's
    answer is shown as it came."""
    second, result = _turn_keeping_the_second_sentence(
        Settings(cloud_base_url=stub.base_url, cloud_model=stub.model), store
    )
    sent = json.dumps(stub.chat_requests[-1]["json"])
    assert "Riverside Clinic" not in sent and "Krishnan" not in sent
    outcome = result.integration
    assert outcome is not None and outcome.mode == "pass_through"
    assert_intact(result.answer)
    notice = outcome.notice()
    assert second.strip() in notice and "did not see" in notice
    assert "below the 1.00 B" in outcome.reason


def test_the_embedded_model_forced_to_merge_never_makes_the_answer_worse(
    stub: StubCloud, store: Any
) -> None:
    """Below the threshold it never merges; with the threshold at 0 it tries, and the
    guard shows either a merge that keeps the answer or the cloud's answer itself."""
    _second, result = _turn_keeping_the_second_sentence(
        Settings(cloud_base_url=stub.base_url, cloud_model=stub.model, capable_model_b=0.0), store
    )
    outcome = result.integration
    assert outcome is not None and outcome.mode in ("merged", "fallback")
    assert outcome.cloud == RESTORED
    assert sentence_repeats(result.answer)[0] <= 2
    if outcome.mode == "fallback":
        assert result.answer == RESTORED and outcome.reason
    else:
        assert outcome.guard is not None and outcome.guard.ok
        assert outcome.guard.kept_sentences == 1.0


@pytest.mark.gui
def test_the_window_shows_the_cloud_answer_intact_with_default_settings(
    qapp: Any, qtbot: Any, stub: StubCloud, store: Any
) -> None:
    from app.window import make_parts
    from tests.gui.conftest import on_dialog, wait_analysis
    from ui.approval import ApprovalDialog
    from ui.collector import install
    from ui.engine import Engine
    from ui.main_window import MainWindow

    collector = install(qapp)  # cyclic garbage freed on the GUI thread, as in the app
    settings = Settings(cloud_base_url=stub.base_url, cloud_model=stub.model)
    engine = Engine(settings, store, make_parts(), save_settings=False)
    window = MainWindow(engine, load_models=False)
    qtbot.addWidget(window)
    window.show()
    try:
        chat = window.chat
        chat.editor.set_text(MESSAGE)
        analysis = wait_analysis(qtbot, chat.editor, timeout=60000)
        kept = [p.sentence.text.strip() for p in analysis.plans if p.route == "local"]
        timer = on_dialog(ApprovalDialog, lambda d: d.send_btn.click())
        with qtbot.waitSignal(chat.turns.finished, timeout=120000):
            chat.send()
        timer.stop()
        answer = next(w for w in chat.messages if w.role == "assistant")
        assert_intact(answer.text())
        assert answer.text() == RESTORED
        footer = answer.footer.text()
        assert answer.note.isHidden()  # no local note by default below the threshold
        # Every sentence left anonymized (see the test of `ask` above): none is named as
        # kept, and neither the doctor nor the clinic reached the cloud.
        assert kept == []
        assert "cloud did not see" not in footer
        sent = json.dumps(stub.chat_requests[-1]["json"])
        assert "Krishnan" not in sent and "Riverside Clinic" not in sent
    finally:
        window.close()
        if engine._local is not None:
            engine._local.close()
        collector.stop()
