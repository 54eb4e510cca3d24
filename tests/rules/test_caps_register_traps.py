"""Two false spans the blind upper-case ICU set (``eval/dev/set_u``) showed, pinned on its own notes.

They only appear with the whole note and its neighbours, as ``deid detect`` runs them.
"""

from __future__ import annotations

import json
from pathlib import Path

from deid_core.cli.main import main

SET_U = Path(__file__).resolve().parents[2] / "eval" / "dev" / "set_u.jsonl"


def _detected(tmp_path, ids):
    notes = [json.loads(line) for line in SET_U.read_text().splitlines()]
    src = tmp_path / "notes.jsonl"
    src.write_text("".join(json.dumps({k: n[k] for k in ("id", "patient_id", "text")}) + "\n" for n in notes if n["patient_id"] in ids))
    out = tmp_path / "spans.jsonl"
    assert main(["detect", "--in", str(src), "--out", str(out)]) == 0
    texts = {n["id"]: n["text"] for n in notes}
    return {r["id"]: [texts[r["id"]][s["start"] : s["end"]] for s in r["spans"]] for r in map(json.loads, out.read_text().splitlines())}


def test_a_generic_service_after_that_is_no_facility_and_an_everyday_word_before_a_relation_is_no_name(tmp_path, monkeypatch):
    monkeypatch.setenv("DEID_DETECT_MIX", "rules")
    found = _detected(tmp_path, {"PU-01", "PU-03"})
    assert not any("REASSURED" in s or "CARDIAC REHAB" in s for s in found["U-004"])
    assert "OVERNIGHT" not in found["U-011"]
