"""`sottovoce ask --attach FILE` through the real turn path and a loopback stub cloud.

The stub (training.stub_cloud, a real OpenAI-compatible HTTP server) records
every request. Nothing of the attached file may reach it except the approved,
anonymized text of the message: not its bytes, not its private values; and the
ledger records exactly what left.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.settings import Settings
from training.documents import writers as w
from training.stub_cloud import StubCloud

PRIVATE = ["Rosalind Achterberg", "14/03/1958", "NGH-4471902", "215-555-4078"]
LETTER = [
    "Discharge letter",
    "Patient: Rosalind Achterberg",
    "Date of birth: 14/03/1958",
    "Hospital number: NGH-4471902",
    "Ward telephone: 215-555-4078",
    "She was started on apixaban 5 mg twice daily for atrial fibrillation.",
]


@pytest.mark.parametrize("command", ["ask", "draft"])
def test_only_the_approved_anonymized_text_of_an_attachment_leaves(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:
    from app.main import main

    monkeypatch.setenv("SOTTOVOCE_PASSPHRASE", "a test passphrase")
    question = tmp_path / "question.txt"
    question.write_text("What does this letter say about the treatment?", "utf-8")
    pdf = w.write_pdf(tmp_path / "discharge_letter.pdf", [LETTER])
    with StubCloud("The treatment is apixaban for [PERSON_1].") as stub:
        Settings(cloud_base_url=stub.base_url, cloud_model=stub.model).save()
        # Level 0: every sentence may leave, so the letter's values leave only as placeholders.
        args = [
            command,
            str(question),
            "--attach",
            str(pdf),
            "--yes",
            "--json",
            "--no-local",
            "--lambda",
            "0",
        ]
        assert main(args) == 0
        captured = capsys.readouterr()
        data = json.loads(captured.out)
        assert "Attached discharge_letter.pdf (1 page)" in captured.err
        requests = stub.chat_requests
    assert len(requests) == 1  # one chat request: no upload, no second call
    body = json.dumps(requests[0]["json"], ensure_ascii=False)
    user = requests[0]["json"]["messages"][-1]["content"]
    # The message as analyzed holds the letter under its header line...
    assert "Attached: discharge_letter.pdf" in "".join(s["text"] for s in data["sentences"])
    # ...and what left is exactly the approved outbound text, with placeholders for the values.
    assert data["outbound"] in user
    assert "apixaban 5 mg twice daily" in user
    for value in PRIVATE:
        assert value not in body, value
    assert "%PDF" not in body and pdf.read_bytes()[:64].decode("latin-1") not in body
    # The ledger holds what left, verbatim, and nothing more.
    assert main(["ledger", "--json"]) == 0
    ledger = capsys.readouterr().out
    rows = json.loads(ledger)
    assert len(rows) == 1
    assert rows[0]["payload"]["messages"] == requests[0]["json"]["messages"]
    for value in PRIVATE:
        assert value not in ledger, value


def test_a_bad_attachment_sends_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.main import main

    monkeypatch.setenv("SOTTOVOCE_PASSPHRASE", "a test passphrase")
    question = tmp_path / "question.txt"
    question.write_text("Summarise it.", "utf-8")
    liar = tmp_path / "contract.docx"
    liar.write_bytes(w.write_pdf(tmp_path / "real.pdf", [["text"]]).read_bytes())
    with StubCloud("unused") as stub:
        Settings(cloud_base_url=stub.base_url, cloud_model=stub.model).save()
        assert main(["ask", str(question), "--attach", str(liar), "--yes", "--no-local"]) == 2
        assert stub.chat_requests == []
    err = capsys.readouterr().err
    assert "contract.docx is named like a Word document" in err and "hint:" in err
