"""Opaque identifiers: a keyed SHA-256, truncated to 16 hex characters.

The paper defines SHA-256(salt || study || entity || id); we use HMAC-SHA256
under the study's hashes subkey over (study, entity, id), which needs the
same secrets and does not rely on the parts being separable.
"""

from __future__ import annotations

from deid_core.keys import Purpose, StudyKey, keyed_digest


class OpaqueHasher:
    def __init__(self, key: StudyKey) -> None:
        self._subkey = key.subkey(Purpose.HASHES)
        self._study = key.study

    def __call__(self, value: str, *, entity: str) -> str:
        return keyed_digest(self._subkey, self._study, entity, value.strip()).hex()[:16].upper()
