"""thinc for the bundle: its registered layers, without its test suite.

The shims for torch, TensorFlow and MXNet stay (thinc imports them
unconditionally); they import their framework only when it is installed, and
the bundle excludes those frameworks.
"""

from PyInstaller.utils.hooks import collect_data_files, collect_submodules


def _wanted(name: str) -> bool:
    return not name.startswith("thinc.tests")


hiddenimports = collect_submodules("thinc", filter=_wanted)
datas = collect_data_files("thinc", excludes=["**/tests/**", "tests/**"])
