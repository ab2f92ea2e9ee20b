"""Build the desktop bundle (PyInstaller, one folder) and describe it.

    .venv/bin/python installers/build.py                 # dist/sottovoce  (make bundle)
    .venv/bin/python installers/build.py --if-stale      # skip when dist/ is already current
    .venv/bin/python installers/build.py --dist /tmp/d --work /tmp/w
    .venv/bin/python installers/build.py --llama vulkan  # make bundle GPU=vulkan

Runs PyInstaller on ``installers/sottovoce.spec`` with the interpreter that
runs this script (the project's virtual environment), then writes
``<dist>/sottovoce/BUILD_INFO.json``: the commit, a fingerprint of the sources
and installed packages the bundle was made from, the build time and the size
on disk. ``--if-stale`` compares that fingerprint and rebuilds only when it
differs, which is how the bundle test reuses a fresh ``make bundle``.

``--llama`` chooses the llama.cpp the bundle carries. ``installed`` (the
default) is the environment's own llama-cpp-python (CPU on Linux and Windows,
Metal on macOS). ``vulkan`` builds llama-cpp-python of the same version once
from its source release with ``-DGGML_VULKAN=ON`` (the patches
``installers/llama/vulkan-*.patch`` applied first), caches the wheel and an
unpacked copy under ``build/llama-vulkan/``, and puts that copy before the
environment's on PyInstaller's path: the environment (and the tests that use
it) keeps its CPU build. The Vulkan backend sits beside the CPU backend in
the same libraries; llama.cpp picks a usable Vulkan device at start and falls
back to the CPU when there is none (see ``core.llm.gpu``).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "installers" / "sottovoce.spec"
NAME = "sottovoce"
INFO = "BUILD_INFO.json"
#: What goes into the bundle from this repository.
SOURCES = ["app", "core", "ui", "models", "installers", "pyproject.toml"]
#: llama.cpp builds the bundle can carry: CMake flags (None = the environment's own).
#: GGML_NATIVE=OFF: the bundle runs on other CPUs than the build machine's.
LLAMA_FLAVOURS: dict[str, str | None] = {
    "installed": None,
    "vulkan": "-DGGML_VULKAN=ON -DGGML_NATIVE=OFF",
}
LLAMA_CACHE = ROOT / "build"
PATCHES = ROOT / "installers" / "llama"


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return out


def commit() -> str | None:
    """The checked-out commit, or None outside a git checkout."""
    out = _git("rev-parse", "HEAD")
    return out.strip() if out else None


# --- llama-cpp-python with a GPU backend -----------------------------------------------


def llama_version() -> str:
    """The version of the environment's llama-cpp-python (the Vulkan build uses the same)."""
    return importlib.metadata.version("llama_cpp_python")


def llama_folder(flavour: str, cache: Path = LLAMA_CACHE) -> Path:
    return cache / f"llama-{flavour}"


def llama_site(flavour: str, cache: Path = LLAMA_CACHE) -> Path:
    """Where the unpacked ``llama_cpp`` package of ``flavour`` lives (PyInstaller's path)."""
    return llama_folder(flavour, cache) / f"site-{llama_version()}"


def _pip(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> None:
    subprocess.run([sys.executable, "-m", "pip", *args], check=True, env=env, cwd=cwd)


def apply_patch(src: Path, patch: Path) -> str:
    """Apply ``patch`` to the source tree ``src`` once ("applied" or "already applied")."""
    base = ["patch", "-p1", "-s", "-d", str(src), "-i", str(patch.resolve())]
    reverse = subprocess.run([*base, "-R", "--dry-run", "-f"], capture_output=True, text=True)
    if reverse.returncode == 0:
        return "already applied"
    done = subprocess.run([*base, "-N"], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(
            f"{patch.name} does not apply to llama-cpp-python {src.name}: "
            f"{(done.stdout + done.stderr).strip()} (see the patch's header: it may be obsolete)"
        )
    return "applied"


def build_llama_wheel(flavour: str, cache: Path = LLAMA_CACHE) -> Path:
    """Build (once) llama-cpp-python's wheel for ``flavour``; return its path.

    The source release of the installed version is downloaded with pip (the
    package registry), unpacked, patched and built with ``CMAKE_ARGS``; the
    CMake build folder is kept beside it, so an interrupted build resumes.
    """
    version = llama_version()
    folder = llama_folder(flavour, cache)
    wheels = folder / "wheels"
    found = sorted(wheels.glob(f"llama_cpp_python-{version}-*.whl"))
    if found:
        return found[-1]
    folder.mkdir(parents=True, exist_ok=True)
    src = folder / f"llama_cpp_python-{version}"
    if not (src / "pyproject.toml").is_file():
        sdist = folder / f"llama_cpp_python-{version}.tar.gz"
        if not sdist.is_file():
            _pip("download", f"llama-cpp-python=={version}", "--no-deps", "--no-binary", ":all:",
                 "-d", str(folder))  # fmt: skip
        with tarfile.open(sdist) as tar:
            tar.extractall(folder, filter="data")
    for patch in sorted(PATCHES.glob(f"{flavour}-*.patch")):
        print(f"llama.cpp patch {patch.name}: {apply_patch(src, patch)}")
    env = {
        **os.environ,
        "CMAKE_ARGS": str(LLAMA_FLAVOURS[flavour]),
        "CMAKE_BUILD_PARALLEL_LEVEL": os.environ.get(
            "CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2)
        ),
    }
    print(f"building llama-cpp-python {version} with {env['CMAKE_ARGS']} (several minutes)")
    _pip("wheel", str(src), "--no-deps", "-w", str(wheels),
         f"--config-settings=build-dir={folder / 'cmake-build'}", env=env)  # fmt: skip
    found = sorted(wheels.glob(f"llama_cpp_python-{version}-*.whl"))
    if not found:
        raise RuntimeError(f"pip built no wheel of llama-cpp-python {version} in {wheels}")
    return found[-1]


def ensure_llama(flavour: str, cache: Path = LLAMA_CACHE) -> Path | None:
    """The folder to put first on PyInstaller's path for ``flavour`` (None: the environment's)."""
    if LLAMA_FLAVOURS[flavour] is None:
        return None
    site = llama_site(flavour, cache)
    if (site / "llama_cpp" / "__init__.py").is_file():
        return site
    wheel = build_llama_wheel(flavour, cache)
    tmp = site.with_name(site.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    _pip("install", "--no-deps", "--no-compile", "--target", str(tmp), str(wheel))
    tmp.rename(site)
    return site


def llama_available(flavour: str, cache: Path = LLAMA_CACHE) -> bool:
    """True when ``flavour`` needs no compiling (the environment's, or already cached)."""
    if LLAMA_FLAVOURS[flavour] is None:
        return True
    folder = llama_folder(flavour, cache)
    return (llama_site(flavour, cache) / "llama_cpp" / "__init__.py").is_file() or any(
        (folder / "wheels").glob(f"llama_cpp_python-{llama_version()}-*.whl")
    )


# --- the bundle ---------------------------------------------------------------------------


def fingerprint(gpu: bool = False, llama: str = "installed") -> str | None:
    """A hash of every source file the bundle takes (tracked or not) and of the installed packages.

    None when it cannot be computed (no git): the bundle is then always rebuilt.
    """
    listing = _git("ls-files", "-co", "--exclude-standard", "-z", "--", *SOURCES)
    if listing is None:
        return None
    h = hashlib.sha256(f"gpu={gpu}\nllama={llama}\n".encode())
    # Documentation never reaches the bundle; editing it must not force a rebuild.
    for name in sorted(n for n in listing.split("\0") if n and not n.endswith(".md")):
        path = ROOT / name
        if not path.is_file():
            continue  # deleted but still in the index
        h.update(name.encode() + b"\0")
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    # An upgraded dependency changes the bundle as much as an edited source file.
    site = Path(sysconfig.get_paths()["purelib"])
    for dist in sorted(p.name for p in site.glob("*.dist-info")):
        h.update(dist.encode() + b"\0")
    return h.hexdigest()


def disk_usage(folder: Path) -> int:
    """Bytes the folder's files take on disk (allocated blocks where the platform says)."""
    total = 0
    for dirpath, _dirs, files in os.walk(folder):
        for f in files:
            st = os.lstat(os.path.join(dirpath, f))
            blocks = getattr(st, "st_blocks", None)
            total += blocks * 512 if blocks is not None else st.st_size
    return total


def program(bundle: Path) -> Path:
    """The bundle's command-line program (the spec names it per platform)."""
    if sys.platform == "win32":
        return bundle / f"{NAME}-cli.exe"
    if sys.platform == "darwin":
        return bundle / "Sottovoce"
    return bundle / NAME


def read_info(bundle: Path) -> dict[str, object] | None:
    try:
        data: dict[str, object] = json.loads((bundle / INFO).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return data


def is_current(bundle: Path, gpu: bool = False, llama: str = "installed") -> bool:
    """True when ``bundle`` was built from exactly the present sources and packages."""
    info = read_info(bundle)
    fp = fingerprint(gpu, llama)
    return bool(info and fp and info.get("fingerprint") == fp and program(bundle).exists())


def build(
    dist: Path, work: Path, *, gpu: bool = False, llama: str = "installed", quiet: bool = True
) -> dict[str, object]:
    """Run PyInstaller; return (and write into the bundle) its BUILD_INFO."""
    fp = fingerprint(gpu, llama)
    site = ensure_llama(llama)
    env = {**os.environ, "SOTTOVOCE_BUNDLE_GPU": "1" if gpu else "0"}
    if site is not None:
        # First on the path: PyInstaller collects this llama_cpp, not the environment's.
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), env.get("PYTHONPATH")]))
    cmd = [
        sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean",
        "--distpath", str(dist), "--workpath", str(work),
        "--log-level", "WARN" if quiet else "INFO",
        str(SPEC),
    ]  # fmt: skip
    start = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, env=env, check=True)
    seconds = time.perf_counter() - start
    bundle = dist / NAME
    info: dict[str, object] = {
        "commit": commit(),
        "fingerprint": fp,
        "gpu": gpu,
        "llama": llama,
        "platform": sys.platform,
        "python": sys.version.split()[0],
        "build_seconds": round(seconds, 1),
        "size_bytes": disk_usage(bundle),
        "built": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    (bundle / INFO).write_text(json.dumps(info, indent=2) + "\n", "utf-8")
    return info


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dist", type=Path, default=ROOT / "dist", help="output folder (dist/)")
    p.add_argument("--work", type=Path, default=ROOT / "build" / "pyinstaller", help="work folder")
    p.add_argument("--gpu", action="store_true", help="keep onnxruntime's CUDA providers")
    p.add_argument(
        "--llama",
        choices=sorted(LLAMA_FLAVOURS),
        default=os.environ.get("SOTTOVOCE_BUNDLE_LLAMA") or "installed",
        help="the llama.cpp to carry: the environment's, or one built with the Vulkan backend",
    )
    p.add_argument("--if-stale", action="store_true", help="build only when the sources changed")
    p.add_argument("--verbose", action="store_true", help="PyInstaller's full log")
    args = p.parse_args(argv)
    bundle = args.dist / NAME
    if args.if_stale and is_current(bundle, args.gpu, args.llama):
        info = read_info(bundle) or {}
        print(f"{bundle} is current (commit {str(info.get('commit'))[:10]}); not rebuilt.")
        return 0
    info = build(args.dist, args.work, gpu=args.gpu, llama=args.llama, quiet=not args.verbose)
    size = int(info["size_bytes"]) / 1e6  # type: ignore[call-overload]
    print(f"bundle: {bundle} ({size:.0f} MB on disk), built in {info['build_seconds']} s")
    print(f"check it with: {program(bundle)} --self-test")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
