"""Start-up and memory of the window with and without the training stack kept out.

``make test`` installs torch and transformers into the same environment as the
app; spaCy's thinc and Presidio import them when they are there.
``sottovoce`` (``app.main:entry``) keeps them out of its process
(:func:`app.main.keep_training_stack_out`). This benchmark starts the real
window (``app.window.start``, as ``bench_gui.py`` does) in fresh processes,
alternating the two ways (A/B pairs, so both see the same machine load), and
prints one JSON object per measurement:

* ``usable_s``: launch to a usable window (shown, first paint, idle);
* ``models_s``: launch to the default models loaded (segmenter, detectors,
  router, embedded GGUF), and ``rss_peak_mib`` then (peak resident memory);
* ``torch_imported``: whether torch ended up in the process.

    python benchmarks/bench_startup.py [--pairs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def child(lean: bool, launched: float) -> None:
    if lean:
        from app.main import keep_training_stack_out

        keep_training_stack_out([])  # what the `sottovoce` command does first
    from PySide6.QtCore import QTimer

    from app.window import start

    started = start(argparse.Namespace(window_demo_cloud=False))
    assert started is not None
    app, window = started.app, started.window
    result: dict[str, object] = {}

    def usable() -> None:
        result["usable_s"] = round(time.time() - launched, 3)

    def loaded(ok: bool) -> None:
        result["models_ok"] = ok
        result["models_s"] = round(time.time() - launched, 3)
        result["rss_peak_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
        result["torch_imported"] = sys.modules.get("torch") is not None
        result["transformers_imported"] = sys.modules.get("transformers") is not None
        window.close()
        app.quit()

    window.modelsReady.connect(loaded)
    QTimer.singleShot(0, usable)
    app.exec()
    started.close()
    print("RESULT " + json.dumps(result), flush=True)


def run_child(lean: bool, home: Path) -> dict[str, object]:
    env = {
        **os.environ,
        "SOTTOVOCE_HOME": str(home),
        "SOTTOVOCE_PASSPHRASE": "benchmark passphrase",
        "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
    }
    launched = time.time()
    proc = subprocess.run(
        [sys.executable, __file__, "--child", "lean" if lean else "full", "--launched", repr(launched)],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return dict(json.loads(line[7:]))
    raise RuntimeError(f"child failed ({proc.returncode}): {proc.stderr[-2000:]}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--pairs", type=int, default=3)
    p.add_argument("--child", choices=["lean", "full"], help=argparse.SUPPRESS)
    p.add_argument("--launched", type=float, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        child(args.child == "lean", args.launched)
        return 0
    runs: dict[str, list[dict[str, object]]] = {"full": [], "lean": []}
    with tempfile.TemporaryDirectory(prefix="sottovoce-bench-") as tmp:
        home = Path(tmp)
        run_child(True, home)  # creates the vault; not counted
        for _ in range(args.pairs):
            for name in ("full", "lean"):
                runs[name].append(run_child(name == "lean", home))
    out = {}
    for name, rs in runs.items():
        out[name] = {
            "usable_s_median": statistics.median(float(r["usable_s"]) for r in rs),  # type: ignore[arg-type]
            "models_s_median": statistics.median(float(r["models_s"]) for r in rs),  # type: ignore[arg-type]
            "rss_peak_mib_median": statistics.median(float(r["rss_peak_mib"]) for r in rs),  # type: ignore[arg-type]
            "torch_imported": any(bool(r["torch_imported"]) for r in rs),
            "transformers_imported": any(bool(r["transformers_imported"]) for r in rs),
        }
    common = {"host": platform.node(), "cpus": os.cpu_count(), "pairs": args.pairs,
              "loadavg_1m": round(os.getloadavg()[0], 2)}
    for name, label in (("full", "training stack importable"), ("lean", "training stack kept out")):
        print(json.dumps({"bench": "startup", "name": f"window start, {label}", **out[name], **common}))
    print(json.dumps({
        "bench": "startup", "name": "lean / full ratio", **common,
        "usable_s_ratio": round(out["lean"]["usable_s_median"] / out["full"]["usable_s_median"], 3),
        "models_s_ratio": round(out["lean"]["models_s_median"] / out["full"]["models_s_median"], 3),
        "rss_peak_ratio": round(out["lean"]["rss_peak_mib_median"] / out["full"]["rss_peak_mib_median"], 3),
    }))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
