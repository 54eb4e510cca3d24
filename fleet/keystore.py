"""Where workers get study keys: never from a message, always from a key store.

:class:`KeyStore` is the interface; :class:`DirectoryKeyStore` reads one key
file per study from a configured directory.  A KMS-backed store only needs
to implement :meth:`KeyStore.load`.  Loaded keys are cached per process, and
a key whose id does not match the one a batch was submitted under is
refused, so a swapped key file cannot silently re-key half a release.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Protocol

from deid_core.keys import KeyFileError, StudyKey

_STUDY_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")


class KeyStoreError(LookupError):
    pass


class KeyStore(Protocol):
    def load(self, study: str) -> StudyKey: ...


def check_study_name(study: str) -> str:
    """Study names become file names: letters, digits, dot, dash, underscore."""
    if not isinstance(study, str) or not _STUDY_NAME.match(study):
        raise KeyStoreError(f"study name {study!r} must be letters, digits, '.', '-' or '_'")
    return study


class DirectoryKeyStore:
    """``<directory>/<study>.key.json``, as written by ``deid keygen``."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self._cache: dict[str, StudyKey] = {}

    def path_for(self, study: str) -> Path:
        return self.directory / f"{check_study_name(study)}.key.json"

    def load(self, study: str) -> StudyKey:
        if study in self._cache:
            return self._cache[study]
        path = self.path_for(study)
        try:
            key = StudyKey.read(path)
        except KeyFileError as exc:
            raise KeyStoreError(f"no usable key for study {study!r}: {exc}") from None
        if key.study != study:
            raise KeyStoreError(f"key file {path.name} is for study {key.study!r}, not {study!r}")
        self._cache[study] = key
        return key

    def create(self, study: str) -> StudyKey:
        """Generate and store a new key (refusing to replace an existing one)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        key = StudyKey.generate(check_study_name(study))
        try:
            key.write(self.path_for(study))
        except KeyFileError as exc:
            raise KeyStoreError(str(exc)) from None
        return key


class SingleKeyStore:
    """One key given directly (``deid run --key-file``)."""

    def __init__(self, key: StudyKey) -> None:
        self.key = key

    def load(self, study: str) -> StudyKey:
        if study != self.key.study:
            raise KeyStoreError(f"the key given is for study {self.key.study!r}, not {study!r}")
        return self.key


def load_checked(store: KeyStore, study: str, key_id: str) -> StudyKey:
    key = store.load(study)
    if key.key_id != key_id:
        raise KeyStoreError(
            f"the key store's key for study {study!r} has id {key.key_id}, but the batch was submitted under {key_id}"
        )
    return key
