"""Before Qt starts on Linux: are the X11 (xcb) libraries Qt needs installed?

PySide6 6.5 and later load ``libxcb-cursor`` and the xcb utility libraries
from the system, and many desktop installs lack some of them. Qt then stops
with "Could not load the Qt platform plugin "xcb"", which does not say what to
install. This check loads each library the xcb plugin links against (the way
the dynamic loader will) and, when some are missing, prints the exact
install command for the person's Linux family instead.

Only the xcb platform is checked: offscreen, wayland, and the other
platforms need none of these libraries.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

#: soname -> package (Debian/Ubuntu, Fedora, Arch), as ``libqxcb.so`` and
#: ``libQt6XcbQpa.so`` of PySide6 6.7 link them (``ldd``).
XCB_LIBRARIES: dict[str, tuple[str, str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms", "xcb-util-keysyms"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image", "xcb-util-image"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil", "xcb-util-renderutil"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb", "libxcb"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11", "libxkbcommon-x11"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb", "libxcb"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb", "libxcb"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util", "xcb-util"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb", "libxcb"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb", "libx11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon", "libxkbcommon"),
}

FAMILIES = ("debian", "fedora", "arch")
_INSTALL = {
    "debian": "sudo apt-get install -y",
    "fedora": "sudo dnf install -y",
    "arch": "sudo pacman -S --needed",
}
_LIKE = {
    "debian": {"debian", "ubuntu", "linuxmint", "pop", "elementary", "raspbian", "kali"},
    "fedora": {"fedora", "rhel", "centos", "rocky", "almalinux", "nobara"},
    "arch": {"arch", "manjaro", "endeavouros", "garuda"},
}


def qt_platform(env: Mapping[str, str]) -> str:
    """The platform plugin Qt will pick: ``QT_QPA_PLATFORM``'s first choice, else
    wayland in a Wayland session, else xcb (Qt's default on Linux)."""
    chosen = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if chosen:
        return chosen
    if env.get("WAYLAND_DISPLAY") and env.get("XDG_SESSION_TYPE") == "wayland":
        return "wayland"
    return "xcb"


def _dlopen(soname: str) -> object:
    return ctypes.CDLL(soname)


def missing_libraries(load: Callable[[str], object] = _dlopen) -> list[str]:
    """The sonames of :data:`XCB_LIBRARIES` that ``load`` cannot open."""
    missing = []
    for soname in XCB_LIBRARIES:
        try:
            load(soname)
        except OSError:
            missing.append(soname)
    return missing


def linux_family(os_release: str) -> str | None:
    """``debian``, ``fedora`` or ``arch`` from the text of ``/etc/os-release``, or None."""
    ids: set[str] = set()
    for line in os_release.splitlines():
        key, _, value = line.partition("=")
        if key.strip() in ("ID", "ID_LIKE"):
            ids.update(value.strip().strip("\"'").lower().split())
    for family in FAMILIES:
        if ids & _LIKE[family]:
            return family
    return None


def install_command(missing: list[str], family: str) -> str:
    """The one command that installs the packages holding ``missing`` on ``family``."""
    index = FAMILIES.index(family)
    packages = list(dict.fromkeys(XCB_LIBRARIES[s][index] for s in missing))
    return f"{_INSTALL[family]} {' '.join(packages)}"


def check(
    env: Mapping[str, str] | None = None,
    *,
    load: Callable[[str], object] = _dlopen,
    platform: str | None = None,
    os_release: str | None = None,
) -> str | None:
    """The message to print instead of starting Qt, or None when Qt can start.

    Checks only on Linux and only when Qt will use the xcb platform.
    """
    env = os.environ if env is None else env
    if not (platform or sys.platform).startswith("linux") or qt_platform(env) != "xcb":
        return None
    missing = missing_libraries(load)
    if not missing:
        return None
    if os_release is None:
        try:
            os_release = Path("/etc/os-release").read_text("utf-8", errors="replace")
        except OSError:
            os_release = ""
    family = linux_family(os_release)
    families = [family] if family else list(FAMILIES)
    names = {"debian": "Debian/Ubuntu", "fedora": "Fedora", "arch": "Arch"}
    lines = [
        "Sottovoce cannot open its window: Qt's X11 (xcb) platform needs system "
        f"libraries that are not installed ({', '.join(missing)}).",
        "Install them with:" if family else "Install them with the command for your system:",
    ]
    for f in families:
        prefix = "" if family else f"{names[f]}: "
        lines.append(f"  {prefix}{install_command(missing, f)}")
    lines.append(
        "Then start Sottovoce again. (The command line works without them: `sottovoce --help`.)"
    )
    return "\n".join(lines)
