"""The models folder: which GGUF models are here, and adding, choosing and removing them.

The folder is ``<data dir>/models`` (``~/.local/share/sottovoce/models`` on
Linux; under ``SOTTOVOCE_HOME`` in tests). A model is a ``*.gguf`` file
directly in it; downloads in progress live in ``.partial/`` and are never
listed as models. ``models.json`` remembers where each file came from (the
catalogue, a URL, an import) and its sha256; a GGUF copied into the folder by
hand is listed too, as "found".

An import copies the person's file in (through a partial file, checked and
moved like a download) unless they ask to use it where it is; then only a
reference is kept, and removing the model never deletes their file.

Choosing a model writes ``local_model_path`` in the settings; this module
returns the new settings and leaves saving to the caller.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
import time
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack

from core import paths
from core.errors import Cancelled, InputError
from core.llm import catalog, modelfile
from core.llm import download as dl
from core.llm.base import Cancel, is_cancelled
from core.llm.catalog import CatalogEntry

if TYPE_CHECKING:
    from core.settings import Settings

INDEX = "models.json"
EMBEDDED = "embedded"
_NAME = re.compile(r"^[a-z0-9][a-z0-9._+-]*$")


class ModelNotInstalled(InputError):
    """No model of that name is in the models folder."""


def models_dir() -> Path:
    """The folder that holds downloaded and imported models."""
    return paths.data_dir() / "models"


@dataclass(frozen=True)
class Installed:
    """A model in the folder (or, imported in place, referenced from it)."""

    name: str
    path: Path
    size: int
    sha256: str | None
    source: str  # "catalog", "url", "import", "in-place" or "found"
    url: str | None = None
    entry: CatalogEntry | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "path": str(self.path),
            "size": self.size,
            "sha256": self.sha256,
            "source": self.source,
            "url": self.url,
            "catalog": self.entry.name if self.entry else None,
        }


@dataclass(frozen=True)
class Partial:
    """A download that has not finished (or waits for its hash to be confirmed)."""

    name: str
    filename: str
    done: int
    total: int | None
    url: str | None
    complete: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "filename": self.filename,
            "bytes": self.done,
            "total": self.total,
            "url": self.url,
            "waiting_for_sha256": self.complete,
        }


def name_for(filename: str) -> str:
    """The name a file gets when none is given: its stem, lowercase, other characters as ``-``."""
    stem = re.sub(r"[^a-z0-9._+-]+", "-", Path(filename).stem.lower())
    return stem.strip("-._+") or "model"


class Library:
    """The models folder at ``root`` (the platform's one by default)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or models_dir()

    # --- the index --------------------------------------------------------------------

    def _index(self) -> list[dict[str, Any]]:
        try:
            data = json.loads((self.root / INDEX).read_text("utf-8"))
        except (OSError, ValueError):
            return []
        models = data.get("models") if isinstance(data, dict) else None
        return [m for m in models if isinstance(m, dict)] if isinstance(models, list) else []

    def _save_index(self, models: list[dict[str, Any]]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.root, prefix=".index-")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"version": 1, "models": models}, fh, indent=1)
        os.replace(tmp, self.root / INDEX)

    def _record(self, **row: Any) -> None:
        models = [m for m in self._index() if m.get("name") != row["name"]]
        models.append({**row, "added": time.strftime("%Y-%m-%dT%H:%M:%S")})
        self._save_index(models)

    # --- what is here -----------------------------------------------------------------

    def installed(self) -> list[Installed]:
        """Every usable model: indexed files that still exist, plus GGUFs found in the folder."""
        out: list[Installed] = []
        seen: set[Path] = set()
        for row in self._index():
            path = Path(str(row.get("path") or self.root / str(row.get("file", ""))))
            if not path.is_absolute():
                path = self.root / path
            if not path.is_file():
                continue
            entry = None
            with contextlib.suppress(catalog.UnknownModel):
                entry = catalog.find(str(row.get("catalog") or "")) if row.get("catalog") else None
            out.append(
                Installed(
                    name=str(row["name"]),
                    path=path,
                    size=path.stat().st_size,
                    sha256=row.get("sha256"),
                    source=str(row.get("source", "found")),
                    url=row.get("url"),
                    entry=entry,
                )
            )
            seen.add(path.resolve())
        if self.root.is_dir():
            names = {m.name for m in out}
            for path in sorted(self.root.glob("*.gguf")):
                if path.resolve() in seen or not path.is_file():
                    continue
                entry = next((e for e in catalog.CATALOG if e.filename == path.name), None)
                name = entry.name if entry else name_for(path.name)
                if name in names:
                    continue
                out.append(Installed(name, path, path.stat().st_size, None, "found", None, entry))
                names.add(name)
        return out

    def partials(self) -> list[Partial]:
        """Downloads that did not finish; none of them is ever used as a model."""
        folder = self.root / modelfile.PARTIAL_DIR
        out: list[Partial] = []
        if not folder.is_dir():
            return out
        for part in sorted(folder.glob("*" + modelfile.PART_SUFFIX)):
            filename = part.name[: -len(modelfile.PART_SUFFIX)]
            meta = modelfile.read_meta(part)
            entry = next((e for e in catalog.CATALOG if e.filename == filename), None)
            out.append(
                Partial(
                    name=entry.name if entry else name_for(filename),
                    filename=filename,
                    done=part.stat().st_size,
                    total=meta.get("size") if isinstance(meta.get("size"), int) else None,
                    url=meta.get("url"),
                    complete=bool(meta.get("complete")),
                )
            )
        return out

    def get(self, name: str) -> Installed:
        """The installed model called ``name`` (or whose file is called so)."""
        key = name.strip().lower()
        for m in self.installed():
            if key in (m.name.lower(), m.path.name.lower()):
                return m
        raise ModelNotInstalled(
            f"No model called “{name}” is installed.",
            hint="`sottovoce model list` shows what is installed and what can be downloaded",
        )

    def find_installed(self, name: str) -> Installed | None:
        try:
            return self.get(name)
        except ModelNotInstalled:
            return None

    # --- downloading ------------------------------------------------------------------

    def resolve(
        self, what: str, *, sha256: str | None = None, name: str | None = None
    ) -> tuple[str, modelfile.Request, CatalogEntry | None]:
        """(model name, download request, catalogue entry) for a catalogue name or a URL."""
        what = what.strip()
        if "://" in what:
            entry = catalog.by_url(what)
            if entry is not None:
                return self._from_entry(entry, sha256)
            filename = modelfile.filename_from_url(what)
            model = name or name_for(filename)
            _check_name(model)
            return model, modelfile.check_request(modelfile.Request(what, filename, sha256, None)), None
        return self._from_entry(catalog.find(what), sha256)

    @staticmethod
    def _from_entry(
        entry: CatalogEntry, sha256: str | None
    ) -> tuple[str, modelfile.Request, CatalogEntry]:
        if sha256 and entry.sha256 and sha256.strip().lower() != entry.sha256:
            raise InputError(
                f"The sha256 given differs from the catalogue's for {entry.name}.",
                hint="leave --sha256 out for catalogue models",
            )
        req = modelfile.Request(entry.url, entry.filename, entry.sha256 or sha256, entry.size)
        return entry.name, req, entry

    def download(
        self,
        what: str,
        *,
        sha256: str | None = None,
        name: str | None = None,
        cancel: Cancel = None,
        **transfer: Unpack[dl.Fetch],
    ) -> Generator[modelfile.Progress, None, Installed]:
        """Download a catalogue model (by name) or any GGUF URL; resumes a partial one.

        ``cancel`` is checked between chunks (a named parameter, so that a worker
        of the window hands its cancel event over); ``transfer`` goes to
        :func:`core.llm.download.download` (client, retries...).
        """
        model, req, entry = self.resolve(what, sha256=sha256, name=name)
        existing = self.find_installed(model)
        if existing is not None:
            return existing
        path = yield from dl.download(req, self.root, cancel=cancel, **transfer)
        return self._downloaded(model, req, entry, path)

    def finish(
        self, what: str, sha256: str, *, name: str | None = None, cancel: Cancel = None
    ) -> Generator[modelfile.Progress, None, Installed]:
        """Install a downloaded file that waited for the person to confirm its sha256."""
        model, req, entry = self.resolve(what, sha256=sha256, name=name)
        path = yield from modelfile.finish(self.root, req.filename, sha256, cancel=cancel)
        return self._downloaded(model, modelfile.Request(req.url, req.filename, sha256.lower()), entry, path)

    def _downloaded(
        self, model: str, req: modelfile.Request, entry: CatalogEntry | None, path: Path
    ) -> Installed:
        source = "catalog" if entry else "url"
        self._record(
            name=model,
            file=path.name,
            sha256=req.sha256,
            source=source,
            url=req.url,
            catalog=entry.name if entry else None,
        )
        return Installed(model, path, path.stat().st_size, req.sha256, source, req.url, entry)

    def discard(self, name: str) -> Path | None:
        """Delete the partial download of ``name`` (a model or file name); its path, if any."""
        for p in self.partials():
            if name.strip().lower() in (p.name, p.filename.lower()):
                modelfile.discard_partial(self.root, p.filename)
                return modelfile.partial_path(self.root, p.filename)
        return None

    # --- importing --------------------------------------------------------------------

    def import_file(
        self,
        source: str | Path,
        *,
        name: str | None = None,
        in_place: bool = False,
        cancel: Cancel = None,
    ) -> Generator[modelfile.Progress, None, Installed]:
        """Add a GGUF file the person already has (checked with the GGUF header check).

        The file is copied into the models folder through a partial file (a
        cut copy is never a model), unless ``in_place``.
        """
        from core.llm.gguf_file import read_gguf

        src = Path(source).expanduser()
        info = read_gguf(src)  # a missing, truncated or foreign file stops here
        model = (name or name_for(src.name)).lower()
        _check_name(model)
        if self.find_installed(model) is not None:
            raise InputError(
                f"A model called “{model}” is already installed.",
                hint="choose another name with --name, or remove the other one first",
            )
        if in_place:
            self._record(name=model, path=str(src.resolve()), sha256=None, source="in-place")
            return Installed(model, src.resolve(), info.file_size, None, "in-place")
        final = self.root / f"{model}.gguf"
        if final.exists():
            raise InputError(f"{final.name} is already in the models folder.", hint="use --name")
        part = modelfile.partial_path(self.root, final.name)
        part.parent.mkdir(parents=True, exist_ok=True)
        total = src.stat().st_size
        modelfile.ensure_room(part.parent, total)
        hasher = hashlib.sha256()
        done = 0
        meter = modelfile.Meter(0, total, 0)
        try:
            with src.open("rb") as fin, part.open("wb") as fout:
                while block := fin.read(modelfile.CHUNK):
                    if is_cancelled(cancel):
                        raise Cancelled()
                    modelfile.write_chunk(fout, block, done, part.parent)
                    hasher.update(block)
                    done += len(block)
                    if meter.due():
                        yield meter.progress(done)
                fout.flush()
                os.fsync(fout.fileno())
            read_gguf(part)  # the copy, not only the original
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                part.unlink()
            raise
        part.replace(final)
        modelfile.fsync_dir(self.root)
        digest = hasher.hexdigest()
        self._record(name=model, file=final.name, sha256=digest, source="import")
        yield modelfile.Progress(done, done, phase="done")
        return Installed(model, final, done, digest, "import")

    # --- choosing and removing --------------------------------------------------------

    def use(self, name: str, settings: Settings) -> Settings:
        """Settings with ``name`` as the local model (``embedded`` = the built-in one).

        ``name`` may also be the path of a GGUF file. The file is checked first.
        """
        from core.llm.gguf_file import read_gguf

        if name.strip().lower() == EMBEDDED:
            return settings.model_copy(update={"local_model_path": None})
        found = self.find_installed(name)
        path = found.path if found else Path(name).expanduser()
        if found is None and not path.is_file():
            raise ModelNotInstalled(
                f"No model called “{name}” is installed.",
                hint="`sottovoce model list` shows them; `embedded` is the built-in model",
            )
        read_gguf(path)
        return settings.model_copy(update={"local_model_path": str(path.resolve())})

    def remove(self, name: str, settings: Settings | None = None) -> tuple[list[Path], Settings | None]:
        """Delete an installed model (or forget an in-place one) and any partial download.

        Returns (files deleted, new settings when the removed model was the
        local model, which then falls back to the embedded one).
        """
        deleted: list[Path] = []
        model = self.find_installed(name)
        partial = self.discard(name)
        if model is None and partial is None:
            raise ModelNotInstalled(
                f"No model called “{name}” is installed or being downloaded.",
                hint="`sottovoce model list` shows them",
            )
        new_settings = None
        if model is not None:
            if model.source != "in-place":
                model.path.unlink(missing_ok=True)
                deleted.append(model.path)
            self._save_index([m for m in self._index() if m.get("name") != model.name])
            current = settings.local_model_path if settings else None
            if settings is not None and current and _same(Path(current), model.path):
                new_settings = settings.model_copy(update={"local_model_path": None})
        if partial is not None:
            deleted.append(partial)
        return deleted, new_settings


def _same(a: Path, b: Path) -> bool:
    try:
        return a.expanduser().resolve() == b.resolve()
    except OSError:
        return False


def _check_name(name: str) -> None:
    if not _NAME.match(name) or name == EMBEDDED:
        raise InputError(
            f"“{name}” cannot be a model name.",
            hint="use lowercase letters, digits and . _ + - (and not “embedded”)",
        )
