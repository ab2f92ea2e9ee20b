"""The `sottovoce` command keeps the training stack out of its process.

`make test` installs torch and transformers into the same environment as the
app; spaCy's thinc and Presidio import them whenever they are importable
(about 400 MiB of peak memory and seconds of model loading, measured by
benchmarks/bench_startup.py). The command's entry point makes them
unimportable first; `sottovoce eval` still gets them.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

needs_torch = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None,
    reason="torch is not installed here, so there is nothing to keep out",
)


@needs_torch
def test_the_command_analyzes_text_without_importing_torch_or_transformers() -> None:
    script = Path(sys.executable).parent / "sottovoce"
    if not script.exists():
        pytest.skip("the sottovoce script is not installed in this environment")
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}
    proc = subprocess.run(
        [str(script), "analyze", "-", "--json"],
        input="Call Anna Berg at 215-555-4078 on 3 May. What helps against a cold?",
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "|" in line}
    # The real detectors ran...
    assert "spacy" in imported and any(m.startswith("presidio_analyzer") for m in imported)
    assert "215-555-4078" not in proc.stdout.split('"outbound"')[-1]
    # ...and torch and transformers were only tried (a real import loads their submodules).
    assert not [m for m in imported if m.startswith(("torch.", "transformers."))]


@pytest.mark.parametrize(
    ("argv", "kept_out"), [(["ask", "-"], True), ([], True), (["eval", "route"], False)]
)
def test_only_eval_may_import_the_training_stack(argv: list[str], kept_out: bool) -> None:
    code = (
        "import sys\n"
        "from app.main import keep_training_stack_out\n"
        f"keep_training_stack_out({argv!r})\n"
        "try:\n"
        "    import transformers\n"
        "    print('imported')\n"
        "except ImportError:\n"
        "    print('kept out')\n"
    )
    if not kept_out and importlib.util.find_spec("transformers") is None:
        pytest.skip("transformers is not installed here")
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
        cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    assert proc.stdout.strip() == ("kept out" if kept_out else "imported"), proc.stderr[-2000:]
