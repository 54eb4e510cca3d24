"""Review through the JSON endpoints: fixes re-anonymize under the same key and are audited."""

from __future__ import annotations

from sqlalchemy import select

from tests.api.conftest import FLAGGED_TEXT, MISSED_NAME, NORTH

START = FLAGGED_TEXT.index(MISSED_NAME)
END = START + len(MISSED_NAME)


def _flagged(api, note_id: str) -> int:
    body = api.submit("north", NORTH, [{"id": note_id, "patient_id": "p-r", "text": FLAGGED_TEXT}])
    return body["notes"][0]["note"]


def _add(api, note: int, start=START, end=END, category="PATIENT", tenant="north"):
    return api.client.post(
        f"/v1/review/notes/{note}/spans",
        json={"action": "add", "start": start, "end": end, "category": category},
        headers=api.auth(tenant),
    )


def test_flagged_note_is_in_its_tenants_queue_only(api):
    note = _flagged(api, "rev-queue")
    north = api.client.get("/v1/review/queue", headers=api.auth("north")).json()["notes"]
    south = api.client.get("/v1/review/queue", headers=api.auth("south")).json()["notes"]
    assert note in [e["note"] for e in north]
    assert note not in [e["note"] for e in south]
    entry = next(e for e in north if e["note"] == note)
    assert entry["reason"].startswith("verifier") and entry["verifier_score"] > 0.5


def test_adding_a_missed_name_reanonymizes_under_the_same_key(api):
    note = _flagged(api, "rev-add")
    before = api.client.get(f"/v1/review/notes/{note}", headers=api.auth("north")).json()
    assert MISSED_NAME in before["output"]
    res = _add(api, note)
    assert res.status_code == 200, res.text
    after = res.json()
    assert MISSED_NAME not in after["output"] and "Zephyrine" not in after["output"]
    assert any(s["state"] == "added" and (s["start"], s["end"]) == (START, END) for s in after["spans"])
    assert after["revision"] == before["revision"] + 1
    # the same key: a second note with the same name, fixed the same way, gets the same surrogate
    other = _flagged(api, "rev-add-2")
    again = _add(api, other).json()
    assert again["output"] == after["output"]


def test_removing_a_span_puts_its_text_back_and_accepting_changes_nothing(api):
    note = _flagged(api, "rev-remove")
    added = _add(api, note).json()
    acc = api.client.post(
        f"/v1/review/notes/{note}/spans", json={"action": "accept", "start": START, "end": END}, headers=api.auth("north")
    ).json()
    assert acc["output"] == added["output"]
    assert [s["state"] for s in acc["spans"] if s["start"] == START] == ["accepted"]
    removed = api.client.post(
        f"/v1/review/notes/{note}/spans", json={"action": "remove", "start": START, "end": END}, headers=api.auth("north")
    ).json()
    assert MISSED_NAME in removed["output"]
    assert all(s["start"] != START for s in removed["spans"])


def test_every_action_is_audited_without_the_original_text(api):
    from fleet.models import AuditEntry, Batch, Item

    note = _flagged(api, "rev-audit")
    _add(api, note)
    assert api.client.post(f"/v1/review/notes/{note}/close", headers=api.auth("north")).status_code == 200
    with api.served.services.sessions() as s:
        batch_id = s.get(Item, note).batch_id
        rows = list(s.scalars(select(AuditEntry).where(AuditEntry.batch_id == batch_id, AuditEntry.stage == "review").order_by(AuditEntry.id)))
        key_id = s.get(Batch, batch_id).key_id
    assert [r.component for r in rows] == ["north/alice", "north/alice"]
    assert f"add PATIENT {START}-{END}" in rows[0].detail and "closed" in rows[1].detail
    assert all(r.key_id == key_id for r in rows)
    for r in rows:
        assert "Zephyrine" not in r.detail and "Moultrap" not in r.detail


def test_closing_releases_the_output_and_leaves_the_queue(api):
    note = _flagged(api, "rev-close")
    fixed = _add(api, note).json()["output"]
    assert api.client.post(f"/v1/review/notes/{note}/close", headers=api.auth("north")).status_code == 200
    shown = api.client.get(f"/v1/notes/{note}", headers=api.auth("north")).json()
    assert (shown["state"], shown["review"], shown["text"]) == ("done", "closed", fixed)
    queue = api.client.get("/v1/review/queue", headers=api.auth("north")).json()["notes"]
    assert note not in [e["note"] for e in queue]
    res = _add(api, note, 0, 5)
    assert res.status_code == 409 and "closed" in res.json()["detail"]


def test_bad_review_actions_are_rejected_with_why(api):
    note = _flagged(api, "rev-bad")
    res = _add(api, note, 10, 10_000)
    assert res.status_code == 422 and "outside the text" in res.json()["detail"]
    res = api.client.post(
        f"/v1/review/notes/{note}/spans", json={"action": "remove", "start": 0, "end": 3}, headers=api.auth("north")
    )
    assert res.status_code == 422 and "no span at 0-3" in res.json()["detail"]
    assert _add(api, note, tenant="south").status_code == 404


def test_cookie_authenticated_actions_must_send_json(api):
    note = _flagged(api, "rev-csrf")
    from fastapi.testclient import TestClient

    with TestClient(api.served.app, cookies={"deid_session": api.tokens["north"]}) as browser:
        res = browser.post(f"/v1/review/notes/{note}/close", content=b"x", headers={"Content-Type": "text/plain"})
        assert res.status_code == 403
        assert browser.get("/v1/review/queue").status_code == 200
        assert browser.post(f"/v1/review/notes/{note}/close", json={}).status_code == 200
