"""Celery settings for the worker fleet, kept in one place.

Delivery is at-least-once and every write is idempotent, so a crashed worker
loses nothing and duplicates nothing:

* late acks and reject-on-worker-lost: a message leaves the broker only
  after its task finished; a worker that dies mid-task gives it back;
* prefetch 1: a worker never holds messages it is not running (GPU workers
  take one batch at a time, and a dead worker strands nothing);
* the visibility timeout is a few times the longest task (the hard time
  limit), so the broker never redelivers a task that is still running and
  a dead worker's message still comes back in minutes, not hours;
* the state store, not the broker, has the last word on progress: every
  worker runs the sweeper (``fleet/sweeper.py``), which re-sends items that
  made no progress for longer than a task may run, including messages the
  broker lost between a queue and its unacked set;
* a redelivered message is counted in the state store, and a note delivered
  more than ``max_deliveries`` times at one stage is failed with its error
  instead of looping (see ``fleet/stages.py``).

Messages carry a batch id and item ids only (claim-check), never note text,
spans or keys.  Everything is read from the environment, so one file serves
every worker; ``DEID_QUEUE_PREFIX`` lets several fleets (or test runs) share
one Redis without seeing each other's queues, control messages, worker
events or unacked messages (each prefix has its own unacked set, so one fleet never restores
another's).
"""

import deid_core.environment as env
import os

from kombu import Exchange, Queue

QUEUE_PREFIX = env.QUEUE_PREFIX.get()
GPU_QUEUES = ("gpu.encoder", "gpu.generative")
CPU_QUEUES = ("cpu.rules", "cpu.qc", "cpu.verify", "cpu.anonymize")
ALL_QUEUES = GPU_QUEUES + CPU_QUEUES
#: Where a GPU recognize task goes when no worker serves its GPU queue.
CPU_FALLBACK_QUEUE = "cpu.rules"

#: Task name -> queue (without prefix).  The stage plan lives in fleet/pipeline.py.
TASK_QUEUES = {
    "deid.recognize.encoder": "gpu.encoder",
    "deid.recognize.generative": "gpu.generative",
    "deid.recognize.rules": "cpu.rules",
    "deid.resolve": "cpu.qc",
    "deid.verify": "cpu.verify",
    "deid.anonymize": "cpu.anonymize",
}


def queue_name(base: str, prefix: str | None = None) -> str:
    return f"{QUEUE_PREFIX if prefix is None else prefix}{base}"


def prefixed(prefix: str) -> dict:
    """The settings that depend on the queue prefix, for an app built at run time."""
    return {
        "task_queues": tuple(
            Queue(queue_name(q, prefix), Exchange(queue_name(q, prefix), type="direct"), routing_key=queue_name(q, prefix))
            for q in ALL_QUEUES
        ),
        "task_routes": {task: {"queue": queue_name(q, prefix)} for task, q in TASK_QUEUES.items()},
        "task_default_queue": queue_name(CPU_FALLBACK_QUEUE, prefix),
        "control_exchange": f"{prefix}celery",
        "event_exchange": f"{prefix}celeryev",  # Flower sees this fleet's workers only
        "broker_transport_options": transport_options(prefix),
    }


def transport_options(prefix: str) -> dict:
    """Redis delivery settings; the unacked set and its lock are the prefix's own.

    A worker restores messages from its unacked set whose consumer died
    (unacked past the visibility timeout), a quarter of the timeout apart, at
    most a minute.
    """
    return {
        "visibility_timeout": visibility_timeout,
        "unacked_restore_interval": max(1, min(60, visibility_timeout // 4)),
        "unacked_restore_throttle": 1,
        "unacked_key": f"{prefix}unacked",
        "unacked_index_key": f"{prefix}unacked_index",
        "unacked_mutex_key": f"{prefix}unacked_mutex",
    }


def _int_env(var: env.EnvVar, default: int) -> int:
    return var.get_int() if var.get().strip() else default


broker_url = env.BROKER_URL.get()
broker_connection_retry_on_startup = True
result_backend = None  # state lives in Postgres, not in the broker
task_ignore_result = True


task_serializer = "json"
accept_content = ["json"]

task_acks_late = True
task_reject_on_worker_lost = True
worker_prefetch_multiplier = 1
worker_cancel_long_running_tasks_on_connection_loss = True

#: The longest any task may run (a GPU batch of the full token budget); the
#: broker's visibility timeout and the sweeper's deadline derive from it.
task_time_limit = _int_env(env.TASK_TIME_LIMIT, 600)
task_soft_time_limit = max(1, task_time_limit - max(2, task_time_limit // 10))
VISIBILITY_FACTOR = 3
visibility_timeout = _int_env(env.VISIBILITY_TIMEOUT, VISIBILITY_FACTOR * task_time_limit)
if task_time_limit < 2:
    raise ValueError(f"DEID_TASK_TIME_LIMIT ({task_time_limit}s) must be at least 2 seconds")
if visibility_timeout <= task_time_limit:
    raise ValueError(
        f"DEID_VISIBILITY_TIMEOUT ({visibility_timeout}s) must exceed the task time limit ({task_time_limit}s), "
        "or the broker would hand a running task to a second worker"
    )
_p = prefixed(QUEUE_PREFIX)
task_queues = _p["task_queues"]
task_routes = _p["task_routes"]
task_default_queue = _p["task_default_queue"]
control_exchange = _p["control_exchange"]
event_exchange = _p["event_exchange"]
broker_transport_options = _p["broker_transport_options"]
del _p

#: CPU pools recycle a child above this resident size (KiB); 0 disables it.
worker_max_memory_per_child = _int_env(env.MAX_MEMORY_PER_CHILD, 0) or None

# Flower reads task and worker events.
worker_send_task_events = True
task_send_sent_event = True
