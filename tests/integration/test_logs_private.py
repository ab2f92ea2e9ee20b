"""No private text in logs: whole turns with every logger at DEBUG.

Full turns run through the real :class:`~core.turn.Assistant` (detector,
router, privacy box, egress guard, the real ``openai`` client, the loopback
cloud behind the recording proxy, the SQLCipher store and the embedded local
model): a chat turn with sentences kept on the machine and a local merge, a
follow-up, an e-mail draft, a turn through GAMA's public-space modules, a
cloud error, and a turn the egress guard blocks. Every logger of the process
(ours, openai, httpx, llama.cpp's, presidio's...) is set to DEBUG and
recorded, exceptions formatted with their tracebacks; the test's stdout and
stderr are captured at the file-descriptor level (where native libraries
write). No value of any conversation's privacy box may appear in either.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from core.analyze import Route
from core.assembly import make_assistant
from core.errors import CloudError, EgressBlocked
from core.settings import Integration, NoteMode, Settings
from core.store import Store
from core.turn import Approval, Assistant, Choices, PreparedTurn, TurnKind, collect
from tests.integration.recording_proxy import Fault, RecordingProxy

CHAT = (
    "My daughter Lucy Whitfield, 7 years old, has had a fever since 03/02/2024. "
    "Her pediatrician is Dr. Anand Krishnan and her MRN is KDH-774219. "
    "What fever is too high for a child of that age?"
)
FOLLOW = "Should Lucy Whitfield see Dr. Anand Krishnan again tomorrow?"
DRAFT = (
    "Write to my landlord Gerald Moss (gerald.moss@example.net) that the heating in "
    "flat 4B has been broken since January 12, 2025 and I need it fixed this week. "
    "I am Priya Raman, phone 412-555-0196."
)
GAMA = "Marguerite Okafor of Brightwater Logistics asks how to plan a team offsite in Dubrovnik."
INPUT_VALUES = [
    "Lucy Whitfield", "Anand Krishnan", "KDH-774219", "03/02/2024", "Gerald Moss",
    "gerald.moss@example.net", "January 12, 2025", "Priya Raman", "412-555-0196",
    "Marguerite Okafor", "Brightwater Logistics",
]  # fmt: skip
#: Shorter values ("7", "4B") are letters and digits any log line may hold.
MIN_CHECKED = 4


class Keep(logging.Handler):
    """Keeps every record, formatted as a handler would write it (traceback included)."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
        self.lines: list[str] = []
        self.loggers: set[str] = set()

    def emit(self, record: logging.LogRecord) -> None:
        self.loggers.add(record.name)
        try:
            self.lines.append(self.format(record))
        except Exception:  # a record that cannot be formatted still counts, raw
            self.lines.append(f"{record.name} {record.msg!r} {record.args!r}")


@pytest.fixture
def every_logger_at_debug() -> Iterator[Keep]:
    keep = Keep()
    root = logging.getLogger()
    manager = logging.Logger.manager
    saved = {
        name: (lg.level, lg.propagate, lg.disabled)
        for name, lg in manager.loggerDict.items()
        if isinstance(lg, logging.Logger)
    }
    old_root, old_disable = root.level, manager.disable
    logging.disable(logging.NOTSET)
    root.setLevel(logging.DEBUG)
    root.addHandler(keep)
    for name in saved:
        lg = logging.getLogger(name)
        lg.setLevel(logging.DEBUG)
        lg.propagate = True
        lg.disabled = False
    try:
        yield keep
    finally:
        root.removeHandler(keep)
        root.setLevel(old_root)
        logging.disable(old_disable)
        for name, (level, propagate, disabled) in saved.items():
            lg = logging.getLogger(name)
            lg.setLevel(level)
            lg.propagate = propagate
            lg.disabled = disabled
        # Loggers made during the test go back to inheriting.
        for name, made in manager.loggerDict.items():
            if isinstance(made, logging.Logger) and name not in saved:
                made.setLevel(logging.NOTSET)


def _settings(demo_cloud: str, **over: Any) -> Settings:
    return Settings(  # type: ignore[call-arg]
        cloud_base_url=demo_cloud,
        cloud_model="sottovoce-demo",
        cloud_max_retries=0,
        cloud_timeout_s=60,
        cloud_max_tokens=40,
        **over,
    )


def _all_remote(assistant: Assistant, text: str) -> Choices:
    sentences = assistant.analyzer.segmenter.segment(text)
    return Choices(routes=dict.fromkeys((s.text for s in sentences), Route.REMOTE))


def _send(p: PreparedTurn) -> tuple[PreparedTurn, Approval]:
    return p, Approval.send(p)


def _box_values(store: Store) -> set[str]:
    values: set[str] = set()
    for data in store.boxes().values():
        for entry in data.get("entries", []):
            for key in ("value", "aliases", "forms"):
                found = entry.get(key)
                for v in found if isinstance(found, list) else [found]:
                    if isinstance(v, str):
                        values.add(v)
    return values


def test_full_turns_at_debug_log_no_private_value(
    store: Store,
    demo_cloud: str,
    recorder: RecordingProxy,
    every_logger_at_debug: Keep,
    capfd: pytest.CaptureFixture[str],
) -> None:
    keep = every_logger_at_debug
    # Chat: the local model keeps the private sentences and may merge the answer.
    local = make_assistant(
        _settings(
            demo_cloud,
            chat_integration=Integration.LOCAL,
            capable_model_b=0.0,
            private_note=NoteMode.ON,
        ),
        store,
        local=True,
    )
    chat = local.new_conversation("fever")
    collect(local.run(CHAT, chat, approve=_send))
    remote = make_assistant(
        _settings(demo_cloud, chat_integration=Integration.PASS_THROUGH), store, local=False
    )
    collect(remote.run(FOLLOW, chat, approve=_send, choices=_all_remote(remote, FOLLOW)))
    # A draft.
    draft = remote.new_conversation("heating", TurnKind.DRAFT)
    collect(remote.run(DRAFT, draft, TurnKind.DRAFT, approve=_send, choices=_all_remote(remote, DRAFT)))
    # GAMA's public space: domains, domain rules, disproof.
    gama = make_assistant(
        _settings(
            demo_cloud,
            chat_integration=Integration.PASS_THROUGH,
            gama_auto_prompt=True,
            gama_domain_rules=True,
            gama_disproof=True,
            gama_top_k=1,
            gama_disproof_rounds=1,
        ),
        store,
        local=False,
    )
    offsite = gama.new_conversation("offsite")
    collect(gama.run(GAMA, offsite, approve=_send, choices=_all_remote(gama, GAMA)))
    # A cloud error in the middle of a turn.
    recorder.inject(Fault("status", status=500))
    with pytest.raises(CloudError):
        collect(remote.run(FOLLOW, chat, approve=_send, choices=_all_remote(remote, FOLLOW)))
    # A turn the guard blocks: a box value as HTML character references, which
    # neither the detector nor the anonymizer decodes (so the pipeline sends it)
    # and the guard does.
    sent_before = len(recorder.chat_requests)
    blocked = "Please tell &#x4C;&#x75;&#x63;&#x79; &#x57;hitfield that the results are in."
    with pytest.raises(EgressBlocked):
        collect(remote.run(blocked, chat, approve=_send, choices=_all_remote(remote, blocked)))
    assert len(recorder.chat_requests) == sent_before

    out, err = capfd.readouterr()
    values = {v for v in _box_values(store) | set(INPUT_VALUES) if len(v.strip()) >= MIN_CHECKED}
    # The test is not vacuous: the values were in play, and the logs were written.
    assert {"Lucy Whitfield", "Gerald Moss", "Marguerite Okafor"} <= _box_values(store) | {
        v for v in INPUT_VALUES if any(v in m["content"] for c in (chat, draft, offsite) for m in store.messages(c))
    }
    assert len(keep.lines) > 50
    assert any(line.startswith("core.egress INFO egress blocked") for line in keep.lines)
    assert any(name.startswith(("openai", "httpx", "httpcore")) for name in keep.loggers)
    assert any(" DEBUG " in line for line in keep.lines)
    assert leaks(keep.lines, values) == []
    assert leaks([out, err], values) == []


def leaks(texts: list[str], values: set[str]) -> list[tuple[str, str]]:
    """(value, the text it was found in) for every value that appears (any case)."""
    return [
        (v, t[:300]) for t in texts for v in sorted(values) if v.casefold() in t.casefold()
    ]


def test_the_harness_would_catch_a_leak(
    every_logger_at_debug: Keep, capfd: pytest.CaptureFixture[str]
) -> None:
    """The control: a library's DEBUG record, made during the test, and a native write to stderr."""
    import os

    logging.getLogger("some.library.made.now").debug("payload for %s", "Lucy Whitfield")
    os.write(2, b"native: KDH-774219\n")
    out, err = capfd.readouterr()
    values = {"Lucy Whitfield", "KDH-774219"}
    assert [v for v, _ in leaks(every_logger_at_debug.lines, values)] == ["Lucy Whitfield"]
    assert [v for v, _ in leaks([out, err], values)] == ["KDH-774219"]
