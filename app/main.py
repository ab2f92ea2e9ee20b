"""The ``sottovoce`` entry point."""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence

#: The training stack. ``make test`` installs it into the same environment as
#: the app, and spaCy's thinc and Presidio import it when it is there (about
#: 500 MiB of memory and a second of start-up) only to see whether they could
#: use it. The app never needs it; ``sottovoce eval`` does.
TRAINING_ONLY = ("torch", "transformers", "sentence_transformers", "tensorflow")


def keep_training_stack_out(argv: Sequence[str]) -> None:
    """Make ``import torch`` (and the rest of :data:`TRAINING_ONLY`) fail in this process.

    Libraries that try it fall back as they do where it is not installed (the
    desktop bundle). ``sottovoce eval`` is left alone. Call it first thing in a
    process of its own: it changes ``sys.modules`` for good.
    """
    if list(argv[:1]) == ["eval"]:
        return
    for name in TRAINING_ONLY:
        # None in sys.modules makes an import raise ImportError; a module
        # already imported is left as it is.
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]


def entry() -> int:
    """The ``sottovoce`` command: :func:`main` in a process kept free of the training stack."""
    args = sys.argv[1:]
    keep_training_stack_out(args)
    return main(args)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:2] == ["-m", "llama_cpp.server"]:
        from app.bundle import is_frozen, run_module

        # The bundle has no separate Python: the demo cloud (core.llm.demo starts
        # `sys.executable -m llama_cpp.server`) runs in a second copy of this program.
        if is_frozen():
            return run_module("llama_cpp.server", args[2:])
    from app.cli import run

    code = run(args)
    # Free what only reference cycles keep (a llama context) while its modules still exist:
    # at interpreter exit llama_cpp's __del__ finds its functions gone (seen in the bundle).
    gc.collect()
    return code


if __name__ == "__main__":
    raise SystemExit(entry())
