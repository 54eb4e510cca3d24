"""The store says what is stalled: re-send items that made no progress past a deadline.

The broker's own recovery (unacked messages restored after the visibility
timeout) cannot see a message lost between leaving a queue and being
recorded as unacked, nor one a producer never sent.  The store can: every
delivery and every advance touches an item's ``updated_at``, so a pending
item older than the longest a task may run (plus a margin) has no live
task.  The sweeper re-sends it at its current stage; the stage executor
skips what already ran, so a spare message costs a lookup, never a second
result.  Each re-sent item is touched, so it is re-sent at most once per
deadline, and each re-delivery counts towards ``max_deliveries`` as any
other delivery does.  Items go out in chunks of whole patients
(:mod:`fleet.grouping`); a redelivered chunk is split further by the stage
executor, since a stalled note may be the one that killed its worker.

Every worker runs a :class:`SweepLoop` in its main process; a lock with
the interval as its lifetime lets one sweep run per interval fleet-wide.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from fleet.grouping import item_chunks
from fleet.models import Item, ItemStatus, utcnow

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SweepTiming:
    stall_after: int  # seconds without progress before a pending item is re-sent
    interval: int  # seconds between sweeps


def sweep_timing(task_time_limit: int) -> SweepTiming:
    """A tenth of the time limit past it (at least 1 s); a sweep every eighth of it, at most a minute apart.

    A task is killed at the time limit, so an item idle longer has no live
    task; the margin covers commit latency and clocks.
    """
    return SweepTiming(task_time_limit + max(1, task_time_limit // 10), max(1, min(60, task_time_limit // 8)))


def sweep(sessions: sessionmaker[Session], send: Callable[[str, str, list[int]], None], stall_after: float, chunk_size: int) -> int:
    """Re-send every pending item untouched for ``stall_after`` seconds; return how many."""
    now = utcnow()
    with sessions.begin() as s:
        rows = s.execute(
            select(Item.id, Item.batch_id, Item.stage, Item.patient_group)
            .where(Item.status == ItemStatus.PENDING, Item.updated_at < now - timedelta(seconds=stall_after))
            .order_by(Item.batch_id, Item.stage, Item.id)
            .with_for_update(skip_locked=True)  # two sweepers never take the same item
        ).all()
        if not rows:
            return 0
        s.execute(update(Item).where(Item.id.in_([r.id for r in rows])).values(updated_at=now))
    groups: dict[tuple[str, str], list[tuple[int, int | None]]] = {}
    for item_id, batch_id, stage, patient in rows:
        groups.setdefault((batch_id, stage), []).append((item_id, patient))
    for (batch_id, stage), items in groups.items():
        for chunk in item_chunks([i for i, _ in items], [p for _, p in items], chunk_size):
            send(stage, batch_id, chunk)
    log.warning("sweeper: re-sent %d stalled item(s) in %d batch stage(s)", len(rows), len(groups))
    return len(rows)


class SweepLoop:
    """Calls ``sweep_once`` every ``interval`` seconds while ``take_turn()`` says it is this process's turn."""

    def __init__(self, sweep_once: Callable[[], int], take_turn: Callable[[], bool], interval: float) -> None:
        self.sweep_once = sweep_once
        self.take_turn = take_turn
        self.interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="deid-sweeper", daemon=True)

    def start(self) -> "SweepLoop":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                if self.take_turn():
                    self.sweep_once()
            except Exception as exc:  # the store or the broker is away: try again next interval
                log.warning("sweeper: %s", type(exc).__name__)
