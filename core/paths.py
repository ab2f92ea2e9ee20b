"""Where Sottovoce keeps its files.

platformdirs' per-user config and data directories, unless ``SOTTOVOCE_HOME``
points somewhere else (tests point it at a temporary directory, so they never
read a developer's real configuration or store).
"""

from __future__ import annotations

import os
from pathlib import Path

APP = "sottovoce"


def _home() -> Path | None:
    home = os.environ.get("SOTTOVOCE_HOME")
    return Path(home) if home else None


def config_dir() -> Path:
    home = _home()
    if home:
        return home / "config"
    import platformdirs

    return Path(platformdirs.user_config_dir(APP, appauthor=False))


def data_dir() -> Path:
    home = _home()
    if home:
        return home / "data"
    import platformdirs

    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def settings_file() -> Path:
    return config_dir() / "settings.json"


def store_file() -> Path:
    return data_dir() / "sottovoce.db"
