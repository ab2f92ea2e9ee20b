"""The ``sottovoce`` entry point."""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence


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
    raise SystemExit(main())
