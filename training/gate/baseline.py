"""Measuring a git commit's detector beside this tree's, and the cache of measurements.

A baseline ref is checked out with ``git worktree add --detach`` in a temporary
folder; this tree's measurement code (``training/``) is copied over the
checkout's, so both sides are measured by the same harness on the same data
(the dev sets of this tree, the shared data folder), and only ``core/`` and
``models/`` differ. The measurement runs in a subprocess from that folder
(:mod:`training.gate.measures` as a module), so it imports the baseline's
``core``; it checks that it did.

Measurements are cached under ``runs/gate/cache/`` (``runs/`` is git-ignored),
one file per commit and *fingerprint*: a SHA-256 of the code that decides the
figures (every file of ``core/`` and ``models/`` of the measured tree, the
measurement code of this tree, a candidate NER folder), of the data files and
of the quick flag. The same fingerprint gives the same figures, so the working
tree is served from the cache too when its code equals a measured commit's.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from training.gate.measures import ROOT

CACHE = ROOT / "runs" / "gate" / "cache"
#: The measurement code: a change here changes every figure's meaning.
HARNESS = (
    "training/gate",
    "training/eval_detect.py",
    "training/eval_utility.py",
    "training/metrics.py",
    "training/ner/conll.py",
    "training/ner/labels.py",
    "training/data/check_utility.py",
)


def git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


def commit_of(ref: str) -> str:
    """The full hash of ``ref`` (a clear error when it names no commit)."""
    try:
        return git("rev-parse", "--verify", f"{ref}^{{commit}}")
    except subprocess.CalledProcessError as exc:
        raise SystemExit(f"{ref!r} is not a commit of this repository: {exc.stderr.strip()}") from exc


def _hash_files(h: Any, root: Path, files: Iterable[str]) -> None:
    for rel in sorted(files):
        p = root / rel
        if p.is_file() and "__pycache__" not in p.parts:
            h.update(rel.encode() + b"\0")
            h.update(hashlib.sha256(p.read_bytes()).digest())


def tree_files(root: Path, folders: Iterable[str]) -> list[str]:
    """Tracked and untracked (not ignored) files under ``folders`` of a git tree."""
    out = git("ls-files", "-co", "--exclude-standard", "--", *folders, cwd=root)
    return [line for line in out.splitlines() if line]


def fingerprint(
    tree: Path, data_files: Iterable[Path], quick: bool, ner: Path | None = None
) -> str:
    """The SHA-256 of what decides a measurement (module docstring)."""
    h = hashlib.sha256()
    _hash_files(h, tree, tree_files(tree, ("core", "models")))
    h.update(b"harness\0")
    _hash_files(h, ROOT, tree_files(ROOT, HARNESS))
    for f in sorted(data_files):
        h.update(str(f.name).encode())
        h.update(hashlib.sha256(f.read_bytes()).digest() if f.is_file() else b"missing")
        if f.is_dir():
            _hash_files(h, f, [p.name for p in f.iterdir()])
    if ner is not None:
        h.update(b"ner\0")
        _hash_files(h, ner, [str(p.relative_to(ner)) for p in ner.rglob("*") if p.is_file()])
    h.update(b"quick" if quick else b"full")
    return h.hexdigest()


def cache_file(commit: str, fp: str, quick: bool) -> Path:
    return CACHE / f"{commit[:12]}-{fp[:16]}{'-quick' if quick else ''}.json"


def cached(fp: str, quick: bool) -> dict[str, Any] | None:
    """A measurement with this fingerprint, whatever commit it was made at; None if none."""
    for p in sorted(CACHE.glob(f"*-{fp[:16]}{'-quick' if quick else ''}.json")):
        try:
            data: dict[str, Any] = json.loads(p.read_text("utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        if data.get("fingerprint") == fp:
            return data
    return None


def store(commit: str, fp: str, quick: bool, measurement: dict[str, Any]) -> Path:
    CACHE.mkdir(parents=True, exist_ok=True)
    path = cache_file(commit, fp, quick)
    path.write_text(
        json.dumps({**measurement, "fingerprint": fp, "commit": commit}, ensure_ascii=False)
        + "\n",
        "utf-8",
    )
    return path


class WorktreeRun:
    """A baseline measurement running in a subprocess from a worktree of ``commit``."""

    def __init__(
        self,
        commit: str,
        data: Path,
        quick: bool,
        ner: Path | None = None,
        only: list[str] | None = None,
    ) -> None:
        self.commit = commit
        self.tmp = Path(tempfile.mkdtemp(prefix="sottovoce-gate-"))
        self.tree = self.tmp / "tree"
        self.out = self.tmp / "measurement.json"
        git("worktree", "add", "--detach", "--quiet", str(self.tree), commit)
        # This tree's harness over the checkout's: only core/ and models/ differ.
        shutil.copytree(
            ROOT / "training",
            self.tree / "training",
            dirs_exist_ok=True,
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
        )
        self.fingerprint = fingerprint(self.tree, _data_files(data), quick, ner)
        self.proc: subprocess.Popen[bytes] | None = None
        self.log: Any = None
        self.args = (data, quick, ner)
        self.only = only

    def start(self) -> None:
        """Start measuring (in the background: :meth:`wait` for the result)."""
        data, quick, ner = self.args
        cmd = [sys.executable, "-m", "training.gate.measures", "--out", str(self.out),
               "--data", str(data), "--root", str(ROOT)]
        if quick:
            cmd.append("--quick")
        if ner is not None:
            cmd += ["--ner", str(ner)]
        if self.only:
            cmd += ["--only", ",".join(self.only)]
        env = {**os.environ, "PYTHONPATH": str(self.tree),
               "SOTTOVOCE_HOME": str(self.tmp / "home")}
        self.log = (self.tmp / "log.txt").open("w")
        # At the gate's own priority: a lower one starves it on a busy machine.
        self.proc = subprocess.Popen(
            cmd, cwd=self.tree, env=env, stdout=self.log, stderr=subprocess.STDOUT
        )

    def wait(self) -> dict[str, Any]:
        """The measurement; the worktree is removed whatever happens."""
        if self.proc is None:
            self.start()
        assert self.proc is not None
        try:
            code = self.proc.wait()
            self.log.close()
            log = (self.tmp / "log.txt").read_text("utf-8", errors="replace")
            if code != 0 or not self.out.is_file():
                raise RuntimeError(
                    f"measuring {self.commit[:12]} failed (exit {code}):\n{log[-3000:]}"
                )
            result: dict[str, Any] = json.loads(self.out.read_text("utf-8"))
            if not Path(result["core"]).resolve().is_relative_to(self.tree.resolve()):
                raise RuntimeError(
                    f"the baseline run imported {result['core']}, not the worktree's core"
                )
            return result
        finally:
            self.close()

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.log is not None and not self.log.closed:
            self.log.close()
        if not self.tree.exists():
            return
        try:
            git("worktree", "remove", "--force", str(self.tree))
        except subprocess.CalledProcessError:
            git("worktree", "prune")
        shutil.rmtree(self.tmp, ignore_errors=True)


def _data_files(data: Path) -> list[Path]:
    from training.gate.measures import data_files

    return list(data_files(data).values())
