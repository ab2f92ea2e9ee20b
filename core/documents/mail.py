"""E-mails: EML with the standard library's ``email`` (policy.default), MSG with extract-msg.

The headers a person reads (From, To, Cc, Date, Subject) come first, one a
line, then the text body (the HTML body as text when there is no plain one).
Attachments are listed by name and never opened: a line names them, and a
note says how many.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any

from core.documents.errors import CorruptDocument, DocumentError, UnsupportedFormat
from core.documents.model import Limits, Progress
from core.documents.reading import Draft
from core.documents.text import decode, html_to_text

HEADERS = ("From", "To", "Cc", "Date", "Subject")


def _compose(headers: Sequence[tuple[str, str]], body: str, attachments: Sequence[str]) -> Draft:
    lines = [f"{k}: {' '.join(v.split())}" for k, v in headers if v and v.strip()]
    lines += ["", body.strip()]
    notes = []
    if attachments:
        lines += ["", "Attachments (not opened): " + ", ".join(attachments)]
        n = len(attachments)
        notes.append(f"{n} attachment{'s' if n != 1 else ''} listed, not opened")
    return Draft("\n".join(lines), notes=notes)


def read_eml(path: Path, name: str, limits: Limits) -> Generator[Progress, None, Draft]:
    """An RFC 5322 message: headers, the text body, the attachments' names."""
    import email
    from email import policy
    from email.message import EmailMessage

    data = path.read_bytes()
    yield Progress(0, 1, f"Reading {name}")
    msg = email.message_from_bytes(data, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    try:
        headers = [(h, str(msg[h]) if msg[h] is not None else "") for h in HEADERS]
    except (ValueError, TypeError, IndexError) as exc:
        raise CorruptDocument(f"{name} is a damaged e-mail: its headers cannot be read.") from exc
    if not any(v for k, v in headers if k in ("From", "To", "Subject")):
        raise CorruptDocument(
            f"{name} is not an e-mail: it has no From, To or Subject header. Nothing was read from it.",
            hint="if it is plain text, rename it to .txt and attach it again",
        )
    body = ""
    part = msg.get_body(preferencelist=("plain", "html"))
    if part is not None:
        body = _content(part)
        if part.get_content_subtype() == "html":
            body = html_to_text(body)
    attachments = [a.get_filename() or "(unnamed)" for a in msg.iter_attachments()]
    return _compose(headers, body, attachments)


def _content(part: Any) -> str:
    try:
        return str(part.get_content())
    except (LookupError, UnicodeDecodeError, ValueError, AssertionError):
        # An unknown or wrong charset: decode the bytes as text files are.
        raw = part.get_payload(decode=True) or b""
        return decode(raw, "the e-mail's body")[0] if raw else ""


def read_msg(path: Path, name: str, limits: Limits) -> Generator[Progress, None, Draft]:
    """An Outlook message: headers, the text body, the attachments' names."""
    import extract_msg

    yield Progress(0, 1, f"Reading {name}")
    try:
        msg = extract_msg.openMsg(str(path), delayAttachments=True)
    except Exception as exc:  # extract-msg raises its own and olefile's errors
        raise CorruptDocument(
            f"{name} is a damaged or unsupported Outlook file. Nothing was read from it.",
            hint="open it in Outlook and save it again, or save it as .eml",
        ) from exc
    try:
        # IPM.Note and its kinds (signed, encrypted, read receipts: REPORT.IPM.Note.*) are
        # e-mails; contacts, meetings and tasks share the container but are not.
        kind = str(getattr(msg, "classType", "") or "").lower()
        if not isinstance(msg, extract_msg.msg_classes.MessageBase) or "ipm.note" not in kind:
            raise UnsupportedFormat(
                f"{name} is an Outlook item that is not an e-mail (a contact, a meeting, a task).",
                hint="Sottovoce reads Outlook e-mails; copy the text you need instead",
            )
        headers = [
            ("From", msg.sender or ""),
            ("To", msg.to or ""),
            ("Cc", msg.cc or ""),
            ("Date", str(msg.date) if msg.date else ""),
            ("Subject", msg.subject or ""),
        ]
        body = msg.body or ""
        html = msg.htmlBody if not body.strip() else None
        if html:
            body = html_to_text(html.decode("utf-8", "replace") if isinstance(html, bytes) else str(html))
        attachments = [_attachment_name(a) for a in msg.attachments]
    except DocumentError:
        raise
    except Exception as exc:
        raise CorruptDocument(
            f"{name} is a damaged Outlook file: its content cannot be read. Nothing was read from it.",
            hint="open it in Outlook and save it again, or save it as .eml",
        ) from exc
    finally:
        msg.close()
    return _compose(headers, body, attachments)


def _attachment_name(att: Any) -> str:
    for attr in ("longFilename", "shortFilename", "displayName", "name"):
        value = getattr(att, attr, None)
        if value:
            return str(value)
    return "(unnamed)"
