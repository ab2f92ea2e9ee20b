"""The egress guard: normalization, the matching rules, approval, the ledger."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

import core.outbound.matcher as matcher_module
from core.box import PrivacyBox
from core.egress import EgressGuard, MemoryLedger
from core.entities import EntityType
from core.errors import (
    Cancelled,
    CloudServerError,
    CloudUnreachable,
    EgressBlocked,
    PayloadChanged,
)
from core.llm.base import Reply
from core.outbound import payload_digest
from core.outbound.fold import cased, fold, normalize
from core.outbound.matcher import BoxMatcher, word_runs
from core.spans import Span

# --- a fake transport: records what would have been sent ------------------------------


class FakeClient:
    """Stands in for CloudClient; ``fail`` makes the next post raise it."""

    model = "fake-model"
    endpoint = "https://cloud.example/v1/chat/completions"

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.fail: Exception | None = None
        self.pieces = ["Hello", " [PERSON_1]", "."]

    def build_body(self, messages: Any, *, stream: bool = False, **params: Any) -> dict[str, Any]:
        body = {"model": self.model, "messages": [dict(m) for m in messages], "stream": stream}
        body.update({k: v for k, v in params.items() if v is not None})
        return body

    def post(self, body: Mapping[str, Any], *, cancel: Any = None) -> Reply:
        self.sent.append(dict(body))
        if self.fail is not None:
            raise self.fail
        return Reply("Hi [PERSON_1].", prompt_tokens=11, completion_tokens=4, finish_reason="stop")

    def post_stream(self, body: Mapping[str, Any], *, cancel: Any = None) -> Any:
        self.sent.append(dict(body))
        return FakeStream(self.pieces, self.fail)


class FakeStream:
    def __init__(self, pieces: list[str], fail: Exception | None) -> None:
        self.pieces = pieces
        self.fail = fail
        self.parts: list[str] = []
        self.attempts = 1
        self.closed = False

    @property
    def text(self) -> str:
        return "".join(self.parts)

    @property
    def reply(self) -> Reply:
        return Reply(self.text, finish_reason="stop")

    def __iter__(self) -> Any:
        for i, p in enumerate(self.pieces):
            if self.fail is not None and i == 2:
                raise self.fail
            self.parts.append(p)
            yield p

    def close(self) -> None:
        self.closed = True


def make_box(*values: tuple[str, EntityType]) -> PrivacyBox:
    box = PrivacyBox()
    for v, t in values:
        box.placeholder_for(v, t)
    return box


def user(text: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": "You are helpful."}, {"role": "user", "content": text}]


# --- normalization --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("John Smith", "johnsmith"),
        ("JOHN\nSMITH", "johnsmith"),
        ("J\u200bo\u200dh\ufeffn", "john"),  # zero-width space, joiner, BOM
        ("Ｊｏｈｎ", "john"),  # fullwidth
        ("Jоhn", "john"),  # Cyrillic о
        ("ΑΝΝΑ", "anna"),  # Greek capitals
        ("Jöhn", "john"),  # accents dropped
        ("Straße", "strasse"),  # full case folding
        ("555-123.45 67", "5551234567"),
        ("٥٥٥١٢٣", "555123"),  # Arabic-Indic digits
        ("𝐉𝐨𝐡𝐧", "john"),  # mathematical bold
        ("ᴊᴏʜɴ", "john"),  # small capitals
    ],
)
def test_normalize_folds_the_variants_an_attacker_or_a_model_would_write(
    raw: str, expected: str
) -> None:
    assert normalize(raw) == expected


def test_fold_keeps_a_marker_where_separators_were() -> None:
    assert fold("Al-Smith") == "al smith"
    assert fold("A\u200bl") == "a\x01l"


# --- the matching rules ---------------------------------------------------------------

BOX = [
    ("John Smith", "PERSON"),
    ("Anna", "PERSON"),
    ("555-123-4567", "PHONE"),
    ("May", "DATE"),
    ("Al", "PERSON"),
    ("42", "AGE"),
    ("X", "OTHER"),
    ("Acme Corp", "ORG"),
]


def found(text: str) -> set[str]:
    return BoxMatcher(BOX).find(fold(text), cased(text))


@pytest.mark.parametrize(
    ("text", "types"),
    [
        ("Write to j o h n  smith today", {"PERSON"}),
        ("user JOHNSMITH1987", {"PERSON"}),  # long values match anywhere
        ("Dear\u200bJohn Smith", {"PERSON"}),
        ("Anna's cat", {"PERSON"}),
        ("Annas cat", {"PERSON"}),  # possessive without apostrophe
        ("A N N A came", {"PERSON"}),
        ("Ann\na came", {"PERSON"}),
        ("call 555.123.4567 now", {"PHONE"}),
        ("call +1 (555) 123 4567", {"PHONE"}),
        ("In May we met", {"DATE"}),
        ("IN MAY WE MET", {"DATE"}),
        ("Al is here", {"PERSON"}),
        ("A\u200bl is here", {"PERSON"}),
        ("I am 42.", {"AGE"}),
        ("ACME-CORP shares", {"ORG"}),
    ],
)
def test_box_values_are_found_in_their_variants(text: str, types: set[str]) -> None:
    assert found(text) == types


@pytest.mark.parametrize(
    "text",
    [
        "Hannah and Annabelle",  # a 4-7 character value inside another word
        "you may go",  # a short value in lower case is the ordinary word
        "al fresco",
        "a l",  # short values do not stretch over visible separators
        "Alps",
        "420 items, 1.42 m, 142",
        "X marks the spot",  # one-character values are not scanned
        "[PERSON_1] met [DATE_2]",
        "an analysis of anatomy",
    ],
)
def test_ordinary_text_is_not_blocked(text: str) -> None:
    assert found(text) == set()


@pytest.mark.parametrize(
    ("text", "types"),
    [
        # A name that is also an everyday word is the name with its capital only...
        ("Will said he would call", {"PERSON"}),
        ("WILL said he would call", {"PERSON"}),
        ("he will call tomorrow", set()),
        ("I hope so", set()),
        ("Hope is brilliant", {"PERSON"}),
        # ...a name that is rarely a word, in any case (a name typed in lower case is a name).
        ("lucas came", {"PERSON"}),
    ],
)
def test_a_name_that_is_an_everyday_word_is_matched_with_its_capital(text: str, types: set[str]) -> None:
    box = [("Will", "PERSON"), ("Hope", "PERSON"), ("Lucas", "PERSON")]
    assert BoxMatcher(box).find(fold(text), cased(text)) == types


# --- the guard ----------------------------------------------------------------------------


def test_check_blocks_a_box_value_and_names_only_its_type() -> None:
    client = FakeClient()
    guard = EgressGuard(client)
    box = make_box(("Maria Gonzalez", EntityType.PERSON))
    with pytest.raises(EgressBlocked) as info:
        guard.check(user("Please write to MARIA  GONZALEZ."), box=box)
    assert info.value.entity_types == ["PERSON"]
    assert "maria" not in str(info.value).lower()
    assert "gonzalez" not in str(info.value).lower()
    assert client.sent == []


@pytest.mark.parametrize("where", ["system", "history", "user"])
def test_every_part_of_the_payload_is_scanned(where: str) -> None:
    box = make_box(("Maria Gonzalez", EntityType.PERSON))
    messages = [
        {"role": "system", "content": "You are helpful."},
        {"role": "user", "content": "Earlier question about [PERSON_1]."},
        {"role": "assistant", "content": "Earlier answer."},
        {"role": "user", "content": "Now the new question."},
    ]
    index = {"system": 0, "history": 2, "user": 3}[where]
    messages[index]["content"] += " Maria Gonzalez"
    with pytest.raises(EgressBlocked):
        EgressGuard(FakeClient()).check(messages, box=box)


def test_a_clean_payload_is_sent_once_and_ledgered() -> None:
    client = FakeClient()
    ledger = MemoryLedger()
    guard = EgressGuard(client, ledger=ledger)
    box = make_box(("Maria Gonzalez", EntityType.PERSON))
    messages = user("Write to [PERSON_1].")
    body = guard.check(messages, box=box)
    assert client.sent == [] and ledger.rows == []  # checking sends and records nothing
    reply = guard.complete(messages, box=box, conversation_id=7, purpose="draft")
    assert reply.text == "Hi [PERSON_1]."
    assert client.sent == [body]
    (row,) = ledger.rows
    assert row["payload"] == body
    assert (row["status"], row["response"], row["prompt_tokens"], row["completion_tokens"]) == (
        "ok",
        "Hi [PERSON_1].",
        11,
        4,
    )
    assert (row["endpoint"], row["model"], row["purpose"], row["conversation_id"]) == (
        client.endpoint,
        "fake-model",
        "draft",
        7,
    )
    assert len(client.sent) == 1


def test_a_failed_request_is_never_resent_without_a_new_approval() -> None:
    client = FakeClient()
    client.fail = CloudServerError("The cloud endpoint failed (HTTP 500).")
    ledger = MemoryLedger()
    guard = EgressGuard(client, ledger=ledger)
    with pytest.raises(CloudServerError) as info:
        guard.complete(user("Hello."), box=None)
    assert ledger.rows[0]["status"] == "error: CloudServerError"
    assert info.value.ledger_id == 1  # type: ignore[attr-defined]
    assert len(client.sent) == 1  # the guard never retries on its own
    # Sending the same content again is a new call (the caller's new approval).
    client.fail = None
    assert guard.complete(user("Hello."), box=None).text
    assert len(client.sent) == 2 and len(ledger.rows) == 2


def test_values_added_to_the_box_after_a_check_block_at_send_time() -> None:
    client = FakeClient()
    guard = EgressGuard(client)
    box = make_box(("Maria Gonzalez", EntityType.PERSON))
    guard.check(user("Meet Jonas Berg at noon."), box=box)
    box.placeholder_for("Jonas Berg", EntityType.PERSON)
    with pytest.raises(EgressBlocked):
        guard.complete(user("Meet Jonas Berg at noon."), box=box)
    assert client.sent == [] and guard.ledger.rows == []  # type: ignore[attr-defined]


def test_values_the_person_consented_to_are_let_through() -> None:
    guard = EgressGuard(FakeClient())
    box = make_box(("Acme Corp", EntityType.ORG), ("Maria Gonzalez", EntityType.PERSON))
    guard.check(user("Acme Corp's annual report."), box=box, consented=["Acme Corp"])
    with pytest.raises(EgressBlocked):
        guard.check(user("Acme Corp and Maria Gonzalez."), box=box, consented=["Acme Corp"])


class ListDetector:
    """Finds the given words wherever they occur."""

    def __init__(self, words: dict[str, EntityType]) -> None:
        self.words = words
        self.calls = 0

    def analyze(self, text: str) -> list[Span]:
        self.calls += 1
        out = []
        for w, t in self.words.items():
            i = text.find(w)
            if i >= 0:
                out.append(Span(i, i + len(w), t, 0.9, {"list": 0.9}))
        return out


def test_entities_the_detector_finds_block_even_when_not_in_the_box() -> None:
    detector = ListDetector({"jane@example.com": EntityType.EMAIL})
    guard = EgressGuard(FakeClient(), detector=detector)
    with pytest.raises(EgressBlocked) as info:
        guard.check(user("Mail jane@example.com please."))
    assert info.value.entity_types == ["EMAIL"]


def test_placeholders_and_titles_found_by_the_detector_do_not_block() -> None:
    detector = ListDetector({"Dr. [PERSON_1]": EntityType.PERSON, "[DATE_1]": EntityType.DATE})
    guard = EgressGuard(FakeClient(), detector=detector)
    guard.check(user("Dr. [PERSON_1] saw me on [DATE_1]."))


def test_consented_values_side_by_side_read_as_one_do_not_block() -> None:
    # The pipeline sent "administrator" (a job title) and "payroll" (a common word)
    # in clear; the guard's reading joins them into one value.
    detector = ListDetector({"payroll administrator": EntityType.OTHER})
    guard = EgressGuard(FakeClient(), detector=detector)
    guard.check(user("Role: payroll administrator."), consented=["payroll", "administrator"])
    with pytest.raises(EgressBlocked):
        guard.check(user("Role: payroll administrator."), consented=["administrator"])
    with pytest.raises(EgressBlocked):  # a part of a word is no consented piece
        guard.check(user("Role: payroll administrator."), consented=["pay", "roll administrator"])


def test_each_stretch_around_a_placeholder_is_judged_on_its_own() -> None:
    detector = ListDetector({"[PERSON_1]\nOperations Manager": EntityType.OTHER})
    guard = EgressGuard(FakeClient(), detector=detector)
    guard.check(user("Thanks,\n[PERSON_1]\nOperations Manager"), consented=["Operations Manager"])
    with pytest.raises(EgressBlocked):
        guard.check(user("Thanks,\n[PERSON_1]\nOperations Manager"))


def test_detection_results_are_cached_per_string() -> None:
    detector = ListDetector({})
    guard = EgressGuard(FakeClient(), detector=detector)
    messages = user("Same text.")
    guard.scan(messages)
    guard.scan(messages)
    assert detector.calls == 1  # the user text once (system prompts are the app's own)


def test_system_prompts_and_trusted_instructions_skip_the_detector_not_the_box() -> None:
    detector = ListDetector({"Finance": EntityType.ORG})
    guard = EgressGuard(FakeClient(), detector=detector)
    instruction = "Rate the domains: Finance, Law."
    box = PrivacyBox()
    box.placeholder_for("Harriet Vance", EntityType.PERSON)
    # The app's own words are not private...
    guard.check([{"role": "system", "content": instruction}, {"role": "user", "content": "Task."}])
    guard.check(
        [{"role": "system", "content": "Hi."}, {"role": "user", "content": instruction}],
        trusted=[instruction],
    )
    # ...but the person's words still are, and box values are found everywhere.
    with pytest.raises(EgressBlocked):
        guard.check([{"role": "system", "content": "Hi."}, {"role": "user", "content": "My bank is Finance."}])
    with pytest.raises(EgressBlocked):
        guard.check(
            [{"role": "system", "content": "About harriet vance."}, {"role": "user", "content": instruction}],
            box=box,
            trusted=[instruction],
        )


def test_the_rules_view_is_a_usable_detector(rules_view: Any) -> None:
    guard = EgressGuard(FakeClient(), detector=rules_view)
    with pytest.raises(EgressBlocked) as info:
        guard.check(user("Card 4111 1111 1111 1111, mail bob.stone@example.org."))
    assert {"CREDIT_CARD", "EMAIL"} <= set(info.value.entity_types)
    guard.check(user("Summarize the attached note for [PERSON_1]."))


def test_a_streamed_answer_completes_its_ledger_row() -> None:
    client = FakeClient()
    guard = EgressGuard(client)
    stream = guard.stream(user("Hello."), box=None)
    assert "".join(stream) == "Hello [PERSON_1]."
    row = guard.ledger.rows[0]  # type: ignore[attr-defined]
    assert (row["status"], row["response"]) == ("ok", "Hello [PERSON_1].")


def test_a_stream_cut_midway_keeps_the_partial_answer_and_is_not_resent() -> None:
    client = FakeClient()
    client.fail = CloudUnreachable("cut")
    guard = EgressGuard(client)
    stream = guard.stream(user("Hello."), box=None)
    got: list[str] = []
    with pytest.raises(CloudUnreachable) as info:
        for piece in stream:
            got.append(piece)
    assert got == ["Hello", " [PERSON_1]"] and stream.text == "Hello [PERSON_1]"
    assert info.value.__context__ is None or not isinstance(info.value.__context__, Exception)
    row = guard.ledger.rows[0]  # type: ignore[attr-defined]
    assert (row["status"], row["response"]) == ("error: CloudUnreachable", "Hello [PERSON_1]")
    assert len(client.sent) == 1


def test_closing_a_stream_early_records_what_arrived() -> None:
    guard = EgressGuard(FakeClient())
    stream = guard.stream(user("Hello."), box=None)
    next(stream)
    stream.close()
    row = guard.ledger.rows[0]  # type: ignore[attr-defined]
    assert (row["status"], row["response"]) == ("closed", "Hello")


def test_a_cancelled_send_is_recorded_and_spent() -> None:
    client = FakeClient()
    client.fail = Cancelled()
    guard = EgressGuard(client)
    with pytest.raises(Cancelled):
        guard.complete(user("Hello."), box=None)
    assert guard.ledger.rows[0]["status"] == "cancelled"  # type: ignore[attr-defined]


def test_the_ledger_row_is_written_before_the_request_leaves() -> None:
    order: list[str] = []

    class OrderLedger(MemoryLedger):
        def add_ledger(self, **kw: Any) -> int:
            order.append("ledger")
            return super().add_ledger(**kw)

    class OrderClient(FakeClient):
        def post(self, body: Mapping[str, Any], *, cancel: Any = None) -> Reply:
            order.append("send")
            return super().post(body)

    guard = EgressGuard(OrderClient(), ledger=OrderLedger())
    guard.complete(user("Hello."), box=None)
    assert order == ["ledger", "send"]


def test_no_request_leaves_when_the_ledger_cannot_be_written() -> None:
    class BrokenLedger(MemoryLedger):
        def add_ledger(self, **kw: Any) -> int:
            raise OSError("disk full")

    client = FakeClient()
    guard = EgressGuard(client, ledger=BrokenLedger())
    with pytest.raises(OSError):
        guard.complete(user("Hello."), box=None)
    assert client.sent == []


def test_the_encrypted_store_is_a_ledger(tmp_path: Any) -> None:
    from core.store import Store

    store = Store.create(tmp_path / "s.db", passphrase="pw")
    guard = EgressGuard(FakeClient(), ledger=store)
    guard.complete(user("Hello [PERSON_1]."), box=None, conversation_id=None, purpose="chat")
    (row,) = store.ledger()
    assert row["payload"] == guard.check(user("Hello [PERSON_1]."))
    assert row["status"] == "ok" and row["response"] == "Hi [PERSON_1]."
    assert json.dumps(row["payload"]).count("Hello [PERSON_1].") == 1
    store.close()


def test_scanning_a_4000_character_payload_with_a_200_entry_box_builds_its_matcher_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # How long a scan takes is benchmarks/bench_egress.py's to report (a bound on
    # time here would fail on a busy machine); what makes the scans cheap is checked:
    # the box's matcher is built once, not once per scan.
    built: list[int] = []

    class Counted(matcher_module.BoxMatcher):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            built.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(matcher_module, "BoxMatcher", Counted)
    box = PrivacyBox()
    for i in range(200):
        box.placeholder_for(f"Person{i:03d} Surname{i * 7:04d}", EntityType.PERSON)
    text = ("The quarterly report for [PERSON_1] shows steady progress. " * 70)[:4000]
    guard = EgressGuard(FakeClient())
    messages = user(text)
    for _ in range(21):
        assert guard.scan(messages, box=box) == []
    assert len(built) == 1
    leak = user(text + " Regards to Person123 Surname0861.")
    assert guard.scan(leak, box=box)  # the matcher it kept still finds a value
    assert len(built) == 1


# --- the one-call door the turn pipeline uses -----------------------------------------------


def test_the_one_call_stream_checks_records_and_sends_once() -> None:
    client = FakeClient()
    guard = EgressGuard(client)
    box = make_box(("Maria Gonzalez", EntityType.PERSON))
    # The keywords core.turn and core.gama pass to their CloudDoor.
    chunks = guard.stream(
        user("Write to [PERSON_1]."),
        box=box,
        conversation_id=3,
        purpose="chat",
        consented=(),
        cancel=None,
        max_tokens=64,
    )
    assert "".join(chunks) == "Hello [PERSON_1]."
    assert (guard.endpoint, guard.model) == (client.endpoint, client.model)
    (row,) = guard.ledger.rows  # type: ignore[attr-defined]
    assert row["payload"]["max_tokens"] == 64 and row["conversation_id"] == 3
    with pytest.raises(EgressBlocked):
        guard.stream(user("Write to Maria Gonzalez."), box=box)
    assert len(client.sent) == 1


def test_the_one_call_complete_returns_the_answer() -> None:
    guard = EgressGuard(FakeClient())
    reply = guard.complete(user("Hi."), box=None, purpose="gama:disproof")
    assert reply.text == "Hi [PERSON_1]."
    assert guard.ledger.rows[0]["purpose"] == "gama:disproof"  # type: ignore[attr-defined]


def test_the_guard_is_the_pipelines_cloud_door() -> None:
    from core.turn import CloudDoor

    guard: CloudDoor = EgressGuard(FakeClient())  # checked by mypy as well
    assert callable(guard.stream)


@pytest.mark.parametrize(
    ("value", "type_"),
    [("MRN", EntityType.OTHER), ("Date", EntityType.ORG), ("Person", EntityType.OTHER)],
)
def test_the_boxs_own_placeholders_never_match_a_value_named_like_their_type(
    value: str, type_: EntityType
) -> None:
    box = make_box(("KDH-774219", EntityType.MRN), (value, type_))
    guard = EgressGuard(FakeClient())
    assert guard.scan(user("Her record is [MRN_1], seen on [DATE_1] by [PERSON_2]."), box=box) == []
    assert guard.scan(user(f"Her {value} is here."), box=box) != []


@pytest.mark.parametrize(
    "text", ["MRN 0048 2913", "[MRN 00482913]", "Mrn_0048-2913", "MRN 004\n82913"]
)
def test_a_value_written_like_a_loose_placeholder_still_blocks(text: str) -> None:
    box = make_box(("MRN 00482913", EntityType.MRN))
    with pytest.raises(EgressBlocked):
        EgressGuard(FakeClient()).check(user(text), box=box)


def test_no_value_is_matched_across_two_strings_of_the_payload() -> None:
    box = make_box(("Maria Gonzalez", EntityType.PERSON))
    messages = [
        {"role": "user", "content": "A question for Maria"},
        {"role": "user", "content": "Gonzalez cafe opening hours?"},
    ]
    assert EgressGuard(FakeClient()).scan(messages, box=box) == []


def test_the_detector_skips_the_clouds_own_answers_but_the_box_does_not() -> None:
    detector = ListDetector({"Mayo Clinic": EntityType.ORG})
    guard = EgressGuard(FakeClient(), detector=detector)
    box = make_box(("Maria Gonzalez", EntityType.PERSON))
    history = [
        {"role": "user", "content": "Where should [PERSON_1] go?"},
        {"role": "assistant", "content": "The Mayo Clinic is a good choice."},
        {"role": "user", "content": "Thanks."},
    ]
    assert guard.scan(history, box=box) == []
    history[1]["content"] += " Maria Gonzalez will like it."  # a restored answer slipped in
    assert [h.source for h in guard.scan(history, box=box)] == ["box"]
    history[0]["content"] += " Or the Mayo Clinic?"
    assert {h.source for h in guard.scan(history, box=box)} == {"box", "detector"}


def test_the_clouds_own_answer_may_go_back_verbatim_but_not_edited() -> None:
    client = FakeClient()
    client.pieces = ["The British", " prime minister..."]
    guard = EgressGuard(client)
    box = make_box(("British", EntityType.NRP))
    answer = "".join(guard.stream(user("Who was the next [NRP_1] prime minister?"), box=box))
    assert answer == "The British prime minister..."
    history = [*user("Who was it?"), {"role": "assistant", "content": answer}, {"role": "user", "content": "And then?"}]
    guard.check(history, box=box)  # the cloud said it itself: nothing new leaves
    edited = [*history[:2], {"role": "assistant", "content": answer + " (British)"}, history[-1]]
    with pytest.raises(EgressBlocked):
        guard.check(edited, box=box)


def test_answers_in_the_stores_ledger_count_as_received(tmp_path: Any) -> None:
    from core.store import Store

    with Store.create(tmp_path / "s.db", "pw") as store:
        lid = store.add_ledger(endpoint="e", model="m", payload={}, purpose="chat")
        store.finish_ledger(lid, status="ok", response="Ask Maria.")
        guard = EgressGuard(FakeClient(), ledger=store)
        box = make_box(("Maria", EntityType.PERSON))
        guard.check([*user("Hi."), {"role": "assistant", "content": "Ask Maria."}, {"role": "user", "content": "Ok."}], box=box)
        with pytest.raises(EgressBlocked):
            guard.check([*user("Hi."), {"role": "assistant", "content": "Ask Maria!"}], box=box)


def test_the_guard_looks_for_every_alias_of_a_box_value() -> None:
    """A later bare given name is the same person's: the guard blocks it like the full name."""
    from core.box import PrivacyBox
    from core.entities import EntityType

    class Client:
        endpoint = "http://127.0.0.1:9/v1"
        model = "m"

    box = PrivacyBox()
    box.placeholder_for("Tadeusz Wielgosz", EntityType.PERSON)
    box.placeholder_for("Tadeusz", EntityType.PERSON)  # linked: an alias of the same entry
    assert len(box) == 1
    guard = EgressGuard(Client())  # type: ignore[arg-type]
    hits = guard.scan([{"role": "user", "content": "Please tell Tadeusz the news."}], box=box)
    assert [h.type for h in hits] == ["PERSON"]


def test_a_piece_of_a_consented_value_is_not_blocked() -> None:
    pieces = word_runs(["LH 401", "Joanna Doe"])
    assert {normalize("LH"), normalize("401"), normalize("lh 401"), normalize("Joanna")} <= pieces
    assert normalize("anna") not in pieces and normalize("4") not in pieces


# --- the approval binds the exact bytes ----------------------------------------------------


@pytest.mark.parametrize("send", ["stream", "complete"])
def test_a_payload_that_changed_after_approval_is_refused_and_nothing_is_sent(send: str) -> None:
    client = FakeClient()
    guard = EgressGuard(client)
    shown = user("Write to [PERSON_1] about Tuesday.")
    approved = payload_digest(shown)
    changed = user("Write to [PERSON_1] about Wednesday.")
    with pytest.raises(PayloadChanged):
        getattr(guard, send)(changed, box=None, approved=approved)
    assert client.sent == [] and guard.ledger.rows == []  # type: ignore[attr-defined]
    # The approved bytes themselves go, and the ledger row carries their digest.
    if send == "stream":
        assert "".join(guard.stream(shown, box=None, approved=approved))
    else:
        assert guard.complete(shown, box=None, approved=approved).text
    (row,) = guard.ledger.rows  # type: ignore[attr-defined]
    assert row["digest"] == approved and row["status"] == "ok"
    assert len(client.sent) == 1


def test_every_ledger_row_carries_the_digest_of_its_payload(tmp_path: Any) -> None:
    from core.store import Store

    store = Store.create(tmp_path / "s.db", passphrase="pw")
    guard = EgressGuard(FakeClient(), ledger=store)
    messages = user("Hello [PERSON_1].")
    guard.complete(messages, box=None)  # no approval asked (the settings waive it)
    (row,) = store.ledger()
    assert row["digest"] == payload_digest(messages)
    store.close()
