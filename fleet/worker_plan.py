"""``deid worker --queues cpu|gpu|all|<names>`` as a ``celery worker`` command line.

GPU workers get a solo pool (one process, one model, prefetch 1), or a
thread pool when asked for more than one slot: CUDA state never crosses a
fork.  CPU workers get a prefork pool, optionally autoscaled, with
``max_memory_per_child`` recycling children that grow.
"""

from __future__ import annotations

import socket
import sys
import uuid
from dataclasses import dataclass

import celeryconfig

ROLES = {"gpu": celeryconfig.GPU_QUEUES, "cpu": celeryconfig.CPU_QUEUES, "all": celeryconfig.ALL_QUEUES}


class WorkerArgsError(ValueError):
    pass


@dataclass(frozen=True)
class WorkerPlan:
    role: str  # "gpu" or "cpu": decides the device and the pool
    queues: tuple[str, ...]  # without prefix
    argv: tuple[str, ...]


def parse_queues(spec: str) -> tuple[str, tuple[str, ...]]:
    spec = spec.strip()
    if spec in ROLES:
        return ("gpu" if spec == "gpu" else "cpu"), tuple(ROLES[spec])
    names = tuple(q.strip() for q in spec.split(",") if q.strip())
    bad = [q for q in names if q not in celeryconfig.ALL_QUEUES]
    if not names or bad:
        raise WorkerArgsError(f"unknown queue(s) {bad or spec!r}: use cpu, gpu, all or names from {', '.join(celeryconfig.ALL_QUEUES)}")
    gpu = [q for q in names if q in celeryconfig.GPU_QUEUES]
    if gpu and len(gpu) != len(names):
        raise WorkerArgsError("a worker serves GPU queues or CPU queues, not both: GPU pools are not fork-safe")
    return ("gpu" if gpu else "cpu"), names


def worker_plan(
    queues: str,
    *,
    prefix: str = "",
    concurrency: int | None = None,
    autoscale: str | None = None,
    max_memory_per_child: int | None = None,
    loglevel: str = "INFO",
    hostname: str | None = None,
    python: str | None = None,
) -> WorkerPlan:
    role, names = parse_queues(queues)
    node = hostname or f"{role}-{uuid.uuid4().hex[:6]}@{socket.gethostname()}"
    argv = [python or sys.executable, "-m", "celery", "-A", "tasks.app", "worker"]
    argv += ["-Q", ",".join(prefix + q for q in names), "-n", node, "--loglevel", loglevel]
    argv += ["--without-mingle", "--without-gossip", "--prefetch-multiplier", "1"]
    if role == "gpu":
        if autoscale:
            raise WorkerArgsError("--autoscale applies to CPU pools; scale GPU workers by adding workers")
        slots = concurrency or 1
        argv += ["--pool", "solo"] if slots == 1 else ["--pool", "threads", "--concurrency", str(slots)]
    else:
        argv += ["--pool", "prefork"]
        if autoscale:
            parts = autoscale.split(",")
            if len(parts) != 2 or not all(p.strip().isdigit() for p in parts) or int(parts[0]) < int(parts[1]):
                raise WorkerArgsError("--autoscale takes MAX,MIN with MAX >= MIN")
            argv += ["--autoscale", autoscale]
        elif concurrency:
            argv += ["--concurrency", str(concurrency)]
        if max_memory_per_child:
            argv += ["--max-memory-per-child", str(max_memory_per_child)]
    return WorkerPlan(role, names, tuple(argv))
