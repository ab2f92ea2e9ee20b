"""The catalogue (what each model needs, whether it fits) and the models folder
(download from the catalogue, import, use, remove), with the embedded GGUF
served from loopback."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from core.errors import InputError
from core.llm import catalog, modelfile
from core.llm.catalog import GIB, CatalogEntry, Machine, Where, assess
from core.llm.gguf_file import GGUFError
from core.llm.library import EMBEDDED, Library, ModelNotInstalled, models_dir
from core.llm.local import embedded_model_path
from core.settings import Settings
from tests.model_server import ModelServer
from tests.model_server import drain as run

REQUIRED = {
    "llama-3.2-1b-instruct",
    "llama-3.2-3b-instruct",
    "qwen2.5-1.5b-instruct",
    "qwen2.5-3b-instruct",
    "qwen2.5-7b-instruct",
    "llama-3.1-8b-instruct",
}


# --- the catalogue ------------------------------------------------------------------------


def test_the_catalogue_has_the_recommended_models_in_q4_k_m() -> None:
    assert {e.name for e in catalog.CATALOG} == REQUIRED
    assert all(e.quant == "Q4_K_M" and "q4_k_m" in e.filename.lower() for e in catalog.CATALOG)
    sizes = [e.size for e in catalog.CATALOG]
    assert sizes == sorted(sizes)  # smallest first


@pytest.mark.parametrize("entry", catalog.CATALOG, ids=lambda e: e.name)
def test_every_entry_is_complete_and_cites_its_hash(entry: CatalogEntry) -> None:
    assert entry.sha256 is not None and re.fullmatch(r"[0-9a-f]{64}", entry.sha256)
    assert entry.url == f"https://huggingface.co/{entry.repo}/resolve/main/{entry.filename}"
    assert 500 * 2**20 < entry.size < 6 * GIB
    assert entry.license and entry.license_url.startswith("https://")
    assert "sha256" in entry.source and len(entry.source) > 60
    assert entry.n_layers > 0 and entry.kv_bytes_per_token > 0
    # What the download will check, in the form it checks it.
    assert modelfile.check_request(modelfile.Request(entry.url, entry.filename, entry.sha256, entry.size))


def test_hashes_and_files_are_distinct() -> None:
    assert len({e.sha256 for e in catalog.CATALOG}) == len(catalog.CATALOG)
    assert len({e.filename for e in catalog.CATALOG}) == len(catalog.CATALOG)


def test_memory_grows_with_the_context_up_to_the_models_limit() -> None:
    e = catalog.find("qwen2.5-1.5b-instruct")
    assert e.kv_bytes(4096) == 112 * 2**20  # the KV cache llama.cpp reports at 4K for this model
    assert e.memory_needed(512) < e.memory_needed(4096) < e.memory_needed(32768)
    assert e.memory_needed(10**6) == e.memory_needed(e.context_length)
    assert e.memory_needed(4096) > e.size


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("llama-3.2-1b-instruct", "llama-3.2-1b-instruct"),
        ("  Qwen2.5-7B-Instruct ", "qwen2.5-7b-instruct"),
        ("Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf", "llama-3.1-8b-instruct"),
    ],
)
def test_find_by_name_or_file(text: str, name: str) -> None:
    assert catalog.find(text).name == name


def test_an_unknown_name_is_a_clear_error() -> None:
    with pytest.raises(catalog.UnknownModel, match="not in the catalogue") as err:
        catalog.find("gpt-5")
    assert "model list" in (err.value.hint or "")


def test_a_pasted_catalogue_url_gets_its_hash() -> None:
    e = catalog.find("llama-3.2-3b-instruct")
    assert catalog.by_url(e.url + "?download=true") is e
    assert catalog.by_url("https://example.org/x.gguf") is None


G = GIB


@pytest.mark.parametrize(
    ("machine", "needed", "where"),
    [
        (Machine(True, "CUDA", vram_free=8 * G, ram_free=4 * G), 5 * G, Where.GPU),
        (Machine(True, "CUDA", vram_free=4 * G, ram_free=16 * G), 5 * G, Where.CPU),
        (Machine(True, "CUDA", vram_free=None, ram_free=16 * G), 5 * G, Where.CPU),
        (Machine(True, "Metal", vram_free=None, ram_free=16 * G), 5 * G, Where.GPU),
        (Machine(False, None, vram_free=None, ram_free=16 * G), 5 * G, Where.CPU),
        (Machine(False, None, vram_free=None, ram_free=2 * G), 5 * G, Where.TOO_LARGE),
        (Machine(True, "CUDA", vram_free=2 * G, ram_free=2 * G), 5 * G, Where.TOO_LARGE),
        (Machine(False, None, vram_free=None, ram_free=None), 5 * G, Where.UNKNOWN),
    ],
    ids=["gpu", "gpu-too-small", "vram-unknown", "metal-unified", "cpu", "too-large",
         "too-large-both", "unknown"],
)
def test_fit_says_where_a_model_would_run(machine: Machine, needed: int, where: Where) -> None:
    fit = assess(needed, machine)
    assert fit.where is where
    assert fit.fits is {Where.GPU: True, Where.CPU: True, Where.TOO_LARGE: False, Where.UNKNOWN: None}[where]
    assert "GiB" in fit.reason


def test_this_machine_is_probed_for_real() -> None:
    m = catalog.probe_machine()
    assert m.gpu_offload is False and m.gpu_backend is None  # the CPU build of this project
    assert m.ram_free is not None and m.ram_free > 0
    smallest = catalog.CATALOG[0]
    assert assess(smallest.memory_needed(4096), m).where in (Where.CPU, Where.TOO_LARGE)


# --- the models folder ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def model_bytes() -> bytes:
    return embedded_model_path().read_bytes()


@pytest.fixture
def server(model_bytes: bytes, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModelServer]:
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    with ModelServer(model_bytes) as s:
        yield s


@pytest.fixture
def tiny_entry(server: ModelServer, model_bytes: bytes, monkeypatch: pytest.MonkeyPatch) -> CatalogEntry:
    """The catalogue's first entry, pointed at the loopback copy of the embedded model."""
    base = catalog.CATALOG[0]
    entry = replace(
        base,
        name="smol-test",
        repo="unused",
        filename="smol-test-q4_k_m.gguf",
        size=len(model_bytes),
        sha256=hashlib.sha256(model_bytes).hexdigest(),
    )
    monkeypatch.setattr(CatalogEntry, "url", property(lambda e: server.url(e.filename)))
    monkeypatch.setattr(catalog, "CATALOG", (entry, *catalog.CATALOG))
    return entry


def test_the_models_folder_is_under_the_data_directory() -> None:
    from core import paths

    assert models_dir() == paths.data_dir() / "models"
    assert models_dir().is_relative_to(os.environ["SOTTOVOCE_HOME"])  # never the real one in tests
    assert Library().root == models_dir()


def test_download_from_the_catalogue_then_use_then_remove(tmp_path: Path, tiny_entry: CatalogEntry) -> None:
    lib = Library(tmp_path)
    installed, _ = run(lib.download("smol-test"))
    assert installed.name == "smol-test" and installed.source == "catalog"
    assert installed.sha256 == tiny_entry.sha256 and installed.entry is not None
    assert [m.name for m in lib.installed()] == ["smol-test"]
    again, seen = run(lib.download("smol-test"))  # already here: nothing fetched
    assert again.path == installed.path and seen == []

    settings = lib.use("smol-test", Settings())
    assert settings.local_model_path == str(installed.path.resolve())
    files, after = lib.remove("smol-test", settings)
    assert files == [installed.path] and not installed.path.exists()
    assert after is not None and after.local_model_path is None  # back to the embedded model
    assert lib.installed() == []


def test_a_partial_download_is_listed_and_can_be_removed(
    tmp_path: Path, tiny_entry: CatalogEntry, server: ModelServer
) -> None:
    server.faults.cut_after = [10_000_000, 0]
    lib = Library(tmp_path)
    with pytest.raises(modelfile.DownloadInterrupted):
        run(lib.download("smol-test", retries=0, retry_wait=0))
    (p,) = lib.partials()
    assert p.name == "smol-test" and 0 < p.done <= 10_000_000 and not p.complete
    assert lib.installed() == []
    files, _ = lib.remove("smol-test")
    assert files and lib.partials() == []


def test_a_url_download_is_named_after_its_file(tmp_path: Path, server: ModelServer, model_bytes: bytes) -> None:
    lib = Library(tmp_path)
    sha = hashlib.sha256(model_bytes).hexdigest()
    m, _ = run(lib.download(server.url("My-Model.Q4_K_M.gguf"), sha256=sha))
    assert (m.name, m.source, m.url) == ("my-model.q4_k_m", "url", server.url("My-Model.Q4_K_M.gguf"))
    assert lib.get("my-model.q4_k_m").sha256 == sha


def test_a_url_without_hash_is_installed_only_once_the_person_confirms_it(
    tmp_path: Path, server: ModelServer, model_bytes: bytes
) -> None:
    lib = Library(tmp_path)
    url = server.url("other.gguf")
    with pytest.raises(modelfile.HashUnconfirmed) as err:
        run(lib.download(url))
    assert lib.installed() == []
    m, _ = run(lib.finish(url, err.value.sha256))
    assert m.name == "other" and m.path.read_bytes() == model_bytes


def test_catalogue_models_refuse_another_hash(tiny_entry: CatalogEntry, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="differs from the catalogue"):
        run(Library(tmp_path).download("smol-test", sha256="1" * 64))


def test_import_copies_a_checked_gguf(tmp_path: Path, model_bytes: bytes) -> None:
    lib = Library(tmp_path / "models")
    src = tmp_path / "Some Model.gguf"
    src.write_bytes(model_bytes)
    m, seen = run(lib.import_file(src))
    assert m.name == "some-model" and m.path == tmp_path / "models" / "some-model.gguf"
    assert m.path.read_bytes() == model_bytes and src.exists()
    assert m.sha256 == hashlib.sha256(model_bytes).hexdigest()
    assert seen[-1].phase == "done"
    assert not list((tmp_path / "models" / modelfile.PARTIAL_DIR).iterdir())
    with pytest.raises(InputError, match="already installed"):
        run(lib.import_file(src))


def test_import_in_place_keeps_the_persons_file_on_remove(tmp_path: Path) -> None:
    lib = Library(tmp_path / "models")
    src = embedded_model_path()
    m, _ = run(lib.import_file(src, name="smol", in_place=True))
    assert m.source == "in-place" and m.path == src.resolve()
    assert [x.name for x in lib.installed()] == ["smol"]
    settings = lib.use("smol", Settings())
    files, after = lib.remove("smol", settings)
    assert files == [] and src.exists()
    assert after is not None and after.local_model_path is None


@pytest.mark.parametrize(
    ("content", "match"),
    [(b"", "empty"), (b"not a model at all, just text" * 10, "not a GGUF model")],
    ids=["empty", "foreign"],
)
def test_import_refuses_what_is_not_a_gguf(tmp_path: Path, content: bytes, match: str) -> None:
    src = tmp_path / "x.gguf"
    src.write_bytes(content)
    lib = Library(tmp_path / "models")
    with pytest.raises(GGUFError, match=match):
        run(lib.import_file(src))
    assert lib.installed() == []


def test_import_refuses_a_truncated_gguf(tmp_path: Path, model_bytes: bytes) -> None:
    src = tmp_path / "cut.gguf"
    src.write_bytes(model_bytes[: len(model_bytes) // 2])
    with pytest.raises(GGUFError, match="truncated"):
        run(Library(tmp_path / "models").import_file(src))


def test_a_gguf_dropped_into_the_folder_is_found(tmp_path: Path, model_bytes: bytes) -> None:
    (tmp_path / "Hand-Copied.gguf").write_bytes(model_bytes)
    (tmp_path / modelfile.PARTIAL_DIR).mkdir()
    (tmp_path / modelfile.PARTIAL_DIR / "half.gguf.part").write_bytes(model_bytes[:1000])
    lib = Library(tmp_path)
    (m,) = lib.installed()
    assert (m.name, m.source) == ("hand-copied", "found")
    assert [p.filename for p in lib.partials()] == ["half.gguf"]


def test_use_embedded_and_paths(tmp_path: Path) -> None:
    lib = Library(tmp_path)
    s = Settings(local_model_path="/somewhere/else.gguf")
    assert lib.use(EMBEDDED, s).local_model_path is None
    path = embedded_model_path()
    assert lib.use(str(path), Settings()).local_model_path == str(path.resolve())
    with pytest.raises(ModelNotInstalled, match="No model called “nope”"):
        lib.use("nope", s)


@pytest.mark.parametrize("name", ["Bad Name", "embedded", "-x", "a/b"])
def test_bad_names_are_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(InputError, match="cannot be a model name"):
        run(Library(tmp_path).import_file(embedded_model_path(), name=name, in_place=True))


def test_remove_of_an_unknown_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelNotInstalled, match="installed or being downloaded"):
        Library(tmp_path).remove("ghost")


def test_a_damaged_index_loses_nothing_on_disk(tmp_path: Path, model_bytes: bytes) -> None:
    lib = Library(tmp_path)
    src = tmp_path / "a.gguf"
    src.write_bytes(model_bytes)
    (tmp_path / "models.json").write_text("{not json", "utf-8")
    assert [m.name for m in lib.installed()] == ["a"]  # found on disk all the same
