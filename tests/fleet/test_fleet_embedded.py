"""The embedded default: the fleet's stages in one process on SQLite."""

from __future__ import annotations

from deid_core.notes import ClinicalNote
import argparse
import json
from pathlib import Path

import pytest
from sqlalchemy import func, select

from deid_core.anonymizer.engine import Anonymizer, Note
from deid_core.keys import StudyKey
from deid_core.recognizers.pipeline import build_default_pipeline
from deid_core.resolution import merge_adjacent, resolve
from deid_core.synth import generate_notes
from fleet.db import make_engine, session_factory
from fleet.embedded import InlineDispatcher, run_embedded
from fleet.keystore import SingleKeyStore
from fleet.models import AuditEntry, Base, Item, ItemStatus, Output
from fleet.pipeline import PipelineConfig
from fleet.producer import FleetClient, IncomingNote
from fleet.stages import REDELIVERY_LIMIT, StageContext, execute_stage


RULES = PipelineConfig.load(None, ("rules",), 0.5)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "notes.jsonl"
    notes = generate_notes(10, seed=5)
    lines = [json.dumps({"id": n.id, "patient_id": n.patient_id, "text": n.text}) for n in notes]
    lines.insert(3, "{not json")
    lines.insert(6, json.dumps({"id": "no-text", "patient_id": "P1"}))
    lines.append(json.dumps({"id": "dated", "text": "Seen on 03/04/2019 in clinic."}))  # dates, no patient id
    lines.append(lines[0])  # the same id twice
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def key() -> StudyKey:
    return StudyKey.generate("embedded")


def _read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_embedded_run_equals_the_pure_stages(corpus, key, tmp_path):
    out = tmp_path / "out.jsonl"
    result = run_embedded(corpus, out, key, RULES, chunk_size=100)
    good = [json.loads(line) for line in corpus.read_text().splitlines() if line.startswith('{"id": "s5')][:10]
    spans = build_default_pipeline().analyze_batch([ClinicalNote(r["id"], r["text"], r["patient_id"]) for r in good])
    anonymizer = Anonymizer(key, RULES.settings.anonymizer)
    expected = {
        r["id"]: anonymizer.anonymize(Note(r["id"], r["text"], r["patient_id"], tuple(merge_adjacent(resolve(s), r["text"])))).text
        for r, s in zip(good, spans)
    }
    got = {r["id"]: r["text"] for r in _read(out)}
    assert got == expected
    assert sum(r["text"] != got[r["id"]] for r in good) >= 5
    assert result.status.done == 10


def test_malformed_records_fail_alone_with_their_error(corpus, key, tmp_path):
    errors = tmp_path / "errors.jsonl"
    result = run_embedded(corpus, tmp_path / "out.jsonl", key, RULES, errors=errors)
    st = result.status
    assert (st.submitted, st.done, st.failed, st.pending) == (14, 10, 4, 0)
    assert st.submitted == st.done + st.failed
    why = {(e["line"], e["error_class"]) for e in _read(errors)}
    assert why == {(4, "MalformedRecord"), (7, "MalformedRecord"), (13, "AnonymizationError"), (14, "DuplicateRecord")}
    assert all(e["error"] for e in _read(errors))


def test_rerun_on_a_state_file_skips_every_done_stage(corpus, key, tmp_path):
    state = tmp_path / "state.sqlite"
    first = run_embedded(corpus, tmp_path / "a.jsonl", key, RULES, state=state)
    second = run_embedded(corpus, tmp_path / "b.jsonl", key, RULES, state=state)
    assert (tmp_path / "a.jsonl").read_text() == (tmp_path / "b.jsonl").read_text()
    engine = make_engine(f"sqlite:///{state}")
    with session_factory(engine)() as s:
        assert s.scalar(select(func.count()).select_from(Output)) == 10  # one output per note, not per run
        done, skipped, failed = s.execute(
            select(func.sum(AuditEntry.done), func.sum(AuditEntry.skipped), func.sum(AuditEntry.failed)).where(
                AuditEntry.batch_id == second.batch_id
            )
        ).one()
        # nothing recomputed; the dated note's 3 good stages are skipped and its failure is retried, not cached
        assert (done, skipped, failed) == (0, 4 * 10 + 3, 1)
        first_done = s.scalar(select(func.sum(AuditEntry.done)).where(AuditEntry.batch_id == first.batch_id))
        assert first_done == 4 * 10 + 3  # the dated note passes 3 stages and fails the 4th
    engine.dispose()


def test_same_key_same_release_new_key_unlinkable(corpus, key, tmp_path):
    run_embedded(corpus, tmp_path / "a.jsonl", key, RULES)
    run_embedded(corpus, tmp_path / "b.jsonl", key, RULES, chunk_size=3)
    run_embedded(corpus, tmp_path / "c.jsonl", StudyKey.generate("embedded"), RULES)
    a, b, c = (_read(tmp_path / f"{n}.jsonl") for n in "abc")
    assert [r["text"] for r in a] == [r["text"] for r in b]
    assert all(x["text"] != y["text"] for x, y in zip(a, c) if x["spans"])
    assert len({r["key_id"] for r in a + c}) == 2


class _Crash(BaseException):
    """Stands in for a worker dying mid-stage: nothing after it runs."""


def test_redelivered_chunk_splits_and_a_poison_note_fails_after_the_cap(key):
    engine = make_engine("sqlite://")
    Base.metadata.create_all(engine)
    sessions = session_factory(engine)
    store = SingleKeyStore(key)
    inline = InlineDispatcher()
    client = FleetClient(sessions, store, inline, chunk_size=4)
    texts = ["Call 503-555-0100.", "POISON", "MRN 40718823.", "Fine."]
    sub = client.submit([IncomingNote(i + 1, f"n{i}", t, "P1") for i, t in enumerate(texts)], key.study, RULES)
    stage, batch_id, ids = inline.queue.popleft()

    class Detector:
        name, version = "crashy", "1"

        def detect_batch(self, notes):
            if any(n.text == "POISON" for n in notes):
                raise _Crash()
            return [[] for _ in notes]

    ctx = StageContext(sessions, store, max_deliveries=4, detector_loader=lambda *a, **k: Detector())
    with pytest.raises(_Crash):
        execute_stage(ctx, stage, batch_id, ids)  # first delivery dies with the whole chunk
    again = execute_stage(ctx, stage, batch_id, ids)  # the redelivery isolates each note
    assert again.resend == [[i] for i in ids] and again.done == 0
    poison = ids[1]
    for single in again.resend:
        if single != [poison]:
            res = execute_stage(ctx, stage, batch_id, single)
            assert res.done == 1 and res.forward == single
            inline.send(res.next_stage, batch_id, res.forward)
    for _ in range(2):  # deliveries 3 and 4 of the four allowed
        with pytest.raises(_Crash):
            execute_stage(ctx, stage, batch_id, [poison])
    final = execute_stage(ctx, stage, batch_id, [poison])
    assert final.failed == 1
    with sessions() as s:
        item = s.get(Item, poison)
        assert item.status == ItemStatus.FAILED and item.error_class == REDELIVERY_LIMIT
    inline.drain(ctx)
    st = client.status(sub.batch_id)
    assert (st.done, st.failed, st.pending) == (3, 1, 0)
    engine.dispose()


def test_deid_run_command_writes_output_and_reports_failures(corpus, tmp_path, capsys):
    from fleet.cli import run as run_cli

    key_file = tmp_path / "k.key.json"
    StudyKey.generate("cli").write(key_file)
    parser = argparse.ArgumentParser()
    run_cli.register(parser.add_subparsers())
    out = tmp_path / "out.jsonl"
    args = parser.parse_args(["run", "--in", str(corpus), "--out", str(out), "--key-file", str(key_file)])
    assert args.func(args) == 1  # some records failed
    captured = capsys.readouterr()
    assert "wrote 10 de-identified notes" in captured.out
    assert "line 4" in captured.err and "MalformedRecord" in captured.err
    assert len(_read(out)) == 10


def test_bench_fleet_reads_the_end_of_a_batch_from_the_store_not_from_its_poll(tmp_path):
    from fleet.bench import _seconds_to_last_update
    from fleet.models import utcnow

    notes = generate_notes(6, seed=5)
    corpus = tmp_path / "notes.jsonl"
    corpus.write_text("".join(json.dumps({"id": n.id, "patient_id": n.patient_id, "text": n.text}) + "\n" for n in notes))
    key = StudyKey.generate("bench")
    state = tmp_path / "state.sqlite"
    before = utcnow()
    result = run_embedded(corpus, tmp_path / "out.jsonl", key, RULES, state=state)
    after = utcnow()
    client = FleetClient(session_factory(make_engine(f"sqlite:///{state}")), SingleKeyStore(key), InlineDispatcher())
    seconds = _seconds_to_last_update(client, result.batch_id, before)
    # The last item was done inside the run: after it began, and no later than it ended.
    assert 0 < seconds <= (after - before).total_seconds()
