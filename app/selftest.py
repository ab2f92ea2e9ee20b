"""``sottovoce --self-test``: check that this copy of the program works, headless and offline.

Run after installing (or by the bundle test in CI): it loads every model the
program ships (the segmenter, the rules view, the default detector with the
NER model when it is shipped, the router with the policy and encoder when
they are shipped, the embedded local model with one short generation),
reports where the local model runs (llama.cpp's backend: Vulkan, Metal, CUDA
or the CPU with the reason; the device, its free memory, the layers on it;
on a GPU, a greedy answer compared with the CPU's),
round-trips a sample through the privacy box, reads a small file of each
document format it writes itself (PDF, DOCX, ODT, XLSX, CSV, EML; a PDF page
rendered as OCR would render it; Tesseract's presence reported), creates, reopens and closes an
encrypted store in a temporary folder, and builds the window on Qt's
offscreen platform. It needs no display and no network: every internet
socket connection and name lookup is refused while it runs, and any attempt
fails the test. The person's settings, store and keyring are never touched
(``SOTTOVOCE_HOME`` points at the temporary folder for the duration).

It prints one line per check and exits 0 when all pass, 1 otherwise. The
sample is synthetic, so the report may show what was detected.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import platform
import secrets
import socket
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from core.errors import SottovoceError

#: A synthetic message: a greeting, private details of several kinds, a general question.
SAMPLE = (
    "Hi Anna, my name is Maria Rossi and my email is maria.rossi@example.com. "
    "Please call me on +1 415 555 0134 before 12 March 2025 about my account 88214471.\n\n"
    "What is a good way to structure a weekly team meeting?"
)
EMAIL = "maria.rossi@example.com"
PASSPHRASE_BYTES = 18

# --- the network guard ---------------------------------------------------------------


class NetworkGuard:
    """Refuses every internet connection and name lookup made by this process while active.

    Unix-domain sockets (local IPC) stay allowed. Each refusal is recorded
    (``attempts``) and raises ``OSError(ENETUNREACH)``, which libraries treat
    like a machine without a network, so a library that swallows the error
    still fails the self-test.
    """

    _INET = (socket.AF_INET, socket.AF_INET6)

    def __init__(self) -> None:
        self.attempts: list[str] = []
        self._saved: dict[str, Any] = {}

    def _refuse(self, what: str, target: object) -> None:
        self.attempts.append(f"{what} {target!r}")
        raise OSError(errno.ENETUNREACH, "the network is disabled during the self-test")

    def __enter__(self) -> NetworkGuard:
        guard = self
        sock_cls = socket.socket
        self._saved = {
            "connect": sock_cls.connect,
            "connect_ex": sock_cls.connect_ex,
            "sendto": sock_cls.sendto,
            "getaddrinfo": socket.getaddrinfo,
        }
        real_connect = self._saved["connect"]
        real_connect_ex = self._saved["connect_ex"]
        real_sendto = self._saved["sendto"]

        def connect(sock: socket.socket, address: Any) -> None:
            if sock.family in guard._INET:
                guard._refuse("connect", address)
            real_connect(sock, address)

        def connect_ex(sock: socket.socket, address: Any) -> int:
            if sock.family in guard._INET:
                guard._refuse("connect", address)
            return int(real_connect_ex(sock, address))

        def sendto(sock: socket.socket, *args: Any) -> int:
            if sock.family in guard._INET:
                guard._refuse("sendto", args[-1])
            return int(real_sendto(sock, *args))

        def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
            guard._refuse("lookup", host)

        sock_cls.connect = connect  # type: ignore[method-assign,assignment]
        sock_cls.connect_ex = connect_ex  # type: ignore[method-assign,assignment]
        sock_cls.sendto = sendto  # type: ignore[method-assign,assignment]
        socket.getaddrinfo = getaddrinfo
        return self

    def __exit__(self, *exc: object) -> None:
        socket.socket.connect = self._saved["connect"]  # type: ignore[method-assign]
        socket.socket.connect_ex = self._saved["connect_ex"]  # type: ignore[method-assign]
        socket.socket.sendto = self._saved["sendto"]  # type: ignore[method-assign]
        socket.getaddrinfo = self._saved["getaddrinfo"]


# --- checks ------------------------------------------------------------------------


class CheckFailed(Exception):
    """A check ran but its result is wrong."""


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


@dataclass
class Context:
    """What the checks share: the settings, the temporary home, and what earlier checks built."""

    home: Path
    settings: Any = None
    shipped: list[str] = field(default_factory=list)
    parts: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Check:
    """One named check; ``needs`` names the checks whose results it uses."""

    name: str
    run: Callable[[Context], str]
    needs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Result:
    name: str
    status: str  # "ok", "FAIL" or "skip"
    seconds: float
    detail: str


def check_models(ctx: Context) -> str:
    import models

    base = models.artifact_dir("manifest").parent
    folders = sorted(p for p in base.iterdir() if p.is_dir()) if base.is_dir() else []
    for folder in folders:
        if (folder / "manifest.json").exists():
            models.verify(folder.name, folder)
            ctx.shipped.append(folder.name)
    names = ", ".join(ctx.shipped) or "none (rules, spaCy and the heuristic router are used)"
    return f"shipped and verified: {names}"


def check_segmenter(ctx: Context) -> str:
    from core.segment import Segmenter

    seg = Segmenter()
    sentences = seg.segment(SAMPLE)
    expect(len(sentences) >= 3, f"expected at least 3 sentences, got {len(sentences)}")
    expect(all(SAMPLE[s.start : s.end] == s.text for s in sentences), "offsets do not match")
    ctx.parts["segmenter"] = seg
    return f"spaCy senter: {len(sentences)} sentences"


def check_rules(ctx: Context) -> str:
    from core.detect.rules import RulesView
    from core.entities import EntityType

    spans = RulesView().analyze(SAMPLE)
    found = {s.type for s in spans}
    expect(EntityType.EMAIL in found, "the e-mail address was not found")
    expect(EntityType.PHONE in found, "the phone number was not found")
    return f"{len(spans)} spans ({', '.join(sorted(str(t) for t in found))})"


def check_detector(ctx: Context) -> str:
    from core.assembly import default_detector

    detector = default_detector(ctx.settings)
    views = [v.name for v in detector.views]
    if "ner" in ctx.shipped:
        expect("ner" in views, f"the NER model is shipped but the detector uses {views}")
    spans = detector.analyze(SAMPLE)
    values = [SAMPLE[s.start : s.end] for s in spans]
    expect(any(EMAIL in v for v in values), "the e-mail address was not detected")
    expect(any("Rossi" in v for v in values), "the name Maria Rossi was not detected")
    ctx.parts["detector"] = detector
    ctx.parts["spans"] = spans
    return f"views {'+'.join(views)}: {len(spans)} entities"


def check_router(ctx: Context) -> str:
    from core.analyze import Analyzer
    from core.assembly import default_router

    router = default_router(ctx.settings, ctx.parts["detector"])
    if {"router", "encoder"} <= set(ctx.shipped):
        expect(router.name == "policy", f"the policy is shipped but the router is {router.name}")
    analyzer = Analyzer(ctx.parts["segmenter"], ctx.parts["detector"], router)
    analysis = analyzer.analyze(SAMPLE, ctx.settings.risk_lambda)
    probs = [p.p_remote for p in analysis.plans]
    expect(len(probs) >= 3, "the router planned fewer sentences than the segmenter found")
    expect(all(0.0 <= p <= 1.0 for p in probs), f"probabilities out of range: {probs}")
    routes = "/".join(str(p.route) for p in analysis.plans)
    return f"{analysis.router} router: {routes}"


def check_box(ctx: Context) -> str:
    from core.box import PrivacyBox

    box = PrivacyBox()
    anonymized = box.anonymize(SAMPLE, ctx.parts["spans"])
    expect(EMAIL not in anonymized.text, "the e-mail address survived anonymization")
    expect(box.deanonymize(anonymized.text).text == SAMPLE, "deanonymize did not restore the text")
    # The streamed form: placeholders split across chunks must restore the same.
    restorer = box.stream()
    text = anonymized.text
    streamed = "".join(restorer.feed(text[i : i + 5]) for i in range(0, len(text), 5))
    expect(streamed + restorer.flush() == SAMPLE, "streamed restore differs from the original")
    ctx.parts["box"] = box
    return f"{len(box)} placeholders, round trip exact"


def _minimal_pdf(line: str) -> bytes:
    """A one-page PDF whose text layer holds ``line`` (ASCII), written by hand."""
    stream = f"BT /F1 12 Tf 72 720 Td ({line}) Tj ET".encode("ascii")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for k, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (k, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def _minimal_docx(path: Path, line: str) -> None:
    """A DOCX of one paragraph, written as its three required parts."""
    import zipfile

    main = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
    ns = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            f'<Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="{main}"/></Types>',
        )
        z.writestr(
            "_rels/.rels",
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{rel}" Target="word/document.xml"/></Relationships>',
        )
        z.writestr(
            "word/document.xml",
            f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{ns}"><w:body>'
            f"<w:p><w:r><w:t>{line}</w:t></w:r></w:p></w:body></w:document>",
        )


def check_documents(ctx: Context) -> str:
    from email.message import EmailMessage

    from core.documents import extract, find_tesseract
    from core.documents.ocr import render_page

    line = "Invoice for Maria Rossi"
    folder = ctx.home / "documents"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "a.pdf").write_bytes(_minimal_pdf(line))
    _minimal_docx(folder / "a.docx", line)
    (folder / "a.csv").write_text(f"item,who\n1,{line}\n", "utf-8")
    import openpyxl

    book = openpyxl.Workbook()
    book.active.append(["item", line])  # type: ignore[union-attr]
    book.save(folder / "a.xlsx")
    from odf.opendocument import OpenDocumentText
    from odf.text import P

    odt = OpenDocumentText()
    odt.text.addElement(P(text=line))
    odt.save(str(folder / "a.odt"))
    mail = EmailMessage()
    mail["From"], mail["Subject"] = "maria.rossi@example.com", "Invoice"
    mail.set_content(line + "\n")
    (folder / "a.eml").write_bytes(bytes(mail))
    read = []
    for path in sorted(folder.iterdir()):
        doc = extract(path, find_ocr=lambda: None)
        expect(line in doc.text, f"{path.suffix} extraction lost the text: {doc.text[:80]!r}")
        read.append(path.suffix.lstrip("."))
    import extract_msg  # noqa: F401 - MSG files: the reader must be importable
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(folder / "a.pdf"))
    try:
        png = render_page(pdf, 0, "a.pdf", 40_000_000)
    finally:
        pdf.close()
    expect(png.startswith(b"\x89PNG"), "a PDF page did not render for OCR")
    ocr = find_tesseract()
    where = f"OCR by {Path(ocr.binary).name}" if ocr is not None else "no Tesseract (OCR off)"
    return f"read {', '.join(read)}; a page rendered for OCR; {where}"


def check_local_model(ctx: Context) -> str:
    from core.llm.local import LocalModel

    start = time.perf_counter()
    with LocalModel(None, n_ctx=512, n_gpu_layers=ctx.settings.n_gpu_layers) as model:
        loaded = time.perf_counter() - start
        reply = model.chat(
            [{"role": "user", "content": "Say hello in three words."}],
            max_tokens=12,
            temperature=0.0,
            seed=0,
        )
    expect(bool(reply.text.strip()), "the local model answered nothing")
    return f"{model.path.name}: loaded in {loaded:.2f} s, {reply.completion_tokens} tokens"


#: A prompt whose greedy answer the GPU and the CPU must write alike, and how many tokens of it.
GREEDY_PROMPT = [{"role": "user", "content": "List the first five days of the week."}]
GREEDY_TOKENS = 8


def _greedy(n_gpu_layers: int) -> tuple[str, int]:
    """The embedded model's greedy answer to :data:`GREEDY_PROMPT` with ``n_gpu_layers``."""
    from core.llm.local import LocalModel

    with LocalModel(None, n_ctx=512, n_gpu_layers=n_gpu_layers) as model:
        reply = model.chat(GREEDY_PROMPT, max_tokens=GREEDY_TOKENS, temperature=0.0, seed=0)
        return reply.text, model.n_gpu_layers


def check_gpu(ctx: Context) -> str:
    """Where llama.cpp runs the model (backend, device, free memory, layers) and that it works.

    On a GPU: the layers offloaded are more than zero and a greedy answer is
    the same as the CPU's. Without one: no layer is offloaded and the status
    says why in one line (and, for a build without any GPU backend, how to
    get one).
    """
    from core.llm.gguf_file import read_gguf
    from core.llm.gpu import gpu_status
    from core.llm.local import auto_gpu_layers, embedded_model_path, memory_needed

    requested = ctx.settings.n_gpu_layers
    status = gpu_status(None, requested, n_ctx=512)
    info = read_gguf(embedded_model_path())
    chosen = auto_gpu_layers(requested, memory_needed(info, 512))
    expect(
        status.n_gpu_layers == chosen,
        f"the status reports n_gpu_layers={status.n_gpu_layers} but LocalModel uses {chosen}",
    )
    expect(status.layers_total is not None, "the embedded model's layers could not be counted")
    placement = status.placement
    expect(placement is not None, "no placement in the status")
    assert placement is not None
    if placement.on_gpu:
        expect(bool(status.layers_offloaded), "the model is placed on a GPU but no layer goes there")
        gpu_text, used = _greedy(status.n_gpu_layers)
        expect(used == status.n_gpu_layers, f"LocalModel used n_gpu_layers={used}")
        cpu_text, _ = _greedy(0)
        expect(bool(gpu_text.strip()), "the model answered nothing on the GPU")
        expect(
            gpu_text == cpu_text,
            f"greedy answers differ: GPU {gpu_text!r}, CPU {cpu_text!r}",
        )
        # VRAM in use only shows while a model sits on the GPU.
        status = gpu_status(None, requested, n_ctx=512)
        same = f"greedy answer on {placement.backend} = CPU ({GREEDY_TOKENS} tokens)."
        return " ".join([*status.lines(), same])
    expect(status.layers_offloaded == 0, "the model runs on the CPU but layers are counted on a GPU")
    expect(bool(placement.reason), "the CPU fallback does not say why")
    if not status.build.offload and not status.build.compiled:
        expect(bool(status.rebuild), "no rebuild instructions for a CPU build")
    return " ".join(status.lines())


def check_store(ctx: Context) -> str:
    from core.errors import WrongKeyError
    from core.store import Store, keyring_available

    path = ctx.home / "selftest.db"
    passphrase = secrets.token_urlsafe(PASSPHRASE_BYTES)
    box = ctx.parts["box"].to_json()
    with Store.create(path, passphrase) as store:
        conv = store.new_conversation("self-test", kind="chat")
        store.save_box(conv, box)
    with Store.open(path, passphrase) as store:
        expect(store.load_box(conv) == box, "the box read back differs from the one written")
    raw = path.read_bytes()
    expect(not raw.startswith(b"SQLite format 3"), "the store file is not encrypted")
    expect(EMAIL.encode() not in raw, "private text is readable in the store file")
    with _quiet_sqlcipher():
        try:
            Store.open(path, passphrase + "x").close()
        except WrongKeyError:
            pass
        else:
            raise CheckFailed("a wrong passphrase opened the store")
    ctx.parts["store_path"] = path
    ctx.parts["passphrase"] = passphrase
    # Information only: without a keyring backend the window asks for a passphrase instead.
    ring = f"keyring {_keyring_name()}" if keyring_available() else "no keyring (passphrase)"
    return f"SQLCipher store created, reopened, wrong passphrase refused; {ring}"


def _keyring_name() -> str:
    import keyring

    return type(keyring.get_keyring()).__name__


@contextlib.contextmanager
def _quiet_sqlcipher() -> Iterator[None]:
    """Silence SQLCipher's own stderr log (it reports the expected wrong key as an ERROR)."""
    import sqlcipher3

    conn = sqlcipher3.connect(":memory:")
    try:
        level = conn.execute("PRAGMA cipher_log_level").fetchone()[0]
        # The log level is process-wide: setting it on any connection applies to all.
        conn.execute("PRAGMA cipher_log_level = NONE")
        try:
            yield
        finally:
            conn.execute(f"PRAGMA cipher_log_level = {level}")
    finally:
        conn.close()


def check_window(ctx: Context) -> str:
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from app.bundle import icon_file, is_frozen
    from core.assembly import Parts
    from core.store import Store
    from ui.engine import Engine
    from ui.main_window import MainWindow
    from ui.theme import apply_style

    app = QApplication.instance()
    created = app is None
    if created:
        app = QApplication([sys.argv[0], "-platform", "offscreen"])
    assert isinstance(app, QApplication)
    if created:
        apply_style(app)
    icon_path = icon_file()
    if is_frozen():
        expect(icon_path is not None, "the application icon is missing from the bundle")
    icon = QIcon(str(icon_path)) if icon_path is not None else None
    expect(icon is None or not icon.isNull(), "the application icon does not load")
    store = Store.open(ctx.parts["store_path"], ctx.parts["passphrase"])
    # No cloud door and no local model: the window only has to paint.
    engine = Engine(ctx.settings, store, Parts(cloud=None, local=None), save_settings=False)
    window = MainWindow(engine, load_models=False)
    try:
        if icon is not None:
            window.setWindowIcon(icon)
        window.show()
        app.processEvents()
        shot = window.grab()
        expect(not shot.isNull() and shot.width() > 0, "the window did not paint")
    finally:
        window.close()
        window.deleteLater()
        # processEvents() leaves deferred deletes alone; the window must go before its store.
        app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        app.processEvents()
        store.close()
    return f"Qt {_qt_version()} on {app.platformName()}: main window painted {shot.width()}x{shot.height()}"


def _qt_version() -> str:
    from PySide6 import QtCore

    return str(QtCore.qVersion())


CHECKS: tuple[Check, ...] = (
    Check("models", check_models),
    Check("segmenter", check_segmenter, ("models",)),
    Check("rules view", check_rules),
    Check("detector", check_detector, ("models",)),
    Check("router", check_router, ("segmenter", "detector")),
    Check("privacy box", check_box, ("detector",)),
    Check("documents", check_documents),
    Check("local model", check_local_model, ("models",)),
    Check("gpu offload", check_gpu, ("local model",)),
    Check("encrypted store", check_store, ("privacy box",)),
    Check("window", check_window, ("encrypted store",)),
)


# --- running -------------------------------------------------------------------------


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SottovoceError):
        return exc.message + (f" ({exc.hint})" if exc.hint else "")
    if isinstance(exc, CheckFailed):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


def run_checks(checks: Sequence[Check], ctx: Context, out: IO[str]) -> list[Result]:
    """Run ``checks`` in order, printing one line each; a check whose needs failed is skipped."""
    results: list[Result] = []
    passed: set[str] = set()
    width = max(len(c.name) for c in checks)
    for check in checks:
        missing = [n for n in check.needs if n not in passed]
        start = time.perf_counter()
        if missing:
            result = Result(check.name, "skip", 0.0, f"needs {', '.join(missing)}")
        else:
            try:
                detail = check.run(ctx)
                result = Result(check.name, "ok", time.perf_counter() - start, detail)
                passed.add(check.name)
            except Exception as exc:  # every failure is reported, then the next check runs
                result = Result(check.name, "FAIL", time.perf_counter() - start, _describe(exc))
        results.append(result)
        print(
            f"  {result.status:<4}  {result.name:<{width}}  {result.seconds:6.2f} s  {result.detail}",
            file=out,
            flush=True,
        )
    return results


@contextlib.contextmanager
def _temporary_home() -> Iterator[Path]:
    """A throw-away SOTTOVOCE_HOME: the person's settings and store are never touched."""
    previous = os.environ.get("SOTTOVOCE_HOME")
    with tempfile.TemporaryDirectory(prefix="sottovoce-selftest-") as tmp:
        os.environ["SOTTOVOCE_HOME"] = tmp
        try:
            yield Path(tmp)
        finally:
            if previous is None:
                os.environ.pop("SOTTOVOCE_HOME", None)
            else:
                os.environ["SOTTOVOCE_HOME"] = previous


def run_selftest(
    args: argparse.Namespace | None = None,
    *,
    checks: Sequence[Check] = CHECKS,
    out: IO[str] | None = None,
) -> int:
    """Run the self-test; 0 when every check passed and nothing tried to reach the network."""
    from app.bundle import is_frozen

    out = out or sys.stdout
    started = time.perf_counter()
    where = "bundle" if is_frozen() else "source"
    print(
        f"Sottovoce self-test ({where}, Python {platform.python_version()}, "
        f"{platform.system()} {platform.machine()})",
        file=out,
        flush=True,
    )
    with _temporary_home() as home, NetworkGuard() as guard:
        from core.settings import Settings

        # Defaults (not the file, not the environment): this checks the program, not a setup.
        results = run_checks(checks, Context(home, Settings.model_validate({})), out)
    if guard.attempts:
        shown = "; ".join(guard.attempts[:3])
        results.append(Result("network", "FAIL", 0.0, f"{len(guard.attempts)} attempts: {shown}"))
        print(f"  FAIL  network: {len(guard.attempts)} connection attempts ({shown})", file=out)
    else:
        print("  ok    network: no connection attempted", file=out)
    total = time.perf_counter() - started
    failed = [r for r in results if r.status != "ok"]
    if failed:
        names = ", ".join(f"{r.name} ({r.status.lower()})" for r in failed)
        print(f"self-test FAILED in {total:.1f} s: {names}", file=out, flush=True)
        if out is not sys.stderr:
            print(f"sottovoce: self-test failed: {names}", file=sys.stderr)
        return 1
    print(f"self-test passed: {len(results)} checks in {total:.1f} s", file=out, flush=True)
    return 0
