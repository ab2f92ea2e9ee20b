"""Unlocking the encrypted store from the command line."""

from __future__ import annotations

import getpass
import os
import sys

from core import paths
from core.errors import VaultLockedError
from core.store import KeyInfo, Store, keyring_available

PASSPHRASE_ENV = "SOTTOVOCE_PASSPHRASE"


def _ask(prompt: str, confirm: bool = False) -> str:
    env = os.environ.get(PASSPHRASE_ENV)
    if env:
        return env
    if not sys.stdin.isatty():
        raise VaultLockedError(
            "The store needs a passphrase and there is no terminal to ask for it.",
            hint=f"set {PASSPHRASE_ENV}",
        )
    first = getpass.getpass(prompt)
    if confirm and getpass.getpass("Repeat the passphrase: ") != first:
        raise VaultLockedError("The two passphrases differ.")
    return first


def open_store() -> Store:
    """Open (or, on first use, create) the person's store."""
    path = paths.store_file()
    if Store.exists(path):
        info = KeyInfo.read(path)
        passphrase = _ask("Passphrase for the Sottovoce store: ") if info and info.source == "passphrase" else None
        return Store.open(path, passphrase)
    if keyring_available() and not os.environ.get(PASSPHRASE_ENV):
        return Store.create(path)
    print(f"Creating the encrypted store at {path}.", file=sys.stderr)
    return Store.create(path, _ask("Choose a passphrase for the new store: ", confirm=True))
