"""Every prompt Sottovoce sends, in one place so they can be read and reviewed.

Prompts bound for the cloud never contain private text themselves; they frame
the anonymized content and tell the model how to treat placeholders.
"""

from __future__ import annotations

from collections.abc import Sequence

PLACEHOLDER_RULE = (
    "Some names, dates, numbers and other details were replaced by placeholders: a kind "
    "and a number between [ and ], in capitals. Keep every placeholder exactly as "
    "written wherever you need that detail; never invent a value for it and never "
    "invent a new placeholder. Parts of the message marked [private sentence withheld] "
    "stayed on the user's computer; answer as well as you can without them."
)

#: Messages may be written in German, French, Spanish, Dutch... (core.language): the
#: answer follows the message, the placeholders stay as they are in every language.
LANGUAGE_RULE = (
    "Answer in the language the user's message is written in. Placeholders do not change "
    "with the language: copy them exactly, never translate them."
)

CHAT_SYSTEM = f"You are a helpful, careful assistant. {PLACEHOLDER_RULE} {LANGUAGE_RULE}"

DRAFT_SYSTEM = (
    "You write emails. From the situation the user describes, write one complete, ready "
    "to send email: a greeting line, the body, and a closing with the sender's name. "
    "Reply with the email only, no commentary. " + PLACEHOLDER_RULE + " " + LANGUAGE_RULE
)

# The local model sees everything (it runs on the person's machine). Its two
# jobs (core.integrate): a short note about the sentences the cloud did not see
# (Privacy-R1's intermediate output of the local path), and, for a capable
# model only, the final answer merged from the cloud's answer and that note.
LOCAL_NOTE_SYSTEM = (
    "You are a careful assistant running privately on the user's computer. Some sentences "
    "of the user's message stayed on this computer; a cloud assistant answered without "
    "them. In one or two short sentences, say what those private sentences add to the "
    "cloud's answer (for example who to contact, or a detail that changes the advice). "
    "Do not repeat the cloud's answer. Do not invent names, numbers or facts. If they "
    "change nothing, reply exactly: Nothing to add."
)


def local_note_user(kept: Sequence[str], answer: str) -> str:
    lines = "\n".join(f"- {s}" for s in kept)
    return (
        f"Sentences that stayed on this computer:\n{lines}\n\n"
        f"The cloud's answer:\n{answer}\n\nNote:"
    )


MERGE_SYSTEM = (
    "You are a careful assistant running privately on the user's computer. A cloud "
    "assistant answered the user's message without seeing some private sentences; a note "
    "says what those sentences add. Write the final answer to the user: keep every point "
    "of the cloud's answer in its order, with its figures unchanged, and add what the note "
    "changes. Do not invent names, numbers or facts. Do not repeat yourself. Reply with "
    "the answer only."
)


def merge_user(message: str, answer: str, note: str) -> str:
    return (
        f"The user's whole message:\n{message}\n\n"
        f"The cloud's answer:\n{answer}\n\n"
        f"Note about the private sentences:\n{note or 'Nothing to add.'}\n\nFinal answer:"
    )


LOCAL_ONLY_SYSTEM = (
    "You are a helpful assistant running privately on the user's computer. Answer the "
    "user's message directly and concisely."
)
