"""Before Qt starts: missing xcb libraries get the install command, not Qt's message."""

from __future__ import annotations

import pytest

from app import display

DEBIAN = 'PRETTY_NAME="Ubuntu 24.04 LTS"\nID=ubuntu\nID_LIKE=debian\n'
FEDORA = 'NAME="Fedora Linux"\nID=fedora\n'
ARCH = "NAME=\"Arch Linux\"\nID=arch\n"


def loader(missing: set[str]):  # type: ignore[no-untyped-def]
    """A dlopen stand-in: raises OSError for the sonames in ``missing``, as ctypes does."""

    def load(soname: str) -> object:
        if soname in missing:
            raise OSError(f"{soname}: cannot open shared object file")
        return object()

    return load


@pytest.mark.parametrize(
    ("os_release", "command"),
    [
        (DEBIAN, "sudo apt-get install -y libxcb-cursor0 libxcb-icccm4"),
        (FEDORA, "sudo dnf install -y xcb-util-cursor xcb-util-wm"),
        (ARCH, "sudo pacman -S --needed xcb-util-cursor xcb-util-wm"),
    ],
)
def test_missing_libraries_get_the_exact_command_for_the_system(os_release: str, command: str) -> None:
    message = display.check(
        {"DISPLAY": ":0"},
        load=loader({"libxcb-cursor.so.0", "libxcb-icccm.so.4"}),
        platform="linux",
        os_release=os_release,
    )
    assert message is not None
    assert command in [line.strip() for line in message.splitlines()]
    assert "libxcb-cursor.so.0" in message and "Could not load the Qt platform plugin" not in message


def test_an_unknown_system_gets_the_three_families() -> None:
    message = display.check(
        {}, load=loader({"libxcb-shape.so.0"}), platform="linux", os_release="ID=gentoo\n"
    )
    assert message is not None
    assert "Debian/Ubuntu: sudo apt-get install -y libxcb-shape0" in message
    assert "Fedora: sudo dnf install -y libxcb" in message
    assert "Arch: sudo pacman -S --needed libxcb" in message


@pytest.mark.parametrize(
    ("env", "platform"),
    [
        ({"QT_QPA_PLATFORM": "offscreen"}, "linux"),
        ({"QT_QPA_PLATFORM": "wayland"}, "linux"),
        ({"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"}, "linux"),
        ({"DISPLAY": ":0"}, "darwin"),
        ({"DISPLAY": ":0"}, "win32"),
    ],
)
def test_only_the_xcb_platform_on_linux_is_checked(env: dict[str, str], platform: str) -> None:
    assert display.check(env, load=loader(set(display.XCB_LIBRARIES)), platform=platform) is None


def test_nothing_is_printed_when_every_library_loads() -> None:
    assert display.check({"QT_QPA_PLATFORM": "xcb"}, load=loader(set()), platform="linux") is None


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "xcb"),
        ({"QT_QPA_PLATFORM": "xcb;wayland"}, "xcb"),
        ({"QT_QPA_PLATFORM": "offscreen"}, "offscreen"),
        ({"WAYLAND_DISPLAY": "w", "XDG_SESSION_TYPE": "wayland"}, "wayland"),
        ({"WAYLAND_DISPLAY": "w", "XDG_SESSION_TYPE": "x11"}, "xcb"),
    ],
)
def test_the_platform_qt_will_pick(env: dict[str, str], expected: str) -> None:
    assert display.qt_platform(env) == expected


def test_the_window_command_stops_before_qt_with_the_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse

    from app.window import run_window

    monkeypatch.setattr(display, "check", lambda: "install these: sudo apt-get install -y x")
    monkeypatch.setattr("app.window.start", lambda args: pytest.fail("Qt must not start"))
    assert run_window(argparse.Namespace(window_demo_cloud=False)) == 1
    assert "sudo apt-get install -y x" in capsys.readouterr().err
