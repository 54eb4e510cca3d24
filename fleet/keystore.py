"""Where workers get study keys: never from a message, always from a key store.

:class:`KeyStore` is the interface.  Two stores ship:

* :class:`DirectoryKeyStore` (the file store): ``<dir>/<study>.key.json``,
  mode 0600, one file per study; a key file that other users can read is
  refused.  :meth:`DirectoryKeyStore.rotate` retires the current key to
  ``<dir>/retired/`` and makes a new one with a new key id.
* :class:`EnvKeyStore`: the key file's JSON (or its base64) in
  ``DEID_KEY_<STUDY>`` (see :func:`env_var_for`), for secret managers that
  inject environment variables.  It is read-only.

:func:`open_keystore` picks one (``DEID_KEY_STORE=env`` selects the
environment).  A KMS-backed store only needs :meth:`KeyStore.load`.
Loaded keys are cached per process (a file store re-reads a replaced
file), and :func:`load_checked` refuses a key whose id is not the one a
batch was submitted under, so a swapped key file cannot silently re-key
half a release; a batch submitted before a rotation still finds its
(retired) key.
"""

from __future__ import annotations

from deid_core.environment import KEY_PREFIX, KEY_STORE
import base64
import binascii
import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol, runtime_checkable

from deid_core.keys import KEY_FILE_FORMAT, KeyFileError, StudyKey

_STUDY_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")
ENV_PREFIX = KEY_PREFIX
STORE_SELECTOR = KEY_STORE.name


class KeyStoreError(LookupError):
    pass


class KeyStore(Protocol):
    def load(self, study: str) -> StudyKey: ...


@runtime_checkable
class RetainingKeyStore(Protocol):
    """A store that keeps retired keys, so batches made under them stay auditable."""

    def load_key_id(self, study: str, key_id: str) -> StudyKey: ...


def check_study_name(study: str) -> str:
    """Study names become file names: letters, digits, dot, dash, underscore."""
    if not isinstance(study, str) or not _STUDY_NAME.match(study):
        raise KeyStoreError(f"study name {study!r} must be letters, digits, '.', '-' or '_'")
    return study


def _key_suffix(key_id: str) -> str:
    suffix = key_id.rpartition(":")[2]
    if not re.fullmatch(r"[0-9a-f]{16}", suffix):
        raise KeyStoreError(f"{key_id!r} is not a key id")
    return suffix


class DirectoryKeyStore:
    """``<directory>/<study>.key.json``, as written by ``deid keygen``; retired keys in ``retired/``."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self._cache: dict[str, tuple[StudyKey, tuple[int, int, int]]] = {}

    def path_for(self, study: str) -> Path:
        return self.directory / f"{check_study_name(study)}.key.json"

    def retired_path(self, study: str, key_id: str) -> Path:
        return self.directory / "retired" / f"{check_study_name(study)}.{_key_suffix(key_id)}.key.json"

    def _read(self, path: Path, study: str) -> StudyKey:
        try:
            key = StudyKey.read(path)
        except KeyFileError as exc:
            raise KeyStoreError(f"no usable key for study {study!r}: {exc}") from None
        if key.study != study:
            raise KeyStoreError(f"key file {path.name} is for study {key.study!r}, not {study!r}")
        return key

    def load(self, study: str) -> StudyKey:
        """The current key; a file replaced by a rotation in another process is picked up at once."""
        path = self.path_for(study)
        try:
            st = path.stat()
            stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = None
        cached = self._cache.get(study)
        if cached is not None and stamp is not None and cached[1] == stamp:
            return cached[0]
        key = self._read(path, study)
        if stamp is not None:
            self._cache[study] = (key, stamp)
        return key

    def load_key_id(self, study: str, key_id: str) -> StudyKey:
        """The current key if it has ``key_id`` (read afresh: it may have rotated), else a retired one."""
        self._cache.pop(study, None)
        try:
            current = self.load(study)
            if current.key_id == key_id:
                return current
        except KeyStoreError:
            current = None
        path = self.retired_path(study, key_id)
        if not path.exists():
            now = f"; its current key is {current.key_id}" if current else ""
            raise KeyStoreError(f"study {study!r} has no key with id {key_id} in {self.directory}{now}")
        key = self._read(path, study)
        if key.key_id != key_id:
            raise KeyStoreError(f"retired key file {path.name} does not hold key {key_id}")
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

    def rotate(self, study: str) -> StudyKey:
        """Retire the study's key (kept, for audits of old releases) and make a new one.

        The new key shares nothing with the old: every surrogate, date offset
        and pseudonym of a release under it is unlinkable to earlier releases.
        The swap is a rename, so a reader sees the old key or the new, never neither.
        """
        old = self._read(self.path_for(study), study)
        retired = self.retired_path(study, old.key_id)
        retired.parent.mkdir(mode=0o700, exist_ok=True)
        if not retired.exists():
            os.link(self.path_for(study), retired)
        new = StudyKey.generate(study)
        staging = self.directory / f".{study}.key.json.new"
        staging.unlink(missing_ok=True)
        try:
            new.write(staging)
        except KeyFileError as exc:
            raise KeyStoreError(str(exc)) from None
        os.replace(staging, self.path_for(study))
        self._cache.pop(study, None)
        return new

    def retired(self, study: str) -> list[str]:
        """Key ids of the study's retired keys."""
        folder = self.directory / "retired"
        prefix = f"{check_study_name(study)}."
        if not folder.is_dir():
            return []
        return sorted(
            f"{study}:{p.name[len(prefix):-len('.key.json')]}"
            for p in folder.glob(f"{prefix}*.key.json")
            if re.fullmatch(r"[0-9a-f]{16}", p.name[len(prefix) : -len(".key.json")])
        )


#: The file store under its role's name.
FileKeyStore = DirectoryKeyStore


def env_var_for(study: str, key_id: str | None = None) -> str:
    """``DEID_KEY_`` + the study name upper-cased with every other character as ``_``.

    Study ``cardio-2024.b`` reads ``DEID_KEY_CARDIO_2024_B``; a retired key
    ``cardio-2024.b:0123456789abcdef`` reads ``DEID_KEY_CARDIO_2024_B__0123456789ABCDEF``.
    Two studies that map to one name cannot both live in the environment:
    the key's own study name is checked on load.
    """
    name = ENV_PREFIX + re.sub(r"[^A-Z0-9]", "_", check_study_name(study).upper())
    return name if key_id is None else f"{name}__{_key_suffix(key_id).upper()}"


def parse_key_json(text: str, where: str) -> StudyKey:
    """A key from key-file JSON or its base64; errors name ``where``, never the value."""
    text = text.strip()
    if not text.startswith("{"):
        try:
            padded = (text + "=" * (-len(text) % 4)).replace("-", "+").replace("_", "/")  # either alphabet
            text = base64.b64decode(padded, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            raise KeyStoreError(f"{where} is neither key JSON nor base64 of it") from None
    try:
        raw = json.loads(text)
        if raw.get("format") != KEY_FILE_FORMAT:
            raise KeyStoreError(f"{where} is not a {KEY_FILE_FORMAT} key")
        key = StudyKey(study=raw["study"], salt=bytes.fromhex(raw["salt"]), key=bytes.fromhex(raw["key"]))
    except KeyStoreError:
        raise
    except (json.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError) as exc:
        raise KeyStoreError(f"{where} is malformed: {type(exc).__name__}") from None
    if raw.get("key_id") not in (None, key.key_id):
        raise KeyStoreError(f"{where}: key_id does not match the key material")
    return key


class EnvKeyStore:
    """Keys from environment variables named by :func:`env_var_for`; read-only."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        self.environ = os.environ if environ is None else environ

    def _get(self, study: str, var: str) -> StudyKey:
        value = self.environ.get(var)
        if not value:
            raise KeyStoreError(f"no key for study {study!r}: ${var} is not set")
        key = parse_key_json(value, f"${var}")
        if key.study != study:
            raise KeyStoreError(f"${var} holds a key for study {key.study!r}, not {study!r}")
        return key

    def load(self, study: str) -> StudyKey:
        return self._get(study, env_var_for(study))

    def load_key_id(self, study: str, key_id: str) -> StudyKey:
        current = self.load(study)
        if current.key_id == key_id:
            return current
        key = self._get(study, env_var_for(study, key_id))
        if key.key_id != key_id:
            raise KeyStoreError(f"${env_var_for(study, key_id)} does not hold key {key_id}")
        return key

    def rotate(self, study: str) -> StudyKey:
        raise KeyStoreError(
            "an environment key store is read-only: rotate in a key directory (`deid key rotate`) "
            "and put the new key file's contents in your secret manager"
        )


def open_keystore(key_dir: Path | str, environ: Mapping[str, str] | None = None) -> KeyStore:
    """The environment store when ``DEID_KEY_STORE=env``, else the file store at ``key_dir``."""
    env = os.environ if environ is None else environ
    choice = env.get(STORE_SELECTOR, "file").strip().lower() or "file"
    if choice == "env":
        return EnvKeyStore(env)
    if choice != "file":
        raise KeyStoreError(f"${STORE_SELECTOR} must be 'file' or 'env', not {choice!r}")
    return DirectoryKeyStore(key_dir)


class SingleKeyStore:
    """One key given directly (``deid run --key-file``)."""

    def __init__(self, key: StudyKey) -> None:
        self.key = key

    def load(self, study: str) -> StudyKey:
        if study != self.key.study:
            raise KeyStoreError(f"the key given is for study {self.key.study!r}, not {study!r}")
        return self.key


def load_checked(store: KeyStore, study: str, key_id: str) -> StudyKey:
    """The study's key with exactly ``key_id``: the current one, or a retired one the store kept."""
    key = store.load(study)
    if key.key_id == key_id:
        return key
    kept = ""
    if isinstance(store, RetainingKeyStore):
        try:
            return store.load_key_id(study, key_id)
        except KeyStoreError:
            kept = ", and the store keeps no retired key with that id"
    raise KeyStoreError(
        f"the key store's key for study {study!r} has id {key.key_id}, but the batch was submitted under {key_id}{kept}"
    )
