"""PHI at rest in the state store: AES-256-GCM under a per-study subkey.

A note's text, its patient id and the patient's known identifiers are the
only original text the store holds, and all are sealed before they reach a
row.  The sealing key is the
study key's HKDF subkey for :data:`Purpose.AT_REST` (never used for anything
else); the dedupe digest is an HMAC under the :data:`Purpose.AT_REST_DIGEST`
subkey, because a plain SHA-256 lets anyone holding a dump confirm a guessed
note.

Layout of a sealed value: ``version byte (1) || nonce (12, random) ||
ciphertext || tag (16)``.  The associated data names the format, the study,
the purpose of the value and its binding (for note text: the note's keyed
digest), so a ciphertext copied into another study, another column or a row
holding other text fails to open instead of decrypting to the wrong note.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from deid_core.keys import Purpose, StudyKey, keyed_digest

if TYPE_CHECKING:
    from deid_core.known import KnownPatient
    from fleet.models import KnownRow, NoteRow

VERSION = 1
NONCE_BYTES = 12
_HEADER = bytes([VERSION])
_AD_LABEL = b"deid-sealed/1"

#: What a sealed value is; part of the associated data, so columns cannot be swapped.
NOTE_TEXT = "note-text"
PATIENT_ID = "patient-id"
KNOWN_IDENTIFIERS = "known-identifiers"


class SealError(ValueError):
    """A sealed value that does not open under this key and binding (tampered, moved or wrong key)."""


@dataclass(frozen=True, slots=True)
class SealedText:
    """What a note row stores for its text: the sealed bytes and the keyed dedupe digest."""

    sealed: bytes
    digest: str


def _aad(study: str, purpose: str, binding: str) -> bytes:
    out = bytearray(_AD_LABEL)
    for part in (study, purpose, binding):
        data = part.encode("utf-8")
        out += len(data).to_bytes(4, "big") + data
    return bytes(out)


def _check_study(key: StudyKey, study: str) -> None:
    if key.study != study:
        raise SealError(f"the key given is for study {key.study!r}, not {study!r}")


def seal(key: StudyKey, study: str, purpose: str, binding: str, plaintext: str) -> bytes:
    """Encrypt ``plaintext`` under the study's at-rest subkey, bound to ``(study, purpose, binding)``."""
    _check_study(key, study)
    nonce = os.urandom(NONCE_BYTES)
    body = AESGCM(key.subkey(Purpose.AT_REST)).encrypt(nonce, plaintext.encode("utf-8"), _aad(study, purpose, binding))
    return _HEADER + nonce + body


def unseal(key: StudyKey, study: str, purpose: str, binding: str, sealed: bytes) -> str:
    """The plaintext of :func:`seal`; any mismatch raises :class:`SealError`, never returns garbage."""
    _check_study(key, study)
    sealed = bytes(sealed)
    if len(sealed) < 1 + NONCE_BYTES + 16 or sealed[:1] != _HEADER:
        raise SealError(f"sealed {purpose} is not a version-{VERSION} sealed value")
    nonce, body = sealed[1 : 1 + NONCE_BYTES], sealed[1 + NONCE_BYTES :]
    try:
        data = AESGCM(key.subkey(Purpose.AT_REST)).decrypt(nonce, body, _aad(study, purpose, binding))
    except InvalidTag:
        raise SealError(f"sealed {purpose} does not open under key {key.key_id} for this row") from None
    return data.decode("utf-8")


def text_digest(key: StudyKey, study: str, text: str) -> str:
    """Keyed dedupe digest of a note's text: equal texts match only for a holder of the key."""
    _check_study(key, study)
    return keyed_digest(key.subkey(Purpose.AT_REST_DIGEST), study, text).hex()


def seal_note_text(key: StudyKey, study: str, text: str) -> SealedText:
    """Seal a note's text for ``NoteRow(text_sealed=..., text_digest=...)``."""
    digest = text_digest(key, study, text)
    return SealedText(seal(key, study, NOTE_TEXT, digest, text), digest)


def note_plaintext(note: "NoteRow", key: StudyKey) -> str:
    """The original text of a note row; fails closed if the row was tampered with or moved."""
    text = unseal(key, note.study_id, NOTE_TEXT, note.text_digest, note.text_sealed)
    if text_digest(key, note.study_id, text) != note.text_digest:
        raise SealError(f"note {note.id}: its text does not match its digest")
    return text


def seal_patient_id(key: StudyKey, study: str, digest: str, patient_id: str | None) -> bytes | None:
    """A note's patient id, sealed and bound to the same note (``None`` stays ``None``)."""
    return None if patient_id is None else seal(key, study, PATIENT_ID, digest, patient_id)


def note_patient_id(note: "NoteRow", key: StudyKey) -> str | None:
    if note.patient_sealed is None:
        return None
    return unseal(key, note.study_id, PATIENT_ID, note.text_digest, note.patient_sealed)


def patient_digest(key: StudyKey, study: str, patient_id: str) -> str:
    """Keyed digest of a patient id: finds a patient's known identifiers without storing the id."""
    return text_digest(key, study, "patient\x00" + patient_id)


def seal_known(key: StudyKey, study: str, batch_id: str, record: "KnownPatient") -> tuple[str, bytes]:
    """``(patient digest, sealed record)`` for ``KnownRow``, bound to its batch and patient."""
    import json

    digest = patient_digest(key, study, record.patient_id)
    body = json.dumps(record.to_dict(), sort_keys=True)  # ASCII escapes: any string a record holds can be sealed
    return digest, seal(key, study, KNOWN_IDENTIFIERS, f"{batch_id}:{digest}", body)


def open_known(row: "KnownRow", key: StudyKey, study: str) -> "KnownPatient":
    """The known identifiers of a ``KnownRow``; fails closed if the row was moved or tampered with."""
    import json

    from deid_core.known import known_from_dict

    body = unseal(key, study, KNOWN_IDENTIFIERS, f"{row.batch_id}:{row.patient_digest}", row.sealed)
    record = known_from_dict(json.loads(body), f"known identifiers of batch {row.batch_id}")
    if patient_digest(key, study, record.patient_id) != row.patient_digest:
        raise SealError(f"known identifiers of batch {row.batch_id}: the record does not match its patient digest")
    return record
