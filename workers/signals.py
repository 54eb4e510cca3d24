"""Worker process hooks: build the recognizers before the first task.

In a prefork (CPU) worker the main process builds them in ``worker_init``
and every child inherits them at fork, so a child recycled by
``max_memory_per_child`` starts warm.  A GPU worker runs a solo or thread
pool: its one process builds the models once and never forks after CUDA
is initialised.  ``DEID_PRELOAD=0`` skips this (a worker then builds on
first use).

Once ready, every worker's main process also runs the sweeper
(:mod:`fleet.sweeper`), which re-sends items the store shows as stalled;
a lock in the broker's Redis lets one worker sweep per interval.
``DEID_SWEEPER=0`` turns it off in a worker.
"""

from __future__ import annotations

from deid_core.environment import PRELOAD, SWEEPER
import logging
import os

from celery.signals import worker_init, worker_ready, worker_shutdown

log = logging.getLogger(__name__)


def preload() -> list[str]:
    """Build what this worker's configuration names; return the kinds built."""
    from fleet.pipeline import PipelineConfig
    from fleet.settings import load_fleet_settings
    from fleet.stages import detector_for
    from workers.models import device_for_role, worker_role

    settings = load_fleet_settings()
    built: list[str] = []
    if worker_role() == "gpu":
        kinds = [k for k in dict.fromkeys([*settings.recognizers, *settings.models]) if k != "rules"]
    else:
        kinds = ["rules"]
    config = PipelineConfig.load(settings.pipeline_config, tuple(dict.fromkeys([*settings.recognizers, *kinds])), settings.verifier_threshold)
    detector = detector_for(config, settings.models, device_for_role())
    for kind in kinds:
        detector.members[kind].recognizer  # noqa: B018 - loads it now
        built.append(kind)
    return built


@worker_init.connect
def _withhold_exception_details(**_kwargs) -> None:
    """Before anything can fail: no traceback or exception text in this worker's log (children inherit it)."""
    from fleet.logsafe import withhold_exception_details

    withhold_exception_details()


@worker_init.connect
def _preload_models(**_kwargs) -> None:
    if not PRELOAD.enabled():
        return
    try:
        built = preload()
        log.info("recognizers ready: %s", ", ".join(built) or "none")
    except Exception as exc:  # the tasks report it per note; never die at start for it
        log.warning("could not preload recognizers: %s", type(exc).__name__)


_SWEEPER: list = []


def start_sweeper() -> None:
    """Sweep stalled items every interval, taking turns with the other workers through a Redis lock."""
    import redis

    import celeryconfig
    from fleet.db import make_engine, session_factory
    from fleet.settings import load_fleet_settings
    from fleet.sweeper import SweepLoop, sweep, sweep_timing
    from tasks.pipeline import dispatcher

    settings = load_fleet_settings()
    timing = sweep_timing(celeryconfig.task_time_limit)
    lock = redis.Redis.from_url(celeryconfig.broker_url, socket_timeout=5)
    lock_key = f"{celeryconfig.QUEUE_PREFIX}deid.sweeper"
    sessions = []

    def sweep_once() -> int:
        if not sessions:  # built in this thread, after any fork; no pooled connection to inherit
            engine = make_engine(settings.database_url, settings.database_schema, pooled=False)
            sessions.append(session_factory(engine))
        # one note per message, as a redelivered chunk is split: a stalled item may be the note that
        # killed its worker, and a chunk the sweeper made up would give recognizers other neighbours
        return sweep(sessions[0], dispatcher().send, timing.stall_after, 1)

    def take_turn() -> bool:
        return bool(lock.set(lock_key, b"1", nx=True, px=max(500, int(timing.interval * 1000) - 100)))

    _SWEEPER.append(SweepLoop(sweep_once, take_turn, timing.interval).start())
    log.info("sweeper: items idle %ds are re-sent; a sweep every %ds", timing.stall_after, timing.interval)


@worker_ready.connect
def _start_sweeper(**_kwargs) -> None:
    if not SWEEPER.enabled():
        return
    try:
        start_sweeper()
    except Exception as exc:  # the other workers still sweep; say so
        log.warning("could not start the sweeper: %s", type(exc).__name__)


@worker_shutdown.connect
def _stop_sweeper(**_kwargs) -> None:
    for loop in _SWEEPER:
        loop.stop()
