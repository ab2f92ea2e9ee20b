"""spaCy for the bundle: its registered functions, without its tests or 80 unused languages.

Replaces pyinstaller-hooks-contrib's hook, which collects every submodule
(tests and all languages included). spaCy registers architectures and
factories when their modules are imported, so the submodules are still
collected, except the test suite and languages other than English (``xx`` is
the multi-language base some pipelines name).
"""

from PyInstaller.utils.hooks import collect_data_files, collect_submodules, copy_metadata

KEEP_LANGS = ("en", "xx")


def _wanted(name: str) -> bool:
    parts = name.split(".")
    if len(parts) > 1 and parts[1] == "tests":
        return False
    # spacy.lang.<code>[...] for another language; spacy.lang.<module> (shared tables) stays.
    if len(parts) > 2 and parts[1] == "lang":
        sub = parts[2]
        return sub in KEEP_LANGS or not _is_language_package(sub)
    return True


def _is_language_package(sub: str) -> bool:
    # Language folders are two or three letters (en, zh, grc); the shared modules have long names.
    return len(sub) <= 3


hiddenimports = collect_submodules("spacy", filter=_wanted)
datas = collect_data_files("spacy", excludes=["**/tests/**", "tests/**"]) + copy_metadata("spacy")
