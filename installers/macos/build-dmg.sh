#!/usr/bin/env bash
# Build dist/Sottovoce.app and dist/Sottovoce-<version>.dmg on macOS.
#
#   installers/macos/build-dmg.sh
#
# 1. PyInstaller (installers/build.py) makes dist/Sottovoce.app from the spec:
#    the windowed program, the models, the spaCy pipeline, the GGUF, llama.cpp
#    (Metal on Apple silicon, as llama-cpp-python builds it there by default)
#    and onnxruntime (the plain CPU/CoreML wheel: pyproject.toml installs it
#    on macOS instead of onnxruntime-gpu).
# 2. With CODESIGN_IDENTITY set ("Developer ID Application: ..."), signs the
#    app with the hardened runtime and installers/macos/entitlements.plist.
# 3. hdiutil makes a compressed disk image holding the app and a link to
#    /Applications.
# 4. With NOTARY_PROFILE set (a `xcrun notarytool store-credentials` profile),
#    notarizes the image and staples the ticket.
# Then checks the app: Sottovoce.app/Contents/MacOS/Sottovoce --self-test.
#
# Environment: PYTHON (default .venv/bin/python), CODESIGN_IDENTITY, NOTARY_PROFILE.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/installers/macos"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"
DIST="$ROOT/dist"
APP="$DIST/Sottovoce.app"

case "${1:-}" in
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    "") ;;
    *) echo "build-dmg.sh: unknown option $1" >&2; exit 2 ;;
esac

if [ "$(uname -s)" != "Darwin" ]; then
    echo "build-dmg.sh: this recipe runs on macOS only (it needs hdiutil and codesign)." >&2
    exit 2
fi

VERSION="$(sed -n 's/^version *= *"\(.*\)"/\1/p' "$ROOT/pyproject.toml" | head -n 1)"
DMG="$DIST/Sottovoce-$VERSION-$(uname -m).dmg"

"$PYTHON" "$ROOT/installers/build.py"
[ -d "$APP" ] || { echo "build-dmg.sh: PyInstaller made no $APP" >&2; exit 1; }

if [ -n "${CODESIGN_IDENTITY:-}" ]; then
    # --deep signs the nested libraries too; the hardened runtime is required for notarization.
    codesign --force --deep --timestamp --options runtime \
        --entitlements "$HERE/entitlements.plist" --sign "$CODESIGN_IDENTITY" "$APP"
    codesign --verify --deep --strict --verbose=2 "$APP"
else
    echo "build-dmg.sh: CODESIGN_IDENTITY not set; the app is left ad-hoc signed" \
         "(Gatekeeper will ask the person to confirm the first start)."
fi

STAGE="$(mktemp -d)"
trap 'rm -rf "$STAGE"' EXIT
cp -R "$APP" "$STAGE/"
ln -s /Applications "$STAGE/Applications"
rm -f "$DMG"
hdiutil create -volname "Sottovoce" -srcfolder "$STAGE" -fs HFS+ -format UDZO -ov "$DMG"

if [ -n "${NOTARY_PROFILE:-}" ]; then
    xcrun notarytool submit "$DMG" --keychain-profile "$NOTARY_PROFILE" --wait
    xcrun stapler staple "$DMG"
fi

"$APP/Contents/MacOS/Sottovoce" --self-test
echo "disk image: $DMG ($(du -h "$DMG" | cut -f1))"
