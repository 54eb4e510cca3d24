"""Flower for this fleet: every queue it routes to, whether or not a worker serves it.

Flower lists the queues that live workers consume, and falls back to the
configured ones only when no worker answers, so a fleet with CPU workers
and no GPU worker never shows the GPU queues, the very queues whose
backlog says a GPU worker is needed.  Started through ``python -m
fleet.monitor`` (``deid flower`` does), Flower lists the union of both.
"""

from __future__ import annotations

import sys


def fleet_queue_names(handler) -> list[str]:
    """The queues live workers consume, plus every queue the app declares."""
    conf = handler.capp.conf
    names = {q["name"] for info in handler.application.workers.values() for q in info.get("active_queues", [])}
    names |= {conf.task_default_queue} | {q.name for q in conf.task_queues or [] if q.name}
    return sorted(names)


def main(argv: list[str]) -> None:
    from celery.__main__ import main as celery_main
    from flower.views import BaseHandler

    BaseHandler.get_active_queue_names = fleet_queue_names
    sys.argv = ["celery", *argv]
    celery_main()


if __name__ == "__main__":
    main(sys.argv[1:])
