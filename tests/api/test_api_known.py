"""Known identifiers through the intake API: per note and per batch, validated, and applied."""

from __future__ import annotations

from tests.api.conftest import NORTH
from tests.words import has_word

TEXT = "pt seen w daughter. young, maria c/o cough; sister rose young at bedside. f/u 2 wks"


def _note_text(api, body) -> str:
    return api.client.get(f"/v1/notes/{body['notes'][0]['note']}", headers=api.auth("north")).json()["text"]


def test_known_on_a_note_masks_a_surname_only_the_record_names(api):
    body = api.submit(
        "north",
        NORTH,
        [{"id": "known-1", "patient_id": "pk-1", "text": TEXT, "known": {"names": ["Maria Young"], "relatives": ["Rose Young"]}}],
    )
    text = _note_text(api, body)
    assert not has_word("young", text) and not has_word("maria", text) and "c/o cough" in text


def test_known_per_batch_reaches_the_notes_of_its_patient(api):
    res = api.client.post(
        "/v1/notes",
        json={
            "study": NORTH,
            "notes": [{"id": "known-2", "patient_id": "pk-2", "text": TEXT}],
            "known": [{"patient_id": "pk-2", "names": ["Maria Young"], "relatives": ["Rose Young"]}],
        },
        headers=api.auth("north"),
    )
    assert res.status_code == 202
    api.wait()
    assert not has_word("young", _note_text(api, res.json()))


def test_known_without_a_patient_id_is_422_naming_the_note(api):
    res = api.client.post(
        "/v1/notes",
        json={"study": NORTH, "notes": [{"id": "known-3", "text": TEXT, "known": {"names": ["Maria Young"]}}]},
        headers=api.auth("north"),
    )
    assert res.status_code == 422
    assert "known-3" in res.text and "patient id" in res.text and "Maria" not in res.text


def test_known_with_an_unknown_field_is_422(api):
    res = api.client.post(
        "/v1/notes",
        json={"study": NORTH, "notes": [{"id": "k4", "patient_id": "p", "text": TEXT, "known": {"nickname": ["Mo"]}}]},
        headers=api.auth("north"),
    )
    assert res.status_code == 422 and "nickname" in res.text
