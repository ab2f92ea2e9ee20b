"""Build the desktop bundle (PyInstaller, one folder) and describe it.

    .venv/bin/python installers/build.py                 # dist/sottovoce  (make bundle)
    .venv/bin/python installers/build.py --if-stale      # skip when dist/ is already current
    .venv/bin/python installers/build.py --dist /tmp/d --work /tmp/w

Runs PyInstaller on ``installers/sottovoce.spec`` with the interpreter that
runs this script (the project's virtual environment), then writes
``<dist>/sottovoce/BUILD_INFO.json``: the commit, a fingerprint of the sources
and installed packages the bundle was made from, the build time and the size
on disk. ``--if-stale`` compares that fingerprint and rebuilds only when it
differs, which is how the bundle test reuses a fresh ``make bundle``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "installers" / "sottovoce.spec"
NAME = "sottovoce"
INFO = "BUILD_INFO.json"
#: What goes into the bundle from this repository.
SOURCES = ["app", "core", "ui", "models", "installers", "pyproject.toml"]


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


def fingerprint(gpu: bool = False) -> str | None:
    """A hash of every source file the bundle takes (tracked or not) and of the installed packages.

    None when it cannot be computed (no git): the bundle is then always rebuilt.
    """
    listing = _git("ls-files", "-co", "--exclude-standard", "-z", "--", *SOURCES)
    if listing is None:
        return None
    h = hashlib.sha256(f"gpu={gpu}\n".encode())
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


def is_current(bundle: Path, gpu: bool = False) -> bool:
    """True when ``bundle`` was built from exactly the present sources and packages."""
    info = read_info(bundle)
    fp = fingerprint(gpu)
    return bool(info and fp and info.get("fingerprint") == fp and program(bundle).exists())


def build(dist: Path, work: Path, *, gpu: bool = False, quiet: bool = True) -> dict[str, object]:
    """Run PyInstaller; return (and write into the bundle) its BUILD_INFO."""
    fp = fingerprint(gpu)
    env = {**os.environ, "SOTTOVOCE_BUNDLE_GPU": "1" if gpu else "0"}
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
    p.add_argument("--if-stale", action="store_true", help="build only when the sources changed")
    p.add_argument("--verbose", action="store_true", help="PyInstaller's full log")
    args = p.parse_args(argv)
    bundle = args.dist / NAME
    if args.if_stale and is_current(bundle, args.gpu):
        info = read_info(bundle) or {}
        print(f"{bundle} is current (commit {str(info.get('commit'))[:10]}); not rebuilt.")
        return 0
    info = build(args.dist, args.work, gpu=args.gpu, quiet=not args.verbose)
    size = int(info["size_bytes"]) / 1e6  # type: ignore[call-overload]
    print(f"bundle: {bundle} ({size:.0f} MB on disk), built in {info['build_seconds']} s")
    print(f"check it with: {program(bundle)} --self-test")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
