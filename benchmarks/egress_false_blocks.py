"""False blocks that decoding and name forms could cause on ordinary text.

The egress guard scans decoded views of a payload (percent, HTML, escapes,
quoted-printable, base64) and other forms of the box's person names. Neither
may block text that hides nothing. This script scans the texts of the shared
data sets (PUPA prompts, Med-PCD queries, the Presidio research set,
PrivacyLens trajectories) and prints, one JSON object per line and data set:

- ``texts`` and ``texts_with_views``: how many texts gave any decoded view
  (``views_by_family`` says which decoders changed them);
- ``detector_blocks_from_decoding``: with an empty box and the shipped
  detector, texts that the guard blocks once decoding is on and did not
  block before, each text first anonymized as the pipeline does (what the
  detector finds replaced by placeholders). Before, the guard did not
  decode: 0 by construction. Each is listed on stderr (types, decoders, the
  decoded snippet) to be judged by hand;
- ``box_blocks_before`` / ``box_blocks_after``: texts blocked by a 200-entry
  synthetic box (``bench_egress.make_box``: names, phones, e-mails,
  addresses...), without and with decoding and name forms: whatever
  ``after`` adds is a false block (``before`` counts texts that do mention
  one of its values, a city or a first name);
- ``names_box_blocks_before`` / ``..._after``: the same with a box of 168
  full person names, where name forms ("Gonzalez, M.") would show.

    python benchmarks/egress_false_blocks.py [--data-dir ../shared/data] [--limit N] [--no-detector]
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_egress import FIRST, LAST, _Client, make_box  # noqa: E402

from core.box import PrivacyBox  # noqa: E402
from core.egress import EgressGuard  # noqa: E402
from core.entities import EntityType  # noqa: E402
from core.outbound import decoded_views  # noqa: E402


def texts(data: Path) -> Iterator[tuple[str, list[str]]]:
    """(data set name, its texts) for every data set found under ``data``."""
    pupa = data / "pupa" / "PUPA_New.csv"
    if pupa.exists():
        with pupa.open(encoding="utf-8", newline="") as fh:
            yield "pupa", [row["user_query"] for row in csv.DictReader(fh)]
    med = data / "med_pcd" / "med_pcd_train.json"
    if med.exists():
        yield "med_pcd", [r["query"] for r in json.loads(med.read_text("utf-8"))]
    presidio = data / "presidio_research" / "synth_dataset_v2.json"
    if presidio.exists():
        yield "presidio", [r["full_text"] for r in json.loads(presidio.read_text("utf-8"))]
    lens: list[str] = []
    for f in sorted((data / "privacylens").glob("*.json")):
        for r in json.loads(f.read_text("utf-8")):
            t = r["trajectory"]
            lens += [t["user_instruction"], t["executable_trajectory"]]
    if lens:
        yield "privacylens", lens


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--limit", type=int, default=0, help="at most this many texts per data set")
    ap.add_argument("--no-detector", action="store_true", help="box figures only")
    args = ap.parse_args()

    detector: Any = None
    if not args.no_detector:
        from core.assembly import default_detector
        from core.settings import Settings

        detector = default_detector(Settings())  # type: ignore[call-arg]
    box = make_box(200, random.Random(3))
    # Full names only: the mixed box's lone first names and cities hide what
    # the name forms add.
    names = PrivacyBox()
    for first in FIRST:
        for last in LAST:
            names.placeholder_for(f"{first} {last}", EntityType.PERSON)
    empty = PrivacyBox()
    after = EgressGuard(_Client(), detector=detector)
    before_det = EgressGuard(_Client(), detector=detector, decode=False, name_orders=False)
    before_box = EgressGuard(_Client(), decode=False, name_orders=False)
    after_box = EgressGuard(_Client())

    for name, items in texts(Path(args.data_dir)):
        if args.limit:
            items = items[: args.limit]
        t0 = time.perf_counter()
        with_views = 0
        families: Counter[str] = Counter()
        from_decoding = 0
        blocks_before = blocks_after = names_before = names_after = 0
        for text in items:
            views = decoded_views(text)
            if views:
                with_views += 1
                families.update({f for v in views for f in v.families})
            msgs = [{"role": "user", "content": text}]
            if detector is not None and views:
                # As the pipeline sends it: what the detector finds is
                # anonymized first; a block the view adds is decoding's.
                spans = detector.analyze(text)
                anon = [{"role": "user", "content": PrivacyBox().anonymize(text, spans).text}]
                was = bool(before_det.scan(anon, box=empty))
                now = after.scan(anon, box=empty)
                if now and not was:
                    from_decoding += 1
                    for v in decoded_views(anon[0]["content"]):
                        for a, b in v.changed[:1]:
                            snippet = v.text[max(0, a - 40) : b + 40].replace("\n", " ")
                            kinds = ",".join(h.type for h in now)
                            fams = "+".join(v.families)
                            print(f"[{name}] {kinds} via {fams}: ...{snippet}...", file=sys.stderr)
            blocks_before += bool(before_box.scan(msgs, box=box))
            blocks_after += bool(after_box.scan(msgs, box=box))
            names_before += bool(before_box.scan(msgs, box=names))
            names_after += bool(after_box.scan(msgs, box=names))
        print(
            json.dumps(
                {
                    "name": f"egress_false_blocks_{name}",
                    "texts": len(items),
                    "texts_with_views": with_views,
                    "views_by_family": dict(sorted(families.items())),
                    "detector_blocks_from_decoding": None if detector is None else from_decoding,
                    "box_entries": len(box),
                    "box_blocks_before": blocks_before,
                    "box_blocks_after": blocks_after,
                    "names_box_entries": len(names),
                    "names_box_blocks_before": names_before,
                    "names_box_blocks_after": names_after,
                    "seconds": round(time.perf_counter() - t0, 1),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
