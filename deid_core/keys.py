"""Study keys: generation, the key file, and per-purpose subkeys.

A study key is a 256-bit salt and a 32-byte key from a CSPRNG.  Every
primitive gets its own subkey, HKDF-SHA256 over ``salt || key`` with a
versioned label, so no two primitives ever share key material.  Outputs
record :attr:`StudyKey.key_id`, which is derived one-way from the material
and never reveals it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import stat
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

KEY_FILE_FORMAT = "deid-study-key/1"


class KeyFileError(ValueError):
    pass


class Purpose:
    """Versioned HKDF labels, one per primitive.  Changing a label re-keys that primitive."""

    DATES = "dates/v1"
    IDS_FF1 = "ids.ff1/v1"
    IDS_FF3 = "ids.ff3-1/v1"
    IDS_TWEAK = "ids.tweak/v1"
    IDS_SMALL = "ids.small-domain/v1"
    IDS_FALLBACK = "ids.fallback/v1"
    NAMES = "names/v1"
    PLACES = "places/v1"
    WEB = "web/v1"
    HASHES = "hashes/v1"
    RECORD_FIELDS = "record-fields.aes-siv/v1"  # pseudonyms of patient_id and id in output records
    KEY_ID = "key-id/v1"
    AT_REST = "at-rest.aes-gcm/v1"  # sealing PHI in the state store (fleet.sealing)
    AT_REST_DIGEST = "at-rest.digest/v1"  # keyed dedupe digest of a stored note


@dataclass(frozen=True)
class StudyKey:
    study: str
    salt: bytes = field(repr=False)
    key: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if len(self.salt) != 32 or len(self.key) != 32:
            raise KeyFileError("a study key needs a 32-byte salt and a 32-byte key")
        if not self.study:
            raise KeyFileError("a study key needs a study name")

    @classmethod
    def generate(cls, study: str) -> "StudyKey":
        return cls(study=study, salt=secrets.token_bytes(32), key=secrets.token_bytes(32))

    def subkey(self, purpose: str, length: int = 32) -> bytes:
        return _derive(self.salt + self.key, purpose, length)

    @property
    def key_id(self) -> str:
        digest = self.subkey(Purpose.KEY_ID, 16).hex()
        return f"{self.study}:{digest[:16]}"

    def __repr__(self) -> str:  # never print material
        return f"StudyKey(study={self.study!r}, key_id={self.key_id!r})"

    # -- key file -------------------------------------------------------
    def to_json(self) -> str:
        return json.dumps(
            {
                "format": KEY_FILE_FORMAT,
                "study": self.study,
                "key_id": self.key_id,
                "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "salt": self.salt.hex(),
                "key": self.key.hex(),
            },
            indent=2,
        )

    def write(self, path: Path) -> None:
        """Create ``path`` with mode 0600; refuse to overwrite anything."""
        path = Path(path)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
        try:
            fd = os.open(path, flags, 0o600)
        except FileExistsError:
            raise KeyFileError(f"{path} already exists; refusing to overwrite a key file") from None
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(self.to_json() + "\n")
        os.chmod(path, 0o600)

    @classmethod
    def read(cls, path: Path) -> "StudyKey":
        path = Path(path)
        try:
            mode = path.stat().st_mode
        except FileNotFoundError:
            raise KeyFileError(f"key file {path} does not exist") from None
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise KeyFileError(
                f"key file {path} is readable by other users (mode {stat.S_IMODE(mode):04o}); "
                "run chmod 600 on it"
            )
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            if raw.get("format") != KEY_FILE_FORMAT:
                raise KeyFileError(f"key file {path} is not a {KEY_FILE_FORMAT} file")
            key = cls(study=raw["study"], salt=bytes.fromhex(raw["salt"]), key=bytes.fromhex(raw["key"]))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, KeyFileError):
                raise
            raise KeyFileError(f"key file {path} is malformed: {type(exc).__name__}") from None
        if raw.get("key_id") != key.key_id:
            raise KeyFileError(f"key file {path}: key_id does not match the key material")
        return key


@lru_cache(maxsize=256)
def _derive(ikm: bytes, purpose: str, length: int) -> bytes:
    return HKDF(
        algorithm=hashes.SHA256(), length=length, salt=None, info=b"deid/" + purpose.encode()
    ).derive(ikm)


def keyed_digest(subkey: bytes, *parts: str | bytes) -> bytes:
    """HMAC-SHA256 over length-prefixed parts, so ("ab","c") and ("a","bc") differ."""
    mac = hmac.new(subkey, digestmod=hashlib.sha256)
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        mac.update(len(data).to_bytes(4, "big"))
        mac.update(data)
    return mac.digest()


def keyed_index(subkey: bytes, value: str, n: int) -> int:
    """Deterministic keyed selection: HMAC(subkey, value) mod n."""
    if n <= 0:
        raise ValueError("cannot select from an empty pool")
    return int.from_bytes(keyed_digest(subkey, value), "big") % n
