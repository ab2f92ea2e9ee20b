"""Where the program runs from: the source tree, an installed package, or a frozen bundle.

The desktop bundle (``installers/sottovoce.spec``, PyInstaller one-folder)
keeps the same relative layout as the source tree for the files it ships
beside the code (``models/``, ``installers/assets/``), so one lookup serves
both; an installed wheel has no ``installers/`` folder and falls back to the
icon the UI paints.
"""

from __future__ import annotations

import sys
from pathlib import Path

#: The application icon, relative to the project root (and to the bundle's root).
ICON = Path("installers") / "assets" / "sottovoce.png"


def is_frozen() -> bool:
    """True inside a PyInstaller bundle."""
    return bool(getattr(sys, "frozen", False))


def root() -> Path:
    """The project root, or the bundle's data folder (``sys._MEIPASS``) when frozen."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle)
    return Path(__file__).resolve().parent.parent


def icon_file() -> Path | None:
    """The application icon (PNG) when it ships with this copy of the program."""
    path = root() / ICON
    return path if path.is_file() else None


def run_module(name: str, args: list[str]) -> int:
    """Run module ``name`` as ``python -m name args...`` would, inside this process."""
    import runpy

    sys.argv = [name, *args]
    runpy.run_module(name, run_name="__main__", alter_sys=True)
    return 0
