"""A canary note through every endpoint and error path: nothing of it reaches a log.

Bad ids and texts (lone surrogates, NUL, non-characters) are refused with
422 naming their record; an unexpected error is a bare 500 whose log line
names the exception's class only; and in the pipeline a NUL note fails
alone, with a message that quotes no SQL.
"""

from __future__ import annotations

import json
import logging

import pytest
from sqlalchemy import text

from fleet.producer import IncomingNote

from tests.api.conftest import NORTH, drop_api_env, make_api_env

CANARY_NAME = "Zebulon Quistwright"
CANARY_MRN = "99887766"
CANARY_PATIENT = "PT-CANARY-5521"
CANARY_TEXT = f"CANARY Patient {CANARY_NAME} MRN {CANARY_MRN} seen 03/14/2021 at Mercy General Hospital."
#: The rules miss this name, so the verifier flags the note and it goes to review.
FLAGGED_CANARY = f"Wound check ok. {CANARY_NAME} says pain 3/10. Codes 739184 and 839201."
NAME_AT = FLAGGED_CANARY.index(CANARY_NAME)
CANARY_PIECES = (CANARY_NAME, "Zebulon", "Quistwright", CANARY_MRN, CANARY_PATIENT, "CANARY")


@pytest.fixture(scope="module")
def env(pg_url, tmp_path_factory):
    api = make_api_env(pg_url, tmp_path_factory.mktemp("logs"), max_notes=20, max_note_chars=5000)
    try:
        yield api
    finally:
        drop_api_env(api)


def _note(rid: str, text: str = CANARY_TEXT, patient: str | None = CANARY_PATIENT) -> dict:
    return {"id": rid, "patient_id": patient, "text": text}


def _post_raw(env, body: str, tenant: str | None = "north"):
    headers = {"Content-Type": "application/json", **(env.auth(tenant) if tenant else {})}
    return env.client.post("/v1/notes", content=body.encode("utf-8", "surrogatepass"), headers=headers)


def _assert_clean(logs: str) -> None:
    for piece in CANARY_PIECES:
        assert piece not in logs, f"{piece!r} reached a log"
    for sql in ("INSERT INTO", "SELECT ", "UPDATE "):
        assert sql not in logs


@pytest.mark.parametrize(
    "field,escaped,kind",
    [
        ("id", "canary-\\ud800", "lone surrogate"),
        ("id", "canary-\\u0000", "NUL"),
        ("text", f"{CANARY_TEXT} \\u0000", "NUL"),
        ("text", f"{CANARY_TEXT} \\udfff", "lone surrogate"),
        ("patient_id", "P\\ufffe", "non-character"),
    ],
)
def test_unusable_characters_are_422_naming_the_record(env, caplog, field, escaped, kind):
    caplog.set_level(logging.DEBUG)
    good = _note("fine-1")
    bad = _note("bad-1")
    bad_json = json.dumps(bad)
    bad_json = bad_json.replace(json.dumps(bad[field]), f'"{escaped}"', 1)
    res = _post_raw(env, f'{{"study": "{NORTH}", "notes": [{json.dumps(good)}, {bad_json}]}}')
    assert res.status_code == 422, res.text
    problem = res.json()["errors"][0]
    assert problem["record"] == 1 and problem["field"] == f"notes.1.{field}"
    assert kind in problem["message"]
    assert CANARY_NAME not in res.text
    _assert_clean(caplog.text)


def test_a_canary_through_every_endpoint_and_error_path_leaves_no_trace_in_any_log(env, caplog):
    caplog.set_level(logging.DEBUG)
    c, north = env.client, env.auth("north")
    # intake: good, and each way a request can be refused
    ok = c.post("/v1/notes", json={"study": NORTH, "notes": [_note("canary-1"), _note("canary-2", FLAGGED_CANARY)]}, headers=north)
    assert ok.status_code == 202, ok.text
    env.wait()
    refused = [
        c.post("/v1/notes", json={"study": NORTH, "notes": [_note("canary-1")]}),  # no token: 401
        c.post("/v1/notes", json={"study": "nobody", "notes": [_note("x")]}, headers=north),  # 404
        c.post("/v1/notes", json={"study": NORTH, "notes": [_note("d"), _note("d")]}, headers=north),  # duplicate: 422
        c.post("/v1/notes", json={"study": NORTH, "notes": [_note("big", CANARY_TEXT * 200)]}, headers=north),  # 413
        c.post("/v1/notes", json={"study": NORTH, "notes": [{**_note("extra"), "ssn": CANARY_MRN}]}, headers=north),  # 422
        _post_raw(env, f'{{"study": "{NORTH}", "notes": [{{"id": "{CANARY_NAME}", "text": "{CANARY_TEXT}"'),  # not JSON
        c.get("/v1/batches/feedfacefeedface", headers=north),  # 404
        c.get("/v1/batches/canary%00x", headers=north),  # 422
        c.get("/v1/notes/0", headers=north),  # 422
    ]
    assert [r.status_code for r in refused] == [401, 404, 422, 413, 422, 422, 404, 422, 422]
    # reading: batch, notes, export, review queue, review note and page, an action, close
    batch = ok.json()["batch"]
    notes = [n["note"] for n in ok.json()["notes"]]
    assert c.get(f"/v1/batches/{batch}", headers=north).status_code == 200
    for n in notes:
        assert c.get(f"/v1/notes/{n}", headers=north).status_code == 200
    assert c.get(f"/v1/batches/{batch}/export", headers=north).status_code == 200
    assert c.get("/v1/review/queue", headers=north).status_code == 200
    assert c.post("/review/login", data={"token": env.tokens["north"]}, follow_redirects=False).status_code == 303
    assert c.get("/review").status_code == 200
    flagged = notes[1]
    assert [e["note"] for e in c.get("/v1/review/queue", headers=north).json()["notes"]] == [flagged]
    assert c.get(f"/v1/review/notes/{flagged}", headers=north).status_code == 200
    assert c.get(f"/review/notes/{flagged}").status_code == 200
    assert c.get(f"/v1/review/notes/{notes[0]}", headers=north).status_code == 404
    span = {"action": "add", "start": NAME_AT, "end": NAME_AT + len(CANARY_NAME), "category": "PATIENT"}
    assert c.post(f"/v1/review/notes/{flagged}/spans", json=span, headers=north).status_code == 200
    assert c.post(f"/v1/review/notes/{flagged}/spans", json={**span, "end": 1}, headers=north).status_code == 422
    assert c.post(f"/v1/review/notes/{flagged}/close", headers=north).status_code == 200
    assert c.post(f"/v1/review/notes/{flagged}/close", headers=north).status_code == 409
    assert c.post("/review/login", data={"token": CANARY_NAME}).status_code == 401
    # a 500: the store loses a table under the running server
    with env.served.services.sessions.begin() as s:
        s.execute(text("ALTER TABLE notes RENAME TO notes_gone"))
    try:
        broken = c.post("/v1/notes", json={"study": NORTH, "notes": [_note("canary-500")]}, headers=north)
    finally:
        with env.served.services.sessions.begin() as s:
            s.execute(text("ALTER TABLE notes_gone RENAME TO notes"))
    assert broken.status_code == 500
    assert "ProgrammingError" in caplog.text  # the class is logged: the operator knows where to look
    _assert_clean(caplog.text)
    _assert_clean(broken.text)


def test_a_nul_note_and_a_surrogate_id_fail_alone_in_the_pipeline_without_sql_text(env):
    client = env.served.services.client
    notes = [IncomingNote(i + 1, f"n{i}", CANARY_TEXT, CANARY_PATIENT) for i in range(5)]
    notes[2] = IncomingNote(3, "n2", CANARY_TEXT + "\x00", CANARY_PATIENT)
    notes[4] = IncomingNote(5, "n4\ud800", CANARY_TEXT, CANARY_PATIENT)
    result = client.submit(notes, NORTH, env.served.services.pipeline)
    env.wait()
    status = client.status(result.batch_id)
    assert (status.done, status.failed, status.pending) == (3, 2, 0)
    nul, surrogate = client.failures(result.batch_id)
    assert (nul.record_id, nul.error_class) == ("n2", "MalformedRecord")
    assert "text holds NUL" in nul.error
    assert (surrogate.record_id, surrogate.error_class) == ("n4\ufffd", "MalformedRecord")
    assert "id holds a lone surrogate" in surrogate.error
    for f in (nul, surrogate):
        assert "INSERT" not in f.error and "SELECT" not in f.error


def test_a_logged_exception_keeps_its_class_and_loses_its_text_and_traceback(caplog):
    from fleet.logsafe import withhold_exception_details

    withhold_exception_details()
    caplog.set_level(logging.DEBUG)
    try:
        raise ValueError(f"could not parse {CANARY_TEXT}")
    except ValueError:
        logging.getLogger("some.library").exception("task raised: %r", CANARY_NAME)
    assert "task raised: %r [ValueError; details withheld]" in caplog.text
    assert "Traceback" not in caplog.text
    _assert_clean(caplog.text)
