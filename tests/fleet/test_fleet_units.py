"""Fast checks of the fleet's parts that need no broker and no database server."""

from __future__ import annotations

from deid_core.notes import ClinicalNote
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deid_core.keys import StudyKey
from deid_core.spans import Category, Span
from fleet.keystore import DirectoryKeyStore, KeyStoreError, SingleKeyStore, load_checked
from fleet.pipeline import PipelineConfig
from fleet.settings import FleetConfigError, load_fleet_settings
from fleet.verifier import ResidualPatternVerifier
from deid_core.detection import OutOfMemory, is_out_of_memory, run_isolated, token_batches

REPO = Path(__file__).resolve().parents[2]


# -- token batches and the out-of-memory path


@given(st.lists(st.integers(min_value=1, max_value=500), max_size=60), st.integers(min_value=1, max_value=800))
def test_token_batches_keep_order_and_budget(sizes, budget):
    groups = token_batches(sizes, budget)
    assert [i for g in groups for i in g] == list(range(len(sizes)))
    for g in groups:
        assert len(g) == 1 or sum(sizes[i] for i in g) <= budget


class _Oom(RuntimeError):
    pass


class CUDAOutOfMemoryError(RuntimeError):
    pass


class _FakeDetector:
    name, version = "fake", "1"

    def __init__(self, max_notes: int, broken: str | None = None) -> None:
        self.max_notes, self.broken, self.calls = max_notes, broken, []

    def detect_batch(self, notes):
        self.calls.append(len(notes))
        if len(notes) > self.max_notes:
            raise CUDAOutOfMemoryError("CUDA out of memory")
        if any(n.id == self.broken for n in notes):
            raise ValueError("cannot read this note")
        return [[Span(0, 2, Category.ID, source="fake")] for _ in notes]


def _notes(n: int) -> list[ClinicalNote]:
    return [ClinicalNote(f"n{i}", f"{i:02d} text") for i in range(n)]


def test_out_of_memory_batch_is_halved_until_it_fits():
    det = _FakeDetector(max_notes=2)
    out = run_isolated(det.name, det.detect_batch, _notes(8))
    assert all(isinstance(r, list) and r[0].category is Category.ID for r in out.results)
    assert det.calls[0] == 8 and max(c for c in det.calls if c <= 2) == 2
    assert out.oom_splits == 3  # 8 -> 4+4 -> 2+2+2+2


def test_single_note_out_of_memory_fails_that_note_only():
    det = _FakeDetector(max_notes=0)
    out = run_isolated(det.name, det.detect_batch, _notes(3))
    assert all(isinstance(r, OutOfMemory) for r in out.results)


def test_a_broken_note_fails_alone():
    det = _FakeDetector(max_notes=10, broken="n2")
    out = run_isolated(det.name, det.detect_batch, _notes(4))
    assert isinstance(out.results[2], ValueError)
    assert all(isinstance(out.results[i], list) for i in (0, 1, 3))


def test_out_of_memory_is_recognised_by_name_or_message():
    assert is_out_of_memory(CUDAOutOfMemoryError("x"))
    assert is_out_of_memory(RuntimeError("CUDA error: out of memory"))
    assert is_out_of_memory(MemoryError())
    assert not is_out_of_memory(ValueError("bad span"))


# -- Celery settings and worker command lines


def test_every_task_routes_to_its_queue_with_late_acks():
    import celeryconfig

    routes = {t: r["queue"] for t, r in celeryconfig.task_routes.items()}
    assert routes["deid.recognize.encoder"].endswith("gpu.encoder")
    assert routes["deid.recognize.generative"].endswith("gpu.generative")
    assert routes["deid.recognize.rules"].endswith("cpu.rules")
    assert routes["deid.resolve"].endswith("cpu.qc")
    assert routes["deid.verify"].endswith("cpu.verify")
    assert routes["deid.anonymize"].endswith("cpu.anonymize")
    assert {q.name for q in celeryconfig.task_queues} == {celeryconfig.queue_name(q) for q in celeryconfig.ALL_QUEUES}
    assert celeryconfig.task_acks_late and celeryconfig.task_reject_on_worker_lost
    assert celeryconfig.worker_prefetch_multiplier == 1
    assert celeryconfig.broker_transport_options["visibility_timeout"] > celeryconfig.task_time_limit


def test_visibility_timeout_below_task_limit_is_refused():
    env = dict(os.environ, DEID_TASK_TIME_LIMIT="100", DEID_VISIBILITY_TIMEOUT="50", PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-c", "import celeryconfig"], cwd=REPO, env=env, capture_output=True, text=True)
    assert proc.returncode != 0 and "must exceed the task time limit" in proc.stderr


def test_gpu_workers_get_a_fork_free_pool():
    from fleet.worker_plan import worker_plan

    solo = worker_plan("gpu", prefix="p.")
    assert solo.role == "gpu" and "solo" in solo.argv
    assert "p.gpu.encoder,p.gpu.generative" in solo.argv
    threads = worker_plan("gpu", concurrency=2)
    assert threads.argv[threads.argv.index("--pool") + 1] == "threads"


def test_cpu_workers_autoscale_and_recycle_children():
    from fleet.worker_plan import worker_plan

    plan = worker_plan("cpu", autoscale="4,1", max_memory_per_child=500000)
    argv = list(plan.argv)
    assert argv[argv.index("--pool") + 1] == "prefork"
    assert argv[argv.index("--autoscale") + 1] == "4,1"
    assert argv[argv.index("--max-memory-per-child") + 1] == "500000"
    assert argv[argv.index("-Q") + 1] == "cpu.rules,cpu.qc,cpu.verify,cpu.anonymize"


@pytest.mark.parametrize(
    "queues, kwargs",
    [("gpu.encoder,cpu.rules", {}), ("gpu", {"autoscale": "2,1"}), ("cpu", {"autoscale": "1,3"}), ("nope", {})],
)
def test_bad_worker_requests_are_refused(queues, kwargs):
    from fleet.worker_plan import WorkerArgsError, worker_plan

    with pytest.raises(WorkerArgsError):
        worker_plan(queues, **kwargs)


@pytest.mark.parametrize("payload", [["some note text"], [1, "Dr. Smith"], "1,2", [True]])
def test_messages_that_are_not_ids_are_refused(payload):
    from tasks.pipeline import MessageError, check_message

    with pytest.raises(MessageError):
        check_message("ab12", payload)
    assert check_message("ab12", [1, 2]) == ("ab12", [1, 2])


def test_gpu_stage_falls_back_to_cpu_queue_when_unserved():
    from tasks.pipeline import CeleryDispatcher

    d = CeleryDispatcher(prefix="x.", fallback="auto")
    d._served = (float("inf"), frozenset({"x.cpu.rules"}))
    assert d.queue_for("recognize:encoder") == "x.cpu.rules"
    d._served = (float("inf"), frozenset({"x.gpu.encoder"}))
    assert d.queue_for("recognize:encoder") == "x.gpu.encoder"
    assert CeleryDispatcher(prefix="x.", fallback="never").queue_for("recognize:generative") == "x.gpu.generative"
    assert d.queue_for("anonymize") == "x.cpu.anonymize"


# -- keys, settings, pipeline configuration, verifier


def test_key_store_loads_by_study_and_refuses_a_swapped_key(tmp_path):
    store = DirectoryKeyStore(tmp_path)
    key = store.create("study-a")
    assert DirectoryKeyStore(tmp_path).load("study-a").key_id == key.key_id
    assert load_checked(store, "study-a", key.key_id).key_id == key.key_id
    with pytest.raises(KeyStoreError, match="submitted under"):
        load_checked(store, "study-a", "study-a:0000000000000000")
    with pytest.raises(KeyStoreError):
        store.load("../etc")
    with pytest.raises(KeyStoreError):
        store.load("missing")
    with pytest.raises(KeyStoreError):
        SingleKeyStore(key).load("study-b")


def test_environment_overrides_the_fleet_file(tmp_path):
    cfg = tmp_path / "fleet.toml"
    cfg.write_text('[fleet]\nchunk_size = 3\nkey_dir = "k"\nqueue_prefix = "a."\n', encoding="utf-8")
    s = load_fleet_settings(cfg, env={"DEID_QUEUE_PREFIX": "b."})
    assert s.chunk_size == 3 and s.queue_prefix == "b." and s.key_dir == tmp_path / "k"
    cfg.write_text('[fleet]\nrecognizers = ["rules", "oracle"]\n', encoding="utf-8")
    with pytest.raises(FleetConfigError, match="oracle"):
        load_fleet_settings(cfg, env={})
    cfg.write_text("[fleat]\n", encoding="utf-8")
    with pytest.raises(FleetConfigError, match="fleat"):
        load_fleet_settings(cfg, env={})


def test_pipeline_version_follows_the_configuration(tmp_path):
    a = PipelineConfig.load(None, ("rules",), 0.5)
    assert PipelineConfig.from_body(a.body).digest == a.digest
    b = PipelineConfig.load(None, ("rules", "encoder"), 0.5)
    conf = tmp_path / "c.toml"
    conf.write_text('[anonymizer.strategies]\nDOCTOR = "mask"\n', encoding="utf-8")
    c = PipelineConfig.load(conf, ("rules",), 0.5)
    assert len({a.version, b.version, c.version}) == 3
    assert b.stages == ("recognize:rules", "recognize:encoder", "resolve", "verify", "anonymize")
    assert b.uses_gpu and not a.uses_gpu


def test_verifier_scores_uncovered_identifiers_higher():
    v = ResidualPatternVerifier()
    text = "Mail jo@example.org or call 503-555-0100."
    start = text.index("jo@")
    email = Span(start, start + len("jo@example.org"), Category.WEB)
    phone_start = text.index("503")
    phone = Span(phone_start, phone_start + 12, Category.PHONE)
    assert v.score(text, [email, phone]) == 0.0
    assert 0.0 < v.score(text, [email]) < v.score(text, [])


def test_fault_oom_detector_fails_big_batches_like_cuda():
    from fleet.faults import InjectedOutOfMemoryError, OomDetector

    det = OomDetector(max_notes=1)
    with pytest.raises(InjectedOutOfMemoryError):
        det.detect_batch(_notes(2))
    assert is_out_of_memory(InjectedOutOfMemoryError("x"))



# -- command lines and deployment files


def _parser():
    import argparse
    import importlib

    parser = argparse.ArgumentParser(prog="deid")
    sub = parser.add_subparsers(required=True)
    for name in ("submit", "status", "export", "worker", "flower", "run", "migrate", "bench_fleet", "crash_trials"):
        importlib.import_module(f"fleet.cli.{name}").register(sub)
    return parser


def test_worker_and_flower_commands_wrap_celery(capsys, monkeypatch):
    monkeypatch.setenv("DEID_BROKER_URL", "redis://127.0.0.1:6379/5")
    parser = _parser()
    args = parser.parse_args(["worker", "--queues", "gpu", "--queue-prefix", "q.", "--dry-run"])
    assert args.func(args) == 0
    line = capsys.readouterr().out
    assert "celery -A tasks.app worker" in line and "q.gpu.encoder,q.gpu.generative" in line and "solo" in line
    args = parser.parse_args(["flower", "--port", "5601", "--dry-run"])
    assert args.func(args) == 0
    line = capsys.readouterr().out
    assert "flower" in line and "--port=5601" in line and "redis://127.0.0.1:6379/5" in line
    args = parser.parse_args(["worker", "--queues", "gpu.encoder,cpu.qc", "--dry-run"])
    assert args.func(args) == 2


def test_compose_file_runs_migrations_before_workers_and_gives_gpus():
    import tomllib

    yaml = pytest.importorskip("yaml")

    from fleet.settings import FleetSettings

    compose = yaml.safe_load((REPO / "docker" / "compose.yaml").read_text())
    services = compose["services"]
    assert {"redis", "postgres", "migrate", "flower", "vllm", "worker-gpu", "worker-cpu"} <= set(services)
    for name in ("worker-gpu", "worker-cpu", "flower"):
        assert services[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    for name in ("worker-gpu", "vllm"):
        (device,) = services[name]["deploy"]["resources"]["reservations"]["devices"]
        assert device["capabilities"] == ["gpu"]
    assert services["worker-gpu"]["command"][:3] == ["worker", "--queues", "gpu"]
    assert "--autoscale" in services["worker-cpu"]["command"]
    for name, svc in services.items():
        build = svc.get("build")
        if build:
            assert (REPO / "docker" / build["context"] / build["dockerfile"]).is_file(), name
    fleet = tomllib.loads((REPO / "docker" / "fleet.toml").read_text())["fleet"]
    assert FleetSettings.model_validate(fleet).recognizers == ("rules", "encoder", "generative")


def test_text_batch_recognizers_get_texts_and_generative_slot_fails_loudly():
    from deid_core.detection import as_batch_detector
    from deid_core.recognizers.mix import build_mix

    class TextsOnly:
        def analyze_batch(self, texts):
            assert all(isinstance(t, str) for t in texts)
            return [[Span(0, 1, Category.AGE)] for _ in texts]

    det = as_batch_detector(TextsOnly(), "enc", texts=True)
    assert [s[0].category for s in det.detect_batch(_notes(3))] == [Category.AGE] * 3
    mix = build_mix(kinds=("rules", "generative"), eager=False)  # a worker builds its mix lazily
    failed = mix.members["generative"].batch(_notes(2))
    assert all(isinstance(f, Exception) and "generative" in str(f) for f in failed)


def test_encoder_without_a_model_fails_every_note_instead_of_passing_it(tmp_path, monkeypatch):
    from fleet.embedded import run_embedded

    monkeypatch.setenv("DEID_ENCODER_DIR", str(tmp_path / "no-model-here"))
    src = tmp_path / "in.jsonl"
    src.write_text('{"id": "a", "patient_id": "P", "text": "Dr. Okafor saw her."}\n', encoding="utf-8")
    key = StudyKey.generate("enc")
    result = run_embedded(src, tmp_path / "out.jsonl", key, PipelineConfig.load(None, ("encoder",), 0.5))
    assert (result.status.done, result.status.failed) == (0, 1)
    (failure,) = result.failures
    assert failure.error_class == "RecognizerError"
    assert not (tmp_path / "out.jsonl").exists()  # no record succeeded: no output file is written
