"""``python -m training.gate``: the detector gate; see :mod:`training.gate`."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from training.gate import baseline as bl
from training.gate.measures import DEFAULT_DATA, ROOT, data_files, measure
from training.gate.verdict import Figure, compare, markdown, to_json


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _figures(m: dict[str, Any]) -> dict[str, Figure]:
    return {k: Figure.from_json(v) for k, v in m["figures"].items()}


def _meta(m: dict[str, Any], name: str) -> dict[str, Any]:
    return {
        "name": name,
        "system": m.get("system"),
        "commit": m.get("commit"),
        "fingerprint": m.get("fingerprint"),
        "quick": m.get("quick"),
        "sizes": m.get("sizes"),
        "seconds": m.get("seconds"),
        "cached": m.get("cached", False),
    }


def _this_tree(
    data: Path, quick: bool, ner: Path | None, use_cache: bool, only: list[str] | None = None
) -> dict[str, Any]:
    """This tree's detector (with ``ner`` as its NER when given), measured in this process."""
    files = list(data_files(data).values())
    fp = bl.fingerprint(ROOT, files, quick, ner)
    hit = bl.cached(fp, quick) if use_cache else None
    if hit is not None:
        _log(f"{'candidate' if ner else 'working tree'}: from the cache ({hit.get('commit', '')[:12]})")
        return {**hit, "cached": True}
    from training.eval_detect import our_detector

    t0 = time.perf_counter()
    detector = our_detector(ner)
    m = measure(
        detector, data=data, quick=quick, only=only, progress=lambda s: _log(f"  this tree: {s}")
    )
    m["seconds"]["total"] = round(time.perf_counter() - t0, 1)
    commit = bl.git("rev-parse", "HEAD")
    m["commit"] = commit
    m["fingerprint"] = fp
    if use_cache:
        bl.store(commit, fp, quick, m)
    return m


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m training.gate",
        description="Run the shipped detector and a candidate over every development measure; "
        "print SHIP or HOLD (exit status 0 or 1).",
    )
    parser.add_argument(
        "--candidate",
        default=None,
        help="a NER model folder (models/ner-like): the candidate is this tree's detector with "
        "that NER. Without it the candidate is this working tree (its rules, zones, lexicon, "
        "models) against --baseline.",
    )
    parser.add_argument(
        "--baseline",
        default=None,
        help="a git ref measured from a worktree of it (default HEAD when there is no "
        "--candidate; with --candidate, this tree's shipped detector unless a ref is given)",
    )
    parser.add_argument("--out", default=None, help="where to write gate.md and gate.json "
                        "(default runs/gate/<time>)")
    parser.add_argument("--quick", action="store_true",
                        help="WikiANN dev on a fixed seeded sample of 1,000 sentences")
    parser.add_argument("--data", default=str(DEFAULT_DATA), help="the shared data folder")
    parser.add_argument("--no-cache", action="store_true", help="measure both sides afresh")
    parser.add_argument("--only", default=None, help=argparse.SUPPRESS)  # sets, for a quick look
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    data = Path(args.data).resolve()
    ner = Path(args.candidate).resolve() if args.candidate else None
    if ner is not None and not (ner / "model.onnx").is_file():
        parser.error(f"{ner} has no model.onnx: not a NER model folder")
    use_cache = not args.no_cache and args.only is None
    only = args.only.split(",") if args.only else None
    out = Path(args.out) if args.out else ROOT / "runs" / "gate" / datetime.now(UTC).strftime(
        "%Y%m%d-%H%M%S"
    )
    out.mkdir(parents=True, exist_ok=True)

    # The baseline: a commit in a worktree (its own process, started first so that it
    # runs beside this one), or this tree's shipped detector in this process.
    ref = args.baseline or (None if ner is not None else "HEAD")
    run = None
    before: dict[str, Any] | None = None
    if ref is not None:
        commit = bl.commit_of(ref)
        before_name = f"{ref} ({commit[:12]})"
        run = bl.WorktreeRun(commit, data, args.quick, only=only)
        hit = bl.cached(run.fingerprint, args.quick) if use_cache else None
        if hit is not None:
            run.close()
            run = None
            before = {**hit, "cached": True}
            _log(f"baseline {before_name}: from the cache")
        else:
            _log(f"baseline {before_name}: measuring in a worktree")
            run.start()
    else:
        before_name = "this tree, shipped NER"
    try:
        if ref is None:
            before = _this_tree(data, args.quick, None, use_cache, only)
        after_name = f"NER {ner}" if ner is not None else "working tree"
        after = _this_tree(data, args.quick, ner, use_cache, only)
        if run is not None:
            before = run.wait()
            before["fingerprint"] = run.fingerprint
            before["commit"] = commit
            if use_cache:
                bl.store(commit, run.fingerprint, args.quick, before)
    finally:
        if run is not None:
            run.close()
    assert before is not None

    c = compare(_figures(before), _figures(after), before["leaks"], after["leaks"])
    wall = round(time.perf_counter() - t0, 1)
    notes = [
        f"Sets measured: {json.dumps(after.get('sizes', {}))}"
        + (" (quick: WikiANN dev on a fixed sample, random.Random(22), 1,000 sentences)"
           if args.quick else ""),
        f"Wall time of this gate run: {wall} s.",
    ]
    md = markdown(c, before_name, after_name, notes)
    (out / "gate.md").write_text(md, "utf-8")
    (out / "gate.json").write_text(
        to_json(c, {**_meta(before, before_name)}, {**_meta(after, after_name), "wall_s": wall}),
        "utf-8",
    )
    for name, m in (("before", before), ("after", after)):
        (out / f"{name}.json").write_text(json.dumps(m, indent=1, ensure_ascii=False), "utf-8")
    print(md)
    print(f"{c.verdict} ({wall} s; {out / 'gate.md'})")
    return 0 if c.verdict == "SHIP" else 1


if __name__ == "__main__":
    sys.exit(main())
