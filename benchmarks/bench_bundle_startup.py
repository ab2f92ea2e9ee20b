"""Start-up of two desktop bundles, side by side: launch to a usable window.

    python benchmarks/bench_bundle_startup.py dist/sottovoce /tmp/vulkan/dist/sottovoce [--pairs 3]

Each bundle is started with ``SOTTOVOCE_QUIT_WHEN_USABLE=1`` on Qt's offscreen
platform (the window prints ``sottovoce: window usable`` at its first idle
moment after being shown, then quits), alternating A and B so both see the
same machine load. The first start of each creates the encrypted store and is
not counted. Extra environment for one bundle: ``--env-b KEY=VALUE``
(for example ``GGML_VK_VISIBLE_DEVICES=0`` to put lavapipe in use). Prints
one JSON object per start and a summary.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MARK = "sottovoce: window usable"


def launch(bundle: Path, home: Path, extra: dict[str, str]) -> float:
    program = bundle / ("sottovoce-cli.exe" if sys.platform == "win32" else "sottovoce")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("SOTTOVOCE_")},
        "SOTTOVOCE_HOME": str(home),
        "SOTTOVOCE_PASSPHRASE": "benchmark passphrase",
        "SOTTOVOCE_QUIT_WHEN_USABLE": "1",
        "QT_QPA_PLATFORM": "offscreen",
        **extra,
    }
    start = time.perf_counter()
    proc = subprocess.Popen([str(program)], cwd=home, env=env, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    usable = None
    for line in proc.stdout:
        if line.strip() == MARK:
            usable = time.perf_counter() - start
    proc.wait(timeout=300)
    if usable is None:
        raise RuntimeError(f"{program} exited {proc.returncode} without a usable window")
    return usable


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("a", type=Path)
    p.add_argument("b", type=Path)
    p.add_argument("--pairs", type=int, default=3)
    p.add_argument("--env-b", action="append", default=[], metavar="KEY=VALUE")
    args = p.parse_args()
    extra_b = dict(kv.split("=", 1) for kv in args.env_b)
    times: dict[str, list[float]] = {"a": [], "b": []}
    with tempfile.TemporaryDirectory(prefix="sottovoce-startup-") as tmp:
        homes = {k: Path(tmp) / k for k in times}
        for home in homes.values():
            home.mkdir()
        for key, bundle in (("a", args.a), ("b", args.b)):
            launch(bundle, homes[key], extra_b if key == "b" else {})  # creates the store
        for i in range(args.pairs):
            for key, bundle in (("a", args.a), ("b", args.b)):
                s = launch(bundle, homes[key], extra_b if key == "b" else {})
                times[key].append(s)
                print(json.dumps({"bundle": str(bundle), "pair": i, "usable_s": round(s, 3)}))
    print(json.dumps({
        "a": str(args.a), "b": str(args.b), "env_b": extra_b,
        "usable_s_median_a": round(statistics.median(times["a"]), 3),
        "usable_s_median_b": round(statistics.median(times["b"]), 3),
    }))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
