"""The intake API over a real store with the stages running inline."""

from __future__ import annotations

import base64
import json

from sqlalchemy import select

from tests.api.conftest import FLAGGED_TEXT, MISSED_NAME, NORTH, PLAIN_TEXT, SOUTH


def test_submitted_note_comes_back_deidentified(api):
    res = api.client.post(
        "/v1/notes",
        json={"study": NORTH, "notes": [{"id": "plain-1", "patient_id": "p-1", "text": PLAIN_TEXT}]},
        headers=api.auth("north"),
    )
    assert res.status_code == 202
    body = res.json()
    assert body["submitted"] == 1 and body["batch"]
    api.wait()
    batch = api.client.get(f"/v1/batches/{body['batch']}", headers=api.auth("north")).json()
    assert (batch["submitted"], batch["done"], batch["failed"], batch["pending"], batch["complete"]) == (1, 1, 0, 0, True)
    note = api.client.get(f"/v1/notes/{body['notes'][0]['note']}", headers=api.auth("north")).json()
    assert note["state"] == "done" and note["id"] == "plain-1"
    assert note["verifier_score"] is not None
    for original in ("Ellen Parker", "Alan Brooks", "03/14/2021", "Mercy General"):
        assert original not in note["text"]
    assert note["text"].startswith("Mrs. ") and " seen on " in note["text"]


def test_flagged_note_text_is_withheld_until_its_review_closes(api):
    body = api.submit("north", NORTH, [{"id": "flag-1", "patient_id": "p-2", "text": FLAGGED_TEXT}])
    note = api.client.get(f"/v1/notes/{body['notes'][0]['note']}", headers=api.auth("north")).json()
    assert (note["state"], note["flagged"], note["review"], note["text"]) == ("in_review", True, "open", None)
    lines = api.client.get(f"/v1/batches/{body['batch']}/export", headers=api.auth("north")).text.splitlines()
    assert [json.loads(x)["text"] for x in lines] == [None]


def test_export_streams_one_json_line_per_note_in_input_order(api):
    notes = [{"id": f"order-{i}", "patient_id": f"p-{i}", "text": f"Seen by Dr. Alan Brooks, visit {i}."} for i in range(5)]
    body = api.submit("north", NORTH, notes)
    res = api.client.get(f"/v1/batches/{body['batch']}/export", headers=api.auth("north"))
    assert res.status_code == 200
    assert res.headers["content-type"].startswith("application/x-ndjson")
    records = [json.loads(line) for line in res.text.splitlines()]
    assert [r["id"] for r in records] == [n["id"] for n in notes]
    assert all(r["state"] == "done" and "Alan Brooks" not in r["text"] for r in records)


def test_cross_tenant_batch_note_export_and_study_are_404(api):
    body = api.submit("north", NORTH, [{"id": "secret-1", "patient_id": "p-3", "text": PLAIN_TEXT}])
    batch, note = body["batch"], body["notes"][0]["note"]
    south = api.auth("south")
    for path in (f"/v1/batches/{batch}", f"/v1/notes/{note}", f"/v1/batches/{batch}/export", f"/v1/review/notes/{note}"):
        res = api.client.get(path, headers=south)
        assert res.status_code == 404, path
        assert "Ellen" not in res.text and "secret-1" not in res.text
    res = api.client.post("/v1/notes", json={"study": NORTH, "notes": [{"id": "x", "text": "hi"}]}, headers=south)
    assert res.status_code == 404 and NORTH in res.json()["detail"]
    # the same answer as an id that does not exist
    assert api.client.get("/v1/batches/0123456789abcdef0123456789abcdef", headers=south).status_code == 404


def test_missing_unknown_or_revoked_token_is_401(api):
    from fleet.api.auth import issue_token, revoke_token

    assert api.client.get("/v1/review/queue").status_code == 401
    res = api.client.get("/v1/review/queue", headers={"Authorization": "Bearer deid_not-a-token"})
    assert res.status_code == 401 and res.headers["www-authenticate"] == "Bearer"
    with api.served.services.sessions.begin() as s:
        issued = issue_token(s, "north", label="temp")
    headers = {"Authorization": f"Bearer {issued.token}"}
    assert api.client.get("/v1/review/queue", headers=headers).status_code == 200
    with api.served.services.sessions.begin() as s:
        assert revoke_token(s, issued.token_id)
    assert api.client.get("/v1/review/queue", headers=headers).status_code == 401


def test_tokens_are_stored_only_as_their_sha256(api):
    from fleet.models import ApiToken

    with api.served.services.sessions() as s:
        stored = set(s.scalars(select(ApiToken.token_sha256)))
    for token in api.tokens.values():
        assert token not in stored
        import hashlib

        assert hashlib.sha256(token.encode()).hexdigest() in stored


def test_oversized_body_is_413_with_a_clear_message(api):
    big = "x" * (70 * 1024)
    res = api.client.post("/v1/notes", json={"study": NORTH, "notes": [{"id": "big", "text": big}]}, headers=api.auth("north"))
    assert res.status_code == 413
    assert "larger than the limit of 65536 bytes" in res.json()["detail"]


def test_too_many_notes_or_too_long_a_note_is_413_naming_it(api):
    many = [{"id": f"m{i}", "text": "short"} for i in range(21)]
    res = api.client.post("/v1/notes", json={"study": NORTH, "notes": many}, headers=api.auth("north"))
    assert res.status_code == 413 and "21 notes; at most 20" in res.json()["detail"]
    long = [{"id": "ok", "text": "fine"}, {"id": "long-one", "text": "y" * 5001}]
    res = api.client.post("/v1/notes", json={"study": NORTH, "notes": long}, headers=api.auth("north"))
    assert res.status_code == 413 and "note 1 (id 'long-one')" in res.json()["detail"]


def test_bad_record_is_422_naming_the_record(api):
    notes = [{"id": "good", "text": "fine"}, {"id": "bad-1", "patient_id": 7}, {"id": "bad-2", "text": "t", "colour": "red"}]
    res = api.client.post("/v1/notes", json={"study": NORTH, "notes": notes}, headers=api.auth("north"))
    assert res.status_code == 422
    err = res.json()
    assert "note 1 (id 'bad-1')" in err["detail"] and "note 2 (id 'bad-2')" in err["detail"]
    assert {(p["record"], p["id"]) for p in err["errors"]} == {(1, "bad-1"), (2, "bad-2")}
    fields = {p["field"] for p in err["errors"]}
    assert {"notes.1.text", "notes.1.patient_id", "notes.2.colour"} <= fields


def test_duplicate_ids_in_one_request_are_422(api):
    notes = [{"id": "same", "text": "one"}, {"id": "same", "text": "two"}]
    res = api.client.post("/v1/notes", json={"study": NORTH, "notes": notes}, headers=api.auth("north"))
    assert res.status_code == 422 and "note 1 (id 'same')" in res.json()["detail"]


def test_malformed_json_is_422_not_500(api):
    res = api.client.post("/v1/notes", content=b'{"study": ', headers={**api.auth("north"), "Content-Type": "application/json"})
    assert res.status_code == 422 and "problem" in res.json()["detail"]


def _key_encodings(key) -> list[str]:
    out = []
    for material in (key.salt, key.key, key.salt + key.key):
        out.append(material.hex())
        out.append(material.hex().upper())
        for enc in (base64.b64encode, base64.urlsafe_b64encode):
            text = enc(material).decode()
            out.extend({text, text.rstrip("=")})
    return out


def test_study_key_material_is_in_no_response_or_export(api):
    """A full run (submit, status, notes, export, review, fix, close) and every body ever received."""
    body = api.submit(
        "north",
        NORTH,
        [
            {"id": "k-1", "patient_id": "p-9", "text": PLAIN_TEXT},
            {"id": "k-2", "patient_id": "p-9", "text": FLAGGED_TEXT},
        ],
    )
    h = api.auth("north")
    api.client.get(f"/v1/batches/{body['batch']}", headers=h)
    for n in body["notes"]:
        api.client.get(f"/v1/notes/{n['note']}", headers=h)
    flagged = body["notes"][1]["note"]
    api.client.get("/v1/review/queue", headers=h)
    api.client.get(f"/v1/review/notes/{flagged}", headers=h)
    start = FLAGGED_TEXT.index(MISSED_NAME)
    fixed = api.client.post(
        f"/v1/review/notes/{flagged}/spans",
        json={"action": "add", "start": start, "end": start + len(MISSED_NAME), "category": "PATIENT"},
        headers=h,
    )
    assert fixed.status_code == 200
    assert api.client.post(f"/v1/review/notes/{flagged}/close", headers=h).status_code == 200
    export = api.client.get(f"/v1/batches/{body['batch']}/export", headers=h).content
    assert len(export.splitlines()) == 2
    api.client.get("/openapi.json")
    bodies = b"\n".join(api.client.bodies)
    assert len(api.client.bodies) > 10
    for study in (NORTH, SOUTH):
        for needle in _key_encodings(api.keys[study]):
            assert needle.encode() not in bodies, f"key material of {study} in a response"
            assert needle.encode() not in export
