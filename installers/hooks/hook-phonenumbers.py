"""phonenumbers for the bundle: the number metadata, not the 40 MB of place and carrier names.

The region metadata modules (``phonenumbers.data.region_XX``) are imported by
name at run time, so they are collected explicitly. Presidio's phone
recognizer never uses the geocoder, carrier or time-zone data.
"""

from PyInstaller.utils.hooks import collect_submodules

_SKIP = (
    "phonenumbers.geodata",
    "phonenumbers.carrier",
    "phonenumbers.tzdata",
    "phonenumbers.geocoder",
    "phonenumbers.timezone",
)


def _wanted(name: str) -> bool:
    return not name.startswith(_SKIP)


hiddenimports = collect_submodules("phonenumbers", filter=_wanted)
