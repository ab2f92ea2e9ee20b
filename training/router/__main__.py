"""``python -m training.router build | export-encoder``.

``build`` is the documented command that produces the shipped router:

1. the sentence encoder in ``models/encoder`` (exported first when missing);
2. episodes from Med-PCD and PUPA (``../shared/data``), the product's default
   detector, cached under ``runs/router/cache`` by detector fingerprint;
3. the training fold of :func:`training.metrics.split_of` minus a development
   part (``split_of("dev:" + id)``), which is used for the training report;
   the evaluation fold is never seen by training; plus synthetic copies of the
   training episodes where the detector "missed" entities
   (:func:`training.router.episodes.with_missed_entities`);
4. for each policy (the shipped lambda-conditioned Transformer with the
   quadratic penalty, the linear-penalty and MLP ablations, Transformers
   trained at fixed lambdas): SFT warm-up, then PPO;
5. ONNX export with torch-onnxruntime parity, ``models/router/manifest.json``
   with the command, data, time, hyperparameters and figures;
6. ``sottovoce eval route`` on the evaluation fold of both data sets (reports
   in ``runs/router/eval/<format>/``), whose figures go into the manifest too;
7. its probe (``probe.json``, :mod:`training.router.probe`): how the program routes
   every fourth English utility dev text with it, which ``check`` compares later.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import logging
import platform
import shlex
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.router.policy import STATE_POOLS

log = logging.getLogger("training.router")

EVAL_DIR = Path("runs/router/eval")
#: The seed of the forms the router trains on is this plus the build's seed (the forms dev set has its own).
FORMS_TRAIN_SEED = 31_000


def _export_encoder(args: argparse.Namespace) -> int:
    import torch

    from training.router.episodes import DATA
    from training.router.export import PARITY_SENTENCES, export_encoder

    torch.set_num_threads(args.threads)
    sentences = list(PARITY_SENTENCES)
    if DATA["medpcd"].exists():
        # Real sentences of the data set make a better parity sample than a handful of examples.
        from core.segment import Segmenter
        from training.metrics import read_medpcd

        seg = Segmenter()
        for rec in read_medpcd(DATA["medpcd"])[:30]:
            sentences += [s.text for s in seg.segment(rec.text)]
    manifest = export_encoder(Path(args.out), sentences, quantize=not args.fp32)
    print(json.dumps(manifest["metrics"], indent=2))
    return 0


def _dev_metrics(
    policy: Any, episodes: list[Any], judge: Any, penalty: str, local_use: float = 0.0
) -> dict[str, Any]:
    """Leak (protected units and all units), catastrophic rate and TaskGain on the development
    part, per lambda."""
    import numpy as np
    import torch

    from training.router.features import batch
    from training.router.policy import p_remote
    from training.router.reward import reward

    out: dict[str, Any] = {}
    for lam in (0.0, 2.0, 5.0, 10.0):
        for src in sorted({e.source for e in episodes}):
            eps = [e for e in episodes if e.source == src]
            leaked = leaked_all = located = protected = cat = remote = sentences = 0
            gains, rewards = [], []
            with torch.no_grad():
                for a in range(0, len(eps), 64):
                    chunk = eps[a : a + 64]
                    local = torch.full((len(chunk),), float(local_use))
                    p = p_remote(policy(*batch(chunk, [lam] * len(chunk)), local)).numpy()
                    for j, e in enumerate(chunk):
                        r = (p[j, : len(e.sentences)] >= 0.5).tolist()
                        o = reward(e, r, lam, judge, penalty, local_use)
                        leaked += o.leaked
                        leaked_all += o.leaked_all
                        located += len(e.units)
                        n_prot = int(e.protected(lam).sum())
                        protected += n_prot
                        cat += bool(n_prot) and 2 * o.leaked >= n_prot
                        remote += o.remote
                        sentences += len(e.sentences)
                        gains.append(o.gain)
                        rewards.append(o.reward)
            out[f"{src}@{lam:g}"] = {
                "protected_leak_pct": round(100 * leaked / max(protected, 1), 2),
                "leak_pct": round(100 * leaked_all / max(located, 1), 2),
                "catastrophic_rate": round(cat / max(len(eps), 1), 4),
                "remote_sentences": round(remote / max(sentences, 1), 4),
                "task_gain": round(float(np.mean(gains)), 4),
                "reward": round(float(np.mean(rewards)), 4),
            }
    return out


def _build(args: argparse.Namespace) -> int:
    import numpy as np
    import torch

    import models
    from training.metrics import split_of
    from training.router import export as ex
    from training.router.episodes import build_episodes, default_parts, describe_detector
    from training.router.judge import ShareRetention
    from training.router.policy import PolicyConfig, ValueCritic, make_policy
    from training.router.ppo import PPOConfig, train_ppo
    from training.router.sft import SFTConfig, train_sft

    t_start = time.perf_counter()
    torch.set_num_threads(args.threads)
    out = Path(args.out)
    timings: dict[str, float] = {}

    enc_dir = Path(args.encoder)
    if not (enc_dir / "manifest.json").exists():
        log.info("exporting the sentence encoder to %s", enc_dir)
        _export_encoder(argparse.Namespace(out=str(enc_dir), threads=args.threads, fp32=False))
    timings["encoder"] = round(time.perf_counter() - t_start, 1)

    t0 = time.perf_counter()
    cache = Path(args.cache)
    detector, segmenter, store = default_parts(cache)
    # Fixed now: the detector's code or model may change on disk while the build runs.
    detector_info = describe_detector(detector)
    states = None
    if args.sentence_features in STATE_POOLS:
        from training.router.features import StateFeatures

        states = StateFeatures(pool=STATE_POOLS[args.sentence_features])
    sources = {"medpcd": Path(args.medpcd), "pupa": Path(args.pupa)}
    episodes = []
    data_info = {}
    for fmt, path in sources.items():
        if not path.exists():
            log.warning("%s not found; training without it", path)
            continue
        eps = build_episodes(
            path, fmt, detector, segmenter, store, split="train", cache=cache, states=states
        )
        if args.limit:
            eps = eps[: args.limit]
        episodes += eps
        data_info[fmt] = {"path": str(path), "sha256": models.sha256(path), "train_fold": len(eps)}
    if not episodes:
        raise SystemExit("no training data found (see --medpcd / --pupa)")

    def generated(name: str, source: str, rows: list[dict[str, Any]]) -> list[Any]:
        """Episodes of generated queries (medpcd format), written to the cache first."""
        path = cache / f"{name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(rows, ensure_ascii=False), "utf-8")
        eps = build_episodes(
            path,
            "medpcd",
            detector,
            segmenter,
            store,
            split="train",
            cache=cache,
            source=source,
            states=states,
        )
        episodes.extend(eps)
        return eps

    if args.benign > 0:
        # Requests with nothing private: without them every training sentence comes
        # from a query with private values, and "nothing detected" says nothing.
        from training.ner.chat import benign_requests

        rows = [
            {"id": f"benign-{args.seed}-{k}", "query": t, "pii_units": []}
            for k, t in enumerate(benign_requests(args.benign, seed=args.seed))
        ]
        eps = generated(f"benign-{args.benign}-{args.seed}", "benign", rows)
        data_info["benign"] = {
            "generator": "training.ner.chat.benign_requests (frames of our own, frequent "
            "English words, hard negatives without values; nothing private)",
            "train_fold": len(eps),
        }
    if args.forms > 0:
        # Pasted forms, profiles and records (the forms dev set's kinds and layouts, other
        # values: another seed). Without them a sentence of "key: value" lines is rare in
        # training and the policy withholds pasted forms that anonymization protects.
        from training.data.make_forms import SEED as FORMS_DEV_SEED
        from training.data.make_forms import make as make_forms

        seed = FORMS_TRAIN_SEED + args.seed
        assert seed != FORMS_DEV_SEED
        rows = [
            {"id": f"train-{item['id']}", "query": item["text"], "pii_units": item["protect"]}
            for item in make_forms(seed, per_kind=args.forms)
        ]
        eps = generated(f"forms-{args.forms}-{seed}", "forms", rows)
        data_info["forms"] = {
            "generator": f"training.data.make_forms.make(seed={seed}, per_kind={args.forms}) "
            f"(the forms dev set is seed {FORMS_DEV_SEED}; synthetic values)",
            "train_fold": len(eps),
        }
    train = [e for e in episodes if split_of("dev:" + e.id) == "train"]
    dev = [e for e in episodes if split_of("dev:" + e.id) == "eval"]
    for fmt in data_info:
        data_info[fmt]["train"] = sum(e.source == fmt for e in train)
        data_info[fmt]["dev"] = sum(e.source == fmt for e in dev)
    if args.miss_rate > 0:
        from training.router.episodes import with_missed_entities

        missed = with_missed_entities(
            train,
            store,
            rate=args.miss_rate,
            seed=args.seed,
            keep_one=args.miss_keep_one,
            states=states,
        )
        data_info["synthetic_missed_entities"] = {
            "episodes": len(missed),
            "rate": args.miss_rate,
            "keep_one": args.miss_keep_one,
            "what": "copies of training episodes with each detected entity dropped at this rate"
            + (" in sentences that keep another" if args.miss_keep_one else ""),
        }
        train = train + missed
    timings["episodes"] = round(time.perf_counter() - t0, 1)
    log.info("episodes: %d train, %d dev (%.0fs)", len(train), len(dev), timings["episodes"])

    judge = ShareRetention(store, args.share_weight, args.local_credit, args.placeholder_words)
    sft_cfg = SFTConfig(epochs=args.sft_epochs, seed=args.seed)
    base = PPOConfig(
        lr=args.ppo_lr,
        steps=args.steps,
        episodes_per_step=args.episodes_per_step,
        critic_warmup=min(16, args.steps),
        lambda_power=args.lambda_power,
        leak_oversample=args.leak_oversample,
        local_share=args.local_share,
        seed=args.seed,
    )
    runs: dict[str, tuple[str, PPOConfig]] = {
        "policy": ("transformer", base),
        "transformer_linear": ("transformer", dataclasses.replace(base, penalty="linear")),
        "mlp": ("mlp", base),
    }
    fixed = [float(x) for x in args.fixed_lambdas.split(",") if x.strip()]
    for lam in fixed:
        runs[f"fixed_lambda_{lam:g}"] = ("transformer", dataclasses.replace(base, fixed_lambda=lam))
    if args.only:
        runs = {k: v for k, v in runs.items() if k in args.only.split(",")}

    sft_done: dict[str, Any] = {}
    report: dict[str, Any] = {}
    trained: dict[str, Any] = {}
    for name, (kind, ppo_cfg) in runs.items():
        t0 = time.perf_counter()
        if kind not in sft_done:
            torch.manual_seed(args.seed)
            pol = make_policy(PolicyConfig(kind=kind))
            hist = train_sft(pol, train, sft_cfg)
            sft_done[kind] = (copy.deepcopy(pol.state_dict()), hist)
        pol = make_policy(PolicyConfig(kind=kind))
        pol.load_state_dict(sft_done[kind][0])
        sft_dev = _dev_metrics(pol, dev, judge, ppo_cfg.penalty) if name == "policy" else None
        torch.manual_seed(args.seed)
        ppo_hist = train_ppo(pol, ValueCritic(), train, judge, ppo_cfg)
        trained[name] = pol
        curves = ppo_hist["curves"]
        k = max(1, min(16, len(curves["reward"])))
        report[name] = {
            "kind": kind,
            "architecture": PolicyConfig(kind=kind).to_json(),
            "ppo": ppo_cfg.to_json(),
            "sft_bce": [round(x, 4) for x in sft_done[kind][1]["bce"]],
            "ppo_last_steps": {key: round(float(np.mean(v[-k:])), 4) for key, v in curves.items()},
            "ppo_reward_curve_every_16": [
                round(float(np.mean(curves["reward"][i : i + 16])), 4)
                for i in range(0, len(curves["reward"]), 16)
            ],
            "dev": _dev_metrics(pol, dev, judge, ppo_cfg.penalty),
            "dev_capable_local_model": _dev_metrics(pol, dev, judge, ppo_cfg.penalty, 1.0),
            "seconds": round(time.perf_counter() - t0, 1),
        }
        if sft_dev is not None:
            report[name]["dev_after_sft"] = sft_dev
        log.info("%s trained in %.0fs; dev %s", name, report[name]["seconds"], report[name]["dev"])
        torch.save(
            {"state_dict": pol.state_dict(), "config": PolicyConfig(kind=kind).to_json()},
            cache.parent / f"{name}.pt",
        )

    t0 = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    files = []
    parity = {}
    for name, pol in trained.items():
        fname = f"{name}.onnx"
        parity[fname] = ex.export_policy(pol, out / fname)
        files.append(fname)
        if parity[fname] > ex.POLICY_PARITY_TOL:
            raise SystemExit(f"{fname}: torch/onnxruntime parity {parity[fname]:.2e} too large")
    timings["export"] = round(time.perf_counter() - t0, 1)

    from core.router.policy import (
        DETECT_DIM,
        EXTRA_FEATURES,
        FEATURES_VERSION,
        INPUTS,
        OUTPUT,
        TYPES,
    )

    enc_manifest = models.load_manifest("encoder", enc_dir)
    manifest: dict[str, Any] = {
        "name": "router",
        "files": files,
        "model_file": "policy.onnx",
        "fixed_lambda_files": {
            f"{lam:g}": f"fixed_lambda_{lam:g}.onnx"
            for lam in fixed
            if f"fixed_lambda_{lam:g}" in trained
        },
        "inputs": list(INPUTS),
        "outputs": [OUTPUT],
        "sentence_features": args.sentence_features,
        "input_shapes": {
            INPUTS[0]: "float32[batch, sentences, 384] ("
            + (
                "the NER's last hidden states, mean over each sentence's tokens outside its "
                "entities, normalized: core.router.policy.state_features"
                if states is not None
                else "all-MiniLM-L6-v2 of the anonymized sentence, normalized"
            )
            + ")",
            INPUTS[1]: f"float32[batch, sentences, {DETECT_DIM}]",
            INPUTS[2]: "float32[batch] (lambda, clamped to [0, 10])",
            INPUTS[3]: "float32[batch] (1: a capable local model merges withheld sentences; "
            "0: nothing local uses them; clamped to [0, 1])",
        },
        "features_version": FEATURES_VERSION,
        "detect_features": [f"log1p_count_{t.value}" for t in TYPES] + list(EXTRA_FEATURES),
        "decision": "remote when p_remote >= 0.5",
        "opset": ex.OPSET,
        "versions": {**ex._versions(), "python": platform.python_version()},
        "encoder": {
            "model": enc_manifest.get("model"),
            "precision": enc_manifest.get("precision"),
            "sha256": enc_manifest.get("files", {}).get("model.onnx"),
            "trained_on": "sentence-transformers embeddings (fp32)",
            "role": (
                "TaskGain's semantic retention at build time only; the policy reads the NER's "
                "token states (see ner), so the program does not run this encoder to route"
                if states is not None
                else "the policy's sentence features: the program runs it on every sentence"
            ),
        },
        "detector": detector_info,
        **(
            {
                "ner": {
                    "sha256": states.ner_sha256,
                    "what": "the NER model whose token states the policy reads; another one "
                    "(a NER rebuild) is refused until the router is rebuilt",
                }
            }
            if states is not None
            else {}
        ),
        "training_command": "python -m training.router "
        + " ".join(shlex.quote(a) for a in sys.argv[1:]),
        "rebuild_command": "python -m training.router build"
        + (f" --sentence-features {args.sentence_features}" if states is not None else ""),
        "task_gain": f"proxy: {args.share_weight:g} * remote share of the query's non-private "
        + ("words and placeholders (one word per gold unit)" if args.placeholder_words else "words")
        + f" + {1 - args.share_weight:g} * sentence-pooled MiniLM semantic retention; with a "
        f"capable local model (local_use = 1) a withheld word still earns {args.local_credit:g} "
        "of its share (no LLM judge on the build machine)",
        "reward": "R = TaskGain - lambda * Leak^2 (linear ablation: Leak^1), lambda = "
        f"10 * u^{args.lambda_power:g}, u ~ U[0, 1], per episode (SFT: lambda ~ U[0, 10]); "
        "Leak = protected gold units (those the type policy protects at the episode's lambda) "
        "in the exact outbound / protected units; local_use ~ Bernoulli("
        f"{args.local_share:g}) per episode",
        "sft_labels": "0 (local) when the sentence sent alone, anonymized by the real detector "
        "and type policy at the episode's lambda, would carry a protected gold unit; else 1",
        "sft": sft_cfg.to_json(),
        "data": data_info,
        "split": "training.metrics.split_of(id) == 'train' and split_of('dev:' + id) == 'train'; "
        "dev = the rest of the training fold; the eval fold is never used in training",
        "runs": report,
        "parity_max_abs_diff": parity,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpu_threads_used": args.threads, "platform": platform.platform()},
    }
    models.write_manifest(out, {**manifest, "timings_s": timings})

    if args.no_eval or "policy" not in trained:
        timings["total"] = round(time.perf_counter() - t_start, 1)
        models.write_manifest(out, {**manifest, "timings_s": timings})
    else:
        _evaluate(args, out, manifest, timings, sources, cache, detector_info, t_start)
    if "policy" in trained:
        # How the program routes the probe texts with it now: `check` compares against it.
        from training.router import probe

        probe.write(out, probe.record(out))
    return 0


def _evaluate(
    args: argparse.Namespace,
    out: Path,
    manifest: dict[str, Any],
    timings: dict[str, float],
    sources: dict[str, Path],
    cache: Path,
    detector_info: dict[str, Any],
    t_start: float,
) -> int:
    """The frontier evaluation of a built router on the evaluation folds, its routing
    cost, and the manifest written with them."""
    import models
    from training.router.eval_route import evaluate_file

    metrics: dict[str, Any] = {}
    for fmt, path in sources.items():
        if not path.exists():
            continue
        t0 = time.perf_counter()
        res = evaluate_file(
            path,
            fmt,
            Path(args.eval_out) / fmt,
            split="eval",
            limit=args.eval_limit,
            models_dir=out,
            cache=cache,
        )
        timings[f"eval_{fmt}"] = round(time.perf_counter() - t0, 1)
        strip = lambda d: {k: v for k, v in d.items() if k != "_extra"}  # noqa: E731
        metrics[fmt] = {
            "judge": res["judge"],
            "queries": res["info"]["queries"],
            "units_located": res["info"]["units_located"],
            "systems": {k: strip(v) for k, v in res["systems"].items()},
            "lambda_sweep": [strip(p) for p in res["lambda_sweep"]],
            "report": str(Path(args.eval_out) / fmt / "report.md"),
            "detector": res["info"]["detector"],
        }
        if res["info"]["detector"]["fingerprint"] != detector_info["fingerprint"]:
            log.warning(
                "the detector changed since the build (%s at training, %s at evaluation); "
                "rebuild when it has settled",
                detector_info["fingerprint"],
                res["info"]["detector"]["fingerprint"],
            )
    try:
        from benchmarks.bench_router import measure

        metrics["routing_cost"] = measure(out, repeats=50)
    except Exception as exc:  # the benchmark is a report, never a reason to fail the build
        log.warning("routing benchmark failed: %s", exc)
    timings["total"] = round(timings.get("total", 0.0) + time.perf_counter() - t_start, 1)
    models.write_manifest(out, {**manifest, "timings_s": timings, "metrics": metrics})
    print(json.dumps({"timings_s": timings, "metrics_at_lambda_5": _headline(metrics)}, indent=2))
    return 0


def _eval_only(args: argparse.Namespace) -> int:
    """Evaluate the router already built in ``--out`` (an evaluation that failed or
    was skipped) and write the figures into its manifest; nothing is trained."""
    out = Path(args.out)
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    manifest.pop("metrics", None)
    timings = dict(manifest.pop("timings_s", {}))
    timings.pop("total", None)
    timings["total"] = sum(v for k, v in timings.items() if not k.startswith("eval_"))
    sources = {"medpcd": Path(args.medpcd), "pupa": Path(args.pupa)}
    detector_info = manifest["detector"]
    t_start = time.perf_counter()
    return _evaluate(
        args, out, manifest, timings, sources, Path(args.cache), detector_info, t_start
    )


def _utility(args: argparse.Namespace) -> int:
    from training.router.utility import run

    return run(args)


def _gate(args: argparse.Namespace) -> int:
    from training.router.gate import run

    return run(args)


def _bag(args: argparse.Namespace) -> int:
    from training.router.bag import run

    return run(args)


def _taskgain_weights(args: argparse.Namespace) -> int:
    from training.router.weights import run

    return run(args)


def _headline(metrics: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for fmt, m in metrics.items():
        if not isinstance(m, dict) or "systems" not in m:
            out[fmt] = m
            continue
        out[fmt] = {
            name: {k: d[k] for k in ("leak_pct", "catastrophic_rate", "semantic_retention")}
            for name, d in m["systems"].items()
        }
    return out


def router_staleness(router: Path, detector: Any = None) -> list[str]:
    """Why the router in ``router`` no longer matches what the program runs (empty: it does).

    It was trained on detections of one detector and on embeddings of one encoder
    (the ONNX file's hash): a rebuilt NER, new rules or another encoder change its
    inputs without changing it. With a probe record (``probe.json``, written by the
    build) the rules are judged by what they change: the share of the probe's
    decisions that flipped (:mod:`training.router.probe`); without one, or with a
    ``detector`` given, by the detector's fingerprint. The NER whose states it reads
    and the encoder are checked exactly.
    """
    import models
    from core.assembly import default_detector
    from core.settings import Settings
    from training.router.episodes import detector_fingerprint

    manifest = json.loads((router / "manifest.json").read_text("utf-8"))
    out = []
    if "probe" in manifest and detector is None:
        # What the policy decides on its probe texts, against the record made when it was
        # built: the rules' code moves the fingerprint also when no decision moves.
        from training.router.probe import staleness

        out.extend(staleness(router)[0])
    else:
        trained = manifest.get("detector", {}).get("fingerprint")
        now = detector_fingerprint(detector or default_detector(Settings()))
        if trained != now:
            out.append(f"detector: trained on {trained}, the program's is {now}")
    encoder = models.artifact_dir("encoder") / "manifest.json"
    if encoder.exists():
        files = json.loads(encoder.read_text("utf-8")).get("files", {})
        model_sha = files.get("model.onnx") if isinstance(files, dict) else None
        if model_sha and manifest.get("encoder", {}).get("sha256") not in (None, model_sha):
            out.append(
                f"encoder: trained on {manifest['encoder']['sha256'][:12]}, "
                f"the program's is {model_sha[:12]}"
            )
    if manifest.get("sentence_features") in STATE_POOLS:
        from core.router.policy import ner_mismatch

        mismatch = ner_mismatch(manifest)
        if mismatch is not None:
            out.append(
                f"NER states: trained on {mismatch[0][:12]}, the program's NER is {mismatch[1][:12]}"
            )
    return out


def _check(args: argparse.Namespace) -> int:
    stale = router_staleness(Path(args.router))
    if not stale:
        print(f"{args.router}: routes as when it was built, on the program's detector and encoder")
        return 0
    for line in stale:
        print(f"{args.router}: stale {line}")
    print("rebuild it with: python -m training.router build (after python -m training.ner build)")
    return 1


def _probe(args: argparse.Namespace) -> int:
    """Record the router's probe (on the detector it was trained on), or compare with it."""
    from core.assembly import default_detector
    from core.settings import Settings
    from training.router import probe
    from training.router.episodes import detector_fingerprint

    folder = Path(args.router)
    if args.record:
        manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
        trained = manifest.get("detector", {}).get("fingerprint")
        now = detector_fingerprint(default_detector(Settings()))
        if trained != now and not args.force:
            print(
                f"{folder}: trained on detector {trained}, the program's is {now}: record the "
                "probe on the detector it was trained on (a checkout of that commit), or "
                "rebuild it"
            )
            return 1
        rec = probe.record(folder)
        probe.write(folder, rec)
        print(f"{folder}: probe of {len(rec['texts'])} texts recorded ({rec['seconds']} s)")
        return 0
    stale, cmp = probe.staleness(folder)
    print(json.dumps({**cmp, "tolerance": probe.TOLERANCE, "stale": stale}, indent=2))
    return 1 if stale else 0


def main(argv: list[str] | None = None) -> int:
    from training.router.episodes import CACHE, DATA

    parser = argparse.ArgumentParser(prog="python -m training.router")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="train and export the shipped router (models/router)")
    b.add_argument("--out", default="models/router")
    b.add_argument("--encoder", default="models/encoder")
    b.add_argument(
        "--sentence-features",
        choices=("minilm", *STATE_POOLS),
        default="minilm",
        help="the policy's view of a sentence: MiniLM's embedding of its anonymized form, or "
        "the NER's token states pooled outside its entities (one encoder pass; the NER model "
        "needs its 'hidden' output: python -m training.ner add-states)",
    )
    b.add_argument("--medpcd", default=str(DATA["medpcd"]))
    b.add_argument("--pupa", default=str(DATA["pupa"]))
    b.add_argument("--cache", default=str(CACHE))
    b.add_argument("--eval-out", default=str(EVAL_DIR))
    b.add_argument("--steps", type=int, default=256, help="PPO steps (default 256)")
    b.add_argument("--ppo-lr", type=float, default=3e-4, help="PPO actor learning rate")
    b.add_argument("--episodes-per-step", type=int, default=64)
    b.add_argument(
        "--lambda-power",
        type=float,
        default=2.0,
        help="PPO draws lambda as 10 * u**power, u ~ U[0, 1] (1 = uniform; default 2)",
    )
    b.add_argument("--sft-epochs", type=int, default=8)
    b.add_argument(
        "--share-weight",
        type=float,
        default=0.5,
        help="TaskGain = w * remote word share + (1 - w) * pooled retention (default 0.5; "
        "see python -m training.router taskgain-weights)",
    )
    b.add_argument(
        "--placeholder-words",
        action="store_true",
        help="the remote share counts each gold unit as one word (its placeholder) besides "
        "the non-private words",
    )
    b.add_argument(
        "--local-credit",
        type=float,
        default=0.5,
        help="with a capable local model, the share of a withheld word's value it keeps",
    )
    b.add_argument(
        "--local-share",
        type=float,
        default=0.5,
        help="share of PPO episodes played with a capable local model",
    )
    b.add_argument(
        "--miss-rate",
        type=float,
        default=0.3,
        help="add copies of the training episodes with each detected entity dropped at this "
        "rate (0: none)",
    )
    b.add_argument(
        "--benign",
        type=int,
        default=0,
        help="add this many generated requests with nothing private to the training episodes",
    )
    b.add_argument(
        "--forms",
        type=int,
        default=0,
        help="add this many generated pasted forms of each kind (training.data.make_forms, "
        "another seed than the forms dev set's) to the training episodes",
    )
    b.add_argument(
        "--miss-keep-one",
        action="store_true",
        help="drop entities only from sentences that keep another (no copy makes a sentence "
        "with nothing detected look like a miss)",
    )
    b.add_argument(
        "--leak-oversample",
        type=float,
        default=0.0,
        help="PPO draws the episodes that still leak when every sentence is anonymized "
        "1 + this many times as often (0: uniform)",
    )
    b.add_argument("--fixed-lambdas", default="5", help="comma-separated; empty for none")
    b.add_argument("--only", help="train only these runs (comma-separated names)")
    b.add_argument("--limit", type=int, help="use only the first N training episodes per data set")
    b.add_argument("--no-eval", action="store_true", help="skip the frontier evaluation")
    b.add_argument("--eval-limit", type=int, help="evaluate only the first N queries per data set")
    b.add_argument("--threads", type=int, default=1)
    b.add_argument("--seed", type=int, default=0)
    b.add_argument(
        "--eval-only",
        action="store_true",
        help="train nothing: evaluate the router already in --out and write its manifest's figures",
    )
    b.set_defaults(handler=lambda a: _eval_only(a) if a.eval_only else _build(a))
    u = sub.add_parser(
        "utility",
        help="a utility set through the real prepare path with a chosen router: keep rate, "
        "leaks, needless withheld sentences",
    )
    u.add_argument("--data", required=True)
    u.add_argument("--out")
    u.add_argument("--router", help="router artifact folder (default: models/router)")
    u.add_argument("--local-use", type=float, default=0.0, help="1: a capable local model")
    u.add_argument("--lambda", dest="risk_lambda", type=float, default=5.0)
    u.add_argument("--limit", type=int)
    u.set_defaults(handler=_utility)
    g = sub.add_parser(
        "gate",
        help="a candidate router against the shipped one on the same detector: SHIP or HOLD",
    )
    g.add_argument("--candidate", required=True, help="the candidate router's folder")
    g.add_argument("--candidate-eval", required=True, help="its build --eval-out folder")
    g.add_argument("--baseline", help="the baseline router's folder (default: models/router)")
    g.add_argument(
        "--baseline-eval", required=True, help="the baseline's --eval-only folder, same detector"
    )
    g.add_argument("--data", nargs="*", help="utility sets (default: ours and the shared examples)")
    g.add_argument("--local-use", type=float, default=0.0, help="1: a capable local model")
    g.add_argument("--out")
    g.set_defaults(handler=_gate)
    bg = sub.add_parser(
        "bag",
        help="one router from several builds of one recipe (other seeds): the mean of their "
        "p_remote, in one ONNX graph",
    )
    bg.add_argument("--members", required=True, help="comma-separated router folders")
    bg.add_argument("--out", required=True)
    bg.add_argument(
        "--combine",
        choices=("mean", "geometric"),
        default="mean",
        help="arithmetic mean of p_remote, or geometric (a sentence leaves when the members "
        "agree it may)",
    )
    bg.set_defaults(handler=_bag)
    w = sub.add_parser(
        "taskgain-weights",
        help="compare TaskGain weightings on the development episodes (which one the build uses)",
    )
    w.add_argument("--weights", default="0,0.5,0.8")
    w.add_argument("--formats", help="comma-separated data sets (default: medpcd,pupa)")
    w.add_argument("--cache", default=str(CACHE))
    w.add_argument("--out", help="write the table as JSON here")
    w.set_defaults(handler=_taskgain_weights)
    c = sub.add_parser(
        "check",
        help="does the router match the program's detector and encoder? (exit 1 when stale)",
    )
    c.add_argument("--router", default="models/router")
    c.set_defaults(handler=_check)
    pr = sub.add_parser(
        "probe",
        help="the router's decisions on its probe texts against those recorded at its build "
        "(JSON; exit 1 when stale), or --record them",
    )
    pr.add_argument("--router", default="models/router")
    pr.add_argument(
        "--record",
        action="store_true",
        help="record the probe now (refused unless the program's detector is the one the "
        "router was trained on)",
    )
    pr.add_argument("--force", action="store_true", help="record on another detector anyway")
    pr.set_defaults(handler=_probe)
    e = sub.add_parser("export-encoder", help="export all-MiniLM-L6-v2 to models/encoder")
    e.add_argument("--out", default="models/encoder")
    e.add_argument("--fp32", action="store_true", help="do not quantize to int8")
    e.add_argument("--threads", type=int, default=1)
    e.set_defaults(handler=_export_encoder)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    for noisy in ("presidio-analyzer", "sentence_transformers", "httpx"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    return int(args.handler(args))


if __name__ == "__main__":
    raise SystemExit(main())
