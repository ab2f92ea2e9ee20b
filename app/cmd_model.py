"""``sottovoce model ...``: the local models.

- ``sottovoce model list [--json]``: the catalogue of recommended models (size,
  license, RAM and VRAM needed, whether each fits this machine), what is
  installed, downloads that did not finish, the local model in use, and the
  GPU offload status.
- ``sottovoce model add NAME|URL [--sha256 HEX] [--name N] [--use] [--json]``:
  download a catalogue model or any GGUF URL, with progress; Ctrl-C pauses
  and the same command resumes. A URL with no published hash is installed
  only once the person confirms its sha256.
- ``sottovoce model import FILE [--name N] [--in-place] [--use] [--json]``: add
  a GGUF the person already has.
- ``sottovoce model use NAME|embedded|FILE [--json]``: make it the local model.
- ``sottovoce model remove NAME [--json]``: delete it (or a partial download).

Downloads send no private text; see :mod:`core.llm.download`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import IO, Any

from core.errors import InputError


def register(sub: Any) -> None:
    """Add ``sottovoce model`` and its sub-commands to the parser."""
    m = sub.add_parser(
        "model", help="local models: the catalogue, download, import, choose, remove; GPU status"
    )
    msub = m.add_subparsers(dest="model_command")
    ls = msub.add_parser("list", help="the catalogue, what is installed, and the GPU status")
    ls.add_argument("--json", action="store_true", help="print one JSON object")

    add = msub.add_parser("add", help="download a catalogue model (by name) or a GGUF URL")
    add.add_argument("what", help="a catalogue name (see `model list`) or an http(s) URL of a .gguf")
    add.add_argument("--sha256", help="the file's published sha256 (URLs outside the catalogue)")
    add.add_argument("--name", help="the name to give a model from a URL (default: its file name)")
    add.add_argument("--use", action="store_true", help="make it the local model once installed")
    add.add_argument("--json", action="store_true", help="print the installed model as JSON")

    imp = msub.add_parser("import", help="add a GGUF file you already have")
    imp.add_argument("file", help="a .gguf file")
    imp.add_argument("--name", help="the model's name (default: the file's name)")
    imp.add_argument(
        "--in-place", action="store_true", help="use the file where it is instead of copying it"
    )
    imp.add_argument("--use", action="store_true", help="make it the local model")
    imp.add_argument("--json", action="store_true")

    use = msub.add_parser("use", help="make a model the local model (`embedded` = the built-in one)")
    use.add_argument("name", help="an installed model's name, `embedded`, or a .gguf file")
    use.add_argument("--json", action="store_true")

    rm = msub.add_parser("remove", help="delete an installed model or a partial download")
    rm.add_argument("name")
    rm.add_argument("--json", action="store_true")

    m.set_defaults(handler=cmd_model, model_command="list", json=False)


def cmd_model(args: argparse.Namespace) -> int:
    handler = {
        "list": _list,
        "add": _add,
        "import": _import,
        "use": _use,
        "remove": _remove,
    }[args.model_command]
    return handler(args)


# --- progress on the terminal ----------------------------------------------------------


class ProgressLine:
    """Download progress on stderr: one line rewritten in a terminal, sparse lines elsewhere."""

    EVERY_S = 5.0

    def __init__(self, out: IO[str] | None = None) -> None:
        self.out = out or sys.stderr
        self.tty = bool(getattr(self.out, "isatty", lambda: False)())
        self.last = 0.0
        self.width = 0

    def show(self, progress: Any) -> None:
        text = progress.describe()
        if self.tty:
            self.out.write("\r" + text.ljust(self.width))
            self.width = len(text)
            self.out.flush()
            return
        now = time.monotonic()
        if progress.phase != "download" or now - self.last >= self.EVERY_S:
            self.last = now
            print(text, file=self.out, flush=True)

    def end(self) -> None:
        if self.tty and self.width:
            self.out.write("\n")
            self.out.flush()
        self.width = 0


def _drive(gen: Any, line: ProgressLine) -> Any:
    """Run a download/import generator, showing its progress; returns its result."""
    try:
        while True:
            try:
                line.show(next(gen))
            except StopIteration as stop:
                return stop.value
    finally:
        gen.close()  # on Ctrl-C too: the partial file is closed whole
        line.end()


# --- list ----------------------------------------------------------------------------------


def _gib(n: int | None) -> str:
    return "?" if n is None else f"{n / 2**30:.1f} GiB"


def _mb(n: int) -> str:
    return f"{n / 1e6:,.0f} MB" if n < 1e9 else f"{n / 1e9:.2f} GB"


_WHERE = {"gpu": "GPU", "cpu": "CPU", "too_large": "too large", "unknown": "unknown"}


def _placement_json(p: Any) -> dict[str, Any] | None:
    """Where the local model runs: the backend, the device and its memory, or why the CPU."""
    if p is None:
        return None
    d = p.device
    return {
        "backend": p.backend,
        "n_gpu_layers": p.n_gpu_layers,
        "device": d.name if d else None,
        "free": d.free if d else None,
        "total": d.total if d else None,
        "reason": p.reason,
    }


def inventory(settings: Any) -> dict[str, Any]:
    """Everything ``model list`` shows, as plain data (also what ``--json`` prints)."""
    from core.llm import catalog
    from core.llm.catalog import assess, probe_machine
    from core.llm.gpu import gpu_status
    from core.llm.library import Library

    lib = Library()
    machine = probe_machine()
    installed = lib.installed()
    partials = {p.filename: p for p in lib.partials()}
    current = settings.local_model_path
    n_ctx = settings.n_ctx

    def in_use(path: Any) -> bool:
        from pathlib import Path

        try:
            return current is not None and Path(current).expanduser().resolve() == Path(path).resolve()
        except OSError:
            return False

    rows = []
    for e in catalog.CATALOG:
        need = e.memory_needed(n_ctx)
        fit = assess(need, machine)
        have = next((m for m in installed if m.entry is e or m.path.name == e.filename), None)
        part = partials.get(e.filename)
        if have is not None:
            status = "installed" + (", in use" if in_use(have.path) else "")
        elif part is not None:
            status = (
                "downloaded, hash not confirmed"
                if part.complete
                else f"partial ({part.done * 100 // e.size}%)"
            )
        else:
            status = "not downloaded"
        rows.append(
            {
                "name": e.name,
                "title": e.title,
                "params": e.params,
                "quant": e.quant,
                "url": e.url,
                "size": e.size,
                "sha256": e.sha256,
                "license": e.license,
                "license_url": e.license_url,
                "ram_needed": need,
                "vram_needed": need,
                "fits": fit.fits,
                "where": str(fit.where),
                "fit_reason": fit.reason,
                "status": status,
                "path": str(have.path) if have else None,
                "source": e.source,
            }
        )
    catalog_files = {e.filename for e in catalog.CATALOG}
    others = []
    for m in installed:
        if m.entry is None and m.path.name not in catalog_files:
            others.append({**m.to_json(), "in_use": in_use(m.path)})
    gpu = gpu_status(current, settings.n_gpu_layers, n_ctx=n_ctx)
    return {
        "n_ctx": n_ctx,
        "machine": {
            "gpu_offload": machine.gpu_offload,
            "gpu_backend": machine.gpu_backend,
            "vram_free": machine.vram_free,
            "ram_free": machine.ram_free,
        },
        "catalog": rows,
        "installed": others,
        "partial": [p.to_json() for p in partials.values() if p.filename not in catalog_files],
        "local_model": current,
        "models_dir": str(lib.root),
        "gpu": {
            "offload": gpu.build.offload,
            "backend": gpu.build.gpu_backend,
            "n_gpu_layers": gpu.n_gpu_layers,
            "layers_offloaded": gpu.layers_offloaded,
            "layers_total": gpu.layers_total,
            "vram_used_by_process": gpu.vram_used_by_process,
            "rebuild": gpu.rebuild,
            "placement": _placement_json(gpu.placement),
            "lines": gpu.lines(),
        },
    }


def _table(rows: Sequence[tuple[str, ...]], out: IO[str]) -> None:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip(), file=out)


def _list(args: argparse.Namespace) -> int:
    from core.settings import Settings

    data = inventory(Settings.load())
    if args.json:
        json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
        print()
        return 0
    out = sys.stdout
    print(
        f"Recommended models ({data['catalog'][0]['quant']}); memory for a "
        f"{data['n_ctx']:,}-token context:\n",
        file=out,
    )
    table = [("name", "params", "download", "RAM", "VRAM", "license", "this machine", "status")]
    for r in data["catalog"]:
        table.append(
            (
                r["name"],
                r["params"],
                _mb(r["size"]),
                _gib(r["ram_needed"]),
                _gib(r["vram_needed"]),
                r["license"],
                _WHERE[r["where"]],
                r["status"],
            )
        )
    _table(table, out)
    if data["installed"]:
        print("\nOther installed models:\n", file=out)
        rows = [("name", "size", "from", "file")]
        for m in data["installed"]:
            name = m["name"] + (" (in use)" if m["in_use"] else "")
            rows.append((name, _mb(m["size"]), m["source"], m["path"]))
        _table(rows, out)
    if data["partial"]:
        print("\nDownloads that did not finish (never used; `model add` resumes them):", file=out)
        for p in data["partial"]:
            print(f"  {p['name']}: {_mb(p['bytes'])} from {p['url']}", file=out)
    m = data["machine"]
    where = (
        f"GPU offload ({m['gpu_backend']}), {_gib(m['vram_free'])} VRAM free"
        if m["gpu_offload"]
        else "no GPU offload"
    )
    print(f"\nThis machine: {where}, {_gib(m['ram_free'])} RAM free.", file=out)
    print(f"Local model: {data['local_model'] or 'the embedded SmolLM2-135M-Instruct'}.", file=out)
    for line in data["gpu"]["lines"]:
        print(line, file=out)
    print(
        "\n`sottovoce model add NAME` downloads one; `sottovoce model use NAME` switches to it.",
        file=out,
    )
    return 0


# --- add / import ----------------------------------------------------------------------------


def _finish_use(args: argparse.Namespace, model: Any) -> bool:
    if not args.use:
        return False
    from core.llm.library import Library
    from core.settings import Settings

    Library().use(model.name, Settings.load()).save()
    return True


def _report(args: argparse.Namespace, model: Any, used: bool, verb: str) -> None:
    if args.json:
        json.dump({**model.to_json(), "in_use": used}, sys.stdout, ensure_ascii=False, indent=1)
        print()
        return
    print(f"{verb} {model.name}: {model.path}")
    if used:
        print("It is now the local model.")
    else:
        print(f"`sottovoce model use {model.name}` makes it the local model.")


def _ask_sha256(computed: str) -> str | None:
    if not sys.stdin.isatty():
        return None
    print(f"\nThe file's sha256 is {computed}.", file=sys.stderr)
    answer = input(
        "Paste the sha256 its author publishes to install it (empty stops): "
    ).strip()
    return answer or None


def _add(args: argparse.Namespace) -> int:
    from core.llm.library import Library
    from core.llm.modelfile import HashUnconfirmed

    lib = Library()
    name, req, entry = lib.resolve(args.what, sha256=args.sha256, name=args.name)
    existing = lib.find_installed(name)
    if existing is not None:
        _report(args, existing, _finish_use(args, existing), "Already installed:")
        return 0
    if not args.json:
        size = f" ({_mb(entry.size)}, {entry.license})" if entry else ""
        print(f"Downloading {name}{size} from {req.url}", file=sys.stderr)
    line = ProgressLine()
    try:
        model = _drive(lib.download(args.what, sha256=args.sha256, name=args.name), line)
    except KeyboardInterrupt:
        print(
            "Paused: what arrived is kept; run the same command to resume.", file=sys.stderr
        )
        return 130
    except HashUnconfirmed as exc:
        answer = None if args.json else _ask_sha256(exc.sha256)
        if answer is None:
            raise
        model = _drive(lib.finish(args.what, answer, name=args.name), line)
    _report(args, model, _finish_use(args, model), "Installed")
    return 0


def _import(args: argparse.Namespace) -> int:
    from core.llm.library import Library

    line = ProgressLine()
    try:
        model = _drive(
            Library().import_file(args.file, name=args.name, in_place=args.in_place), line
        )
    except KeyboardInterrupt:
        print("Stopped: nothing was imported.", file=sys.stderr)
        return 130
    _report(args, model, _finish_use(args, model), "Imported")
    return 0


# --- use / remove ----------------------------------------------------------------------------


def _use(args: argparse.Namespace) -> int:
    from core.llm.gguf_file import read_gguf
    from core.llm.library import Library
    from core.llm.local import available_memory, memory_needed
    from core.settings import Settings

    settings = Settings.load()
    new = Library().use(args.name, settings)
    new.save()
    path = new.local_model_path
    warning = None
    if path:
        need = memory_needed(read_gguf(path), new.n_ctx)
        free = available_memory()
        if free is not None and need > free:
            warning = (
                f"it needs about {need / 2**30:.1f} GiB with a {new.n_ctx:,}-token context and "
                f"{free / 2**30:.1f} GiB is free now; it will not load unless memory is freed "
                "or it runs on a GPU"
            )
    if args.json:
        json.dump({"local_model_path": path, "warning": warning}, sys.stdout, indent=1)
        print()
        return 0
    print(f"Local model: {path or 'the embedded SmolLM2-135M-Instruct'}.")
    if warning:
        print(f"Note: {warning}.", file=sys.stderr)
    print("The window and the commands use it from their next start.")
    return 0


def _remove(args: argparse.Namespace) -> int:
    from core.llm.library import Library
    from core.settings import Settings

    if args.name.strip().lower() == "embedded":
        raise InputError("The embedded model is part of the program and cannot be removed.")
    deleted, new = Library().remove(args.name, Settings.load())
    if new is not None:
        new.save()
    if args.json:
        json.dump(
            {
                "deleted": [str(p) for p in deleted],
                "local_model_reset": new is not None,
            },
            sys.stdout,
            indent=1,
        )
        print()
        return 0
    for p in deleted:
        print(f"Deleted {p}")
    if not deleted:
        print(f"Forgot {args.name} (its file, used in place, was left where it is).")
    if new is not None:
        print("It was the local model; the embedded SmolLM2-135M-Instruct is used again.")
    return 0
