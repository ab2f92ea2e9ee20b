"""The packaging recipes agree with each other and with the spec (fast; no bundle is built)."""

from __future__ import annotations

import configparser
import os
import plistlib
import re
import shutil
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALLERS = ROOT / "installers"
SPEC = (INSTALLERS / "sottovoce.spec").read_text("utf-8")
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"]
unix_only = pytest.mark.skipif(sys.platform == "win32", reason="shell recipes")


def desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(INSTALLERS / "linux" / "sottovoce.desktop", encoding="utf-8")
    return parser["Desktop Entry"]


def test_desktop_entry_starts_the_linux_program_with_the_shipped_icon() -> None:
    entry = desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Exec"].split()[0] == "sottovoce"
    assert 'name="sottovoce", console=True' in SPEC  # the Linux program of the spec
    assert entry["Terminal"] == "false"
    for name in (f"{entry['Icon']}.png", f"{entry['Icon']}.svg"):
        assert (INSTALLERS / "assets" / name).is_file()
    assert entry["Categories"].endswith(";")


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-utils")
def test_desktop_entry_is_valid() -> None:
    proc = subprocess.run(
        ["desktop-file-validate", str(INSTALLERS / "linux" / "sottovoce.desktop")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0 and not proc.stdout.strip(), proc.stdout + proc.stderr


@pytest.mark.parametrize(
    ("name", "magic", "check"),
    [
        ("sottovoce.png", b"\x89PNG\r\n\x1a\n", lambda b: b[16:24] == (256).to_bytes(4, "big") * 2),
        # ICO: reserved 0, type 1, then the count of images; one of them is 256 px (stored as 0).
        ("sottovoce.ico", b"\x00\x00\x01\x00", lambda b: int.from_bytes(b[4:6], "little") >= 5),
        ("sottovoce.icns", b"icns", lambda b: int.from_bytes(b[4:8], "big") == len(b)),
        ("sottovoce.svg", b"<?xml", lambda b: b'viewBox="0 0 256 256"' in b),
    ],
)
def test_icons_are_what_each_platform_reads(name: str, magic: bytes, check) -> None:  # type: ignore[no-untyped-def]
    data = (INSTALLERS / "assets" / name).read_bytes()
    assert data.startswith(magic)
    assert check(data)


def test_mac_info_plist_is_what_the_spec_bundles() -> None:
    info = plistlib.loads((INSTALLERS / "macos" / "Info.plist").read_bytes())
    assert re.fullmatch(r"[A-Za-z0-9.-]+\.[A-Za-z0-9-]+", info["CFBundleIdentifier"])
    assert info["CFBundleName"] == "Sottovoce"
    assert float(info["LSMinimumSystemVersion"]) >= 12.0
    assert '"macos" / "Info.plist"' in SPEC and 'name="Sottovoce.app"' in SPEC
    entitlements = plistlib.loads((INSTALLERS / "macos" / "entitlements.plist").read_bytes())
    assert entitlements["com.apple.security.cs.allow-unsigned-executable-memory"] is True


def test_windows_installer_matches_the_spec_and_the_version() -> None:
    iss = (INSTALLERS / "windows" / "sottovoce.iss").read_text("utf-8")
    assert f'#define AppVersion "{VERSION}"' in iss
    # The programs it starts are the ones the spec makes on Windows.
    for exe in re.findall(r"\{app\}\\([\w-]+)\.exe", iss):
        assert f'name="{exe}"' in SPEC, exe
    for rel in re.findall(r"^SetupIconFile=(.+)$", iss, re.M):
        assert (INSTALLERS / "windows" / rel.replace("\\", "/")).is_file()
    assert re.search(r"^AppId=\{\{[0-9A-F-]{36}\}?$", iss, re.M)


@unix_only
@pytest.mark.parametrize(
    "script", ["linux/build-appimage.sh", "linux/AppRun", "macos/build-dmg.sh"]
)
def test_shell_recipes_parse_and_are_executable(script: str) -> None:
    path = INSTALLERS / script
    assert path.stat().st_mode & stat.S_IXUSR
    assert (
        subprocess.run(["sh" if script.endswith("AppRun") else "bash", "-n", str(path)]).returncode
        == 0
    )


@unix_only
@pytest.mark.skipif(sys.platform == "darwin", reason="the dmg recipe runs there")
def test_dmg_recipe_refuses_to_run_outside_macos() -> None:
    proc = subprocess.run(
        [str(INSTALLERS / "macos" / "build-dmg.sh")], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert "macOS only" in proc.stderr


def fake_bundle(folder: Path) -> Path:
    """A stand-in for dist/sottovoce whose program prints its arguments."""
    folder.mkdir(parents=True)
    program = folder / "sottovoce"
    program.write_text('#!/bin/sh\necho "bundle ran with: $*"\n')
    program.chmod(0o755)
    return folder


def appimage(
    tmp_path: Path, *args: str, bundle: Path, path: str
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "BUNDLE": str(bundle),
        "APPDIR": str(tmp_path / "AppDir"),
        "OUT": str(tmp_path / "out"),
        "PATH": path,
    }
    env.pop("APPIMAGETOOL", None)
    return subprocess.run(
        [str(INSTALLERS / "linux" / "build-appimage.sh"), *args],
        env=env,
        capture_output=True,
        text=True,
    )


@unix_only
def test_appimage_recipe_builds_an_appdir_whose_apprun_starts_the_bundle(tmp_path: Path) -> None:
    bundle = fake_bundle(tmp_path / "bundle")
    proc = appimage(tmp_path, "--appdir-only", bundle=bundle, path=os.environ["PATH"])
    assert proc.returncode == 0, proc.stderr
    appdir = tmp_path / "AppDir"
    for rel in ("AppRun", "sottovoce.desktop", "sottovoce.png", ".DirIcon",
                "usr/lib/sottovoce/sottovoce",
                "usr/share/icons/hicolor/scalable/apps/sottovoce.svg"):  # fmt: skip
        assert (appdir / rel).exists(), rel
    ran = subprocess.run([str(appdir / "AppRun"), "--self-test"], capture_output=True, text=True)
    assert ran.stdout.strip() == "bundle ran with: --self-test"


@unix_only
@pytest.mark.parametrize(
    ("has_bundle", "code", "message"),
    [
        (False, 1, "build it first with: make bundle"),
        (True, 3, "appimagetool was not found"),
    ],
    ids=["no-bundle", "no-appimagetool"],
)
def test_appimage_recipe_says_what_is_missing(
    has_bundle: bool, code: int, message: str, tmp_path: Path
) -> None:
    bundle = fake_bundle(tmp_path / "bundle") if has_bundle else tmp_path / "missing"
    # Only the basic tools on PATH: no appimagetool, wherever this runs.
    tools = tmp_path / "bin"
    tools.mkdir()
    basics = ("bash", "sh", "sed", "head", "cut", "cat", "dirname", "readlink", "rm", "mkdir")
    for tool in (*basics, "cp", "install", "ln", "uname", "du"):
        found = shutil.which(tool)
        if found:
            (tools / tool).symlink_to(found)
    proc = appimage(tmp_path, bundle=bundle, path=str(tools))
    assert proc.returncode == code, proc.stderr
    assert message in proc.stderr
    if code == 3:
        assert "https://github.com/AppImage/appimagetool/releases" in proc.stderr
