"""Shipped model artifacts, each with a manifest, and the small loader that finds them.

Every artifact lives in its own folder (``models/<name>/``) with a
``manifest.json``::

    {"name": "ner", "files": {"model.onnx": "<sha256>", "tokenizer.json": "<sha256>"},
     "inputs": [...], "outputs": [...], "labels": [...], "opset": 17,
     "versions": {...}, "training_command": "...", "rebuild_command": "...",
     "metrics": {...}, "created": "..."}

:func:`verify` checks that every file named there exists and has its hash, and
raises :class:`ArtifactMissing` or :class:`ArtifactCorrupt` with a message that
names the file and the command that rebuilds it. This package imports nothing
of the project's (the core wraps these errors in its own types).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent


class ArtifactMissing(FileNotFoundError):
    """An artifact's folder, manifest or file is not there."""


class ArtifactCorrupt(ValueError):
    """An artifact's file does not match its manifest (hash, or unreadable manifest)."""


def artifact_dir(name: str) -> Path:
    """The folder of artifact ``name`` (``SOTTOVOCE_MODELS`` may point elsewhere)."""
    base = os.environ.get("SOTTOVOCE_MODELS")
    return (Path(base) if base else ROOT) / name


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def load_manifest(name: str, folder: Path | None = None) -> dict[str, Any]:
    folder = folder or artifact_dir(name)
    path = folder / "manifest.json"
    if not path.exists():
        raise ArtifactMissing(
            f"The model '{name}' is missing ({path} not found). Rebuild it with: "
            f"{_rebuild_hint(name)}"
        )
    try:
        manifest: dict[str, Any] = json.loads(path.read_text("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ArtifactCorrupt(f"{path} is not a readable manifest: {exc}") from exc
    return manifest


def verify(name: str, folder: Path | None = None) -> dict[str, Any]:
    """Check every file of artifact ``name`` against its manifest; return the manifest."""
    folder = folder or artifact_dir(name)
    manifest = load_manifest(name, folder)
    rebuild = manifest.get("rebuild_command") or _rebuild_hint(name)
    for fname, digest in manifest.get("files", {}).items():
        path = folder / fname
        if not path.exists():
            raise ArtifactMissing(f"{path} is missing. Rebuild it with: {rebuild}")
        if sha256(path) != digest:
            raise ArtifactCorrupt(
                f"{path} does not match its manifest (damaged or replaced). Rebuild it with: {rebuild}"
            )
    return manifest


def write_manifest(folder: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    """Fill in the hashes of ``manifest['files']`` (a list of names or a dict) and write it."""
    files = manifest.get("files", {})
    names = list(files)  # a dict (name -> old hash) or a list of names
    manifest = {**manifest, "files": {n: sha256(folder / n) for n in names}}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")
    return manifest


def rebuild_hint(name: str) -> str:
    """The command that rebuilds artifact ``name``."""
    return _rebuild_hint(name)


def _rebuild_hint(name: str) -> str:
    return {
        "ner": "python -m training.ner build",
        "ner_languages": "python -m training.ner build --out models/ner_languages "
        "--work build/ner-languages --epochs 4 --pupa-repeat 2 --wikiann-languages de fr nl "
        "--foreign 6000 --wikiann-limit 12000 --no-eval",
        "encoder": "python -m training.router export-encoder",
        "router": "python -m training.router build",
    }.get(name, f"python -m training.{name} build")
