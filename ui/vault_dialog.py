"""First run and later runs: create the encrypted vault, or unlock it.

On first run the person learns where their data is kept and how the vault is
locked: with a random key kept in the OS keyring (preferred), or with a
passphrase when no keyring backend exists (or when they prefer one). Later
runs open a keyring vault without asking and ask for the passphrase
otherwise. Creating and opening (scrypt stretching, the first read that
proves the key) run in a worker.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from core import paths
from core.errors import SottovoceError, VaultLockedError, WrongKeyError
from core.store import KeyInfo, Store, keyring_available
from ui.errors import report
from ui.theme import shield_pixmap
from ui.workers import run_in_thread

log = logging.getLogger(__name__)

MIN_PASSPHRASE = 8


class VaultDialog(QDialog):
    """Creates (``mode="create"``) or unlocks (``mode="unlock"``) the store at ``path``."""

    def __init__(self, path: Path, mode: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path = Path(path)
        self.mode = mode
        self.store: Store | None = None
        self.setObjectName("vault-dialog")
        self.setWindowTitle("Welcome to Sottovoce" if mode == "create" else "Unlock Sottovoce")
        self.setMinimumWidth(560)
        self.has_keyring = keyring_available()

        icon = QLabel()
        icon.setPixmap(shield_pixmap(48))
        title = QLabel("Create your private vault" if mode == "create" else "Unlock your vault")
        title.setObjectName("viewTitle")
        head = QHBoxLayout()
        head.addWidget(icon)
        head.addSpacing(8)
        head.addWidget(title, 1)

        lay = QVBoxLayout(self)
        lay.setSpacing(10)
        lay.addLayout(head)
        if mode == "create":
            text = QLabel(
                "Sottovoce keeps your conversations, the privacy box (your private values and "
                "their placeholders) and the ledger of everything sent to the cloud in one "
                "encrypted file on this machine."
            )
            text.setWordWrap(True)
            lay.addWidget(text)
            where = QFormLayout()
            where.addRow("Vault:", self._path_label(self.path))
            where.addRow("Settings:", self._path_label(paths.settings_file()))
            lay.addLayout(where)
        else:
            text = QLabel(f"The vault at {self.path} is locked with a passphrase.")
            text.setWordWrap(True)
            lay.addWidget(text)

        self.use_keyring = QRadioButton("Keep the key in the system keyring (recommended)")
        self.use_passphrase = QRadioButton("Lock it with a passphrase I will type at each start")
        group = QButtonGroup(self)
        group.addButton(self.use_keyring)
        group.addButton(self.use_passphrase)
        self.passphrase = QLineEdit()
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase.setAccessibleName("Passphrase")
        self.confirm = QLineEdit()
        self.confirm.setEchoMode(QLineEdit.EchoMode.Password)
        self.confirm.setAccessibleName("Repeat the passphrase")
        form = QFormLayout()
        form.addRow("Passphrase:", self.passphrase)
        if mode == "create":
            lay.addWidget(self.use_keyring)
            lay.addWidget(self.use_passphrase)
            form.addRow("Repeat:", self.confirm)
            if self.has_keyring:
                self.use_keyring.setChecked(True)
            else:
                self.use_keyring.setEnabled(False)
                self.use_keyring.setText("System keyring: none found on this machine")
                self.use_passphrase.setChecked(True)
            group.buttonToggled.connect(lambda *_: self._sync())
        lay.addLayout(form)
        self.note = QLabel(
            "There is no way to recover a forgotten passphrase: the vault is encrypted with it."
            if mode == "create"
            else ""
        )
        self.note.setObjectName("hint")
        self.note.setWordWrap(True)
        lay.addWidget(self.note)
        self.error = QLabel()
        self.error.setStyleSheet("color: #c0392b;")
        self.error.setWordWrap(True)
        self.error.hide()
        lay.addWidget(self.error)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setTextVisible(False)
        self.busy.setFixedHeight(6)
        self.busy.hide()
        lay.addWidget(self.busy)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(
            "Create vault" if mode == "create" else "Unlock"
        )
        self.buttons.accepted.connect(self.submit)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self._sync()

    @staticmethod
    def _path_label(path: Path) -> QLabel:
        label = QLabel(str(path))
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setObjectName("hint")
        return label

    def _sync(self) -> None:
        need = self.mode == "unlock" or self.use_passphrase.isChecked()
        self.passphrase.setEnabled(need)
        self.confirm.setEnabled(need)
        if need:
            self.passphrase.setFocus()

    def _fail(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()
        self.busy.hide()
        self.buttons.setEnabled(True)

    def submit(self) -> None:
        """Validate the input, then create or open the store in a worker."""
        self.error.hide()
        phrase: str | None = None
        if self.mode == "unlock" or self.use_passphrase.isChecked():
            phrase = self.passphrase.text()
            if self.mode == "create":
                if len(phrase) < MIN_PASSPHRASE:
                    self._fail(f"Choose a passphrase of at least {MIN_PASSPHRASE} characters.")
                    return
                if phrase != self.confirm.text():
                    self._fail("The two passphrases differ.")
                    return
            elif not phrase:
                self._fail("Enter the passphrase.")
                return
        self.buttons.setEnabled(False)
        self.busy.show()
        fn = Store.create if self.mode == "create" else Store.open
        run_in_thread(
            fn, self.path, phrase, on_return=self._done, on_error=self._error, name="vault"
        )

    def _done(self, store: Store) -> None:
        self.store = store
        self.busy.hide()
        self.accept()

    def _error(self, exc: BaseException) -> None:
        if isinstance(exc, WrongKeyError):
            self._fail("That passphrase does not open this vault.")
            self.passphrase.selectAll()
        elif isinstance(exc, SottovoceError):
            self._fail(exc.message + (f" ({exc.hint})" if exc.hint else ""))
        else:
            self._fail("The vault could not be opened.")
            report(exc, self)


def open_vault(
    path: Path | None = None,
    parent: QWidget | None = None,
    passphrase: str | None = None,
    *,
    done: Callable[[Store | None], None],
) -> VaultDialog | None:
    """Open the person's store, creating it on first run, and call ``done`` with
    it (None: the person cancelled, or the error was shown).

    A keyring vault opens without a question, and ``passphrase`` (from the
    environment, for scripted starts) skips the dialog for a passphrase vault:
    then ``done`` is called before this returns, and None is returned. Else the
    dialog opens without blocking and is returned; ``done`` is called when it
    closes. Errors of a start without a question propagate to the caller.
    """
    path = path or paths.store_file()
    if Store.exists(path):
        info = KeyInfo.read(path)
        if info is not None and info.source == "keyring":
            try:
                store = Store.open(path)
            except VaultLockedError as exc:
                report(exc, parent)
                done(None)
                return None
            done(store)
            return None
        if passphrase:
            done(Store.open(path, passphrase))
            return None
        dlg = VaultDialog(path, "unlock", parent)
    else:
        if passphrase:
            done(Store.create(path, passphrase))
            return None
        dlg = VaultDialog(path, "create", parent)
    dlg.finished.connect(lambda _code: done(dlg.store))
    dlg.open()
    return dlg
