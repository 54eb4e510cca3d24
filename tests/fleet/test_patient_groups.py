"""A patient's notes travel and resolve together, however a batch is cut into messages."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select

from deid_core.keys import StudyKey
from deid_core.notes import ClinicalNote
from deid_core.pipeline import Deidentifier
from deid_core.recognizers.mix import build_mix
from fleet.db import make_engine, session_factory
from fleet.embedded import InlineDispatcher
from fleet.grouping import item_chunks, token_chunks
from fleet.keystore import SingleKeyStore
from fleet.models import Base, Item
from fleet.pipeline import STAGE_RESOLVE, PipelineConfig, recognize_stage
from fleet.producer import FleetClient, IncomingNote
from fleet.stages import StageContext, execute_stage

RULES = PipelineConfig.load(None, ("rules",), 0.5)
HEADER = "Patient: Wilhelmina Oyelaran, seen today."
BARE = "Plan discussed, Oyelaran agrees."


@given(st.lists(st.one_of(st.none(), st.integers(0, 5)), max_size=40), st.integers(1, 10))
def test_chunks_never_split_a_patient_and_keep_every_item_once(groups, size):
    ids = list(range(100, 100 + len(groups)))
    chunks = item_chunks(ids, groups, size)
    assert sorted(i for c in chunks for i in c) == ids
    where = {i: n for n, c in enumerate(chunks) for i in c}
    for g in {g for g in groups if g is not None}:
        assert len({where[i] for i, gi in zip(ids, groups) if gi == g}) == 1
    for c in chunks:  # only a patient larger than the size makes a chunk larger
        assert len(c) <= size or len({groups[ids.index(i)] for i in c}) == 1


def test_token_budget_chunks_keep_patients_whole():
    chunks = token_chunks([1, 2, 3, 4], [0, 1, 0, 1], [500, 500, 500, 500], 8, 1000)
    assert sorted(map(sorted, chunks)) == [[1, 3], [2, 4]]


def _fleet(key: StudyKey, chunk_size: int):
    engine = make_engine("sqlite://")
    Base.metadata.create_all(engine)
    sessions = session_factory(engine)
    store = SingleKeyStore(key)
    inline = InlineDispatcher()
    return engine, sessions, FleetClient(sessions, store, inline, chunk_size=chunk_size), inline, StageContext(sessions, store)


def _spans(client: FleetClient, batch_id: str) -> dict[str, list[tuple[int, int, str]]]:
    return {r["id"]: sorted((s["start"], s["end"], s["label"]) for s in r["spans"]) for r in client.detected(batch_id)}


def _detect(notes: list[ClinicalNote]) -> dict[str, list[tuple[int, int, str]]]:
    found = Deidentifier(build_mix(kinds=("rules",))).detect(notes)
    return {n.id: sorted((s.start, s.end, s.category.value) for s in spans) for n, spans in zip(notes, found)}


def test_submission_sends_a_patients_notes_in_one_message():
    key = StudyKey.generate("groups")
    engine, _sessions, client, inline, _ctx = _fleet(key, chunk_size=1)
    notes = [("a", "P", HEADER), ("b", "Q", "Unrelated."), ("c", "P", BARE), ("d", None, "No patient.")]
    client.submit([IncomingNote(i + 1, n, t, p) for i, (n, p, t) in enumerate(notes)], key.study, RULES)
    sent = [ids for _stage, _batch, ids in inline.queue]
    assert sorted(map(len, sent)) == [1, 1, 2]
    engine.dispose()


def test_a_patient_split_across_messages_waits_and_resolves_together():
    """The resolve stage defers a patient's note until the patient's other notes reach it."""
    key = StudyKey.generate("groups")
    engine, sessions, client, inline, ctx = _fleet(key, chunk_size=8)
    notes = [ClinicalNote("a", HEADER, "P"), ClinicalNote("b", "Unrelated note.", "Q"), ClinicalNote("c", BARE, "P")]
    sub = client.submit([IncomingNote(i + 1, n.id, n.text, n.patient_id) for i, n in enumerate(notes)], key.study, RULES)
    inline.queue.clear()  # deliver one note per message, the later note of P first
    with sessions() as s:
        ids = {i.external_id: i.id for i in s.scalars(select(Item).where(Item.batch_id == sub.batch_id))}
    rules = recognize_stage("rules")
    execute_stage(ctx, rules, sub.batch_id, [ids["c"]])
    early = execute_stage(ctx, STAGE_RESOLVE, sub.batch_id, [ids["c"]])
    assert early.done == 0 and early.forward == []  # "a" is still being recognized: "c" waits
    execute_stage(ctx, rules, sub.batch_id, [ids["a"]])
    execute_stage(ctx, rules, sub.batch_id, [ids["b"]])
    late = execute_stage(ctx, STAGE_RESOLVE, sub.batch_id, [ids["a"]])
    assert sorted(late.forward) == sorted([ids["a"], ids["c"]]) and late.done == 2
    execute_stage(ctx, STAGE_RESOLVE, sub.batch_id, [ids["b"]])
    got = _spans(client, sub.batch_id)
    want = _detect(notes)
    assert got == want and got["c"]  # the bare surname is found through the patient's other note
    engine.dispose()


def test_notes_of_a_patient_in_a_later_batch_see_only_that_batch():
    """Propagation reaches across one batch: a later batch is resolved as `deid detect` resolves its file alone."""
    key = StudyKey.generate("groups")
    engine, _sessions, client, inline, ctx = _fleet(key, chunk_size=8)
    first = client.submit([IncomingNote(1, "a", HEADER, "P")], key.study, RULES)
    later = client.submit([IncomingNote(1, "c", BARE, "P")], key.study, RULES)
    inline.drain(ctx)
    assert _spans(client, first.batch_id) == _detect([ClinicalNote("a", HEADER, "P")])
    assert _spans(client, later.batch_id) == _detect([ClinicalNote("c", BARE, "P")]) == {"c": []}
    engine.dispose()


def test_spans_file_names_each_resolved_note_without_its_text(tmp_path):
    from fleet.embedded import run_embedded

    key = StudyKey.generate("groups")
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps({"id": i, "patient_id": "P", "text": t}) + "\n" for i, t in (("a", HEADER), ("c", BARE))))
    spans = tmp_path / "spans.jsonl"
    run_embedded(src, tmp_path / "out.jsonl", key, RULES, chunk_size=1, spans_out=spans)
    rows = [json.loads(line) for line in spans.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["a", "c"] and all(set(r) == {"id", "spans"} for r in rows)
    assert "Oyelaran" not in spans.read_text()
