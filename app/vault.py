"""Unlocking the encrypted store from the command line."""

from __future__ import annotations

import getpass
import os
import sys
from pathlib import Path

from core import paths
from core.errors import VaultLockedError
from core.store import KeyInfo, Store, keyring_available

PASSPHRASE_ENV = "SOTTOVOCE_PASSPHRASE"


# The passphrase a store was opened with from the environment, by store path:
# a second open in the same process (a command that opens the store twice)
# finds it here, in this process only, never handed down to a child.
_FROM_ENV: dict[str, str] = {}


def take_env_passphrase() -> str | None:
    """The passphrase given in the environment, removed from it as it is read.

    Every process started later (the demo cloud, a model download, a shell
    the person opens from the app) inherits the environment: the secret must
    not stay there.
    """
    if PASSPHRASE_ENV not in os.environ:
        return None
    _scrub_environment_block(PASSPHRASE_ENV)
    return os.environ.pop(PASSPHRASE_ENV, None) or None


def _scrub_environment_block(name: str) -> None:
    """Overwrite the variable's value where the process received it (Linux).

    Removing a variable leaves its text in the memory the process started
    with, which ``/proc/PID/environ`` shows to every process of the same user.
    The value is zeroed there before it is removed. Best effort: where this
    cannot be done the variable is still removed.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        # Only the block the kernel handed over (what /proc/PID/environ shows):
        # strings that setenv() allocated belong to the C library, which keeps
        # them in a search tree that changing them would corrupt.
        with open("/proc/self/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        env_start, env_end = int(fields[47]), int(fields[48])  # fields 50 and 51 of stat(5)
        env = ctypes.POINTER(ctypes.c_void_p).in_dll(ctypes.CDLL(None), "environ")
        prefix = name.encode() + b"="
        i = 0
        while env[i]:
            address = env[i]
            if env_start <= address < env_end:
                entry = ctypes.string_at(address)
                if entry.startswith(prefix) and address + len(entry) <= env_end:
                    ctypes.memset(address + len(prefix), 0, len(entry) - len(prefix))
            i += 1
    except (OSError, ValueError, IndexError, AttributeError):  # removing it must do
        return


def _ask(prompt: str, env: str | None, confirm: bool = False) -> str:
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
    where = str(path.resolve())
    env = take_env_passphrase() or _FROM_ENV.get(where)
    store = _open_or_create(path, env)
    if env:
        _FROM_ENV[where] = env  # it opened this store: kept for this process only
    return store


def _open_or_create(path: Path, env: str | None) -> Store:
    if Store.exists(path):
        info = KeyInfo.read(path)
        passphrase = (
            _ask("Passphrase for the Sottovoce store: ", env)
            if info and info.source == "passphrase"
            else None
        )
        return Store.open(path, passphrase)
    if keyring_available() and not env:
        return Store.create(path)
    print(f"Creating the encrypted store at {path}.", file=sys.stderr)
    return Store.create(path, _ask("Choose a passphrase for the new store: ", env, confirm=True))
