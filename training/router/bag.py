"""``python -m training.router bag``: one router from several builds of one recipe.

Builds of the same recipe that differ only in their seed land far apart (one
withholds more of a data set, another leaks more of another), further apart
than the router gate's margins, so one build is one draw. Averaging the
policies' ``p_remote`` over several seeds (bagging) keeps what the draws agree
on and lowers the variance without choosing among them on the gate's sets.

The members' ONNX graphs are joined into one graph with the same inputs and
output (each member's names prefixed, a ``Mean`` node at the end), so the
program runs it like any router. The ablation baselines the evaluation reports
beside the policy (``transformer_linear``, ``mlp``, ``fixed_lambda_*``) are the
first member's.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from core.router.policy import STATE_POOLS

#: Manifest entries that must agree between members (the program feeds one input to all).
_SAME = ("sentence_features", "features_version", "inputs", "outputs", "detect_features")
BAG_PARITY_TOL = 1e-5


def _member_manifest(folder: Path) -> dict[str, Any]:
    import models

    return models.verify("router", folder)


def check_members(manifests: list[dict[str, Any]]) -> None:
    """Raise ``ValueError`` when the members cannot share one input."""
    if len(manifests) < 2:
        raise ValueError("a bag needs at least two routers")
    first = manifests[0]
    for m in manifests[1:]:
        for key in _SAME:
            if m.get(key) != first.get(key):
                raise ValueError(f"members differ in {key!r}: {first.get(key)!r} != {m.get(key)!r}")
        if m.get("ner", {}).get("sha256") != first.get("ner", {}).get("sha256"):
            raise ValueError("members read the token states of different NER models")


#: How the members' ``p_remote`` combine: their arithmetic mean, or their geometric mean
#: (a product of experts: one member's low ``p_remote`` weighs more, so a sentence leaves
#: when the members agree it may).
COMBINE = ("mean", "geometric")
_EPS = 1e-6


def join_graphs(paths: list[Path], out: Path, combine: str = "mean") -> None:
    """Write one ONNX graph whose output combines the members' ``p_remote`` (:data:`COMBINE`)."""
    import onnx
    from onnx import compose, helper

    from core.router import policy as pol_rt

    models = [onnx.load(str(p)) for p in paths]
    first = models[0].graph
    nodes: list[Any] = []
    inits: list[Any] = []
    infos: list[Any] = []
    outs: list[str] = []
    for i, m in enumerate(models):
        if [x.name for x in m.graph.input] != [x.name for x in first.input]:
            raise ValueError(f"{paths[i]}: inputs differ from {paths[0]}")
        g = compose.add_prefix_graph(m.graph, f"m{i}_", rename_inputs=False)
        nodes += list(g.node)
        inits += list(g.initializer)
        infos += list(g.value_info)
        outs.append(g.output[0].name)
    if combine == "mean":
        nodes.append(helper.make_node("Mean", outs, [pol_rt.OUTPUT], name="bag_mean"))
    elif combine == "geometric":
        eps = helper.make_tensor("bag_eps", onnx.TensorProto.FLOAT, [], [_EPS])
        inits.append(eps)
        logs = []
        for i, o in enumerate(outs):
            nodes.append(helper.make_node("Add", [o, "bag_eps"], [f"bag_p{i}"], name=f"bag_add{i}"))
            nodes.append(
                helper.make_node("Log", [f"bag_p{i}"], [f"bag_log{i}"], name=f"bag_log{i}")
            )
            logs.append(f"bag_log{i}")
        nodes.append(helper.make_node("Mean", logs, ["bag_mean_log"], name="bag_mean"))
        nodes.append(helper.make_node("Exp", ["bag_mean_log"], [pol_rt.OUTPUT], name="bag_exp"))
    else:
        raise ValueError(f"unknown combination {combine!r} (one of {', '.join(COMBINE)})")
    graph = helper.make_graph(
        nodes,
        "router_bag",
        list(first.input),
        [first.output[0]],
        initializer=inits,
        value_info=infos,
    )
    joined = helper.make_model(graph, opset_imports=list(models[0].opset_import))
    joined.ir_version = models[0].ir_version
    onnx.checker.check_model(joined)
    onnx.save(joined, str(out))


def combined(each: list[np.ndarray], combine: str) -> np.ndarray:
    """The members' ``p_remote`` combined as the joined graph does (numpy reference)."""
    if combine == "geometric":
        return np.exp(np.mean([np.log(p + _EPS) for p in each], axis=0))
    return np.mean(each, axis=0)


def bag_parity(members: list[Path], bag: Path, seed: int = 0, combine: str = "mean") -> float:
    """Max absolute difference between the bag and its members' combination, random queries."""
    from core.router import encoder as enc_rt
    from core.router import policy as pol_rt

    sessions = [enc_rt.ort_session(p, threads=1) for p in members]
    joined = enc_rt.ort_session(bag, threads=1)
    rng = np.random.default_rng(seed)
    worst = 0.0
    for n in (1, 3, 17):
        for lam, local in ((0.0, 0.0), (5.0, 1.0), (10.0, 0.0)):
            emb = rng.standard_normal((1, n, enc_rt.DIM)).astype(np.float32)
            emb /= np.linalg.norm(emb, axis=-1, keepdims=True)
            feeds = {
                pol_rt.INPUTS[0]: emb,
                pol_rt.INPUTS[1]: rng.random((1, n, pol_rt.DETECT_DIM)).astype(np.float32),
                pol_rt.INPUTS[2]: np.array([lam], dtype=np.float32),
                pol_rt.INPUTS[3]: np.array([local], dtype=np.float32),
            }
            ref = combined([s.run([pol_rt.OUTPUT], feeds)[0] for s in sessions], combine)
            got = joined.run([pol_rt.OUTPUT], feeds)[0]
            worst = max(worst, float(np.abs(ref - got).max()))
    return worst


def bag(members: list[Path], out: Path, command: str = "", combine: str = "mean") -> dict[str, Any]:
    """Join the routers in ``members`` into the router artifact ``out``; return its manifest."""
    import models

    manifests = [_member_manifest(m) for m in members]
    check_members(manifests)
    first = manifests[0]
    model_file = str(first.get("model_file", "policy.onnx"))
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    join_graphs(
        [
            m / str(mf.get("model_file", "policy.onnx"))
            for m, mf in zip(members, manifests, strict=True)
        ],
        out / model_file,
        combine,
    )
    parity = bag_parity([m / model_file for m in members], out / model_file, combine=combine)
    if parity > BAG_PARITY_TOL:
        raise ValueError(f"the joined graph differs from its members' {combine} by {parity:g}")
    for name in first["files"]:
        if name != model_file:
            shutil.copy(members[0] / name, out / name)
    newest = max(manifests, key=lambda m: str(m.get("created", "")))
    manifest = {
        **{k: v for k, v in first.items() if k not in ("metrics", "timings_s", "runs")},
        "detector": newest.get("detector", first.get("detector")),
        **(
            {
                "encoder": {
                    **first.get("encoder", {}),
                    "role": "TaskGain's semantic retention at build time only; the policy "
                    "reads the NER's token states (see ner), so the program does not run "
                    "this encoder to route",
                }
            }
            if first.get("sentence_features") in STATE_POOLS
            else {}
        ),
        "bag": {
            "combine": f"{combine} of the members' p_remote (one ONNX graph); remote when "
            "it is >= 0.5",
            "baselines": f"the ablations beside the policy are {members[0].name}'s",
            "members": [
                {
                    "name": folder.name,
                    "sha256": m["files"].get(model_file),
                    "training_command": m.get("training_command"),
                    "detector": m.get("detector", {}).get("fingerprint"),
                    "created": m.get("created"),
                    "dev": m.get("runs", {}).get("policy", {}).get("dev"),
                }
                for folder, m in zip(members, manifests, strict=True)
            ],
            "parity_max_abs_diff": parity,
        },
        "training_command": command,
        "rebuild_command": "python -m training.router build (one per seed: --seed S --out "
        "DIR_S), then python -m training.router bag --members DIR_1,DIR_2,... --out "
        "models/router",
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    written = models.write_manifest(out, manifest)
    models.verify("router", out)
    return written


def run(args: argparse.Namespace) -> int:
    members = [Path(p) for p in args.members.split(",") if p]
    command = "python -m training.router " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    manifest = bag(members, Path(args.out), command, args.combine)
    members_named = [m["name"] for m in manifest["bag"]["members"]]
    print(json.dumps({"out": args.out, **manifest["bag"], "members": members_named}, indent=2))
    return 0
