from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.main import main

SAMPLE = Path(__file__).resolve().parents[2] / "app" / "samples" / "email.txt"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_analyze_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", str(SAMPLE), "--json")
    assert code == 0
    data = json.loads(out)
    text = SAMPLE.read_text("utf-8")
    assert set(data) >= {"sentences", "outbound"}
    for s in data["sentences"]:
        assert set(s) >= {"start", "end", "text", "route", "p_remote", "entities"}
        assert text[s["start"] : s["end"]] == s["text"]
        assert s["route"] in ("local", "remote")
        for e in s["entities"]:
            assert set(e) >= {"start", "end", "type", "score", "views"}
            assert s["start"] <= e["start"] < e["end"] <= s["end"]
    # Nothing private that was detected reaches the outbound text.
    for s in data["sentences"]:
        for e in s["entities"]:
            assert text[e["start"] : e["end"]] not in data["outbound"]
    assert "412-555-0196" not in data["outbound"]


def test_analyze_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", str(SAMPLE))
    assert code == 0
    assert "route" in out and "What the cloud would receive" in out


def test_analyze_reads_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"Call Anna at 215-555-4078.")))
    code, out, _ = run(capsys, "analyze", "-", "--json")
    assert code == 0 and "215-555-4078" not in json.loads(out)["outbound"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (b"   \n ", "empty"),
        (b"caf\xe9 au lait \xff", "not valid UTF-8"),
        (b"a" * (9 * 1024 * 1024), "too large"),
    ],
)
def test_bad_input_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, message: str
) -> None:
    f = tmp_path / "in.txt"
    f.write_bytes(content)
    code, out, err = run(capsys, "analyze", str(f))
    assert code != 0 and message in err and out == ""
    assert f.read_bytes() == content  # nothing lost


def test_directory_and_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "analyze", str(tmp_path))
    assert code != 0 and "directory" in err
    code, _, err = run(capsys, "anonymize", str(tmp_path / "nope.txt"))
    assert code != 0 and "does not exist" in err


def test_text_over_the_character_limit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "big.txt"
    f.write_text("word " * 220_000, "utf-8")  # 1.1 M characters, under the byte limit
    code, _, err = run(capsys, "analyze", str(f))
    assert code != 0 and "too long" in err


def test_anonymize_then_box_list_and_forget(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "in.txt"
    f.write_text("please write to anna.k@example.org or call 215-555-4078.", "utf-8")
    code, out, _ = run(capsys, "anonymize", str(f))
    assert code == 0
    assert out.strip() == "please write to [EMAIL_1] or call [PHONE_1]."
    code, out, _ = run(capsys, "anonymize", str(f))
    assert out.strip() == "please write to [EMAIL_1] or call [PHONE_1]."  # stable across runs
    code, out, _ = run(capsys, "box", "list", "--json")
    rows = json.loads(out)
    assert {r["value"] for r in rows} == {"anna.k@example.org", "215-555-4078"}
    conv = str(rows[0]["conversation"])
    code, out, _ = run(capsys, "box", "forget", "[EMAIL_1]", "--conversation", conv)
    assert code == 0
    code, out, _ = run(capsys, "box", "list", "--json")
    assert {r["value"] for r in json.loads(out)} == {"215-555-4078"}
    code, out, _ = run(capsys, "box", "forget", "--all", "--conversation", conv)
    code, out, _ = run(capsys, "box", "list")
    assert "empty" in out


def test_wrong_passphrase_from_cli(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOTTOVOCE_PASSPHRASE", "first")
    f = tmp_path / "in.txt"
    f.write_text("call 215-555-4078", "utf-8")
    assert run(capsys, "anonymize", str(f))[0] == 0
    monkeypatch.setenv("SOTTOVOCE_PASSPHRASE", "second")
    code, _, err = run(capsys, "box", "list")
    assert code != 0 and "wrong passphrase" in err


def test_eval_with_a_missing_data_file_is_a_clear_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "eval", "detect", "--data", str(tmp_path / "nope.json"), "--format", "medpcd", "--out", str(tmp_path / "o"))
    assert code != 0 and "is not a data file" in err
