"""The OpenAPI spec the app publishes, checked against the app itself with schemathesis.

A few generated requests per operation (valid and invalid) must each get a
status code, content type and body that the spec documents, and never a 5xx.
Responses for real batches and notes are checked against the spec too.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.generation.modes import GenerationMode

from tests.api.conftest import FLAGGED_TEXT, NORTH, PLAIN_TEXT


@pytest.fixture(scope="module")
def api_schema(api):
    return schemathesis.openapi.from_asgi("/openapi.json", api.served.app)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=str)
def test_api_conforms_to_its_openapi_spec(api, api_schema, mode):
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 8
    for operation in operations:

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None)
        def check(case) -> None:
            case.call_and_validate(headers=api.auth("north"))

        check()


def test_responses_for_real_resources_match_the_spec(api, api_schema):
    body = api.submit(
        "north",
        NORTH,
        [{"id": "spec-1", "patient_id": "p", "text": PLAIN_TEXT}, {"id": "spec-2", "patient_id": "q", "text": FLAGGED_TEXT}],
    )
    h = api.auth("north")
    flagged = body["notes"][1]["note"]
    checked = [
        ("/v1/batches/{batch_id}", "GET", api.client.get(f"/v1/batches/{body['batch']}", headers=h)),
        ("/v1/notes/{note}", "GET", api.client.get(f"/v1/notes/{body['notes'][0]['note']}", headers=h)),
        ("/v1/review/queue", "GET", api.client.get("/v1/review/queue", headers=h)),
        ("/v1/review/notes/{note}", "GET", api.client.get(f"/v1/review/notes/{flagged}", headers=h)),
    ]
    for path, method, res in checked:
        assert res.status_code == 200, (path, res.text)
        api_schema[path][method].validate_response(res)
    spec = api.client.get("/openapi.json").json()
    assert set(spec["paths"]) >= {"/v1/notes", "/v1/batches/{batch_id}", "/v1/notes/{note}", "/v1/batches/{batch_id}/export"}
    assert not any(p.startswith("/review") for p in spec["paths"])  # the HTML pages are not API
