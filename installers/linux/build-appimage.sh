#!/usr/bin/env bash
# Build Sottovoce-<version>-<arch>.AppImage from the one-folder bundle (dist/sottovoce).
#
#   make bundle                                   # the bundle first
#   installers/linux/build-appimage.sh            # AppDir + AppImage
#   installers/linux/build-appimage.sh --appdir-only
#
# Steps: copy the bundle into an AppDir (build/AppDir/usr/lib/sottovoce), add
# AppRun, the desktop entry and the icons, then run appimagetool on it.
# appimagetool is not part of any Python or Debian package: download it from
# https://github.com/AppImage/appimagetool/releases (appimagetool-x86_64.AppImage),
# make it executable and put it on PATH or point APPIMAGETOOL at it. Without
# it the script prepares the AppDir, says so, and exits 3 (0 with --appdir-only).
#
# Environment: BUNDLE (default dist/sottovoce), APPDIR (build/AppDir),
# OUT (dist), ARCH (uname -m), APPIMAGETOOL (a path to appimagetool).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/installers/linux"
ASSETS="$ROOT/installers/assets"
BUNDLE="${BUNDLE:-$ROOT/dist/sottovoce}"
APPDIR="${APPDIR:-$ROOT/build/AppDir}"
OUT="${OUT:-$ROOT/dist}"
ARCH="${ARCH:-$(uname -m)}"
APPDIR_ONLY=0

for arg in "$@"; do
    case "$arg" in
        --appdir-only) APPDIR_ONLY=1 ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "build-appimage.sh: unknown option $arg" >&2; exit 2 ;;
    esac
done

VERSION="$(sed -n 's/^version *= *"\(.*\)"/\1/p' "$ROOT/pyproject.toml" | head -n 1)"

if [ ! -x "$BUNDLE/sottovoce" ]; then
    echo "build-appimage.sh: no bundle at $BUNDLE; build it first with: make bundle" >&2
    exit 1
fi

echo "AppDir: $APPDIR"
rm -rf "$APPDIR"
mkdir -p "$APPDIR/usr/lib" "$APPDIR/usr/share/applications" \
         "$APPDIR/usr/share/icons/hicolor/256x256/apps" \
         "$APPDIR/usr/share/icons/hicolor/scalable/apps"
cp -a "$BUNDLE" "$APPDIR/usr/lib/sottovoce"
install -m 755 "$HERE/AppRun" "$APPDIR/AppRun"
install -m 644 "$HERE/sottovoce.desktop" "$APPDIR/sottovoce.desktop"
install -m 644 "$HERE/sottovoce.desktop" "$APPDIR/usr/share/applications/sottovoce.desktop"
install -m 644 "$ASSETS/sottovoce.png" "$APPDIR/sottovoce.png"
install -m 644 "$ASSETS/sottovoce.png" "$APPDIR/usr/share/icons/hicolor/256x256/apps/sottovoce.png"
install -m 644 "$ASSETS/sottovoce.svg" "$APPDIR/usr/share/icons/hicolor/scalable/apps/sottovoce.svg"
ln -sf sottovoce.png "$APPDIR/.DirIcon"

if [ "$APPDIR_ONLY" = 1 ]; then
    echo "AppDir ready; check it with: $APPDIR/AppRun --self-test"
    exit 0
fi

TOOL="${APPIMAGETOOL:-$(command -v appimagetool || true)}"
if [ -z "$TOOL" ] || [ ! -x "$TOOL" ]; then
    cat >&2 <<MSG
build-appimage.sh: appimagetool was not found, so no AppImage was made.
The AppDir is ready at $APPDIR (check it with: $APPDIR/AppRun --self-test).
To finish: download appimagetool-$ARCH.AppImage from
  https://github.com/AppImage/appimagetool/releases
then run:
  chmod +x appimagetool-$ARCH.AppImage
  APPIMAGETOOL=\$PWD/appimagetool-$ARCH.AppImage installers/linux/build-appimage.sh
MSG
    exit 3
fi

mkdir -p "$OUT"
TARGET="$OUT/Sottovoce-$VERSION-$ARCH.AppImage"
# Containers often lack FUSE: let appimagetool (itself an AppImage) unpack itself instead.
APPIMAGE_EXTRACT_AND_RUN=1 ARCH="$ARCH" "$TOOL" --no-appstream "$APPDIR" "$TARGET"
echo "AppImage: $TARGET ($(du -h "$TARGET" | cut -f1))"
echo "check it with: $TARGET --self-test"
