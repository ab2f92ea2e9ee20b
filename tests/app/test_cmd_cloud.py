"""`sottovoce ledger`, `sottovoce api-key` (no model needed)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from app.main import main
from core.llm.endpoints import KEYRING_SERVICE

PAYLOAD = {
    "model": "gpt-test",
    "messages": [
        {"role": "system", "content": "You are helpful."},
        {"role": "user", "content": "Write to [PERSON_1] about «the plan» ✓"},
    ],
    "stream": False,
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def ledger_rows() -> list[int]:
    from app.vault import open_store

    with open_store() as store:
        conv = store.new_conversation("t")
        a = store.add_ledger(
            endpoint="https://cloud.example/v1/chat/completions",
            model="gpt-test",
            payload=PAYLOAD,
            purpose="chat",
            conversation_id=conv,
        )
        store.finish_ledger(
            a, status="ok", response="Dear [PERSON_1], ...", prompt_tokens=20, completion_tokens=5
        )
        b = store.add_ledger(
            endpoint="https://cloud.example/v1/chat/completions",
            model="gpt-test",
            payload=PAYLOAD,
            purpose="draft",
        )
        store.finish_ledger(b, status="error: CloudTimeout")
    return [a, b]


def test_an_empty_ledger_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ledger")
    assert code == 0 and "Nothing has left this machine." in out


def test_the_ledger_lists_every_request_newest_first(
    capsys: pytest.CaptureFixture[str], ledger_rows: list[int]
) -> None:
    code, out, err = run(capsys, "ledger")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["#", "time", "(UTC)"]
    assert lines[1].startswith(str(ledger_rows[1])) and "error: CloudTimeout" in lines[1]
    assert lines[2].startswith(str(ledger_rows[0])) and "20/5" in lines[2]
    assert "cloud.example" in lines[2]


def test_the_ledger_as_json_holds_the_payloads(
    capsys: pytest.CaptureFixture[str], ledger_rows: list[int]
) -> None:
    code, out, _ = run(capsys, "ledger", "--json")
    rows = json.loads(out)
    assert code == 0 and [r["id"] for r in rows] == ledger_rows[::-1]
    assert rows[1]["payload"] == PAYLOAD and rows[1]["response"] == "Dear [PERSON_1], ..."
    code, out, _ = run(capsys, "ledger", "list", "--limit", "1", "--json")
    assert [r["id"] for r in json.loads(out)] == ledger_rows[1:]


def test_show_prints_the_exact_json_sent_and_the_answer(
    capsys: pytest.CaptureFixture[str], ledger_rows: list[int]
) -> None:
    code, out, _ = run(capsys, "ledger", "show", str(ledger_rows[0]))
    assert code == 0
    sent = out.split("--- sent (exact JSON) ---\n", 1)[1].split("\n\n--- answer ---", 1)[0]
    assert json.loads(sent) == PAYLOAD
    assert "«the plan» ✓" in out  # verbatim, not escaped
    assert out.rstrip().endswith("Dear [PERSON_1], ...")
    code, out, _ = run(capsys, "ledger", "show", str(ledger_rows[0]), "--json")
    assert json.loads(out)["payload"] == PAYLOAD


def test_show_of_an_unknown_request_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], ledger_rows: list[int]
) -> None:
    code, _, err = run(capsys, "ledger", "show", "999")
    assert code != 0 and "No ledger entry 999" in err


def test_the_api_key_goes_to_the_keyring_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, hermetic: Any
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("sk-typed-in\n"))
    code, out, _ = run(capsys, "api-key", "set", "--endpoint", "https://cloud.example/v1/")
    assert code == 0 and "sk-typed-in" not in out
    assert (
        hermetic.items[(KEYRING_SERVICE, "cloud-api-key:https://cloud.example/v1")] == "sk-typed-in"
    )
    from core import paths

    settings_file = paths.settings_file()
    assert not settings_file.exists() or "sk-typed-in" not in settings_file.read_text()
    code, _, _ = run(capsys, "api-key", "clear", "--endpoint", "https://cloud.example/v1")
    assert code == 0 and hermetic.items == {}


def test_an_empty_api_key_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, hermetic: Any
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    code, _, err = run(capsys, "api-key", "set")
    assert code == 2 and "empty" in err and hermetic.items == {}


def test_without_a_keyring_api_key_set_keeps_the_key_in_the_vault(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, hermetic: Any
) -> None:
    import keyring
    from keyring.backends.fail import Keyring as FailKeyring

    from app.vault import open_store
    from core.llm.endpoints import get_api_key

    keyring.set_keyring(FailKeyring())
    try:
        monkeypatch.setenv("SOTTOVOCE_PASSPHRASE", "a test passphrase")
        monkeypatch.setattr("sys.stdin", io.StringIO("sk-typed-in\n"))
        code, out, _ = run(capsys, "api-key", "set", "--endpoint", "https://cloud.example/v1")
        assert code == 0 and "encrypted vault" in out and "sk-typed-in" not in out
        with open_store() as store:
            assert get_api_key("https://cloud.example/v1", store) == "sk-typed-in"
        code, _, _ = run(capsys, "api-key", "clear", "--endpoint", "https://cloud.example/v1")
        with open_store() as store:
            assert code == 0 and get_api_key("https://cloud.example/v1", store) is None
    finally:
        keyring.set_keyring(hermetic)
