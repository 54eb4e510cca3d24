"""One Celery task per stage, and the dispatcher that chains them.

A task's arguments are ``(batch_id, item_ids)`` and nothing else: the note
text, spans and keys are read from the state store and the key store by
the worker (claim-check).  After a stage, the task itself sends the items
that advanced to the next stage's queue, before its own message is acked;
if it dies in between, the redelivered message forwards them again and the
next stage skips what it already did.  Where the worker consumes the
next stage's queue itself (a CPU worker on ``cpu``), it runs that stage
at once instead (``chain_stages``, on by default).

GPU recognize tasks go to their GPU queue when some worker consumes it,
and to the CPU fallback queue otherwise (``gpu_fallback = "auto"``).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Sequence
from functools import lru_cache

from celery.exceptions import Retry, SoftTimeLimitExceeded

import celeryconfig
from fleet import faults
from fleet.db import make_engine, session_factory
from fleet.keystore import open_keystore
from fleet.pipeline import GPU_KINDS, STAGE_ANONYMIZE, STAGE_DONE, STAGE_RESOLVE, STAGE_VERIFY, recognize_stage, stage_kind
from fleet.settings import FleetSettings, load_fleet_settings
from fleet.stages import StageContext, StageError, execute_stage, fail_items
from tasks.app import app
from workers.models import device_for_role

log = logging.getLogger(__name__)

MAX_TASK_RETRIES = 5


class TransientStageError(RuntimeError):
    """A task-level failure (database, broker), named by class only so no data reaches a log."""


class MessageError(ValueError):
    """A message that is not ``(batch_id, [item ids])``."""


def check_message(batch_id: object, item_ids: object) -> tuple[str, list[int]]:
    """Refuse anything but the claim-check shape, so no payload can ride along."""
    if not isinstance(batch_id, str) or not batch_id.isalnum() or len(batch_id) > 32:
        raise MessageError("batch id must be a short alphanumeric string")
    if not isinstance(item_ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in item_ids):
        raise MessageError("item ids must be a list of integers")
    return batch_id, item_ids


@lru_cache(maxsize=1)
def _settings() -> FleetSettings:
    return load_fleet_settings()


_CONTEXT: dict[int, StageContext] = {}


def worker_context() -> StageContext:
    """One store connection pool and key store per process (created after the fork)."""
    pid = os.getpid()
    ctx = _CONTEXT.get(pid)
    if ctx is None:
        settings = _settings()
        engine = make_engine(settings.database_url, settings.database_schema)
        ctx = StageContext(
            sessions=session_factory(engine),
            keystore=open_keystore(settings.key_dir),
            models=dict(settings.models),
            device=device_for_role(),
            max_deliveries=settings.max_deliveries,
        )
        _CONTEXT.clear()
        _CONTEXT[pid] = ctx
    return ctx


#: Stage -> task name; the queue of each task is in ``celeryconfig.TASK_QUEUES``.
STAGE_TASK_NAMES = {
    recognize_stage("rules"): "deid.recognize.rules",
    recognize_stage("encoder"): "deid.recognize.encoder",
    recognize_stage("generative"): "deid.recognize.generative",
    STAGE_RESOLVE: "deid.resolve",
    STAGE_VERIFY: "deid.verify",
    STAGE_ANONYMIZE: "deid.anonymize",
}


class CeleryDispatcher:
    """Sends ``(batch_id, item_ids)`` to the queue of a stage's task."""

    def __init__(
        self,
        celery_app=None,
        prefix: str | None = None,
        fallback: str = "auto",
        probe_ttl: float = 30.0,
        probe_timeout: float = 1.0,
    ) -> None:
        self.app = celery_app or app
        self.prefix = celeryconfig.QUEUE_PREFIX if prefix is None else prefix
        self.fallback = fallback
        self.probe_ttl = probe_ttl
        self.probe_timeout = probe_timeout
        self._served: tuple[float, frozenset[str]] | None = None

    @classmethod
    def for_settings(cls, settings: FleetSettings) -> "CeleryDispatcher":
        from tasks.app import producer_app

        return cls(producer_app(settings.broker_url, settings.queue_prefix), settings.queue_prefix, settings.gpu_fallback)

    def served_queues(self) -> frozenset[str]:
        """Queues some live worker consumes (asked of the workers, cached briefly)."""
        now = time.monotonic()
        if self._served is None or now - self._served[0] > self.probe_ttl:
            replies = self.app.control.inspect(timeout=self.probe_timeout).active_queues() or {}
            names = frozenset(q["name"] for queues in replies.values() for q in queues)
            self._served = (now, names)
        return self._served[1]

    def queue_for(self, stage: str) -> str:
        queue = celeryconfig.queue_name(celeryconfig.TASK_QUEUES[STAGE_TASK_NAMES[stage]], self.prefix)
        if stage_kind(stage) in GPU_KINDS:
            if self.fallback == "always" or (self.fallback == "auto" and queue not in self.served_queues()):
                return celeryconfig.queue_name(celeryconfig.CPU_FALLBACK_QUEUE, self.prefix)
        return queue

    def send(self, stage: str, batch_id: str, item_ids: list[int]) -> None:
        batch_id, ids = check_message(batch_id, [int(i) for i in item_ids])
        self.app.send_task(STAGE_TASK_NAMES[stage], args=[batch_id, ids], queue=self.queue_for(stage))


_DISPATCHER: CeleryDispatcher | None = None


def dispatcher() -> CeleryDispatcher:
    global _DISPATCHER
    if _DISPATCHER is None:
        _DISPATCHER = CeleryDispatcher(app, celeryconfig.QUEUE_PREFIX, _settings().gpu_fallback)
    return _DISPATCHER


def _served_here(task, stage: str) -> bool:
    """Does this worker consume the queue ``stage`` would be sent to, so that it may run the stage itself?"""
    if not _settings().chain_stages or stage_kind(stage) in GPU_KINDS:
        return False
    return dispatcher().queue_for(stage) in task.app.amqp.queues.consume_from


def run_stage(task, stage: str, batch_id: str, item_ids: Sequence[int]) -> dict:
    """Run ``stage`` on the chunk, then each next CPU stage whose queue this worker consumes, then send the rest on.

    Chaining saves a broker hop, a wait for the next message and a re-read of
    the batch per stage; each stage still commits on its own, so a crash part
    way redelivers this message, whose first stages skip what they did and
    forward again.  A worker bound to one stage's queue never chains.
    """
    if faults.on_receive():
        return {"dropped": len(item_ids)}
    try:
        batch_id, ids = check_message(batch_id, list(item_ids))
    except MessageError as exc:
        log.error("%s: dropped a malformed message: %s", stage, exc)
        return {"error": "MessageError"}
    ctx = worker_context()
    send = dispatcher().send
    totals = {"done": 0, "failed": 0, "skipped": 0, "resent": 0, "stages": 0}
    while True:
        try:
            result = execute_stage(ctx, stage, batch_id, ids)
        except StageError as exc:
            log.error("%s batch %s: %s", stage, batch_id, exc)
            return {"error": "StageError"}
        except Retry:
            raise
        except (Exception, SoftTimeLimitExceeded) as exc:  # the store or the broker, not a note
            retries = task.request.retries
            log.warning("%s batch %s: %s (try %d)", stage, batch_id, type(exc).__name__, retries + 1)
            if retries < MAX_TASK_RETRIES:
                raise task.retry(exc=TransientStageError(type(exc).__name__), countdown=min(60, 2**retries)) from None
            fail_items(ctx.sessions, batch_id, ids, TransientStageError(f"{stage}: {type(exc).__name__} after {retries + 1} tries"))
            return {"error": type(exc).__name__}
        for name in ("done", "failed", "skipped"):
            totals[name] += getattr(result, name)
        totals["resent"] += len(result.resend)
        totals["stages"] += 1
        for single in result.resend:
            send(stage, batch_id, single)
        if not result.forward or result.next_stage == STAGE_DONE:
            return totals
        if result.resend or not _served_here(task, result.next_stage):
            send(result.next_stage, batch_id, result.forward)
            return totals
        stage, ids = result.next_stage, list(result.forward)


_OPTIONS = {"bind": True, "acks_late": True, "reject_on_worker_lost": True, "max_retries": MAX_TASK_RETRIES, "ignore_result": True}


@app.task(name="deid.recognize.rules", **_OPTIONS)
def recognize_rules(self, batch_id: str, item_ids: list[int]) -> dict:
    return run_stage(self, recognize_stage("rules"), batch_id, item_ids)


@app.task(name="deid.recognize.encoder", **_OPTIONS)
def recognize_encoder(self, batch_id: str, item_ids: list[int]) -> dict:
    return run_stage(self, recognize_stage("encoder"), batch_id, item_ids)


@app.task(name="deid.recognize.generative", **_OPTIONS)
def recognize_generative(self, batch_id: str, item_ids: list[int]) -> dict:
    return run_stage(self, recognize_stage("generative"), batch_id, item_ids)


@app.task(name="deid.resolve", **_OPTIONS)
def resolve_qc(self, batch_id: str, item_ids: list[int]) -> dict:
    return run_stage(self, STAGE_RESOLVE, batch_id, item_ids)


@app.task(name="deid.verify", **_OPTIONS)
def verify(self, batch_id: str, item_ids: list[int]) -> dict:
    return run_stage(self, STAGE_VERIFY, batch_id, item_ids)


@app.task(name="deid.anonymize", **_OPTIONS)
def anonymize(self, batch_id: str, item_ids: list[int]) -> dict:
    return run_stage(self, STAGE_ANONYMIZE, batch_id, item_ids)


STAGE_TASKS = {
    recognize_stage("rules"): recognize_rules,
    recognize_stage("encoder"): recognize_encoder,
    recognize_stage("generative"): recognize_generative,
    STAGE_RESOLVE: resolve_qc,
    STAGE_VERIFY: verify,
    STAGE_ANONYMIZE: anonymize,
}
