"""`verify-anonymizer` counts name collisions per token and same-note clashes."""

from __future__ import annotations

from deid_core.keys import StudyKey
from deid_core.verification import verify


def test_verification_reports_per_token_collisions_and_same_note_clashes():
    key, rotated = StudyKey.generate("v"), StudyKey.generate("v")
    rows = {r.property: r for r in verify(key, rotated, n=100, name_counts=(400,), short_id_lengths=())}
    tokens, clashes = rows["Name token collisions"], rows["Same-note name clashes"]
    assert tokens.n > 700 and tokens.result == 0.0 and tokens.passed
    assert clashes.n == 400 and clashes.result == 0.0 and clashes.passed
    assert rows["Same-note clash spans masked"].result == 100.0
    assert rows["Name token variants"].result == 100.0
