"""Typed, documented, versioned settings (pydantic-settings).

Stored as JSON under the platform's config directory (see :mod:`core.paths`);
environment variables ``SOTTOVOCE_<FIELD>`` override the file. Every field
carries a title, a description and bounds, so the settings dialog can be built
from this model. Secrets are never settings: the cloud API key and the vault
key live in the OS keyring.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from core import paths
from core.domain import Profile

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1


class ApprovalPolicy(StrEnum):
    ALWAYS = "always"
    WHEN_ENTITIES = "when_entities"
    NEVER = "never"


class Integration(StrEnum):
    LOCAL = "local"  # the local model merges the cloud's answer with the private sentences
    PASS_THROUGH = "pass_through"  # the restored cloud answer is the answer


class NoteMode(StrEnum):
    AUTO = "auto"  # a capable local model writes the note; a smaller one does not
    ON = "on"
    OFF = "off"


class Language(StrEnum):
    """The language of the person's messages (core.language); auto detects it per message."""

    AUTO = "auto"
    EN = "en"
    DE = "de"
    FR = "fr"
    ES = "es"
    NL = "nl"


class Part(StrEnum):
    """A part of a turn built from the settings (:mod:`core.assembly`)."""

    DETECTOR = "detector"
    LOCAL = "local"  # the local model
    CLOUD = "cloud"  # the cloud door: the egress guard and its client
    ASSISTANT = "assistant"  # the turn itself (and GAMA's public space, which it holds)


@dataclass(frozen=True)
class Rebuilds:
    """A field's mark: a change of its value rebuilds ``part`` (:meth:`Settings.rebuilt_by`)."""

    part: Part


_T = TypeVar("_T")
# The type of a field that a part reads once, when it is built: a change rebuilds the
# part. Fields of a plain type are read at each turn and rebuild nothing.
OfDetector = Annotated[_T, Rebuilds(Part.DETECTOR)]
OfLocal = Annotated[_T, Rebuilds(Part.LOCAL)]
OfCloud = Annotated[_T, Rebuilds(Part.CLOUD)]
OfTurn = Annotated[_T, Rebuilds(Part.ASSISTANT)]


class Settings(BaseSettings):
    """Everything a person can set. Never holds a secret."""

    model_config = SettingsConfigDict(
        env_prefix="SOTTOVOCE_", extra="ignore", validate_assignment=True
    )

    schema_version: int = Field(SCHEMA_VERSION, title="Settings schema version")

    risk_lambda: float = Field(
        5.0, ge=0.0, le=10.0, title="Privacy (lambda)",
        description="How much a leak costs against answer quality: 0 sends as much as is "
        "useful, 10 keeps anything doubtful on this machine (from 9.5, a sentence with a "
        "private detail leaves only when the rest of it is common words).",
    )
    privacy_profile: Profile = Field(
        Profile.AUTO, title="Privacy profile",
        description="The norm the privacy level applies to what leaves. auto: read from each "
        "message (health, legal, HR, finance words; on this machine). health: HIPAA Safe "
        "Harbor (towns and places smaller than a state, every date but its year, ages over "
        "89). legal: GDPR Art. 9 and 10. hr: GDPR Art. 9 and 88. finance: PCI DSS cardholder "
        "data. general: the level's own thresholds.",
    )
    approval_policy: ApprovalPolicy = Field(
        ApprovalPolicy.ALWAYS, title="Ask before sending",
        description="always: show every request before it leaves; when_entities: only when "
        "it carried private data; never: send without asking.",
    )
    chat_integration: Integration = Field(
        Integration.LOCAL, title="Chat answers",
        description="local: a capable local model (see the size below) merges the cloud's "
        "answer with the sentences that stayed private, under a guard that keeps the cloud's "
        "answer when the merge would lose or invent anything; a smaller model never rewrites "
        "it. pass_through: always show the cloud's restored answer.",
    )
    draft_integration: Integration = Field(
        Integration.PASS_THROUGH, title="Email drafts", description="As for chat answers."
    )
    capable_model_b: float = Field(
        1.0, ge=0.0, le=1000.0, title="Local model may merge answers from (billion parameters)",
        description="Counted from the GGUF file. Below this size the local model never "
        "rewrites the cloud's answer: you see the cloud's answer and which sentences stayed "
        "here. 0 lets any model try (its merge is still checked).",
    )
    private_note: NoteMode = Field(
        NoteMode.AUTO, title="Note about the private sentences",
        description="When the cloud's answer is shown as it is, the local model may add a "
        "short note about the sentences the cloud did not see, marked as its own. auto: "
        "only a capable model writes one; on: any model; off: never.",
    )
    merge_min_similarity: float = Field(
        0.85, ge=0.0, le=1.0, title="A merged answer must keep the cloud's answer (similarity)",
        description="How much of the cloud's restored answer a merged answer must keep: the "
        "mean MiniLM similarity of each of the cloud's sentences to its closest sentence in "
        "the merge (each must also reach 0.70). Below it the merge is discarded and the "
        "cloud's answer shown. Measured with `sottovoce eval answers` on 80 Med-PCD answers: "
        "reworded ones score 0.945 or more, half an answer at most 0.80, another answer on "
        "the same subject at most 0.61.",
    )

    first_run_done: bool = Field(
        False, title="First-run guide completed",
        description="Set once the person has been through (or skipped) the guide that "
        "connects a cloud and chooses the local model.",
    )

    # --- local model
    local_model_path: OfLocal[str | None] = Field(
        None, title="Local model (GGUF)",
        description="A GGUF file; empty uses the embedded SmolLM2-135M-Instruct.",
    )
    n_gpu_layers: OfLocal[int | None] = Field(
        None, ge=-1, le=1000, title="GPU layers",
        description="Layers offloaded to the GPU; empty chooses automatically (all when "
        "llama.cpp was built with GPU support, else none).",
    )
    n_ctx: OfLocal[int] = Field(4096, ge=512, le=131072, title="Context size (tokens)")
    n_threads: OfLocal[int | None] = Field(
        None, ge=1, le=256, title="Threads",
        description="Empty lets llama.cpp choose (half the CPUs for generation).",
    )

    # --- cloud
    cloud_base_url: OfCloud[str] = Field(
        "https://api.openai.com/v1", title="Cloud endpoint",
        description="Base URL of any OpenAI-compatible API.",
    )
    cloud_model: OfCloud[str] = Field("gpt-4o-mini", title="Cloud model")
    cloud_timeout_s: OfCloud[float] = Field(60.0, ge=1.0, le=600.0, title="Cloud timeout (seconds)")
    cloud_max_retries: OfCloud[int] = Field(3, ge=0, le=10, title="Retries on 429 and 5xx")
    cloud_max_tokens: OfTurn[int] = Field(
        1024, ge=16, le=32768, title="Longest cloud answer (tokens)",
        description="Caps each answer, so a conversation's history stays within the model's context.",
    )

    # --- the proxy for other apps (`sottovoce proxy`)
    proxy_port: int = Field(
        8765, ge=1, le=65535, title="Proxy port",
        description="The port on 127.0.0.1 where other apps reach the cloud through Sottovoce.",
    )
    proxy_approval_timeout_s: float = Field(
        120.0, ge=5.0, le=3600.0, title="Proxy: wait for approval (seconds)",
        description="How long an app's request waits for your approval in the window before "
        "it fails (nothing is sent).",
    )
    proxy_in_window: bool = Field(
        False, title="Serve other apps while the window is open",
        description="Start the proxy with the window, so apps' requests are approved here.",
    )

    # --- detection
    allow_list: OfDetector[list[str]] = Field(
        default_factory=list, title="Never private",
        description="Words that are never treated as private (public names, your product).",
    )
    deny_list: OfDetector[list[str]] = Field(
        default_factory=list, title="Always private",
        description="Words that are always protected wherever they appear.",
    )
    detect_min_score: OfDetector[float] = Field(
        0.35, ge=0.0, le=1.0, title="Detection threshold", description="Lowest score kept.",
    )
    fusion_single_view_min: OfDetector[float] = Field(
        0.5, ge=0.0, le=1.0, title="Single-view threshold",
        description="A span found by one view only is kept when its score reaches this.",
    )
    language: OfDetector[Language] = Field(
        Language.AUTO, title="Language of your messages",
        description="auto: each message (and each sentence of a mixed one) is judged by the "
        "rules of its language: English, German, French, Spanish or Dutch; another language "
        "gets the English model and the pattern rules, with a notice. A fixed language skips the "
        "detection.",
    )
    agent_view: OfDetector[bool] = Field(
        False, title="Ask the local model about names",
        description="GAMA's privacy-identifying agent: the local model judges whether each "
        "name or place is private in context (public figures are not). Slow with small models.",
    )

    # --- attached documents (core.documents)
    document_max_mb: float = Field(
        20.0, ge=0.1, le=500.0, title="Largest attached file (MB)",
        description="A PDF, Word, e-mail or spreadsheet file larger than this is refused "
        "before it is read.",
    )

    # --- GAMA public-space modules
    gama_auto_prompt: bool = Field(False, title="Domain auto-prompting")
    gama_domain_rules: bool = Field(False, title="Domain-rule knowledge enhancement")
    gama_disproof: bool = Field(False, title="Disproof-based logic enhancement")
    gama_top_k: int = Field(2, ge=1, le=20, title="Domains used (top-K)")
    gama_balance: float = Field(
        0.5, ge=0.0, le=1.0, title="TF-IDF vs model balance for domain relations"
    )
    gama_disproof_rounds: int = Field(2, ge=1, le=8, title="Disproof rounds")

    @field_validator("allow_list", "deny_list")
    @classmethod
    def _strip(cls, v: list[str]) -> list[str]:
        return [x.strip() for x in v if x.strip()]

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # The environment wins over the file; the file is read by load().
        return (env_settings, init_settings)

    @classmethod
    def rebuilt_by(cls, names: Iterable[str]) -> set[Part]:
        """The parts that a change of the fields ``names`` rebuilds (their :class:`Rebuilds` marks)."""
        fields = cls.model_fields
        return {m.part for n in names for m in fields[n].metadata if isinstance(m, Rebuilds)}

    def changed_from(self, other: Settings) -> set[str]:
        """The names of the fields whose value differs in ``other``."""
        return {n for n in type(self).model_fields if getattr(self, n) != getattr(other, n)}

    # --- persistence ------------------------------------------------------

    @classmethod
    def load(cls, path: Path | None = None) -> Settings:
        """Read the settings file (migrating old versions); missing file = defaults."""
        path = path or paths.settings_file()
        data: dict[str, Any] = {}
        if path.exists():
            try:
                data = json.loads(path.read_text("utf-8"))
            except (ValueError, UnicodeDecodeError):
                log.warning("settings file is damaged; using defaults (kept as .bad)")
                path.replace(path.with_suffix(".json.bad"))
                data = {}
        data = migrate(data)
        return cls(**data)

    def save(self, path: Path | None = None) -> None:
        """Write atomically (a crash never leaves half a file)."""
        path = path or paths.settings_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        text = self.model_dump_json(indent=2)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".settings-")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    """Bring an older settings dict to the current schema."""
    version = int(data.get("schema_version", SCHEMA_VERSION))
    if data and "first_run_done" not in data:
        # A settings file written before the first-run guide existed: this person
        # has set Sottovoce up already.
        data["first_run_done"] = True
    # Version 1 is the first; later versions add steps here.
    data["schema_version"] = max(version, SCHEMA_VERSION)
    return data
