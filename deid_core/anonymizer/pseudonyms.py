"""Keyed pseudonyms for the record fields that name a patient or a note.

An output record must not carry ``patient_id`` (often a medical record
number) as written, yet notes of one patient must stay linkable inside a
release and the key holder must be able to go back to the source record.
Each value is encrypted with AES-SIV (RFC 5297, from ``cryptography``), a
deterministic authenticated cipher: the same value under the same key gives
the same pseudonym, a pseudonym cannot be read or forged without the key,
and a new key gives unlinkable pseudonyms.  The field name is associated
data, so a patient id and a note id with the same value get different
pseudonyms.  Values are padded to a multiple of 16 bytes, so a pseudonym
reveals the length of its value only to within that much.  The pseudonym is
lower-case base32, safe in file names, URLs and spreadsheets.
"""

from __future__ import annotations

import base64
import binascii
from functools import cached_property

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESSIV

from deid_core.keys import Purpose, StudyKey

_BLOCK = 16


class PseudonymError(ValueError):
    """A pseudonym that this key did not make (or that was altered)."""


class RecordPseudonyms:
    """Encrypts and, for the key holder, decrypts record fields under their own subkey."""

    def __init__(self, key: StudyKey) -> None:
        self._key = key

    @cached_property
    def _siv(self) -> AESSIV:
        return AESSIV(self._key.subkey(Purpose.RECORD_FIELDS, 64))

    def pseudonym(self, field: str, value: str) -> str:
        data = value.encode("utf-8") + b"\x80"
        data += b"\x00" * (-len(data) % _BLOCK)
        sealed = self._siv.encrypt(data, [field.encode("utf-8")])
        return base64.b32encode(sealed).decode("ascii").rstrip("=").lower()

    def reveal(self, field: str, pseudonym: str) -> str:
        """The value behind ``pseudonym``; only the key holder can call this usefully."""
        try:
            raw = base64.b32decode(pseudonym.upper() + "=" * (-len(pseudonym) % 8))
            data = self._siv.decrypt(raw, [field.encode("utf-8")])
        except (binascii.Error, InvalidTag, ValueError):
            raise PseudonymError(f"not a {field} pseudonym under key {self._key.key_id}") from None
        return data[: data.rindex(b"\x80")].decode("utf-8")
