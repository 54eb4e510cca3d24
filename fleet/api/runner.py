"""Stages in a background thread of the API process: ``deid serve --inline``.

A single machine should not need a broker to take notes over HTTP.  This
dispatcher hands each message to one worker thread that runs the fleet's
own stage executor on the same store, so a note submitted here goes
through exactly the stages a Celery worker would run.  A message whose
stage cannot run at all fails its items (fail closed) rather than leaving
them pending forever.
"""

from __future__ import annotations

import logging
import queue
import threading

from fleet.pipeline import STAGE_DONE
from fleet.stages import StageContext, execute_stage, fail_items

log = logging.getLogger(__name__)

_STOP = object()


class BackgroundRunner:
    def __init__(self, ctx: StageContext) -> None:
        self.ctx = ctx
        self._queue: queue.Queue = queue.Queue()
        self._lock = threading.Condition()
        self._outstanding = 0
        self._thread = threading.Thread(target=self._loop, name="deid-inline-stages", daemon=True)
        self._thread.start()

    def send(self, stage: str, batch_id: str, item_ids: list[int]) -> None:
        with self._lock:
            self._outstanding += 1
        self._queue.put((stage, batch_id, list(item_ids)))

    def wait_idle(self, timeout: float | None = None) -> bool:
        """True once every message sent so far (and what it led to) has run."""
        with self._lock:
            return self._lock.wait_for(lambda: self._outstanding == 0, timeout)

    def close(self, timeout: float = 30.0) -> None:
        self._queue.put(_STOP)
        self._thread.join(timeout)

    def _loop(self) -> None:
        while True:
            msg = self._queue.get()
            if msg is _STOP:
                return
            stage, batch_id, ids = msg
            try:
                self._run(stage, batch_id, ids)
            finally:
                with self._lock:
                    self._outstanding -= 1
                    self._lock.notify_all()

    def _run(self, stage: str, batch_id: str, ids: list[int]) -> None:
        try:
            result = execute_stage(self.ctx, stage, batch_id, ids)
        except Exception as exc:
            # the class only: an exception message might quote a note
            log.error("stage %s of batch %s failed for %d items: %s", stage, batch_id, len(ids), type(exc).__name__)
            try:
                fail_items(self.ctx.sessions, batch_id, ids, exc)
            except Exception as again:
                log.error("could not mark items of batch %s failed: %s", batch_id, type(again).__name__)
            return
        if result.forward and result.next_stage != STAGE_DONE:
            self.send(result.next_stage, batch_id, result.forward)
        for single in result.resend:
            self.send(stage, batch_id, single)
