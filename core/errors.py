"""Typed errors of the core, each carrying a message meant for a person.

One base class, :class:`SottovoceError`, whose ``message`` is safe to show in a
dialog or print on the command line: it never contains private text (an
egress block names the entity type, never the value). The UI presents every
subclass through one boundary function; the command line maps them to a
non-zero exit status.
"""

from __future__ import annotations


class SottovoceError(Exception):
    """Base of every error the core raises on purpose.

    ``message`` is written for the person using the app; ``hint`` optionally
    says what to do about it (a command to run, a setting to change).
    """

    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


class InputError(SottovoceError):
    """The text or file given to Sottovoce cannot be used (empty, too large, not UTF-8...)."""

    exit_code = 2


class Cancelled(SottovoceError):
    """Work stopped because the person asked it to; shown silently."""

    def __init__(self, message: str = "Cancelled.") -> None:
        super().__init__(message)


# --- models and artifacts -------------------------------------------------


class ModelLoadError(SottovoceError):
    """A model file is missing, corrupt, or cannot be loaded on this machine."""


class ArtifactError(ModelLoadError):
    """A shipped model artifact is missing or does not match its manifest."""


# --- store -----------------------------------------------------------------


class StoreError(SottovoceError):
    """The encrypted store cannot be opened or written."""


class VaultLockedError(StoreError):
    """The store is locked: no key is available, or the key given is wrong."""


class WrongKeyError(VaultLockedError):
    """The passphrase or key does not open this store (or the file is not a store)."""


class StoreBusyError(StoreError):
    """Another process holds the store's lock."""


# --- cloud -----------------------------------------------------------------


class CloudError(SottovoceError):
    """The cloud model could not be reached or gave no usable answer."""

    @property
    def retryable(self) -> bool:
        """True when the same request may succeed later (no connection, 429, 5xx)."""
        return isinstance(self, CloudUnreachable | CloudRateLimited | CloudServerError)


class CloudUnreachable(CloudError):
    """No connection to the cloud endpoint (server down, DNS, refused, cut)."""


class CloudTimeout(CloudUnreachable):
    """The cloud endpoint did not answer in time."""


class CloudUnauthorized(CloudError):
    """The endpoint rejected the API key (401/403)."""


class CloudNotFound(CloudError):
    """The endpoint or the model name does not exist (404)."""


class CloudRateLimited(CloudError):
    """The endpoint asked us to slow down (429) and retries ran out."""


class CloudServerError(CloudError):
    """The endpoint failed (5xx) and retries ran out."""


class CloudMalformedResponse(CloudError):
    """The endpoint answered with something that is not a valid chat completion."""


# --- privacy ---------------------------------------------------------------


class EgressBlocked(SottovoceError):
    """The egress guard found private data in a payload and sent nothing.

    ``entity_types`` lists the types found (never the values).
    """

    def __init__(self, entity_types: list[str]) -> None:
        kinds = ", ".join(sorted(set(entity_types))) or "private data"
        super().__init__(
            f"Blocked: the outgoing message still contains private data ({kinds}). Nothing was sent.",
            hint="protect the highlighted entities or keep the sentence local",
        )
        self.entity_types = sorted(set(entity_types))


class ApprovalDeclined(Cancelled):
    """The person declined to send the payload; nothing left the machine."""

    def __init__(self) -> None:
        super().__init__("Not sent: you cancelled before anything left the machine.")


class PayloadChanged(SottovoceError):
    """What would be sent is not the payload the person approved; nothing was sent.

    The approval binds the digest of the exact messages shown (see
    :func:`core.outbound.payload_digest`); any change needs a new approval.
    """

    def __init__(self) -> None:
        super().__init__(
            "Not sent: the message changed after you approved it. Nothing left the machine.",
            hint="review the new message and approve it again",
        )
