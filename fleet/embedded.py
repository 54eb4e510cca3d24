"""The embedded default: every stage in this process, state in SQLite, no broker.

The stages and the store are the fleet's own (:func:`fleet.stages.execute_stage`
over the same schema); only the dispatcher differs: messages go to an
in-process queue that is drained until it is empty.  With an in-memory
store (the default) nothing of the notes is left on disk; with a state file
(notes sealed under the study key, as in the fleet) a re-run of the same
input skips every stage that already ran.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from deid_core.keys import StudyKey
from deid_core.known import KnownFile
from deid_core.records import atomic_writer, dump
from fleet.db import make_engine, migrate, session_factory
from fleet.keystore import SingleKeyStore
from fleet.pipeline import STAGE_DONE, PipelineConfig
from fleet.settings import DEFAULT_CHUNK_SIZE
from fleet.producer import BatchStatus, ExportResult, Failure, FleetClient
from fleet.settings import ModelSpec
from fleet.stages import StageContext, execute_stage


class InlineDispatcher:
    """A FIFO of (stage, batch, item ids), drained by :meth:`drain`."""

    def __init__(self) -> None:
        self.queue: deque[tuple[str, str, list[int]]] = deque()
        self.sent = 0

    def send(self, stage: str, batch_id: str, item_ids: list[int]) -> None:
        self.queue.append((stage, batch_id, list(item_ids)))
        self.sent += 1

    def drain(self, ctx: StageContext) -> int:
        executed = 0
        while self.queue:
            stage, batch_id, ids = self.queue.popleft()
            result = execute_stage(ctx, stage, batch_id, ids)
            executed += 1
            if result.forward and result.next_stage != STAGE_DONE:
                self.send(result.next_stage, batch_id, result.forward)
            for single in result.resend:
                self.send(stage, batch_id, single)
        return executed


@dataclass(frozen=True)
class EmbeddedResult:
    batch_id: str
    status: BatchStatus
    export: ExportResult
    seconds: float
    failures: tuple[Failure, ...] = ()


def sqlite_url(state: Path | str | None) -> str:
    return "sqlite://" if state is None else f"sqlite:///{Path(state)}"


def run_embedded(
    inp: Path | str,
    out: Path | str,
    key: StudyKey,
    config: PipelineConfig,
    *,
    state: Path | str | None = None,
    errors: Path | str | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    models: Mapping[str, ModelSpec] | None = None,
    known: KnownFile | None = None,
    spans_out: Path | str | None = None,
) -> EmbeddedResult:
    url = sqlite_url(state)
    if state is not None:
        Path(state).parent.mkdir(parents=True, exist_ok=True)
    engine = make_engine(url)
    try:
        migrate_engine(engine, url)
        sessions = session_factory(engine)
        dispatcher = InlineDispatcher()
        store = SingleKeyStore(key)
        client = FleetClient(sessions, store, dispatcher, chunk_size=chunk_size)
        ctx = StageContext(sessions, store, models=dict(models or {}), device="cpu", max_deliveries=4)
        started = time.perf_counter()
        submitted = client.submit_jsonl(inp, key.study, config, known=known)
        dispatcher.drain(ctx)
        seconds = time.perf_counter() - started
        exported = client.export(submitted.batch_id, out, errors)
        if spans_out is not None:
            with atomic_writer(spans_out) as fh:
                for record in client.detected(submitted.batch_id):
                    fh.write(dump(record) + "\n")
        status = client.status(submitted.batch_id)
        failures = tuple(client.failures(submitted.batch_id))
        return EmbeddedResult(submitted.batch_id, status, exported, seconds, failures)
    finally:
        engine.dispose()


def migrate_engine(engine, url: str) -> None:
    if url == "sqlite://":
        from fleet.models import Base

        Base.metadata.create_all(engine)  # an in-memory store lives on this engine's one connection
    else:
        migrate(url)
